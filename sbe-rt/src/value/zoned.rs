//! [`ZonedTimestamp`]: a local time with its offset from UTC, as SBE's
//! `TZTimestamp` and `TZTimeOnly` composites carry it.

use super::stack_str::StackStr;
use super::{ParseError, RangeError, Timestamp};
use core::fmt::{self, Write as _};
use core::str::FromStr;

const NANOS_PER_MIN: i128 = 60_000_000_000;

/// A local date and time and its offset from UTC, as the spec's
/// `TZTimestamp` composite holds them: `time` counts the units since
/// 1970-01-01 *local* time, and `timezoneHour` / `timezoneMinute` give the
/// offset, its sign on the hour (`TZTimeOnly` is the same with a time of
/// day, read as that time on 1970-01-01).
///
/// It prints as RFC 3339 with the offset, and compares by local time and
/// offset: compare [`instant`](Self::instant)s for the same moment.
///
/// ```
/// use sbe_rt::{Timestamp, ZonedTimestamp};
///
/// // The spec's example: 8:30 on 17 September 2013 in Chicago (-6:00).
/// let local: Timestamp = "2013-09-17T08:30:00Z".parse()?;
/// let chicago = ZonedTimestamp::from_parts(local, -6, 0)?;
/// assert_eq!(chicago.to_string(), "2013-09-17T08:30:00.000000000-06:00");
/// assert_eq!(chicago.instant().to_string(), "2013-09-17T14:30:00.000000000Z");
/// assert_eq!(chicago.offset_parts(), Ok((-6, 0)));
/// assert_eq!("2013-09-17T08:30:00-06:00".parse(), Ok(chicago));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ZonedTimestamp {
    local: Timestamp,
    offset_minutes: i16,
}

impl ZonedTimestamp {
    /// The largest offset RFC 3339 writes: 23:59 either way.
    pub const MAX_OFFSET_MINUTES: i16 = 23 * 60 + 59;

    /// `local` time at `offset_minutes` east of UTC (west if negative);
    /// `Err(Overflow)` beyond ±23:59.
    pub const fn new(local: Timestamp, offset_minutes: i16) -> Result<Self, RangeError> {
        if offset_minutes.unsigned_abs() > Self::MAX_OFFSET_MINUTES.unsigned_abs() {
            return Err(RangeError::Overflow);
        }
        Ok(Self {
            local,
            offset_minutes,
        })
    }

    /// The time at `instant` seen `offset_minutes` east of UTC.
    pub fn from_instant(instant: Timestamp, offset_minutes: i16) -> Result<Self, RangeError> {
        let shift = i128::from(offset_minutes) * NANOS_PER_MIN;
        let local = instant.as_nanos().checked_add(shift);
        Self::new(
            Timestamp::from_nanos(local.ok_or(RangeError::Overflow)?),
            offset_minutes,
        )
    }

    /// `local` at the offset of a TZ composite's `timezoneHour` (which
    /// carries the sign) and `timezoneMinute`; `Err(Overflow)` for a minute
    /// past 59 or an offset beyond ±23:59.
    pub const fn from_parts(local: Timestamp, hour: i8, minute: u8) -> Result<Self, RangeError> {
        if minute > 59 {
            return Err(RangeError::Overflow);
        }
        let (hour, minute) = (hour as i16, minute as i16); // widening
        let offset = if hour < 0 {
            hour * 60 - minute
        } else {
            hour * 60 + minute
        };
        Self::new(local, offset)
    }

    /// The local time, as an instant of the same wall-clock reading in UTC.
    pub const fn local(self) -> Timestamp {
        self.local
    }

    /// Minutes east of UTC (negative: west).
    pub const fn offset_minutes(self) -> i16 {
        self.offset_minutes
    }

    /// The instant: the local time less the offset.
    pub const fn instant(self) -> Timestamp {
        let shift = self.offset_minutes as i128 * NANOS_PER_MIN; // widening
        Timestamp::from_nanos(self.local.as_nanos().saturating_sub(shift))
    }

