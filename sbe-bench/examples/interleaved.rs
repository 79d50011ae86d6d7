//! Interleaved timing: the cross-check of criterion's ratios on a noisy
//! machine.
//!
//! Criterion measures the contenders of a group one after another, several
//! seconds each, so any drift in the machine's speed (other tenants of a
//! virtual machine, clock changes) between those seconds lands in the
//! ratios: on the virtual machine BENCHMARKS.md describes, the same
//! untouched `raw` decoder took almost twice as long in one run as in the
//! next. Here each round times a short batch of every contender in turn,
//! so the three batches of a round see the same machine, and a ratio is
//! the median over the rounds of that round's ratio (with its quartiles,
//! to show the spread).
//!
//! ```text
//! cargo run --release -p sbe-bench --example interleaved [rounds] [group...]
//! ```
//!
//! With group names after the rounds, only those groups run. The owned
//! groups (`{car,md}_owned_{decode,encode}`) come in a second table whose
//! columns are this project's owned messages, its flyweight, and ergo-sbe's
//! domain objects.

use sbe_bench::data::{CAR, MD};
use sbe_bench::fold::fold4;
use sbe_bench::streams::{
    car_message, car_ring, drain, filled, md_message, md_stream, ring_cursor,
};
use sbe_bench::{ergo, owned, raw, this};
use std::hint::black_box;
use std::time::Instant;

/// Calls per batch: long enough to dwarf the clock reads, short enough
/// that a round (three batches) sees one state of the machine.
const BATCH: usize = 4_000;

/// Nanoseconds per call of `f` over one batch.
#[inline(never)]
fn batch<F: FnMut() -> u64>(f: &mut F) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for _ in 0..BATCH {
        acc = acc.wrapping_add(f());
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / BATCH as f64
}

/// The quartiles of `v` (sorted in place): 25%, median, 75%.
fn quartiles(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.25), at(0.5), at(0.75))
}

/// A contender of `frame_stream`: one drain of the whole stream (the
/// framer is filled outside the timing); nanoseconds per message.
fn drained<'s, E: std::fmt::Debug + 's>(
    stream: &'s [u8],
    len: fn(&[u8]) -> sbe_rt::Result<Option<usize>>,
    decode: fn(&[u8]) -> Result<u64, E>,
) -> impl FnMut() -> f64 + 's {
    move || {
        let mut framer = filled(stream);
        let start = Instant::now();
        let (acc, n) = drain(&mut framer, len, decode);
        let ns = start.elapsed().as_nanos() as f64 / n as f64;
        black_box(acc);
        ns
    }
}

/// Prints a table's header (and a blank line before it), unless the
/// command line names groups and none of `groups`.
fn header(groups: &[&str], columns: &str) {
    if groups.iter().any(|g| wanted(g)) {
        println!();
        println!("{columns}");
        println!("|---|---|---|---|---|---|");
    }
}

/// Whether the command line names no groups, or this one.
fn wanted(name: &str) -> bool {
    let only: Vec<String> = std::env::args().skip(2).collect();
    only.is_empty() || only.iter().any(|g| g == name)
}

/// Times three contenders round-robin and prints one table row, unless
/// the command line names groups and not this one.
fn group<A, B, C>(name: &str, rounds: usize, this: A, raw: B, ergo: C)
where
    A: FnMut() -> u64,
    B: FnMut() -> u64,
    C: FnMut() -> u64,
{
    if wanted(name) {
        rounds_of(name, rounds, batched(this), batched(raw), batched(ergo));
    }
}

/// A contender timed as [`BATCH`] calls of `f`.
fn batched(mut f: impl FnMut() -> u64) -> impl FnMut() -> f64 {
    move || batch(&mut f)
}

