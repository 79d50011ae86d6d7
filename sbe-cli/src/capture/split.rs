//! Where messages are in a UDP datagram or a TCP stream, for a `--framing`:
//! the one seam between capture reading and the framings of
//! `crate::framing`.

use sbe_build::ir::ByteOrder;

use crate::framing::{sofh_encoding, Framing, SOFH_LEN, SOFH_SBE_BE, SOFH_SBE_LE};

/// Largest message a stream waits for (a larger claim is corrupt).
pub const MAX_MESSAGE: usize = 64 << 20;

/// How messages follow one another, as capture reading needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Back to back, each sized by its own content (the decoder says).
    Raw,
    /// Each behind a big-endian Simple Open Framing Header whose encoding
    /// type must be `encoding`.
    Sofh {
        /// The SBE encoding type expected (by the schema's byte order).
        encoding: u16,
    },
}

impl Shape {
    /// The shape of `framing` for schemas of byte order `order`.
    pub fn of(framing: &Framing, order: ByteOrder) -> Result<Shape, String> {
        if matches!(framing, Framing::Raw) {
            Ok(Shape::Raw)
        } else if matches!(framing, Framing::Sofh) {
            Ok(Shape::Sofh {
                encoding: sofh_encoding(order),
            })
        } else {
            Err(format!("framing {framing:?} is not read in captures yet"))
        }
    }

    /// Messages are sized by the decoder (a bad message loses the place).
    pub fn content_sized(self) -> bool {
        matches!(self, Shape::Raw)
    }
}

/// A packet header field (MDP3's `msgSeqNum`, ...).
pub type Field = (&'static str, u64);

/// A framing header that is wrong: where (offset in the datagram or
/// stream) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// Offset of the header.
    pub offset: u64,
    /// What is wrong.
    pub what: String,
}

/// A message's bytes and where they start.
#[derive(Debug, Clone, Copy)]
pub struct Piece<'a> {
    /// The message (for content-sized framings: every byte from its
    /// start on).
    pub bytes: &'a [u8],
    /// Offset of its first byte in the datagram or stream.
    pub offset: u64,
}

/// Check a SOFH at the start of `buf` (at `offset`): the frame length, or
/// a fault. `None`: fewer than 6 bytes.
fn sofh(buf: &[u8], offset: u64, encoding: u16) -> Option<Result<usize, Fault>> {
    let &[l0, l1, l2, l3, e0, e1] = buf.get(..SOFH_LEN)? else {
        return None;
    };
    let len = u32::from_be_bytes([l0, l1, l2, l3]) as usize;
    let enc = u16::from_be_bytes([e0, e1]);
    let fault = |what: String| Some(Err(Fault { offset, what }));
    if enc != encoding {
        return fault(match enc {
            SOFH_SBE_LE | SOFH_SBE_BE => format!(
                "SOFH encoding type {enc:#06x} does not match the schema's byte order ({encoding:#06x})"
            ),
            _ => format!(
                "not a SOFH header: encoding type {enc:#06x} is not SBE's \
                 ({SOFH_SBE_LE:#06x} little-endian, {SOFH_SBE_BE:#06x} big-endian)"
            ),
        });
    }
    if len < SOFH_LEN {
        return fault(format!(
            "SOFH message length {len} is less than the 6-byte header"
        ));
    }
    if len > MAX_MESSAGE {
        return fault(format!(
            "SOFH message length {len} is more than the {MAX_MESSAGE} allowed"
        ));
    }
    Some(Ok(len))
}

/// The messages of one UDP datagram.
#[derive(Debug)]
pub struct Datagram<'a> {
    shape: Shape,
    payload: &'a [u8],
    pos: usize,
    done: bool,
    /// The packet header's fields.
    pub fields: Vec<Field>,
}

