//! A tokio-util codec for framed SBE streams (feature `tokio`).
//!
//! [`FrameCodec`] is a [`Decoder`] and an [`Encoder`] for any stream
//! [`FrameFormat`] (SOFH, the 4-byte little-endian header of iLink 3 and
//! B3, a custom one): with `FramedRead` / `FramedWrite` / `Framed` over a
//! TCP stream it yields each message as [`Bytes`] (the SBE message, its
//! prefix and padding removed, sharing the read buffer: no copy), which a
//! generated `decode` takes as `&frame[..]`, and writes a message with its
//! framing header in front. The rules are the [crate root](crate)'s:
//! a wrong encoding type or a length that cannot be right is a
//! [`CodecError::Frame`], and so is a stream that ends inside a frame.
//!
//! `tokio_util` is re-exported as `sbe_framing::tokio_util`.
//!
//! # Example
//!
//! In memory, as `FramedRead` drives it:
//!
//! ```
//! use sbe_framing::bytes::BytesMut;
//! use sbe_framing::FrameFormat;
//! use sbe_framing::codec::FrameCodec;
//! use sbe_framing::tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = FrameCodec::new(FrameFormat::SOFH_LE); // iLink 3: 0xCAFE
//! let mut wire = BytesMut::new();
//! codec.encode(&b"an SBE message"[..], &mut wire)?;
//! codec.encode(&b"another"[..], &mut wire)?;
//! assert_eq!(wire[..4], [18, 0, 0xfe, 0xca]);
//!
//! // Half of the first frame: not yet.
//! let mut read = wire.split_to(9);
//! assert_eq!(codec.decode(&mut read)?, None);
//! read.unsplit(wire);
//! let frame = codec.decode(&mut read)?.expect("a whole frame");
//! assert_eq!(frame, &b"an SBE message"[..]); // what a generated decode(&frame) takes
//! assert_eq!(codec.decode(&mut read)?.as_deref(), Some(&b"another"[..]));
//! assert_eq!(codec.decode_eof(&mut read)?, None);
//! # Ok::<(), sbe_framing::codec::CodecError>(())
//! ```
//!
//! Over TCP:
//!
//! ```no_run
//! use sbe_framing::FrameFormat;
//! use sbe_framing::codec::FrameCodec;
//! use sbe_framing::tokio_util::codec::FramedRead;
//! use futures_util::StreamExt;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let stream = tokio::net::TcpStream::connect("127.0.0.1:9000").await?;
//! let mut frames = FramedRead::new(stream, FrameCodec::new(FrameFormat::SOFH));
//! while let Some(frame) = frames.next().await {
//!     let frame = frame?; // a Bytes: the message, SOFH removed
//!     // let message = my_schema::decode(&frame)?;
//!     println!("{} bytes", frame.len());
//! }
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::io;

use bytes::{BufMut, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::error::Error;
use crate::framer::split_frame;
use crate::{Endian, FrameFormat, Framing, FramingError};

/// The longest frame a [`FrameCodec`] accepts by default: 8 MiB.
pub const DEFAULT_MAX_FRAME_LEN: usize = 8 << 20;

/// A [`Decoder`] / [`Encoder`] of frames of one [`FrameFormat`]; see the
/// [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameCodec {
    format: FrameFormat,
    max_frame_len: usize,
    encoding_type: u16,
}

impl FrameCodec {
    /// A codec of `format` frames of at most [`DEFAULT_MAX_FRAME_LEN`]
    /// bytes, writing the format's
    /// [default encoding type](FrameFormat::default_encoding_type).
    #[must_use]
    pub fn new(format: FrameFormat) -> Self {
        FrameCodec {
            format,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            encoding_type: format.default_encoding_type(),
        }
    }

