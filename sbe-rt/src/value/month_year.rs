//! [`MonthYear`]: the FIX `MonthYear` composite.

use super::civil::days_in_month;
use super::scan::Scan;
use super::stack_str::StackStr;
use super::ParseError;
use core::fmt::{self, Write as _};
use core::str::FromStr;

/// The `MonthYear` composite (a maturity, an expiry): a year and month, and
/// optionally a day of the month or a week of the month. Every member is
/// an `Option`, `None` where the wire holds the member's null value; the
/// spec treats a null year as a null field.
///
/// It prints as FIX's `MonthYear` does: `YYYYMM`, `YYYYMMDD` or
/// `YYYYMMwN`. Members print as they are, unchecked; what is missing
/// shortens the text:
///
/// * a null year (a null field) prints as the empty string, whatever the
///   other members hold;
/// * a null month prints the year alone (`2024`), which does not parse;
/// * a day takes precedence over a week (FIX has no form with both).
///
/// ```
/// use sbe_rt::MonthYear;
///
/// let june = MonthYear::new(2014, 6);
/// assert_eq!(june.to_string(), "201406");
/// assert_eq!(june.with_week(3).to_string(), "201406w3");
/// assert_eq!(june.with_day(20).to_string(), "20140620");
/// assert_eq!("201406w3".parse(), Ok(june.with_week(3)));
/// assert_eq!(MonthYear::NULL.to_string(), "");
/// assert_eq!("".parse(), Ok(MonthYear::NULL));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MonthYear {
    /// The year; `None` makes the whole value null.
    pub year: Option<u16>,
    /// The month, 1-12.
    pub month: Option<u8>,
    /// The day of the month, 1-31.
    pub day: Option<u8>,
    /// The week of the month, 1-5.
    pub week: Option<u8>,
}

impl MonthYear {
    /// Every member null: a null field.
    pub const NULL: Self = Self {
        year: None,
        month: None,
        day: None,
        week: None,
    };

    /// A year and month, with neither day nor week.
    pub const fn new(year: u16, month: u8) -> Self {
        Self {
            year: Some(year),
            month: Some(month),
            day: None,
            week: None,
        }
    }

    /// The same with a day of the month.
    pub const fn with_day(self, day: u8) -> Self {
        Self {
            day: Some(day),
            ..self
        }
    }

    /// The same with a week of the month.
    pub const fn with_week(self, week: u8) -> Self {
        Self {
            week: Some(week),
            ..self
        }
    }

    /// Whether the field is null: its year is.
    pub const fn is_null(self) -> bool {
        self.year.is_none()
    }
}

impl fmt::Display for MonthYear {
    /// `YYYYMM`, `YYYYMMDD` or `YYYYMMwN` (see the type's docs for null
    /// members); width, fill and alignment apply to the whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = StackStr::<16>::new();
        if let Some(year) = self.year {
            write!(out, "{year:04}")?;
            if let Some(month) = self.month {
                write!(out, "{month:02}")?;
                match (self.day, self.week) {
                    (Some(day), _) => write!(out, "{day:02}")?,
                    (None, Some(week)) => write!(out, "w{week}")?,
                    (None, None) => {}
                }
            }
        }
        f.pad(out.as_str())
    }
}

impl FromStr for MonthYear {
    type Err = ParseError;

    /// Reads `YYYYMM`, `YYYYMMDD` (a day the month has) or `YYYYMMwN` (week
    /// 1-5), and the empty string as [`MonthYear::NULL`].
    fn from_str(s: &str) -> Result<Self, ParseError> {
        if s.is_empty() {
            return Ok(Self::NULL);
        }
        let mut scan = Scan::new(s);
        let year = u16::try_from(scan.fixed(4)?).map_err(|_| ParseError::OutOfRange)?;
        let month = small(scan.fixed(2)?)?;
        let days = days_in_month(year.into(), month).ok_or(ParseError::Invalid)?;
        let mut value = Self::new(year, month);
        if scan.eat(b'w') {
            value.week = Some(in_range(small(scan.fixed(1)?)?, 5)?);
        } else if !scan.is_empty() {
            value.day = Some(in_range(small(scan.fixed(2)?)?, days)?);
        }
        scan.end()?;
        Ok(value)
    }
}

fn small(value: u32) -> Result<u8, ParseError> {
    u8::try_from(value).map_err(|_| ParseError::Invalid)
}

/// `value` if it is within `1..=max`.
fn in_range(value: u8, max: u8) -> Result<u8, ParseError> {
    (1..=max)
        .contains(&value)
        .then_some(value)
        .ok_or(ParseError::Invalid)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn null_members_shorten_the_text() {
        let all = MonthYear {
            year: Some(2024),
            month: Some(2),
            day: Some(29),
            week: Some(5),
        };
        assert_eq!(all.to_string(), "20240229");
        assert_eq!(MonthYear { day: None, ..all }.to_string(), "202402w5");
        assert_eq!(MonthYear { month: None, ..all }.to_string(), "2024");
        assert_eq!(MonthYear { year: None, ..all }.to_string(), "");
        assert!(MonthYear { year: None, ..all }.is_null());
        assert!(!all.is_null());
        assert_eq!(MonthYear::new(7, 1).to_string(), "000701");
        assert_eq!(
            alloc::format!("[{:>8}]", MonthYear::new(2024, 6)),
            "[  202406]"
        );
    }

    #[test]
    fn parses_the_three_forms_and_null() {
        assert_eq!("202406".parse(), Ok(MonthYear::new(2024, 6)));
        assert_eq!("20240229".parse(), Ok(MonthYear::new(2024, 2).with_day(29)));
        assert_eq!("202406w1".parse(), Ok(MonthYear::new(2024, 6).with_week(1)));
        assert_eq!("202406W5".parse(), Ok(MonthYear::new(2024, 6).with_week(5)));
        assert_eq!("".parse(), Ok(MonthYear::NULL));
    }

    #[test]
    fn refuses_bad_forms() {
        for text in [
            "2024",
            "20246",
            "2024061",
            "202406w",
            "202406w12",
            "2024-06",
            " 202406",
            "202406d1",
        ] {
            assert_eq!(text.parse::<MonthYear>(), Err(ParseError::Syntax), "{text}");
        }
        for text in [
            "202400", "202413", "20230229", "20240431", "20240600", "202406w0", "202406w6",
        ] {
            assert_eq!(
                text.parse::<MonthYear>(),
                Err(ParseError::Invalid),
                "{text}"
            );
        }
    }
}
