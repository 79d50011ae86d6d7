//! `sbe dissector` (issue 21): the generated Lua dissector run by tshark
//! on captures written here. Every value tshark shows equals `sbe
//! decode`'s JSON of the same bytes; bad input gives expert items and
//! never a Lua error. Skipped with a notice without tshark (failing with
//! CI=true).

mod common;
mod wireshark;

use wireshark::*;

fn car_json(serial: u64) -> String {
    format!(
        r#"{{"message":"Car","body":{{"serialNumber":{serial},"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack","cruiseControl"],"engine":{{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{{"BoostType":"NITROUS","horsePower":200}}}},"fuelFigures":[{{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}},{{"speed":55,"mpg":49.0,"usageDescription":"Combined Cycle"}}],"performanceFigures":[{{"octaneRating":95,"acceleration":[{{"mph":30,"seconds":4.0}},{{"mph":60,"seconds":7.5}}]}}],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}}}"#
    )
}

fn sofh(msg: &[u8]) -> Vec<u8> {
    let mut v = ((msg.len() + 6) as u32).to_be_bytes().to_vec();
    v.extend_from_slice(&0xEB50u16.to_be_bytes());
    v.extend_from_slice(msg);
    v
}

/// Every message tshark shows equals sbe decode's JSON of it.
fn same_as_decode(
    schemas: &[&str],
    framing: &str,
    lua: &std::path::Path,
    cap: &std::path::Path,
    proto: &str,
) -> usize {
    let packets = pdml(lua, cap, &[]);
    let shown = messages(&packets, proto);
    let json = decoded(schemas, framing, cap);
    let what = cap.display();
    assert_eq!(shown.len(), json.len(), "{what}: messages shown vs decoded");
    for (j, m) in json.iter().zip(&shown) {
        if let Some(d) = differs(j, m) {
            panic!("{what}: {d}\njson: {j}\nitem: {m:#?}");
        }
    }
    shown.len()
}