/// Runs the three timings round-robin (each gives nanoseconds per
/// operation) and prints one table row.
fn rounds_of(
    name: &str,
    rounds: usize,
    mut this: impl FnMut() -> f64,
    mut raw: impl FnMut() -> f64,
    mut ergo: impl FnMut() -> f64,
) {
    let (mut t, mut r, mut e) = (Vec::new(), Vec::new(), Vec::new());
    let (mut tr, mut te) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Rotate who goes first, so no contender always follows another.
        let (a, b, c) = match round % 3 {
            0 => (this(), raw(), ergo()),
            1 => {
                let b = raw();
                let c = ergo();
                (this(), b, c)
            }
            _ => {
                let c = ergo();
                let a = this();
                (a, raw(), c)
            }
        };
        t.push(a);
        r.push(b);
        e.push(c);
        tr.push(a / b);
        te.push(a / c);
    }
    let (tr25, tr50, tr75) = quartiles(&mut tr);
    let (te25, te50, te75) = quartiles(&mut te);
    println!(
        "| {name} | {:.1} ns | {:.1} ns | {:.1} ns | {tr50:.2} ({tr25:.2}–{tr75:.2}) | {te50:.2} ({te25:.2}–{te75:.2}) |",
        quartiles(&mut t).1,
        quartiles(&mut r).1,
        quartiles(&mut e).1,
    );
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_500);

    let (car, md) = (car_message(), md_message());
    let (car_msg, md_msg) = (&car[..], &md[..]);
    let (ring, offsets) = car_ring();
    let (car_v, md_v) = (CAR, MD);

    header(
        &[
            "car_decode",
            "car_encode",
            "md_decode",
            "md_encode",
            "ring_4u32",
            "frame_stream",
        ],
        "| group | this | raw | ergo_sbe | this/raw (quartiles) | this/ergo_sbe (quartiles) |",
    );
    group(
        "car_decode",
        rounds,
        || this::car_decode(black_box(car_msg)).expect("decode"),
        || raw::car_decode(black_box(car_msg)).expect("decode"),
        || ergo::car_decode(black_box(car_msg)).expect("decode"),
    );
    // Each encoder writes to a buffer of its own at the start of a page of
    // its own: with three arrays side by side on the stack, how each lay
    // against the input mod 4096 (which moves with the environment's size)
    // decided md_encode's ratio (1.06 against 1.69 from one variable more).
    let (mut p1, mut p2, mut p3) = (Page::new(), Page::new(), Page::new());
    let (o1, o2, o3) = (p1.out(), p2.out(), p3.out());
    group(
        "car_encode",
        rounds,
        || this::car_encode(black_box(&car_v), black_box(&mut *o1)).expect("encode") as u64,
        || raw::car_encode(black_box(&car_v), black_box(&mut *o2)).expect("encode") as u64,
        || ergo::car_encode(black_box(&car_v), black_box(&mut *o3)).expect("encode") as u64,
    );
    group(
        "md_decode",
        rounds,
        || this::md_decode(black_box(md_msg)).expect("decode"),
        || raw::md_decode(black_box(md_msg)).expect("decode"),
        || ergo::md_decode(black_box(md_msg)).expect("decode"),
    );
    group(
        "md_encode",
        rounds,
        || this::md_encode(black_box(&md_v), black_box(&mut *o2)).expect("encode") as u64,
        || raw::md_encode(black_box(&md_v), black_box(&mut *o1)).expect("encode") as u64,
        || ergo::md_encode(black_box(&md_v), black_box(&mut *o3)).expect("encode") as u64,
    );
    // Each contender walks the ring on its own cursor, as in the bench.
    let (mut c1, mut c2, mut c3) = (
        ring_cursor(&ring, &offsets),
        ring_cursor(&ring, &offsets),
        ring_cursor(&ring, &offsets),
    );
    group(
        "ring_4u32",
        rounds,
        || fold4(this::car_some_numbers(c1()).expect("read")),
        || fold4(raw::car_some_numbers(c2()).expect("read")),
        || fold4(ergo::car_some_numbers(c3()).expect("read")),
    );
    if wanted("frame_stream") {
        let stream = md_stream();
        rounds_of(
            "frame_stream",
            rounds.div_ceil(15),
            drained(&stream, this::md_len, this::md_decode),
            drained(&stream, raw::md_len, raw::md_decode),
            drained(&stream, ergo::md_len, ergo::md_decode),
        );
    }
    owned_groups(rounds, car_msg, md_msg);
    exact_groups(rounds);
}

