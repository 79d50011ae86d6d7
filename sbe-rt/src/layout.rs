//! Where the members of a group's dimension and of a var-data length
//! prefix are, as constants the generated code hands to the generic
//! machinery of [`group`](crate::group), and that
//! [`framing`](crate::framing)'s length fields read through.
//!
//! The generator computes these from the schema (its IR places every
//! member once); the machinery reads through them. Every read is inlined
//! with the constant, so it compiles to the one load a hand-written
//! decoder would do.
//!
//! ```
//! use sbe_rt::layout::{Dimension, Uint};
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
//! ```

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
    /// A constant member: not on the wire, always this value (a
    /// dimension whose `blockLength` or `numInGroup` has
    /// `presence="constant"`).
    ///
    /// ```
    /// use sbe_rt::layout::{Dimension, Uint};
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
    /// The value in `header` (its member's bytes): `0` when they are not
    /// all there, which a caller rules out by checking the header's length
    /// first. A [`Const`](Uint::Const) is its value, whatever `header` holds.
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
            Uint::Const(v) => v,
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
    }

    #[test]
    fn a_constant_reads_as_itself_whatever_the_bytes() {
        assert_eq!(Uint::Const(8).get(&[1, 2, 3]), 8);
        assert_eq!(Uint::Const(u64::MAX).get(&[]), u64::MAX);
        assert_eq!(Uint::Const(0).get(&[0xff; 8]), 0);
    }
}
