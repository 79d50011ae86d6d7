//! `ring_4u32`: read the four uint32 `someNumbers` of a car at rotating
//! offsets in a 64 KiB ring buffer (one read of four fields per iteration).
//!
//! `frame_stream`: split a stream of 100,000 market-data messages held in
//! one `BytesMut` into frames with `sbe_framing::Framer` (raw framing: each
//! contender's own message-length function) and decode each frame, folding
//! every field into a checksum. Reported twice per contender, in
//! messages/s (`…/messages`) and bytes/s (`…/bytes`).

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use sbe_bench::fold::fold4;
use sbe_bench::streams::{car_ring, drain, filled, md_stream, ring_cursor, STREAM_MESSAGES};
use sbe_bench::{ergo, raw, this};

fn ring_4u32(c: &mut Criterion) {
    let (ring, offsets) = car_ring();
    let ring = &ring[..];
    let offsets = &offsets[..];
    let mut g = c.benchmark_group("ring_4u32");
    g.throughput(Throughput::Elements(1));
    macro_rules! contender {
        ($id:literal, $read:path) => {
            let mut next = ring_cursor(ring, offsets);
            g.bench_function($id, |b| b.iter(|| fold4($read(next()).expect("read"))));
        };
    }
    contender!("this", this::car_some_numbers);
    contender!("raw", raw::car_some_numbers);
    contender!("ergo_sbe", ergo::car_some_numbers);
    g.finish();
}

fn frame_stream(c: &mut Criterion) {
    let stream = md_stream();
    let stream = &stream[..];
    let fill = || filled(stream);
    let mut g = c.benchmark_group("frame_stream");
    g.sample_size(10);
    for (unit, throughput) in [
        ("messages", Throughput::Elements(STREAM_MESSAGES as u64)),
        ("bytes", Throughput::Bytes(stream.len() as u64)),
    ] {
        g.throughput(throughput);
        macro_rules! contender {
            ($id:literal, $len:path, $decode:path) => {
                g.bench_function(BenchmarkId::new($id, unit), |b| {
                    b.iter_batched(
                        fill,
                        |mut framer| {
                            let out = drain(&mut framer, $len, $decode);
                            assert_eq!(out.1, STREAM_MESSAGES);
                            (out, framer)
                        },
                        BatchSize::PerIteration,
                    )
                });
            };
        }
        contender!("this", this::md_len, this::md_decode);
        contender!("raw", raw::md_len, raw::md_decode);
        contender!("ergo_sbe", ergo::md_len, ergo::md_decode);
    }
    g.finish();
}

criterion_group!(benches, ring_4u32, frame_stream);
criterion_main!(benches);
