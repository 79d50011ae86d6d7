//! A tiny, compact JSON writer for generated `to_json` code.
//!
//! [`JsonWriter`] appends to a `String`, puts commas between values by
//! itself and writes no whitespace. Its value methods follow the mapping of
//! SBE values to JSON used by the reference vectors: exact 64-bit integers,
//! floats in Java's shortest form ([`JavaFloat`], [`JavaDouble`]) with
//! `null` for NaN and infinities, UTF-8 or ISO-8859-1 char data as strings,
//! binary data as lowercase hex.
//!
//! ```
//! use sbe_rt::JsonWriter;
//!
//! let mut w = JsonWriter::new();
//! w.begin_object();
//! w.key("a").u64(1);
//! w.key("b").begin_array().i64(-1).f32(2.5).null().end_array();
//! w.key("c").str("q\"uote").key("d").latin1(b"caf\xe9").key("e").hex(&[0xca, 0xfe]);
//! w.end_object();
//! assert_eq!(
//!     w.finish(),
//!     r#"{"a":1,"b":[-1,2.5,null],"c":"q\"uote","d":"café","e":"cafe"}"#
//! );
//! ```

use alloc::string::String;
use core::fmt::Write as _;

use crate::float::{JavaDouble, JavaFloat};
use crate::visit::{Bit, Field, Value, Visit, Visitor};

/// Writes compact JSON into a `String`, handling commas itself.
///
/// Call [`key`](Self::key) before each value inside an object; inside an
/// array or at the top level write values directly. Every method returns
/// `&mut Self` so calls can be chained. The writer does not check that the
/// sequence of calls forms valid JSON (for instance a missing `key` or an
/// unclosed object); generated code makes the calls in a fixed, correct
/// order.
///
/// ```
/// use sbe_rt::JsonWriter;
///
/// let mut w = JsonWriter::with_capacity(64);
/// w.begin_object()
///     .key("price").f64(-961.375)
///     .key("qty").u64(u64::MAX)
///     .key("big").f64(1e10)
///     .key("nan").f32(f32::NAN)
///     .end_object();
/// assert_eq!(
///     w.as_str(),
///     r#"{"price":-961.375,"qty":18446744073709551615,"big":1.0E10,"nan":null}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonWriter {
    out: String,
    /// A value was just completed at the current nesting level, so the next
    /// key or value needs a comma before it.
    comma: bool,
}

