//! A row of a message table back as `sbe decode`'s JSON (FORMAT.md), by
//! the schema's IR: what the tests compare value for value.
#![allow(dead_code)]

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch, StructArray};
use arrow_schema::{DataType, TimeUnit as ArrowUnit};
use sbe_ir::ir::{
    Block, ConstValue, Exponent, Meaning, Presence, Primitive, Scalar, TimeUnitSource, Type,
    TypeKind,
};
use serde_json::{json, Map, Value};

/// The value at `row` of an integer, float, string or binary array.
pub fn scalar(a: &dyn Array, row: usize) -> Value {
    if a.is_null(row) {
        return Value::Null;
    }
    match a.data_type() {
        DataType::Int8 => json!(a.as_primitive::<Int8Type>().value(row)),
        DataType::Int16 => json!(a.as_primitive::<Int16Type>().value(row)),
        DataType::Int32 => json!(a.as_primitive::<Int32Type>().value(row)),
        DataType::Int64 => json!(a.as_primitive::<Int64Type>().value(row)),
        DataType::UInt8 => json!(a.as_primitive::<UInt8Type>().value(row)),
        DataType::UInt16 => json!(a.as_primitive::<UInt16Type>().value(row)),
        DataType::UInt32 => json!(a.as_primitive::<UInt32Type>().value(row)),
        DataType::UInt64 => json!(a.as_primitive::<UInt64Type>().value(row)),
        DataType::Float32 => json!(a.as_primitive::<Float32Type>().value(row)),
        DataType::Float64 => json!(a.as_primitive::<Float64Type>().value(row)),
        DataType::Utf8 => json!(a.as_string::<i32>().value(row)),
        DataType::Binary => {
            let b = a.as_binary::<i32>().value(row);
            json!(b.iter().map(|x| format!("{x:02x}")).collect::<String>())
        }
        DataType::Date32 => json!(a.as_primitive::<Date32Type>().value(row)),
        DataType::Dictionary(_, _) => {
            let d = a.as_dictionary::<UInt16Type>();
            let k = d.keys().value(row) as usize;
            scalar(d.values().as_ref(), k)
        }
        other => panic!("no scalar of {other}"),
    }
}

fn int(a: &dyn Array, row: usize) -> Option<i128> {
    match scalar(a, row) {
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

/// The columns of a table or struct, by name.
pub struct Cols<'a> {
    names: Vec<String>,
    arrays: Vec<&'a ArrayRef>,
}

impl<'a> Cols<'a> {
    pub fn of_batch(b: &'a RecordBatch) -> Cols<'a> {
        Cols {
            names: b
                .schema()
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect(),
            arrays: b.columns().iter().collect(),
        }
    }

    pub fn of_struct(s: &'a StructArray) -> Cols<'a> {
        Cols {
            names: s.fields().iter().map(|f| f.name().clone()).collect(),
            arrays: s.columns().iter().collect(),
        }
    }

    pub fn try_get(&self, name: &str) -> Option<&'a ArrayRef> {
        let i = self.names.iter().position(|n| n == name)?;
        Some(self.arrays[i])
    }

    pub fn get(&self, name: &str) -> &'a ArrayRef {
        let i = self
            .names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.names));
        self.arrays[i]
    }
}

/// The body of row `row` as JSON, for acting version `version`.
pub fn block(b: &Block, cols: &Cols<'_>, row: usize, version: u32) -> Value {
    let mut out = Map::new();
    for f in &b.fields {
        let v = value(
            &f.name,
            &f.ty,
            &f.meaning,
            f.presence,
            f.const_value.as_ref(),
            cols,
            row,
        );
        if f.since_version > version {
            assert!(
                v.is_null() || f.presence == Presence::Constant,
                "{}: a field newer than the acting version is null: {v}",
                f.name
            );
            continue;
        }
        out.insert(f.name.clone(), v);
    }
    for g in &b.groups {
        let list = cols.get(&g.name).as_list::<i32>();
        if g.block.since_version > version {
            assert!(list.is_null(row));
            continue;
        }
        let entries = list.value(row);
        let st = entries.as_struct();
        let ec = Cols::of_struct(st);
        let items: Vec<Value> = (0..st.len())
            .map(|i| block(&g.block, &ec, i, version))
            .collect();
        out.insert(g.name.clone(), Value::Array(items));
    }
    for d in &b.data {
        if d.since_version > version {
            continue;
        }
        out.insert(d.name.clone(), scalar(cols.get(&d.name).as_ref(), row));
    }
    Value::Object(out)
}

