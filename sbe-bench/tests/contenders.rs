//! Every contender encodes the same bytes and folds the same checksum, and
//! the hand-written car encoder matches the reference implementation's
//! golden bytes.

use sbe_bench::data::{CAR, CAR_LEN, MD, MD_LEN};
use sbe_bench::streams::{car_message, md_message};
use sbe_bench::{ergo, raw, this};

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/corpus/sbe/golden/car_example_baseline_data.sbe"
);

fn raw_car() -> Vec<u8> {
    let car = car_message();
    assert_eq!(car.len(), CAR_LEN);
    car
}

fn raw_md() -> Vec<u8> {
    let md = md_message();
    assert_eq!(md.len(), MD_LEN);
    md
}

#[test]
fn raw_car_matches_the_reference_golden_bytes() {
    let Ok(golden) = std::fs::read(GOLDEN) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{GOLDEN} is missing"
        );
        eprintln!("skipped: {GOLDEN} not found (../shared is not beside this checkout)");
        return;
    };
    assert_eq!(raw_car(), golden);
}

#[test]
fn this_encodes_the_same_bytes() {
    let mut buf = [0u8; 256];
    let n = this::car_encode(&CAR, &mut buf).unwrap();
    assert_eq!(buf[..n], raw_car()[..]);
    let n = this::md_encode(&MD, &mut buf).unwrap();
    assert_eq!(buf[..n], raw_md()[..]);
}

#[test]
fn ergo_encodes_the_same_bytes() {
    let mut buf = [0u8; 256];
    let n = ergo::car_encode(&CAR, &mut buf).unwrap();
    assert_eq!(buf[..n], raw_car()[..]);
    let n = ergo::md_encode(&MD, &mut buf).unwrap();
    assert_eq!(buf[..n], raw_md()[..]);
}

#[test]
fn decoders_agree() {
    let car = raw_car();
    let sum = raw::car_decode(&car).unwrap();
    assert_ne!(sum, 0);
    assert_eq!(ergo::car_decode(&car).unwrap(), sum);
    assert_eq!(this::car_decode(&car).unwrap(), sum);
    assert_eq!(this::car_some_numbers(&car).unwrap(), CAR.some_numbers);
    assert_eq!(raw::car_some_numbers(&car).unwrap(), CAR.some_numbers);
    assert_eq!(ergo::car_some_numbers(&car).unwrap(), CAR.some_numbers);

    let md = raw_md();
    let sum = raw::md_decode(&md).unwrap();
    assert_eq!(ergo::md_decode(&md).unwrap(), sum);
    assert_eq!(this::md_decode(&md).unwrap(), sum);
    assert_eq!(this::md_len(&md).unwrap(), Some(MD_LEN));
    assert_eq!(raw::md_len(&md).unwrap(), Some(MD_LEN));
    assert_eq!(ergo::md_len(&md).unwrap(), Some(MD_LEN));
}

#[test]
fn short_buffers_are_errors_not_panics() {
    let car = raw_car();
    for cut in 0..car.len() {
        assert!(raw::car_decode(&car[..cut]).is_err(), "cut {cut}");
        assert!(ergo::car_decode(&car[..cut]).is_err(), "cut {cut}");
        assert!(this::car_decode(&car[..cut]).is_err(), "cut {cut}");
        let mut buf = vec![0u8; cut];
        assert!(raw::car_encode(&CAR, &mut buf).is_err());
        assert!(ergo::car_encode(&CAR, &mut buf).is_err());
        assert!(this::car_encode(&CAR, &mut buf).is_err());
    }
    let md = raw_md();
    for cut in 0..md.len() {
        assert!(raw::md_decode(&md[..cut]).is_err(), "cut {cut}");
        assert!(ergo::md_decode(&md[..cut]).is_err(), "cut {cut}");
        assert!(this::md_decode(&md[..cut]).is_err(), "cut {cut}");
        let mut buf = vec![0u8; cut];
        assert!(raw::md_encode(&MD, &mut buf).is_err());
        assert!(ergo::md_encode(&MD, &mut buf).is_err());
        assert!(this::md_encode(&MD, &mut buf).is_err());
        // A length function may tell the length before the whole message
        // is there (the framer then waits for the rest), never a wrong one.
        for len in [
            raw::md_len(&md[..cut]),
            ergo::md_len(&md[..cut]),
            this::md_len(&md[..cut]),
        ] {
            // (`Err(Truncated)` means "more bytes needed" to the framer).
            assert!(
                matches!(len, Ok(None) | Ok(Some(MD_LEN)))
                    || matches!(len, Err(e) if e.error_kind() == sbe_rt::ErrorKind::Truncated),
                "cut {cut}: {len:?}"
            );
        }
    }
}
