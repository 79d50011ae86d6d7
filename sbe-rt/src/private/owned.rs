//! The conversions generated owned messages (`Config::owned`) make between
//! wire bytes and `String`s: char arrays and text var data are UTF-8 when
//! the schema's `characterEncoding` is UTF-8, else ISO-8859-1 (one byte,
//! one code point), as FORMAT.md and the JSON writer read them. Each pair
//! round-trips: the bytes a `String` was made of are the bytes it writes.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

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
#[inline]
pub fn text(bytes: &[u8], utf8: bool) -> Result<String> {
    // ASCII reads the same in both encodings, and is the common case of
    // ISO-8859-1 text: one copy instead of a `char` at a time.
    if utf8 || is_ascii(bytes) {
        as_str(bytes).map(String::from)
    } else {
        Ok(latin1(bytes))
    }
}

/// Whether `bytes` are all ASCII, as `<[u8]>::is_ascii`, in two reads of
/// up to 8 bytes (which may overlap) for the short texts of messages, where
/// `is_ascii` tests one byte at a time below 8 bytes and after the last
/// whole word.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ends = |n| bytes.len() >= n && bytes.len() <= 2 * n;
    if ends(8) {
        if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            return (u64::from_ne_bytes(*a) | u64::from_ne_bytes(*b)) & HIGH == 0;
        }
    } else if ends(4) {
        if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            return (u32::from_ne_bytes(*a) | u32::from_ne_bytes(*b)) & 0x8080_8080 == 0;
        }
    } else if bytes.len() < 4 {
        return bytes.iter().fold(0, |acc, &b| acc | b) < 0x80;
    }
    bytes.is_ascii()
}

/// ISO-8859-1 bytes as a `String`: one code point per byte.
#[cold]
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// A char array's value: its bytes up to the first NUL, as [`text`].
///
/// ```
/// use sbe_rt::__private::owned::char_array;
///
/// assert_eq!(char_array(b"ab\0\0", true).as_deref(), Ok("ab"));
/// ```
#[inline]
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
    pass_text_bytes::<true>(s, utf8)
}

/// The bytes `s` is written as ([`text_bytes`]) in an encoder's pass
/// that converts text (`CONVERT`), or in one that does not: there, text
/// that needs converting (ISO-8859-1 text that is not ASCII) is
/// `Err(InvalidText)`, and the owned message's `encode` makes the
/// converting pass after a pass that failed. The pass that does not
/// convert only ever borrows `s`, so the `Cow` it returns costs nothing,
/// and the encoder it feeds has no call to make.
///
/// ```
/// use sbe_rt::__private::owned::pass_text_bytes;
///
/// assert_eq!(&*pass_text_bytes::<false>("grüße", true)?, "grüße".as_bytes());
/// assert_eq!(&*pass_text_bytes::<false>("gruss", false)?, b"gruss");
/// assert!(pass_text_bytes::<false>("grüße", false).is_err());
/// assert_eq!(&*pass_text_bytes::<true>("grüße", false)?, b"gr\xfc\xdfe");
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline(always)]
pub fn pass_text_bytes<const CONVERT: bool>(s: &str, utf8: bool) -> Result<Cow<'_, [u8]>> {
    if utf8 || is_ascii(s.as_bytes()) {
        Ok(Cow::Borrowed(s.as_bytes()))
    } else if CONVERT {
        latin1_bytes(s).map(Cow::Owned)
    } else {
        Err(Error::invalid_text(0))
    }
}

/// A char array's value `s` as the array's `N` bytes, NUL-padded: the
/// bytes [`text_bytes`] writes `s` as, `Err(LengthOutOfRange)` when they
/// are more than `N`. The encoder's setter takes the array (writing it as
/// it would write `s`'s bytes and pad them).
///
/// ```
/// use sbe_rt::__private::owned::char_array_bytes;
/// use sbe_rt::Error;
///
/// assert_eq!(char_array_bytes::<4>("ab", true), Ok(*b"ab\0\0"));
/// assert_eq!(char_array_bytes::<3>("123", false), Ok(*b"123"));
/// assert_eq!(char_array_bytes::<2>("é", false), Ok(*b"\xe9\0"));
/// assert_eq!(
///     char_array_bytes::<2>("abc", true),
///     Err(Error::length_out_of_range(3, 2))
/// );
/// ```
#[inline(always)]
pub fn char_array_bytes<const N: usize>(s: &str, utf8: bool) -> Result<[u8; N]> {
    pass_char_array_bytes::<N, true>(s, utf8)
}

