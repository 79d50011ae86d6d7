//! [`JsonBuf`]: the block of JSON output a plan writes into.

/// Bytes a short copy writes at once: every key, name and number the plan
/// writes is copied as one or two fixed-size moves of at most this many,
/// where a copy of a length known only at run time is a call to `memcpy`.
pub(crate) const WIDE: usize = 32;

/// A block of JSON output, as [`Codec::decode_json_into`](crate::Codec::decode_json_into)
/// appends to it: its bytes, then room kept initialized, so that a key or
/// a number is written with fixed-size copies. Reused from message to
/// message (written out and [`clear`](Self::clear)ed when large), it
/// grows once and stays that size.
///
/// ```
/// let mut out = sbe_otf::JsonBuf::new();
/// out.extend_from_slice(b"{\"a\":1}");
/// out.push(b'\n');
/// assert_eq!(out.as_bytes(), b"{\"a\":1}\n");
/// out.clear();
/// assert!(out.is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct JsonBuf {
    /// `bytes[..len]` written; `bytes[len..]` room, zeroed when made.
    bytes: Vec<u8>,
    len: usize,
}

impl JsonBuf {
    /// An empty buffer (it allocates when first written).
    pub const fn new() -> Self {
        Self {
            bytes: Vec::new(),
            len: 0,
        }
    }

    /// An empty buffer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            bytes: vec![0; capacity],
            len: 0,
        }
    }

    /// The bytes written.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    /// How many bytes are written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets the bytes written; the room stays.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` bytes written (all of them when there are
    /// fewer).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Appends a byte.
    #[inline]
    pub fn push(&mut self, b: u8) {
        self.room(1);
        if let Some(at) = self.bytes.get_mut(self.len) {
            *at = b;
            self.len += 1;
        }
    }

    /// Appends `s`.
    #[inline]
    pub fn extend_from_slice(&mut self, s: &[u8]) {
        if s.len() <= WIDE {
            return self.short(s);
        }
        self.room(s.len());
        let end = self.len + s.len();
        if let Some(at) = self.bytes.get_mut(self.len..end) {
            at.copy_from_slice(s);
            self.len = end;
        }
    }

    /// Appends the first `len` bytes of `padded` (`len <= WIDE`, and
    /// `padded` at least `WIDE` bytes long: a span of a plan's pool, which
    /// ends in `WIDE` bytes of padding): one copy of `WIDE` bytes.
    #[inline]
    pub(crate) fn padded(&mut self, padded: &[u8], len: usize) {
        self.room(WIDE);
        let (Some(src), Some(dst)) = (
            padded.get(..WIDE),
            self.bytes.get_mut(self.len..self.len + WIDE),
        ) else {
            return self.extend_from_slice(padded.get(..len).unwrap_or_default());
        };
        dst.copy_from_slice(src);
        self.len += len.min(WIDE);
    }

    /// Appends `s` of at most `WIDE` bytes: two fixed-size copies, which
    /// overlap, of the width its length calls for.
    #[inline]
    fn short(&mut self, s: &[u8]) {
        self.room(WIDE);
        let n = s.len();
        let at = self.len;
        let Some(dst) = self.bytes.get_mut(at..at + WIDE) else {
            return;
        };
        match n {
            16..=WIDE => overlapping::<16>(dst, s),
            8..=15 => overlapping::<8>(dst, s),
            4..=7 => overlapping::<4>(dst, s),
            _ => {
                for (d, &b) in dst.iter_mut().zip(s) {
                    *d = b;
                }
            }
        }
        self.len = at + n;
    }

    /// Room for `n` more bytes after those written.
    #[inline]
    fn room(&mut self, n: usize) {
        if self.bytes.len() - self.len < n {
            self.grow(n);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) {
        // By half again (a buffer reused for a stream grows a few times,
        // then stays), and by at least 1 KiB (a `Vec` lent for one message
        // is zeroed that far once, not at every step).
        let more = n.max(1024).max(self.bytes.len() / 2);
        self.bytes.resize(self.len.saturating_add(more), 0);
    }

    /// Runs `f` on the bytes written as a `Vec` (which it may append to):
    /// for writers that take a `Vec`, such as the walk's.
    pub(crate) fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        self.bytes.truncate(self.len);
        let r = f(&mut self.bytes);
        self.len = self.bytes.len();
        r
    }

    /// The buffer over `v`'s bytes, for [`into_vec`](Self::into_vec) to
    /// give them back.
    pub(crate) fn from_vec(v: Vec<u8>) -> Self {
        Self {
            len: v.len(),
            bytes: v,
        }
    }

    /// The bytes written, as a `Vec`.
    pub(crate) fn into_vec(mut self) -> Vec<u8> {
        self.bytes.truncate(self.len);
        self.bytes
    }
}

/// Copies `s` (`K <= s.len() <= 2K`) to the start of `dst` (at least
/// `s.len()` long) as its first and its last `K` bytes.
#[inline(always)]
fn overlapping<const K: usize>(dst: &mut [u8], s: &[u8]) {
    let n = s.len();
    if let (Some(d), Some(h)) = (dst.get_mut(..K), s.get(..K)) {
        d.copy_from_slice(h);
    }
    let tail = n.saturating_sub(K);
    if let (Some(d), Some(t)) = (dst.get_mut(tail..n), s.get(tail..n)) {
        d.copy_from_slice(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_length_copies_exactly() {
        let src: Vec<u8> = (1..=80).collect();
        for n in 0..=80 {
            let mut out = JsonBuf::new();
            out.push(b'[');
            out.extend_from_slice(&src[..n]);
            out.push(b']');
            let mut want = vec![b'['];
            want.extend_from_slice(&src[..n]);
            want.push(b']');
            assert_eq!(out.as_bytes(), &want[..], "length {n}");
        }
    }

    #[test]
    fn padded_copies_only_its_length() {
        let mut pool = b"abc".to_vec();
        pool.resize(3 + WIDE, 0);
        let mut out = JsonBuf::new();
        out.padded(&pool, 3);
        out.padded(&pool[1..], 2);
        assert_eq!(out.as_bytes(), b"abcbc");
    }

    #[test]
    fn grows_across_many_writes_and_gives_its_vec_back() {
        let mut out = JsonBuf::with_capacity(8);
        for i in 0..10_000u32 {
            out.extend_from_slice(i.to_string().as_bytes());
        }
        let want: String = (0..10_000u32).map(|i| i.to_string()).collect();
        assert_eq!(out.as_bytes(), want.as_bytes());
        out.with_vec(|v| v.push(b'!'));
        assert_eq!(out.as_bytes().last(), Some(&b'!'));
        out.truncate(3);
        assert_eq!(out.into_vec(), b"012");
        assert_eq!(JsonBuf::from_vec(b"xy".to_vec()).as_bytes(), b"xy");
    }
}
