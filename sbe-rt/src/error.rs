//! The error type shared by the runtime and by generated code.
//!
//! An [`Error`] is a compact code in one 64-bit word: what went wrong
//! ([`ErrorKind`]) and the numbers that say where and by how much, each in
//! a field of its own (saturated when it does not fit: see
//! [`ErrorDetails`]). `Result<usize, Error>` and `Result<u64, Error>` are
//! then a pair of scalars, which Rust returns in two registers as it would
//! a hand-written decoder's `Result<usize, usize>`, not through memory; an
//! error of 32 bytes (the former enum) or even of 12 needs a hidden
//! out-pointer and stores to it. The assertions at the end of the module
//! hold the sizes. [`Error::details`] unpacks the numbers into
//! [`ErrorDetails`], an enum to match on.
//!
//! Where the runtime checks a bound on a hot path, the error is built out
//! of line, in a cold function the failing branch calls (module `slow`);
//! the generated code's own checks call the public constructors, which are
//! inline. Either way the success path carries one compare and branch.
//!
//! ```
//! use sbe_rt::{Error, ErrorDetails, ErrorKind};
//!
//! fn header(buf: &[u8]) -> sbe_rt::Result<u16> {
//!     sbe_rt::check_len(buf, 8)?;
//!     Ok(sbe_rt::get_u16_le(buf, 0))
//! }
//!
//! let e = header(&[0; 3]).unwrap_err();
//! assert_eq!(e.error_kind(), ErrorKind::Truncated);
//! assert_eq!(e.kind(), "Truncated");
//! assert_eq!(e.details(), ErrorDetails::Truncated { needed: 8, available: 3 });
//! assert_eq!(e, Error::truncated(8, 3));
//! assert_eq!(e.to_string(), "truncated buffer: 8 bytes needed from its start, only 3 available");
//! ```

use core::fmt;
use core::num::NonZeroU64;

/// What kind of error an [`Error`] is, without its numbers.
///
/// New kinds may be added in later versions, hence `#[non_exhaustive]`.
///
/// ```
/// use sbe_rt::{Error, ErrorKind};
///
/// let e = Error::count_out_of_range(11, 10);
/// assert_eq!(e.error_kind(), ErrorKind::CountOutOfRange);
/// assert_eq!(ErrorKind::CountOutOfRange.name(), "CountOutOfRange");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum ErrorKind {
    /// A read needs more bytes than the buffer holds
    /// ([`ErrorDetails::Truncated`]); an encoder's buffer too small is
    /// [`BufferTooSmall`](Self::BufferTooSmall).
    Truncated = 1,
    /// The message header names a template id that the schema does not
    /// define ([`ErrorDetails::UnknownTemplateId`]).
    UnknownTemplateId,
    /// The message header names another schema
    /// ([`ErrorDetails::WrongSchemaId`]).
    WrongSchemaId,
    /// A block length read from the wire is shorter than the schema's
    /// version needs ([`ErrorDetails::BlockLengthTooShort`]).
    BlockLengthTooShort,
    /// A group count is above its maximum
    /// ([`ErrorDetails::CountOutOfRange`]).
    CountOutOfRange,
    /// A var-data or char-array length is above its maximum
    /// ([`ErrorDetails::LengthOutOfRange`]).
    LengthOutOfRange,
    /// Character data that must be UTF-8 is not
    /// ([`ErrorDetails::InvalidText`]).
    InvalidText,
    /// An encoder was given a value outside the field's range.
    ValueOutOfRange,
    /// An encoder's output buffer cannot hold what it must write
    /// ([`ErrorDetails::BufferTooSmall`]); a decoder's short input is
    /// [`Truncated`](Self::Truncated).
    BufferTooSmall,
    /// A nested group's encoder was dropped before its `end()`, and the
    /// entry holding it was then continued: its count is not written, so
    /// the message cannot be finished ([`ErrorDetails::GroupNotEnded`]).
    GroupNotEnded,
}

