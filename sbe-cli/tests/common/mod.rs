//! Shared helpers: where the golden data is, and FORMAT.md's comparison.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// `../shared` beside the workspace, or `None` (a skip notice is printed;
/// with `CI=true` a missing folder fails the test).
pub fn shared() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared"));
    if p.join("vectors").is_dir() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("../shared is missing ({}) and CI=true", p.display());
    }
    eprintln!("skipped: ../shared not found at {}", p.display());
    None
}

/// Every vector: (schema path in corpus, .bin path, .json path).
pub fn vectors(shared: &Path) -> Vec<(PathBuf, PathBuf, Value)> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(shared.join("vectors"))
        .expect("vectors dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("vector dir")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        files.sort();
        for bin in files {
            let json_path = bin.with_extension("json");
            let text = std::fs::read_to_string(&json_path).expect("vector json");
            let v: Value = serde_json::from_str(&text).expect("vector json parses");
            out.push((bin, json_path, v));
        }
    }
    out
}

/// The `.as-vK.json` files beside `bin`.
pub fn as_versions(bin: &Path) -> Vec<(PathBuf, Value)> {
    let stem = bin
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .to_string();
    let dir = bin.parent().expect("parent");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{stem}.as-v")) && n.ends_with(".json"))
        })
        .collect();
    out.sort();
    out.into_iter()
        .map(|p| {
            let v =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
            (p, v)
        })
        .collect()
}

/// FORMAT.md's comparison: same keys in the same order, integers exact,
/// floats equal as f64 or (float fields) as f32, NaN as null. Returns the
/// path of the first difference.
pub fn diff(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let kx: Vec<_> = x.keys().collect();
            let ky: Vec<_> = y.keys().collect();
            if kx != ky {
                return Some(format!("{path}: keys {kx:?} vs {ky:?}"));
            }
            x.iter()
                .find_map(|(k, v)| diff(v, &y[k], &format!("{path}.{k}")))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: {} vs {} elements", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| diff(p, q, &format!("{path}[{i}]")))
        }
        (Value::Number(x), Value::Number(y)) => {
            let (sx, sy) = (x.to_string(), y.to_string());
            let is_int = |s: &str| !s.contains(['.', 'e', 'E']);
            if is_int(&sx) && is_int(&sy) {
                if sx.parse::<i128>().ok() == sy.parse::<i128>().ok() {
                    return None;
                }
            } else {
                let (fx, fy) = (sx.parse::<f64>().ok(), sy.parse::<f64>().ok());
                let (gx, gy) = (sx.parse::<f32>().ok(), sy.parse::<f32>().ok());
                if fx == fy || gx == gy {
                    return None;
                }
            }
            Some(format!("{path}: {sx} vs {sy}"))
        }
        _ if a == b => None,
        _ => Some(format!("{path}: {a} vs {b}")),
    }
}

/// `v` without its `"schema"` key.
pub fn without_schema(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.shift_remove("schema");
    }
    v
}

/// Run the `sbe` binary with `args` and `stdin`: (exit code, stdout, stderr).
pub fn sbe(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sbe"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sbe");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait sbe");
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh scratch folder under the system temp dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sbe-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
