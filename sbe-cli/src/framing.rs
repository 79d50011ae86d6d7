//! Splitting a byte stream into messages: `raw` (back to back, each sized
//! by its own header, groups and var data) or `sofh` (each behind a Simple
//! Open Framing Header). Reads with one reusable buffer, so memory stays
//! flat on input of any size.

use std::io::{self, Read};
use std::str::FromStr;

use sbe_build::ir::ByteOrder;

use crate::otf::decode::DecodeError;

/// Bytes of a Simple Open Framing Header, and the SOFH encoding types of
/// SBE 1.0 little-endian (`0xEB50`) and big-endian (`0x5BE0`): sbe-rt's.
pub use sbe_rt::sofh::{SOFH_LEN, SOFH_SBE_BE, SOFH_SBE_LE};

/// How messages follow one another in a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framing {
    /// Back to back, each sized by its own content.
    #[default]
    Raw,
    /// Each behind a Simple Open Framing Header.
    Sofh,
}

/// A framing name that is neither `raw` nor `sofh`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown framing {0:?} (expected raw or sofh)")]
pub struct UnknownFraming(pub String);

impl FromStr for Framing {
    type Err = UnknownFraming;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "raw" => Ok(Framing::Raw),
            "sofh" => Ok(Framing::Sofh),
            _ => Err(UnknownFraming(s.to_string())),
        }
    }
}

/// The SOFH encoding type for a schema's byte order.
pub fn sofh_encoding(order: ByteOrder) -> u16 {
    match order {
        ByteOrder::Little => SOFH_SBE_LE,
        ByteOrder::Big => SOFH_SBE_BE,
    }
}

/// The SOFH for a message of `message_len` bytes, or `None` when the frame
/// would not fit its 32-bit length.
pub fn sofh_header(message_len: usize, order: ByteOrder) -> Option<[u8; SOFH_LEN]> {
    let total = u32::try_from(message_len.checked_add(SOFH_LEN)?).ok()?;
    let l = total.to_be_bytes();
    let e = sofh_encoding(order).to_be_bytes();
    Some([l[0], l[1], l[2], l[3], e[0], e[1]])
}

/// A problem in a stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// A message could not be decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A framing header that cannot be right.
    #[error("at byte {offset}: bad framing header: {what}")]
    BadFrame {
        /// Offset of the frame.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A SOFH whose encoding type is not SBE's and whose length cannot
    /// frame the stream (below 6, above the limit, or past the end of the
    /// input): most likely the input is not SOFH-framed at all.
    #[error(
        "at byte {offset}: not a SOFH header: encoding type {encoding:#06x} is not SBE's \
         ({SOFH_SBE_LE:#06x} little-endian, {SOFH_SBE_BE:#06x} big-endian); \
         is the input really --framing sofh?"
    )]
    NotSofh {
        /// Offset of the would-be header.
        offset: u64,
        /// The encoding type read.
        encoding: u16,
    },
    /// A message larger than the reader allows (a corrupt length).
    #[error("at byte {offset}: message would need {need} bytes, more than the {max} allowed")]
    TooLarge {
        /// Offset of the message.
        offset: u64,
        /// Bytes it claims.
        need: u64,
        /// The limit.
        max: usize,
    },
    /// Reading failed.
    #[error("read error: {0}")]
    Io(#[from] io::Error),
}

impl FrameError {
    /// Offset of the problem in the input, when known.
    pub fn offset(&self) -> Option<u64> {
        match self {
            FrameError::Decode(e) => Some(e.offset),
            FrameError::BadFrame { offset, .. }
            | FrameError::NotSofh { offset, .. }
            | FrameError::TooLarge { offset, .. } => Some(*offset),
            FrameError::Io(_) => None,
        }
    }
}

/// Reads messages one at a time from a stream, through one buffer that
/// holds at most a message (plus read-ahead).
pub struct FrameReader<R> {
    reader: R,
    framing: Framing,
    order: ByteOrder,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Input offset of `buf[start]`.
    offset: u64,
    eof: bool,
    stopped: bool,
    max_message: usize,
}

const CHUNK: usize = 1 << 20;
/// Read at least this much at a time.
const READ_MIN: usize = 64 * 1024;

impl<R: Read> FrameReader<R> {
    /// A reader of `framing` messages of a schema of byte order `order`.
    pub fn new(reader: R, framing: Framing, order: ByteOrder) -> Self {
        FrameReader {
            reader,
            framing,
            order,
            buf: Vec::new(),
            start: 0,
            end: 0,
            offset: 0,
            eof: false,
            stopped: false,
            max_message: 64 << 20,
        }
    }

    /// The largest message accepted (default 64 MiB); a larger claim is
    /// taken for corrupt input.
    pub fn max_message(mut self, max: usize) -> Self {
        self.max_message = max;
        self
    }

    /// Skip `n` bytes (a file header) before the first message.
    pub fn skip(&mut self, mut n: u64) -> io::Result<()> {
        while n > 0 {
            if self.start == self.end && !self.fill(1)? {
                break;
            }
            let take = n.min((self.end - self.start) as u64);
            self.start += take as usize;
            self.offset += take;
            n -= take;
        }
        Ok(())
    }

