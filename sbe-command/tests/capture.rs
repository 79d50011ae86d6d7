//! `sbe decode` and `sbe inspect` on network captures (issue 12), through
//! the real binary: pcap (µs and ns, both byte orders) and pcapng files
//! written here, record by record, around Ethernet/VLAN/SLL/raw-IP, IPv4
//! and IPv6, UDP and TCP frames built with etherparse; messages made by
//! `sbe encode` from the repository's schemas/car.xml and
//! benches/market-data.xml (schema ids 1 and 7).

mod common;

use common::{pcapng, rec, sofh, udp, v4, Rec, MAC_A, MAC_B};

use std::path::PathBuf;

use etherparse::PacketBuilder;
use serde_json::Value;

fn car_schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../schemas/car.xml")
        .to_string_lossy()
        .into_owned()
}

fn md_schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches/market-data.xml")
        .to_string_lossy()
        .into_owned()
}

/// Encode `n` JSON messages (all the same length) with `schema` and give
/// them back one by one.
fn encode_each(schema: &str, jsons: &[String]) -> Vec<Vec<u8>> {
    let input = jsons.join("\n");
    let (code, bin, err) = common::sbe(&["encode", "--schema", schema, "-"], input.as_bytes());
    assert_eq!(code, 0, "{err}");
    let n = jsons.len();
    assert_eq!(bin.len() % n, 0, "messages of one length");
    bin.chunks(bin.len() / n).map(<[u8]>::to_vec).collect()
}

/// Cars with serial numbers `first`, `first + 1`, ...
fn cars(first: u64, n: usize) -> Vec<Vec<u8>> {
    let jsons: Vec<String> = (0..n as u64)
        .map(|i| {
            format!(
                r#"{{"message":"Car","body":{{"serialNumber":{},"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack"],"engine":{{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{{"BoostType":"NITROUS","horsePower":200}}}},"fuelFigures":[{{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}}],"performanceFigures":[],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}}}"#,
                first + i
            )
        })
        .collect();
    encode_each(&car_schema(), &jsons)
}

/// Book updates with transact times `first`, `first + 1`, ...
fn books(first: u64, n: usize) -> Vec<Vec<u8>> {
    let jsons: Vec<String> = (0..n as u64)
        .map(|i| {
            format!(
                r#"{{"message":"BookUpdate","body":{{"transactTime":{},"flags":["EndOfEvent"],"entries":[{{"price":{{"mantissa":4500000000000}},"size":5,"securityId":1001,"rptSeq":{i},"level":1,"action":"New","entryType":"Bid"}}]}}}}"#,
                first + i
            )
        })
        .collect();
    encode_each(&md_schema(), &jsons)
}

// ---- capture files ----

const ETHERNET: u32 = 1;
const RAW_IP: u32 = 101;
const LINUX_SLL: u32 = 113;

/// A pcap file: µs or ns timestamps, little- or big-endian.
fn pcap(link: u32, ns: bool, be: bool, recs: &[Rec]) -> Vec<u8> {
    let u32b = |v: u32| if be { v.to_be_bytes() } else { v.to_le_bytes() };
    let u16b = |v: u16| if be { v.to_be_bytes() } else { v.to_le_bytes() };
    let mut f = Vec::new();
    f.extend(u32b(if ns { 0xa1b2_3c4d } else { 0xa1b2_c3d4 }));
    f.extend(u16b(2));
    f.extend(u16b(4));
    f.extend(u32b(0)); // thiszone
    f.extend(u32b(0)); // sigfigs
    f.extend(u32b(65535)); // snaplen
    f.extend(u32b(link));
    for r in recs {
        f.extend(u32b(r.secs));
        f.extend(u32b(if ns { r.nanos } else { r.nanos / 1000 }));
        f.extend(u32b(r.frame.len() as u32));
        f.extend(u32b(r.frame.len() as u32));
        f.extend(&r.frame);
    }
    f
}

// ---- frames ----

#[derive(Clone, Copy, Default)]
struct Flags {
    syn: bool,
    fin: bool,
}

fn tcp(src: &str, dst: &str, seq: u32, flags: Flags, payload: &[u8]) -> Vec<u8> {
    let (s, sp) = v4(src);
    let (d, dp) = v4(dst);
    let mut b = PacketBuilder::ethernet2(MAC_A, MAC_B)
        .ipv4(s, d, 64)
        .tcp(sp, dp, seq, 65535);
    if flags.syn {
        b = b.syn();
    } else {
        b = b.ack(1);
    }
    if flags.fin {
        b = b.fin();
    }
    let mut f = Vec::new();
    b.write(&mut f, payload).expect("tcp frame");
    f
}

// ---- running ----

fn run(args: &[&str], input: &[u8]) -> (i32, Vec<Value>, String) {
    let (code, out, err) = common::sbe(args, input);
    assert_ne!(code, 101, "panicked: {err}");
    let lines = String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (code, lines, err)
}

fn decode(extra: &[&str], input: &[u8]) -> (i32, Vec<Value>, String) {
    let car = car_schema();
    let mut args = vec!["decode", "--schema", car.as_str()];
    args.extend_from_slice(extra);
    args.push("-");
    run(&args, input)
}

fn serials(lines: &[Value]) -> Vec<u64> {
    lines
        .iter()
        .map(|l| l["body"]["serialNumber"].as_u64().expect("serialNumber"))
        .collect()
}

