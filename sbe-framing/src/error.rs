//! What can go wrong splitting bytes into frames.

use core::fmt;

use crate::Expect;

/// A frame that cannot be read or written: its header cut short, a length
/// out of range, an encoding type the framing does not expect, or what a
/// message's own length function said.
///
/// `Copy` and small: the functions of the `no_std` core return it with no
/// allocation.
///
/// ```
/// use sbe_framing::{Error, FrameFormat};
///
/// // A SOFH whose length (3) is below its own 6 bytes.
/// let e = FrameFormat::SOFH.split(&[0, 0, 0, 3, 0xeb, 0x50]).unwrap_err();
/// assert_eq!(e, Error::FrameLength { length: 3, min: 6, max: u64::from(u32::MAX) });
/// assert_eq!(e.to_string(), "frame length 3 out of range 6..=4294967295");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The bytes end before what is needed: a frame's header, or a
    /// datagram's packet header.
    Truncated {
        /// Bytes needed, counted from the start of the buffer.
        needed: u64,
        /// Bytes there are.
        available: u64,
    },
    /// A frame's declared length (a Simple Open Framing Header's length,
    /// say) is outside `min..=max`.
    FrameLength {
        /// The length declared for the frame (`u64::MAX` when it cannot
        /// even be computed).
        length: u64,
        /// The smallest valid length (the size of a frame's own fields).
        min: u64,
        /// The largest accepted length.
        max: u64,
    },
    /// A framing header's encoding type is not one the framing expects
    /// (e.g. a SOFH whose encoding type is neither SBE little- nor
    /// big-endian): most likely the bytes are not framed that way at all,
    /// and the frame's length means nothing.
    FrameEncoding {
        /// The encoding type read.
        encoding_type: u16,
        /// The values the framing accepts.
        expected: Expect,
    },
    /// The message's own length function (a generated `message_length`,
    /// say) failed on the frame's message.
    Message(sbe_rt::Error),
}

impl Error {
    /// [`Error::Truncated`]: `needed` bytes, `available` there.
    #[must_use]
    pub const fn truncated(needed: usize, available: usize) -> Self {
        Error::Truncated {
            needed: needed as u64,
            available: available as u64,
        }
    }

    /// [`Error::FrameLength`].
    #[must_use]
    pub const fn frame_length(length: u64, min: u64, max: u64) -> Self {
        Error::FrameLength { length, min, max }
    }

    /// [`Error::FrameEncoding`].
    #[must_use]
    pub const fn frame_encoding(encoding_type: u16, expected: Expect) -> Self {
        Error::FrameEncoding {
            encoding_type,
            expected,
        }
    }

    /// Whether more bytes could make it right: the bytes ended early, here
    /// or in the message's length function.
    #[must_use]
    pub fn is_truncated(&self) -> bool {
        match self {
            Error::Truncated { .. } => true,
            Error::Message(e) => e.error_kind() == sbe_rt::ErrorKind::Truncated,
            _ => false,
        }
    }
}

/// A runtime error: bytes that end early (a frame's header read or written
/// through `sbe_rt`'s checked slices, or a message's own length function)
/// are [`Error::Truncated`], anything else an [`Error::Message`].
impl From<sbe_rt::Error> for Error {
    fn from(e: sbe_rt::Error) -> Self {
        match e.details() {
            sbe_rt::ErrorDetails::Truncated { needed, available } => {
                Error::Truncated { needed, available }
            }
            _ => Error::Message(e),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated { needed, available } => write!(
                f,
                "truncated buffer: {needed} bytes needed from its start, only {available} available"
            ),
            Error::FrameLength { length, min, max } => {
                write!(f, "frame length {length} out of range {min}..={max}")
            }
            Error::FrameEncoding {
                encoding_type,
                expected,
            } => write!(
                f,
                "not a SOFH header: encoding type {encoding_type:#06x}, expected {expected}"
            ),
            Error::Message(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Error::Message(e) => Some(e),
            _ => None,
        }
    }
}

/// `core::result::Result` with this crate's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;
