//! A small streaming JSON writer (FORMAT.md's mapping: Java's float form,
//! exact 64-bit integers), and the `Sink` interface the decoder drives.

/// What the decoder reports while it walks a message: JSON structure and
/// values, plus (for the annotated dump) which bytes a value came from.
pub(crate) trait Sink {
    /// `{`.
    fn begin_object(&mut self);
    /// `}`.
    fn end_object(&mut self);
    /// `[`.
    fn begin_array(&mut self);
    /// `]`.
    fn end_array(&mut self);
    /// An object key.
    fn key(&mut self, k: &str);
    /// `null`.
    fn null(&mut self);
    /// An integer.
    fn int(&mut self, v: i128);
    /// A float field's value.
    fn float(&mut self, v: f32);
    /// A double field's value.
    fn double(&mut self, v: f64);
    /// Text given as bytes, UTF-8 (lossy) or ISO-8859-1.
    fn text(&mut self, bytes: &[u8], utf8: bool);
    /// A string.
    fn str(&mut self, s: &str);
    /// Bytes as a lowercase hex string.
    fn hex(&mut self, bytes: &[u8]);
    /// The next value comes from `len` bytes at `at` (message offset).
    fn span(&mut self, _at: usize, _len: usize) {}
    /// A structural part of the wire (a group dimension, a length prefix).
    fn note(&mut self, _at: usize, _len: usize, _what: std::fmt::Arguments<'_>) {}
}

/// A sink that does nothing: for sizing a message.
pub(crate) struct NullSink;

impl Sink for NullSink {
    fn begin_object(&mut self) {}
    fn end_object(&mut self) {}
    fn begin_array(&mut self) {}
    fn end_array(&mut self) {}
    fn key(&mut self, _: &str) {}
    fn null(&mut self) {}
    fn int(&mut self, _: i128) {}
    fn float(&mut self, _: f32) {}
    fn double(&mut self, _: f64) {}
    fn text(&mut self, _: &[u8], _: bool) {}
    fn str(&mut self, _: &str) {}
    fn hex(&mut self, _: &[u8]) {}
}

/// Writes compact JSON onto the end of a byte buffer with
/// `sbe_rt::JsonWriter`, the writer behind the generated `to_json`, so
/// that `sbe decode` and the generated code print every value alike
/// (escapes, ISO-8859-1 and UTF-8 text, hex, Java's floats). The text is
/// appended to the buffer when the writer is dropped.
pub(crate) struct JsonWriter<'a> {
    out: &'a mut Vec<u8>,
    w: sbe_rt::JsonWriter,
}

std::thread_local! {
    /// The text buffer of the last writer on this thread, kept so that a
    /// message's writer does not allocate and grow a new one.
    static SCRATCH: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

impl<'a> JsonWriter<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        let mut text = SCRATCH.take();
        text.clear();
        JsonWriter {
            out,
            w: sbe_rt::JsonWriter::from_string(text),
        }
    }
}

impl Drop for JsonWriter<'_> {
    fn drop(&mut self) {
        self.out.extend_from_slice(self.w.as_str().as_bytes());
        SCRATCH.set(std::mem::take(&mut self.w).finish());
    }
}

impl Sink for JsonWriter<'_> {
    fn begin_object(&mut self) {
        self.w.begin_object();
    }
    fn end_object(&mut self) {
        self.w.end_object();
    }
    fn begin_array(&mut self) {
        self.w.begin_array();
    }
    fn end_array(&mut self) {
        self.w.end_array();
    }
    fn key(&mut self, k: &str) {
        self.w.key(k);
    }
    fn null(&mut self) {
        self.w.null();
    }
    fn int(&mut self, v: i128) {
        // Every wire integer fits one of the two.
        if let Ok(v) = i64::try_from(v) {
            self.w.i64(v);
        } else if let Ok(v) = u64::try_from(v) {
            self.w.u64(v);
        } else {
            self.w.raw(&v.to_string());
        }
    }
    fn float(&mut self, v: f32) {
        self.w.f32(v);
    }
    fn double(&mut self, v: f64) {
        self.w.f64(v);
    }
    fn text(&mut self, bytes: &[u8], utf8: bool) {
        if utf8 {
            self.w.utf8_lossy(bytes);
        } else {
            self.w.latin1(bytes);
        }
    }
    fn str(&mut self, s: &str) {
        self.w.str(s);
    }
    fn hex(&mut self, bytes: &[u8]) {
        self.w.hex(bytes);
    }
}

/// Append a JSON string literal, escaped as every other string of the
/// output is (`sbe_rt::JsonWriter`).
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    // Most strings (names, labels) have nothing to escape: copied as they
    // are, without lending `out` to a writer.
    let b = s.as_bytes();
    if b.iter().all(|&c| c >= 0x20 && c != b'"' && c != b'\\') {
        out.push(b'"');
        out.extend_from_slice(b);
        out.push(b'"');
    } else {
        JsonWriter::new(out).str(s);
    }
}

/// Append an integer in decimal, as `sbe_rt::JsonWriter` writes it.
pub fn write_int(out: &mut Vec<u8>, v: i128) {
    // Every wire integer fits in 64 bits.
    let Ok(u) = u64::try_from(v.unsigned_abs()) else {
        out.extend_from_slice(v.to_string().as_bytes());
        return;
    };
    if v < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: f64) -> String {
        let mut out = Vec::new();
        JsonWriter::new(&mut out).double(v);
        String::from_utf8(out).unwrap_or_default()
    }

    fn f(v: f32) -> String {
        let mut out = Vec::new();
        JsonWriter::new(&mut out).float(v);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn strings_escape_as_the_generated_json_does() {
        let mut out = Vec::new();
        write_str(&mut out, "a\u{1}\n\u{1f}\u{7f}\"é");
        let mut w = sbe_rt::JsonWriter::new();
        w.str("a\u{1}\n\u{1f}\u{7f}\"é");
        assert_eq!(out, w.as_str().as_bytes());
        assert_eq!(
            String::from_utf8(out).unwrap_or_default(),
            "\"a\\u0001\\n\\u001f\u{7f}\\\"é\""
        );
    }

    #[test]
    fn floats_print_like_java() {
        assert_eq!(d(536.0), "536.0");
        assert_eq!(d(-961.375), "-961.375");
        assert_eq!(d(1.0e10), "1.0E10");
        assert_eq!(d(1.5e-5), "1.5E-5");
        assert_eq!(d(0.001), "0.001");
        assert_eq!(d(1234567.0), "1234567.0");
        assert_eq!(d(12345678.0), "1.2345678E7");
        assert_eq!(d(0.0), "0.0");
        assert_eq!(d(-0.0), "-0.0");
        assert_eq!(d(f64::NAN), "null");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(3.4028235e38), "3.4028235E38");
    }

    #[test]
    fn integers_and_strings() {
        let mut out = Vec::new();
        let mut w = JsonWriter::new(&mut out);
        w.begin_object();
        w.key("a");
        w.int(u64::MAX.into());
        w.key("b");
        w.begin_array();
        w.int(-5);
        w.int(0);
        w.text(b"\xe9\"\n", false);
        w.end_array();
        w.end_object();
        drop(w);
        assert_eq!(
            String::from_utf8(out).unwrap_or_default(),
            "{\"a\":18446744073709551615,\"b\":[-5,0,\"\u{e9}\\\"\\n\"]}"
        );
    }
}
