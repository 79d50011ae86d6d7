//! Each validation rule and layout rule of the front end, on small schemas.

use sbe_ir::ir::{self, ConstValue, Presence, Scalar, TypeKind};

const HEADER: &str = r#"
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <composite name="varData">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>"#;

fn schema(version: u32, types: &str, messages: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="t" id="7" version="{version}">
  <types>{HEADER}
{types}
  </types>
{messages}
</sbe:messageSchema>"#
    )
}

fn load(types: &str, messages: &str) -> Result<ir::Schema, sbe_ir::Error> {
    ir::load_str("t.xml", &schema(0, types, messages))
}

/// The schema must be rejected with an error containing `what`, at a position.
fn rejected(types: &str, messages: &str, what: &str) {
    rejected_v(0, types, messages, what)
}

fn rejected_v(version: u32, types: &str, messages: &str, what: &str) {
    let err = match ir::load_str("t.xml", &schema(version, types, messages)) {
        Ok(_) => panic!("accepted, expected an error containing {what:?}"),
        Err(e) => e,
    };
    let text = err.to_string();
    assert!(text.contains(what), "expected {what:?} in:\n{text}");
    for line in text.lines() {
        assert!(line.starts_with("t.xml:"), "no position: {line}");
        let mut parts = line.splitn(4, ':');
        parts.next();
        let l: u32 = parts.next().and_then(|s| s.parse().ok()).expect("line");
        let c: u32 = parts.next().and_then(|s| s.parse().ok()).expect("col");
        assert!(l > 0 && c > 0, "{line}");
    }
}

#[test]
fn lays_out_fields_composites_and_groups() {
    let s = load(
        r#"<composite name="Price"><type name="m" primitiveType="int64"/><type name="e" primitiveType="int8" presence="constant">-3    </type></composite>"#,
        r#"<sbe:message name="M" id="1" blockLength="32">
             <field name="a" id="1" type="uint32"/>
             <field name="p" id="2" type="Price"/>
             <field name="c" id="3" type="char" presence="constant">Z</field>
             <field name="b" id="4" type="uint16" offset="20"/>
             <group name="g" id="5"><field name="x" id="6" type="double"/><data name="d" id="7" type="varData"/></group>
             <data name="v" id="8" type="varData"/>
           </sbe:message>"#,
    )
    .unwrap();
    let m = &s.messages[0];
    let offs: Vec<_> = m
        .block
        .fields
        .iter()
        .map(|f| (f.offset, f.encoded_length))
        .collect();
    assert_eq!(offs, vec![(0, 4), (4, 8), (12, 0), (20, 2)]);
    assert_eq!(m.block.block_length, 32);
    assert_eq!(
        m.block.fields[2].const_value,
        Some(ConstValue::Text("Z".into()))
    );
    let TypeKind::Composite(price) = &m.block.fields[1].ty.kind else {
        panic!()
    };
    assert_eq!(price.members[1].offset, 8);
    let TypeKind::Encoded(e) = &price.members[1].ty.kind else {
        panic!()
    };
    assert_eq!(e.const_value, Some(ConstValue::Number(Scalar::Int(-3))));
    assert_eq!(m.block.groups[0].block.block_length, 8);
    assert_eq!(
        ir::encoded_length(&m.block.groups[0].dimension_type),
        Some(4)
    );
    assert_eq!(m.block.data[0].character_encoding.as_deref(), Some("UTF-8"));
    // a composite used by <data> is variable length
    let var = s.types.iter().find(|t| t.name == "varData").unwrap();
    assert_eq!(ir::encoded_length(var), None);
}

