//! Venue framings through the `sbe` binary on plain files (issue 12): car
//! messages made by `sbe encode`, wrapped by hand in each `--framing`
//! (`raw`, `sofh`, `sofh-le`, `mdp3`, custom forms), decoded and
//! inspected; a stream cut mid-message, lying lengths, a wrong encoding
//! type, a packet framing on a plain file. Uses the repository's
//! `schemas/car.xml`: no ../shared needed.

mod common;

use std::path::PathBuf;

fn car_schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../schemas/car.xml")
        .to_string_lossy()
        .into_owned()
}

/// Three car messages (serial numbers 1, 2, 3) encoded by `sbe encode`.
fn cars() -> Vec<Vec<u8>> {
    (1..=3)
        .map(|serial| {
            let json = format!(
                r#"{{"message":"Car","body":{{"serialNumber":{serial},"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack"],"engine":{{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{{"BoostType":"NITROUS","horsePower":200}}}},"fuelFigures":[{{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}}],"performanceFigures":[],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}}}"#
            );
            let (code, bin, err) =
                common::sbe(&["encode", "--schema", &car_schema(), "-"], json.as_bytes());
            assert_eq!(code, 0, "{err}");
            bin
        })
        .collect()
}

/// `sbe decode --framing framing` of `input`: (exit code, serial numbers
/// decoded, stderr).
fn decode(framing: &str, extra: &[&str], input: &[u8]) -> (i32, Vec<u64>, String) {
    let schema = car_schema();
    let mut args = vec!["decode", "--schema", &schema, "--framing", framing];
    args.extend_from_slice(extra);
    args.push("-");
    let (code, out, err) = common::sbe(&args, input);
    let serials = String::from_utf8_lossy(&out)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(v["message"], "Car", "{line}");
            v["body"]["serialNumber"].as_u64().expect("serialNumber")
        })
        .collect();
    (code, serials, err)
}

/// Each message behind a SOFH (u32 BE length counting the 6 bytes, 0xEB50).
fn sofh(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.extend((m.len() as u32 + 6).to_be_bytes());
        out.extend([0xeb, 0x50]);
        out.extend(m);
    }
    out
}

/// Each message behind iLink 3's 4-byte header (u16 LE length counting the
/// 4 bytes, then `encoding` LE).
fn sofh_le(messages: &[Vec<u8>], encoding: u16) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.extend((m.len() as u16 + 4).to_le_bytes());
        out.extend(encoding.to_le_bytes());
        out.extend(m);
    }
    out
}

/// Each message behind a u32 BE length of the message alone, frames
/// padded to 8.
fn u32be_message_align8(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.extend((m.len() as u32).to_be_bytes());
        out.extend(m);
        while out.len() % 8 != 0 {
            out.push(0);
        }
    }
    out
}

/// One MDP3 datagram: the 12-byte packet header, each message behind a u16
/// LE MsgSize counting itself.
fn mdp3_datagram(seq: u32, messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = seq.to_le_bytes().to_vec();
    out.extend(1_700_000_000_000_000_000u64.to_le_bytes());
    for m in messages {
        out.extend((m.len() as u16 + 2).to_le_bytes());
        out.extend(m);
    }
    out
}

#[test]
fn every_stream_framing_decodes_its_frames() {
    let cars = cars();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("raw", cars.concat()),
        ("sofh", sofh(&cars)),
        ("sofh-le", sofh_le(&cars, 0xcafe)),
        ("sofh-le", sofh_le(&cars, 0xeb50)), // B3
        ("len=u16le,enc=u16le=0xeb50", sofh_le(&cars, 0xeb50)),
        (
            "len=u32be,counts=message,align=8",
            u32be_message_align8(&cars),
        ),
        // The MDP3 message framing alone.
        ("len=u16le", mdp3_datagram(1, &cars)[12..].to_vec()),
    ];
    for (framing, input) in cases {
        let (code, serials, err) = decode(framing, &[], &input);
        assert_eq!(
            (code, &serials[..]),
            (0, &[1, 2, 3][..]),
            "{framing}: {err}"
        );
        assert!(err.is_empty(), "{framing}: {err}");
    }
}

