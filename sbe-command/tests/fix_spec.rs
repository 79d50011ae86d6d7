//! The FIX SBE 1.0 specification's examples (SOFH-framed) decode to the
//! values in the tables of examples-consistent.md.

mod common;

use serde_json::Value;
use test_support::shared_dir;

fn decode(shared: &std::path::Path, n: u32) -> Value {
    let schema = shared.join("corpus/fix/spec-1.0/Examples.xml");
    let file = shared.join(format!("corpus/fix/spec-1.0/vectors/example-{n}.sofh.bin"));
    let (code, out, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &schema.to_string_lossy(),
            "--framing",
            "sofh",
            &file.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(code, 0, "example {n}: {err}");
    let text = String::from_utf8_lossy(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "example {n}: {text}");
    serde_json::from_str(lines[0]).expect("JSON")
}

/// A decimal composite's value as text, e.g. 99610e-3 → "99.610".
fn decimal(v: &Value) -> String {
    let m = v["mantissa"].as_i64().expect("mantissa");
    let e = v["exponent"].as_i64().expect("exponent");
    if e >= 0 {
        return (m * 10i64.pow(e as u32)).to_string();
    }
    let s = format!("{:0>width$}", m.abs(), width = (-e) as usize + 1);
    let (int, frac) = s.split_at(s.len() - (-e) as usize);
    format!("{}{int}.{frac}", if m < 0 { "-" } else { "" })
}

#[test]
fn example_1_new_order_single() {
    let Some(shared) = shared_dir("example_1_new_order_single") else {
        return;
    };
    let v = decode(&shared, 1);
    assert_eq!(v["message"], "NewOrderSingle");
    let h = &v["header"];
    assert_eq!(
        (h["blockLength"].as_u64(), h["templateId"].as_u64()),
        (Some(54), Some(99))
    );
    assert_eq!(
        (h["schemaId"].as_u64(), h["version"].as_u64()),
        (Some(91), Some(0))
    );
    let b = &v["body"];
    assert_eq!(b["ClOrdId"], "ORD00001");
    assert_eq!(b["Account"], "ACCT01");
    assert_eq!(b["Symbol"], "GEM4");
    assert_eq!(b["Side"], "Buy");
    // 2018-04-30T14:32:01.248Z in nanoseconds since the epoch.
    assert_eq!(b["TransactTime"].as_u64(), Some(1_525_098_721_248_000_000));
    assert_eq!(decimal(&b["OrderQty"]), "7");
    assert_eq!(b["OrdType"], "Limit");
    assert_eq!(decimal(&b["Price"]), "99.610");
    assert_eq!(b["StopPx"]["mantissa"], Value::Null, "StopPx is null");
}

#[test]
fn example_2_execution_report() {
    let Some(shared) = shared_dir("example_2_execution_report") else {
        return;
    };
    let v = decode(&shared, 2);
    assert_eq!(v["message"], "ExecutionReport");
    assert_eq!(v["header"]["blockLength"].as_u64(), Some(42));
    assert_eq!(v["header"]["templateId"].as_u64(), Some(98));
    let b = &v["body"];
    assert_eq!(b["OrderID"], "O0000001");
    assert_eq!(b["ExecID"], "EXEC0000");
    assert_eq!(b["OrdStatus"], "PartialFilled");
    assert_eq!(b["Symbol"], "GEM4");
    assert_eq!(b["MaturityMonthYear"]["year"].as_u64(), Some(2014));
    assert_eq!(b["MaturityMonthYear"]["month"].as_u64(), Some(6));
    assert_eq!(b["Side"], "Buy");
    assert_eq!(decimal(&b["LeavesQty"]), "1");
    assert_eq!(decimal(&b["CumQty"]), "6");
    // 2013-10-11 as days since the epoch.
    assert_eq!(b["TradeDate"].as_u64(), Some(15989));
    let fills = b["FillsGrp"].as_array().expect("FillsGrp");
    assert_eq!(fills.len(), 2);
    assert_eq!(decimal(&fills[0]["FillPx"]), "99.610");
    assert_eq!(decimal(&fills[0]["FillQty"]), "2");
    assert_eq!(decimal(&fills[1]["FillPx"]), "99.620");
    assert_eq!(decimal(&fills[1]["FillQty"]), "4");
}

#[test]
fn example_3_business_message_reject() {
    let Some(shared) = shared_dir("example_3_business_message_reject") else {
        return;
    };
    let v = decode(&shared, 3);
    assert_eq!(v["message"], "BusinessMessageReject");
    assert_eq!(v["header"]["blockLength"].as_u64(), Some(9));
    assert_eq!(v["header"]["templateId"].as_u64(), Some(97));
    let b = &v["body"];
    assert_eq!(b["BusinesRejectRefId"], "ORD00001");
    assert_eq!(b["BusinessRejectReason"], "NotAuthorized");
    // DATA's varData has no characterEncoding: FORMAT.md shows it as hex.
    let hex: String = "Not authorized to trade that instrument"
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(b["Text"], Value::String(hex));
}

#[test]
fn all_examples_in_one_stream() {
    let Some(shared) = shared_dir("all_examples_in_one_stream") else {
        return;
    };
    let schema = shared.join("corpus/fix/spec-1.0/Examples.xml");
    let mut bytes = Vec::new();
    for n in 1..=3 {
        bytes.extend(
            std::fs::read(shared.join(format!("corpus/fix/spec-1.0/vectors/example-{n}.sofh.bin")))
                .expect("example"),
        );
    }
    assert_eq!(&bytes[..6], &[0, 0, 0, 0x44, 0xeb, 0x50]);
    let (code, out, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &schema.to_string_lossy(),
            "--framing",
            "sofh",
            "-",
        ],
        &bytes,
    );
    assert_eq!(code, 0, "{err}");
    let names: Vec<String> = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON")["message"].to_string())
        .collect();
    assert_eq!(
        names,
        [
            "\"NewOrderSingle\"",
            "\"ExecutionReport\"",
            "\"BusinessMessageReject\""
        ]
    );
    // And back: encoding the decoded JSON with SOFH gives the same stream.
    let (code, again, err) = common::sbe(
        &[
            "encode",
            "--schema",
            &schema.to_string_lossy(),
            "--framing",
            "sofh",
            "-",
        ],
        &out,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, bytes);
}
