//! [`Framing`]: a framing by name (`raw`, `sofh`, `sofh-le`, `mdp3`) or
//! composed from its parts, as `sbe --framing` spells it; its parser and
//! printer, and its errors. No allocation (but
//! [`frame_message`](Framing::frame_message), feature `alloc`).

use core::fmt;
use core::ops::Range;
use core::str::FromStr;

use super::{
    Counts, EncodingField, Endian, Expect, FormatError, FrameFormat, LengthField, PacketFormat,
    Width, SOFH_SBE_BE, SOFH_SBE_LE,
};
use crate::error::Error;

/// The framing syntax of [`Framing`]'s `FromStr` in a few lines (what
/// `sbe decode --help` prints).
pub const CUSTOM_SYNTAX: &str = "\
Framings: raw (default), sofh, sofh-le, mdp3, or a custom form of comma-separated items:
  len=T[@OFF]           the length field: T u16le|u16be|u32le|u32be at byte OFF (default 0)
  counts=frame|message  what it counts: the whole frame (default) or what follows the prefix
  enc=T[@OFF][=V[/V]]   a u16 encoding type (u16le|u16be), just after the length by default,
                        that must be V (or one of two V), e.g. enc=u16le=0xcafe/0xeb50
  prefix=N              bytes before the SBE message (default: the end of the last field;
                        0: the length is inside the message header)
  align=N               frames padded to a multiple of N (default 1)
  packet=N              each UDP datagram starts with an N-byte packet header
Examples: sofh-le = len=u16le,enc=u16le=0xcafe/0xeb50   mdp3 = packet=12,len=u16le
          len=u32be,counts=message   len=u16le@2,prefix=0,align=8   packet=16,len=u16le,enc=u16le";

/// How messages are delimited: a preset, or a framing composed from its
/// parts.
///
/// | framing | text | what | parts |
/// |---|---|---|---|
/// | [`Raw`](Framing::Raw) (default) | `raw` | messages back to back, each sized by its own header, groups and var data | — |
/// | [`Sofh`](Framing::Sofh) | `sofh` | FIX Simple Open Framing Header: u32 BE length counting the 6 bytes, u16 BE encoding type `0xEB50` (LE SBE) / `0x5BE0` (BE SBE), which must match the schema's byte order ([`expected_encoding`](Framing::expected_encoding)) | [`FrameFormat::SOFH`] |
/// | [`SofhLe`](Framing::SofhLe) | `sofh-le` | CME iLink 3 and B3 EntryPoint: u16 LE length counting the 4 bytes, u16 LE encoding type `0xCAFE` (iLink 3) or `0xEB50` (B3) | [`FrameFormat::SOFH_LE`] |
/// | [`Mdp3`](Framing::Mdp3) | `mdp3` | CME MDP3 packets: per datagram a 12-byte header (MsgSeqNum u32 LE, SendingTime u64 LE), then each message behind a u16 LE MsgSize counting itself | [`PacketFormat::MDP3`] |
/// | [`Custom`](Framing::Custom) | comma-separated `key=value` items | composed from the parts below | [`FrameFormat`], [`PacketFormat`] |
///
/// A *packet* framing (`mdp3`, a custom one with `packet=`) has a header
/// per datagram, which only datagrams can carry: a stream (a file, a TCP
/// connection, the `bytes` `Framer`, the tokio `FrameCodec`) takes a
/// *stream* framing, and [`stream_format`](Self::stream_format) is the
/// [`FramingError`] that says so.
///
/// # The custom form
///
/// Comma-separated `key=value` items, spaces around items ignored (see
/// also [`CUSTOM_SYNTAX`]):
///
/// | item | meaning | default |
/// |---|---|---|
/// | `len=T[@OFF]` | the length field: `T` is `u16le`, `u16be`, `u32le` or `u32be`, at byte `OFF` of the frame | required; `OFF` 0 |
/// | `counts=frame\|message` | the length counts the whole frame (prefix included) or only what follows the prefix | `frame` |
/// | `enc=T[@OFF][=V[/V]]` | a u16 encoding type (`u16le` or `u16be`) at byte `OFF`, which must be `V` (or one of two) | none; `OFF` just after the length; any value |
/// | `prefix=N` | bytes before the SBE message; `0`: the length is inside the message header | the end of the last field |
/// | `align=N` | frames padded to a multiple of `N` (a power of two) | 1 |
/// | `packet=N` | a packet framing: each datagram starts with an `N`-byte header | none: a stream framing |
///
/// Numbers are decimal or `0x` hex. Examples: `sofh-le` is
/// `len=u16le,enc=u16le=0xcafe/0xeb50`, `mdp3` is `packet=12,len=u16le`,
/// B3 alone `len=u16le,enc=u16le=0xeb50`, a u32 big-endian length of the
/// message alone `len=u32be,counts=message`, a length inside the message
/// header with frames padded to 8 `len=u16le@2,prefix=0,align=8`, a 16-byte
/// packet header with 4-byte frame headers `packet=16,len=u16le,enc=u16le`.
///
/// [`Display`](fmt::Display) writes a preset's name, or the custom form
/// with its defaults left out, which parses back to the same framing.
/// Parsing and printing need no allocation.
///
/// ```
/// use sbe_framing::{Counts, FrameFormat, Framing};
///
/// let sofh_le: Framing = "len=u16le,enc=u16le=0xcafe/0xeb50".parse()?;
/// assert_eq!(sofh_le.frame_format(), Some(FrameFormat::SOFH_LE));
/// let f: Framing = " len=u32be , counts=message ".parse()?;
/// assert_eq!(f.frame_format().map(|f| (f.prefix_len, f.counts)), Some((4, Counts::Message)));
/// assert_eq!(f.to_string(), "len=u32be,counts=message");
/// assert!("packet=12,len=u16le".parse::<Framing>()?.is_packet());
/// # Ok::<(), sbe_framing::UnknownFraming>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Framing {
    /// Back to back, each message sized by its own content.
    #[default]
    Raw,
    /// Each message behind a Simple Open Framing Header
    /// ([`FrameFormat::SOFH`]).
    Sofh,
    /// Each message behind the 4-byte little-endian header of iLink 3 and
    /// B3 ([`FrameFormat::SOFH_LE`]).
    SofhLe,
    /// CME MDP3 packets ([`PacketFormat::MDP3`]).
    Mdp3,
    /// A framing composed from its parts.
    Custom {
        /// A packet framing's header length (`packet=N`), `None` for a
        /// stream framing.
        packet: Option<usize>,
        /// Each message's frame.
        frame: FrameFormat,
    },
}