impl ErrorKind {
    /// The kind's name, as written in Rust (`"Truncated"`,
    /// `"CountOutOfRange"`, ...). `sbe decode`'s run-time codec names its
    /// errors the same way (`DecodeErrorKind::rt_kind`), so that a test can
    /// tell that the two decoders gave the same verdict.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "Truncated",
            ErrorKind::UnknownTemplateId => "UnknownTemplateId",
            ErrorKind::WrongSchemaId => "WrongSchemaId",
            ErrorKind::BlockLengthTooShort => "BlockLengthTooShort",
            ErrorKind::CountOutOfRange => "CountOutOfRange",
            ErrorKind::LengthOutOfRange => "LengthOutOfRange",
            ErrorKind::InvalidText => "InvalidText",
            ErrorKind::ValueOutOfRange => "ValueOutOfRange",
            ErrorKind::BufferTooSmall => "BufferTooSmall",
            ErrorKind::GroupNotEnded => "GroupNotEnded",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An [`Error`]'s numbers, by kind: what [`Error::details`] returns, to
/// match on.
///
/// The numbers are kept exactly up to [`Error::NUMBER_MAX`] (2²⁴ − 1,
/// 16,777,215) and saturate there when the error is made: a buffer of
/// 5 GiB reads as 16,777,215 bytes. Messages that big are far beyond what
/// SBE is used for, so in practice only a corrupt count, length or id
/// shows the bound, and it still shows what is wrong with it. (The word
/// keeps 12 bits for the schema element an error happened at: see
/// [`Error::at`].) The exceptions: a template id keeps 60 bits and a text
/// offset 48; a count or a length above its maximum keeps 32 bits (any
/// `u32` read from the wire), and its `max` exactly below 2¹⁵ and whenever
/// it is 2ᵏ, 2ᵏ − 1 or 2ᵏ − 2 (a var data's 2³⁰, a type's limits, the
/// largest count below a null value), any other `max` reading as the
/// largest such bound below it. The numbers are widened to `u64`
/// here so that comparing them with a `usize` or a header's member needs
/// no cast that could fail.
///
/// ```
/// use sbe_rt::{Error, ErrorDetails};
///
/// let e = Error::truncated(5 << 30, 16);
/// assert_eq!(
///     e.details(),
///     ErrorDetails::Truncated { needed: Error::NUMBER_MAX, available: 16 }
/// );
/// match Error::length_out_of_range(9, 6).details() {
///     ErrorDetails::LengthOutOfRange { length, max } => assert!(length > max),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorDetails {
    /// A read or a write needs `needed` bytes from the start of the buffer
    /// but only `available` bytes exist.
    Truncated {
        /// Bytes needed, counted from the start of the buffer.
        needed: u64,
        /// Bytes the buffer holds.
        available: u64,
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
        offset: u64,
    },
    /// An encoder was given a value outside the field's `minValue` /
    /// `maxValue` range (or equal to its null value on a required field).
    ValueOutOfRange,
    /// An encoder's output buffer is too small: from where the encoder
    /// writes, what it writes needs `needed` bytes (what the call writes
    /// and the groups and var data after it, written empty: at `wrap`, the
    /// whole message with its groups and var data empty), of which only
    /// `available` are left.
    BufferTooSmall {
        /// Bytes needed from where the encoder writes.
        needed: u64,
        /// Bytes left in the buffer from there.
        available: u64,
    },
    /// A nested group's encoder was dropped before its `end()` wrote the
    /// group's count, and its group's next entry or end was asked for
    /// then: the entry cannot be completed.
    GroupNotEnded,
}

impl ErrorDetails {
    /// The kind of error these are the details of.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            ErrorDetails::Truncated { .. } => ErrorKind::Truncated,
            ErrorDetails::UnknownTemplateId { .. } => ErrorKind::UnknownTemplateId,
            ErrorDetails::WrongSchemaId { .. } => ErrorKind::WrongSchemaId,
            ErrorDetails::BlockLengthTooShort { .. } => ErrorKind::BlockLengthTooShort,
            ErrorDetails::CountOutOfRange { .. } => ErrorKind::CountOutOfRange,
            ErrorDetails::LengthOutOfRange { .. } => ErrorKind::LengthOutOfRange,
            ErrorDetails::InvalidText { .. } => ErrorKind::InvalidText,
            ErrorDetails::ValueOutOfRange => ErrorKind::ValueOutOfRange,
            ErrorDetails::BufferTooSmall { .. } => ErrorKind::BufferTooSmall,
            ErrorDetails::GroupNotEnded => ErrorKind::GroupNotEnded,
        }
    }
}

/// Everything that can go wrong while decoding or encoding an SBE message.
///
/// Decoders return an `Error` instead of panicking on any input; encoders
/// return one when the buffer is too small or a value cannot be written.
/// An `Error` is a compact code of 8 bytes, `Copy`, with no allocation:
/// its [kind](Self::error_kind) and up to three numbers, saturated when
/// they do not fit their fields (see [`ErrorDetails`]), so that
/// `Result<usize, Error>` comes back in two registers. Make one with the
/// constructor of its kind ([`Error::truncated`], ...) or from its
/// [`ErrorDetails`]; read it with [`error_kind`](Self::error_kind),
/// [`kind`](Self::kind) (the kind's name) and [`details`](Self::details).
/// Two errors are equal when their kinds and (saturated) numbers are;
/// `Debug` prints the details.
///
/// ```
/// use sbe_rt::{Error, ErrorDetails, ErrorKind};
///
/// let e = Error::truncated(16, 10);
/// assert_eq!(
///     e.to_string(),
///     "truncated buffer: 16 bytes needed from its start, only 10 available"
/// );
/// assert_eq!(format!("{e:?}"), "Truncated { needed: 16, available: 10 }");
/// assert_eq!(e, Error::from(ErrorDetails::Truncated { needed: 16, available: 10 }));
/// let r: sbe_rt::Result<usize> = Err(e);
/// assert!(matches!(r, Err(e) if e.error_kind() == ErrorKind::Truncated));
/// ```
#[derive(Clone, Copy)]
// `repr(transparent)`: the cold builders below return it as a `u64` in
// one register under the C ABI.
#[repr(transparent)]
pub struct Error(NonZeroU64);