#[test]
fn composite_member_offsets_and_refs() {
    let s = load(
        r#"<enum name="Side" encodingType="char"><validValue name="Buy">1</validValue></enum>
           <composite name="Inner"><type name="x" primitiveType="uint8"/></composite>
           <composite name="Outer">
             <type name="a" primitiveType="uint16"/>
             <ref name="side" type="Side" offset="4"/>
             <ref name="inner" type="Inner"/>
             <composite name="nested"><type name="y" primitiveType="uint32"/></composite>
           </composite>"#,
        r#"<sbe:message name="M" id="1"><field name="o" id="1" type="Outer"/></sbe:message>"#,
    )
    .unwrap();
    let outer = s.types.iter().find(|t| t.name == "Outer").unwrap();
    let TypeKind::Composite(c) = &outer.kind else {
        panic!()
    };
    let offs: Vec<_> = c
        .members
        .iter()
        .map(|m| (m.ty.name.as_str(), m.offset))
        .collect();
    assert_eq!(
        offs,
        vec![("a", 0), ("side", 4), ("inner", 5), ("nested", 6)]
    );
    assert_eq!(c.members[1].type_name.as_deref(), Some("Side"));
    assert_eq!(ir::encoded_length(outer), Some(10));
}

#[test]
fn presence_defaults_and_since_version() {
    let s = ir::load_str(
        "t.xml",
        &schema(
            2,
            r#"<type name="OptInt" primitiveType="int32" presence="optional" sinceVersion="1"/>
               <enum name="E" encodingType="uint8"><validValue name="A">1</validValue></enum>
               <type name="N" primitiveType="uint8" nullValue="0"/>
               <enum name="E2" encodingType="N"><validValue name="B">2</validValue></enum>"#,
            r#"<sbe:message name="M" id="1">
                 <field name="a" id="1" type="OptInt"/>
                 <field name="b" id="2" type="E" presence="optional" sinceVersion="2"/>
                 <field name="c" id="3" type="E2"/>
               </sbe:message>"#,
        ),
    )
    .unwrap();
    let f = &s.messages[0].block.fields;
    assert_eq!((f[0].presence, f[0].since_version), (Presence::Optional, 1));
    assert_eq!((f[1].presence, f[1].since_version), (Presence::Optional, 2));
    let TypeKind::Enum(e) = &f[1].ty.kind else {
        panic!()
    };
    assert_eq!(e.null_value, 255);
    let TypeKind::Enum(e2) = &f[2].ty.kind else {
        panic!()
    };
    assert_eq!(e2.null_value, 0, "null value from the encoding type");
}

#[test]
fn value_ref_constants() {
    let s = load(
        r#"<enum name="Model" encodingType="char"><validValue name="A">A</validValue><validValue name="C">C</validValue></enum>"#,
        r#"<sbe:message name="M" id="1"><field name="m" id="1" type="Model" presence="constant" valueRef="Model.C"/></sbe:message>"#,
    )
    .unwrap();
    let f = &s.messages[0].block.fields[0];
    assert_eq!(f.encoded_length, 0);
    assert!(
        matches!(&f.const_value, Some(ConstValue::EnumValue { value_name, value: 67, .. }) if value_name == "C")
    );
}

#[test]
fn sbe2_messages_wrapper_and_old_namespaces() {
    let xml = format!(
        r#"<messageSchema xmlns="http://fixprotocol.io/2017/sbe" package="x" id="1"><types>{HEADER}</types>
           <messages><message name="A" id="1"><field name="f" id="1" type="uint8"/></message></messages></messageSchema>"#
    );
    assert_eq!(ir::load_str("t.xml", &xml).unwrap().messages.len(), 1);
    let xml = format!(
        r#"<ns2:messageSchema xmlns:ns2="http://www.fixprotocol.org/ns/simple/1.0" xmlns:mbx="urn:x" package="x" id="1"><types>{HEADER}</types>
           <ns2:message name="A" id="1" mbx:extra="yes"><field name="f" id="1" type="uint8"/></ns2:message></ns2:messageSchema>"#
    );
    assert_eq!(ir::load_str("t.xml", &xml).unwrap().messages.len(), 1);
}

#[test]
fn rejects_unknown_and_duplicate_types() {
    rejected(
        "",
        r#"<sbe:message name="M" id="1"><field name="a" id="1" type="Nope"/></sbe:message>"#,
        "type \"Nope\" is not defined",
    );
    rejected(
        r#"<type name="T" primitiveType="uint8"/><type name="T" primitiveType="uint16"/>"#,
        "",
        "duplicate type name \"T\"",
    );
    rejected(
        r#"<type name="T" primitiveType="uint128"/>"#,
        "",
        "unknown primitiveType",
    );
}