/// The SOFH encoding type of SBE messages of byte order `order`:
/// [`SOFH_SBE_LE`] or [`SOFH_SBE_BE`].
///
/// ```
/// use sbe_framing::{sofh_encoding, Endian};
///
/// assert_eq!(sofh_encoding(Endian::Big), 0x5BE0);
/// ```
#[must_use]
pub const fn sofh_encoding(order: Endian) -> u16 {
    match order {
        Endian::Little => SOFH_SBE_LE,
        Endian::Big => SOFH_SBE_BE,
    }
}

impl Framing {
    /// Each message's frame: `None` for `raw`.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, Framing};
    ///
    /// assert_eq!(Framing::SofhLe.frame_format(), Some(FrameFormat::SOFH_LE));
    /// assert_eq!(Framing::Mdp3.frame_format(), Some(FrameFormat::MDP3_MESSAGE));
    /// assert_eq!(Framing::Raw.frame_format(), None);
    /// ```
    #[must_use]
    pub const fn frame_format(&self) -> Option<FrameFormat> {
        match *self {
            Framing::Raw => None,
            Framing::Sofh => Some(FrameFormat::SOFH),
            Framing::SofhLe => Some(FrameFormat::SOFH_LE),
            Framing::Mdp3 => Some(FrameFormat::MDP3_MESSAGE),
            Framing::Custom { frame, .. } => Some(frame),
        }
    }

    /// The datagram format of a packet framing (`mdp3`, custom with
    /// `packet=`), `None` for a stream framing.
    ///
    /// ```
    /// use sbe_framing::{Framing, PacketFormat};
    ///
    /// assert_eq!(Framing::Mdp3.packet_format(), Some(PacketFormat::MDP3));
    /// assert_eq!(Framing::Sofh.packet_format(), None);
    /// ```
    #[must_use]
    pub const fn packet_format(&self) -> Option<PacketFormat> {
        match *self {
            Framing::Mdp3 => Some(PacketFormat::MDP3),
            Framing::Custom {
                packet: Some(header_len),
                frame,
            } => Some(PacketFormat::new(header_len, frame)),
            _ => None,
        }
    }

    /// Whether this is a packet framing (a header per datagram), which
    /// only datagrams can carry.
    #[must_use]
    pub const fn is_packet(&self) -> bool {
        self.packet_format().is_some()
    }

    /// The frame of each message of a stream (a file, a TCP connection):
    /// `Ok(None)` for `raw`, whose messages are sized by their content; a
    /// [`FramingError::Packet`] for a packet framing, since a stream has no
    /// datagram boundaries to find the packet headers at.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, Framing, FramingError};
    ///
    /// assert_eq!(Framing::Sofh.stream_format(), Ok(Some(FrameFormat::SOFH)));
    /// assert_eq!(Framing::Raw.stream_format(), Ok(None));
    /// assert_eq!(Framing::Mdp3.stream_format(), Err(FramingError::Packet { header_len: 12 }));
    /// ```
    pub const fn stream_format(&self) -> Result<Option<FrameFormat>, FramingError> {
        match self.packet_format() {
            Some(packet) => Err(FramingError::Packet {
                header_len: packet.header_len,
            }),
            None => Ok(self.frame_format()),
        }
    }

    /// The encoding type a frame of a message of a schema of byte order
    /// `order` carries, when the framing has one: `sofh` by the byte order
    /// ([`sofh_encoding`]), the others their first expected value (or 0).
    ///
    /// ```
    /// use sbe_framing::{Endian, Framing};
    ///
    /// assert_eq!(Framing::Sofh.encoding_type(Endian::Big), Some(0x5BE0));
    /// assert_eq!(Framing::SofhLe.encoding_type(Endian::Big), Some(0xCAFE));
    /// assert_eq!(Framing::Mdp3.encoding_type(Endian::Little), None);
    /// ```
    #[must_use]
    pub const fn encoding_type(&self, order: Endian) -> Option<u16> {
        match self {
            Framing::Sofh => Some(sofh_encoding(order)),
            _ => match self.frame_format() {
                Some(format) if format.encoding.is_some() => Some(format.default_encoding_type()),
                _ => None,
            },
        }
    }

    /// The encoding types a frame of a message of a schema of byte order
    /// `order` may carry, when the framing has an encoding type: for
    /// `sofh`, only the one of that byte order (a SOFH frame of the other
    /// is framed right, but holds a message this schema cannot decode);
    /// for the others, what their format expects.
    ///
    /// ```
    /// use sbe_framing::{Endian, Expect, Framing};
    ///
    /// assert_eq!(Framing::Sofh.expected_encoding(Endian::Little), Some(Expect::Value(0xEB50)));
    /// assert_eq!(Framing::SofhLe.expected_encoding(Endian::Little), Some(Expect::Either(0xCAFE, 0xEB50)));
    /// assert_eq!(Framing::Raw.expected_encoding(Endian::Little), None);
    /// ```
    #[must_use]
    pub const fn expected_encoding(&self, order: Endian) -> Option<Expect> {
        let Some(FrameFormat {
            encoding: Some(field),
            ..
        }) = self.frame_format()
        else {
            return None;
        };
        Some(match self {
            Framing::Sofh => Expect::Value(sofh_encoding(order)),
            _ => field.expect,
        })
    }

