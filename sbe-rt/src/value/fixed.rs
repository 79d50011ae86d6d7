//! [`Fixed`]: a decimal whose exponent is the schema's constant, held as
//! the wire's mantissa.

use super::{Decimal, ParseError, RangeError};
use core::fmt;
use core::str::FromStr;

mod sealed {
    pub trait Sealed {}
}

/// A wire mantissa type of a decimal: `i8` to `i64`, `u8` to `u64`.
///
/// Sealed: these are the integer types SBE's decimal composites carry.
pub trait Mantissa: Copy + Into<i128> + TryFrom<i128> + sealed::Sealed {}

macro_rules! mantissas {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Mantissa for $t {}
    )*};
}

mantissas!(i8, i16, i32, i64, u8, u16, u32, u64);

/// An exact decimal `mantissa * 10^E` whose exponent `E` is fixed by its
/// type: what an owned message holds for a decimal field whose exponent is
/// a constant of the schema (a CME price is `Fixed<i64, -9>`), so that it
/// is the size of its mantissa and writes back without a check.
///
/// Exactness is checked where a value is made from another decimal
/// ([`TryFrom<Decimal>`](#impl-TryFrom<Decimal>-for-Fixed<M,+E>),
/// [`FromStr`]), never when it is written. It compares and hashes by its
/// mantissa, which at one exponent is comparing by value, and prints as
/// [`Decimal`] does.
///
/// ```
/// use sbe_rt::{Decimal, Fixed, RangeError};
///
/// let px = Fixed::<i64, -7>::new(1_234_500_000);
/// assert_eq!(px.to_string(), "123.45");
/// assert_eq!(px.value(), Decimal::new(12_345, -2));
/// assert_eq!("123.45".parse::<Fixed<i64, -7>>(), Ok(px));
/// assert_eq!(Fixed::<i64, -2>::try_from(Decimal::new(123_456, -3)), Err(RangeError::Inexact));
/// assert_eq!(Fixed::<u8, 0>::try_from(Decimal::from(256)), Err(RangeError::Overflow));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Fixed<M, const E: i8>(M);

impl<M: Mantissa, const E: i8> Fixed<M, E> {
    /// The exponent every value of this type has.
    pub const EXPONENT: i8 = E;

    /// `mantissa * 10^E`.
    pub const fn new(mantissa: M) -> Self {
        Self(mantissa)
    }

    /// The mantissa, as the wire carries it.
    pub const fn mantissa(self) -> M {
        self.0
    }

    /// The value as a [`Decimal`] (always exact).
    pub fn value(self) -> Decimal {
        Decimal::new(self.0.into(), E)
    }

    /// The nearest `f64` ([`Decimal::to_f64`]).
    pub fn to_f64(self) -> f64 {
        self.value().to_f64()
    }
}

impl<M: Mantissa, const E: i8> From<Fixed<M, E>> for Decimal {
    fn from(value: Fixed<M, E>) -> Self {
        value.value()
    }
}

impl<M: Mantissa, const E: i8> TryFrom<Decimal> for Fixed<M, E> {
    type Error = RangeError;

    /// The same value at exponent `E`: `Err(Inexact)` if a digit would be
    /// lost, `Err(Overflow)` if the mantissa does not fit `M`.
    fn try_from(value: Decimal) -> Result<Self, RangeError> {
        value.mantissa_at::<M>(E).map(Self)
    }
}

impl<M: Mantissa, const E: i8> fmt::Display for Fixed<M, E> {
    /// As [`Decimal`]: the shortest exact plain form (`123.45`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value(), f)
    }
}

impl<M: Mantissa + fmt::Debug, const E: i8> fmt::Debug for Fixed<M, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fixed")
            .field("mantissa", &self.0)
            .field("exponent", &E)
            .finish()
    }
}

impl<M: Mantissa, const E: i8> FromStr for Fixed<M, E> {
    type Err = ParseError;

    /// Reads what [`Decimal`] reads; `Err(OutOfRange)` where the value is
    /// not exact at `E` or its mantissa does not fit `M`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let d: Decimal = s.parse()?;
        Self::try_from(d).map_err(|_| ParseError::OutOfRange)
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;
    use proptest::prelude::*;

    #[test]
    fn every_mantissa_type_at_its_limits_round_trips() {
        fn limits<M: Mantissa + PartialEq + fmt::Debug>(lo: M, hi: M) {
            for m in [lo, hi] {
                let f = Fixed::<M, -3>::new(m);
                assert_eq!(Fixed::<M, -3>::try_from(f.value()), Ok(f));
                assert_eq!(f.to_string().parse::<Fixed<M, -3>>(), Ok(f));
            }
            let past = Decimal::new(hi.into() + 1, -3);
            assert_eq!(Fixed::<M, -3>::try_from(past), Err(RangeError::Overflow));
        }
        limits(i8::MIN, i8::MAX);
        limits(i16::MIN, i16::MAX);
        limits(i32::MIN, i32::MAX);
        limits(i64::MIN, i64::MAX);
        limits(u8::MIN, u8::MAX);
        limits(u16::MIN, u16::MAX);
        limits(u32::MIN, u32::MAX);
        limits(u64::MIN, u64::MAX);
    }

    #[test]
    fn another_exponent_converts_only_when_exact() {
        let f = Fixed::<i32, -2>::try_from(Decimal::new(15, -1));
        assert_eq!(f.map(Fixed::mantissa), Ok(150));
        assert_eq!(
            Fixed::<i32, -2>::try_from(Decimal::new(1, -3)),
            Err(RangeError::Inexact)
        );
        assert_eq!(
            Fixed::<u32, 0>::try_from(Decimal::from(-1)),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            "0.001".parse::<Fixed<i32, -2>>(),
            Err(ParseError::OutOfRange)
        );
        assert_eq!("x".parse::<Fixed<i32, -2>>(), Err(ParseError::Syntax));
    }

    #[test]
    fn it_prints_and_orders_as_its_decimal() {
        let a = Fixed::<i64, -9>::new(1);
        assert_eq!(a.to_string(), "0.000000001");
        assert_eq!(format!("{:>12}", a), " 0.000000001");
        assert_eq!(Fixed::<u8, 2>::new(5).to_string(), "500");
        assert!(Fixed::<i64, -9>::new(-5) < a);
        assert_eq!(Fixed::<i64, -9>::EXPONENT, -9);
        assert_eq!(format!("{a:?}"), "Fixed { mantissa: 1, exponent: -9 }");
    }

    proptest! {
        #[test]
        fn value_and_back_is_the_identity(m: i64) {
            let f = Fixed::<i64, -4>::new(m);
            prop_assert_eq!(Fixed::<i64, -4>::try_from(f.value()), Ok(f));
            prop_assert_eq!(f.to_string().parse::<Fixed<i64, -4>>(), Ok(f));
        }

        #[test]
        fn order_is_the_decimals(a: i32, b: i32) {
            let (x, y) = (Fixed::<i32, -2>::new(a), Fixed::<i32, -2>::new(b));
            prop_assert_eq!(x.cmp(&y), x.value().cmp(&y.value()));
            prop_assert_eq!(x == y, x.value() == y.value());
        }
    }
}
