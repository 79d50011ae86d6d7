//! Venue framings: how SBE messages are delimited on the wire.
//!
//! Every framing in use is made of the same few parts, which
//! [`FrameFormat`] composes:
//!
//! * a **prefix** of some bytes before each SBE message (0 when the length
//!   is inside the message's own header);
//! * a **length field** in the frame: where it is, u16 or u32, little- or
//!   big-endian ([`LengthField`]), and what it counts: the whole frame, the
//!   prefix included, or only what follows the prefix ([`Counts`]);
//! * optionally a u16 **encoding type**, checked against the values
//!   expected ([`EncodingField`], [`Expect`]);
//! * an **alignment**: frames padded to a multiple of 8 bytes, say.
//!
//! Datagram framings add a fixed-size packet header before the frames of
//! each datagram: [`PacketFormat`].
//!
//! | preset | wire |
//! |---|---|
//! | [`FrameFormat::SOFH`] | FIX Simple Open Framing Header: u32 BE length counting the whole frame, u16 BE encoding type `0xEB50` / `0x5BE0` (6 bytes) |
//! | [`FrameFormat::SOFH_LE`] | CME iLink 3 and B3 EntryPoint: u16 LE length counting the whole frame, u16 LE encoding type `0xCAFE` / `0xEB50` (4 bytes) |
//! | [`FrameFormat::MDP3_MESSAGE`] | CME MDP3 message: u16 LE `MsgSize` counting the whole frame (2 bytes) |
//! | [`PacketFormat::MDP3`] | CME MDP3 datagram: a 12-byte header ([`Mdp3PacketHeader`]), then `MDP3_MESSAGE` frames |
//!
//! [`Framing`] names a framing as a whole, as `sbe --framing` spells it: a
//! preset (`raw`, `sofh`, `sofh-le`, `mdp3`) or a custom form composed of
//! these parts (`len=u16le,enc=u16le=0xcafe/0xeb50`). It parses and prints
//! without allocation, and is what the `Framer`, the tokio codec and the
//! `sbe` command take; a packet framing where a stream is framed is a
//! [`FramingError`].
//!
//! Everything here works on `&[u8]`, needs no allocation and no feature,
//! and never panics or reads outside the slice: a length that cannot be
//! right (shorter than the frame's own fields, zero, longer than what is
//! left of a datagram, too long for the field) and an encoding type that is
//! not expected are an [`Error`]. The stream `Framer` (feature `bytes`) and
//! the tokio codec (feature `tokio`) build on these functions, and the
//! `split` module's `StreamSplitter` (feature `std`) on the `Framer`: one
//! buffer and one rule of a whole frame, whether frames come out as
//! shared `Bytes` or as pieces with their input offsets.
//!
//! A frame may be longer than the message in it (padding, or a venue that
//! sizes frames generously): the message handed out is the whole frame
//! after the prefix, and [`trim`] cuts it to the message's own length when
//! a length function (a generated `message_length`, say) is given.
//!
//! # Example
//!
//! An MDP3 datagram with two messages:
//!
//! ```
//! use sbe_framing::{FrameFormat, Mdp3PacketHeader, PacketFormat};
//!
//! let header = Mdp3PacketHeader { msg_seq_num: 7, sending_time: 1_700_000_000_000_000_000 };
//! let mut datagram = header.to_bytes().to_vec();
//! for message in [&b"first"[..], &b"second!"[..]] {
//!     let start = datagram.len();
//!     datagram.resize(start + 2, 0); // room for MsgSize
//!     datagram.extend_from_slice(message);
//!     FrameFormat::MDP3_MESSAGE.write_header(&mut datagram[start..], message.len(), 0)?;
//! }
//! assert_eq!(datagram[12..14], [7, 0]); // MsgSize 7 counts itself
//!
//! let packet = PacketFormat::MDP3.packet(&datagram)?;
//! assert_eq!(packet.mdp3_header()?.msg_seq_num, 7);
//! let messages: Vec<(usize, &[u8])> = packet
//!     .messages()
//!     .map(|m| m.map(|m| (m.offset, m.message)))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(messages, [(14, &b"first"[..]), (21, &b"second!"[..])]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | `std` (default; implies `alloc` and `bytes`) | [`split`]: files and pipes read message by message (`FrameReader`), TCP streams pushed as they come (`StreamSplitter`), UDP datagrams with their packet header's fields (`Datagram`), each message with its input offset, and errors that say where |
//! | `alloc` | [`Mdp3PacketHeader::write_to`] a `Vec` |
//! | `bytes` | `Framer`: a `BytesMut` stream split into `Bytes` frames without copying; the `bytes` crate re-exported as `sbe_framing::bytes` |
//! | `tokio` (implies `std`, `bytes`) | `FrameCodec`: a tokio-util `Decoder`/`Encoder` of any stream framing; `tokio_util` re-exported |
//!
//! Without default features the crate is `no_std` with no allocation: the
//! formats, [`Framing`] and their checks, all over `&[u8]`.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// Input never reaches a panic: no indexing, unwrap or expect outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

use core::fmt;

use sbe_rt::wire::Uint;
use sbe_rt::wire::{
    get_u16_be, get_u16_le, get_u32_le, get_u64_le, put_u16_be, put_u16_le, put_u32_be, put_u32_le,
};

mod error;
pub mod guess;
mod spec;
pub use error::{Error, Result};
pub use spec::{
    sofh_encoding, CustomItem, Framing, FramingError, UnknownFraming, UnknownFramingKind,
    CUSTOM_SYNTAX,
};

#[cfg(feature = "std")]
pub mod split;

#[cfg(feature = "bytes")]
pub mod framer;
#[cfg(feature = "bytes")]
pub use ::bytes;
#[cfg(feature = "bytes")]
pub use framer::{Frame, Framer};

#[cfg(feature = "tokio")]
pub mod codec;
#[cfg(feature = "tokio")]
pub use ::tokio_util;
#[cfg(feature = "tokio")]
pub use codec::{CodecError, FrameCodec};

/// Length of a Simple Open Framing Header: 6 bytes (a u32 length, a u16
/// encoding type; see [`FrameFormat::SOFH`]).
pub const SOFH_LEN: usize = 6;

/// SOFH encoding type of SBE 1.0 little-endian messages: `0xEB50`.
pub const SOFH_SBE_LE: u16 = 0xEB50;

/// SOFH encoding type of SBE 1.0 big-endian messages: `0x5BE0`.
pub const SOFH_SBE_BE: u16 = 0x5BE0;

/// Encoding type of CME iLink 3 frames: `0xCAFE` (B3 EntryPoint uses the
/// SBE 1.0 little-endian value, [`SOFH_SBE_LE`]).
pub const ILINK3_ENCODING: u16 = 0xCAFE;

/// Byte order of a framing field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte first.
    Little,
    /// Most significant byte first (network order).
    Big,
}

/// Width of a length field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// Two bytes.
    U16,
    /// Four bytes.
    U32,
}

impl Width {
    /// Bytes the field takes: 2 or 4.
    ///
    /// ```
    /// assert_eq!(sbe_framing::Width::U32.bytes(), 4);
    /// ```
    #[must_use]
    pub const fn bytes(self) -> usize {
        match self {
            Width::U16 => 2,
            Width::U32 => 4,
        }
    }

    /// The largest value the field holds.
    ///
    /// ```
    /// assert_eq!(sbe_framing::Width::U16.max(), 65535);
    /// ```
    #[must_use]
    pub const fn max(self) -> u64 {
        match self {
            Width::U16 => u16::MAX as u64,
            Width::U32 => u32::MAX as u64,
        }
    }
}

/// Where a frame's length field is, counted from the start of the frame,
/// and how it is encoded.
///
/// ```
/// use sbe_framing::LengthField;
///
/// let field = LengthField::u16_be(2);
/// assert_eq!(field.read(&[9, 9, 0x01, 0x02]), Some(0x0102));
/// assert_eq!(field.read(&[9, 9, 0x01]), None); // not all there
/// assert_eq!(field.end(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LengthField {
    /// Offset of the field from the start of the frame.
    pub offset: usize,
    /// u16 or u32.
    pub width: Width,
    /// Byte order.
    pub order: Endian,
}

impl LengthField {
    /// A field of `width` bytes in byte order `order` at `offset`.
    #[must_use]
    pub const fn new(offset: usize, width: Width, order: Endian) -> Self {
        LengthField {
            offset,
            width,
            order,
        }
    }

    /// A little-endian u16 at `offset`.
    #[must_use]
    pub const fn u16_le(offset: usize) -> Self {
        Self::new(offset, Width::U16, Endian::Little)
    }

