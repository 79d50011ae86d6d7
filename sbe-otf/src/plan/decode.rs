//! Running a plan: bytes → JSON (or only where the message ends).
//!
//! Every check is the walk's, through the same rules of
//! `sbe_rt::__private::codec`; where one fails the plan gives up
//! (`None`) and the walk decodes the message again to say what is wrong.

use sbe_rt::__private::codec::{
    check_block_length, check_entries, check_group, check_length, to_usize,
};
use sbe_rt::null::NullValue;
use std::io::Write as _;

use super::{BlockPlan, MessagePlan, Op, Span, Step};
use crate::json_buf::{JsonBuf, WIDE};

impl MessagePlan {
    /// The message whose header is `header` (the first bytes of `buf`)
    /// and whose root block is `block_len` bytes: its JSON from the
    /// `"message"` key on appended to `out` when `JSON`, and its length.
    pub(crate) fn run<const JSON: bool>(
        &self,
        buf: &[u8],
        header: &[u8],
        block_len: usize,
        out: &mut JsonBuf,
    ) -> Option<usize> {
        if JSON {
            self.steps(&self.header, header, out);
        }
        check_block_length(block_len, self.root.required).ok()?;
        let mut pos = header.len();
        self.block::<JSON>(&self.root, buf, &mut pos, block_len, out)?;
        if JSON {
            out.extend_from_slice(b"}}");
        }
        Some(pos)
    }

    fn block<const JSON: bool>(
        &self,
        plan: &BlockPlan,
        buf: &[u8],
        pos: &mut usize,
        block_len: usize,
        out: &mut JsonBuf,
    ) -> Option<()> {
        let end = pos.checked_add(block_len)?;
        let block = buf.get(*pos..end)?;
        if JSON {
            self.steps(&plan.steps, block, out);
        }
        *pos = end;
        for g in &plan.groups {
            let dim_end = pos.checked_add(g.dim.len)?;
            let dim = buf.get(*pos..dim_end)?;
            let entry_len = to_usize(g.dim.block_length.get(dim));
            let count = to_usize(g.dim.count.get(dim));
            check_group(count, entry_len, g.dim.max_count, g.block.required).ok()?;
            *pos = dim_end;
            check_entries(buf, *pos, count, entry_len.saturating_add(g.tail)).ok()?;
            if JSON {
                self.put(out, g.key);
            }
            for i in 0..count {
                if JSON {
                    out.extend_from_slice(if i == 0 { b"{" } else { b",{" });
                }
                self.block::<JSON>(&g.block, buf, pos, entry_len, out)?;
                if JSON {
                    out.push(b'}');
                }
            }
            if JSON {
                out.push(b']');
            }
        }
        for d in &plan.data {
            let prefix_end = pos.checked_add(d.lay.data_offset)?;
            let prefix = buf.get(*pos..prefix_end)?;
            let len = to_usize(d.lay.length.get(prefix));
            check_length(len, d.lay.max_length).ok()?;
            let data_end = prefix_end.checked_add(len)?;
            let bytes = buf.get(prefix_end..data_end)?;
            *pos = data_end;
            if JSON {
                self.put(out, d.key);
                match d.text {
                    Some(utf8) => text(out, bytes, utf8),
                    None => hex(out, bytes),
                }
            }
        }
        Some(())
    }

    /// Appends the text of `s`: for the usual short one, one copy of
    /// `WIDE` bytes from the pool, which ends in as many of padding.
    #[inline]
    fn put(&self, out: &mut JsonBuf, s: Span) {
        let (start, len) = (s.start as usize, s.len as usize);
        match self.pool.get(start..start + WIDE) {
            Some(padded) if len <= WIDE => out.padded(padded, len),
            _ => out.extend_from_slice(self.text(s)),
        }
    }

    /// The steps over `block` (the bytes of the block they are of).
    fn steps(&self, steps: &[Step], block: &[u8], out: &mut JsonBuf) {
        for s in steps {
            self.put(out, s.lit);
            self.op(&s.op, block, out);
        }
    }

