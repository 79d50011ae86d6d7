//! Helpers for fixed-size char arrays.
//!
//! SBE char arrays are fixed-size and padded with NUL bytes: a value is the
//! bytes up to the first NUL (all of them when there is none). Arrays whose
//! `characterEncoding` is UTF-8 are read with [`as_str`]; others are
//! ISO-8859-1, one byte per code point (see `JsonWriter::latin1`, feature
//! `alloc`).
//!
//! ```
//! use sbe_rt::text::{as_str, put_char_array, trim_nul};
//!
//! let mut block = [0xffu8; 8];
//! put_char_array(&mut block, 1, 6, b"abc")?;
//! assert_eq!(block, *b"\xffabc\0\0\0\xff");
//! assert_eq!(as_str(trim_nul(&block[1..7]))?, "abc");
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use crate::error::{slow, Error, Result};
use crate::wire::slice_mut;

/// The bytes of `bytes` before its first NUL, or all of them when there is
/// no NUL.
///
/// ```
/// assert_eq!(sbe_rt::text::trim_nul(b"ab\0c\0"), b"ab");
/// assert_eq!(sbe_rt::text::trim_nul(b"abc"), b"abc");
/// assert_eq!(sbe_rt::text::trim_nul(b"\0abc"), b"");
/// ```
#[inline]
#[must_use]
pub fn trim_nul(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == 0) {
        Some(end) => bytes.get(..end).unwrap_or(bytes),
        None => bytes,
    }
}

/// `bytes` as UTF-8 text, borrowed.
///
/// Fails with [`ErrorKind::InvalidText`](crate::ErrorKind::InvalidText) whose `offset` is the position, within
/// `bytes`, of the first byte that is not part of a valid UTF-8 sequence
/// (a sequence cut off at the end counts as invalid). Does not trim NULs;
/// combine with [`trim_nul`] for char arrays.
///
/// ```
/// use sbe_rt::{text::as_str, Error};
///
/// assert_eq!(as_str("grüße".as_bytes()), Ok("grüße"));
/// assert_eq!(as_str(b"ab\xffcd"), Err(Error::invalid_text(2)));
/// ```
#[inline]
pub fn as_str(bytes: &[u8]) -> Result<&str> {
    core::str::from_utf8(bytes).map_err(|e| slow::invalid_text(e.valid_up_to()))
}

/// Writes `src` into the char array `dst[offset..offset + len]` and pads the
/// rest of the array with NUL bytes.
///
/// Fails, writing nothing, with [`ErrorKind::LengthOutOfRange`](crate::ErrorKind::LengthOutOfRange) when `src` is
/// longer than `len`, and with [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) when the array does not
/// fit in `dst`.
///
/// ```
/// use sbe_rt::{text::put_char_array, Error};
///
/// let mut buf = [0xffu8; 6];
/// put_char_array(&mut buf, 0, 4, b"ab")?;
/// assert_eq!(buf, *b"ab\0\0\xff\xff");
/// assert_eq!(
///     put_char_array(&mut buf, 0, 4, b"abcde"),
///     Err(Error::length_out_of_range(5, 4))
/// );
/// assert_eq!(
///     put_char_array(&mut buf, 4, 4, b"ab"),
///     Err(Error::truncated(8, 6))
/// );
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn put_char_array(dst: &mut [u8], offset: usize, len: usize, src: &[u8]) -> Result<()> {
    if src.len() > len {
        return Err(Error::length_out_of_range(src.len() as u64, len as u64));
    }
    let array = slice_mut(dst, offset, len)?;
    // `src.len() <= len == array.len()`, so the split always succeeds.
    if let Some((value, padding)) = array.split_at_mut_checked(src.len()) {
        value.copy_from_slice(src);
        padding.fill(0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_nul_cases() {
        assert_eq!(trim_nul(b""), b"");
        assert_eq!(trim_nul(b"\0"), b"");
        assert_eq!(trim_nul(b"a\0\0"), b"a");
        assert_eq!(trim_nul(b"a\0b"), b"a");
        assert_eq!(trim_nul(b"abcd"), b"abcd");
    }

    #[test]
    fn as_str_reports_the_bad_byte() {
        assert_eq!(as_str(b""), Ok(""));
        assert_eq!(as_str(b"plain"), Ok("plain"));
        assert_eq!(as_str(b"\xff"), Err(Error::invalid_text(0)));
        // "é" cut in half at the end.
        assert_eq!(as_str(b"abc\xc3"), Err(Error::invalid_text(3)));
        // A valid 2-byte sequence, then a stray continuation byte.
        assert_eq!(as_str(b"\xc3\xa9\x80"), Err(Error::invalid_text(2)));
        // NULs are valid UTF-8 and kept.
        assert_eq!(as_str(b"a\0"), Ok("a\0"));
    }

    #[test]
    fn put_char_array_pads_and_checks() {
        let mut buf = [0xaau8; 10];
        put_char_array(&mut buf, 2, 5, b"hello").unwrap();
        assert_eq!(buf, *b"\xaa\xaahello\xaa\xaa\xaa");
        put_char_array(&mut buf, 2, 5, b"").unwrap();
        assert_eq!(buf, *b"\xaa\xaa\0\0\0\0\0\xaa\xaa\xaa");
        put_char_array(&mut buf, 9, 1, b"z").unwrap();
        assert_eq!(buf[9], b'z');
        put_char_array(&mut buf, 10, 0, b"").unwrap();

        let before = buf;
        assert_eq!(
            put_char_array(&mut buf, 0, 2, b"abc"),
            Err(Error::length_out_of_range(3, 2))
        );
        assert_eq!(
            put_char_array(&mut buf, 8, 3, b"a"),
            Err(Error::truncated(11, 10))
        );
        assert_eq!(
            put_char_array(&mut buf, usize::MAX, 3, b"a"),
            Err(Error::truncated(usize::MAX, 10))
        );
        assert_eq!(buf, before);
    }
}
