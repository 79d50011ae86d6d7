//! Floating-point numbers printed exactly as Java prints them.
//!
//! The reference implementation prints `float` and `double` values with
//! Java's `Float.toString` / `Double.toString` (JDK 19 and later, which give
//! the shortest decimal that reads back as the same value):
//!
//! * plain decimal when `1e-3 <= |x| < 1e7`: `536.0`, `-961.375`, `0.001`;
//! * otherwise "computerized scientific notation" `d.dddE±n` with no `+`
//!   sign: `1.0E10`, `1.2E-5`, `4.9E-324`;
//! * always at least one digit after the point; zero is `0.0` or `-0.0`;
//! * `NaN`, `Infinity`, `-Infinity`.
//!
//! [`JavaFloat`] and [`JavaDouble`] are [`Display`](core::fmt::Display)
//! wrappers that print that form without allocating (usable in `no_std`,
//! e.g. in `Debug` impls). The JSON writer (`JsonWriter::f32` / `f64`,
//! feature `alloc`) uses them and prints `null` for NaN and infinities.
//!
//! ```
//! use sbe_rt::{JavaDouble, JavaFloat};
//!
//! assert_eq!(JavaFloat(536.0).to_string(), "536.0");
//! assert_eq!(JavaDouble(1e10).to_string(), "1.0E10");
//! assert_eq!(JavaDouble(1.2e-5).to_string(), "1.2E-5");
//! assert_eq!(JavaFloat(0.1).to_string(), "0.1");
//! ```

use core::fmt::{self, Write as _};

/// Displays an `f32` exactly as Java's `Float.toString` does.
///
/// See the [module documentation](self) for the format.
///
/// ```
/// use sbe_rt::JavaFloat;
///
/// assert_eq!(JavaFloat(-961.375).to_string(), "-961.375");
/// assert_eq!(JavaFloat(3.4028235e38).to_string(), "3.4028235E38");
/// assert_eq!(JavaFloat(f32::NAN).to_string(), "NaN");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JavaFloat(pub f32);

/// Displays an `f64` exactly as Java's `Double.toString` does.
///
/// See the [module documentation](self) for the format.
///
/// ```
/// use sbe_rt::JavaDouble;
///
/// assert_eq!(JavaDouble(1.0e-5).to_string(), "1.0E-5");
/// assert_eq!(JavaDouble(1234567.0).to_string(), "1234567.0");
/// assert_eq!(JavaDouble(f64::MIN_POSITIVE * f64::EPSILON).to_string(), "4.9E-324");
/// assert_eq!(JavaDouble(f64::NEG_INFINITY).to_string(), "-Infinity");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JavaDouble(pub f64);

impl fmt::Display for JavaFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_java(f, self.0)
    }
}

impl fmt::Display for JavaDouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_java(f, self.0)
    }
}

/// What the formatting needs from `f32` and `f64`.
trait Float: Copy + PartialEq + PartialOrd + fmt::LowerExp + core::str::FromStr {
    const ZERO: Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn neg(self) -> Self;
}

macro_rules! impl_float {
    ($($t:ty)*) => {$(
        impl Float for $t {
            const ZERO: Self = 0.0;
            fn is_nan(self) -> bool { <$t>::is_nan(self) }
            fn is_infinite(self) -> bool { <$t>::is_infinite(self) }
            fn is_sign_negative(self) -> bool { <$t>::is_sign_negative(self) }
            fn neg(self) -> Self { -self }
        }
    )*};
}
impl_float!(f32 f64);

/// A small stack buffer that `core::fmt` can write into.
struct StackBuf {
    bytes: [u8; 40],
    len: usize,
}

impl StackBuf {
    fn new() -> Self {
        StackBuf {
            bytes: [0; 40],
            len: 0,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(self.as_bytes()).unwrap_or("")
    }
}

impl fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let dst = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A positive decimal `0.d1d2..dn × 10^(exp + 1)`, i.e. `d1.d2..dn × 10^exp`,
/// with the digits as ASCII.
#[derive(Clone, Copy)]
struct Decimal {
    digits: [u8; 24],
    n: usize,
    exp: i32,
}

impl Decimal {
    /// Parses Rust's `{:e}` output of a positive finite number:
    /// `d[.ddd]e[-]x`.
    fn parse(s: &[u8]) -> Option<Decimal> {
        let mut d = Decimal {
            digits: [0; 24],
            n: 0,
            exp: 0,
        };
        let mut rest = s;
        while let Some((&c, tail)) = rest.split_first() {
            rest = tail;
            match c {
                b'0'..=b'9' => {
                    *d.digits.get_mut(d.n)? = c;
                    d.n += 1;
                }
                b'.' => {}
                b'e' => break,
                _ => return None,
            }
        }
        d.exp = core::str::from_utf8(rest).ok()?.parse().ok()?;
        (d.n > 0).then_some(d)
    }

