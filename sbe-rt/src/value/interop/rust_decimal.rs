//! [`Decimal`] to and from `rust_decimal::Decimal` (feature
//! `rust_decimal`).

use crate::value::{Decimal, Fixed, Mantissa, RangeError};

/// The largest scale `rust_decimal` holds.
const MAX_SCALE: u32 = 28;

impl From<rust_decimal::Decimal> for Decimal {
    /// The same value: a 96-bit mantissa at a scale of 0-28 always fits.
    fn from(d: rust_decimal::Decimal) -> Self {
        // rust_decimal keeps its scale within 0..=28.
        let scale = i8::try_from(d.scale()).unwrap_or(i8::MAX);
        Self::new(d.mantissa(), -scale)
    }
}

impl TryFrom<Decimal> for rust_decimal::Decimal {
    type Error = RangeError;

    /// The same value: `Err(Inexact)` with more than 28 fractional digits,
    /// `Err(Overflow)` past a 96-bit mantissa.
    ///
    /// ```
    /// use sbe_rt::Decimal;
    ///
    /// let d = rust_decimal::Decimal::try_from(Decimal::new(1_234_500, -4))?;
    /// assert_eq!(d.to_string(), "123.45");
    /// assert_eq!(Decimal::from(d), Decimal::new(12_345, -2));
    /// # Ok::<(), sbe_rt::RangeError>(())
    /// ```
    fn try_from(value: Decimal) -> Result<Self, RangeError> {
        let n = value.normalized();
        let (mantissa, scale) = match u32::try_from(-i32::from(n.exponent())) {
            Ok(scale) if scale > MAX_SCALE => return Err(RangeError::Inexact),
            Ok(scale) => (n.mantissa(), scale),
            Err(_) => (n.rescale(0)?, 0), // a positive exponent
        };
        Self::try_from_i128_with_scale(mantissa, scale).map_err(|_| RangeError::Overflow)
    }
}

impl<M: Mantissa, const E: i8> TryFrom<Fixed<M, E>> for rust_decimal::Decimal {
    type Error = RangeError;

    /// As from its [`Decimal`]: `Err` beyond 28 fractional digits or a
    /// 96-bit mantissa.
    fn try_from(value: Fixed<M, E>) -> Result<Self, RangeError> {
        Self::try_from(value.value())
    }
}

impl<M: Mantissa, const E: i8> TryFrom<rust_decimal::Decimal> for Fixed<M, E> {
    type Error = RangeError;

    /// The same value at exponent `E`, if exact there and its mantissa
    /// fits `M`.
    ///
    /// ```
    /// use sbe_rt::Fixed;
    ///
    /// let px = Fixed::<i64, -9>::try_from(rust_decimal::Decimal::new(451625, 2))?;
    /// assert_eq!(px.mantissa(), 4_516_250_000_000);
    /// assert_eq!(rust_decimal::Decimal::try_from(px)?.to_string(), "4516.25");
    /// # Ok::<(), sbe_rt::RangeError>(())
    /// ```
    fn try_from(value: rust_decimal::Decimal) -> Result<Self, RangeError> {
        Self::try_from(Decimal::from(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_exactly_or_refuses() {
        let big = Decimal::new(5, 2);
        assert_eq!(
            rust_decimal::Decimal::try_from(big),
            Ok(rust_decimal::Decimal::from(500))
        );
        let max = rust_decimal::Decimal::MAX;
        assert_eq!(rust_decimal::Decimal::try_from(Decimal::from(max)), Ok(max));
        let min_scale = rust_decimal::Decimal::new(-1, MAX_SCALE);
        assert_eq!(Decimal::from(min_scale), Decimal::new(-1, -28));
        assert_eq!(
            rust_decimal::Decimal::try_from(Decimal::new(1, -29)),
            Err(RangeError::Inexact)
        );
        assert_eq!(
            rust_decimal::Decimal::try_from(Decimal::new(10, -29)),
            Ok(rust_decimal::Decimal::new(1, 28))
        );
        assert_eq!(
            rust_decimal::Decimal::try_from(Decimal::new(1, 29)),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            rust_decimal::Decimal::try_from(Decimal::new(i128::MAX, 0)),
            Err(RangeError::Overflow)
        );
        let wire = Decimal::from_u64(u64::MAX, -9);
        assert_eq!(
            Decimal::from(rust_decimal::Decimal::try_from(wire).unwrap()),
            wire
        );
    }
}
