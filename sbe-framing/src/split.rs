//! How messages are delimited: the reading of files, TCP streams and UDP
//! datagrams by the `--framing` of `sbe decode`, `encode` and `inspect`,
//! and the framing of what `sbe encode` writes.
//!
//! # Framings
//!
//! A `--framing` is a [`Framing`]: `raw` (the default), `sofh`,
//! `sofh-le`, `mdp3`, or a custom form composed from a frame's parts
//! (`len=u16le,enc=u16le=0xcafe/0xeb50`); its parser and printer are
//! this crate's, and its syntax the
//! [`CUSTOM_SYNTAX`](crate::CUSTOM_SYNTAX) of `sbe decode --help`.
//! The splitting itself (what a length counts, its bounds, padding, where
//! the message is) is the [crate root](crate)'s: this
//! module adds the reading (files, pushed stream bytes, datagrams), the
//! errors with their input offsets and in the command's words
//! ([`framing_error`], [`FrameError`], [`EncodeFrameError`]), and one
//! policy: a frame whose encoding type is wrong but whose length frames
//! the input is a per-message error (`--keep-going` goes on after it),
//! while a wrong encoding type with a length that cannot be right means
//! the input is not framed that way at all ("not a SOFH header").
//!
//! A schema's byte order is given as an [`Endian`] (SOFH's encoding type
//! depends on it).
//!
//! # Reading
//!
//! * **Files and pipes** ([`FrameReader`]): stream framings (`raw`, `sofh`,
//!   `sofh-le`, custom without `packet=`). A packet framing on a plain
//!   file is refused ([`FrameError::PacketFraming`]): a file of SBE bytes
//!   has no datagram boundaries, and guessing them would misread every
//!   packet header as a message. Packets come from pcap/pcapng captures;
//!   a single datagram saved as a file reads with `--skip` of its header
//!   and the message framing alone (`--skip 12 --framing len=u16le` for
//!   MDP3).
//! * **UDP datagrams** ([`Datagram`]): one datagram's payload, with any
//!   framing: its packet header's fields ([`Datagram::fields`]: MDP3's
//!   `msgSeqNum` and `sendingTime`) and its messages with their offsets
//!   (an [`Iterator`] of [`Piece`]s).
//! * **TCP streams** ([`StreamSplitter`]): reassembled bytes pushed as they
//!   come, whole messages pulled (stream framings).
//!
//! With `raw` the framing cannot size a message: a [`Piece`] is every byte
//! from the message on, and the caller, having decoded it, says how many
//! bytes it took ([`Datagram::consumed`], [`StreamSplitter::consumed`]),
//! or that it needs more ([`StreamSplitter::wait`]) or failed
//! (`failed`: the place is lost). Framed pieces are the message exactly
//! (frame after its prefix, padding excluded), and `consumed` is not
//! needed.
//!
//! ```
//! use sbe_framing::split::{Datagram, StreamSplitter};
//! use sbe_framing::{Endian, Framing};
//!
//! // One MDP3 datagram: the packet header, then two messages.
//! let mut payload = vec![7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
//! payload.extend([5, 0, b'a', b'b', b'c', 4, 0, b'd', b'e']);
//! let mdp3: Framing = "mdp3".parse()?;
//! let datagram = Datagram::new(&mdp3, Endian::Little, &payload)?;
//! assert_eq!(datagram.fields(), [("msgSeqNum", 7), ("sendingTime", 1)]);
//! let messages: Vec<(u64, &[u8])> = datagram
//!     .map(|p| p.map(|p| (p.offset, p.bytes)))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(messages, [(14, &b"abc"[..]), (19, &b"de"[..])]);
//!
//! // A TCP stream of iLink 3 frames, pushed in pieces.
//! let mut stream = StreamSplitter::new(&"sofh-le".parse()?, Endian::Little)?;
//! stream.push(0, &[7, 0, 0xfe]);
//! assert!(stream.next_piece().is_none()); // not whole yet
//! stream.push(3, &[0xca, b'x', b'y', b'z']);
//! let piece = stream.next_piece().unwrap()?;
//! assert_eq!((piece.offset, piece.bytes), (4, &b"xyz"[..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Writing
//!
//! `sbe encode --framing X` frames each message with [`frame_message`]
//! ([`Framing::frame_message`]: stream framings only, the prefix
//! in front, padding after; `sofh` by the schema's byte order, `sofh-le`
//! `0xCAFE`, custom the first `enc=` value or 0).

use std::fmt;
use std::format;
use std::io::{self, Read};
use std::string::{String, ToString};
use std::vec::Vec;

use crate::framer::Framer;
use crate::Error;
use bytes::Bytes;
use std::ops::Range;

use crate::{
    Counts, EncodingField, Endian, Expect, FrameFormat, FrameHeader, Framing, FramingError,
    Mdp3PacketHeader, PacketFormat, UnknownFraming, UnknownFramingKind, SOFH_SBE_BE, SOFH_SBE_LE,
};

/// What `sbe` says of a `--framing` argument `input` that is not a
/// framing (`e`, what parsing it said): the string, and what is wrong with
/// it.
///
/// ```
/// use sbe_framing::split::framing_error;
/// use sbe_framing::Framing;
///
/// let e = "sofh-be".parse::<Framing>().unwrap_err();
/// assert_eq!(
///     framing_error("sofh-be", &e),
///     "unknown framing \"sofh-be\" (expected raw, sofh, sofh-le, mdp3, or a custom form \
///      such as len=u16le,counts=frame: see --help)"
/// );
/// let e = "len=u16le,x".parse::<Framing>().unwrap_err();
/// assert_eq!(framing_error("len=u16le,x", &e), "bad framing \"len=u16le,x\": \"x\" is not key=value");
/// ```
pub fn framing_error(input: &str, e: &UnknownFraming) -> String {
    match e.kind() {
        UnknownFramingKind::UnknownName => format!(
            "unknown framing {input:?} (expected raw, sofh, sofh-le, mdp3, or a custom form \
             such as len=u16le,counts=frame: see --help)"
        ),
        _ => e.in_input(input).to_string(),
    }
}

