//! Resolve enums and sets: their encoding type, valid values and choices.

use std::collections::HashSet;

use super::types::parse_value;
use super::Resolver;
use crate::ir::*;
use crate::parse::Element;

impl Resolver<'_> {
    /// The primitive (and type, if named) of an enum or set `encodingType`.
    fn encoding_type(&mut self, e: &Element) -> Option<(Primitive, Option<Encoded>)> {
        let Some(enc) = e.attr("encodingType") else {
            self.error(&e.pos, format!("<{}> has no encodingType", e.name));
            return None;
        };
        if let Some(p) = Primitive::from_name(enc) {
            return Some((p, None));
        }
        if !self.named.contains_key(enc) {
            self.error(&e.pos, format!("encodingType \"{enc}\" is not defined"));
            return None;
        }
        let ty = self.named_type(enc, &e.pos)?;
        match ty.kind {
            TypeKind::Encoded(t) if t.length == 1 => Some((t.primitive, Some(t))),
            _ => {
                self.error(
                    &e.pos,
                    format!("encodingType \"{enc}\" must be a single primitive <type>"),
                );
                None
            }
        }
    }

    pub(super) fn enum_type(&mut self, e: &Element) -> Option<EnumType> {
        let (encoding, enc_type) = self.encoding_type(e)?;
        if encoding.is_float() {
            self.error(
                &e.pos,
                format!(
                    "enum encodingType {} must be char or an integer type",
                    encoding.name()
                ),
            );
            return None;
        }
        let range = EnumRange::new(encoding, enc_type.as_ref());
        let mut values: Vec<ValidValue> = Vec::new();
        let mut seen = SeenValues::default();
        for v in e.children_named("validValue") {
            if let Some(value) = self.valid_value(v, &range, &mut seen) {
                values.push(value);
            }
        }
        Some(EnumType {
            encoding,
            // The enum's own presence; its encoding type's does not carry over
            // (the reference reports such an enum as required).
            presence: self.presence(e),
            null_value: range.null_value,
            values,
        })
    }

    /// One `<validValue>`, checked against the enum's range and the values
    /// before it; `None` when it has no name or no value of the encoding.
    fn valid_value(
        &mut self,
        v: &Element,
        range: &EnumRange,
        seen: &mut SeenValues,
    ) -> Option<ValidValue> {
        let name = self.name(v)?;
        let value = match parse_value(range.encoding, &v.text) {
            Ok(Scalar::Int(x)) => x,
            Ok(Scalar::Float(_)) => return None,
            Err(msg) => {
                self.error(&v.pos, format!("validValue {name}: {msg}"));
                return None;
            }
        };
        if range.excludes(value) {
            let show = |s: Option<Scalar>| match s {
                Some(Scalar::Int(b)) => b.to_string(),
                _ => "-".into(),
            };
            self.error(
                &v.pos,
                format!(
                    "validValue {name} outside of range {} - {}: {value}",
                    show(range.min),
                    show(range.max)
                ),
            );
        }
        if value == range.null_value {
            // The reference rejects this; real schemas (MEMX) ship it.
            self.warning(
                &v.pos,
                format!("validValue {name} is the enum's null value {value}"),
            );
        }
        if !seen.names.insert(name.clone()) {
            self.error(&v.pos, format!("duplicate validValue name \"{name}\""));
        }
        if !seen.values.insert(value) {
            self.error(
                &v.pos,
                format!("duplicate validValue value {value} (\"{name}\")"),
            );
        }
        Some(ValidValue {
            since_version: self.since_version(v),
            deprecated: self.deprecated(v),
            description: v.attr("description").map(str::to_string),
            name,
            value,
        })
    }

    pub(super) fn set_type(&mut self, e: &Element) -> Option<SetType> {
        let (encoding, _) = self.encoding_type(e)?;
        if encoding.is_signed() || encoding.is_float() || encoding == Primitive::Char {
            self.error(
                &e.pos,
                format!(
                    "set encodingType must be an unsigned integer type, not {}",
                    encoding.name()
                ),
            );
            return None;
        }
        let bits = encoding.size() * 8;
        let mut choices: Vec<Choice> = Vec::new();
        let (mut names, mut used_bits) = (HashSet::new(), HashSet::new());
        for c in e.children_named("choice") {
            let Some(name) = self.name(c) else { continue };
            let bit = match c.text.trim().parse::<u32>() {
                Ok(b) if b < bits => b,
                _ => {
                    self.error(
                        &c.pos,
                        format!(
                            "choice {name}: bit \"{}\" is not within 0..{bits}",
                            c.text.trim()
                        ),
                    );
                    continue;
                }
            };
            let new_name = names.insert(name.clone());
            if !used_bits.insert(bit) || !new_name {
                self.error(
                    &c.pos,
                    format!("duplicate choice name or bit: {name} = {bit}"),
                );
            }
            choices.push(Choice {
                since_version: self.since_version(c),
                deprecated: self.deprecated(c),
                description: c.attr("description").map(str::to_string),
                name,
                bit,
            });
        }
        Some(SetType { encoding, choices })
    }
}

/// What an enum's valid values are checked against: the encoding they are
/// written in, the bounds of its encoding type and the null value.
struct EnumRange {
    encoding: Primitive,
    min: Option<Scalar>,
    max: Option<Scalar>,
    /// The encoding type's `nullValue`, or the primitive's default null.
    null_value: i128,
}

impl EnumRange {
    fn new(encoding: Primitive, enc_type: Option<&Encoded>) -> Self {
        let null_value = match enc_type.and_then(|t| t.null_value) {
            Some(Scalar::Int(v)) => v,
            _ => match encoding.default_null() {
                Scalar::Int(v) => v,
                Scalar::Float(_) => 0,
            },
        };
        let (min, max) = match enc_type {
            Some(t) => (t.min_value, t.max_value),
            None => (None, None),
        };
        EnumRange {
            encoding,
            min,
            max,
            null_value,
        }
    }

    /// Whether `value` is below the minimum or above the maximum.
    fn excludes(&self, value: i128) -> bool {
        let out_of = |bound: Option<Scalar>, below: bool| match bound {
            Some(Scalar::Int(b)) => (below && value < b) || (!below && value > b),
            _ => false,
        };
        out_of(self.min, true) || out_of(self.max, false)
    }
}

/// The valid value names and values one enum has so far, for duplicates.
#[derive(Default)]
struct SeenValues {
    names: HashSet<String>,
    values: HashSet<i128>,
}
