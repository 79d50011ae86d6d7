//! [`Timestamp`]: an instant, in nanoseconds since the Unix epoch.

use super::{RangeError, TimeUnit};

/// Nanoseconds in a day.
pub(crate) const NANOS_PER_DAY: i128 = 86_400_000_000_000;

/// An instant in UTC, as nanoseconds since the Unix epoch
/// (1970-01-01T00:00:00Z), as SBE's timestamps count from it.
///
/// The count is an `i128`, so any `i64` or `u64` count of any
/// [`TimeUnit`] converts in without loss (`u64::MAX` seconds is about
/// 1.8e28 ns; `i128` holds ±1.7e38 ns, some ±5.4e21 years). Converting out
/// ([`to_units`](Self::to_units)) is exact or an error. It prints as RFC
/// 3339 in UTC with all nine fractional digits; years outside 0000-9999
/// print as ISO 8601's expanded years (`+10000-01-01T...`, `-0001-...`),
/// and parse back.
///
/// ```
/// use sbe_rt::{TimeUnit, Timestamp};
///
/// let t = Timestamp::from_units(1_704_164_645_123_456_789u64, TimeUnit::Nanos)?;
/// assert_eq!(t.to_string(), "2024-01-02T03:04:05.123456789Z");
/// assert_eq!(t, "2024-01-02T04:04:05.123456789+01:00".parse().unwrap());
/// assert_eq!(t.to_units::<u64>(TimeUnit::Micros), Err(sbe_rt::RangeError::Inexact));
/// assert_eq!(
///     Timestamp::from_units(1_704_164_645i64, TimeUnit::Seconds)?.to_units::<i64>(TimeUnit::Millis),
///     Ok(1_704_164_645_000)
/// );
/// # Ok::<(), sbe_rt::RangeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    nanos: i128,
}

impl Timestamp {
    /// 1970-01-01T00:00:00Z.
    pub const UNIX_EPOCH: Self = Self::from_nanos(0);

    /// The instant `nanos` nanoseconds after the epoch (before it if
    /// negative).
    pub const fn from_nanos(nanos: i128) -> Self {
        Self { nanos }
    }

    /// Nanoseconds since the epoch.
    pub const fn as_nanos(self) -> i128 {
        self.nanos
    }

    /// The instant `value` units after the epoch: never an error for a
    /// value of a wire type (`i8`..`i64`, `u8`..`u64`); `Err(Overflow)`
    /// only for an `i128` whose nanoseconds exceed `i128`.
    pub fn from_units(value: impl Into<i128>, unit: TimeUnit) -> Result<Self, RangeError> {
        let nanos = value.into().checked_mul(unit.nanos());
        nanos.map(Self::from_nanos).ok_or(RangeError::Overflow)
    }

    /// The count of `unit` since the epoch, in a wire type `T` (or `i128`):
    /// `Err(Inexact)` if the instant is not a whole number of units,
    /// `Err(Overflow)` if the count does not fit `T`.
    #[inline]
    pub fn to_units<T: TryFrom<i128>>(self, unit: TimeUnit) -> Result<T, RangeError> {
        let per = unit.nanos();
        // Nanoseconds need no division, and an instant within ±292 years
        // of the epoch divides as an i64 (a machine division, where an
        // i128's is a library call).
        let count = if per == 1 {
            self.nanos
        } else if let (Ok(n), Ok(per)) = (i64::try_from(self.nanos), i64::try_from(per)) {
            if n % per != 0 {
                return Err(RangeError::Inexact);
            }
            i128::from(n / per)
        } else {
            if self.nanos % per != 0 {
                return Err(RangeError::Inexact);
            }
            self.nanos / per
        };
        T::try_from(count).map_err(|_| RangeError::Overflow)
    }

    /// Whole days since the epoch (rounded down) and the nanoseconds of
    /// that day.
    pub(crate) const fn days_and_nanos(self) -> (i128, i128) {
        (
            self.nanos.div_euclid(NANOS_PER_DAY),
            self.nanos.rem_euclid(NANOS_PER_DAY),
        )
    }
}

impl From<super::Date> for Timestamp {
    /// Midnight UTC at the start of the date.
    fn from(date: super::Date) -> Self {
        // |days| < 2^31, far from overflowing i128 at 8.64e13 ns a day.
        Self::from_nanos(i128::from(date.days()) * NANOS_PER_DAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_and_wire_limit_converts_in_and_back() {
        for unit in TimeUnit::ALL {
            for v in [i64::MIN, -1, 0, 1, i64::MAX] {
                let t = Timestamp::from_units(v, unit).unwrap();
                assert_eq!(t.to_units::<i64>(unit), Ok(v));
            }
            for v in [0, u64::MAX] {
                let t = Timestamp::from_units(v, unit).unwrap();
                assert_eq!(t.to_units::<u64>(unit), Ok(v));
                assert_eq!(t.as_nanos(), i128::from(v) * unit.nanos());
            }
        }
    }

    #[test]
    fn to_units_is_exact_or_err() {
        let t = Timestamp::from_nanos(1_500_000);
        assert_eq!(
            t.to_units::<i64>(TimeUnit::Millis),
            Err(RangeError::Inexact)
        );
        assert_eq!(t.to_units::<i64>(TimeUnit::Micros), Ok(1_500));
        assert_eq!(
            Timestamp::from_nanos(-1).to_units::<u64>(TimeUnit::Nanos),
            Err(RangeError::Overflow)
        );
        let far = Timestamp::from_units(u64::MAX, TimeUnit::Seconds).unwrap();
        assert_eq!(
            far.to_units::<u64>(TimeUnit::Millis),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            Timestamp::from_units(i128::MAX, TimeUnit::Millis),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            Timestamp::from_nanos(i128::MIN).to_units::<i128>(TimeUnit::Nanos),
            Ok(i128::MIN)
        );
    }
}