/// Frames `message` (one encoded message, of a schema of byte order
/// `order`) in place for a stream, as [`Framing::frame_message`] does, its
/// errors in the command's words. A packet framing, or a message too long
/// for the length field (or, with `prefix=0`, too short to hold it), is an
/// error and `message` is left as it was.
///
/// ```
/// use sbe_framing::split::frame_message;
/// use sbe_framing::{Endian, Framing};
///
/// let mut message = b"abc".to_vec();
/// frame_message(&Framing::SofhLe, &mut message, Endian::Little)?;
/// assert_eq!(message, [7, 0, 0xfe, 0xca, b'a', b'b', b'c']);
/// let e = frame_message(&Framing::Mdp3, &mut message, Endian::Little).unwrap_err();
/// assert!(e.to_string().starts_with("--framing mdp3 is a packet framing"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn frame_message(
    framing: &Framing,
    message: &mut Vec<u8>,
    order: Endian,
) -> Result<(), EncodeFrameError> {
    let len = message.len();
    framing.frame_message(message, order).map_err(|e| match e {
        FramingError::Packet { .. } => EncodeFrameError::PacketFraming {
            framing: framing.to_string(),
        },
        FramingError::Frame(Error::FrameLength { .. }) => EncodeFrameError::TooLong {
            framing: framing.to_string(),
            len,
        },
        FramingError::Frame(error) => EncodeFrameError::Frame {
            framing: framing.to_string(),
            error,
        },
        error => EncodeFrameError::Framing {
            framing: framing.to_string(),
            error,
        },
    })
}

/// A message that cannot be framed for writing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeFrameError {
    /// Packet framings need datagrams, not a stream.
    PacketFraming {
        /// The framing.
        framing: String,
    },
    /// Too long for the length field.
    TooLong {
        /// The framing.
        framing: String,
        /// The message's length.
        len: usize,
    },
    /// Anything else the framing's format refuses.
    Frame {
        /// The framing.
        framing: String,
        /// What sbe-rt said.
        error: Error,
    },
    /// Anything else the framing refuses.
    Framing {
        /// The framing.
        framing: String,
        /// What sbe-rt said.
        error: FramingError,
    },
}

/// A problem in a stream.
#[derive(Debug)]
#[non_exhaustive]
pub enum FrameError {
    /// A frame whose encoding type is wrong and whose length is right:
    /// the input goes on after the frame.
    WrongEncoding {
        /// Offset of the encoding type.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A framing header that cannot be right.
    BadFrame {
        /// Offset of the frame.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A framing header whose encoding type is not one expected and whose
    /// length cannot frame the input (below its header, above the limit,
    /// or past the end of the input): most likely the input is not framed
    /// this way at all.
    NotSofh {
        /// Offset of the would-be header.
        offset: u64,
        /// The encoding type read.
        encoding: u16,
        /// The values expected, in words.
        expected: String,
        /// The framing.
        framing: String,
    },
    /// A message larger than the reader allows (a corrupt length).
    TooLarge {
        /// Offset of the message.
        offset: u64,
        /// Bytes it claims.
        need: u64,
        /// The limit.
        max: usize,
    },
    /// A packet framing given a stream (a plain file, standard input, a
    /// TCP stream): there are no datagram boundaries to find its headers.
    PacketFraming {
        /// The framing.
        framing: String,
        /// Its packet header length.
        header_len: usize,
        /// Its message framing alone, as a custom form.
        message_framing: String,
    },
    /// Reading failed.
    Io(io::Error),
}

impl fmt::Display for EncodeFrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeFrameError::PacketFraming { framing } => write!(
                f,
                "--framing {framing} is a packet framing (a header per datagram): sbe encode \
                 writes a stream; use its message framing alone"
            ),
            EncodeFrameError::TooLong { framing, len } => {
                write!(f, "message of {len} bytes too long for --framing {framing}")
            }
            EncodeFrameError::Frame { framing, error } => write!(f, "--framing {framing}: {error}"),
            EncodeFrameError::Framing { framing, error } => {
                write!(f, "--framing {framing}: {error}")
            }
        }
    }
}

impl std::error::Error for EncodeFrameError {}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::WrongEncoding { offset, what } => {
                write!(f, "at byte {offset}: framing: {what}")
            }
            FrameError::BadFrame { offset, what } => {
                write!(f, "at byte {offset}: bad framing header: {what}")
            }
            FrameError::NotSofh {
                offset,
                encoding,
                expected,
                framing,
            } => write!(
                f,
                "at byte {offset}: not a SOFH header: encoding type {encoding:#06x} is not \
                 {expected}; is the input really --framing {framing}?"
            ),
            FrameError::TooLarge { offset, need, max } => write!(
                f,
                "at byte {offset}: message would need {need} bytes, more than the {max} allowed"
            ),
            FrameError::PacketFraming {
                framing,
                header_len,
                message_framing,
            } => write!(
                f,
                "--framing {framing} is a packet framing (a {header_len}-byte header per \
                 datagram), and this input is a stream with no datagram boundaries: give a pcap \
                 or pcapng capture (or, for one datagram saved as a file, --skip {header_len} \
                 --framing {message_framing})"
            ),
            FrameError::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

impl std::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FrameError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for FrameError {
    fn from(e: io::Error) -> Self {
        FrameError::Io(e)
    }
}

impl<E: fmt::Display> fmt::Display for ReadError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Message(e) => e.fmt(f),
            ReadError::Frame(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ReadError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Message(e) => e.source(),
            ReadError::Frame(e) => e.source(),
        }
    }
}

impl FrameError {
    /// Offset of the problem in the input, when known.
    pub fn offset(&self) -> Option<u64> {
        match self {
            FrameError::WrongEncoding { offset, .. } => Some(*offset),
            FrameError::BadFrame { offset, .. }
            | FrameError::NotSofh { offset, .. }
            | FrameError::TooLarge { offset, .. } => Some(*offset),
            FrameError::PacketFraming { .. } | FrameError::Io(_) => None,
        }
    }

    /// Whether the input can go on after this error (`--keep-going`): a
    /// frame that was whole but for its encoding type. Framing errors that
    /// lose the place cannot.
    pub fn is_recoverable(&self) -> bool {
        matches!(self, FrameError::WrongEncoding { .. })
    }

    fn packet_framing(framing: &Framing) -> FrameError {
        let header_len = framing.packet_format().map_or(0, |p| p.header_len);
        let message_framing = match framing.frame_format() {
            Some(frame) => Framing::Custom {
                packet: None,
                frame,
            }
            .to_string(),
            None => "raw".to_string(),
        };
        FrameError::PacketFraming {
            framing: framing.to_string(),
            header_len,
            message_framing,
        }
    }
}

/// One message's bytes and where they start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece<'a> {
    /// The message (with `raw`: every byte from its start on).
    pub bytes: &'a [u8],
    /// Offset of its first byte in the input (stream or datagram).
    pub offset: u64,
}