// The word's fields. The kind (1 to 10, never 0: the niche that keeps
// `Option<Error>` and `Result<(), Error>` at 8 bytes) is the low 4 bits;
// then, by kind, two numbers of 24 bits (`A`, `B`), one of 60 (`A`, a
// template id) or 48 (a text offset), a count's or a length's value and
// its coded maximum. The kinds that happen inside
// a message (`ELEMENT_KINDS`) keep the schema element they happened at in
// the top 12 bits (0: none named).
const KIND_BITS: u32 = 4;
const KIND_MASK: u64 = (1 << KIND_BITS) - 1;
const NUMBER_BITS: u32 = 24;
const B_AT: u32 = KIND_BITS + NUMBER_BITS;
const WIDE_BITS: u32 = 60;
const TEXT_BITS: u32 = 48;
const ELEMENT_AT: u32 = 52;
const ELEMENT_BITS: u32 = 12;
/// The kinds (bit `kind`) that may name a schema element: those a
/// message's own bytes or values cause.
const ELEMENT_KINDS: u64 = 1 << ErrorKind::Truncated as u8
    | 1 << ErrorKind::BlockLengthTooShort as u8
    | 1 << ErrorKind::CountOutOfRange as u8
    | 1 << ErrorKind::LengthOutOfRange as u8
    | 1 << ErrorKind::InvalidText as u8
    | 1 << ErrorKind::ValueOutOfRange as u8
    | 1 << ErrorKind::BufferTooSmall as u8
    | 1 << ErrorKind::GroupNotEnded as u8;
/// A count's or a length's value (32 bits, so that any `u32` read from the
/// wire stays above its maximum) and its maximum, coded in 16 bits: below
/// `LIMIT_CODED` as is, else this bit, bit 6 for `2^k`, bit 7 for `2^k - 2`
/// (neither: `2^k - 1`) and `k` in bits 0 to 5, for the largest such bound
/// not above the maximum.
const VALUE_BITS: u32 = 32;
const LIMIT_AT: u32 = KIND_BITS + VALUE_BITS;
const LIMIT_CODED: u64 = 1 << 15;

/// `n`, or the largest number of `bits` bits when it does not fit.
const fn sat(n: u64, bits: u32) -> u64 {
    let max = (1 << bits) - 1;
    if n > max {
        max
    } else {
        n
    }
}

/// The `bits` bits of `code` from bit `at`.
const fn field(code: u64, at: u32, bits: u32) -> u64 {
    (code >> at) & ((1 << bits) - 1)
}

/// `n` as a `u64`: lossless on every target with pointers of at most 64 bits.
const fn wide(n: usize) -> u64 {
    n as u64
}

/// A maximum in 16 bits (see [`LIMIT_CODED`]): exact below 2^15 and for
/// every `2^k`, `2^k - 1` and `2^k - 2` (a var data's 2^30, a type's
/// limits, a count's largest below its null value).
const fn limit_code(max: u64) -> u64 {
    if max < LIMIT_CODED {
        return max;
    }
    let k = 63 - max.leading_zeros(); // 2^k <= max < 2^(k+1)
    if max == u64::MAX {
        LIMIT_CODED // k = 0: 2^0 - 1 is never coded
    } else if k < 63 && max == (1 << (k + 1)) - 1 {
        LIMIT_CODED | (k as u64 + 1)
    } else if k < 63 && max == (1 << (k + 1)) - 2 {
        LIMIT_CODED | 1 << 7 | (k as u64 + 1)
    } else {
        LIMIT_CODED | 1 << 6 | k as u64
    }
}

/// What [`limit_code`] coded.
const fn limit(code: u64) -> u64 {
    if code < LIMIT_CODED {
        return code;
    }
    let k = code & 0x3f;
    if code & 1 << 6 != 0 {
        1 << k
    } else if k >= 64 || k == 0 {
        u64::MAX
    } else if code & 1 << 7 != 0 {
        (1 << k) - 2
    } else {
        (1 << k) - 1
    }
}

impl Error {
    /// The largest number an error keeps exactly in most of its fields
    /// (2²⁴ − 1); above it, a number saturates (see [`ErrorDetails`]).
    pub const NUMBER_MAX: u64 = (1 << NUMBER_BITS) - 1;

