//! Every dataset `sbe decode --format parquet` writes opens in the five
//! readers users reach for: pyarrow, DuckDB, Polars (its own reader),
//! DataFusion and Spark (`local[2]`), and all five agree on row counts,
//! non-null counts, integer min/max and exact decimal sums, inside groups
//! too (readers.py). The inputs: a multi-row-group MDP3 capture, cars of
//! random values (uint64 extremes, nested groups, var data) and a schema
//! of every column kind, each written with nanoseconds (Spark with
//! `nanosAsLong`) and with `--timestamp-unit us`, which Spark reads with
//! its default settings.
//!
//! The readers come from PyPI (.ci/run installs them); without them the
//! test prints a skip notice, and fails under CI=true.

mod common;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use parquet::file::reader::{FileReader, SerializedFileReader};
use serde_json::{json, Value};

/// A schema of every column kind the exporter makes.
const KINDS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="kinds" id="7" version="0" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <composite name="varStringEncoding">
      <type name="length" primitiveType="uint32" maxValue="1073741824"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="varDataEncoding">
      <type name="length" primitiveType="uint32" maxValue="1073741824"/>
      <type name="varData" primitiveType="uint8" length="0"/>
    </composite>
    <composite name="PRICE9">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    </composite>
    <composite name="PRICE4">
      <type name="mantissa" primitiveType="int32"/>
      <type name="exponent" primitiveType="int8" presence="constant">-4</type>
    </composite>
    <composite name="PRICENULL">
      <type name="mantissa" primitiveType="int64" presence="optional"/>
      <type name="exponent" primitiveType="int8" presence="constant">-2</type>
    </composite>
    <composite name="WireDecimal">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8"/>
    </composite>
    <composite name="Nanos" semanticType="UTCTimestamp">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">9</type>
    </composite>
    <composite name="Millis" semanticType="UTCTimestamp">
      <type name="time" primitiveType="int64"/>
      <type name="unit" primitiveType="uint8" presence="constant">3</type>
    </composite>
    <composite name="Seconds" semanticType="UTCTimestamp">
      <type name="time" primitiveType="int64"/>
      <type name="unit" primitiveType="uint8" presence="constant">0</type>
    </composite>
    <composite name="WireUnit" semanticType="UTCTimestamp">
      <type name="time" primitiveType="int64"/>
      <type name="unit" primitiveType="uint8"/>
    </composite>
    <composite name="TimeOfDay" semanticType="UTCTimeOnly">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">9</type>
    </composite>
    <type name="Date" primitiveType="uint16" semanticType="LocalMktDate"/>
    <type name="Symbol" primitiveType="char" length="8"/>
    <type name="Numbers" primitiveType="int32" length="3"/>
    <composite name="Pair">
      <type name="a" primitiveType="uint32"/>
      <type name="b" primitiveType="int16"/>
    </composite>
    <enum name="Side" encodingType="char">
      <validValue name="Buy">1</validValue>
      <validValue name="Sell">2</validValue>
    </enum>
    <set name="Flags" encodingType="uint8">
      <choice name="First">0</choice>
      <choice name="Last">1</choice>
      <choice name="Implied">7</choice>
    </set>
  </types>
  <sbe:message name="Every" id="1">
    <field name="i8" id="1" type="int8"/>
    <field name="u8" id="2" type="uint8"/>
    <field name="i16" id="3" type="int16"/>
    <field name="u16" id="4" type="uint16"/>
    <field name="i32" id="5" type="int32"/>
    <field name="u32" id="6" type="uint32"/>
    <field name="i64" id="7" type="int64"/>
    <field name="u64" id="8" type="uint64"/>
    <field name="opt" id="9" type="uint32" presence="optional"/>
    <field name="f32" id="10" type="float"/>
    <field name="f64" id="11" type="double"/>
    <field name="c" id="12" type="char"/>
    <field name="sym" id="13" type="Symbol"/>
    <field name="nums" id="14" type="Numbers"/>
    <field name="side" id="15" type="Side"/>
    <field name="flags" id="16" type="Flags"/>
    <field name="px" id="17" type="PRICE9"/>
    <field name="px4" id="18" type="PRICE4"/>
    <field name="pxn" id="19" type="PRICENULL"/>
    <field name="wd" id="20" type="WireDecimal"/>
    <field name="tns" id="21" type="Nanos"/>
    <field name="tms" id="22" type="Millis"/>
    <field name="ts" id="23" type="Seconds"/>
    <field name="tw" id="24" type="WireUnit"/>
    <field name="tod" id="25" type="TimeOfDay"/>
    <field name="d" id="26" type="Date"/>
    <field name="pair" id="27" type="Pair"/>
    <group name="legs" id="30" dimensionType="groupSizeEncoding">
      <field name="qty" id="31" type="int64"/>
      <field name="legPx" id="32" type="PRICE9"/>
      <field name="legSide" id="33" type="Side"/>
      <field name="legTime" id="34" type="Nanos"/>
      <group name="fills" id="35" dimensionType="groupSizeEncoding">
        <field name="n" id="36" type="uint16"/>
        <field name="fillPx" id="37" type="PRICE9"/>
      </group>
      <data name="note" id="38" type="varStringEncoding"/>
    </group>
    <data name="text" id="40" type="varStringEncoding"/>
    <data name="blob" id="41" type="varDataEncoding"/>
  </sbe:message>
