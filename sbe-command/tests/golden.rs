//! Every golden vector of ../shared/vectors: decode gives the `.json`,
//! encode of the `.json` gives the `.bin`, and each `.as-vK.json` holds.

use std::collections::HashMap;
use std::path::PathBuf;

use sbe_ir::ir::Schema;
use sbe_otf::Codec;
use test_support::shared_dir;

fn load(cache: &mut HashMap<PathBuf, Schema>, path: PathBuf) -> &Schema {
    cache
        .entry(path.clone())
        .or_insert_with(|| sbe_ir::ir::load(&path).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn every_vector_decodes_and_encodes() {
    let Some(shared) = shared_dir("every_vector_decodes_and_encodes") else {
        return;
    };
    let corpus = shared.join("corpus");
    let mut schemas = HashMap::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for v in test_support::vectors(&shared) {
        let schema = load(&mut schemas, corpus.join(&v.schema));
        let codec = Codec::new(schema).expect("codec");
        // A cross-version vector: the same bytes read with another version
        // of the schema (its `.json`), where appended data may go unread.
        let shown = if v.cross_version {
            &v.json_path
        } else {
            &v.bin_path
        };
        match codec.decode_value(&v.bin, Some(&v.schema)) {
            Ok((got, d)) => {
                if let Some(diff) = test_support::diff(&v.json, &got, "$") {
                    failures.push(format!("decode {}: {diff}", shown.display()));
                }
                if !v.cross_version && d.len != v.bin.len() {
                    failures.push(format!(
                        "decode {}: length {} of {}",
                        shown.display(),
                        d.len,
                        v.bin.len()
                    ));
                }
            }
            Err(e) => failures.push(format!("decode {}: {e}", shown.display())),
        }
        if v.cross_version {
            continue;
        }
        count += 1;
        let bin = &v.bin_path;
        let mut out = Vec::new();
        match codec.encode_value(&v.json, &mut out) {
            Ok(_) if out == v.bin => {}
            Ok(_) => failures.push(format!("encode {}: bytes differ", bin.display())),
            Err(e) => failures.push(format!("encode {}: {e}", bin.display())),
        }
    }
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    eprintln!("{count} vectors checked");
    assert!(count > 1000, "only {count} vectors");
    assert!(
        failures.is_empty(),
        "{} failures of {count} vectors",
        failures.len()
    );
}

/// Cut and corrupted vectors give values or an error, never a panic, and
/// a decoded message never claims more bytes than it was given.
#[test]
fn corrupt_vectors_never_panic() {
    let Some(shared) = shared_dir("corrupt_vectors_never_panic") else {
        return;
    };
    let corpus = shared.join("corpus");
    let mut schemas = HashMap::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut ok, mut err) = (0u32, 0u32);
    let vectors = test_support::vectors(&shared);
    for v in vectors.iter().filter(|v| !v.cross_version).step_by(3) {
        let bytes = &v.bin;
        let schema = load(&mut schemas, corpus.join(&v.schema));
        let codec = Codec::new(schema).expect("codec");
        let mut out = Vec::new();
        let mut check = |b: &[u8]| {
            out.clear();
            match codec.decode_json(b, 0, None, &mut out) {
                Ok(d) => {
                    assert!(d.len <= b.len());
                    assert!(serde_json::from_slice::<serde_json::Value>(&out).is_ok());
                    ok += 1;
                }
                Err(_) => {
                    assert!(out.is_empty(), "nothing written on error");
                    err += 1;
                }
            }
        };
        for cut in 0..bytes.len().min(48) {
            check(&bytes[..cut]);
        }
        for _ in 0..24 {
            let mut b = bytes.clone();
            for _ in 0..1 + rnd() % 3 {
                if b.is_empty() {
                    break;
                }
                let i = (rnd() % b.len() as u64) as usize;
                b[i] = rnd() as u8;
            }
            check(&b);
        }
    }
    eprintln!("{ok} decoded, {err} rejected");
    assert!(ok > 0 && err > 0);
}