#[test]
fn rejects_duplicate_ids_and_names() {
    let m = r#"<sbe:message name="A" id="1"/><sbe:message name="B" id="1"/>"#;
    rejected("", m, "template id already exists: 1");
    let m = r#"<sbe:message name="A" id="1"/><sbe:message name="A" id="2"/>"#;
    rejected("", m, "duplicate message name");
    let m = r#"<sbe:message name="A" id="1"><field name="a" id="1" type="uint8"/><field name="a" id="2" type="uint8"/></sbe:message>"#;
    rejected("", m, "duplicate name \"a\"");
    let m = r#"<sbe:message name="A" id="1"><field name="a" id="1" type="uint8"/><field name="b" id="1" type="uint8"/></sbe:message>"#;
    rejected("", m, "duplicate id 1");
}

#[test]
fn rejects_circular_refs() {
    rejected(
        r#"<composite name="A"><ref name="b" type="B"/></composite><composite name="B"><ref name="a" type="A"/></composite>"#,
        "",
        "circular",
    );
}

#[test]
fn rejects_overlapping_offsets_and_short_block_length() {
    let m = r#"<sbe:message name="A" id="1"><field name="a" id="1" type="uint32"/><field name="b" id="2" type="uint8" offset="2"/></sbe:message>"#;
    rejected("", m, "overlaps");
    let m = r#"<sbe:message name="A" id="1" blockLength="3"><field name="a" id="1" type="uint32"/></sbe:message>"#;
    rejected("", m, "blockLength 3");
    let t = r#"<composite name="C"><type name="a" primitiveType="uint32"/><type name="b" primitiveType="uint8" offset="1"/></composite>"#;
    rejected(t, "", "incorrect offset");
}

#[test]
fn rejects_enum_and_set_values_outside_their_encoding() {
    rejected(
        r#"<enum name="E" encodingType="uint8"><validValue name="A">300</validValue></enum>"#,
        "",
        "out of range",
    );
    rejected(
        r#"<enum name="E" encodingType="char"><validValue name="A">AB</validValue></enum>"#,
        "",
        "not a single char",
    );
    rejected(
        r#"<type name="Enc" primitiveType="uint8" minValue="1" maxValue="5"/><enum name="E" encodingType="Enc"><validValue name="Z">0</validValue></enum>"#,
        "",
        "outside of range 1 - 5",
    );
    rejected(
        r#"<set name="S" encodingType="uint8"><choice name="A">8</choice></set>"#,
        "",
        "not within 0..8",
    );
}

#[test]
fn an_enum_value_equal_to_its_null_is_only_a_warning() {
    let s = load(
        r#"<enum name="E" encodingType="uint8"><validValue name="NULL">255</validValue></enum>"#,
        "",
    )
    .unwrap();
    assert!(
        s.warnings.iter().any(|w| w.message.contains("null value")),
        "{:?}",
        s.warnings
    );
}

#[test]
fn rejects_value_ref_to_nothing_and_constant_without_value() {
    let t = r#"<enum name="E" encodingType="char"><validValue name="A">A</validValue></enum>"#;
    rejected(
        t,
        r#"<sbe:message name="M" id="1"><field name="f" id="1" type="E" presence="constant" valueRef="E.Z"/></sbe:message>"#,
        "has no value \"Z\"",
    );
    rejected(
        t,
        r#"<sbe:message name="M" id="1"><field name="f" id="1" type="E" presence="constant" valueRef="Nope.Z"/></sbe:message>"#,
        "no enum \"Nope\"",
    );
    rejected(
        r#"<type name="K" primitiveType="uint8" presence="constant"/>"#,
        "",
        "no data",
    );
}

