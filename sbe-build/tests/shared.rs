//! Locating ../shared (corpus and golden vectors, third-party data read in
//! place). Without it a test skips with a notice; with CI=true it fails.

#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside the checkout, or `None` (after the skip notice).
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if dir.join("corpus").is_dir() && dir.join("vectors").is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: ../shared (corpus and vectors) is missing, and CI=true");
    }
    eprintln!("{test}: skipped: ../shared (corpus and vectors) not found beside the checkout");
    None
}

/// Every `vectors/*/layout.json` with its schema path in the corpus.
pub fn layouts(shared: &std::path::Path) -> Vec<(PathBuf, PathBuf, serde_json::Value)> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(shared.join("vectors"))
        .expect("read vectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("layout.json").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let text = std::fs::read_to_string(dir.join("layout.json")).expect("read layout.json");
        let layout: serde_json::Value = serde_json::from_str(&text).expect("parse layout.json");
        let schema = layout["schema"].as_str().expect("schema path").to_string();
        out.push((dir, shared.join("corpus").join(schema), layout));
    }
    out
}

/// REPORT.tsv rows: (schema path in corpus, status).
pub fn report(shared: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(shared.join("vectors/REPORT.tsv")).expect("REPORT.tsv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            Some((cols.next()?.to_string(), cols.next()?.to_string()))
        })
        .collect()
}
