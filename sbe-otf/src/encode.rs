//! JSON → bytes: FORMAT.md's JSON of a message back onto the wire.
//!
//! Every problem names the JSON path of the value (`$.body.fuelFigures[2].mpg`)
//! and what is wrong with it; nothing of a message with a problem is
//! written.

use serde_json::{Map, Number, Value};

use sbe_ir::ir::{
    Block, ByteOrder, Data, Encoded, EnumType, Field, Group, Message, Presence, Primitive, Scalar,
    SetType, Type, TypeKind,
};

use crate::{int_null, is_utf8, Codec};
use sbe_ir::ir::HeaderRole;
use sbe_rt::wire::Uint;

/// What is wrong with a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// A key the schema does not have (at this version).
    UnknownField,
    /// A required key is missing.
    MissingField,
    /// The value is of the wrong JSON type.
    WrongType {
        /// What the schema asks for.
        expected: &'static str,
        /// What the JSON holds.
        found: &'static str,
    },
    /// A number that does not fit its field.
    OutOfRange {
        /// The value as written.
        value: String,
        /// The field's type.
        ty: String,
    },
    /// Text longer than its char array or var data allows.
    StringTooLong {
        /// Encoded length of the text.
        len: usize,
        /// Room there is.
        max: u64,
    },
    /// A character the field's encoding cannot hold.
    BadCharacter(char),
    /// An enum name that is not a valid value.
    UnknownEnum {
        /// The name given.
        name: String,
        /// The enum type.
        ty: String,
    },
    /// A set choice name that the set does not have.
    UnknownChoice {
        /// The name given.
        name: String,
        /// The set type.
        ty: String,
    },
    /// The message name (or template id) is not in the schema.
    UnknownMessage(String),
    /// The header contradicts the message.
    Inconsistent(String),
    /// Binary var data that is not a hex string.
    BadHex,
}

/// A JSON message that cannot be encoded: the path of the value and what
/// is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// JSON path, e.g. `$.body.fuelFigures[2].mpg`.
    pub path: String,
    /// What is wrong.
    pub kind: EncodeErrorKind,
}

impl std::fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EncodeErrorKind::UnknownField => f.write_str("unknown field"),
            EncodeErrorKind::MissingField => f.write_str("missing required field"),
            EncodeErrorKind::WrongType { expected, found } => {
                write!(f, "wrong type: expected {expected}, found {found}")
            }
            EncodeErrorKind::OutOfRange { value, ty } => {
                write!(f, "out of range: {value} does not fit {ty}")
            }
            EncodeErrorKind::StringTooLong { len, max } => {
                write!(f, "string too long: {len} bytes, at most {max} allowed")
            }
            EncodeErrorKind::BadCharacter(c) => {
                write!(f, "character {c:?} cannot be encoded as ISO-8859-1/ASCII")
            }
            EncodeErrorKind::UnknownEnum { name, ty } => {
                write!(f, "unknown enum value {name:?} of {ty}")
            }
            EncodeErrorKind::UnknownChoice { name, ty } => {
                write!(f, "unknown set choice {name:?} of {ty}")
            }
            EncodeErrorKind::UnknownMessage(name) => write!(f, "unknown message {name:?}"),
            EncodeErrorKind::Inconsistent(why) => write!(f, "{why}"),
            EncodeErrorKind::BadHex => f.write_str("not a hex string"),
        }
    }
}

impl std::error::Error for EncodeErrorKind {}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.kind)
    }
}