#[test]
fn udp_sofh_cars_show_what_decode_shows() {
    if !tshark_present("udp_sofh_cars_show_what_decode_shows") {
        return;
    }
    let dir = common::scratch("dissector-udp-sofh");
    let car = repo_schema("schemas/car.xml");
    let lua = dissector(&dir, &[&car], &["--framing", "sofh", "--udp-port", "5000"]);
    let msgs = encode(&car, &[car_json(1), car_json(2), car_json(3)]);
    let frames = vec![
        udp(5000, &sofh(&msgs[0])),
        udp(5000, &[sofh(&msgs[1]), sofh(&msgs[2])].concat()),
    ];
    let cap = dir.join("cars.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    assert_eq!(same_as_decode(&[&car], "sofh", &lua, &cap, "sbe"), 3);
    // The comparison sees a value changed anywhere.
    let packets = pdml(&lua, &cap, &[]);
    let shown = messages(&packets, "sbe");
    let json = decoded(&[&car], "sofh", &cap);
    let changes: &[(&str, serde_json::Value)] = &[
        ("/body/serialNumber", 7.into()),
        ("/body/extras", serde_json::json!(["sunRoof"])),
        ("/body/engine/booster/horsePower", 201.into()),
        ("/body/fuelFigures/1/usageDescription", "Combined".into()),
        (
            "/body/performanceFigures/0/acceleration/1/seconds",
            7.6.into(),
        ),
        ("/body/model", serde_json::Value::Null),
        ("/header/version", 1.into()),
    ];
    for (pointer, value) in changes {
        let mut j = json[0].clone();
        *j.pointer_mut(pointer).unwrap() = value.clone();
        assert!(
            differs(&j, shown[0]).is_some(),
            "{pointer} changed, not seen"
        );
    }
    let mut j = json[0].clone();
    j["body"]["fuelFigures"].as_array_mut().unwrap().pop();
    assert!(differs(&j, shown[0]).is_some(), "an entry fewer, not seen");
}

/// Every golden vector of ../shared (one per datagram, raw framing, a
/// capture per schema): tshark shows what sbe decode decodes. Each
/// generated file passes `luac -p` (5.2 and 5.4 where installed).
#[test]
fn golden_vectors_show_what_decode_shows() {
    let Some(shared) = test_support::shared_dir("golden_vectors_show_what_decode_shows") else {
        return;
    };
    if !tshark_present("golden_vectors_show_what_decode_shows") {
        return;
    }
    let mut by_schema: std::collections::BTreeMap<String, Vec<Vec<u8>>> = Default::default();
    for v in test_support::vectors(&shared) {
        if !v.cross_version {
            by_schema
                .entry(v.schema.clone())
                .or_default()
                .push(v.bin.clone());
        }
    }
    let dir = common::scratch("dissector-golden");
    let mut total = 0;
    for (k, (schema, bins)) in by_schema.iter().enumerate() {
        let path = shared
            .join("corpus")
            .join(schema)
            .to_string_lossy()
            .into_owned();
        let sub = dir.join(k.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        let lua = dissector(&sub, &[&path], &["--framing", "raw", "--udp-port", "5000"]);
        luac(&lua);
        let frames: Vec<Vec<u8>> = bins.iter().map(|b| udp(5000, b)).collect();
        let cap = sub.join("vectors.pcap");
        std::fs::write(&cap, pcap(&frames)).unwrap();
        let n = same_as_decode(&[&path], "raw", &lua, &cap, "sbe");
        assert_eq!(n, bins.len(), "{schema}: every vector decoded");
        total += n;
    }
    assert!(total > 1000, "{total} vectors");
}

/// The messages `jsons` encoded with `schema` and framed by `framing`
/// (a stream framing `sbe encode` knows), one by one.
fn framed(schema: &str, framing: &str, jsons: &[String]) -> Vec<Vec<u8>> {
    jsons
        .iter()
        .map(|j| {
            let (code, bin, err) = common::sbe(
                &["encode", "--schema", schema, "--framing", framing, "-"],
                j.as_bytes(),
            );
            assert_eq!(code, 0, "{err}");
            bin
        })
        .collect()
}

fn cars(n: u64) -> Vec<String> {
    (1..=n).map(car_json).collect()
}

/// UDP, every framing shape: stream framings (several frames a
/// datagram) and packet framings (a header, then frames).
#[test]
fn every_framing_over_udp() {
    if !tshark_present("every_framing_over_udp") {
        return;
    }
    let car = repo_schema("schemas/car.xml");
    // (dissector and decode framing, the frames' framing, packet header).
    let cases: &[(&str, &str, usize)] = &[
        ("raw", "raw", 0),
        ("sofh", "sofh", 0),
        ("sofh-le", "sofh-le", 0),
        ("len=u32be,counts=message", "len=u32be,counts=message", 0),
        (
            "len=u16le,enc=u16le=0xcafe,align=8",
            "len=u16le,enc=u16le=0xcafe,align=8",
            0,
        ),
        ("mdp3", "len=u16le", 12),
        ("packet=16,len=u16be", "len=u16be", 16),
    ];
    for (k, (framing, frames, packet)) in cases.iter().enumerate() {
        let dir = common::scratch(&format!("dissector-framing-{k}"));
        let lua = dissector(&dir, &[&car], &["--framing", framing, "--udp-port", "5000"]);
        luac(&lua);
        let f = framed(&car, frames, &cars(5));
        let header: Vec<u8> = (0..*packet as u8).collect();
        let datagrams = [
            [header.clone(), f[0].clone()].concat(),
            [header.clone(), f[1].clone(), f[2].clone(), f[3].clone()].concat(),
            [header.clone(), f[4].clone()].concat(),
        ];
        let frames: Vec<Vec<u8>> = datagrams.iter().map(|d| udp(5000, d)).collect();
        let cap = dir.join("cap.pcap");
        std::fs::write(&cap, pcap(&frames)).unwrap();
        assert_eq!(
            same_as_decode(&[&car], framing, &lua, &cap, "sbe"),
            5,
            "{framing}"
        );
    }
}

/// TCP, every stream framing: a message split across segments (its
/// framing header too), several messages in one segment.
#[test]
fn every_stream_framing_over_tcp() {
    if !tshark_present("every_stream_framing_over_tcp") {
        return;
    }
    let car = repo_schema("schemas/car.xml");
    for (k, framing) in ["raw", "sofh", "sofh-le", "len=u32be,counts=message"]
        .iter()
        .enumerate()
    {
        let dir = common::scratch(&format!("dissector-tcp-{k}"));
        let lua = dissector(&dir, &[&car], &["--framing", framing, "--tcp-port", "9000"]);
        let stream = framed(&car, framing, &cars(6)).concat();
        let one = stream.len() / 6;
        // Cut 2 bytes in (mid framing header), mid first message, then
        // two and a half messages in a segment, then the rest.
        let cuts = [2, one / 2, 3 * one + one / 2, 5 * one + 3];
        let cap = dir.join("cap.pcap");
        std::fs::write(&cap, pcap(&tcp(9000, &stream, &cuts))).unwrap();
        assert_eq!(
            same_as_decode(&[&car], framing, &lua, &cap, "sbe"),
            6,
            "{framing}"
        );
    }
}

/// Two schemas in one dissector, chosen by the header's schemaId.
#[test]
fn two_schemas_by_schema_id() {
    if !tshark_present("two_schemas_by_schema_id") {
        return;
    }
    let car = repo_schema("schemas/car.xml");
    let md = repo_schema("sbe-command/benches/market-data.xml");
    let dir = common::scratch("dissector-two-schemas");
    let lua = dissector(
        &dir,
        &[&car, &md],
        &["--framing", "sofh", "--udp-port", "5000"],
    );
    let cars = framed(&car, "sofh", &cars(2));
    let books = framed(&md, "sofh", &[book_json(1), book_json(2)]);
    let frames = vec![
        udp(5000, &[cars[0].clone(), books[0].clone()].concat()),
        udp(5000, &[books[1].clone(), cars[1].clone()].concat()),
    ];
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    assert_eq!(same_as_decode(&[&car, &md], "sofh", &lua, &cap, "sbe"), 4);
    let (info, _) = tshark(&lua, &cap, &["-T", "fields", "-e", "_ws.col.Info"]);
    assert_eq!(
        info.lines().collect::<Vec<_>>(),
        ["Car, BookUpdate", "BookUpdate, Car"]
    );
}

fn book_json(i: u64) -> String {
    format!(
        r#"{{"message":"BookUpdate","body":{{"transactTime":{},"flags":["LastQuote","EndOfEvent"],"entries":[{{"price":{{"mantissa":4500250000000}},"size":null,"securityId":{},"rptSeq":{i},"level":1,"action":"New","entryType":"Bid"}},{{"price":{{"mantissa":-1}},"size":7,"securityId":1001,"rptSeq":{i},"level":2,"action":"Delete","entryType":"Offer"}}]}}}}"#,
        1_700_000_000_000_000_000u64 + i,
        1000 + i
    )
}

/// MDP3: the packet header's msgSeqNum and sendingTime, decimals as
/// exact values, the Info column, a filter across messages.
#[test]
fn mdp3_packets() {
    if !tshark_present("mdp3_packets") {
        return;
    }
    let md = repo_schema("sbe-command/benches/market-data.xml");
    let dir = common::scratch("dissector-mdp3");
    let lua = dissector(
        &dir,
        &[&md],
        &[
            "--framing",
            "mdp3",
            "--udp-port",
            "14310",
            "--proto",
            "mdp3",
        ],
    );
    let books = framed(
        &md,
        "len=u16le",
        &[book_json(1), book_json(2), book_json(3)],
    );
    let packet = |seq: u32, frames: &[Vec<u8>]| {
        let mut p = seq.to_le_bytes().to_vec();
        p.extend((1_709_649_001_000_000_007u64 + u64::from(seq)).to_le_bytes());
        p.extend(frames.concat());
        udp(14310, &p)
    };
    let frames = vec![packet(41, &books[..1]), packet(42, &books[1..])];
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    assert_eq!(same_as_decode(&[&md], "mdp3", &lua, &cap, "mdp3"), 3);
    let fields = [
        "-T",
        "fields",
        "-E",
        "separator=|",
        "-e",
        "mdp3.packet.msgSeqNum",
        "-e",
        "mdp3.packet.sendingTime",
        "-e",
        "mdp3.price",
        "-e",
        "_ws.col.Info",
    ];
    let (out, _) = tshark(&lua, &cap, &fields);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("41|Mar  5, 2024 14:30:01.000000048 UTC|4500.250000000,-0.000000001|"),
        "{out}"
    );
    assert!(
        lines[1].ends_with("|seq 42: BookUpdate, BookUpdate"),
        "{out}"
    );
    let (filtered, _) = tshark(
        &lua,
        &cap,
        &[
            "-Y",
            "mdp3.securityId == 1003",
            "-T",
            "fields",
            "-e",
            "mdp3.packet.msgSeqNum",
        ],
    );
    assert_eq!(filtered.trim(), "42");
    // Filters on a tree that is not visible (no -T fields or -V), where the
    // dissector adds only the fields Wireshark references: nested ones
    // under items not added, and a filter that matches nothing.
    for (filter, seqs) in [
        ("mdp3.securityId == 1003", "42"),
        ("mdp3.price == \"-0.000000001\"", "41,42"),
        ("mdp3.entries.entry && mdp3.rptSeq == 1", "41"),
        ("mdp3.level == 3", ""),
    ] {
        let (out, _) = tshark(&lua, &cap, &["-Y", filter]);
        let shown: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split("seq ").nth(1)?.split(':').next())
            .collect();
        assert_eq!(shown.join(","), seqs, "{filter}: {out}");
    }
    let (null, _) = tshark(&lua, &cap, &["-V"]);
    assert!(null.contains("size: null"), "{null}");
}