</sbe:messageSchema>
"#;

/// xorshift64: the same values on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A value of `lo..=hi`, one in eight `lo` or `hi` themselves.
    fn int(&mut self, lo: i128, hi: i128) -> i128 {
        match self.below(16) {
            0 => lo,
            1 => hi,
            _ => lo + (i128::from(self.next()) % (hi - lo + 1)),
        }
    }

    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        of.get(self.below(of.len() as u64) as usize)
            .copied()
            .unwrap_or_default()
    }

    fn text(&mut self, max: u64) -> String {
        (0..self.below(max + 1))
            .map(|_| char::from(b'a' + self.below(26) as u8))
            .collect()
    }
}

fn pcap(path: &Path, frames: &[(u64, Vec<u8>)]) {
    let mut f = std::io::BufWriter::new(File::create(path).unwrap());
    for v in [0xa1b2_3c4du32, 0x0004_0002, 0, 0, 65535, 1] {
        f.write_all(&v.to_le_bytes()).unwrap();
    }
    for (ns, frame) in frames {
        let len = frame.len() as u32;
        for v in [
            (ns / 1_000_000_000) as u32,
            (ns % 1_000_000_000) as u32,
            len,
            len,
        ] {
            f.write_all(&v.to_le_bytes()).unwrap();
        }
        f.write_all(frame).unwrap();
    }
}

fn codec_of(schema: &sbe_ir::ir::Schema) -> sbe_otf::Codec<'_> {
    sbe_otf::Codec::new(schema).unwrap()
}

fn encode(codec: &sbe_otf::Codec<'_>, msg: &Value) -> Vec<u8> {
    let mut buf = Vec::new();
    codec
        .encode_value(msg, &mut buf)
        .unwrap_or_else(|e| panic!("{e}: {msg}"));
    buf
}

