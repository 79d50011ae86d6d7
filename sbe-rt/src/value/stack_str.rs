//! A fixed-capacity text buffer on the stack: the value types format into
//! one and hand it to [`Formatter::pad`](core::fmt::Formatter::pad), so
//! width and alignment work without allocating.

use core::fmt;

/// Up to `N` bytes of text; a write past the end is a [`fmt::Error`].
pub(crate) struct StackStr<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackStr<N> {
    pub(crate) const fn new() -> Self {
        Self {
            buf: [0; N],
            len: 0,
        }
    }

    /// The text written so far.
    pub(crate) fn as_str(&self) -> &str {
        // Only whole `str`s are ever copied in, so the prefix is UTF-8.
        let bytes = self.buf.get(..self.len).unwrap_or_default();
        core::str::from_utf8(bytes).unwrap_or_default()
    }
}

impl<const N: usize> fmt::Write for StackStr<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::StackStr;
    use core::fmt::Write;

    #[test]
    fn holds_what_fits_and_refuses_the_rest() {
        let mut s = StackStr::<4>::new();
        assert!(s.write_str("abc").is_ok());
        assert!(s.write_str("de").is_err());
        assert_eq!(s.as_str(), "abc");
        assert!(s.write_str("d").is_ok());
        assert_eq!(s.as_str(), "abcd");
    }
}
