//! [`Decimal`]'s text form: plain decimal notation, every digit and no
//! more (`123.45`, `0.000000001`, `500`, `-7`, `0`), and the parser that
//! reads it back (and scientific notation).

use super::scan::{number, Scan};
use super::stack_str::StackStr;
use super::{Decimal, ParseError};
use core::fmt::{self, Write as _};
use core::str::FromStr;

/// Sign, "0.", 128 zeros of the smallest exponent and 39 digits.
const LONGEST: usize = 176;

impl fmt::Display for Decimal {
    /// Plain notation in its shortest exact form: trailing fractional zeros
    /// dropped, no exponent (a positive exponent writes its zeros out).
    /// Width, fill and alignment apply to the whole number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = StackStr::<LONGEST>::new();
        write_plain(&mut s, *self)?;
        f.pad(s.as_str())
    }
}

fn write_plain(out: &mut impl fmt::Write, value: Decimal) -> fmt::Result {
    let n = value.normalized();
    let mut digits = StackStr::<40>::new();
    write!(digits, "{}", n.mantissa().unsigned_abs())?;
    let digits = digits.as_str();
    if n.mantissa() < 0 {
        out.write_char('-')?;
    }
    let scale = -i32::from(n.exponent());
    if scale <= 0 {
        out.write_str(digits)?;
        return zeros(out, scale.unsigned_abs());
    }
    let scale = scale.unsigned_abs() as usize; // 1..=128
    match digits.len().checked_sub(scale) {
        Some(int_len) if int_len > 0 => {
            let (int, frac) = digits.split_at_checked(int_len).ok_or(fmt::Error)?;
            write!(out, "{int}.{frac}")
        }
        _ => {
            out.write_str("0.")?;
            zeros(out, scale.saturating_sub(digits.len()) as u32)?;
            out.write_str(digits)
        }
    }
}

fn zeros(out: &mut impl fmt::Write, n: u32) -> fmt::Result {
    (0..n).try_for_each(|_| out.write_char('0'))
}

impl FromStr for Decimal {
    type Err = ParseError;

    /// Reads `[+-]digits[.digits][(e|E)[+-]digits]`, with digits on at
    /// least one side of the point (`"123.45"`, `"-0.001"`, `".5"`,
    /// `"1e-9"`, `"2.5E3"`). The value keeps its digits exactly:
    /// [`ParseError::OutOfRange`] if no `i128` mantissa at an `i8`
    /// exponent holds it.
    ///
    /// ```
    /// use sbe_rt::{Decimal, ParseError};
    ///
    /// assert_eq!("1e-9".parse(), Ok(Decimal::new(1, -9)));
    /// assert_eq!("-0.00100".parse(), Ok(Decimal::new(-1, -3)));
    /// assert_eq!("1e-129".parse::<Decimal>(), Err(ParseError::OutOfRange));
    /// assert_eq!("1.2.3".parse::<Decimal>(), Err(ParseError::Syntax));
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut scan = Scan::new(s);
        let negative = scan.eat(b'-');
        if !negative {
            scan.eat(b'+');
        }
        let int = scan.digits();
        let frac = if scan.eat(b'.') { scan.digits() } else { &[] };
        if int.is_empty() && frac.is_empty() {
            return Err(ParseError::Syntax);
        }
        let exponent = if scan.eat(b'e') {
            read_exponent(&mut scan)?
        } else {
            0
        };
        scan.end()?;
        from_parts(negative, int, frac, exponent)
    }
}

fn read_exponent(scan: &mut Scan<'_>) -> Result<i64, ParseError> {
    let negative = scan.eat(b'-');
    if !negative {
        scan.eat(b'+');
    }
    let digits = scan.digits();
    if digits.is_empty() {
        return Err(ParseError::Syntax);
    }
    let magnitude = number(digits).and_then(|m| i64::try_from(m).ok());
    let magnitude = magnitude.ok_or(ParseError::OutOfRange)?;
    Ok(if negative { -magnitude } else { magnitude })
}

/// The value of `int.frac * 10^exponent`: trailing zeros go into the
/// exponent before the digits are summed, so `1000...0` of any length and
/// `1.000...0` fit.
fn from_parts(
    negative: bool,
    int: &[u8],
    frac: &[u8],
    exponent: i64,
) -> Result<Decimal, ParseError> {
    let all = || int.iter().chain(frac);
    let trailing = all().rev().take_while(|b| **b == b'0').count();
    let significant = int
        .len()
        .saturating_add(frac.len())
        .saturating_sub(trailing);
    let magnitude = all().take(significant).try_fold(0u128, |acc, &b| {
        acc.checked_mul(10)?.checked_add(u128::from(b - b'0'))
    });
    let magnitude = magnitude.ok_or(ParseError::OutOfRange)?;
    if magnitude == 0 {
        return Ok(Decimal::ZERO);
    }
    let mantissa = if negative {
        0i128.checked_sub_unsigned(magnitude)
    } else {
        0i128.checked_add_unsigned(magnitude)
    };
    let shift = i64::try_from(trailing)
        .ok()
        .zip(i64::try_from(frac.len()).ok());
    let exponent = shift.and_then(|(t, f)| exponent.checked_add(t)?.checked_sub(f));
    fit(
        mantissa.ok_or(ParseError::OutOfRange)?,
        exponent.ok_or(ParseError::OutOfRange)?,
    )
}