/// Book updates of benches/market-data.xml in MDP3 packets (1 to 4 a
/// packet), as the benchmark's generator makes them.
fn mdp3_capture(path: &Path, n: u64) {
    let schema = sbe_ir::ir::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/market-data.xml"
    ))
    .unwrap();
    let codec = codec_of(&schema);
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let mut frames = Vec::new();
    let (mut i, mut seq) = (0u64, 1u32);
    while i < n {
        let time = 1_709_649_001_000_000_000 + i * 1_001;
        let mut msgs = Vec::new();
        for _ in 0..(1 + r.below(4)).min(n - i) {
            let entries: Vec<Value> = (0..r.below(5))
                .map(|k| {
                    json!({
                        "price": {"mantissa": 4_500_000_000_000i64 + r.below(100_000) as i64 * 250_000 - 10_000_000_000},
                        "size": if r.below(8) == 0 { Value::Null } else { r.below(500).into() },
                        "securityId": 1000 + r.below(50) as i32,
                        "rptSeq": i * 4 + k,
                        "level": 1 + r.below(10),
                        "action": r.pick(&["New", "Change", "Delete"]),
                        "entryType": r.pick(&["Bid", "Offer", "Trade"]),
                    })
                })
                .collect();
            let msg = json!({"message": "BookUpdate", "body": {
                "transactTime": 1_700_000_000_000_000_000u64 + i * 1000,
                "flags": if i % 2 == 0 { vec!["EndOfEvent"] } else { vec!["LastQuote", "EndOfEvent"] },
                "entries": entries,
            }});
            msgs.push(encode(&codec, &msg));
            i += 1;
        }
        let payload = common::mdp3(seq, time + 7, &msgs);
        frames.push((
            time,
            common::udp("10.0.0.1:9000", "224.0.31.1:14310", &payload),
        ));
        seq += 1;
    }
    pcap(path, &frames);
}

/// Cars of random values, back to back.
fn car_file(path: &Path, n: usize) {
    let schema =
        sbe_ir::ir::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/car.xml")).unwrap();
    let codec = codec_of(&schema);
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for _ in 0..n {
        let fuel: Vec<Value> = (0..r.below(4))
            .map(|_| json!({"speed": r.int(0, 65535) as u64, "mpg": r.below(1000) as f64 / 8.0, "usageDescription": r.text(20)}))
            .collect();
        let perf: Vec<Value> = (0..r.below(4))
            .map(|_| {
                let acc: Vec<Value> = (0..r.below(4))
                    .map(|_| json!({"mph": r.int(0, 65535) as u64, "seconds": r.below(200) as f64 / 10.0}))
                    .collect();
                json!({"octaneRating": r.int(90, 110) as u64, "acceleration": acc})
            })
            .collect();
        let extras: Vec<&str> = ["sunRoof", "sportsPack", "cruiseControl"]
            .into_iter()
            .filter(|_| r.below(2) == 0)
            .collect();
        let msg = json!({"message": "Car", "body": {
            "serialNumber": r.int(0, i128::from(u64::MAX) - 1) as u64,
            "modelYear": r.int(0, 65534) as u64,
            "available": r.pick(&["T", "F"]),
            "code": r.pick(&["A", "B", "C"]),
            "someNumbers": (0..4).map(|_| r.int(0, i128::from(u32::MAX) - 1) as u64).collect::<Vec<_>>(),
            "vehicleCode": format!("{:<6}", r.text(6)).replace(' ', "x"),
            "extras": extras,
            "engine": {
                "capacity": r.int(0, 65534) as u64,
                "numCylinders": r.int(0, 254) as u64,
                "manufacturerCode": "abc",
                "efficiency": r.int(0, 100) as i64,
                "boosterEnabled": r.pick(&["T", "F"]),
                "booster": {"BoostType": r.pick(&["TURBO", "SUPERCHARGER", "NITROUS", "KERS"]), "horsePower": r.int(0, 254) as u64},
            },
            "fuelFigures": fuel,
            "performanceFigures": perf,
            "manufacturer": r.text(12),
            "model": r.text(12),
            "activationCode": r.text(8),
        }});
        out.extend(encode(&codec, &msg));
    }
    std::fs::write(path, out).unwrap();
}

