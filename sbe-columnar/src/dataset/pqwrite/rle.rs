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
    use parquet::data_type::Int32Type;
    use parquet::decoding::{Decoder, DictDecoder, PlainDecoder};

    use super::*;

    /// The crate's own dictionary decoder over the identity dictionary
    /// `0..65536`: it reads a width byte and the hybrid, so the values it
    /// gives are the hybrid's.
    fn decode(buf: &[u8], width: u8, n: usize) -> Vec<u64> {
        let ids: Vec<u8> = (0..65536i32).flat_map(|i| i.to_le_bytes()).collect();
        let mut plain = PlainDecoder::<Int32Type>::new(0);
        plain.set_data(ids.into(), 65536).unwrap();
        let mut d = DictDecoder::<Int32Type>::new();
        d.set_dict(Box::new(plain)).unwrap();
        let data: Vec<u8> = std::iter::once(width).chain(buf.iter().copied()).collect();
        d.set_data(data.into(), n).unwrap();
        let mut got = vec![0i32; n];
        assert_eq!(d.get(&mut got).unwrap(), n);
        got.into_iter().map(|v| v as u64).collect()
    }

    fn round_trip<T: Copy + Into<u64> + PartialEq + std::fmt::Debug>(values: &[T], width: u8) {
        let mut out = Vec::new();
        hybrid(&mut out, values, width);
        let want: Vec<u64> = values.iter().map(|&v| v.into()).collect();
        assert_eq!(decode(&out, width, values.len()), want, "{values:?}");
    }

    #[test]
    fn runs_and_literals_read_back() {
        let cases: Vec<Vec<u16>> = vec![
            vec![1],
            vec![0, 1, 2, 3, 2, 1, 0, 1, 2],
            vec![3; 100],
            [vec![1, 2, 3], vec![0; 20], vec![1, 2], vec![3; 9]].concat(),
            [vec![1; 7], vec![2; 8], vec![1; 15], vec![0; 17]].concat(),
            (0..1000).map(|i| (i % 7 / 3) as u16).collect(),
            (0..1000).map(|i| (i / 13 % 4) as u16).collect(),
        ];
        for values in &cases {
            round_trip(values, 2);
            round_trip(values, 3);
        }
    }

    #[test]
    fn wide_keys_read_back() {
        let values: Vec<u32> = (0..5000).map(|i| (i * 7919) % 65536).collect();
        round_trip(&values, 16);
        let values: Vec<u32> = (0..5000).map(|i| (i / 40) % 300).collect();
        round_trip(&values, 9);
    }

    #[test]
    fn bits() {
        assert_eq!(
            [bits_for(0), bits_for(1), bits_for(2), bits_for(255)],
            [0, 1, 2, 8]
        );
    }
}