/// What one framed step over a window of bytes found.
enum Step {
    /// At least this many bytes from the window's start are needed.
    Need(usize),
    /// A whole frame: the message's range in the window, the bytes the
    /// frame takes, and its encoding problem, if any (offset in the frame,
    /// what).
    Frame {
        message: Range<usize>,
        len: usize,
        wrong_encoding: Option<(usize, String)>,
    },
    /// The place is lost.
    Fault(FrameError),
}

/// The framing rules of one framed input, and its words for errors.
#[derive(Debug, Clone)]
struct Framed {
    framing: Framing,
    format: FrameFormat,
    expected: Option<(EncodingField, Expect)>,
    max: usize,
    /// "input" or "the datagram".
    place: &'static str,
}

impl Framed {
    fn new(framing: &Framing, order: Endian, max: usize, place: &'static str) -> Option<Framed> {
        let format = framing.frame_format()?;
        Some(Framed {
            framing: *framing,
            format,
            expected: format.encoding.zip(framing.expected_encoding(order)),
            max,
            place,
        })
    }

    /// The encoding type in words, as the framing accepts it.
    fn accepted(&self) -> String {
        match (self.framing, self.format.encoding) {
            (Framing::Sofh, _) => {
                format!("SBE's ({SOFH_SBE_LE:#06x} little-endian, {SOFH_SBE_BE:#06x} big-endian)")
            }
            (_, Some(field)) => field.expect.to_string(),
            (_, None) => "any".to_string(),
        }
    }

    /// The whole frame at the start of `w` by the framing's own rule,
    /// where no encoding type is to be held against the schemas: what
    /// [`Self::step`] finds of it (the message's range, the bytes the
    /// frame takes), without telling apart what else it could be. Nearly
    /// every frame of a datagram is one.
    fn whole(&self, w: &[u8]) -> Option<(Range<usize>, usize)> {
        if self.expected.is_some() {
            return None;
        }
        let (header, message) = self.format.whole(w, self.max).ok()??;
        Some((message, header.padded_len))
    }

    /// The frame at the start of `w` (at input offset `offset`); `ended`:
    /// no byte will follow `w`.
    fn step(&self, w: &[u8], ended: bool, offset: u64) -> Step {
        let format = &self.format;
        let have = w.len();
        let need = format.header_len();
        let (Some(length), true) = (format.length.read(w), have >= need) else {
            if !ended {
                return Step::Need(need);
            }
            return Step::Fault(FrameError::BadFrame {
                offset,
                what: format!(
                    "{} ends {have} bytes into a {need}-byte framing header",
                    self.place
                ),
            });
        };
        let encoding = format.encoding.and_then(|f| f.read(w));
        let format_accepts = format.check_encoding(encoding).is_ok();
        let not_framed = |encoding: u16| FrameError::NotSofh {
            offset,
            encoding,
            expected: self.accepted(),
            framing: self.framing.to_string(),
        };
        let frame_len = format.frame_len(length, usize::MAX);
        let fault = match frame_len {
            Err(Error::FrameLength { min, .. }) => Some(FrameError::BadFrame {
                offset,
                what: match format.counts {
                    Counts::Frame => {
                        format!("message length {length} is less than the {min}-byte header")
                    }
                    Counts::Message => format!("message length {length}: below {min}"),
                },
            }),
            Err(e) => Some(FrameError::BadFrame {
                offset,
                what: e.to_string(),
            }),
            Ok((len, _)) if len > self.max => Some(FrameError::TooLarge {
                offset,
                need: len as u64,
                max: self.max,
            }),
            Ok(_) => None,
        };
        if let Some(fault) = fault {
            return Step::Fault(match encoding {
                Some(e) if !format_accepts => not_framed(e),
                _ => fault,
            });
        }
        let (frame_len, padded) = frame_len.unwrap_or_default();
        if have < padded {
            if !ended {
                return Step::Need(padded);
            }
            return Step::Fault(match encoding {
                Some(e) if !format_accepts => not_framed(e),
                _ => FrameError::BadFrame {
                    offset,
                    what: format!("frame of {padded} bytes, {} ends after {have}", self.place),
                },
            });
        }
        let header = FrameHeader {
            length,
            encoding_type: encoding,
            frame_len,
            padded_len: padded,
        };
        let wrong_encoding = match (self.expected, encoding) {
            (Some((field, expect)), Some(e)) if !expect.accepts(e) => {
                let what = match self.framing {
                    Framing::Sofh if FrameFormat::SOFH.check_encoding(Some(e)).is_ok() => format!(
                        "encoding type {e:#06x} does not match the schema's byte order ({expect})"
                    ),
                    _ => format!("encoding type {e:#06x} is not {}", self.accepted()),
                };
                Some((field.offset, what))
            }
            _ => None,
        };
        Step::Frame {
            message: format.message_range(&header),
            len: padded,
            wrong_encoding,
        }
    }
}

/// The framing error of a frame whose encoding type is wrong (its length
/// right), after which the input goes on.
fn encoding_error(at: u64, what: String) -> FrameError {
    FrameError::WrongEncoding { offset: at, what }
}

/// The name of MDP3's packet sequence number among a datagram's
/// [`Datagram::fields`] (and in the JSON `frame` object).
pub const MSG_SEQ_NUM: &str = "msgSeqNum";
/// The name of MDP3's packet sending time (nanoseconds since the epoch)
/// among a datagram's [`Datagram::fields`].
pub const SENDING_TIME: &str = "sendingTime";

/// A packet header field's value as the instant it is, for the fields
/// that are times (MDP3's [`SENDING_TIME`]: nanoseconds since the Unix
/// epoch); `None` for a count or a number. What `--values semantic`
/// writes as RFC 3339, as Parquet's timestamp column and the dissector
/// show it.
///
/// ```
/// use sbe_framing::split::{field_time, MSG_SEQ_NUM, SENDING_TIME};
///
/// let t = field_time(SENDING_TIME, 1_709_649_001_000_000_048).unwrap();
/// assert_eq!(t.to_string(), "2024-03-05T14:30:01.000000048Z");
/// assert_eq!(field_time(MSG_SEQ_NUM, 41), None);
/// ```
#[must_use]
pub fn field_time(name: &str, value: u64) -> Option<sbe_rt::Timestamp> {
    match name {
        SENDING_TIME => sbe_rt::Timestamp::from_units(value, sbe_rt::TimeUnit::Nanos).ok(),
        _ => None,
    }
}

