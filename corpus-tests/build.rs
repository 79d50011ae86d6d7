//! Generates code for the repo's own schemas and, when `../shared` is
//! beside the checkout, for every corpus schema REPORT.tsv marks `ok`.
//! Each schema gets its own folder (packages repeat across the corpus) and
//! its own module in `$OUT_DIR/corpus.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The rows of the tables of `corpus.rs`, one per schema that has what
/// the table calls.
#[derive(Default)]
struct Tables {
    /// `SCHEMAS`: `decode` with `to_json`, and `message_length`.
    schemas: String,
    /// `OWNED`: `OwnedMessage` read and written again.
    owned: String,
    /// `SERDE`: owned messages through serde.
    serde: String,
}

/// The variants of the generated `OwnedMessage` in `text`: (variant, type).
fn owned_variants(text: &str) -> Vec<(String, String)> {
    text.lines()
        .skip_while(|l| *l != "pub enum OwnedMessage {")
        .skip(1)
        .take_while(|l| *l != "}")
        .filter_map(|l| {
            let l = l.trim().strip_suffix("),")?;
            let (variant, ty) = l.split_once('(')?;
            (!variant.starts_with('_')).then(|| (variant.to_string(), ty.to_string()))
        })
        .collect()
}

/// The row of `SERDE` for a schema's module `name`: a message decoded,
/// its `to_json`, and its owned value through serde (`serde_run`).
fn serde_row(key: &str, name: &str, variants: &[(String, String)]) -> String {
    let arms: String = variants
        .iter()
        .map(|(v, ty)| format!("{name}::OwnedMessage::{v}(x) => crate::serde_run(x, &json, {name}::{ty}::encode), "))
        .collect();
    format!(
        "    ({key:?}, |b| {{ let m = {name}::decode(b).map_err(|e| e.to_string())?; let json = m.to_json(); let o = m.to_owned().map_err(|e| e.to_string())?; let run = match &o {{ {arms} }}; Ok(crate::with_message(run, {name}::OwnedMessage::encode)) }}),\n"
    )
}

/// A module name for a corpus path: the same mapping as a package's file
/// name (`sbe/tests/issue910.xml` → `s_sbe_tests_issue910`).
fn module_name(rel: &str) -> String {
    format!(
        "s_{}",
        sbe_build::file_stem(rel.strip_suffix(".xml").unwrap_or(rel))
    )
}

fn add(out: &Path, key: &str, xml: &Path, modules: &mut String, tables: &mut Tables) {
    add_with(
        out,
        key,
        xml,
        modules,
        tables,
        sbe_build::Config::new().serde(true),
    );
}

/// The row of `OWNED` for a schema's module `name`: its `OwnedMessage`
/// read from a message and written again, then written into a buffer one
/// byte shorter than its `encoded_length`.
fn owned_row(key: &str, name: &str) -> String {
    format!(
        "    ({key:?}, |b| {{ let o = {name}::OwnedMessage::decode(b)?; let len = o.encoded_length(); let mut out = vec![0u8; len]; let n = o.encode(&mut out)?; out.truncate(n); let mut short = vec![0xA5u8; len.saturating_sub(1)]; let refused = o.encode(&mut short).err().map(::sbe_rt::Error::from); Ok((out, len, refused)) }}),\n"
    )
}