    /// A big-endian u16 at `offset`.
    #[must_use]
    pub const fn u16_be(offset: usize) -> Self {
        Self::new(offset, Width::U16, Endian::Big)
    }

    /// A little-endian u32 at `offset`.
    #[must_use]
    pub const fn u32_le(offset: usize) -> Self {
        Self::new(offset, Width::U32, Endian::Little)
    }

    /// A big-endian u32 at `offset`.
    #[must_use]
    pub const fn u32_be(offset: usize) -> Self {
        Self::new(offset, Width::U32, Endian::Big)
    }

    /// Offset just past the field (saturating).
    #[must_use]
    pub const fn end(&self) -> usize {
        self.offset.saturating_add(self.width.bytes())
    }

    /// The field's value in `frame`, or `None` when `frame` is too short to
    /// hold it.
    #[must_use]
    pub fn read(&self, frame: &[u8]) -> Option<u64> {
        if frame.len() < self.end() || self.end() == usize::MAX {
            return None;
        }
        Some(self.slot().get(frame))
    }

    /// The field as a [`Uint`], the reader of the dimension and var-data
    /// length members of generated code.
    const fn slot(&self) -> Uint {
        let o = self.offset;
        match (self.width, self.order) {
            (Width::U16, Endian::Little) => Uint::U16Le(o),
            (Width::U16, Endian::Big) => Uint::U16Be(o),
            (Width::U32, Endian::Little) => Uint::U32Le(o),
            (Width::U32, Endian::Big) => Uint::U32Be(o),
        }
    }

    /// Writes `value` (at most [`Width::max`]) into `frame`.
    fn write(&self, frame: &mut [u8], value: u64) {
        let o = self.offset;
        // Both casts are lossless: callers check `value <= width.max()`.
        match (self.width, self.order) {
            (Width::U16, Endian::Little) => put_u16_le(frame, o, value as u16),
            (Width::U16, Endian::Big) => put_u16_be(frame, o, value as u16),
            (Width::U32, Endian::Little) => put_u32_le(frame, o, value as u32),
            (Width::U32, Endian::Big) => put_u32_be(frame, o, value as u32),
        }
    }
}

/// What a frame's length field counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Counts {
    /// The whole frame, the prefix (and so the length field itself)
    /// included: SOFH, MDP3's `MsgSize`, a length inside the message header.
    #[default]
    Frame,
    /// Only what follows the prefix: the message.
    Message,
}

/// The encoding types a frame may carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Expect {
    /// Any value (it is still handed out with the frame).
    #[default]
    Any,
    /// Only this value.
    Value(u16),
    /// Either of two values (SOFH: SBE little- or big-endian).
    Either(u16, u16),
}

impl Expect {
    /// Whether `encoding_type` is one of the values expected.
    ///
    /// ```
    /// use sbe_framing::Expect;
    ///
    /// assert!(Expect::Either(0xEB50, 0x5BE0).accepts(0x5BE0));
    /// assert!(!Expect::Value(0xCAFE).accepts(0xEB50));
    /// assert!(Expect::Any.accepts(0x0100));
    /// ```
    #[must_use]
    pub const fn accepts(self, encoding_type: u16) -> bool {
        match self {
            Expect::Any => true,
            Expect::Value(v) => v == encoding_type,
            Expect::Either(a, b) => a == encoding_type || b == encoding_type,
        }
    }

    /// The first value expected (what an encoder writes by default), `None`
    /// for [`Expect::Any`].
    #[must_use]
    pub const fn first(self) -> Option<u16> {
        match self {
            Expect::Any => None,
            Expect::Value(v) | Expect::Either(v, _) => Some(v),
        }
    }
}

impl fmt::Display for Expect {
    /// `any`, `0xcafe`, or `0xeb50 or 0x5be0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Expect::Any => f.write_str("any"),
            Expect::Value(v) => write!(f, "{v:#06x}"),
            Expect::Either(a, b) => write!(f, "{a:#06x} or {b:#06x}"),
        }
    }
}

/// A u16 encoding type in the frame: where, in which byte order, and which
/// values are accepted.
///
/// ```
/// use sbe_framing::{EncodingField, Endian, Expect};
///
/// let field = EncodingField::new(2, Endian::Little, Expect::Value(0xCAFE));
/// assert_eq!(field.read(&[0, 0, 0xfe, 0xca]), Some(0xCAFE));
/// assert_eq!(field.end(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodingField {
    /// Offset of the field from the start of the frame.
    pub offset: usize,
    /// Byte order.
    pub order: Endian,
    /// The values accepted.
    pub expect: Expect,
}

impl EncodingField {
    /// A u16 at `offset` in byte order `order`, accepting `expect`.
    #[must_use]
    pub const fn new(offset: usize, order: Endian, expect: Expect) -> Self {
        EncodingField {
            offset,
            order,
            expect,
        }
    }

    /// Offset just past the field (saturating).
    #[must_use]
    pub const fn end(&self) -> usize {
        self.offset.saturating_add(2)
    }

    /// The field's value in `frame`, or `None` when `frame` is too short.
    #[must_use]
    pub fn read(&self, frame: &[u8]) -> Option<u16> {
        if frame.len() < self.end() || self.end() == usize::MAX {
            return None;
        }
        Some(match self.order {
            Endian::Little => get_u16_le(frame, self.offset),
            Endian::Big => get_u16_be(frame, self.offset),
        })
    }

    fn write(&self, frame: &mut [u8], value: u16) {
        match self.order {
            Endian::Little => put_u16_le(frame, self.offset, value),
            Endian::Big => put_u16_be(frame, self.offset, value),
        }
    }
}

/// How one message is framed: prefix, length field, what it counts,
/// encoding type, alignment. See the [module documentation](self).
///
/// ```
/// use sbe_framing::{Counts, FrameFormat, LengthField};
///
/// // A u32 big-endian length counting only the message, no encoding type.
/// let format = FrameFormat::new(4, LengthField::u32_be(0)).with_counts(Counts::Message);
/// let stream = [0, 0, 0, 3, b'a', b'b', b'c', 0, 0, 0, 1, b'd'];
/// let first = format.split(&stream)?.expect("a whole frame");
/// assert_eq!((first.message, first.len), (&b"abc"[..], 7));
/// let second = format.split(&stream[first.len..])?.expect("a whole frame");
/// assert_eq!(second.message, b"d");
/// // Cut mid-frame: not yet.
/// assert_eq!(format.split(&stream[..5])?, None);
/// # Ok::<(), sbe_framing::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameFormat {
    /// Bytes before the SBE message; 0 when the length is inside the
    /// message's own header.
    pub prefix_len: usize,
    /// The length field.
    pub length: LengthField,
    /// What the length counts.
    pub counts: Counts,
    /// The encoding type field, if the framing has one.
    pub encoding: Option<EncodingField>,
    /// Frames are padded to a multiple of this many bytes (1 or 0: no
    /// padding).
    pub align: usize,
}

/// A framing header read and checked by [`FrameFormat::read_header`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameHeader {
    /// The length field's value, as on the wire.
    pub length: u64,
    /// The encoding type, when the format has one.
    pub encoding_type: Option<u16>,
    /// Bytes of the frame, prefix included, padding excluded.
    pub frame_len: usize,
    /// Bytes the frame takes in the stream: `frame_len` rounded up to the
    /// alignment.
    pub padded_len: usize,
}

/// One frame split off the front of a buffer by [`FrameFormat::split`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameRef<'a> {
    /// The SBE message: the frame after its prefix (padding excluded).
    pub message: &'a [u8],
    /// The encoding type, when the format has one.
    pub encoding_type: Option<u16>,
    /// Bytes the frame took, prefix and padding included: where the next
    /// frame starts.
    pub len: usize,
}

