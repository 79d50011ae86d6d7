//! [`Decimal`]: an SBE decimal (`mantissa * 10^exponent`), exact.

use super::RangeError;
use core::cmp::Ordering;
use core::hash::{Hash, Hasher};

/// An exact decimal number `mantissa * 10^exponent`, as SBE's `decimal`,
/// `decimal32` and `decimal64` composites (and any price or quantity of
/// that shape) carry it.
///
/// The mantissa is an `i128`, so every wire mantissa type (`int8` to
/// `int64`, `uint8` to `uint64`) converts in without loss; the exponent is
/// the wire's `i8`. A `Decimal` keeps the mantissa and exponent it was made
/// from ([`mantissa`](Self::mantissa), [`exponent`](Self::exponent)), but
/// compares, hashes and prints by value: `1.50 == 1.5`, and both print
/// `1.5`.
///
/// ```
/// use sbe_rt::Decimal;
///
/// let price = Decimal::from_i64(1_234_500_000, -7);
/// assert_eq!(price.to_string(), "123.45");
/// assert_eq!(price, "123.45".parse().unwrap());
/// assert_eq!(price.mantissa_at::<i32>(-2), Ok(12_345));
/// assert!(price.mantissa_at::<i32>(-1).is_err()); // 123.4 would lose a digit
/// assert_eq!(Decimal::new(5, 2).to_string(), "500");
/// assert_eq!(Decimal::new(1, -9).to_string(), "0.000000001");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Decimal {
    mantissa: i128,
    exponent: i8,
}

macro_rules! from_wire {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("`mantissa * 10^exponent` from a `", stringify!($t), "` mantissa, as the wire carries it.")]
        pub const fn $name(mantissa: $t, exponent: i8) -> Self {
            Self::new(mantissa as i128, exponent) // widening: lossless
        }
    )*};
}

impl Decimal {
    /// Zero.
    pub const ZERO: Self = Self::new(0, 0);

    /// `mantissa * 10^exponent`.
    pub const fn new(mantissa: i128, exponent: i8) -> Self {
        Self { mantissa, exponent }
    }

    /// The mantissa a 128-bit mantissa field holds (Binance's
    /// `mantissa128`: 16 bytes, a two's-complement `i128`, little-endian
    /// whatever the schema's byte order, as its schema says).
    pub const fn mantissa128(bytes: [u8; 16]) -> i128 {
        i128::from_le_bytes(bytes)
    }

    /// The 16 bytes of a 128-bit mantissa field holding `mantissa` (the
    /// inverse of [`mantissa128`](Self::mantissa128)).
    pub const fn mantissa128_bytes(mantissa: i128) -> [u8; 16] {
        mantissa.to_le_bytes()
    }

    /// The null of an optional 128-bit mantissa: FIX's null of a signed
    /// integer, its least value.
    pub const MANTISSA128_NULL: i128 = i128::MIN;

    from_wire!(
        from_i8: i8, from_i16: i16, from_i32: i32, from_i64: i64,
        from_u8: u8, from_u16: u16, from_u32: u32, from_u64: u64,
    );

    /// The mantissa this value was made with (not normalized).
    pub const fn mantissa(self) -> i128 {
        self.mantissa
    }

    /// The exponent this value was made with (not normalized).
    pub const fn exponent(self) -> i8 {
        self.exponent
    }

    /// Whether the value is zero (at any exponent).
    pub const fn is_zero(self) -> bool {
        self.mantissa == 0
    }

    /// The same value with trailing zeros of the mantissa moved into the
    /// exponent (as far as the exponent allows), and zero as `0e0`: the one
    /// representation of each value that equality and hashing use.
    ///
    /// ```
    /// use sbe_rt::Decimal;
    ///
    /// let d = Decimal::new(150, -2).normalized();
    /// assert_eq!((d.mantissa(), d.exponent()), (15, -1));
    /// ```
    pub const fn normalized(self) -> Self {
        if self.mantissa == 0 {
            return Self::ZERO;
        }
        let (mut m, mut e) = (self.mantissa, self.exponent);
        while m % 10 == 0 && e < i8::MAX {
            m /= 10;
            e += 1;
        }
        Self::new(m, e)
    }

    /// The mantissa that represents this value exactly at `exponent`, as
    /// the `i128` every wire mantissa type fits in.
    ///
    /// `Err(Inexact)` if digits would be lost (123.456 at exponent -2),
    /// `Err(Overflow)` if the mantissa would exceed `i128`.
    #[inline]
    pub fn rescale(self, exponent: i8) -> Result<i128, RangeError> {
        if self.exponent == exponent {
            return Ok(self.mantissa);
        }
        self.rescale_to_other(exponent)
    }

