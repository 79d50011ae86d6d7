//! Bytes → JSON: walk a message by its IR, FORMAT.md's value mapping.
//!
//! The walk never reads outside the buffer and never panics: every block,
//! group and var data is bounds-checked once before it is read, and a
//! problem is a [`DecodeError`] with the byte offset and what was wrong.

use sbe_ir::ir::{
    Block, ByteOrder, ConstValue, Data, DecimalParts, Encoded, EnumType, Exponent, Field, FieldRef,
    Group, Meaning, Message, Presence, Primitive, Scalar, SetType, Type, TypeKind,
};

use sbe_rt::null::NullValue;
use sbe_rt::{ErrorDetails, ErrorKind};
use std::fmt::Write as _;

use crate::json::{JsonWriter, Sink};
use crate::json_buf::JsonBuf;
use crate::semantic::{self, Values};
use crate::{int_null, is_utf8, slot_offset, Codec, Header};
use sbe_rt::wire::Uint;
use sbe_rt::TimeUnit;

/// Why a message could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The bytes end before the message does.
    Truncated {
        /// What was being read.
        what: String,
        /// Bytes it needs from its start.
        need: u64,
        /// Bytes there are from its start.
        have: u64,
    },
    /// The header names a template the schema does not have.
    UnknownTemplate(u64),
    /// The header names another schema (generated decoders refuse it the
    /// same way: `sbe_rt::ErrorKind::WrongSchemaId`).
    WrongSchemaId {
        /// The schema's id.
        expected: u64,
        /// The id in the header.
        actual: u64,
    },
    /// A block length on the wire (root block or group entry) too short
    /// for the fields of the acting version (`sbe_rt::ErrorKind::BlockLengthTooShort`).
    BlockLengthTooShort {
        /// The block.
        what: String,
        /// The block length read.
        block_length: u64,
        /// The bytes the acting version's fields need.
        required: u64,
    },
    /// A group count above its `numInGroup` maximum (`sbe_rt::ErrorKind::CountOutOfRange`).
    CountOutOfRange {
        /// The group.
        what: String,
        /// The count read.
        count: u64,
        /// The largest count allowed.
        max: u64,
    },
    /// A var-data length above its length type's maximum (`sbe_rt::ErrorKind::LengthOutOfRange`).
    LengthOutOfRange {
        /// The var data.
        what: String,
        /// The length read.
        length: u64,
        /// The largest length allowed.
        max: u64,
    },
    /// A framing header that does not fit the message behind it.
    Framing(String),
    /// A field lies outside the block length given on the wire.
    OutsideBlock {
        /// The field.
        what: String,
        /// Its offset in the block.
        offset: u64,
        /// Its end in the block.
        end: u64,
        /// The wire block length.
        block_length: u64,
    },
}

impl std::fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeErrorKind::Truncated { what, need, have } => {
                write!(f, "truncated: {what} needs {need} bytes, {have} left")
            }
            DecodeErrorKind::UnknownTemplate(id) => {
                write!(f, "unknown template id {id} ({id:#06x})")
            }
            DecodeErrorKind::WrongSchemaId { expected, actual } => write!(
                f,
                "wrong schema id {actual} (expected {expected}): the message is of another schema"
            ),
            DecodeErrorKind::BlockLengthTooShort {
                what,
                block_length,
                required,
            } => write!(
                f,
                "{what}: block length {block_length} is shorter than the {required} bytes its fields need"
            ),
            DecodeErrorKind::CountOutOfRange { what, count, max } => {
                write!(f, "{what}: count {count} is above its maximum {max}")
            }
            DecodeErrorKind::LengthOutOfRange { what, length, max } => {
                write!(f, "{what}: length {length} is above its maximum {max}")
            }
            DecodeErrorKind::Framing(why) => write!(f, "framing: {why}"),
            DecodeErrorKind::OutsideBlock {
                what,
                offset,
                end,
                block_length,
            } => write!(
                f,
                "{what} at {offset}..{end} lies outside the block of {block_length} bytes"
            ),
        }
    }
}

impl std::error::Error for DecodeErrorKind {}