/// Bad input: expert items, never a Lua error, and the next message is
/// still read.
#[test]
fn bad_input_gives_expert_items_and_goes_on() {
    if !tshark_present("bad_input_gives_expert_items_and_goes_on") {
        return;
    }
    let car = repo_schema("schemas/car.xml");
    let dir = common::scratch("dissector-bad");
    let lua = dissector(&dir, &[&car], &["--framing", "sofh", "--udp-port", "5000"]);
    let good = framed(&car, "sofh", &cars(1)).remove(0);
    let u16_at = |frame: &[u8], at: usize, v: u16| {
        let mut f = frame.to_vec();
        f[at..at + 2].copy_from_slice(&v.to_le_bytes());
        f
    };
    // SOFH 6 bytes, then the header: blockLength 6, templateId 8;
    // fuelFigures' numInGroup at 6 + 8 + 45 + 2.
    let unknown = u16_at(&good, 8, 99);
    let short_block = u16_at(&good, 6, 10);
    let lying_count = u16_at(&good, 6 + 8 + 45 + 2, 60000);
    let mut bad_encoding = good.clone();
    bad_encoding[4..6].copy_from_slice(&0x1234u16.to_be_bytes());
    let mut cut_block = good[..30].to_vec();
    cut_block[..4].copy_from_slice(&30u32.to_be_bytes());
    let cases: &[(&str, Vec<u8>)] = &[
        ("unknown_template", unknown),
        ("short_block", short_block),
        ("count", lying_count),
        ("encoding", bad_encoding),
        ("truncated", cut_block),
    ];
    let mut frames: Vec<Vec<u8>> = cases
        .iter()
        .map(|(_, bad)| udp(5000, &[bad.clone(), good.clone()].concat()))
        .collect();
    // A frame longer than the datagram, and a header cut short.
    frames.push(udp(5000, &good[..good.len() - 1]));
    frames.push(udp(5000, &good[..3]));
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    let packets = pdml(&lua, &cap, &[]);
    for (k, (expert, _)) in cases.iter().enumerate() {
        let p = std::slice::from_ref(&packets[k]);
        assert_eq!(
            count(p, &format!("sbe.{expert}")),
            1,
            "{expert}: {:#?}",
            packets[k]
        );
        let shown = messages(p, "sbe");
        let cars: Vec<&&Item> = shown.iter().filter(|m| m.show == "Car").collect();
        assert!(!cars.is_empty(), "{expert}: the good car after it is read");
        let last = cars.last().unwrap();
        let serial = last
            .children
            .iter()
            .find(|c| c.name() == "serialNumber")
            .unwrap();
        assert_eq!(serial.show, "1", "{expert}: the good car whole");
    }
    for p in &packets[cases.len()..] {
        assert_eq!(count(std::slice::from_ref(p), "sbe.truncated"), 1, "{p:#?}");
    }
    assert_eq!(count(&packets, "sbe.bug"), 0, "no dissector error");
}