/// The messages of one UDP datagram for a framing: the packet header's
/// fields, and the messages in order with their offsets in the datagram
/// (an `Iterator` of [`Piece`]s, ending after a framing fault). With
/// `raw`, call [`consumed`](Self::consumed) after decoding each piece.
///
/// A stream framing reads the datagram as a stream that ends with it (no
/// packet header); a packet framing's header must be there.
#[derive(Debug, Clone)]
pub struct Datagram<'a> {
    payload: &'a [u8],
    header: &'a [u8],
    /// The packet header's fields, the first `field_count` of them (an
    /// array: no allocation per datagram).
    fields: [(&'static str, u64); 2],
    field_count: usize,
    framed: Option<Framed>,
    pos: usize,
    done: bool,
}

/// A framing's rules for datagrams, worked out once for a run (its packet
/// header and its frames') and given to each datagram.
#[derive(Debug, Clone)]
pub struct DatagramFraming {
    framing: Framing,
    packet: Option<PacketFormat>,
    framed: Option<Framed>,
}

impl DatagramFraming {
    /// The datagrams of `framing`, for schemas of byte order `order`.
    pub fn new(framing: &Framing, order: Endian) -> DatagramFraming {
        DatagramFraming {
            framing: *framing,
            packet: framing.packet_format(),
            framed: Framed::new(framing, order, usize::MAX, "the datagram"),
        }
    }

    /// The datagram `payload`: a [`FrameError::BadFrame`] at 0 when it is
    /// shorter than the packet header.
    pub fn datagram<'a>(&self, payload: &'a [u8]) -> Result<Datagram<'a>, FrameError> {
        let mut fields = [("", 0); 2];
        let mut field_count = 0;
        let header = match &self.packet {
            Some(format) => {
                let packet = format.packet(payload).map_err(|_| FrameError::BadFrame {
                    offset: 0,
                    what: format!(
                        "a datagram of {} bytes is shorter than the {}-byte packet header",
                        payload.len(),
                        format.header_len,
                    ),
                })?;
                if let (Framing::Mdp3, Ok(h)) =
                    (self.framing, Mdp3PacketHeader::read(packet.header()))
                {
                    fields = [
                        (MSG_SEQ_NUM, u64::from(h.msg_seq_num)),
                        (SENDING_TIME, h.sending_time),
                    ];
                    field_count = 2;
                }
                packet.header()
            }
            None => &[][..],
        };
        Ok(Datagram {
            payload,
            header,
            fields,
            field_count,
            framed: self.framed.clone(),
            pos: header.len(),
            done: false,
        })
    }
}

impl<'a> Datagram<'a> {
    /// The datagram `payload` with `framing`, for schemas of byte order
    /// `order`: a [`FrameError::BadFrame`] at 0 when it is shorter than the
    /// packet header. (A run of many datagrams makes its
    /// [`DatagramFraming`] once.)
    pub fn new(
        framing: &Framing,
        order: Endian,
        payload: &'a [u8],
    ) -> Result<Datagram<'a>, FrameError> {
        DatagramFraming::new(framing, order).datagram(payload)
    }

    /// The packet header's bytes (empty for a stream framing).
    pub fn header(&self) -> &'a [u8] {
        self.header
    }

    /// The packet header's fields, for the JSON `frame` object: MDP3's
    /// `msgSeqNum` and `sendingTime` (nanoseconds since the epoch); none for
    /// other framings.
    pub fn fields(&self) -> &[(&'static str, u64)] {
        self.fields.get(..self.field_count).unwrap_or_default()
    }

    /// Offset in the datagram of the next message's frame.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The next message, `None` at the datagram's end, or a framing error:
    /// after a fault that loses the place there is no more; after a wrong
    /// encoding type (a [`FrameError::WrongEncoding`]) the next frame follows.
    pub fn next_piece(&mut self) -> Option<Result<Piece<'a>, FrameError>> {
        if self.done || self.pos >= self.payload.len() {
            return None;
        }
        let rest = self.payload.get(self.pos..).unwrap_or_default();
        let offset = self.pos as u64;
        let Some(framed) = &self.framed else {
            return Some(Ok(Piece {
                bytes: rest,
                offset,
            }));
        };
        if let Some((message, len)) = framed.whole(rest) {
            let start = message.start as u64;
            if let Some(bytes) = rest.get(message) {
                self.pos = self.pos.saturating_add(len);
                return Some(Ok(Piece {
                    offset: offset + start,
                    bytes,
                }));
            }
        }
        match framed.step(rest, true, offset) {
            Step::Need(_) => {
                // Not reached: a datagram has ended.
                self.done = true;
                None
            }
            Step::Fault(e) => {
                self.done = true;
                Some(Err(e))
            }
            Step::Frame {
                message,
                len,
                wrong_encoding,
            } => {
                self.pos = self.pos.saturating_add(len);
                if let Some((at, what)) = wrong_encoding {
                    return Some(Err(encoding_error(offset + at as u64, what)));
                }
                Some(Ok(Piece {
                    offset: offset + message.start as u64,
                    bytes: rest.get(message).unwrap_or_default(),
                }))
            }
        }
    }

    /// With `raw`, the last piece's message took `n` bytes: the next one
    /// starts after them. Framed pieces step by their frame (no-op).
    pub fn consumed(&mut self, n: usize) {
        if self.framed.is_none() {
            self.pos = self.pos.saturating_add(n.max(1));
        }
    }

    /// The last piece could not be decoded: with `raw` the rest of the
    /// datagram is lost (returns its length); framed ones go on (`None`).
    pub fn failed(&mut self) -> Option<usize> {
        if self.framed.is_none() {
            self.done = true;
            return Some(self.payload.len().saturating_sub(self.pos));
        }
        None
    }
}

impl<'a> Iterator for Datagram<'a> {
    type Item = Result<Piece<'a>, FrameError>;

    /// As [`next_piece`](Datagram::next_piece).
    fn next(&mut self) -> Option<Self::Item> {
        self.next_piece()
    }
}

/// Largest message a stream waits for by default (a larger claim is
/// corrupt): 64 MiB.
pub const MAX_MESSAGE: usize = 64 << 20;

/// Read at least this much at a time.
const READ_MIN: usize = 64 * 1024;

/// Splits a stream (a TCP direction's reassembled payload, a file) into
/// messages: bytes are pushed as they come ([`push`](Self::push), or read
/// straight in with [`read_from`](Self::read_from)), whole messages pulled
/// with [`next_piece`](Self::next_piece). One buffer, a [`Framer`]'s,
/// holding at most a message and what follows it, so memory stays flat;
/// a framed piece is split off it without a copy.
///
/// Stream framings only: a packet framing is refused by
/// [`new`](Self::new). After a fault that loses the place
/// ([`FrameError::is_recoverable`] false) no piece comes until bytes are
/// pushed again: the next push starts the stream over at its offset (for
/// TCP: at the next segment), or [`reset`](Self::reset).
#[derive(Debug)]
pub struct StreamSplitter {
    framed: Option<Framed>,
    /// The bytes pending: a [`Framer`]'s buffer, so that a frame split off
    /// is shared, not copied.
    buf: Framer,
    /// The last frame handed out (as a [`Piece`]).
    last: Bytes,
    /// Stream offset of the first pending byte.
    offset: u64,
    /// Bytes wanted from the first pending one before trying again.
    want: usize,
    /// After a fault: nothing until the next push.
    lost: bool,
    /// No more bytes will come.
    ended: bool,
    max_message: usize,
}

