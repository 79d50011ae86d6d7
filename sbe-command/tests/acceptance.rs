//! The real `sbe` binary on what venue schemas ship and the reference
//! accepts (sbe-build/tests/quirks/venue-quirks.xml): a char enum value
//! and a char constant that are a single space, and int8 var data. JSON
//! to bytes and back, byte for byte.

mod common;

/// The schema, as a path the binary is given.
fn quirks() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sbe-build/tests/quirks/venue-quirks.xml"
    )
    .to_string()
}

/// The body of an Order with these values, as `decode` prints it.
fn order(capacity: &str, side: &str, payload: &str) -> String {
    format!(
        "{{\"capacity\":\"{capacity}\",\"blank\":\" \",\"side\":\"{side}\",\"qty\":7,\"payload\":\"{payload}\"}}"
    )
}

/// Encode `body`, check the bytes, decode them again to the same JSON.
fn round_trip(body: &str, expected: &[u8]) {
    let schema = quirks();
    let json = format!("{{\"message\":\"Order\",\"body\":{body}}}\n");
    let (code, bin, err) = common::sbe(&["encode", "--schema", &schema, "-"], json.as_bytes());
    assert_eq!(code, 0, "encode {json}: {err}");
    assert_eq!(bin, expected, "encode {json}");

    let (code, out, err) = common::sbe(&["decode", "--schema", &schema, "-"], &bin);
    assert_eq!(code, 0, "decode: {err}");
    let want = format!(
        "{{\"schema\":\"{schema}\",\"message\":\"Order\",\"header\":{{\"blockLength\":6,\"templateId\":1,\"schemaId\":7,\"version\":0}},\"body\":{body}}}\n"
    );
    assert_eq!(String::from_utf8_lossy(&out), want);

    // And the decoded line encodes to the same bytes.
    let (code, again, err) = common::sbe(&["encode", "--schema", &schema, "-"], &out);
    assert_eq!(code, 0, "encode again: {err}");
    assert_eq!(again, expected);
}

const HEADER: [u8; 8] = [6, 0, 1, 0, 7, 0, 0, 0];

fn message(capacity: u8, side: u8, payload: &[u8]) -> Vec<u8> {
    let mut m = HEADER.to_vec();
    m.extend([capacity, side, 7, 0, 0, 0]);
    m.push(payload.len() as u8);
    m.extend(payload);
    m
}

#[test]
fn the_space_enum_value_and_constant_round_trip_as_0x20() {
    // NotApplicable is the byte 0x20; the constant " " is not on the wire.
    round_trip(&order("NotApplicable", " ", ""), &message(0x20, 0x20, &[]));
    round_trip(&order("Agency", "B", ""), &message(b'A', b'B', &[]));
}

#[test]
fn int8_var_data_round_trips_as_hex() {
    round_trip(
        &order("Principal", "S", "ff0180007f"),
        &message(b'P', b'S', &[0xff, 0x01, 0x80, 0x00, 0x7f]),
    );
}

#[test]
fn the_schema_validates_without_warnings() {
    let schema = quirks();
    let (code, out, err) = common::sbe(&["validate", "--schema", &schema], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out).trim_end(),
        format!("{schema}: ok: 1 messages, 4 types, 0 warnings")
    );
}