    fn op(&self, op: &Op, block: &[u8], out: &mut JsonBuf) {
        match *op {
            Op::None => {}
            Op::Int {
                slot,
                sign_shift,
                null,
            } => {
                let bits = slot.get(block);
                let mut digits = itoa::Buffer::new();
                let text = match (null == Some(bits), sign_shift) {
                    (true, _) => "null",
                    (false, Some(n)) => digits.format(((bits << n) as i64) >> n),
                    (false, None) => digits.format(bits),
                };
                out.extend_from_slice(text.as_bytes());
            }
            Op::Float { slot, null } => {
                let v = f32::from_bits(slot.get(block) as u32);
                match null {
                    Some(n) if v.is_null(n) => out.extend_from_slice(b"null"),
                    _ => float(out, v),
                }
            }
            Op::Double { slot, null } => {
                let v = f64::from_bits(slot.get(block));
                match null {
                    Some(n) if v.is_null(n) => out.extend_from_slice(b"null"),
                    _ => double(out, v),
                }
            }
            Op::Table { at, table } => {
                let b = block.get(at).copied().unwrap_or(0);
                let s = self.tables.get(table).and_then(|t| t.get(usize::from(b)));
                self.put(out, s.copied().unwrap_or_default());
            }
            Op::Chars {
                at,
                len,
                optional,
                one,
                utf8,
            } => {
                let bytes = block.get(at..at.saturating_add(len)).unwrap_or_default();
                let absent = match one {
                    Some(null) => {
                        let first = bytes.first().copied().unwrap_or(0);
                        sbe_rt::null::non_null_char(first, null).is_none()
                    }
                    None => sbe_rt::null::non_empty_chars(bytes).is_none(),
                };
                if optional && absent {
                    out.extend_from_slice(b"null");
                    return;
                }
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                text(out, bytes.get(..end).unwrap_or_default(), utf8);
            }
            Op::Enum {
                slot,
                prim,
                names,
                null,
            } => {
                let v = prim.from_bits(slot.get(block));
                let names = self.enums.get(names).map_or(&[][..], Vec::as_slice);
                match names.binary_search_by_key(&v, |(n, _)| *n) {
                    Ok(i) => {
                        let s = names.get(i).map(|(_, s)| *s).unwrap_or_default();
                        self.put(out, s);
                    }
                    Err(_) if null == Some(v) => out.extend_from_slice(b"null"),
                    Err(_) => int(out, v),
                }
            }
            Op::Set {
                slot,
                prim,
                width,
                choices,
            } => {
                let raw = prim.from_bits(slot.get(block)) as u64;
                let choices = self.sets.get(choices).map_or(&[][..], Vec::as_slice);
                let named = choices.iter().map(|&(bit, s)| {
                    // The names' text is the JSON of a string: UTF-8.
                    (std::str::from_utf8(self.text(s)).unwrap_or(""), bit)
                });
                out.push(b'[');
                let mut first = true;
                // The generated decoders' rule (`visit::Bits`), as the walk.
                sbe_rt::visit::for_each_bit(raw, width, named, |bit| {
                    if !std::mem::take(&mut first) {
                        out.push(b',');
                    }
                    match bit {
                        sbe_rt::visit::Bit::Choice(name) => out.extend_from_slice(name.as_bytes()),
                        sbe_rt::visit::Bit::Unknown(bit) => int(out, i128::from(bit)),
                    }
                });
                out.push(b']');
            }
        }
    }
}

/// An integer, as the walk's writer writes it (every wire integer fits
/// an `i64` or a `u64`).
#[inline]
fn int(out: &mut JsonBuf, v: i128) {
    let mut b = itoa::Buffer::new();
    let s = if let Ok(v) = i64::try_from(v) {
        b.format(v)
    } else if let Ok(v) = u64::try_from(v) {
        b.format(v)
    } else {
        b.format(v)
    };
    out.extend_from_slice(s.as_bytes());
}

/// A `float` as the walk's writer writes it (`JsonWriter::f32`): Java's
/// form, `null` when not finite.
fn float(out: &mut JsonBuf, v: f32) {
    if v.is_finite() {
        out.with_vec(|out| write!(out, "{}", sbe_rt::JavaFloat(v)).ok());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// A `double`, as `JsonWriter::f64` writes it.
fn double(out: &mut JsonBuf, v: f64) {
    if v.is_finite() {
        out.with_vec(|out| write!(out, "{}", sbe_rt::JavaDouble(v)).ok());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Text as the walk's writer writes it: as it is when it is printable
/// ASCII with nothing to escape (the common case), else through that
/// writer.
fn text(out: &mut JsonBuf, bytes: &[u8], utf8: bool) {
    if bytes
        .iter()
        .all(|&b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut w = sbe_rt::JsonWriter::new();
    if utf8 {
        w.utf8_lossy(bytes);
    } else {
        w.latin1(bytes);
    }
    out.extend_from_slice(w.as_str().as_bytes());
}

/// Bytes as lowercase hex digits, two per byte, quoted.
fn hex(out: &mut JsonBuf, bytes: &[u8]) {
    out.with_vec(|out| hex_vec(out, bytes));
}

fn hex_vec(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2 + 2);
    out.push(b'"');
    let digit = |n: u8| DIGITS.get(usize::from(n)).copied().unwrap_or(b'0');
    for &b in bytes {
        out.push(digit(b >> 4));
        out.push(digit(b & 0x0f));
    }
    out.push(b'"');
}
