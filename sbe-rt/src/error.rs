//! The error type shared by the runtime and by generated code.

use core::fmt;

/// Everything that can go wrong while decoding or encoding an SBE message.
///
/// Decoders return an `Error` instead of panicking on any input; encoders
/// return one when the buffer is too small or a value cannot be written.
/// The type is `Copy` and carries only numbers, so it costs nothing to
/// return and needs no allocation. New variants may be added in later
/// versions, hence `#[non_exhaustive]`.
///
/// ```
/// use sbe_rt::Error;
///
/// let e = Error::Truncated { needed: 16, available: 10 };
/// assert_eq!(
///     e.to_string(),
///     "truncated buffer: 16 bytes needed from its start, only 10 available"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
// The discriminant is a full word on purpose. Left to rustc, an enum's tag
// widens to the smallest alignment among its variants' first fields, so
// `FrameEncoding` (u16 fields) shrank it from 8 bytes to 2: the tag then
// shares a word with the payload (`Result<[u32; 4], Error>`'s first u32 sits
// at offset 4), LLVM merges the two into one integer and no longer threads
// the `?` branches of generated code through it, which cost the encoders
// and the ring reads instructions (bisected; see sbe-bench/HISTORY.md);
// `repr(u64)` restores them. Sizes are unchanged (`Error`,
// `Option<Error>` and the `Result`s of generated code: the tag's niche
// stays).
#[repr(u64)]
pub enum Error {
    /// A read or a write needs `needed` bytes from the start of the buffer
    /// but only `available` bytes exist.
    Truncated {
        /// Bytes needed, counted from the start of the buffer.
        needed: usize,
        /// Bytes the buffer holds.
        available: usize,
    },
    /// The message header names a template id that the schema does not
    /// define.
    UnknownTemplateId {
        /// The template id read from the message header.
        template_id: u64,
    },
    /// The message header names another schema.
    WrongSchemaId {
        /// The schema's id.
        expected: u64,
        /// The schema id read from the message header.
        actual: u64,
    },
    /// A block length (of the root block or of a group entry) read from the
    /// wire is shorter than the fields of the schema's version need.
    BlockLengthTooShort {
        /// The block length read from the wire.
        block_length: u64,
        /// The smallest block length the schema allows there.
        required: u64,
    },
    /// A group's `numInGroup` is above its maximum, or an encoder was asked
    /// to write more entries than the dimension type can count.
    CountOutOfRange {
        /// The count read or asked for.
        count: u64,
        /// The largest count allowed.
        max: u64,
    },
    /// A var-data length, or the length of a value written into a
    /// fixed-size char array, is above its maximum.
    LengthOutOfRange {
        /// The length read or asked for.
        length: u64,
        /// The largest length allowed.
        max: u64,
    },
    /// Character data that must be UTF-8 is not; `offset` is the position
    /// of the first bad byte within the data.
    InvalidText {
        /// Offset of the first invalid byte, from the start of the text.
        offset: usize,
    },
    /// An encoder's sections (root block, groups, var data) were written out
    /// of schema order.
    WrongOrder,
    /// An encoder was given a value outside the field's `minValue` /
    /// `maxValue` range (or equal to its null value on a required field).
    ValueOutOfRange,
    /// A frame's declared length (Simple Open Framing Header length, or the
    /// length a raw framing function reported) is outside `min..=max`.
    FrameLength {
        /// The length declared for the frame.
        length: u64,
        /// The smallest valid length.
        min: u64,
        /// The largest accepted length.
        max: u64,
    },
    /// A framing header's encoding type is not one the framing expects
    /// (e.g. a SOFH whose encoding type is neither SBE little- nor
    /// big-endian): most likely the bytes are not framed that way at all,
    /// and the frame's length means nothing.
    ///
    /// ```
    /// use sbe_rt::{framing::Expect, Error};
    ///
    /// let e = Error::FrameEncoding { encoding_type: 0xCAFE, expected: Expect::Value(0xEB50) };
    /// assert_eq!(e.to_string(), "not a SOFH header: encoding type 0xcafe, expected 0xeb50");
    /// ```
    FrameEncoding {
        /// The encoding type read.
        encoding_type: u16,
        /// The values the framing accepts.
        expected: crate::framing::Expect,
    },
}

