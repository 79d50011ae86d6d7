//! Reads and writes of primitives at fixed offsets, in either byte order.
//!
//! Generated decoders and encoders check the length of their buffer **once**,
//! when they wrap it, and then read and write fields at fixed offsets with
//! the functions of this module. So that a single check suffices, these
//! functions never panic and never touch a byte outside the slice:
//!
//! * `get_*` returns the value when `offset..offset + N` lies within `buf`,
//!   and `0` (`0.0` for floats) otherwise. After a correct wrap check that
//!   fallback is unreachable; it exists so that a bug in a length
//!   computation gives a wrong value, never a panic or an out-of-bounds read.
//! * `put_*` writes the value when it fits and does nothing otherwise.
//!
//! When the range is valid each function compiles down to a bounds test
//! (folded away when the optimiser can see the earlier check) and a single
//! load or store.
//!
//! Every primitive `u8 i8 u16 i16 u32 i32 u64 i64 f32 f64` has `get_T_le`,
//! `get_T_be`, `put_T_le` and `put_T_be` (for one-byte types the two byte
//! orders are the same; both names exist so generated code can be uniform).
//!
//! The checked helpers [`check_len`], [`slice`](fn@slice), [`slice_mut`] and
//! [`put_slice`] return [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) instead.
//!
//! [`Uint`], [`Dimension`] and [`VarData`] say where a header's unsigned
//! members are (a group's dimension, a var data's length prefix, the
//! message header's members): the one vocabulary of wire slots that
//! `sbe-build`'s IR gives out and generated code, the run-time codec and
//! the framings read through.
//!
//! ```
//! use sbe_rt::wire::*;
//!
//! let mut buf = [0u8; 8];
//! put_u16_le(&mut buf, 0, 0x1234);
//! put_i32_be(&mut buf, 2, -2);
//! assert_eq!(buf[..6], [0x34, 0x12, 0xff, 0xff, 0xff, 0xfe]);
//! assert_eq!(get_u16_le(&buf, 0), 0x1234);
//! assert_eq!(get_i32_be(&buf, 2), -2);
//!
//! // Out of range: no panic, a zero read, an ignored write.
//! assert_eq!(get_u64_le(&buf, 4), 0);
//! put_u64_le(&mut buf, 4, u64::MAX);
//! assert_eq!(buf[4..], [0xff, 0xfe, 0, 0]);
//! ```

use crate::error::{slow, Result};

mod slot;
pub use slot::{Dimension, Uint, VarData};

macro_rules! wire_fns {
    ($($t:ident $n:literal: $get_le:ident $get_be:ident $put_le:ident $put_be:ident;)*) => {$(
        wire_fns!(@get $t $n $get_le from_le_bytes "little");
        wire_fns!(@get $t $n $get_be from_be_bytes "big");
        wire_fns!(@put $t $n $put_le to_le_bytes "little");
        wire_fns!(@put $t $n $put_be to_be_bytes "big");
    )*};
    (@get $t:ident $n:literal $name:ident $from:ident $order:literal) => {
        #[doc = concat!(
            "Reads a ", $order, "-endian `", stringify!($t), "` from `buf[offset..offset + ",
            stringify!($n), "]`.\n\n",
            "Returns `0` when that range is not within `buf` (unreachable after a ",
            "correct wrap check). Never panics, never reads out of bounds."
        )]
        #[inline(always)]
        #[must_use]
        pub fn $name(buf: &[u8], offset: usize) -> $t {
            match buf.get(offset..).and_then(<[u8]>::first_chunk::<$n>) {
                Some(bytes) => $t::$from(*bytes),
                None => <$t>::default(),
            }
        }
    };
    (@put $t:ident $n:literal $name:ident $to:ident $order:literal) => {
        #[doc = concat!(
            "Writes `v` as a ", $order, "-endian `", stringify!($t), "` to `buf[offset..offset + ",
            stringify!($n), "]`.\n\n",
            "Does nothing when that range is not within `buf` (unreachable after a ",
            "correct wrap check). Never panics, never writes out of bounds."
        )]
        #[inline(always)]
        pub fn $name(buf: &mut [u8], offset: usize, v: $t) {
            if let Some(bytes) = buf.get_mut(offset..).and_then(<[u8]>::first_chunk_mut::<$n>) {
                *bytes = v.$to();
            }
        }
    };
}

