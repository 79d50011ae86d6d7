//! Classify what values mean ([`Meaning`]): the one place that reads
//! `semanticType` strings and the spec's member names (`mantissa`,
//! `exponent`, `time`, `unit`, `year`, ...) for what they say.
//!
//! A composite's shape decides its meaning, under its own `semanticType`:
//! - a time composite (`time` + `unit`) is a timestamp when its
//!   `semanticType` names a time (`UTCTimestamp`, `TZTimestamp`,
//!   `UTCTimeOnly`, `TZTimeOnly`) or is missing; one that names anything
//!   else (B3's `DeltaInMillis` is `Int`, an interval, not an instant) is
//!   plain, whatever its members are called;
//! - a decimal (`mantissa` + `exponent`) and a MonthYear are read by their
//!   shape alone: a `semanticType` of `Price`, `Qty` or `MonthYear` says
//!   nothing their members do not.

use crate::ir::*;
use sbe_rt::TimeUnit;

/// What a `semanticType` says about an integer's or a composite's values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Semantic {
    Instant {
        zoned: bool,
    },
    TimeOfDay {
        zoned: bool,
    },
    Date,
    /// A `semanticType` that names something else (`Int`, `Qty`, ...).
    Other,
    /// No `semanticType`: the shape alone decides.
    Unstated,
}

fn semantic(name: Option<&str>) -> Semantic {
    match name {
        Some("UTCTimestamp") => Semantic::Instant { zoned: false },
        Some("TZTimestamp") => Semantic::Instant { zoned: true },
        Some("UTCTimeOnly") => Semantic::TimeOfDay { zoned: false },
        Some("TZTimeOnly") => Semantic::TimeOfDay { zoned: true },
        Some("LocalMktDate" | "UTCDateOnly") => Semantic::Date,
        Some(_) => Semantic::Other,
        None => Semantic::Unstated,
    }
}

/// The meaning of a type's values, from its shape and its own
/// `semanticType`.
pub(super) fn of_type(semantic_type: Option<&str>, kind: &TypeKind) -> Meaning {
    match kind {
        TypeKind::Encoded(e) => of_encoded(semantic(semantic_type), e),
        TypeKind::Composite(c) => of_composite(semantic(semantic_type), c),
        TypeKind::Enum(_) | TypeKind::Set(_) => Meaning::Plain,
    }
}

/// A field's meaning: its type's, under the field's `semanticType` (else
/// the type's), with a `timeUnit` attribute giving an unstated unit and an
/// optional field making a scalar optional.
pub(super) fn of_field(
    semantic_type: Option<&str>,
    time_unit: Option<TimeUnit>,
    presence: Presence,
    ty: &Type,
) -> Meaning {
    let mut meaning = of_type(semantic_type.or(ty.semantic_type.as_deref()), &ty.kind);
    let scalar = matches!(ty.kind, TypeKind::Encoded(_));
    match &mut meaning {
        Meaning::Timestamp(t) => {
            if let (TimeUnitSource::Unstated, Some(code)) = (t.unit, time_unit) {
                t.unit = TimeUnitSource::Constant(code);
            }
            t.optional |= scalar && presence == Presence::Optional;
        }
        Meaning::Date(d) => d.optional |= presence == Presence::Optional,
        _ => {}
    }
    meaning
}

/// A field decimal ([`Exponent::Field`]): the field's type an integer
/// scalar, or a 16-byte array (Binance's `mantissa128`, a little-endian
/// `i128`); `None` for any other type.
pub(super) fn field_decimal(ty: &Type, presence: Presence, exponent: FieldRef) -> Option<Meaning> {
    let TypeKind::Encoded(e) = &ty.kind else {
        return None;
    };
    let mantissa128 = if is_integer_scalar(e) {
        false
    } else if e.length == 16
        && !e.var_len
        && matches!(e.primitive, Primitive::Uint8 | Primitive::Int8)
    {
        true
    } else {
        return None;
    };
    if e.presence == Presence::Constant || presence == Presence::Constant {
        return None;
    }
    Some(Meaning::Decimal(DecimalParts {
        mantissa: 0,
        exponent: Exponent::Field(exponent),
        optional: presence == Presence::Optional || may_be_null(e),
        mantissa128,
    }))
}

