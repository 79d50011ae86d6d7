//! The meaning facts of every corpus schema, pinned: which fields and var
//! data are decimals (and their exponent), timestamps (and their unit),
//! dates, MonthYears and text. The lines come from `sbe layout
//! --meanings`'s report, so the report is what is pinned; a change in the
//! classification shows as a diff of `fixtures/meanings.txt`
//! (`SBE_BLESS=1` rewrites it).

use std::path::Path;

use sbe_ir::report::{layout_json_with, LayoutOptions};
use serde_json::Value;
use test_support::{files_under, shared_dir};

#[test]
fn every_corpus_schema_classifies_as_pinned() {
    let Some(shared) = shared_dir("every_corpus_schema_classifies_as_pinned") else {
        return;
    };
    let corpus = shared.join("corpus");
    let mut got = String::new();
    let mut schemas = 0;
    for path in files_under(&corpus, "xml") {
        let Ok(schema) = sbe_ir::ir::load(&path) else {
            continue;
        };
        schemas += 1;
        let label = path
            .strip_prefix(&corpus)
            .unwrap_or(&path)
            .display()
            .to_string();
        let options = LayoutOptions::default().meanings(true);
        let layout: Value =
            serde_json::from_str(&layout_json_with(&schema, &label, options)).expect("JSON");
        got.push_str(&format!("# {label}\n"));
        for message in layout["messages"].as_array().into_iter().flatten() {
            lines(message, &as_str(&message["name"]), &mut got);
        }
    }
    assert!(
        schemas > 60,
        "expected the corpus schemas, loaded {schemas}"
    );
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/meanings.txt");
    if std::env::var_os("SBE_BLESS").is_some() {
        std::fs::write(&fixture, &got).expect("write the fixture");
        return;
    }
    let want = std::fs::read_to_string(&fixture).expect("fixtures/meanings.txt");
    if want != got {
        let first = want
            .lines()
            .zip(got.lines())
            .find(|(w, g)| w != g)
            .map(|(w, g)| format!("pinned: {w}\n   now: {g}"))
            .unwrap_or_else(|| "one is a prefix of the other".into());
        panic!("meanings differ from fixtures/meanings.txt (SBE_BLESS=1 to accept):\n{first}");
    }
}

/// One line per field or var data that is not plain, named by its path.
fn lines(block: &Value, path: &str, out: &mut String) {
    for key in ["fields", "data"] {
        for item in block[key].as_array().into_iter().flatten() {
            let meaning = &item["meaning"];
            if meaning["kind"] != "plain" {
                out.push_str(&format!("{path}.{} {meaning}\n", as_str(&item["name"])));
            }
        }
    }
    for group in block["groups"].as_array().into_iter().flatten() {
        lines(group, &format!("{path}.{}", as_str(&group["name"])), out);
    }
}

fn as_str(v: &Value) -> String {
    v.as_str().unwrap_or("?").to_string()
}
