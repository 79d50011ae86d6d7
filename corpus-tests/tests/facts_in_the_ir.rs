//! The wire and meaning facts are found once, in `sbe_ir::ir` (computed
//! by its resolver passes): no other module of sbe-build (codegen, the layout
//! report, compat) and no module of sbe-otf (the run-time codec) or
//! sbe-command finds a header, dimension or var-data member by its name,
//! reads or writes an integer of the wire with a byte-order conversion of
//! its own, or computes where a block ends. Checked on the sources: outside `ir` and
//! the resolver, no code line holds one of the role names a lookup by
//! name would compare with (the layout report's output keys aside), and
//! outside `ir` and sbe-rt no code line of sbe-build or of the run-time
//! codec holds a byte-order conversion or a field's end.

use std::path::Path;

/// The member names the standard gives the header, dimension and var-data
/// roles, and the names that say what a value means: what a backend
/// re-deriving a fact would look for.
const ROLE_NAMES: &[&str] = &[
    "blockLength",
    "templateId",
    "schemaId",
    "version",
    "numInGroup",
    "numGroups",
    "numVarDataFields",
    "length",
    "varData",
    "messageHeader",
    "groupSizeEncoding",
    "varDataEncoding",
    // The meaning facts' names: the spec's decimal, time and MonthYear
    // members and the semantic types that mark times and dates.
    "mantissa",
    "exponent",
    "timezoneHour",
    "UTCTimestamp",
    "UTCTimeOnly",
    "TZTimestamp",
    "TZTimeOnly",
    "LocalMktDate",
    "UTCDateOnly",
    "MonthYear",
];

/// `file:line: text` for each code line of `file` (comments, doc comments
/// and the unit tests after `#[cfg(test)]` left out, and a file of tests
/// alone, marked `#![cfg(test)]`) for which `holds` is true.
fn code_lines_where(file: &Path, holds: impl Fn(&str) -> bool) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") || code.starts_with("#![cfg(test)]") {
            break;
        }
        if !code.starts_with("//") && holds(code) {
            found.push(format!("{}:{}: {}", file.display(), n + 1, code));
        }
    }
    found
}

/// The code lines of `file` holding a role name as a string literal,
/// other than as a key the layout report writes (`insert("blockLength"`).
fn role_names_in(file: &Path) -> Vec<String> {
    code_lines_where(file, |code| {
        ROLE_NAMES.iter().any(|name| {
            let literal = format!("\"{name}\"");
            code.contains(&literal) && !code.contains(&format!("insert({literal}"))
        })
    })
}

/// What a reader or writer of the wire's integers of its own uses, and
/// what a block-end rule of its own computes (a field's end).
const OWN_WIRE_RULES: &[&str] = &[
    "from_le_bytes",
    "from_be_bytes",
    "to_le_bytes",
    "to_be_bytes",
    "offset + f.encoded_length",
    "offset.saturating_add(f.encoded_length)",
];

/// The code lines of `file` that read or write an integer, or compute a
/// field's end, by a rule of their own.
fn own_wire_rules_in(file: &Path) -> Vec<String> {
    code_lines_where(file, |code| OWN_WIRE_RULES.iter().any(|r| code.contains(r)))
}

/// The crates whose sources read the IR: every backend, and the schema
/// crate's own compat check and layout report.
const BACKENDS: &[&str] = &[
    "sbe-ir",
    "sbe-build",
    "sbe-otf",
    "sbe-command",
    "sbe-columnar",
    "sbe-dissector",
    "sbe-capture",
    "sbe-framing",
];

/// The sources of the backends that `keep` keeps, outside `ir` and the
/// resolver (where the facts are computed).
fn backend_sources(keep: impl Fn(&Path) -> bool) -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in BACKENDS {
        let src = root.join(krate).join("src");
        assert!(src.is_dir(), "{} is not a folder", src.display());
        files.extend(test_support::files_under(&src, "rs"));
    }
    let ir = root.join("sbe-ir/src/ir");
    let resolve = root.join("sbe-ir/src/resolve");
    files.retain(|f| !f.starts_with(&ir) && !f.starts_with(&resolve) && keep(f));
    assert!(
        files.len() > 10,
        "the sources are not where this test looks: {files:?}"
    );
    files
}

#[test]
fn no_backend_finds_a_member_by_its_role_name() {
    let files = backend_sources(|_| true);
    let found: Vec<String> = files.iter().flat_map(|f| role_names_in(f)).collect();
    assert!(
        found.is_empty(),
        "role names outside sbe_ir::ir:\n{}",
        found.join("\n")
    );
}

/// What `scan` finds in a file holding `text`.
fn scan_of(text: &str, scan: fn(&Path) -> Vec<String>) -> Vec<String> {
    let dir =
        std::env::temp_dir().join(format!("facts-in-ir-{}-{}", std::process::id(), text.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("backend.rs");
    std::fs::write(&file, text).unwrap();
    let found = scan(&file);
    std::fs::remove_dir_all(&dir).ok();
    found
}

#[test]
fn the_check_sees_a_lookup_by_name() {
    let found = scan_of(
        "// \"numInGroup\" in a comment is fine\nlet count = members.iter().find(|m| m.name == \"numInGroup\");\n#[cfg(test)]\nconst T: &str = \"length\";\n",
        role_names_in,
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].ends_with(":2: let count = members.iter().find(|m| m.name == \"numInGroup\");")
    );
}

#[test]
fn no_backend_reads_the_wire_or_ends_a_block_by_a_rule_of_its_own() {
    // The capture reader and the framings parse pcap, IP and framing
    // headers, which are not the schema's wire: the schema crate's report
    // and compat check, sbe-build and the run-time codec are what must go
    // through the IR and sbe-rt.
    let files = backend_sources(|f| {
        let f = f.to_string_lossy().replace('\\', "/");
        f.contains("/sbe-ir/src/") || f.contains("/sbe-build/src/") || f.contains("/sbe-otf/src/")
    });
    let found: Vec<String> = files.iter().flat_map(|f| own_wire_rules_in(f)).collect();
    assert!(
        found.is_empty(),
        "integer readers, writers or block ends outside sbe-rt and sbe_ir::ir:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_an_int_reader_and_a_block_end() {
    let found = scan_of(
        "let v = u16::from_le_bytes(a);\n// to_be_bytes in a comment is fine\nlet end = fields.iter().map(|f| f.offset + f.encoded_length).max();\n",
        own_wire_rules_in,
    );
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].ends_with(":1: let v = u16::from_le_bytes(a);"));
    assert!(found[1].contains(":3: "));
}
