//! Optional values: the rule by which a value on the wire is absent.
//!
//! An optional field holds its type's null value when it is absent; the
//! generated accessor of an optional number reads the value and hands it
//! to [`non_null`] with its null, and gets `None` for the null. Every
//! helper here is `#[inline]` and generic over the primitive, so that with
//! the null a constant it compiles to the one comparison a hand-written
//! decoder would make.
//!
//! ```
//! use sbe_rt::{get_i32_le, non_null};
//!
//! let block = [0xff, 0xff, 0xff, 0x7f, 7, 0, 0, 0];
//! assert_eq!(non_null(get_i32_le(&block, 0), i32::MAX), None);
//! assert_eq!(non_null(get_i32_le(&block, 4), i32::MAX), Some(7));
//! ```

/// A primitive that can be an optional field's value: how a value is
/// compared with its null.
///
/// Integers compare equal. Floats compare by bits, so that a null other
/// than NaN is one exact value (`-0.0` is not `0.0`); a NaN null makes
/// every NaN null, whatever its bits, as the reference implementation
/// reads it.
///
/// ```
/// use sbe_rt::null::NullValue;
///
/// assert!(255u8.is_null(255));
/// assert!(f64::from_bits(0x7ff8_0000_0000_0001).is_null(f64::NAN));
/// assert!(!(-0.0f32).is_null(0.0));
/// ```
pub trait NullValue: Copy {
    /// Whether `self` is the null value `null`.
    fn is_null(self, null: Self) -> bool;
}

macro_rules! int_null {
    ($($t:ty)*) => {$(
        impl NullValue for $t {
            #[inline(always)]
            fn is_null(self, null: Self) -> bool {
                self == null
            }
        }
    )*};
}

int_null!(u8 u16 u32 u64 i8 i16 i32 i64);

macro_rules! float_null {
    ($($t:ty)*) => {$(
        impl NullValue for $t {
            #[inline(always)]
            fn is_null(self, null: Self) -> bool {
                if null.is_nan() {
                    self.is_nan()
                } else {
                    self.to_bits() == null.to_bits()
                }
            }
        }
    )*};
}

float_null!(f32 f64);

/// `v`, or `None` when it is the null value `null` (compared as
/// [`NullValue`] says).
///
/// ```
/// use sbe_rt::non_null;
///
/// assert_eq!(non_null(3u16, u16::MAX), Some(3));
/// assert_eq!(non_null(u16::MAX, u16::MAX), None);
/// assert_eq!(non_null(f64::NAN, f64::NAN), None);
/// assert_eq!(non_null(1.5f32, f32::NAN), Some(1.5));
/// ```
#[inline(always)]
#[must_use]
pub fn non_null<T: NullValue>(v: T, null: T) -> Option<T> {
    if v.is_null(null) {
        None
    } else {
        Some(v)
    }
}

/// An optional char `v`, or `None` when it is NUL or the null value
/// `null`.
///
/// ```
/// use sbe_rt::null::non_null_char;
///
/// assert_eq!(non_null_char(b'A', b' '), Some(b'A'));
/// assert_eq!(non_null_char(b' ', b' '), None);
/// assert_eq!(non_null_char(0, b' '), None);
/// ```
#[inline(always)]
#[must_use]
pub fn non_null_char(v: u8, null: u8) -> Option<u8> {
    if v == 0 || v == null {
        None
    } else {
        Some(v)
    }
}

/// An optional char array's bytes `v`, or `None` when they start with NUL
/// (or there are none).
///
/// ```
/// use sbe_rt::null::non_empty_chars;
///
/// assert_eq!(non_empty_chars(b"ab\0\0"), Some(&b"ab\0\0"[..]));
/// assert_eq!(non_empty_chars(b"\0ab\0"), None);
/// assert_eq!(non_empty_chars(b""), None);
/// ```
#[inline(always)]
#[must_use]
pub fn non_empty_chars(v: &[u8]) -> Option<&[u8]> {
    match v.first() {
        None | Some(0) => None,
        Some(_) => Some(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_compare_by_bits_or_as_nan() {
        assert_eq!(non_null(0.0f64, -0.0), Some(0.0));
        assert_eq!(non_null(-0.0f64, -0.0), None);
        assert_eq!(non_null(f32::from_bits(0x7fc0_0001), f32::NAN), None);
        assert!(non_null(f32::NAN, 0.0).is_some_and(f32::is_nan));
        assert!(non_null(f64::NAN, 1.0).is_some_and(f64::is_nan));
        assert_eq!(non_null(i64::MIN, i64::MIN), None);
        assert_eq!(non_null(0u64, u64::MAX), Some(0));
    }
}
