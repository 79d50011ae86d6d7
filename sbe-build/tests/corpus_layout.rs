//! The IR's layout equals the reference's layout.json, field by field, for
//! every corpus schema that has one.

mod shared;

use serde_json::Value;

/// First difference between two JSON values, as a path.
fn diff(path: &str, want: &Value, got: &Value) -> Option<String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let wk: Vec<_> = w.keys().collect();
            let gk: Vec<_> = g.keys().collect();
            if wk != gk {
                return Some(format!("{path}: keys {wk:?} != {gk:?}"));
            }
            w.iter()
                .find_map(|(k, v)| diff(&format!("{path}.{k}"), v, &g[k]))
        }
        (Value::Array(w), Value::Array(g)) => {
            if w.len() != g.len() {
                return Some(format!("{path}: {} items != {}", w.len(), g.len()));
            }
            w.iter()
                .zip(g)
                .enumerate()
                .find_map(|(i, (a, b))| diff(&format!("{path}[{i}]"), a, b))
        }
        _ if want == got => None,
        _ => Some(format!("{path}: want {want}, got {got}")),
    }
}

#[test]
fn layout_matches_the_reference_for_every_corpus_schema() {
    let Some(shared) = shared::shared_dir("layout_matches_the_reference") else {
        return;
    };
    let mut failures = Vec::new();
    let layouts = shared::layouts(&shared);
    assert!(
        layouts.len() > 80,
        "expected the corpus layouts, found {}",
        layouts.len()
    );
    for (dir, schema_path, want) in &layouts {
        let label = want["schema"].as_str().unwrap_or("");
        match sbe_build::ir::load(schema_path) {
            Err(e) => failures.push(format!("{}: rejected: {e}", dir.display())),
            Ok(schema) => {
                let got = sbe_build::ir::layout_json(&schema, label);
                if let Some(d) = diff("$", want, &got) {
                    failures.push(format!("{label}: {d}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} layouts differ:\n{}",
        failures.len(),
        layouts.len(),
        failures.join("\n")
    );
}