    /// A codec of `framing`'s frames for messages of a schema of byte order
    /// `order`, writing the encoding type
    /// [`Framing::encoding_type`]`(order)` (for `sofh`, the SOFH encoding
    /// type of the byte order; decoding accepts both, as
    /// [`FrameFormat::SOFH`] does). A packet framing is a
    /// [`FramingError::Packet`] (a stream has no datagram boundaries), and
    /// `raw` a [`FramingError::Raw`] (a codec cannot size a message by its
    /// content: split raw streams with the `Framer` and a length function).
    ///
    /// ```
    /// use sbe_framing::bytes::BytesMut;
    /// use sbe_framing::{Endian, Framing, FramingError};
    /// use sbe_framing::codec::FrameCodec;
    /// use sbe_framing::tokio_util::codec::Encoder;
    ///
    /// let mut codec = FrameCodec::for_framing(Framing::Sofh, Endian::Big)?;
    /// let mut wire = BytesMut::new();
    /// codec.encode(&b"x"[..], &mut wire).unwrap();
    /// assert_eq!(wire[..], [0, 0, 0, 7, 0x5b, 0xe0, b'x']);
    /// assert_eq!(
    ///     FrameCodec::for_framing(Framing::Mdp3, Endian::Little),
    ///     Err(FramingError::Packet { header_len: 12 })
    /// );
    /// assert_eq!(FrameCodec::for_framing(Framing::Raw, Endian::Little), Err(FramingError::Raw));
    /// # Ok::<(), FramingError>(())
    /// ```
    pub fn for_framing(framing: Framing, order: Endian) -> Result<Self, FramingError> {
        let format = framing.stream_format()?.ok_or(FramingError::Raw)?;
        let codec = Self::new(format);
        Ok(match framing.encoding_type(order) {
            Some(encoding_type) => codec.encoding_type(encoding_type),
            None => codec,
        })
    }

    /// Sets the longest frame (prefix included) decoded or encoded; a
    /// longer one is an [`Error::FrameLength`].
    ///
    /// ```
    /// use sbe_framing::{bytes::BytesMut, FrameFormat, codec::{CodecError, FrameCodec}, Error};
    /// use sbe_framing::tokio_util::codec::Decoder;
    ///
    /// let mut codec = FrameCodec::new(FrameFormat::SOFH).max_frame_len(1024);
    /// let mut wire = BytesMut::from(&[0, 0, 0x10, 0, 0xeb, 0x50][..]); // 4096 bytes
    /// assert!(matches!(
    ///     codec.decode(&mut wire),
    ///     Err(CodecError::Frame(e)) if e == Error::frame_length(4096, 6, 1024)
    /// ));
    /// ```
    #[must_use]
    pub fn max_frame_len(mut self, max: usize) -> Self {
        self.max_frame_len = max;
        self
    }

    /// Sets the encoding type the encoder writes (B3's `0xEB50` with
    /// [`FrameFormat::SOFH_LE`], say; SBE big-endian's `0x5BE0` with
    /// [`FrameFormat::SOFH`]). It must be one the format expects.
    #[must_use]
    pub fn encoding_type(mut self, encoding_type: u16) -> Self {
        self.encoding_type = encoding_type;
        self
    }

    /// The frame format.
    #[must_use]
    pub fn format(&self) -> &FrameFormat {
        &self.format
    }

    /// Appends the frame of `message` to `dst`: prefix, message, padding;
    /// with prefix 0 (the length inside the message header) the message's
    /// length field is set. `dst` is left as it was on error.
    fn encode_slice(&self, message: &[u8], dst: &mut BytesMut) -> Result<(), CodecError> {
        let (min, max) = self.format.length_bounds(self.max_frame_len);
        let too_long =
            Error::frame_length(u64::try_from(message.len()).unwrap_or(u64::MAX), min, max);
        let len = self.format.encoded_len(message.len()).ok_or(too_long)?;
        // The frame's own length (before padding) against the limit.
        let unpadded = self.format.prefix_len.saturating_add(message.len());
        if unpadded > self.max_frame_len {
            return Err(too_long.into());
        }
        let start = dst.len();
        dst.reserve(len);
        dst.put_bytes(0, self.format.prefix_len);
        dst.extend_from_slice(message);
        dst.put_bytes(0, len.saturating_sub(dst.len() - start));
        let written = match dst.get_mut(start..) {
            Some(frame) => self
                .format
                .write_header(frame, message.len(), self.encoding_type),
            None => Err(Error::truncated(len, 0)),
        };
        if let Err(e) = written {
            dst.truncate(start);
            return Err(e.into());
        }
        Ok(())
    }
}

impl Decoder for FrameCodec {
    type Item = Bytes;
    type Error = CodecError;

    /// The next message, once its whole frame is in `src`; consumes
    /// nothing on `Ok(None)` or an error.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        Ok(split_frame(src, &self.format, self.max_frame_len)?.map(|f| f.message))
    }

    /// As `decode`; at the end of the stream, bytes left that are not a
    /// whole frame are an [`Error::Truncated`] (what the frame needs, what
    /// is there).
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        if src.is_empty() {
            return Ok(None);
        }
        let needed = match self.format.read_header(src, self.max_frame_len)? {
            Some(header) => header.padded_len,
            None => self.format.header_len(),
        };
        Err(Error::truncated(needed, src.len()).into())
    }
}

