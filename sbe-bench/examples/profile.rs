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
//! `{car,md}_encode_exact/{this,ergo_sbe}` (the exact length, then the
//! message written into exactly that many bytes);
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
        "car_encode_exact/this" => Box::new(|| {
            this::car_encode_exact(black_box(&car_v), black_box(&mut out)).unwrap() as u64
        }),
        "car_encode_exact/ergo_sbe" => Box::new(|| {
            ergo::car_encode_exact(black_box(&car_v), black_box(&mut out)).unwrap() as u64
        }),
        "md_encode_exact/this" => Box::new(|| {
            this::md_encode_exact(black_box(&md_v), black_box(&mut out)).unwrap() as u64
        }),
        "md_encode_exact/ergo_sbe" => Box::new(|| {
            ergo::md_encode_exact(black_box(&md_v), black_box(&mut out)).unwrap() as u64
        }),
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
        other => {
            owned_op(other, car_msg, md_msg).unwrap_or_else(|| panic!("unknown operation {other}"))
        }
    };
    let mut acc = 0u64;
    for _ in 0..n {
        acc = acc.wrapping_add(run());
    }
    drop(run);
    println!("{op} x{n}: {acc}");
}

/// The operations of the owned groups (in a function of their own, so that
/// the other operations' closures compile as they did before these).
fn owned_op<'a>(
    op: &str,
    car_msg: &'a [u8],
    md_msg: &'a [u8],
) -> Option<Box<dyn FnMut() -> u64 + 'a>> {
    let mut out = [0u8; 256];
    let run: Box<dyn FnMut() -> u64 + 'a> = match op {
        "car_owned_decode/this" => Box::new(move || owned::car_decode(black_box(car_msg)).unwrap()),
        "car_owned_decode/flyweight" => {
            Box::new(move || this::car_decode(black_box(car_msg)).unwrap())
        }
        "car_owned_decode/ergo_sbe" => {
            Box::new(move || owned::ergo_car_decode(black_box(car_msg)).unwrap())
        }
        "car_owned_encode/this" => {
            let car = owned::car();
            Box::new(move || {
                owned::car_encode(black_box(&car), black_box(&mut out)).unwrap() as u64
            })
        }
        "car_owned_encode/flyweight" => {
            Box::new(move || this::car_encode(black_box(&CAR), black_box(&mut out)).unwrap() as u64)
        }
        "car_owned_encode/ergo_sbe" => {
            let car = owned::ergo_car();
            Box::new(move || {
                owned::ergo_car_encode(black_box(&car), black_box(&mut out)).unwrap() as u64
            })
        }
        "md_owned_decode/this" => Box::new(move || owned::md_decode(black_box(md_msg)).unwrap()),
        "md_owned_decode/flyweight" => {
            Box::new(move || this::md_decode(black_box(md_msg)).unwrap())
        }
        "md_owned_decode/ergo_sbe" => {
            Box::new(move || owned::ergo_md_decode(black_box(md_msg)).unwrap())
        }
        "md_owned_encode/this" => {
            let md = owned::md();
            Box::new(move || owned::md_encode(black_box(&md), black_box(&mut out)).unwrap() as u64)
        }
        "md_owned_encode/flyweight" => {
            Box::new(move || this::md_encode(black_box(&MD), black_box(&mut out)).unwrap() as u64)
        }
        "md_owned_encode/ergo_sbe" => {
            let md = owned::ergo_md();
            Box::new(move || {
                owned::ergo_md_encode(black_box(&md), black_box(&mut out)).unwrap() as u64
            })
        }
        _ => return None,
    };
    Some(run)
}
