//! The layout report (`sbe layout`): the IR as the JSON the reference's
//! layout.json files use, key for key and in the same order.

//!
//! The JSON is built with a small ordered value of its own rather than
//! `serde_json`, so that a consumer's `build.rs` does not compile serde.

use std::fmt::Write as _;

use crate::ir::*;

/// The layout of `schema` as layout.json text (pretty-printed, keys in the
/// reference's order); `label` is the `schema` entry (the schema's path as
/// the user named it).
pub fn layout_json(schema: &Schema, label: &str) -> String {
    layout_json_with(schema, label, LayoutOptions::default())
}

/// What the layout report adds to the reference's keys.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct LayoutOptions {
    /// Add a `meaning` object to every field and var data (`sbe layout
    /// --meanings`): its [`Meaning`] kind and parts, after the
    /// reference's keys.
    pub meanings: bool,
}

impl LayoutOptions {
    /// With (or without) the `meaning` objects.
    #[must_use]
    pub fn meanings(mut self, on: bool) -> Self {
        self.meanings = on;
        self
    }
}

/// [`layout_json`] with `options`' additions.
///
/// ```
/// let xml = r#"<messageSchema package="demo" id="1">
///   <types>
///     <composite name="messageHeader">
///       <type name="blockLength" primitiveType="uint16"/>
///       <type name="templateId" primitiveType="uint16"/>
///       <type name="schemaId" primitiveType="uint16"/>
///       <type name="version" primitiveType="uint16"/>
///     </composite>
///   </types>
///   <message name="Ping" id="1">
///     <field name="sent" id="1" type="uint64" semanticType="UTCTimestamp"/>
///   </message>
/// </messageSchema>"#;
/// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
/// let options = sbe_ir::report::LayoutOptions::default().meanings(true);
/// let json = sbe_ir::report::layout_json_with(&schema, "demo.xml", options);
/// assert!(json.contains(r#""kind": "timestamp""#));
/// assert!(json.contains(r#""unit": "unstated""#));
/// ```
pub fn layout_json_with(schema: &Schema, label: &str, options: LayoutOptions) -> String {
    let mut types = Map::new();
    for t in &schema.types {
        types.insert(t.name.clone(), type_json(t, None, None));
    }
    let byte_order = match schema.byte_order {
        ByteOrder::Little => "littleEndian",
        ByteOrder::Big => "bigEndian",
    };
    let mut header = Map::new();
    header.insert("name".into(), schema.header_type.name.clone().into());
    header.insert("encodedLength".into(), length_json(&schema.header_type));
    header.insert("members".into(), members_json(&schema.header_type));
    let mut o = Map::new();
    o.insert("schema".into(), label.into());
    o.insert("package".into(), schema.package.clone().into());
    o.insert("id".into(), schema.id.into());
    o.insert("version".into(), schema.version.into());
    o.insert(
        "semanticVersion".into(),
        schema.semantic_version.clone().into(),
    );
    o.insert("byteOrder".into(), byte_order.into());
    o.insert("header".into(), Value::Object(header));
    o.insert("types".into(), Value::Object(types));
    o.insert(
        "messages".into(),
        Value::Array(
            schema
                .messages
                .iter()
                .map(|m| message_json(m, options))
                .collect(),
        ),
    );
    let mut out = String::new();
    Value::Object(o).write(&mut out, 0);
    out
}

/// A JSON value whose objects keep their keys in insertion order.
enum Value {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Array(Vec<Value>),
    Object(Map),
}

/// An object's members, in order.
#[derive(Default)]
struct Map(Vec<(String, Value)>);