impl StreamSplitter {
    /// An empty stream of `framing` for schemas of byte order `order`,
    /// messages of at most [`MAX_MESSAGE`] bytes; a packet framing is a
    /// [`FrameError::PacketFraming`].
    pub fn new(framing: &Framing, order: Endian) -> Result<StreamSplitter, FrameError> {
        if framing.is_packet() {
            return Err(FrameError::packet_framing(framing));
        }
        Ok(StreamSplitter {
            framed: Framed::new(framing, order, MAX_MESSAGE, "input"),
            buf: Framer::new(),
            last: Bytes::new(),
            offset: 0,
            want: 1,
            lost: false,
            ended: false,
            max_message: MAX_MESSAGE,
        })
    }

    /// The largest message accepted (default [`MAX_MESSAGE`]).
    pub fn max_message(mut self, max: usize) -> Self {
        self.max_message = max;
        if let Some(f) = &mut self.framed {
            f.max = max;
        }
        self
    }

    /// Bytes buffered that are no whole message yet.
    pub fn pending(&self) -> usize {
        self.buf.buffered()
    }

    /// Bytes wanted (from the first pending one) before a piece can come.
    pub fn wanted(&self) -> usize {
        self.want
    }

    /// Stream offset of the first pending byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Drops what is pending; the stream goes on at stream offset `at`.
    /// Returns the bytes dropped.
    pub fn reset(&mut self, at: u64) -> usize {
        let n = self.pending();
        self.buf.clear();
        self.offset = at;
        self.want = 1;
        self.lost = false;
        self.ended = false;
        n
    }

    /// Drops up to `n` pending bytes (a file header); returns how many.
    pub fn discard(&mut self, n: usize) -> usize {
        let n = self.buf.skip(n);
        self.offset += n as u64;
        n
    }

    /// Bytes that follow what is pending, at stream offset `at` (after a
    /// fault, or with nothing pending, the stream starts over at `at`).
    pub fn push(&mut self, at: u64, bytes: &[u8]) {
        if self.lost || self.pending() == 0 {
            self.reset(at);
        }
        // The buffer's space is reclaimed in place only when no frame
        // handed out still shares it.
        self.last = Bytes::new();
        self.buf.push(bytes);
    }

    /// Reads once from `reader` straight into the buffer (at least
    /// `READ_MIN` bytes asked for, more to reach what is wanted); `Ok(0)` at
    /// its end.
    pub fn read_from<R: Read + ?Sized>(&mut self, reader: &mut R) -> io::Result<usize> {
        let missing = self.want.saturating_sub(self.pending());
        self.last = Bytes::new();
        self.buf.read_from(reader, missing.max(READ_MIN))
    }

    /// No more bytes will come: from now on a frame cut short is an error
    /// rather than a wait (and `raw` hands its last bytes over as they
    /// are, for the decoder to report).
    pub fn finish(&mut self) {
        self.ended = true;
    }

    /// The next whole message, `None` when more bytes are needed (or after
    /// a fault, until the next push), or a framing error: one that loses
    /// the place drops what is pending; a wrong encoding type
    /// ([`FrameError::WrongEncoding`]) skips its frame.
    pub fn next_piece(&mut self) -> Option<Result<Piece<'_>, FrameError>> {
        let have = self.pending();
        if self.lost || have == 0 || (have < self.want && !self.ended) {
            return None;
        }
        let offset = self.offset;
        let step = match &self.framed {
            Some(framed) => framed.step(self.buf.pending(), self.ended, offset),
            None => {
                return Some(Ok(Piece {
                    bytes: self.buf.pending(),
                    offset,
                }))
            }
        };
        match step {
            Step::Need(n) => {
                self.want = n;
                None
            }
            Step::Fault(e) => {
                self.lose();
                Some(Err(e))
            }
            Step::Frame {
                message,
                len,
                wrong_encoding,
            } => {
                self.last = self.buf.take(len);
                self.offset += len as u64;
                self.want = 1;
                if let Some((at, what)) = wrong_encoding {
                    return Some(Err(encoding_error(offset + at as u64, what)));
                }
                Some(Ok(Piece {
                    offset: offset + message.start as u64,
                    bytes: self.last.get(message).unwrap_or_default(),
                }))
            }
        }
    }

    /// With `raw`, the last piece's message took `n` bytes. Framed pieces
    /// step by their frame (no-op).
    pub fn consumed(&mut self, n: usize) {
        if self.framed.is_none() {
            self.discard(n.max(1));
            self.want = 1;
        }
    }

    /// With `raw`, the last piece needs `need` bytes from its start
    /// (truncated): wait for them. More than the largest message is a
    /// [`FrameError::TooLarge`].
    pub fn wait(&mut self, need: Option<u64>) -> Result<(), FrameError> {
        let need = need.unwrap_or(0).max(self.pending() as u64 + 1);
        if need > self.max_message as u64 {
            return Err(FrameError::TooLarge {
                offset: self.offset,
                need,
                max: self.max_message,
            });
        }
        self.want = need as usize;
        Ok(())
    }

    /// The last piece could not be decoded: with `raw` the place is lost
    /// (what is pending is dropped until the next push; returns the bytes
    /// dropped); framed ones go on after the frame (`None`).
    pub fn failed(&mut self) -> Option<usize> {
        if self.framed.is_none() {
            return Some(self.lose());
        }
        None
    }

    fn lose(&mut self) -> usize {
        let n = self.pending();
        self.offset += n as u64;
        self.buf.clear();
        self.lost = true;
        n
    }
}

/// What a [`FrameReader`]'s message function may fail with: with `raw`,
/// a message cut short by the end of what is buffered is read again once
/// more bytes are in.
pub trait MessageError {
    /// `Some(need)` when the message runs past the bytes it was given,
    /// `need` being the bytes it needs from its start where known; `None`
    /// for any other failure.
    fn truncated(&self) -> Option<Option<u64>>;
}

/// What [`FrameReader::next_message`] fails with: the message function's
/// error, or the framing's.
#[derive(Debug)]
pub enum ReadError<E> {
    /// The message function failed on a whole frame.
    Message(E),
    /// The framing, or the reading, failed.
    Frame(FrameError),
}