/// `mantissa * 10^exponent` at an `i8` exponent: an exponent past 127
/// moves into the mantissa; one below -128 cannot be held exactly.
fn fit(mantissa: i128, exponent: i64) -> Result<Decimal, ParseError> {
    if let Ok(e) = i8::try_from(exponent) {
        return Ok(Decimal::new(mantissa, e));
    }
    let excess = exponent.checked_sub(i8::MAX.into()).filter(|x| *x > 0);
    let factor = excess
        .and_then(|x| u32::try_from(x).ok())
        .and_then(|x| 10i128.checked_pow(x));
    let mantissa = factor.and_then(|f| mantissa.checked_mul(f));
    Ok(Decimal::new(
        mantissa.ok_or(ParseError::OutOfRange)?,
        i8::MAX,
    ))
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn prints_the_shortest_exact_form() {
        let cases = [
            (Decimal::new(1_234_500_000, -7), "123.45"),
            (Decimal::new(1, -9), "0.000000001"),
            (Decimal::new(5, 2), "500"),
            (Decimal::new(-5, 2), "-500"),
            (Decimal::new(-1_230, -4), "-0.123"),
            (Decimal::new(0, -4), "0"),
            (Decimal::new(0, 4), "0"),
            (Decimal::new(100, -2), "1"),
            (Decimal::new(12, -2), "0.12"),
            (
                Decimal::new(i128::MIN, 0),
                "-170141183460469231731687303715884105728",
            ),
        ];
        for (d, text) in cases {
            assert_eq!(d.to_string(), text, "{d:?}");
            assert_eq!(text.parse::<Decimal>(), Ok(d), "{text}");
        }
        assert_eq!(alloc::format!("[{:>6}]", Decimal::new(15, -1)), "[   1.5]");
    }

    #[test]
    fn the_longest_forms_fit() {
        let tiny = Decimal::new(i128::MIN, -128).to_string();
        assert_eq!(tiny.len(), 2 + 128 + 1);
        assert!(tiny.starts_with("-0.00") && tiny.ends_with("105728"));
        let huge = Decimal::new(i128::MIN + 1, 127).to_string();
        assert_eq!(huge.len(), 1 + 39 + 127);
        assert_eq!(
            huge.parse::<Decimal>(),
            Ok(Decimal::new(i128::MIN + 1, 127))
        );
        assert_eq!(tiny.parse::<Decimal>(), Ok(Decimal::new(i128::MIN, -128)));
    }

    #[test]
    fn parses_every_accepted_form() {
        let ok = [
            ("123.45", Decimal::new(12_345, -2)),
            ("+1.", Decimal::new(1, 0)),
            (".5", Decimal::new(5, -1)),
            ("-0", Decimal::ZERO),
            ("2.5E3", Decimal::new(2500, 0)),
            ("1e+2", Decimal::new(100, 0)),
            (
                "0.0000000000000000000000000000000000000000000000001",
                Decimal::new(1, -49),
            ),
            ("1e130", Decimal::new(1000, 127)),
            ("0e999999", Decimal::ZERO),
        ];
        for (text, d) in ok {
            assert_eq!(text.parse::<Decimal>(), Ok(d), "{text}");
        }
        for text in [
            "", "-", ".", "e5", "1e", "1e+", "--1", "1 ", " 1", "1_0", "0x10", "1.2.3", "١",
        ] {
            assert_eq!(text.parse::<Decimal>(), Err(ParseError::Syntax), "{text:?}");
        }
        let long_zeros = alloc::format!("1{}", "0".repeat(300));
        assert_eq!(long_zeros.parse::<Decimal>(), Err(ParseError::OutOfRange));
        let frac_zeros = alloc::format!("1.{}", "0".repeat(300));
        assert_eq!(frac_zeros.parse::<Decimal>(), Ok(Decimal::new(1, 0)));
        for text in [
            "1e-129",
            "1e99999999999999999999",
            "170141183460469231731687303715884105728",
        ] {
            assert_eq!(
                text.parse::<Decimal>(),
                Err(ParseError::OutOfRange),
                "{text}"
            );
        }
        assert_eq!(
            "-170141183460469231731687303715884105728"
                .parse::<Decimal>()
                .map(Decimal::mantissa),
            Ok(i128::MIN)
        );
    }
}