/// A scratch folder `name` with the schema `xml` written in it, and its
/// dissector for SOFH over UDP port 5000: (folder, schema path, Lua).
fn sofh_on_udp_5000(name: &str, xml: &str) -> (std::path::PathBuf, String, std::path::PathBuf) {
    let dir = common::scratch(&format!("dissector-{name}"));
    let schema = dir.join(format!("{name}.xml"));
    std::fs::write(&schema, xml).unwrap();
    let schema = schema.to_string_lossy().into_owned();
    let lua = dissector(
        &dir,
        &[&schema],
        &["--framing", "sofh", "--udp-port", "5000"],
    );
    (dir, schema, lua)
}

/// The meaning facts: decimals (exponent constant or on the wire, a null
/// mantissa), times (a time composite, an integer UTCTimestamp), a date,
/// a MonthYear; and versions: an older sender's shorter block (the newer
/// fields absent) and a newer sender's longer one.
#[test]
fn meanings_and_versions() {
    if !tshark_present("meanings_and_versions") {
        return;
    }
    let (dir, schema, lua) = sofh_on_udp_5000("meanings", MEANINGS);
    let json = r#"{"message":"Trade","body":{"price":{"mantissa":1234500000},"lastPx":{"mantissa":null,"exponent":-2},"bid":{"mantissa":-5,"exponent":3},"tradeTime":{"time":1700000000123456789},"sendTime":1700000000000000001,"tradeDate":19787,"maturity":{"year":2024,"month":3,"day":15},"qty":5,"venue":null,"note":"héllo"}}"#;
    let v2 = framed(&schema, "sofh", &[json.to_string()]).remove(0);
    // Version 0: the block ends before qty (at 8 + 9 + 9 + 8 + 8 + 2 + 4).
    let end0 = 48;
    let mut v0 = [&v2[..6 + 8 + end0], &v2[6 + 8 + 54..]].concat();
    let n0 = v0.len() as u32;
    v0[..4].copy_from_slice(&n0.to_be_bytes());
    v0[6..8].copy_from_slice(&(end0 as u16).to_le_bytes());
    v0[12..14].copy_from_slice(&0u16.to_le_bytes());
    // Version 3: 4 bytes more in the block, which version 2 skips.
    let mut v3 = [&v2[..6 + 8 + 54], &[9, 9, 9, 9][..], &v2[6 + 8 + 54..]].concat();
    let n3 = v3.len() as u32;
    v3[..4].copy_from_slice(&n3.to_be_bytes());
    v3[6..8].copy_from_slice(&58u16.to_le_bytes());
    v3[12..14].copy_from_slice(&3u16.to_le_bytes());
    let frames = vec![udp(5000, &v2), udp(5000, &v0), udp(5000, &v3)];
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    assert_eq!(same_as_decode(&[&schema], "sofh", &lua, &cap, "sbe"), 3);
    let (tree, _) = tshark(&lua, &cap, &["-V", "-Y", "frame.number == 1"]);
    for line in [
        "price: 1.234500000",
        "lastPx: null",
        "bid: -5000",
        "tradeTime: Nov 14, 2023 22:13:20.123456789 UTC (1700000000123456789)",
        "sendTime: Nov 14, 2023 22:13:20.000000001 UTC (1700000000000000001)",
        "tradeDate: 2024-03-05 (19787)",
        "maturity: 2024-03-15",
        "venue: null",
        "note: héllo",
    ] {
        assert!(tree.contains(line), "{line} not in\n{tree}");
    }
    let (old, _) = tshark(&lua, &cap, &["-V", "-Y", "frame.number == 2"]);
    assert!(!old.contains("qty") && old.contains("note: héllo"), "{old}");
    let (filtered, _) = tshark(
        &lua,
        &cap,
        &["-Y", "sbe.qty == 5", "-T", "fields", "-e", "frame.number"],
    );
    assert_eq!(filtered.lines().collect::<Vec<_>>(), ["1", "3"]);
}