impl DecodeErrorKind {
    /// The schema element being read when the error struck (a field,
    /// group, var data or block, as the error's text names it), where the
    /// error names one.
    ///
    /// ```
    /// use sbe_otf::decode::DecodeErrorKind;
    /// let cut = DecodeErrorKind::Truncated { what: "Car.fuelFigures".into(), need: 9, have: 2 };
    /// assert_eq!(cut.element(), Some("Car.fuelFigures"));
    /// assert_eq!(DecodeErrorKind::UnknownTemplate(7).element(), None);
    /// ```
    pub fn element(&self) -> Option<&str> {
        match self {
            DecodeErrorKind::Truncated { what, .. }
            | DecodeErrorKind::BlockLengthTooShort { what, .. }
            | DecodeErrorKind::CountOutOfRange { what, .. }
            | DecodeErrorKind::LengthOutOfRange { what, .. }
            | DecodeErrorKind::OutsideBlock { what, .. } => Some(what),
            DecodeErrorKind::UnknownTemplate(_)
            | DecodeErrorKind::WrongSchemaId { .. }
            | DecodeErrorKind::Framing(_) => None,
        }
    }

    /// The [`sbe_rt::Error::kind`] a generated decoder gives for the same
    /// bytes (both decoders apply the same rules), or `None` for what only
    /// the run-time codec reports (framing).
    pub fn rt_kind(&self) -> Option<&'static str> {
        Some(match self {
            DecodeErrorKind::Truncated { .. } => "Truncated",
            DecodeErrorKind::UnknownTemplate(_) => "UnknownTemplateId",
            DecodeErrorKind::WrongSchemaId { .. } => "WrongSchemaId",
            DecodeErrorKind::BlockLengthTooShort { .. } => "BlockLengthTooShort",
            DecodeErrorKind::CountOutOfRange { .. } => "CountOutOfRange",
            DecodeErrorKind::LengthOutOfRange { .. } => "LengthOutOfRange",
            _ => return None,
        })
    }
}

/// A message that could not be decoded: where (absolute byte offset in
/// the input) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Offset of the problem from the start of the input.
    pub offset: u64,
    /// What is wrong.
    pub kind: DecodeErrorKind,
    /// Bytes from the start of the message that would be needed to go on
    /// (for truncation: read more and try again).
    pub need: Option<u64>,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for DecodeError {}

impl DecodeError {
    /// The bytes ran out (more input could fix it).
    pub fn is_truncated(&self) -> bool {
        matches!(self.kind, DecodeErrorKind::Truncated { .. })
    }
}

/// A message decoded: its length on the wire, header and schema message.
#[derive(Debug, Clone, Copy)]
pub struct Decoded<'s> {
    /// Bytes the message took (header included).
    pub len: usize,
    /// Its header.
    pub header: Header,
    /// Its message in the schema.
    pub message: &'s Message,
}