/// The exact-length groups: the message's exact length from its counts
/// and var-data lengths, then the message written into exactly that many
/// bytes (a ring buffer's claim, then the write), against our plain
/// `wrap` and ergo-sbe's length builder then its encoder.
fn exact_groups(rounds: usize) {
    header(
        &["car_encode_exact", "md_encode_exact"],
        "| group | this (exact) | this (wrap) | ergo_sbe (exact) | exact/wrap (quartiles) | this/ergo_sbe (quartiles) |",
    );
    let (car_v, md_v) = (CAR, MD);
    let (mut p1, mut p2, mut p3) = (Page::new(), Page::new(), Page::new());
    let (o1, o2, o3) = (p1.out(), p2.out(), p3.out());
    group(
        "car_encode_exact",
        rounds,
        || this::car_encode_exact(black_box(&car_v), black_box(&mut *o1)).expect("encode") as u64,
        || this::car_encode(black_box(&car_v), black_box(&mut *o2)).expect("encode") as u64,
        || ergo::car_encode_exact(black_box(&car_v), black_box(&mut *o3)).expect("encode") as u64,
    );
    group(
        "md_encode_exact",
        rounds,
        || this::md_encode_exact(black_box(&md_v), black_box(&mut *o1)).expect("encode") as u64,
        || this::md_encode(black_box(&md_v), black_box(&mut *o2)).expect("encode") as u64,
        || ergo::md_encode_exact(black_box(&md_v), black_box(&mut *o3)).expect("encode") as u64,
    );
}

/// The owned groups: owned decode (bytes to owned value, its values
/// folded) and encode (owned value to bytes), ours against our flyweight
/// and ergo-sbe's domain objects.
fn owned_groups(rounds: usize, car_msg: &[u8], md_msg: &[u8]) {
    header(
        &[
            "car_owned_decode",
            "car_owned_encode",
            "md_owned_decode",
            "md_owned_encode",
        ],
        "| group | this (owned) | flyweight | ergo_sbe (DTO) | this/flyweight (quartiles) | this/ergo_sbe (quartiles) |",
    );
    let (car_v, md_v) = (CAR, MD);
    let (car_o, md_o) = (owned::car(), owned::md());
    let (car_dto, md_dto) = (owned::ergo_car(), owned::ergo_md());
    group(
        "car_owned_decode",
        rounds,
        || owned::car_decode(black_box(car_msg)).expect("decode"),
        || this::car_decode(black_box(car_msg)).expect("decode"),
        || owned::ergo_car_decode(black_box(car_msg)).expect("decode"),
    );
    let (mut p1, mut p2, mut p3) = (Page::new(), Page::new(), Page::new());
    let (o1, o2, o3) = (p1.out(), p2.out(), p3.out());
    group(
        "car_owned_encode",
        rounds,
        || owned::car_encode(black_box(&car_o), black_box(&mut *o1)).expect("encode") as u64,
        || this::car_encode(black_box(&car_v), black_box(&mut *o2)).expect("encode") as u64,
        || owned::ergo_car_encode(black_box(&car_dto), black_box(&mut *o3)).expect("encode") as u64,
    );
    group(
        "md_owned_decode",
        rounds,
        || owned::md_decode(black_box(md_msg)).expect("decode"),
        || this::md_decode(black_box(md_msg)).expect("decode"),
        || owned::ergo_md_decode(black_box(md_msg)).expect("decode"),
    );
    group(
        "md_owned_encode",
        rounds,
        || owned::md_encode(black_box(&md_o), black_box(&mut *o1)).expect("encode") as u64,
        || this::md_encode(black_box(&md_v), black_box(&mut *o2)).expect("encode") as u64,
        || owned::ergo_md_encode(black_box(&md_dto), black_box(&mut *o3)).expect("encode") as u64,
    );
}

/// A page-aligned page, whose first 256 bytes an encoder writes to.
#[repr(C, align(4096))]
struct Page([u8; 4096]);

impl Page {
    fn new() -> Self {
        Page([0; 4096])
    }

    fn out(&mut self) -> &mut [u8] {
        &mut self.0[..256]
    }
}