/// Messages of every column kind, back to back.
fn kinds_file(schema_path: &Path, path: &Path, n: usize) {
    let schema = sbe_ir::ir::load(schema_path).unwrap();
    let codec = codec_of(&schema);
    let mut r = Rng(0xd1b5_4a32_d192_ed03);
    let mut out = Vec::new();
    let i64s = (i128::from(i64::MIN) + 1, i128::from(i64::MAX));
    for _ in 0..n {
        let legs: Vec<Value> = (0..r.below(4))
            .map(|_| {
                let fills: Vec<Value> = (0..r.below(3))
                    .map(|_| json!({"n": r.int(0, 65534) as u64, "fillPx": {"mantissa": r.int(i64s.0, i64s.1) as i64}}))
                    .collect();
                json!({
                    "qty": r.int(i64s.0, i64s.1) as i64,
                    "legPx": {"mantissa": r.int(-1_000_000_000_000, 1_000_000_000_000) as i64},
                    "legSide": r.pick(&["Buy", "Sell"]),
                    "legTime": {"time": r.int(0, i128::from(u64::MAX) - 1) as u64},
                    "fills": fills,
                    "note": r.text(10),
                })
            })
            .collect();
        let flags: Vec<&str> = ["First", "Last", "Implied"]
            .into_iter()
            .filter(|_| r.below(2) == 0)
            .collect();
        let msg = json!({"message": "Every", "body": {
            "i8": r.int(-127, 127) as i64,
            "u8": r.int(0, 254) as u64,
            "i16": r.int(-32767, 32767) as i64,
            "u16": r.int(0, 65534) as u64,
            "i32": r.int(-(1 << 31) + 1, (1 << 31) - 1) as i64,
            "u32": r.int(0, (1 << 32) - 2) as u64,
            "i64": r.int(i64s.0, i64s.1) as i64,
            "u64": r.int(0, i128::from(u64::MAX) - 1) as u64,
            "opt": if r.below(3) == 0 { Value::Null } else { json!(r.int(0, (1 << 32) - 2) as u64) },
            "f32": r.below(10_000) as f64 / 4.0,
            "f64": r.int(-1_000_000, 1_000_000) as f64 / 8.0,
            "c": String::from(char::from(b'A' + r.below(26) as u8)),
            "sym": r.text(8),
            "nums": (0..3).map(|_| r.int(-(1 << 31) + 1, (1 << 31) - 1) as i64).collect::<Vec<_>>(),
            "side": r.pick(&["Buy", "Sell"]),
            "flags": flags,
            "px": {"mantissa": r.int(i64s.0, i64s.1) as i64},
            "px4": {"mantissa": r.int(-(1 << 31) + 1, (1 << 31) - 1) as i64},
            "pxn": {"mantissa": if r.below(3) == 0 { Value::Null } else { json!(r.int(-1_000_000, 1_000_000) as i64) }},
            "wd": {"mantissa": r.int(-1_000_000, 1_000_000) as i64, "exponent": r.int(-9, 2) as i64},
            "tns": {"time": r.int(0, i128::from(u64::MAX) - 1) as u64},
            "tms": {"time": r.int(-4_000_000_000_000, 4_000_000_000_000) as i64},
            "ts": {"time": r.int(-4_000_000_000, 4_000_000_000) as i64},
            "tw": {"time": r.int(0, 4_000_000_000_000) as i64, "unit": 3 * r.below(4)},
            "tod": {"time": r.int(0, 86_399_999_999_999) as u64},
            "d": r.int(0, 65534) as u64,
            "pair": {"a": r.int(0, (1 << 32) - 2) as u64, "b": r.int(-32767, 32767) as i64},
            "legs": legs,
            "text": r.text(30),
            "blob": (0..r.below(6)).map(|_| format!("{:02x}", r.below(256))).collect::<String>(),
        }});
        out.extend(encode(&codec, &msg));
    }
    std::fs::write(path, out).unwrap();
}

/// `sbe decode --format parquet` of `input` into `out` with `extra`; the
/// part files written.
fn export(schema: &str, input: &Path, out: &Path, extra: &[&str]) -> Vec<PathBuf> {
    let mut args = vec!["decode", "--schema", schema, "--format", "parquet"];
    args.extend(extra);
    args.extend(["--out", out.to_str().unwrap(), input.to_str().unwrap()]);
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let mut parts = test_support::files_under(out, "parquet");
    parts.sort();
    assert!(!parts.is_empty(), "{}: no parts", out.display());
    parts
}