#[test]
fn non_identifier_names_are_warnings_as_in_the_reference() {
    let s = load("", r#"<sbe:message name="M" id="1"><field name="bad name" id="1" type="uint8"/></sbe:message>"#).unwrap();
    assert!(s.warnings.iter().any(|w| w.message.contains("bad name")));
    assert!(!ir::is_identifier("bad name") && ir::is_identifier("_ok1"));
}

#[test]
fn rejects_since_version_above_the_schema_version() {
    rejected_v(
        1,
        "",
        r#"<sbe:message name="M" id="1"><field name="f" id="1" type="uint8" sinceVersion="2"/></sbe:message>"#,
        "sinceVersion=2 > messageSchema.version=1",
    );
}

#[test]
fn rejects_fields_after_groups_and_groups_after_data() {
    rejected(
        "",
        r#"<sbe:message name="M" id="1"><group name="g" id="1"><field name="x" id="2" type="uint8"/></group><field name="f" id="3" type="uint8"/></sbe:message>"#,
        "declared after a group",
    );
    rejected(
        "",
        r#"<sbe:message name="M" id="1"><data name="d" id="1" type="varData"/><group name="g" id="2"/></sbe:message>"#,
        "declared after var data",
    );
}

#[test]
fn rejects_bad_dimension_and_var_data_types() {
    rejected(
        r#"<type name="Fake" primitiveType="uint16"/>"#,
        r#"<sbe:message name="M" id="1"><group name="g" id="1" dimensionType="Fake"/></sbe:message>"#,
        "dimensionType should be a composite",
    );
    rejected(
        r#"<composite name="NoLen"><type name="x" primitiveType="uint8"/></composite>"#,
        r#"<sbe:message name="M" id="1"><data name="d" id="1" type="NoLen"/></sbe:message>"#,
        "needs \"length\" and \"varData\"",
    );
}

#[test]
fn rejects_a_missing_header() {
    let xml = r#"<messageSchema package="x" id="1"><types/></messageSchema>"#;
    let err = ir::load_str("t.xml", xml).unwrap_err().to_string();
    assert!(
        err.contains("message header type \"messageHeader\" not found"),
        "{err}"
    );
}

#[test]
fn big_endian_and_custom_header() {
    let xml = r#"<messageSchema package="x" id="1" byteOrder="bigEndian" headerType="hdr"><types>
        <composite name="hdr"><type name="blockLength" primitiveType="uint8"/><type name="templateId" primitiveType="uint16"/>
        <type name="schemaId" primitiveType="uint8"/><type name="version" primitiveType="uint8"/></composite></types></messageSchema>"#;
    let s = ir::load_str("t.xml", xml).unwrap();
    assert_eq!(s.byte_order, ir::ByteOrder::Big);
    assert_eq!(ir::encoded_length(&s.header_type), Some(5));
}

#[test]
fn empty_groups_and_var_data_have_their_bytes_in_the_ir() {
    let types = r#"
    <composite name="bigDim">
      <type name="numInGroup" primitiveType="uint8"/>
      <type name="blockLength" primitiveType="uint16"/>
    </composite>"#;
    let messages = r#"
  <sbe:message name="M" id="1">
    <group name="plain" id="2" dimensionType="groupSizeEncoding">
      <field name="a" id="3" type="uint32"/>
    </group>
    <group name="odd" id="4" dimensionType="bigDim">
      <field name="b" id="5" type="uint64"/>
      <data name="note" id="6" type="varData"/>
    </group>
    <data name="text" id="7" type="varData"/>
  </sbe:message>"#;
    let little = load(types, messages).expect("loads");
    let m = &little.messages[0];
    let (plain, odd) = (&m.block.groups[0], &m.block.groups[1]);
    assert!(plain.has_block_entries() && !odd.has_block_entries());
    // The block length where the dimension has it, the count 0.
    assert_eq!(plain.empty_bytes(little.byte_order), [4, 0, 0, 0]);
    assert_eq!(odd.empty_bytes(little.byte_order), [0, 8, 0]);
    assert_eq!(odd.empty_bytes(ir::ByteOrder::Big), [0, 0, 8]);
    assert_eq!(m.block.data[0].empty_bytes(), [0, 0]);
}
