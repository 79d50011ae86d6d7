//! [`Timestamp`]'s text form: RFC 3339 in UTC with nine fractional digits,
//! and a parser of RFC 3339 with `Z` or any offset.

use super::civil::{civil_from_days, days_from_civil, read_year, write_year};
use super::scan::{number, Scan};
use super::stack_str::StackStr;
use super::timestamp::NANOS_PER_DAY;
use super::{ParseError, Timestamp};
use core::fmt::{self, Write as _};
use core::str::FromStr;

const NANOS_PER_SEC: i128 = 1_000_000_000;
const NANOS_PER_MIN: i128 = 60 * NANOS_PER_SEC;
const NANOS_PER_HOUR: i128 = 60 * NANOS_PER_MIN;

impl fmt::Display for Timestamp {
    /// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, always nine fractional digits so
    /// that every instant has one width (and sorts as text) within a year
    /// range; width, fill and alignment apply to the whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (days, nanos) = self.days_and_nanos();
        // |days| <= 2^127 / 8.64e13, far inside civil_from_days's range.
        let (year, month, day) = civil_from_days(days).ok_or(fmt::Error)?;
        let (h, rest) = (nanos / NANOS_PER_HOUR, nanos % NANOS_PER_HOUR);
        let (m, rest) = (rest / NANOS_PER_MIN, rest % NANOS_PER_MIN);
        let (s, ns) = (rest / NANOS_PER_SEC, rest % NANOS_PER_SEC);
        let mut out = StackStr::<64>::new();
        write_year(&mut out, year)?;
        write!(out, "-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ns:09}Z")?;
        f.pad(out.as_str())
    }
}

impl FromStr for Timestamp {
    type Err = ParseError;

    /// Reads RFC 3339: `YYYY-MM-DDTHH:MM:SS[.f]` and `Z` or `±HH:MM`
    /// (`T` and `Z` in either case), with up to nine fractional digits, and
    /// the expanded years [`Display`](fmt::Display) writes. A leap second
    /// (`:60`) is [`ParseError::Invalid`]: a count of nanoseconds since the
    /// epoch, as SBE's timestamps are, has none.
    ///
    /// ```
    /// use sbe_rt::{ParseError, Timestamp};
    ///
    /// let t: Timestamp = "1970-01-01T00:00:01.5-00:30".parse()?;
    /// assert_eq!(t.as_nanos(), 1_801_500_000_000);
    /// assert_eq!("2016-12-31T23:59:60Z".parse::<Timestamp>(), Err(ParseError::Invalid));
    /// # Ok::<(), ParseError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut scan = Scan::new(s);
        let days = read_date(&mut scan)?;
        scan.expect(b't')?;
        let time = read_time(&mut scan)?;
        let offset = read_offset(&mut scan)?;
        scan.end()?;
        instant(days, time - offset)
            .map(Self::from_nanos)
            .ok_or(ParseError::OutOfRange)
    }
}

/// `days * NANOS_PER_DAY + nanos` (`|nanos| < 2 days`) whenever the result
/// fits: before the epoch the day's start may not fit even though the
/// instant does (`i128::MIN` is not midnight), so start a day later there.
fn instant(days: i128, nanos: i128) -> Option<i128> {
    if days < 0 {
        let start = days.checked_add(1)?.checked_mul(NANOS_PER_DAY)?;
        start.checked_add(nanos - NANOS_PER_DAY)
    } else {
        days.checked_mul(NANOS_PER_DAY)?.checked_add(nanos)
    }
}

/// `YYYY-MM-DD` as days since the epoch.
fn read_date(scan: &mut Scan<'_>) -> Result<i128, ParseError> {
    let year = read_year(scan)?;
    scan.expect(b'-')?;
    let month = two_digits(scan)?;
    scan.expect(b'-')?;
    let day = two_digits(scan)?;
    days_from_civil(year, month, day).ok_or(ParseError::Invalid)
}

/// `HH:MM:SS[.f]` as nanoseconds into the day.
fn read_time(scan: &mut Scan<'_>) -> Result<i128, ParseError> {
    let h = bounded(two_digits(scan)?, 23)?;
    scan.expect(b':')?;
    let m = bounded(two_digits(scan)?, 59)?;
    scan.expect(b':')?;
    let s = bounded(two_digits(scan)?, 59)?;
    let fraction = if scan.eat(b'.') {
        read_fraction(scan)?
    } else {
        0
    };
    Ok(h * NANOS_PER_HOUR + m * NANOS_PER_MIN + s * NANOS_PER_SEC + fraction)
}

