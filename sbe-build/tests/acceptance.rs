//! What real venue schemas ship and the reference accepts, accepted here
//! too: a char enum value or char constant that is a single space (0x20),
//! and var data whose `varData` is `int8` (opaque bytes). The schema is
//! `tests/quirks/venue-quirks.xml`.

use std::path::PathBuf;

use sbe_ir::ir::{self, ConstValue, Primitive, TypeKind};

fn quirks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/quirks/venue-quirks.xml")
}

const HEADER: &str = r#"<composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
    </composite>"#;

fn load(types: &str, messages: &str) -> Result<ir::Schema, String> {
    let xml = format!(
        "<messageSchema package=\"p\" id=\"1\">\n<types>\n{HEADER}\n{types}\n</types>\n{messages}\n</messageSchema>"
    );
    ir::load_str("inline.xml", &xml).map_err(|e| e.to_string())
}

fn enum_values(s: &ir::Schema, name: &str) -> Vec<(String, i128)> {
    let ty = s.types.iter().find(|t| t.name == name);
    match ty.map(|t| &t.kind) {
        Some(TypeKind::Enum(en)) => en
            .values
            .iter()
            .map(|v| (v.name.clone(), v.value))
            .collect(),
        other => panic!("{name}: not an enum: {other:?}"),
    }
}

