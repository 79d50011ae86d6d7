//! Generated code for every corpus schema the reference accepts (read in
//! place from `../shared`) and for the repo's own schemas, compiled under
//! the strictest lints: a plain `include!` must give no warning.
#![deny(warnings, missing_docs, clippy::all)]
#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The decoder for a schema path, if it was compiled.
pub fn decoder(path: &str) -> Option<DecodeFn> {
    SCHEMAS
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|(_, f, _)| *f)
}

/// The `message_length` of a schema path, if it was compiled.
pub fn message_length(path: &str) -> Option<LengthFn> {
    SCHEMAS.iter().find(|(p, ..)| *p == path).map(|(.., f)| *f)
}
