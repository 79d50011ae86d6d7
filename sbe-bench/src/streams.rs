//! The benchmarks' inputs as bytes: one car and one market-data message,
//! the ring of `ring_4u32` and the stream of `frame_stream`, all written by
//! the hand-written encoder of [`crate::raw`].

use crate::data::{Car, MdTrades, CAR, CAR_LEN, MD, MD_LEN};
use crate::raw;
use sbe_framing::Framer;
use std::hint::black_box;

/// Size of the ring buffer of `ring_4u32`: 64 KiB.
pub const RING_LEN: usize = 64 * 1024;

/// Messages in the stream of `frame_stream`.
pub const STREAM_MESSAGES: usize = 100_000;

/// [`CAR`], encoded with its header ([`CAR_LEN`] bytes).
#[must_use]
pub fn car_message() -> Vec<u8> {
    let mut buf = vec![0u8; CAR_LEN];
    let n = raw::car_encode(&CAR, &mut buf).expect("CAR_LEN holds the car");
    buf.truncate(n);
    buf
}

/// [`MD`], encoded with its header ([`MD_LEN`] bytes).
#[must_use]
pub fn md_message() -> Vec<u8> {
    let mut buf = vec![0u8; MD_LEN];
    let n = raw::md_encode(&MD, &mut buf).expect("MD_LEN holds the message");
    buf.truncate(n);
    buf
}

/// A 64 KiB ring buffer filled with cars back to back (207 bytes each, so
/// most start at an unaligned offset), each with its own `someNumbers`;
/// returns the ring and the offset of each car.
#[must_use]
pub fn car_ring() -> (Vec<u8>, Vec<usize>) {
    let mut ring = vec![0u8; RING_LEN];
    let mut offsets = Vec::new();
    let mut at = 0;
    while at + CAR_LEN <= RING_LEN {
        let k = offsets.len() as u32;
        let car = Car {
            some_numbers: [k, k + 1, k + 2, k + 3],
            ..CAR
        };
        let n = raw::car_encode(&car, &mut ring[at..]).expect("fits");
        offsets.push(at);
        at += n;
    }
    (ring, offsets)
}

/// A cursor over the cars of [`car_ring`] (its ring and offsets): each call
/// gives the next car's bytes (to the end of the ring), the ring through
/// `black_box`, starting over after the last. A compare and reset, not a
/// `%` (a division per call, as costly as the read being measured).
pub fn ring_cursor<'r>(ring: &'r [u8], offsets: &'r [usize]) -> impl FnMut() -> &'r [u8] {
    let mut i = 0;
    move || {
        let at = offsets[i];
        i += 1;
        if i == offsets.len() {
            i = 0;
        }
        &black_box(ring)[at..]
    }
}

/// [`STREAM_MESSAGES`] market-data messages back to back (raw framing),
/// each with its own `TransactTime`.
#[must_use]
pub fn md_stream() -> Vec<u8> {
    let mut stream = vec![0u8; STREAM_MESSAGES * MD_LEN];
    for (i, slot) in stream.chunks_exact_mut(MD_LEN).enumerate() {
        let md = MdTrades {
            transact_time: MD.transact_time + i as u64,
            ..MD
        };
        raw::md_encode(&md, slot).expect("fits");
    }
    stream
}

/// A filled [`Framer`] holding `stream`, as `frame_stream` starts from.
#[must_use]
pub fn filled(stream: &[u8]) -> Framer {
    let mut framer = Framer::with_capacity(stream.len());
    framer.push(stream);
    framer
}

/// Splits every frame off `framer` with the length function `len` and
/// decodes it with `decode`: `frame_stream`'s work. Returns the folded
/// checksum and the number of messages.
///
/// # Panics
/// On a framing or decoding error: the stream is the benchmark's own.
#[inline(always)]
pub fn drain<E: core::fmt::Debug>(
    framer: &mut Framer,
    len: fn(&[u8]) -> sbe_rt::Result<Option<usize>>,
    decode: fn(&[u8]) -> Result<u64, E>,
) -> (u64, usize) {
    let mut acc = 0u64;
    let mut n = 0;
    while let Some(frame) = framer.next_frame(len).expect("frame") {
        acc = acc.wrapping_add(decode(&frame).expect("decode"));
        n += 1;
    }
    (acc, n)
}
