//! What the command's readers of files and pipes share: a message the
//! run-time codec could not decode, as `sbe_framing`'s frame reader takes
//! it, and a schema's byte order as a framing's.

use std::fmt;

use sbe_cli::otf::decode::DecodeError;
use sbe_framing::split::MessageError;
use sbe_framing::Endian;
use sbe_schema::ir::ByteOrder;

/// A message the run-time codec could not decode: with `raw`, a message
/// cut short waits for more bytes.
#[derive(Debug)]
pub(crate) struct Undecoded(pub DecodeError);

impl MessageError for Undecoded {
    fn truncated(&self) -> Option<Option<u64>> {
        self.0.is_truncated().then_some(self.0.need)
    }
}

impl fmt::Display for Undecoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The framing's byte order of a schema's (SOFH's encoding type).
pub(crate) fn endian(order: ByteOrder) -> Endian {
    match order {
        ByteOrder::Little => Endian::Little,
        ByteOrder::Big => Endian::Big,
    }
}
