//! `sbe decode`'s run-time codec on any bytes, as JSON and through the
//! length-only walk; both must agree. The first byte picks the schema.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbe_otf::Codec;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let ir = sbe_fuzz::ir_of(sbe_fuzz::pick(selector));
    let Ok(codec) = Codec::new(ir) else { return };
    let mut json = Vec::new();
    let decoded = codec.decode_json(bytes, 0, None, &mut json);
    let length = codec.message_length(bytes, 0);
    match (&decoded, &length) {
        (Ok(d), Ok(l)) => assert_eq!(d.len, l.len),
        (Err(_), Err(_)) => {}
        _ => panic!("decode and message_length disagree"),
    }
    if decoded.is_ok() {
        let text = std::str::from_utf8(&json).expect("JSON is UTF-8");
        let _: serde_json::Value = serde_json::from_str(text).expect("JSON parses");
    }
});