/// A [`FrameFormat`] whose parts cannot describe a framing (see
/// [`FrameFormat::validate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FormatError {
    /// With a prefix, the length field must lie inside it.
    LengthOutsidePrefix {
        /// Offset just past the length field.
        end: usize,
        /// The prefix length.
        prefix_len: usize,
    },
    /// With a prefix, the encoding type must lie inside it.
    EncodingOutsidePrefix {
        /// Offset just past the encoding field.
        end: usize,
        /// The prefix length.
        prefix_len: usize,
    },
    /// The length and encoding type fields overlap.
    FieldsOverlap,
    /// Counting only the message needs a prefix to count from.
    CountsMessageWithoutPrefix,
    /// The alignment is not a power of two.
    Align(usize),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FormatError::LengthOutsidePrefix { end, prefix_len } => write!(
                f,
                "the length field ends at byte {end}, past the {prefix_len}-byte prefix \
                 (a length inside the message header needs prefix 0)"
            ),
            FormatError::EncodingOutsidePrefix { end, prefix_len } => write!(
                f,
                "the encoding type ends at byte {end}, past the {prefix_len}-byte prefix"
            ),
            FormatError::FieldsOverlap => {
                f.write_str("the length and encoding type fields overlap")
            }
            FormatError::CountsMessageWithoutPrefix => f.write_str(
                "a length counting only the message needs a prefix (with prefix 0 it counts the frame)",
            ),
            FormatError::Align(a) => write!(f, "alignment {a} is not a power of two"),
        }
    }
}

impl core::error::Error for FormatError {}

impl FrameFormat {
    /// The FIX Simple Open Framing Header, 6 bytes in front of each
    /// message, always big-endian:
    ///
    /// | offset | type | meaning |
    /// |---|---|---|
    /// | 0 | uint32 | message length: the **whole frame**, these 6 bytes included |
    /// | 4 | uint16 | encoding type: [`SOFH_SBE_LE`] (`0xEB50`) for SBE 1.0 little-endian, [`SOFH_SBE_BE`] (`0x5BE0`) for SBE big-endian |
    ///
    /// Either encoding type is accepted; another one means the bytes are
    /// most likely not SOFH-framed at all, and is an
    /// [`Error::FrameEncoding`] before the length is even looked at.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, FrameHeader, SOFH_LEN, SOFH_SBE_LE};
    ///
    /// let message = [1u8, 2, 3];
    /// let mut frame = [0u8; SOFH_LEN + 3];
    /// frame[SOFH_LEN..].copy_from_slice(&message);
    /// let len = FrameFormat::SOFH.write_header(&mut frame, message.len(), SOFH_SBE_LE)?;
    /// assert_eq!(len, 9);
    /// assert_eq!(frame[..SOFH_LEN], [0, 0, 0, 9, 0xeb, 0x50]);
    ///
    /// let header = FrameFormat::SOFH.read_header(&frame, usize::MAX)?.expect("6 bytes are there");
    /// assert_eq!(header, FrameHeader {
    ///     length: 9, encoding_type: Some(SOFH_SBE_LE), frame_len: 9, padded_len: 9,
    /// });
    /// assert_eq!(FrameFormat::SOFH.message_range(&header), SOFH_LEN..9);
    /// assert_eq!(FrameFormat::SOFH.split(&frame)?.expect("all there").message, message);
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub const SOFH: FrameFormat = FrameFormat {
        prefix_len: SOFH_LEN,
        length: LengthField::u32_be(0),
        counts: Counts::Frame,
        encoding: Some(EncodingField::new(
            4,
            Endian::Big,
            Expect::Either(SOFH_SBE_LE, SOFH_SBE_BE),
        )),
        align: 1,
    };

    /// The 4-byte little-endian framing header of CME iLink 3 and B3
    /// EntryPoint: u16 length counting the whole frame, u16 encoding type
    /// `0xCAFE` (iLink 3, [`ILINK3_ENCODING`]) or `0xEB50` (B3).
    pub const SOFH_LE: FrameFormat = FrameFormat {
        prefix_len: 4,
        length: LengthField::u16_le(0),
        counts: Counts::Frame,
        encoding: Some(EncodingField::new(
            2,
            Endian::Little,
            Expect::Either(ILINK3_ENCODING, SOFH_SBE_LE),
        )),
        align: 1,
    };

    /// A CME MDP3 message in its datagram: a u16 little-endian `MsgSize`
    /// counting the whole frame (its own 2 bytes included).
    pub const MDP3_MESSAGE: FrameFormat = FrameFormat::new(2, LengthField::u16_le(0));

    /// A format with a `prefix_len`-byte prefix and the length field
    /// `length`, counting the whole frame, without encoding type or
    /// padding; the `with_*` methods change the rest.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, LengthField};
    ///
    /// assert_eq!(FrameFormat::new(2, LengthField::u16_le(0)), FrameFormat::MDP3_MESSAGE);
    /// ```
    #[must_use]
    pub const fn new(prefix_len: usize, length: LengthField) -> Self {
        FrameFormat {
            prefix_len,
            length,
            counts: Counts::Frame,
            encoding: None,
            align: 1,
        }
    }

    /// The same format, its length counting `counts`.
    #[must_use]
    pub const fn with_counts(mut self, counts: Counts) -> Self {
        self.counts = counts;
        self
    }

    /// The same format with an encoding type field.
    #[must_use]
    pub const fn with_encoding(mut self, encoding: EncodingField) -> Self {
        self.encoding = Some(encoding);
        self
    }

    /// The same format, frames padded to a multiple of `align` bytes.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, LengthField};
    ///
    /// // The length (u16 LE at offset 2) inside the message header, frames
    /// // padded to 8 bytes.
    /// let format = FrameFormat::new(0, LengthField::u16_le(2)).with_align(8);
    /// let stream = [1, 0, 5, 0, 9, 0, 0, 0, 2, 0, 4, 0];
    /// let frame = format.split(&stream)?.unwrap();
    /// assert_eq!((frame.message, frame.len), (&[1, 0, 5, 0, 9][..], 8));
    /// // The second frame's padding is still to come.
    /// assert_eq!(format.split(&stream[8..])?, None);
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    #[must_use]
    pub const fn with_align(mut self, align: usize) -> Self {
        self.align = align;
        self
    }

    /// Checks that the parts describe a framing: with a prefix, the length
    /// and encoding fields lie inside it; the two fields do not overlap;
    /// [`Counts::Message`] has a prefix to count from; the alignment is a
    /// power of two (or 0, taken as 1). Other functions accept any format
    /// (and never panic), but only a valid one frames what it says.
    ///
    /// ```
    /// use sbe_framing::{FormatError, FrameFormat, LengthField};
    ///
    /// assert_eq!(FrameFormat::SOFH.validate(), Ok(()));
    /// assert_eq!(
    ///     FrameFormat::new(2, LengthField::u32_be(0)).validate(),
    ///     Err(FormatError::LengthOutsidePrefix { end: 4, prefix_len: 2 })
    /// );
    /// ```
    pub const fn validate(&self) -> core::result::Result<(), FormatError> {
        let prefix_len = self.prefix_len;
        if prefix_len > 0 && self.length.end() > prefix_len {
            return Err(FormatError::LengthOutsidePrefix {
                end: self.length.end(),
                prefix_len,
            });
        }
        if let Some(enc) = self.encoding {
            if prefix_len > 0 && enc.end() > prefix_len {
                return Err(FormatError::EncodingOutsidePrefix {
                    end: enc.end(),
                    prefix_len,
                });
            }
            if enc.offset < self.length.end() && self.length.offset < enc.end() {
                return Err(FormatError::FieldsOverlap);
            }
        }
        if prefix_len == 0 && matches!(self.counts, Counts::Message) {
            return Err(FormatError::CountsMessageWithoutPrefix);
        }
        if self.align > 1 && !self.align.is_power_of_two() {
            return Err(FormatError::Align(self.align));
        }
        Ok(())
    }

    /// Bytes needed from the start of a frame to read its length and
    /// encoding type.
    ///
    /// ```
    /// use sbe_framing::FrameFormat;
    ///
    /// assert_eq!(FrameFormat::SOFH.header_len(), 6);
    /// assert_eq!(FrameFormat::MDP3_MESSAGE.header_len(), 2);
    /// ```
    #[must_use]
    pub const fn header_len(&self) -> usize {
        let len = self.length.end();
        match self.encoding {
            Some(enc) if enc.end() > len => enc.end(),
            _ => len,
        }
    }

    /// The shortest frame: its prefix and its fields (at least 1 byte).
    #[must_use]
    pub const fn min_frame_len(&self) -> usize {
        let fields = self.header_len();
        let min = if fields > self.prefix_len {
            fields
        } else {
            self.prefix_len
        };
        if min == 0 {
            1
        } else {
            min
        }
    }

    /// What the length field adds to its value to give the frame's length.
    const fn uncounted(&self) -> usize {
        match self.counts {
            Counts::Frame => 0,
            Counts::Message => self.prefix_len,
        }
    }

