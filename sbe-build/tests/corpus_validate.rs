//! Every schema the reference rejects is rejected, each error naming file,
//! line and column; every schema it accepts is accepted.

mod shared;

#[test]
fn accepts_and_rejects_what_the_reference_does() {
    let Some(shared) = shared::shared_dir("accepts_and_rejects_what_the_reference_does") else {
        return;
    };
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (path, status) in shared::report(&shared) {
        let file = shared.join("corpus").join(&path);
        let result = sbe_build::ir::load(&file);
        if status == "ok" {
            if let Err(e) = result {
                failures.push(format!(
                    "{path}: accepted by the reference, rejected here:\n{e}"
                ));
            }
        } else if status.starts_with("rejected-by-reference") && !path.starts_with("fix/spec-") {
            rejected += 1;
            match result {
                Ok(_) => failures.push(format!(
                    "{path}: rejected by the reference ({status}), accepted here"
                )),
                Err(e) => {
                    let diags = e.diagnostics();
                    if diags.is_empty() || diags.iter().any(|d| d.pos.is_none()) {
                        failures.push(format!("{path}: an error without a position: {e}"));
                    }
                    let shown = e.to_string();
                    let expected = format!("{}:", file.display());
                    if !shown.lines().all(|l| l.starts_with(&expected)) {
                        failures.push(format!(
                            "{path}: errors should start with {expected}\n{shown}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        rejected >= 10,
        "expected the reference's rejected schemas, found {rejected}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The reference fails on the FIX spec's own examples (a constant written
/// "-3    ", and the 2.0 namespace); they are valid and load here.
#[test]
fn the_fix_spec_examples_load() {
    let Some(shared) = shared::shared_dir("the_fix_spec_examples_load") else {
        return;
    };
    for path in ["fix/spec-1.0/Examples.xml", "fix/spec-2.0-rc3/examples.xml"] {
        let schema = sbe_build::ir::load(shared.join("corpus").join(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(schema.messages.len(), 3, "{path}");
    }
}
