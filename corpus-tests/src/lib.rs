//! Generated code for every corpus schema the reference accepts (read in
//! place from `../shared`) and for the repo's own schemas, compiled under
//! the strictest lints: a plain `include!` must give no warning.
#![deny(warnings, missing_docs, clippy::all)]
#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The decoder and the `message_length` of a schema path, if it was
/// compiled.
pub fn schema(path: &str) -> Option<(DecodeFn, LengthFn)> {
    SCHEMAS
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|&(_, decode, length)| (decode, length))
}

/// A schema's owned round trip (`OwnedMessage::decode`, then `encode`), if
/// it was compiled with owned messages.
pub fn owned(path: &str) -> Option<OwnedFn> {
    OWNED
        .iter()
        .find(|(p, _)| *p == path)
        .map(|&(_, round_trip)| round_trip)
}
