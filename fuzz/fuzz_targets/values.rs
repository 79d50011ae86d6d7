//! The value types' parsers on any string, and Decimal's arithmetic on
//! any mantissa and exponent: no panic, and what parses prints back to
//! text that parses to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbe_rt::{Date, Decimal, MonthYear, Timestamp};
use std::fmt::Display;
use std::str::FromStr;

fn round_trips<T: FromStr + Display + PartialEq + std::fmt::Debug>(text: &str) {
    if let Ok(value) = text.parse::<T>() {
        let printed = value.to_string();
        assert_eq!(printed.parse::<T>().ok(), Some(value), "{text:?} printed {printed:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        round_trips::<Decimal>(text);
        round_trips::<Timestamp>(text);
        round_trips::<Date>(text);
        round_trips::<MonthYear>(text);
    }
    if let (Some(m), Some((&e, rest))) = (data.get(..16), data.get(16..).and_then(<[u8]>::split_first)) {
        let d = Decimal::new(i128::from_le_bytes(m.try_into().unwrap()), e as i8);
        let target = rest.first().map_or(0, |&t| t as i8);
        if let Ok(m) = d.rescale(target) {
            assert_eq!(Decimal::new(m, target), d);
        }
        let _ = (d.to_f64(), d.normalized(), d.cmp(&Decimal::new(1, target)));
    }
});
