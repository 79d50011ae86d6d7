//! JSON text → bytes by a plan: the fields of each block in schema order,
//! read from the text as it is scanned (no JSON tree is built) and written
//! at the slots the IR gives.
//!
//! The plan reads the form `sbe decode` writes: the keys `schema`
//! (optional), `message`, `header` and `body` in that order, every header
//! member and every field, group and var data in schema order, strings
//! without escapes, enums and set choices by name, and the constants as
//! the decoder writes them. Anything else (another order, a missing
//! optional field, an escape, a value out of range, a problem) is left to
//! [`Codec::encode_value`](crate::Codec::encode_value) on the parsed JSON,
//! which gives the verdict; whatever the plan writes, that would write too.

use sbe_ir::ir::{
    encoded_length, Block, ByteOrder, Encoded, HeaderRole, Message, Presence, Primitive, Scalar,
    Type, TypeKind,
};
use sbe_rt::wire::{Dimension, Uint, VarData};

use super::scan::{plain, Json};
use crate::decode::{render_constant, render_value};
use crate::{int_null, is_utf8, Codec};

/// What the encoder needs of one template.
#[derive(Debug, Clone)]
pub(crate) struct EncodePlan {
    header: Vec<HeaderSlot>,
    header_len: usize,
    template_id: u64,
    /// From this acting version on every part of the template is encoded.
    since: u32,
    /// The acting version when the header has no version member.
    version: u32,
    root: EncBlock,
}

#[derive(Debug, Clone)]
struct HeaderSlot {
    name: String,
    slot: Uint,
    range: (i128, i128),
    role: Option<HeaderRole>,
}

#[derive(Debug, Clone)]
struct EncBlock {
    block_length: usize,
    fields: Vec<(String, Value)>,
    groups: Vec<EncGroup>,
    data: Vec<EncData>,
}

#[derive(Debug, Clone)]
struct EncGroup {
    name: String,
    dim: Dimension,
    block: EncBlock,
}

#[derive(Debug, Clone)]
struct EncData {
    name: String,
    /// Text (UTF-8 or not) or hex.
    text: Option<bool>,
    max: u64,
    lay: VarData,
}

/// How a value is read from the text and written to the block.
#[derive(Debug, Clone)]
enum Value {
    /// A constant: skipped when the text is the decoder's (`render_*`).
    Constant(Vec<u8>),
    /// An integer in `range`; `null` what a JSON `null` writes, when it may.
    Int {
        slot: Uint,
        range: (i128, i128),
        null: Option<i128>,
    },
    /// A float (`single`: 32 bits); `null` what a JSON `null` writes.
    Float {
        slot: Uint,
        single: bool,
        null: f64,
    },
    /// Characters at `at`, at most `max`; `null` the byte a JSON `null`
    /// writes, when it may.
    Chars {
        at: usize,
        max: usize,
        utf8: bool,
        null: Option<u8>,
        slot: Uint,
    },
    Enum {
        slot: Uint,
        names: Vec<(String, i128)>,
        null: Option<i128>,
    },
    Set {
        slot: Uint,
        choices: Vec<(String, u32)>,
    },
    Composite(Vec<(String, Value)>),
    Array(Vec<Value>),
}

/// The encode plan of `message`, or `None` when its header or a field is
/// of a kind the plan does not read (the walk encodes those).
pub(crate) fn compile(codec: &Codec<'_>, message: &Message, since: u32) -> Option<EncodePlan> {
    let order = codec.order;
    let mut header = Vec::new();
    for (m, role) in codec.schema.header_members() {
        let TypeKind::Encoded(e) = &m.ty.kind else {
            return None;
        };
        if e.presence == Presence::Constant || e.length != 1 || e.primitive.is_float() {
            return None;
        }
        plain(&m.ty.name)?;
        header.push(HeaderSlot {
            name: m.ty.name.clone(),
            slot: e.primitive.slot(order, m.offset as usize),
            range: e.primitive.int_range(),
            role,
        });
    }
    let block_length = message.block.block_length;
    if let Some(Uint::Const(v)) = codec.header.block_length {
        if v != u64::from(block_length) {
            return None;
        }
    }
    Some(EncodePlan {
        header,
        header_len: codec.header_len,
        template_id: u64::from(message.id),
        since,
        version: codec.schema.version,
        root: block(order, &message.block)?,
    })
}

