//! The benchmarked `this` paths allocate nothing: a counting global
//! allocator (counting per thread, so the test harness's own threads do not
//! interfere) sees zero allocations across car and market-data decode and
//! encode, the ring-buffer reads and the decode of every framed message.

use sbe_bench::data::{CAR, CAR_LEN, MD};
use sbe_bench::streams::{car_message, car_ring, drain, filled, md_stream, STREAM_MESSAGES};
use sbe_bench::this;
use test_support::alloc::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn car_and_market_data_decode_and_encode_allocate_nothing() {
    let mut car = [0u8; 256];
    let mut md = [0u8; 128];
    let (n, _) = allocations(|| {
        for _ in 0..100 {
            let len = this::car_encode(&CAR, &mut car).unwrap();
            this::car_decode(&car[..len]).unwrap();
            this::car_some_numbers(&car[..len]).unwrap();
            let len = this::md_encode(&MD, &mut md).unwrap();
            this::md_decode(&md[..len]).unwrap();
            this::md_len(&md[..len]).unwrap();
        }
    });
    assert_eq!(n, 0, "allocations on the decode/encode paths");
    assert_eq!(car[..CAR_LEN], car_message()[..]);
}

#[test]
fn ring_reads_allocate_nothing() {
    let (ring, offsets) = car_ring();
    let (n, sum) = allocations(|| {
        let mut sum = 0u64;
        for &at in &offsets {
            let numbers = this::car_some_numbers(&ring[at..]).unwrap();
            sum += numbers.iter().map(|&v| u64::from(v)).sum::<u64>();
        }
        sum
    });
    assert_eq!(n, 0, "allocations reading the ring");
    assert!(sum > 0);
}

#[test]
fn framed_stream_decode_allocates_nothing_per_message() {
    let stream = md_stream();
    let mut framer = filled(&stream);
    let (n, (_, count)) = allocations(|| drain(&mut framer, this::md_len, this::md_decode));
    assert_eq!(count, STREAM_MESSAGES);
    // `bytes::BytesMut` allocates its shared header once, on the first
    // `split_to` of a buffer; after that splitting and decoding are free.
    assert!(n <= 1, "{n} allocations for {count} frames");
}
