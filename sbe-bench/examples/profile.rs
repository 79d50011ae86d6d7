//! Runs one benchmarked operation in a loop, for a profiler:
//!
//! ```text
//! cargo build --release -p sbe-bench --example profile
//! valgrind --tool=callgrind target/release/examples/profile car_decode/this 100000
//! ```
//!
//! Operations: `{car,md}_{decode,encode}/{this,raw,ergo_sbe}` and
//! `{ring_4u32,md_len}/{this,raw,ergo_sbe}` (`md_len`: the length function
//! `frame_stream` gives the framer);
//! `{car,md}_owned_{decode,encode}/{this,flyweight,ergo_sbe}` (owned
//! messages: ours, our flyweight, ergo-sbe's domain objects);
//! `{car,md}_text/this`: the generated
//! `to_json` and `Debug` of one message. Instructions per operation are the
//! total of the run, less that of a run with 0 iterations, divided by the
//! iteration count (`sbe-bench/scripts/instructions.sh` does this for every
//! operation).

use sbe_bench::data::{CAR, MD};
use sbe_bench::fold::fold4;
use sbe_bench::streams::{car_message, car_ring, md_message, ring_cursor};
use sbe_bench::{ergo, owned, raw, this};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "car_decode/this".into());
    let n: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);

    let (car, md) = (car_message(), md_message());
    let (car_msg, md_msg) = (&car[..], &md[..]);
    let (ring, offsets) = car_ring();
    let mut out = [0u8; 256];
    let (car_v, md_v) = (CAR, MD);
    let (car_o, md_o) = (owned::car(), owned::md());
    let (car_dto, md_dto) = (owned::ergo_car(), owned::ergo_md());

    let mut next_ring = ring_cursor(&ring, &offsets);
    // The operation is chosen once; the loop then only calls it.
    let mut run: Box<dyn FnMut() -> u64> = match op.as_str() {
        "car_decode/this" => Box::new(|| this::car_decode(black_box(car_msg)).unwrap()),
        "car_decode/raw" => Box::new(|| raw::car_decode(black_box(car_msg)).unwrap()),
        "car_decode/ergo_sbe" => Box::new(|| ergo::car_decode(black_box(car_msg)).unwrap()),
        "car_encode/this" => {
            Box::new(|| this::car_encode(black_box(&car_v), black_box(&mut out)).unwrap() as u64)
        }
        "car_encode/raw" => {
            Box::new(|| raw::car_encode(black_box(&car_v), black_box(&mut out)).unwrap() as u64)
        }
        "car_encode/ergo_sbe" => {
            Box::new(|| ergo::car_encode(black_box(&car_v), black_box(&mut out)).unwrap() as u64)
        }
        "md_decode/this" => Box::new(|| this::md_decode(black_box(md_msg)).unwrap()),
        "md_decode/raw" => Box::new(|| raw::md_decode(black_box(md_msg)).unwrap()),
        "md_decode/ergo_sbe" => Box::new(|| ergo::md_decode(black_box(md_msg)).unwrap()),
        "md_encode/this" => {
            Box::new(|| this::md_encode(black_box(&md_v), black_box(&mut out)).unwrap() as u64)
        }
        "md_encode/raw" => {
            Box::new(|| raw::md_encode(black_box(&md_v), black_box(&mut out)).unwrap() as u64)
        }
        "md_encode/ergo_sbe" => {
            Box::new(|| ergo::md_encode(black_box(&md_v), black_box(&mut out)).unwrap() as u64)
        }
        "ring_4u32/this" => Box::new(|| fold4(this::car_some_numbers(next_ring()).unwrap())),
        "ring_4u32/raw" => Box::new(|| fold4(raw::car_some_numbers(next_ring()).unwrap())),
        "ring_4u32/ergo_sbe" => Box::new(|| fold4(ergo::car_some_numbers(next_ring()).unwrap())),
        // The message-length function `frame_stream` gives the framer.
        "car_text/this" => Box::new(|| this::text_of(black_box(car_msg)).unwrap() as u64),
        "md_text/this" => Box::new(|| this::text_of(black_box(md_msg)).unwrap() as u64),
        "md_len/this" => Box::new(|| this::md_len(black_box(md_msg)).unwrap().unwrap() as u64),
        "md_len/raw" => Box::new(|| raw::md_len(black_box(md_msg)).unwrap().unwrap() as u64),
        "md_len/ergo_sbe" => Box::new(|| ergo::md_len(black_box(md_msg)).unwrap().unwrap() as u64),
        "car_owned_decode/this" => Box::new(|| owned::car_decode(black_box(car_msg)).unwrap()),
        "car_owned_decode/flyweight" => Box::new(|| this::car_decode(black_box(car_msg)).unwrap()),
        "car_owned_decode/ergo_sbe" => {
            Box::new(|| owned::ergo_car_decode(black_box(car_msg)).unwrap())
        }
        "car_owned_encode/this" => {
            Box::new(|| owned::car_encode(black_box(&car_o), black_box(&mut out)).unwrap() as u64)
        }
        "car_owned_encode/flyweight" => {
            Box::new(|| this::car_encode(black_box(&car_v), black_box(&mut out)).unwrap() as u64)
        }
        "car_owned_encode/ergo_sbe" => Box::new(|| {
            owned::ergo_car_encode(black_box(&car_dto), black_box(&mut out)).unwrap() as u64
        }),
        "md_owned_decode/this" => Box::new(|| owned::md_decode(black_box(md_msg)).unwrap()),
        "md_owned_decode/flyweight" => Box::new(|| this::md_decode(black_box(md_msg)).unwrap()),
        "md_owned_decode/ergo_sbe" => {
            Box::new(|| owned::ergo_md_decode(black_box(md_msg)).unwrap())
        }
        "md_owned_encode/this" => {
            Box::new(|| owned::md_encode(black_box(&md_o), black_box(&mut out)).unwrap() as u64)
        }
        "md_owned_encode/flyweight" => {
            Box::new(|| this::md_encode(black_box(&md_v), black_box(&mut out)).unwrap() as u64)
        }
        "md_owned_encode/ergo_sbe" => Box::new(|| {
            owned::ergo_md_encode(black_box(&md_dto), black_box(&mut out)).unwrap() as u64
        }),
        other => panic!("unknown operation {other}"),
    };
    let mut acc = 0u64;
    for _ in 0..n {
        acc = acc.wrapping_add(run());
    }
    drop(run);
    println!("{op} x{n}: {acc}");
}
