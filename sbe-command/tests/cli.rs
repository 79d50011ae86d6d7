//! The real `sbe` binary on the shared data in place: a representative
//! vector of every schema through `decode` and `encode`, files of many
//! messages back to back (raw and SOFH), `layout`, `validate`, `--help`.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;
use test_support::shared_dir;

/// One vector per schema folder (its `-000` file, else the first).
fn representatives(shared: &Path) -> Vec<(PathBuf, Value)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for v in test_support::vectors(shared) {
        let (bin, json) = (v.bin_path, v.json);
        let dir = bin.parent().map(Path::to_path_buf).unwrap_or_default();
        let name = bin.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !v.cross_version && name.ends_with("-000.bin") && seen.insert(dir) {
            out.push((bin, json));
        }
    }
    out
}

fn parse_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}")))
        .collect()
}

#[test]
fn decode_and_encode_one_vector_of_every_schema() {
    let Some(shared) = shared_dir("decode_and_encode_one_vector_of_every_schema") else {
        return;
    };
    let reps = representatives(&shared);
    assert!(reps.len() > 50, "{} schemas", reps.len());
    for (bin, expected) in reps {
        let schema = shared
            .join("corpus")
            .join(expected["schema"].as_str().unwrap_or(""));
        let (schema, bin_s) = (schema.to_string_lossy(), bin.to_string_lossy());
        let (code, out, err) = common::sbe(&["decode", "--schema", &schema, &bin_s], b"");
        assert_eq!(code, 0, "{bin_s}: {err}");
        let got = parse_lines(&out);
        assert_eq!(got.len(), 1, "{bin_s}");
        assert_eq!(
            got[0]["schema"].as_str(),
            Some(&*schema),
            "schema key is the path given"
        );
        if let Some(d) = test_support::diff(
            &test_support::without_schema(&expected),
            &test_support::without_schema(&got[0]),
            "$",
        ) {
            panic!("{bin_s}: {d}");
        }
        let json = bin.with_extension("json");
        let (code, out, err) = common::sbe(
            &["encode", "--schema", &schema, &json.to_string_lossy()],
            b"",
        );
        assert_eq!(code, 0, "{}: {err}", json.display());
        assert_eq!(
            out,
            std::fs::read(&bin).unwrap_or_default(),
            "{}",
            json.display()
        );
    }
}

/// Every vector of the schemas with more than one message, back to back.
#[test]
fn many_vectors_back_to_back_decode_in_order() {
    let Some(shared) = shared_dir("many_vectors_back_to_back_decode_in_order") else {
        return;
    };
    let dir = common::scratch("b2b");
    let mut by_schema: std::collections::BTreeMap<String, (Vec<u8>, Vec<Value>)> =
        Default::default();
    for v in test_support::vectors(&shared) {
        if v.cross_version {
            continue;
        }
        let e = by_schema.entry(v.schema).or_default();
        e.0.extend(v.bin);
        e.1.push(v.json);
    }
    let mut checked = 0;
    for (label, (bytes, expected)) in by_schema {
        if expected.len() < 8 {
            continue;
        }
        let schema = shared.join("corpus").join(&label);
        let schema = schema.to_string_lossy();
        let file = dir.join("all.bin");
        std::fs::write(&file, &bytes).expect("write");
        // From a file and from standard input.
        for input in [file.to_string_lossy().into_owned(), "-".to_string()] {
            let stdin = if input == "-" { bytes.as_slice() } else { b"" };
            let (code, out, err) = common::sbe(&["decode", "--schema", &schema, &input], stdin);
            assert_eq!(code, 0, "{label}: {err}");
            let got = parse_lines(&out);
            assert_eq!(got.len(), expected.len(), "{label}");
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                if let Some(d) = test_support::diff(
                    &test_support::without_schema(e),
                    &test_support::without_schema(g),
                    "$",
                ) {
                    panic!("{label} message {i}: {d}");
                }
            }
        }
        // Encode them all with SOFH framing (the .json files, pretty-printed,
        // one after another) and decode that.
        let mut jsons = Vec::new();
        for e in &expected {
            jsons.extend(serde_json::to_vec_pretty(e).unwrap_or_default());
            jsons.push(b'\n');
        }
        let (code, sofh, err) = common::sbe(
            &["encode", "--schema", &schema, "--framing", "sofh", "-"],
            &jsons,
        );
        assert_eq!(code, 0, "{label}: {err}");
        assert_eq!(sofh.len(), bytes.len() + 6 * expected.len());
        let (code, out, err) = common::sbe(
            &["decode", "--schema", &schema, "--framing", "sofh", "-"],
            &sofh,
        );
        assert_eq!(code, 0, "{label}: {err}");
        assert_eq!(parse_lines(&out).len(), expected.len());
        // --template keeps only the messages asked for.
        let first_id = expected[0]["header"]["templateId"].as_u64().unwrap_or(0);
        let (code, out, _) = common::sbe(
            &[
                "decode",
                "--schema",
                &schema,
                "--template",
                &first_id.to_string(),
                "-",
            ],
            &bytes,
        );
        assert_eq!(code, 0);
        let want = expected
            .iter()
            .filter(|e| e["header"]["templateId"].as_u64() == Some(first_id))
            .count();
        assert_eq!(
            parse_lines(&out).len(),
            want,
            "{label} --template {first_id}"
        );
        checked += 1;
    }
    assert!(checked > 10, "{checked} schemas");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn skip_steps_over_a_file_header() {
    let Some(shared) = shared_dir("skip_steps_over_a_file_header") else {
        return;
    };
    let v = shared.join("vectors/sbe__samples__example-schema/Car-000.bin");
    let schema = shared.join("corpus/sbe/samples/example-schema.xml");
    let mut bytes = b"CAPTURE-HEADER".to_vec();
    bytes.extend(std::fs::read(&v).unwrap_or_default());
    let (code, out, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &schema.to_string_lossy(),
            "--skip",
            "14",
            "-",
        ],
        &bytes,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(parse_lines(&out).len(), 1);
}

