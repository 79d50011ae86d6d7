//! The message header, read as the schema lays it out: the standard
//! header in either byte order and one of other widths; messages of two
//! templates in turn, a wrong schema id, an unknown template and a cut
//! header; and the schema and field metadata of the tables.

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::RecordBatch;
use sbe_columnar::{ExportError, Exporter, Frame, Options};

fn schema(order: &str, header: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="h" id="9" version="2" byteOrder="{order}">
  <types>
    <composite name="messageHeader">{header}</composite>
  </types>
  <sbe:message name="A" id="1">
    <field name="a" id="1" type="uint64" semanticType="Qty"/>
  </sbe:message>
  <sbe:message name="B" id="2">
    <field name="b" id="2" type="uint32"/>
  </sbe:message>
</sbe:messageSchema>
"#
    )
}

const STANDARD: &str = r#"
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>"#;

/// Other widths, and a member before the four.
const OTHER: &str = r#"
      <type name="flags" primitiveType="uint8"/>
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint8"/>
      <type name="schemaId" primitiveType="uint32"/>
      <type name="version" primitiveType="uint8"/>"#;

/// A message of `template` whose field is `value`, with `schema_id`.
fn message(other: bool, big: bool, template: u8, schema_id: u32, value: u64) -> Vec<u8> {
    let (block, field) = if template == 1 {
        (8u16, value.to_le_bytes().to_vec())
    } else {
        (4, (value as u32).to_le_bytes().to_vec())
    };
    let mut field = field;
    let mut m = Vec::new();
    let u16s = |v: u16| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    };
    if other {
        m.push(0);
        m.extend(u16s(block));
        m.push(template);
        m.extend(if big {
            schema_id.to_be_bytes()
        } else {
            schema_id.to_le_bytes()
        });
        m.push(1);
    } else {
        m.extend(u16s(block));
        m.extend(u16s(u16::from(template)));
        m.extend(u16s(schema_id as u16));
        m.extend(u16s(1));
    }
    if big {
        field.reverse();
    }
    m.extend(field);
    m
}

fn run(order: &str, other: bool) {
    let big = order == "bigEndian";
    let xml = schema(order, if other { OTHER } else { STANDARD });
    let ir = sbe_ir::ir::load_str("h.xml", &xml).unwrap();
    let mut ex = Exporter::new(&ir, Options::default()).unwrap();
    let frame = Frame::default();
    // Two templates in turn: each row in its own table.
    for (t, v) in [(1, 10), (2, 20), (1, 11), (1, 12), (2, 21)] {
        let m = message(other, big, t, 9, v);
        assert_eq!(ex.append(&m, &frame).unwrap(), m.len(), "{order} {other}");
    }
    // A wrong schema id, an unknown template, a cut header: refused.
    let wrong = message(other, big, 1, 8, 0);
    let e = ex.append(&wrong, &frame).unwrap_err();
    assert!(e.to_string().contains("schema"), "{e}");
    let unknown = message(other, big, 7, 9, 0);
    assert!(matches!(
        ex.append(&unknown, &frame),
        Err(ExportError::UnknownTemplate(7))
    ));
    let cut = message(other, big, 1, 9, 0);
    let header = if other { 9 } else { 8 };
    assert!(ex.append(&cut[..header - 1], &frame).is_err());
    let batches: Vec<(String, RecordBatch)> = ex.finish().expect("batches");
    let table = |name: &str| {
        let (_, b) = batches.iter().find(|(n, _)| n == name).unwrap();
        b.clone()
    };
    let (a, b) = (table("A"), table("B"));
    let col = |b: &RecordBatch, c: &str| b.column_by_name(c).unwrap().clone();
    assert_eq!(
        col(&a, "a").as_primitive::<UInt64Type>().values(),
        &[10, 11, 12]
    );
    assert_eq!(
        col(&b, "b").as_primitive::<UInt32Type>().values(),
        &[20, 21]
    );
    assert_eq!(
        col(&a, "msgIndex").as_primitive::<UInt64Type>().values(),
        &[0, 2, 3]
    );
    assert_eq!(
        col(&b, "templateId").as_primitive::<UInt32Type>().values(),
        &[2, 2]
    );
    assert_eq!(
        col(&a, "schemaId").as_primitive::<UInt32Type>().values(),
        &[9, 9, 9]
    );
    assert_eq!(
        col(&a, "version").as_primitive::<UInt32Type>().values(),
        &[1, 1, 1]
    );
    // The schema's metadata names the schema and its source; a field's,
    // its SBE type and semantic type (its meaning's kind where it has
    // none).
    let meta = a.schema().metadata().clone();
    for (key, value) in [
        ("sbe.schemaId", "9"),
        ("sbe.schemaVersion", "2"),
        ("sbe.package", "h"),
        ("sbe.templateId", "1"),
        ("sbe.source", "h.xml"),
    ] {
        assert_eq!(
            meta.get(key).map(String::as_str),
            Some(value),
            "{key}: {meta:?}"
        );
    }
    let field_meta = |b: &RecordBatch, name: &str, key: &str| {
        let schema = b.schema();
        let f = schema.field_with_name(name).unwrap();
        f.metadata().get(key).cloned()
    };
    assert_eq!(field_meta(&a, "a", "sbe.type").as_deref(), Some("uint64"));
    assert_eq!(
        field_meta(&a, "a", "sbe.semanticType").as_deref(),
        Some("Qty")
    );
    assert_eq!(field_meta(&b, "b", "sbe.type").as_deref(), Some("uint32"));
    assert_eq!(
        field_meta(&b, "b", "sbe.semanticType").as_deref(),
        Some("plain")
    );
    // Without the schema id check, the wrong one is taken.
    let mut ex = Exporter::new(&ir, Options::default().schema_id_check(false)).unwrap();
    assert_eq!(ex.append(&wrong, &frame).unwrap(), wrong.len());
}

#[test]
fn the_standard_header_little_endian() {
    run("littleEndian", false);
}

#[test]
fn the_standard_header_big_endian() {
    run("bigEndian", false);
}

#[test]
fn a_header_of_other_widths() {
    run("littleEndian", true);
    run("bigEndian", true);
}
