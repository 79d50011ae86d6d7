//! What only generated code calls: not public API, and not covered by
//! semver. Generated code names these items through the private alias
//! its file declares (`use ::sbe_rt::__private as __sbe;`, then
//! `__sbe::codec::check_block_length`), so that a schema's module
//! compiles whatever its crate imports; code of your own has no use for
//! them (the generated decoders and encoders call them for you).
//!
//! * [`codec`]: the checked rules generated decoders share with
//!   `sbe decode` (counts, lengths, ids), and the carving of an encode
//!   buffer into sections;
//! * [`sections`]: a lazy message decoder's cache of where its groups
//!   and var data start;
//! * [`Header`]: what a schema's `read_header` gives the decoders;
//! * `set_api!` and `enum_api!` (at the crate's root, as macros are):
//!   the set algebra every generated set type has, and the conversions
//!   and impls every generated enum has (`debug_impl!`, in `visit`, the
//!   `Debug` of decoders and sets, and `visit_fields!`, their `visit`
//!   calls); `getter!` and `setter!`, a field's or member's accessor
//!   and setter in its usual shapes;
//! * `alloc` (feature `alloc`): the `alloc` crate, so that generated code
//!   names `alloc::string::String` without an `extern crate alloc` of
//!   the crate including it.
//! * [`owned`] (feature `alloc`): the text conversions and the entry
//!   collection of the owned messages.
//! * `serde` and `serde_owned` (feature `serde`): the serde crate, and
//!   FORMAT.md's JSON mapping of the owned messages' values as serde
//!   sees them.

/// The variants generated code builds and matches, through the alias its
/// file declares for this module (`__sbe::Ok`): a prelude name would be
/// any type of the schema's that took it.
pub use ::core::option::Option::{None, Some};
pub use ::core::result::Result::{Err, Ok};

pub mod codec;
#[cfg(feature = "alloc")]
pub mod owned;

/// [`Error::at`](crate::Error::at) out of line, as the generated code's
/// `map_err`s call it: the failing branch is then one more call, not the
/// tests and the packing inline, which made the encoders' bodies longer
/// and moved their hot paths.
#[cold]
#[inline(never)]
pub extern "C" fn at(e: crate::Error, element: u16) -> crate::Error {
    e.at(element)
}
/// `map_err(|e| at(e, element))` as one method of the results generated
/// code checks, which its file brings into scope (`use
/// ::sbe_rt::__private::At as _;`): four tokens where the closure was
/// a dozen, on some five hundred calls of a venue's schema.
pub trait At: Sized {
    /// The error, if any, naming schema element `element` ([`at`]).
    fn at_element(self, element: u16) -> Self;
}

impl<T> At for crate::Result<T> {
    #[inline(always)]
    fn at_element(self, element: u16) -> Self {
        match self {
            Ok(v) => Ok(v),
            Err(e) => Err(at(e, element)),
        }
    }
}

mod decoder;
mod encoder;
mod enums;
mod fields;
pub mod sections;
mod set;

#[cfg(feature = "alloc")]
pub extern crate alloc;

#[cfg(feature = "serde")]
pub extern crate serde;
#[cfg(feature = "serde")]
pub mod serde_owned;

/// A message header as a schema's generated `read_header` returns it, read
/// and its schema id checked: the header's decoder `H`, the bytes after
/// it, and the values the message decoders take from it, as they take
/// them.
#[derive(Clone, Copy, Debug)]
pub struct Header<'a, H> {
    /// The header's generated decoder.
    pub decoder: H,
    /// The bytes after the header: the root block, then the groups and
    /// var data.
    pub body: &'a [u8],
    /// `blockLength`: the root block's bytes on the wire.
    pub block_length: usize,
    /// `templateId`: which message follows.
    pub template_id: u64,
    /// `version`: the acting version (`u32::MAX` for a larger one).
    pub version: u32,
}
