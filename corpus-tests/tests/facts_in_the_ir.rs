//! The wire facts are found once, in `sbe_build::ir`: no other module of
//! sbe-build (codegen, the layout report, compat) and no module of sbe-cli
//! (the run-time codec) finds a header, dimension or var-data member by its
//! name. Checked on the sources: outside `ir`, no code line holds one of
//! the role names a lookup by name would compare with.

use std::path::Path;

/// The member names the standard gives the header, dimension and var-data
/// roles: what a backend re-deriving a fact would look for.
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
];

/// `file:line: text` for each code line of `file` (comments, doc comments
/// and the unit tests after `#[cfg(test)]` left out) holding a role name as
/// a string literal.
fn role_names_in(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        for name in ROLE_NAMES {
            if code.contains(&format!("\"{name}\"")) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, code));
            }
        }
    }
    found
}

#[test]
fn no_backend_finds_a_member_by_its_role_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = test_support::files_under(&root.join("sbe-build/src"), "rs");
    files.extend(test_support::files_under(&root.join("sbe-cli/src"), "rs"));
    let ir = root.join("sbe-build/src/ir");
    files.retain(|f| !f.starts_with(&ir));
    assert!(
        files.len() > 20,
        "the sources are not where this test looks: {files:?}"
    );
    let found: Vec<String> = files.iter().flat_map(|f| role_names_in(f)).collect();
    assert!(
        found.is_empty(),
        "role names outside sbe_build::ir:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_a_lookup_by_name() {
    let dir = std::env::temp_dir().join(format!("facts-in-ir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("backend.rs");
    std::fs::write(
        &file,
        "// \"numInGroup\" in a comment is fine\nlet count = members.iter().find(|m| m.name == \"numInGroup\");\n#[cfg(test)]\nconst T: &str = \"length\";\n",
    )
    .unwrap();
    let found = role_names_in(&file);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].ends_with(":2: let count = members.iter().find(|m| m.name == \"numInGroup\");")
    );
}