#[test]
fn inspect_reads_the_framings_too() {
    let cars = cars();
    let schema = car_schema();
    let len = cars[0].len();
    let padded = (len + 4).div_ceil(8) * 8;
    for (framing, input, second) in [
        ("sofh-le", sofh_le(&cars, 0xcafe), len + 8),
        (
            "len=u32be,counts=message,align=8",
            u32be_message_align8(&cars),
            padded + 4,
        ),
    ] {
        let (code, out, err) = common::sbe(
            &["inspect", "--schema", &schema, "--framing", framing, "-"],
            &input,
        );
        assert_eq!(code, 0, "{framing}: {err}");
        let out = String::from_utf8_lossy(&out);
        assert_eq!(out.matches("serialNumber").count(), 3, "{framing}: {out}");
        // Each message at its offset after its prefix (and padding).
        for at in [4, second] {
            assert!(
                out.contains(&format!(
                    "Car (templateId 1, version 0) at byte {at}, {len} bytes"
                )),
                "{framing}: {out}"
            );
        }
    }
}

#[test]
fn mdp3_on_a_plain_file_is_refused_with_a_way_out() {
    let cars = cars();
    let datagram = mdp3_datagram(7, &cars);
    let (code, serials, err) = decode("mdp3", &[], &datagram);
    assert_eq!(code, 1);
    assert!(serials.is_empty());
    assert!(
        err.contains("--framing mdp3 is a packet framing (a 12-byte header per datagram)"),
        "{err}"
    );
    assert!(err.contains("give a pcap or pcapng capture"), "{err}");
    assert!(err.contains("--skip 12 --framing len=u16le"), "{err}");
    // The way out it names reads the one datagram.
    let (code, serials, err) = decode("len=u16le", &["--skip", "12"], &datagram);
    assert_eq!((code, &serials[..]), (0, &[1, 2, 3][..]), "{err}");
    // A custom packet framing likewise.
    let (code, _, err) = decode("packet=16,len=u16le,enc=u16le", &[], &datagram);
    assert_eq!(code, 1);
    assert!(
        err.contains("--skip 16 --framing len=u16le,enc=u16le"),
        "{err}"
    );
}

#[test]
fn a_stream_cut_mid_message_says_where() {
    let cars = cars();
    let first = cars[0].len() + 4;
    for framing in ["sofh-le", "len=u16le,enc=u16le=0xcafe"] {
        let mut input = sofh_le(&cars, 0xcafe);
        input.truncate(first + 40);
        let (code, serials, err) = decode(framing, &[], &input);
        assert_eq!((code, &serials[..]), (1, &[1][..]), "{framing}: {err}");
        assert!(
            err.contains(&format!(
                "at byte {first}: bad framing header: frame of {} bytes, input ends after 40",
                cars[1].len() + 4
            )),
            "{framing}: {err}"
        );
    }
    // Cut inside the next frame's header.
    let mut input = u32be_message_align8(&cars);
    let second = (cars[0].len() + 4).div_ceil(8) * 8;
    input.truncate(second + 3);
    let (code, serials, err) = decode("len=u32be,counts=message,align=8", &[], &input);
    assert_eq!((code, &serials[..]), (1, &[1][..]), "{err}");
    assert!(
        err.contains(&format!(
            "at byte {second}: bad framing header: input ends 3 bytes into a 4-byte framing header"
        )),
        "{err}"
    );
}