#[test]
fn layout_matches_the_reference_layout() {
    let Some(shared) = shared_dir("layout_matches_the_reference_layout") else {
        return;
    };
    let schema = shared.join("corpus/sbe/samples/example-schema.xml");
    let (code, out, err) = common::sbe(&["layout", "--schema", &schema.to_string_lossy()], b"");
    assert_eq!(code, 0, "{err}");
    let got: Value = serde_json::from_slice(&out).expect("layout JSON");
    let want: Value = serde_json::from_slice(
        &std::fs::read(shared.join("vectors/sbe__samples__example-schema/layout.json"))
            .unwrap_or_default(),
    )
    .expect("reference layout");
    assert_eq!(
        test_support::without_schema(&got),
        test_support::without_schema(&want)
    );
}

/// `--meanings` adds each field's meaning after the reference's keys,
/// and nothing else.
#[test]
fn layout_meanings_name_each_fields_kind() {
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/market-data.xml");
    let (code, out, err) = common::sbe(&["layout", "--schema", schema, "--meanings"], b"");
    assert_eq!(code, 0, "{err}");
    let with: Value = serde_json::from_slice(&out).expect("layout JSON");
    let message = &with["messages"][0];
    assert_eq!(message["fields"][0]["meaning"]["kind"], "timestamp");
    assert_eq!(message["fields"][0]["meaning"]["unit"], "unstated");
    let entry = &message["groups"][0]["fields"];
    assert_eq!(entry[2]["name"], "MdEntryPx");
    assert_eq!(entry[2]["meaning"]["kind"], "decimal");
    assert_eq!(entry[2]["meaning"]["exponent"], -7);
    assert_eq!(entry[3]["meaning"]["exponent"], 0);
    assert_eq!(entry[0]["meaning"]["kind"], "plain");
    let (_, plain, _) = common::sbe(&["layout", "--schema", schema], b"");
    let without: Value = serde_json::from_slice(&plain).expect("layout JSON");
    assert!(without["messages"][0]["fields"][0].get("meaning").is_none());
}

/// `--values semantic` writes prices and times as text, and `sbe encode`
/// reads that text back to the same bytes.
#[test]
fn decode_values_semantic_writes_text_that_encode_reads_back() {
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/market-data.xml");
    let wire = r#"{"message":"MarketDataIncrementalRefreshTrades","body":{"TransactTime":1704164645123456789,"EventTimeDelta":1,"MatchEventIndicator":"END_EVENT","MdIncGrp":[{"TradeId":7,"SecurityId":42,"MdEntryPx":{"mantissa":1234500000},"MdEntrySize":{"mantissa":10},"NumberOfOrders":1,"MdUpdateAction":"NEW","RptSeq":1,"AggressorSide":"BUY"}]}}"#;
    let (code, bytes, err) = common::sbe(&["encode", "--schema", schema, "-"], wire.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = common::sbe(
        &["decode", "--schema", schema, "--values", "semantic", "-"],
        &bytes,
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).expect("JSON");
    assert_eq!(v["body"]["TransactTime"], "2024-01-02T03:04:05.123456789Z");
    assert_eq!(v["body"]["MdIncGrp"][0]["MdEntryPx"], "123.45");
    assert_eq!(v["body"]["MdIncGrp"][0]["MdEntrySize"], "10");
    assert_eq!(v["body"]["MdIncGrp"][0]["TradeId"], 7);
    let (code, again, err) = common::sbe(&["encode", "--schema", schema, "-"], &out);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, bytes);
    // A price with more digits than the exponent holds is refused, by path.
    let text = String::from_utf8_lossy(&out).replace("\"123.45\"", "\"123.456789012\"");
    let (code, _, err) = common::sbe(&["encode", "--schema", schema, "-"], text.as_bytes());
    assert_ne!(code, 0);
    assert!(err.contains("MdEntryPx"), "{err}");
}