wire_fns! {
    u8 1: get_u8_le get_u8_be put_u8_le put_u8_be;
    i8 1: get_i8_le get_i8_be put_i8_le put_i8_be;
    u16 2: get_u16_le get_u16_be put_u16_le put_u16_be;
    i16 2: get_i16_le get_i16_be put_i16_le put_i16_be;
    u32 4: get_u32_le get_u32_be put_u32_le put_u32_be;
    i32 4: get_i32_le get_i32_be put_i32_le put_i32_be;
    u64 8: get_u64_le get_u64_be put_u64_le put_u64_be;
    i64 8: get_i64_le get_i64_be put_i64_le put_i64_be;
    f32 4: get_f32_le get_f32_be put_f32_le put_f32_be;
    f64 8: get_f64_le get_f64_be put_f64_le put_f64_be;
}

/// Reads `N` raw bytes from `buf[offset..offset + N]`.
///
/// Returns all zeros when that range is not within `buf` (unreachable after
/// a correct wrap check). Never panics, never reads out of bounds. Used for
/// fixed-size arrays, e.g. char arrays.
///
/// ```
/// let buf = *b"xxABCD";
/// assert_eq!(sbe_rt::get_bytes::<4>(&buf, 2), *b"ABCD");
/// assert_eq!(sbe_rt::get_bytes::<4>(&buf, 3), [0; 4]);
/// ```
#[inline(always)]
#[must_use]
pub fn get_bytes<const N: usize>(buf: &[u8], offset: usize) -> [u8; N] {
    match buf.get(offset..).and_then(<[u8]>::first_chunk::<N>) {
        Some(bytes) => *bytes,
        None => [0; N],
    }
}

/// Checks that `buf` holds at least `needed` bytes.
///
/// ```
/// use sbe_rt::{check_len, Error};
///
/// assert_eq!(check_len(&[0; 8], 8), Ok(()));
/// assert_eq!(check_len(&[0; 8], 9), Err(Error::truncated(9, 8)));
/// ```
#[inline]
pub fn check_len(buf: &[u8], needed: usize) -> Result<()> {
    if buf.len() >= needed {
        Ok(())
    } else {
        Err(slow::truncated(needed, buf.len()))
    }
}

/// The end of `offset..offset + len`, or the error for a range that does
/// not fit in `available` bytes (an overflowing end reports `usize::MAX`).
#[inline]
fn range_end(offset: usize, len: usize, available: usize) -> Result<usize> {
    match offset.checked_add(len) {
        Some(end) if end <= available => Ok(end),
        Some(end) => Err(slow::truncated(end, available)),
        None => Err(slow::truncated(usize::MAX, available)),
    }
}

/// Borrows `buf[offset..offset + len]`, checked.
///
/// ```
/// use sbe_rt::{slice, Error};
///
/// let buf = [1, 2, 3, 4];
/// assert_eq!(slice(&buf, 1, 2), Ok(&[2, 3][..]));
/// assert_eq!(slice(&buf, 3, 2), Err(Error::truncated(5, 4)));
/// ```
#[inline]
pub fn slice(buf: &[u8], offset: usize, len: usize) -> Result<&[u8]> {
    let end = range_end(offset, len, buf.len())?;
    buf.get(offset..end)
        .ok_or_else(|| slow::truncated(end, buf.len()))
}

/// Borrows `buf[offset..offset + len]` mutably, checked.
///
/// ```
/// let mut buf = [0u8; 4];
/// sbe_rt::slice_mut(&mut buf, 2, 2)?.copy_from_slice(b"hi");
/// assert_eq!(&buf, b"\0\0hi");
/// assert!(sbe_rt::slice_mut(&mut buf, 3, 2).is_err());
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn slice_mut(buf: &mut [u8], offset: usize, len: usize) -> Result<&mut [u8]> {
    let available = buf.len();
    let end = range_end(offset, len, available)?;
    buf.get_mut(offset..end)
        .ok_or_else(|| slow::truncated(end, available))
}

