//! Generates the decoders the targets fuzz: the repo's car and market
//! data always; with ../shared beside the checkout, the reference's
//! market-data sample, CME MDP3 and CME iLink 3 (read in place). And for
//! each, the drivers of its typed encoders and decoders (test-support's
//! `drive::gen`), which `typed_roundtrip` runs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let repo = manifest.join("..");
    let shared = repo.join("../shared/corpus");
    // sbe-build's own fixtures hold what the venue schemas lack: acting
    // versions (evolve), float and char null values (nulls), constant
    // dimensions (constdim), the verdicts on short blocks (verdicts).
    let fixtures = repo.join("sbe-build/tests/fixtures");
    let mut schemas: Vec<(&str, PathBuf)> = vec![
        ("car", repo.join("schemas/car.xml")),
        ("market_data", repo.join("schemas/market-data.xml")),
        ("fx_evolve", fixtures.join("evolve.xml")),
        ("fx_nulls", fixtures.join("nulls.xml")),
        ("fx_constdim", fixtures.join("constdim.xml")),
        ("fx_verdicts", fixtures.join("verdicts.xml")),
    ];
    for (name, rel) in [
        ("fix_samples", "sbe/benchmarks/fix-message-samples.xml"),
        ("mdp3", "sbe/tests/FixBinary.xml"),
        ("ilink3", "sbe/tests/ilinkbinary.xml"),
    ] {
        let path = shared.join(rel);
        if path.exists() {
            schemas.push((name, path));
        }
    }
    let mut modules = String::new();
    let mut table = String::new();
    let mut lazy = String::new();
    let mut drivers = String::new();
    let mut drivers_table = String::new();
    for (name, path) in &schemas {
        generate(&out, name, path);
        let schema =
            sbe_ir::ir::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        drivers.push_str(&test_support::drive::gen::drivers(
            &schema,
            &format!("crate::{name}"),
            &format!("{name}_drive"),
        ));
        let _ = writeln!(
            drivers_table,
            "    test_support::drive::Drivers {{ key: {name:?}, messages: {name}_drive::MESSAGES, encode: {name}_drive::encode, read: {name}_drive::read }},"
        );
        let _ = writeln!(
            modules,
            "#[allow(dead_code, clippy::all)]\npub mod {name} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{name}.rs\")); }}"
        );
        lazy.push_str(&lazy_arms(name, path));
        let _ = writeln!(
            table,
            "    Schema {{ name: {name:?}, xml: {:?}, decode: |b| {name}::decode(b).map(|m| (m.to_json(), format!(\"{{m:?}}\"))), message_length: {name}::message_length }},",
            path.display().to_string()
        );
    }
    let text = format!(
        "{modules}\n/// Every schema compiled in.\npub const SCHEMAS: &[Schema] = &[\n{table}];\n\n\
         /// Every message's own lazy `decode` (header and root block checked only), then its\n\
         /// `Debug`, JSON and `checked_length`: every field, group, nested group and\n\
         /// var data read through the typed API on bytes nobody checked whole.\n\
         pub fn read_lazily(bytes: &[u8]) {{\n{lazy}}}\n"
    );
    std::fs::write(out.join("schemas.rs"), text).expect("write schemas.rs");
    let drivers = format!(
        "{drivers}\n/// The typed-encoder drivers of every schema, in `SCHEMAS`' order.\npub const DRIVERS: &[test_support::drive::Drivers] = &[\n{drivers_table}];\n"
    );
    sbe_build::write_if_changed(&out.join("drivers.rs"), &drivers).expect("write drivers.rs");
    println!("cargo:rerun-if-changed={}", repo.join("schemas").display());
    println!("cargo:rerun-if-changed={}", fixtures.display());
    println!("cargo:rerun-if-changed={}", shared.display());
}

/// The statements of `read_lazily` for the messages of one schema.
fn lazy_arms(module: &str, path: &Path) -> String {
    let schema = sbe_ir::ir::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = String::new();
    for m in &schema.messages {
        let decoder = format!("{}Decoder", sbe_build::codegen::names::camel(&m.name));
        let _ = writeln!(
            out,
            "    if let Ok(d) = {module}::{decoder}::decode(bytes) {{ let _ = format!(\"{{d:?}}\"); let _ = sbe_rt::JsonWriter::new().object(&d).as_str().len(); let _ = d.checked_length(); }}"
        );
    }
    out
}

fn generate(out: &Path, name: &str, path: &Path) {
    let schema = sbe_ir::ir::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = sbe_build::generate(&schema, &sbe_build::Config::new())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    sbe_build::write_if_changed(&out.join(format!("{name}.rs")), &text)
        .expect("write generated code");
}
