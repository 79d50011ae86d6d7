//! What the `sbe` binary says when something is off, worded for the user
//! who meets it (issue 10, task 5): `--help` names the `--out` flag, an
//! inspected bad message gives each offset once, unknown template ids are
//! in decimal and hex, and a stream that is not SOFH-framed read with
//! `--framing sofh` is called that rather than a message of billions of
//! bytes. Uses the repository's `schemas/car.xml`: no ../shared needed.

mod common;

use std::path::PathBuf;

fn car_schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../schemas/car.xml")
        .to_string_lossy()
        .into_owned()
}

/// A Car message, encoded by `sbe encode`.
fn car_bin() -> Vec<u8> {
    let json = br#"{"message":"Car","body":{"serialNumber":1234,"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack"],"engine":{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{"BoostType":"NITROUS","horsePower":200}},"fuelFigures":[{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}],"performanceFigures":[],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}"#;
    let (code, bin, err) = common::sbe(&["encode", "--schema", &car_schema(), "-"], json);
    assert_eq!(code, 0, "{err}");
    assert!(bin.len() > 8);
    bin
}

/// The car with template id 51966 (0xCAFE) in its header.
fn unknown_template_bin() -> Vec<u8> {
    let mut bin = car_bin();
    bin[2] = 0xfe;
    bin[3] = 0xca;
    bin
}

