//! Which file each schema given to `Config::compile` is written to, and
//! that two schemas never silently share one (issue 10, task 4): the same
//! package twice (CME's MDP3 1.9 and 1.12 are both `mktdata`), two
//! packages with the same file stem, or the same name given twice are an
//! `Error::SameOutputFile` naming both schema files and the output file.

use std::path::{Path, PathBuf};

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sbe-build-output-names-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a one-message schema of `package` and `version` as `dir/file`.
fn schema(dir: &Path, file: &str, package: &str, version: u32) -> PathBuf {
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="{package}" id="1" version="{version}" byteOrder="littleEndian">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
    </types>
    <sbe:message name="Ping" id="1">
        <field name="seq" id="1" type="uint32"/>
    </sbe:message>
</sbe:messageSchema>
"#
    );
    let path = dir.join(file);
    std::fs::write(&path, xml).unwrap();
    path
}

/// The `.rs` files in `dir` (none if it does not exist), sorted.
fn outputs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs"))
        .collect();
    names.sort();
    names
}

/// The version a generated file says it was generated from.
fn version_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .find(|l| l.starts_with("pub const SCHEMA_VERSION"))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn same_package_twice_is_an_error_naming_both_schemas_and_the_file() {
    let dir = scratch("same-package");
    let out = dir.join("out");
    let v9 = schema(&dir, "mdp3-1.9.xml", "mktdata", 9);
    let v12 = schema(&dir, "mdp3-1.12.xml", "mktdata", 12);
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[&v9, &v12])
        .unwrap_err();
    match &err {
        sbe_build::Error::SameOutputFile {
            file,
            first,
            second,
        } => {
            assert_eq!(file, &out.join("mktdata.rs"));
            assert_eq!(first, &(v9.clone(), "mktdata".to_string()));
            assert_eq!(second, &(v12.clone(), "mktdata".to_string()));
        }
        other => panic!("expected SameOutputFile, got {other:?}"),
    }
    let text = err.to_string();
    for part in [
        v9.display().to_string(),
        v12.display().to_string(),
        out.join("mktdata.rs").display().to_string(),
        "package `mktdata`".to_string(),
        "schema_file_name".to_string(),
    ] {
        assert!(text.contains(&part), "{part:?} missing from {text:?}");
    }
    // Nothing was written: not one of the two, silently.
    assert!(!out.join("mktdata.rs").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_file_name_separates_two_schemas_of_one_package() {
    let dir = scratch("schema-file-name");
    let out = dir.join("out");
    let v9 = schema(&dir, "mdp3-1.9.xml", "mktdata", 9);
    let v12 = schema(&dir, "mdp3-1.12.xml", "mktdata", 12);
    let mut config = sbe_build::Config::new();
    config
        .out_dir(&out)
        .quiet(true)
        .schema_file_name(&v9, "mktdata_v9")
        .schema_file_name(&v12, "mktdata_v12.rs");
    config.compile(&[&v9, &v12]).unwrap();
    assert_eq!(outputs(&out), ["mktdata_v12.rs", "mktdata_v9.rs"]);
    assert_eq!(
        version_of(&out.join("mktdata_v9.rs")),
        "pub const SCHEMA_VERSION: u32 = 9u32;"
    );
    assert_eq!(
        version_of(&out.join("mktdata_v12.rs")),
        "pub const SCHEMA_VERSION: u32 = 12u32;"
    );
    // `file_name_for` (what `sbe generate` uses) agrees.
    let loaded = sbe_ir::ir::load(&v9).unwrap();
    assert_eq!(config.file_name_for(&loaded), "mktdata_v9.rs");
    // Naming one of them is enough; the other keeps the package's name.
    let out2 = dir.join("out2");
    sbe_build::Config::new()
        .out_dir(&out2)
        .quiet(true)
        .schema_file_name(&v12, "mktdata_v12")
        .compile(&[&v9, &v12])
        .unwrap();
    assert_eq!(outputs(&out2), ["mktdata.rs", "mktdata_v12.rs"]);
    assert!(version_of(&out2.join("mktdata.rs")).ends_with("= 9u32;"));
    // The last name given for a path wins.
    let mut renamed = sbe_build::Config::new();
    renamed
        .schema_file_name(&v9, "first")
        .schema_file_name(&v9, "second");
    assert_eq!(renamed.file_name_for(&loaded), "second.rs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_file_name_matches_another_spelling_of_the_same_file() {
    let dir = scratch("spelling");
    let out = dir.join("out");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let v9 = schema(&dir, "a.xml", "mktdata", 9);
    let v12 = schema(&dir, "b.xml", "mktdata", 12);
    // Named through `sub/..`, compiled by its plain path.
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .schema_file_name(dir.join("sub/../b.xml"), "b")
        .compile(&[&v9, &v12])
        .unwrap();
    assert_eq!(outputs(&out), ["b.rs", "mktdata.rs"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn packages_with_the_same_file_stem_are_caught_too() {
    let dir = scratch("same-stem");
    let out = dir.join("out");
    let dotted = schema(&dir, "dotted.xml", "a.b", 1);
    let snake = schema(&dir, "snake.xml", "a_b", 1);
    assert_eq!(sbe_build::file_stem("a.b"), sbe_build::file_stem("a_b"));
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[&dotted, &snake])
        .unwrap_err();
    assert!(
        matches!(
            &err,
            sbe_build::Error::SameOutputFile { file, .. } if file == &out.join("a_b.rs")
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.contains("packages `a.b` and `a_b`"), "{text}");
    assert!(text.contains(&dotted.display().to_string()), "{text}");
    assert!(text.contains(&snake.display().to_string()), "{text}");
    assert!(!out.join("a_b.rs").exists());
    // Told apart by file_name (per package), they compile.
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .file_name("a.b", "a_dot_b")
        .compile(&[&dotted, &snake])
        .unwrap();
    assert_eq!(outputs(&out), ["a_b.rs", "a_dot_b.rs"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_name_given_twice_is_caught() {
    let dir = scratch("same-name");
    let out = dir.join("out");
    let x = schema(&dir, "x.xml", "x", 1);
    let y = schema(&dir, "y.xml", "y", 1);
    // By package.
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .file_name("x", "shared")
        .file_name("y", "shared.rs")
        .compile(&[&x, &y])
        .unwrap_err();
    assert!(
        matches!(&err, sbe_build::Error::SameOutputFile { file, .. } if file == &out.join("shared.rs")),
        "{err:?}"
    );
    // By schema file, differing only in case (one file on macOS and Windows).
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .schema_file_name(&x, "Y")
        .compile(&[&x, &y])
        .unwrap_err();
    assert!(
        matches!(&err, sbe_build::Error::SameOutputFile { first, second, .. }
            if first.0 == x && second.0 == y),
        "{err:?}"
    );
    assert!(err.to_string().contains("packages `x` and `y`"), "{err}");
    assert!(outputs(&out).is_empty(), "{:?}", outputs(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_schema_file_twice_is_compiled_once() {
    let dir = scratch("same-file");
    let out = dir.join("out");
    let x = schema(&dir, "x.xml", "x", 1);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[x.clone(), x.clone(), dir.join("sub/../x.xml")])
        .unwrap();
    assert_eq!(outputs(&out), ["x.rs"]);
    let _ = std::fs::remove_dir_all(&dir);
}
