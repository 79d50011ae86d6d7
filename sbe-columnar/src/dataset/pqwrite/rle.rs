//! Bit packing and the RLE/bit-packed hybrid that Parquet keeps levels
//! and dictionary keys in.

/// The bits a value up to `max` takes.
pub(crate) fn bits_for(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// `$f::<W> $args` for `W` the width `$width`, 1 to 64 (0, or past 64:
/// nothing): each width its own loop, whose shifts and stores are known
/// when compiled (a loop over the width at run time was a third of the
/// writer's bit packing).
macro_rules! by_width {
    ($width:expr, $f:ident $args:tt) => {
        by_width!(@ $width, $f $args; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
            24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51
            52 53 54 55 56 57 58 59 60 61 62 63 64)
    };
    (@ $width:expr, $f:ident $args:tt; $($w:literal)*) => {
        match $width {
            $($w => $f::<$w> $args,)*
            _ => {}
        }
    };
}

/// Appends `values` packed `width` bits each, least significant bit
/// first; `values.len()` is a multiple of 8 so that groups end on bytes
/// (a shorter tail is packed as if padded with zeros).
pub(crate) fn bit_pack<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u8) {
    by_width!(width, groups(out, values));
}

/// Appends the 32 `values` (a DELTA_BINARY_PACKED miniblock) packed
/// `width` bits each, as [`bit_pack`] does, every value's word and shift
/// a constant (groups of 8 took half as many instructions again).
pub(crate) fn pack32(out: &mut Vec<u8>, values: &[u64; 32], width: u8) {
    by_width!(width, mini(out, values));
}

/// 32 values of `W` bits (each below `2^W`) as `4 * W` bytes.
#[inline(always)]
fn mini<const W: u32>(out: &mut Vec<u8>, values: &[u64; 32]) {
    let mut words = [0u64; 32];
    // Written out per value (the loop was not unrolled): each value's
    // word and shift are constants.
    macro_rules! each {
        ($($k:literal)*) => {$({
            let (word, shift): (usize, u32) = (($k * W / 64) as usize, $k * W % 64);
            let v = values.get($k).copied().unwrap_or(0);
            if let Some(w) = words.get_mut(word) {
                *w |= v << shift;
            }
            // The value's high bits, where it crosses into the next word.
            if shift + W > 64 {
                if let Some(w) = words.get_mut(word + 1) {
                    *w |= v >> ((64 - shift) % 64);
                }
            }
        })*};
    }
    each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
    let len = 4 * W as usize;
    out.reserve(len);
    for w in words.iter().take(len / 8) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    if len % 8 != 0 {
        let last = words.get(len / 8).copied().unwrap_or(0);
        out.extend_from_slice(last.to_le_bytes().get(..4).unwrap_or_default());
    }
}

/// `values` packed `W` bits each, a group of 8 (`W` bytes) at a time.
#[inline(always)]
fn groups<const W: u32>(out: &mut Vec<u8>, values: &[impl Copy + Into<u64>]) {
    out.reserve(values.len().div_ceil(8) * W as usize);
    let mut chunks = values.chunks_exact(8);
    for g in &mut chunks {
        let mut group = [0u64; 8];
        for (slot, &v) in group.iter_mut().zip(g) {
            *slot = v.into();
        }
        pack8::<W>(out, &group);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut group = [0u64; 8];
        for (slot, &v) in group.iter_mut().zip(rest) {
            *slot = v.into();
        }
        pack8::<W>(out, &group);
    }
}

/// Eight values of `W` bits (each below `2^W`) as `W` bytes.
#[inline(always)]
fn pack8<const W: u32>(out: &mut Vec<u8>, group: &[u64; 8]) {
    let mut bytes = [0u8; 72];
    let mut acc: u128 = 0;
    let (mut bits, mut at) = (0u32, 0usize);
    for &v in group {
        acc |= u128::from(v) << bits;
        bits += W;
        if bits >= 64 {
            if let Some(slot) = bytes.get_mut(at..at + 8) {
                slot.copy_from_slice(&(acc as u64).to_le_bytes());
            }
            (acc, bits, at) = (acc >> 64, bits - 64, at + 8);
        }
    }
    if let Some(slot) = bytes.get_mut(at..at + 8) {
        slot.copy_from_slice(&(acc as u64).to_le_bytes());
    }
    out.extend_from_slice(bytes.get(..W as usize).unwrap_or_default());
}