impl Map {
    fn new() -> Self {
        Map::default()
    }
    fn insert(&mut self, key: String, value: Value) {
        self.0.push((key, value));
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}
impl From<Option<String>> for Value {
    fn from(s: Option<String>) -> Self {
        s.map_or(Value::Null, Value::Str)
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Self {
        Value::Int(v.into())
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Self {
        Value::Int(v.into())
    }
}
impl FromIterator<Value> for Value {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Value::Array(iter.into_iter().collect())
    }
}

impl Value {
    /// Pretty-print with two-space indents, as `serde_json` would.
    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(v) => {
                let _ = write!(out, "{v}");
            }
            Value::Float(f) if f.is_finite() => {
                let _ = write!(out, "{f:?}");
            }
            Value::Float(_) => out.push_str("null"),
            Value::Str(s) => write_str(out, s),
            Value::Array(items) if items.is_empty() => out.push_str("[]"),
            Value::Object(map) if map.0.is_empty() => out.push_str("{}"),
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    push_indent(out, indent + 1);
                    v.write(out, indent + 1);
                }
                out.push('\n');
                push_indent(out, indent);
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                for (i, (k, v)) in map.0.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    push_indent(out, indent + 1);
                    write_str(out, k);
                    out.push_str(": ");
                    v.write(out, indent + 1);
                }
                out.push('\n');
                push_indent(out, indent);
                out.push('}');
            }
        }
    }
}

fn push_indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn length_json(ty: &Type) -> Value {
    match encoded_length(ty) {
        Some(l) => l.into(),
        None => (-1).into(),
    }
}

fn members_json(ty: &Type) -> Value {
    match &ty.kind {
        TypeKind::Composite(c) => c
            .members
            .iter()
            .map(|m| type_json(&m.ty, Some(m.offset), m.type_name.as_deref()))
            .collect(),
        _ => Value::Array(Vec::new()),
    }
}

fn scalar_json(s: Scalar) -> Value {
    match s {
        Scalar::Int(v) => Value::Int(v),
        Scalar::Float(f) => Value::Float(f),
    }
}

fn const_json(c: &ConstValue) -> Value {
    match c {
        ConstValue::Text(t) => t.clone().into(),
        ConstValue::Number(s) => scalar_json(*s),
        ConstValue::EnumValue { value_name, .. } => value_name.clone().into(),
    }
}

/// One type: a named type (`offset` None) or a composite member.
fn type_json(ty: &Type, offset: Option<u32>, type_name: Option<&str>) -> Value {
    let mut o = Map::new();
    if offset.is_some() {
        o.insert("name".into(), ty.name.clone().into());
    }
    if let Some(off) = offset {
        o.insert("offset".into(), off.into());
    }
    // A <ref> to anything but a plain type is shown by name, not expanded.
    let short_ref = match (&ty.kind, type_name) {
        (TypeKind::Encoded(_), _) | (_, None) => None,
        (_, Some(r)) => Some(r),
    };
    if let Some(r) = short_ref {
        o.insert("ref".into(), r.into());
    }
    let kind = match &ty.kind {
        TypeKind::Encoded(_) => "type",
        TypeKind::Enum(_) => "enum",
        TypeKind::Set(_) => "set",
        TypeKind::Composite(_) => "composite",
    };
    o.insert("kind".into(), kind.into());
    match &ty.kind {
        TypeKind::Encoded(e) => encoded_json(&mut o, ty, e),
        TypeKind::Enum(e) => {
            if short_ref.is_none() {
                o.insert("encodingType".into(), e.encoding.name().into());
            }
            o.insert("encodedLength".into(), length_json(ty));
            o.insert("presence".into(), presence_name(e.presence).into());
            if short_ref.is_none() {
                o.insert("nullValue".into(), Value::Int(e.null_value));
                let values = e.values.iter().map(|v| {
                    let mut m = Map::new();
                    m.insert("name".into(), v.name.clone().into());
                    m.insert("value".into(), Value::Int(v.value));
                    if v.since_version > 0 {
                        m.insert("sinceVersion".into(), v.since_version.into());
                    }
                    Value::Object(m)
                });
                o.insert("validValues".into(), values.collect());
            }
        }
        TypeKind::Set(s) => {
            if short_ref.is_none() {
                o.insert("encodingType".into(), s.encoding.name().into());
            }
            o.insert("encodedLength".into(), length_json(ty));
            if short_ref.is_none() {
                let choices = s.choices.iter().map(|c| {
                    let mut m = Map::new();
                    m.insert("name".into(), c.name.clone().into());
                    m.insert("bit".into(), c.bit.into());
                    if c.since_version > 0 {
                        m.insert("sinceVersion".into(), c.since_version.into());
                    }
                    Value::Object(m)
                });
                o.insert("choices".into(), choices.collect());
            }
        }
        TypeKind::Composite(_) => {
            o.insert("encodedLength".into(), length_json(ty));
            if short_ref.is_none() {
                o.insert("members".into(), members_json(ty));
            }
        }
    }
    if offset.is_none() && ty.since_version > 0 && !matches!(ty.kind, TypeKind::Encoded(_)) {
        o.insert("sinceVersion".into(), ty.since_version.into());
    }
    if let (TypeKind::Encoded(_), Some(r)) = (&ty.kind, type_name) {
        o.insert("ref".into(), r.into());
    }
    Value::Object(o)
}