    /// The length field values a frame of at most `max_frame_len` bytes
    /// (prefix included, padding excluded) may carry: `(min, max)`, in the
    /// field's own unit (what it counts). Zero is never valid.
    ///
    /// ```
    /// use sbe_framing::{Counts, FrameFormat, LengthField};
    ///
    /// assert_eq!(FrameFormat::SOFH.length_bounds(1024), (6, 1024));
    /// let counts_message = FrameFormat::new(4, LengthField::u16_le(0)).with_counts(Counts::Message);
    /// assert_eq!(counts_message.length_bounds(usize::MAX), (1, 65535));
    /// assert_eq!(counts_message.length_bounds(100), (1, 96));
    /// ```
    #[must_use]
    pub fn length_bounds(&self, max_frame_len: usize) -> (u64, u64) {
        let add = self.uncounted();
        let min = self.min_frame_len().saturating_sub(add).max(1);
        let max = u64::try_from(max_frame_len.saturating_sub(add))
            .unwrap_or(u64::MAX)
            .min(self.length.width.max());
        (min as u64, max)
    }

    /// The frame length (prefix included) and padded length of a frame
    /// whose length field says `length`, checked against
    /// [`length_bounds`](Self::length_bounds)`(max_frame_len)`: an
    /// [`Error::FrameLength`] (in the field's unit) when out of range.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, Error};
    ///
    /// assert_eq!(FrameFormat::MDP3_MESSAGE.frame_len(30, usize::MAX), Ok((30, 30)));
    /// assert_eq!(
    ///     FrameFormat::MDP3_MESSAGE.frame_len(0, usize::MAX),
    ///     Err(Error::frame_length(0, 2, 65535))
    /// );
    /// assert_eq!(
    ///     FrameFormat::MDP3_MESSAGE.with_align(8).frame_len(30, usize::MAX),
    ///     Ok((30, 32))
    /// );
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn frame_len(&self, length: u64, max_frame_len: usize) -> Result<(usize, usize)> {
        let (min, max) = self.length_bounds(max_frame_len);
        // Made only when needed: the error's constructor is out of line.
        let error = || Error::frame_length(length, min, max);
        if length < min || length > max {
            return Err(error());
        }
        let frame_len = usize::try_from(length)
            .ok()
            .and_then(|l| l.checked_add(self.uncounted()))
            .ok_or_else(error)?;
        let padded = frame_len
            .checked_next_multiple_of(self.align.max(1))
            .ok_or_else(error)?;
        Ok((frame_len, padded))
    }

    /// The encoding type check alone: an [`Error::FrameEncoding`] when the
    /// format has an encoding type and `encoding_type` is not one expected.
    pub fn check_encoding(&self, encoding_type: Option<u16>) -> Result<()> {
        match (self.encoding, encoding_type) {
            (Some(field), Some(value)) if !field.expect.accepts(value) => {
                Err(Error::frame_encoding(value, field.expect))
            }
            _ => Ok(()),
        }
    }

    /// Reads and checks the framing header at the start of `buf`.
    ///
    /// `Ok(None)` when `buf` is shorter than [`header_len`](Self::header_len)
    /// (more bytes are needed). The encoding type is checked first, since a
    /// wrong one means the bytes are not framed this way at all and the
    /// length means nothing ([`Error::FrameEncoding`]); then the length,
    /// against the frame's own fields and `max_frame_len`
    /// ([`Error::FrameLength`]). Whether the whole frame is in `buf` is not
    /// checked: see [`split`](Self::split).
    ///
    /// ```
    /// use sbe_framing::{Expect, FrameFormat, FrameHeader, Error};
    ///
    /// let header = FrameFormat::SOFH_LE.read_header(&[9, 0, 0xfe, 0xca], usize::MAX)?;
    /// assert_eq!(header, Some(FrameHeader {
    ///     length: 9, encoding_type: Some(0xCAFE), frame_len: 9, padded_len: 9,
    /// }));
    /// // A raw SBE message header read as a SOFH.
    /// let err = FrameFormat::SOFH.read_header(&[45, 0, 1, 0, 1, 0, 0, 0], usize::MAX);
    /// assert_eq!(err, Err(Error::frame_encoding(0x0100, Expect::Either(0xEB50, 0x5BE0))));
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "not a SOFH header: encoding type 0x0100, expected 0xeb50 or 0x5be0"
    /// );
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn read_header(&self, buf: &[u8], max_frame_len: usize) -> Result<Option<FrameHeader>> {
        if buf.len() < self.header_len() {
            return Ok(None);
        }
        let encoding_type = self.encoding.and_then(|f| f.read(buf));
        self.check_encoding(encoding_type)?;
        let Some(length) = self.length.read(buf) else {
            return Ok(None);
        };
        let (frame_len, padded_len) = self.frame_len(length, max_frame_len)?;
        Ok(Some(FrameHeader {
            length,
            encoding_type,
            frame_len,
            padded_len,
        }))
    }

    /// The whole frame at the start of `buf`, of at most `max_frame_len`
    /// bytes: its header and where its message lies in it (see
    /// [`message_range`](Self::message_range)). `Ok(None)` until the whole
    /// frame (padding included) is there, an `Err` when its header is wrong
    /// (see [`read_header`](Self::read_header)).
    ///
    /// The one rule of a whole frame, which every splitter here applies:
    /// [`split`](Self::split), the `Framer` and the tokio codec (feature
    /// `bytes`, `tokio`) and the stream and datagram splitters of `split`
    /// (feature `std`).
    ///
    /// ```
    /// use sbe_framing::FrameFormat;
    ///
    /// let frame = [0, 0, 0, 9, 0xeb, 0x50, b'a', b'b', b'c'];
    /// let (header, message) = FrameFormat::SOFH.whole(&frame, 1024)?.unwrap();
    /// assert_eq!((header.padded_len, &frame[message]), (9, &b"abc"[..]));
    /// assert_eq!(FrameFormat::SOFH.whole(&frame[..8], 1024)?, None);
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn whole(
        &self,
        buf: &[u8],
        max_frame_len: usize,
    ) -> Result<Option<(FrameHeader, core::ops::Range<usize>)>> {
        let Some(header) = self.read_header(buf, max_frame_len)? else {
            return Ok(None);
        };
        if buf.len() < header.padded_len {
            return Ok(None);
        }
        let message = self.message_range(&header);
        Ok(Some((header, message)))
    }

    /// Splits the frame at the start of `buf`: `Ok(None)` until the whole
    /// frame (padding included) is there, an `Err` when its header is wrong
    /// (see [`read_header`](Self::read_header)).
    pub fn split<'a>(&self, buf: &'a [u8]) -> Result<Option<FrameRef<'a>>> {
        let Some((header, _)) = self.whole(buf, usize::MAX)? else {
            return Ok(None);
        };
        Ok(Some(FrameRef {
            message: self.message_of(buf, &header),
            encoding_type: header.encoding_type,
            len: header.padded_len,
        }))
    }

    /// Where the message lies in a frame: after the prefix, up to the end
    /// of the frame before its padding.
    #[must_use]
    pub fn message_range(&self, header: &FrameHeader) -> core::ops::Range<usize> {
        let start = self.prefix_len.min(header.frame_len);
        start..header.frame_len
    }

    /// The message of the frame at the start of `frame` (empty when
    /// `frame` does not hold it all).
    fn message_of<'a>(&self, frame: &'a [u8], header: &FrameHeader) -> &'a [u8] {
        frame.get(self.message_range(header)).unwrap_or_default()
    }

    /// Bytes a frame of a `message_len`-byte message takes (prefix and
    /// padding included), or `None` when it cannot be framed (too long for
    /// the length field).
    ///
    /// ```
    /// use sbe_framing::FrameFormat;
    ///
    /// assert_eq!(FrameFormat::SOFH.encoded_len(62), Some(68));
    /// assert_eq!(FrameFormat::SOFH_LE.encoded_len(65532), None);
    /// assert_eq!(FrameFormat::MDP3_MESSAGE.with_align(8).encoded_len(5), Some(8));
    /// ```
    #[must_use]
    pub fn encoded_len(&self, message_len: usize) -> Option<usize> {
        let length = self.length_for(message_len)?;
        self.frame_len(length, usize::MAX)
            .ok()
            .map(|(_, padded)| padded)
    }

    /// The length field's value for a `message_len`-byte message.
    fn length_for(&self, message_len: usize) -> Option<u64> {
        let counted = match self.counts {
            Counts::Frame => message_len.checked_add(self.prefix_len)?,
            Counts::Message => message_len,
        };
        u64::try_from(counted).ok()
    }

    /// Writes the framing fields of a frame holding a `message_len`-byte
    /// message into `frame`, the buffer where the frame starts: the length
    /// field and the encoding type (when the format has one). Other prefix
    /// bytes and the padding are left as they are (zero them first); with
    /// prefix 0 the fields are inside the message, which must be in place.
    /// Returns the bytes the frame takes, padding included (see
    /// [`encoded_len`](Self::encoded_len)).
    ///
    /// Errors, with nothing written: [`Error::FrameLength`] when the length
    /// cannot be framed (too long for the field, or a message shorter than
    /// the fields it holds), [`Error::FrameEncoding`] when `encoding_type`
    /// is not one the format expects, [`Error::Truncated`] when `frame` is
    /// shorter than the fields.
    ///
    /// ```
    /// use sbe_framing::FrameFormat;
    ///
    /// let mut frame = [0u8; 4 + 3];
    /// frame[4..].copy_from_slice(b"abc");
    /// let len = FrameFormat::SOFH_LE.write_header(&mut frame, 3, 0xCAFE)?;
    /// assert_eq!((len, frame), (7, [7, 0, 0xfe, 0xca, b'a', b'b', b'c']));
    /// assert!(FrameFormat::SOFH_LE.write_header(&mut frame, 3, 0x1234).is_err());
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn write_header(
        &self,
        frame: &mut [u8],
        message_len: usize,
        encoding_type: u16,
    ) -> Result<usize> {
        let (min, max) = self.length_bounds(usize::MAX);
        let length = self
            .length_for(message_len)
            .ok_or(Error::frame_length(u64::MAX, min, max))?;
        let (_, padded) = self.frame_len(length, usize::MAX)?;
        self.check_encoding(self.encoding.map(|_| encoding_type))?;
        sbe_rt::wire::check_len(frame, self.header_len())?;
        self.length.write(frame, length);
        if let Some(field) = self.encoding {
            field.write(frame, encoding_type);
        }
        Ok(padded)
    }

    /// The encoding type an encoder writes by default: the first value
    /// expected, 0 when any is accepted or there is no such field.
    ///
    /// ```
    /// use sbe_framing::FrameFormat;
    ///
    /// assert_eq!(FrameFormat::SOFH.default_encoding_type(), 0xEB50);
    /// assert_eq!(FrameFormat::SOFH_LE.default_encoding_type(), 0xCAFE);
    /// ```
    #[must_use]
    pub const fn default_encoding_type(&self) -> u16 {
        match self.encoding {
            Some(field) => match field.expect.first() {
                Some(v) => v,
                None => 0,
            },
            None => 0,
        }
    }
}