#[test]
fn lying_lengths_are_errors_at_their_offset() {
    let cars = cars();
    let first = cars[0].len() + 4;
    // A length shorter than the 4-byte header: nothing can be framed past
    // it, even with --keep-going.
    let mut input = sofh_le(&cars[..1], 0xcafe);
    input.extend([2, 0, 0xfe, 0xca]);
    input.extend(sofh_le(&cars[1..], 0xcafe));
    let (code, serials, err) = decode("sofh-le", &["--keep-going"], &input);
    assert_eq!((code, &serials[..]), (1, &[1][..]), "{err}");
    assert!(
        err.contains(&format!(
            "at byte {first}: bad framing header: message length 2 is less than the 4-byte header"
        )),
        "{err}"
    );
    // Zero, counting the message alone.
    let mut input = u32be_message_align8(&cars[..1]);
    let second = input.len();
    input.extend([0, 0, 0, 0, 0, 0, 0, 0]);
    let (code, serials, err) = decode("len=u32be,counts=message,align=8", &[], &input);
    assert_eq!((code, &serials[..]), (1, &[1][..]), "{err}");
    assert!(
        err.contains(&format!(
            "at byte {second}: bad framing header: message length 0"
        )),
        "{err}"
    );
    // Longer than the input.
    let mut input = sofh_le(&cars[..1], 0xcafe);
    input.extend([0xff, 0xff, 0xfe, 0xca, 1, 2, 3]);
    let (code, serials, err) = decode("sofh-le", &[], &input);
    assert_eq!((code, &serials[..]), (1, &[1][..]), "{err}");
    assert!(
        err.contains(&format!(
            "at byte {first}: bad framing header: frame of 65535 bytes, input ends after 7"
        )),
        "{err}"
    );
    // Too short for its message, but framing the stream: the message is
    // cut, and --keep-going goes on with the next frame.
    let mut input = sofh_le(&cars, 0xcafe);
    input[first] = 40; // 36 bytes of the second car
    input.drain(first + 40..first + 4 + cars[1].len());
    let (code, serials, err) = decode("sofh-le", &["--keep-going"], &input);
    assert_eq!((code, &serials[..]), (1, &[1, 3][..]), "{err}");
    // The root block, after the 8-byte message header, is cut.
    assert!(
        err.contains(&format!(
            "at byte {}: truncated: root block of Car needs 45 bytes, 28 left",
            first + 4 + 8
        )),
        "{err}"
    );
}

#[test]
fn a_wrong_encoding_type_is_named() {
    let cars = cars();
    // A sane length: that frame is skipped with --keep-going.
    let mut input = sofh_le(&cars[..1], 0x1234);
    input.extend(sofh_le(&cars[1..], 0xcafe));
    let (code, serials, err) = decode("sofh-le", &["--keep-going"], &input);
    assert_eq!((code, &serials[..]), (1, &[2, 3][..]), "{err}");
    assert!(
        err.contains("at byte 2: framing: encoding type 0x1234 is not 0xcafe or 0xeb50"),
        "{err}"
    );
    // B3 only: iLink 3's 0xCAFE is wrong.
    let (code, serials, err) = decode("len=u16le,enc=u16le=0xeb50", &[], &sofh_le(&cars, 0xcafe));
    assert_eq!((code, serials.len()), (1, 0), "{err}");
    assert!(
        err.contains("at byte 2: framing: encoding type 0xcafe is not 0xeb50"),
        "{err}"
    );
    // Raw messages read as sofh-le: blockLength 45 reads as a length that
    // frames the input, templateId 1 as the encoding type.
    let (code, _, err) = decode("sofh-le", &[], &cars.concat());
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 2: framing: encoding type 0x0001 is not 0xcafe or 0xeb50"),
        "{err}"
    );
    // A length that cannot frame it: not framed that way at all.
    let mut input = cars.concat();
    input[0] = 1;
    let (code, _, err) = decode("sofh-le", &[], &input);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "at byte 0: not a SOFH header: encoding type 0x0001 is not 0xcafe or 0xeb50; \
             is the input really --framing sofh-le?"
        ),
        "{err}"
    );
}

#[test]
fn bad_framing_arguments_are_explained() {
    let schema = car_schema();
    for (framing, says) in [
        ("sofh-be", "unknown framing \"sofh-be\""),
        ("len=u24le", "len: unknown type \"u24le\""),
        ("len=u16le,align=3", "alignment 3 is not a power of two"),
    ] {
        let (code, _, err) = common::sbe(
            &["decode", "--schema", &schema, "--framing", framing, "-"],
            b"",
        );
        assert_eq!(code, 2, "{framing}: {err}");
        assert!(err.contains(says), "{framing}: {err}");
    }
}

#[test]
fn encode_writes_sofh_framing() {
    let cars = cars();
    let schema = car_schema();
    let (code, json, err) = common::sbe(&["decode", "--schema", &schema, "-"], &cars.concat());
    assert_eq!(code, 0, "{err}");
    let (code, framed, err) = common::sbe(
        &["encode", "--schema", &schema, "--framing", "sofh", "-"],
        &json,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(framed, sofh(&cars));
}
