//! Values as the schema means them (`sbe decode --values semantic`): a
//! decimal as its exact decimal string (`"123.45"`), a timestamp as RFC
//! 3339 UTC with nanoseconds, a date as `"YYYY-MM-DD"`, a MonthYear as
//! FIX's `"YYYYMM"`, `"YYYYMMDD"` or `"YYYYMMwN"`, a null as `null`. What
//! each value is comes from the IR's [`Meaning`]; the text is the
//! `Display` of sbe-rt's value types, the same as the generated typed
//! accessors give. `sbe encode` reads these strings back besides the
//! wire form.
//!
//! A time of day (`UTCTimeOnly`) and a zoned time (`TZTimestamp`) keep
//! their wire form: neither is an instant.
//!
//! A decimal whose mantissa is null is `null`, whatever its exponent holds
//! (written back with the exponent null, or 0 where it is required). A
//! decimal whose exponent is another field (Binance's `mbx:exponent`) is
//! read at the value that field holds in its block or an enclosing one,
//! and read back at it: text with more digits than it holds is refused.

use serde_json::{json, Value};

use sbe_ir::ir::{
    ByteOrder, DecimalParts, Encoded, Exponent, Meaning, Member, Presence, TimeUnitSource, Type,
    TypeKind,
};
use sbe_rt::{Date, Decimal, MonthYear, TimeUnit, Timestamp};

use crate::encode::EncodeErrorKind;
use crate::int_null;

/// How `sbe decode` writes values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Values {
    /// FORMAT.md's JSON: every value as the wire holds it (the default).
    #[default]
    Wire,
    /// Decimals, timestamps, dates and MonthYears as text (see the module
    /// docs); everything else as in wire mode.
    Semantic,
}

/// Whether `meaning` has a semantic text form.
fn is_typed(meaning: &Meaning) -> bool {
    match meaning {
        Meaning::Decimal(_) | Meaning::Date(_) | Meaning::MonthYear(_) => true,
        Meaning::Timestamp(t) => !t.of_day && t.zone.is_none(),
        _ => false,
    }
}

/// An integer held by `bytes` at `at` as type `e`; `None` where it is
/// null (`optional` values only) or the bytes are short.
fn int_at(e: &Encoded, order: ByteOrder, bytes: &[u8], at: usize, optional: bool) -> Option<i128> {
    let raw = e.primitive.get(order, bytes, at)?;
    let optional = optional || e.presence == Presence::Optional;
    (!(optional && int_null(e) == Some(raw))).then_some(raw)
}

/// A composite's integer member `i` (a constant member gives its value).
fn member_int(members: &[Member], i: usize, order: ByteOrder, bytes: &[u8]) -> Option<i128> {
    let m = members.get(i)?;
    match &m.ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => match e.const_value {
            Some(sbe_ir::ir::ConstValue::Number(sbe_ir::ir::Scalar::Int(v))) => Some(v),
            Some(sbe_ir::ir::ConstValue::EnumValue { value, .. }) => Some(value),
            _ => None,
        },
        TypeKind::Encoded(e) => int_at(e, order, bytes, m.offset as usize, false),
        TypeKind::Enum(en) => en.encoding.get(order, bytes, m.offset as usize),
        _ => None,
    }
}

fn members(ty: &Type) -> &[Member] {
    match &ty.kind {
        TypeKind::Composite(c) => &c.members,
        _ => &[],
    }
}