fn block(order: ByteOrder, b: &Block) -> Option<EncBlock> {
    let block_length = b.block_length as usize;
    if block_length < b.end_at(u32::MAX) as usize {
        return None;
    }
    let mut fields = Vec::new();
    for f in &b.fields {
        let v = if f.presence == Presence::Constant {
            Value::Constant(render_constant(&f.ty, f.const_value.as_ref()))
        } else {
            let at = f.offset as usize;
            let len = f.encoded_length as usize;
            if at.checked_add(len)? > block_length {
                return None;
            }
            value(order, &f.ty, at, len, f.presence == Presence::Optional)?
        };
        plain(&f.name)?;
        fields.push((f.name.clone(), v));
    }
    let mut groups = Vec::new();
    for g in &b.groups {
        plain(&g.name)?;
        groups.push(EncGroup {
            name: g.name.clone(),
            dim: g.dimension(order),
            block: block(order, &g.block)?,
        });
    }
    for d in &b.data {
        plain(&d.name)?;
    }
    let data = b
        .data
        .iter()
        .map(|d| EncData {
            name: d.name.clone(),
            text: d
                .character_encoding
                .as_ref()
                .map(|_| is_utf8(d.character_encoding.as_deref())),
            max: d
                .max_length
                .min(u64::try_from(d.length_primitive.int_range().1).unwrap_or(u64::MAX)),
            lay: d.var_data(order),
        })
        .collect();
    Some(EncBlock {
        block_length,
        fields,
        groups,
        data,
    })
}

/// A value of `ty` in the `len` bytes at `at` (as `Enc::value` writes it);
/// `None` when a write would not fit those bytes (the walk reports it).
fn value(order: ByteOrder, ty: &Type, at: usize, len: usize, optional: bool) -> Option<Value> {
    let fits = |size: u32| size as usize <= len;
    Some(match &ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => {
            Value::Constant(render_value(order, ty, &[], optional))
        }
        TypeKind::Encoded(e) => encoded(
            order,
            e,
            at,
            len,
            optional || e.presence == Presence::Optional,
        )?,
        TypeKind::Enum(en) if fits(en.encoding.size()) => {
            let mut names: Vec<(String, i128)> = Vec::new();
            for v in &en.values {
                // The encoder takes the first value of a name.
                if names.iter().all(|(n, _)| *n != v.name) {
                    names.push((v.name.clone(), v.value));
                }
            }
            Value::Enum {
                slot: en.encoding.slot(order, at),
                names,
                null: (optional || en.presence == Presence::Optional).then_some(en.null_value),
            }
        }
        TypeKind::Set(s) if fits(s.encoding.size()) => {
            let mut choices: Vec<(String, u32)> = Vec::new();
            for c in &s.choices {
                if choices.iter().all(|(n, _)| *n != c.name) {
                    choices.push((c.name.clone(), c.bit));
                }
            }
            Value::Set {
                slot: s.encoding.slot(order, at),
                choices,
            }
        }
        TypeKind::Composite(c) => {
            let mut members = Vec::new();
            for m in &c.members {
                let off = m.offset as usize;
                let v = match &m.ty.kind {
                    TypeKind::Encoded(e) if e.presence == Presence::Constant => {
                        Value::Constant(render_value(order, &m.ty, &[], false))
                    }
                    _ => {
                        let mlen = encoded_length(&m.ty).unwrap_or(0) as usize;
                        if off.checked_add(mlen)? > len {
                            return None;
                        }
                        value(order, &m.ty, at + off, mlen, false)?
                    }
                };
                plain(&m.ty.name)?;
                members.push((m.ty.name.clone(), v));
            }
            Value::Composite(members)
        }
        _ => return None,
    })
}

fn encoded(order: ByteOrder, e: &Encoded, at: usize, len: usize, optional: bool) -> Option<Value> {
    let p = e.primitive;
    let size = p.size() as usize;
    if p == Primitive::Char {
        let max = e.length as usize;
        if max > len || len == 0 {
            return None;
        }
        let null = if e.length == 1 {
            u8::try_from(int_null(e).unwrap_or(0)).ok()?
        } else {
            0
        };
        return Some(Value::Chars {
            at,
            max,
            utf8: is_utf8(e.character_encoding.as_deref()),
            null: optional.then_some(null),
            slot: p.slot(order, at),
        });
    }
    if e.length == 1 {
        return scalar(order, e, at, len, optional);
    }
    let n = e.length as usize;
    if n.checked_mul(size)? > len {
        return None;
    }
    (0..n)
        .map(|i| scalar(order, e, at + i * size, size, optional))
        .collect::<Option<Vec<_>>>()
        .map(Value::Array)
}