/// Copies `src` into `buf` at `offset`, checked; nothing is written when it
/// does not fit.
///
/// ```
/// use sbe_rt::{put_slice, Error};
///
/// let mut buf = [0u8; 4];
/// put_slice(&mut buf, 1, b"ab")?;
/// assert_eq!(&buf, b"\0ab\0");
/// assert_eq!(put_slice(&mut buf, 3, b"ab"), Err(Error::truncated(5, 4)));
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn put_slice(buf: &mut [u8], offset: usize, src: &[u8]) -> Result<()> {
    slice_mut(buf, offset, src.len())?.copy_from_slice(src);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn little_and_big_endian_round_trip() {
        let mut buf = [0u8; 16];
        put_u8_le(&mut buf, 0, 0xab);
        put_i8_be(&mut buf, 1, -3);
        assert_eq!(buf[..2], [0xab, 0xfd]);
        assert_eq!(get_u8_be(&buf, 0), 0xab);
        assert_eq!(get_i8_le(&buf, 1), -3);

        put_u16_le(&mut buf, 2, 0x0102);
        put_u16_be(&mut buf, 4, 0x0102);
        assert_eq!(buf[2..6], [2, 1, 1, 2]);
        assert_eq!(get_u16_le(&buf, 2), 0x0102);
        assert_eq!(get_u16_be(&buf, 4), 0x0102);
        assert_eq!(get_u16_be(&buf, 2), 0x0201);
        put_i16_le(&mut buf, 2, -2);
        put_i16_be(&mut buf, 4, -2);
        assert_eq!(buf[2..6], [0xfe, 0xff, 0xff, 0xfe]);
        assert_eq!(get_i16_le(&buf, 2), -2);
        assert_eq!(get_i16_be(&buf, 4), -2);

        put_u32_le(&mut buf, 0, 0x0102_0304);
        assert_eq!(buf[..4], [4, 3, 2, 1]);
        put_u32_be(&mut buf, 4, 0x0102_0304);
        assert_eq!(buf[4..8], [1, 2, 3, 4]);
        assert_eq!(get_u32_le(&buf, 0), 0x0102_0304);
        assert_eq!(get_u32_be(&buf, 4), 0x0102_0304);
        put_i32_le(&mut buf, 0, i32::MIN);
        put_i32_be(&mut buf, 4, i32::MIN);
        assert_eq!(buf[..8], [0, 0, 0, 0x80, 0x80, 0, 0, 0]);
        assert_eq!(get_i32_le(&buf, 0), i32::MIN);
        assert_eq!(get_i32_be(&buf, 4), i32::MIN);

        put_u64_le(&mut buf, 0, 0x0102_0304_0506_0708);
        put_u64_be(&mut buf, 8, 0x0102_0304_0506_0708);
        assert_eq!(buf, [8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(get_u64_le(&buf, 0), 0x0102_0304_0506_0708);
        assert_eq!(get_u64_be(&buf, 8), 0x0102_0304_0506_0708);
        put_i64_le(&mut buf, 0, -5);
        put_i64_be(&mut buf, 8, -5);
        assert_eq!(get_i64_le(&buf, 0), -5);
        assert_eq!(get_i64_be(&buf, 8), -5);
        assert_eq!(buf[8..], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb]);

        put_f32_le(&mut buf, 0, 536.0);
        put_f32_be(&mut buf, 4, -961.375);
        assert_eq!(buf[..4], 536.0f32.to_le_bytes());
        assert_eq!(buf[4..8], (-961.375f32).to_be_bytes());
        assert_eq!(get_f32_le(&buf, 0), 536.0);
        assert_eq!(get_f32_be(&buf, 4), -961.375);

        put_f64_le(&mut buf, 0, 1.0e10);
        put_f64_be(&mut buf, 8, -0.5);
        assert_eq!(buf[..8], 1.0e10f64.to_le_bytes());
        assert_eq!(buf[8..], (-0.5f64).to_be_bytes());
        assert_eq!(get_f64_le(&buf, 0), 1.0e10);
        assert_eq!(get_f64_be(&buf, 8), -0.5);
        assert!(get_f64_le(&f64::NAN.to_le_bytes(), 0).is_nan());
    }

    #[test]
    fn unaligned_offsets() {
        let buf: [u8; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(get_u64_le(&buf, 3), 0x0a09_0807_0605_0403);
        assert_eq!(get_u32_be(&buf, 1), 0x0102_0304);
    }

    #[test]
    fn out_of_range_reads_are_zero_and_never_panic() {
        let buf = [0xffu8; 7];
        for offset in [5, 6, 7, 8, 100, usize::MAX - 3, usize::MAX - 1, usize::MAX] {
            assert_eq!(get_u64_le(&buf, offset), 0);
            assert_eq!(get_i64_be(&buf, offset), 0);
            assert_eq!(get_f64_le(&buf, offset), 0.0);
            assert_eq!(get_f64_be(&buf, offset), 0.0);
            assert_eq!(get_bytes::<8>(&buf, offset), [0; 8]);
        }
        for offset in [6, 7, 8, usize::MAX] {
            assert_eq!(get_u16_le(&buf, offset), 0);
            assert_eq!(get_i16_be(&buf, offset), 0);
        }
        for offset in [4, 7, usize::MAX] {
            assert_eq!(get_u32_be(&buf, offset), 0);
            assert_eq!(get_i32_le(&buf, offset), 0);
            assert_eq!(get_f32_le(&buf, offset), 0.0);
        }
        assert_eq!(get_u8_le(&buf, 7), 0);
        assert_eq!(get_i8_be(&buf, usize::MAX), 0);
        assert_eq!(get_u8_le(&[], 0), 0);
        // The last in-range position still reads.
        assert_eq!(get_u32_le(&buf, 3), u32::MAX);
        assert_eq!(get_u8_be(&buf, 6), 0xff);
    }

    #[test]
    fn out_of_range_writes_do_nothing_and_never_panic() {
        let mut buf = [0u8; 7];
        for offset in [0, 1, 6, 7, usize::MAX - 3, usize::MAX] {
            put_u64_le(&mut buf, offset, u64::MAX);
            put_i64_be(&mut buf, offset, -1);
            put_f64_be(&mut buf, offset, 1.5);
        }
        for offset in [4, 5, 7, usize::MAX] {
            put_u32_le(&mut buf, offset, u32::MAX);
            put_f32_be(&mut buf, offset, 1.5);
        }
        put_u16_be(&mut buf, 6, u16::MAX);
        put_i8_le(&mut buf, 7, -1);
        put_u8_be(&mut [], 0, 1);
        assert_eq!(buf, [0; 7]);
        put_u32_be(&mut buf, 3, u32::MAX);
        assert_eq!(buf, [0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    }

    #[test]
    fn checked_helpers() {
        let mut buf = [1u8, 2, 3, 4, 5];
        assert_eq!(check_len(&buf, 0), Ok(()));
        assert_eq!(check_len(&buf, 5), Ok(()));
        assert_eq!(check_len(&buf, 6), Err(Error::truncated(6, 5)));
        assert_eq!(slice(&buf, 5, 0), Ok(&[][..]));
        assert_eq!(slice(&buf, 0, 5), Ok(&buf[..]));
        assert_eq!(slice(&buf, 6, 0), Err(Error::truncated(6, 5)));
        assert_eq!(
            slice(&buf, usize::MAX, 2),
            Err(Error::truncated(usize::MAX, 5))
        );
        assert_eq!(slice_mut(&mut buf, 2, 4), Err(Error::truncated(6, 5)));
        assert_eq!(
            slice_mut(&mut buf, 1, usize::MAX),
            Err(Error::truncated(usize::MAX, 5))
        );
        slice_mut(&mut buf, 3, 2).unwrap().fill(9);
        assert_eq!(buf, [1, 2, 3, 9, 9]);
        put_slice(&mut buf, 0, &[7, 7]).unwrap();
        assert_eq!(buf, [7, 7, 3, 9, 9]);
        assert!(put_slice(&mut buf, 4, &[0, 0]).is_err());
        assert_eq!(buf, [7, 7, 3, 9, 9]);
        assert_eq!(get_bytes::<3>(&buf, 2), [3, 9, 9]);
        assert_eq!(get_bytes::<0>(&buf, 5), [0u8; 0]);
    }
}
