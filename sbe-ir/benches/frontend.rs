//! Parse and lay out the largest corpus schema (CME iLink 3, 286 KB), read
//! in place from ../shared/corpus; skipped with a notice when it is missing.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;

fn frontend(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/sbe/tests/ilinkbinary.xml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("frontend bench: skipped: {} not found", path.display());
        return;
    };
    c.bench_function("frontend/ilinkbinary_parse_and_layout", |b| {
        b.iter(|| {
            let schema =
                sbe_ir::ir::load_str(&path, std::hint::black_box(&text)).expect("valid schema");
            std::hint::black_box(schema.messages.len())
        })
    });
}

criterion_group!(benches, frontend);
criterion_main!(benches);
