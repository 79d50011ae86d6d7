//! Days since the Unix epoch to and from proleptic Gregorian dates (Howard
//! Hinnant's `civil_from_days` / `days_from_civil`), in checked `i128` so
//! that any day count a [`Timestamp`](super::Timestamp) or a
//! [`Date`](super::Date) holds converts without overflow; and the year form
//! both print and parse.

use super::scan::{number, Scan};
use super::ParseError;
use core::fmt;

/// Days from 0000-03-01 to 1970-01-01.
const EPOCH_SHIFT: i128 = 719_468;
/// Days in a 400-year era.
const ERA_DAYS: i128 = 146_097;

/// The (year, month 1-12, day 1-31) of a day count; `None` only when the
/// count is within 719,468 of `i128`'s limits.
pub(crate) fn civil_from_days(days: i128) -> Option<(i128, u8, u8)> {
    let z = days.checked_add(EPOCH_SHIFT)?;
    let era = z.div_euclid(ERA_DAYS);
    let doe = z.rem_euclid(ERA_DAYS); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March first
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = era
        .checked_mul(400)?
        .checked_add(yoe + i128::from(month <= 2))?;
    Some((year, u8::try_from(month).ok()?, u8::try_from(day).ok()?))
}

/// The day count of a valid date; `None` if the date does not exist or the
/// count overflows.
pub(crate) fn days_from_civil(year: i128, month: u8, day: u8) -> Option<i128> {
    if day == 0 || day > days_in_month(year, month)? {
        return None;
    }
    let (month, day) = (i128::from(month), i128::from(day));
    let y = year.checked_sub(i128::from(month <= 2))?;
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era.checked_mul(ERA_DAYS)?.checked_add(doe - EPOCH_SHIFT)
}

/// The days of `month` (1-12) in `year`, `None` for another month.
pub(crate) fn days_in_month(year: i128, month: u8) -> Option<u8> {
    let leap = year.rem_euclid(4) == 0 && (year.rem_euclid(100) != 0 || year.rem_euclid(400) == 0);
    Some(match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    })
}

/// Writes a year as ISO 8601 does: four digits for 0000-9999, otherwise a
/// sign and at least four digits (`+10000`, `-0001`).
pub(crate) fn write_year(f: &mut impl fmt::Write, year: i128) -> fmt::Result {
    match year {
        0..=9999 => write!(f, "{year:04}"),
        10000.. => write!(f, "+{year}"),
        _ => write!(f, "-{:04}", year.unsigned_abs()),
    }
}

/// Reads the year [`write_year`] writes: exactly four digits, or a sign and
/// four or more.
pub(crate) fn read_year(s: &mut Scan<'_>) -> Result<i128, ParseError> {
    let negative = s.eat(b'-');
    let signed = negative || s.eat(b'+');
    let digits = s.digits();
    if digits.len() < 4 || (!signed && digits.len() > 4) {
        return Err(ParseError::Syntax);
    }
    let magnitude = number(digits).ok_or(ParseError::OutOfRange)?;
    let year = i128::try_from(magnitude).map_err(|_| ParseError::OutOfRange)?;
    Ok(if negative { -year } else { year })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_days() {
        assert_eq!(civil_from_days(0), Some((1970, 1, 1)));
        assert_eq!(civil_from_days(-1), Some((1969, 12, 31)));
        assert_eq!(civil_from_days(19_723), Some((2024, 1, 1)));
        assert_eq!(civil_from_days(19_782), Some((2024, 2, 29)));
        assert_eq!(civil_from_days(-719_468), Some((0, 3, 1)));
        assert_eq!(days_from_civil(2024, 2, 29), Some(19_782));
        assert_eq!(days_from_civil(2023, 2, 29), None);
        assert_eq!(days_from_civil(2000, 2, 29), Some(11_016));
        assert_eq!(days_from_civil(1900, 2, 29), None);
        assert_eq!(days_from_civil(2024, 13, 1), None);
        assert_eq!(days_from_civil(2024, 1, 0), None);
    }

    #[test]
    fn extreme_days_do_not_panic() {
        assert_eq!(civil_from_days(i128::MAX), None);
        let (y, m, d) = civil_from_days(i128::MIN / 2).unwrap();
        assert_eq!(days_from_civil(y, m, d), Some(i128::MIN / 2));
        assert_eq!(days_from_civil(i128::MAX, 12, 31), None);
        assert_eq!(days_from_civil(i128::MIN, 1, 1), None);
    }

    #[test]
    fn days_round_trip_around_the_epoch_and_leap_centuries() {
        for days in (-800_000..800_000).step_by(97) {
            let (y, m, d) = civil_from_days(days).unwrap();
            assert_eq!(days_from_civil(y, m, d), Some(days), "{y}-{m}-{d}");
        }
    }
}
