//! [`Timestamp`] and [`Date`] to and from `time::OffsetDateTime` and
//! `time::Date` (feature `time`).

use crate::value::{Date, RangeError, Timestamp};
use time::OffsetDateTime;

/// The Julian day of 1970-01-01.
const EPOCH_JULIAN_DAY: i32 = 2_440_588;

impl From<OffsetDateTime> for Timestamp {
    /// The same instant, whatever the offset.
    fn from(t: OffsetDateTime) -> Self {
        Self::from_nanos(t.unix_timestamp_nanos())
    }
}

impl TryFrom<Timestamp> for OffsetDateTime {
    type Error = RangeError;

    /// The same instant at UTC: `Err(Overflow)` outside `time`'s years
    /// (±9999 without its `large-dates` feature).
    ///
    /// ```
    /// use sbe_rt::Timestamp;
    /// use time::OffsetDateTime;
    ///
    /// let t = Timestamp::from_nanos(1_704_164_645_123_456_789);
    /// let o = OffsetDateTime::try_from(t)?;
    /// assert_eq!((o.year(), o.nanosecond()), (2024, 123_456_789));
    /// assert_eq!(Timestamp::from(o), t);
    /// # Ok::<(), sbe_rt::RangeError>(())
    /// ```
    fn try_from(t: Timestamp) -> Result<Self, RangeError> {
        OffsetDateTime::from_unix_timestamp_nanos(t.as_nanos()).map_err(|_| RangeError::Overflow)
    }
}

impl From<time::Date> for Date {
    /// The same date: `time`'s range is well inside an `i32` of days.
    fn from(d: time::Date) -> Self {
        Self::from_days(d.to_julian_day().saturating_sub(EPOCH_JULIAN_DAY))
    }
}

impl TryFrom<Date> for time::Date {
    type Error = RangeError;

    /// The same date: `Err(Overflow)` outside `time`'s years.
    fn try_from(d: Date) -> Result<Self, RangeError> {
        let julian = d
            .days()
            .checked_add(EPOCH_JULIAN_DAY)
            .ok_or(RangeError::Overflow)?;
        time::Date::from_julian_day(julian).map_err(|_| RangeError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_and_dates_round_trip_to_time_limits() {
        let ends = [
            time::PrimitiveDateTime::MIN.assume_utc(),
            OffsetDateTime::UNIX_EPOCH,
            time::PrimitiveDateTime::MAX.assume_utc(),
        ];
        for o in ends {
            assert_eq!(OffsetDateTime::try_from(Timestamp::from(o)), Ok(o));
            let date = Date::from(o.date());
            assert_eq!(time::Date::try_from(date), Ok(o.date()));
            assert_eq!(
                Date::from_ymd(o.year(), o.month().into(), o.day()),
                Some(date)
            );
        }
        assert_eq!(
            OffsetDateTime::try_from(Timestamp::from_nanos(i128::MIN)),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            time::Date::try_from(Date::from_days(i32::MAX)),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            time::Date::try_from(Date::from_days(i32::MIN)),
            Err(RangeError::Overflow)
        );
    }
}