const MEANINGS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="meanings" id="9" version="2" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="varStringEncoding">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="Decimal9">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    </composite>
    <composite name="DecimalNull">
      <type name="mantissa" primitiveType="int64" presence="optional"/>
      <type name="exponent" primitiveType="int8"/>
    </composite>
    <composite name="UTCTimestampNanos">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">9</type>
    </composite>
    <composite name="MonthYear">
      <type name="year" primitiveType="uint16"/>
      <type name="month" primitiveType="uint8"/>
      <type name="day" primitiveType="uint8"/>
    </composite>
  </types>
  <sbe:message name="Trade" id="3">
    <field name="price" id="1" type="Decimal9"/>
    <field name="lastPx" id="2" type="DecimalNull"/>
    <field name="bid" id="10" type="DecimalNull"/>
    <field name="tradeTime" id="3" type="UTCTimestampNanos"/>
    <field name="sendTime" id="4" type="uint64" semanticType="UTCTimestamp"/>
    <field name="tradeDate" id="5" type="uint16" semanticType="LocalMktDate"/>
    <field name="maturity" id="6" type="MonthYear"/>
    <field name="qty" id="7" type="int32" sinceVersion="1"/>
    <field name="venue" id="8" type="uint16" presence="optional" sinceVersion="2"/>
    <data name="note" id="9" type="varStringEncoding"/>
  </sbe:message>
