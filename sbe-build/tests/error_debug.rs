//! A build script `.unwrap()`s `sbe_build::compile` by habit: the panic
//! then prints the error's `Debug`, which is its `Display` (file, line,
//! column, what is wrong), not a dump of its fields (issue 42, point 7).

use std::path::PathBuf;

/// A schema whose field names a type that is not defined, at line 13.
fn bad_schema(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sbe-build-error-debug-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="bad" id="1" version="0" byteOrder="littleEndian">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
    </types>
    <sbe:message name="Ping" id="1">
        <field name="updateId" id="1" type="updateID"/>
    </sbe:message>
</sbe:messageSchema>
"#;
    let path = dir.join("bad.xml");
    std::fs::write(&path, xml).unwrap();
    path
}

#[test]
fn debug_prints_what_display_prints() {
    let path = bad_schema("debug");
    let out = path.with_file_name("out");
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[&path])
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("{}:13:", path.display())) && text.contains("updateID"),
        "{text}"
    );
    assert_eq!(format!("{err:?}"), text);

    // What a build script's `.unwrap()` panics with.
    let panic = std::panic::catch_unwind(|| {
        sbe_build::Config::new()
            .out_dir(&out)
            .quiet(true)
            .compile(&[&path])
            .unwrap()
    })
    .unwrap_err();
    let message = panic
        .downcast_ref::<String>()
        .expect("a formatted panic message");
    assert_eq!(
        message,
        &format!("called `Result::unwrap()` on an `Err` value: {text}")
    );
    assert!(!message.contains("Diagnostic {"), "{message}");

    // An I/O error too: the path and why.
    let missing = path.with_file_name("missing.xml");
    let err = sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[&missing])
        .unwrap_err();
    assert_eq!(format!("{err:?}"), err.to_string());
    assert!(
        format!("{err:?}").starts_with(&missing.display().to_string()),
        "{err:?}"
    );
}

#[test]
fn sbe_ir_error_debug_is_its_display() {
    let path = bad_schema("ir");
    let err = sbe_ir::ir::load(&path).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("{}:13:", path.display())),
        "{text}"
    );
    assert_eq!(format!("{err:?}"), text);
}
