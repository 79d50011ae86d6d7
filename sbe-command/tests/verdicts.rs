//! The real `sbe decode` gives the generated decoders' verdicts (the
//! corpus-tests `one_verdict` test compares the two on every case): a
//! wrong schema id, a count or a var-data length above its maximum, and an
//! empty group whose block length is short. Schema: the repo's fixture
//! `verdicts.xml`.

mod common;

use serde_json::Value;

fn schema() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sbe-build/tests/fixtures/verdicts.xml"
    )
    .to_string()
}

/// An `Order` encoded by `sbe encode`.
fn order() -> Vec<u8> {
    let json = r#"{"message":"Order","body":{"id":42,"side":"Sell","qty":9,
        "legs":[{"px":-5}],"fills":[{"n":3,"note":"ok"}],"text":"hello"}}"#;
    let (code, out, err) = common::sbe(&["encode", "--schema", &schema(), "-"], json.as_bytes());
    assert_eq!(code, 0, "{err}");
    out
}

fn decode(args: &[&str], bytes: &[u8]) -> (i32, Vec<u8>, String) {
    let schema = schema();
    let mut all = vec!["decode", "--schema", schema.as_str()];
    all.extend_from_slice(args);
    all.push("-");
    common::sbe(&all, bytes)
}

#[test]
fn a_wrong_schema_id_is_refused_unless_the_check_is_off() {
    let mut bytes = order();
    bytes[4] = 12; // schemaId, 11 in the schema
    let (code, out, err) = decode(&[], &bytes);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("at byte 4: wrong schema id 12 (expected 11)"),
        "{err}"
    );
    let (code, out, err) = decode(&["--schema-id-check", "off"], &bytes);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).expect("one JSON line");
    assert_eq!(v["header"]["schemaId"], 12);
    assert_eq!(v["body"]["text"], "hello");
}

#[test]
fn counts_and_lengths_above_their_maximum_are_refused() {
    let good = order();
    // legs' numInGroup (maxValue 10) at 17; text's uint8 length (maxValue
    // 20) is the byte before the last five.
    let mut count = good.clone();
    count[17] = 11;
    let (code, _, err) = decode(&[], &count);
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 15: group of Order.legs: count 11 is above its maximum 10"),
        "{err}"
    );
    let mut length = good.clone();
    let at = length.len() - 6;
    length[at] = 21;
    let (code, _, err) = decode(&[], &length);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "at byte {at}: var data of Order.text: length 21 is above its maximum 20"
        )),
        "{err}"
    );
}

#[test]
fn an_empty_group_with_a_short_block_length_is_read() {
    let json = r#"{"message":"Order","body":{"id":1,"side":null,"qty":2,
        "legs":[],"fills":[],"text":""}}"#;
    let (code, mut bytes, err) =
        common::sbe(&["encode", "--schema", &schema(), "-"], json.as_bytes());
    assert_eq!(code, 0, "{err}");
    bytes[15] = 1; // legs' blockLength, 4 in the schema, with no entries
    let (code, out, err) = decode(&[], &bytes);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).expect("one JSON line");
    assert_eq!(v["body"]["legs"], Value::Array(vec![]));
    // With an entry it is refused: its fields would lie outside its block.
    let (_, mut one, _) = common::sbe(
        &["encode", "--schema", &schema(), "-"],
        json.replace("\"legs\":[]", "\"legs\":[{\"px\":1}]")
            .as_bytes(),
    );
    one[15] = 1;
    let (code, _, err) = decode(&[], &one);
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 15: group of Order.legs: block length 1 is shorter than the 4 bytes its fields need"),
        "{err}"
    );
}