    fn digits(&self) -> &[u8] {
        self.digits.get(..self.n).unwrap_or(&[])
    }

    /// Drops trailing zero digits (keeping at least one digit).
    fn trimmed(mut self) -> Decimal {
        while self.n > 1 && self.digits.get(self.n - 1) == Some(&b'0') {
            self.n -= 1;
        }
        self
    }

    /// For a two-digit decimal `a.b × 10^exp`: the next two-digit decimal
    /// above (`up`) or below it.
    fn step2(self, up: bool) -> Decimal {
        let [a, b, ..] = self.digits;
        let mut v = i32::from(a.wrapping_sub(b'0')) * 10 + i32::from(b.wrapping_sub(b'0'));
        let mut exp = self.exp;
        match (up, v) {
            (true, 99) => {
                v = 10;
                exp += 1;
            }
            (false, 10) => {
                v = 99;
                exp -= 1;
            }
            (true, _) => v += 1,
            (false, _) => v -= 1,
        }
        let mut digits = [0; 24];
        // `v` is in 10..=99.
        digits[0] = b'0' + (v / 10) as u8;
        digits[1] = b'0' + (v % 10) as u8;
        Decimal { digits, n: 2, exp }
    }

    /// Reads the decimal back as a `T`.
    fn value<T: Float>(&self) -> Option<T> {
        let mut s = StackBuf::new();
        let (first, rest) = self.digits().split_first()?;
        s.write_char(char::from(*first)).ok()?;
        s.write_char('.').ok()?;
        s.write_str(core::str::from_utf8(rest).ok()?).ok()?;
        write!(s, "0e{}", self.exp).ok()?;
        s.as_str().parse().ok()
    }
}

/// The decimal Java prints for the positive finite `x`.
fn java_decimal<T: Float>(x: T) -> Option<Decimal> {
    let mut s = StackBuf::new();
    write!(s, "{x:e}").ok()?;
    let shortest = Decimal::parse(s.as_bytes())?;
    if shortest.n > 1 {
        return Some(shortest);
    }
    // Java picks, among the decimals of length 1 *or 2* that read back as
    // `x`, the one closest to `x` (so 2^-1074 is `4.9E-324`, not `5E-324`).
    // The candidates are the two-digit decimals just below and just above
    // `x`; `{:.1e}` (exact, correctly rounded) gives the nearer one.
    let mut s = StackBuf::new();
    write!(s, "{x:.1e}").ok()?;
    let nearest = Decimal::parse(s.as_bytes())?;
    let back: T = nearest.value()?;
    if back == x {
        return Some(nearest.trimmed());
    }
    let other = nearest.step2(back < x);
    if other.value::<T>()? == x {
        return Some(other.trimmed());
    }
    Some(shortest)
}

fn write_digits(f: &mut fmt::Formatter<'_>, digits: &[u8]) -> fmt::Result {
    f.write_str(core::str::from_utf8(digits).map_err(|_| fmt::Error)?)
}

fn write_zeros(f: &mut fmt::Formatter<'_>, count: usize) -> fmt::Result {
    for _ in 0..count {
        f.write_char('0')?;
    }
    Ok(())
}

fn write_java<T: Float>(f: &mut fmt::Formatter<'_>, v: T) -> fmt::Result {
    if v.is_nan() {
        return f.write_str("NaN");
    }
    let negative = v.is_sign_negative();
    let x = if negative { v.neg() } else { v };
    if negative {
        f.write_char('-')?;
    }
    if x.is_infinite() {
        return f.write_str("Infinity");
    }
    if x == T::ZERO {
        return f.write_str("0.0");
    }
    let Some(d) = java_decimal(x) else {
        // Not reachable: Rust's `{:e}` always parses. Still print something
        // sensible rather than fail.
        return write!(f, "{x:e}");
    };
    let digits = d.digits();
    if (-3..7).contains(&d.exp) {
        // Plain: 1e-3 <= x < 1e7.
        if d.exp >= 0 {
            let int_len = d.exp.unsigned_abs() as usize + 1;
            if digits.len() > int_len {
                let (int, frac) = digits.split_at(int_len);
                write_digits(f, int)?;
                f.write_char('.')?;
                write_digits(f, frac)
            } else {
                write_digits(f, digits)?;
                write_zeros(f, int_len - digits.len())?;
                f.write_str(".0")
            }
        } else {
            f.write_str("0.")?;
            write_zeros(f, d.exp.unsigned_abs() as usize - 1)?;
            write_digits(f, digits)
        }
    } else {
        // Computerized scientific notation.
        let (first, rest) = digits.split_first().ok_or(fmt::Error)?;
        f.write_char(char::from(*first))?;
        f.write_char('.')?;
        if rest.is_empty() {
            f.write_char('0')?;
        } else {
            write_digits(f, rest)?;
        }
        write!(f, "E{}", d.exp)
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use alloc::string::ToString;

    /// Outputs of `Double.toString` (JDK 19+).
    #[test]
    fn doubles_like_java() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-1.0, "-1.0"),
            (536.0, "536.0"),
            (-961.375, "-961.375"),
            (100.0, "100.0"),
            (0.1, "0.1"),
            (0.5, "0.5"),
            (0.001, "0.001"),
            (0.0012, "0.0012"),
            (9.99e-4, "9.99E-4"),
            (1.0e-4, "1.0E-4"),
            (1.0e-5, "1.0E-5"),
            (1.2e-5, "1.2E-5"),
            (123456.789, "123456.789"),
            (1234567.0, "1234567.0"),
            (9999999.0, "9999999.0"),
            (9999999.999, "9999999.999"),
            (1.0e7, "1.0E7"),
            (1.25e7, "1.25E7"),
            (1.0e10, "1.0E10"),
            (-1.0e10, "-1.0E10"),
            (1.0e23, "1.0E23"),
            (2.0e23, "2.0E23"),
            (core::f64::consts::PI, "3.141592653589793"),
            (0.3, "0.3"),
            (0.1 + 0.2, "0.30000000000000004"),
            (f64::MAX, "1.7976931348623157E308"),
            (f64::MIN_POSITIVE, "2.2250738585072014E-308"),
            (5e-324, "4.9E-324"),
            (1e-323, "9.9E-324"),
            (1.5e-323, "1.5E-323"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (4.35, "4.35"),
        ];
        for &(v, java) in cases {
            assert_eq!(JavaDouble(v).to_string(), java, "{v:e}");
        }
        // Just below the plain range's lower end, and at its upper end.
        let below = JavaDouble(f64::from_bits(0.001f64.to_bits() - 1)).to_string();
        assert!(below.starts_with("9.99999999999999") && below.ends_with("E-4"));
        let top = JavaDouble(f64::from_bits(1.0e7f64.to_bits() - 1)).to_string();
        assert!(
            top.starts_with("9999999.99999") && !top.contains('E'),
            "{top}"
        );
    }

