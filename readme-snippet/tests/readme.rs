//! README.md's consumer snippet is this crate, file for file: its
//! `build.rs` and `src/main.rs` code blocks are exactly the crate's files,
//! its `Cargo.toml` block names the dependencies the crate has, and the
//! program runs. The crate builds with warnings denied (its `[lints]`), so
//! a snippet that warns, dead code above all, fails the build.

use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced code blocks of `markdown` whose fence line is `fence`
/// (e.g. "```toml"), without the fences, each ending with a newline.
fn blocks(markdown: &str, fence: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match &mut current {
            None if line == fence => current = Some(String::new()),
            None => {}
            Some(_) if line == "```" => out.extend(current.take()),
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    out
}

/// The README block that starts with the comment line `first`.
fn block_starting(readme: &str, first: &str) -> String {
    let found: Vec<String> = blocks(readme, "```rust,ignore")
        .into_iter()
        .filter(|b| b.lines().next() == Some(first))
        .collect();
    assert_eq!(found.len(), 1, "README.md: one block must start {first:?}");
    found.into_iter().next().unwrap_or_default()
}

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_readme_shows_this_crate_file_for_file() {
    let readme = read(&crate_dir().join("../README.md"));
    for (first, file) in [
        ("// build.rs", "build.rs"),
        ("// src/main.rs", "src/main.rs"),
    ] {
        let snippet = block_starting(&readme, first);
        let actual = read(&crate_dir().join(file));
        assert_eq!(
            snippet, actual,
            "README.md's {file} block differs from readme-snippet/{file}: change both"
        );
    }
}

#[test]
fn the_readme_dependencies_are_this_crates() {
    let readme = read(&crate_dir().join("../README.md"));
    let toml = blocks(&readme, "```toml");
    let snippet = toml
        .iter()
        .find(|b| b.contains("[build-dependencies]"))
        .expect("README.md has a Cargo.toml block");
    let manifest = read(&crate_dir().join("Cargo.toml"));
    // section -> (dependency, features) as each file has them.
    let deps = |text: &str| -> Vec<(String, String, String)> {
        let mut section = String::new();
        let mut out = Vec::new();
        for line in text.lines() {
            let line = line.split(" #").next().unwrap_or_default().trim();
            if line.starts_with('[') {
                section = line.to_string();
            } else if let Some((name, spec)) = line.split_once('=') {
                if section.ends_with("dependencies]") {
                    let features = spec
                        .split_once("features")
                        .map(|(_, f)| f.trim().to_string())
                        .unwrap_or_default();
                    // `sbe-build.workspace = true` names `sbe-build`.
                    let name = name.trim().trim_end_matches(".workspace");
                    out.push((section.clone(), name.to_string(), features));
                }
            }
        }
        out
    };
    let (want, have) = (deps(snippet), deps(&manifest));
    assert!(!want.is_empty(), "no dependencies read from {snippet:?}");
    assert_eq!(
        want.iter().map(|(s, n, _)| (s, n)).collect::<Vec<_>>(),
        have.iter().map(|(s, n, _)| (s, n)).collect::<Vec<_>>(),
        "README.md's [dependencies] are not readme-snippet's"
    );
    for ((_, name, w), (_, _, h)) in want.iter().zip(&have) {
        let strip = |s: &str| s.trim_end_matches('}').trim().to_string();
        assert_eq!(strip(w), strip(h), "features of {name}");
    }
}

#[test]
fn the_snippet_runs() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_readme-snippet"))
        .output()
        .expect("run readme-snippet");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first(), Some(&"1234 A"), "{text}");
    assert_eq!(lines.get(1), Some(&"30 mph: Urban Cycle"), "{text}");
    let json = lines.get(2).copied().unwrap_or_default();
    for part in [
        r#""message":"Car""#,
        r#""serialNumber":1234"#,
        r#""modelYear":2013"#,
        r#""code":"A""#,
        r#""manufacturer":"Honda""#,
        r#""model":"Civic VTi""#,
    ] {
        assert!(json.contains(part), "{part} not in {json}");
    }
    assert_eq!(lines.len(), 3, "{text}");
}