    /// Frames `message` (one encoded message, of a schema of byte order
    /// `order`) in place for a stream: the prefix in front (its encoding
    /// type [`encoding_type`](Self::encoding_type)`(order)`), padding
    /// after; with the length inside the message header (`prefix=0`) its
    /// length field is set. `raw` leaves it as it is. Feature `alloc`.
    ///
    /// Errors, `message` left as it was: a [`FramingError::Packet`] for a
    /// packet framing; a [`FramingError::Frame`] for a message the format
    /// cannot frame ([`Error::FrameLength`]: too long for the length
    /// field, or, with `prefix=0`, too short to hold its fields).
    ///
    /// ```
    /// use sbe_framing::{Endian, Framing, FramingError};
    ///
    /// let mut message = b"abc".to_vec();
    /// Framing::SofhLe.frame_message(&mut message, Endian::Little)?;
    /// assert_eq!(message, [7, 0, 0xfe, 0xca, b'a', b'b', b'c']);
    /// let mut message = b"abc".to_vec();
    /// let padded: Framing = "len=u16be,counts=message,align=8".parse().unwrap();
    /// padded.frame_message(&mut message, Endian::Little)?;
    /// assert_eq!(message, [0, 3, b'a', b'b', b'c', 0, 0, 0]);
    /// assert_eq!(
    ///     Framing::Mdp3.frame_message(&mut message, Endian::Little),
    ///     Err(FramingError::Packet { header_len: 12 })
    /// );
    /// # Ok::<(), FramingError>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn frame_message(
        &self,
        message: &mut alloc::vec::Vec<u8>,
        order: Endian,
    ) -> Result<(), FramingError> {
        let Some(format) = self.stream_format()? else {
            return Ok(());
        };
        let len = message.len();
        let encoding = self.encoding_type(order).unwrap_or(0);
        // Every check before a byte moves: what write_header refuses.
        let length = format.length_for(len).unwrap_or(u64::MAX);
        let (_, padded) = format
            .frame_len(length, usize::MAX)
            .map_err(FramingError::Frame)?;
        format
            .check_encoding(format.encoding.map(|_| encoding))
            .map_err(FramingError::Frame)?;
        // The prefix's zeros in front, the padding's after.
        let prefix = format.prefix_len;
        message.resize(len.saturating_add(prefix), 0);
        let framed = message.len();
        message.rotate_right(prefix.min(framed));
        message.resize(padded.max(message.len()), 0);
        if let Err(e) = format.write_header(message, len, encoding) {
            message.truncate(framed);
            message.rotate_left(prefix.min(framed));
            message.truncate(len);
            return Err(FramingError::Frame(e));
        }
        Ok(())
    }
}

/// A [`Framing`] used where it cannot serve, or a message it cannot frame.
///
/// ```
/// use sbe_framing::{Framing, FramingError};
///
/// let e = Framing::Mdp3.stream_format().unwrap_err();
/// assert_eq!(e, FramingError::Packet { header_len: 12 });
/// assert_eq!(
///     e.to_string(),
///     "a packet framing (a 12-byte header per datagram) cannot frame a stream, \
///      which has no datagram boundaries"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FramingError {
    /// A packet framing (`mdp3`, a custom one with `packet=`) where a
    /// stream is split or written: a stream has no datagram boundaries,
    /// and reading it so would take every packet header for a message.
    Packet {
        /// The packet header's length.
        header_len: usize,
    },
    /// `raw` where the framing itself must size each message (a
    /// `FrameCodec`, which has no length function).
    Raw,
    /// A message the framing cannot frame (see
    /// [`FrameFormat::write_header`]).
    Frame(Error),
}

impl fmt::Display for FramingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FramingError::Packet { header_len } => write!(
                f,
                "a packet framing (a {header_len}-byte header per datagram) cannot frame a \
                 stream, which has no datagram boundaries"
            ),
            FramingError::Raw => f.write_str(
                "raw framing cannot size messages: each is sized by its content, which needs \
                 a length function",
            ),
            FramingError::Frame(e) => write!(f, "cannot frame the message: {e}"),
        }
    }
}

impl core::error::Error for FramingError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            FramingError::Frame(e) => Some(e),
            _ => None,
        }
    }
}

/// The name of a length or encoding type field's type.
const fn width_name(width: Width, order: Endian) -> &'static str {
    match (width, order) {
        (Width::U16, Endian::Little) => "u16le",
        (Width::U16, Endian::Big) => "u16be",
        (Width::U32, Endian::Little) => "u32le",
        (Width::U32, Endian::Big) => "u32be",
    }
}

