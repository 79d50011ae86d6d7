//! The conversions generated owned messages (`Config::owned`) make between
//! wire bytes and `String`s: char arrays and text var data are UTF-8 when
//! the schema's `characterEncoding` is UTF-8, else ISO-8859-1 (one byte,
//! one code point), as FORMAT.md and the JSON writer read them. Each pair
//! round-trips: the bytes a `String` was made of are the bytes it writes.

use alloc::borrow::Cow;
use alloc::string::String;

use crate::error::{Error, Result};
use crate::text::{as_str, trim_nul};

/// Text var data (or a char array's bytes up to its first NUL) as a
/// `String`: UTF-8 checked (`Err(InvalidText)`), or ISO-8859-1.
///
/// ```
/// use sbe_rt::__private::owned::text;
///
/// assert_eq!(text("grüße".as_bytes(), true).as_deref(), Ok("grüße"));
/// assert_eq!(text(b"gr\xfc\xdfe", false).as_deref(), Ok("grüße"));
/// assert!(text(b"gr\xfc", true).is_err());
/// ```
pub fn text(bytes: &[u8], utf8: bool) -> Result<String> {
    if utf8 {
        as_str(bytes).map(String::from)
    } else {
        Ok(bytes.iter().map(|&b| char::from(b)).collect())
    }
}

/// A char array's value: its bytes up to the first NUL, as [`text`].
///
/// ```
/// use sbe_rt::__private::owned::char_array;
///
/// assert_eq!(char_array(b"ab\0\0", true).as_deref(), Ok("ab"));
/// ```
pub fn char_array(bytes: &[u8], utf8: bool) -> Result<String> {
    text(trim_nul(bytes), utf8)
}

/// The bytes `s` is written as: itself (UTF-8), or one byte per code
/// point (ISO-8859-1; a code point above U+00FF is `Err(InvalidText)` at
/// its byte offset in `s`).
///
/// ```
/// use sbe_rt::__private::owned::text_bytes;
///
/// assert_eq!(&*text_bytes("grüße", false)?, b"gr\xfc\xdfe");
/// assert_eq!(&*text_bytes("grüße", true)?, "grüße".as_bytes());
/// assert!(text_bytes("€", false).is_err());
/// # Ok::<(), sbe_rt::Error>(())
/// ```
pub fn text_bytes(s: &str, utf8: bool) -> Result<Cow<'_, [u8]>> {
    if utf8 || s.is_ascii() {
        return Ok(Cow::Borrowed(s.as_bytes()));
    }
    s.char_indices()
        .map(|(offset, c)| u8::try_from(c).map_err(|_| Error::invalid_text(offset)))
        .collect::<Result<alloc::vec::Vec<u8>>>()
        .map(Cow::Owned)
}

/// How many bytes [`text_bytes`] writes `s` as (ISO-8859-1: one per code
/// point).
///
/// ```
/// assert_eq!(sbe_rt::__private::owned::text_len("grüße", true), 7);
/// assert_eq!(sbe_rt::__private::owned::text_len("grüße", false), 5);
/// ```
pub fn text_len(s: &str, utf8: bool) -> usize {
    if utf8 {
        s.len()
    } else {
        s.chars().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value round-trips through ISO-8859-1 text.
    #[test]
    fn latin1_round_trips_every_byte() {
        let bytes: alloc::vec::Vec<u8> = (0..=255).collect();
        let s = text(&bytes, false).unwrap_or_default();
        assert_eq!(s.chars().count(), 256);
        assert_eq!(text_len(&s, false), 256);
        assert_eq!(text_bytes(&s, false).as_deref(), Ok(&bytes[..]));
    }

    #[test]
    fn code_points_above_latin1_are_refused_where_they_are() {
        assert_eq!(text_bytes("ab€", false), Err(Error::invalid_text(2)));
    }
}
