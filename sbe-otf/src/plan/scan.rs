//! A scan of JSON text for the encode plan: tokens read in place, strict
//! to the JSON grammar in what they accept (what they do not read, the
//! caller leaves to serde_json).

/// A scan of JSON text, strict to the grammar in what it accepts.
pub(super) struct Json<'t> {
    pub(super) b: &'t [u8],
    pub(super) i: usize,
}

impl<'t> Json<'t> {
    pub(super) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    pub(super) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    pub(super) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// Whether the next token is `c` (eaten when it is).
    pub(super) fn next_is(&mut self, c: u8) -> bool {
        self.eat(c).is_some()
    }

    /// A string without escapes or control characters.
    pub(super) fn str(&mut self) -> Option<&'t [u8]> {
        self.eat(b'"')?;
        let rest = self.b.get(self.i..)?;
        let n = plain_run(rest);
        if rest.get(n) != Some(&b'"') {
            return None;
        }
        self.i += n + 1;
        rest.get(..n)
    }

    /// The key `name` (plain text, see [`plain`]) and its colon.
    pub(super) fn key(&mut self, name: &str) -> Option<()> {
        self.eat(b'"')?;
        let end = self.i + name.len();
        if self.b.get(self.i..end)? != name.as_bytes() || self.b.get(end) != Some(&b'"') {
            return None;
        }
        self.i = end + 1;
        self.eat(b':')
    }

    /// The token `text` (a literal: `null`, a constant's JSON) next.
    pub(super) fn lit(&mut self, text: &[u8]) -> bool {
        self.ws();
        let end = self.i + text.len();
        if self.b.get(self.i..end) == Some(text) && self.ends_token(end, text) {
            self.i = end;
            true
        } else {
            false
        }
    }

    /// Whether a token `text` ending at `end` really ends there (a word or
    /// number does not run on).
    pub(super) fn ends_token(&self, end: usize, text: &[u8]) -> bool {
        let open = matches!(text.last(), Some(b'"' | b'}' | b']'));
        open || matches!(
            self.b.get(end),
            None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}' | b']')
        )
    }

    /// An integer token (`-?(0|[1-9][0-9]*)`, not the start of a
    /// fraction) that fits a `u64` or an `i64`.
    pub(super) fn int(&mut self) -> Option<i128> {
        self.ws();
        let start = self.i;
        let neg = self.b.get(self.i) == Some(&b'-');
        if neg {
            self.i += 1;
        }
        let digits = self.i;
        let mut v: u64 = 0;
        while let Some(&c) = self.b.get(self.i) {
            if !c.is_ascii_digit() {
                break;
            }
            v = v.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            self.i += 1;
        }
        let n = self.i - digits;
        let zero_led = n > 1 && self.b.get(digits) == Some(&b'0');
        if n == 0 || zero_led || !self.ends_token(self.i, b"0") {
            self.i = start;
            return None;
        }
        Some(if neg { -i128::from(v) } else { i128::from(v) })
    }

    /// A number token as `serde_json` reads it into an `f64` (finite).
    pub(super) fn float(&mut self) -> Option<f64> {
        self.ws();
        let start = self.i;
        let digit = |s: &Self| s.b.get(s.i).is_some_and(u8::is_ascii_digit);
        if self.b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        while digit(self) {
            self.i += 1;
        }
        let n = self.i - int_start;
        if n == 0 || (n > 1 && self.b.get(int_start) == Some(&b'0')) {
            return None;
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            let f = self.i;
            while digit(self) {
                self.i += 1;
            }
            if self.i == f {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.b.get(self.i) {
            self.i += 1;
            if let Some(b'+' | b'-') = self.b.get(self.i) {
                self.i += 1;
            }
            let e = self.i;
            while digit(self) {
                self.i += 1;
            }
            if self.i == e {
                return None;
            }
        }
        if !self.ends_token(self.i, b"0") {
            return None;
        }
        let text = std::str::from_utf8(self.b.get(start..self.i)?).ok()?;
        text.parse::<f64>().ok().filter(|f| f.is_finite())
    }
}

/// How many bytes of `b` come before the first `"`, `\\` or control
/// character (all of `b` when there is none): eight bytes a step (as
/// `sbe_rt`'s JSON writer finds the bytes to escape).
fn plain_run(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w;
    let equal = |w: u64, c: u8| below(w ^ (ONES * u64::from(c)), 1);
    let mut n = 0;
    for chunk in b.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // Text, not the wire: any byte order finds the same bytes.
        let w = u64::from_ne_bytes(word);
        if (below(w, 0x20) | equal(w, b'"') | equal(w, b'\\')) & HIGH != 0 {
            break;
        }
        n += 8;
    }
    let tail = b.get(n..).unwrap_or_default();
    n + tail
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .unwrap_or(tail.len())
}

/// Whether `name` is written in JSON as it is (no byte to escape): the
/// plan compares keys with it byte for byte.
pub(super) fn plain(name: &str) -> Option<()> {
    (plain_run(name.as_bytes()) == name.len()).then_some(())
}