/// Cuts `message` (a frame's message, which may be followed by padding
/// inside its frame) to its own length, as `len_fn` tells it: a generated
/// `message_length`, say. `len_fn` returns the length of the message at the
/// start of the bytes it is given (`Ok(None)` when it cannot tell); a
/// length longer than `message` is an [`Error::Truncated`].
///
/// ```
/// use sbe_framing::trim;
///
/// // The first byte is the length; the frame has 3 bytes of padding.
/// let message = [2u8, 7, 0, 0, 0];
/// let own = trim(&message, |b: &[u8]| sbe_rt::Result::Ok(b.first().map(|&n| usize::from(n))))?;
/// assert_eq!(own, [2, 7]);
/// assert!(trim(&message[..1], |b: &[u8]| sbe_rt::Result::Ok(b.first().map(|&n| usize::from(n)))).is_err());
/// # Ok::<(), sbe_framing::Error>(())
/// ```
pub fn trim<F, E>(message: &[u8], len_fn: F) -> Result<&[u8]>
where
    F: FnOnce(&[u8]) -> core::result::Result<Option<usize>, E>,
    E: Into<Error>,
{
    let truncated = |needed| Error::truncated(needed, message.len());
    let len = len_fn(message)
        .map_err(Into::into)?
        .ok_or(truncated(message.len().saturating_add(1)))?;
    message.get(..len).ok_or(truncated(len))
}

/// An [`Error`] at a byte offset in a datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketError {
    /// Offset in the datagram: of the frame for a framing error, `0` for a
    /// packet header.
    pub offset: usize,
    /// What is wrong.
    pub error: Error,
}

impl fmt::Display for PacketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.error)
    }
}

impl core::error::Error for PacketError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A datagram framing: a fixed-size packet header, then frames of
/// `frame` format up to the end of the datagram.
///
/// ```
/// use sbe_framing::{FrameFormat, PacketFormat};
///
/// // A 16-byte packet header, then each message behind a 4-byte LE header.
/// let format = PacketFormat::new(16, FrameFormat::SOFH_LE);
/// let mut datagram = vec![0u8; 16];
/// datagram.extend([7, 0, 0x50, 0xeb, 1, 2, 3]);
/// let packet = format.packet(&datagram)?;
/// assert_eq!(packet.header().len(), 16);
/// let m = packet.messages().next().unwrap()?;
/// assert_eq!((m.offset, m.message, m.encoding_type), (20, &[1, 2, 3][..], Some(0xEB50)));
/// # Ok::<(), sbe_framing::PacketError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketFormat {
    /// Bytes of the packet header at the start of each datagram.
    pub header_len: usize,
    /// How each message after it is framed.
    pub frame: FrameFormat,
}

impl PacketFormat {
    /// CME MDP3: a 12-byte packet header ([`Mdp3PacketHeader`]), then each
    /// message behind a u16 little-endian `MsgSize` that counts itself.
    pub const MDP3: PacketFormat =
        PacketFormat::new(Mdp3PacketHeader::LEN, FrameFormat::MDP3_MESSAGE);

    /// A packet header of `header_len` bytes, then `frame` frames.
    #[must_use]
    pub const fn new(header_len: usize, frame: FrameFormat) -> Self {
        PacketFormat { header_len, frame }
    }

    /// One datagram (a UDP payload) of this format. A datagram shorter
    /// than the packet header is an [`Error::Truncated`] at offset 0.
    pub fn packet<'a>(&self, datagram: &'a [u8]) -> core::result::Result<Packet<'a>, PacketError> {
        match datagram.split_at_checked(self.header_len) {
            Some((header, _)) => Ok(Packet {
                datagram,
                header,
                frame: self.frame,
            }),
            None => Err(PacketError {
                offset: 0,
                error: Error::truncated(self.header_len, datagram.len()),
            }),
        }
    }
}

/// One datagram, its packet header checked to be there (see
/// [`PacketFormat::packet`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Packet<'a> {
    datagram: &'a [u8],
    header: &'a [u8],
    frame: FrameFormat,
}

impl<'a> Packet<'a> {
    /// The packet header's bytes.
    #[must_use]
    pub fn header(&self) -> &'a [u8] {
        self.header
    }

    /// The whole datagram.
    #[must_use]
    pub fn datagram(&self) -> &'a [u8] {
        self.datagram
    }

    /// The packet header read as MDP3's (an [`Error::Truncated`] when it is
    /// shorter than 12 bytes).
    pub fn mdp3_header(&self) -> Result<Mdp3PacketHeader> {
        Mdp3PacketHeader::read(self.header)
    }

    /// The messages after the packet header, in order, each with its
    /// offset in the datagram. The first bad frame is an `Err` (a
    /// [`PacketError`] at the frame's offset), after which the iterator
    /// ends: the frames after a bad length cannot be found.
    #[must_use]
    pub fn messages(&self) -> Messages<'a> {
        Messages {
            datagram: self.datagram,
            pos: self.header.len(),
            frame: self.frame,
            done: false,
        }
    }
}

/// One message of a datagram (see [`Packet::messages`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketMessage<'a> {
    /// Offset of the message (after its prefix) in the datagram.
    pub offset: usize,
    /// Offset of its frame (its prefix) in the datagram.
    pub frame_offset: usize,
    /// The SBE message: the frame after its prefix, padding excluded.
    pub message: &'a [u8],
    /// The frame's encoding type, when the format has one.
    pub encoding_type: Option<u16>,
}

impl<'a> PacketMessage<'a> {
    /// The message cut to its own length by `len_fn` (see [`trim`]); an
    /// error is at the message's offset.
    ///
    /// ```
    /// use sbe_framing::PacketFormat;
    ///
    /// // MsgSize 6 for a 3-byte message: one byte of slack in the frame.
    /// let mut datagram = vec![0u8; 12];
    /// datagram.extend([6, 0, 3, 8, 9, 0]);
    /// let packet = PacketFormat::MDP3.packet(&datagram)?;
    /// let m = packet.messages().next().unwrap()?;
    /// assert_eq!(m.message, [3, 8, 9, 0]);
    /// let own = m.trim(|b: &[u8]| sbe_rt::Result::Ok(b.first().map(|&n| usize::from(n))))?;
    /// assert_eq!(own.message, [3, 8, 9]);
    /// # Ok::<(), sbe_framing::PacketError>(())
    /// ```
    pub fn trim<F, E>(self, len_fn: F) -> core::result::Result<Self, PacketError>
    where
        F: FnOnce(&[u8]) -> core::result::Result<Option<usize>, E>,
        E: Into<Error>,
    {
        match trim(self.message, len_fn) {
            Ok(message) => Ok(PacketMessage { message, ..self }),
            Err(error) => Err(PacketError {
                offset: self.offset,
                error,
            }),
        }
    }
}