impl<'a> Datagram<'a> {
    /// The datagram `payload`, its packet header read.
    pub fn new(shape: Shape, payload: &'a [u8]) -> Result<Datagram<'a>, Fault> {
        Ok(Datagram {
            shape,
            payload,
            pos: 0,
            done: false,
            fields: Vec::new(),
        })
    }

    /// The next message, `None` at the datagram's end, or a framing fault
    /// (after which there is none).
    pub fn next_piece(&mut self) -> Option<Result<Piece<'a>, Fault>> {
        if self.done || self.pos >= self.payload.len() {
            return None;
        }
        let rest = self.payload.get(self.pos..).unwrap_or_default();
        let offset = self.pos as u64;
        match self.shape {
            Shape::Raw => Some(Ok(Piece {
                bytes: rest,
                offset,
            })),
            Shape::Sofh { encoding } => {
                let len = match sofh(rest, offset, encoding) {
                    None => Err(Fault {
                        offset,
                        what: format!("the datagram ends {} bytes into a 6-byte SOFH", rest.len()),
                    }),
                    Some(Ok(len)) if len > rest.len() => Err(Fault {
                        offset,
                        what: format!(
                            "SOFH frame of {len} bytes, the datagram ends after {}",
                            rest.len()
                        ),
                    }),
                    Some(r) => r,
                };
                match len {
                    Ok(len) => {
                        self.pos += len;
                        Some(Ok(Piece {
                            bytes: rest.get(SOFH_LEN..len).unwrap_or_default(),
                            offset: offset + SOFH_LEN as u64,
                        }))
                    }
                    Err(f) => {
                        self.done = true;
                        Some(Err(f))
                    }
                }
            }
        }
    }

    /// The last piece's message took `n` bytes (content-sized framings
    /// step by it).
    pub fn consumed(&mut self, n: usize) {
        if self.shape.content_sized() {
            self.pos = self.pos.saturating_add(n.max(1));
        }
    }

    /// The last piece could not be decoded: for content-sized framings the
    /// rest of the datagram is lost (returns its length), others go on.
    pub fn failed(&mut self) -> Option<usize> {
        if self.shape.content_sized() {
            self.done = true;
            return Some(self.payload.len().saturating_sub(self.pos));
        }
        None
    }
}

/// Splits one direction's TCP stream, pushed a segment at a time.
#[derive(Debug)]
pub struct Stream {
    shape: Shape,
    buf: Vec<u8>,
    start: usize,
    /// Stream offset of `buf[start]`.
    offset: u64,
    /// Bytes wanted from `start` before trying again.
    want: usize,
    /// After a fault: drop bytes until the next segment.
    lost: bool,
}

impl Stream {
    /// An empty stream.
    pub fn new(shape: Shape) -> Stream {
        Stream {
            shape,
            buf: Vec::new(),
            start: 0,
            offset: 0,
            want: 1,
            lost: false,
        }
    }

