//! `sbe encode` of a JSON object that leaves fields out (issue 42, point
//! 3), fixture `unset.xml`: an optional field left out encodes as its null
//! (a boolEnum's 255, an optional composite member's), as the generated
//! encoders leave a field never set; a required field left out is an error
//! naming it.

mod common;

use std::path::PathBuf;

fn schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../sbe-build/tests/fixtures/unset.xml")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn optional_fields_left_out_encode_as_null() {
    let json = br#"{"message":"ExchangeInfoResponse","body":{"serverTime":1700000000,"symbols":[{"status":"Halt","baseAssetPrecision":8,"limits":{"scale":2},"symbol":"BTCUSDT","baseAsset":"BTC"}]}}"#;
    let (code, bin, err) = common::sbe(&["encode", "--schema", &schema(), "-"], json);
    assert_eq!(code, 0, "{err}");
    // The entry's block: status, precision, then pegInstructionsAllowed at
    // its null 255 (not 0, `False`), maxPrice and limits.low at theirs.
    let entry = &bin[8 + 13 + 4..][..16];
    assert_eq!(
        entry,
        [2, 8, 255, 0, 0, 0, 0, 0, 0, 0, 128, 0, 0, 0, 128, 2]
    );
    let (code, out, err) = common::sbe(&["decode", "--schema", &schema(), "-"], &bin);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let body = &v["body"];
    assert!(body["maxOrders"].is_null(), "{v}");
    assert!(body["allowed"].is_null(), "{v}");
    let s = &body["symbols"][0];
    assert!(s["pegInstructionsAllowed"].is_null(), "{v}");
    assert!(s["maxPrice"].is_null(), "{v}");
    assert!(s["limits"]["low"].is_null(), "{v}");
    assert_eq!(s["limits"]["scale"], 2, "{v}");
}

#[test]
fn a_required_field_left_out_is_an_error_naming_it() {
    let json = br#"{"message":"ExchangeInfoResponse","body":{"symbols":[]}}"#;
    let (code, _, err) = common::sbe(&["encode", "--schema", &schema(), "-"], json);
    assert_ne!(code, 0);
    assert!(err.contains("serverTime"), "{err}");
    assert!(err.contains("missing required field"), "{err}");
}
