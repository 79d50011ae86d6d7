//! Simple Open Framing Header (SOFH).
//!
//! A SOFH is 6 bytes in front of each message, always big-endian:
//!
//! | offset | type   | meaning |
//! |--------|--------|---------|
//! | 0      | uint32 | message length: the **whole frame**, these 6 bytes included |
//! | 4      | uint16 | encoding type: [`SOFH_SBE_LE`] (`0xEB50`) for SBE 1.0 little-endian, [`SOFH_SBE_BE`] (`0x5BE0`) for SBE big-endian |
//!
//! These functions need no allocation and no feature; the stream
//! `Framer` (feature `bytes`) builds on them.
//!
//! ```
//! use sbe_rt::sofh::{read_sofh, write_sofh, SofhHeader, SOFH_LEN, SOFH_SBE_LE};
//!
//! let message = [1u8, 2, 3];
//! let mut frame = [0u8; SOFH_LEN + 3];
//! write_sofh(&mut frame, message.len(), SOFH_SBE_LE)?;
//! frame[SOFH_LEN..].copy_from_slice(&message);
//! assert_eq!(frame[..SOFH_LEN], [0, 0, 0, 9, 0xeb, 0x50]);
//!
//! let header = read_sofh(&frame)?.expect("6 bytes are there");
//! assert_eq!(header, SofhHeader { message_length: 9, encoding_type: SOFH_SBE_LE });
//! assert_eq!(header.body_len(), 3);
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::wire::{get_u16_be, get_u32_be, put_u16_be, put_u32_be};

/// Length of a Simple Open Framing Header: 6 bytes.
pub const SOFH_LEN: usize = 6;

/// SOFH encoding type of SBE 1.0 little-endian messages: `0xEB50`.
pub const SOFH_SBE_LE: u16 = 0xEB50;

/// SOFH encoding type of SBE 1.0 big-endian messages: `0x5BE0`.
pub const SOFH_SBE_BE: u16 = 0x5BE0;

/// A decoded Simple Open Framing Header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SofhHeader {
    /// Length of the whole frame, the 6 header bytes included (at least 6
    /// in a header returned by [`read_sofh`]).
    pub message_length: u32,
    /// Encoding type, e.g. [`SOFH_SBE_LE`] or [`SOFH_SBE_BE`].
    pub encoding_type: u16,
}

impl SofhHeader {
    /// Length of the whole frame (header included), as a `usize`.
    #[must_use]
    pub fn frame_len(&self) -> usize {
        self.message_length as usize
    }

    /// Length of the message after the header (0 if `message_length` is
    /// below 6).
    #[must_use]
    pub fn body_len(&self) -> usize {
        self.frame_len().saturating_sub(SOFH_LEN)
    }

    /// Whether the encoding type is [`SOFH_SBE_LE`] or [`SOFH_SBE_BE`].
    ///
    /// When it is neither, the bytes are most likely not SOFH-framed at
    /// all (raw SBE messages read as SOFH, say), and the length means
    /// nothing: check this before waiting for `message_length` bytes.
    ///
    /// ```
    /// use sbe_rt::sofh::read_sofh;
    ///
    /// // A raw message header (blockLength 45, templateId 1, schemaId 1,
    /// // version 0) read as a SOFH: a frame of 754,974,976 bytes of
    /// // encoding type 0x0100.
    /// let raw = [45u8, 0, 1, 0, 1, 0, 0, 0];
    /// let header = read_sofh(&raw)?.expect("6 bytes are there");
    /// assert_eq!(header.message_length, 754_974_976);
    /// assert_eq!(header.encoding_type, 0x0100);
    /// assert!(!header.is_sbe());
    /// # Ok::<(), sbe_rt::Error>(())
    /// ```
    #[must_use]
    pub fn is_sbe(&self) -> bool {
        matches!(self.encoding_type, SOFH_SBE_LE | SOFH_SBE_BE)
    }
}

/// Reads the SOFH at the start of `buf`.
///
/// `Ok(None)` when `buf` holds fewer than 6 bytes (more are needed); an
/// [`Error::FrameLength`] when the header's length is below 6 (it cannot
/// even hold the header). The encoding type is not checked: see
/// [`SofhHeader::is_sbe`], which tells a stream that is not SOFH-framed
/// from one with a corrupt length.
///
/// ```
/// use sbe_rt::{sofh::read_sofh, Error};
///
/// assert_eq!(read_sofh(&[0, 0, 0]), Ok(None));
/// assert_eq!(
///     read_sofh(&[0, 0, 0, 5, 0xeb, 0x50]),
///     Err(Error::FrameLength { length: 5, min: 6, max: u32::MAX as u64 })
/// );
/// ```
pub fn read_sofh(buf: &[u8]) -> Result<Option<SofhHeader>> {
    if buf.len() < SOFH_LEN {
        return Ok(None);
    }
    let header = SofhHeader {
        message_length: get_u32_be(buf, 0),
        encoding_type: get_u16_be(buf, 4),
    };
    if header.frame_len() < SOFH_LEN {
        return Err(Error::FrameLength {
            length: u64::from(header.message_length),
            min: SOFH_LEN as u64,
            max: u64::from(u32::MAX),
        });
    }
    Ok(Some(header))
}

