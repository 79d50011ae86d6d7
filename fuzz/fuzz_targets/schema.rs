//! The schema front end on any text: parse, resolve, lay out and generate,
//! or a clean error. The seeds are the repo's own schemas; run it with
//! ../shared/corpus/ as a second corpus folder to mutate the real ones
//! (`cargo +nightly fuzz run schema fuzz/corpus/schema ../shared/corpus/sbe/tests`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(schema) = sbe_ir::ir::load_str("fuzz.xml", &text) {
        let _ = sbe_ir::report::layout_json(&schema, "fuzz.xml");
        let _ = sbe_build::generate(&schema, &sbe_build::Config::new());
        let _ = sbe_otf::Codec::new(&schema);
    }
});