</sbe:messageSchema>
"#;

/// Registration: on a port not given, UDP and TCP are found by the
/// heuristic (a known schemaId and templateId), and Decode As names the
/// protocol; other traffic is left alone.
#[test]
fn heuristics_and_decode_as() {
    if !tshark_present("heuristics_and_decode_as") {
        return;
    }
    let car = repo_schema("schemas/car.xml");
    let dir = common::scratch("dissector-heuristic");
    let lua = dissector(&dir, &[&car], &["--framing", "sofh"]);
    let f = framed(&car, "sofh", &cars(3));
    let mut frames = vec![
        udp(6000, &f[0]),
        udp(6001, b"not sbe at all, nothing to see"),
    ];
    frames.extend(tcp(47000, &[f[1].clone(), f[2].clone()].concat(), &[20]));
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    let packets = pdml(&lua, &cap, &[]);
    assert_eq!(messages(&packets, "sbe").len(), 3);
    assert_eq!(count(&packets[1..2], "sbe"), 0, "other traffic");
    let (out, _) = tshark(
        &lua,
        &cap,
        &[
            "-d",
            "udp.port==6001,sbe",
            "-T",
            "fields",
            "-e",
            "sbe.message",
        ],
    );
    assert!(out.lines().nth(1).is_some(), "decode as: {out}");
    let (out, _) = tshark(
        &lua,
        &cap,
        &[
            "-o",
            "sbe.udp_ports:6001",
            "-T",
            "fields",
            "-e",
            "frame.protocols",
        ],
    );
    assert!(
        out.lines().nth(1).is_some_and(|l| l.ends_with(":sbe")),
        "port preference: {out}"
    );
}