impl JsonWriter {
    /// An empty writer.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer whose buffer holds `capacity` bytes before growing.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        JsonWriter {
            out: String::with_capacity(capacity),
            comma: false,
        }
    }

    /// A writer that appends to `out` (reusing its allocation), as if `out`
    /// were a complete value or empty: a first value is written without a
    /// comma.
    ///
    /// ```
    /// let mut buf = String::from("line: ");
    /// let mut w = sbe_rt::JsonWriter::from_string(buf);
    /// w.begin_array().u64(1).end_array();
    /// assert_eq!(w.finish(), "line: [1]");
    /// ```
    #[must_use]
    pub fn from_string(out: String) -> Self {
        JsonWriter { out, comma: false }
    }

    /// The JSON written so far.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// Empties the writer, keeping its allocation.
    pub fn clear(&mut self) {
        self.out.clear();
        self.comma = false;
    }

    /// The JSON written, consuming the writer.
    #[must_use]
    pub fn finish(self) -> String {
        self.out
    }

    #[inline]
    fn sep(&mut self) {
        if self.comma {
            self.out.push(',');
        }
    }

    /// Starts a value: writes the comma that separates it from the previous
    /// one, if any, and marks the value as done.
    #[inline]
    fn start_value(&mut self) -> &mut String {
        self.sep();
        self.comma = true;
        &mut self.out
    }

    /// Writes `{`.
    pub fn begin_object(&mut self) -> &mut Self {
        self.sep();
        self.out.push('{');
        self.comma = false;
        self
    }

    /// Writes `}`.
    pub fn end_object(&mut self) -> &mut Self {
        self.out.push('}');
        self.comma = true;
        self
    }

    /// Writes `[`.
    pub fn begin_array(&mut self) -> &mut Self {
        self.sep();
        self.out.push('[');
        self.comma = false;
        self
    }

    /// Writes `]`.
    pub fn end_array(&mut self) -> &mut Self {
        self.out.push(']');
        self.comma = true;
        self
    }

    /// Writes an object key (escaped) and the `:` after it; the next call
    /// writes its value.
    pub fn key(&mut self, name: &str) -> &mut Self {
        self.sep();
        escape_str(&mut self.out, name);
        self.out.push(':');
        self.comma = false;
        self
    }

    /// Writes `null`.
    pub fn null(&mut self) -> &mut Self {
        self.start_value().push_str("null");
        self
    }

    /// Writes `true` or `false`.
    pub fn bool(&mut self, v: bool) -> &mut Self {
        self.start_value()
            .push_str(if v { "true" } else { "false" });
        self
    }

    /// Writes an unsigned integer, exactly (use for every unsigned SBE
    /// integer: `u64::from(v)`).
    pub fn u64(&mut self, v: u64) -> &mut Self {
        push_decimal(self.start_value(), v, false);
        self
    }

    /// Writes a signed integer, exactly (use for every signed SBE integer:
    /// `i64::from(v)`).
    pub fn i64(&mut self, v: i64) -> &mut Self {
        push_decimal(self.start_value(), v.unsigned_abs(), v < 0);
        self
    }

    /// Writes a `float` as Java's `Float.toString` prints it (`536.0`,
    /// `1.0E10`); NaN and infinities give `null`.
    ///
    /// ```
    /// let mut w = sbe_rt::JsonWriter::new();
    /// w.begin_array().f32(536.0).f32(1.0e-5).f32(f32::INFINITY).end_array();
    /// assert_eq!(w.as_str(), "[536.0,1.0E-5,null]");
    /// ```
    pub fn f32(&mut self, v: f32) -> &mut Self {
        if v.is_finite() {
            let _ = write!(self.start_value(), "{}", JavaFloat(v));
            self
        } else {
            self.null()
        }
    }

    /// Writes a `double` as Java's `Double.toString` prints it (`536.0`,
    /// `1.0E10`); NaN and infinities give `null`.
    pub fn f64(&mut self, v: f64) -> &mut Self {
        if v.is_finite() {
            let _ = write!(self.start_value(), "{}", JavaDouble(v));
            self
        } else {
            self.null()
        }
    }

    /// Writes a string, JSON-escaped.
    ///
    /// `"` and `\` are escaped, control characters below U+0020 become
    /// `\b \f \n \r \t` or `\u00XX`; everything else is written as is.
    ///
    /// ```
    /// let mut w = sbe_rt::JsonWriter::new();
    /// w.str("a\"b\\c\n\u{1}é");
    /// assert_eq!(w.as_str(), r#""a\"b\\c\n\u0001é""#);
    /// ```
    pub fn str(&mut self, s: &str) -> &mut Self {
        escape_str(self.start_value(), s);
        self
    }

    /// Writes ISO-8859-1 bytes as a string: each byte is the code point of
    /// the same value (`0xE9` is `é`), JSON-escaped as in [`str`](Self::str).
    ///
    /// ```
    /// let mut w = sbe_rt::JsonWriter::new();
    /// w.latin1(b"\xa3100\t");
    /// assert_eq!(w.as_str(), r#""£100\t""#);
    /// ```
    pub fn latin1(&mut self, bytes: &[u8]) -> &mut Self {
        let out = self.start_value();
        out.push('"');
        for &b in bytes {
            escape_char(out, char::from(b));
        }
        out.push('"');
        self
    }

    /// Writes bytes that should be UTF-8 as a string; each invalid sequence
    /// becomes U+FFFD (like Java's `new String(bytes, UTF_8)`). Valid UTF-8
    /// is written as [`str`](Self::str) would.
    ///
    /// ```
    /// let mut w = sbe_rt::JsonWriter::new();
    /// w.utf8_lossy(b"ok\xffok");
    /// assert_eq!(w.as_str(), "\"ok\u{fffd}ok\"");
    /// ```
    pub fn utf8_lossy(&mut self, bytes: &[u8]) -> &mut Self {
        let out = self.start_value();
        out.push('"');
        let mut rest = bytes;
        loop {
            match core::str::from_utf8(rest) {
                Ok(s) => {
                    escape_into(out, s);
                    break;
                }
                Err(e) => {
                    let (valid, bad) = rest
                        .split_at_checked(e.valid_up_to())
                        .unwrap_or((rest, &[]));
                    escape_into(out, core::str::from_utf8(valid).unwrap_or_default());
                    out.push('\u{fffd}');
                    let skip = e.error_len().unwrap_or(bad.len());
                    rest = bad.get(skip..).unwrap_or_default();
                }
            }
        }
        out.push('"');
        self
    }

    /// Writes bytes as a string of lowercase hex digits, two per byte
    /// (`""` when empty).
    ///
    /// ```
    /// let mut w = sbe_rt::JsonWriter::new();
    /// w.begin_array().hex(&[0x00, 0xab, 0x10]).hex(&[]).end_array();
    /// assert_eq!(w.as_str(), r#"["00ab10",""]"#);
    /// ```
    pub fn hex(&mut self, bytes: &[u8]) -> &mut Self {
        let out = self.start_value();
        out.reserve(bytes.len().saturating_mul(2).saturating_add(2));
        out.push('"');
        for &b in bytes {
            out.push(hex_digit(b >> 4));
            out.push(hex_digit(b & 0x0f));
        }
        out.push('"');
        self
    }

    /// Writes `json` as a value, unchanged. The caller guarantees it is one
    /// complete, valid JSON value (for instance the output of another
    /// writer's [`finish`](Self::finish)).
    pub fn raw(&mut self, json: &str) -> &mut Self {
        self.start_value().push_str(json);
        self
    }

    /// Writes an SBE value with FORMAT.md's mapping: an enum as its
    /// name (its raw value when the schema names none), a set as the
    /// array of its choices set, character data as a string, binary data
    /// as hex, a block as an object.
    ///
    /// ```
    /// use sbe_rt::visit::{Bits, Text, Value};
    ///
    /// let mut w = sbe_rt::JsonWriter::new();
    /// w.begin_array()
    ///     .value(Value::Enum { name: Some("A"), raw: &65u8 })
    ///     .value(Value::Enum { name: None, raw: &-1i8 })
    ///     .value(Value::Set(Bits::new(0b11, 8, &[("x", 1)])))
    ///     .value(Value::Text(Text::latin1(b"\xe9")))
    ///     .value(Value::Bytes(&[0xbe, 0xef]))
    ///     .end_array();
    /// assert_eq!(w.as_str(), r#"["A",-1,["x",0],"é","beef"]"#);
    /// ```
    pub fn value(&mut self, v: Value<'_>) -> &mut Self {
        match v {
            Value::Null => self.null(),
            Value::U64(v) => self.u64(v),
            Value::I64(v) => self.i64(v),
            Value::F32(v) => self.f32(v),
            Value::F64(v) => self.f64(v),
            Value::Str(s) => self.str(s),
            Value::Text(t) if t.is_utf8() => self.utf8_lossy(t.bytes()),
            Value::Text(t) => self.latin1(t.bytes()),
            Value::Bytes(b) => self.hex(b),
            Value::Enum { name: Some(n), .. } => self.str(n),
            Value::Enum { name: None, raw } => self.value(raw.value()),
            Value::Set(bits) => {
                self.begin_array();
                bits.for_each(|bit| {
                    match bit {
                        Bit::Choice(name) => self.str(name),
                        Bit::Unknown(bit) => self.u64(u64::from(bit)),
                    };
                });
                self.end_array()
            }
            Value::Object(block) => self.object(block),
            Value::List(list) => {
                self.begin_array();
                list.each(&mut |e| {
                    self.value(e.value());
                });
                self.end_array()
            }
        }
    }

    /// Writes `block` as an object of its fields.
    pub fn object(&mut self, block: &dyn Visit) -> &mut Self {
        self.begin_object();
        block.visit(self);
        self.end_object()
    }
}