/// Reads messages one at a time from a file or pipe, through one buffer
/// that holds at most a message (plus read-ahead): a [`StreamSplitter`]
/// fed from a [`Read`].
pub struct FrameReader<R> {
    reader: R,
    split: Result<StreamSplitter, Option<FrameError>>,
    raw: bool,
    stopped: bool,
}

impl<R: Read> FrameReader<R> {
    /// A reader of `framing` messages of a schema of byte order `order`. A
    /// packet framing gives its [`FrameError::PacketFraming`] at the first
    /// [`next_message`](Self::next_message).
    pub fn new(reader: R, framing: Framing, order: Endian) -> Self {
        FrameReader {
            reader,
            split: StreamSplitter::new(&framing, order).map_err(Some),
            raw: framing == Framing::Raw,
            stopped: false,
        }
    }

    /// The largest message accepted (default 64 MiB); a larger claim is
    /// taken for corrupt input.
    pub fn max_message(mut self, max: usize) -> Self {
        self.split = self.split.map(|s| s.max_message(max));
        self
    }

    /// Skip `n` bytes (a file header) before the first message.
    pub fn skip(&mut self, mut n: u64) -> io::Result<()> {
        let Ok(split) = &mut self.split else {
            return Ok(());
        };
        while n > 0 {
            if split.pending() == 0 && split.read_from(&mut self.reader)? == 0 {
                break;
            }
            n -= split.discard(usize::try_from(n).unwrap_or(usize::MAX)) as u64;
        }
        Ok(())
    }