impl<'s> Codec<'s> {
    /// Decode the message at the start of `buf` and append its JSON object
    /// to `out` (no newline). `base` is `buf`'s offset in the input, for
    /// error positions; `schema_label` becomes the `"schema"` key when
    /// given. On error `out` is left as it was.
    pub fn decode_json(
        &self,
        buf: &[u8],
        base: u64,
        schema_label: Option<&str>,
        out: &mut Vec<u8>,
    ) -> Result<Decoded<'s>, DecodeError> {
        let mut json = JsonBuf::from_vec(std::mem::take(out));
        let r = self.decode_json_into(buf, base, schema_label, &mut json);
        *out = json.into_vec();
        r
    }

    /// [`decode_json`](Self::decode_json) into a [`JsonBuf`]: the faster
    /// form for a stream of messages, with one buffer reused for all of
    /// them (the `Vec` form lends its `Vec` to one). On error `out` is left
    /// as it was.
    ///
    /// ```
    /// # let schema = sbe_ir::ir::load_str(std::path::Path::new("s.xml"), r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="p" id="1" version="0" byteOrder="littleEndian"><types><composite name="messageHeader"><type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/><type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/></composite></types><sbe:message name="M" id="1"><field name="x" id="1" type="uint32"/></sbe:message></sbe:messageSchema>"#).unwrap();
    /// let codec = sbe_otf::Codec::new(&schema).unwrap();
    /// let bytes = [4, 0, 1, 0, 1, 0, 0, 0, 7, 0, 0, 0];
    /// let mut out = sbe_otf::JsonBuf::new();
    /// for _ in 0..2 {
    ///     codec.decode_json_into(&bytes, 0, None, &mut out).unwrap();
    ///     out.push(b'\n');
    /// }
    /// let line = r#"{"message":"M","header":{"blockLength":4,"templateId":1,"schemaId":1,"version":0},"body":{"x":7}}"#;
    /// assert_eq!(out.as_bytes(), format!("{line}\n{line}\n").as_bytes());
    /// ```
    pub fn decode_json_into(
        &self,
        buf: &[u8],
        base: u64,
        schema_label: Option<&str>,
        out: &mut JsonBuf,
    ) -> Result<Decoded<'s>, DecodeError> {
        let mark = out.len();
        // The plan writes the wire form; semantic text is the walk's.
        if self.values == Values::Wire {
            if let Some(d) = self.planned::<true>(buf, schema_label, out) {
                return Ok(d);
            }
        }
        out.truncate(mark);
        out.with_vec(|out| {
            let r = self.walk(buf, base, schema_label, &mut JsonWriter::new(out));
            if r.is_err() {
                out.truncate(mark);
            }
            r
        })
    }

    /// Decode the message at the start of `buf` into a JSON value.
    pub fn decode_value(
        &self,
        buf: &[u8],
        schema_label: Option<&str>,
    ) -> Result<(serde_json::Value, Decoded<'s>), DecodeError> {
        let mut out = Vec::new();
        let d = self.decode_json(buf, 0, schema_label, &mut out)?;
        let v = serde_json::from_slice(&out).unwrap_or(serde_json::Value::Null);
        Ok((v, d))
    }

    /// The message decoded by its plan (`crate::plan`): its JSON appended
    /// to `out` when `JSON`; `None` when the plan does not hold for it or
    /// finds a problem, which the walk then reports.
    pub(crate) fn planned<const JSON: bool>(
        &self,
        buf: &[u8],
        schema_label: Option<&str>,
        out: &mut JsonBuf,
    ) -> Option<Decoded<'s>> {
        let hbytes = buf.get(..self.header_len)?;
        let header = self.read_header(hbytes)?;
        if let (true, Some(_), Some(actual)) = (
            self.schema_id_check,
            self.header.schema_id.and_then(Uint::offset),
            header.schema_id,
        ) {
            sbe_rt::__private::codec::check_schema_id(actual, u64::from(self.schema.id)).ok()?;
        }
        let i = self.message_index(header.template_id)?;
        let message = self.schema.messages.get(i)?;
        let plan = self.plan(i)?;
        if header.version < plan.since() {
            return None;
        }
        if JSON {
            out.push(b'{');
            if let Some(label) = schema_label {
                let (cached, text) = self.label.get_or_init(|| {
                    let mut text = Vec::new();
                    crate::plan::schema_label(&mut text, label);
                    (label.to_string(), text)
                });
                if cached == label {
                    out.extend_from_slice(text);
                } else {
                    out.with_vec(|out| crate::plan::schema_label(out, label));
                }
            }
        }
        let block_len = usize::try_from(header.block_length).unwrap_or(usize::MAX);
        let len = plan.run::<JSON>(buf, hbytes, block_len, out)?;
        Some(Decoded {
            len,
            header,
            message,
        })
    }

    pub(crate) fn walk<S: Sink>(
        &self,
        buf: &[u8],
        base: u64,
        schema_label: Option<&str>,
        sink: &mut S,
    ) -> Result<Decoded<'s>, DecodeError> {
        let hl = self.header_len;
        let Some(hbytes) = buf.get(..hl) else {
            return Err(truncated(base, 0, "message header", hl, buf.len()));
        };
        let header = self
            .read_header(hbytes)
            .ok_or_else(|| truncated(base, 0, "message header", hl, buf.len()))?;
        if let (true, Some(_), Some(actual)) = (
            self.schema_id_check,
            self.header.schema_id.and_then(Uint::offset),
            header.schema_id,
        ) {
            let expected = u64::from(self.schema.id);
            if sbe_rt::__private::codec::check_schema_id(actual, expected).is_err() {
                return Err(DecodeError {
                    offset: base + slot_offset(self.header.schema_id),
                    kind: DecodeErrorKind::WrongSchemaId { expected, actual },
                    need: None,
                });
            }
        }
        let message = self.message_by_id(header.template_id).ok_or(DecodeError {
            offset: base + slot_offset(self.header.template_id),
            kind: DecodeErrorKind::UnknownTemplate(header.template_id),
            need: None,
        })?;
        let mut w = Walker {
            order: self.order,
            buf,
            base,
            version: header.version,
            sink,
            path: String::new(),
            values: self.values,
            unstated: self.timestamp_unit,
            exponents: Vec::new(),
            exponent_marks: Vec::new(),
        };
        w.sink.begin_object();
        if let Some(label) = schema_label {
            w.sink.key("schema");
            w.sink.str(label);
        }
        w.sink.key("message");
        w.sink.str(&message.name);
        w.sink.key("header");
        w.composite(&self.schema.header_type, hbytes, 0)?;
        w.sink.key("body");
        w.sink.begin_object();
        let block_len = usize::try_from(header.block_length).unwrap_or(usize::MAX);
        w.path.push_str(&message.name);
        w.check_block(hl, block_len, &message.block)?;
        let bytes = w.take(hl, block_len, "root block")?;
        let mut pos = hl;
        w.block(&message.block, bytes, &mut pos)?;
        w.sink.end_object();
        w.sink.end_object();
        Ok(Decoded {
            len: pos,
            header,
            message,
        })
    }
}

