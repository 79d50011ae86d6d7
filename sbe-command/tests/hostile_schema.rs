//! The real `sbe validate` on hostile schemas (sbe-build's tests/hostile.rs
//! covers each shape through the library): refused with a position, never a
//! crash, and quickly.

mod common;

const HEADER: &str = r#"<composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
    </composite>"#;

fn validate(name: &str, xml: &str) -> (i32, String) {
    let dir = common::scratch(name);
    let path = dir.join("hostile.xml");
    std::fs::write(&path, xml).expect("write schema");
    let (code, _, err) = common::sbe(&["validate", "--schema", &path.to_string_lossy()], b"");
    (code, err)
}

#[test]
fn a_ref_chain_is_refused_with_its_position() {
    let links: Vec<String> = (0..5000)
        .map(|i| {
            format!(
                "<composite name=\"c{i}\"><ref name=\"next\" type=\"c{}\"/></composite>",
                i + 1
            )
        })
        .collect();
    let xml = format!(
        "<messageSchema package=\"p\" id=\"1\">\n<types>\n{HEADER}\n{}\n<composite name=\"c5000\"><type name=\"x\" primitiveType=\"uint8\"/></composite>\n</types>\n</messageSchema>\n",
        links.join("\n")
    );
    let (code, err) = validate("ref-chain", &xml);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("hostile.xml:"), "{err}");
    assert!(err.contains("nested more than 32 deep"), "{err}");
}

#[test]
fn an_include_of_a_device_is_refused_at_the_include() {
    let xml = format!(
        "<messageSchema xmlns:xi=\"http://www.w3.org/2001/XInclude\" package=\"p\" id=\"1\">\n<types>\n{HEADER}\n</types>\n<xi:include href=\"/dev/zero\"/>\n</messageSchema>\n"
    );
    let (code, err) = validate("dev-zero", &xml);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "hostile.xml:8:1: error: xi:include of an absolute path (/dev/zero) is not followed"
        ),
        "{err}"
    );
}

#[test]
fn allow_includes_outside_lets_the_include_be_read_and_refused_as_a_device() {
    let xml = format!(
        "<messageSchema xmlns:xi=\"http://www.w3.org/2001/XInclude\" package=\"p\" id=\"1\">\n<types>\n{HEADER}\n</types>\n<xi:include href=\"/dev/zero\"/>\n</messageSchema>\n"
    );
    let dir = common::scratch("dev-zero-allowed");
    let path = dir.join("hostile.xml");
    std::fs::write(&path, xml).expect("write schema");
    let (code, _, err) = common::sbe(
        &[
            "validate",
            "--allow-includes-outside",
            "--schema",
            &path.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("hostile.xml:8:1: error: included file /dev/zero is not a regular file"),
        "{err}"
    );
}
