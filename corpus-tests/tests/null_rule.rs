//! One null rule (`sbe_rt::null`) for the generated decoder and the
//! run-time codec behind `sbe decode` (fixture `nulls.xml`): a float whose
//! declared null is 0.0 reads -0.0 as a value (compared by bits), the NaN
//! default makes every NaN null, an integer and a char are null at their
//! declared value; both decoders give the same JSON for each.

mod common;

use corpus_tests::s_fixture_nulls as nulls;

/// A `Reading` with the given values (`None`: the field's null).
fn reading(
    f: Option<f32>,
    d: Option<f64>,
    n: Option<f64>,
    i: Option<i16>,
    c: Option<u8>,
) -> Vec<u8> {
    let mut buf = vec![0u8; 64];
    let mut e = nulls::ReadingEncoder::wrap(&mut buf).unwrap();
    e.f(f).d(d).n(n).i(i).c(c);
    let len = e.finish().unwrap();
    buf.truncate(len);
    buf
}

/// The generated JSON's body for `bytes`, checked to be `sbe decode`'s
/// text.
fn both_json(bytes: &[u8]) -> serde_json::Value {
    let generated = nulls::decode(bytes).unwrap().to_json();
    assert_eq!(
        generated,
        common::run_time_json("sbe-build/tests/fixtures/nulls.xml", bytes),
        "generated and run-time JSON differ"
    );
    let value: serde_json::Value = serde_json::from_str(&generated).unwrap();
    value["body"].clone()
}

#[test]
fn minus_zero_is_a_value_where_the_null_is_zero() {
    let bytes = reading(Some(-0.0), Some(-0.0), Some(1.5), Some(8), Some(b'A'));
    let nulls::Message::Reading(r) = nulls::decode(&bytes).unwrap();
    assert_eq!(r.f().map(f32::to_bits), Some((-0.0f32).to_bits()));
    assert_eq!(r.d().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert_eq!((r.n(), r.i(), r.c()), (Some(1.5), Some(8), Some(b'A')));
    let body = both_json(&bytes);
    assert_eq!(body["f"].as_f64(), Some(-0.0));
    assert!(body["f"].as_f64().is_some_and(|v| v.is_sign_negative()));
    assert_eq!(body["c"], "A");
}

#[test]
fn declared_nulls_and_any_nan_are_null() {
    let bytes = reading(None, None, None, None, None);
    let nulls::Message::Reading(r) = nulls::decode(&bytes).unwrap();
    assert_eq!(
        (r.f(), r.d(), r.n(), r.i(), r.c()),
        (None, None, None, None, None)
    );
    let body = both_json(&bytes);
    for key in ["f", "d", "n", "i", "c"] {
        assert!(body[key].is_null(), "{key}: {}", body[key]);
    }
    // A NaN other than the canonical one is null too.
    let odd_nan = f64::from_bits(0x7ff8_0000_0000_0001);
    let bytes = reading(Some(1.0), Some(1.0), Some(odd_nan), Some(0), Some(0));
    let nulls::Message::Reading(r) = nulls::decode(&bytes).unwrap();
    assert_eq!((r.n(), r.c()), (None, None));
    let body = both_json(&bytes);
    assert!(body["n"].is_null() && body["c"].is_null());
    assert_eq!(body["i"], 0);
}
