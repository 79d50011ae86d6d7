//! A cursor over the bytes of a string being parsed: the value types' parsers
//! take digits and punctuation from its front, never indexing.

use super::ParseError;

pub(crate) struct Scan<'a> {
    rest: &'a [u8],
}

impl<'a> Scan<'a> {
    pub(crate) fn new(s: &'a str) -> Self {
        Self { rest: s.as_bytes() }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// Takes `byte` if it is next (ASCII case-insensitively for letters).
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        match self.rest.split_first() {
            Some((&b, rest)) if b.eq_ignore_ascii_case(&byte) => {
                self.rest = rest;
                true
            }
            _ => false,
        }
    }

    /// Takes `byte` or fails with [`ParseError::Syntax`].
    pub(crate) fn expect(&mut self, byte: u8) -> Result<(), ParseError> {
        self.eat(byte).then_some(()).ok_or(ParseError::Syntax)
    }

    /// Takes the run of ASCII digits at the front (possibly empty).
    pub(crate) fn digits(&mut self) -> &'a [u8] {
        let n = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (digits, rest) = self.rest.split_at_checked(n).unwrap_or((&[], self.rest));
        self.rest = rest;
        digits
    }

    /// Takes exactly `n` digits as a number.
    pub(crate) fn fixed(&mut self, n: usize) -> Result<u32, ParseError> {
        let (digits, rest) = self.rest.split_at_checked(n).ok_or(ParseError::Syntax)?;
        let value = number(digits).ok_or(ParseError::Syntax)?;
        self.rest = rest;
        u32::try_from(value).map_err(|_| ParseError::OutOfRange)
    }

    /// Fails with [`ParseError::Syntax`] unless everything was taken.
    pub(crate) fn end(&self) -> Result<(), ParseError> {
        self.is_empty().then_some(()).ok_or(ParseError::Syntax)
    }
}

/// The number `digits` spell, or `None` if one is not a digit, there are
/// none, or the number overflows.
pub(crate) fn number(digits: &[u8]) -> Option<u128> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u128, |acc, &b| {
        let d = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        acc.checked_mul(10)?.checked_add(u128::from(d))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_digits_and_punctuation() {
        let mut s = Scan::new("2024-01x");
        assert_eq!(s.fixed(4), Ok(2024));
        assert!(s.eat(b'-'));
        assert_eq!(s.fixed(3), Err(ParseError::Syntax));
        assert_eq!(s.digits(), b"01");
        assert!(s.eat(b'X'));
        assert!(s.end().is_ok());
    }

    #[test]
    fn number_refuses_empty_non_digits_and_overflow() {
        assert_eq!(number(b""), None);
        assert_eq!(number(b"1a"), None);
        assert_eq!(
            number(b"340282366920938463463374607431768211455"),
            Some(u128::MAX)
        );
        assert_eq!(number(b"340282366920938463463374607431768211456"), None);
    }
}
