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
use arrow_array::types::{Decimal128Type, Float64Type, Int64Type, Int8Type, UInt64Type};
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

#[test]
fn parquet_holds_the_same_integers_nulls_and_exact_decimals() {
    let dir = common::scratch("meaning-rules-parquet");
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
    let batches = read(&files[0]);
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
    // A root field decimal at the root's exponent.
    let last = b.column_by_name("lastQty").expect("lastQty");
    assert_eq!(last.as_primitive::<Float64Type>().value(0), 1.5);
    let exact = b.column_by_name("lastQty_exact").expect("exact");
    let exact = exact.as_struct();
    // The pair's parts are named as the schema's two fields.
    assert_eq!(exact.column_names(), ["lastQty", "qtyExponent"]);
    assert_eq!(
        exact.column(0).as_primitive::<Int64Type>().value(0),
        150_000_000
    );
    assert_eq!(exact.column(1).as_primitive::<Int8Type>().value(0), -8);
    // Group entries at the message's exponents, one a 128-bit mantissa
    // (Decimal128(38, 0)), a nested group's too.
    let bids = b.column_by_name("bids").expect("bids");
    let bids = bids.as_list::<i32>().value(0);
    let bids = bids.as_struct();
    let price = bids.column_by_name("price").expect("price");
    assert_eq!(price.as_primitive::<Float64Type>().value(0), 65000.12);
    let qty = bids.column_by_name("qty").expect("qty");
    assert!(qty.is_null(1), "a null mantissa");
    let qty_exact = bids.column_by_name("qty_exact").expect("qty_exact");
    assert!(qty_exact.is_null(1));
    let pair = qty_exact.as_struct();
    assert_eq!(
        pair.column(0).as_primitive::<Int64Type>().value(0),
        250_000_000
    );
    assert_eq!(pair.column(1).as_primitive::<Int8Type>().value(0), -8);
    let volume = bids.column_by_name("volume_exact").expect("volume_exact");
    let volume = volume.as_struct();
    let mantissas = volume.column(0).as_primitive::<Decimal128Type>();
    assert_eq!(format!("{:?}", mantissas.data_type()), "Decimal128(38, 0)");
    assert_eq!(mantissas.value(0), -123_456_789_012_345_678_901_234);
    assert_eq!(mantissas.value(1), i128::MAX);
    assert_eq!(volume.column(1).as_primitive::<Int8Type>().value(1), -8);
    let fills = bids.column_by_name("fills").expect("fills");
    let fills = fills.as_list::<i32>().value(0);
    let px = fills
        .as_struct()
        .column_by_name("px_exact")
        .expect("px_exact");
    let px = px.as_struct();
    assert_eq!(px.column(0).as_primitive::<Int64Type>().value(0), 6_500_012);
    assert_eq!(px.column(1).as_primitive::<Int8Type>().value(0), -2);
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