/// The semantic text of a value of type `ty` meaning `meaning` held in
/// `bytes`: `None` where the meaning has no text form (write the wire
/// form), `Some(None)` for a null.
pub(crate) fn render(
    meaning: &Meaning,
    ty: &Type,
    bytes: &[u8],
    order: ByteOrder,
    optional: bool,
    unstated: TimeUnit,
) -> Option<Option<String>> {
    if !is_typed(meaning) {
        return None;
    }
    let parts = members(ty);
    let text = match meaning {
        Meaning::Decimal(d) => {
            let exponent = match d.exponent {
                Exponent::Constant(e) => Some(e),
                Exponent::Member(i) => {
                    member_int(parts, i, order, bytes).and_then(|e| i8::try_from(e).ok())
                }
                // Another field's: the walker reads it ([`field_decimal`]).
                Exponent::Field(_) => return None,
            };
            // A null mantissa is no value, whatever the exponent holds
            // (FIX's convention; CME's Decimal64NULL).
            let Some(mantissa) = member_int(parts, d.mantissa, order, bytes) else {
                return Some(None);
            };
            exponent.map(|e| Decimal::new(mantissa, e).to_string())
        }
        Meaning::Timestamp(t) => {
            let count = match (t.time, &ty.kind) {
                (Some(i), _) => member_int(parts, i, order, bytes),
                (None, TypeKind::Encoded(e)) => int_at(e, order, bytes, 0, optional),
                _ => None,
            };
            let unit = match t.unit {
                TimeUnitSource::Constant(u) => Some(u),
                TimeUnitSource::Unstated => Some(unstated),
                TimeUnitSource::Member(i) => member_int(parts, i, order, bytes)
                    .and_then(|c| u8::try_from(c).ok())
                    .and_then(TimeUnit::from_code),
            };
            count
                .zip(unit)
                .map(|(c, u)| Timestamp::from_count(c, u).to_string())
        }
        Meaning::Date(_) => match &ty.kind {
            TypeKind::Encoded(e) => int_at(e, order, bytes, 0, optional)
                .and_then(|d| i32::try_from(d).ok())
                .map(|d| Date::from_days(d).to_string()),
            _ => None,
        },
        Meaning::MonthYear(p) => {
            let part = |i: Option<usize>| i.and_then(|i| member_int(parts, i, order, bytes));
            let value = MonthYear {
                year: part(Some(p.year)).and_then(|v| u16::try_from(v).ok()),
                month: part(Some(p.month)).and_then(|v| u8::try_from(v).ok()),
                day: part(p.day).and_then(|v| u8::try_from(v).ok()),
                week: part(p.week).and_then(|v| u8::try_from(v).ok()),
            };
            // Members out of FIX's ranges (a month 21) print as text
            // that means another MonthYear or none: such a value keeps
            // its wire form, so that nothing is lost.
            let text = value.to_string();
            if !value.is_null() && text.parse() != Ok(value) {
                return None;
            }
            (!value.is_null()).then_some(text)
        }
        _ => None,
    };
    // A null typed value is the composite all null (a decimal's null
    // mantissa alone, above); one with only some other part null (a null
    // exponent beside a mantissa) keeps its wire form.
    if text.is_none() && !parts.is_empty() && !all_null(parts, order, bytes) {
        return None;
    }
    Some(text)
}

/// The text of a field decimal ([`Exponent::Field`], Binance's
/// `mbx:exponent`): its mantissa held in `bytes` (an integer of the field's
/// type, or a `mantissa128`: a little-endian `i128`), at `exponent`, the
/// value of the field it names, which the caller reads from its block or
/// an enclosing one. `None` is a null: a null mantissa, or an exponent
/// that is null or not there.
pub(crate) fn field_decimal(
    d: &DecimalParts,
    ty: &Type,
    bytes: &[u8],
    order: ByteOrder,
    exponent: Option<i8>,
) -> Option<String> {
    let TypeKind::Encoded(e) = &ty.kind else {
        return None;
    };
    let mantissa = if d.mantissa128 {
        let raw = Decimal::mantissa128(bytes.get(..16)?.try_into().ok()?);
        (!(d.optional && raw == Decimal::MANTISSA128_NULL)).then_some(raw)?
    } else {
        int_at(e, order, bytes, 0, d.optional)?
    };
    Some(Decimal::new(mantissa, exponent?).to_string())
}

/// The wire form (FORMAT.md's JSON) of the semantic text `text` of a field
/// decimal ([`Exponent::Field`]) whose exponent field holds `exponent`
/// (read by the caller from the object of its block or an enclosing one):
/// the mantissa at that exponent, exactly or an error; a `mantissa128` as
/// its 16 bytes.
pub(crate) fn field_decimal_wire(
    d: &DecimalParts,
    text: &str,
    exponent: Option<i8>,
) -> Result<Value, EncodeErrorKind> {
    let bad = |why: &str| EncodeErrorKind::OutOfRange {
        value: format!("{text:?}"),
        ty: format!("decimal at {why}"),
    };
    let v: Decimal = text.parse().map_err(|_| bad("any exponent"))?;
    let Some(e) = exponent else {
        return Err(bad("a null or missing exponent field"));
    };
    let mantissa = v
        .mantissa_at::<i128>(e)
        .map_err(|_| bad(&format!("exponent {e}")))?;
    Ok(if d.mantissa128 {
        let bytes = Decimal::mantissa128_bytes(mantissa);
        Value::Array(bytes.iter().map(|b| json!(b)).collect())
    } else {
        int_json(mantissa)
    })
}

/// Every member on the wire is optional and holds its null value.
fn all_null(parts: &[Member], order: ByteOrder, bytes: &[u8]) -> bool {
    parts.iter().all(|m| match &m.ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => true,
        TypeKind::Encoded(e) => {
            e.presence == Presence::Optional
                && int_at(e, order, bytes, m.offset as usize, true).is_none()
        }
        _ => false,
    })
}

