//! Snapshot tests of generated code (prost-build style): each
//! `tests/fixtures/<name>.xml` is generated and compared with the checked-in
//! `tests/fixtures/<name>.rs`. Run with `SBE_BLESS=1` to update them.

use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[test]
fn generated_code_matches_snapshots() {
    let bless = std::env::var("SBE_BLESS").is_ok_and(|v| v == "1");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("fixtures dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    schemas.sort();
    let mut failures = Vec::new();
    for xml in &schemas {
        let schema = sbe_ir::ir::load(xml).expect("fixture schema loads");
        let text = sbe_build::generate(&schema, &sbe_build::Config::new()).expect("generates");
        let expected_path = xml.with_extension("rs");
        if bless {
            std::fs::write(&expected_path, &text).expect("write snapshot");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != text {
            failures.push(format!(
                "{}:\n{}",
                expected_path.display(),
                first_lines_that_differ(&expected, &text)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "generated code differs from the snapshots (rerun with SBE_BLESS=1 to update):\n\n{}",
        failures.join("\n")
    );
}

/// The first lines where `got` differs from `want`, numbered, `-` for the
/// snapshot's and `+` for the generated ones, a few of each.
fn first_lines_that_differ(want: &str, got: &str) -> String {
    const SHOWN: usize = 6;
    let (want, got): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let Some(first) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) else {
        return "  (the same lines; the line endings differ)\n".into();
    };
    let mut out = String::new();
    for (mark, lines) in [('-', &want), ('+', &got)] {
        let shown = lines.iter().enumerate().skip(first).take(SHOWN);
        for (i, line) in shown {
            out.push_str(&format!("{mark}{:>6} | {line}\n", i + 1));
        }
        if lines.len() <= first {
            out.push_str(&format!("{mark}{:>6} | (end of file)\n", lines.len() + 1));
        }
    }
    out
}

#[test]
fn generation_is_deterministic() {
    let xml = fixtures().join("tiny.xml");
    let schema = sbe_ir::ir::load(&xml).unwrap();
    let a = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
    let b = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn compile_writes_one_file_per_package_and_only_when_changed() {
    let out = std::env::temp_dir().join(format!("sbe-build-compile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[fixtures().join("tiny.xml")])
        .unwrap();
    let file = out.join("tiny_demo.rs");
    let first = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .compile(&[fixtures().join("tiny.xml")])
        .unwrap();
    let second = std::fs::metadata(&file).unwrap().modified().unwrap();
    assert_eq!(first, second, "unchanged output must not be rewritten");
    sbe_build::Config::new()
        .out_dir(&out)
        .quiet(true)
        .file_name("tiny.demo", "renamed")
        .json(false)
        .compile(&[fixtures().join("tiny.xml")])
        .unwrap();
    let renamed = std::fs::read_to_string(out.join("renamed.rs")).unwrap();
    assert!(!renamed.contains("to_json"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_schema_error_names_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("sbe-build-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let xml = dir.join("bad.xml");
    std::fs::write(
        &xml,
        "<messageSchema package=\"x\" id=\"1\">\n  <types/>\n  <message name=\"M\" id=\"1\">\n    <field name=\"a\" id=\"1\" type=\"nope\"/>\n  </message>\n</messageSchema>\n",
    )
    .unwrap();
    let err = sbe_build::Config::new()
        .out_dir(&dir)
        .quiet(true)
        .compile(&[&xml])
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("bad.xml:4:5"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_shape_the_output() {
    let schema = sbe_ir::ir::load(fixtures().join("tiny.xml")).unwrap();
    let mut config = sbe_build::Config::new();
    config
        .type_attribute("Side", "#[derive(PartialOrd)]")
        .type_attribute(".", "#[must_use]");
    let text = config.generate(&schema).unwrap();
    assert_eq!(text.matches("#[derive(PartialOrd)]").count(), 1);
    assert_eq!(
        text.matches("#[must_use]\npub").count(),
        2,
        "Side and Flags"
    );
    assert_eq!(config.file_name_for(&schema), "tiny_demo.rs");
    let plain = config.json(false).debug(false).generate(&schema).unwrap();
    assert!(!plain.contains("to_json") && !plain.contains("debug_impl!(decoder OrderDecoder)"));
    assert!(plain.contains("pub fn decode("));
    // Keywords are escaped (the accessor is `sbe_rt::getter!`'s),
    // deprecated fields marked.
    assert!(
        text.contains("enum #[doc = r\" `type` (id 2, offset 8, type `Side`).\"] r#type : Side")
    );
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(one_line.contains("#[deprecated(note = \"deprecated since schema version 1\")]"));
}

#[test]
fn the_schema_id_and_description_are_two_items() {
    let xml = r#"<messageSchema package="mktdata" id="1" description="20180308">
      <types><composite name="messageHeader">
        <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
        <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
      </composite></types>
    </messageSchema>"#;
    let schema = sbe_ir::ir::load_str("d.xml", xml).unwrap();
    let text = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
    assert!(
        text.contains(
            "/// The schema's `id` (package `mktdata`).\npub const SCHEMA_ID: u64 = 1u64;"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "/// The schema's `description`.\npub const SCHEMA_DESCRIPTION: &str = \"20180308\";"
        ),
        "{text}"
    );
}

#[test]
fn a_described_item_still_names_its_schema_element() {
    let schema = sbe_ir::ir::load(fixtures().join("tiny.xml")).unwrap();
    let text = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
    for (description, named) in [
        ("/// Buy or sell.", "/// Enum `Side`, encoded as char"),
        ("/// An order.", "/// Decoder of message `Order`"),
    ] {
        assert!(
            text.contains(&format!("{description}\n///\n{named}")),
            "{description} then {named}"
        );
    }
}

/// The generated code goes through syn before it is printed: a user
/// attribute syn cannot read is a configuration error, not a panic.
#[test]
fn an_attribute_syn_cannot_read_is_refused() {
    let schema = sbe_ir::ir::load(fixtures().join("tiny.xml")).unwrap();
    for attribute in ["#[derive(Ord)] #[foo bar]", "#[doc = struct]"] {
        let err = sbe_build::Config::new()
            .type_attribute(".", attribute)
            .generate(&schema)
            .unwrap_err();
        assert!(
            matches!(err, sbe_build::Error::TypeAttribute { .. }),
            "{attribute}: {err}"
        );
    }
}
