//! `sbe validate` accepts what the reference accepts and rejects what it
//! rejects, with positions; `sbe compat` on the corpus's version pairs.

mod common;

use test_support::shared_dir;

#[test]
fn validate_agrees_with_the_reference_on_every_corpus_schema() {
    let Some(shared) = shared_dir("validate_agrees_with_the_reference_on_every_corpus_schema")
    else {
        return;
    };
    let mut checked = 0;
    for (path, status) in test_support::report(&shared) {
        if status.starts_with("skipped") || path.starts_with("fix/spec-") {
            continue;
        }
        let file = shared.join("corpus").join(&path);
        let (code, _, err) = common::sbe(&["validate", "--schema", &file.to_string_lossy()], b"");
        if status == "ok" {
            assert_eq!(code, 0, "{path} is valid:\n{err}");
        } else {
            assert_eq!(code, 1, "{path} should be rejected ({status})");
            let prefix = format!("{}:", file.display());
            let errors: Vec<_> = err.lines().filter(|l| l.contains(": error: ")).collect();
            assert!(!errors.is_empty(), "{path}: no error printed:\n{err}");
            for e in errors {
                let rest = e
                    .strip_prefix(&prefix)
                    .unwrap_or_else(|| panic!("{path}: no file in {e}"));
                let mut parts = rest.splitn(3, ':');
                let line: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
                let col: u32 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
                assert!(line > 0 && col > 0, "{path}: no line:col in {e}");
            }
        }
        checked += 1;
    }
    assert!(checked > 90, "only {checked} schemas checked");
}

#[test]
fn compat_accepts_version_pairs_and_refuses_them_reversed() {
    let Some(shared) = shared_dir("compat_accepts_version_pairs_and_refuses_them_reversed") else {
        return;
    };
    let c = shared.join("corpus");
    let v1 = c.join("fix/conformance/schema1.xml");
    let v2 = c.join("fix/conformance/schema2.xml");
    let (code, out, err) = common::sbe(
        &[
            "compat",
            "--old",
            &v1.to_string_lossy(),
            "--new",
            &v2.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&out).contains("compatible"));
    let (code, _, err) = common::sbe(
        &[
            "compat",
            "--old",
            &v2.to_string_lossy(),
            "--new",
            &v1.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("was removed") && err.contains("schema1.xml:"),
        "{err}"
    );
}
