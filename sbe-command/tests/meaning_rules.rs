//! The meaning rules through the real binary, on
//! `sbe-build/tests/fixtures/meanings.xml`: `--values semantic` reads a
//! `{time, unit}` composite the schema calls `Int` as its integers, a null
//! mantissa beside a wire exponent as null, Binance-style decimals through
//! the exponent field their `mbx:exponent` names (in the root block, the
//! mantissas in groups, one a 128-bit mantissa), and a bare int64 type as
//! a timestamp where `--meaning` declares it; Parquet holds the same
//! integers, nulls and exact decimals (read back with arrow-rs); the
//! dissector marks the null decimal.

mod common;

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal128Type, Int8Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

fn schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../sbe-build/tests/fixtures/meanings.xml")
        .to_string_lossy()
        .into_owned()
}

/// The 16 little-endian bytes of `v` as the wire JSON of a uint8[16].
fn bytes128(v: i128) -> String {
    let b: Vec<String> = v.to_le_bytes().iter().map(u8::to_string).collect();
    format!("[{}]", b.join(","))
}

fn depth_json() -> String {
    format!(
        r#"{{"message":"Depth","body":{{"priceExponent":-2,"qtyExponent":-8,"keepAlive":{{"time":10000}},"limit":{{"mantissa":null,"exponent":9}},"serverTime":1700000000123456,"lastQty":150000000,"bid":{{"mantissa":null,"exponent":-2}},"bids":[{{"price":6500012,"qty":250000000,"volume":{},"fills":[{{"px":6500012}}]}},{{"price":6499999,"qty":null,"volume":{},"fills":[]}}]}}}}"#,
        bytes128(-123_456_789_012_345_678_901_234),
        bytes128(i128::MAX),
    )
}

fn encoded() -> Vec<u8> {
    let (code, bin, err) = common::sbe(
        &["encode", "--schema", &schema(), "-"],
        depth_json().as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    bin
}

fn semantic(extra: &[&str]) -> Value {
    let s = schema();
    let mut args = vec!["decode", "--schema", s.as_str(), "--values", "semantic"];
    args.extend(extra);
    args.push("-");
    let (code, out, err) = common::sbe(&args, &encoded());
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).expect("utf-8");
    serde_json::from_str(text.lines().next().expect("a line")).expect("JSON")
}

#[test]
fn semantic_json_follows_the_schema_and_the_exponent_fields() {
    let v = semantic(&[]);
    let body = &v["body"];
    // semanticType="Int": the composite as its integers, no time.
    assert_eq!(
        body["keepAlive"],
        serde_json::json!({"time": 10000, "unit": 3})
    );
    // A null mantissa beside exponent 9: null, as other null decimals.
    assert_eq!(body["limit"], Value::Null);
    // And beside a required exponent.
    assert_eq!(body["bid"], Value::Null);
    // Exponents from the root block, mantissas in the root and in groups.
    assert_eq!(body["lastQty"], "1.5");
    let bids = body["bids"].as_array().expect("bids");
    assert_eq!(bids[0]["price"], "65000.12");
    assert_eq!(bids[0]["qty"], "2.5");
    assert_eq!(bids[1]["qty"], Value::Null);
    assert_eq!(bids[0]["volume"], "-1234567890123456.78901234");
    assert_eq!(
        bids[1]["volume"],
        "1701411834604692317316873037158.84105727"
    );
    assert_eq!(bids[0]["fills"][0]["px"], "65000.12");
    // Undeclared, the bare int64 stays an integer.
    assert_eq!(body["serverTime"], 1_700_000_000_123_456u64);
}

#[test]
fn a_declared_meaning_makes_a_bare_integer_a_timestamp() {
    let v = semantic(&["--meaning", "utcTimestampUs=timestamp:us"]);
    let t = v["body"]["serverTime"].as_str().expect("a time");
    assert!(t.starts_with("2023-11-14T22:13:20.123456"), "{t}");
    // The layout report shows the declared fact, as every backend reads it.
    let s = schema();
    let (code, out, err) = common::sbe(
        &[
            "layout",
            "--schema",
            &s,
            "--meanings",
            "--meaning",
            "utcTimestampUs=timestamp:us",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("microsecond") || text.contains("\"us\""),
        "{text}"
    );
    // A bad declaration is refused with what to write.
    let (code, _, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &s,
            "--meaning",
            "utcTimestampUs=instant",
            "-",
        ],
        b"",
    );
    assert_ne!(code, 0);
    assert!(err.contains("timestamp:UNIT"), "{err}");
}