/// The file is the same bytes each time; it passes luac -p; the naming
/// rule gives a name used with two types a typed second abbreviation.
#[test]
fn deterministic_and_named_by_the_rule() {
    let dir = common::scratch("dissector-naming");
    let schema = dir.join("names.xml");
    std::fs::write(&schema, NAMES).unwrap();
    let schema = schema.to_string_lossy().into_owned();
    let car = repo_schema("schemas/car.xml");
    let args = [
        "--framing",
        "sofh-le",
        "--udp-port",
        "1",
        "--tcp-port",
        "2",
        "--proto",
        "venue",
    ];
    let a = std::fs::read(dissector(&dir, &[&schema, &car], &args)).unwrap();
    let b = std::fs::read(dissector(&dir, &[&schema, &car], &args)).unwrap();
    assert!(a == b, "two runs, two files");
    luac(&dir.join("dissector.lua"));
    let text = String::from_utf8(a).unwrap();
    for decl in [
        r#"ProtoField.uint32("venue.px", "px", base.DEC)"#,
        r#"ProtoField.string("venue.px.PRICE", "px")"#,
        r#"ProtoField.int64("venue.px.PRICE.mantissa", "mantissa", base.DEC)"#,
        r#"ProtoField.uint64("venue.serialNumber", "serialNumber", base.DEC)"#,
        r#"ProtoField.bool("venue.extras.sunRoof", "sunRoof")"#,
        r#"ProtoField.none("venue.fuelFigures.entry", "entry")"#,
        r#"ProtoField.uint16("venue.header.templateId", "templateId", base.DEC)"#,
        "local function s1_Quote(tvb, t, b, ver, blen, lim)",
        "local function s2_Car_fuelFigures(tvb, t, o, ver, lim)",
    ] {
        assert!(text.contains(decl), "{decl} not in the file");
    }
    let (code, _, err) = common::sbe(
        &[
            "dissector",
            "--schema",
            &car,
            "--framing",
            "mdp3",
            "--tcp-port",
            "1",
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("UDP only"), "{err}");
    let (code, _, err) = common::sbe(&["dissector", "--schema", &car, "--proto", "Bad Name"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("protocol name"), "{err}");
}

const NAMES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="names" id="3" version="0">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="PRICE">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-2</type>
    </composite>
  </types>
  <sbe:message name="Quote" id="1"><field name="px" id="1" type="uint32"/></sbe:message>
  <sbe:message name="Trade" id="2"><field name="px" id="1" type="PRICE"/></sbe:message>
</sbe:messageSchema>
"#;

const WIDE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="wide" id="4" version="0">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSize64">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint64" maxValue="1000"/>
    </composite>
    <composite name="varData64">
      <type name="length" primitiveType="uint64" maxValue="1000"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
  </types>
  <sbe:message name="Wide" id="1">
    <field name="a" id="1" type="uint32"/>
    <group name="legs" id="2" dimensionType="groupSize64"><field name="q" id="3" type="uint32"/></group>
    <data name="note" id="4" type="varData64"/>
  </sbe:message>
</sbe:messageSchema>
"#;

/// 64-bit counts and lengths are read as integers: shown as tshark
/// shows `sbe decode`'s values, and in texts as "3", never "3.0" (Lua
/// 5.4's UInt64:tonumber() is a float).
#[test]
fn wide_counts_and_lengths_are_integers() {
    if !tshark_present("wide_counts_and_lengths_are_integers") {
        return;
    }
    let (dir, schema, lua) = sofh_on_udp_5000("wide", WIDE);
    let json =
        r#"{"message":"Wide","body":{"a":7,"legs":[{"q":1},{"q":2},{"q":3}],"note":"hello"}}"#;
    let good = framed(&schema, "sofh", &[json.to_string()]).remove(0);
    // SOFH 6, header 8, block 4: legs' numInGroup at 6 + 8 + 4 + 2.
    let mut lying = good.clone();
    lying[20..28].copy_from_slice(&70000u64.to_le_bytes());
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&[udp(5000, &good), udp(5000, &lying)])).unwrap();
    let packets = pdml(&lua, &cap, &[]);
    let shown = messages(&packets[..1], "sbe");
    let decoded = decoded(&[&schema], "sofh", &cap);
    assert_eq!(shown.len(), 1, "{packets:#?}");
    if let Some(d) = differs(&decoded[0], shown[0]) {
        panic!("{d}\n{:#?}", shown[0]);
    }
    let legs = shown[0].children.iter().find(|c| c.name() == "legs");
    let legs = legs.map(|l| l.showname.as_str()).unwrap_or_default();
    assert_eq!(legs, "legs: 3 entries", "{:#?}", shown[0]);
    let mut expert = Vec::new();
    packets[1].find("sbe.count", &mut expert);
    assert_eq!(expert.len(), 1, "{:#?}", packets[1]);
    let text = &expert[0].showname;
    assert!(
        text.contains("count 70000 ") && !text.contains(".0 "),
        "{text}"
    );
}