/// Four UDP datagrams, two cars back to back in each (raw framing).
fn udp_recs() -> Vec<Rec> {
    let c = cars(100, 8);
    (0..4)
        .map(|i| {
            let payload = [c[2 * i].clone(), c[2 * i + 1].clone()].concat();
            rec(i as u32, udp("10.0.0.1:9000", "224.0.31.1:14310", &payload))
        })
        .collect()
}

#[test]
fn udp_in_every_capture_format() {
    let recs = udp_recs();
    let car_len = cars(0, 1)[0].len() as u64;
    let files = [
        (
            "pcap µs le",
            pcap(ETHERNET, false, false, &recs),
            "123456000",
        ),
        (
            "pcap µs be",
            pcap(ETHERNET, false, true, &recs),
            "123456000",
        ),
        (
            "pcap ns le",
            pcap(ETHERNET, true, false, &recs),
            "123456789",
        ),
        ("pcap ns be", pcap(ETHERNET, true, true, &recs), "123456789"),
        ("pcapng", pcapng(ETHERNET, &recs), "123456789"),
    ];
    for (name, file, nanos) in files {
        let (code, lines, err) = decode(&[], &file);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(err, "", "{name}");
        assert_eq!(serials(&lines), (100..108).collect::<Vec<_>>(), "{name}");
        for (i, l) in lines.iter().enumerate() {
            // FORMAT.md's keys as they are, then the frame.
            let keys: Vec<&str> = l
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                ["schema", "message", "header", "body", "frame"],
                "{name}"
            );
            assert_eq!(l["schema"], car_schema().as_str());
            assert_eq!(l["message"], "Car");
            assert_eq!(l["header"]["templateId"], 1);
            let f = &l["frame"];
            let packet = i as u64 / 2 + 1;
            assert_eq!(f["packet"], packet, "{name}");
            assert_eq!(
                f["time"],
                format!("2024-03-05T14:30:0{}.{nanos}Z", packet),
                "{name}"
            );
            assert_eq!(f["transport"], "udp");
            assert_eq!(f["src"], "10.0.0.1:9000");
            assert_eq!(f["dst"], "224.0.31.1:14310");
            assert_eq!(f["offset"], if i % 2 == 0 { 0 } else { car_len }, "{name}");
        }
    }
}

/// What `sbe decode` writes of a capture encodes back to the messages:
/// `sbe encode` passes over the `frame` object (DESIGN.md: encode reads
/// decode's JSON).
#[test]
fn decoded_capture_lines_encode_back() {
    let car = car_schema();
    let file = pcap(ETHERNET, true, false, &udp_recs());
    let (code, lines, err) = common::sbe(&["decode", "--schema", &car, "-"], &file);
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&lines).contains("\"frame\""));
    let (code, bytes, err) = common::sbe(&["encode", "--schema", &car, "-"], &lines);
    assert_eq!(code, 0, "{err}");
    assert_eq!(bytes, cars(100, 8).concat());
}