    /// [`rescale`](Self::rescale) to an exponent other than this value's:
    /// out of line, so that the usual case (a value made at the field's
    /// exponent) is one comparison where it is inlined.
    #[inline(never)]
    fn rescale_to_other(self, exponent: i8) -> Result<i128, RangeError> {
        let m = self.mantissa;
        if m == 0 {
            return Ok(0);
        }
        let shift = i32::from(self.exponent) - i32::from(exponent);
        let power = pow10(shift.unsigned_abs());
        if shift >= 0 {
            let scaled = power.and_then(|p| m.checked_mul(p));
            return scaled.ok_or(RangeError::Overflow);
        }
        // |m| < 10^39: dividing by more than 10^38 always leaves a fraction.
        let divisor = power.ok_or(RangeError::Inexact)?;
        match m.checked_rem(divisor) {
            Some(0) => m.checked_div(divisor).ok_or(RangeError::Overflow),
            _ => Err(RangeError::Inexact),
        }
    }

    /// The mantissa that represents this value exactly at `exponent`, in a
    /// wire mantissa type `T` (`i8` to `i64`, `u8` to `u64`): what an
    /// encoder writes into a decimal field whose exponent is `exponent`.
    ///
    /// `Err(Inexact)` if digits would be lost, `Err(Overflow)` if the
    /// mantissa does not fit `T`.
    ///
    /// ```
    /// use sbe_rt::{Decimal, RangeError};
    ///
    /// let qty = Decimal::new(-25, -1); // -2.5
    /// assert_eq!(qty.mantissa_at::<i64>(-9), Ok(-2_500_000_000));
    /// assert_eq!(qty.mantissa_at::<u64>(-1), Err(RangeError::Overflow));
    /// assert_eq!(qty.mantissa_at::<i32>(-9), Err(RangeError::Overflow));
    /// ```
    #[inline]
    pub fn mantissa_at<T: TryFrom<i128>>(self, exponent: i8) -> Result<T, RangeError> {
        T::try_from(self.rescale(exponent)?).map_err(|_| RangeError::Overflow)
    }

    /// The exact sum, at the smaller of the two exponents; `None` where
    /// its mantissa would overflow `i128`.
    ///
    /// ```
    /// use sbe_rt::Decimal;
    ///
    /// let sum = Decimal::new(12_345, -2).checked_add(Decimal::new(5, -3));
    /// assert_eq!(sum, Some(Decimal::new(123_455, -3)));
    /// assert_eq!(Decimal::new(i128::MAX, 0).checked_add(Decimal::new(1, 0)), None);
    /// ```
    pub fn checked_add(self, other: Self) -> Option<Self> {
        let exponent = self.exponent.min(other.exponent);
        let a = self.rescale(exponent).ok()?;
        let b = other.rescale(exponent).ok()?;
        Some(Self::new(a.checked_add(b)?, exponent))
    }

    /// The nearest `f64` (correctly rounded: the decimal string is parsed
    /// by `core`'s float parser); `±inf` beyond `f64`'s range.
    ///
    /// ```
    /// assert_eq!(sbe_rt::Decimal::new(12_345, -2).to_f64(), 123.45);
    /// ```
    pub fn to_f64(self) -> f64 {
        use core::fmt::Write as _;
        // "-170141183460469231731687303715884105728e-128" is 45 bytes.
        let mut s = super::stack_str::StackStr::<48>::new();
        match write!(s, "{}e{}", self.mantissa, self.exponent) {
            Ok(()) => s.as_str().parse().unwrap_or(f64::NAN),
            Err(_) => f64::NAN, // unreachable: 48 bytes hold any mantissa and exponent
        }
    }

    /// -1, 0 or 1: what [`Ord`] compares first.
    const fn sign(self) -> i8 {
        match self.mantissa {
            0 => 0,
            m if m < 0 => -1,
            _ => 1,
        }
    }
}

/// `10^n`, `None` past 10^38 (the largest power of ten an `i128` holds).
const fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

/// Compares `a * 10^shift` with `b` (magnitudes, `shift >= 0`) without
/// overflow: a product past `u128` is larger than any `b`.
fn cmp_shifted(a: u128, shift: u32, b: u128) -> Ordering {
    match 10u128.checked_pow(shift).and_then(|p| a.checked_mul(p)) {
        Some(scaled) => scaled.cmp(&b),
        None if a == 0 => 0.cmp(&b),
        None => Ordering::Greater,
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let by_sign = self.sign().cmp(&other.sign());
        if by_sign != Ordering::Equal || self.sign() == 0 {
            return by_sign;
        }
        let (a, b) = (self.mantissa.unsigned_abs(), other.mantissa.unsigned_abs());
        let shift = i32::from(self.exponent) - i32::from(other.exponent);
        let magnitude = if shift >= 0 {
            cmp_shifted(a, shift.unsigned_abs(), b)
        } else {
            cmp_shifted(b, shift.unsigned_abs(), a).reverse()
        };
        if self.sign() < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.normalized(), other.normalized());
        (a.mantissa, a.exponent) == (b.mantissa, b.exponent)
    }
}