/// Writes each field as a key and its value.
impl Visitor for JsonWriter {
    fn field(&mut self, name: &str, value: &dyn Field) {
        self.key(name).value(value.value());
    }
}

/// The lowercase hex digit of `n` (`n < 16`).
#[inline]
fn hex_digit(n: u8) -> char {
    char::from_digit(u32::from(n), 16).unwrap_or('0')
}

/// Appends `v` in decimal, after a `-` when `negative`.
fn push_decimal(out: &mut String, v: u64, negative: bool) {
    if negative {
        out.push('-');
    }
    out.push_str(decimal(v, &mut [0; 20]));
}

/// `v` in decimal, made in `buf`: what [`JsonWriter`] writes for an
/// integer, for writers of JSON text of their own (it takes fewer
/// instructions than formatting through `core::fmt`).
///
/// ```
/// assert_eq!(sbe_rt::json::decimal(0, &mut [0; 20]), "0");
/// assert_eq!(sbe_rt::json::decimal(u64::MAX, &mut [0; 20]), "18446744073709551615");
/// ```
pub fn decimal(mut v: u64, buf: &mut [u8; 20]) -> &str {
    let mut start = buf.len();
    for slot in buf.iter_mut().rev() {
        *slot = b'0' + (v % 10) as u8;
        start -= 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // ASCII digits: always UTF-8.
    core::str::from_utf8(buf.get(start..).unwrap_or_default()).unwrap_or("0")
}

/// Whether a JSON string escapes byte `b` of UTF-8 text: a control
/// character, `"` or `\\`.
#[inline]
fn must_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any byte of `bytes` is a control character, `"` or `\\`: the
/// bytes a JSON string escapes. Eight bytes a step, as one `u64` (SWAR:
/// a byte below 0x20, or equal to `"` or `\\` after an XOR makes it zero,
/// sets its top bit in the masks below; each test is exact as a yes/no).
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Top bits of the bytes of `w` below `n`, and of those equal to `b`.
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w;
    let equal = |w: u64, b: u8| below(w ^ (ONES * u64::from(b)), 1);
    let word_needs = |w: u64| (below(w, 0x20) | equal(w, b'"') | equal(w, b'\\')) & HIGH != 0;
    let mut chunks = bytes.chunks_exact(8);
    let mut any = false;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        any |= word_needs(u64::from_le_bytes(word));
    }
    any || chunks.remainder().iter().any(|&b| must_escape(b))
}