/// [`char_array_bytes`] in a pass that converts text (`CONVERT`) or one
/// that does not, as [`pass_text_bytes`].
///
/// ```
/// use sbe_rt::__private::owned::pass_char_array_bytes;
///
/// assert_eq!(pass_char_array_bytes::<3, false>("ab", false), Ok(*b"ab\0"));
/// assert!(pass_char_array_bytes::<3, false>("é", false).is_err());
/// assert_eq!(pass_char_array_bytes::<3, true>("é", false), Ok(*b"\xe9\0\0"));
/// ```
#[inline(always)]
pub fn pass_char_array_bytes<const N: usize, const CONVERT: bool>(
    s: &str,
    utf8: bool,
) -> Result<[u8; N]> {
    if utf8 || is_ascii(s.as_bytes()) {
        padded(s.as_bytes())
    } else if CONVERT {
        padded(&latin1_bytes(s)?)
    } else {
        Err(Error::invalid_text(0))
    }
}

/// `bytes` NUL-padded to `N`; `Err(LengthOutOfRange)` when more than `N`.
#[inline(always)]
fn padded<const N: usize>(bytes: &[u8]) -> Result<[u8; N]> {
    // A value that fills the array (codes, mostly) is one copy of a
    // length known here.
    if let Ok(full) = <[u8; N]>::try_from(bytes) {
        return Ok(full);
    }
    let mut out = [0u8; N];
    match out.get_mut(..bytes.len()) {
        Some(head) => head.copy_from_slice(bytes),
        None => return Err(Error::length_out_of_range(bytes.len() as u64, N as u64)),
    }
    Ok(out)
}

/// The ISO-8859-1 bytes of `s`, which is not ASCII.
#[cold]
fn latin1_bytes(s: &str) -> Result<Vec<u8>> {
    s.char_indices()
        .map(|(offset, c)| u8::try_from(c).map_err(|_| Error::invalid_text(offset)))
        .collect()
}

/// Entries [`entries`] makes room for ahead, at most: a group's count is
/// only checked against the message once the message's `checked_length`
/// has walked it, and an entry's `to_owned` may be called without that, so
/// a count that lies (up to `u32::MAX`) must not size an allocation.
pub const ENTRIES_AHEAD: usize = 1024;

/// The owned entries of a group: `owned` of each entry of `entries`, into
/// a `Vec` made with room for the group's count (up to [`ENTRIES_AHEAD`])
/// rather than grown from empty.
///
/// ```
/// use sbe_rt::__private::owned::entries;
/// use sbe_rt::Error;
///
/// let v = entries([1u8, 2, 3].into_iter(), |x| Ok(u16::from(x) * 2))?;
/// assert_eq!(v.capacity(), 3);
/// assert_eq!(v, [2, 4, 6]);
/// let bad = entries([1u8].into_iter(), |_| Err::<u8, _>(Error::invalid_text(0)));
/// assert!(bad.is_err());
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn entries<I, T>(entries: I, mut owned: impl FnMut(I::Item) -> Result<T>) -> Result<Vec<T>>
where
    I: ExactSizeIterator,
{
    let mut v = Vec::with_capacity(entries.len().min(ENTRIES_AHEAD));
    for entry in entries {
        v.push(owned(entry)?);
    }
    Ok(v)
}