impl fmt::Display for Framing {
    /// The preset's name, or the custom form (defaults left out), which
    /// parses back to the same framing.
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, Framing};
    ///
    /// assert_eq!(Framing::SofhLe.to_string(), "sofh-le");
    /// let custom = Framing::Custom { packet: Some(12), frame: FrameFormat::SOFH };
    /// assert_eq!(custom.to_string(), "packet=12,len=u32be,enc=u16be=0xeb50/0x5be0");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (packet, frame) = match *self {
            Framing::Raw => return f.write_str("raw"),
            Framing::Sofh => return f.write_str("sofh"),
            Framing::SofhLe => return f.write_str("sofh-le"),
            Framing::Mdp3 => return f.write_str("mdp3"),
            Framing::Custom { packet, frame } => (packet, frame),
        };
        if let Some(n) = packet {
            write!(f, "packet={n},")?;
        }
        let len = frame.length;
        write!(f, "len={}", width_name(len.width, len.order))?;
        if len.offset != 0 {
            write!(f, "@{}", len.offset)?;
        }
        if frame.counts == Counts::Message {
            f.write_str(",counts=message")?;
        }
        if let Some(enc) = frame.encoding {
            write!(f, ",enc={}", width_name(Width::U16, enc.order))?;
            if enc.offset != len.end() {
                write!(f, "@{}", enc.offset)?;
            }
            match enc.expect {
                Expect::Any => {}
                Expect::Value(v) => write!(f, "={v:#06x}")?,
                Expect::Either(a, b) => write!(f, "={a:#06x}/{b:#06x}")?,
            }
        }
        // A custom form without prefix= means the end of its last field.
        if frame.prefix_len != frame.header_len() {
            write!(f, ",prefix={}", frame.prefix_len)?;
        }
        if frame.align > 1 {
            write!(f, ",align={}", frame.align)?;
        }
        Ok(())
    }
}

/// An item of the custom form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CustomItem {
    /// `packet=N`.
    Packet,
    /// `len=T[@OFF]`.
    Len,
    /// `counts=frame|message`.
    Counts,
    /// `enc=T[@OFF][=V[/V]]`.
    Enc,
    /// `prefix=N`.
    Prefix,
    /// `align=N`.
    Align,
}

impl CustomItem {
    /// The item's key: `packet`, `len`, `counts`, `enc`, `prefix`, `align`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            CustomItem::Packet => "packet",
            CustomItem::Len => "len",
            CustomItem::Counts => "counts",
            CustomItem::Enc => "enc",
            CustomItem::Prefix => "prefix",
            CustomItem::Align => "align",
        }
    }

    fn from_key(key: &str) -> Option<CustomItem> {
        Some(match key {
            "packet" => CustomItem::Packet,
            "len" => CustomItem::Len,
            "counts" => CustomItem::Counts,
            "enc" => CustomItem::Enc,
            "prefix" => CustomItem::Prefix,
            "align" => CustomItem::Align,
            _ => return None,
        })
    }

    /// The field types a `len=` or `enc=` item takes, in words.
    const fn types(self) -> &'static str {
        match self {
            CustomItem::Enc => "u16le or u16be",
            _ => "u16le, u16be, u32le or u32be",
        }
    }
}

impl fmt::Display for CustomItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// What is wrong with a string that is not a [`Framing`] (see
/// [`UnknownFraming`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnknownFramingKind {
    /// Not a preset name, nor a custom form (no `=` in it).
    UnknownName,
    /// An item that is not `key=value`.
    NotKeyValue,
    /// A key that is not one of the custom form's.
    UnknownItem,
    /// An item given twice.
    Repeated(CustomItem),
    /// A field's `@OFF` that is not a number of bytes (at most 65536).
    BadOffset(CustomItem),
    /// A field's type that is not one the item takes.
    UnknownType(CustomItem),
    /// A number of bytes that is not a number, or above `max`.
    BadSize {
        /// The item.
        item: CustomItem,
        /// The largest value allowed.
        max: usize,
    },
    /// `counts=` neither `frame` nor `message`.
    BadCounts,
    /// An encoding type value that is not a u16.
    BadEncodingValue,
    /// More than two encoding type values.
    TooManyEncodingValues,
    /// No `len=` item.
    MissingLen,
    /// `align=0`.
    ZeroAlign,
    /// Parts that do not make a framing.
    Format(FormatError),
}

/// A string that is not a [`Framing`]: what is wrong, and where in the
/// string. `Copy`, no allocation.
///
/// Its [`Display`](fmt::Display) cannot quote the string, which it does not
/// hold, and says where the part at fault is; [`in_input`](Self::in_input)
/// says it with the string.
///
/// ```
/// use sbe_framing::{CustomItem, Framing, UnknownFramingKind};
///
/// let input = "len=u17le";
/// let e = input.parse::<Framing>().unwrap_err();
/// assert_eq!(e.kind(), UnknownFramingKind::UnknownType(CustomItem::Len));
/// assert_eq!(&input[e.span()], "u17le");
/// assert_eq!(
///     e.in_input(input).to_string(),
///     "bad framing \"len=u17le\": len: unknown type \"u17le\" (expected u16le, u16be, u32le or u32be)"
/// );
/// assert_eq!(
///     e.to_string(),
///     "bad framing: len: unknown type at bytes 4..9 (expected u16le, u16be, u32le or u32be)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownFraming {
    kind: UnknownFramingKind,
    start: usize,
    end: usize,
}

impl UnknownFraming {
    fn new(kind: UnknownFramingKind, span: Range<usize>) -> Self {
        UnknownFraming {
            kind,
            start: span.start,
            end: span.end,
        }
    }

    /// What is wrong.
    #[must_use]
    pub fn kind(&self) -> UnknownFramingKind {
        self.kind
    }

    /// Where in the string parsed the part at fault is, in bytes: the
    /// name, item, key or value; the whole string when the fault is the
    /// whole (an unknown name, no `len=`, parts that do not make a
    /// framing).
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The error said with `input`, the string that was parsed, quoted:
    /// `bad framing "len=u17le": len: unknown type "u17le" (...)`. A
    /// string that cannot be the one parsed (too short for the span) is
    /// left out: it says what [`Display`](fmt::Display) says.
    #[must_use]
    pub fn in_input<'a>(&self, input: &'a str) -> impl fmt::Display + 'a {
        let error = *self;
        let input = input.get(self.span()).map(|_| input);
        DisplayIn { error, input }
    }
}