fn run(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let (code, out, err) = common::sbe(args, input);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// No line of `text` gives an offset twice, or one "at byte" straight
/// after another (the message's and its error's).
fn offsets_once(text: &str) {
    for line in text.lines() {
        let mut offsets: Vec<&str> = line
            .split("at byte ")
            .skip(1)
            .map(|rest| {
                rest.split(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap_or("")
            })
            .collect();
        for rest in line.split("at byte ").skip(1) {
            let after = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            assert!(
                !after.starts_with(": at byte"),
                "an offset after an offset: {line:?}"
            );
        }
        offsets.sort_unstable();
        let n = offsets.len();
        offsets.dedup();
        assert_eq!(offsets.len(), n, "an offset repeated: {line:?}");
    }
}

#[test]
fn help_names_the_out_flag() {
    let (code, out, _) = run(&["--help"], b"");
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("generate"))
        .expect("generate in --help");
    assert!(line.contains("--out"), "{line}");
    assert!(!line.contains("DIR"), "{line}");
    let (code, out, _) = run(&["generate", "--help"], b"");
    assert_eq!(code, 0);
    assert!(out.contains("--out <OUT>"), "{out}");
    assert!(out.contains("into the --out folder"), "{out}");
    assert!(!out.contains("into DIR"), "{out}");
}

#[test]
fn inspect_gives_each_offset_once() {
    let schema = car_schema();
    // Unknown template: the message is at 0, the template id at 2.
    let (code, out, err) = run(
        &["inspect", "--schema", &schema, "-"],
        &unknown_template_bin(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().next(),
        Some("message at byte 0, error at byte 2: unknown template id 51966 (0xcafe)"),
        "{out}"
    );
    offsets_once(&out);
    offsets_once(&err);
    assert!(
        err.contains("-: at byte 2: unknown template id 51966"),
        "{err}"
    );
    // Cut in the header: the problem is where the message is, said once.
    let (code, out, err) = run(&["inspect", "--schema", &schema, "-"], &car_bin()[..5]);
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().next(),
        Some("message at byte 0: truncated: message header needs 8 bytes, 5 left"),
        "{out}"
    );
    offsets_once(&out);
    offsets_once(&err);
    // A good message first: the second is at its own offset.
    let good = car_bin();
    let mut two = good.clone();
    two.extend(unknown_template_bin());
    let (code, out, _) = run(&["inspect", "--schema", &schema, "-"], &two);
    assert_eq!(code, 1);
    let heading = format!(
        "message at byte {}, error at byte {}: unknown template id 51966 (0xcafe)",
        good.len(),
        good.len() + 2
    );
    assert!(
        out.lines().any(|l| l == heading),
        "{heading:?} not in {out}"
    );
    offsets_once(&out);
}

#[test]
fn unknown_template_ids_are_in_decimal_and_hex() {
    let schema = car_schema();
    let (code, out, err) = run(
        &["decode", "--schema", &schema, "-"],
        &unknown_template_bin(),
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.to_lowercase()
            .contains("at byte 2: unknown template id 51966 (0xcafe)"),
        "{err}"
    );
}

/// `bin` behind a SOFH of `length` and `encoding`.
fn sofh(length: u32, encoding: u16, bin: &[u8]) -> Vec<u8> {
    let mut f = length.to_be_bytes().to_vec();
    f.extend(encoding.to_be_bytes());
    f.extend_from_slice(bin);
    f
}

#[test]
fn a_raw_stream_read_as_sofh_is_not_a_sofh_header() {
    let schema = car_schema();
    let car = car_bin();
    // The car's header read as a SOFH: blockLength 45 and templateId 1
    // make a length of 754,974,976; schemaId 1 the encoding type 0x0100.
    for cmd in ["decode", "inspect"] {
        let (code, out, err) = run(&[cmd, "--schema", &schema, "--framing", "sofh", "-"], &car);
        assert_eq!(code, 1, "{cmd}");
        assert!(out.is_empty(), "{cmd}: {out}");
        assert!(
            err.contains("at byte 0: not a SOFH header: encoding type 0x0100 is not SBE's (0xeb50 little-endian, 0x5be0 big-endian)"),
            "{cmd}: {err}"
        );
        assert!(!err.contains("would need"), "{cmd}: {err}");
        offsets_once(&err);
    }
    // After a good frame, 0xCAFE with a length no frame has; --keep-going
    // cannot go on past it.
    let mut stream = sofh(car.len() as u32 + 6, 0xeb50, &car);
    stream.extend(sofh(u32::MAX, 0xcafe, &car));
    let (code, out, err) = run(
        &[
            "decode",
            "--schema",
            &schema,
            "--framing",
            "sofh",
            "--keep-going",
            "-",
        ],
        &stream,
    );
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 1, "{out}");
    let at = car.len() + 6;
    assert!(
        err.contains(&format!(
            "at byte {at}: not a SOFH header: encoding type 0xcafe"
        )),
        "{err}"
    );
    // Not SBE's, and longer than the input: not a SOFH header either.
    let short = sofh(1000, 0xcafe, &car);
    let (code, _, err) = run(
        &["decode", "--schema", &schema, "--framing", "sofh", "-"],
        &short,
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 0: not a SOFH header: encoding type 0xcafe"),
        "{err}"
    );
    // A length below the header's own 6 bytes, not SBE's.
    let tiny = sofh(2, 0xcafe, &car);
    let (code, _, err) = run(
        &["decode", "--schema", &schema, "--framing", "sofh", "-"],
        &tiny,
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("not a SOFH header: encoding type 0xcafe"),
        "{err}"
    );
}

#[test]
fn sofh_frames_keep_their_own_messages() {
    let schema = car_schema();
    let car = car_bin();
    let frame_len = car.len() as u32 + 6;
    // SBE's encoding type with a corrupt length: the length is what is wrong.
    let huge = sofh(u32::MAX, 0xeb50, &car);
    let (code, _, err) = run(
        &["decode", "--schema", &schema, "--framing", "sofh", "-"],
        &huge,
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 0: message would need 4294967295 bytes"),
        "{err}"
    );
    assert!(!err.contains("not a SOFH header"), "{err}");
    // A whole frame of another encoding: skipped with --keep-going, the
    // frames after it decoded.
    let mut stream = sofh(frame_len, 0xcafe, &car);
    stream.extend(sofh(frame_len, 0xeb50, &car));
    let (code, out, err) = run(
        &[
            "decode",
            "--schema",
            &schema,
            "--framing",
            "sofh",
            "--keep-going",
            "-",
        ],
        &stream,
    );
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        err.contains("at byte 4: framing: encoding type 0xcafe is not SBE's (0xeb50 little-endian, 0x5be0 big-endian)"),
        "{err}"
    );
}
