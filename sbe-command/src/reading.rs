//! What the command's readers of files and pipes share: a message the
//! run-time codec could not decode, as `sbe_framing`'s frame reader takes
//! it, and a schema's byte order as a framing's.

use std::fmt;

use sbe_framing::split::MessageError;
use sbe_framing::Endian;
use sbe_ir::ir::ByteOrder;
use sbe_otf::decode::DecodeError;
use sbe_otf::multi::MultiError;

/// A message the run-time codec could not decode: with `raw`, a message
/// cut short waits for more bytes.
#[derive(Debug)]
pub struct Undecoded(pub DecodeError);

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

/// A message of a capture that the schemas could not decode, as the
/// capture reader takes it.
#[derive(Debug)]
pub struct Undecodable(pub MultiError);

impl sbe_capture::Failure for Undecodable {
    fn offset(&self) -> u64 {
        self.0.offset()
    }

    fn what(&self) -> String {
        self.0.what().to_string()
    }

    fn truncated(&self) -> Option<Option<u64>> {
        self.0.is_truncated().then(|| self.0.need())
    }
}

/// Why a message of a capture went nowhere, in the command's sinks.
pub(crate) type Fail = sbe_capture::Fail<Undecodable>;

/// A message the schemas could not decode, as a sink's failure.
pub(crate) fn fail(e: MultiError) -> Fail {
    Fail::Message(Undecodable(e))
}
