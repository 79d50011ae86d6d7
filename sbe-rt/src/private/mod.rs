//! What only generated code calls: not public API, and not covered by
//! semver. Generated code names these items by their full paths
//! (`::sbe_rt::__private::codec::check_block_length`), so that a schema's
//! module compiles whatever its crate imports; code of your own has no
//! use for them (the generated decoders and encoders call them for you).
//!
//! * [`codec`]: the checked rules generated decoders share with
//!   `sbe decode` (counts, lengths, ids), and the carving of an encode
//!   buffer into sections;
//! * [`sections`]: a lazy message decoder's cache of where its groups
//!   and var data start;
//! * `alloc` (feature `alloc`): the `alloc` crate, so that generated code
//!   names `alloc::string::String` without an `extern crate alloc` of
//!   the crate including it.

pub mod codec;
pub mod sections;

#[cfg(feature = "alloc")]
pub extern crate alloc;