impl std::error::Error for EncodeError {}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Codec<'_> {
    /// Encode one message given as JSON text in the form `sbe decode`
    /// writes (every key in schema order, strings without escapes, enums
    /// and choices by name), by its template's plan, and append its bytes
    /// to `out`. `None` when the text is not in that form or is not a
    /// message that encodes, and nothing is appended: then parse the text
    /// and call [`encode_value`](Self::encode_value), which gives the
    /// verdict. Whatever this appends, `encode_value` appends too.
    ///
    /// ```
    /// # let xml = r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
    /// #                    package="bench.md" id="7" version="0" byteOrder="littleEndian">
    /// #   <types>
    /// #     <composite name="messageHeader">
    /// #       <type name="blockLength" primitiveType="uint16"/>
    /// #       <type name="templateId" primitiveType="uint16"/>
    /// #       <type name="schemaId" primitiveType="uint16"/>
    /// #       <type name="version" primitiveType="uint16"/>
    /// #     </composite>
    /// #     <composite name="groupSizeEncoding">
    /// #       <type name="blockLength" primitiveType="uint16"/>
    /// #       <type name="numInGroup" primitiveType="uint8"/>
    /// #     </composite>
    /// #     <composite name="PRICE9">
    /// #       <type name="mantissa" primitiveType="int64"/>
    /// #       <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    /// #     </composite>
    /// #     <type name="SecurityID" primitiveType="int32"/>
    /// #     <type name="Qty" primitiveType="int32" presence="optional"/>
    /// #     <enum name="UpdateAction" encodingType="uint8">
    /// #       <validValue name="New">0</validValue>
    /// #       <validValue name="Change">1</validValue>
    /// #       <validValue name="Delete">2</validValue>
    /// #     </enum>
    /// #     <enum name="EntryType" encodingType="char">
    /// #       <validValue name="Bid">0</validValue>
    /// #       <validValue name="Offer">1</validValue>
    /// #       <validValue name="Trade">2</validValue>
    /// #     </enum>
    /// #     <set name="EventFlags" encodingType="uint8">
    /// #       <choice name="LastTrade">0</choice>
    /// #       <choice name="LastQuote">2</choice>
    /// #       <choice name="EndOfEvent">7</choice>
    /// #     </set>
    /// #   </types>
    /// #   <sbe:message name="BookUpdate" id="1">
    /// #     <field name="transactTime" id="60" type="uint64"/>
    /// #     <field name="flags" id="5799" type="EventFlags"/>
    /// #     <group name="entries" id="268" dimensionType="groupSizeEncoding">
    /// #       <field name="price" id="270" type="PRICE9"/>
    /// #       <field name="size" id="271" type="Qty"/>
    /// #       <field name="securityId" id="48" type="SecurityID"/>
    /// #       <field name="rptSeq" id="83" type="uint32"/>
    /// #       <field name="level" id="1023" type="uint8"/>
    /// #       <field name="action" id="279" type="UpdateAction"/>
    /// #       <field name="entryType" id="269" type="EntryType"/>
    /// #     </group>
    /// #   </sbe:message>
    /// # </sbe:messageSchema>"#;
    /// let schema = sbe_ir::ir::load_str("market-data.xml", xml).unwrap();
    /// let codec = sbe_otf::Codec::new(&schema).unwrap();
    /// let text = r#"{"message":"BookUpdate","header":{"blockLength":9,"templateId":1,"schemaId":7,"version":0},"body":{"transactTime":1700000000000000000,"flags":["EndOfEvent"],"entries":[{"price":{"mantissa":4516893500000,"exponent":-9},"size":null,"securityId":1026,"rptSeq":0,"level":8,"action":"New","entryType":"Trade"}]}}"#;
    /// let (mut fast, mut slow) = (Vec::new(), Vec::new());
    /// assert_eq!(codec.encode_text(text, &mut fast), Some(fast.len()));
    /// let value: serde_json::Value = serde_json::from_str(text).unwrap();
    /// codec.encode_value(&value, &mut slow).unwrap();
    /// assert_eq!(fast, slow);
    /// // Keys in another order: not the plan's form, left to `encode_value`.
    /// let swapped = text.replace(r#""level":8,"action":"New""#, r#""action":"New","level":8"#);
    /// assert_eq!(codec.encode_text(&swapped, &mut Vec::new()), None);
    /// ```
    pub fn encode_text(&self, text: &str, out: &mut Vec<u8>) -> Option<usize> {
        let mark = out.len();
        let mut j = crate::plan::JsonText::new(text);
        let r = j
            .message_name()
            .and_then(|name| self.message_index_by_name(name))
            .and_then(|i| self.plan(i))
            .and_then(|plan| plan.encode(&mut j, out));
        if r.is_none() {
            out.truncate(mark);
        }
        r
    }

    /// Encode one message given as FORMAT.md JSON (the `header` may be
    /// left out; `schema` is ignored, and so are the `frame` and `offset`
    /// that `sbe decode` adds to a capture's or stream's messages, which
    /// say where a message came from, not what it holds) and append its
    /// bytes to `out`. On error nothing is appended.
    ///
    /// ```
    /// # let xml = r#"<messageSchema package="demo" id="1">
    /// #   <types>
    /// #     <composite name="messageHeader">
    /// #       <type name="blockLength" primitiveType="uint16"/>
    /// #       <type name="templateId" primitiveType="uint16"/>
    /// #       <type name="schemaId" primitiveType="uint16"/>
    /// #       <type name="version" primitiveType="uint16"/>
    /// #     </composite>
    /// #   </types>
    /// #   <message name="Tick" id="1"><field name="seq" id="1" type="uint32"/></message>
    /// # </messageSchema>"#;
    /// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
    /// let codec = sbe_otf::Codec::new(&schema).unwrap();
    /// let line = r#"{"message":"Tick","body":{"seq":7},"frame":{"packet":3},"offset":42}"#;
    /// let mut out = Vec::new();
    /// codec.encode_value(&serde_json::from_str(line).unwrap(), &mut out).unwrap();
    /// assert_eq!(out, [4, 0, 1, 0, 1, 0, 0, 0, 7, 0, 0, 0]);
    /// let odd = r#"{"message":"Tick","body":{"seq":7},"extra":1}"#;
    /// let e = codec.encode_value(&serde_json::from_str(odd).unwrap(), &mut out).unwrap_err();
    /// assert!(e.to_string().contains("unknown field"), "{e}");
    /// ```
    pub fn encode_value(&self, v: &Value, out: &mut Vec<u8>) -> Result<usize, EncodeError> {
        let mut e = Enc {
            order: self.order,
            path: String::from("$"),
            version: 0,
            unstated: self.timestamp_unit,
            exponents: Vec::new(),
            exponent_marks: Vec::new(),
        };
        let obj = e.object(v)?;
        for k in obj.keys() {
            let known = ["schema", "message", "header", "body", "frame", "offset"];
            if !known.contains(&k.as_str()) {
                return Err(e.err_at(k, EncodeErrorKind::UnknownField));
            }
        }
        let header_obj = match obj.get("header") {
            None => None,
            Some(h) => {
                e.push_key("header");
                let o = e.object(h)?.clone();
                e.pop(1);
                Some(o)
            }
        };
        let message: &Message = match obj.get("message") {
            Some(Value::String(name)) => self.message_by_name(name).ok_or_else(|| {
                e.err_at("message", EncodeErrorKind::UnknownMessage(name.clone()))
            })?,
            Some(other) => {
                return Err(e.err_at(
                    "message",
                    EncodeErrorKind::WrongType {
                        expected: "string",
                        found: kind_of(other),
                    },
                ))
            }
            None => {
                let key = self
                    .schema
                    .header_member(HeaderRole::TemplateId)
                    .map_or("", |m| m.ty.name.as_str());
                let id = header_obj
                    .as_ref()
                    .and_then(|h| h.get(key))
                    .and_then(Value::as_u64)
                    .ok_or_else(|| e.err_at("message", EncodeErrorKind::MissingField))?;
                self.message_by_id(id).ok_or_else(|| {
                    e.err_at("message", EncodeErrorKind::UnknownMessage(id.to_string()))
                })?
            }
        };

        // The header: given values, else filled in.
        let header_ty = &self.schema.header_type;
        let mut header = vec![0u8; self.header_len];
        let mut block_length = i128::from(message.block.block_length);
        let mut version = i128::from(self.schema.version);
        e.push_key("header");
        if let Some(h) = &header_obj {
            e.check_keys(h, header_ty)?;
        }
        for (m, role) in self.schema.header_members() {
            let given = header_obj.as_ref().and_then(|h| h.get(&m.ty.name));
            let name = m.ty.name.as_str();
            let default = match role {
                Some(HeaderRole::BlockLength) => Some(i128::from(message.block.block_length)),
                Some(HeaderRole::TemplateId) => Some(i128::from(message.id)),
                Some(HeaderRole::SchemaId) => Some(i128::from(self.schema.id)),
                Some(HeaderRole::Version) => Some(i128::from(self.schema.version)),
                _ => None,
            };
            let at = m.offset as usize;
            match (given, default, &m.ty.kind) {
                (Some(g), _, TypeKind::Encoded(enc))
                    if enc.presence != Presence::Constant && enc.length == 1 =>
                {
                    e.push_key(name);
                    let v = e.int(g, enc.primitive)?;
                    if role == Some(HeaderRole::TemplateId) && v != i128::from(message.id) {
                        return Err(e.err(EncodeErrorKind::Inconsistent(format!(
                            "templateId {v} is not that of message {} ({})",
                            message.name, message.id
                        ))));
                    }
                    e.pop(1);
                    match role {
                        Some(HeaderRole::BlockLength) => block_length = v,
                        Some(HeaderRole::Version) => version = v,
                        _ => {}
                    }
                    e.put_int(&mut header, at, enc.primitive, v)?;
                }
                (Some(g), _, _) => {
                    e.push_key(name);
                    let len = sbe_ir::ir::encoded_length(&m.ty).unwrap_or(0) as usize;
                    let mut tmp = vec![0u8; len];
                    e.value(&m.ty, g, &mut tmp, 0, false)?;
                    e.pop(1);
                    copy_into(&mut header, at, &tmp);
                }
                (None, Some(d), TypeKind::Encoded(enc)) if enc.presence != Presence::Constant => {
                    e.put_int(&mut header, at, enc.primitive, d)?;
                }
                _ => {}
            }
        }

        e.pop(1);
        // As the decoders read it: a version too large for a `u32` acts
        // as `u32::MAX`.
        e.version = u32::try_from(version.max(0)).unwrap_or(u32::MAX);
        if let Some(Uint::Const(v)) = self.header.block_length {
            block_length = i128::from(v);
        }

        // The body.
        e.push_key("body");
        let body = match obj.get("body") {
            Some(b) => e.object(b)?,
            None => return Err(e.err(EncodeErrorKind::MissingField)),
        };
        e.check_body_keys(body, &message.block)?;
        let needed = message.block.end_at(e.version) as usize;
        let block_length = usize::try_from(block_length).unwrap_or(0);
        if block_length < needed {
            e.pop(1);
            e.push_key("header");
            if let Some(m) = self.schema.header_member(HeaderRole::BlockLength) {
                e.push_key(&m.ty.name);
            }
            return Err(e.err(EncodeErrorKind::Inconsistent(format!(
                "blockLength {block_length} is less than the {needed} bytes the fields need"
            ))));
        }
        let mut msg = header;
        let start = msg.len();
        msg.resize(start + block_length, 0);
        e.sections_of(body, &message.block, &mut msg, start)?;
        out.extend_from_slice(&msg);
        Ok(msg.len())
    }
}