#[test]
fn link_layers_vlan_ipv6_sll_raw_ip() {
    let c = cars(7, 4);
    let mut vlan = Vec::new();
    PacketBuilder::ethernet2(MAC_A, MAC_B)
        .single_vlan(etherparse::VlanId::try_new(100).expect("vlan"))
        .ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
        .udp(1, 2)
        .write(&mut vlan, &c[0])
        .expect("vlan");
    let mut v6 = Vec::new();
    let a6 = [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    let b6 = [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];
    PacketBuilder::ethernet2(MAC_A, MAC_B)
        .ipv6(a6, b6, 64)
        .udp(5000, 6000)
        .write(&mut v6, &c[1])
        .expect("v6");
    let (code, lines, err) = decode(
        &[],
        &pcap(ETHERNET, false, false, &[rec(0, vlan), rec(1, v6)]),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(serials(&lines), [7, 8]);
    assert_eq!(lines[0]["frame"]["src"], "10.0.0.1:1");
    assert_eq!(lines[1]["frame"]["src"], "[fe80::1]:5000");
    assert_eq!(lines[1]["frame"]["dst"], "[fe80::2]:6000");

    let mut sll = Vec::new();
    PacketBuilder::linux_sll(
        etherparse::LinuxSllPacketType::HOST,
        6,
        [2, 0, 0, 0, 0, 1, 0, 0],
    )
    .ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
    .udp(1, 2)
    .write(&mut sll, &c[2])
    .expect("sll");
    let (code, lines, err) = decode(&[], &pcap(LINUX_SLL, false, false, &[rec(0, sll)]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(serials(&lines), [9]);

    let mut raw = Vec::new();
    PacketBuilder::ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
        .udp(1, 2)
        .write(&mut raw, &c[3])
        .expect("raw");
    let (code, lines, err) = decode(&[], &pcapng(RAW_IP, &[rec(0, raw)]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(serials(&lines), [10]);
}

#[test]
fn other_traffic_is_skipped_and_fragments_said() {
    let c = cars(1, 2);
    let mut icmp = Vec::new();
    PacketBuilder::ethernet2(MAC_A, MAC_B)
        .ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
        .icmpv4_echo_request(1, 1)
        .write(&mut icmp, b"ping")
        .expect("icmp");
    let mut frag = udp("10.0.0.1:1", "10.0.0.2:2", &c[1]);
    frag[14 + 6] |= 0x20; // IPv4 more fragments
    let recs = [
        rec(0, icmp),
        rec(1, udp("10.0.0.1:1", "10.0.0.2:2", &c[0])),
        rec(2, frag),
    ];
    let (code, lines, err) = decode(&[], &pcap(ETHERNET, false, false, &recs));
    assert_eq!(code, 0, "{err}");
    assert_eq!(serials(&lines), [1]);
    assert_eq!(lines[0]["frame"]["packet"], 2);
    assert!(
        err.contains("packet 3: an IP fragment") && err.contains("not reassembled"),
        "{err}"
    );
}

#[test]
fn filter_picks_ports_flows_and_transports() {
    let c = cars(1, 4);
    let recs = [
        rec(0, udp("10.0.0.1:9000", "224.0.31.1:14310", &c[0])),
        rec(1, udp("10.0.0.1:9000", "224.0.31.2:14311", &c[1])),
        rec(2, udp("10.0.0.3:9000", "224.0.31.1:14310", &c[2])),
        rec(
            3,
            tcp("10.0.0.5:4000", "10.0.0.6:5000", 1, Flags::default(), &c[3]),
        ),
    ];
    let file = pcap(ETHERNET, false, false, &recs);
    for (filters, want) in [
        (vec![], vec![1, 2, 3, 4]),
        (vec!["--filter", "port=14310"], vec![1, 3]),
        (vec!["--filter", "port=14311,5000"], vec![2, 4]),
        (vec!["--filter", "udp"], vec![1, 2, 3]),
        (vec!["--filter", "tcp"], vec![4]),
        (
            vec!["--filter", "udp", "--filter", "host=10.0.0.3"],
            vec![3],
        ),
        (vec!["--filter", "224.0.31.2:14311"], vec![2]),
        (
            vec![
                "--filter",
                "src=10.0.0.1",
                "--filter",
                "dst=224.0.31.1:14310",
            ],
            vec![1],
        ),
    ] {
        let (code, lines, err) = decode(&filters, &file);
        assert_eq!(code, 0, "{filters:?}: {err}");
        assert_eq!(serials(&lines), want, "{filters:?}");
    }
    let (code, lines, err) = decode(&["--filter", "port=1"], &file);
    assert_eq!((code, lines.len()), (0, 0), "{err}");
    assert_eq!(
        err.trim(),
        "sbe decode: -: none of its 4 packets is a UDP datagram or TCP segment that --filter takes"
    );
    let (code, _, err) = decode(&["--filter", "sctp"], &file);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad --filter \"sctp\": expected one of udp, tcp, port=N"),
        "{err}"
    );
    // Not a capture: --filter says so.
    let (code, _, err) = decode(&["--filter", "udp"], &c[0]);
    assert_eq!(code, 1);
    assert!(err.contains("--filter is for captures"), "{err}");
}

const CLIENT: &str = "10.0.0.1:40000";
const SERVER: &str = "10.0.0.2:9000";

/// A TCP connection client → server carrying `stream` in segments cut
/// at `cuts`; each segment's packet number, from 2 (1 is the SYN).
fn tcp_recs(stream: &[u8], cuts: &[usize]) -> Vec<Rec> {
    let isn = 0xffff_ff00u32; // the sequence numbers wrap around
    let mut recs = vec![rec(
        0,
        tcp(
            CLIENT,
            SERVER,
            isn,
            Flags {
                syn: true,
                fin: false,
            },
            b"",
        ),
    )];
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(stream.len());
    for (i, w) in bounds.windows(2).enumerate() {
        let seq = isn.wrapping_add(1).wrapping_add(w[0] as u32);
        recs.push(rec(
            i as u32 + 1,
            tcp(CLIENT, SERVER, seq, Flags::default(), &stream[w[0]..w[1]]),
        ));
    }
    recs
}

#[test]
fn tcp_stream_is_reassembled_across_segments() {
    let c = cars(200, 5);
    let len = c[0].len();
    for framing in ["sofh", "raw"] {
        let framed: Vec<Vec<u8>> = if framing == "sofh" {
            c.iter().map(|m| sofh(m)).collect()
        } else {
            c.clone()
        };
        let stream = framed.concat();
        let flen = framed[0].len();
        // Cuts inside messages: message 0 ends in segment 2, message 1 in
        // segment 3, messages 2 and 3 in segment 4, message 4 in segment 5.
        let cuts = [10, flen + 3, 2 * flen + 20, 4 * flen + 1];
        let recs = tcp_recs(&stream, &cuts);
        // A reply from the server in between: its own direction.
        let mut recs2: Vec<Rec> = Vec::new();
        for (i, r) in recs.into_iter().enumerate() {
            recs2.push(r);
            if i == 2 {
                recs2.push(rec(
                    9,
                    tcp(SERVER, CLIENT, 77, Flags::default(), &framed[0]),
                ));
            }
        }
        let (code, lines, err) = decode(&["--framing", framing], &pcapng(ETHERNET, &recs2));
        assert_eq!(code, 0, "{framing}: {err}");
        assert_eq!(err, "", "{framing}");
        let got: Vec<(u64, u64, &str)> = lines
            .iter()
            .map(|l| {
                (
                    l["body"]["serialNumber"].as_u64().expect("serial"),
                    l["frame"]["packet"].as_u64().expect("packet"),
                    l["frame"]["src"].as_str().expect("src"),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (200, 3, CLIENT),
                (200, 4, SERVER),
                (201, 5, CLIENT),
                (202, 6, CLIENT),
                (203, 6, CLIENT),
                (204, 7, CLIENT)
            ],
            "{framing}"
        );
        let head = if framing == "sofh" { 6 } else { 0 };
        let offsets: Vec<u64> = lines
            .iter()
            .filter(|l| l["frame"]["src"] == CLIENT)
            .map(|l| l["frame"]["offset"].as_u64().expect("offset"))
            .collect();
        let want: Vec<u64> = (0..5).map(|i| (i * flen + head) as u64).collect();
        assert_eq!(offsets, want, "{framing}");
        assert_eq!(lines[0]["frame"]["transport"], "tcp");
        assert!(len > 20);
    }
}

#[test]
fn tcp_retransmission_is_dropped_with_a_notice() {
    let c = cars(300, 3);
    let stream: Vec<u8> = c.iter().flat_map(|m| sofh(m)).collect();
    let flen = stream.len() / 3;
    let mut recs = tcp_recs(&stream, &[flen, 2 * flen]);
    // Packet 5: segment 2 (packet 3) again, byte for byte.
    let again = tcp(
        CLIENT,
        SERVER,
        0xffff_ff01u32.wrapping_add(flen as u32),
        Flags::default(),
        &stream[flen..2 * flen],
    );
    recs.insert(3, rec(3, again));
    let (code, lines, err) = decode(&["--framing", "sofh"], &pcap(ETHERNET, true, false, &recs));
    assert_eq!(code, 0, "{err}");
    assert_eq!(serials(&lines), [300, 301, 302]);
    assert_eq!(
        err.trim(),
        format!(
            "sbe decode: -: packet 4, tcp {CLIENT} -> {SERVER}: retransmission of stream bytes {flen}..{}, the same bytes: dropped",
            2 * flen
        )
    );
    // The same sequence numbers with other bytes: an error, the first kept.
    let mut other = stream[flen..2 * flen].to_vec();
    other[30] ^= 0xff;
    let mut recs = tcp_recs(&stream, &[flen, 2 * flen]);
    let changed = tcp(
        CLIENT,
        SERVER,
        0xffff_ff01u32.wrapping_add(flen as u32),
        Flags::default(),
        &other,
    );
    recs.insert(3, rec(3, changed));
    let (code, lines, err) = decode(&["--framing", "sofh"], &pcap(ETHERNET, true, false, &recs));
    assert_eq!(code, 1, "{err}");
    assert_eq!(serials(&lines), [300, 301, 302]);
    assert!(
        err.contains("packet 4, tcp")
            && err.contains("with different bytes: the first copy is kept"),
        "{err}"
    );
}

#[test]
fn tcp_gap_is_reported_and_decoding_resumes() {
    let c = cars(400, 5);
    let stream: Vec<u8> = c.iter().flat_map(|m| sofh(m)).collect();
    let flen = stream.len() / 5;
    // Segments: [m0 + half m1] [half m1 + m2] [m3] [m4]; the second lost.
    let mut recs = tcp_recs(&stream, &[flen + flen / 2, 3 * flen, 4 * flen]);
    recs.remove(2);
    let (code, lines, err) = decode(&["--framing", "sofh"], &pcap(ETHERNET, false, false, &recs));
    assert_eq!(code, 1, "{err}");
    assert_eq!(serials(&lines), [400, 403, 404]);
    let lost = 3 * flen - (flen + flen / 2);
    assert_eq!(
        err.trim(),
        format!(
            "sbe decode: -: packet 3, tcp {CLIENT} -> {SERVER}: gap: {lost} bytes missing before byte {} of the stream, \
             and the {} bytes of the message it cuts are dropped; decoding resumes with this segment",
            3 * flen,
            flen / 2
        )
    );
    assert_eq!(lines[1]["frame"]["offset"], (3 * flen + 6) as u64);
}

#[test]
fn tcp_stream_cut_mid_message() {
    let c = cars(500, 3);
    let stream: Vec<u8> = c.iter().flat_map(|m| sofh(m)).collect();
    let flen = stream.len() / 3;
    let cut = &stream[..2 * flen + 25];
    // The capture ends: the message is said to be unfinished.
    let recs = tcp_recs(cut, &[flen]);
    let (code, lines, err) = decode(&["--framing", "sofh"], &pcap(ETHERNET, false, false, &recs));
    assert_eq!(code, 1, "{err}");
    assert_eq!(serials(&lines), [500, 501]);
    assert_eq!(
        err.trim(),
        format!(
            "sbe decode: -: tcp {CLIENT} -> {SERVER}: the capture ends 25 bytes into a message \
             (at byte {} of the stream, last packet 3)",
            2 * flen
        )
    );
    // The connection closes (FIN) instead.
    let mut recs = tcp_recs(cut, &[flen]);
    let seq = 0xffff_ff01u32.wrapping_add(cut.len() as u32);
    recs.push(rec(
        4,
        tcp(
            CLIENT,
            SERVER,
            seq,
            Flags {
                syn: false,
                fin: true,
            },
            b"",
        ),
    ));
    let (code, lines, err) = decode(&["--framing", "sofh"], &pcap(ETHERNET, false, false, &recs));
    assert_eq!(code, 1, "{err}");
    assert_eq!(serials(&lines), [500, 501]);
    assert!(
        err.contains("packet 4, tcp")
            && err.contains("the connection closes 25 bytes into a message"),
        "{err}"
    );
}

#[test]
fn a_bad_message_is_reported_and_decoding_goes_on() {
    let c = cars(600, 3);
    let cut = &c[1][..c[1].len() - 3];
    let recs = [
        rec(0, udp("10.0.0.1:1", "10.0.0.2:2", &c[0])),
        rec(1, udp("10.0.0.1:1", "10.0.0.2:2", cut)),
        rec(2, udp("10.0.0.1:1", "10.0.0.2:2", &c[2])),
    ];
    let (code, lines, err) = decode(&[], &pcap(ETHERNET, false, false, &recs));
    assert_eq!(code, 1, "{err}");
    assert_eq!(serials(&lines), [600, 602]);
    assert!(
        err.starts_with("sbe decode: -: packet 2, udp 10.0.0.1:1 -> 10.0.0.2:2, byte ")
            && err.contains(
                " of the payload: truncated: var data of Car.activationCode needs 6 bytes, 3 left"
            ),
        "{err}"
    );
    // A capture cut inside a record: the packets before it, then the error.
    let file = pcap(ETHERNET, false, false, &recs);
    let (code, lines, err) = decode(&[], &file[..file.len() - 10]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(serials(&lines), [600]);
    assert!(
        err.contains("the capture ends inside the record of packet 3 (the file is cut short)"),
        "{err}"
    );
    // A capture whose header is cut.
    let (code, _, err) = decode(&[], &file[..10]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not a readable pcap capture"), "{err}");
    // --skip does not apply.
    let (code, _, err) = decode(&["--skip", "4"], &file);
    assert_eq!(code, 1);
    assert!(err.contains("--skip is for files of messages"), "{err}");
}

#[test]
fn several_schemas_dispatch_on_the_schema_id() {
    let c = cars(700, 2);
    let b = books(1_700_000_000_000_000_000, 2);
    let stream: Vec<u8> = [&c[0], &b[0], &c[1], &b[1]]
        .iter()
        .flat_map(|m| sofh(m))
        .collect();
    let recs = tcp_recs(&stream, &[50, 200]);
    let file = pcapng(ETHERNET, &recs);
    let (car, md) = (car_schema(), md_schema());
    let (code, lines, err) = run(
        &[
            "decode",
            "--schema",
            &car,
            "--schema",
            &md,
            "--framing",
            "sofh",
            "-",
        ],
        &file,
    );
    assert_eq!(code, 0, "{err}");
    let got: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| {
            (
                l["schema"].as_str().expect("schema"),
                l["message"].as_str().expect("message"),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (car.as_str(), "Car"),
            (md.as_str(), "BookUpdate"),
            (car.as_str(), "Car"),
            (md.as_str(), "BookUpdate")
        ]
    );
    assert_eq!(
        lines[1]["body"]["transactTime"],
        1_700_000_000_000_000_000u64
    );
    assert_eq!(lines[3]["header"]["schemaId"], 7);

    // With the car schema alone the book updates are of another schema.
    let (code, lines, err) = run(
        &["decode", "--schema", &car, "--framing", "sofh", "-"],
        &file,
    );
    assert_eq!(code, 1);
    assert_eq!(serials(&lines), [700, 701]);
    assert!(err.contains("wrong schema id 7 (expected 1)"), "{err}");

    // A schema id neither has.
    let mut odd = c[0].clone();
    odd[4] = 9;
    let recs = [rec(
        0,
        udp("10.0.0.1:1", "10.0.0.2:2", &[b[0].clone(), odd].concat()),
    )];
    let (code, lines, err) = run(
        &["decode", "--schema", &car, "--schema", &md, "-"],
        &pcap(ETHERNET, false, false, &recs),
    );
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        err.trim(),
        format!(
            "sbe decode: -: packet 1, udp 10.0.0.1:1 -> 10.0.0.2:2, byte {} of the payload: unknown schema id 9 (0x0009): \
             the schemas given have 1 ({car}), 7 ({md}) (the rest of the datagram, {} bytes, is skipped)",
            b[0].len() + 4,
            c[0].len()
        )
    );

    // A file of messages (no capture) too.
    let file: Vec<u8> = [&c[0], &b[0], &c[1]]
        .iter()
        .flat_map(|m| m.to_vec())
        .collect();
    let (code, lines, err) = run(&["decode", "--schema", &car, "--schema", &md, "-"], &file);
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["message"], "BookUpdate");
    assert!(lines[1].get("frame").is_none());
    let mut bad = file.clone();
    bad[c[0].len() + 4] = 9;
    let (code, lines, err) = run(&["decode", "--schema", &car, "--schema", &md, "-"], &bad);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        err.trim(),
        format!(
            "sbe decode: -: at byte {}: unknown schema id 9 (0x0009): the schemas given have 1 ({car}), 7 ({md})",
            c[0].len() + 4
        )
    );
}

#[test]
fn several_schemas_need_one_header_layout() {
    let dir = common::scratch("capture-headers");
    let odd = dir.join("odd.xml");
    std::fs::write(
        &odd,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="odd" id="3" version="0" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
    </composite>
  </types>
  <sbe:message name="Ping" id="1">
    <field name="n" id="1" type="uint32"/>
  </sbe:message>
</sbe:messageSchema>
"#,
    )
    .expect("write schema");
    let car = car_schema();
    let odd = odd.to_string_lossy().into_owned();
    let (code, _, err) = run(&["decode", "--schema", &car, "--schema", &odd, "-"], b"");
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!(
            "sbe: {odd}'s header keeps schemaId at offset 6 as Uint16 (little-endian), {car}'s at offset 4 as Uint16 \
             (little-endian): the schema id is read with the first schema's header, so every schema must keep it at \
             the same offset, type and byte order"
        )
    );
    let (code, _, err) = run(&["decode", "--schema", &car, "--schema", &car, "-"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("have the same schema id 1"), "{err}");
    let md = md_schema();
    let (code, _, err) = run(
        &[
            "decode",
            "--schema",
            &car,
            "--schema",
            &md,
            "--schema-id-check",
            "off",
            "-",
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("--schema-id-check off needs a single --schema"),
        "{err}"
    );
}

#[test]
fn inspect_reads_captures() {
    let c = cars(800, 2);
    let recs = [
        rec(0, udp("10.0.0.1:1", "10.0.0.2:2", &c[0])),
        rec(1, udp("10.0.0.1:1", "10.0.0.2:2", &c[1][..30])),
    ];
    let car = car_schema();
    let (code, out, err) = common::sbe(
        &["inspect", "--schema", &car, "-"],
        &pcap(ETHERNET, true, false, &recs),
    );
    let out = String::from_utf8(out).expect("utf-8");
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "packet 1 at 2024-03-05T14:30:01.123456789Z, udp 10.0.0.1:1 -> 10.0.0.2:2"
    );
    assert_eq!(
        lines[1],
        format!(
            "Car (templateId 1, version 0) at byte 0, {} bytes",
            c[0].len()
        )
    );
    assert!(out.contains("serialNumber = 800"), "{out}");
    assert!(
        out.contains("packet 2 at 2024-03-05T14:30:02.123456789Z"),
        "{out}"
    );
    assert!(out.contains("  error: truncated"), "{out}");
    assert!(
        err.contains("packet 2, udp 10.0.0.1:1 -> 10.0.0.2:2, byte "),
        "{err}"
    );
}

#[test]
fn corrupt_captures_give_errors_not_panics() {
    let c = cars(900, 2);
    let stream: Vec<u8> = c.iter().flat_map(|m| sofh(m)).collect();
    let mut recs = tcp_recs(&stream, &[40]);
    recs.push(rec(5, udp("10.0.0.1:1", "10.0.0.2:2", &stream)));
    for file in [pcap(ETHERNET, false, true, &recs), pcapng(ETHERNET, &recs)] {
        let car = car_schema();
        let mut cases: Vec<Vec<u8>> = (0..file.len())
            .step_by(7)
            .map(|n| file[..n].to_vec())
            .collect();
        for at in (0..file.len()).step_by(5) {
            let mut f = file.clone();
            f[at] ^= 0xa5;
            cases.push(f);
        }
        for f in cases {
            let (code, _, err) =
                common::sbe(&["decode", "--schema", &car, "--framing", "sofh", "-"], &f);
            assert!(code == 0 || code == 1, "exit {code}: {err}");
        }
    }
}

#[test]
fn mdp3_packets_give_their_header_fields_and_sequence_gaps() {
    let b = books(1_000, 5);
    let (a_feed, b_feed) = ("224.0.31.1:14310", "224.0.32.1:15310");
    let t = 1_709_649_001_000_000_123u64;
    let recs = [
        rec(
            0,
            udp(
                "10.0.0.1:9000",
                a_feed,
                &common::mdp3(41, t, &[&b[0], &b[1]]),
            ),
        ),
        rec(
            1,
            udp(
                "10.0.0.1:9000",
                b_feed,
                &common::mdp3(41, t, &[&b[0], &b[1]]),
            ),
        ),
        rec(
            2,
            udp("10.0.0.1:9000", a_feed, &common::mdp3(42, t + 1, &[&b[2]])),
        ),
        rec(
            3,
            udp("10.0.0.1:9000", a_feed, &common::mdp3(44, t + 3, &[&b[4]])),
        ),
        rec(
            4,
            udp("10.0.0.1:9000", b_feed, &common::mdp3(42, t + 1, &[&b[2]])),
        ),
    ];
    let md = md_schema();
    let (code, lines, err) = run(
        &["decode", "--schema", &md, "--framing", "mdp3", "-"],
        &pcapng(ETHERNET, &recs),
    );
    assert_eq!(code, 0, "{err}");
    let got: Vec<(u64, u64, u64, u64, u64)> = lines
        .iter()
        .map(|l| {
            let f = &l["frame"];
            (
                f["packet"].as_u64().expect("packet"),
                f["msgSeqNum"].as_u64().expect("msgSeqNum"),
                f["sendingTime"].as_u64().expect("sendingTime"),
                f["offset"].as_u64().expect("offset"),
                l["body"]["transactTime"].as_u64().expect("transactTime"),
            )
        })
        .collect();
    let second = (12 + 2 + b[0].len() + 2) as u64;
    assert_eq!(
        got,
        [
            (1, 41, t, 14, 1000),
            (1, 41, t, second, 1001),
            (2, 41, t, 14, 1000),
            (2, 41, t, second, 1001),
            (3, 42, t + 1, 14, 1002),
            (4, 44, t + 3, 14, 1004),
            (5, 42, t + 1, 14, 1002),
        ]
    );
    let keys: Vec<&str> = lines[0]["frame"]
        .as_object()
        .expect("frame")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "packet",
            "time",
            "transport",
            "src",
            "dst",
            "msgSeqNum",
            "sendingTime",
            "offset"
        ]
    );
    // The A feed lost packet 43; the B feed, its own flow, lost nothing.
    assert_eq!(
        err.trim(),
        format!(
            "sbe decode: -: packet 4, udp 10.0.0.1:9000 -> {a_feed}: sequence gap: msgSeqNum 44 after 42 (1 packet missing)"
        )
    );

    // A datagram shorter than the packet header, a MsgSize past its end.
    let mut lying = common::mdp3(45, t, &[&b[0]]);
    lying[12] = 200;
    let recs = [
        rec(0, udp("10.0.0.1:9000", a_feed, &[1, 2, 3])),
        rec(1, udp("10.0.0.1:9000", a_feed, &lying)),
        rec(
            2,
            udp("10.0.0.1:9000", a_feed, &common::mdp3(46, t, &[&b[1]])),
        ),
    ];
    let (code, lines, err) = run(
        &["decode", "--schema", &md, "--framing", "mdp3", "-"],
        &pcap(ETHERNET, false, false, &recs),
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["frame"]["packet"], 3);
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(
        err,
        [
            format!(
                "sbe decode: -: packet 1, udp 10.0.0.1:9000 -> {a_feed}, byte 0 of the payload: \
                 bad framing header: a datagram of 3 bytes is shorter than the 12-byte packet header"
            ),
            format!(
                "sbe decode: -: packet 2, udp 10.0.0.1:9000 -> {a_feed}, byte 12 of the payload: \
                 bad framing header: frame of 200 bytes, the datagram ends after {}",
                lying.len() - 12
            )
        ]
    );

    // MDP3 is a packet framing: TCP flows are skipped, said once each.
    let stream = common::mdp3(1, t, &[&b[0]]);
    let recs = tcp_recs(&stream, &[10]);
    let (code, lines, err) = run(
        &["decode", "--schema", &md, "--framing", "mdp3", "-"],
        &pcap(ETHERNET, false, false, &recs),
    );
    assert_eq!((code, lines.len()), (0, 0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("packet 1, tcp")
            && err.contains("is a packet framing")
            && err.contains("this TCP flow is skipped"),
        "{err}"
    );
}

/// An iLink 3 / B3 frame: u16 LE length counting the 4 bytes, u16 LE
/// encoding type.
fn sofh_le(encoding: u16, msg: &[u8]) -> Vec<u8> {
    let mut v = ((msg.len() + 4) as u16).to_le_bytes().to_vec();
    v.extend(encoding.to_le_bytes());
    v.extend(msg);
    v
}

#[test]
fn sofh_le_tcp_with_two_schemas_and_a_custom_framing() {
    let c = cars(10, 2);
    let b = books(20, 2);
    let stream: Vec<u8> = [
        sofh_le(0xcafe, &c[0]),
        sofh_le(0xcafe, &b[0]),
        sofh_le(0xeb50, &c[1]),
        sofh_le(0x1234, &b[1]),
        sofh_le(0xcafe, &b[1]),
    ]
    .concat();
    let recs = tcp_recs(&stream, &[3, 100, 101, 250]);
    let file = pcap(ETHERNET, true, true, &recs);
    let (car, md) = (car_schema(), md_schema());
    let (code, lines, err) = run(
        &[
            "decode",
            "--schema",
            &car,
            "--schema",
            &md,
            "--framing",
            "sofh-le",
            "-",
        ],
        &file,
    );
    assert_eq!(code, 1, "{err}");
    let got: Vec<(&str, u64)> = lines
        .iter()
        .map(|l| {
            (
                l["message"].as_str().expect("message"),
                l["frame"]["offset"].as_u64().expect("offset"),
            )
        })
        .collect();
    let (lc, lb) = (c[0].len() as u64 + 4, b[0].len() as u64 + 4);
    assert_eq!(
        got,
        [
            ("Car", 4),
            ("BookUpdate", lc + 4),
            ("Car", lc + lb + 4),
            ("BookUpdate", 2 * lc + 2 * lb + 4)
        ]
    );
    // The frame of another encoding type: an error at its encoding type,
    // and the stream goes on after it.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "tcp {CLIENT} -> {SERVER}, byte {} of the stream: ",
            2 * lc + lb + 2
        )) && err.contains("encoding type 0x1234"),
        "{err}"
    );
    // A custom form of the same: the u16 LE length and encoding type, any value.
    let (code, lines, err) = run(
        &[
            "decode",
            "--schema",
            &car,
            "--schema",
            &md,
            "--framing",
            "len=u16le,enc=u16le",
            "-",
        ],
        &file,
    );
    assert_eq!((code, lines.len()), (0, 5), "{err}");
}

