//! What the generated accessors and setters of typed values need from the
//! value types: an infallible read of any wire count, and a value that
//! does not fit the wire as the codec's [`crate::Error`].

use super::{RangeError, TimeUnit, Timestamp};

impl Timestamp {
    /// The instant `count` units after the epoch, for a count read from
    /// the wire. Exact for every count of a wire integer type (64 bits or
    /// less: `u64::MAX` seconds is far inside `i128` nanoseconds); a wider
    /// count saturates.
    ///
    /// ```
    /// use sbe_rt::{TimeUnit, Timestamp};
    ///
    /// let t = Timestamp::from_count(1_704_164_645_123u64.into(), TimeUnit::Millis);
    /// assert_eq!(t.to_string(), "2024-01-02T03:04:05.123000000Z");
    /// ```
    pub const fn from_count(count: i128, unit: TimeUnit) -> Self {
        Self::from_nanos(count.saturating_mul(unit.nanos()))
    }
}

/// A typed value that does not fit its field (digits an exponent cannot
/// hold, a count out of the wire type's range) is the encoder's
/// [`crate::Error::value_out_of_range`], never a rounded or wrapped value.
impl From<RangeError> for crate::Error {
    fn from(_: RangeError) -> Self {
        crate::Error::value_out_of_range()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wire_count_reads_exactly_and_a_wider_one_saturates() {
        for unit in TimeUnit::ALL {
            let t = Timestamp::from_count(u64::MAX.into(), unit);
            assert_eq!(t.to_units::<u64>(unit), Ok(u64::MAX));
            let t = Timestamp::from_count(i64::MIN.into(), unit);
            assert_eq!(t.to_units::<i64>(unit), Ok(i64::MIN));
        }
        let t = Timestamp::from_count(i128::MAX, TimeUnit::Seconds);
        assert_eq!(t.as_nanos(), i128::MAX);
    }

    #[test]
    fn a_value_that_does_not_fit_is_out_of_range() {
        assert_eq!(
            crate::Error::from(RangeError::Inexact),
            crate::Error::value_out_of_range()
        );
    }
}