    const fn from_code(kind: ErrorKind, fields: u64) -> Error {
        // `kind as u64` is at least 1, so the word is never 0.
        match NonZeroU64::new(kind as u64 | fields << KIND_BITS) {
            Some(code) => Error(code),
            None => Error(NonZeroU64::MIN),
        }
    }

    const fn of(kind: ErrorKind, a: u64, b: u64) -> Error {
        Error::from_code(
            kind,
            sat(a, NUMBER_BITS) | sat(b, NUMBER_BITS) << NUMBER_BITS,
        )
    }

    const fn of_limited(kind: ErrorKind, value: u64, max: u64) -> Error {
        Error::from_code(kind, sat(value, VALUE_BITS) | limit_code(max) << VALUE_BITS)
    }

    const fn of_text(offset: u64) -> Error {
        Error::from_code(ErrorKind::InvalidText, sat(offset, TEXT_BITS))
    }

    const fn of_one(kind: ErrorKind, a: u64) -> Error {
        Error::from_code(kind, sat(a, WIDE_BITS))
    }

    const fn code(&self) -> u64 {
        self.0.get()
    }

    /// [`ErrorKind::Truncated`]: `needed` bytes from the start of the
    /// buffer, of which only `available` exist.
    #[must_use]
    #[inline(always)]
    pub fn truncated(needed: usize, available: usize) -> Error {
        Error::of(ErrorKind::Truncated, wide(needed), wide(available))
    }

    /// [`ErrorKind::BufferTooSmall`]: an encoder needs `needed` bytes from
    /// where it writes, of which only `available` are left.
    #[must_use]
    #[inline(always)]
    pub fn buffer_too_small(needed: usize, available: usize) -> Error {
        Error::of(ErrorKind::BufferTooSmall, wide(needed), wide(available))
    }

    /// [`ErrorKind::UnknownTemplateId`]: the header's `template_id`.
    #[must_use]
    #[inline(always)]
    pub fn unknown_template_id(template_id: u64) -> Error {
        Error::of_one(ErrorKind::UnknownTemplateId, template_id)
    }

    /// [`ErrorKind::WrongSchemaId`]: the schema's id, `expected`, and the
    /// header's, `actual`.
    #[must_use]
    #[inline(always)]
    pub fn wrong_schema_id(expected: u64, actual: u64) -> Error {
        Error::of(ErrorKind::WrongSchemaId, expected, actual)
    }

    /// [`ErrorKind::BlockLengthTooShort`]: the `block_length` read, below
    /// the `required` one.
    #[must_use]
    #[inline(always)]
    pub fn block_length_too_short(block_length: u64, required: u64) -> Error {
        Error::of(ErrorKind::BlockLengthTooShort, block_length, required)
    }

    /// [`ErrorKind::CountOutOfRange`]: the `count` read or asked for, above
    /// `max`.
    #[must_use]
    #[inline(always)]
    pub fn count_out_of_range(count: u64, max: u64) -> Error {
        slow::count_out_of_range(count, max)
    }

    /// [`ErrorKind::LengthOutOfRange`]: the `length` read or asked for,
    /// above `max`.
    #[must_use]
    #[inline(always)]
    pub fn length_out_of_range(length: u64, max: u64) -> Error {
        slow::length_out_of_range(length, max)
    }

    /// [`ErrorKind::InvalidText`]: the first bad byte is at `offset` within
    /// the text.
    #[must_use]
    #[inline(always)]
    pub fn invalid_text(offset: usize) -> Error {
        Error::of_text(wide(offset))
    }

    /// [`ErrorKind::ValueOutOfRange`].
    #[must_use]
    pub const fn value_out_of_range() -> Error {
        Error::from_code(ErrorKind::ValueOutOfRange, 0)
    }

    /// [`ErrorKind::GroupNotEnded`].
    #[must_use]
    pub const fn group_not_ended() -> Error {
        Error::from_code(ErrorKind::GroupNotEnded, 0)
    }

    /// What kind of error this is.
    ///
    /// ```
    /// use sbe_rt::{Error, ErrorKind};
    ///
    /// assert_eq!(Error::value_out_of_range().error_kind(), ErrorKind::ValueOutOfRange);
    /// ```
    #[must_use]
    pub const fn error_kind(&self) -> ErrorKind {
        match self.code() & KIND_MASK {
            1 => ErrorKind::Truncated,
            2 => ErrorKind::UnknownTemplateId,
            3 => ErrorKind::WrongSchemaId,
            4 => ErrorKind::BlockLengthTooShort,
            5 => ErrorKind::CountOutOfRange,
            6 => ErrorKind::LengthOutOfRange,
            7 => ErrorKind::InvalidText,
            8 => ErrorKind::ValueOutOfRange,
            9 => ErrorKind::BufferTooSmall,
            // Only the constructors make codes: 10 is the last kind.
            _ => ErrorKind::GroupNotEnded,
        }
    }

