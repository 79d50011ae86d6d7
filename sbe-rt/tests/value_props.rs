//! Properties of the value types over arbitrary input: text forms round
//! trip, equality, ordering and hashing agree, conversions are exact or
//! refused, and no string makes a parser panic.

// chrono as a reference only, not through the `chrono` feature's conversions,
// so that these run with the default features too.
use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;
use sbe_rt::{Date, Decimal, MonthYear, TimeUnit, Timestamp};
use std::hash::{BuildHasher, RandomState};

fn decimal() -> impl Strategy<Value = Decimal> {
    (any::<i128>(), any::<i8>()).prop_map(|(m, e)| Decimal::new(m, e))
}

/// Decimals of few digits and exponents, so that equal values collide.
fn small_decimal() -> impl Strategy<Value = Decimal> {
    (-300i128..300, -3i8..3).prop_map(|(m, e)| Decimal::new(m, e))
}

fn hash_of(state: &RandomState, d: &Decimal) -> u64 {
    state.hash_one(d)
}

/// `d`'s mantissa at exponent -3, which every small decimal has exactly.
fn at_milli(d: Decimal) -> i128 {
    d.mantissa() * 10i128.pow(u32::try_from(i32::from(d.exponent()) + 3).unwrap())
}

proptest! {
    #[test]
    fn decimal_text_round_trips(d in decimal()) {
        let text = d.to_string();
        let back: Decimal = text.parse().unwrap();
        prop_assert_eq!(back, d);
        prop_assert_eq!(back.to_string(), text.as_str());
        prop_assert_eq!(back.to_f64(), text.parse::<f64>().unwrap());
    }

    #[test]
    fn decimal_eq_ord_and_hash_agree(a in small_decimal(), b in small_decimal()) {
        let state = RandomState::new();
        prop_assert_eq!(a.cmp(&b), at_milli(a).cmp(&at_milli(b)));
        prop_assert_eq!(a == b, a.cmp(&b).is_eq());
        if a == b {
            prop_assert_eq!(hash_of(&state, &a), hash_of(&state, &b));
        }
    }

    #[test]
    fn decimal_equal_across_exponents(d in decimal(), k in 0u32..40) {
        let state = RandomState::new();
        let scaled = 10i128.checked_pow(k).and_then(|p| d.mantissa().checked_mul(p));
        let exponent = i8::try_from(i32::from(d.exponent()) - k as i32).ok();
        if let (Some(m), Some(e)) = (scaled, exponent) {
            let wide = Decimal::new(m, e);
            prop_assert_eq!(wide, d);
            prop_assert!(wide.cmp(&d).is_eq());
            prop_assert_eq!(hash_of(&state, &wide), hash_of(&state, &d));
            prop_assert_eq!(wide.to_string(), d.to_string());
        }
    }

    #[test]
    fn decimal_order_is_antisymmetric(a in decimal(), b in decimal()) {
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        prop_assert_eq!(a == b, a.cmp(&b).is_eq());
    }

    #[test]
    fn rescale_is_exact_when_ok(d in decimal(), exponent in any::<i8>()) {
        match d.rescale(exponent) {
            Ok(m) => prop_assert_eq!(Decimal::new(m, exponent), d),
            Err(sbe_rt::RangeError::Inexact) => prop_assert!(exponent > d.normalized().exponent()),
            Err(_) => prop_assert!(exponent < d.exponent()),
        }
        let narrow = d.rescale(exponent).ok().and_then(|m| i64::try_from(m).ok());
        prop_assert_eq!(d.mantissa_at::<i64>(exponent).ok(), narrow);
    }

    #[test]
    fn wire_mantissas_convert_in_and_out(m in any::<i64>(), u in any::<u64>(), e in any::<i8>()) {
        prop_assert_eq!(Decimal::from_i64(m, e).mantissa_at::<i64>(e), Ok(m));
        prop_assert_eq!(Decimal::from_u64(u, e).mantissa_at::<u64>(e), Ok(u));
    }

    #[test]
    fn timestamp_text_round_trips(nanos in any::<i128>()) {
        let t = Timestamp::from_nanos(nanos);
        prop_assert_eq!(t.to_string().parse::<Timestamp>(), Ok(t));
    }

    #[test]
    fn timestamp_text_matches_chrono(secs in -62_167_219_200i64..253_402_300_800, ns in 0u32..1_000_000_000) {
        let c = DateTime::<Utc>::from_timestamp(secs, ns).unwrap();
        let t = Timestamp::from_nanos(i128::from(secs) * 1_000_000_000 + i128::from(ns));
        prop_assert_eq!(t.to_string(), c.format("%Y-%m-%dT%H:%M:%S%.9fZ").to_string());
        let offset = c.with_timezone(&chrono::FixedOffset::east_opt(-(secs % 1_440) as i32 * 60).unwrap());
        prop_assert_eq!(offset.to_rfc3339().parse::<Timestamp>(), Ok(t));
    }

    #[test]
    fn timestamp_units_round_trip(i in any::<i64>(), u in any::<u64>(), code in 0usize..4) {
        let unit = TimeUnit::ALL[code];
        prop_assert_eq!(Timestamp::from_units(i, unit).unwrap().to_units::<i64>(unit), Ok(i));
        prop_assert_eq!(Timestamp::from_units(u, unit).unwrap().to_units::<u64>(unit), Ok(u));
    }

    #[test]
    fn date_round_trips_and_steps(days in any::<i32>()) {
        let d = Date::from_days(days);
        prop_assert_eq!(d.to_string().parse::<Date>(), Ok(d));
        let (y, m, day) = d.ymd();
        prop_assert_eq!(Date::from_ymd(y, m, day), Some(d));
        if let Some(next) = days.checked_add(1).map(Date::from_days) {
            let (ny, nm, nd) = next.ymd();
            prop_assert!((ny, nm, nd) > (y, m, day));
            prop_assert!(nd == day + 1 || nd == 1);
        }
    }

    #[test]
    fn date_text_matches_chrono(days in -95_000_000i32..95_000_000) {
        let d = Date::from_days(days);
        // 719,163: chrono's day number of 1970-01-01.
        if let Some(c) = NaiveDate::from_num_days_from_ce_opt(days + 719_163) {
            prop_assert_eq!(d.to_string(), c.to_string());
        }
    }

    #[test]
    fn month_year_round_trips(
        year in 0u16..=9999,
        month in 1u8..=12,
        day in proptest::option::of(1u8..=28),
        week in proptest::option::of(1u8..=5),
    ) {
        let v = MonthYear { year: Some(year), month: Some(month), day, week };
        let back: MonthYear = v.to_string().parse().unwrap();
        // A day takes precedence over a week in the text.
        let expected = if day.is_some() { MonthYear { week: None, ..v } } else { v };
        prop_assert_eq!(back, expected);
    }

    #[test]
    fn what_parses_prints_back_the_same(s in "[-+0-9.eEtTzZw:]{0,40}|[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,10})?(Z|[-+][0-9]{2}:[0-9]{2}))?|[0-9]{6,8}(w[0-9])?|\\PC{0,40}") {
        round_trips::<Decimal>(&s)?;
        round_trips::<Timestamp>(&s)?;
        round_trips::<Date>(&s)?;
        round_trips::<MonthYear>(&s)?;
    }
}

/// No panic on `text`, and if it parses, its value prints as text that
/// parses to the same value.
fn round_trips<T>(text: &str) -> Result<(), TestCaseError>
where
    T: std::str::FromStr + std::fmt::Display + PartialEq + std::fmt::Debug,
{
    if let Ok(value) = text.parse::<T>() {
        prop_assert_eq!(
            value.to_string().parse::<T>().ok(),
            Some(value),
            "{:?}",
            text
        );
    }
    Ok(())
}

#[test]
fn null_month_year_round_trips_and_prints_empty() {
    let nulls = [
        MonthYear::NULL,
        MonthYear {
            year: None,
            month: Some(6),
            day: Some(1),
            week: Some(2),
        },
    ];
    for v in nulls {
        assert!(v.is_null());
        assert_eq!(v.to_string(), "");
    }
    assert_eq!("".parse::<MonthYear>(), Ok(MonthYear::NULL));
}