/// One to nine digits of a second as nanoseconds.
fn read_fraction(scan: &mut Scan<'_>) -> Result<i128, ParseError> {
    let digits = scan.digits();
    let places = u32::try_from(digits.len()).map_err(|_| ParseError::OutOfRange)?;
    let scale = 9u32.checked_sub(places).ok_or(ParseError::OutOfRange)?;
    let value = number(digits).ok_or(ParseError::Syntax)?;
    let value = i128::try_from(value).map_err(|_| ParseError::OutOfRange)?;
    Ok(value * 10i128.pow(scale))
}

/// `Z` or `±HH:MM` as nanoseconds ahead of UTC.
fn read_offset(scan: &mut Scan<'_>) -> Result<i128, ParseError> {
    if scan.eat(b'z') {
        return Ok(0);
    }
    let negative = scan.eat(b'-');
    if !negative {
        scan.expect(b'+')?;
    }
    let h = bounded(two_digits(scan)?, 23)?;
    scan.expect(b':')?;
    let m = bounded(two_digits(scan)?, 59)?;
    let offset = h * NANOS_PER_HOUR + m * NANOS_PER_MIN;
    Ok(if negative { -offset } else { offset })
}

fn two_digits(scan: &mut Scan<'_>) -> Result<u8, ParseError> {
    // Two digits are at most 99.
    u8::try_from(scan.fixed(2)?).map_err(|_| ParseError::OutOfRange)
}

fn bounded(value: u8, max: u8) -> Result<i128, ParseError> {
    (value <= max)
        .then_some(i128::from(value))
        .ok_or(ParseError::Invalid)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn prints_rfc_3339_with_nine_digits() {
        let cases = [
            (0, "1970-01-01T00:00:00.000000000Z"),
            (-1, "1969-12-31T23:59:59.999999999Z"),
            (1_704_164_645_123_456_789, "2024-01-02T03:04:05.123456789Z"),
            (
                253_402_300_800 * NANOS_PER_SEC,
                "+10000-01-01T00:00:00.000000000Z",
            ),
            (
                -62_167_219_200 * NANOS_PER_SEC - 1,
                "-0001-12-31T23:59:59.999999999Z",
            ),
        ];
        for (nanos, text) in cases {
            let t = Timestamp::from_nanos(nanos);
            assert_eq!(t.to_string(), text);
            assert_eq!(text.parse::<Timestamp>(), Ok(t), "{text}");
        }
        for nanos in [i128::MIN, i128::MAX] {
            let t = Timestamp::from_nanos(nanos);
            assert_eq!(t.to_string().parse::<Timestamp>(), Ok(t));
        }
    }

    #[test]
    fn parses_offsets_fractions_and_case() {
        let base: Timestamp = "2024-01-02T03:04:05Z".parse().unwrap();
        assert_eq!(base.as_nanos(), 1_704_164_645 * NANOS_PER_SEC);
        let same = [
            "2024-01-02t03:04:05z",
            "2024-01-02T05:34:05+02:30",
            "2024-01-01T23:04:05-04:00",
        ];
        for text in same {
            assert_eq!(text.parse(), Ok(base), "{text}");
        }
        let frac: Timestamp = "2024-01-02T03:04:05.12Z".parse().unwrap();
        assert_eq!(frac.as_nanos() - base.as_nanos(), 120_000_000);
    }

    #[test]
    fn refuses_what_is_not_rfc_3339() {
        let syntax = [
            "",
            "2024-01-02",
            "2024-01-02T03:04:05",
            "24-01-02T03:04:05Z",
            "2024-1-02T03:04:05Z",
            "2024-01-02T03:04:05.Z",
            "2024-01-02T03:04Z",
            "2024-01-02T03:04:05+0100",
            "2024-01-02T03:04:05Z ",
            "12024-01-02T03:04:05Z",
            "2024-01-02 03:04:05Z",
        ];
        for text in syntax {
            assert_eq!(text.parse::<Timestamp>(), Err(ParseError::Syntax), "{text}");
        }
        let invalid = [
            "2024-13-02T03:04:05Z",
            "2023-02-29T03:04:05Z",
            "2024-01-02T24:00:00Z",
            "2024-01-02T03:60:05Z",
            "2024-01-02T03:04:60Z",
            "2024-01-02T03:04:05+24:00",
        ];
        for text in invalid {
            assert_eq!(
                text.parse::<Timestamp>(),
                Err(ParseError::Invalid),
                "{text}"
            );
        }
        let out = [
            "2024-01-02T03:04:05.1234567891Z",
            "+99999999999999999999999-01-01T00:00:00Z",
        ];
        for text in out {
            assert_eq!(
                text.parse::<Timestamp>(),
                Err(ParseError::OutOfRange),
                "{text}"
            );
        }
    }
}
