//! The errors of the value types: a string that is not a value, and a value
//! that does not fit where it is asked to go.

use core::fmt;

/// Why a string did not parse as a value ([`Decimal`](super::Decimal),
/// [`Timestamp`](super::Timestamp), [`Date`](super::Date),
/// [`MonthYear`](super::MonthYear)).
///
/// ```
/// use sbe_rt::{Decimal, ParseError};
///
/// assert_eq!("12x".parse::<Decimal>(), Err(ParseError::Syntax));
/// assert_eq!("2024-02-30".parse::<sbe_rt::Date>(), Err(ParseError::Invalid));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseError {
    /// The string is not of the form the type reads.
    Syntax,
    /// The form is right, but a component is out of its range (a month of
    /// 13, the 30th of February, a 60th second, an hour offset of 24).
    Invalid,
    /// The value is well formed but the type cannot hold it (too many
    /// digits, a year too far away, more than nine fractional digits of a
    /// second).
    OutOfRange,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Syntax => "malformed value",
            Self::Invalid => "component out of range",
            Self::OutOfRange => "value out of the type's range",
        })
    }
}

impl core::error::Error for ParseError {}

/// Why a value did not convert into another representation (a mantissa at
/// an exponent, a count of time units, a wire integer type, another crate's
/// type).
///
/// ```
/// use sbe_rt::{Decimal, RangeError};
///
/// let price = Decimal::new(123_456, -3); // 123.456
/// assert_eq!(price.mantissa_at::<i64>(-2), Err(RangeError::Inexact));
/// assert_eq!(price.mantissa_at::<i8>(-3), Err(RangeError::Overflow));
/// assert_eq!(price.mantissa_at::<i64>(-4), Ok(1_234_560));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RangeError {
    /// The target cannot hold the value exactly: digits would be lost.
    Inexact,
    /// The value is too large (or too small) for the target.
    Overflow,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Inexact => "value not representable exactly in the target",
            Self::Overflow => "value out of the target's range",
        })
    }
}

impl core::error::Error for RangeError {}