fn scalar(order: ByteOrder, e: &Encoded, at: usize, len: usize, optional: bool) -> Option<Value> {
    let p = e.primitive;
    if (p.size() as usize) > len {
        return None;
    }
    let slot = p.slot(order, at);
    if p.is_float() {
        let null = match e.null_value {
            Some(Scalar::Float(n)) if optional => n,
            _ => f64::NAN,
        };
        return Some(Value::Float {
            slot,
            single: p == Primitive::Float,
            null,
        });
    }
    Some(Value::Int {
        slot,
        range: p.int_range(),
        null: optional.then(|| int_null(e).unwrap_or(0)),
    })
}

/// Writes `v` at `slot` of `buf` (its low bytes, two's complement).
fn put(buf: &mut [u8], slot: Uint, v: i128) -> Option<()> {
    slot.put(buf, v as u64).ok()
}

impl EncodePlan {
    /// The message in `text` (a JSON object, as `sbe decode` writes it),
    /// whose `"message"` the caller has read, appended to `out`: its
    /// length, or `None` when the plan does not read it.
    pub(crate) fn run(&self, j: &mut JsonText<'_>, out: &mut Vec<u8>) -> Option<usize> {
        let j = &mut j.0;
        let start = out.len();
        j.eat(b',')?;
        j.key(HEADER)?;
        j.eat(b'{')?;
        out.resize(start + self.header_len, 0);
        let mut version = None;
        for (i, h) in self.header.iter().enumerate() {
            if i > 0 {
                j.eat(b',')?;
            }
            j.key(&h.name)?;
            let v = j.int()?;
            if v < h.range.0 || v > h.range.1 {
                return None;
            }
            match h.role {
                Some(HeaderRole::TemplateId) if v != i128::from(self.template_id) => return None,
                Some(HeaderRole::BlockLength) if v != self.root.block_length as i128 => {
                    return None
                }
                Some(HeaderRole::Version) => version = Some(v),
                _ => {}
            }
            put(out.get_mut(start..)?, h.slot, v)?;
        }
        j.eat(b'}')?;
        // As the decoders read it: a version too large for a `u32` acts
        // as `u32::MAX`.
        let version = version.map_or(self.version, |v| {
            u32::try_from(v.max(0)).unwrap_or(u32::MAX)
        });
        if version < self.since {
            return None;
        }
        j.eat(b',')?;
        j.key(BODY)?;
        self.root.run(j, out)?;
        j.eat(b'}')?;
        j.ws();
        (j.i == j.b.len()).then(|| out.len() - start)
    }
}

/// The keys of a message's JSON (FORMAT.md).
const HEADER: &str = "header";
const BODY: &str = "body";

/// JSON text being encoded (for [`Codec::encode_text`](crate::Codec::encode_text)).
pub(crate) struct JsonText<'t>(Json<'t>);

impl<'t> JsonText<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        JsonText(Json {
            b: text.as_bytes(),
            i: 0,
        })
    }

    /// `{`, an optional `"schema"` string, and the `"message"` name.
    pub(crate) fn message_name(&mut self) -> Option<&'t str> {
        let j = &mut self.0;
        j.eat(b'{')?;
        let mut key = j.str()?;
        if key == b"schema" {
            j.eat(b':')?;
            j.str()?;
            j.eat(b',')?;
            key = j.str()?;
        }
        (key == b"message").then_some(())?;
        j.eat(b':')?;
        std::str::from_utf8(j.str()?).ok()
    }
}

impl EncBlock {
    /// `{` fields, groups, data `}` into a new block at the end of `out`.
    fn run(&self, j: &mut Json<'_>, out: &mut Vec<u8>) -> Option<()> {
        j.eat(b'{')?;
        let start = out.len();
        out.resize(start + self.block_length, 0);
        let mut first = true;
        let mut member = |j: &mut Json<'_>, name: &str| -> Option<()> {
            if !std::mem::take(&mut first) {
                j.eat(b',')?;
            }
            j.key(name)
        };
        for (name, v) in &self.fields {
            member(j, name)?;
            v.run(j, out.get_mut(start..)?)?;
        }
        for g in &self.groups {
            member(j, &g.name)?;
            j.eat(b'[')?;
            let dim_at = out.len();
            out.resize(dim_at + g.dim.len, 0);
            let dim = out.get_mut(dim_at..)?;
            put(dim, g.dim.block_length, g.block.block_length as i128)?;
            let mut count = 0usize;
            if !j.next_is(b']') {
                loop {
                    g.block.run(j, out)?;
                    count += 1;
                    if j.next_is(b']') {
                        break;
                    }
                    j.eat(b',')?;
                }
            }
            // The generated encoders' rule: at most numInGroup's maximum.
            sbe_rt::__private::codec::check_count(count, g.dim.max_count).ok()?;
            put(out.get_mut(dim_at..)?, g.dim.count, count as i128)?;
        }
        for d in &self.data {
            member(j, &d.name)?;
            let s = j.str()?;
            let prefix_at = out.len();
            out.resize(prefix_at + d.lay.data_offset, 0);
            match d.text {
                Some(utf8) => text_bytes(s, utf8, out)?,
                None => hex_bytes(s, out)?,
            }
            let len = out.len() - prefix_at - d.lay.data_offset;
            if len as u64 > d.max {
                return None;
            }
            put(out.get_mut(prefix_at..)?, d.lay.length, len as i128)?;
        }
        j.eat(b'}')
    }
}

