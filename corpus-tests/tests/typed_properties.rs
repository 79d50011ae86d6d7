//! Property tests through the typed generated encoders, with drivers
//! test-support's `drive::gen` wrote from each schema's IR (build.rs):
//! for every message of car and market data and, with ../shared, of the
//! reference's market-data sample, CME MDP3 and CME iLink 3,
//! - random values through the typed setters, group starters,
//!   `next_entry` and var-data writers, into a buffer of random size, then
//!   the generated decoder: the same values back through the typed
//!   getters, `checked_length` the length; the same bytes in any buffer
//!   that holds them and a clean `Err` in any that does not (drive's
//!   `roundtrip`);
//! - `sbe decode`'s run-time codec reads the bytes to the JSON the
//!   generated `to_json` gives;
//! - with values the JSON mapping gives back exactly (canonical), `sbe
//!   encode`'s codec encodes that JSON to the typed encoder's bytes.
//!
//! Bounded (a few dozen cases over all messages) so `cargo test` stays fast.

mod common;

use proptest::prelude::*;
use sbe_otf::Codec;
use test_support::drive::{roundtrip, Drivers};

include!(concat!(env!("OUT_DIR"), "/drivers.rs"));

/// Where each schema's drivers are and its IR.
fn schema_path(key: &str) -> std::path::PathBuf {
    let repo = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    match key.strip_prefix("repo/") {
        Some(own) => repo.join(own),
        None => repo.join("../shared/corpus").join(key),
    }
}

struct Loaded {
    drivers: &'static Drivers,
    schema: sbe_ir::ir::Schema,
    decode: corpus_tests::DecodeFn,
}

fn loaded() -> &'static [Loaded] {
    static LOADED: std::sync::OnceLock<Vec<Loaded>> = std::sync::OnceLock::new();
    LOADED.get_or_init(|| {
        DRIVERS
            .iter()
            .map(|d| Loaded {
                drivers: d,
                schema: sbe_ir::ir::load(schema_path(d.key)).expect("schema loads"),
                decode: corpus_tests::schema(d.key).expect("schema compiled").0,
            })
            .collect()
    })
}

/// Every message of every schema with the values `data` gives.
fn check_all(data: &[u8], buf_frac: u16, canonical: bool) -> Result<(), TestCaseError> {
    let mut big = vec![0u8; 1 << 18];
    for l in loaded() {
        let codec = Codec::new(&l.schema).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (i, name) in l.drivers.messages.iter().enumerate() {
            let what = format!("{} {name}", l.drivers.key);
            // A buffer size around the message's: from none to 1.5 times.
            let buf_len = |len: Option<usize>| len.unwrap_or(64) * usize::from(buf_frac) / 1000;
            let Some(len) = roundtrip(l.drivers, i, data, canonical, buf_len, &mut big) else {
                continue;
            };
            let bytes = &big[..len];
            let (json, n) =
                (l.decode)(bytes).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
            prop_assert_eq!(n, len, "{}", what);
            let (value, decoded) = codec
                .decode_value(bytes, None)
                .map_err(|e| TestCaseError::fail(format!("{what}: run-time decode: {e}")))?;
            prop_assert_eq!(decoded.len, len, "{}", what);
            let generated: serde_json::Value =
                serde_json::from_str(&json).expect("generated JSON parses");
            if let Some(d) = test_support::diff_exact(&value, &generated, "$") {
                return Err(TestCaseError::fail(format!(
                    "{what}: run-time and generated JSON differ: {d}"
                )));
            }
            if canonical {
                let mut again = Vec::new();
                codec.encode_value(&value, &mut again).map_err(|e| {
                    TestCaseError::fail(format!("{what}: run-time encode: {e}: {value}"))
                })?;
                if again != bytes {
                    let at = again.iter().zip(bytes).position(|(a, b)| a != b);
                    return Err(TestCaseError::fail(format!(
                        "{what}: the run-time encoder's {} bytes differ from the typed encoder's {len} (first at {at:?}): {value}",
                        again.len()
                    )));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    // No failure file: a failing input is in the message, and the test
    // runs in place from a checkout that may be read-only (CI). 24 cases
    // unless PROPTEST_CASES asks for more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Anything the typed encoders take: NaNs, unknown enum values, NULs
    /// in text, values too long or counts too high (a clean `Err`).
    #[test]
    fn typed_encoders_round_trip(data in proptest::collection::vec(any::<u8>(), 0..768), buf_frac in 0u16..1500) {
        check_all(&data, buf_frac, false)?;
    }

    /// Values the JSON mapping gives back exactly: the run-time encoder
    /// writes the typed encoder's bytes.
    #[test]
    fn typed_and_run_time_encoders_agree(data in proptest::collection::vec(any::<u8>(), 0..768), buf_frac in 0u16..1500) {
        check_all(&data, buf_frac, true)?;
    }
}

/// The drivers cover what the issue names: with ../shared, the market
/// data sample, MDP3 and iLink 3 beside the repo's schemas.
#[test]
fn drivers_cover_the_named_schemas() {
    let keys: Vec<&str> = DRIVERS.iter().map(|d| d.key).collect();
    assert!(keys.contains(&"repo/schemas/car.xml"));
    if common::shared_dir("drivers_cover_the_named_schemas").is_some() {
        for key in [
            "sbe/benchmarks/fix-message-samples.xml",
            "sbe/tests/FixBinary.xml",
            "sbe/tests/ilinkbinary.xml",
        ] {
            assert!(keys.contains(&key), "{key} has no drivers");
        }
    }
}