/// How many bytes [`text_bytes`] writes `s` as (ISO-8859-1: one per code
/// point).
///
/// ```
/// assert_eq!(sbe_rt::__private::owned::text_len("grüße", true), 7);
/// assert_eq!(sbe_rt::__private::owned::text_len("grüße", false), 5);
/// ```
pub fn text_len(s: &str, utf8: bool) -> usize {
    // ASCII, the usual text, is checked a word at a time: counting its
    // characters was most of an owned car's `encoded_length`.
    if utf8 || s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// A typed value an owned message holds for an integer field: a timestamp
/// (a count of the field's unit) or a date (days since 1970-01-01), read
/// and written as the field's typed accessor and setter do (the same
/// `Timestamp::from_count` / `to_units` and `Date::from_days` / `days`).
///
/// ```
/// use sbe_rt::__private::owned::WireInt;
/// use sbe_rt::{Date, TimeUnit, Timestamp};
///
/// let t = <Timestamp as WireInt<u64>>::from_wire(1_500, TimeUnit::Millis).unwrap();
/// assert_eq!(t, Timestamp::from_nanos(1_500_000_000));
/// assert_eq!(WireInt::<u64>::to_wire(t, TimeUnit::Millis), Ok(1_500));
/// assert!(WireInt::<u64>::to_wire(Timestamp::from_nanos(-1), TimeUnit::Nanos).is_err());
/// let none: Option<Timestamp> = WireInt::<Option<u64>>::from_wire(None, TimeUnit::Nanos).unwrap();
/// assert_eq!(none, None);
/// assert_eq!(WireInt::<u16>::to_wire(Date::from_days(19_000), TimeUnit::Nanos), Ok(19_000));
/// ```
pub trait WireInt<W>: Sized + Copy {
    /// The value of wire integer `w` (`unit`: a timestamp's; a date has
    /// none); `Err` where it does not fit (days beyond `i32`).
    fn from_wire(w: W, unit: crate::TimeUnit) -> core::result::Result<Self, crate::RangeError>;
    /// The wire integer; `Err` where the value does not fit it exactly.
    fn to_wire(self, unit: crate::TimeUnit) -> core::result::Result<W, crate::RangeError>;
}

impl<W: Into<i128> + TryFrom<i128> + Copy> WireInt<W> for crate::Timestamp {
    fn from_wire(w: W, unit: crate::TimeUnit) -> core::result::Result<Self, crate::RangeError> {
        Ok(Self::from_count(w.into(), unit))
    }
    fn to_wire(self, unit: crate::TimeUnit) -> core::result::Result<W, crate::RangeError> {
        self.to_units(unit)
    }
}

impl<W: Into<i128> + TryFrom<i128> + Copy> WireInt<W> for crate::Date {
    fn from_wire(w: W, _: crate::TimeUnit) -> core::result::Result<Self, crate::RangeError> {
        let days = i32::try_from(w.into()).map_err(|_| crate::RangeError::Overflow)?;
        Ok(Self::from_days(days))
    }
    fn to_wire(self, _: crate::TimeUnit) -> core::result::Result<W, crate::RangeError> {
        W::try_from(i128::from(self.days())).map_err(|_| crate::RangeError::Overflow)
    }
}

/// An optional field: `None` is the null, both ways.
impl<W: Copy, T: WireInt<W>> WireInt<Option<W>> for Option<T> {
    fn from_wire(
        w: Option<W>,
        unit: crate::TimeUnit,
    ) -> core::result::Result<Self, crate::RangeError> {
        w.map(|w| T::from_wire(w, unit)).transpose()
    }
    fn to_wire(self, unit: crate::TimeUnit) -> core::result::Result<Option<W>, crate::RangeError> {
        self.map(|v| v.to_wire(unit)).transpose()
    }
}

/// A generated message decoder's `to_owned`, the owned message `$owned`
/// its `sbe_owned` reads, checked after (`checked_length`): the same for
/// every message.
#[doc(hidden)]
#[macro_export]
macro_rules! owned_to_owned {
    ($owned:ident) => {
        /// The message's values, owned; its groups and var data checked (`checked_length`, whose error comes first).
        #[allow(clippy::wrong_self_convention)]
        pub fn to_owned(&self) -> $crate::Result<$owned> {
            let owned = self.sbe_owned();
            self.checked_length()?;
            owned
        }
    };
}

/// The two passes of a generated owned message's `encode` (with the
/// message's encoder `$encoder`, through its `sbe_write`): `sbe_encode`,
/// converting text or not, and `sbe_encode_converting`, out of line. The
/// same for every message whose text may convert; `encode` names them.
#[doc(hidden)]
#[macro_export]
macro_rules! owned_passes {
    ($encoder:ident) => {
        /// One pass of [`encode`](Self::encode), converting text or not.
        #[inline(always)]
        fn sbe_encode<const CONVERT: bool>(&self, buf: &mut [u8]) -> $crate::Result<usize> {
            self.sbe_write::<CONVERT>($encoder::wrap(buf)?)
        }

        /// The converting pass, out of line: the other pass's loops
        /// stay free of its calls.
        #[cold]
        #[inline(never)]
        fn sbe_encode_converting(&self, buf: &mut [u8]) -> $crate::Result<usize> {
            self.sbe_encode::<true>(buf)
        }
    };
}

/// `sbe_each` of a group encoder whose entries are `$block` bytes of
/// fields only (no nested group or var data): every entry of `items`
/// written by `write`, the count and the buffer checked once for all of
/// them ([`next_entries`](crate::__private::codec::next_entries)) where
/// `next_block` takes them one by one; an owned message writes such a
/// group's entries with it.
#[doc(hidden)]
#[macro_export]
macro_rules! owned_each_entry {
    ($block:literal) => {
        $crate::owned_each_entry!(@ $block, self => &mut self.tail);
    };
    ($block:literal, nested) => {
        $crate::owned_each_entry!(@ $block, self => &mut *self.tail);
    };
    (@ $block:literal, $self:ident => $tail:expr) => {
        /// Writes an entry for each of `items` with `write`: the owned
        /// entries' writer.
        #[inline]
        fn sbe_each<T>(
            &mut $self,
            items: &[T],
            mut write: impl FnMut(&T, &mut Self) -> $crate::Result<()>,
        ) -> $crate::Result<()> {
            let blocks = $crate::__private::codec::next_entries::<$block>(
                $tail,
                &mut $self.written,
                $self.count,
                items.len(),
                $self.reserve,
            )?;
            for (x, b) in items.iter().zip(blocks) {
                $self.buf = b;
                write(x, $self)?;
            }
            ::core::result::Result::Ok(())
        }
    };
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

    /// An iterator whose count lies, as a group's count may before its
    /// message is checked.
    struct Lying(u8);

    impl Iterator for Lying {
        type Item = u8;
        fn next(&mut self) -> Option<u8> {
            self.0 = self.0.checked_sub(1)?;
            Some(self.0)
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (usize::MAX, Some(usize::MAX))
        }
    }

    impl ExactSizeIterator for Lying {}

    #[test]
    fn a_lying_count_does_not_size_the_allocation() {
        let v = entries(Lying(2), |x| Ok([x; 64])).unwrap_or_default();
        assert_eq!(v.len(), 2);
        assert!(v.capacity() <= ENTRIES_AHEAD);
    }

    #[test]
    fn ascii_and_latin1_text_read_the_same_as_one_char_a_byte() {
        for bytes in [&b"Urban Cycle"[..], b"caf\xe9", b"", b"\x7f\x80\xff"] {
            let slow: String = bytes.iter().map(|&b| char::from(b)).collect();
            assert_eq!(text(bytes, false).as_deref(), Ok(&*slow));
            assert_eq!(text_bytes(&slow, false).as_deref(), Ok(bytes));
        }
    }

    #[test]
    fn is_ascii_is_the_standard_library_s_at_every_length_and_position() {
        for len in 0..40 {
            let ascii = alloc::vec![b'a'; len];
            assert!(is_ascii(&ascii), "{len}");
            for at in 0..len {
                let mut high = ascii.clone();
                high[at] = 0x80;
                assert!(!is_ascii(&high), "{len} {at}");
            }
        }
    }

    #[test]
    fn code_points_above_latin1_are_refused_where_they_are() {
        assert_eq!(text_bytes("ab€", false), Err(Error::invalid_text(2)));
    }
}