/// Appends `s` as a quoted, escaped JSON string.
fn escape_str(out: &mut String, s: &str) {
    out.push('"');
    // Most strings (every schema name) need no escape: find that out
    // eight bytes at a time, then copy them in one go.
    if !needs_escape(s.as_bytes()) {
        out.push_str(s);
    } else {
        escape_into(out, s);
    }
    out.push('"');
}

/// Appends the escaped contents of `s`, without quotes, copying runs of
/// characters that need no escaping in one go.
fn escape_into(out: &mut String, s: &str) {
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        if must_escape(b) {
            // `i` and `start` are ASCII positions, so char boundaries.
            out.push_str(s.get(start..i).unwrap_or_default());
            escape_char(out, char::from(b));
            start = i + 1;
        }
    }
    out.push_str(s.get(start..).unwrap_or_default());
}

/// Appends one character, escaped when JSON requires it.
fn escape_char(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        c if c < ' ' => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn the_escape_test_finds_every_byte_to_escape() {
        for len in 0..20 {
            for at in 0..len {
                for bad in (0u8..0x20).chain([b'"', b'\\']) {
                    let mut bytes = [b'a'; 20];
                    bytes[at] = bad;
                    assert!(needs_escape(&bytes[..len]), "{bad:#x} at {at} of {len}");
                }
                // Neighbours of the escaped bytes, and high bytes, are plain.
                for good in [0x20u8, b'!', b'#', b'[', b']', 0x7f, 0x80, 0xa2, 0xdc, 0xff] {
                    let mut bytes = [b'a'; 20];
                    bytes[at] = good;
                    assert!(!needs_escape(&bytes[..len]), "{good:#x} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn commas_and_nesting() {
        let mut w = JsonWriter::new();
        w.begin_object()
            .key("message")
            .str("Car")
            .key("header")
            .begin_object()
            .key("blockLength")
            .u64(45)
            .key("templateId")
            .u64(1)
            .end_object()
            .key("body")
            .begin_object()
            .key("groups")
            .begin_array()
            .begin_object()
            .key("x")
            .i64(-1)
            .end_object()
            .begin_object()
            .key("x")
            .i64(2)
            .key("y")
            .begin_array()
            .end_array()
            .end_object()
            .end_array()
            .key("empty")
            .begin_object()
            .end_object()
            .key("n")
            .null()
            .key("t")
            .bool(true)
            .key("f")
            .bool(false)
            .end_object()
            .end_object();
        assert_eq!(
            w.finish(),
            r#"{"message":"Car","header":{"blockLength":45,"templateId":1},"body":{"groups":[{"x":-1},{"x":2,"y":[]}],"empty":{},"n":null,"t":true,"f":false}}"#
        );
    }

    #[test]
    fn top_level_values_and_reuse() {
        let mut w = JsonWriter::new();
        w.u64(1).u64(2);
        assert_eq!(w.as_str(), "1,2");
        w.clear();
        assert_eq!(w.as_str(), "");
        w.begin_array().raw(r#"{"a":1}"#).raw("[]").end_array();
        assert_eq!(w.as_str(), r#"[{"a":1},[]]"#);
    }

    #[test]
    fn integers_are_exact() {
        let mut w = JsonWriter::new();
        w.begin_array()
            .u64(0)
            .u64(u64::MAX)
            .i64(i64::MIN)
            .i64(i64::MAX)
            .u64(u64::from(u8::MAX))
            .i64(i64::from(i8::MIN))
            .end_array();
        assert_eq!(
            w.as_str(),
            "[0,18446744073709551615,-9223372036854775808,9223372036854775807,255,-128]"
        );
    }

    #[test]
    fn floats_in_java_form() {
        let mut w = JsonWriter::new();
        w.begin_array()
            .f32(536.0)
            .f32(-961.375)
            .f64(1.0e10)
            .f64(1.0e-5)
            .f64(1.2e-5)
            .f32(0.1)
            .f64(0.0)
            .f64(-0.0)
            .f64(f64::NAN)
            .f64(f64::INFINITY)
            .f32(f32::NEG_INFINITY)
            .f32(f32::NAN)
            .end_array();
        assert_eq!(
            w.as_str(),
            "[536.0,-961.375,1.0E10,1.0E-5,1.2E-5,0.1,0.0,-0.0,null,null,null,null]"
        );
    }

    #[test]
    fn escaping() {
        let mut w = JsonWriter::new();
        w.begin_object()
            .key("k\"ey")
            .str("\"\\/\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}é😀")
            .end_object();
        assert_eq!(
            w.as_str(),
            "{\"k\\\"ey\":\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f}é😀\"}"
        );
        let mut w = JsonWriter::new();
        w.str("").str("plain");
        assert_eq!(w.as_str(), r#""","plain""#);
    }

    #[test]
    fn latin1_maps_each_byte_to_its_code_point() {
        let all: [u8; 256] = core::array::from_fn(|i| i as u8);
        let mut w = JsonWriter::new();
        w.latin1(&all);
        let expected: String = {
            let mut e = JsonWriter::new();
            let s: String = all.iter().map(|&b| char::from(b)).collect();
            e.str(&s);
            e.finish()
        };
        assert_eq!(w.as_str(), expected);
        let mut w = JsonWriter::new();
        w.latin1(b"A\x00\xff\"");
        assert_eq!(w.as_str(), "\"A\\u0000\u{ff}\\\"\"");
    }

    #[test]
    fn utf8_lossy_replaces_bad_sequences() {
        let mut w = JsonWriter::new();
        w.begin_array()
            .utf8_lossy(b"")
            .utf8_lossy("é\n".as_bytes())
            .utf8_lossy(b"a\xc3")
            .utf8_lossy(b"\xff\xfe\"x")
            .end_array();
        assert_eq!(
            w.as_str(),
            "[\"\",\"é\\n\",\"a\u{fffd}\",\"\u{fffd}\u{fffd}\\\"x\"]"
        );
    }

    #[test]
    fn hex_is_lowercase() {
        let mut w = JsonWriter::new();
        w.hex(&[0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xff]);
        assert_eq!(w.finish(), "\"0123456789abcdefff\"");
    }

    #[test]
    fn from_string_appends() {
        let mut w = JsonWriter::from_string("x".to_string());
        w.u64(7);
        assert_eq!(w.finish(), "x7");
    }
}