/// [`UnknownFraming`] with the string that was parsed, when it is that
/// string.
struct DisplayIn<'a> {
    error: UnknownFraming,
    input: Option<&'a str>,
}

/// The part of the input at fault: quoted, or where it is.
struct Part<'a> {
    text: Option<&'a str>,
    span: Range<usize>,
    /// Before "at bytes", when the text is not there.
    noun: &'static str,
}

impl fmt::Display for Part<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text {
            Some(text) => write!(f, "{text:?}"),
            None => write!(
                f,
                "{}at bytes {}..{}",
                self.noun, self.span.start, self.span.end
            ),
        }
    }
}

impl fmt::Display for DisplayIn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use UnknownFramingKind as K;
        let span = self.error.span();
        let part = |noun| Part {
            text: self.input.and_then(|s| s.get(span.clone())),
            span: span.clone(),
            noun,
        };
        match (self.error.kind, self.input) {
            (K::UnknownName, input) => {
                f.write_str("unknown framing ")?;
                if let Some(input) = input {
                    write!(f, "{input:?} ")?;
                }
                return f.write_str(
                    "(expected raw, sofh, sofh-le, mdp3, or a custom form such as \
                     len=u16le,counts=frame)",
                );
            }
            (_, Some(input)) => write!(f, "bad framing {input:?}: ")?,
            (_, None) => f.write_str("bad framing: ")?,
        }
        match self.error.kind {
            K::UnknownName => Ok(()),
            K::NotKeyValue => write!(f, "{} is not key=value", part("the item ")),
            K::UnknownItem => write!(
                f,
                "unknown item {} (expected len, counts, enc, prefix, align, packet)",
                part("")
            ),
            K::Repeated(item) => write!(f, "{item} given twice"),
            K::BadOffset(item) => write!(f, "{item}: bad offset {} (a number of bytes)", part("")),
            K::UnknownType(item) => write!(
                f,
                "{item}: unknown type {} (expected {})",
                part(""),
                item.types()
            ),
            K::BadSize { item, max } => write!(
                f,
                "{item}: bad value {} (a number of bytes, at most {max})",
                part("")
            ),
            K::BadCounts => write!(f, "counts: {} is not frame or message", part("the value ")),
            K::BadEncodingValue => write!(f, "enc: bad value {} (0 to 0xffff)", part("")),
            K::TooManyEncodingValues => f.write_str("enc: one or two values (V or V/V)"),
            K::MissingLen => f.write_str("len= is required (e.g. len=u16le)"),
            K::ZeroAlign => f.write_str("align: 0 (1 for no padding)"),
            K::Format(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for UnknownFraming {
    /// The error without the string parsed: where the part at fault is
    /// rather than the part (see [`in_input`](Self::in_input)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DisplayIn {
            error: *self,
            input: None,
        }
        .fmt(f)
    }
}

impl core::error::Error for UnknownFraming {}

impl FromStr for Framing {
    type Err = UnknownFraming;

    /// A preset name or a custom form (see [`Framing`]).
    ///
    /// ```
    /// use sbe_framing::Framing;
    ///
    /// let f: Framing = "packet=16,len=u16le,enc=u16le=0xeb50".parse()?;
    /// assert!(f.is_packet());
    /// assert_eq!(f.to_string(), "packet=16,len=u16le,enc=u16le=0xeb50");
    /// let e = "sofh-be".parse::<Framing>().unwrap_err();
    /// assert_eq!(
    ///     e.in_input("sofh-be").to_string(),
    ///     "unknown framing \"sofh-be\" (expected raw, sofh, sofh-le, mdp3, or a custom form \
    ///      such as len=u16le,counts=frame)"
    /// );
    /// # Ok::<(), sbe_framing::UnknownFraming>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "raw" => Ok(Framing::Raw),
            "sofh" => Ok(Framing::Sofh),
            "sofh-le" => Ok(Framing::SofhLe),
            "mdp3" => Ok(Framing::Mdp3),
            _ if !s.contains('=') => Err(UnknownFraming::new(
                UnknownFramingKind::UnknownName,
                0..s.len(),
            )),
            _ => parse_custom(s),
        }
    }
}

/// A number: decimal or `0x` hex.
fn number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The custom form `input` being parsed: spans of its parts.
struct Custom<'a> {
    input: &'a str,
}

impl Custom<'_> {
    /// Where `part`, a piece of the input, is in it.
    fn span(&self, part: &str) -> Range<usize> {
        let start = (part.as_ptr() as usize)
            .saturating_sub(self.input.as_ptr() as usize)
            .min(self.input.len());
        start..start.saturating_add(part.len()).min(self.input.len())
    }

    fn error(&self, kind: UnknownFramingKind, part: &str) -> UnknownFraming {
        UnknownFraming::new(kind, self.span(part))
    }

    fn whole(&self, kind: UnknownFramingKind) -> UnknownFraming {
        UnknownFraming::new(kind, 0..self.input.len())
    }

    /// A number of bytes, at most `max`.
    fn size(&self, item: CustomItem, v: &str, max: usize) -> Result<usize, UnknownFraming> {
        number(v)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= max)
            .ok_or_else(|| self.error(UnknownFramingKind::BadSize { item, max }, v))
    }

    /// A field's type and offset, `u16le@2`; `wide`: u32 types allowed.
    fn field(
        &self,
        item: CustomItem,
        value: &str,
        wide: bool,
    ) -> Result<(Width, Endian, Option<usize>), UnknownFraming> {
        let (ty, offset) = match value.split_once('@') {
            Some((ty, off)) => {
                let off = number(off)
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|&n| n <= 1 << 16)
                    .ok_or_else(|| self.error(UnknownFramingKind::BadOffset(item), off))?;
                (ty, Some(off))
            }
            None => (value, None),
        };
        let (width, order) = match ty {
            "u16le" => (Width::U16, Endian::Little),
            "u16be" => (Width::U16, Endian::Big),
            "u32le" if wide => (Width::U32, Endian::Little),
            "u32be" if wide => (Width::U32, Endian::Big),
            _ => return Err(self.error(UnknownFramingKind::UnknownType(item), ty)),
        };
        Ok((width, order, offset))
    }

    /// `enc=`'s values: `V` or `V/V`, `None` for any.
    fn expect(&self, values: Option<&str>) -> Result<Expect, UnknownFraming> {
        let Some(values) = values else {
            return Ok(Expect::Any);
        };
        let value = |v: &str| {
            number(v)
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| self.error(UnknownFramingKind::BadEncodingValue, v))
        };
        let mut parts = values.split('/');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(v), None, _) => Ok(Expect::Value(value(v)?)),
            (Some(a), Some(b), None) => Ok(Expect::Either(value(a)?, value(b)?)),
            _ => Err(self.error(UnknownFramingKind::TooManyEncodingValues, values)),
        }
    }
}