/// A dissector generated without `--framing` (raw) on MDP3 packets, SOFH
/// and sofh-le frames: the unknown schema id's expert item says which
/// framing to generate it with (issue 42); bytes of no framing get none.
#[test]
fn raw_dissector_hints_at_the_framing() {
    if !tshark_present("raw_dissector_hints_at_the_framing") {
        return;
    }
    let md = repo_schema("sbe-command/benches/market-data.xml");
    let dir = common::scratch("dissector-hint");
    let lua = dissector(&dir, &[&md], &["--udp-port", "14310", "--tcp-port", "9000"]);
    let books = encode(&md, &[book_json(1), book_json(2)]);
    let mut mdp3 = 41u32.to_le_bytes().to_vec();
    mdp3.extend(1_709_649_001_000_000_007u64.to_le_bytes());
    for b in &books {
        mdp3.extend(((b.len() + 2) as u16).to_le_bytes());
        mdp3.extend(b);
    }
    let sofh: Vec<u8> = framed(&md, "sofh", &[book_json(1), book_json(2)]).concat();
    let sofh_le: Vec<u8> = framed(&md, "sofh-le", &[book_json(1)]).concat();
    let mut frames = vec![
        udp(14310, &mdp3),
        udp(14310, &sofh),
        udp(14310, &[0x55; 40]),
    ];
    frames.extend(tcp(9000, &sofh_le, &[]));
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    let (out, err) = tshark(
        &lua,
        &cap,
        &[
            "-T",
            "fields",
            "-e",
            "frame.number",
            "-e",
            "_ws.expert.message",
        ],
    );
    let said: Vec<&str> = out.lines().filter(|l| l.contains("no schema")).collect();
    let hint = |framing: &str, words: &str| {
        format!("these look like {words}: generate the dissector with --framing {framing}")
    };
    assert!(said.len() >= 4, "{out}{err}");
    assert!(
        said[0].starts_with("1\t") && said[0].contains(&hint("mdp3", "MDP3 packets")),
        "{out}"
    );
    assert!(
        said[1].starts_with("2\t")
            && said[1].contains(&hint("sofh", "SOFH frames (Simple Open Framing Header)")),
        "{out}"
    );
    assert!(
        said[2].starts_with("3\t") && !said[2].contains("these look like"),
        "{out}"
    );
    assert!(
        said[3..]
            .iter()
            .any(|l| l.contains(&hint("sofh-le", "sofh-le frames (iLink 3, B3 EntryPoint)"))),
        "{out}"
    );
    // With a framing given, nothing is hinted.
    let framed_lua = dissector(&dir, &[&md], &["--framing", "sofh", "--udp-port", "14310"]);
    let (out, _) = tshark(
        &framed_lua,
        &cap,
        &["-T", "fields", "-e", "_ws.expert.message"],
    );
    assert!(!out.contains("these look like"), "{out}");
}

/// Binance-style decimals (`mbx:exponent`): the exponents in the root
/// block, the mantissas in the root, a group and a nested group, one of
/// 128 bits; a null mantissa (beside a wire exponent, and a field
/// decimal's) shows null; a `{time, unit}` composite the schema calls
/// `Int` is no time.
#[test]
fn field_decimals_and_meanings_the_schema_states() {
    if !tshark_present("field_decimals_and_meanings_the_schema_states") {
        return;
    }
    let xml = std::fs::read_to_string(repo_schema("sbe-build/tests/fixtures/meanings.xml"))
        .expect("fixture");
    let (dir, schema, lua) = sofh_on_udp_5000("field-decimals", &xml);
    let bytes128 = |v: i128| {
        let b: Vec<String> = v.to_le_bytes().iter().map(u8::to_string).collect();
        format!("[{}]", b.join(","))
    };
    let json = format!(
        r#"{{"message":"Depth","body":{{"priceExponent":-2,"qtyExponent":-8,"keepAlive":{{"time":10000}},"limit":{{"mantissa":null,"exponent":9}},"serverTime":1700000000123456,"lastQty":150000000,"bid":{{"mantissa":null,"exponent":-2}},"bids":[{{"price":6500012,"qty":250000000,"volume":{},"fills":[{{"px":6500013}}]}},{{"price":6499999,"qty":null,"volume":{},"fills":[]}}]}}}}"#,
        bytes128(-123_456_789_012_345_678_901_234),
        bytes128(i128::MIN + 1),
    );
    let msg = framed(&schema, "sofh", &[json]).remove(0);
    let cap = dir.join("cap.pcap");
    std::fs::write(&cap, pcap(&[udp(5000, &msg)])).unwrap();
    let (tree, err) = tshark(&lua, &cap, &["-V"]);
    for line in [
        "lastQty: 1.5",
        "price: 65000.12",
        "price: 64999.99",
        "qty: 2.5",
        "qty: null",
        "volume: -1234567890123456.78901234",
        "volume: -1701411834604692317316873037158.84105727",
        "px: 65000.13",
        "limit: null",
        "bid: null",
    ] {
        assert!(tree.contains(line), "{line} not in\n{tree}\n{err}");
    }
    assert!(
        !tree.contains("keepAlive: Jan"),
        "keepAlive as a time:\n{tree}"
    );
    let packets = pdml(&lua, &cap, &[]);
    assert_eq!(count(&packets, "sbe.bug"), 0, "no dissector error");
}
