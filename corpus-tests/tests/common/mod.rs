//! corpus-tests' own binding of the `test-support` crate's ../shared lookup
//! (the helpers themselves live there).

use std::path::PathBuf;

/// [`test_support::shared_dir`], except that ../shared must also have been
/// there when the build script generated the corpus modules
/// ([`corpus_tests::SHARED_AVAILABLE`]); otherwise the test skips (or, with
/// `CI=true`, fails) as when ../shared is missing.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    test_support::shared_dir_built(test, corpus_tests::SHARED_AVAILABLE)
}
