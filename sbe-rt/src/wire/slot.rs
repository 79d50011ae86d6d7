//! Where an unsigned integer member of a header is ([`Uint`]), and the
//! two section headers built of them: a group's dimension ([`Dimension`])
//! and a var data's length prefix ([`VarData`]).
//!
//! These are the one vocabulary for wire slots: `sbe-build`'s IR gives
//! them out, the generated code holds them as constants and hands them to
//! the generic machinery of [`group`](crate::group), the run-time codec of
//! the `sbe` command reads and writes through them, and
//! [`framing`](crate::framing)'s length fields are read with them. Every
//! read is inlined with the constant, so it compiles to the one load a
//! hand-written decoder would do.
//!
//! ```
//! use sbe_rt::wire::{Dimension, Uint, VarData};
//!
//! // The standard `groupSizeEncoding`: blockLength and numInGroup, uint16 LE.
//! const DIM: Dimension = Dimension {
//!     len: 4,
//!     block_length: Uint::U16Le(0),
//!     count: Uint::U16Le(2),
//!     max_count: 65534,
//! };
//! let bytes = [8, 0, 3, 0];
//! assert_eq!(DIM.block_length.get(&bytes), 8);
//! assert_eq!(DIM.count.get(&bytes), 3);
//!
//! // `varStringEncoding`: a uint32 LE length, then the bytes.
//! const NOTE: VarData = VarData {
//!     length: Uint::U32Le(0),
//!     data_offset: 4,
//!     max_length: 1 << 30,
//!     element: 0,
//! };
//! let buf = [0xAA, 2, 0, 0, 0, b'h', b'i', 0xBB];
//! assert_eq!(NOTE.read(&buf, 1)?, (&b"hi"[..], 7));
//! assert_eq!(NOTE.end(&buf, 1)?, 7);
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use super::{get_u16_be, get_u16_le, get_u32_be, get_u32_le, get_u64_be, get_u64_le, get_u8_le};
use crate::error::Result;

/// An unsigned integer member of a header (a dimension's blockLength or
/// numInGroup, a var-data length, a message header's member): its width
/// and byte order, and its offset in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Uint {
    /// `uint8` at this offset.
    U8(usize),
    /// Little-endian `uint16` at this offset.
    U16Le(usize),
    /// Big-endian `uint16` at this offset.
    U16Be(usize),
    /// Little-endian `uint32` at this offset.
    U32Le(usize),
    /// Big-endian `uint32` at this offset.
    U32Be(usize),
    /// Little-endian `uint64` at this offset.
    U64Le(usize),
    /// Big-endian `uint64` at this offset.
    U64Be(usize),
    /// A constant member: not on the wire, always this value (a
    /// dimension whose `blockLength` or `numInGroup` has
    /// `presence="constant"`).
    ///
    /// ```
    /// use sbe_rt::wire::{Dimension, Uint};
    ///
    /// // blockLength is the constant 8; numInGroup, a uint8, is the only byte.
    /// const DIM: Dimension = Dimension {
    ///     len: 1,
    ///     block_length: Uint::Const(8),
    ///     count: Uint::U8(0),
    ///     max_count: 255,
    /// };
    /// assert_eq!(DIM.block_length.get(&[3]), 8);
    /// assert_eq!(DIM.count.get(&[3]), 3);
    /// ```
    Const(u64),
}

impl Uint {
    /// The slot of `width` bytes (1, 2, 4 or 8; any other is 8) at
    /// `offset`, big-endian when `big_endian`.
    ///
    /// ```
    /// use sbe_rt::wire::Uint;
    /// assert_eq!(Uint::new(2, true, 6), Uint::U16Be(6));
    /// assert_eq!(Uint::new(1, true, 0), Uint::U8(0));
    /// ```
    #[must_use]
    pub const fn new(width: usize, big_endian: bool, offset: usize) -> Uint {
        match (width, big_endian) {
            (1, _) => Uint::U8(offset),
            (2, false) => Uint::U16Le(offset),
            (2, true) => Uint::U16Be(offset),
            (4, false) => Uint::U32Le(offset),
            (4, true) => Uint::U32Be(offset),
            (_, false) => Uint::U64Le(offset),
            (_, true) => Uint::U64Be(offset),
        }
    }