fn copy_into(dst: &mut [u8], at: usize, src: &[u8]) {
    if let Some(d) = dst.get_mut(at..at + src.len()) {
        d.copy_from_slice(src);
    }
}

struct Enc {
    order: ByteOrder,
    path: String,
    version: u32,
    /// The unit of a timestamp whose schema states none, for timestamps
    /// given as text.
    unstated: sbe_rt::TimeUnit,
    /// The `int8` fields of the blocks being written, the message's first
    /// (`None` for other fields), and where each block's start in it:
    /// where a field decimal given as text finds its exponent.
    exponents: Vec<Option<i8>>,
    exponent_marks: Vec<usize>,
}

impl Enc {
    fn err(&self, kind: EncodeErrorKind) -> EncodeError {
        EncodeError {
            path: self.path.clone(),
            kind,
        }
    }

    fn err_at(&self, key: &str, kind: EncodeErrorKind) -> EncodeError {
        EncodeError {
            path: format!("{}.{key}", self.path),
            kind,
        }
    }

    fn push_key(&mut self, k: &str) {
        self.path.push('.');
        self.path.push_str(k);
    }

    fn push_index(&mut self, i: usize) {
        self.path.push('[');
        self.path.push_str(&i.to_string());
        self.path.push(']');
    }

    /// Drop the last `n` path components.
    fn pop(&mut self, n: usize) {
        for _ in 0..n {
            let cut = self.path.rfind(['.', '[']).unwrap_or(self.path.len());
            self.path.truncate(cut.max(1));
        }
    }

