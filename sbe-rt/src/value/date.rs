//! [`Date`]: a calendar date, as days since the Unix epoch.

use super::civil::{civil_from_days, days_from_civil, read_year, write_year};
use super::scan::Scan;
use super::stack_str::StackStr;
use super::{ParseError, RangeError};
use core::fmt;
use core::str::FromStr;

/// A date of the proleptic Gregorian calendar, as days since 1970-01-01:
/// what `LocalMktDate` and `UTCDateOnly` carry (a `uint16` on the wire,
/// [`From<u16>`](#impl-From<u16>-for-Date)). Any `i32` count is a date
/// (some ±5.8 million years); it prints as ISO 8601 `YYYY-MM-DD`, with a
/// sign and more digits for years outside 0000-9999.
///
/// ```
/// use sbe_rt::Date;
///
/// let d = Date::from(19_724u16);
/// assert_eq!(d.to_string(), "2024-01-02");
/// assert_eq!((d.year(), d.month(), d.day()), (2024, 1, 2));
/// assert_eq!("2024-01-02".parse(), Ok(d));
/// assert_eq!(Date::from_ymd(2024, 1, 2), Some(d));
/// assert_eq!(u16::try_from(d), Ok(19_724));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    days: i32,
}

impl Date {
    /// 1970-01-01.
    pub const UNIX_EPOCH: Self = Self::from_days(0);

    /// The date `days` days after 1970-01-01 (before it if negative).
    pub const fn from_days(days: i32) -> Self {
        Self { days }
    }

    /// Days since 1970-01-01.
    pub const fn days(self) -> i32 {
        self.days
    }

    /// The date of a year, month (1-12) and day (1-31); `None` if there is
    /// no such date or it is more than `i32::MAX` days from the epoch.
    pub fn from_ymd(year: i32, month: u8, day: u8) -> Option<Self> {
        let days = days_from_civil(year.into(), month, day)?;
        i32::try_from(days).ok().map(Self::from_days)
    }

    /// The year, month (1-12) and day of the month (1-31).
    pub fn ymd(self) -> (i32, u8, u8) {
        // Any i32 day count is a year within ±5.9 million: always Some.
        let civil = civil_from_days(self.days.into());
        let civil = civil.and_then(|(y, m, d)| Some((i32::try_from(y).ok()?, m, d)));
        civil.unwrap_or((1970, 1, 1))
    }

    /// The year.
    pub fn year(self) -> i32 {
        self.ymd().0
    }

    /// The month, 1-12.
    pub fn month(self) -> u8 {
        self.ymd().1
    }

    /// The day of the month, 1-31.
    pub fn day(self) -> u8 {
        self.ymd().2
    }
}

impl From<u16> for Date {
    /// The wire's day count.
    fn from(days: u16) -> Self {
        Self::from_days(days.into())
    }
}

impl TryFrom<Date> for u16 {
    type Error = RangeError;

    /// The wire's day count: `Err(Overflow)` before 1970 or after 2149-06-06.
    fn try_from(date: Date) -> Result<Self, RangeError> {
        u16::try_from(date.days).map_err(|_| RangeError::Overflow)
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`; width, fill and alignment apply to the whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let (year, month, day) = self.ymd();
        let mut out = StackStr::<24>::new();
        write_year(&mut out, year.into())?;
        write!(out, "-{month:02}-{day:02}")?;
        f.pad(out.as_str())
    }
}

impl FromStr for Date {
    type Err = ParseError;

    /// Reads `YYYY-MM-DD` (and the signed years `Display` writes for years
    /// outside 0000-9999).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut scan = Scan::new(s);
        let year = read_year(&mut scan)?;
        scan.expect(b'-')?;
        let month = scan.fixed(2)?;
        scan.expect(b'-')?;
        let day = scan.fixed(2)?;
        scan.end()?;
        let year = i32::try_from(year).map_err(|_| ParseError::OutOfRange)?;
        let (month, day) = (u8::try_from(month), u8::try_from(day));
        let (Ok(month), Ok(day)) = (month, day) else {
            return Err(ParseError::Invalid); // two digits: unreachable
        };
        let days = days_from_civil(year.into(), month, day).ok_or(ParseError::Invalid)?;
        i32::try_from(days)
            .map(Self::from_days)
            .map_err(|_| ParseError::OutOfRange)
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn known_dates_print_and_parse() {
        let cases = [
            (0, "1970-01-01"),
            (-1, "1969-12-31"),
            (i32::from(u16::MAX), "2149-06-06"),
            (11_016, "2000-02-29"),
            (-719_529, "-0001-12-31"),
            (2_932_897, "+10000-01-01"),
        ];
        for (days, text) in cases {
            let d = Date::from_days(days);
            assert_eq!(d.to_string(), text);
            assert_eq!(text.parse(), Ok(d));
        }
    }

    #[test]
    fn every_i32_extreme_is_a_date() {
        for days in [i32::MIN, i32::MAX] {
            let d = Date::from_days(days);
            let (y, m, day) = d.ymd();
            assert_eq!(Date::from_ymd(y, m, day), Some(d));
            assert_eq!(d.to_string().parse(), Ok(d));
        }
        assert_eq!(Date::from_days(i32::MAX).year(), 5_881_580);
        assert_eq!(Date::from_ymd(5_881_580, 12, 31), None);
    }

    #[test]
    fn refuses_bad_dates() {
        for text in [
            "",
            "2024-1-02",
            "2024/01/02",
            "2024-01-02T",
            "02024-01-02",
            "2024-01-0x",
        ] {
            assert_eq!(text.parse::<Date>(), Err(ParseError::Syntax), "{text}");
        }
        for text in [
            "2024-00-01",
            "2024-13-01",
            "2023-02-29",
            "2024-04-31",
            "2024-01-00",
        ] {
            assert_eq!(text.parse::<Date>(), Err(ParseError::Invalid), "{text}");
        }
        assert_eq!(
            "+9999999999-01-01".parse::<Date>(),
            Err(ParseError::OutOfRange)
        );
        assert_eq!(
            "+5881581-01-01".parse::<Date>(),
            Err(ParseError::OutOfRange)
        );
        assert_eq!(
            u16::try_from(Date::from_days(-1)),
            Err(RangeError::Overflow)
        );
    }
}
