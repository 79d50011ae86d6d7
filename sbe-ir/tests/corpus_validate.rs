//! Every schema the reference rejects is rejected, each error naming file,
//! line and column; every schema it accepts is accepted.

use test_support::shared_dir;

#[test]
fn accepts_and_rejects_what_the_reference_does() {
    let Some(shared) = shared_dir("accepts_and_rejects_what_the_reference_does") else {
        return;
    };
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (path, status) in test_support::report(&shared) {
        let file = shared.join("corpus").join(&path);
        let result = sbe_ir::ir::load(&file);
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
    let Some(shared) = shared_dir("the_fix_spec_examples_load") else {
        return;
    };
    for path in ["fix/spec-1.0/Examples.xml", "fix/spec-2.0-rc3/examples.xml"] {
        let schema = sbe_ir::ir::load(shared.join("corpus").join(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(schema.messages.len(), 3, "{path}");
    }
}

/// The layouts of the FIX spec examples, checked by hand against the
/// tables of their 07Examples.md (which has typos of its own: it puts
/// OrderID at offset 8 and OrdStatus/Side at 1 in the ExecutionReport
/// table, where its own schema and hex dump have 0, 17 and 31).
#[test]
fn the_fix_spec_examples_lay_out_as_their_tables_say() {
    let Some(shared) = shared_dir("the_fix_spec_examples_lay_out") else {
        return;
    };
    for (path, header_len, dim_len) in [
        ("fix/spec-1.0/Examples.xml", 8, 4),
        ("fix/spec-2.0-rc3/examples.xml", 12, 8),
    ] {
        let s = sbe_ir::ir::load(shared.join("corpus").join(path)).unwrap();
        assert_eq!(
            sbe_ir::ir::encoded_length(&s.header_type),
            Some(header_len),
            "{path}"
        );
        let msg = |name: &str| s.messages.iter().find(|m| m.name == name).unwrap();
        let offsets =
            |m: &sbe_ir::ir::Message| m.block.fields.iter().map(|f| f.offset).collect::<Vec<_>>();

        let nos = msg("NewOrderSingle");
        assert_eq!((nos.id, nos.block.block_length), (99, 54), "{path}");
        assert_eq!(
            offsets(nos),
            vec![0, 8, 16, 24, 25, 33, 37, 38, 46],
            "{path}"
        );

        let er = msg("ExecutionReport");
        assert_eq!((er.id, er.block.block_length), (98, 42), "{path}");
        assert_eq!(
            offsets(er),
            vec![0, 8, 16, 17, 18, 26, 31, 32, 36, 40],
            "{path}"
        );
        let fills = &er.block.groups[0];
        assert_eq!(fills.block.block_length, 12, "{path}");
        assert_eq!(
            fills
                .block
                .fields
                .iter()
                .map(|f| f.offset)
                .collect::<Vec<_>>(),
            vec![0, 8]
        );
        assert_eq!(
            sbe_ir::ir::encoded_length(&fills.dimension_type),
            Some(dim_len),
            "{path}"
        );
        // MaturityMonthYear: year, month, day, week = 5 bytes
        assert_eq!(er.block.fields[5].encoded_length, 5, "{path}");

        let bmr = msg("BusinessMessageReject");
        assert_eq!((bmr.id, bmr.block.block_length), (97, 9), "{path}");
        assert_eq!(offsets(bmr), vec![0, 8], "{path}");
        assert_eq!(bmr.block.data.len(), 1, "{path}");
    }
}
