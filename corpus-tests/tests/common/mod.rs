//! Locating ../shared and comparing JSON under FORMAT.md's rules.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared` beside the checkout, or `None` after a skip notice; with
/// `CI=true` a missing ../shared fails instead.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if dir.join("corpus").is_dir() && dir.join("vectors").is_dir() && corpus_tests::SHARED_AVAILABLE
    {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: ../shared (corpus and vectors) is missing, and CI=true");
    }
    eprintln!("{test}: skipped: ../shared (corpus and vectors) not found beside the checkout");
    None
}

/// One golden vector: its JSON file, the bytes, the parsed JSON.
pub struct Vector {
    pub json_path: PathBuf,
    pub bin: Vec<u8>,
    pub json: serde_json::Value,
    pub schema: String,
    /// An `.as-vK.json` (decoded with another schema version).
    pub cross_version: bool,
}

/// Every `vectors/*/*.json` except layout.json.
pub fn vectors(shared: &Path) -> Vec<Vector> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shared.join("vectors"))
        .expect("read vectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("read vector dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && p.file_name().is_some_and(|n| n != "layout.json")
            })
            .collect();
        files.sort();
        for json_path in files {
            let name = json_path.file_name().unwrap().to_string_lossy().to_string();
            let stem = name.strip_suffix(".json").unwrap();
            let (bin_stem, cross) = match stem.find(".as-v") {
                Some(i) => (&stem[..i], true),
                None => (stem, false),
            };
            let bin = std::fs::read(dir.join(format!("{bin_stem}.bin"))).expect("read .bin");
            let text = std::fs::read_to_string(&json_path).expect("read .json");
            let json: serde_json::Value = serde_json::from_str(&text).expect("parse .json");
            let schema = json["schema"].as_str().expect("schema key").to_string();
            out.push(Vector {
                json_path,
                bin,
                json,
                schema,
                cross_version: cross,
            });
        }
    }
    out
}

/// Compares two JSON values under FORMAT.md's rules: integers exactly,
/// floats as numbers (equal as f64, or as f32 for float fields).
/// Returns the path of the first difference.
pub fn diff(
    expected: &serde_json::Value,
    actual: &serde_json::Value,
    path: &str,
) -> Option<String> {
    use serde_json::Value as V;
    match (expected, actual) {
        (V::Object(a), V::Object(b)) => {
            let ka: Vec<&String> = a.keys().collect();
            let kb: Vec<&String> = b.keys().collect();
            if ka != kb {
                return Some(format!("{path}: keys {ka:?} != {kb:?}"));
            }
            a.iter()
                .find_map(|(k, v)| diff(v, &b[k], &format!("{path}.{k}")))
        }
        (V::Array(a), V::Array(b)) => {
            if a.len() != b.len() {
                return Some(format!("{path}: {} entries != {}", a.len(), b.len()));
            }
            a.iter()
                .zip(b)
                .enumerate()
                .find_map(|(i, (x, y))| diff(x, y, &format!("{path}[{i}]")))
        }
        (V::Number(a), V::Number(b)) => {
            let (sa, sb) = (a.to_string(), b.to_string());
            if sa == sb {
                return None;
            }
            if let (Ok(x), Ok(y)) = (sa.parse::<i128>(), sb.parse::<i128>()) {
                return (x != y).then(|| format!("{path}: {sa} != {sb}"));
            }
            match (sa.parse::<f64>(), sb.parse::<f64>()) {
                (Ok(x), Ok(y)) if x == y || (x as f32) == (y as f32) => None,
                _ => Some(format!("{path}: {sa} != {sb}")),
            }
        }
        _ if expected == actual => None,
        _ => Some(format!("{path}: {expected} != {actual}")),
    }
}
