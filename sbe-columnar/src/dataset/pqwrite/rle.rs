//! Bit packing and the RLE/bit-packed hybrid that Parquet keeps levels
//! and dictionary keys in.

use super::thrift::varint;

/// The bits a value up to `max` takes.
pub(crate) fn bits_for(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Appends `values` packed `width` bits each, least significant bit
/// first; `values.len()` is a multiple of 8 so that groups end on bytes.
pub(crate) fn bit_pack(out: &mut Vec<u8>, values: &[u64], width: u8) {
    let w = u32::from(width);
    match w {
        0 => {}
        1..=32 => {
            // Half words out at a time: a value of 32 bits at most fits
            // beside the fewer than 32 left over.
            let mut acc: u64 = 0;
            let mut bits: u32 = 0;
            for &v in values {
                acc |= v << bits;
                bits += w;
                if bits >= 32 {
                    out.extend_from_slice(&(acc as u32).to_le_bytes());
                    acc >>= 32;
                    bits -= 32;
                }
            }
            let tail = bits.div_ceil(8) as usize;
            out.extend_from_slice(acc.to_le_bytes().get(..tail).unwrap_or_default());
        }
        _ => {
            let mut acc: u128 = 0;
            let mut bits: u32 = 0;
            for &v in values {
                acc |= u128::from(v) << bits;
                bits += w;
                if bits >= 64 {
                    out.extend_from_slice(&(acc as u64).to_le_bytes());
                    acc >>= 64;
                    bits -= 64;
                }
            }
            let tail = bits.div_ceil(8) as usize;
            out.extend_from_slice(acc.to_le_bytes().get(..tail).unwrap_or_default());
        }
    }
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
    // Eight at a time, the last group padded with zeros.
    for group in values.chunks(8) {
        let mut g = [0u64; 8];
        for (slot, &v) in g.iter_mut().zip(group) {
            *slot = v.into();
        }
        bit_pack(out, &g, width);
    }
}

fn repeated(out: &mut Vec<u8>, v: u64, run: usize, width: u8) {
    varint(out, (run as u64) << 1);
    let bytes = usize::from(width).div_ceil(8);
    out.extend_from_slice(v.to_le_bytes().get(..bytes).unwrap_or_default());
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn a_group_packs_into_its_width_in_bytes() {
        let mut out = Vec::new();
        bit_pack(&mut out, &[1, 0, 1, 1, 0, 0, 0, 1], 1);
        assert_eq!(out, [0b1000_1101]);
        out.clear();
        bit_pack(&mut out, &[0, 1, 2, 3, 4, 5, 6, 7], 3);
        // 0b111_110_101_100_011_010_001_000, little-endian.
        assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
        out.clear();
        hybrid(&mut out, &[5u16; 20], 3);
        // A repeated run: header 20 << 1, then the value in one byte.
        assert_eq!(out, [40, 5]);
    }
}