/// Iterator over the messages of one datagram (see [`Packet::messages`]).
#[derive(Clone, Debug)]
pub struct Messages<'a> {
    datagram: &'a [u8],
    pos: usize,
    frame: FrameFormat,
    done: bool,
}

impl<'a> Messages<'a> {
    /// Offset in the datagram of the next frame.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn step(&mut self) -> core::result::Result<Option<PacketMessage<'a>>, Error> {
        let rest = self.datagram.get(self.pos..).unwrap_or_default();
        if rest.is_empty() {
            return Ok(None);
        }
        let Some(header) = self.frame.read_header(rest, usize::MAX)? else {
            return Err(Error::truncated(self.frame.header_len(), rest.len()));
        };
        if header.padded_len > rest.len() {
            // Longer than what is left: out of range, in the field's unit.
            let (min, _) = self.frame.length_bounds(usize::MAX);
            // The longest frame whose padding also fits.
            let align = self.frame.align.max(1);
            let (_, max) = self.frame.length_bounds(rest.len() / align * align);
            return Err(Error::frame_length(header.length, min, max));
        }
        let range = self.frame.message_range(&header);
        let offset = self.pos + range.start;
        let message = rest.get(range).unwrap_or_default();
        let frame_offset = self.pos;
        self.pos += header.padded_len;
        Ok(Some(PacketMessage {
            offset,
            frame_offset,
            message,
            encoding_type: header.encoding_type,
        }))
    }
}

impl<'a> Iterator for Messages<'a> {
    type Item = core::result::Result<PacketMessage<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.step() {
            Ok(Some(m)) => Some(Ok(m)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                Some(Err(PacketError {
                    offset: self.pos,
                    error,
                }))
            }
        }
    }
}

impl core::iter::FusedIterator for Messages<'_> {}

/// The 12-byte packet header of a CME MDP3 datagram, little-endian.
///
/// ```
/// use sbe_framing::Mdp3PacketHeader;
///
/// let bytes = [1, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0];
/// assert_eq!(
///     Mdp3PacketHeader::read(&bytes)?,
///     Mdp3PacketHeader { msg_seq_num: 1, sending_time: 16 }
/// );
/// assert!(Mdp3PacketHeader::read(&bytes[..11]).is_err());
/// # Ok::<(), sbe_framing::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mdp3PacketHeader {
    /// `MsgSeqNum`: the packet's sequence number on its channel.
    pub msg_seq_num: u32,
    /// `SendingTime`: nanoseconds since the Unix epoch.
    pub sending_time: u64,
}

impl Mdp3PacketHeader {
    /// Bytes of the header: 12.
    pub const LEN: usize = 12;

    /// Reads the header at the start of `buf`.
    pub fn read(buf: &[u8]) -> Result<Self> {
        sbe_rt::wire::check_len(buf, Self::LEN)?;
        Ok(Mdp3PacketHeader {
            msg_seq_num: get_u32_le(buf, 0),
            sending_time: get_u64_le(buf, 4),
        })
    }