    /// Offset in the input of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Make `need` bytes available from `start` if the input has them;
    /// `false` when it ends first.
    fn fill(&mut self, need: usize) -> io::Result<bool> {
        while self.end - self.start < need {
            if self.eof {
                return Ok(false);
            }
            let missing = need - (self.end - self.start);
            let room = missing.max(READ_MIN);
            if self.buf.len() - self.end < room {
                // Move what is left to the front (amortised: only when the
                // tail is used up), then grow if that is not enough.
                if self.start > 0 {
                    self.buf.copy_within(self.start..self.end, 0);
                    self.end -= self.start;
                    self.start = 0;
                }
                if self.buf.len() - self.end < room {
                    self.buf.resize(self.end + room.max(CHUNK), 0);
                }
            }
            let Some(dst) = self.buf.get_mut(self.end..) else {
                return Ok(false);
            };
            match self.reader.read(dst) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    fn advance(&mut self, n: usize) {
        let n = n.min(self.end - self.start);
        self.start += n;
        self.offset += n as u64;
    }

    fn window(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or_default()
    }

    /// The next message: `f` gets the message's bytes (for `raw`, all the
    /// bytes buffered from its start) and its input offset, and returns
    /// the bytes it took and a result. `None` at the end of the input, or
    /// after an error the framing cannot recover from (`raw`: any error).
    pub fn next_message<T>(
        &mut self,
        mut f: impl FnMut(&[u8], u64) -> Result<(usize, T), DecodeError>,
    ) -> Option<Result<T, FrameError>> {
        if self.stopped {
            return None;
        }
        let r = match self.framing {
            Framing::Raw => self.next_raw(&mut f),
            Framing::Sofh => self.next_sofh(&mut f),
        };
        match r {
            Ok(None) => None,
            Ok(Some(t)) => Some(Ok(t)),
            Err(e) => {
                if self.framing == Framing::Raw
                    || matches!(
                        e,
                        FrameError::BadFrame { .. }
                            | FrameError::NotSofh { .. }
                            | FrameError::TooLarge { .. }
                            | FrameError::Io(_)
                    )
                {
                    self.stopped = true;
                }
                Some(Err(e))
            }
        }
    }

    fn next_raw<T>(
        &mut self,
        f: &mut impl FnMut(&[u8], u64) -> Result<(usize, T), DecodeError>,
    ) -> Result<Option<T>, FrameError> {
        if !self.fill(1)? {
            return Ok(None);
        }
        // Read ahead so that most messages decode in one go.
        self.fill(READ_MIN)?;
        loop {
            match f(self.window(), self.offset) {
                Ok((n, t)) => {
                    self.advance(n.max(1));
                    return Ok(Some(t));
                }
                Err(e) if e.is_truncated() && !self.eof => {
                    let have = self.end - self.start;
                    let need = e.need.unwrap_or(0).max(have as u64 + 1);
                    if need > self.max_message as u64 {
                        return Err(FrameError::TooLarge {
                            offset: self.offset,
                            need,
                            max: self.max_message,
                        });
                    }
                    self.fill(need as usize)?;
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    fn next_sofh<T>(
        &mut self,
        f: &mut impl FnMut(&[u8], u64) -> Result<(usize, T), DecodeError>,
    ) -> Result<Option<T>, FrameError> {
        if !self.fill(1)? {
            return Ok(None);
        }
        let offset = self.offset;
        if !self.fill(SOFH_LEN)? {
            let have = self.end - self.start;
            return Err(FrameError::BadFrame {
                offset,
                what: format!("input ends {have} bytes into a 6-byte framing header"),
            });
        }
        let mut head = [0u8; SOFH_LEN];
        if let Some(w) = self.window().get(..SOFH_LEN) {
            head.copy_from_slice(w);
        }
        let [l0, l1, l2, l3, e0, e1] = head;
        let len = u32::from_be_bytes([l0, l1, l2, l3]) as usize;
        let enc = u16::from_be_bytes([e0, e1]);
        // An encoding type that is not SBE's with a length that cannot be
        // right is no SOFH at all (raw messages read as SOFH, say): the
        // encoding type says so better than the length would.
        let sbe = matches!(enc, SOFH_SBE_LE | SOFH_SBE_BE);
        let not_sofh = FrameError::NotSofh {
            offset,
            encoding: enc,
        };
        if !sbe && (len < SOFH_LEN || len > self.max_message) {
            return Err(not_sofh);
        }
        if len < SOFH_LEN {
            return Err(FrameError::BadFrame {
                offset,
                what: format!("message length {len} is less than the 6-byte header"),
            });
        }
        if len > self.max_message {
            return Err(FrameError::TooLarge {
                offset,
                need: len as u64,
                max: self.max_message,
            });
        }
        if !self.fill(len)? {
            let have = self.end - self.start;
            self.advance(have);
            if !sbe {
                return Err(not_sofh);
            }
            return Err(FrameError::BadFrame {
                offset,
                what: format!("frame of {len} bytes, input ends after {have}"),
            });
        }
        let expected = sofh_encoding(self.order);
        if enc != expected {
            self.advance(len);
            let what = match enc {
                SOFH_SBE_LE | SOFH_SBE_BE => format!(
                    "encoding type {enc:#06x} does not match the schema's byte order ({expected:#06x})"
                ),
                _ => format!(
                    "encoding type {enc:#06x} is not SBE's \
                     ({SOFH_SBE_LE:#06x} little-endian, {SOFH_SBE_BE:#06x} big-endian)"
                ),
            };
            // The length still frames the stream: go on after it.
            return Err(FrameError::Decode(DecodeError {
                offset: offset + 4,
                kind: crate::otf::decode::DecodeErrorKind::Framing(what),
                need: None,
            }));
        }
        let payload = self
            .buf
            .get(self.start + SOFH_LEN..self.start + len)
            .unwrap_or_default();
        let r = f(payload, offset + SOFH_LEN as u64);
        self.advance(len);
        r.map(|(_, t)| Some(t)).map_err(FrameError::from)
    }
}
