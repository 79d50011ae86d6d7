//! Schema evolution checks, on the corpus's version pairs and small edits.

use sbe_ir::{compat, ir};
use test_support::shared_dir;

#[test]
fn corpus_version_pairs_are_compatible_and_not_in_reverse() {
    let Some(shared) = shared_dir("corpus_version_pairs_are_compatible") else {
        return;
    };
    let corpus = shared.join("corpus");
    let pairs = [
        (
            "sbe/samples/example-schema.xml",
            "sbe/samples/example-extension-schema.xml",
        ),
        ("fix/conformance/schema1.xml", "fix/conformance/schema2.xml"),
        ("fix/conformance/schema2.xml", "fix/conformance/schema3.xml"),
    ];
    for (a, b) in pairs {
        let old = ir::load(corpus.join(a)).unwrap();
        let new = ir::load(corpus.join(b)).unwrap();
        let forward = compat::check(&old, &new);
        assert!(forward.is_compatible(), "{a} -> {b}: {:?}", forward.errors);
        let back = compat::check(&new, &old);
        assert!(!back.is_compatible(), "{b} -> {a} should not be compatible");
    }
}

const HEADER: &str = r#"<composite name="messageHeader"><type name="blockLength" primitiveType="uint16"/>
  <type name="templateId" primitiveType="uint16"/><type name="schemaId" primitiveType="uint16"/>
  <type name="version" primitiveType="uint16"/></composite>
  <composite name="groupSizeEncoding"><type name="blockLength" primitiveType="uint16"/><type name="numInGroup" primitiveType="uint16"/></composite>
  <enum name="E" encodingType="uint8"><validValue name="A">1</validValue><validValue name="B">2</validValue></enum>"#;

fn schema(version: u32, body: &str) -> ir::Schema {
    let xml = format!(
        r#"<messageSchema package="p" id="1" version="{version}"><types>{HEADER}</types>{body}</messageSchema>"#
    );
    ir::load_str("s.xml", &xml).unwrap_or_else(|e| panic!("{e}"))
}

fn errors(old: &ir::Schema, new: &ir::Schema) -> String {
    let r = compat::check(old, new);
    r.errors
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn breaking_changes_are_named() {
    let base = schema(
        0,
        r#"<message name="M" id="1"><field name="a" id="1" type="uint32"/><field name="e" id="2" type="E"/>
        <group name="g" id="3"><field name="x" id="4" type="uint8"/></group></message>"#,
    );
    let cases = [
        (
            r#"<message name="M" id="1"><field name="a" id="1" type="uint64"/><field name="e" id="2" type="E"/><group name="g" id="3"><field name="x" id="4" type="uint8"/></group></message>"#,
            "changed its type",
        ),
        (
            r#"<message name="M" id="1"><field name="e" id="2" type="E"/><field name="a" id="1" type="uint32"/><group name="g" id="3"><field name="x" id="4" type="uint8"/></group></message>"#,
            "moved from offset",
        ),
        (
            r#"<message name="M" id="1"><field name="a" id="1" type="uint32"/><field name="e" id="2" type="E"/><field name="n" id="5" type="uint8"/><group name="g" id="3"><field name="x" id="4" type="uint8"/></group></message>"#,
            "sinceVersion 0 is not above 0",
        ),
        (
            r#"<message name="M" id="1"><field name="a" id="1" type="uint32"/><field name="e" id="2" type="E"/></message>"#,
            "group \"g\" is no longer",
        ),
        (r#"<message name="N" id="2"/>"#, "was removed"),
    ];
    for (body, what) in cases {
        let new = schema(1, body);
        let e = errors(&base, &new);
        assert!(e.contains(what), "expected {what:?} in {e:?}");
        assert!(e.starts_with("s.xml:"), "{e}");
    }
    // an enum that loses a value
    let fewer = HEADER.replace(r#"<validValue name="B">2</validValue>"#, "");
    let xml = format!(
        r#"<messageSchema package="p" id="1" version="1"><types>{fewer}</types><message name="M" id="1"><field name="a" id="1" type="uint32"/><field name="e" id="2" type="E"/><group name="g" id="3"><field name="x" id="4" type="uint8"/></group></message></messageSchema>"#
    );
    let new = ir::load_str("s.xml", &xml).unwrap();
    assert!(errors(&base, &new).contains("enum value B was removed"));
}

#[test]
fn additions_with_since_version_are_compatible() {
    let base = schema(
        0,
        r#"<message name="M" id="1"><field name="a" id="1" type="uint32"/><group name="g" id="3"><field name="x" id="4" type="uint8"/></group></message>"#,
    );
    let new = schema(
        1,
        r#"<message name="M" id="1"><field name="a" id="1" type="uint32"/><field name="b" id="2" type="uint16" sinceVersion="1"/>
        <group name="g" id="3"><field name="x" id="4" type="uint8"/><field name="y" id="6" type="uint8" sinceVersion="1"/></group>
        <group name="h" id="5" sinceVersion="1"><field name="z" id="7" type="uint8"/></group></message>
        <message name="N" id="2" sinceVersion="1"/>"#,
    );
    let r = compat::check(&base, &new);
    assert!(r.is_compatible(), "{:?}", r.errors);
}