/// The wire form of a null typed composite: every member on the wire
/// null (what [`render`] writes as `null`), but a decimal's required
/// exponent, which is 0.
pub(crate) fn null_wire(meaning: &Meaning, ty: &Type) -> Option<Value> {
    if !is_typed(meaning) || members(ty).is_empty() {
        return None;
    }
    let nulls = members(ty)
        .iter()
        .enumerate()
        .filter(|(_, m)| !matches!(&m.ty.kind, TypeKind::Encoded(e) if e.presence == Presence::Constant))
        .map(|(i, m)| {
            // A null decimal is its null mantissa; a required exponent
            // beside it holds 0, as no value needs one.
            let required = matches!(&m.ty.kind, TypeKind::Encoded(e) if e.presence == Presence::Required);
            let value = match meaning {
                Meaning::Decimal(d) if required && i != d.mantissa => json!(0),
                _ => Value::Null,
            };
            (m.ty.name.clone(), value)
        });
    Some(Value::Object(nulls.collect()))
}

/// The wire form (FORMAT.md's JSON) of the semantic text `text` of a value
/// of type `ty` meaning `meaning`: `None` where the meaning has no text
/// form, so that the text is taken as the wire form's own.
pub(crate) fn to_wire(
    meaning: &Meaning,
    ty: &Type,
    text: &str,
    unstated: TimeUnit,
) -> Option<Result<Value, EncodeErrorKind>> {
    if !is_typed(meaning) {
        return None;
    }
    let bad = || EncodeErrorKind::OutOfRange {
        value: format!("{text:?}"),
        ty: format!("{} {}", meaning.kind(), ty.name),
    };
    let parts = members(ty);
    let name = |i: usize| parts.get(i).map_or(String::new(), |m| m.ty.name.clone());
    Some(match meaning {
        Meaning::Decimal(d) => (|| {
            let v: Decimal = text.parse().map_err(|_| bad())?;
            let mut o = serde_json::Map::new();
            match d.exponent {
                // The exponent is another field's: the text is not read
                // back (the wire form, the mantissa's integer, is).
                Exponent::Field(_) => return Err(bad()),
                // A constant exponent is not on the wire: the mantissa
                // holds the value at it, exactly or not at all.
                Exponent::Constant(e) => {
                    let mantissa = v.mantissa_at::<i128>(e).map_err(|_| bad())?;
                    o.insert(name(d.mantissa), int_json(mantissa));
                }
                Exponent::Member(i) => {
                    o.insert(name(d.mantissa), int_json(v.mantissa()));
                    o.insert(name(i), json!(v.exponent()));
                }
            }
            Ok(Value::Object(o))
        })(),
        Meaning::Timestamp(t) => (|| {
            let v: Timestamp = text.parse().map_err(|_| bad())?;
            let unit = match t.unit {
                TimeUnitSource::Constant(u) => u,
                TimeUnitSource::Unstated => unstated,
                // The unit on the wire: write nanoseconds.
                TimeUnitSource::Member(_) => TimeUnit::Nanos,
            };
            let count: i128 = v.to_units(unit).map_err(|_| bad())?;
            let count = int_json(count);
            Ok(match t.time {
                None => count,
                Some(i) => {
                    let mut o = serde_json::Map::new();
                    o.insert(name(i), count);
                    if let TimeUnitSource::Member(u) = t.unit {
                        o.insert(name(u), json!(unit.code()));
                    }
                    Value::Object(o)
                }
            })
        })(),
        Meaning::Date(_) => text
            .parse::<Date>()
            .map(|d| json!(d.days()))
            .map_err(|_| bad()),
        Meaning::MonthYear(p) => (|| {
            let v: MonthYear = text.parse().map_err(|_| bad())?;
            let mut o = serde_json::Map::new();
            let pairs = [
                (Some(p.year), v.year.map(i128::from)),
                (Some(p.month), v.month.map(i128::from)),
                (p.day, v.day.map(i128::from)),
                (p.week, v.week.map(i128::from)),
            ];
            for (member, value) in pairs {
                if let Some(i) = member {
                    o.insert(name(i), value.map_or(Value::Null, int_json));
                }
            }
            Ok(Value::Object(o))
        })(),
        _ => return None,
    })
}

/// An integer as JSON: a number where one holds it, else its text (which
/// the encoder refuses as out of range for the field).
fn int_json(v: i128) -> Value {
    if let Ok(v) = i64::try_from(v) {
        json!(v)
    } else if let Ok(v) = u64::try_from(v) {
        json!(v)
    } else {
        Value::String(v.to_string())
    }
}