    /// Offset in the input of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.split.as_ref().map_or(0, StreamSplitter::offset)
    }

    /// The next message: `f` gets the message's bytes (for `raw`, all the
    /// bytes buffered from its start) and its input offset, and returns
    /// the bytes it took and a result. `None` at the end of the input, or
    /// after an error the framing cannot recover from (`raw`: any error).
    pub fn next_message<T, E: MessageError>(
        &mut self,
        mut f: impl FnMut(&[u8], u64) -> Result<(usize, T), E>,
    ) -> Option<Result<T, ReadError<E>>> {
        if self.stopped {
            return None;
        }
        let split = match &mut self.split {
            Ok(split) => split,
            Err(e) => {
                self.stopped = true;
                return e.take().map(|e| Err(ReadError::Frame(e)));
            }
        };
        loop {
            if !split.ended && split.pending() < split.wanted() {
                match split.read_from(&mut self.reader) {
                    Ok(0) => split.finish(),
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.stopped = true;
                        return Some(Err(ReadError::Frame(FrameError::Io(e))));
                    }
                }
                continue;
            }
            let ended = split.ended;
            match split.next_piece() {
                None => {}
                Some(Err(e)) => {
                    if self.raw || !e.is_recoverable() {
                        self.stopped = true;
                    }
                    return Some(Err(ReadError::Frame(e)));
                }
                Some(Ok(piece)) => {
                    match f(piece.bytes, piece.offset) {
                        Ok((n, t)) => {
                            split.consumed(n);
                            return Some(Ok(t));
                        }
                        Err(e) => match e.truncated() {
                            Some(need) if self.raw && !ended => {
                                if let Err(e) = split.wait(need) {
                                    self.stopped = true;
                                    return Some(Err(ReadError::Frame(e)));
                                }
                            }
                            _ => {
                                if self.raw {
                                    self.stopped = true;
                                }
                                return Some(Err(ReadError::Message(e)));
                            }
                        },
                    }
                    continue;
                }
            }
            if ended || split.lost {
                return None;
            }
            // Wanted more: read on.
            if split.pending() >= split.wanted() {
                split.want = split.pending() + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    /// A message function's error in tests: never a wait for more bytes.
    #[derive(Debug)]
    struct Failed;

    impl MessageError for Failed {
        fn truncated(&self) -> Option<Option<u64>> {
            None
        }
    }

    impl fmt::Display for Failed {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("failed")
        }
    }

    fn parse(s: &str) -> Framing {
        s.parse()
            .unwrap_or_else(|e| panic!("{}", framing_error(s, &e)))
    }

    #[test]
    fn the_whole_frame_is_what_step_finds() {
        // Windows of 0 to 40 bytes, few distinct byte values (so that
        // lengths are often in range), for framings with and without an
        // encoding type, counting the frame or the message, padded, and a
        // small largest frame: where the quick reading takes a frame,
        // `step` takes the same one.
        let framings = [
            Framing::Mdp3,
            Framing::Sofh,
            Framing::SofhLe,
            parse("len=u16le,counts=frame"),
            parse("len=u32be,counts=message"),
            parse("len=u16le@2,counts=frame,align=8"),
            parse("len=u16be,enc=u16be@2,counts=frame"),
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut taken = 0;
        for framing in &framings {
            for max in [usize::MAX, 24] {
                for order in [Endian::Little, Endian::Big] {
                    let Some(framed) = Framed::new(framing, order, max, "the datagram") else {
                        continue;
                    };
                    for _ in 0..10_000 {
                        let len = (next() % 41) as usize;
                        let w: Vec<u8> = (0..len)
                            .map(|_| {
                                [0, 1, 2, 4, 8, 12, 16, 0xeb, 0x50, 0xfe][(next() % 10) as usize]
                            })
                            .collect();
                        let Some((message, frame)) = framed.whole(&w) else {
                            continue;
                        };
                        taken += 1;
                        match framed.step(&w, true, 0) {
                            Step::Frame {
                                message: m,
                                len,
                                wrong_encoding: None,
                            } if m == message && len == frame => {}
                            _ => panic!("{framing:?} {w:?}: step finds otherwise"),
                        }
                    }
                }
            }
        }
        assert!(taken > 3000, "the quick reading took {taken} frames");
    }

    #[test]
    fn bad_framings_are_said_as_the_command_says_them() {
        for (s, said) in [
            (
                "sofh-be",
                "unknown framing \"sofh-be\" (expected raw, sofh, sofh-le, mdp3, or a custom form \
                 such as len=u16le,counts=frame: see --help)",
            ),
            (
                "",
                "unknown framing \"\" (expected raw, sofh, sofh-le, mdp3, or a custom form such \
                 as len=u16le,counts=frame: see --help)",
            ),
            (
                "len=u24le",
                "bad framing \"len=u24le\": len: unknown type \"u24le\" (expected u16le, u16be, \
                 u32le or u32be)",
            ),
            (
                "len=u16le@x",
                "bad framing \"len=u16le@x\": len: bad offset \"x\" (a number of bytes)",
            ),
            (
                "counts=frame",
                "bad framing \"counts=frame\": len= is required (e.g. len=u16le)",
            ),
            (
                "len=u16le,counts=all",
                "bad framing \"len=u16le,counts=all\": counts: \"all\" is not frame or message",
            ),
            (
                "len=u16le,enc=u16le=1/",
                "bad framing \"len=u16le,enc=u16le=1/\": enc: bad value \"\" (0 to 0xffff)",
            ),
            (
                "len=u16le,enc=u16le=1/2/3",
                "bad framing \"len=u16le,enc=u16le=1/2/3\": enc: one or two values (V or V/V)",
            ),
            (
                "len=u16le,counts=frame,counts=frame",
                "bad framing \"len=u16le,counts=frame,counts=frame\": counts given twice",
            ),
            (
                "len=u16le,é=1",
                "bad framing \"len=u16le,é=1\": unknown item \"é\" (expected len, counts, enc, \
                 prefix, align, packet)",
            ),
            (
                "len=u16le,align=4097",
                "bad framing \"len=u16le,align=4097\": align: bad value \"4097\" (a number of \
                 bytes, at most 4096)",
            ),
            (
                "len=u16le,align=0",
                "bad framing \"len=u16le,align=0\": align: 0 (1 for no padding)",
            ),
            (
                "len=u32le,prefix=2",
                "bad framing \"len=u32le,prefix=2\": the length field ends at byte 4, past the \
                 2-byte prefix (a length inside the message header needs prefix 0)",
            ),
            (
                ",len=u16le",
                "bad framing \",len=u16le\": \"\" is not key=value",
            ),
        ] {
            let e = s.parse::<Framing>().unwrap_err();
            assert_eq!(framing_error(s, &e), said, "{s}");
        }
    }

    #[test]
    fn frame_message_says_what_it_cannot_frame() {
        let order = Endian::Little;
        let mut m = b"abc".to_vec();
        frame_message(&Framing::Sofh, &mut m, Endian::Big).unwrap();
        assert_eq!(m, b"\0\0\0\x09\x5b\xe0abc");
        let mut m = b"abc".to_vec();
        frame_message(&Framing::Raw, &mut m, order).unwrap();
        assert_eq!(m, b"abc");
        let mut long = vec![0u8; 65533];
        let e = frame_message(&Framing::SofhLe, &mut long, order).unwrap_err();
        assert_eq!(
            e.to_string(),
            "message of 65533 bytes too long for --framing sofh-le"
        );
        assert_eq!(long.len(), 65533);
        // Too short to hold its own length field: said "too long", as ever.
        let mut short = b"a".to_vec();
        let e = frame_message(&parse("len=u16le@1,prefix=0"), &mut short, order).unwrap_err();
        assert_eq!(
            e.to_string(),
            "message of 1 bytes too long for --framing len=u16le@1,prefix=0"
        );
        let e = frame_message(&Framing::Mdp3, &mut long, order).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--framing mdp3 is a packet framing (a header per datagram): sbe encode writes a \
             stream; use its message framing alone"
        );
    }

    /// A datagram of `header` then `frames`.
    fn concat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn mdp3_datagram_fields_and_pieces() {
        let payload = concat(&[
            &[1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
            &[4, 0, b'a', b'b'],
            &[3, 0, b'c'],
        ]);
        let mut d = Datagram::new(&Framing::Mdp3, Endian::Little, &payload).unwrap();
        assert_eq!(d.fields(), [("msgSeqNum", 1), ("sendingTime", 2)]);
        assert_eq!(d.header(), &payload[..12]);
        assert_eq!(d.offset(), 12);
        let a = d.next_piece().unwrap().unwrap();
        assert_eq!((a.offset, a.bytes), (14, &b"ab"[..]));
        d.consumed(1); // no-op for framed pieces
        let b = d.next().unwrap().unwrap();
        assert_eq!((b.offset, b.bytes), (18, &b"c"[..]));
        assert!(d.next().is_none());
        assert_eq!(d.failed(), None);

        // Shorter than its header; a MsgSize longer than the datagram.
        let e = Datagram::new(&Framing::Mdp3, Endian::Little, &payload[..5]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("at byte 0: bad framing header: a datagram of 5 bytes"),
            "{e}"
        );
        let mut lying = payload.clone();
        lying[16] = 9;
        let d = Datagram::new(&Framing::Mdp3, Endian::Little, &lying).unwrap();
        let got: Vec<_> = d.collect();
        assert_eq!(got.len(), 2);
        let e = got[1].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 16: bad framing header: frame of 9 bytes, the datagram ends after 3"
        );
        lying[16] = 1;
        let e = Datagram::new(&Framing::Mdp3, Endian::Little, &lying)
            .unwrap()
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("message length 1 is less than the 2-byte header"),
            "{e}"
        );
    }

    #[test]
    fn raw_and_stream_framings_in_datagrams() {
        let payload = b"abcdef";
        let mut d = Datagram::new(&Framing::Raw, Endian::Little, payload).unwrap();
        assert!(d.fields().is_empty());
        assert_eq!(d.next_piece().unwrap().unwrap().bytes, b"abcdef");
        d.consumed(2);
        assert_eq!(
            d.next_piece().unwrap().unwrap(),
            Piece {
                bytes: b"cdef",
                offset: 2
            }
        );
        assert_eq!(d.failed(), Some(4));
        assert!(d.next_piece().is_none());

        // sofh-le frames in a datagram, the last cut.
        let payload = concat(&[&[5, 0, 0xfe, 0xca, 1], &[6, 0, 0x50, 0xeb, 2]]);
        let got: Vec<_> = Datagram::new(&Framing::SofhLe, Endian::Little, &payload)
            .unwrap()
            .collect();
        assert_eq!(
            got[0].as_ref().unwrap(),
            &Piece {
                bytes: &[1],
                offset: 4
            }
        );
        let e = got[1].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 5: bad framing header: frame of 6 bytes, the datagram ends after 5"
        );
        // A custom packet framing: no typed fields, the header's bytes.
        let f = parse("packet=4,len=u16be,counts=message,align=4");
        let payload = concat(&[b"HDR!", &[0, 1, 7, 0], &[0, 2, 8, 9]]);
        let d = Datagram::new(&f, Endian::Little, &payload).unwrap();
        assert_eq!((d.header(), d.fields()), (&b"HDR!"[..], &[][..]));
        let got: Vec<_> = d.map(Result::unwrap).collect();
        assert_eq!(
            got,
            [
                Piece {
                    bytes: &[7],
                    offset: 6
                },
                Piece {
                    bytes: &[8, 9],
                    offset: 10
                }
            ]
        );
    }

    fn sofh(len: u32, enc: u16, body: &[u8]) -> Vec<u8> {
        let mut v = len.to_be_bytes().to_vec();
        v.extend(enc.to_be_bytes());
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn encoding_types_wrong_but_framed_go_on() {
        // sofh: 0x5be0 with a little-endian schema, 0xcafe, then a good one.
        let payload = concat(&[
            &sofh(7, 0x5be0, b"a"),
            &sofh(7, 0xcafe, b"b"),
            &sofh(7, 0xeb50, b"c"),
        ]);
        let got: Vec<_> = Datagram::new(&Framing::Sofh, Endian::Little, &payload)
            .unwrap()
            .collect();
        assert_eq!(got.len(), 3);
        let e0 = got[0].as_ref().unwrap_err();
        assert!(e0.is_recoverable());
        assert_eq!(
            e0.to_string(),
            "at byte 4: framing: encoding type 0x5be0 does not match the schema's byte order (0xeb50)"
        );
        assert_eq!(
            got[1].as_ref().unwrap_err().to_string(),
            "at byte 11: framing: encoding type 0xcafe is not SBE's (0xeb50 little-endian, 0x5be0 big-endian)"
        );
        assert_eq!(got[2].as_ref().unwrap().bytes, b"c");
        // sofh-le: neither 0xcafe nor 0xeb50, with a length that cannot be.
        let e = Datagram::new(&Framing::SofhLe, Endian::Little, &[2, 0, 1, 1])
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 0: not a SOFH header: encoding type 0x0101 is not 0xcafe or 0xeb50; is the input really --framing sofh-le?"
        );
        assert!(!e.is_recoverable());
    }

    #[test]
    fn stream_splitter_in_pieces() {
        let frames: Vec<Vec<u8>> = (0..10u8)
            .map(|i| {
                let mut m = vec![i; 1 + usize::from(i)];
                frame_message(&Framing::SofhLe, &mut m, Endian::Little).unwrap();
                m
            })
            .collect();
        let all = frames.concat();
        for chunk in [1, 2, 3, 5, 64] {
            let mut s = StreamSplitter::new(&Framing::SofhLe, Endian::Little).unwrap();
            let mut got = Vec::new();
            for (i, piece) in all.chunks(chunk).enumerate() {
                s.push((i * chunk) as u64, piece);
                while let Some(p) = s.next_piece() {
                    let p = p.unwrap();
                    got.push((p.offset, p.bytes.to_vec()));
                }
            }
            assert_eq!(got.len(), 10, "chunks of {chunk}");
            let mut at = 0;
            for (i, (offset, bytes)) in got.iter().enumerate() {
                assert_eq!(*offset, at + 4);
                assert_eq!(bytes, &vec![i as u8; i + 1]);
                at += 5 + i as u64;
            }
            assert_eq!(s.pending(), 0);
            assert_eq!(s.offset(), all.len() as u64);
        }
    }

    #[test]
    fn stream_splitter_faults_and_start_over() {
        let mut s = StreamSplitter::new(&Framing::Sofh, Endian::Little).unwrap();
        s.push(100, &sofh(2, 0xeb50, b"zz"));
        let e = s.next_piece().unwrap().unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 100: bad framing header: message length 2 is less than the 6-byte header"
        );
        assert!(s.next_piece().is_none());
        s.push(200, &sofh(7, 0xeb50, b"k"));
        let p = s.next_piece().unwrap().unwrap();
        assert_eq!((p.offset, p.bytes), (206, &b"k"[..]));
        // A cut frame at the end of the stream.
        s.push(207, &sofh(9, 0xeb50, b"a"));
        assert!(s.next_piece().is_none());
        s.finish();
        let e = s.next_piece().unwrap().unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 207: bad framing header: frame of 9 bytes, input ends after 7"
        );
        assert!(StreamSplitter::new(&Framing::Mdp3, Endian::Little).is_err());
        // Too large for the limit.
        let mut s = StreamSplitter::new(&Framing::Sofh, Endian::Little)
            .unwrap()
            .max_message(100);
        s.push(0, &sofh(101, 0xeb50, b""));
        let e = s.next_piece().unwrap().unwrap_err();
        assert!(
            matches!(
                e,
                FrameError::TooLarge {
                    need: 101,
                    max: 100,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn raw_stream_waits_for_more() {
        let mut s = StreamSplitter::new(&Framing::Raw, Endian::Little).unwrap();
        s.push(0, b"abcd");
        assert_eq!(s.next_piece().unwrap().unwrap().bytes, b"abcd");
        s.wait(Some(6)).unwrap();
        assert!(s.next_piece().is_none());
        s.push(4, b"ef");
        assert_eq!(s.next_piece().unwrap().unwrap().bytes, b"abcdef");
        s.consumed(6);
        assert!(s.next_piece().is_none());
        assert!(s.wait(Some(u64::MAX)).is_err());
        s.push(6, b"gh");
        assert_eq!(s.failed(), Some(2));
        assert!(s.next_piece().is_none());
    }

    #[test]
    fn frame_reader_refuses_packet_framings_on_a_stream() {
        let mut r = FrameReader::new(&b"abc"[..], Framing::Mdp3, Endian::Little);
        let e = r
            .next_message(|b, _| Ok::<_, Failed>((b.len(), ())))
            .unwrap()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--framing mdp3 is a packet framing (a 12-byte header per datagram), and this input \
             is a stream with no datagram boundaries: give a pcap or pcapng capture (or, for one \
             datagram saved as a file, --skip 12 --framing len=u16le)"
        );
        assert!(r
            .next_message(|b, _| Ok::<_, Failed>((b.len(), ())))
            .is_none());
    }

    #[test]
    fn frame_reader_reads_padded_custom_frames_in_small_reads() {
        /// A reader handing out at most 3 bytes at a time.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(3).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let f = parse("len=u16le@2,prefix=0,align=8");
        let mut stream = Vec::new();
        for i in 0..5u8 {
            let mut m = vec![i; 4 + usize::from(i) * 3];
            frame_message(&f, &mut m, Endian::Little).unwrap();
            stream.extend(m);
        }
        let mut r = FrameReader::new(Trickle(&stream), f, Endian::Little);
        r.skip(0).unwrap();
        let mut got = Vec::new();
        while let Some(m) = r.next_message(|b, at| Ok::<_, Failed>((b.len(), (at, b.len())))) {
            got.push(m.unwrap());
        }
        assert_eq!(got, [(0, 4), (8, 7), (16, 10), (32, 13), (48, 16)]);
        assert_eq!(r.offset(), stream.len() as u64);
    }
}