/// Why the readers cannot run here, if they cannot.
fn readers_missing() -> Option<String> {
    let probe = Command::new("python3")
        .args([
            "-c",
            "import importlib.util as u, shutil, os\n\
             m = [n for n in ('pyarrow', 'duckdb', 'polars', 'datafusion', 'pyspark') if u.find_spec(n) is None]\n\
             if not (shutil.which('java') or os.environ.get('JAVA_HOME')): m.append('java (for Spark)')\n\
             print(', '.join(m))",
        ])
        .output();
    match probe {
        Err(e) => Some(format!("python3: {e}")),
        Ok(o) if !o.status.success() => Some(String::from_utf8_lossy(&o.stderr).into_owned()),
        Ok(o) => {
            let missing = String::from_utf8_lossy(&o.stdout).trim().to_string();
            (!missing.is_empty()).then_some(missing)
        }
    }
}

#[test]
fn five_readers_read_every_dataset_and_agree() {
    if let Some(missing) = readers_missing() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the five readers are missing: {missing} (.ci/run installs them)"
        );
        eprintln!(
            "skipping five_readers_read_every_dataset_and_agree: missing {missing} \
             (pip install pyarrow duckdb polars datafusion pyspark)"
        );
        return;
    }
    let dir = common::scratch("readers");
    let md_pcap = dir.join("md.pcap");
    mdp3_capture(&md_pcap, 100_000);
    let cars = dir.join("cars.bin");
    car_file(&cars, 3_000);
    let kinds_xml = dir.join("kinds.xml");
    std::fs::write(&kinds_xml, KINDS).unwrap();
    let kinds = dir.join("kinds.bin");
    kinds_file(&kinds_xml, &kinds, 3_000);

    let md_schema = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/market-data.xml");
    let car_schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/car.xml");
    let kinds_schema = kinds_xml.to_str().unwrap();
    let mut ns_files = Vec::new();
    let mut us_files = Vec::new();
    for (name, schema, input, extra) in [
        ("md", md_schema, &md_pcap, &["--framing", "mdp3"][..]),
        ("car", car_schema, &cars, &[][..]),
        ("kinds", kinds_schema, &kinds, &[][..]),
    ] {
        ns_files.extend(export(
            schema,
            input,
            &dir.join(format!("{name}-ns")),
            extra,
        ));
        let mut us = extra.to_vec();
        us.extend(["--timestamp-unit", "us"]);
        us_files.extend(export(schema, input, &dir.join(format!("{name}-us")), &us));
    }
    // The MDP3 table spans row groups, so that readers meet more than one.
    let book = ns_files
        .iter()
        .find(|p| p.to_string_lossy().contains("BookUpdate"))
        .expect("a BookUpdate part");
    let meta = SerializedFileReader::new(File::open(book).unwrap()).unwrap();
    assert!(
        meta.metadata().num_row_groups() > 1,
        "{}",
        meta.metadata().num_row_groups()
    );

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/readers.py");
    let mut cmd = Command::new("python3");
    cmd.arg(script);
    cmd.args(&ns_files);
    cmd.arg("--spark-default");
    cmd.args(&us_files);
    let out = cmd.output().expect("run readers.py");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("{text}");
    assert!(out.status.success(), "{text}\n{err}");
    // Every file was compared, each by the five readers.
    for f in ns_files.iter().chain(&us_files) {
        let name = f.to_string_lossy();
        for reader in ["pyarrow", "duckdb", "polars", "datafusion", "spark"] {
            assert!(
                text.lines()
                    .any(|l| l.starts_with(&*name) && l.contains(&format!(" {reader}: agrees"))),
                "{name} {reader}:\n{text}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
