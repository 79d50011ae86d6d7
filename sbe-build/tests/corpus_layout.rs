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
                let text = sbe_build::ir::layout_json(&schema, label);
                let got: Value = serde_json::from_str(&text).expect("layout_json is JSON");
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

/// The example schemas in `schemas/` describe the same messages, with the
/// same layout, as the corpus car sample and the market-data benchmark.
#[test]
fn example_schemas_match_the_corpus_layouts() {
    let Some(shared) = shared::shared_dir("example_schemas_match_the_corpus_layouts") else {
        return;
    };
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pairs = [
        ("schemas/car.xml", "sbe__samples__example-schema", "Car"),
        (
            "schemas/market-data.xml",
            "sbe__benchmarks__fix-message-samples",
            "MarketDataIncrementalRefreshTrades",
        ),
    ];
    for (ours, vectors, message) in pairs {
        let schema = sbe_build::ir::load(repo.join(ours)).unwrap_or_else(|e| panic!("{ours}: {e}"));
        let got: Value = serde_json::from_str(&sbe_build::ir::layout_json(&schema, ""))
            .expect("layout_json is JSON");
        let text =
            std::fs::read_to_string(shared.join("vectors").join(vectors).join("layout.json"))
                .expect("layout.json");
        let want: Value = serde_json::from_str(&text).expect("layout.json parses");
        let pick = |v: &Value| {
            v["messages"]
                .as_array()
                .and_then(|ms| ms.iter().find(|m| m["name"] == message).cloned())
                .unwrap_or(Value::Null)
        };
        assert_eq!(diff("$", &pick(&want), &pick(&got)), None, "{ours}");
        assert_eq!(diff("$", &want["header"], &got["header"]), None, "{ours}");
        assert_eq!(got["id"], want["id"], "{ours}");
    }
}