#[test]
fn decode_help_shows_one_capture_per_framing_shape() {
    let (code, out, _) = common::sbe(&["decode", "--help"], b"");
    let out = String::from_utf8(out).expect("utf-8");
    assert_eq!(code, 0);
    for shape in [
        "--framing mdp3 --filter udp",
        "--framing sofh-le --filter port=9000",
        "--framing sofh --filter 10.0.0.1:9000",
        "--framing len=u32be,counts=message",
        "cars.pcap",
        "--schema mktdata.xml --schema session.xml",
        "len=T[@OFF]",
    ] {
        assert!(out.contains(shape), "{shape}: {out}");
    }
}

#[test]
fn encode_writes_sofh_le_frames_that_decode_reads_back() {
    let c = cars(42, 1);
    let car = car_schema();
    let (code, json, err) = common::sbe(&["decode", "--schema", &car, "-"], &c[0]);
    assert_eq!(code, 0, "{err}");
    let (code, framed, err) = common::sbe(
        &["encode", "--schema", &car, "--framing", "sofh-le", "-"],
        &json,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(framed, sofh_le(0xcafe, &c[0]));
    let (code, _, err) = common::sbe(
        &["encode", "--schema", &car, "--framing", "mdp3", "-"],
        &json,
    );
    assert_eq!(code, 1);
    assert!(err.contains("is a packet framing"), "{err}");
}

/// `sbe decode --schema SCHEMA EXTRA... FILE` with stdout and stderr on
/// one pipe, as a terminal shows them: (exit code, the text).
fn decode_merged(schema: &str, extra: &[&str], input: &std::path::Path) -> (i32, String) {
    let mut cmd = format!("'{}' decode --schema '{schema}'", env!("CARGO_BIN_EXE_sbe"));
    for a in extra {
        cmd.push_str(&format!(" {a}"));
    }
    cmd.push_str(&format!(" '{}' 2>&1", input.display()));
    let out = std::process::Command::new("sh")
        .args(["-c", &cmd])
        .output()
        .expect("sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The capture file `name` decoded with one thread and with two (packets
/// read on one, JSON written on the other): the same lines and reports,
/// in the same order, and the same exit code; the text, and the code.
fn same_with_two_threads(schema: &str, extra: &[&str], name: &str, file: &[u8]) -> (i32, String) {
    let dir = common::scratch(&format!("capture-threads-{name}"));
    let cap = dir.join(format!("{name}.pcap"));
    std::fs::write(&cap, file).unwrap();
    let one = decode_merged(schema, &[extra, &["--jobs", "1"]].concat(), &cap);
    let two = decode_merged(schema, &[extra, &["--jobs", "2"]].concat(), &cap);
    assert!(
        one == two,
        "{name}: one thread and two differ:\n{}\n--\n{}",
        one.1,
        two.1
    );
    two
}

/// With two threads every line and every report comes out as with one, in
/// the same order: over more messages than one hand-over holds with bad
/// ones among them, over TCP with a gap and a stream cut short, and over
/// MDP3 packets with sequence gaps.
#[test]
fn one_thread_or_two_give_the_same_lines_and_reports_in_order() {
    let car = car_schema();
    let c = cars(1, 3000);
    let recs: Vec<Rec> = c
        .iter()
        .enumerate()
        .map(|(i, m)| {
            // Every 700th message cut short: a report between two lines.
            let m = if i % 700 == 350 {
                &m[..m.len() - 3]
            } else {
                &m[..]
            };
            rec(i as u32, udp("10.0.0.1:1", "10.0.0.2:2", m))
        })
        .collect();
    let (code, text) =
        same_with_two_threads(&car, &[], "udp", &pcap(ETHERNET, false, false, &recs));
    assert_eq!(code, 1);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3000);
    for (i, l) in lines.iter().enumerate() {
        if i % 700 == 350 {
            assert!(
                l.contains(&format!(".pcap: packet {}, udp", i + 1)),
                "{i}: {l}"
            );
        } else {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{i}: {e}: {l}"));
            assert_eq!(v["body"]["serialNumber"], i as u64 + 1);
        }
    }
    // TCP: a lost segment (a gap), then a stream that ends inside a message.
    let stream: Vec<u8> = cars(400, 6).iter().flat_map(|m| sofh(m)).collect();
    let flen = stream.len() / 6;
    let mut recs = tcp_recs(
        &stream[..5 * flen + 25],
        &[flen + flen / 2, 3 * flen, 4 * flen],
    );
    recs.remove(2);
    let (code, text) = same_with_two_threads(
        &car,
        &["--framing", "sofh"],
        "tcp",
        &pcap(ETHERNET, false, false, &recs),
    );
    assert_eq!(code, 1);
    assert!(
        text.contains(": gap: ") && text.contains("the capture ends 25 bytes into a message"),
        "{text}"
    );
    // MDP3 packets whose msgSeqNum skips: notices between the lines.
    let b = books(1_000, 4);
    let t = 1_709_649_001_000_000_123u64;
    let feed = "224.0.31.1:14310";
    let recs = [
        rec(
            0,
            udp("10.0.0.1:9000", feed, &common::mdp3(41, t, &[&b[0], &b[1]])),
        ),
        rec(
            1,
            udp("10.0.0.1:9000", feed, &common::mdp3(44, t + 1, &[&b[2]])),
        ),
        rec(
            2,
            udp("10.0.0.1:9000", feed, &common::mdp3(43, t + 2, &[&b[3]])),
        ),
    ];
    let (code, text) = same_with_two_threads(
        &md_schema(),
        &["--framing", "mdp3"],
        "mdp3",
        &pcapng(ETHERNET, &recs),
    );
    assert_eq!(code, 0, "{text}");
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(
        text.contains("sequence gap: msgSeqNum 44 after 41"),
        "{text}"
    );
}
