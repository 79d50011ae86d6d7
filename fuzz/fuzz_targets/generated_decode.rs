//! The generated module's `decode` (which checks the whole message), then
//! `to_json` and `Debug` (which read every field, group and var data
//! through the typed API), on any bytes; `message_length` must agree with
//! `decode`. The first byte picks the schema.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let schema = sbe_fuzz::pick(selector);
    let decoded = (schema.decode)(bytes);
    let length = (schema.message_length)(bytes);
    match (&decoded, &length) {
        (Ok(_), Ok(_)) | (Err(_), Err(_)) => {}
        _ => panic!(
            "{}: decode {decoded:?} but message_length {length:?}",
            schema.name
        ),
    }
});