fn add_with(
    out: &Path,
    key: &str,
    xml: &Path,
    modules: &mut String,
    tables: &mut Tables,
    config: &sbe_build::Config,
) {
    let name = module_name(key);
    let dir = out.join(&name);
    let schema = config
        .load(xml)
        .unwrap_or_else(|e| panic!("{}: {e}", xml.display()));
    let text = sbe_build::generate(&schema, config).unwrap_or_else(|e| panic!("{key}: {e}"));
    let file = dir.join(config.file_name_for(&schema));
    sbe_build::write_if_changed(&file, &text).expect("write generated file");
    for f in &schema.files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let _ = writeln!(
        modules,
        "/// Generated from `{key}`.\npub mod {name} {{\n    include!({:?});\n}}",
        file.display().to_string()
    );
    if text.contains("pub enum OwnedMessage") {
        tables.owned.push_str(&owned_row(key, &name));
        let variants = owned_variants(&text);
        if !variants.is_empty() && text.contains("fn to_json") {
            tables.serde.push_str(&serde_row(key, &name, &variants));
        }
    }
    if text.contains("fn to_json") {
        let _ = writeln!(
            tables.schemas,
            "    ({key:?}, |b| {name}::decode(b).and_then(|m| Ok((m.to_json(), m.checked_length()?))), {name}::message_length),"
        );
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let mut modules = String::new();
    let mut tables = Tables::default();
    let repo = manifest.join("..");
    for own in ["schemas/car.xml", "schemas/market-data.xml"] {
        add(
            &out,
            &format!("repo/{own}"),
            &repo.join(own),
            &mut modules,
            &mut tables,
        );
    }
    let fixtures = repo.join("sbe-build/tests/fixtures");
    println!("cargo:rerun-if-changed={}", fixtures.display());
    if let Ok(rd) = std::fs::read_dir(&fixtures) {
        let mut xmls: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "xml"))
            .collect();
        xmls.sort();
        for x in xmls {
            let key = format!(
                "fixture/{}",
                x.file_name().unwrap_or_default().to_string_lossy()
            );
            add(&out, &key, &x, &mut modules, &mut tables);
        }
    }
    // Without to_json and Debug (no alloc needed), still warning-free.
    add_with(
        &out,
        "minimal/tiny.xml",
        &fixtures.join("tiny.xml"),
        &mut modules,
        &mut tables,
        sbe_build::Config::new()
            .json(false)
            .debug(false)
            .owned(false),
    );
    // A type's meaning declared by the build script (Binance's bare
    // int64 `utcTimestampUs`, a timestamp in microseconds).
    add_with(
        &out,
        "declared/meanings.xml",
        &fixtures.join("meanings.xml"),
        &mut modules,
        &mut tables,
        sbe_build::Config::new().serde(true).meaning(
            "utcTimestampUs",
            sbe_build::Meaning::timestamp(sbe_build::TimeUnit::Micros),
        ),
    );
    let shared = repo.join("../shared");
    let report = shared.join("vectors/REPORT.tsv");
    println!("cargo:rerun-if-changed={}", report.display());
    let available = report.is_file() && shared.join("corpus").is_dir();
    println!("cargo::rustc-check-cfg=cfg(sbe_shared)");
    if !available {
        // Shown by a plain `cargo test`, where the tests' own notices are captured.
        println!(
            "cargo:warning=corpus tests skipped: {} (corpus and vectors) not found beside the checkout",
            shared.display()
        );
    } else {
        println!("cargo:rustc-cfg=sbe_shared");
        let text = std::fs::read_to_string(&report).expect("read REPORT.tsv");
        for line in text.lines().skip(1) {
            let mut cols = line.split('\t');
            let (Some(path), Some(status)) = (cols.next(), cols.next()) else {
                continue;
            };
            if status == "ok" {
                add(
                    &out,
                    path,
                    &shared.join("corpus").join(path),
                    &mut modules,
                    &mut tables,
                );
            }
        }
    }
    let text = format!(
        "{modules}\n/// Whether `../shared` (corpus and vectors) was found at build time.\npub const SHARED_AVAILABLE: bool = {available};\n\n/// Decodes a message with the schema at a corpus path (or `repo/...`, `fixture/...`), giving its JSON and length.\npub type DecodeFn = fn(&[u8]) -> Result<(String, usize), sbe_rt::Error>;\n\n/// A schema's generated `message_length`.\npub type LengthFn = fn(&[u8]) -> Result<usize, sbe_rt::Error>;\n\n/// Every compiled schema by path.\npub const SCHEMAS: &[(&str, DecodeFn, LengthFn)] = &[\n{}];\n\n/// A schema's `OwnedMessage::decode` then `encode`: the bytes written, `encoded_length`, and the error of `encode` into a buffer one byte shorter.\npub type OwnedFn = fn(&[u8]) -> Result<(Vec<u8>, usize, Option<sbe_rt::Error>), sbe_rt::Error>;\n\n/// Every compiled schema with owned messages, by path.\npub const OWNED: &[(&str, OwnedFn)] = &[\n{}];\n\n/// A schema's message through serde (`serde_run`).\npub type SerdeFn = fn(&[u8]) -> Result<SerdeRun, String>;\n\n/// Every compiled schema with owned messages and `to_json`, by path.\npub const SERDE: &[(&str, SerdeFn)] = &[\n{}];\n",
        tables.schemas, tables.owned, tables.serde
    );
    sbe_build::write_if_changed(&out.join("corpus.rs"), &text).expect("write corpus.rs");
    drivers(&out, &repo, available.then_some(&shared));
}

/// Writes `$OUT_DIR/drivers.rs`: drivers of the typed encoders and
/// decoders (test-support's `drive::gen`) for car and market data and,
/// with ../shared, the reference's market-data sample, CME MDP3 and CME
/// iLink 3, each a module named as its generated code's, with `_drive`.
fn drivers(out: &Path, repo: &Path, shared: Option<&PathBuf>) {
    let mut schemas: Vec<(String, PathBuf)> = ["schemas/car.xml", "schemas/market-data.xml"]
        .iter()
        .map(|own| (format!("repo/{own}"), repo.join(own)))
        .collect();
    if let Some(shared) = shared {
        for rel in [
            "sbe/benchmarks/fix-message-samples.xml",
            "sbe/tests/FixBinary.xml",
            "sbe/tests/ilinkbinary.xml",
        ] {
            schemas.push((rel.to_string(), shared.join("corpus").join(rel)));
        }
    }
    let mut text = String::new();
    let mut table = String::new();
    for (key, xml) in &schemas {
        let schema = sbe_ir::ir::load(xml).unwrap_or_else(|e| panic!("{}: {e}", xml.display()));
        let name = module_name(key);
        let module = format!("{name}_drive");
        text.push_str(&test_support::drive::gen::drivers(
            &schema,
            &format!("corpus_tests::{name}"),
            &module,
        ));
        let _ = writeln!(
            table,
            "    Drivers {{ key: {key:?}, messages: {module}::MESSAGES, encode: {module}::encode, read: {module}::read }},"
        );
    }
    let _ = write!(
        text,
        "\n/// Every schema with drivers.\npub const DRIVERS: &[Drivers] = &[\n{table}];\n"
    );
    sbe_build::write_if_changed(&out.join("drivers.rs"), &text).expect("write drivers.rs");
}