    /// Outputs of `Float.toString` (JDK 19+).
    #[test]
    fn floats_like_java() {
        let cases: &[(f32, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (536.0, "536.0"),
            (-961.375, "-961.375"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.33333334"),
            (core::f32::consts::PI, "3.1415927"),
            (0.001, "0.001"),
            (1.0e-4, "1.0E-4"),
            (1.0e10, "1.0E10"),
            (1.0e7, "1.0E7"),
            (9999999.0, "9999999.0"),
            (16777216.0, "1.6777216E7"),
            (123456789.0, "1.2345679E8"),
            (f32::MAX, "3.4028235E38"),
            (f32::MIN, "-3.4028235E38"),
            (1.0e-45, "1.4E-45"),
            (3.0e-45, "2.8E-45"),
            (f32::NAN, "NaN"),
            (f32::INFINITY, "Infinity"),
            (f32::NEG_INFINITY, "-Infinity"),
            (1.1, "1.1"),
        ];
        for &(v, java) in cases {
            assert_eq!(JavaFloat(v).to_string(), java, "{v:e}");
        }
    }

    /// Whatever is printed reads back as the same value.
    #[test]
    fn round_trips() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let d = f64::from_bits(state);
            if d.is_finite() {
                let text = JavaDouble(d).to_string();
                assert_eq!(text.parse::<f64>().unwrap(), d, "{text}");
                assert!(text.contains('.'), "{text}");
            }
            let f = f32::from_bits(state as u32);
            if f.is_finite() {
                let text = JavaFloat(f).to_string();
                assert_eq!(text.parse::<f32>().unwrap(), f, "{text}");
                assert!(text.contains('.'), "{text}");
            }
        }
        // Every f32 subnormal with few significant bits.
        for bits in 1..2000u32 {
            let f = f32::from_bits(bits);
            let text = JavaFloat(f).to_string();
            assert_eq!(text.parse::<f32>().unwrap(), f, "{text}");
        }
        for bits in 1..2000u64 {
            let d = f64::from_bits(bits);
            let text = JavaDouble(d).to_string();
            assert_eq!(text.parse::<f64>().unwrap(), d, "{text}");
        }
    }
}