/// A declared meaning ([`DeclaredMeanings`]) as a type of `kind` takes it:
/// an integer scalar the schema leaves plain, optional where it may be
/// null; `Err` says why not.
pub(super) fn declared(
    declared: &Meaning,
    schema: &Meaning,
    kind: &TypeKind,
) -> Result<Meaning, String> {
    if *schema != Meaning::Plain {
        return Err(format!("the schema makes it a {}", schema.kind()));
    }
    let TypeKind::Encoded(e) = kind else {
        return Err("it is not an integer".into());
    };
    if !is_integer_scalar(e) || e.presence == Presence::Constant {
        return Err("it is not an integer on the wire".into());
    }
    let mut m = declared.clone();
    match &mut m {
        Meaning::Timestamp(t) if t.time.is_none() && t.zone.is_none() => {
            t.optional = may_be_null(e);
        }
        Meaning::Date(d) => d.optional = may_be_null(e),
        _ => return Err(format!("a {} cannot be declared", declared.kind())),
    }
    Ok(m)
}

/// A scalar's meaning for a field of presence `presence`: optional where
/// the field is.
pub(super) fn with_presence(mut meaning: Meaning, presence: Presence, ty: &Type) -> Meaning {
    let scalar = matches!(ty.kind, TypeKind::Encoded(_));
    match &mut meaning {
        Meaning::Timestamp(t) => t.optional |= scalar && presence == Presence::Optional,
        Meaning::Date(d) => d.optional |= presence == Presence::Optional,
        _ => {}
    }
    meaning
}

/// Var data is text when its `varData` has a character encoding.
pub(super) fn of_data(character_encoding: Option<&str>) -> Meaning {
    match character_encoding {
        Some(_) => Meaning::Text,
        None => Meaning::Plain,
    }
}

/// The unit a `timeUnit` attribute names.
pub(super) fn time_unit_named(name: &str) -> Option<TimeUnit> {
    match name {
        "second" => Some(TimeUnit::Seconds),
        "millisecond" => Some(TimeUnit::Millis),
        "microsecond" => Some(TimeUnit::Micros),
        "nanosecond" => Some(TimeUnit::Nanos),
        _ => None,
    }
}

fn of_encoded(semantic: Semantic, e: &Encoded) -> Meaning {
    if e.primitive == Primitive::Char {
        return Meaning::Text;
    }
    if !is_integer_scalar(e) {
        return Meaning::Plain;
    }
    let optional = may_be_null(e);
    match semantic {
        Semantic::Instant { .. } | Semantic::TimeOfDay { .. } => Meaning::Timestamp(TimeParts {
            time: None,
            unit: TimeUnitSource::Unstated,
            of_day: matches!(semantic, Semantic::TimeOfDay { .. }),
            zone: None,
            optional,
        }),
        Semantic::Date => Meaning::Date(DateParts { optional }),
        Semantic::Other | Semantic::Unstated => Meaning::Plain,
    }
}

fn is_integer_scalar(e: &Encoded) -> bool {
    e.length == 1 && !e.var_len && !e.primitive.is_float() && e.primitive != Primitive::Char
}

/// An optional value may be null. A required one with a `nullValue`
/// attribute is not: the reference, the generated accessors and `sbe
/// decode` all read it as a value.
fn may_be_null(e: &Encoded) -> bool {
    e.presence == Presence::Optional
}

/// A composite's members by the spec's names, each an integer scalar
/// (or, for a time unit, an enum); `None` where a name is missing.
struct Parts<'a> {
    members: &'a [Member],
}

impl<'a> Parts<'a> {
    fn index(&self, name: &str) -> Option<usize> {
        self.members.iter().position(|m| m.ty.name == name)
    }

    /// The member `name` when it is a non-constant integer scalar.
    fn wire_integer(&self, name: &str) -> Option<(usize, &'a Encoded)> {
        let i = self.index(name)?;
        match &self.members.get(i)?.ty.kind {
            TypeKind::Encoded(e) if is_integer_scalar(e) && e.presence != Presence::Constant => {
                Some((i, e))
            }
            _ => None,
        }
    }

