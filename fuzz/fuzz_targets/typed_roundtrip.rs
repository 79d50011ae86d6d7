//! Every message of every schema compiled in (car and market data; with
//! ../shared the market-data sample, CME MDP3 and CME iLink 3) through its
//! typed generated encoder, with drivers written from the IR
//! (test-support's `drive::gen`): `arbitrary` values for every field,
//! group (arbitrary counts, nested groups) and var data, into a buffer of
//! arbitrary size, then the generated decoder. The same values back
//! through the typed getters, the same bytes in any buffer that holds
//! them, a clean `Err` for a buffer too small or a value the schema
//! cannot hold (`drive::roundtrip`); and the generated `to_json` is the
//! run-time codec's JSON, whose encoding (for JSON-exact values) is the
//! typed encoder's bytes.
//!
//! Input: schema, message (2 bytes), flags (bit 0: JSON-exact values),
//! buffer size (2 bytes, per mille of the message's length), then values.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use sbe_otf::Codec;

thread_local! {
    static BIG: RefCell<Vec<u8>> = RefCell::new(vec![0; 1 << 18]);
}

fuzz_target!(|data: &[u8]| {
    let Some((head, values)) = data.split_first_chunk::<6>() else {
        return;
    };
    let k = usize::from(head[0]) % sbe_fuzz::DRIVERS.len();
    let (drivers, schema) = (&sbe_fuzz::DRIVERS[k], &sbe_fuzz::SCHEMAS[k]);
    let i = usize::from(u16::from_le_bytes([head[1], head[2]])) % drivers.messages.len();
    let canonical = head[3] & 1 == 1;
    let permille = usize::from(u16::from_le_bytes([head[4], head[5]]));
    BIG.with_borrow_mut(|big| {
        let buf_len = |len: Option<usize>| len.unwrap_or(64) * permille / 1000;
        let Some(len) = test_support::drive::roundtrip(drivers, i, values, canonical, buf_len, big)
        else {
            return;
        };
        let bytes = &big[..len];
        let what = format!("{} {}", schema.name, drivers.messages[i]);
        let (json, _) = (schema.decode)(bytes).expect("what was encoded decodes whole");
        assert_eq!((schema.message_length)(bytes), Ok(len), "{what}");
        let codec = Codec::new(sbe_fuzz::ir_of(schema)).expect("codec");
        let (value, decoded) = codec
            .decode_value(bytes, None)
            .unwrap_or_else(|e| panic!("{what}: run-time decode: {e}"));
        assert_eq!(decoded.len, len, "{what}");
        let json: serde_json::Value = serde_json::from_str(&json).expect("generated JSON parses");
        assert_eq!(json, value, "{what}: the decoders' JSON differs");
        if canonical {
            let mut again = Vec::new();
            codec
                .encode_value(&value, &mut again)
                .unwrap_or_else(|e| panic!("{what}: run-time encode: {e}"));
            assert!(
                again == bytes,
                "{what}: the run-time encoder's bytes differ: {value}"
            );
        }
    });
});
