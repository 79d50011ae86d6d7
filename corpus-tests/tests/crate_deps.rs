//! Each crate depends on what its users need and no more (one crate per
//! audience): checked on the dependency trees `cargo tree` resolves for
//! each library alone, with its default features, as a user of that crate
//! gets it.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The crates of each package's normal dependency tree (itself left out),
/// as `cargo tree -e normal -p <package>` resolves it.
fn tree(package: &str) -> BTreeSet<String> {
    tree_lines(package)
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .filter(|name| name != package)
        .collect()
}

/// `cargo tree -e normal -p <package>`'s lines, one crate each.
fn tree_lines(package: &str) -> std::vec::IntoIter<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO"))
        .current_dir(&root)
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}", "-p", package])
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter()
}

/// The proc-macro crates of `package`'s normal dependency tree.
fn proc_macros(package: &str) -> BTreeSet<String> {
    tree_lines(package)
        .filter(|line| line.contains("(proc-macro)"))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Those of `crates` found in `package`'s tree.
fn found(package: &str, crates: &[&str]) -> Vec<String> {
    let tree = tree(package);
    crates
        .iter()
        .filter(|c| tree.contains(**c))
        .map(|c| c.to_string())
        .collect()
}

/// The code generator's crates: what only `sbe-build` needs.
const CODEGEN: &[&str] = &["sbe-build", "prettyplease", "syn", "quote", "proc-macro2"];

#[test]
fn the_runtime_has_no_dependency_by_default() {
    assert_eq!(tree("sbe-rt"), BTreeSet::new());
}

#[test]
fn the_codec_and_the_dissector_compile_no_code_generator_nor_proc_macro() {
    for package in ["sbe-ir", "sbe-otf", "sbe-dissector", "sbe-framing"] {
        assert_eq!(found(package, CODEGEN), Vec::<String>::new(), "{package}");
    }
}

#[test]
fn the_columnar_crate_has_no_code_generator() {
    // syn and quote come in through arrow's own derive macros (zerocopy's,
    // by way of ahash and half); what must not come is this project's
    // generator.
    assert_eq!(
        found("sbe-columnar", &["sbe-build", "prettyplease"]),
        Vec::<String>::new()
    );
    // Nor a derive of its own: the only proc-macros are those arrow and
    // parquet need.
    let theirs = BTreeSet::from(["seq-macro".to_string(), "zerocopy-derive".to_string()]);
    let extra: Vec<_> = proc_macros("sbe-columnar")
        .difference(&theirs)
        .cloned()
        .collect();
    assert_eq!(extra, Vec::<String>::new());
    for package in [
        "sbe-ir",
        "sbe-otf",
        "sbe-dissector",
        "sbe-framing",
        "sbe-rt",
    ] {
        assert_eq!(proc_macros(package), BTreeSet::new(), "{package}");
    }
}

#[test]
fn the_dissector_has_no_columnar_or_command_line_crate() {
    let heavy = [
        "arrow-array",
        "arrow-schema",
        "parquet",
        "zstd",
        "clap",
        "indicatif",
    ];
    assert_eq!(found("sbe-dissector", &heavy), Vec::<String>::new());
}

#[test]
fn only_the_command_depends_on_clap_and_indicatif() {
    let libraries = [
        "sbe-rt",
        "sbe-framing",
        "sbe-ir",
        "sbe-build",
        "sbe-otf",
        "sbe-columnar",
        "sbe-dissector",
    ];
    for package in libraries {
        assert_eq!(
            found(package, &["clap", "indicatif", "sbe-command"]),
            Vec::<String>::new(),
            "{package}"
        );
    }
}

#[test]
fn no_crate_of_the_workspace_depends_on_the_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace");
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("a members list");
    for member in members.split(',').map(|m| m.trim().trim_matches('"')) {
        if member.is_empty() || member == "sbe-command" {
            continue;
        }
        let text = std::fs::read_to_string(root.join(member).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{member}/Cargo.toml: {e}"));
        assert!(
            !text.contains("sbe-command ") && !text.contains("sbe-command."),
            "{member} depends on the command's package"
        );
    }
}

#[test]
fn the_runtime_holds_no_framing_code() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sbe-rt/src");
    for file in test_support::files_under(&src, "rs") {
        let text = std::fs::read_to_string(&file).expect("a source file");
        // Code lines: the docs may say where framing went.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        for word in [
            "FrameFormat",
            "Framer",
            "SOFH",
            "FrameCodec",
            "Mdp3PacketHeader",
        ] {
            assert!(
                !code.contains(word),
                "{} holds {word}: framing is sbe-framing's",
                file.display()
            );
        }
    }
}
