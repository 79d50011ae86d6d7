//! Measurements behind the run-time codec's plan (issue 22 step 3, see
//! BENCHMARKS.md): float writers (sbe_rt::JavaDouble, core's `{:e}`, ryu)
//! and JSON readers (serde_json, sonic-rs, the plan's `encode_text`).
//! A crate of its own, outside the workspace, so that the workspace does
//! not build sonic-rs:
//!
//! ```sh
//! cd sbe-bench/scripts/plan-bench
//! cargo run --release -- MD.jsonl   # lines of `sbe decode` of market-data.xml
//! ```
use std::io::Write;
use std::time::Instant;

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn floats() {
    let mut s = 0x9e3779b97f4a7c15u64;
    let vals: Vec<f64> = (0..1_000_000)
        .map(|i| {
            let r = xorshift(&mut s);
            if i % 2 == 0 { f64::from_bits(r >> 2 | 0x3000_0000_0000_0000) } else { (r % 10_000_000) as f64 / 1000.0 }
        })
        .filter(|v| v.is_finite())
        .collect();
    let mut out = Vec::with_capacity(64 << 20);
    for round in 0..3 {
        out.clear();
        let t = Instant::now();
        for &v in &vals {
            let _ = write!(out, "{}", sbe_rt::JavaDouble(v));
            out.push(b',');
        }
        let java = t.elapsed();
        let java_len = out.len();
        out.clear();
        let t = Instant::now();
        let mut b = ryu::Buffer::new();
        for &v in &vals {
            out.extend_from_slice(b.format_finite(v).as_bytes());
            out.push(b',');
        }
        let ryu_t = t.elapsed();
        out.clear();
        let t = Instant::now();
        for &v in &vals {
            let _ = write!(out, "{:e}", v);
            out.push(b',');
        }
        let fmt_e = t.elapsed();
        // Same shortest digits? ryu vs core's {:e}
        let mut differ = 0;
        for &v in vals.iter().take(200_000) {
            let r: f64 = ryu::Buffer::new().format_finite(v).parse().unwrap();
            let e = format!("{:e}", v);
            let digits_e: String = e.split('e').next().unwrap().chars().filter(|c| c.is_ascii_digit()).collect();
            let rs = ryu::Buffer::new().format_finite(v).to_string();
            let mant = rs.split('e').next().unwrap();
            let digits_r: String = mant.chars().filter(|c| c.is_ascii_digit()).collect::<String>();
            let dr = digits_r.trim_start_matches('0').trim_end_matches('0');
            let de = digits_e.trim_end_matches('0');
            if dr != de || r != v { differ += 1; }
        }
        println!("floats round {round}: {} values, JavaDouble {:?} ({} bytes), core {{:e}} {:?}, ryu {:?}; shortest digits differ ryu vs core: {differ} of 200000",
            vals.len(), java, java_len, fmt_e, ryu_t);
    }
}

fn readers(path: &str, schema: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().take(100_000).collect();
    let ir = sbe_ir::ir::load(schema).unwrap();
    let codec = sbe_otf::Codec::new(&ir).unwrap();
    let mut out = Vec::with_capacity(16 << 20);
    for round in 0..3 {
        out.clear();
        let t = Instant::now();
        for l in &lines {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            codec.encode_value(&v, &mut out).unwrap();
        }
        let value_path = t.elapsed();
        let t = Instant::now();
        for l in &lines {
            let _: serde::de::IgnoredAny = serde_json::from_str(l).unwrap();
        }
        let ignored = t.elapsed();
        let t = Instant::now();
        for l in &lines {
            let v: sonic_rs::Value = sonic_rs::from_str(l).unwrap();
            std::hint::black_box(&v);
        }
        let sonic = t.elapsed();
        let t = Instant::now();
        for l in &lines {
            let _: serde::de::IgnoredAny = sonic_rs::from_str(l).unwrap();
        }
        let sonic_ign = t.elapsed();
        out.clear();
        let t = Instant::now();
        for l in &lines {
            codec.encode_text(l, &mut out).unwrap();
        }
        let plan = t.elapsed();
        println!("readers round {round}, {} lines: serde_json Value + encode_value {:?}; parse only: serde_json IgnoredAny {:?}, sonic-rs Value {:?}, sonic-rs IgnoredAny {:?}; plan encode_text (parse + encode) {:?}",
            lines.len(), value_path, ignored, sonic, sonic_ign, plan);
    }
}

fn main() {
    floats();
    let jsonl = std::env::args().nth(1).unwrap_or_else(|| "md.jsonl".to_string());
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../sbe-command/benches/market-data.xml");
    readers(&jsonl, schema);
}