#[test]
fn validate_reports_errors_with_positions() {
    let dir = common::scratch("validate");
    let bad = dir.join("bad.xml");
    std::fs::write(
        &bad,
        r#"<messageSchema package="x" id="1">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
  </types>
  <message name="M" id="1">
    <field name="a" id="1" type="noSuchType"/>
  </message>
</messageSchema>
"#,
    )
    .expect("write");
    let (code, _, err) = common::sbe(&["validate", "--schema", &bad.to_string_lossy()], b"");
    assert_eq!(code, 1);
    assert!(err.contains("bad.xml:11:"), "{err}");
    assert!(err.contains("error"), "{err}");
    assert!(err.contains("noSuchType"), "{err}");
    let good = dir.join("good.xml");
    std::fs::write(
        &good,
        std::fs::read_to_string(&bad)
            .unwrap_or_default()
            .replace("noSuchType", "uint32"),
    )
    .expect("write");
    let (code, out, err) = common::sbe(&["validate", "--schema", &good.to_string_lossy()], b"");
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&out).contains("ok"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn help_has_an_example_for_every_subcommand() {
    for sub in [
        "layout", "validate", "decode", "encode", "inspect", "generate", "compat",
    ] {
        let (code, out, _) = common::sbe(&[sub, "--help"], b"");
        assert_eq!(code, 0);
        let out = String::from_utf8_lossy(&out);
        assert!(out.contains("Example"), "{sub}: {out}");
        let usage = if sub == "compat" {
            "sbe compat --old".to_string()
        } else {
            format!("sbe {sub} --schema")
        };
        assert!(out.contains(&usage), "{sub}: {out}");
    }
}

#[test]
fn inspect_shows_offsets_bytes_paths_and_values() {
    let Some(shared) = shared_dir("inspect_shows_offsets_bytes_paths_and_values") else {
        return;
    };
    let v = shared.join("vectors/sbe__samples__example-schema/Car-000.bin");
    let schema = shared.join("corpus/sbe/samples/example-schema.xml");
    let (code, out, err) = common::sbe(
        &[
            "inspect",
            "--schema",
            &schema.to_string_lossy(),
            &v.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8_lossy(&out);
    assert!(
        out.starts_with("Car (templateId 1, version 0) at byte 0, 195 bytes"),
        "{out}"
    );
    let row = |needle: &str| {
        out.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no row {needle}: {out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        row("serialNumber"),
        "8 41 c7 04 8f a0 1d f8 de serialNumber = 16066624246075672385"
    );
    assert_eq!(
        row("fuelFigures[0].mpg"),
        "59 00 58 70 c4 fuelFigures[0].mpg = -961.375"
    );
    assert_eq!(
        row("fuelFigures (dimension"),
        "53 06 00 03 00 fuelFigures (dimension: blockLength=6 numInGroup=3)"
    );
    assert!(row("model =").ends_with("model = \"xKsuvZqwy mjA\""));
}

#[test]
fn generate_writes_what_build_rs_writes() {
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/car.xml");
    let dir = common::scratch("generate");
    let (by_cli, by_build) = (dir.join("cli"), dir.join("build"));
    let (code, out, err) = common::sbe(
        &[
            "generate",
            "--schema",
            schema,
            "--out",
            &by_cli.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let written = PathBuf::from(String::from_utf8_lossy(&out).trim());
    assert!(written.starts_with(&by_cli), "{written:?}");
    sbe_build::Config::new()
        .out_dir(&by_build)
        .quiet(true)
        .compile(&[schema])
        .unwrap_or_else(|e| panic!("{e}"));
    let name = written.file_name().expect("file name");
    let a = std::fs::read(&written).expect("cli file");
    let b = std::fs::read(by_build.join(name)).expect("build.rs file");
    assert!(!a.is_empty());
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(dir);
}