/// Appends `values` (each below `2^width`) in the RLE/bit-packed hybrid:
/// a group of 8 equal values, at a group's start, begins a repeated run
/// that lasts as long as the value does; the rest is bit-packed in
/// groups of 8 (the last padded with zeros, which a reader drops as it
/// knows the count). Looking only at whole groups keeps the literals
/// whole groups, and costs a comparison a value.
pub(crate) fn hybrid<T: Copy + Into<u64> + PartialEq>(out: &mut Vec<u8>, values: &[T], width: u8) {
    let mut lit_start = 0;
    let mut i = 0;
    while let Some(group) = values.get(i..i + 8) {
        let Some(&v) = group.first() else {
            break;
        };
        if group.iter().all(|&x| x == v) {
            let tail = values.get(i + 8..).unwrap_or_default();
            let run = 8 + tail.iter().take_while(|&&x| x == v).count();
            literals(out, values.get(lit_start..i).unwrap_or_default(), width);
            repeated(out, v.into(), run, width);
            i += run;
            lit_start = i;
        } else {
            i += 8;
        }
    }
    literals(out, values.get(lit_start..).unwrap_or_default(), width);
}

fn literals<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u8) {
    if values.is_empty() {
        return;
    }
    let groups = values.len().div_ceil(8);
    varint(out, ((groups as u64) << 1) | 1);
    // The last group padded with zeros.
    bit_pack(out, values, width);
}

fn repeated(out: &mut Vec<u8>, v: u64, run: usize, width: u8) {
    varint(out, (run as u64) << 1);
    let bytes = usize::from(width).div_ceil(8);
    out.extend_from_slice(v.to_le_bytes().get(..bytes).unwrap_or_default());
}

/// The zigzag mapping of signed onto unsigned that varints take.
pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Appends `v` as a ULEB128 varint.
pub(crate) fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    #[test]
    fn zigzag_and_varint() {
        assert_eq!([zigzag(0), zigzag(-1), zigzag(1), zigzag(-2)], [0, 1, 2, 3]);
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
    }

    use super::*;

    // The hybrid and the packing are read back by the crate's reader in
    // `pqwrite::tests` (dictionary keys and levels of every width).

    #[test]
    fn bits() {
        assert_eq!(
            [bits_for(0), bits_for(1), bits_for(2), bits_for(255)],
            [0, 1, 2, 8]
        );
    }

    /// Bit `i` of the output is bit `i % width` of value `i / width`.
    fn packed_bit_by_bit(values: &[u64], width: u8) -> Vec<u8> {
        let w = usize::from(width);
        let mut out = vec![0u8; (values.len() * w).div_ceil(8)];
        for (n, v) in values.iter().enumerate() {
            for b in 0..w {
                if v >> b & 1 == 1 {
                    out[(n * w + b) / 8] |= 1 << ((n * w + b) % 8);
                }
            }
        }
        out
    }

    #[test]
    fn every_width_packs_as_bit_by_bit() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for width in 1..=64u8 {
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1 << width) - 1
            };
            let values: Vec<u64> = (0..40)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // The largest value, and zero, among them.
                    [mask, 0].get(i % 16).copied().unwrap_or(x & mask)
                })
                .collect();
            let mut out = vec![0xAA];
            bit_pack(&mut out, &values, width);
            assert_eq!(out[0], 0xAA, "appended, not overwritten");
            assert_eq!(out[1..], packed_bit_by_bit(&values, width), "width {width}");
        }
    }

    #[test]
    fn every_width_packs_a_miniblock_as_bit_by_bit() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for width in 1..=64u8 {
            let mask = u64::MAX >> (64 - u32::from(width));
            let values: [u64; 32] = std::array::from_fn(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                [mask, 0].get(i % 11).copied().unwrap_or(x & mask)
            });
            let mut out = vec![0xAA];
            pack32(&mut out, &values, width);
            assert_eq!(out[0], 0xAA, "appended, not overwritten");
            assert_eq!(out[1..], packed_bit_by_bit(&values, width), "width {width}");
        }
        let mut none = Vec::new();
        pack32(&mut none, &[0; 32], 0);
        assert!(none.is_empty());
    }

    #[test]
    fn a_group_packs_into_its_width_in_bytes() {
        let mut out = Vec::new();
        bit_pack(&mut out, &[1u64, 0, 1, 1, 0, 0, 0, 1], 1);
        assert_eq!(out, [0b1000_1101]);
        out.clear();
        bit_pack(&mut out, &[0u64, 1, 2, 3, 4, 5, 6, 7], 3);
        // 0b111_110_101_100_011_010_001_000, little-endian.
        assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
        out.clear();
        hybrid(&mut out, &[5u16; 20], 3);
        // A repeated run: header 20 << 1, then the value in one byte.
        assert_eq!(out, [40, 5]);
    }
}