fn parse_custom(s: &str) -> Result<Framing, UnknownFraming> {
    use UnknownFramingKind as K;
    let c = Custom { input: s };
    let mut packet = None;
    let mut len = None;
    let mut counts = None;
    let mut enc: Option<(Endian, Option<usize>, Expect)> = None;
    let mut prefix = None;
    let mut align = None;
    let mut align_part = s;
    // A bit per CustomItem given.
    let mut seen = 0u32;
    for item in s.split(',').map(str::trim) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(c.error(K::NotKeyValue, item));
        };
        let Some(which) = CustomItem::from_key(key) else {
            return Err(c.error(K::UnknownItem, key));
        };
        let bit = 1u32 << (which as u32);
        if seen & bit != 0 {
            return Err(c.error(K::Repeated(which), key));
        }
        seen |= bit;
        match which {
            CustomItem::Packet => packet = Some(c.size(which, value, 1 << 16)?),
            CustomItem::Len => {
                let (w, o, off) = c.field(which, value, true)?;
                len = Some(LengthField::new(off.unwrap_or(0), w, o));
            }
            CustomItem::Counts => {
                counts = Some(match value {
                    "frame" => Counts::Frame,
                    "message" => Counts::Message,
                    _ => return Err(c.error(K::BadCounts, value)),
                });
            }
            CustomItem::Enc => {
                let (ty, values) = match value.split_once('=') {
                    Some((ty, values)) => (ty, Some(values)),
                    None => (value, None),
                };
                let (_, order, off) = c.field(which, ty, false)?;
                enc = Some((order, off, c.expect(values)?));
            }
            CustomItem::Prefix => prefix = Some(c.size(which, value, 1 << 16)?),
            CustomItem::Align => {
                align = Some(c.size(which, value, 1 << 12)?);
                align_part = value;
            }
        }
    }
    let length = len.ok_or_else(|| c.whole(K::MissingLen))?;
    let mut frame = FrameFormat::new(0, length).with_counts(counts.unwrap_or_default());
    if let Some((order, off, expect)) = enc {
        frame = frame.with_encoding(EncodingField::new(
            off.unwrap_or(length.end()),
            order,
            expect,
        ));
    }
    frame.prefix_len = prefix.unwrap_or(frame.header_len());
    frame.align = align.unwrap_or(1);
    if frame.align == 0 {
        return Err(c.error(K::ZeroAlign, align_part));
    }
    frame.validate().map_err(|e| c.whole(K::Format(e)))?;
    Ok(Framing::Custom { packet, frame })
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn parse(s: &str) -> Framing {
        s.parse()
            .unwrap_or_else(|e: UnknownFraming| panic!("{s}: {}", e.in_input(s)))
    }

    #[test]
    fn presets_parse_and_print() {
        for (name, f) in [
            ("raw", Framing::Raw),
            ("sofh", Framing::Sofh),
            ("sofh-le", Framing::SofhLe),
            ("mdp3", Framing::Mdp3),
        ] {
            assert_eq!(parse(name), f);
            assert_eq!(f.to_string(), name);
        }
        assert!(Framing::Mdp3.is_packet());
        assert!(!Framing::SofhLe.is_packet());
        assert_eq!(Framing::default(), Framing::Raw);
    }

    #[test]
    fn custom_forms_equal_the_presets_they_spell() {
        let sofh_le = parse("len=u16le,enc=u16le=0xcafe/0xeb50");
        assert_eq!(sofh_le.frame_format(), Some(FrameFormat::SOFH_LE));
        let sofh = parse("len=u32be,enc=u16be=0xeb50/0x5be0");
        assert_eq!(sofh.frame_format(), Some(FrameFormat::SOFH));
        let mdp3 = parse("packet=12,len=u16le");
        assert_eq!(mdp3.packet_format(), Some(PacketFormat::MDP3));
        let explicit = parse("len=u16le@0,counts=frame,enc=u16le@2=0xCAFE/60240,prefix=4,align=1");
        assert_eq!(explicit, sofh_le);
    }

    #[test]
    fn custom_forms_round_trip_through_display() {
        for s in [
            "len=u16le",
            "len=u32be,counts=message",
            "len=u16le@2,prefix=0,align=8",
            "packet=16,len=u16le,enc=u16le",
            "packet=0,len=u16be,enc=u16be@4=0x5be0,prefix=8",
            "len=u32le,enc=u16le=0xcafe/0xeb50,prefix=12",
        ] {
            let f = parse(s);
            assert_eq!(f.to_string(), s);
            assert_eq!(parse(&f.to_string()), f);
        }
        let f = parse("len=u16le@2,prefix=0,align=8");
        let frame = f.frame_format().unwrap();
        assert_eq!(
            (frame.prefix_len, frame.length.offset, frame.align),
            (0, 2, 8)
        );
        let f = parse(" len=u32be , counts=message ");
        assert_eq!(f.frame_format().unwrap().counts, Counts::Message);
        assert_eq!(f.frame_format().unwrap().prefix_len, 4);
    }

    #[test]
    fn bad_forms_say_what_is_wrong() {
        use CustomItem as I;
        use UnknownFramingKind as K;
        for (s, kind, part, says) in [
            (
                "sofh-be",
                K::UnknownName,
                "sofh-be",
                "unknown framing \"sofh-be\" (expected raw, sofh, sofh-le, mdp3",
            ),
            (
                "len=u24le",
                K::UnknownType(I::Len),
                "u24le",
                "len: unknown type \"u24le\" (expected u16le, u16be, u32le or u32be)",
            ),
            (
                "len=u16le@x",
                K::BadOffset(I::Len),
                "x",
                "len: bad offset \"x\"",
            ),
            (
                "counts=frame",
                K::MissingLen,
                "counts=frame",
                "len= is required",
            ),
            (
                "len=u16le,counts=all",
                K::BadCounts,
                "all",
                "counts: \"all\" is not frame or message",
            ),
            (
                "len=u16le,enc=u32le",
                K::UnknownType(I::Enc),
                "u32le",
                "enc: unknown type \"u32le\" (expected u16le or u16be)",
            ),
            (
                "len=u16le,enc=u16le=0x10000",
                K::BadEncodingValue,
                "0x10000",
                "enc: bad value \"0x10000\"",
            ),
            (
                "len=u16le,enc=u16le=1/2/3",
                K::TooManyEncodingValues,
                "1/2/3",
                "enc: one or two values",
            ),
            (
                "len=u16le,len=u16be",
                K::Repeated(I::Len),
                "len",
                "len given twice",
            ),
            (
                "len=u16le,size=4",
                K::UnknownItem,
                "size",
                "unknown item \"size\"",
            ),
            (
                "len=u16le,align=3",
                K::Format(FormatError::Align(3)),
                "len=u16le,align=3",
                "alignment 3 is not a power of two",
            ),
            ("len=u16le,align=0", K::ZeroAlign, "0", "align: 0"),
            (
                "len=u32le,prefix=2",
                K::Format(FormatError::LengthOutsidePrefix {
                    end: 4,
                    prefix_len: 2,
                }),
                "len=u32le,prefix=2",
                "the length field ends at byte 4, past the 2-byte prefix",
            ),
            (
                "len=u16le,enc=u16le@1",
                K::Format(FormatError::FieldsOverlap),
                "len=u16le,enc=u16le@1",
                "overlap",
            ),
            (
                "len=u16le,counts=message,prefix=0",
                K::Format(FormatError::CountsMessageWithoutPrefix),
                "len=u16le,counts=message,prefix=0",
                "needs a prefix",
            ),
            (
                "len=u16le,packet=-1",
                K::BadSize {
                    item: I::Packet,
                    max: 65536,
                },
                "-1",
                "packet: bad value \"-1\"",
            ),
            (
                "len=u16le, x ",
                K::NotKeyValue,
                "x",
                "\"x\" is not key=value",
            ),
        ] {
            let e = s.parse::<Framing>().unwrap_err();
            assert_eq!(e.kind(), kind, "{s}");
            assert_eq!(&s[e.span()], part, "{s}");
            let said = e.in_input(s).to_string();
            assert!(said.contains(says), "{s}: {said}");
            if kind != K::UnknownName {
                assert!(said.starts_with(&alloc::format!("bad framing {s:?}: ")));
            }
            // Without the input: the same words, the part's place for the
            // part.
            let alone = e.to_string();
            assert!(!alone.contains(s) || s == part, "{s}: {alone}");
            let span = e.span();
            if !matches!(
                kind,
                K::UnknownName
                    | K::MissingLen
                    | K::Format(_)
                    | K::Repeated(_)
                    | K::ZeroAlign
                    | K::TooManyEncodingValues
            ) {
                assert!(
                    alone.contains(&alloc::format!("at bytes {}..{}", span.start, span.end)),
                    "{s}: {alone}"
                );
            }
            // Another string than the one parsed: said without it.
            assert_eq!(e.in_input("").to_string(), alone);
        }
        let e = "x,y".parse::<Framing>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown framing (expected raw, sofh, sofh-le, mdp3, or a custom form such as \
             len=u16le,counts=frame)"
        );
        let e = "len=u16le,counts=all".parse::<Framing>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad framing: counts: the value at bytes 17..20 is not frame or message"
        );
        let e = "len=u16le,,".parse::<Framing>().unwrap_err();
        assert_eq!(
            (e.to_string(), e.span()),
            (
                "bad framing: the item at bytes 10..10 is not key=value".to_string(),
                10..10
            )
        );
    }

    #[test]
    fn odd_inputs_never_panic_and_spans_lie_inside() {
        let mut inputs: Vec<String> = [
            "",
            "=",
            "==",
            ",",
            "len=",
            "len=@",
            "len=u16le@",
            "len=u16le@65537",
            "len=u16le,enc=",
            "len=u16le,enc=u16le=",
            "len=u16le,enc=u16le=/",
            "len=é",
            "é=1",
            "len=u16le,é",
            " , ",
            "len=u16le@+3",
            "len=u16le,prefix=+7",
            "len=u16le,align=4097",
            "len=u16le,packet=0x10001",
            "a=b=c",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        inputs.push("len=u16le,".repeat(3));
        for s in &inputs {
            match s.parse::<Framing>() {
                Ok(f) => assert_eq!(parse(&f.to_string()), f, "{s}"),
                Err(e) => {
                    assert!(s.get(e.span()).is_some(), "{s}: {:?}", e.span());
                    let _ = e.in_input(s).to_string();
                }
            }
        }
        // What `str::parse::<u64>` accepts, the offsets and sizes accept.
        assert_eq!(
            parse("len=u16le@+3,prefix=+7")
                .frame_format()
                .unwrap()
                .length
                .offset,
            3
        );
    }

    #[test]
    fn token_soup_parses_or_points_inside_and_prints_back() {
        const TOKENS: [&str; 30] = [
            "len", "enc", "counts", "prefix", "align", "packet", "=", "=", ",", ",", "@", "/",
            "u16le", "u16be", "u32le", "u32be", "frame", "message", "0", "1", "2", "4", "8", "0x",
            "ff", "65536", " ", "\u{e9}", "x", "12",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut parsed, mut refused) = (0, 0);
        for _ in 0..50_000 {
            let n = 1 + next() % 14;
            let s: String = (0..n)
                .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
                .collect();
            match s.parse::<Framing>() {
                Ok(f) => {
                    parsed += 1;
                    assert_eq!(f.to_string().parse::<Framing>(), Ok(f), "{s}");
                }
                Err(e) => {
                    refused += 1;
                    assert!(s.get(e.span()).is_some(), "{s}: {:?}", e.span());
                    assert!(!e.in_input(&s).to_string().is_empty());
                }
            }
        }
        assert!(parsed > 0 && refused > 0, "{parsed} {refused}");
    }

    #[test]
    fn stream_formats_and_encoding_types() {
        assert_eq!(Framing::Raw.stream_format(), Ok(None));
        assert_eq!(
            Framing::SofhLe.stream_format(),
            Ok(Some(FrameFormat::SOFH_LE))
        );
        assert_eq!(
            parse("packet=16,len=u16le").stream_format(),
            Err(FramingError::Packet { header_len: 16 })
        );
        assert_eq!(
            Framing::Sofh.encoding_type(Endian::Little),
            Some(SOFH_SBE_LE)
        );
        assert_eq!(Framing::Sofh.encoding_type(Endian::Big), Some(SOFH_SBE_BE));
        assert_eq!(Framing::Raw.encoding_type(Endian::Big), None);
        assert_eq!(
            parse("len=u16le,enc=u16be").encoding_type(Endian::Big),
            Some(0)
        );
        assert_eq!(
            parse("len=u16le,enc=u16be=7/8").encoding_type(Endian::Big),
            Some(7)
        );
        assert_eq!(
            Framing::Sofh.expected_encoding(Endian::Big),
            Some(Expect::Value(SOFH_SBE_BE))
        );
        assert_eq!(Framing::Mdp3.expected_encoding(Endian::Big), None);
        assert_eq!(
            parse("len=u16le,enc=u16be").expected_encoding(Endian::Big),
            Some(Expect::Any)
        );
    }

    #[test]
    fn framing_errors_say_what() {
        assert_eq!(
            FramingError::Frame(Error::frame_length(65536, 4, 65535)).to_string(),
            "cannot frame the message: frame length 65536 out of range 4..=65535"
        );
        assert!(FramingError::Raw.to_string().starts_with("raw framing"));
        assert!(core::error::Error::source(&FramingError::Raw).is_none());
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn frame_message_writes_each_stream_framing() {
        use alloc::vec;
        let order = Endian::Little;
        let cases: [(&str, &[u8]); 5] = [
            ("raw", b"abc"),
            ("sofh", b"\0\0\0\x09\xeb\x50abc"),
            ("sofh-le", b"\x07\0\xfe\xcaabc"),
            ("len=u16le,enc=u16le=0xeb50", b"\x07\0\x50\xebabc"),
            ("len=u16le@1,prefix=0,align=4", b"a\x03\0\0"),
        ];
        for (framing, want) in cases {
            let mut m = if framing.contains("prefix=0") {
                b"a\0\0".to_vec()
            } else {
                b"abc".to_vec()
            };
            parse(framing).frame_message(&mut m, order).unwrap();
            assert_eq!(m, want, "{framing}");
        }
        let mut m = b"abc".to_vec();
        Framing::Sofh.frame_message(&mut m, Endian::Big).unwrap();
        assert_eq!(&m[4..6], [0x5b, 0xe0]);
        // Too long, too short to hold its own length, a packet framing:
        // errors, the message as it was.
        let mut long = vec![7u8; 65533];
        assert_eq!(
            Framing::SofhLe.frame_message(&mut long, order),
            Err(FramingError::Frame(Error::frame_length(65537, 4, 65535)))
        );
        assert_eq!(long, vec![7u8; 65533]);
        let mut short = b"ab".to_vec();
        assert!(matches!(
            parse("len=u16le@1,prefix=0").frame_message(&mut short, order),
            Err(FramingError::Frame(e)) if matches!(e, crate::Error::FrameLength { length: 2, .. })
        ));
        assert_eq!(short, b"ab");
        assert_eq!(
            Framing::Mdp3.frame_message(&mut short, order),
            Err(FramingError::Packet { header_len: 12 })
        );
        assert_eq!(short, b"ab");
        // A SOFH the same as FrameFormat::SOFH writes.
        let mut m = vec![0u8; 62];
        Framing::Sofh.frame_message(&mut m, order).unwrap();
        assert_eq!(m[..6], [0, 0, 0, 68, 0xeb, 0x50]);
    }
}
