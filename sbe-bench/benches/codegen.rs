//! `codegen`: parse, lay out, generate and format the largest corpus schema,
//! CME iLink 3 (`sbe/tests/ilinkbinary.xml`, 286 KB), read in place from
//! ../shared/corpus; skipped with a notice when it is missing. The schema
//! text is read once; each iteration starts from the text.
//!
//! `this` is `sbe_ir::ir::load_str` then `sbe_build::generate` (the text
//! `build.rs` writes, parsed with syn and printed with prettyplease, in
//! chunks on `available_parallelism` threads); `ergo_sbe` is
//! ergo-sbe's `parse` → `Schema::from_ir` → `Generator::generate` (also
//! formatted).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::Path;

const ILINK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/corpus/sbe/tests/ilinkbinary.xml"
);

fn codegen(c: &mut Criterion) {
    let path = Path::new(ILINK);
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!(
            "codegen bench: skipped: {} not found (../shared is not beside this checkout)",
            path.display()
        );
        return;
    };
    let config = sbe_build::Config::new();
    let mut g = c.benchmark_group("codegen");
    g.sample_size(10);
    g.bench_function("this", |b| {
        b.iter(|| {
            let schema = sbe_ir::ir::load_str(path, black_box(&text)).expect("schema");
            sbe_build::generate(&schema, &config)
                .expect("generate")
                .len()
        })
    });
    let ergo_ok = ergo_sbe::parse(&text).is_ok();
    if ergo_ok {
        g.bench_function("ergo_sbe", |b| {
            b.iter(|| {
                let ir = ergo_sbe::parse(black_box(&text)).expect("schema");
                let schema = ergo_sbe::Schema::from_ir(ir);
                let set = ergo_sbe::Generator::new(ergo_sbe::GenerationConfig::new("ilink"))
                    .generate(&schema)
                    .expect("generate");
                set.modules().map(|m| m.source.len()).sum::<usize>()
            })
        });
    } else {
        eprintln!("codegen bench: ergo_sbe skipped: it does not parse {ILINK}");
    }
    g.finish();
}

criterion_group!(benches, codegen);
criterion_main!(benches);