fn constant(ty: &Type, c: &ConstValue) -> Value {
    match c {
        ConstValue::Text(s) => json!(s),
        ConstValue::EnumValue { value_name, .. } => json!(value_name),
        ConstValue::Number(Scalar::Int(v)) => match &ty.kind {
            TypeKind::Encoded(e) if e.primitive == Primitive::Char => {
                json!(char::from(u8::try_from(*v).unwrap_or(0)).to_string())
            }
            _ => serde_json::from_str(&v.to_string()).unwrap(),
        },
        ConstValue::Number(Scalar::Float(v)) => json!(v),
    }
}

/// Value `name` of type `ty` from its columns in `cols`.
fn value(
    name: &str,
    ty: &Type,
    meaning: &Meaning,
    presence: Presence,
    field_const: Option<&ConstValue>,
    cols: &Cols<'_>,
    row: usize,
) -> Value {
    let own_const = match &ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => e.const_value.as_ref(),
        _ => None,
    };
    if presence == Presence::Constant || own_const.is_some() {
        let c = field_const.or(own_const);
        let col = scalar(cols.get(name).as_ref(), row);
        let expect = c.map_or(Value::Null, |c| constant(ty, c));
        if !col.is_null() {
            assert_eq!(col, expect, "constant {name}");
        }
        return expect;
    }
    let col = cols.get(name);
    if let Some(v) = meaning_value(name, ty, meaning, cols, row) {
        return v;
    }
    match &ty.kind {
        TypeKind::Encoded(e) if e.primitive != Primitive::Char && e.length != 1 => {
            let l = col.as_list::<i32>();
            if l.is_null(row) {
                return Value::Null;
            }
            let items = l.value(row);
            Value::Array(
                (0..items.len())
                    .map(|i| scalar(items.as_ref(), i))
                    .collect(),
            )
        }
        TypeKind::Encoded(_) => scalar(col.as_ref(), row),
        TypeKind::Enum(_) => {
            let names = scalar(col.as_ref(), row);
            let raw = scalar(cols.get(&format!("{name}_raw")).as_ref(), row);
            if names.is_null() {
                raw
            } else {
                assert!(raw.is_null(), "{name}: raw beside a name");
                names
            }
        }
        TypeKind::Set(s) => {
            let raw = int(cols.get(&format!("{name}_raw")).as_ref(), row);
            let Some(raw) = raw else {
                return Value::Null;
            };
            let mut items = Vec::new();
            let choices = s.choices.iter().map(|c| (c.name.as_str(), c.bit));
            sbe_rt::visit::for_each_bit(raw as u64, s.encoding.size() * 8, choices, |b| {
                items.push(match b {
                    sbe_rt::visit::Bit::Choice(n) => json!(n),
                    sbe_rt::visit::Bit::Unknown(b) => json!(b),
                })
            });
            let listed = col.as_list::<i32>().value(row);
            let listed: Vec<Value> = (0..listed.len())
                .map(|i| scalar(listed.as_ref(), i))
                .collect();
            let named: Vec<Value> = items.iter().filter(|v| v.is_string()).cloned().collect();
            assert_eq!(listed, named, "{name}: the choices listed");
            Value::Array(items)
        }
        TypeKind::Composite(c) => {
            let st = col.as_struct();
            if st.is_null(row) {
                return Value::Null;
            }
            let sc = Cols::of_struct(st);
            let mut out = Map::new();
            for m in &c.members {
                let v = value(
                    &m.ty.name,
                    &m.ty,
                    &m.ty.meaning,
                    Presence::Required,
                    None,
                    &sc,
                    row,
                );
                out.insert(m.ty.name.clone(), v);
            }
            Value::Object(out)
        }
    }
}

fn member_const(ty: &Type, i: usize) -> Value {
    let TypeKind::Composite(c) = &ty.kind else {
        return Value::Null;
    };
    match &c.members[i].ty.kind {
        TypeKind::Encoded(e) => e
            .const_value
            .as_ref()
            .map_or(Value::Null, |v| constant(&c.members[i].ty, v)),
        _ => Value::Null,
    }
}

fn member_name(ty: &Type, i: usize) -> String {
    match &ty.kind {
        TypeKind::Composite(c) => c.members[i].ty.name.clone(),
        _ => String::new(),
    }
}

