//! `sbe decode --values semantic` on every golden vector: each decimal is
//! the exact decimal string of mantissa × 10^exponent (computed here,
//! independently, from the wire form), every value without a text form is
//! as in wire mode, and `sbe encode` reads the semantic JSON back to the
//! same values.

use std::collections::HashMap;
use std::path::Path;

use sbe_ir::ir::Schema;
use sbe_otf::semantic::Values;
use sbe_otf::Codec;
use serde_json::Value;
use test_support::{shared_dir, vectors};

/// `mantissa × 10^exponent` as the shortest exact decimal text, by string
/// arithmetic on the digits (no decimal type).
fn decimal_text(mantissa: &Value, exponent: i64) -> String {
    let digits = mantissa.to_string();
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(d) => ("-", d.to_string()),
        None => ("", digits),
    };
    if digits == "0" {
        return "0".into();
    }
    let text = if exponent >= 0 {
        format!("{digits}{}", "0".repeat(exponent as usize))
    } else {
        let places = (-exponent) as usize;
        let padded = format!(
            "{}{digits}",
            "0".repeat(places.saturating_sub(digits.len()) + 1)
        );
        let (int, frac) = padded.split_at(padded.len() - places);
        let int = int.trim_start_matches('0');
        let frac = frac.trim_end_matches('0');
        match (int.is_empty(), frac.is_empty()) {
            (_, true) => {
                if int.is_empty() {
                    "0".into()
                } else {
                    int.to_string()
                }
            }
            (true, false) => format!("0.{frac}"),
            (false, false) => format!("{int}.{frac}"),
        }
    };
    format!("{sign}{text}")
}

/// Walks the wire and semantic forms of one message together: counts the
/// decimals checked, and fails on any other difference than a typed
/// value's text.
fn compare(wire: &Value, semantic: &Value, path: &str, decimals: &mut usize) -> Result<(), String> {
    match (wire, semantic) {
        (Value::Object(w), Value::String(s)) if w.contains_key("mantissa") => {
            let exponent = w.get("exponent").and_then(Value::as_i64).unwrap_or(0);
            let m = &w["mantissa"];
            if m.is_null() {
                return Err(format!("{path}: null mantissa gave {s:?}, not null"));
            }
            let want = decimal_text(m, exponent);
            *decimals += 1;
            (want == *s)
                .then_some(())
                .ok_or(format!("{path}: {s:?}, expected {want:?} from {w:?}"))
        }
        (Value::Object(w), Value::Object(s)) => {
            if w.len() != s.len() {
                return Err(format!("{path}: keys differ"));
            }
            for (k, wv) in w {
                let sv = s.get(k).ok_or(format!("{path}.{k} missing"))?;
                compare(wv, sv, &format!("{path}.{k}"), decimals)?;
            }
            Ok(())
        }
        (Value::Array(w), Value::Array(s)) if w.len() == s.len() => w
            .iter()
            .zip(s)
            .enumerate()
            .try_for_each(|(i, (wv, sv))| compare(wv, sv, &format!("{path}[{i}]"), decimals)),
        // A timestamp, date or MonthYear as text: checked by shape.
        (Value::Number(_) | Value::Object(_), Value::String(s)) => {
            let shaped = s.ends_with('Z') && s.contains('T')
                || s.len() == 10 && s.as_bytes().get(4) == Some(&b'-')
                || s.bytes().all(|b| b.is_ascii_digit() || b == b'w');
            shaped
                .then_some(())
                .ok_or(format!("{path}: {s:?} for {wire}"))
        }
        (Value::Object(_), Value::Null) => Ok(()), // a null MonthYear or decimal part
        (w, s) => (w == s).then_some(()).ok_or(format!("{path}: {s} for {w}")),
    }
}

#[test]
fn semantic_decimals_are_the_exact_value_of_every_golden_vector() {
    let Some(shared) = shared_dir("semantic_decimals_are_the_exact_value") else {
        return;
    };
    let corpus = shared.join("corpus");
    let mut schemas: HashMap<String, Schema> = HashMap::new();
    let (mut checked, mut decimals, mut failures) = (0, 0, Vec::new());
    for v in vectors(&shared) {
        let schema = schemas.entry(v.schema.clone()).or_insert_with(|| {
            sbe_ir::ir::load(corpus.join(Path::new(&v.schema))).expect("corpus schema")
        });
        let Ok(codec) = Codec::new(schema) else {
            continue;
        };
        let Ok((wire, _)) = codec.decode_value(&v.bin, None) else {
            continue;
        };
        let semantic_codec = Codec::new(schema)
            .expect("codec")
            .with_values(Values::Semantic);
        let (semantic, _) = semantic_codec
            .decode_value(&v.bin, None)
            .expect("decodes as in wire mode");
        let name = v.json_path.display();
        if let Err(e) = compare(&wire, &semantic, "$", &mut decimals) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        // Read back: the semantic JSON encodes to a message whose values
        // are the same.
        let mut bytes = Vec::new();
        match codec.encode_value(&semantic, &mut bytes) {
            Ok(_) => match semantic_codec.decode_value(&bytes, None) {
                Ok((again, _)) if again == semantic => {}
                other => failures.push(format!("{name}: re-encoded reads {other:?}")),
            },
            Err(e) => failures.push(format!("{name}: sbe encode refused its semantic JSON: {e}")),
        }
        checked += 1;
    }
    assert!(
        checked > 1000,
        "expected the golden vectors, checked {checked}"
    );
    assert!(
        decimals > 100,
        "expected decimals in the vectors, found {decimals}"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_independent_decimal_text_is_right() {
    use serde_json::json;
    assert_eq!(decimal_text(&json!(1_234_500_000), -7), "123.45");
    assert_eq!(decimal_text(&json!(1), -9), "0.000000001");
    assert_eq!(decimal_text(&json!(-5), 2), "-500");
    assert_eq!(decimal_text(&json!(0), -3), "0");
    assert_eq!(decimal_text(&json!(1500), -3), "1.5");
    assert_eq!(decimal_text(&json!(9_000), -3), "9");
}