    /// Bytes buffered that are no whole message yet.
    pub fn pending(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Stream offset of the first pending byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Drop what is pending; the stream goes on at stream offset `at`.
    /// Returns the bytes dropped.
    pub fn reset(&mut self, at: u64) -> usize {
        let n = self.pending();
        self.buf.clear();
        self.start = 0;
        self.offset = at;
        self.want = 1;
        self.lost = false;
        n
    }

    /// A segment's new bytes, at stream offset `at` (they follow what is
    /// pending, or start a stream after `reset`); a segment after a fault
    /// starts the stream over.
    pub fn push(&mut self, at: u64, bytes: &[u8]) {
        if self.lost || self.start == self.buf.len() {
            self.reset(at);
        }
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole message, `None` when more bytes are needed, or a
    /// framing fault (the rest of the segment is dropped: the stream
    /// starts over with the next segment).
    pub fn next_piece(&mut self) -> Option<Result<Piece<'_>, Fault>> {
        let have = self.pending();
        if self.lost || have == 0 || have < self.want {
            return None;
        }
        let offset = self.offset;
        match self.shape {
            Shape::Raw => Some(Ok(Piece {
                bytes: self.buf.get(self.start..).unwrap_or_default(),
                offset,
            })),
            Shape::Sofh { encoding } => {
                let rest = self.buf.get(self.start..).unwrap_or_default();
                match sofh(rest, offset, encoding) {
                    None => {
                        self.want = SOFH_LEN;
                        None
                    }
                    Some(Err(f)) => {
                        self.lose();
                        Some(Err(f))
                    }
                    Some(Ok(len)) if len > have => {
                        self.want = len;
                        None
                    }
                    Some(Ok(len)) => {
                        let from = self.start + SOFH_LEN;
                        let to = self.start + len;
                        self.start = to;
                        self.offset += len as u64;
                        self.want = 1;
                        Some(Ok(Piece {
                            bytes: self.buf.get(from..to).unwrap_or_default(),
                            offset: offset + SOFH_LEN as u64,
                        }))
                    }
                }
            }
        }
    }

    /// The last piece's message took `n` bytes (content-sized framings
    /// step by it).
    pub fn consumed(&mut self, n: usize) {
        if self.shape.content_sized() {
            let n = n.max(1).min(self.pending());
            self.start += n;
            self.offset += n as u64;
            self.want = 1;
        }
    }

    /// The last piece needs `need` bytes from its start (truncated): wait
    /// for them. `false` when that is more than a message may be.
    pub fn wait(&mut self, need: Option<u64>) -> bool {
        let need = need.unwrap_or(0).max(self.pending() as u64 + 1);
        if need > MAX_MESSAGE as u64 {
            return false;
        }
        self.want = need as usize;
        true
    }

    /// The last piece could not be decoded: content-sized framings lose
    /// their place (the rest is dropped until the next segment; returns
    /// the bytes dropped), others go on after the frame.
    pub fn failed(&mut self) -> Option<usize> {
        if self.shape.content_sized() {
            return Some(self.lose());
        }
        None
    }

    /// Drop what is pending until the next segment; the bytes dropped.
    fn lose(&mut self) -> usize {
        let n = self.pending();
        self.offset += n as u64;
        self.start = self.buf.len();
        self.lost = true;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LE: u16 = SOFH_SBE_LE;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = ((body.len() + 6) as u32).to_be_bytes().to_vec();
        v.extend_from_slice(&LE.to_be_bytes());
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn sofh_datagram() {
        let mut p = frame(b"abc");
        p.extend(frame(b"de"));
        p.extend(&frame(b"xyz")[..5]);
        let mut d = Datagram::new(Shape::Sofh { encoding: LE }, &p).expect("dgram");
        let a = d.next_piece().expect("a").expect("ok");
        assert_eq!((a.bytes, a.offset), (&b"abc"[..], 6));
        let b = d.next_piece().expect("b").expect("ok");
        assert_eq!((b.bytes, b.offset), (&b"de"[..], 15));
        let f = d.next_piece().expect("c").expect_err("cut");
        assert_eq!(f.offset, 17);
        assert!(f.what.contains("ends 5 bytes into"), "{}", f.what);
        assert!(d.next_piece().is_none());
    }

    #[test]
    fn sofh_stream_across_segments() {
        let mut all = frame(b"hello");
        all.extend(frame(b"world!"));
        let mut s = Stream::new(Shape::Sofh { encoding: LE });
        let mut got = Vec::new();
        for (i, chunk) in all.chunks(4).enumerate() {
            s.push((i * 4) as u64, chunk);
            while let Some(p) = s.next_piece() {
                let p = p.expect("ok");
                got.push((p.bytes.to_vec(), p.offset));
            }
        }
        assert_eq!(got, vec![(b"hello".to_vec(), 6), (b"world!".to_vec(), 17)]);
        assert_eq!(s.pending(), 0);
        // A bad header: a fault, then the next segment starts over.
        s.push(23, b"\0\0\0\x09\x01\x00abc");
        let f = s.next_piece().expect("fault").expect_err("bad");
        assert_eq!(f.offset, 23);
        assert!(s.next_piece().is_none());
        s.push(40, &frame(b"ok"));
        let p = s.next_piece().expect("p").expect("ok");
        assert_eq!((p.bytes, p.offset), (&b"ok"[..], 46));
    }

    #[test]
    fn raw_stream_waits_for_more() {
        let mut s = Stream::new(Shape::Raw);
        s.push(0, b"abcd");
        let p = s.next_piece().expect("p").expect("ok");
        assert_eq!(p.bytes, b"abcd");
        assert!(s.wait(Some(6)));
        assert!(s.next_piece().is_none());
        s.push(4, b"ef");
        assert_eq!(s.next_piece().expect("p").expect("ok").bytes, b"abcdef");
        s.consumed(6);
        assert!(s.next_piece().is_none());
        assert!(!s.wait(Some(u64::MAX)));
    }
}