    /// The kind's name: what kind of error this is, without its numbers
    /// ([`ErrorKind::name`]). `sbe decode`'s run-time codec names its
    /// errors the same way (`DecodeErrorKind::rt_kind`), so that a test can
    /// tell that the two decoders gave the same verdict.
    ///
    /// ```
    /// let e = sbe_rt::Error::count_out_of_range(11, 10);
    /// assert_eq!(e.kind(), "CountOutOfRange");
    /// ```
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        self.error_kind().name()
    }

    /// The error's numbers, by kind (saturated when made: see [`ErrorDetails`]).
    ///
    /// ```
    /// use sbe_rt::{Error, ErrorDetails};
    ///
    /// assert_eq!(
    ///     Error::wrong_schema_id(7, 8).details(),
    ///     ErrorDetails::WrongSchemaId { expected: 7, actual: 8 }
    /// );
    /// ```
    #[must_use]
    pub const fn details(&self) -> ErrorDetails {
        let code = self.code();
        let a = field(code, KIND_BITS, NUMBER_BITS);
        let b = field(code, B_AT, NUMBER_BITS);
        match self.error_kind() {
            ErrorKind::Truncated => ErrorDetails::Truncated {
                needed: a,
                available: b,
            },
            ErrorKind::UnknownTemplateId => ErrorDetails::UnknownTemplateId {
                template_id: field(code, KIND_BITS, WIDE_BITS),
            },
            ErrorKind::WrongSchemaId => ErrorDetails::WrongSchemaId {
                expected: a,
                actual: b,
            },
            ErrorKind::BlockLengthTooShort => ErrorDetails::BlockLengthTooShort {
                block_length: a,
                required: b,
            },
            ErrorKind::CountOutOfRange => ErrorDetails::CountOutOfRange {
                count: field(code, KIND_BITS, VALUE_BITS),
                max: limit(field(code, LIMIT_AT, 16)),
            },
            ErrorKind::LengthOutOfRange => ErrorDetails::LengthOutOfRange {
                length: field(code, KIND_BITS, VALUE_BITS),
                max: limit(field(code, LIMIT_AT, 16)),
            },
            ErrorKind::InvalidText => ErrorDetails::InvalidText {
                offset: field(code, KIND_BITS, TEXT_BITS),
            },
            ErrorKind::ValueOutOfRange => ErrorDetails::ValueOutOfRange,
            ErrorKind::BufferTooSmall => ErrorDetails::BufferTooSmall {
                needed: a,
                available: b,
            },
            ErrorKind::GroupNotEnded => ErrorDetails::GroupNotEnded,
        }
    }
}

impl Error {
    /// The most elements an error can name: numbers 1 to 4,095 (a schema
    /// with more leaves the rest unnamed).
    pub const ELEMENT_MAX: u16 = (1 << ELEMENT_BITS) - 1;

    /// Whether this error's kind may name a schema element.
    const fn names_elements(&self) -> bool {
        ELEMENT_KINDS >> (self.code() & KIND_MASK) & 1 != 0
    }

    /// This error, naming schema element number `element` as where it
    /// happened, unless it names one already (the innermost element that
    /// saw an error names it) or its kind happens outside messages (an
    /// unknown template or schema id, a framing error). Generated code
    /// calls it with the numbers of its module's `ELEMENTS` table, which
    /// the module's `explain` reads back; 0 or a number above
    /// [`ELEMENT_MAX`](Self::ELEMENT_MAX) names none.
    ///
    /// ```
    /// use sbe_rt::Error;
    ///
    /// let e = Error::truncated(16, 10).at(3);
    /// assert_eq!(e.element().map(|n| n.get()), Some(3));
    /// assert_eq!(e.at(5).element().map(|n| n.get()), Some(3));
    /// assert_eq!(e, Error::truncated(16, 10)); // where is not what
    /// assert_eq!(Error::unknown_template_id(9).at(3).element(), None);
    /// ```
    #[must_use]
    #[inline]
    pub const fn at(self, element: u16) -> Error {
        if !self.names_elements()
            || field(self.code(), ELEMENT_AT, ELEMENT_BITS) != 0
            || element > Error::ELEMENT_MAX
        {
            return self;
        }
        match NonZeroU64::new(self.code() | (element as u64) << ELEMENT_AT) {
            Some(code) => Error(code),
            None => self,
        }
    }

    /// The number of the schema element this error happened at, if the
    /// generated code named one ([`at`](Self::at)); its module's
    /// `ELEMENTS[n - 1]` is the element's path, and its `explain` displays
    /// the error with it.
    #[must_use]
    pub const fn element(&self) -> Option<core::num::NonZeroU16> {
        if !self.names_elements() {
            return None;
        }
        core::num::NonZeroU16::new(field(self.code(), ELEMENT_AT, ELEMENT_BITS) as u16)
    }

