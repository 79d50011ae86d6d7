//! The same bytes through the generated `decode(..).to_json()` and the
//! run-time decoder behind `sbe decode`: both `Ok` with equal JSON and
//! length, or both `Err` of the same kind. The first byte picks the schema.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbe_otf::Codec;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let schema = sbe_fuzz::pick(selector);
    let Ok(codec) = Codec::new(sbe_fuzz::ir_of(schema)) else {
        return;
    };
    let generated = (schema.decode)(bytes);
    let runtime = codec.decode_value(bytes, None);
    match (generated, runtime) {
        (Ok((json, _)), Ok((value, decoded))) => {
            let json: serde_json::Value =
                serde_json::from_str(&json).expect("generated JSON parses");
            assert_eq!(json, value, "{}: the decoders' JSON differs", schema.name);
            assert_eq!((schema.message_length)(bytes), Ok(decoded.len));
        }
        (Err(g), Err(r)) => assert_eq!(
            Some(g.kind()),
            r.kind.rt_kind(),
            "{}: generated {g:?}, run-time {r}",
            schema.name
        ),
        (g, r) => panic!(
            "{}: generated {:?}, run-time {:?}",
            schema.name,
            g.map(|_| ()),
            r.map(|_| ())
        ),
    }
});
