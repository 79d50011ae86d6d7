//! Every golden vector in ../shared/vectors decodes, and its `to_json`
//! equals the reference's JSON under FORMAT.md's rules; every
//! `.as-vK.json` (another version of the schema reading the same bytes)
//! holds too. Prefixes and corrupted copies of every vector never panic,
//! and the schema's `message_length` agrees with `decode` on all of them.

mod common;

use common::shared_dir;
use test_support::{diff, vectors, without_schema};

#[test]
fn every_golden_vector_decodes_to_the_reference_json() {
    let Some(shared) = shared_dir("every_golden_vector_decodes_to_the_reference_json") else {
        return;
    };
    let vs = vectors(&shared);
    assert!(!vs.is_empty());
    let mut failures = Vec::new();
    for v in &vs {
        let Some((decode, _)) = corpus_tests::schema(&v.schema) else {
            failures.push(format!(
                "{}: schema {} not compiled",
                v.json_path.display(),
                v.schema
            ));
            continue;
        };
        match decode(&v.bin) {
            Ok((json, len)) => {
                let actual: serde_json::Value = match serde_json::from_str(&json) {
                    Ok(a) => a,
                    Err(e) => {
                        failures.push(format!(
                            "{}: invalid JSON {e}: {json}",
                            v.json_path.display()
                        ));
                        continue;
                    }
                };
                if let Some(d) = diff(&without_schema(&v.json), &actual, "") {
                    failures.push(format!("{}: {d}", v.json_path.display()));
                }
                if !v.cross_version && len != v.bin.len() {
                    failures.push(format!(
                        "{}: encoded_length {len} != {} bytes",
                        v.json_path.display(),
                        v.bin.len()
                    ));
                }
            }
            Err(e) => failures.push(format!("{}: decode error {e}", v.json_path.display())),
        }
    }
    eprintln!("{} vectors checked, {} failures", vs.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} vectors differ:\n{}",
        failures.len(),
        vs.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn prefixes_and_corruptions_never_panic() {
    let Some(shared) = shared_dir("prefixes_and_corruptions_never_panic") else {
        return;
    };
    let mut runs = 0usize;
    for v in &vectors(&shared) {
        let (decode, length) = corpus_tests::schema(&v.schema).expect("schema compiled");
        // `message_length` checks what `decode` checks, in the same order:
        // the same length, or the same error.
        let agree = |buf: &[u8]| {
            let got = length(buf);
            assert_eq!(
                got,
                decode(buf).map(|(_, len)| len),
                "{}",
                v.json_path.display()
            );
            got
        };
        // A reader of another version of the schema: only the agreement.
        if v.cross_version {
            let _ = agree(&v.bin);
            runs += 1;
            continue;
        }
        // Every prefix: values or an error, never a panic.
        for n in 0..v.bin.len() {
            assert!(
                matches!(
                    agree(&v.bin[..n]).map_err(|e| e.error_kind()),
                    Err(sbe_rt::ErrorKind::Truncated)
                ),
                "{}: a prefix of {n} bytes",
                v.json_path.display()
            );
            runs += 1;
        }
        // Every byte replaced: huge counts and lengths, bad enum values,
        // bad template and schema ids, short block lengths.
        let mut buf = v.bin.clone();
        for i in 0..buf.len() {
            let orig = buf[i];
            for x in [0xff, 0x00, 0x80, orig ^ 0x01] {
                buf[i] = x;
                let _ = agree(&buf); // asserts the agreement
                runs += 1;
            }
            buf[i] = orig;
        }
        // Trailing garbage is not part of the message.
        let mut long = v.bin.clone();
        long.extend_from_slice(&[0xff; 16]);
        let (_, len) = decode(&long).unwrap_or_else(|e| panic!("{}: {e}", v.json_path.display()));
        assert_eq!(len, v.bin.len(), "{}", v.json_path.display());
        assert_eq!(length(&long), Ok(len), "{}", v.json_path.display());
    }
    eprintln!("{runs} decodes of prefixes, corruptions and other versions, none panicked");
}

/// Every golden vector read into its schema's `OwnedMessage` and written
/// again (through the message's encoder) gives back its bytes, and
/// `encoded_length` (the encoder's `exact_length`, computed before
/// writing) says how many, and a buffer one byte shorter is refused
/// (issue 40; `exact_length.rs` checks that `wrap_exact` refuses it
/// before writing, with the whole length needed).
#[test]
fn every_golden_vector_round_trips_through_its_owned_message() {
    let Some(shared) = shared_dir("every_golden_vector_round_trips_through_its_owned_message")
    else {
        return;
    };
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for v in vectors(&shared).iter().filter(|v| !v.cross_version) {
        let Some(round_trip) = corpus_tests::owned(&v.schema) else {
            failures.push(format!("{}: no owned messages", v.json_path.display()));
            continue;
        };
        checked += 1;
        let n = v.bin.len();
        let refused_whole = |e: &Option<sbe_rt::Error>| {
            e.is_some_and(|e| e.error_kind() == sbe_rt::ErrorKind::BufferTooSmall)
        };
        match round_trip(&v.bin) {
            Ok((bytes, len, short)) if bytes == v.bin && len == n && refused_whole(&short) => {}
            Ok((bytes, len, short)) if bytes == v.bin && len == n => failures.push(format!(
                "{}: a buffer of {} bytes gave {short:?}, not BufferTooSmall",
                v.json_path.display(),
                n - 1
            )),
            Ok((bytes, len, _)) => failures.push(format!(
                "{}: wrote {} bytes (encoded_length {len}), {} expected; first difference at {:?}",
                v.json_path.display(),
                bytes.len(),
                v.bin.len(),
                bytes.iter().zip(&v.bin).position(|(a, b)| a != b)
            )),
            Err(e) => failures.push(format!("{}: {e}", v.json_path.display())),
        }
    }
    eprintln!(
        "{checked} vectors round-tripped, {} failures",
        failures.len()
    );
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} vectors do not round-trip:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every golden vector's owned message serializes (serde_json) to the body
/// of its `to_json` (FORMAT.md's JSON: the same values; floats are
/// compared as numbers, as serde_json spells them its own way), and that
/// body deserialized gives an owned message that encodes to the vector's
/// bytes.
#[test]
fn every_golden_vector_goes_through_serde() {
    let Some(shared) = shared_dir("every_golden_vector_goes_through_serde") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut checked, mut same_text) = (0usize, 0usize);
    for v in vectors(&shared).iter().filter(|v| !v.cross_version) {
        let Some(run) = corpus_tests::serde(&v.schema) else {
            failures.push(format!("{}: no serde", v.json_path.display()));
            continue;
        };
        checked += 1;
        let run = match run(&v.bin) {
            Ok(run) => run,
            Err(e) => {
                failures.push(format!("{}: {e}", v.json_path.display()));
                continue;
            }
        };
        let whole: serde_json::Value = serde_json::from_str(&run.to_json).expect("to_json is JSON");
        let body = whole.get("body").cloned().unwrap_or_default();
        let body_text = body.to_string();
        if body_text == run.json {
            same_text += 1;
        }
        match serde_json::from_str::<serde_json::Value>(&run.json) {
            Ok(ours) => {
                if let Some(d) = diff(&body, &ours, "") {
                    failures.push(format!("{}: serialized: {d}", v.json_path.display()));
                }
            }
            Err(e) => failures.push(format!("{}: not JSON: {e}", v.json_path.display())),
        }
        match &run.message {
            Ok(bytes) if *bytes == v.bin => {}
            Ok(_) => failures.push(format!(
                "{}: to_json read as OwnedMessage encodes to other bytes",
                v.json_path.display()
            )),
            Err(e) => failures.push(format!("{}: OwnedMessage: {e}", v.json_path.display())),
        }
        match run.bytes {
            Ok(bytes) if bytes == v.bin => {}
            Ok(bytes) => failures.push(format!(
                "{}: deserialized and encoded: {} bytes, {} expected; first difference at {:?}",
                v.json_path.display(),
                bytes.len(),
                v.bin.len(),
                bytes.iter().zip(&v.bin).position(|(a, b)| a != b)
            )),
            Err(e) => failures.push(format!("{}: {e}", v.json_path.display())),
        }
    }
    eprintln!(
        "{checked} vectors through serde, {same_text} serialized to to_json's exact text, {} failures",
        failures.len()
    );
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