impl Value {
    /// The value next in `j`, written into `block`.
    fn run(&self, j: &mut Json<'_>, block: &mut [u8]) -> Option<()> {
        match self {
            Value::Constant(text) => j.lit(text).then_some(()),
            Value::Int { slot, range, null } => {
                let v = match null {
                    Some(n) if j.lit(b"null") => *n,
                    _ => j.int()?,
                };
                if v < range.0 || v > range.1 {
                    return None;
                }
                put(block, *slot, v)
            }
            Value::Float { slot, single, null } => {
                let x = if j.lit(b"null") { *null } else { j.float()? };
                let bits = if *single {
                    let f = x as f32;
                    if x.is_finite() && !f.is_finite() {
                        return None;
                    }
                    u64::from(f.to_bits())
                } else {
                    x.to_bits()
                };
                slot.put(block, bits).ok()
            }
            Value::Chars {
                at,
                max,
                utf8,
                null,
                slot,
            } => {
                if let Some(n) = null {
                    if j.lit(b"null") {
                        return put(block, *slot, i128::from(*n));
                    }
                }
                let s = j.str()?;
                let mut bytes = Vec::new();
                text_bytes(s, *utf8, &mut bytes)?;
                if bytes.len() > *max {
                    return None;
                }
                if let Some(d) = block.get_mut(*at..at + bytes.len()) {
                    d.copy_from_slice(&bytes);
                }
                Some(())
            }
            Value::Enum { slot, names, null } => {
                let v = match null {
                    Some(n) if j.lit(b"null") => *n,
                    _ => {
                        let s = j.str()?;
                        names.iter().find(|(n, _)| n.as_bytes() == s)?.1
                    }
                };
                put(block, *slot, v)
            }
            Value::Set { slot, choices } => {
                j.eat(b'[')?;
                let mut x: u128 = 0;
                if !j.next_is(b']') {
                    loop {
                        let s = j.str()?;
                        let bit = choices.iter().find(|(n, _)| n.as_bytes() == s)?.1;
                        if bit < 128 {
                            x |= 1 << bit;
                        }
                        if j.next_is(b']') {
                            break;
                        }
                        j.eat(b',')?;
                    }
                }
                put(block, *slot, x as i128)
            }
            Value::Composite(members) => {
                j.eat(b'{')?;
                for (i, (name, v)) in members.iter().enumerate() {
                    if i > 0 {
                        j.eat(b',')?;
                    }
                    j.key(name)?;
                    v.run(j, block)?;
                }
                j.eat(b'}')
            }
            Value::Array(items) => {
                j.eat(b'[')?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        j.eat(b',')?;
                    }
                    v.run(j, block)?;
                }
                j.eat(b']')
            }
        }
    }
}

/// The bytes of text `s` (a JSON string's, no escapes) in UTF-8 or
/// ISO-8859-1, appended to `out`; `None` for a character ISO-8859-1 has not.
fn text_bytes(s: &[u8], utf8: bool, out: &mut Vec<u8>) -> Option<()> {
    if utf8 || s.is_ascii() {
        out.extend_from_slice(s);
        return Some(());
    }
    for c in std::str::from_utf8(s).ok()?.chars() {
        out.push(u8::try_from(u32::from(c)).ok()?);
    }
    Some(())
}

/// Hex digits (either case, two per byte) as bytes appended to `out`.
fn hex_bytes(s: &[u8], out: &mut Vec<u8>) -> Option<()> {
    if s.len() % 2 != 0 {
        return None;
    }
    for p in s.chunks_exact(2) {
        let hi = char::from(*p.first()?).to_digit(16)?;
        let lo = char::from(*p.get(1)?).to_digit(16)?;
        out.push((hi * 16 + lo) as u8);
    }
    Some(())
}
