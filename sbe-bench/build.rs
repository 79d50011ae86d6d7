//! Generates this project's codecs (`sbe_build`, into `$OUT_DIR/baseline.rs`
//! and `$OUT_DIR/market_data.rs`) and the peer's (ergo-sbe, into
//! `$OUT_DIR/ergo_*/`, with its domain objects) from the same `schemas/`
//! files.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let schemas = manifest.join("../schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    sbe_build::Config::new()
        .compile(&[schemas.join("car.xml"), schemas.join("market-data.xml")])
        .unwrap_or_else(|e| panic!("{e}"));
    ergo(&schemas.join("car.xml"), "ergo_car", &out);
    ergo(&schemas.join("market-data.xml"), "ergo_md", &out);
    for f in ["car.xml", "common.xml", "market-data.xml"] {
        println!("cargo:rerun-if-changed={}", schemas.join(f).display());
    }
    println!("cargo:rerun-if-changed=build.rs");
}

fn ergo(schema: &Path, module: &str, out: &Path) {
    let ir = ergo_sbe::parse_file(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let schema = ergo_sbe::Schema::from_ir(ir);
    // Domain objects (`CarDomain`, ...) with `String` var data, the shape
    // of this project's owned messages; they are items beside the
    // flyweights (the flyweight code is the same with or without them).
    let config = ergo_sbe::GenerationConfig::new(module)
        .with_domain_objects(ergo_sbe::DomainVarData::Strings);
    let set = ergo_sbe::Generator::new(config)
        .generate(&schema)
        .unwrap_or_else(|e| panic!("{module}: {e}"));
    let dir = out.join(module);
    std::fs::create_dir_all(&dir).unwrap();
    for m in set.modules() {
        std::fs::write(dir.join(&m.path), &m.source).unwrap();
    }
}