impl Encoder<&[u8]> for FrameCodec {
    type Error = CodecError;

    /// Writes `message` behind its framing header (and padding).
    fn encode(&mut self, message: &[u8], dst: &mut BytesMut) -> Result<(), CodecError> {
        self.encode_slice(message, dst)
    }
}

impl Encoder<Bytes> for FrameCodec {
    type Error = CodecError;

    /// Writes `message` behind its framing header (and padding).
    fn encode(&mut self, message: Bytes, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.encode_slice(&message, dst)
    }
}

/// What can go wrong in a [`FrameCodec`]: a bad frame, or the I/O under it.
#[derive(Debug)]
#[non_exhaustive]
pub enum CodecError {
    /// A frame that cannot be right (or a message that cannot be framed).
    Frame(Error),
    /// Reading or writing failed.
    Io(io::Error),
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::Frame(e) => write!(f, "bad frame: {e}"),
            CodecError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for CodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CodecError::Frame(e) => Some(e),
            CodecError::Io(e) => Some(e),
        }
    }
}

impl From<io::Error> for CodecError {
    fn from(e: io::Error) -> Self {
        CodecError::Io(e)
    }
}

impl From<Error> for CodecError {
    fn from(e: Error) -> Self {
        CodecError::Frame(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Expect, LengthField};
    use std::string::ToString;
    use std::vec::Vec;

    fn frames(codec: &mut FrameCodec, wire: &[u8], chunk: usize) -> Vec<Bytes> {
        let mut buf = BytesMut::new();
        let mut got = Vec::new();
        for piece in wire.chunks(chunk) {
            buf.extend_from_slice(piece);
            while let Some(f) = codec.decode(&mut buf).unwrap() {
                got.push(f);
            }
        }
        assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
        got
    }

    #[test]
    fn encode_then_decode_in_pieces() {
        let messages: Vec<Vec<u8>> = (0..20u8)
            .map(|i| (0..(8 + i)).map(|j| i ^ j).collect())
            .collect();
        let padded = FrameFormat::new(0, LengthField::u16_le(0)).with_align(8);
        for format in [
            FrameFormat::SOFH,
            FrameFormat::SOFH_LE,
            FrameFormat::MDP3_MESSAGE,
            padded,
        ] {
            let mut codec = FrameCodec::new(format);
            let mut wire = BytesMut::new();
            for m in &messages {
                codec.encode(&m[..], &mut wire).unwrap();
                codec.encode(Bytes::copy_from_slice(m), &mut wire).unwrap();
            }
            for chunk in [1, 3, 7, 64, wire.len()] {
                let got = frames(&mut codec, &wire, chunk);
                assert_eq!(got.len(), 2 * messages.len(), "{format:?}");
                for (pair, m) in got.chunks(2).zip(&messages) {
                    if format == padded {
                        // The length field was set to the message's length.
                        let mut own = m.clone();
                        own[..2].copy_from_slice(&(m.len() as u16).to_le_bytes());
                        assert_eq!(pair, [&own[..], &own[..]]);
                    } else {
                        assert_eq!(pair, [&m[..], &m[..]]);
                    }
                }
            }
        }
    }

    #[test]
    fn bad_frames_and_a_cut_stream_are_errors() {
        let mut codec = FrameCodec::new(FrameFormat::SOFH);
        let mut buf = BytesMut::from(&[45u8, 0, 1, 0, 1, 0, 0, 0][..]);
        let err = codec.decode(&mut buf).unwrap_err();
        assert!(
            matches!(
                err,
                CodecError::Frame(e) if e == Error::frame_encoding(0x0100, Expect::Either(0xEB50, 0x5BE0))
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "bad frame: not a SOFH header: encoding type 0x0100, expected 0xeb50 or 0x5be0"
        );
        assert_eq!(buf.len(), 8, "nothing consumed");

        // Cut mid-prefix and mid-message.
        for (wire, needed) in [(&[0u8, 0, 0][..], 6), (&[0, 0, 0, 9, 0xeb, 0x50, 1][..], 9)] {
            let mut buf = BytesMut::from(wire);
            assert_eq!(codec.decode(&mut buf).unwrap(), None);
            let err = codec.decode_eof(&mut buf).unwrap_err();
            assert!(
                matches!(err, CodecError::Frame(e) if e == Error::truncated(needed, wire.len())),
                "{err:?}"
            );
        }
        // A length shorter than the header, and above the limit.
        let mut buf = BytesMut::from(&[0u8, 0, 0, 5, 0xeb, 0x50][..]);
        assert!(matches!(
            codec.decode(&mut buf),
            Err(CodecError::Frame(e)) if matches!(e, Error::FrameLength { length: 5, .. })
        ));
        let mut buf = BytesMut::from(&[0x7fu8, 0, 0, 0, 0xeb, 0x50][..]);
        assert!(matches!(
            codec.decode(&mut buf),
            Err(CodecError::Frame(e)) if matches!(e, Error::FrameLength { max: 0x80_0000, .. })
        ));
    }

    #[test]
    fn encode_refuses_what_cannot_be_framed() {
        let mut wire = BytesMut::from(&b"kept"[..]);
        let mut codec = FrameCodec::new(FrameFormat::SOFH_LE);
        assert!(codec.encode(&[0u8; 65532][..], &mut wire).is_err());
        let mut small = FrameCodec::new(FrameFormat::SOFH).max_frame_len(10);
        assert!(small.encode(&[0u8; 5][..], &mut wire).is_err());
        small.encode(&[0u8; 4][..], &mut wire).unwrap();
        assert_eq!(&wire[..], b"kept\0\0\0\x0a\xeb\x50\0\0\0\0");
        wire.truncate(4);
        let mut wrong = FrameCodec::new(FrameFormat::SOFH).encoding_type(0xCAFE);
        let err = wrong.encode(&b"x"[..], &mut wire).unwrap_err();
        assert!(matches!(
            err,
            CodecError::Frame(e) if matches!(e, Error::FrameEncoding { .. })
        ));
        assert_eq!(&wire[..], b"kept");
        let mut b3 = FrameCodec::new(FrameFormat::SOFH_LE).encoding_type(0xEB50);
        b3.encode(&b"x"[..], &mut wire).unwrap();
        assert_eq!(&wire[4..], [5, 0, 0x50, 0xeb, b'x']);
        assert_eq!(b3.format(), &FrameFormat::SOFH_LE);
        // A message too short to hold its own length field (prefix 0).
        let mut inside = FrameCodec::new(FrameFormat::new(0, LengthField::u16_le(2)));
        assert!(inside.encode(&b"abc"[..], &mut wire).is_err());
        assert_eq!(wire.len(), 9);
    }

    #[test]
    fn for_framing_takes_stream_framings_and_their_encoding_types() {
        let cases: [(&str, Endian, &[u8]); 5] = [
            ("sofh", Endian::Little, b"\0\0\0\x07\xeb\x50x"),
            ("sofh", Endian::Big, b"\0\0\0\x07\x5b\xe0x"),
            ("sofh-le", Endian::Big, b"\x05\0\xfe\xcax"),
            (
                "len=u16le,enc=u16le=0xeb50",
                Endian::Little,
                b"\x05\0\x50\xebx",
            ),
            (
                "len=u32be,counts=message,align=8",
                Endian::Little,
                b"\0\0\0\x01x\0\0\0",
            ),
        ];
        for (text, order, want) in cases {
            let framing: Framing = text.parse().unwrap();
            let mut codec = FrameCodec::for_framing(framing, order).unwrap();
            assert_eq!(Some(*codec.format()), framing.frame_format());
            let mut wire = BytesMut::new();
            codec.encode(&b"x"[..], &mut wire).unwrap();
            assert_eq!(&wire[..], want, "{text}");
            assert_eq!(codec.decode(&mut wire).unwrap().as_deref(), Some(&b"x"[..]));
        }
        assert_eq!(
            FrameCodec::for_framing("packet=8,len=u16le".parse().unwrap(), Endian::Little),
            Err(FramingError::Packet { header_len: 8 })
        );
        assert_eq!(
            FrameCodec::for_framing(Framing::Raw, Endian::Little),
            Err(FramingError::Raw)
        );
    }

    #[test]
    fn io_errors_convert() {
        let e: CodecError = io::Error::other("boom").into();
        assert_eq!(e.to_string(), "I/O error: boom");
        assert!(std::error::Error::source(&e).is_some());
    }
}