#[test]
fn the_dissector_marks_a_null_mantissa_null() {
    let s = schema();
    let (code, lua, err) = common::sbe(&["dissector", "--schema", &s], b"");
    assert_eq!(code, 0, "{err}");
    let lua = String::from_utf8_lossy(&lua);
    // The decimal item of `limit` is labelled null when its mantissa is,
    // whatever its exponent holds.
    assert!(lua.contains("limit: null"), "no null label for limit");
    assert!(lua.contains("bid: null"), "no null label for bid");
    // Field decimals read the exponent their message keeps (EXP), a
    // mantissa128 through its 128-bit text.
    assert!(
        lua.contains("EXP[\"1_0\"] = signed(u8(b), 128)"),
        "priceExponent kept"
    );
    assert!(lua.contains("local x = EXP[\"1_0\"]"), "price reads it");
    assert!(
        lua.contains("local m = i128_text(b + 16)"),
        "volume's 128 bits"
    );
    assert!(lua.contains("\"qty: null\""), "a null qty");
    // keepAlive is no time item.
    assert!(
        !lua.contains("\"keepAlive\", base.UTC"),
        "keepAlive as a time"
    );
}

fn parquet_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(parquet_files(&p));
        } else if p.extension().is_some_and(|x| x == "parquet") {
            out.push(p);
        }
    }
    out
}

fn read(path: &Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).expect("open parquet");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet")
        .build()
        .expect("reader")
        .map(|b| b.expect("batch"))
        .collect()
}