#[test]
fn a_char_enum_value_and_a_char_constant_of_one_space_are_0x20() {
    let s = ir::load(quirks()).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(
        enum_values(&s, "Capacity"),
        vec![
            ("Agency".to_string(), 0x41),
            ("Principal".to_string(), 0x50),
            ("NotApplicable".to_string(), 0x20),
        ]
    );
    let blank = s.types.iter().find(|t| t.name == "Blank");
    match blank.map(|t| &t.kind) {
        Some(TypeKind::Encoded(e)) => {
            assert_eq!(e.const_value, Some(ConstValue::Text(" ".into())))
        }
        other => panic!("Blank: {other:?}"),
    }
    let order = &s.messages[0];
    let field = |n: &str| {
        order
            .block
            .fields
            .iter()
            .find(|f| f.name == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    // The constant takes no room: side follows capacity.
    assert_eq!(field("blank").encoded_length, 0);
    assert_eq!(field("side").offset, 1);
    assert_eq!(order.block.block_length, 6);
}

/// The rule for all char text (valid values, constants, field constants,
/// nullValue): whitespace alone is taken as written; anything more is
/// trimmed, as before (the reference would reject such text).
#[test]
fn char_text_is_trimmed_unless_it_is_only_whitespace() {
    let s = load(
        "<enum name=\"E\" encodingType=\"char\">\n\
           <validValue name=\"Space\"> </validValue>\n\
           <validValue name=\"Tab\">\t</validValue>\n\
           <validValue name=\"Pretty\">\n      B\n    </validValue>\n\
         </enum>\n\
         <type name=\"C\" primitiveType=\"char\" presence=\"constant\">\n   X\n</type>\n\
         <type name=\"Three\" primitiveType=\"char\" presence=\"constant\" length=\"3\">   </type>\n\
         <type name=\"N\" primitiveType=\"char\" presence=\"optional\" nullValue=\" \"/>",
        "<message name=\"M\" id=\"1\">\
           <field name=\"f\" id=\"1\" type=\"char\" presence=\"constant\"> </field>\
           <field name=\"n\" id=\"2\" type=\"N\"/>\
         </message>",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        enum_values(&s, "E"),
        vec![
            ("Space".to_string(), 0x20),
            ("Tab".to_string(), 0x09),
            ("Pretty".to_string(), i128::from(b'B')),
        ]
    );
    let constant = |name: &str| match s.types.iter().find(|t| t.name == name).map(|t| &t.kind) {
        Some(TypeKind::Encoded(e)) => e.const_value.clone(),
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(constant("C"), Some(ConstValue::Text("X".into())));
    assert_eq!(constant("Three"), Some(ConstValue::Text("   ".into())));
    let m = &s.messages[0];
    assert_eq!(
        m.block.fields[0].const_value,
        Some(ConstValue::Text(" ".into()))
    );
    match &m.block.fields[1].ty.kind {
        TypeKind::Encoded(e) => assert_eq!(e.null_value, Some(ir::Scalar::Int(0x20))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn char_values_that_are_not_one_char_are_still_refused() {
    for (text, shown) in [("  ", "\"  \""), ("", "\"\""), (" AB ", "\"AB\"")] {
        let err = load(
            &format!(
                "<enum name=\"E\" encodingType=\"char\">\n<validValue name=\"V\">{text}</validValue>\n</enum>"
            ),
            "",
        )
        .err()
        .unwrap_or_else(|| panic!("{text:?} accepted"));
        assert!(
            err.contains(&format!(
                "inline.xml:8:1: error: validValue V: {shown} is not a single char"
            )),
            "{text:?}: {err}"
        );
    }
    let err = load(
        "<type name=\"C\" primitiveType=\"char\" presence=\"constant\"></type>",
        "",
    )
    .err()
    .unwrap_or_default();
    assert!(
        err.contains("has declared presence as \"constant\" but XML node has no data"),
        "{err}"
    );
}

#[test]
fn int8_var_data_is_opaque_bytes() {
    let s = ir::load(quirks()).unwrap_or_else(|e| panic!("{e}"));
    let d = &s.messages[0].block.data[0];
    assert_eq!(d.name, "payload");
    assert_eq!(d.length_primitive, Primitive::Uint8);
    assert_eq!(
        d.character_encoding, None,
        "no characterEncoding: hex in JSON"
    );
    let var_data = match &d.encoding_type.kind {
        TypeKind::Composite(c) => c.members.iter().find(|m| m.ty.name == "varData"),
        _ => None,
    };
    match var_data.map(|m| &m.ty.kind) {
        Some(TypeKind::Encoded(e)) => {
            assert_eq!(e.primitive, Primitive::Int8);
            assert!(e.var_len);
        }
        other => panic!("{other:?}"),
    }
}

/// The reference checks a var data composite for a `length` (unsigned)
/// and a `varData`, and nothing about varData's primitive; a varData that
/// is not a `<type>` fails its cast there.
#[test]
fn var_data_of_any_primitive_is_accepted_but_not_of_an_enum() {
    let data = |var_data: &str| {
        load(
            &format!(
                "<enum name=\"E\" encodingType=\"uint8\"><validValue name=\"A\">1</validValue></enum>\n\
                 <composite name=\"V\"><type name=\"length\" primitiveType=\"uint16\"/>{var_data}</composite>"
            ),
            "<message name=\"M\" id=\"1\">\n<data name=\"d\" id=\"1\" type=\"V\"/>\n</message>",
        )
    };
    for prim in ["int8", "uint8", "char", "uint16", "int32", "double"] {
        let s = data(&format!(
            "<type name=\"varData\" primitiveType=\"{prim}\"/>"
        ))
        .unwrap_or_else(|e| panic!("{prim}: {e}"));
        assert!(s.warnings.is_empty(), "{prim}: {:?}", s.warnings);
        let expected = (prim == "char").then(|| "US-ASCII".to_string());
        assert_eq!(
            s.messages[0].block.data[0].character_encoding, expected,
            "{prim}"
        );
    }
    let err = data("<ref name=\"varData\" type=\"E\"/>")
        .err()
        .unwrap_or_default();
    assert!(
        err.starts_with("inline.xml:11:1: error: data \"d\": \"V.varData\" must be a <type>"),
        "{err}"
    );
    let err = data("<type name=\"data\" primitiveType=\"int8\"/>")
        .err()
        .unwrap_or_default();
    assert!(err.contains("needs \"length\" and \"varData\""), "{err}");
}

/// The generated code for the schema is valid Rust; the space is the
/// enum's wire value 32 (b' '), the constant returns " ", and the int8
/// var data reads and writes bytes.
#[test]
fn generated_code_for_the_quirks_parses() {
    let s = ir::load(quirks()).unwrap_or_else(|e| panic!("{e}"));
    let text = sbe_build::generate(&s, &sbe_build::Config::new()).unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = syn::parse_file(&text) {
        panic!("not valid Rust: {e}\n{text}");
    }
    for wanted in [
        "pub const NotApplicable: Self = Self(32u8);",
        "pub fn blank(&self) -> &'static str {\n        \" \"\n    }",
        "pub fn payload(&self) -> &'a [u8] {",
        "pub fn payload(\n        mut self,\n        v: impl ::core::convert::AsRef<[u8]>,\n    )",
    ] {
        assert!(text.contains(wanted), "no {wanted:?} in\n{text}");
    }
    assert_eq!(b' ', 32);
}