/// The JSON the walk writes for a value of `ty` held in `bytes` (its
/// field's optional presence `optional`), read at the newest version:
/// what the plan (`crate::plan`) renders ahead of time for values it
/// does not read at run time (constants, tables of one-byte values).
pub(crate) fn render_value(order: ByteOrder, ty: &Type, bytes: &[u8], optional: bool) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = Walker {
            order,
            buf: bytes,
            base: 0,
            version: u32::MAX,
            sink: &mut JsonWriter::new(&mut out),
            path: String::new(),
            // The plan renders the wire form.
            values: Values::Wire,
            unstated: TimeUnit::Nanos,
            exponents: Vec::new(),
            exponent_marks: Vec::new(),
        };
        // A leaf value never fails (only blocks, groups and data do).
        let _ = w.value(ty, bytes, 0, optional);
    }
    out
}

/// The JSON the walk writes for a constant field of type `ty` whose
/// field gives `value`.
pub(crate) fn render_constant(ty: &Type, value: Option<&ConstValue>) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = Walker {
            order: ByteOrder::Little,
            buf: &[],
            base: 0,
            version: u32::MAX,
            sink: &mut JsonWriter::new(&mut out),
            path: String::new(),
            // The plan renders the wire form.
            values: Values::Wire,
            unstated: TimeUnit::Nanos,
            exponents: Vec::new(),
            exponent_marks: Vec::new(),
        };
        w.constant(ty, value);
    }
    out
}

fn truncated(base: u64, at: usize, what: &str, need: usize, have: usize) -> DecodeError {
    DecodeError {
        offset: base + at as u64,
        kind: DecodeErrorKind::Truncated {
            what: what.to_string(),
            need: need as u64,
            have: have.saturating_sub(at) as u64,
        },
        need: Some(at.saturating_add(need) as u64),
    }
}

struct Walker<'b, 'k, S> {
    order: ByteOrder,
    buf: &'b [u8],
    base: u64,
    version: u32,
    sink: &'k mut S,
    /// Path of what is being read (for errors), e.g. `Car.fuelFigures[2]`.
    path: String,
    /// How values are written, and the unit of a timestamp whose schema
    /// states none.
    values: Values,
    unstated: TimeUnit,
    /// In semantic mode, the `int8` fields of the blocks being read, the
    /// message's first (`None` for other fields and nulls), and where each
    /// block's start in it: where a field decimal reads its exponent
    /// ([`sbe_ir::ir::Exponent::Field`]).
    exponents: Vec<Option<i8>>,
    exponent_marks: Vec<usize>,
}