/// The one Parquet file `sbe decode --format parquet` writes of the
/// Depth, in scratch directory `name`.
fn depth_parquet(name: &str) -> PathBuf {
    let dir = common::scratch(name);
    let input = dir.join("depth.bin");
    std::fs::write(&input, encoded()).expect("write");
    let out = dir.join("out");
    let s = schema();
    let args = [
        "decode",
        "--schema",
        &s,
        "--format",
        "parquet",
        "--overwrite",
        "--out",
        out.to_str().expect("path"),
        input.to_str().expect("path"),
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let files = parquet_files(&out);
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().expect("a file")
}

#[test]
fn parquet_holds_the_same_integers_nulls_and_exact_decimals() {
    let batches = read(&depth_parquet("meaning-rules-parquet"));
    let b = &batches[0];
    // semanticType="Int": its integers, no time.
    let keep = b.column_by_name("keepAlive").expect("keepAlive");
    let time = keep.as_struct().column_by_name("time").expect("time");
    assert_eq!(time.as_primitive::<UInt64Type>().value(0), 10_000);
    // The null mantissa beside exponent 9: the value and its pair null.
    assert!(b.column_by_name("limit").expect("limit").is_null(0));
    assert!(b.column_by_name("limit_exact").expect("exact").is_null(0));
    assert!(b.column_by_name("bid").expect("bid").is_null(0));
    assert!(b.column_by_name("bid_exact").expect("exact").is_null(0));
    // A root field decimal at the root's exponent: exact in
    // Decimal128(38, 18), the scale of an exponent field declaring no
    // minValue; its raw pair null, as the column holds it.
    let last = b.column_by_name("lastQty").expect("lastQty");
    assert_eq!(format!("{:?}", last.data_type()), "Decimal128(38, 18)");
    let last = last.as_primitive::<Decimal128Type>();
    assert_eq!(last.value(0), 1_500_000_000_000_000_000);
    assert_eq!(last.value_as_string(0), "1.500000000000000000");
    let raw = b.column_by_name("lastQty_raw").expect("raw");
    assert!(raw.is_null(0));
    // The pair's parts are named as the schema's two fields.
    assert_eq!(raw.as_struct().column_names(), ["lastQty", "qtyExponent"]);
    // Group entries at the message's exponents, one a 128-bit mantissa,
    // a nested group's too.
    let bids = b.column_by_name("bids").expect("bids");
    let bids = bids.as_list::<i32>().value(0);
    let bids = bids.as_struct();
    let price = bids.column_by_name("price").expect("price");
    let price = price.as_primitive::<Decimal128Type>();
    assert_eq!(price.value_as_string(0), "65000.120000000000000000");
    assert_eq!(price.value_as_string(1), "64999.990000000000000000");
    let qty = bids.column_by_name("qty").expect("qty");
    assert_eq!(
        qty.as_primitive::<Decimal128Type>().value_as_string(0),
        "2.500000000000000000"
    );
    assert!(qty.is_null(1), "a null mantissa");
    let qty_raw = bids.column_by_name("qty_raw").expect("qty_raw");
    assert_eq!(qty_raw.null_count(), 2, "a value held, a null decimal");
    // The 128-bit mantissa, exact past an i64; i128::MAX at exponent -8
    // has more than 38 digits at scale 18: null, and exact in its raw pair.
    let volume = bids.column_by_name("volume").expect("volume");
    let volume = volume.as_primitive::<Decimal128Type>();
    assert_eq!(
        volume.value_as_string(0),
        "-1234567890123456.789012340000000000"
    );
    assert!(volume.is_null(1));
    let volume_raw = bids.column_by_name("volume_raw").expect("volume_raw");
    assert!(volume_raw.is_null(0));
    assert!(volume_raw.is_valid(1));
    let pair = volume_raw.as_struct();
    let mantissas = pair.column(0).as_primitive::<Decimal128Type>();
    assert_eq!(format!("{:?}", mantissas.data_type()), "Decimal128(38, 0)");
    assert_eq!(mantissas.value(1), i128::MAX);
    assert_eq!(pair.column(1).as_primitive::<Int8Type>().value(1), -8);
    let fills = bids.column_by_name("fills").expect("fills");
    let fills = fills.as_list::<i32>().value(0);
    let px = fills.as_struct().column_by_name("px").expect("px");
    assert_eq!(
        px.as_primitive::<Decimal128Type>().value_as_string(0),
        "65000.120000000000000000"
    );
}

/// pyarrow reads the field decimals as Python's exact `Decimal`s.
#[test]
fn pyarrow_reads_field_decimals_as_exact_decimals() {
    let has_pyarrow = std::process::Command::new("python3")
        .args(["-c", "import pyarrow.parquet"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_pyarrow {
        eprintln!("skipping pyarrow_reads_field_decimals_as_exact_decimals: no python3 with pyarrow (pip install pyarrow)");
        return;
    }
    let file = depth_parquet("meaning-rules-pyarrow");
    let script = r#"
import sys, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1]).to_pylist()[0]
bids = t["bids"]
print(t["lastQty"].normalize(), bids[0]["price"].normalize(), bids[1]["qty"],
      bids[0]["volume"].normalize(), bids[1]["volume"], bids[1]["volume_raw"]["volume"],
      bids[0]["fills"][0]["px"].normalize(), pq.read_schema(sys.argv[1]).field("lastQty").type)
"#;
    let r = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&file)
        .output()
        .expect("python3");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8_lossy(&r.stdout).trim(),
        format!(
            "1.5 65000.12 None -1234567890123456.78901234 None {} 65000.12 decimal128(38, 18)",
            i128::MAX
        )
    );
}

#[test]
fn sbe_encode_reads_the_semantic_json_back_to_the_same_bytes() {
    let bin = encoded();
    let s = schema();
    let (code, out, err) = common::sbe(
        &["decode", "--schema", &s, "--values", "semantic", "-"],
        &bin,
    );
    assert_eq!(code, 0, "{err}");
    let (code, again, err) = common::sbe(&["encode", "--schema", &s, "-"], &out);
    assert_eq!(code, 0, "{err}");
    // The field decimals at their exponents, exactly; only the null
    // decimal `limit` lost what its exponent held (byte 26, after the
    // header, the two exponents, keepAlive and limit's mantissa): a null
    // decimal is null, its exponent written null.
    // So did `bid`'s required exponent (byte 51), written 0.
    let mut want = bin.clone();
    want[26] = 127;
    want[51] = 0;
    assert_eq!(again, want);
    // A price with more digits than its exponent holds is refused.
    let text = String::from_utf8(out).expect("utf-8");
    let bad = text.replacen("\"65000.12\"", "\"65000.123\"", 1);
    let (code, _, err) = common::sbe(&["encode", "--schema", &s, "-"], bad.as_bytes());
    assert_ne!(code, 0);
    assert!(
        err.contains("65000.123") && err.contains("exponent -2"),
        "{err}"
    );
}
