//! DELTA_BINARY_PACKED: blocks of 128 deltas from the value before, each
//! block's smallest delta subtracted and the rest bit-packed in four
//! miniblocks of 32, each as wide as its largest.

use super::rle::{bits_for, pack32};
use super::rle::{varint, zigzag};

const BLOCK: usize = 128;
const MINIBLOCKS: usize = 4;
const MINI: usize = BLOCK / MINIBLOCKS;

/// An integer of a physical type: its deltas wrap in its own width, as
/// a reader of that type adds them back.
pub(crate) trait DeltaInt: Copy + Ord {
    /// `self - other`, wrapping in the type.
    fn delta(self, other: Self) -> Self;
    /// The value widened (sign kept).
    fn wide(self) -> i64;
    /// `d - min` (deltas of the type, widened) as an unsigned count of
    /// the type's width.
    fn spread(d: i64, min: i64) -> u64;
}

impl DeltaInt for i32 {
    fn delta(self, other: i32) -> i32 {
        self.wrapping_sub(other)
    }
    fn wide(self) -> i64 {
        i64::from(self)
    }
    fn spread(d: i64, min: i64) -> u64 {
        // Both are of i32's range: the difference fits, and is not negative.
        d.wrapping_sub(min) as u64
    }
}

impl DeltaInt for i64 {
    fn delta(self, other: i64) -> i64 {
        self.wrapping_sub(other)
    }
    fn wide(self) -> i64 {
        self
    }
    fn spread(d: i64, min: i64) -> u64 {
        d.wrapping_sub(min) as u64
    }
}

/// Appends `values` DELTA_BINARY_PACKED (one page's values).
pub(crate) fn encode<T: DeltaInt + Ord>(out: &mut Vec<u8>, values: &[T]) {
    varint(out, BLOCK as u64);
    varint(out, MINIBLOCKS as u64);
    varint(out, values.len() as u64);
    let Some((&first, rest)) = values.split_first() else {
        varint(out, 0);
        return;
    };
    varint(out, zigzag(first.wide()));
    let mut prev = first;
    let mut deltas = [0i64; BLOCK];
    let mut above = [0u64; BLOCK];
    for block in rest.chunks(BLOCK) {
        // Each delta from the value before it in the block (the first
        // from the last block's last): no value carried from one step
        // to the next, so the loop vectorises.
        let (Some((&head, tail)), Some((d0, ds))) = (block.split_first(), deltas.split_first_mut())
        else {
            continue;
        };
        *d0 = head.delta(prev).wide();
        for ((slot, &v), &before) in ds.iter_mut().zip(tail).zip(block) {
            *slot = v.delta(before).wide();
        }
        prev = block.last().copied().unwrap_or(prev);
        let deltas = deltas.get(..block.len()).unwrap_or_default();
        let Some(&min) = deltas.iter().min() else {
            continue;
        };
        // Past the last delta stay zeros: the padding of a short block.
        if deltas.len() < BLOCK {
            above.fill(0);
        }
        for (a, &d) in above.iter_mut().zip(deltas) {
            *a = T::spread(d, min);
        }
        encode_block(out, zigzag(min), &above, deltas.len());
    }
}

/// One block of `len` deltas (`above`: each less the smallest, `min`):
/// the smallest, the four widths, then the miniblocks that hold deltas
/// (those past the last delta are width 0 and absent).
fn encode_block(out: &mut Vec<u8>, min: u64, above: &[u64; BLOCK], len: usize) {
    varint(out, min);
    let mut widths = [0u8; MINIBLOCKS];
    let used = len.div_ceil(MINI);
    for (w, mini) in widths.iter_mut().zip(above.chunks(MINI)).take(used) {
        // The widest value has the highest bit of them all.
        *w = bits_for(mini.iter().fold(0, |acc, &v| acc | v));
    }
    out.extend_from_slice(&widths);
    for (&w, mini) in widths.iter().zip(above.chunks_exact(MINI)).take(used) {
        if let Ok(mini) = <&[u64; MINI]>::try_from(mini) {
            pack32(out, mini, w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Values of every kind (wrapping deltas, extremes, short and long
    // blocks) are read back by the crate's reader in `pqwrite::tests`.

    #[test]
    fn a_header_and_one_block() {
        let mut out = Vec::new();
        encode(&mut out, &[7i64, 8, 10]);
        // Block 128, 4 miniblocks, 3 values, first 7 (zigzag 14); min
        // delta 1 (zigzag 2), widths 1,0,0,0, deltas-min 0,1 packed.
        assert_eq!(out, [128, 1, 4, 3, 14, 2, 1, 0, 0, 0, 0b10, 0, 0, 0]);
    }
}