    /// The code without the element: what equality and hashing compare.
    const fn what(&self) -> u64 {
        if self.names_elements() {
            self.code() & !(((1 << ELEMENT_BITS) - 1) << ELEMENT_AT)
        } else {
            self.code()
        }
    }
}

impl PartialEq for Error {
    /// Equal kinds and (saturated) numbers: the element an error names is
    /// where it happened, not what it is.
    fn eq(&self, other: &Error) -> bool {
        self.what() == other.what()
    }
}

impl Eq for Error {}

impl core::hash::Hash for Error {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.what().hash(state);
    }
}

/// An [`Error`] with the path of the schema element it names, for
/// display: what a generated module's `explain` returns.
///
/// ```
/// use sbe_rt::{Error, Explained};
///
/// const ELEMENTS: &[&str] = &["messageHeader", "Car", "Car.fuelFigures"];
/// let e = Error::count_out_of_range(9, 8).at(3);
/// let x = Explained::new(e, ELEMENTS);
/// assert_eq!(x.element(), Some("Car.fuelFigures"));
/// assert_eq!(x.to_string(), "group count 9 out of range (max 8), in `Car.fuelFigures`");
/// assert_eq!(e.to_string(), "group count 9 out of range (max 8), in schema element 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Explained {
    error: Error,
    element: Option<&'static str>,
}

impl Explained {
    /// `error`, with the path of the element it names looked up in
    /// `elements` (element `n` is `elements[n - 1]`).
    #[must_use]
    pub fn new(error: Error, elements: &'static [&'static str]) -> Explained {
        let element = error
            .element()
            .and_then(|n| elements.get(usize::from(n.get()) - 1))
            .copied();
        Explained { error, element }
    }

    /// The error.
    #[must_use]
    pub const fn error(&self) -> Error {
        self.error
    }

    /// The path of the schema element the error happened at
    /// (`Message.group.field`), if it names one.
    #[must_use]
    pub const fn element(&self) -> Option<&'static str> {
        self.element
    }
}

impl fmt::Display for Explained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error.details(), f)?;
        match (self.element, self.error.element()) {
            (Some(path), _) => write!(f, ", in `{path}`"),
            (None, Some(n)) => write!(f, ", in schema element {n}"),
            (None, None) => Ok(()),
        }
    }
}

/// Builders of errors, out of line, for the runtime's own checks (a
/// buffer's bounds, var data, entries) and for the constructors whose
/// numbers take more than a shift to pack (a count's or a length's coded
/// maximum). A check calls one only on its failing
/// branch, so the hot path carries the branch and a call to a cold stub;
/// built inline, the packing and saturating would be computed before the
/// branch or hoisted out of an enclosing loop. They are `extern "C"`
/// because such a call cannot unwind: a call to a Rust-ABI function of
/// another crate might, and would need landing pads that run the callers'
/// `Drop`s (a group encoder's), which kept encoders in memory instead of
/// registers. The public constructors of the simple kinds stay inline:
/// where an error is dropped unbuilt (a group that does not check reads
/// as empty), LLVM removes inline code but not a call it cannot see into.
pub(crate) mod slow {
    use super::{wide, Error, ErrorKind};

    #[cold]
    #[inline(never)]
    pub(crate) extern "C" fn truncated(needed: usize, available: usize) -> Error {
        Error::of(ErrorKind::Truncated, wide(needed), wide(available))
    }

    #[cold]
    #[inline(never)]
    pub(crate) extern "C" fn buffer_too_small(needed: usize, available: usize) -> Error {
        Error::of(ErrorKind::BufferTooSmall, wide(needed), wide(available))
    }

    #[cold]
    #[inline(never)]
    pub(crate) extern "C" fn invalid_text(offset: usize) -> Error {
        Error::of_text(wide(offset))
    }

    #[cold]
    #[inline(never)]
    pub(crate) extern "C" fn count_out_of_range(count: u64, max: u64) -> Error {
        Error::of_limited(ErrorKind::CountOutOfRange, count, max)
    }

    #[cold]
    #[inline(never)]
    pub(crate) extern "C" fn length_out_of_range(length: u64, max: u64) -> Error {
        Error::of_limited(ErrorKind::LengthOutOfRange, length, max)
    }
}

