//! Helpers the workspace's test suites share (a dev-dependency only).
//!
//! - [`shared_dir`] finds `../shared` (the third-party corpus and golden
//!   vectors, read in place): without it a test prints a skip notice and
//!   returns, unless `CI=true`, where it fails ([`shared_dir_built`] also
//!   wants the build script to have seen it).
//! - [`report`], [`layouts`] and [`vectors`] read `vectors/REPORT.tsv`, the
//!   `layout.json` files and the golden vectors.
//! - [`diff`] compares decoded JSON with a golden `.json` under the value
//!   mapping of `vectors/FORMAT.md`; [`diff_exact`] compares to the letter;
//!   [`without_schema`] drops the `"schema"` key before comparing.
//! - [`files_under`] lists the files of a folder and its subfolders by
//!   extension.
//! - [`alloc`] counts allocations, for the zero-allocation tests.
//! - `drive` (feature `drive`) writes and runs drivers of the typed
//!   generated encoders, for the fuzz target `typed_roundtrip` and
//!   corpus-tests' `typed_properties`.

#![deny(missing_docs)]

pub mod alloc;
#[cfg(feature = "drive")]
pub mod drive;

use std::path::{Path, PathBuf};

use serde_json::{Number, Value};

/// `../shared` beside the checkout, or `None` after a skip notice naming
/// `test`; with `CI=true` a missing `../shared` fails instead. It counts as
/// found when it holds both `corpus/` and `vectors/`.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    shared_dir_built(test, true)
}

/// [`shared_dir`] for a crate whose build script generates code from
/// `../shared`: `built` (e.g. `corpus_tests::SHARED_AVAILABLE`) says whether
/// the build script found it. When it did not, the test skips (or fails
/// with `CI=true`) even if `../shared` is there now, since the code it
/// would test was not generated.
pub fn shared_dir_built(test: &str, built: bool) -> Option<PathBuf> {
    // test-support sits beside the other crates, so this is the same
    // folder as their own `CARGO_MANIFEST_DIR/../../shared`.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if dir.join("corpus").is_dir() && dir.join("vectors").is_dir() && built {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: ../shared (corpus and vectors) is missing, and CI=true");
    }
    eprintln!("{test}: skipped: ../shared (corpus and vectors) not found beside the checkout");
    None
}

/// The rows of `vectors/REPORT.tsv` after its header: (schema path in the
/// corpus, status). Rows with fewer than two columns are left out.
pub fn report(shared: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(shared.join("vectors/REPORT.tsv")).expect("REPORT.tsv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            Some((cols.next()?.to_string(), cols.next()?.to_string()))
        })
        .collect()
}

/// The folders of `vectors/`, one a schema, sorted.
fn vector_dirs(shared: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shared.join("vectors"))
        .expect("read vectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every `vectors/*/layout.json`, sorted by folder: (its folder, the path
/// of its schema in the corpus, the parsed layout).
pub fn layouts(shared: &Path) -> Vec<(PathBuf, PathBuf, Value)> {
    let mut out = Vec::new();
    for dir in vector_dirs(shared) {
        if !dir.join("layout.json").is_file() {
            continue;
        }
        let text = std::fs::read_to_string(dir.join("layout.json")).expect("read layout.json");
        let layout: Value = serde_json::from_str(&text).expect("parse layout.json");
        let schema = layout["schema"].as_str().expect("schema path").to_string();
        out.push((dir, shared.join("corpus").join(schema), layout));
    }
    out
}

/// One golden vector: a `.json` of `vectors/` and the `.bin` it describes.
pub struct Vector {
    /// The `.json` file: `<Message>-NNN.json`, or `<Message>-NNN.as-vK.json`.
    pub json_path: PathBuf,
    /// The `.bin` file beside it (`<Message>-NNN.bin`).
    pub bin_path: PathBuf,
    /// The bytes of the `.bin` file: one message.
    pub bin: Vec<u8>,
    /// The parsed `.json`.
    pub json: Value,
    /// Its `"schema"`: the schema's path in the corpus.
    pub schema: String,
    /// An `.as-vK.json`: the same bytes decoded with another version of the
    /// schema (its `schema` names that one).
    pub cross_version: bool,
}

/// Every `vectors/*/*.json` except `layout.json`, sorted by folder and then
/// by file name (so a `.as-vK.json` comes just before its own `.json`).
pub fn vectors(shared: &Path) -> Vec<Vector> {
    let mut out = Vec::new();
    for dir in vector_dirs(shared) {
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
            let bin_path = dir.join(format!("{bin_stem}.bin"));
            let bin = std::fs::read(&bin_path).expect("read .bin");
            let text = std::fs::read_to_string(&json_path).expect("read .json");
            let json: Value = serde_json::from_str(&text).expect("parse .json");
            let schema = json["schema"].as_str().expect("schema key").to_string();
            out.push(Vector {
                json_path,
                bin_path,
                bin,
                json,
                schema,
                cross_version: cross,
            });
        }
    }
    out
}

/// `v` without its `"schema"` key (the other keys keep their order).
pub fn without_schema(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.shift_remove("schema");
    }
    v
}

