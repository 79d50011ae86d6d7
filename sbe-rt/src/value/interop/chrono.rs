//! [`Timestamp`] and [`Date`] to and from `chrono::DateTime<Utc>` and
//! `chrono::NaiveDate` (feature `chrono`).

use crate::value::{Date, RangeError, Timestamp};
use chrono::{DateTime, Datelike, NaiveDate, Utc};

const NANOS_PER_SEC: i128 = 1_000_000_000;
/// `NaiveDate::num_days_from_ce` of 1970-01-01.
const EPOCH_DAYS_FROM_CE: i32 = 719_163;

impl From<DateTime<Utc>> for Timestamp {
    /// The same instant (a leap second as the first instants of the next
    /// second: a count since the epoch has no leap seconds).
    fn from(t: DateTime<Utc>) -> Self {
        let secs = i128::from(t.timestamp());
        Self::from_nanos(secs * NANOS_PER_SEC + i128::from(t.timestamp_subsec_nanos()))
    }
}

impl TryFrom<Timestamp> for DateTime<Utc> {
    type Error = RangeError;

    /// The same instant: `Err(Overflow)` outside chrono's ±262,143 years.
    ///
    /// ```
    /// use chrono::{DateTime, Utc};
    /// use sbe_rt::Timestamp;
    ///
    /// let t: Timestamp = "2024-01-02T03:04:05.123456789Z".parse().unwrap();
    /// let c = DateTime::<Utc>::try_from(t)?;
    /// assert_eq!(c.to_rfc3339(), "2024-01-02T03:04:05.123456789+00:00");
    /// assert_eq!(Timestamp::from(c), t);
    /// # Ok::<(), sbe_rt::RangeError>(())
    /// ```
    fn try_from(t: Timestamp) -> Result<Self, RangeError> {
        let secs = i64::try_from(t.as_nanos().div_euclid(NANOS_PER_SEC));
        let nanos = u32::try_from(t.as_nanos().rem_euclid(NANOS_PER_SEC));
        let (Ok(secs), Ok(nanos)) = (secs, nanos) else {
            return Err(RangeError::Overflow);
        };
        DateTime::from_timestamp(secs, nanos).ok_or(RangeError::Overflow)
    }
}

impl From<NaiveDate> for Date {
    /// The same date: chrono's range is well inside an `i32` of days.
    fn from(d: NaiveDate) -> Self {
        Self::from_days(d.num_days_from_ce().saturating_sub(EPOCH_DAYS_FROM_CE))
    }
}

impl TryFrom<Date> for NaiveDate {
    type Error = RangeError;

    /// The same date: `Err(Overflow)` outside chrono's ±262,143 years.
    fn try_from(d: Date) -> Result<Self, RangeError> {
        let days = d.days().checked_add(EPOCH_DAYS_FROM_CE);
        days.and_then(NaiveDate::from_num_days_from_ce_opt)
            .ok_or(RangeError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_and_dates_round_trip_to_chrono_limits() {
        for c in [
            DateTime::<Utc>::MIN_UTC,
            DateTime::<Utc>::UNIX_EPOCH,
            DateTime::<Utc>::MAX_UTC,
        ] {
            assert_eq!(DateTime::<Utc>::try_from(Timestamp::from(c)), Ok(c));
            let date = Date::from(c.date_naive());
            assert_eq!(NaiveDate::try_from(date), Ok(c.date_naive()));
            assert_eq!(
                (date.year(), u32::from(date.month()), u32::from(date.day())),
                (c.year(), c.month(), c.day())
            );
        }
        let past = Timestamp::from_nanos(-1);
        assert_eq!(
            DateTime::<Utc>::try_from(past).map(|c| c.timestamp_subsec_nanos()),
            Ok(999_999_999)
        );
        assert_eq!(
            DateTime::<Utc>::try_from(Timestamp::from_nanos(i128::MAX)),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            NaiveDate::try_from(Date::from_days(i32::MAX)),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            Date::from(NaiveDate::from_ymd_opt(2024, 1, 2).unwrap()),
            Date::from_days(19_724)
        );
    }
}