impl From<ErrorDetails> for Error {
    /// The error with these details (their numbers saturated as
    /// [`ErrorDetails`] says).
    fn from(d: ErrorDetails) -> Error {
        let n = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
        match d {
            ErrorDetails::Truncated { needed, available } => {
                Error::of(ErrorKind::Truncated, needed, available)
            }
            ErrorDetails::UnknownTemplateId { template_id } => {
                Error::unknown_template_id(template_id)
            }
            ErrorDetails::WrongSchemaId { expected, actual } => {
                Error::wrong_schema_id(expected, actual)
            }
            ErrorDetails::BlockLengthTooShort {
                block_length,
                required,
            } => Error::block_length_too_short(block_length, required),
            ErrorDetails::CountOutOfRange { count, max } => Error::count_out_of_range(count, max),
            ErrorDetails::LengthOutOfRange { length, max } => {
                Error::length_out_of_range(length, max)
            }
            ErrorDetails::InvalidText { offset } => Error::invalid_text(n(offset)),
            ErrorDetails::ValueOutOfRange => Error::value_out_of_range(),
            ErrorDetails::BufferTooSmall { needed, available } => {
                Error::of(ErrorKind::BufferTooSmall, needed, available)
            }
            ErrorDetails::GroupNotEnded => Error::group_not_ended(),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.details(), f)?;
        match self.element() {
            Some(n) => write!(f, " at element {n}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Error {
    /// The details, and the number of the schema element the error
    /// happened at when the generated code named one (its module's
    /// `explain` names it by its path).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.details(), f)?;
        match self.element() {
            Some(n) => write!(f, ", in schema element {n}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for ErrorDetails {
    /// What [`Error`]'s `Display` says.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorDetails::Truncated { needed, available } => write!(
                f,
                "truncated buffer: {needed} bytes needed from its start, only {available} available"
            ),
            ErrorDetails::UnknownTemplateId { template_id } => {
                write!(f, "unknown template id {template_id} in message header")
            }
            ErrorDetails::WrongSchemaId { expected, actual } => write!(
                f,
                "wrong schema id {actual} in message header, expected {expected}"
            ),
            ErrorDetails::BlockLengthTooShort {
                block_length,
                required,
            } => write!(
                f,
                "block length {block_length} is shorter than the {required} bytes required"
            ),
            ErrorDetails::CountOutOfRange { count, max } => {
                write!(f, "group count {count} out of range (max {max})")
            }
            ErrorDetails::LengthOutOfRange { length, max } => {
                write!(f, "length {length} out of range (max {max})")
            }
            ErrorDetails::InvalidText { offset } => {
                write!(f, "invalid UTF-8 text at byte {offset}")
            }
            ErrorDetails::ValueOutOfRange => f.write_str("value outside the field's allowed range"),
            ErrorDetails::BufferTooSmall { needed, available } => write!(
                f,
                "output buffer too small: {needed} bytes needed from where the encoder writes, only {available} left"
            ),
            ErrorDetails::GroupNotEnded => f.write_str(
                "group not ended: its encoder was dropped before `end()` wrote its count",
            ),
        }
    }
}

impl core::error::Error for Error {}

/// `core::result::Result` with this crate's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

// The point of the compact error: the results of decoders and encoders
// (lengths, offsets, values) come back in two registers, and an `Option`
// or a `Result<()>` costs no more than the error (the kind's niche).
const _: () = assert!(core::mem::size_of::<Error>() == 8);
const _: () = assert!(core::mem::size_of::<Result<usize>>() <= 16);
const _: () = assert!(core::mem::size_of::<Result<u64>>() <= 16);
const _: () = assert!(core::mem::size_of::<Result<u32>>() <= 16);
const _: () = assert!(core::mem::size_of::<Result<()>>() == core::mem::size_of::<Error>());
const _: () = assert!(core::mem::size_of::<Option<Error>>() == core::mem::size_of::<Error>());

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use alloc::{format, string::ToString};

    #[test]
    fn display_names_the_numbers() {
        let cases = [
            (
                Error::truncated(8, 3),
                "truncated buffer: 8 bytes needed from its start, only 3 available",
            ),
            (
                Error::unknown_template_id(99),
                "unknown template id 99 in message header",
            ),
            (
                Error::wrong_schema_id(1, 2),
                "wrong schema id 2 in message header, expected 1",
            ),
            (
                Error::block_length_too_short(4, 45),
                "block length 4 is shorter than the 45 bytes required",
            ),
            (
                Error::count_out_of_range(70000, 65534),
                "group count 70000 out of range (max 65534)",
            ),
            (
                Error::length_out_of_range(9, 6),
                "length 9 out of range (max 6)",
            ),
            (Error::invalid_text(5), "invalid UTF-8 text at byte 5"),
            (
                Error::value_out_of_range(),
                "value outside the field's allowed range",
            ),
            (
                Error::buffer_too_small(40, 23),
                "output buffer too small: 40 bytes needed from where the encoder writes, only 23 left",
            ),
            (
                Error::group_not_ended(),
                "group not ended: its encoder was dropped before `end()` wrote its count",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
            // Every error survives its details, and names its kind.
            assert_eq!(Error::from(e.details()), e);
            assert_eq!(e.details().kind(), e.error_kind());
            assert_eq!(e.kind(), e.error_kind().name());
            assert_eq!(format!("{e:?}"), format!("{:?}", e.details()));
        }
    }

    #[test]
    fn numbers_saturate() {
        let max = Error::NUMBER_MAX;
        assert_eq!(
            Error::truncated(usize::MAX, 1 << 33).details(),
            ErrorDetails::Truncated {
                needed: max,
                available: max
            }
        );
        // A length or count read from the wire stays above its maximum.
        for (length, max) in [(2139029527, 1 << 30), (u64::from(u32::MAX), 65534)] {
            assert_eq!(
                Error::length_out_of_range(length, max).details(),
                ErrorDetails::LengthOutOfRange { length, max }
            );
        }
        for max in [
            (1 << 27) - 1,
            1 << 27,
            u64::from(u32::MAX),
            u64::MAX,
            1 << 63,
        ] {
            assert_eq!(
                Error::count_out_of_range(1 << 40, max).details(),
                ErrorDetails::CountOutOfRange {
                    count: u64::from(u32::MAX),
                    max
                }
            );
        }
        assert_eq!(
            Error::count_out_of_range(1, (1 << 28) + 5),
            Error::count_out_of_range(1, 1 << 28)
        );
        assert_eq!(
            Error::unknown_template_id(u64::MAX),
            Error::unknown_template_id((1 << 60) - 1)
        );
        assert_ne!(
            Error::unknown_template_id(u64::from(u32::MAX) + 1),
            Error::unknown_template_id(u64::from(u32::MAX))
        );
    }

    #[test]
    fn fields_do_not_overlap() {
        let t = Error::truncated(0, usize::MAX);
        assert_eq!(
            t.details(),
            ErrorDetails::Truncated {
                needed: 0,
                available: Error::NUMBER_MAX
            }
        );
        assert_eq!(t.error_kind(), ErrorKind::Truncated);
    }

    #[test]
    fn an_element_leaves_every_number_as_it_was() {
        let max = Error::NUMBER_MAX as usize;
        let errors = [
            Error::truncated(max, max),
            Error::block_length_too_short(Error::NUMBER_MAX, 0),
            Error::count_out_of_range(u64::from(u32::MAX), 65534),
            Error::length_out_of_range(u64::from(u32::MAX), u64::MAX),
            Error::invalid_text(usize::MAX),
            Error::value_out_of_range(),
            Error::buffer_too_small(max, max),
            Error::group_not_ended(),
        ];
        for e in errors {
            for n in [1, 77, Error::ELEMENT_MAX] {
                let named = e.at(n);
                assert_eq!(named.details(), e.details(), "{e:?} at {n}");
                assert_eq!(named.error_kind(), e.error_kind());
                assert_eq!(named.element().map(|x| x.get()), Some(n));
                assert_eq!(format!("{named:?}"), format!("{e:?} at element {n}"));
                assert_eq!(named.to_string(), format!("{e}, in schema element {n}"));
            }
            assert_eq!(e.element(), None);
            assert_eq!(e.at(0).element(), None);
            assert_eq!(e.at(Error::ELEMENT_MAX + 1).element(), None);
        }
        // Kinds outside messages keep every bit for their numbers.
        let id = Error::unknown_template_id((1 << 60) - 1);
        assert_eq!(id.at(5).details(), id.details());
        assert_eq!(id.at(5).element(), None);
    }

    #[test]
    fn a_count_below_a_null_value_is_exact() {
        for max in [65534, 254, (1 << 32) - 2, (1 << 15) - 1, 1 << 15, 1 << 30] {
            assert_eq!(
                Error::count_out_of_range(70000, max).details(),
                ErrorDetails::CountOutOfRange { count: 70000, max },
                "{max}"
            );
        }
        // Any other max from 2^15 reads as the largest such bound below it.
        assert_eq!(
            Error::count_out_of_range(1, 100_000),
            Error::count_out_of_range(1, 65536)
        );
    }

    #[test]
    fn explained_names_the_path() {
        const ELEMENTS: &[&str] = &["messageHeader", "Car", "Car.fuelFigures"];
        let e = Error::truncated(40, 12).at(2);
        let x = Explained::new(e, ELEMENTS);
        assert_eq!(x.error(), e);
        assert_eq!(
            x.to_string(),
            "truncated buffer: 40 bytes needed from its start, only 12 available, in `Car`"
        );
        // A number the table does not have is shown as a number.
        let far = Explained::new(Error::value_out_of_range().at(9), ELEMENTS);
        assert_eq!(far.element(), None);
        assert_eq!(
            far.to_string(),
            "value outside the field's allowed range, in schema element 9"
        );
        let none = Explained::new(Error::unknown_template_id(4), ELEMENTS);
        assert_eq!(none.to_string(), "unknown template id 4 in message header");
    }

    #[test]
    fn is_a_core_error_and_copy() {
        fn takes_error(_: &dyn core::error::Error) {}
        let e = Error::value_out_of_range();
        let copy = e;
        takes_error(&e);
        assert_eq!(e, copy);
        let r: Result<u8> = Err(e);
        assert!(r.is_err());
    }
}