/// Compares `actual` with the golden `expected` under FORMAT.md's rules,
/// giving the first difference as `path` (the root's name, e.g. `"$"`)
/// extended with `.key` and `[index]`, and what differs there; `None` when
/// they agree.
///
/// Objects need the same keys in the same order and arrays the same
/// length. Numbers compare as numbers, never as text: integers exactly
/// (over the whole 64-bit range), other numbers when they are the same
/// f64. That is stricter than FORMAT.md, which compares a float field at
/// f32 precision: the reference and this project both print a float
/// field in Java's shortest form at its own precision, so the same value
/// parses to the same f64, and a double that differs beyond f32 precision
/// is caught (not knowing a field's type, an f32 fallback let it pass).
/// NaN is `null` in both, and everything else (strings, `null`, booleans)
/// compares exactly.
pub fn diff(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    walk(expected, actual, path, &numbers_match)
}

/// `v` with every decimal composite whose mantissa is null (an object of
/// `mantissa` and `exponent`, the mantissa `null`) made `null` whole: the
/// meaning rule (issue 39) that a null mantissa is a null decimal, whatever
/// the exponent beside it holds, so that an output that keeps no such
/// exponent (owned types, Parquet) compares with the reference's JSON,
/// which prints it.
pub fn null_decimals(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
            keys.sort_unstable();
            if keys == ["exponent", "mantissa"] && o.get("mantissa") == Some(&Value::Null) {
                return Value::Null;
            }
            Value::Object(
                o.iter()
                    .map(|(k, x)| (k.clone(), null_decimals(x)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(null_decimals).collect()),
        other => other.clone(),
    }
}

/// [`diff`] with every value, numbers included, compared to the letter:
/// for files whose exact form is the truth, such as `layout.json`.
pub fn diff_exact(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    walk(expected, actual, path, &|e, a| e == a)
}

/// The walk of [`diff`] and [`diff_exact`]; `numbers` compares two numbers.
fn walk(
    expected: &Value,
    actual: &Value,
    path: &str,
    numbers: &dyn Fn(&Number, &Number) -> bool,
) -> Option<String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let ke: Vec<&String> = e.keys().collect();
            let ka: Vec<&String> = a.keys().collect();
            if ke != ka {
                return Some(format!("{path}: want keys {ke:?}, got {ka:?}"));
            }
            e.iter()
                .find_map(|(k, v)| walk(v, &a[k], &format!("{path}.{k}"), numbers))
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return Some(format!(
                    "{path}: want {} elements, got {}",
                    e.len(),
                    a.len()
                ));
            }
            e.iter()
                .zip(a)
                .enumerate()
                .find_map(|(i, (x, y))| walk(x, y, &format!("{path}[{i}]"), numbers))
        }
        (Value::Number(e), Value::Number(a)) if numbers(e, a) => None,
        _ if expected == actual => None,
        _ => Some(format!("{path}: want {expected}, got {actual}")),
    }
}

/// The equality of two JSON numbers (see [`diff`]).
fn numbers_match(e: &Number, a: &Number) -> bool {
    let (se, sa) = (e.to_string(), a.to_string());
    if se == sa {
        return true;
    }
    if let (Ok(x), Ok(y)) = (se.parse::<i128>(), sa.parse::<i128>()) {
        return x == y;
    }
    match (se.parse::<f64>(), sa.parse::<f64>()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The files under `dir` (its subfolders too) whose name ends in
/// `.{ext}`, sorted; none when `dir` cannot be read.
pub fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, ext, &mut out);
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn integers_compare_exactly_over_the_whole_u64_range() {
        let max = v("18446744073709551615");
        assert_eq!(diff(&max, &max, "$"), None);
        assert_eq!(
            diff(&max, &v("18446744073709551614"), "$").as_deref(),
            Some("$: want 18446744073709551615, got 18446744073709551614")
        );
        // Equal as f32, but integers are exact.
        assert!(diff(&v("16777217"), &v("16777216"), "$").is_some());
    }

    #[test]
    fn floats_compare_as_numbers_at_f64_precision() {
        assert_eq!(diff(&v("536.0"), &v("536"), "$"), None);
        assert_eq!(diff(&v("1.5e3"), &v("1500.0"), "$"), None);
        // A double that differs only beyond f32 precision.
        assert!(diff(&v("0.1"), &v("0.10000000149011612"), "$").is_some());
        assert!(diff(&v("0.1"), &v("0.2"), "$").is_some());
        assert_eq!(diff(&Value::Null, &Value::Null, "$"), None);
        assert!(diff(&Value::Null, &v("0.0"), "$").is_some());
    }

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let want = json!({"a": [1, {"b": "x"}], "c": 2});
        assert_eq!(
            diff(&want, &json!({"a": [1, {"b": "y"}], "c": 2}), "$").as_deref(),
            Some(r#"$.a[1].b: want "x", got "y""#)
        );
        assert_eq!(
            diff(&want, &json!({"c": 2, "a": [1, {"b": "x"}]}), "$").as_deref(),
            Some(r#"$: want keys ["a", "c"], got ["c", "a"]"#)
        );
        assert_eq!(
            diff(&want, &json!({"a": [1], "c": 2}), "").as_deref(),
            Some(".a: want 2 elements, got 1")
        );
    }

    #[test]
    fn diff_exact_compares_numbers_as_written() {
        assert_eq!(diff_exact(&v("[1, 2]"), &v("[1, 2]"), "$"), None);
        assert_eq!(
            diff_exact(&v("536.0"), &v("536"), "$").as_deref(),
            Some("$: want 536.0, got 536")
        );
    }

    #[test]
    fn without_schema_drops_only_the_schema_key() {
        let got = without_schema(&json!({"schema": "s.xml", "message": "M", "body": {}}));
        assert_eq!(got, json!({"message": "M", "body": {}}));
        let keys: Vec<_> = got.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["message", "body"]);
    }
}