    /// The value in `header` (its member's bytes): `0` when they are not
    /// all there, which a caller rules out by checking the header's length
    /// first. A [`Const`](Uint::Const) is its value, whatever `header` holds.
    #[inline(always)]
    #[must_use]
    pub fn get(self, header: &[u8]) -> u64 {
        match self {
            Uint::U8(at) => u64::from(get_u8_le(header, at)),
            Uint::U16Le(at) => u64::from(get_u16_le(header, at)),
            Uint::U16Be(at) => u64::from(get_u16_be(header, at)),
            Uint::U32Le(at) => u64::from(get_u32_le(header, at)),
            Uint::U32Be(at) => u64::from(get_u32_be(header, at)),
            Uint::U64Le(at) => get_u64_le(header, at),
            Uint::U64Be(at) => get_u64_be(header, at),
            Uint::Const(v) => v,
        }
    }

    /// The value in `header`, or `None` when its bytes are not all there.
    ///
    /// ```
    /// use sbe_rt::wire::Uint;
    /// assert_eq!(Uint::U16Be(1).try_get(&[0, 1, 2]), Some(0x0102));
    /// assert_eq!(Uint::U16Be(2).try_get(&[0, 1, 2]), None);
    /// assert_eq!(Uint::Const(5).try_get(&[]), Some(5));
    /// ```
    #[inline]
    #[must_use]
    pub fn try_get(self, header: &[u8]) -> Option<u64> {
        // One match: the bounds come with the read (a check of the offset
        // and the length first, then `get`, matched three times).
        fn at<const N: usize>(header: &[u8], at: usize) -> Option<[u8; N]> {
            header.get(at..)?.first_chunk().copied()
        }
        Some(match self {
            Uint::U8(i) => u64::from(*header.get(i)?),
            Uint::U16Le(i) => u64::from(u16::from_le_bytes(at(header, i)?)),
            Uint::U16Be(i) => u64::from(u16::from_be_bytes(at(header, i)?)),
            Uint::U32Le(i) => u64::from(u32::from_le_bytes(at(header, i)?)),
            Uint::U32Be(i) => u64::from(u32::from_be_bytes(at(header, i)?)),
            Uint::U64Le(i) => u64::from_le_bytes(at(header, i)?),
            Uint::U64Be(i) => u64::from_be_bytes(at(header, i)?),
            Uint::Const(v) => v,
        })
    }

    /// Writes the low bytes of `v` (as many as the slot has) into
    /// `header`; [`ErrorKind::Truncated`](crate::ErrorKind::Truncated) when they do not fit. Writing a
    /// [`Const`](Uint::Const) writes nothing.
    ///
    /// ```
    /// use sbe_rt::wire::Uint;
    /// let mut h = [0u8; 3];
    /// Uint::U16Be(1).put(&mut h, 0x0102)?;
    /// assert_eq!(h, [0, 1, 2]);
    /// Uint::U8(0).put(&mut h, 0x1ff)?; // its low byte
    /// assert_eq!(h, [0xff, 1, 2]);
    /// assert!(Uint::U32Le(0).put(&mut h, 1).is_err());
    /// # Ok::<(), sbe_rt::Error>(())
    /// ```
    pub fn put(self, header: &mut [u8], v: u64) -> Result<()> {
        let Some(at) = self.offset() else {
            return Ok(());
        };
        let len = self.len();
        // The low `len` bytes: the first in little-endian, the last in big.
        let (bytes, skip) = if self.is_big_endian() {
            (v.to_be_bytes(), 8 - len)
        } else {
            (v.to_le_bytes(), 0)
        };
        let dst = super::slice_mut(header, at, len)?;
        for (d, s) in dst.iter_mut().zip(bytes.iter().skip(skip)) {
            *d = *s;
        }
        Ok(())
    }

    /// Where the member is in its header; `None` for a constant.
    #[must_use]
    pub const fn offset(self) -> Option<usize> {
        match self {
            Uint::U8(at)
            | Uint::U16Le(at)
            | Uint::U16Be(at)
            | Uint::U32Le(at)
            | Uint::U32Be(at)
            | Uint::U64Le(at)
            | Uint::U64Be(at) => Some(at),
            Uint::Const(_) => None,
        }
    }

