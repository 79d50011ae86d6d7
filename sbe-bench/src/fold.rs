//! The checksum every decode bench folds each decoded value into.
//!
//! Each value goes through [`std::hint::black_box`] so that the optimiser
//! must produce it (it cannot skip a read whose result is unused, nor
//! compute the checksum at compile time); the fold itself is one add, so
//! it adds the same small cost to every contender.

use std::hint::black_box;

/// Folds one decoded value into `acc`.
#[inline(always)]
#[must_use]
pub fn fold(acc: u64, v: u64) -> u64 {
    acc.wrapping_add(black_box(v))
}

/// Folds a decoded byte string (char array or var data): the slice goes
/// through `black_box`, so its position and length must be produced; its
/// length is added.
#[inline(always)]
#[must_use]
pub fn fold_bytes(acc: u64, v: &[u8]) -> u64 {
    acc.wrapping_add(black_box(v).len() as u64)
}

/// Folds the four `someNumbers` a `ring_4u32` read returns.
#[inline(always)]
#[must_use]
pub fn fold4(n: [u32; 4]) -> u64 {
    n.iter().fold(0, |acc, &v| fold(acc, u64::from(v)))
}