impl<'b, S: Sink> Walker<'b, '_, S> {
    /// `len` bytes at `at`, or a truncation error naming `what`.
    fn take(&self, at: usize, len: usize, what: &str) -> Result<&'b [u8], DecodeError> {
        at.checked_add(len)
            .and_then(|end| self.buf.get(at..end))
            .ok_or_else(|| {
                truncated(
                    self.base,
                    at,
                    &format!("{what} of {}", self.path),
                    len,
                    self.buf.len(),
                )
            })
    }

    /// The block of `block_len` bytes at `at` holds the `fields` of the
    /// acting version: the rule generated decoders apply.
    fn check_block(&self, at: usize, block_len: usize, block: &Block) -> Result<(), DecodeError> {
        let required = block.end_at(self.version) as usize;
        sbe_rt::__private::codec::check_block_length(block_len, required)
            .map_err(|e| self.rule_error(at, "block", e))
    }

    /// A rule of `sbe_rt::__private::codec` broken at `at`: the same verdict the
    /// generated decoders give, with where and what.
    fn rule_error(&self, at: usize, what: &str, e: sbe_rt::Error) -> DecodeError {
        let what = format!("{what} of {}", self.path);
        let kind = match e.details() {
            ErrorDetails::BlockLengthTooShort {
                block_length,
                required,
            } => DecodeErrorKind::BlockLengthTooShort {
                what,
                block_length,
                required,
            },
            ErrorDetails::CountOutOfRange { count, max } => {
                DecodeErrorKind::CountOutOfRange { what, count, max }
            }
            ErrorDetails::LengthOutOfRange { length, max } => {
                DecodeErrorKind::LengthOutOfRange { what, length, max }
            }
            _ => DecodeErrorKind::Framing(format!("{what}: {e}")),
        };
        DecodeError {
            offset: self.base + at as u64,
            kind,
            need: None,
        }
    }

    /// `bytes`, the block at `pos`, as `block`'s fields, then its groups
    /// and var data; `pos` ends after them.
    fn block(&mut self, block: &Block, bytes: &[u8], pos: &mut usize) -> Result<(), DecodeError> {
        let semantic = self.values == Values::Semantic;
        if semantic {
            self.exponent_marks.push(self.exponents.len());
            let order = self.order;
            let version = self.version;
            self.exponents.extend(block.fields.iter().map(|f| {
                let TypeKind::Encoded(e) = &f.ty.kind else {
                    return None;
                };
                if e.primitive != Primitive::Int8 || f.since_version > version {
                    return None;
                }
                let at = f.offset as usize;
                let optional = f.presence == Presence::Optional || e.presence == Presence::Optional;
                let raw = e.primitive.get(order, bytes, at)?;
                if optional && crate::int_null(e) == Some(raw) {
                    return None;
                }
                i8::try_from(raw).ok()
            }));
        }
        let r = self.block_inner(block, bytes, pos);
        if semantic {
            if let Some(mark) = self.exponent_marks.pop() {
                self.exponents.truncate(mark);
            }
        }
        r
    }

    fn block_inner(
        &mut self,
        block: &Block,
        bytes: &[u8],
        pos: &mut usize,
    ) -> Result<(), DecodeError> {
        self.fields(&block.fields, bytes, *pos)?;
        *pos = pos.saturating_add(bytes.len());
        self.groups(&block.groups, pos)?;
        self.data(&block.data, pos)
    }

    /// The value of the exponent field `r` names, as the blocks being
    /// read hold it.
    fn exponent_of(&self, r: FieldRef) -> Option<i8> {
        let depth = self
            .exponent_marks
            .len()
            .checked_sub(1)?
            .checked_sub(r.up)?;
        let mark = *self.exponent_marks.get(depth)?;
        *self.exponents.get(mark.checked_add(r.field)?)?
    }

    fn fields(&mut self, fields: &[Field], block: &[u8], at: usize) -> Result<(), DecodeError> {
        for f in fields {
            if f.since_version > self.version {
                continue;
            }
            self.sink.key(&f.name);
            if f.presence == Presence::Constant {
                self.constant(&f.ty, f.const_value.as_ref());
                continue;
            }
            let off = f.offset as usize;
            let len = f.encoded_length as usize;
            let end = off.saturating_add(len);
            let Some(bytes) = block.get(off..end) else {
                return Err(DecodeError {
                    offset: self.base + at as u64,
                    kind: DecodeErrorKind::OutsideBlock {
                        what: format!("field {}.{}", self.path, f.name),
                        offset: off as u64,
                        end: end as u64,
                        block_length: block.len() as u64,
                    },
                    need: None,
                });
            };
            let optional = f.presence == Presence::Optional;
            if !self.semantic(&f.meaning, &f.ty, bytes, at + off, optional) {
                self.value(&f.ty, bytes, at + off, optional)?;
            }
        }
        Ok(())
    }

    /// In semantic mode, writes a typed value as its text (or null) and
    /// says so; `false` where the value keeps its wire form.
    fn semantic(
        &mut self,
        meaning: &Meaning,
        ty: &Type,
        bytes: &[u8],
        at: usize,
        optional: bool,
    ) -> bool {
        if self.values != Values::Semantic {
            return false;
        }
        if let Meaning::Decimal(
            d @ DecimalParts {
                exponent: Exponent::Field(r),
                ..
            },
        ) = meaning
        {
            let exponent = self.exponent_of(*r);
            let text = semantic::field_decimal(d, ty, bytes, self.order, exponent);
            self.sink.span(at, bytes.len());
            match text {
                Some(t) => self.sink.str(&t),
                None => self.sink.null(),
            }
            return true;
        }
        let Some(text) = semantic::render(meaning, ty, bytes, self.order, optional, self.unstated)
        else {
            return false;
        };
        self.sink.span(at, bytes.len());
        match text {
            Some(t) => self.sink.str(&t),
            None => self.sink.null(),
        }
        true
    }

    /// A value of type `ty` held in `bytes` (exactly its encoded length).
    fn value(
        &mut self,
        ty: &Type,
        bytes: &[u8],
        at: usize,
        optional: bool,
    ) -> Result<(), DecodeError> {
        match &ty.kind {
            TypeKind::Encoded(e) => {
                if e.presence == Presence::Constant {
                    self.constant(ty, e.const_value.as_ref());
                } else {
                    self.encoded(e, bytes, at, optional || e.presence == Presence::Optional);
                }
            }
            TypeKind::Enum(en) => self.enumeration(en, bytes, at, optional),
            TypeKind::Set(s) => self.set(s, bytes, at),
            TypeKind::Composite(_) => self.composite(ty, bytes, at)?,
        }
        Ok(())
    }

    fn composite(&mut self, ty: &Type, bytes: &[u8], at: usize) -> Result<(), DecodeError> {
        self.sink.begin_object();
        if let TypeKind::Composite(c) = &ty.kind {
            for m in &c.members {
                self.sink.key(&m.ty.name);
                let len = sbe_ir::ir::encoded_length(&m.ty).unwrap_or(0) as usize;
                let off = m.offset as usize;
                let mb = bytes.get(off..off.saturating_add(len)).unwrap_or_default();
                if mb.len() != len {
                    self.sink.null();
                    continue;
                }
                if !self.semantic(&m.ty.meaning, &m.ty, mb, at + off, false) {
                    self.value(&m.ty, mb, at + off, false)?;
                }
            }
        }
        self.sink.end_object();
        Ok(())
    }

    fn constant(&mut self, ty: &Type, value: Option<&ConstValue>) {
        let value = value.or(match &ty.kind {
            TypeKind::Encoded(e) => e.const_value.as_ref(),
            _ => None,
        });
        let prim = match &ty.kind {
            TypeKind::Encoded(e) => Some(e.primitive),
            _ => None,
        };
        match value {
            Some(ConstValue::Text(s)) => self.sink.str(s),
            Some(ConstValue::EnumValue { value_name, .. }) => self.sink.str(value_name),
            Some(ConstValue::Number(Scalar::Int(v))) => {
                if prim == Some(Primitive::Char) {
                    let b = u8::try_from(*v).unwrap_or(0);
                    self.sink.text(&[b], false);
                } else {
                    self.sink.int(*v);
                }
            }
            Some(ConstValue::Number(Scalar::Float(v))) => {
                if prim == Some(Primitive::Float) {
                    self.sink.float(*v as f32);
                } else {
                    self.sink.double(*v);
                }
            }
            None => self.sink.null(),
        }
    }

    fn encoded(&mut self, e: &Encoded, bytes: &[u8], at: usize, optional: bool) {
        let size = e.primitive.size() as usize;
        self.sink.span(at, bytes.len());
        if e.primitive == Primitive::Char {
            let utf8 = is_utf8(e.character_encoding.as_deref());
            let null = u8::try_from(int_null(e).unwrap_or(0)).unwrap_or(0);
            let absent = if e.length == 1 {
                sbe_rt::null::non_null_char(bytes.first().copied().unwrap_or(0), null).is_none()
            } else {
                sbe_rt::null::non_empty_chars(bytes).is_none()
            };
            if optional && absent {
                self.sink.null();
                return;
            }
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            self.sink.text(bytes.get(..end).unwrap_or_default(), utf8);
            return;
        }
        if e.length == 1 {
            self.scalar(e, bytes, optional);
            return;
        }
        self.sink.begin_array();
        for chunk in bytes.chunks_exact(size.max(1)) {
            self.scalar(e, chunk, optional);
        }
        self.sink.end_array();
    }

    fn scalar(&mut self, e: &Encoded, bytes: &[u8], optional: bool) {
        let Some(raw) = e.primitive.get(self.order, bytes, 0) else {
            self.sink.null();
            return;
        };
        match e.primitive {
            Primitive::Float => {
                let v = f32::from_bits(raw as u32);
                if optional && v.is_null(e.null().as_f64() as f32) {
                    self.sink.null();
                } else {
                    self.sink.float(v);
                }
            }
            Primitive::Double => {
                let v = f64::from_bits(raw as u64);
                if optional && v.is_null(e.null().as_f64()) {
                    self.sink.null();
                } else {
                    self.sink.double(v);
                }
            }
            _ => {
                if optional && int_null(e) == Some(raw) {
                    self.sink.null();
                } else {
                    self.sink.int(raw);
                }
            }
        }
    }

    fn enumeration(&mut self, en: &EnumType, bytes: &[u8], at: usize, optional: bool) {
        self.sink.span(at, bytes.len());
        let Some(v) = en.encoding.get(self.order, bytes, 0) else {
            self.sink.null();
            return;
        };
        if let Some(vv) = en.values.iter().find(|vv| vv.value == v) {
            self.sink.str(&vv.name);
        } else if (optional || en.presence == Presence::Optional) && v == en.null_value {
            self.sink.null();
        } else {
            self.sink.int(v);
        }
    }

    fn set(&mut self, s: &SetType, bytes: &[u8], at: usize) {
        self.sink.span(at, bytes.len());
        // The generated decoders' rule (`visit::Bits`), so both show a set
        // alike.
        let raw = s.encoding.get(self.order, bytes, 0).unwrap_or(0) as u64;
        let width = s.encoding.size() * 8;
        let choices = s.choices.iter().map(|c| (c.name.as_str(), c.bit));
        self.sink.begin_array();
        sbe_rt::visit::for_each_bit(raw, width, choices, |bit| match bit {
            sbe_rt::visit::Bit::Choice(name) => self.sink.str(name),
            sbe_rt::visit::Bit::Unknown(bit) => self.sink.int(i128::from(bit)),
        });
        self.sink.end_array();
    }

    fn groups(&mut self, groups: &[Group], pos: &mut usize) -> Result<(), DecodeError> {
        for g in groups {
            if g.block.since_version > self.version {
                continue;
            }
            self.group(g, pos)?;
        }
        Ok(())
    }

    fn group(&mut self, g: &Group, pos: &mut usize) -> Result<(), DecodeError> {
        let path_len = self.path.len();
        self.path.push('.');
        self.path.push_str(&g.name);
        let layout = g.dimension(self.order);
        let dim_len = layout.len;
        let dim = self.take(*pos, dim_len, "group dimension")?;
        // `take` checked the dimension's bytes: both reads are in it.
        let block_len = sbe_rt::__private::codec::to_usize(layout.block_length.get(dim));
        let count = layout.count.get(dim);
        let version = self.version;
        sbe_rt::__private::codec::check_group(
            sbe_rt::__private::codec::to_usize(count),
            block_len,
            layout.max_count,
            g.block.end_at(version) as usize,
        )
        .map_err(|e| self.rule_error(*pos, "group", e))?;
        let shown = self.path.split_once('.').map_or("", |(_, rest)| rest);
        self.sink.note(
            *pos,
            dim_len,
            format_args!("{shown} (dimension: blockLength={block_len} numInGroup={count})"),
        );
        let dim_at = *pos;
        *pos += dim_len;
        // The generated decoders' rule: every entry's fewest bytes fit in
        // what is left, checked before any entry is read.
        let min_entry = block_len.saturating_add(g.entry_tail(version) as usize);
        if let Err(e) = sbe_rt::__private::codec::check_entries(
            self.buf,
            *pos,
            sbe_rt::__private::codec::to_usize(count),
            min_entry,
        ) {
            if e.error_kind() == ErrorKind::CountOutOfRange {
                return Err(self.rule_error(dim_at, "group", e));
            }
            let need = count.saturating_mul(min_entry as u64);
            let left = self.buf.len().saturating_sub(*pos) as u64;
            return Err(DecodeError {
                offset: self.base + *pos as u64,
                kind: DecodeErrorKind::Truncated {
                    what: format!("group {} of {count} entries", self.path),
                    need,
                    have: left,
                },
                need: Some((*pos as u64).saturating_add(need)),
            });
        }
        self.sink.key(&g.name);
        self.sink.begin_array();
        let entry_path = self.path.len();
        for i in 0..count {
            self.path.truncate(entry_path);
            let _ = write!(self.path, "[{i}]");
            let bytes = self.take(*pos, block_len, "entry block")?;
            self.sink.begin_object();
            self.block(&g.block, bytes, pos)?;
            self.sink.end_object();
        }
        self.sink.end_array();
        self.path.truncate(path_len);
        Ok(())
    }

    fn data(&mut self, data: &[Data], pos: &mut usize) -> Result<(), DecodeError> {
        for d in data {
            if d.since_version > self.version {
                continue;
            }
            let path_len = self.path.len();
            self.path.push('.');
            self.path.push_str(&d.name);
            let lay = d.var_data(self.order);
            let data_offset = lay.data_offset;
            let prefix = self.take(*pos, data_offset, "var data length")?;
            // `take` checked the prefix's bytes: the length is in it.
            let len = sbe_rt::__private::codec::to_usize(lay.length.get(prefix));
            // The generated decoders' rule (in `data_end`): the length is
            // checked against its maximum before the bytes are looked for;
            // `take` below reports bytes that are not there.
            sbe_rt::__private::codec::check_length(len, lay.max_length)
                .map_err(|e| self.rule_error(*pos, "var data", e))?;
            let shown = self.path.split_once('.').map_or("", |(_, rest)| rest);
            self.sink
                .note(*pos, data_offset, format_args!("{shown} (length {len})"));
            *pos += data_offset;
            let bytes = self.take(*pos, len, "var data")?;
            self.sink.key(&d.name);
            self.sink.span(*pos, len);
            if d.character_encoding.is_some() {
                self.sink
                    .text(bytes, is_utf8(d.character_encoding.as_deref()));
            } else {
                self.sink.hex(bytes);
            }
            *pos += len;
            self.path.truncate(path_len);
        }
        Ok(())
    }
}
