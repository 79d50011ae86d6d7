//! [`TimeUnit`]: the unit of the SBE time composite.

/// The unit of an SBE timestamp or time of day: the `unit` member of the
/// time composite holds its code, the power of ten of a second's fraction
/// it counts (`0`, `3`, `6`, `9`).
///
/// ```
/// use sbe_rt::TimeUnit;
///
/// assert_eq!(TimeUnit::from_code(6), Some(TimeUnit::Micros));
/// assert_eq!(TimeUnit::from_code(2), None);
/// assert_eq!(TimeUnit::Millis.code(), 3);
/// assert_eq!(TimeUnit::Millis.nanos(), 1_000_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeUnit {
    /// Seconds (code 0).
    Seconds,
    /// Milliseconds (code 3).
    Millis,
    /// Microseconds (code 6).
    Micros,
    /// Nanoseconds (code 9).
    Nanos,
}

impl TimeUnit {
    /// Every unit, coarsest first.
    pub const ALL: [Self; 4] = [Self::Seconds, Self::Millis, Self::Micros, Self::Nanos];

    /// The unit of a wire code (`0`, `3`, `6`, `9`), `None` for any other.
    pub const fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => Self::Seconds,
            3 => Self::Millis,
            6 => Self::Micros,
            9 => Self::Nanos,
            _ => return None,
        })
    }

    /// The wire code: the number of decimal places of a second.
    pub const fn code(self) -> u8 {
        match self {
            Self::Seconds => 0,
            Self::Millis => 3,
            Self::Micros => 6,
            Self::Nanos => 9,
        }
    }

    /// Nanoseconds in one unit.
    pub const fn nanos(self) -> i128 {
        match self {
            Self::Seconds => 1_000_000_000,
            Self::Millis => 1_000_000,
            Self::Micros => 1_000,
            Self::Nanos => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TimeUnit;

    #[test]
    fn codes_round_trip_and_only_four_exist() {
        for unit in TimeUnit::ALL {
            assert_eq!(TimeUnit::from_code(unit.code()), Some(unit));
            assert_eq!(10i128.pow(9 - u32::from(unit.code())), unit.nanos());
        }
        let known = (0..=u8::MAX)
            .filter(|c| TimeUnit::from_code(*c).is_some())
            .count();
        assert_eq!(known, 4);
    }
}