    /// Bytes the member takes on the wire (0 for a constant).
    #[must_use]
    #[allow(clippy::len_without_is_empty)] // a slot is never a collection
    pub const fn len(self) -> usize {
        match self {
            Uint::U8(_) => 1,
            Uint::U16Le(_) | Uint::U16Be(_) => 2,
            Uint::U32Le(_) | Uint::U32Be(_) => 4,
            Uint::U64Le(_) | Uint::U64Be(_) => 8,
            Uint::Const(_) => 0,
        }
    }

    /// Whether the member is big-endian (a one-byte member and a constant
    /// are not).
    #[must_use]
    pub const fn is_big_endian(self) -> bool {
        matches!(self, Uint::U16Be(_) | Uint::U32Be(_) | Uint::U64Be(_))
    }
}

/// A group's dimension header: its length, where its blockLength and
/// numInGroup are, and the most entries numInGroup may count (its
/// `maxValue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dimension {
    /// Bytes of the dimension header; the entries start after it.
    pub len: usize,
    /// The blockLength member: bytes of each entry's block.
    pub block_length: Uint,
    /// The numInGroup member: how many entries follow.
    pub count: Uint,
    /// The most entries the count may claim.
    pub max_count: u64,
}

/// A var data's length prefix: where its length member is, where the
/// bytes start, and the longest length the schema allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarData {
    /// The length member: how many bytes of data follow the prefix.
    pub length: Uint,
    /// Bytes of the prefix: the data starts this far from the var data's
    /// start (just after the length member, or at the encoding's
    /// `varData` member).
    pub data_offset: usize,
    /// The longest length a decoder accepts and an encoder writes (the
    /// length member's `maxValue`, else its type's largest).
    pub max_length: u64,
    /// The var data's number among the schema's elements, which its
    /// errors name ([`Error::at`](crate::Error::at); 0: none).
    pub element: u16,
}

impl VarData {
    /// The bytes of the var data starting at `buf[start..]` and where it
    /// ends, checked: the prefix and every byte in `buf`
    /// ([`ErrorKind::Truncated`](crate::ErrorKind::Truncated)), the length at most
    /// [`max_length`](Self::max_length) ([`ErrorKind::LengthOutOfRange`](crate::ErrorKind::LengthOutOfRange)).
    ///
    /// The prefix is read before anything is added to `start`, so a start
    /// past the end (even `usize::MAX`) is an error, never an overflow.
    #[inline(always)]
    pub fn read(self, buf: &[u8], start: usize) -> Result<(&[u8], usize)> {
        crate::var_data!(read self, buf, start)
    }

    /// Where the var data starting at `buf[start..]` ends, checked as
    /// [`read`](Self::read) checks it.
    #[inline(always)]
    pub fn end(self, buf: &[u8], start: usize) -> Result<usize> {
        crate::var_data!(end self, buf, start)
    }
}

