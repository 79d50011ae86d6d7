//! Capture timestamps: seconds and nanoseconds since the Unix epoch, shown
//! as RFC 3339 UTC with nine fractional digits.

use std::fmt;

/// When a packet was captured: UTC, nanosecond resolution (finer
/// resolutions of pcapng are cut to nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
    /// Nanoseconds within the second (below 1,000,000,000).
    pub nanos: u32,
}

impl Timestamp {
    /// `units` ticks of `per_second` each since `offset_secs` (pcapng's
    /// `if_tsoffset`), in nanoseconds.
    pub fn from_units(units: u64, per_second: u64, offset_secs: i64) -> Timestamp {
        let per_second = per_second.max(1);
        let secs = units / per_second;
        let frac = u128::from(units % per_second);
        let nanos = (frac * 1_000_000_000 / u128::from(per_second)) as u32;
        Timestamp {
            secs: offset_secs.saturating_add(i64::try_from(secs).unwrap_or(i64::MAX)),
            nanos,
        }
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl fmt::Display for Timestamp {
    /// `2024-03-05T14:30:01.123456789Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.secs.div_euclid(86_400);
        let s = self.secs.rem_euclid(86_400);
        let (y, mo, d) = civil(days);
        write!(
            f,
            "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{:09}Z",
            s / 3600,
            s / 60 % 60,
            s % 60,
            self.nanos
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64, nanos: u32) -> String {
        Timestamp { secs, nanos }.to_string()
    }

    #[test]
    fn rfc3339() {
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000000Z");
        // date -u -d @1709649001
        assert_eq!(
            at(1_709_649_001, 123_456_789),
            "2024-03-05T14:30:01.123456789Z"
        );
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.000000005Z");
        assert_eq!(at(4_107_542_399, 0), "2100-02-28T23:59:59.000000000Z");
        assert_eq!(at(-1, 0), "1969-12-31T23:59:59.000000000Z");
    }

    #[test]
    fn units() {
        let t = Timestamp::from_units(1_709_649_001_123_456, 1_000_000, 0);
        assert_eq!(t.to_string(), "2024-03-05T14:30:01.123456000Z");
        let t = Timestamp::from_units(3, 1 << 1, 10);
        assert_eq!((t.secs, t.nanos), (11, 500_000_000));
        let t = Timestamp::from_units(7, 0, 0);
        assert_eq!((t.secs, t.nanos), (7, 0));
    }
}
