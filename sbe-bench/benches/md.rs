//! `md_decode` and `md_encode`: MarketDataIncrementalRefreshTrades with two
//! entries (`schemas/market-data.xml`), every contender on the same message
//! in the same run. Decode folds every field of the root block and of each
//! entry into a checksum through `black_box`; encode writes the whole
//! message (header included). `md_owned_decode` and `md_owned_encode`: the
//! same through owned values (this project's `to_owned`/`encode`, ergo-sbe's
//! domain objects), beside the flyweight.

use criterion::{criterion_group, criterion_main, Criterion};
use sbe_bench::data::MD;
use sbe_bench::streams::md_message;
use sbe_bench::{ergo, owned, raw, this};
use std::hint::black_box;

fn md_decode(c: &mut Criterion) {
    let sbe = &md_message()[..];

    let mut g = c.benchmark_group("md_decode");
    g.bench_function("this", |b| {
        b.iter(|| this::md_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("raw", |b| {
        b.iter(|| raw::md_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| ergo::md_decode(black_box(sbe)).expect("decode"))
    });
    g.finish();
}

fn md_encode(c: &mut Criterion) {
    let md = MD;
    let mut buf = [0u8; 128];

    let mut g = c.benchmark_group("md_encode");
    g.bench_function("this", |b| {
        b.iter(|| this::md_encode(black_box(&md), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("raw", |b| {
        b.iter(|| raw::md_encode(black_box(&md), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| ergo::md_encode(black_box(&md), black_box(&mut buf)).expect("encode"))
    });
    g.finish();
}

fn md_owned_decode(c: &mut Criterion) {
    let sbe = &md_message()[..];
    let mut g = c.benchmark_group("md_owned_decode");
    g.bench_function("this", |b| {
        b.iter(|| owned::md_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("flyweight", |b| {
        b.iter(|| this::md_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| owned::ergo_md_decode(black_box(sbe)).expect("decode"))
    });
    g.finish();
}

fn md_owned_encode(c: &mut Criterion) {
    let (md, ours, dto) = (MD, owned::md(), owned::ergo_md());
    let mut buf = [0u8; 128];
    let mut g = c.benchmark_group("md_owned_encode");
    g.bench_function("this", |b| {
        b.iter(|| owned::md_encode(black_box(&ours), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("flyweight", |b| {
        b.iter(|| this::md_encode(black_box(&md), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| owned::ergo_md_encode(black_box(&dto), black_box(&mut buf)).expect("encode"))
    });
    g.finish();
}

criterion_group!(
    benches,
    md_decode,
    md_encode,
    md_owned_decode,
    md_owned_encode
);
criterion_main!(benches);