/// A decimal, time or date column back as the JSON of its type.
fn meaning_value(
    name: &str,
    ty: &Type,
    meaning: &Meaning,
    cols: &Cols<'_>,
    row: usize,
) -> Option<Value> {
    let col = cols.get(name);
    match (meaning, col.data_type()) {
        (Meaning::Decimal(d), DataType::Decimal128(_, scale)) => {
            let a = col.as_primitive::<Decimal128Type>();
            let mantissa = if a.is_null(row) {
                Value::Null
            } else {
                let Exponent::Constant(e) = d.exponent else {
                    panic!("{name}: a decimal column with a wire exponent")
                };
                let v = a.value(row);
                let m = if e > 0 { v / 10i128.pow(e as u32) } else { v };
                assert_eq!(i16::from(*scale), -i16::from(e.min(0)), "{name}: scale");
                serde_json::from_str(&m.to_string()).unwrap()
            };
            let mut out = Map::new();
            let TypeKind::Composite(c) = &ty.kind else {
                panic!()
            };
            for (i, m) in c.members.iter().enumerate() {
                let v = if i == d.mantissa {
                    mantissa.clone()
                } else {
                    member_const(ty, i)
                };
                out.insert(m.ty.name.clone(), v);
            }
            Some(Value::Object(out))
        }
        (Meaning::Decimal(d), DataType::Float64) => {
            let exact = cols.get(&format!("{name}_exact")).as_struct();
            let ec = Cols::of_struct(exact);
            let Exponent::Member(ei) = d.exponent else {
                panic!("{name}: a float decimal with a constant exponent")
            };
            let m = scalar(ec.get(&member_name(ty, d.mantissa)).as_ref(), row);
            let e = scalar(ec.get(&member_name(ty, ei)).as_ref(), row);
            let f = scalar(col.as_ref(), row);
            if let (Some(mi), Some(ei)) = (m.as_i64(), e.as_i64()) {
                let want = sbe_rt::Decimal::new(i128::from(mi), ei as i8).to_f64();
                assert_eq!(f.as_f64(), Some(want), "{name}: the float of the decimal");
            }
            let mut out = Map::new();
            let TypeKind::Composite(c) = &ty.kind else {
                panic!()
            };
            for (i, mem) in c.members.iter().enumerate() {
                let v = if i == d.mantissa {
                    m.clone()
                } else if i == ei {
                    e.clone()
                } else {
                    member_const(ty, i)
                };
                out.insert(mem.ty.name.clone(), v);
            }
            Some(Value::Object(out))
        }
        (Meaning::Timestamp(t), DataType::Timestamp(..) | DataType::Time64(_)) => {
            let raw = match col.data_type() {
                DataType::Timestamp(ArrowUnit::Second, _) => col
                    .as_primitive::<TimestampSecondType>()
                    .is_valid(row)
                    .then(|| col.as_primitive::<TimestampSecondType>().value(row)),
                DataType::Timestamp(ArrowUnit::Millisecond, _) => col
                    .as_primitive::<TimestampMillisecondType>()
                    .is_valid(row)
                    .then(|| col.as_primitive::<TimestampMillisecondType>().value(row)),
                DataType::Timestamp(ArrowUnit::Microsecond, _) => col
                    .as_primitive::<TimestampMicrosecondType>()
                    .is_valid(row)
                    .then(|| col.as_primitive::<TimestampMicrosecondType>().value(row)),
                DataType::Timestamp(ArrowUnit::Nanosecond, _) => col
                    .as_primitive::<TimestampNanosecondType>()
                    .is_valid(row)
                    .then(|| col.as_primitive::<TimestampNanosecondType>().value(row)),
                _ => col
                    .as_primitive::<Time64NanosecondType>()
                    .is_valid(row)
                    .then(|| col.as_primitive::<Time64NanosecondType>().value(row)),
            };
            // Nanoseconds in one tick of the column.
            let col_nanos: i128 = match col.data_type() {
                DataType::Timestamp(ArrowUnit::Second, _) => 1_000_000_000,
                DataType::Timestamp(ArrowUnit::Millisecond, _) => 1_000_000,
                DataType::Timestamp(ArrowUnit::Microsecond, _) => 1_000,
                _ => 1,
            };
            let unit = match t.unit {
                TimeUnitSource::Constant(u) => Some(u),
                TimeUnitSource::Unstated => Some(sbe_rt::TimeUnit::Nanos),
                _ => None,
            };
            // The wire integer, where the column does not hold it exactly.
            let wire = cols
                .try_get(&format!("{name}_raw"))
                .map(|a| scalar(a.as_ref(), row))
                .filter(|v| !v.is_null());
            let count = |raw: Option<i64>| -> Value {
                match (wire.clone(), raw, unit) {
                    (Some(w), _, _) => w,
                    (None, None, _) => Value::Null,
                    (None, Some(v), Some(u)) => json!(i128::from(v) * col_nanos / u.nanos()),
                    (None, Some(v), None) => json!(v),
                }
            };
            match t.time {
                None => Some(count(raw)),
                Some(ti) => {
                    let TypeKind::Composite(c) = &ty.kind else {
                        panic!()
                    };
                    let mut out = Map::new();
                    for (i, m) in c.members.iter().enumerate() {
                        let v = if i == ti {
                            count(raw)
                        } else {
                            member_const(ty, i)
                        };
                        out.insert(m.ty.name.clone(), v);
                    }
                    Some(Value::Object(out))
                }
            }
        }
        (Meaning::Date(_), DataType::Date32) => Some(scalar(col.as_ref(), row)),
        _ => None,
    }
}
