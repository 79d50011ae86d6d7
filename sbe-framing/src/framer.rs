//! Splitting a byte stream into messages without copying (feature `bytes`).
//!
//! A [`Framer`] owns one growable [`BytesMut`] buffer. Bytes read from a
//! socket or file are appended with [`push`](Framer::push) (or read straight
//! into the buffer with `read_from`, feature `std`);
//! each complete message is then split off the front as a [`Bytes`] with
//! `split_to(..).freeze()`: no copy, and the `Bytes` can be kept, sent to
//! another thread and decoded later (generated decoders take `&[u8]`, and a
//! `Bytes` derefs to one). Once those frames are dropped, the buffer's space
//! is reused by the next `push`.
//!
//! Any stream [`Framing`] is supported: a framer made with
//! [`for_framing`](Framer::for_framing) splits by it with
//! [`next_framed`](Framer::next_framed) (a packet framing, such as `mdp3`,
//! is refused there: a stream has no datagram boundaries). Or each call
//! says how:
//!
//! * **raw**: messages back to back; the caller says how long the message
//!   at the front is, with a function of the buffered bytes
//!   ([`next_frame`](Framer::next_frame));
//! * **SOFH**: each message behind a Simple Open Framing Header
//!   ([`next_sofh_frame`](Framer::next_sofh_frame)); the header is
//!   stripped and its encoding type returned with the message;
//! * any other **[`FrameFormat`]** (the 4-byte little-endian header of
//!   iLink 3 and B3, a length counting only the message, a length inside
//!   the message header with frames padded to 8, ...):
//!   [`next_format_frame`](Framer::next_format_frame).
//!
//! ```
//! use sbe_framing::{FrameFormat, SOFH_LEN, SOFH_SBE_LE};
//! use sbe_framing::Framer;
//!
//! // Two SOFH frames, fed in awkward pieces.
//! let mut stream = Vec::new();
//! for body in [&b"first"[..], &b"second!"[..]] {
//!     let mut header = [0u8; SOFH_LEN];
//!     FrameFormat::SOFH.write_header(&mut header, body.len(), SOFH_SBE_LE)?;
//!     stream.extend_from_slice(&header);
//!     stream.extend_from_slice(body);
//! }
//!
//! let mut framer = Framer::new();
//! let mut messages = Vec::new();
//! for chunk in stream.chunks(4) {
//!     framer.push(chunk);
//!     while let Some(frame) = framer.next_sofh_frame()? {
//!         assert_eq!(frame.encoding_type, Some(SOFH_SBE_LE));
//!         messages.push(frame.message);
//!     }
//! }
//! assert_eq!(messages, [&b"first"[..], &b"second!"[..]]);
//! assert_eq!(framer.buffered(), 0);
//! # Ok::<(), sbe_framing::Error>(())
//! ```

pub use bytes::{Bytes, BytesMut};

use crate::error::{Error, Result};
use crate::{FrameFormat, Framing, FramingError};

/// One message split off a stream.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The SBE message, starting with its message header (any framing
    /// header removed). Shares the framer's memory: no copy was made.
    pub message: Bytes,
    /// The framing header's encoding type (e.g.
    /// [`SOFH_SBE_LE`](crate::SOFH_SBE_LE)) with a framing that has
    /// one, `None` with raw framing.
    pub encoding_type: Option<u16>,
}

/// Splits a byte stream into messages without copying them.
///
/// See the [module documentation](self) for an overview.
///
/// After `next_*` returns an `Err` the stream cannot be resynchronised by
/// the framer: nothing was consumed, and the same error comes back until the
/// caller [`clear`](Self::clear)s the framer or [`skip`](Self::skip)s bytes.
#[derive(Debug)]
pub struct Framer {
    buf: BytesMut,
    max_frame_len: usize,
    framing: Framing,
    /// The framing's frame: `None` for raw.
    format: Option<FrameFormat>,
}

impl Default for Framer {
    fn default() -> Self {
        Self::new()
    }
}

