//! Where the members of a group's dimension and of a var-data length
//! prefix are, as constants the generated code hands to the generic
//! machinery of [`group`](crate::group) and [`sections`](crate::sections).
//!
//! The generator computes these from the schema (its IR places every
//! member once); the machinery reads through them. Every read is inlined
//! with the constant, so it compiles to the one load a hand-written
//! decoder would do.
//!
//! ```
//! use sbe_rt::layout::{Dimension, Uint, VarData};
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
//! const TEXT: VarData = VarData { length: Uint::U32Le(0), data_offset: 4, max_length: 1 << 30 };
//! let msg = [2, 0, 0, 0, b'h', b'i', 0xff];
//! assert_eq!(TEXT.read(&msg, 0)?, (&b"hi"[..], 6));
//! assert!(TEXT.read(&msg[..5], 0).is_err());
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use crate::codec::{data_end, var_data};
use crate::error::Result;
use crate::wire;

/// An unsigned integer member of a header (a dimension's blockLength or
/// numInGroup, a var-data length): its width and byte order, and its
/// offset in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

impl Uint {
    /// The value in `header` (its member's bytes): `0` when they are not
    /// all there, which a caller rules out by checking the header's length
    /// first.
    #[inline(always)]
    #[must_use]
    pub fn get(self, header: &[u8]) -> u64 {
        match self {
            Uint::U8(at) => u64::from(wire::get_u8_le(header, at)),
            Uint::U16Le(at) => u64::from(wire::get_u16_le(header, at)),
            Uint::U16Be(at) => u64::from(wire::get_u16_be(header, at)),
            Uint::U32Le(at) => u64::from(wire::get_u32_le(header, at)),
            Uint::U32Be(at) => u64::from(wire::get_u32_be(header, at)),
            Uint::U64Le(at) => wire::get_u64_le(header, at),
            Uint::U64Be(at) => wire::get_u64_be(header, at),
        }
    }
}

/// A group's dimension header: its length, where its blockLength and
/// numInGroup are, and the most entries numInGroup may count (its
/// `maxValue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A var-data encoding: where its length member is, where its bytes
/// start (after the length), and the most bytes the length may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarData {
    /// The length member, in the encoding's header.
    pub length: Uint,
    /// Where the bytes start, from the start of the encoding.
    pub data_offset: usize,
    /// The most bytes the length may claim (its `maxValue`).
    pub max_length: u64,
}

impl VarData {
    /// The var data whose encoding starts at `buf[pos..]`: its bytes and
    /// where it ends, its length checked against its maximum
    /// ([`Error::LengthOutOfRange`](crate::Error::LengthOutOfRange)) and
    /// the bytes there are ([`Error::Truncated`](crate::Error::Truncated)).
    #[inline(always)]
    pub fn read(self, buf: &[u8], pos: usize) -> Result<(&[u8], usize)> {
        var_data(
            buf,
            pos.wrapping_add(self.data_offset),
            self.length.get(crate::slice(buf, pos, self.data_offset)?),
            self.max_length,
        )
    }

    /// Where the var data at `buf[pos..]` ends, checked as
    /// [`read`](Self::read) checks it.
    #[inline(always)]
    pub fn end(self, buf: &[u8], pos: usize) -> Result<usize> {
        data_end(
            buf,
            pos.wrapping_add(self.data_offset),
            self.length.get(crate::slice(buf, pos, self.data_offset)?),
            self.max_length,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

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
    }

    #[test]
    fn var_data_checks_its_maximum_and_its_bytes() {
        let d = VarData {
            length: Uint::U8(0),
            data_offset: 1,
            max_length: 3,
        };
        assert_eq!(d.read(&[2, 7, 8, 9], 0), Ok((&[7, 8][..], 3)));
        assert_eq!(d.end(&[0, 2, 7, 8], 1), Ok(4));
        assert_eq!(
            d.read(&[4, 1, 2, 3, 4], 0),
            Err(Error::LengthOutOfRange { length: 4, max: 3 })
        );
        assert_eq!(
            d.end(&[3, 1], 0),
            Err(Error::Truncated {
                needed: 4,
                available: 2
            })
        );
        // The length prefix itself cut off.
        assert!(d.read(&[], 0).is_err());
        assert!(d.end(&[1], usize::MAX).is_err());
    }
}
