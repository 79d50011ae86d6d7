//! The IR's layout equals the reference's layout.json, field by field, for
//! every corpus schema that has one.

use serde_json::Value;
use test_support::{diff_exact, shared_dir};

#[test]
fn layout_matches_the_reference_for_every_corpus_schema() {
    let Some(shared) = shared_dir("layout_matches_the_reference") else {
        return;
    };
    let mut failures = Vec::new();
    let layouts = test_support::layouts(&shared);
    assert!(
        layouts.len() > 80,
        "expected the corpus layouts, found {}",
        layouts.len()
    );
    for (dir, schema_path, want) in &layouts {
        let label = want["schema"].as_str().unwrap_or("");
        match sbe_ir::ir::load(schema_path) {
            Err(e) => failures.push(format!("{}: rejected: {e}", dir.display())),
            Ok(schema) => {
                let text = sbe_ir::report::layout_json(&schema, label);
                let got: Value = serde_json::from_str(&text).expect("layout_json is JSON");
                if let Some(d) = diff_exact(want, &got, "$") {
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
    let Some(shared) = shared_dir("example_schemas_match_the_corpus_layouts") else {
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
        let schema = sbe_ir::ir::load(repo.join(ours)).unwrap_or_else(|e| panic!("{ours}: {e}"));
        let got: Value = serde_json::from_str(&sbe_ir::report::layout_json(&schema, ""))
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
        assert_eq!(diff_exact(&pick(&want), &pick(&got), "$"), None, "{ours}");
        assert_eq!(
            diff_exact(&want["header"], &got["header"], "$"),
            None,
            "{ours}"
        );
        assert_eq!(got["id"], want["id"], "{ours}");
    }
}