fn encoded_json(o: &mut Map, ty: &Type, e: &Encoded) {
    o.insert("primitiveType".into(), e.primitive.name().into());
    o.insert("length".into(), e.length.into());
    o.insert("encodedLength".into(), length_json(ty));
    o.insert("presence".into(), presence_name(e.presence).into());
    if let Some(ce) = &e.character_encoding {
        o.insert("characterEncoding".into(), ce.clone().into());
    }
    for (key, v) in [
        ("minValue", e.min_value),
        ("maxValue", e.max_value),
        ("nullValue", e.null_value),
    ] {
        if let Some(v) = v {
            o.insert(key.into(), scalar_json(v));
        }
    }
    if let Some(vr) = &e.value_ref {
        o.insert("valueRef".into(), vr.clone().into());
    }
    if let Some(c) = &e.const_value {
        // On a type, a valueRef constant shows the enum value's number.
        let v = match c {
            ConstValue::EnumValue { value, .. } => Value::Int(*value),
            c => const_json(c),
        };
        o.insert("constValue".into(), v);
    }
    if ty.since_version > 0 {
        o.insert("sinceVersion".into(), ty.since_version.into());
    }
}

fn presence_name(p: Presence) -> &'static str {
    match p {
        Presence::Required => "required",
        Presence::Optional => "optional",
        Presence::Constant => "constant",
    }
}

fn message_json(m: &Message, options: LayoutOptions) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), m.name.clone().into());
    o.insert("id".into(), m.id.into());
    o.insert("blockLength".into(), m.block.block_length.into());
    o.insert("sinceVersion".into(), m.block.since_version.into());
    block_json(&mut o, &m.block, options);
    Value::Object(o)
}

/// A block's `fields`, `groups` and `data`, in the reference's order.
fn block_json(o: &mut Map, block: &Block, options: LayoutOptions) {
    let fields = block.fields.iter().map(|f| field_json(f, options));
    o.insert("fields".into(), fields.collect());
    let groups = block.groups.iter().map(|g| group_json(g, options));
    o.insert("groups".into(), groups.collect());
    let data = block.data.iter().map(|d| data_json(d, options));
    o.insert("data".into(), data.collect());
}

fn field_json(f: &Field, options: LayoutOptions) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), f.name.clone().into());
    o.insert("id".into(), f.id.into());
    o.insert("offset".into(), f.offset.into());
    o.insert("encodedLength".into(), f.encoded_length.into());
    o.insert("type".into(), f.type_name.clone().into());
    o.insert("presence".into(), presence_name(f.presence).into());
    if let Some(vr) = &f.value_ref {
        o.insert("valueRef".into(), vr.clone().into());
    }
    o.insert("sinceVersion".into(), f.since_version.into());
    if options.meanings {
        o.insert("meaning".into(), meaning_json(&f.meaning, &f.ty));
    }
    Value::Object(o)
}

