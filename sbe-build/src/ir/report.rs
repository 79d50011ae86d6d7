//! The layout report (`sbe layout`): the IR as the JSON the reference's
//! layout.json files use, key for key and in the same order.

use serde_json::{json, Map, Value};

use super::layout::encoded_length;
use super::model::*;

/// The layout of `schema` as layout.json; `label` is the `schema` entry
/// (the schema's path as the user named it).
pub fn layout_json(schema: &Schema, label: &str) -> Value {
    let mut types = Map::new();
    for t in &schema.types {
        types.insert(t.name.clone(), type_json(t, None, None));
    }
    json!({
        "schema": label,
        "package": schema.package,
        "id": schema.id,
        "version": schema.version,
        "semanticVersion": schema.semantic_version,
        "byteOrder": match schema.byte_order { ByteOrder::Little => "littleEndian", ByteOrder::Big => "bigEndian" },
        "header": {
            "name": schema.header.name,
            "encodedLength": length_json(&schema.header),
            "members": members_json(&schema.header),
        },
        "types": types,
        "messages": schema.messages.iter().map(message_json).collect::<Vec<_>>(),
    })
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
            .map(|m| type_json(&m.ty, Some(m.offset), m.ref_type.as_deref()))
            .collect(),
        _ => Value::Array(Vec::new()),
    }
}

pub(crate) fn scalar_json(s: Scalar) -> Value {
    match s {
        Scalar::Int(v) => int_json(v),
        Scalar::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

fn int_json(v: i128) -> Value {
    if let Ok(i) = i64::try_from(v) {
        i.into()
    } else if let Ok(u) = u64::try_from(v) {
        u.into()
    } else {
        Value::Null
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
fn type_json(ty: &Type, offset: Option<u32>, ref_type: Option<&str>) -> Value {
    let mut o = Map::new();
    if offset.is_some() {
        o.insert("name".into(), ty.name.clone().into());
    }
    if let Some(off) = offset {
        o.insert("offset".into(), off.into());
    }
    // A <ref> to anything but a plain type is shown by name, not expanded.
    let short_ref = match (&ty.kind, ref_type) {
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
                o.insert("nullValue".into(), int_json(e.null_value));
                let values = e.values.iter().map(|v| {
                    let mut m = Map::new();
                    m.insert("name".into(), v.name.clone().into());
                    m.insert("value".into(), int_json(v.value));
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
    if let (TypeKind::Encoded(_), Some(r)) = (&ty.kind, ref_type) {
        o.insert("ref".into(), r.into());
    }
    Value::Object(o)
}

fn encoded_json(o: &mut Map<String, Value>, ty: &Type, e: &Encoded) {
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
            ConstValue::EnumValue { value, .. } => int_json(*value),
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

fn message_json(m: &Message) -> Value {
    json!({
        "name": m.name,
        "id": m.id,
        "blockLength": m.block_length,
        "sinceVersion": m.since_version,
        "fields": m.fields.iter().map(field_json).collect::<Vec<_>>(),
        "groups": m.groups.iter().map(group_json).collect::<Vec<_>>(),
        "data": m.data.iter().map(data_json).collect::<Vec<_>>(),
    })
}

fn field_json(f: &Field) -> Value {
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
    Value::Object(o)
}

fn group_json(g: &Group) -> Value {
    json!({
        "name": g.name,
        "id": g.id,
        "blockLength": g.block_length,
        "sinceVersion": g.since_version,
        "dimension": {"name": g.dimension.name, "encodedLength": length_json(&g.dimension)},
        "fields": g.fields.iter().map(field_json).collect::<Vec<_>>(),
        "groups": g.groups.iter().map(group_json).collect::<Vec<_>>(),
        "data": g.data.iter().map(data_json).collect::<Vec<_>>(),
    })
}

fn data_json(d: &Data) -> Value {
    json!({
        "name": d.name,
        "id": d.id,
        "type": d.ty.name,
        "lengthType": d.length_primitive.name(),
        "characterEncoding": d.character_encoding,
        "sinceVersion": d.since_version,
    })
}
