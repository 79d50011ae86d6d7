//! corpus-tests' own binding of the `test-support` crate's ../shared lookup
//! (the helpers themselves live there).

use std::path::PathBuf;

/// [`test_support::shared_dir`], except that ../shared must also have been
/// there when the build script generated the corpus modules
/// ([`corpus_tests::SHARED_AVAILABLE`]); otherwise the test skips (or, with
/// `CI=true`, fails) as when ../shared is missing.
#[allow(dead_code)] // Not every test binary that shares this module calls it.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    test_support::shared_dir_built(test, corpus_tests::SHARED_AVAILABLE)
}

/// `sbe decode`'s JSON text for `bytes`, with the schema at `xml` (a path
/// from the repository's root): what the generated `to_json` must equal.
#[allow(dead_code)] // Not every test binary that shares this module calls it.
pub fn run_time_json(xml: &str, bytes: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(xml);
    let schema = sbe_ir::ir::load(&path).unwrap_or_else(|e| panic!("{xml}: {e}"));
    let codec = sbe_otf::Codec::new(&schema).expect("a codec for the schema");
    let mut out = Vec::new();
    let decoded = codec
        .decode_json(bytes, 0, None, &mut out)
        .expect("sbe decode reads the message");
    assert_eq!(decoded.len, bytes.len(), "sbe decode's length");
    String::from_utf8(out).expect("JSON is UTF-8")
}
