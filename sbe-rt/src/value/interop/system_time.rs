//! [`Timestamp`] to and from `std::time::SystemTime` (feature `std`).

use crate::value::{RangeError, Timestamp};
use std::time::{Duration, SystemTime};

const NANOS_PER_SEC: u128 = 1_000_000_000;

impl TryFrom<SystemTime> for Timestamp {
    type Error = RangeError;

    /// The same instant; `Err(Overflow)` only on a platform whose
    /// `SystemTime` reaches past `i128` nanoseconds.
    fn try_from(time: SystemTime) -> Result<Self, RangeError> {
        let nanos = match time.duration_since(SystemTime::UNIX_EPOCH) {
            Ok(after) => i128::try_from(after.as_nanos()),
            Err(before) => i128::try_from(before.duration().as_nanos()).map(|n| -n),
        };
        nanos
            .map(Timestamp::from_nanos)
            .map_err(|_| RangeError::Overflow)
    }
}

impl TryFrom<Timestamp> for SystemTime {
    type Error = RangeError;

    /// The same instant; `Err(Overflow)` beyond the platform's
    /// `SystemTime` (or `u64` seconds from the epoch).
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use sbe_rt::Timestamp;
    ///
    /// let t = SystemTime::try_from(Timestamp::from_nanos(-1_500_000_000))?;
    /// assert_eq!(t, SystemTime::UNIX_EPOCH - Duration::from_millis(1_500));
    /// assert_eq!(Timestamp::try_from(t)?.as_nanos(), -1_500_000_000);
    /// # Ok::<(), sbe_rt::RangeError>(())
    /// ```
    fn try_from(t: Timestamp) -> Result<Self, RangeError> {
        let magnitude = t.as_nanos().unsigned_abs();
        let secs = u64::try_from(magnitude / NANOS_PER_SEC).map_err(|_| RangeError::Overflow)?;
        // The remainder is below 10^9: it fits, and Duration::new carries nothing.
        let nanos = u32::try_from(magnitude % NANOS_PER_SEC).map_err(|_| RangeError::Overflow)?;
        let since = Duration::new(secs, nanos);
        let time = if t.as_nanos() >= 0 {
            SystemTime::UNIX_EPOCH.checked_add(since)
        } else {
            SystemTime::UNIX_EPOCH.checked_sub(since)
        };
        time.ok_or(RangeError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_now_and_refuses_the_unreachable() {
        let now = SystemTime::now();
        let t = Timestamp::try_from(now).unwrap();
        assert_eq!(SystemTime::try_from(t), Ok(now));
        assert!(t.as_nanos() > 1_700_000_000 * 1_000_000_000);
        let far = Timestamp::from_nanos(i128::MAX);
        assert_eq!(SystemTime::try_from(far), Err(RangeError::Overflow));
    }
}
