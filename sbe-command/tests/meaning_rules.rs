//! The meaning rules through the real binary, on
//! `sbe-build/tests/fixtures/meanings.xml`: `--values semantic` reads a
//! `{time, unit}` composite the schema calls `Int` as its integers, a null
//! mantissa beside a wire exponent as null, Binance-style decimals through
//! the exponent field their `mbx:exponent` names (in the root block, the
//! mantissas in groups, one a 128-bit mantissa), and a bare int64 type as
//! a timestamp where `--meaning` declares it; the dissector marks the null
//! decimal.

mod common;

use std::path::PathBuf;

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
        r#"{{"message":"Depth","body":{{"priceExponent":-2,"qtyExponent":-8,"keepAlive":{{"time":10000}},"limit":{{"mantissa":null,"exponent":9}},"serverTime":1700000000123456,"lastQty":150000000,"bids":[{{"price":6500012,"qty":250000000,"volume":{},"fills":[{{"px":6500012}}]}},{{"price":6499999,"qty":null,"volume":{},"fills":[]}}]}}}}"#,
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
    // keepAlive is no time item.
    assert!(
        !lua.contains("\"keepAlive\", base.UTC"),
        "keepAlive as a time"
    );
}