    /// A constant integer member's value (a number or an enum value).
    fn constant(&self, name: &str) -> Option<i128> {
        let member = self.members.get(self.index(name)?)?;
        match &member.ty.kind {
            TypeKind::Encoded(Encoded {
                presence: Presence::Constant,
                const_value: Some(ConstValue::Number(Scalar::Int(v))),
                ..
            })
            | TypeKind::Encoded(Encoded {
                presence: Presence::Constant,
                const_value: Some(ConstValue::EnumValue { value: v, .. }),
                ..
            }) => Some(*v),
            _ => None,
        }
    }

    /// Every member on the wire is one of `names`: the value loses nothing
    /// when read as its meaning.
    fn only(&self, names: &[&str]) -> bool {
        self.members
            .iter()
            .all(|m| is_constant(&m.ty) || names.contains(&m.ty.name.as_str()))
    }
}

fn is_constant(ty: &Type) -> bool {
    match &ty.kind {
        TypeKind::Encoded(e) => e.presence == Presence::Constant,
        TypeKind::Enum(e) => e.presence == Presence::Constant,
        _ => false,
    }
}

fn of_composite(semantic: Semantic, c: &Composite) -> Meaning {
    let parts = Parts {
        members: &c.members,
    };
    decimal(&parts)
        .or_else(|| time(semantic, &parts))
        .or_else(|| month_year(&parts))
        .unwrap_or(Meaning::Plain)
}

fn decimal(parts: &Parts) -> Option<Meaning> {
    let (mantissa, m) = parts.wire_integer("mantissa")?;
    // The exponent is an int8 (as in the spec's decimal composites) or a
    // constant that fits one.
    let exponent = match parts.constant("exponent") {
        Some(v) => Exponent::Constant(i8::try_from(v).ok()?),
        None => match parts.wire_integer("exponent")? {
            (i, e) if e.primitive == Primitive::Int8 => Exponent::Member(i),
            _ => return None,
        },
    };
    parts.only(&["mantissa", "exponent"]).then(|| {
        Meaning::Decimal(DecimalParts {
            mantissa,
            exponent,
            optional: may_be_null(m),
            mantissa128: false,
        })
    })
}

fn time(semantic: Semantic, parts: &Parts) -> Option<Meaning> {
    // The schema's own word wins over the member names: only a time, or
    // no word at all, makes a time composite a timestamp.
    if matches!(semantic, Semantic::Other | Semantic::Date) {
        return None;
    }
    let (time, t) = parts.wire_integer("time")?;
    let unit = match parts.constant("unit") {
        Some(code) => TimeUnitSource::Constant(TimeUnit::from_code(u8::try_from(code).ok()?)?),
        None => TimeUnitSource::Member(unit_member(parts)?),
    };
    let zone = parts
        .wire_integer("timezoneHour")
        .zip(parts.wire_integer("timezoneMinute"))
        .map(|((h, _), (m, _))| (h, m));
    let zoned = ["time", "unit", "timezoneHour", "timezoneMinute"];
    let plain = ["time", "unit"];
    parts
        .only(if zone.is_some() { &zoned } else { &plain })
        .then(|| {
            Meaning::Timestamp(TimeParts {
                time: Some(time),
                unit,
                of_day: matches!(semantic, Semantic::TimeOfDay { .. }),
                zone,
                optional: may_be_null(t),
            })
        })
}

/// The `unit` member on the wire: an integer or an enum (`TimeUnit`).
fn unit_member(parts: &Parts) -> Option<usize> {
    let i = parts.index("unit")?;
    match &parts.members.get(i)?.ty.kind {
        TypeKind::Enum(e) if e.presence != Presence::Constant => Some(i),
        _ => parts.wire_integer("unit").map(|(i, _)| i),
    }
}

fn month_year(parts: &Parts) -> Option<Meaning> {
    let (year, _) = parts.wire_integer("year")?;
    let (month, _) = parts.wire_integer("month")?;
    let day = parts.wire_integer("day").map(|(i, _)| i);
    let week = parts.wire_integer("week").map(|(i, _)| i);
    parts
        .only(&["year", "month", "day", "week"])
        .then_some(Meaning::MonthYear(MonthYearParts {
            year,
            month,
            day,
            week,
        }))
}
