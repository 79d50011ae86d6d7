//! An annotated hex dump of a message: for every value its offset, its
//! bytes, its path and what it decodes to, for reading a capture by eye.

use std::fmt::Write as _;

use crate::decode::{DecodeError, Decoded};
use crate::json::{JsonWriter, Sink};
use crate::Codec;

/// Bytes shown in full on a row; longer values are cut.
const SHOWN: usize = 12;

enum Frame {
    Object { key: Option<String> },
    Array { next: usize },
}

/// Collects one row per value.
struct Inspector<'a> {
    out: &'a mut String,
    msg: &'a [u8],
    base: u64,
    stack: Vec<Frame>,
    pending_key: Option<String>,
    span: Option<(usize, usize)>,
    /// A whole array on one row: its text, depth, and span.
    capture: Option<(Vec<u8>, usize, usize, usize, String)>,
}

impl Inspector<'_> {
    /// The path of the value about to be written, and the key it is under.
    fn path(&self) -> String {
        let mut p = String::new();
        for f in self.stack.iter().skip(1) {
            match f {
                Frame::Object { key: Some(k) } => {
                    if k != "body" || !p.is_empty() {
                        if !p.is_empty() {
                            p.push('.');
                        }
                        p.push_str(k);
                    }
                }
                Frame::Object { key: None } => {}
                Frame::Array { next } => {
                    let _ = write!(p, "[{}]", next.saturating_sub(1));
                }
            }
        }
        if let Some(k) = &self.pending_key {
            if !p.is_empty() {
                p.push('.');
            }
            p.push_str(k);
        }
        p
    }

    /// A value starts: count it in its array.
    fn element(&mut self) {
        if let Some(Frame::Array { next }) = self.stack.last_mut() {
            *next += 1;
        }
    }

    fn row(&mut self, at: usize, len: usize, path: &str, value: &str) {
        self.line(at, len, &format!("{path} = {value}"));
    }

    fn line(&mut self, at: usize, len: usize, label: &str) {
        let bytes = self.msg.get(at..at.saturating_add(len)).unwrap_or_default();
        let mut hex = String::new();
        for b in bytes.iter().take(SHOWN) {
            let _ = write!(hex, "{b:02x} ");
        }
        if bytes.len() > SHOWN {
            let _ = write!(hex, "… ({} bytes)", bytes.len());
        }
        let _ = writeln!(
            self.out,
            "  {:>8}  {:<38} {label}",
            self.base + at as u64,
            hex.trim_end()
        );
    }

    fn leaf(&mut self, write: impl FnOnce(&mut JsonWriter<'_>)) {
        if let Some((buf, _, _, _, _)) = &mut self.capture {
            if buf.last().is_some_and(|&b| b != b'[') {
                buf.push(b',');
            }
            write(&mut JsonWriter::new(buf));
            return;
        }
        self.element();
        let mut text = Vec::new();
        write(&mut JsonWriter::new(&mut text));
        let path = self.path();
        self.pending_key = None;
        let text = String::from_utf8_lossy(&text).into_owned();
        match self.span.take() {
            Some((at, len)) => self.row(at, len, &path, &text),
            None if self.stack.len() > 1 => {
                let _ = writeln!(
                    self.out,
                    "  {:>8}  {:<38} {path} = {text} (constant)",
                    "", ""
                );
            }
            None => {}
        }
    }
}

impl Sink for Inspector<'_> {
    fn begin_object(&mut self) {
        self.element();
        let key = self.pending_key.take();
        self.stack.push(Frame::Object { key });
    }
    fn end_object(&mut self) {
        self.stack.pop();
    }
    fn begin_array(&mut self) {
        if let Some((at, len)) = self.span.take() {
            self.element();
            let path = self.path();
            self.pending_key = None;
            self.capture = Some((vec![b'['], 1, at, len, path));
            return;
        }
        if let Some(c) = &mut self.capture {
            c.1 += 1;
            return;
        }
        self.element();
        let key = self.pending_key.take();
        self.stack.push(Frame::Object { key });
        self.stack.push(Frame::Array { next: 0 });
    }
    fn end_array(&mut self) {
        if let Some(c) = &mut self.capture {
            c.1 -= 1;
            if c.1 == 0 {
                if let Some((mut buf, _, at, len, path)) = self.capture.take() {
                    buf.push(b']');
                    let text = String::from_utf8_lossy(&buf).into_owned();
                    self.row(at, len, &path, &text);
                }
            }
            return;
        }
        self.stack.pop();
        self.stack.pop();
    }
    fn key(&mut self, k: &str) {
        self.pending_key = Some(k.to_string());
    }
    fn null(&mut self) {
        self.leaf(|w| w.null());
    }
    fn int(&mut self, v: i128) {
        self.leaf(|w| w.int(v));
    }
    fn float(&mut self, v: f32) {
        self.leaf(|w| w.float(v));
    }
    fn double(&mut self, v: f64) {
        self.leaf(|w| w.double(v));
    }
    fn text(&mut self, bytes: &[u8], utf8: bool) {
        self.leaf(|w| w.text(bytes, utf8));
    }
    fn str(&mut self, s: &str) {
        if self.stack.len() == 1 {
            // "message" / "schema": shown in the heading.
            self.pending_key = None;
            return;
        }
        self.leaf(|w| w.str(s));
    }
    fn hex(&mut self, bytes: &[u8]) {
        self.leaf(|w| w.hex(bytes));
    }
    fn span(&mut self, at: usize, len: usize) {
        self.span = Some((at, len));
    }
    fn note(&mut self, at: usize, len: usize, what: std::fmt::Arguments<'_>) {
        self.line(at, len, &what.to_string());
    }
}

impl<'s> Codec<'s> {
    /// Append an annotated hex dump of the message at the start of `buf`
    /// (at input offset `base`) to `out`: a heading, then one row per
    /// value. On error `out` holds the rows up to the problem.
    pub fn inspect(
        &self,
        buf: &[u8],
        base: u64,
        out: &mut String,
    ) -> Result<Decoded<'s>, DecodeError> {
        let mut rows = String::new();
        let r = {
            let mut ins = Inspector {
                out: &mut rows,
                msg: buf,
                base,
                stack: Vec::new(),
                pending_key: None,
                span: None,
                capture: None,
            };
            let hl = self.header_len();
            ins.line(0, hl, "(message header)");
            self.walk(buf, base, None, &mut ins)
        };
        match &r {
            Ok(d) => {
                let _ = writeln!(
                    out,
                    "{} (templateId {}, version {}) at byte {base}, {} bytes",
                    d.message.name, d.header.template_id, d.header.version, d.len
                );
            }
            // The error's own offset once, and only where it is not the
            // message's (its Display would say "at byte" a second time).
            Err(e) if e.offset == base => {
                let _ = writeln!(out, "message at byte {base}: {}", e.kind);
            }
            Err(e) => {
                let _ = writeln!(
                    out,
                    "message at byte {base}, error at byte {}: {}",
                    e.offset, e.kind
                );
            }
        }
        out.push_str(&rows);
        r
    }
}