fn group_json(g: &Group, options: LayoutOptions) -> Value {
    let mut dim = Map::new();
    dim.insert("name".into(), g.dimension_type.name.clone().into());
    dim.insert("encodedLength".into(), length_json(&g.dimension_type));
    let mut o = Map::new();
    o.insert("name".into(), g.name.clone().into());
    o.insert("id".into(), g.id.into());
    o.insert("blockLength".into(), g.block.block_length.into());
    o.insert("sinceVersion".into(), g.block.since_version.into());
    o.insert("dimension".into(), Value::Object(dim));
    block_json(&mut o, &g.block, options);
    Value::Object(o)
}

fn data_json(d: &Data, options: LayoutOptions) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), d.name.clone().into());
    o.insert("id".into(), d.id.into());
    o.insert("type".into(), d.encoding_type.name.clone().into());
    o.insert("lengthType".into(), d.length_primitive.name().into());
    o.insert(
        "characterEncoding".into(),
        d.character_encoding.clone().into(),
    );
    o.insert("sinceVersion".into(), d.since_version.into());
    if options.meanings {
        o.insert("meaning".into(), meaning_json(&d.meaning, &d.encoding_type));
    }
    Value::Object(o)
}

/// A value's [`Meaning`]: its kind, and its parts by member name.
fn meaning_json(meaning: &Meaning, ty: &Type) -> Value {
    let member = |i: usize| -> Value {
        match &ty.kind {
            TypeKind::Composite(c) => c.members.get(i).map(|m| m.ty.name.clone()).into(),
            _ => Value::Null,
        }
    };
    let mut o = Map::new();
    o.insert("kind".into(), meaning.kind().into());
    match meaning {
        Meaning::Decimal(d) => {
            o.insert("mantissa".into(), member(d.mantissa));
            let exponent = match d.exponent {
                Exponent::Constant(e) => i32::from(e).into(),
                Exponent::Member(i) => member(i),
                // The field by position: blocks out, and its index there.
                Exponent::Field(f) => {
                    let mut at = Map::new();
                    at.insert("up".into(), Value::Int(f.up as i128));
                    at.insert("field".into(), Value::Int(f.field as i128));
                    Value::Object(at)
                }
            };
            o.insert("exponent".into(), exponent);
            if d.mantissa128 {
                o.insert("mantissa128".into(), Value::Bool(true));
            }
        }
        Meaning::Timestamp(t) => {
            if let Some(i) = t.time {
                o.insert("time".into(), member(i));
            }
            let unit = match t.unit {
                TimeUnitSource::Constant(unit) => unit_name(unit).into(),
                TimeUnitSource::Member(i) => member(i),
                TimeUnitSource::Unstated => "unstated".into(),
            };
            o.insert("unit".into(), unit);
            o.insert("ofDay".into(), Value::Bool(t.of_day));
            if let Some((hour, minute)) = t.zone {
                o.insert(
                    "zone".into(),
                    Value::Array(vec![member(hour), member(minute)]),
                );
            }
        }
        Meaning::MonthYear(parts) => {
            let named = [Some(parts.year), Some(parts.month), parts.day, parts.week];
            o.insert(
                "members".into(),
                named.into_iter().flatten().map(member).collect(),
            );
        }
        _ => {}
    }
    if matches!(
        meaning,
        Meaning::Decimal(_) | Meaning::Timestamp(_) | Meaning::Date(_)
    ) {
        o.insert("optional".into(), Value::Bool(meaning.optional()));
    }
    Value::Object(o)
}

/// A time unit by its SI symbol.
fn unit_name(unit: sbe_rt::TimeUnit) -> &'static str {
    match unit {
        sbe_rt::TimeUnit::Seconds => "s",
        sbe_rt::TimeUnit::Millis => "ms",
        sbe_rt::TimeUnit::Micros => "us",
        sbe_rt::TimeUnit::Nanos => "ns",
    }
}

#[cfg(test)]
mod tests {
    /// The escapes serde_json writes (layout.json came from it before).
    #[test]
    fn strings_escape_like_serde_json() {
        let mut s = String::new();
        super::write_str(&mut s, "a\"\\\n\r\t\u{8}\u{c}\u{1}é");
        assert_eq!(s, r#""a\"\\\n\r\t\b\f\u0001é""#);
    }
}