    fn object<'v>(&self, v: &'v Value) -> Result<&'v Map<String, Value>, EncodeError> {
        v.as_object().ok_or_else(|| {
            self.err(EncodeErrorKind::WrongType {
                expected: "object",
                found: kind_of(v),
            })
        })
    }

    fn check_keys(&self, o: &Map<String, Value>, ty: &Type) -> Result<(), EncodeError> {
        let TypeKind::Composite(c) = &ty.kind else {
            return Ok(());
        };
        for k in o.keys() {
            if !c.members.iter().any(|m| &m.ty.name == k) {
                return Err(self.err_at(k, EncodeErrorKind::UnknownField));
            }
        }
        Ok(())
    }

    fn check_body_keys(&self, o: &Map<String, Value>, block: &Block) -> Result<(), EncodeError> {
        let v = self.version;
        for k in o.keys() {
            let known = block
                .fields
                .iter()
                .any(|f| &f.name == k && f.since_version <= v)
                || block
                    .groups
                    .iter()
                    .any(|g| &g.name == k && g.block.since_version <= v)
                || block
                    .data
                    .iter()
                    .any(|d| &d.name == k && d.since_version <= v);
            if !known {
                return Err(self.err_at(k, EncodeErrorKind::UnknownField));
            }
        }
        Ok(())
    }

    /// `block`'s fields into the block at `out[start..]`, then its groups
    /// and var data after it, from the JSON object `o`.
    fn sections_of(
        &mut self,
        o: &Map<String, Value>,
        block: &Block,
        out: &mut Vec<u8>,
        start: usize,
    ) -> Result<(), EncodeError> {
        self.exponent_marks.push(self.exponents.len());
        self.exponents.extend(block.fields.iter().map(|f| {
            let TypeKind::Encoded(e) = &f.ty.kind else {
                return None;
            };
            if e.primitive != Primitive::Int8 {
                return None;
            }
            o.get(&f.name)
                .and_then(Value::as_i64)
                .and_then(|v| i8::try_from(v).ok())
        }));
        let r = self.sections_inner(o, block, out, start);
        if let Some(mark) = self.exponent_marks.pop() {
            self.exponents.truncate(mark);
        }
        r
    }

    fn sections_inner(
        &mut self,
        o: &Map<String, Value>,
        block: &Block,
        out: &mut Vec<u8>,
        start: usize,
    ) -> Result<(), EncodeError> {
        self.fields(o, &block.fields, out, start)?;
        self.groups(o, &block.groups, out)?;
        self.data(o, &block.data, out)
    }

    /// The value of the exponent field `r` names, as the objects being
    /// written give it.
    fn exponent_of(&self, r: sbe_ir::ir::FieldRef) -> Option<i8> {
        let depth = self
            .exponent_marks
            .len()
            .checked_sub(1)?
            .checked_sub(r.up)?;
        let mark = *self.exponent_marks.get(depth)?;
        *self.exponents.get(mark.checked_add(r.field)?)?
    }

    /// Writes `v` to a header member (a dimension's, a var data's) at the
    /// slot the IR gives for it; a constant member is not written.
    fn put_slot(&self, buf: &mut [u8], slot: Uint, v: u64) -> Result<(), EncodeError> {
        slot.put(buf, v).map_err(|_| {
            self.err(EncodeErrorKind::Inconsistent(format!(
                "value at {} lies outside its block",
                slot.offset().unwrap_or(0)
            )))
        })
    }

    fn put_int(&self, buf: &mut [u8], at: usize, p: Primitive, v: i128) -> Result<(), EncodeError> {
        // Two's complement: the slot writes the low bytes.
        self.put_slot(buf, p.slot(self.order, at), v as u64)
    }

    /// An integer of primitive `p` (range-checked).
    fn int(&self, v: &Value, p: Primitive) -> Result<i128, EncodeError> {
        let Value::Number(n) = v else {
            return Err(self.err(EncodeErrorKind::WrongType {
                expected: "integer",
                found: kind_of(v),
            }));
        };
        let x = number_int(n).ok_or_else(|| {
            let s = n.to_string();
            if s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                self.err(EncodeErrorKind::OutOfRange {
                    value: s,
                    ty: p.name().to_string(),
                })
            } else {
                self.err(EncodeErrorKind::WrongType {
                    expected: "integer",
                    found: "fraction",
                })
            }
        })?;
        let (lo, hi) = p.int_range();
        if x < lo || x > hi {
            return Err(self.err(EncodeErrorKind::OutOfRange {
                value: x.to_string(),
                ty: p.name().to_string(),
            }));
        }
        Ok(x)
    }

    fn fields(
        &mut self,
        o: &Map<String, Value>,
        fields: &[Field],
        buf: &mut [u8],
        start: usize,
    ) -> Result<(), EncodeError> {
        for f in fields {
            if f.since_version > self.version || f.presence == Presence::Constant {
                continue;
            }
            let optional = f.presence == Presence::Optional;
            self.push_key(&f.name);
            match o.get(&f.name) {
                Some(v) => {
                    let at = start + f.offset as usize;
                    let end = at + f.encoded_length as usize;
                    let Some(slot) = buf.get_mut(at..end) else {
                        return Err(self.err(EncodeErrorKind::Inconsistent(
                            "field lies outside its block".to_string(),
                        )));
                    };
                    let wire = self.wire_form(&f.meaning, &f.ty, v)?;
                    self.value(&f.ty, wire.as_ref().unwrap_or(v), slot, 0, optional)?;
                }
                // Left out: what a generated encoder leaves in a field never
                // set, by the IR's one rule (each part that can be null at
                // its null, the rest zeros).
                None if optional => {
                    let at = start + f.offset as usize;
                    let unset = sbe_ir::ir::unset_bytes(&f.ty, f.presence, self.order);
                    if let Some(slot) = buf.get_mut(at..at + unset.len()) {
                        slot.copy_from_slice(&unset);
                    }
                }
                None => return Err(self.err(EncodeErrorKind::MissingField)),
            }
            self.pop(1);
        }
        Ok(())
    }

    /// The wire form of `v` where it is the semantic text of a typed value
    /// (`sbe decode --values semantic`'s), `None` where `v` is to be read
    /// as it is.
    fn wire_form(
        &self,
        meaning: &sbe_ir::ir::Meaning,
        ty: &Type,
        v: &Value,
    ) -> Result<Option<Value>, EncodeError> {
        if let (
            sbe_ir::ir::Meaning::Decimal(
                d @ sbe_ir::ir::DecimalParts {
                    exponent: sbe_ir::ir::Exponent::Field(r),
                    ..
                },
            ),
            Value::String(text),
        ) = (meaning, v)
        {
            let exponent = self.exponent_of(*r);
            return crate::semantic::field_decimal_wire(d, text, exponent)
                .map(Some)
                .map_err(|kind| self.err(kind));
        }
        let text = match v {
            Value::String(text) => text,
            Value::Null => return Ok(crate::semantic::null_wire(meaning, ty)),
            _ => return Ok(None),
        };
        match crate::semantic::to_wire(meaning, ty, text, self.unstated) {
            None => Ok(None),
            Some(wire) => wire.map(Some).map_err(|kind| self.err(kind)),
        }
    }

    /// Write `v` as a value of `ty` into `buf` at `at`.
    fn value(
        &mut self,
        ty: &Type,
        v: &Value,
        buf: &mut [u8],
        at: usize,
        optional: bool,
    ) -> Result<(), EncodeError> {
        match &ty.kind {
            TypeKind::Encoded(e) => {
                if e.presence == Presence::Constant {
                    return Ok(());
                }
                self.encoded(e, v, buf, at, optional || e.presence == Presence::Optional)
            }
            TypeKind::Enum(en) => self.enumeration(ty, en, v, buf, at, optional),
            TypeKind::Set(s) => self.set(ty, s, v, buf, at),
            TypeKind::Composite(c) => {
                let o = match v {
                    Value::Null if optional => {
                        // Every member at its own null.
                        for m in &c.members {
                            self.value(&m.ty, &Value::Null, buf, at + m.offset as usize, true)?;
                        }
                        return Ok(());
                    }
                    v => self.object(v)?,
                };
                self.check_keys(o, ty)?;
                for m in &c.members {
                    if let TypeKind::Encoded(e) = &m.ty.kind {
                        if e.presence == Presence::Constant {
                            continue;
                        }
                    }
                    self.push_key(&m.ty.name);
                    let member_optional = match &m.ty.kind {
                        TypeKind::Encoded(e) => e.presence == Presence::Optional,
                        TypeKind::Enum(en) => en.presence == Presence::Optional,
                        _ => false,
                    };
                    match o.get(&m.ty.name) {
                        Some(mv) => {
                            let wire = self.wire_form(&m.ty.meaning, &m.ty, mv)?;
                            let mv = wire.as_ref().unwrap_or(mv);
                            self.value(&m.ty, mv, buf, at + m.offset as usize, false)?
                        }
                        None if member_optional => {
                            self.value(&m.ty, &Value::Null, buf, at + m.offset as usize, true)?
                        }
                        None => return Err(self.err(EncodeErrorKind::MissingField)),
                    }
                    self.pop(1);
                }
                Ok(())
            }
        }
    }

    fn encoded(
        &mut self,
        e: &Encoded,
        v: &Value,
        buf: &mut [u8],
        at: usize,
        optional: bool,
    ) -> Result<(), EncodeError> {
        let p = e.primitive;
        if p == Primitive::Char {
            let max = e.length as usize;
            let bytes = match v {
                Value::Null if optional => {
                    let null = if e.length == 1 {
                        int_null(e).unwrap_or(0)
                    } else {
                        0
                    };
                    return self.put_int(buf, at, p, null);
                }
                Value::String(s) => self.text_bytes(s, is_utf8(e.character_encoding.as_deref()))?,
                other => {
                    return Err(self.err(EncodeErrorKind::WrongType {
                        expected: "string",
                        found: kind_of(other),
                    }))
                }
            };
            if bytes.len() > max {
                return Err(self.err(EncodeErrorKind::StringTooLong {
                    len: bytes.len(),
                    max: max as u64,
                }));
            }
            copy_into(buf, at, &bytes);
            return Ok(());
        }
        if e.length == 1 {
            return self.scalar(e, v, buf, at, optional);
        }
        let size = p.size() as usize;
        match v {
            Value::Array(items) => {
                if items.len() != e.length as usize {
                    return Err(self.err(EncodeErrorKind::Inconsistent(format!(
                        "array of {} elements, the field holds {}",
                        items.len(),
                        e.length
                    ))));
                }
                for (i, item) in items.iter().enumerate() {
                    self.push_index(i);
                    self.scalar(e, item, buf, at + i * size, optional)?;
                    self.pop(1);
                }
                Ok(())
            }
            Value::Null if optional => {
                for i in 0..e.length as usize {
                    self.scalar(e, &Value::Null, buf, at + i * size, true)?;
                }
                Ok(())
            }
            other => Err(self.err(EncodeErrorKind::WrongType {
                expected: "array",
                found: kind_of(other),
            })),
        }
    }

    fn scalar(
        &mut self,
        e: &Encoded,
        v: &Value,
        buf: &mut [u8],
        at: usize,
        optional: bool,
    ) -> Result<(), EncodeError> {
        let p = e.primitive;
        if p.is_float() {
            let x = match v {
                Value::Null => match e.null_value {
                    Some(Scalar::Float(n)) if optional => n,
                    _ => f64::NAN,
                },
                Value::Number(n) => n.as_f64().ok_or_else(|| {
                    self.err(EncodeErrorKind::OutOfRange {
                        value: n.to_string(),
                        ty: p.name().to_string(),
                    })
                })?,
                other => {
                    return Err(self.err(EncodeErrorKind::WrongType {
                        expected: "number",
                        found: kind_of(other),
                    }))
                }
            };
            let bits = if p == Primitive::Float {
                let f = x as f32;
                if x.is_finite() && !f.is_finite() {
                    return Err(self.err(EncodeErrorKind::OutOfRange {
                        value: x.to_string(),
                        ty: "float".to_string(),
                    }));
                }
                i128::from(f.to_bits())
            } else {
                i128::from(x.to_bits())
            };
            return self.put_int(buf, at, p, bits);
        }
        let x = match v {
            Value::Null if optional => int_null(e).unwrap_or(0),
            _ => self.int(v, p)?,
        };
        self.put_int(buf, at, p, x)
    }

    fn text_bytes(&self, s: &str, utf8: bool) -> Result<Vec<u8>, EncodeError> {
        if utf8 {
            return Ok(s.as_bytes().to_vec());
        }
        s.chars()
            .map(|c| {
                u8::try_from(u32::from(c)).map_err(|_| self.err(EncodeErrorKind::BadCharacter(c)))
            })
            .collect()
    }

    fn enumeration(
        &mut self,
        ty: &Type,
        en: &EnumType,
        v: &Value,
        buf: &mut [u8],
        at: usize,
        optional: bool,
    ) -> Result<(), EncodeError> {
        let x = match v {
            Value::String(name) => en
                .values
                .iter()
                .find(|vv| &vv.name == name)
                .map(|vv| vv.value)
                .ok_or_else(|| {
                    self.err(EncodeErrorKind::UnknownEnum {
                        name: name.clone(),
                        ty: ty.name.clone(),
                    })
                })?,
            Value::Null if optional || en.presence == Presence::Optional => en.null_value,
            Value::Number(_) => self.int(v, en.encoding)?,
            other => {
                return Err(self.err(EncodeErrorKind::WrongType {
                    expected: "enum name",
                    found: kind_of(other),
                }))
            }
        };
        self.put_int(buf, at, en.encoding, x)
    }

    fn set(
        &mut self,
        ty: &Type,
        s: &SetType,
        v: &Value,
        buf: &mut [u8],
        at: usize,
    ) -> Result<(), EncodeError> {
        let Value::Array(items) = v else {
            return Err(self.err(EncodeErrorKind::WrongType {
                expected: "array of choice names",
                found: kind_of(v),
            }));
        };
        let bits = s.encoding.size() * 8;
        let mut x: u128 = 0;
        for (i, item) in items.iter().enumerate() {
            self.push_index(i);
            let bit = match item {
                Value::String(name) => s
                    .choices
                    .iter()
                    .find(|c| &c.name == name)
                    .map(|c| c.bit)
                    .ok_or_else(|| {
                        self.err(EncodeErrorKind::UnknownChoice {
                            name: name.clone(),
                            ty: ty.name.clone(),
                        })
                    })?,
                Value::Number(n) => match n.as_u64() {
                    Some(b) if b < u64::from(bits) => b as u32,
                    _ => {
                        return Err(self.err(EncodeErrorKind::OutOfRange {
                            value: n.to_string(),
                            ty: format!("a bit position of {}", s.encoding.name()),
                        }))
                    }
                },
                other => {
                    return Err(self.err(EncodeErrorKind::WrongType {
                        expected: "choice name",
                        found: kind_of(other),
                    }))
                }
            };
            if bit < 128 {
                x |= 1 << bit;
            }
            self.pop(1);
        }
        self.put_int(buf, at, s.encoding, x as i128)
    }

    fn groups(
        &mut self,
        o: &Map<String, Value>,
        groups: &[Group],
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        for g in groups {
            if g.block.since_version > self.version {
                continue;
            }
            self.push_key(&g.name);
            let entries = match o.get(&g.name) {
                Some(Value::Array(a)) => a,
                Some(other) => {
                    return Err(self.err(EncodeErrorKind::WrongType {
                        expected: "array",
                        found: kind_of(other),
                    }))
                }
                None => return Err(self.err(EncodeErrorKind::MissingField)),
            };
            let layout = g.dimension(self.order);
            let mut dim = vec![0u8; layout.len];
            self.put_slot(
                &mut dim,
                layout.block_length,
                u64::from(g.block.block_length),
            )?;
            // The generated encoders' rule: at most numInGroup's maximum.
            if sbe_rt::__private::codec::check_count(entries.len(), layout.max_count).is_err() {
                return Err(self.err(EncodeErrorKind::OutOfRange {
                    value: format!("{} entries", entries.len()),
                    ty: format!("numInGroup (max {})", layout.max_count),
                }));
            }
            self.put_slot(&mut dim, layout.count, entries.len() as u64)?;
            out.extend_from_slice(&dim);
            for (i, entry) in entries.iter().enumerate() {
                self.push_index(i);
                let eo = self.object(entry)?;
                self.check_body_keys(eo, &g.block)?;
                let start = out.len();
                out.resize(start + g.block.block_length as usize, 0);
                self.sections_of(eo, &g.block, out, start)?;
                self.pop(1);
            }
            self.pop(1);
        }
        Ok(())
    }

    fn data(
        &mut self,
        o: &Map<String, Value>,
        data: &[Data],
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        for d in data {
            if d.since_version > self.version {
                continue;
            }
            self.push_key(&d.name);
            let bytes = match o.get(&d.name) {
                Some(Value::String(s)) if d.character_encoding.is_some() => {
                    self.text_bytes(s, is_utf8(d.character_encoding.as_deref()))?
                }
                Some(Value::String(s)) => {
                    parse_hex(s).ok_or_else(|| self.err(EncodeErrorKind::BadHex))?
                }
                Some(other) => {
                    return Err(self.err(EncodeErrorKind::WrongType {
                        expected: "string",
                        found: kind_of(other),
                    }))
                }
                None => return Err(self.err(EncodeErrorKind::MissingField)),
            };
            let max = d
                .max_length
                .min(u64::try_from(d.length_primitive.int_range().1).unwrap_or(u64::MAX));
            if bytes.len() as u64 > max {
                return Err(self.err(EncodeErrorKind::StringTooLong {
                    len: bytes.len(),
                    max,
                }));
            }
            let lay = d.var_data(self.order);
            let mut prefix = vec![0u8; lay.data_offset];
            self.put_slot(&mut prefix, lay.length, bytes.len() as u64)?;
            out.extend_from_slice(&prefix);
            out.extend_from_slice(&bytes);
            self.pop(1);
        }
        Ok(())
    }
}

fn number_int(n: &Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    // A fraction, or an integer beyond 64 bits (the caller tells which).
    None
}

fn parse_hex(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return None;
    }
    b.chunks_exact(2)
        .map(|p| {
            let hi = (*p.first()? as char).to_digit(16)?;
            let lo = (*p.get(1)? as char).to_digit(16)?;
            Some((hi * 16 + lo) as u8)
        })
        .collect()
}