    /// The header's 12 bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; Self::LEN] {
        let mut b = [0u8; Self::LEN];
        put_u32_le(&mut b, 0, self.msg_seq_num);
        sbe_rt::wire::put_u64_le(&mut b, 4, self.sending_time);
        b
    }

    /// Appends the header's 12 bytes to `dst` (feature `alloc`).
    #[cfg(feature = "alloc")]
    pub fn write_to(&self, dst: &mut alloc::vec::Vec<u8>) {
        dst.extend_from_slice(&self.to_bytes());
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// `message` framed by `format`, padding zeroed.
    fn framed(format: &FrameFormat, message: &[u8], encoding: u16) -> Vec<u8> {
        let len = format.encoded_len(message.len()).unwrap();
        let mut frame = vec![0u8; len];
        frame[format.prefix_len..format.prefix_len + message.len()].copy_from_slice(message);
        assert_eq!(
            format.write_header(&mut frame, message.len(), encoding),
            Ok(len)
        );
        frame
    }

    fn messages(n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| (0..(8 + i * 5 % 17)).map(|j| (i * 31 + j) as u8).collect())
            .collect()
    }

    /// Every frame of `stream` split in turn.
    fn split_all<'a>(format: &FrameFormat, mut stream: &'a [u8]) -> Vec<&'a [u8]> {
        let mut got = Vec::new();
        while !stream.is_empty() {
            let f = format.split(stream).unwrap().unwrap();
            got.push(f.message);
            stream = &stream[f.len..];
        }
        got
    }

    #[test]
    fn presets_are_valid_and_as_specified() {
        for f in [
            FrameFormat::SOFH,
            FrameFormat::SOFH_LE,
            FrameFormat::MDP3_MESSAGE,
        ] {
            assert_eq!(f.validate(), Ok(()));
        }
        assert_eq!(
            framed(&FrameFormat::SOFH, b"ab", SOFH_SBE_LE),
            [0, 0, 0, 8, 0xeb, 0x50, b'a', b'b']
        );
        assert_eq!(
            framed(&FrameFormat::SOFH, b"", SOFH_SBE_BE),
            [0, 0, 0, 6, 0x5b, 0xe0]
        );
        assert_eq!(
            framed(&FrameFormat::SOFH_LE, b"ab", 0xCAFE),
            [6, 0, 0xfe, 0xca, b'a', b'b']
        );
        assert_eq!(
            framed(&FrameFormat::SOFH_LE, b"ab", 0xEB50),
            [6, 0, 0x50, 0xeb, b'a', b'b']
        );
        assert_eq!(
            framed(&FrameFormat::MDP3_MESSAGE, b"abc", 0),
            [5, 0, b'a', b'b', b'c']
        );
        assert_eq!(PacketFormat::MDP3.header_len, 12);
        assert_eq!(PacketFormat::MDP3.frame, FrameFormat::MDP3_MESSAGE);
    }

    // SOFH: what the former `sofh` module's `read_sofh` / `write_sofh`
    // checked, through `FrameFormat::SOFH`.

    #[test]
    fn sofh_round_trip() {
        let sofh = FrameFormat::SOFH;
        let mut buf = [0xffu8; 8];
        assert_eq!(sofh.write_header(&mut buf, 62, SOFH_SBE_LE), Ok(68));
        // The example in the FIX corpus: a 68-byte file starts 00000044 eb50.
        assert_eq!(buf, [0, 0, 0, 0x44, 0xeb, 0x50, 0xff, 0xff]);
        let h = sofh.read_header(&buf, usize::MAX).unwrap().unwrap();
        assert_eq!(
            h,
            FrameHeader {
                length: 68,
                encoding_type: Some(SOFH_SBE_LE),
                frame_len: 68,
                padded_len: 68
            }
        );
        assert_eq!(sofh.message_range(&h).len(), 62);

        assert_eq!(sofh.write_header(&mut buf, 0, SOFH_SBE_BE), Ok(SOFH_LEN));
        let h = sofh.read_header(&buf[..6], usize::MAX).unwrap().unwrap();
        assert_eq!(
            (h.length, h.encoding_type, h.frame_len),
            (6, Some(SOFH_SBE_BE), 6)
        );
        assert_eq!(sofh.message_range(&h), 6..6);
        let empty = sofh.split(&buf[..6]).unwrap().unwrap();
        assert_eq!((empty.message, empty.len), (&[][..], 6));
        // Both SBE encoding types, and nothing else, are SOFH's.
        assert_eq!(sofh.check_encoding(Some(SOFH_SBE_LE)), Ok(()));
        assert_eq!(sofh.check_encoding(Some(SOFH_SBE_BE)), Ok(()));
        assert_eq!(
            sofh.check_encoding(Some(1)),
            Err(Error::frame_encoding(
                1,
                Expect::Either(SOFH_SBE_LE, SOFH_SBE_BE)
            ))
        );
        assert_eq!(sofh.header_len(), SOFH_LEN);
        assert_eq!(sofh.default_encoding_type(), SOFH_SBE_LE);
    }

    #[test]
    fn sofh_short_or_bad_headers() {
        let sofh = FrameFormat::SOFH;
        for n in 0..SOFH_LEN {
            let buf = [0, 0, 0, 6, 0xeb, 0x50];
            assert_eq!(sofh.read_header(&buf[..n], usize::MAX), Ok(None));
            assert_eq!(sofh.split(&buf[..n]), Ok(None));
        }
        for len in 0..6u8 {
            let err = Error::frame_length(u64::from(len), 6, u64::from(u32::MAX));
            let buf = [0, 0, 0, len, 0xeb, 0x50];
            assert_eq!(sofh.read_header(&buf, usize::MAX), Err(err));
            assert_eq!(sofh.split(&buf), Err(err));
        }
        let h = sofh
            .read_header(&[0xff, 0xff, 0xff, 0xff, 0x5b, 0xe0], usize::MAX)
            .unwrap()
            .unwrap();
        assert_eq!(h.frame_len, u32::MAX as usize);
        // The encoding type is checked before the length: a raw message
        // header read as a SOFH (754,974,976 bytes of encoding type 0x0100)
        // is not SOFH-framed, whatever its length says.
        assert_eq!(
            sofh.read_header(&[45, 0, 1, 0, 1, 0, 0, 0], usize::MAX),
            Err(Error::frame_encoding(
                0x0100,
                Expect::Either(SOFH_SBE_LE, SOFH_SBE_BE)
            ))
        );
        assert!(sofh.read_header(&[0, 0, 0, 0, 0, 0], usize::MAX).is_err());
    }

    #[test]
    fn sofh_write_errors() {
        let sofh = FrameFormat::SOFH;
        let mut small = [0u8; 5];
        assert_eq!(
            sofh.write_header(&mut small, 1, SOFH_SBE_LE),
            Err(Error::truncated(6, 5))
        );
        assert_eq!(small, [0; 5]);
        let mut buf = [0u8; 6];
        // A frame longer than u32::MAX bytes, the 6 header bytes included.
        assert_eq!(
            sofh.write_header(&mut buf, u32::MAX as usize - 5, SOFH_SBE_LE),
            Err(Error::frame_length(
                u64::from(u32::MAX) + 1,
                6,
                u64::from(u32::MAX)
            ))
        );
        assert_eq!(sofh.encoded_len(u32::MAX as usize - 5), None);
        assert_eq!(buf, [0; 6], "nothing written");
        assert_eq!(
            sofh.write_header(&mut buf, u32::MAX as usize - 6, SOFH_SBE_LE),
            Ok(u32::MAX as usize)
        );
        assert_eq!(buf, [0xff, 0xff, 0xff, 0xff, 0xeb, 0x50]);
        // Not an SBE encoding type: refused, nothing written.
        let mut buf = [0u8; 6];
        assert!(sofh.write_header(&mut buf, 1, 0x0100).is_err());
        assert_eq!(buf, [0; 6]);
    }

    #[test]
    fn every_preset_round_trips_a_stream() {
        let counts_message =
            FrameFormat::new(4, LengthField::u32_le(0)).with_counts(Counts::Message);
        let big16 = FrameFormat::new(2, LengthField::u16_be(0)).with_counts(Counts::Message);
        let enc_first = FrameFormat::new(4, LengthField::u16_be(2))
            .with_encoding(EncodingField::new(0, Endian::Big, Expect::Value(0x5BE0)));
        for format in [
            FrameFormat::SOFH,
            FrameFormat::SOFH_LE,
            FrameFormat::MDP3_MESSAGE,
            counts_message,
            big16,
            enc_first,
            FrameFormat::MDP3_MESSAGE.with_align(8),
        ] {
            assert_eq!(format.validate(), Ok(()));
            let messages = messages(20);
            let mut stream = Vec::new();
            for m in &messages {
                stream.extend(framed(&format, m, format.default_encoding_type()));
            }
            assert_eq!(split_all(&format, &stream), messages, "{format:?}");
            // Every cut of the stream is either a whole frame or Ok(None).
            let first = format.encoded_len(messages[0].len()).unwrap();
            for cut in 0..first {
                assert_eq!(
                    format.split(&stream[..cut]),
                    Ok(None),
                    "{format:?} cut at {cut}"
                );
            }
        }
    }

    #[test]
    fn length_inside_the_message_header_padded_to_eight() {
        // A venue header: u16 LE length of the message at offset 2, then
        // the rest; frames padded to 8.
        let format = FrameFormat::new(0, LengthField::u16_le(2)).with_align(8);
        assert_eq!(format.validate(), Ok(()));
        assert_eq!(format.min_frame_len(), 4);
        let mut message = vec![0xaa, 0xbb, 0, 0, 1, 2, 3, 4, 5, 6, 7]; // 11 bytes
        let len = format.write_header(&mut message, 11, 0).unwrap();
        assert_eq!(len, 16);
        assert_eq!(message[2..4], [11, 0]);
        let mut stream = message.clone();
        stream.resize(16, 0);
        stream.extend_from_slice(&message[..8]);
        stream[16 + 2] = 8; // a second frame of exactly 8 bytes: no padding
        let got = split_all(&format, &stream);
        assert_eq!(got, [&message[..], &stream[16..]]);
        // A length below the field's own end, and zero.
        for bad in [0u8, 3] {
            let buf = [0, 0, bad, 0, 0, 0, 0, 0];
            assert_eq!(
                format.split(&buf),
                Err(Error::frame_length(u64::from(bad), 4, 65535))
            );
        }
        // Writing a message too short to hold its own length.
        assert!(format.write_header(&mut [0u8; 8], 3, 0).is_err());
    }

    #[test]
    fn lying_lengths_are_errors() {
        // Shorter than the prefix.
        for len in 0..6u8 {
            assert_eq!(
                FrameFormat::SOFH.split(&[0, 0, 0, len, 0xeb, 0x50, 1, 2]),
                Err(Error::frame_length(u64::from(len), 6, u64::from(u32::MAX)))
            );
        }
        for len in 0..2u8 {
            assert!(FrameFormat::MDP3_MESSAGE.split(&[len, 0, 9]).is_err());
        }
        // Zero, counting only the message.
        let f = FrameFormat::new(2, LengthField::u16_le(0)).with_counts(Counts::Message);
        assert_eq!(f.split(&[0, 0, 9]), Err(Error::frame_length(0, 1, 65535)));
        // Above a limit: in the field's unit.
        assert_eq!(
            f.read_header(&[200, 0], 100),
            Err(Error::frame_length(200, 1, 98))
        );
        assert_eq!(f.frame_len(98, 100), Ok((100, 100)));
        // u32 lengths that cannot be a usize on this target do not wrap.
        let big = FrameFormat::new(4, LengthField::u32_be(0)).with_counts(Counts::Message);
        let h = big
            .read_header(&[0xff, 0xff, 0xff, 0xff], usize::MAX)
            .unwrap()
            .unwrap();
        assert_eq!(h.frame_len, u32::MAX as usize + 4);
        assert_eq!(big.split(&[0xff, 0xff, 0xff, 0xff, 1]), Ok(None));
    }

    #[test]
    fn wrong_encoding_type_is_checked_before_the_length() {
        let err = FrameFormat::SOFH
            .split(&[0, 0, 0, 0, 0xca, 0xfe])
            .unwrap_err();
        assert_eq!(
            err,
            Error::frame_encoding(0xCAFE, Expect::Either(SOFH_SBE_LE, SOFH_SBE_BE))
        );
        assert_eq!(
            alloc::string::ToString::to_string(&err),
            "not a SOFH header: encoding type 0xcafe, expected 0xeb50 or 0x5be0"
        );
        assert!(FrameFormat::SOFH_LE
            .split(&[6, 0, 0xe0, 0x5b, 1, 2])
            .is_err());
        let any = FrameFormat::new(4, LengthField::u16_le(0)).with_encoding(EncodingField::new(
            2,
            Endian::Little,
            Expect::Any,
        ));
        let f = any.split(&[5, 0, 0x34, 0x12, 9]).unwrap().unwrap();
        assert_eq!((f.message, f.encoding_type), (&[9][..], Some(0x1234)));
    }

    #[test]
    fn write_header_refuses_what_it_cannot_frame() {
        let mut buf = [0xffu8; 8];
        assert_eq!(
            FrameFormat::SOFH_LE.write_header(&mut buf, 65532, 0xCAFE),
            Err(Error::frame_length(65536, 4, 65535))
        );
        assert_eq!(
            FrameFormat::SOFH.write_header(&mut buf[..5], 1, SOFH_SBE_LE),
            Err(Error::truncated(6, 5))
        );
        assert!(FrameFormat::SOFH.write_header(&mut buf, 1, 0xCAFE).is_err());
        assert_eq!(buf, [0xff; 8], "nothing written");
        assert_eq!(
            FrameFormat::SOFH_LE.write_header(&mut buf, 65531, 0xCAFE),
            Ok(65535)
        );
        assert_eq!(buf[..4], [0xff, 0xff, 0xfe, 0xca]);
    }

    #[test]
    fn validate_refuses_nonsense() {
        let f = FrameFormat::new(4, LengthField::u16_le(0));
        assert_eq!(
            f.with_encoding(EncodingField::new(1, Endian::Little, Expect::Any))
                .validate(),
            Err(FormatError::FieldsOverlap)
        );
        assert_eq!(
            f.with_encoding(EncodingField::new(3, Endian::Little, Expect::Any))
                .validate(),
            Err(FormatError::EncodingOutsidePrefix {
                end: 5,
                prefix_len: 4
            })
        );
        assert_eq!(f.with_align(6).validate(), Err(FormatError::Align(6)));
        assert_eq!(f.with_align(0).validate(), Ok(()));
        assert_eq!(
            FrameFormat::new(0, LengthField::u16_le(0))
                .with_counts(Counts::Message)
                .validate(),
            Err(FormatError::CountsMessageWithoutPrefix)
        );
        // Odd formats never panic either.
        let odd = FrameFormat::new(usize::MAX, LengthField::u32_le(usize::MAX - 1))
            .with_align(usize::MAX);
        assert!(odd.validate().is_err());
        assert_eq!(odd.split(&[0; 16]), Ok(None));
        assert_eq!(odd.encoded_len(1), None);
        let odd = FrameFormat::new(2, LengthField::u16_le(0)).with_align(1 << (usize::BITS - 1));
        assert_eq!(odd.split(&[5, 0, 0, 0, 0]), Ok(None));
        let odd =
            FrameFormat::new(usize::MAX - 1, LengthField::u16_le(0)).with_counts(Counts::Message);
        assert!(odd.frame_len(5, usize::MAX).is_err());
        assert_eq!(odd.encoded_len(5), None);
    }

    fn mdp3_datagram(seq: u32, messages: &[Vec<u8>]) -> Vec<u8> {
        let header = Mdp3PacketHeader {
            msg_seq_num: seq,
            sending_time: 0x0102_0304_0506_0708,
        };
        let mut d = header.to_bytes().to_vec();
        for m in messages {
            d.extend(framed(&FrameFormat::MDP3_MESSAGE, m, 0));
        }
        d
    }

    #[test]
    fn mdp3_datagram_messages_and_offsets() {
        let messages = messages(5);
        let d = mdp3_datagram(42, &messages);
        assert_eq!(&d[..4], &[42, 0, 0, 0]);
        let packet = PacketFormat::MDP3.packet(&d).unwrap();
        assert_eq!(
            packet.mdp3_header(),
            Ok(Mdp3PacketHeader {
                msg_seq_num: 42,
                sending_time: 0x0102_0304_0506_0708
            })
        );
        assert_eq!(packet.header(), &d[..12]);
        assert_eq!(packet.datagram(), &d[..]);
        let got: Vec<PacketMessage> = packet
            .messages()
            .map(core::result::Result::unwrap)
            .collect();
        assert_eq!(got.len(), 5);
        let mut at = 12;
        for (m, want) in got.iter().zip(&messages) {
            assert_eq!(m.frame_offset, at);
            assert_eq!(m.offset, at + 2);
            assert_eq!(m.message, &want[..]);
            assert_eq!(&d[m.offset..m.offset + m.message.len()], &want[..]);
            assert_eq!(m.encoding_type, None);
            at += 2 + want.len();
        }
        // A datagram of the header alone has no messages.
        assert_eq!(
            PacketFormat::MDP3
                .packet(&d[..12])
                .unwrap()
                .messages()
                .count(),
            0
        );
    }

    #[test]
    fn bad_datagrams_are_errors_at_their_offset() {
        let messages = messages(3);
        let d = mdp3_datagram(1, &messages);
        // Shorter than the packet header.
        assert_eq!(
            PacketFormat::MDP3.packet(&d[..11]).unwrap_err(),
            PacketError {
                offset: 0,
                error: Error::truncated(12, 11)
            }
        );
        // Cut inside the second frame: the first is yielded, then an error
        // at the second frame's offset, then nothing.
        let second = 12 + 2 + messages[0].len();
        for cut in second + 1..d.len() - messages[2].len() - 2 {
            let p = PacketFormat::MDP3.packet(&d[..cut]).unwrap();
            let mut it = p.messages();
            assert!(it.next().unwrap().is_ok());
            let err = it.next().unwrap().unwrap_err();
            assert_eq!(err.offset, second, "cut at {cut}");
            assert!(it.next().is_none());
            assert!(it.next().is_none());
        }
        let cut = second + 1;
        let err = PacketFormat::MDP3
            .packet(&d[..cut])
            .unwrap()
            .messages()
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert_eq!(err.error, Error::truncated(2, 1));
        // A MsgSize longer than what is left, and zero.
        let mut lying = d.clone();
        lying[second] = 200;
        let err = PacketFormat::MDP3
            .packet(&lying)
            .unwrap()
            .messages()
            .nth(1)
            .unwrap()
            .unwrap_err();
        let left = d.len() - second;
        assert_eq!(
            err,
            PacketError {
                offset: second,
                error: Error::frame_length(200, 2, left as u64)
            }
        );
        assert_eq!(
            alloc::string::ToString::to_string(&err),
            alloc::format!("at byte {second}: frame length 200 out of range 2..={left}")
        );
        lying[second] = 0;
        let err = PacketFormat::MDP3
            .packet(&lying)
            .unwrap()
            .messages()
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert_eq!(err.offset, second);
        assert!(matches!(err.error, Error::FrameLength { length: 0, .. }));
    }

    #[test]
    fn packet_of_padded_frames_with_slack() {
        // A 16-byte header, then frames padded to 8 with a u16 LE length at
        // offset 2 counting the frame; the first frame has slack (length 12
        // for a 9-byte message).
        let format = PacketFormat::new(
            16,
            FrameFormat::new(0, LengthField::u16_le(2)).with_align(8),
        );
        let mut d = vec![0xee; 16];
        d.extend([1, 0, 12, 0, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0]);
        d.extend([2, 0, 8, 0, 1, 1, 1, 1]);
        let got: Vec<_> = format
            .packet(&d)
            .unwrap()
            .messages()
            .map(core::result::Result::unwrap)
            .collect();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].offset, got[0].message.len()), (16, 12));
        assert_eq!((got[1].offset, got[1].message), (32, &d[32..]));
        let own = got[0]
            .trim(|b| Ok::<_, Error>(Some(usize::from(b[2]) - 3)))
            .unwrap();
        assert_eq!(own.message, &d[16..25]);
        let too_long = got[1].trim(|_| Ok::<_, Error>(Some(9))).unwrap_err();
        assert_eq!(
            too_long,
            PacketError {
                offset: 32,
                error: Error::truncated(9, 8)
            }
        );
        // The last frame's padding missing: an error, the padding is part
        // of the frame.
        let mut short = d.clone();
        short.truncate(32);
        short.extend([2, 0, 5, 0, 1]);
        let err = format
            .packet(&short)
            .unwrap()
            .messages()
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert_eq!(err.offset, 32);
        assert!(
            matches!(err.error, Error::FrameLength { length: 5, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn trim_passes_errors_through() {
        assert_eq!(
            trim(&[1, 2], |_| Err(sbe_rt::Error::value_out_of_range())),
            Err(Error::Message(sbe_rt::Error::value_out_of_range()))
        );
        assert_eq!(
            trim(&[1, 2], |_| Ok::<_, Error>(None)),
            Err(Error::truncated(3, 2))
        );
        assert_eq!(trim(&[1, 2], |_| Ok::<_, Error>(Some(0))), Ok(&[][..]));
    }

    #[test]
    fn mdp3_header_round_trips() {
        let h = Mdp3PacketHeader {
            msg_seq_num: 0xdead_beef,
            sending_time: u64::MAX - 1,
        };
        assert_eq!(Mdp3PacketHeader::read(&h.to_bytes()), Ok(h));
        assert_eq!(
            Mdp3PacketHeader::read(&[0; 4]),
            Err(Error::truncated(12, 4))
        );
    }
}
