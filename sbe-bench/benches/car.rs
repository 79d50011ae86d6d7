//! `car_decode` and `car_encode`: the Car of `schemas/car.xml` (the
//! reference's golden car), every contender on the same message in the
//! same run. Decode walks every field, group, nested group and var data and
//! folds each value into a checksum through `black_box`; encode writes the
//! whole message (header included). `car_owned_decode` and
//! `car_owned_encode`: the same through owned values (this project's
//! `to_owned`/`encode`, ergo-sbe's domain objects), beside the flyweight.

use criterion::{criterion_group, criterion_main, Criterion};
use sbe_bench::data::CAR;
use sbe_bench::streams::car_message;
use sbe_bench::{ergo, owned, raw, this};
use std::hint::black_box;

#[path = "common/peers.rs"]
mod peers;

fn car_decode(c: &mut Criterion) {
    let sbe = &car_message()[..];
    let json = serde_json::to_vec(&peers::json::JsonCar::from(&CAR)).expect("json");
    let mut proto = Vec::new();
    peers::proto::encode(&peers::proto::ProtoCar::from(&CAR), &mut proto).expect("proto");

    let mut g = c.benchmark_group("car_decode");
    g.bench_function("this", |b| {
        b.iter(|| this::car_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("raw", |b| {
        b.iter(|| raw::car_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| ergo::car_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| peers::json::decode(black_box(&json)).expect("decode"))
    });
    g.bench_function("prost", |b| {
        b.iter(|| peers::proto::decode(black_box(&proto)).expect("decode"))
    });
    g.finish();
}

fn car_encode(c: &mut Criterion) {
    let car = CAR;
    let json_car = peers::json::JsonCar::from(&CAR);
    let proto_car = peers::proto::ProtoCar::from(&CAR);
    let mut buf = [0u8; 256];
    let mut out = Vec::with_capacity(1024);

    let mut g = c.benchmark_group("car_encode");
    g.bench_function("this", |b| {
        b.iter(|| this::car_encode(black_box(&car), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("raw", |b| {
        b.iter(|| raw::car_encode(black_box(&car), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| ergo::car_encode(black_box(&car), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| peers::json::encode(black_box(&json_car), black_box(&mut out)).expect("encode"))
    });
    g.bench_function("prost", |b| {
        b.iter(|| peers::proto::encode(black_box(&proto_car), black_box(&mut out)).expect("encode"))
    });
    g.finish();
}

fn car_owned_decode(c: &mut Criterion) {
    let sbe = &car_message()[..];
    let mut g = c.benchmark_group("car_owned_decode");
    g.bench_function("this", |b| {
        b.iter(|| owned::car_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("flyweight", |b| {
        b.iter(|| this::car_decode(black_box(sbe)).expect("decode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| owned::ergo_car_decode(black_box(sbe)).expect("decode"))
    });
    g.finish();
}

fn car_owned_encode(c: &mut Criterion) {
    let (car, ours, dto) = (CAR, owned::car(), owned::ergo_car());
    let mut buf = [0u8; 256];
    let mut g = c.benchmark_group("car_owned_encode");
    g.bench_function("this", |b| {
        b.iter(|| owned::car_encode(black_box(&ours), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("flyweight", |b| {
        b.iter(|| this::car_encode(black_box(&car), black_box(&mut buf)).expect("encode"))
    });
    g.bench_function("ergo_sbe", |b| {
        b.iter(|| owned::ergo_car_encode(black_box(&dto), black_box(&mut buf)).expect("encode"))
    });
    g.finish();
}

criterion_group!(
    benches,
    car_decode,
    car_encode,
    car_owned_decode,
    car_owned_encode
);
criterion_main!(benches);