/// [`VarData::read`] (`read`) or [`VarData::end`] (`end`) of var data
/// `$var_data` whose prefix starts at `$start` in `$buf`, with the two `?`
/// exits (the prefix, then the data) in the caller: the generated decoders'
/// one call per var-data section.
///
/// A macro rather than the methods because a method returns one `Result`
/// for both checks, which LLVM merges before the caller's `?`; in a
/// decoder's entry loop that costs registers and spills (see
/// sbe-bench/HISTORY.md). The methods are this macro.
#[doc(hidden)]
#[macro_export]
macro_rules! var_data {
    (read $($args:tt)*) => {
        $crate::var_data!(@checked var_data $($args)*)
    };
    (end $($args:tt)*) => {
        $crate::var_data!(@checked data_end $($args)*)
    };
    // The prefix read and checked here, the rest by the rule `$rule`.
    (@checked $rule:ident $var_data:expr, $buf:expr, $start:expr) => {{
        let (var_data, buf, start): ($crate::wire::VarData, &[u8], usize) =
            ($var_data, $buf, $start);
        let prefix = match $crate::slice(buf, start, var_data.data_offset) {
            ::core::result::Result::Ok(prefix) => prefix,
            ::core::result::Result::Err(e) => {
                return ::core::result::Result::Err(e.at(var_data.element))
            }
        };
        let n = var_data.length.get(prefix);
        match $crate::__private::codec::$rule(buf, start + var_data.data_offset, n, var_data.max_length) {
            ::core::result::Result::Ok(read) => ::core::result::Result::Ok(read),
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e.at(var_data.element)),
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_width_and_order_reads_its_bytes() {
        let b = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert_eq!(Uint::U8(1).get(&b), 2);
        assert_eq!(Uint::U16Le(1).get(&b), 0x0302);
        assert_eq!(Uint::U16Be(1).get(&b), 0x0203);
        assert_eq!(Uint::U32Le(0).get(&b), 0x0403_0201);
        assert_eq!(Uint::U32Be(0).get(&b), 0x0102_0304);
        assert_eq!(Uint::U64Le(1).get(&b), 0x0908_0706_0504_0302);
        assert_eq!(Uint::U64Be(1).get(&b), 0x0203_0405_0607_0809);
        // Past the end reads 0, never panics.
        assert_eq!(Uint::U64Le(2).get(&b), 0);
        assert_eq!(Uint::U16Be(usize::MAX).get(&b), 0);
        assert_eq!(Uint::U16Be(usize::MAX).try_get(&b), None);
    }

    #[test]
    fn try_get_is_get_where_the_bytes_are_all_there_and_none_elsewhere() {
        let b = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        for width in [1, 2, 4, 8] {
            for big_endian in [false, true] {
                for at in 0..=b.len() + 1 {
                    let slot = Uint::new(width, big_endian, at);
                    let there = at + width <= b.len();
                    let want = there.then(|| slot.get(&b));
                    assert_eq!(slot.try_get(&b), want, "{slot:?}");
                }
            }
        }
        assert_eq!(Uint::Const(7).try_get(&[]), Some(7));
    }

    #[test]
    fn a_constant_reads_as_itself_whatever_the_bytes() {
        assert_eq!(Uint::Const(8).get(&[1, 2, 3]), 8);
        assert_eq!(Uint::Const(u64::MAX).get(&[]), u64::MAX);
        assert_eq!(Uint::Const(0).get(&[0xff; 8]), 0);
    }

    #[test]
    fn put_writes_what_get_reads_in_every_width_and_order() {
        for width in [1, 2, 4, 8] {
            for big_endian in [false, true] {
                let slot = Uint::new(width, big_endian, 3);
                assert_eq!((slot.len(), slot.offset()), (width, Some(3)));
                let mut buf = [0xEEu8; 12];
                let v = 0x0102_0304_0506_0708u64;
                slot.put(&mut buf, v).unwrap();
                let mask = if width == 8 {
                    u64::MAX
                } else {
                    (1 << (8 * width)) - 1
                };
                assert_eq!(slot.get(&buf), v & mask, "{slot:?}");
                assert_eq!(buf[..3], [0xEE; 3], "{slot:?} wrote before its offset");
                assert!(buf[3 + width..].iter().all(|&b| b == 0xEE), "{slot:?}");
                let mut short = [0u8; 3];
                assert!(slot.put(&mut short, v).is_err());
                assert_eq!(short, [0; 3]);
            }
        }
        let mut none = [];
        assert_eq!(Uint::Const(1).put(&mut none, 9), Ok(()));
    }

    #[test]
    fn var_data_checks_prefix_length_and_bytes() {
        const D: VarData = VarData {
            length: Uint::U8(0),
            data_offset: 1,
            max_length: 3,
            element: 0,
        };
        assert_eq!(D.read(&[2, b'a', b'b'], 0), Ok((&b"ab"[..], 3)));
        assert_eq!(D.end(&[0], 0), Ok(1));
        assert!(D.read(&[3, b'a', b'b'], 0).is_err()); // past the end
        assert!(D.read(&[4, 1, 2, 3, 4], 0).is_err()); // over max_length
        assert!(D.end(&[], 0).is_err()); // no prefix
        assert!(D.end(&[1, 2], usize::MAX).is_err()); // an unknown start
    }
}