impl Framer {
    /// An empty framer of [`Framing::Raw`], accepting frames of any length.
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty framer of [`Framing::Raw`] whose buffer holds `capacity`
    /// bytes before growing.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Framer {
            buf: BytesMut::with_capacity(capacity),
            max_frame_len: usize::MAX,
            framing: Framing::Raw,
            format: None,
        }
    }

    /// An empty framer that [`next_framed`](Self::next_framed) splits by
    /// `framing`, a stream framing: a packet framing (`mdp3`, a custom one
    /// with `packet=`) is a [`FramingError::Packet`], since a stream has no
    /// datagram boundaries to find its packet headers at (split each
    /// datagram with [`PacketFormat::packet`](crate::PacketFormat::packet)).
    ///
    /// ```
    /// use sbe_framing::{Framing, FramingError};
    /// use sbe_framing::Framer;
    ///
    /// let mut framer = Framer::for_framing("sofh-le".parse().unwrap())?;
    /// assert_eq!(framer.framing(), Framing::SofhLe);
    /// framer.push(&[5, 0, 0xfe, 0xca, 42]);
    /// let frame = framer.next_framed(|_| Ok::<_, sbe_framing::Error>(None)).unwrap().unwrap();
    /// assert_eq!((&frame.message[..], frame.encoding_type), (&[42][..], Some(0xCAFE)));
    ///
    /// assert_eq!(
    ///     Framer::for_framing(Framing::Mdp3).unwrap_err(),
    ///     FramingError::Packet { header_len: 12 }
    /// );
    /// # Ok::<(), FramingError>(())
    /// ```
    pub fn for_framing(framing: Framing) -> core::result::Result<Self, FramingError> {
        let format = framing.stream_format()?;
        Ok(Framer {
            framing,
            format,
            ..Self::new()
        })
    }

    /// The framing [`next_framed`](Self::next_framed) splits by.
    #[must_use]
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// Sets the longest frame accepted (framing header included); a longer
    /// declared length gives [`Error::FrameLength`] instead of buffering
    /// without bound. The default is no limit.
    ///
    /// ```
    /// use sbe_framing::{Error, Framer};
    ///
    /// let mut framer = Framer::new().max_frame_len(1024);
    /// framer.push(&[0, 0, 0x10, 0, 0xeb, 0x50]); // declares 4096 bytes
    /// assert_eq!(
    ///     framer.next_sofh_frame(),
    ///     Err(Error::frame_length(4096, 6, 1024))
    /// );
    /// ```
    #[must_use]
    pub fn max_frame_len(mut self, max: usize) -> Self {
        self.max_frame_len = max;
        self
    }

    /// Appends bytes received from the stream.
    ///
    /// The buffer grows as needed; space of frames already split off and
    /// dropped is reclaimed rather than reallocated.
    pub fn push(&mut self, data: &[u8]) {
        self.buf.reserve(data.len());
        self.buf.extend_from_slice(data);
    }

    /// Reads once from `reader` straight into the buffer (up to `max` bytes)
    /// and returns how many bytes were read; `Ok(0)` means end of stream
    /// (or `max == 0`).
    ///
    /// ```
    /// let mut framer = sbe_framing::Framer::new();
    /// let mut input: &[u8] = b"abcdef";
    /// assert_eq!(framer.read_from(&mut input, 4)?, 4);
    /// assert_eq!(framer.pending(), b"abcd");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn read_from<R: std::io::Read + ?Sized>(
        &mut self,
        reader: &mut R,
        max: usize,
    ) -> std::io::Result<usize> {
        let start = self.buf.len();
        self.buf.resize(start.saturating_add(max), 0);
        let result = match self.buf.get_mut(start..) {
            Some(spare) => reader.read(spare),
            None => Ok(0),
        };
        let n = *result.as_ref().unwrap_or(&0);
        self.buf.truncate(start.saturating_add(n.min(max)));
        result
    }

    /// Number of bytes buffered and not yet returned in a frame. Non-zero at
    /// the end of a stream means it ended inside a message.
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// The bytes buffered and not yet returned in a frame.
    #[must_use]
    pub fn pending(&self) -> &[u8] {
        &self.buf
    }

    /// Drops every buffered byte.
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// Drops up to `n` bytes from the front of the buffer (for instance to
    /// skip a frame that failed to decode) and returns how many were dropped.
    pub fn skip(&mut self, n: usize) -> usize {
        let n = n.min(self.buf.len());
        bytes::Buf::advance(&mut self.buf, n);
        n
    }

    /// Splits the first `n` buffered bytes off (all of them when fewer),
    /// sharing their memory.
    pub(crate) fn take(&mut self, n: usize) -> Bytes {
        let n = n.min(self.buf.len());
        self.buf.split_to(n).freeze()
    }

    /// Checks a declared frame length against `min..=max_frame_len`.
    fn check_frame_len(&self, length: usize, min: usize) -> Result<()> {
        if length < min || length > self.max_frame_len {
            return Err(Error::frame_length(
                length as u64,
                min as u64,
                self.max_frame_len as u64,
            ));
        }
        Ok(())
    }

    /// Splits off the next raw-framed message, if it is complete.
    ///
    /// `len_fn` is called with all buffered bytes and returns the length of
    /// the message at their start:
    ///
    /// * `Ok(Some(len))`: the message is `len` bytes long. If that many are
    ///   buffered they are split off and returned; otherwise `Ok(None)` until
    ///   more are pushed. A `len` of 0 or above the
    ///   [maximum](Self::max_frame_len) is an [`Error::FrameLength`].
    /// * `Ok(None)` or an [`Error::Truncated`] `Err`: more bytes are needed
    ///   to tell; `Ok(None)` is returned.
    /// * any other `Err`: returned as is, nothing is consumed.
    ///
    /// `len_fn` is not called when nothing is buffered.
    ///
    /// ```
    /// use sbe_framing::{Framer, Result};
    ///
    /// // Toy format: the first byte is the message length.
    /// fn len(buf: &[u8]) -> Result<Option<usize>> {
    ///     Ok(buf.first().map(|&n| usize::from(n)))
    /// }
    ///
    /// let mut framer = Framer::new();
    /// framer.push(&[3, b'a', b'b', 2, b'c']);
    /// assert_eq!(framer.next_frame(len)?.as_deref(), Some(&b"\x03ab"[..]));
    /// assert_eq!(framer.next_frame(len)?.as_deref(), Some(&b"\x02c"[..]));
    /// assert_eq!(framer.next_frame(len)?, None);
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn next_frame<F, E>(&mut self, len_fn: F) -> Result<Option<Bytes>>
    where
        F: FnOnce(&[u8]) -> core::result::Result<Option<usize>, E>,
        E: Into<Error>,
    {
        if self.buf.is_empty() {
            return Ok(None);
        }
        let len = match len_fn(&self.buf) {
            Ok(Some(len)) => len,
            Ok(None) => return Ok(None),
            Err(e) => {
                let e = e.into();
                if e.is_truncated() {
                    return Ok(None);
                }
                return Err(e);
            }
        };
        self.check_frame_len(len, 1)?;
        if len > self.buf.len() {
            return Ok(None);
        }
        Ok(Some(self.buf.split_to(len).freeze()))
    }

    /// Splits off the next SOFH-framed message, if it is complete; the
    /// returned [`Frame`] holds the message without its 6-byte header, and
    /// the header's encoding type.
    ///
    /// `Ok(None)` until the whole frame is buffered. The encoding type is
    /// checked first: one that is neither SBE little- nor big-endian gives
    /// an [`Error::FrameEncoding`] (the stream is most likely not SOFH-framed,
    /// and its "length" means nothing); then a length below 6 or above the
    /// [maximum](Self::max_frame_len) gives an [`Error::FrameLength`].
    /// Either consumes nothing. The same as
    /// [`next_format_frame`](Self::next_format_frame)`(&FrameFormat::SOFH)`.
    ///
    /// ```
    /// use sbe_framing::{Error, Expect, Framer};
    ///
    /// let mut framer = Framer::new();
    /// // A raw message header (blockLength 45, templateId 1, schemaId 1)
    /// // read as a SOFH.
    /// framer.push(&[45, 0, 1, 0, 1, 0, 0, 0]);
    /// assert_eq!(
    ///     framer.next_sofh_frame(),
    ///     Err(Error::frame_encoding(0x0100, Expect::Either(0xEB50, 0x5BE0)))
    /// );
    /// ```
    pub fn next_sofh_frame(&mut self) -> Result<Option<Frame>> {
        self.next_format_frame(&FrameFormat::SOFH)
    }

    /// Splits off the next message framed by `format`, if its frame is
    /// complete (padding included); the returned [`Frame`] holds the
    /// message without its prefix or padding, and the encoding type when
    /// the format has one.
    ///
    /// `Ok(None)` until the whole frame is buffered. A wrong encoding type
    /// ([`Error::FrameEncoding`]) or a length that cannot be right
    /// ([`Error::FrameLength`]: below the frame's own fields, zero, above
    /// the [maximum](Self::max_frame_len)) consumes nothing (see
    /// [`FrameFormat::read_header`]).
    ///
    /// ```
    /// use sbe_framing::{FrameFormat, Framer};
    ///
    /// // CME iLink 3: u16 LE length counting the 4-byte header, 0xCAFE.
    /// let mut framer = Framer::new();
    /// framer.push(&[7, 0, 0xfe, 0xca, 1, 2]);
    /// assert_eq!(framer.next_format_frame(&FrameFormat::SOFH_LE)?, None);
    /// framer.push(&[3]);
    /// let frame = framer.next_format_frame(&FrameFormat::SOFH_LE)?.unwrap();
    /// assert_eq!((&frame.message[..], frame.encoding_type), (&[1, 2, 3][..], Some(0xCAFE)));
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn next_format_frame(&mut self, format: &FrameFormat) -> Result<Option<Frame>> {
        split_frame(&mut self.buf, format, self.max_frame_len)
    }

    /// Splits off the next message by the framer's
    /// [`framing`](Self::framing): with [`Framing::Raw`] as
    /// [`next_frame`](Self::next_frame) (with `len_fn`), with any other as
    /// [`next_format_frame`](Self::next_format_frame) of its
    /// [`frame_format`](Framing::frame_format) (`len_fn` unused).
    ///
    /// ```
    /// use sbe_framing::{Framer, Framing, Result};
    ///
    /// fn len(buf: &[u8]) -> Result<Option<usize>> {
    ///     Ok(buf.first().map(|&n| usize::from(n)))
    /// }
    ///
    /// let mut sofh = Framer::for_framing(Framing::Sofh).unwrap();
    /// sofh.push(&[0, 0, 0, 7, 0x5b, 0xe0, 42]);
    /// let frame = sofh.next_framed(len)?.unwrap();
    /// assert_eq!((&frame.message[..], frame.encoding_type), (&[42][..], Some(0x5be0)));
    ///
    /// let mut raw = Framer::new();
    /// raw.push(&[2, 9]);
    /// let frame = raw.next_framed(len)?.unwrap();
    /// assert_eq!((&frame.message[..], frame.encoding_type), (&[2, 9][..], None));
    /// # Ok::<(), sbe_framing::Error>(())
    /// ```
    pub fn next_framed<F, E>(&mut self, len_fn: F) -> Result<Option<Frame>>
    where
        F: FnOnce(&[u8]) -> core::result::Result<Option<usize>, E>,
        E: Into<Error>,
    {
        match self.format {
            None => Ok(self.next_frame(len_fn)?.map(|message| Frame {
                message,
                encoding_type: None,
            })),
            Some(format) => self.next_format_frame(&format),
        }
    }
}

