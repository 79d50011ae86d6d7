//! Bytes of generated code for one schema, ours and ergo-sbe's, side by
//! side (BENCHMARKS.md's generated-size table, with its targets):
//!
//! ```text
//! cargo run --release -p sbe-bench --example sizes -- ../shared/corpus/sbe/tests/FixBinary.xml
//! ```

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sizes SCHEMA.xml");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match sbe_build::ir::load(std::path::Path::new(&path))
        .map_err(|e| e.to_string())
        .and_then(|s| sbe_build::generate(&s, &sbe_build::Config::new()).map_err(|e| e.to_string()))
    {
        Ok(code) => println!("this: {} bytes, {} lines", code.len(), code.lines().count()),
        Err(e) => println!("this: {e}"),
    }
    let ergo = ergo_sbe::parse(&text)
        .map_err(|e| format!("{e:?}"))
        .and_then(|ir| {
            ergo_sbe::Generator::new(ergo_sbe::GenerationConfig::new("s"))
                .generate(&ergo_sbe::Schema::from_ir(ir))
                .map_err(|e| format!("{e:?}"))
        });
    match ergo {
        Ok(set) => {
            let (bytes, lines) = set.modules().fold((0, 0), |(b, l), m| {
                (b + m.source.len(), l + m.source.lines().count())
            });
            println!("ergo_sbe: {bytes} bytes, {lines} lines");
        }
        Err(e) => println!("ergo_sbe: {e}"),
    }
}