    /// The offset as a TZ composite's `timezoneHour` and `timezoneMinute`;
    /// `Err(Overflow)` for an offset west of UTC by less than an hour
    /// (-00:30), which a sign on the hour cannot carry.
    pub const fn offset_parts(self) -> Result<(i8, u8), RangeError> {
        let (hour, minute) = (self.offset_minutes / 60, self.offset_minutes % 60);
        if hour == 0 && minute < 0 {
            return Err(RangeError::Overflow);
        }
        // |hour| <= 23 and |minute| <= 59: both fit.
        Ok((hour as i8, minute.unsigned_abs() as u8))
    }
}

impl fmt::Display for ZonedTimestamp {
    /// The local time as [`Timestamp`] prints it, its `Z` replaced by the
    /// offset: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn±HH:MM`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = StackStr::<72>::new();
        write!(out, "{}", self.local)?;
        let local = out.as_str().strip_suffix('Z').ok_or(fmt::Error)?;
        let mut text = StackStr::<72>::new();
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        let minutes = self.offset_minutes.unsigned_abs();
        write!(text, "{local}{sign}{:02}:{:02}", minutes / 60, minutes % 60)?;
        f.pad(text.as_str())
    }
}

impl FromStr for ZonedTimestamp {
    type Err = ParseError;

    /// Reads RFC 3339 as [`Timestamp`] does, keeping the offset (`Z` is
    /// +00:00).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let instant: Timestamp = s.parse()?;
        let offset = match s.len().checked_sub(6).and_then(|at| s.get(at..)) {
            Some(tail) if tail.starts_with(['+', '-']) => offset_minutes(tail)?,
            _ => 0,
        };
        Self::from_instant(instant, offset).map_err(|_| ParseError::OutOfRange)
    }
}

/// `±HH:MM` (checked by the timestamp parser already) as minutes.
fn offset_minutes(tail: &str) -> Result<i16, ParseError> {
    let number = |range: core::ops::Range<usize>| -> Result<i16, ParseError> {
        tail.get(range)
            .and_then(|t| t.parse::<i16>().ok())
            .ok_or(ParseError::Syntax)
    };
    let minutes = number(1..3)? * 60 + number(4..6)?;
    Ok(if tail.starts_with('-') {
        -minutes
    } else {
        minutes
    })
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn offsets_read_and_write_as_the_tz_composite_holds_them() {
        let local = Timestamp::from_nanos(0);
        for (hour, minute, text) in [
            (0, 0, "1970-01-01T00:00:00.000000000+00:00"),
            (5, 30, "1970-01-01T00:00:00.000000000+05:30"),
            (-9, 30, "1970-01-01T00:00:00.000000000-09:30"),
            (14, 0, "1970-01-01T00:00:00.000000000+14:00"),
        ] {
            let z = ZonedTimestamp::from_parts(local, hour, minute).unwrap();
            assert_eq!(z.to_string(), text);
            assert_eq!(z.offset_parts(), Ok((hour, minute)));
            assert_eq!(text.parse(), Ok(z), "{text}");
        }
        assert_eq!(
            ZonedTimestamp::from_parts(local, 1, 60),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            ZonedTimestamp::from_parts(local, 24, 0),
            Err(RangeError::Overflow)
        );
        let west_half = ZonedTimestamp::new(local, -30).unwrap();
        assert_eq!(west_half.offset_parts(), Err(RangeError::Overflow));
        assert_eq!(west_half.to_string(), "1970-01-01T00:00:00.000000000-00:30");
    }

    #[test]
    fn the_instant_is_the_local_time_less_the_offset() {
        let z: ZonedTimestamp = "2024-01-02T03:04:05.5+02:00".parse().unwrap();
        assert_eq!(z.offset_minutes(), 120);
        assert_eq!(z.instant().to_string(), "2024-01-02T01:04:05.500000000Z");
        assert_eq!(z.local().to_string(), "2024-01-02T03:04:05.500000000Z");
        let utc: ZonedTimestamp = "2024-01-02T03:04:05Z".parse().unwrap();
        assert_eq!(utc.offset_minutes(), 0);
        assert_eq!(
            ZonedTimestamp::from_instant(z.instant(), 120),
            Ok(z),
            "from_instant inverts instant"
        );
        assert!("2024-01-02T03:04:05".parse::<ZonedTimestamp>().is_err());
    }
}