/// Writes a SOFH at the start of `dst` for a message of `message_len` bytes
/// that follows it (so the header's length field is `message_len + 6`).
///
/// Fails with [`Error::Truncated`] when `dst` is shorter than 6 bytes and
/// with [`Error::LengthOutOfRange`] when the frame would be longer than
/// `u32::MAX` bytes; nothing is written then.
///
/// ```
/// use sbe_rt::sofh::{write_sofh, SOFH_SBE_BE};
///
/// let mut buf = [0u8; 6];
/// write_sofh(&mut buf, 62, SOFH_SBE_BE)?;
/// assert_eq!(buf, [0, 0, 0, 68, 0x5b, 0xe0]);
/// # Ok::<(), sbe_rt::Error>(())
/// ```
pub fn write_sofh(dst: &mut [u8], message_len: usize, encoding: u16) -> Result<()> {
    let max = u32::MAX as usize - SOFH_LEN;
    if message_len > max {
        return Err(Error::LengthOutOfRange {
            length: message_len as u64,
            max: max as u64,
        });
    }
    crate::wire::check_len(dst, SOFH_LEN)?;
    // Cannot truncate: checked against `u32::MAX - 6` above.
    put_u32_be(dst, 0, (message_len + SOFH_LEN) as u32);
    put_u16_be(dst, 4, encoding);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut buf = [0xffu8; 8];
        write_sofh(&mut buf, 62, SOFH_SBE_LE).unwrap();
        // The example in the FIX corpus: a 68-byte file starts 00000044 eb50.
        assert_eq!(buf, [0, 0, 0, 0x44, 0xeb, 0x50, 0xff, 0xff]);
        let h = read_sofh(&buf).unwrap().unwrap();
        assert_eq!(h.message_length, 68);
        assert_eq!(h.encoding_type, SOFH_SBE_LE);
        assert_eq!(h.frame_len(), 68);
        assert_eq!(h.body_len(), 62);
        assert!(h.is_sbe());

        write_sofh(&mut buf, 0, SOFH_SBE_BE).unwrap();
        let h = read_sofh(&buf[..6]).unwrap().unwrap();
        assert_eq!(
            h,
            SofhHeader {
                message_length: 6,
                encoding_type: SOFH_SBE_BE
            }
        );
        assert_eq!(h.body_len(), 0);
        assert!(h.is_sbe());
        assert!(!SofhHeader {
            message_length: 6,
            encoding_type: 1
        }
        .is_sbe());
    }

    #[test]
    fn short_or_bad_headers() {
        for n in 0..SOFH_LEN {
            assert_eq!(read_sofh(&[0xff; 6][..n]), Ok(None));
        }
        for len in 0..6u8 {
            assert_eq!(
                read_sofh(&[0, 0, 0, len, 0xeb, 0x50]),
                Err(Error::FrameLength {
                    length: u64::from(len),
                    min: 6,
                    max: u64::from(u32::MAX)
                })
            );
        }
        let h = read_sofh(&[0xff, 0xff, 0xff, 0xff, 0, 0]).unwrap().unwrap();
        assert_eq!(h.frame_len(), u32::MAX as usize);
    }

    #[test]
    fn write_errors() {
        let mut small = [0u8; 5];
        assert_eq!(
            write_sofh(&mut small, 1, SOFH_SBE_LE),
            Err(Error::Truncated {
                needed: 6,
                available: 5
            })
        );
        assert_eq!(small, [0; 5]);
        let mut buf = [0u8; 6];
        assert_eq!(
            write_sofh(&mut buf, u32::MAX as usize - 5, SOFH_SBE_LE),
            Err(Error::LengthOutOfRange {
                length: u64::from(u32::MAX) - 5,
                max: u64::from(u32::MAX) - 6
            })
        );
        write_sofh(&mut buf, u32::MAX as usize - 6, SOFH_SBE_LE).unwrap();
        assert_eq!(buf, [0xff, 0xff, 0xff, 0xff, 0xeb, 0x50]);
    }
}