/// Splits the frame of `format` at the front of `buf` off it, without
/// copying: the rule behind [`Framer::next_format_frame`] and the tokio
/// codec alike.
pub(crate) fn split_frame(
    buf: &mut BytesMut,
    format: &FrameFormat,
    max_frame_len: usize,
) -> Result<Option<Frame>> {
    let Some((header, range)) = format.whole(buf, max_frame_len)? else {
        return Ok(None);
    };
    let mut frame = buf.split_to(header.padded_len);
    frame.truncate(range.end);
    let _ = frame.split_to(range.start);
    Ok(Some(Frame {
        message: frame.freeze(),
        encoding_type: header.encoding_type,
    }))
}

/// The part of `frame` that `part` borrows, as a [`Bytes`] sharing the
/// frame's memory: var data or a char array read by a generated decoder
/// over `&frame[..]` comes back as an owned, cheaply clonable value without
/// a copy. `None` when `part` does not lie inside `frame` (unlike
/// [`Bytes::slice_ref`], which panics).
///
/// ```
/// use sbe_framing::bytes::Bytes;
/// use sbe_framing::framer::share;
///
/// let frame = Bytes::from_static(b"\x05\x00\x00\x00Honda");
/// let text: &[u8] = &frame[4..]; // what a decoder's var data accessor returns
/// let owned = share(&frame, text).unwrap();
/// assert_eq!(owned, "Honda");
/// assert_eq!(owned.as_ptr(), text.as_ptr()); // same memory
/// assert!(share(&frame, b"elsewhere").is_none());
/// ```
pub fn share(frame: &Bytes, part: &[u8]) -> Option<Bytes> {
    let start = (part.as_ptr() as usize).checked_sub(frame.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    if end > frame.len() {
        return None;
    }
    Some(frame.slice(start..end))
}

/// Appends one message to `dst`, encoded in place by `encode` (a generated
/// encoder's `wrap` … `finish`, which returns the message length): no
/// scratch buffer, no copy. `max_len` bounds the message; `dst` grows by
/// exactly the length `encode` returns, and is left as it was on error.
///
/// ```
/// use sbe_framing::bytes::BytesMut;
/// use sbe_framing::framer::append_with;
///
/// let mut ring = BytesMut::new();
/// let n = append_with(&mut ring, 16, |buf| {
///     sbe_rt::put_u32_le(buf, 0, 7);
///     Ok(4)
/// })?;
/// assert_eq!((n, &ring[..]), (4, &[7u8, 0, 0, 0][..]));
/// # Ok::<(), sbe_rt::Error>(())
/// ```
pub fn append_with<F>(dst: &mut BytesMut, max_len: usize, encode: F) -> sbe_rt::Result<usize>
where
    F: FnOnce(&mut [u8]) -> sbe_rt::Result<usize>,
{
    let start = dst.len();
    dst.resize(start.saturating_add(max_len), 0);
    let written = dst
        .get_mut(start..)
        .map_or(Err(sbe_rt::Error::truncated(max_len, 0)), encode);
    match written {
        Ok(n) if n <= max_len => {
            dst.truncate(start + n);
            Ok(n)
        }
        Ok(n) => {
            dst.truncate(start);
            Err(sbe_rt::Error::truncated(n, max_len))
        }
        Err(e) => {
            dst.truncate(start);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use crate::{Counts, Expect, LengthField, SOFH_LEN, SOFH_SBE_BE, SOFH_SBE_LE};
    use alloc::vec::Vec;
    use sbe_rt::wire::get_u16_le;

    /// A toy raw format standing in for SBE: a little-endian u16 length
    /// (the whole message), then the body.
    fn toy_len(buf: &[u8]) -> Result<Option<usize>> {
        sbe_rt::check_len(buf, 2)?;
        Ok(Some(usize::from(get_u16_le(buf, 0))))
    }

    fn toy_message(i: usize) -> Vec<u8> {
        let len = 2 + (i * 7) % 23;
        let mut m = Vec::with_capacity(len);
        m.extend_from_slice(&(len as u16).to_le_bytes());
        m.extend((2..len).map(|j| (i + j) as u8));
        m
    }

    #[test]
    fn share_checks_that_the_part_is_inside_the_frame() {
        let frame = Bytes::from(alloc::vec![1u8, 2, 3, 4, 5]);
        assert_eq!(share(&frame, &frame[1..3]).unwrap(), &[2u8, 3][..]);
        assert_eq!(share(&frame, &frame[5..]).unwrap().len(), 0);
        let other = [2u8, 3];
        assert!(share(&frame, &other).is_none());
    }

    #[test]
    fn append_with_grows_by_what_was_written_or_not_at_all() {
        let mut dst = BytesMut::from(&b"ab"[..]);
        assert_eq!(
            append_with(&mut dst, 8, |b| {
                b[0] = b'c';
                Ok(1)
            }),
            Ok(1)
        );
        assert_eq!(&dst[..], b"abc");
        let err = append_with(&mut dst, 8, |_| Err(sbe_rt::Error::value_out_of_range()));
        assert_eq!(err, Err(sbe_rt::Error::value_out_of_range()));
        assert_eq!(&dst[..], b"abc");
        assert!(append_with(&mut dst, 2, |_| Ok(3)).is_err());
        assert_eq!(&dst[..], b"abc");
    }

    #[test]
    fn raw_stream_in_odd_chunks() {
        let messages: Vec<Vec<u8>> = (0..50).map(toy_message).collect();
        let stream: Vec<u8> = messages.concat();
        for chunk_len in [1, 2, 3, 5, 7, 13, 64, stream.len()] {
            let mut framer = Framer::with_capacity(16);
            let mut got = Vec::new();
            for chunk in stream.chunks(chunk_len) {
                framer.push(chunk);
                while let Some(frame) = framer.next_frame(toy_len).unwrap() {
                    got.push(frame);
                }
            }
            assert_eq!(got, messages, "chunks of {chunk_len}");
            assert_eq!(framer.buffered(), 0);
        }
    }

    fn sofh_stream(messages: &[Vec<u8>]) -> Vec<u8> {
        let mut stream = Vec::new();
        for (i, m) in messages.iter().enumerate() {
            let mut header = [0u8; SOFH_LEN];
            let encoding = if i % 2 == 0 { SOFH_SBE_LE } else { SOFH_SBE_BE };
            FrameFormat::SOFH
                .write_header(&mut header, m.len(), encoding)
                .unwrap();
            stream.extend_from_slice(&header);
            stream.extend_from_slice(m);
        }
        stream
    }

    #[test]
    fn sofh_stream_in_odd_chunks() {
        let mut messages: Vec<Vec<u8>> = (0..40).map(toy_message).collect();
        messages.push(Vec::new()); // an empty body is a valid 6-byte frame
        let stream = sofh_stream(&messages);
        for chunk_len in [1, 2, 3, 5, 6, 7, 11, 100, stream.len()] {
            let mut framer = Framer::for_framing(Framing::Sofh).unwrap();
            let mut got = Vec::new();
            for chunk in stream.chunks(chunk_len) {
                framer.push(chunk);
                while let Some(frame) = framer.next_framed(toy_len).unwrap() {
                    let expected = if got.len() % 2 == 0 {
                        SOFH_SBE_LE
                    } else {
                        SOFH_SBE_BE
                    };
                    assert_eq!(frame.encoding_type, Some(expected));
                    got.push(frame.message);
                }
            }
            assert_eq!(got, messages, "chunks of {chunk_len}");
            assert_eq!(framer.buffered(), 0);
        }
    }

    #[test]
    fn incomplete_frame_waits() {
        let message = toy_message(5);
        let mut framer = Framer::new();
        // Raw: the length is known after 2 bytes but the body is missing.
        framer.push(&message[..1]);
        assert_eq!(framer.next_frame(toy_len), Ok(None));
        framer.push(&message[1..message.len() - 1]);
        assert_eq!(framer.next_frame(toy_len), Ok(None));
        assert_eq!(framer.buffered(), message.len() - 1);
        framer.push(&message[message.len() - 1..]);
        assert_eq!(framer.next_frame(toy_len).unwrap().unwrap(), message);
        assert_eq!(framer.next_frame(toy_len), Ok(None));

        // SOFH: a frame declaring more than has arrived.
        let stream = sofh_stream(core::slice::from_ref(&message));
        for cut in 0..stream.len() {
            framer.clear();
            framer.push(&stream[..cut]);
            assert_eq!(framer.next_sofh_frame(), Ok(None), "cut at {cut}");
            assert_eq!(framer.buffered(), cut);
        }
        // The loop left all but the last byte buffered.
        framer.push(&stream[stream.len() - 1..]);
        let frame = framer.next_sofh_frame().unwrap().unwrap();
        assert_eq!(frame.message, message);
        assert_eq!(framer.next_sofh_frame(), Ok(None));
    }

    #[test]
    fn bad_sofh_length_is_an_error() {
        let mut framer = Framer::new();
        framer.push(&[0, 0, 0, 5, 0xeb, 0x50, 1, 2, 3]);
        let err = Error::frame_length(5, 6, u64::from(u32::MAX));
        assert_eq!(framer.next_sofh_frame(), Err(err));
        // Nothing consumed; the error repeats until the caller acts.
        assert_eq!(framer.buffered(), 9);
        assert_eq!(framer.next_sofh_frame(), Err(err));
        assert_eq!(framer.skip(6), 6);
        assert_eq!(framer.pending(), &[1, 2, 3]);
        assert_eq!(framer.skip(100), 3);

        framer.push(&[0, 0, 0, 0, 0, 0]);
        assert!(framer.next_sofh_frame().is_err());
    }

    #[test]
    fn a_stream_that_is_not_sofh_is_called_that() {
        // A raw car message header read as SOFH: 754,974,976 bytes of
        // encoding type 0x0100 used to be "frame length 754974976 out of
        // range"; the encoding type is checked first now.
        let mut framer = Framer::new().max_frame_len(1 << 20);
        framer.push(&[45, 0, 1, 0, 1, 0, 0, 0, 1, 2, 3]);
        let err = Error::frame_encoding(0x0100, Expect::Either(SOFH_SBE_LE, SOFH_SBE_BE));
        assert_eq!(framer.next_sofh_frame(), Err(err));
        let mut sofh = Framer::for_framing(Framing::Sofh).unwrap();
        sofh.push(framer.pending());
        assert_eq!(sofh.next_framed(toy_len), Err(err));
        assert_eq!((framer.buffered(), sofh.buffered()), (11, 11));
        assert_eq!(
            alloc::string::ToString::to_string(&err),
            "not a SOFH header: encoding type 0x0100, expected 0xeb50 or 0x5be0"
        );
        // SBE's encoding type with a huge length: the length is what is wrong.
        framer.clear();
        framer.push(&[0x2d, 0, 1, 0, 0xeb, 0x50]);
        assert_eq!(
            framer.next_sofh_frame(),
            Err(Error::frame_length(754_974_976, 6, 1 << 20))
        );
    }

    /// `messages` framed by `format` with its default encoding type.
    fn format_stream(format: &FrameFormat, messages: &[Vec<u8>]) -> Vec<u8> {
        let mut stream = Vec::new();
        for m in messages {
            let start = stream.len();
            stream.resize(start + format.encoded_len(m.len()).unwrap(), 0);
            stream[start + format.prefix_len..start + format.prefix_len + m.len()]
                .copy_from_slice(m);
            format
                .write_header(
                    &mut stream[start..],
                    m.len(),
                    format.default_encoding_type(),
                )
                .unwrap();
        }
        stream
    }

    #[test]
    fn format_streams_in_odd_chunks() {
        let messages: Vec<Vec<u8>> = (0..30).map(toy_message).collect();
        let formats = [
            FrameFormat::SOFH,
            FrameFormat::SOFH_LE,
            FrameFormat::MDP3_MESSAGE,
            FrameFormat::new(4, LengthField::u32_be(0)).with_counts(Counts::Message),
            // The toy message's own u16 length, frames padded to 8.
            FrameFormat::new(0, LengthField::u16_le(0)).with_align(8),
        ];
        for format in formats {
            let stream = format_stream(&format, &messages);
            let framing = Framing::Custom {
                packet: None,
                frame: format,
            };
            for chunk_len in [1, 2, 3, 5, 8, 13, 100, stream.len()] {
                let mut framer = Framer::for_framing(framing).unwrap();
                let mut got = Vec::new();
                for chunk in stream.chunks(chunk_len) {
                    framer.push(chunk);
                    while let Some(frame) = framer.next_framed(toy_len).unwrap() {
                        assert_eq!(
                            frame.encoding_type,
                            format.encoding.map(|_| format.default_encoding_type())
                        );
                        got.push(frame.message);
                    }
                }
                assert_eq!(got, messages, "{format:?} in chunks of {chunk_len}");
                assert_eq!(framer.buffered(), 0);
            }
        }
    }

    #[test]
    fn format_frames_do_not_copy_and_errors_consume_nothing() {
        let message = toy_message(9);
        let stream = format_stream(&FrameFormat::SOFH_LE, core::slice::from_ref(&message));
        let mut framer = Framer::new().max_frame_len(64);
        framer.push(&stream);
        let at = framer.pending().as_ptr() as usize;
        let frame = framer
            .next_format_frame(&FrameFormat::SOFH_LE)
            .unwrap()
            .unwrap();
        assert_eq!(frame.message, message);
        assert_eq!(frame.message.as_ptr() as usize, at + 4);
        // Too long for the limit, zero, the wrong encoding type.
        for bad in [[65, 0, 0xfe, 0xca], [0, 0, 0xfe, 0xca], [8, 0, 0x50, 0x5b]] {
            framer.clear();
            framer.push(&bad);
            assert!(
                framer.next_format_frame(&FrameFormat::SOFH_LE).is_err(),
                "{bad:?}"
            );
            assert_eq!(framer.buffered(), 4);
        }
        assert_eq!(
            framer.next_format_frame(&FrameFormat::SOFH_LE),
            Err(Error::frame_encoding(
                0x5b50,
                Expect::Either(0xCAFE, 0xEB50)
            ))
        );
    }

    #[test]
    fn for_framing_takes_stream_framings_and_refuses_packet_ones() {
        for framing in [Framing::Mdp3, "packet=16,len=u16le".parse().unwrap()] {
            let header_len = framing.packet_format().unwrap().header_len;
            assert_eq!(
                Framer::for_framing(framing).unwrap_err(),
                FramingError::Packet { header_len }
            );
        }
        assert_eq!(Framer::new().framing(), Framing::Raw);
        assert_eq!(
            Framer::for_framing(Framing::Raw).unwrap().framing(),
            Framing::Raw
        );
        // Each stream framing splits what its frame_format writes.
        let messages: Vec<Vec<u8>> = (0..5).map(toy_message).collect();
        for framing in [Framing::Sofh, Framing::SofhLe] {
            let format = framing.frame_format().unwrap();
            let mut framer = Framer::for_framing(framing).unwrap();
            assert_eq!(framer.framing(), framing);
            framer.push(&format_stream(&format, &messages));
            let mut got = Vec::new();
            while let Some(frame) = framer.next_framed(|_| Ok::<_, Error>(None)).unwrap() {
                got.push(frame.message);
            }
            assert_eq!(got, messages, "{framing}");
        }
        // Raw asks the length function.
        let mut raw = Framer::for_framing(Framing::Raw).unwrap();
        raw.push(&messages[0]);
        let frame = raw.next_framed(toy_len).unwrap().unwrap();
        assert_eq!(
            (frame.message, frame.encoding_type),
            (messages[0].clone().into(), None)
        );
    }

    #[test]
    fn raw_length_errors() {
        let mut framer = Framer::new().max_frame_len(10);
        assert_eq!(
            framer.next_frame(|_| -> Result<Option<usize>> { panic!("not called when empty") }),
            Ok(None)
        );
        framer.push(&[0, 0, 9]);
        assert_eq!(
            framer.next_frame(|_| Ok::<_, Error>(Some(0))),
            Err(Error::frame_length(0, 1, 10))
        );
        assert_eq!(
            framer.next_frame(|_| Ok::<_, Error>(Some(11))),
            Err(Error::frame_length(11, 1, 10))
        );
        assert_eq!(
            framer.next_frame(|_| Err(sbe_rt::Error::unknown_template_id(7))),
            Err(Error::Message(sbe_rt::Error::unknown_template_id(7)))
        );
        assert_eq!(
            framer.next_frame(|b| Err(Error::truncated(8, b.len()))),
            Ok(None)
        );
        assert_eq!(framer.buffered(), 3);
        assert_eq!(
            framer
                .next_frame(|_| Ok::<_, Error>(Some(3)))
                .unwrap()
                .unwrap(),
            [0, 0, 9][..]
        );
    }

    #[test]
    fn frames_do_not_copy_and_buffer_is_reused() {
        let message = toy_message(3);
        let mut framer = Framer::with_capacity(256);
        framer.push(&message);
        let base = framer.pending().as_ptr();
        let frame = framer.next_frame(toy_len).unwrap().unwrap();
        // The frame points into the framer's buffer: no copy.
        assert_eq!(frame.as_ptr(), base);
        drop(frame);
        // With the frame gone, the next push reuses the same allocation.
        for _ in 0..100 {
            framer.push(&message);
            let frame = framer.next_frame(toy_len).unwrap().unwrap();
            assert_eq!(frame, message);
        }
        framer.push(&message);
        let at = framer.pending().as_ptr() as usize;
        assert!(at >= base as usize && at + message.len() <= base as usize + 256);
    }

    #[cfg(feature = "std")]
    #[test]
    fn read_from_a_reader() {
        let messages: Vec<Vec<u8>> = (0..10).map(toy_message).collect();
        let stream = sofh_stream(&messages);
        let mut reader = &stream[..];
        let mut framer = Framer::new();
        let mut got = Vec::new();
        loop {
            let n = framer.read_from(&mut reader, 5).unwrap();
            while let Some(frame) = framer.next_sofh_frame().unwrap() {
                got.push(frame.message);
            }
            if n == 0 {
                break;
            }
        }
        assert_eq!(got, messages);
        assert_eq!(framer.buffered(), 0);

        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("boom"))
            }
        }
        framer.push(b"xy");
        assert!(framer.read_from(&mut Failing, 16).is_err());
        assert_eq!(framer.pending(), b"xy");
        assert_eq!(framer.read_from(&mut Failing, 0).ok(), None);
    }
}
