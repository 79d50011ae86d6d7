//! Schemas from elsewhere read only themselves and their parts: an
//! `xi:include` of an absolute path, of a path or a symbolic link that
//! leads out of the schema's folder, or of a URL is refused with its
//! position unless `Config::allow_includes_outside` (or
//! `IncludePolicy::allow_outside`) allows it; entity expansion (billion
//! laughs) and external entities are refused.

use std::path::{Path, PathBuf};

use sbe_ir::ir::{self, IncludePolicy};

const HEADER: &str = r#"<composite name="messageHeader">
  <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
  <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
</composite>"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sbe-includes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("schemas")).unwrap();
    dir
}

/// `dir/schemas/main.xml` including `href` (on line 3), and the part
/// `dir/outside.xml` holding the header.
fn layout(dir: &Path, href: &str) -> PathBuf {
    std::fs::write(dir.join("outside.xml"), HEADER).unwrap();
    let main = dir.join("schemas/main.xml");
    std::fs::write(
        &main,
        format!(
            "<messageSchema xmlns:xi=\"http://www.w3.org/2001/XInclude\" package=\"p\" id=\"1\">\n<types>\n<xi:include href=\"{href}\"/>\n</types>\n</messageSchema>\n"
        ),
    )
    .unwrap();
    main
}

fn allowed() -> IncludePolicy {
    IncludePolicy {
        allow_outside: true,
    }
}

fn refused(main: &Path) -> String {
    ir::load(main).expect_err("refused").to_string()
}

#[test]
fn a_path_that_climbs_out_is_refused_unless_allowed() {
    let dir = scratch("climb");
    let main = layout(&dir, "../outside.xml");
    let err = refused(&main);
    assert!(err.contains("main.xml:3:1"), "{err}");
    assert!(err.contains("leads out of the schema's folder"), "{err}");
    let schema = ir::load_with(&main, allowed()).expect("allowed");
    assert_eq!(schema.header_type.name, "messageHeader");
}

#[test]
fn an_absolute_path_is_refused_unless_allowed() {
    let dir = scratch("absolute");
    let href = dir.join("outside.xml").display().to_string();
    let main = layout(&dir, &href);
    let err = refused(&main);
    assert!(err.contains("main.xml:3:1"), "{err}");
    assert!(err.contains("absolute path"), "{err}");
    assert!(ir::load_with(&main, allowed()).is_ok());
}

#[test]
fn urls_are_refused_and_only_file_urls_are_read_when_allowed() {
    let dir = scratch("url");
    let main = layout(&dir, "http://example.invalid/types.xml");
    assert!(refused(&main).contains("URL"));
    let err = ir::load_with(&main, allowed())
        .expect_err("never fetched")
        .to_string();
    assert!(err.contains("only files are read"), "{err}");
    let file_url = format!("file://{}", dir.join("outside.xml").display());
    let main = layout(&dir, &file_url);
    assert!(refused(&main).contains("URL"));
    assert!(ir::load_with(&main, allowed()).is_ok());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_folder_is_refused() {
    let dir = scratch("symlink");
    std::os::unix::fs::symlink(dir.join("outside.xml"), dir.join("schemas/link.xml")).unwrap();
    let main = layout(&dir, "link.xml");
    assert!(refused(&main).contains("leads out of the schema's folder"));
}

#[test]
fn parts_in_the_folder_and_below_are_read() {
    let dir = scratch("below");
    std::fs::create_dir_all(dir.join("schemas/parts")).unwrap();
    std::fs::write(dir.join("schemas/parts/header.xml"), HEADER).unwrap();
    let main = layout(&dir, "parts/header.xml");
    let schema = ir::load(&main).expect("a part below the schema is read");
    assert_eq!(schema.files.len(), 2);
    // A part below that climbs back up but stays inside is fine too.
    let main = layout(&dir, "parts/../parts/header.xml");
    assert!(ir::load(&main).is_ok());
}

#[test]
fn config_allows_includes_outside() {
    let dir = scratch("config");
    let main = layout(&dir, "../outside.xml");
    let out = dir.join("out");
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[&main])
        .expect_err("refused by default")
        .to_string();
    assert!(err.contains("leads out"), "{err}");
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .allow_includes_outside(true)
        .compile(&[&main])
        .expect("allowed");
    assert!(out.join("p.rs").exists());
}

#[test]
fn entity_expansion_and_external_entities_are_refused() {
    let mut laughs = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE s [\n<!ENTITY l0 \"lol\">\n");
    for i in 1..10 {
        let refs = format!("&l{};", i - 1).repeat(10);
        laughs.push_str(&format!("<!ENTITY l{i} \"{refs}\">\n"));
    }
    laughs.push_str(
        "]>\n<messageSchema package=\"p\" id=\"1\" description=\"&l9;\"><types/></messageSchema>\n",
    );
    let err = ir::load_str("laughs.xml", &laughs)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("laughs.xml:"), "{err}");
    assert!(err.contains("entity reference loop"), "{err}");

    let external = "<?xml version=\"1.0\"?>\n<!DOCTYPE s [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<messageSchema package=\"p\" id=\"1\" description=\"&x;\"><types/></messageSchema>\n";
    let err = ir::load_str("external.xml", external)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("unknown entity reference"), "{err}");
}
