//! Bytes of generated code for one schema, ours and ergo-sbe's, side by
//! side (BENCHMARKS.md's generated-size table): the whole output, and the
//! code alone (without its `///` and `//!` doc lines, which carry the
//! schema's descriptions and are most of what a large schema generates).
//!
//! ```text
//! cargo run --release -p sbe-bench --example sizes -- ../shared/corpus/sbe/tests/FixBinary.xml
//! ```

/// `bytes, lines` of `text`, whole and without its doc-comment lines.
fn size(text: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !l.starts_with("///") && !l.starts_with("//!")
        })
        .collect();
    let code_bytes: usize = code.iter().map(|l| l.len() + 1).sum();
    format!(
        "{} bytes, {} lines ({} bytes, {} lines without docs)",
        text.len(),
        text.lines().count(),
        code_bytes,
        code.len()
    )
}

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
    match sbe_ir::ir::load(std::path::Path::new(&path))
        .map_err(|e| e.to_string())
        .and_then(|s| sbe_build::generate(&s, &sbe_build::Config::new()).map_err(|e| e.to_string()))
    {
        Ok(code) => println!("this: {}", size(&code)),
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
            let sources: Vec<&str> = set.modules().map(|m| m.source.as_str()).collect();
            let all = sources.join("\n");
            println!("ergo_sbe: {}", size(&all));
        }
        Err(e) => println!("ergo_sbe: {e}"),
    }
}