impl Eq for Decimal {}

impl Hash for Decimal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.normalized();
        (n.mantissa, n.exponent).hash(state);
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Decimal {
            /// The integer, at exponent 0.
            fn from(value: $t) -> Self {
                Self::new(i128::from(value), 0)
            }
        }
    )*};
}

from_int!(i8, i16, i32, i64, i128, u8, u16, u32, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_across_exponents() {
        assert_eq!(Decimal::new(150, -2), Decimal::new(15, -1));
        assert_eq!(Decimal::new(0, 5), Decimal::new(0, -7));
        assert_eq!(Decimal::new(5, 2), Decimal::new(500, 0));
        assert_ne!(Decimal::new(5, 2), Decimal::new(-500, 0));
        // The largest exponent stops normalization: still one form per value.
        assert_eq!(Decimal::new(10, 127), Decimal::new(100, 126));
    }

    #[test]
    fn orders_numerically_without_overflow() {
        let big = Decimal::new(i128::MAX, 127);
        let tiny = Decimal::new(1, -128);
        assert!(tiny < big);
        assert!(Decimal::new(-1, 127) < Decimal::new(i128::MIN, -128));
        assert!(Decimal::new(i128::MIN, 127) < Decimal::new(i128::MIN, 126));
        assert!(Decimal::new(1, 0) > Decimal::new(999, -3));
        assert_eq!(
            Decimal::new(1, 0).cmp(&Decimal::new(1000, -3)),
            Ordering::Equal
        );
        assert_eq!(
            Decimal::new(0, 127).cmp(&Decimal::new(0, -128)),
            Ordering::Equal
        );
        assert!(Decimal::new(-2, 0) < Decimal::new(-15, -1));
    }

    #[test]
    fn rescale_is_exact_or_err() {
        let d = Decimal::new(123_456, -3);
        assert_eq!(d.rescale(-2), Err(RangeError::Inexact));
        assert_eq!(d.rescale(-3), Ok(123_456));
        assert_eq!(d.rescale(-6), Ok(123_456_000));
        assert_eq!(Decimal::new(1200, 0).rescale(2), Ok(12));
        assert_eq!(
            Decimal::new(1, 127).rescale(-128),
            Err(RangeError::Overflow)
        );
        assert_eq!(Decimal::new(0, 127).rescale(-128), Ok(0));
        assert_eq!(Decimal::new(1, -128).rescale(127), Err(RangeError::Inexact));
        assert_eq!(Decimal::new(0, -128).rescale(127), Ok(0));
        assert_eq!(Decimal::new(i128::MIN, 0).rescale(0), Ok(i128::MIN));
        assert_eq!(
            Decimal::new(i128::MIN, 0).rescale(-1),
            Err(RangeError::Overflow)
        );
        assert_eq!(
            Decimal::new(i128::MIN, -1).rescale(0),
            Err(RangeError::Inexact)
        );
    }

    #[test]
    fn every_wire_mantissa_at_its_limits() {
        macro_rules! limits {
            ($($ctor:ident: $t:ty),*) => {$(
                for m in [<$t>::MIN, <$t>::MAX] {
                    let d = Decimal::$ctor(m, -3);
                    assert_eq!(d.mantissa_at::<$t>(-3), Ok(m));
                    assert_eq!(d.mantissa(), i128::from(m));
                    assert_eq!(Decimal::from(m).mantissa_at::<$t>(0), Ok(m));
                    if m != 0 {
                        assert_eq!(d.mantissa_at::<$t>(-4), Err(RangeError::Overflow));
                    }
                }
            )*};
        }
        limits!(from_i8: i8, from_i16: i16, from_i32: i32, from_i64: i64,
                from_u8: u8, from_u16: u16, from_u32: u32, from_u64: u64);
    }

    #[test]
    fn to_f64_rounds_correctly() {
        assert_eq!(Decimal::new(1, -1).to_f64(), 0.1);
        assert_eq!(Decimal::new(-12_345, -2).to_f64(), -123.45);
        let huge = Decimal::new(i128::MAX, 127).to_f64();
        assert!(
            (huge / 1.701_411_834_604_692_3e165 - 1.0).abs() < 1e-15,
            "{huge}"
        );
        assert_eq!(
            Decimal::new(i128::MIN, -128).to_f64(),
            -1.701_411_834_604_692_4e-90
        );
        assert_eq!(
            Decimal::new(u64::MAX.into(), 0).to_f64(),
            18_446_744_073_709_551_615.0
        );
    }
}