impl Error {
    /// The variant's name: what kind of error this is, without its
    /// numbers. `sbe decode`'s run-time codec names its errors the same way
    /// (`DecodeErrorKind::rt_kind`), so that a test can tell that the two
    /// decoders gave the same verdict.
    ///
    /// ```
    /// let e = sbe_rt::Error::CountOutOfRange { count: 11, max: 10 };
    /// assert_eq!(e.kind(), "CountOutOfRange");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Truncated { .. } => "Truncated",
            Error::UnknownTemplateId { .. } => "UnknownTemplateId",
            Error::WrongSchemaId { .. } => "WrongSchemaId",
            Error::BlockLengthTooShort { .. } => "BlockLengthTooShort",
            Error::CountOutOfRange { .. } => "CountOutOfRange",
            Error::LengthOutOfRange { .. } => "LengthOutOfRange",
            Error::InvalidText { .. } => "InvalidText",
            Error::WrongOrder => "WrongOrder",
            Error::ValueOutOfRange => "ValueOutOfRange",
            Error::FrameLength { .. } => "FrameLength",
            Error::FrameEncoding { .. } => "FrameEncoding",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::Truncated { needed, available } => write!(
                f,
                "truncated buffer: {needed} bytes needed from its start, only {available} available"
            ),
            Error::UnknownTemplateId { template_id } => {
                write!(f, "unknown template id {template_id} in message header")
            }
            Error::WrongSchemaId { expected, actual } => write!(
                f,
                "wrong schema id {actual} in message header, expected {expected}"
            ),
            Error::BlockLengthTooShort {
                block_length,
                required,
            } => write!(
                f,
                "block length {block_length} is shorter than the {required} bytes required"
            ),
            Error::CountOutOfRange { count, max } => {
                write!(f, "group count {count} out of range (max {max})")
            }
            Error::LengthOutOfRange { length, max } => {
                write!(f, "length {length} out of range (max {max})")
            }
            Error::InvalidText { offset } => {
                write!(f, "invalid UTF-8 text at byte {offset}")
            }
            Error::WrongOrder => f.write_str("encoder sections written out of schema order"),
            Error::ValueOutOfRange => f.write_str("value outside the field's allowed range"),
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
        }
    }
}

impl core::error::Error for Error {}

/// `core::result::Result` with this crate's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn display_names_the_numbers() {
        let cases = [
            (
                Error::Truncated {
                    needed: 8,
                    available: 3,
                },
                "truncated buffer: 8 bytes needed from its start, only 3 available",
            ),
            (
                Error::UnknownTemplateId { template_id: 99 },
                "unknown template id 99 in message header",
            ),
            (
                Error::WrongSchemaId {
                    expected: 1,
                    actual: 2,
                },
                "wrong schema id 2 in message header, expected 1",
            ),
            (
                Error::BlockLengthTooShort {
                    block_length: 4,
                    required: 45,
                },
                "block length 4 is shorter than the 45 bytes required",
            ),
            (
                Error::CountOutOfRange {
                    count: 70000,
                    max: 65534,
                },
                "group count 70000 out of range (max 65534)",
            ),
            (
                Error::LengthOutOfRange { length: 9, max: 6 },
                "length 9 out of range (max 6)",
            ),
            (
                Error::InvalidText { offset: 5 },
                "invalid UTF-8 text at byte 5",
            ),
            (
                Error::WrongOrder,
                "encoder sections written out of schema order",
            ),
            (
                Error::ValueOutOfRange,
                "value outside the field's allowed range",
            ),
            (
                Error::FrameLength {
                    length: 3,
                    min: 6,
                    max: 4294967295,
                },
                "frame length 3 out of range 6..=4294967295",
            ),
            (
                Error::FrameEncoding {
                    encoding_type: 0x0100,
                    expected: crate::framing::Expect::Either(0xEB50, 0x5BE0),
                },
                "not a SOFH header: encoding type 0x0100, expected 0xeb50 or 0x5be0",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }

    #[test]
    fn is_a_core_error_and_copy() {
        fn takes_error(_: &dyn core::error::Error) {}
        let e = Error::WrongOrder;
        let copy = e;
        takes_error(&e);
        assert_eq!(e, copy);
        let r: Result<u8> = Err(e);
        assert!(r.is_err());
    }
}
