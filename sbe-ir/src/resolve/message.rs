//! Resolve messages: fields, groups and var data, laid out by
//! [`super::layout`], checked for order, names, ids and versions.

use std::collections::HashSet;

use super::meaning;
use super::place::{self, Slot};
use super::types::char_text;
use super::Resolver;
use crate::ir::*;
use crate::parse::{Element, Pos};

impl Resolver<'_> {
    pub(super) fn message(&mut self, e: &Element) -> Option<Message> {
        let name = self.name(e)?;
        let Some(id) = self.uint_attr(e, "id") else {
            self.error(&e.pos, format!("message \"{name}\" has no id"));
            return None;
        };
        let since_version = self.since_version(e);
        let block = self.block(e, &name, since_version)?;
        Some(Message {
            id,
            description: e.attr("description").map(str::to_string),
            deprecated: self.deprecated(e),
            semantic_type: e.attr("semanticType").map(str::to_string),
            block,
            pos: e.pos.clone(),
            element: 0,
            name,
        })
    }

    fn block(&mut self, e: &Element, owner: &str, since_version: u32) -> Option<Block> {
        self.exponent_scopes.push(Vec::new());
        let block = self.block_inner(e, owner, since_version);
        self.exponent_scopes.pop();
        block
    }

    fn block_inner(&mut self, e: &Element, owner: &str, since_version: u32) -> Option<Block> {
        let mut fields: Vec<Field> = Vec::new();
        let mut field_elems = Vec::new();
        let mut groups = Vec::new();
        let mut data = Vec::new();
        let mut names = HashSet::new();
        let mut ids = HashSet::new();
        for c in &e.children {
            match c.name.as_str() {
                "field" => {
                    if !groups.is_empty() || !data.is_empty() {
                        self.error(
                            &c.pos,
                            format!(
                                "field \"{}\" declared after a group or var data in \"{owner}\"",
                                c.attr("name").unwrap_or("")
                            ),
                        );
                    }
                    if let Some(mut f) = self.field(c) {
                        self.check_unique(&mut names, &mut ids, &f.name, f.id, &c.pos, owner);
                        if let Some(exponent) = c.foreign_attr("exponent") {
                            self.field_decimal(&mut f, exponent, &c.pos);
                        }
                        let candidate = ExponentCandidate {
                            name: f.name.clone(),
                            index: fields.len(),
                            on_wire_int8: is_wire_int8(&f),
                        };
                        if let Some(scope) = self.exponent_scopes.last_mut() {
                            scope.push(candidate);
                        }
                        fields.push(f);
                        field_elems.push(c);
                    }
                }
                "group" => {
                    if !data.is_empty() {
                        self.error(
                            &c.pos,
                            format!(
                                "group \"{}\" declared after var data in \"{owner}\"",
                                c.attr("name").unwrap_or("")
                            ),
                        );
                    }
                    if let Some(g) = self.group(c) {
                        self.check_unique(&mut names, &mut ids, &g.name, g.id, &c.pos, owner);
                        groups.push(g);
                    }
                }
                "data" => {
                    if let Some(d) = self.data(c) {
                        self.check_unique(&mut names, &mut ids, &d.name, d.id, &c.pos, owner);
                        data.push(d);
                    }
                }
                _ => {}
            }
        }
        let end = self.place_fields(&mut fields, &field_elems);
        let block_length = self.block_length(e, owner, end);
        Some(Block {
            fields,
            groups,
            data,
            block_length,
            since_version,
        })
    }

    /// A field whose `exponent` attribute (in any namespace: Binance's
    /// `mbx:exponent`) names the `int8` field holding its exponent: a
    /// decimal, where the field is an integer or a 16-byte `mantissa128`
    /// and the named field comes before it in its block or an enclosing
    /// one; else a warning, and the field keeps its meaning.
    fn field_decimal(&mut self, f: &mut Field, exponent: &str, pos: &Pos) {
        let up_to = |scopes: &[Vec<ExponentCandidate>]| {
            scopes.iter().rev().enumerate().find_map(|(up, scope)| {
                let c = scope.iter().find(|c| c.name == exponent)?;
                Some((up, c.index, c.on_wire_int8))
            })
        };
        let why = match (up_to(&self.exponent_scopes), &f.meaning) {
            (_, m) if *m != Meaning::Plain => format!("it already means a {}", m.kind()),
            (None, _) => {
                format!("no earlier field \"{exponent}\" in its block or an enclosing one")
            }
            (Some((_, _, false)), _) => {
                format!("field \"{exponent}\" is not an int8 on the wire")
            }
            (Some((up, field, true)), _) => {
                match meaning::field_decimal(&f.ty, f.presence, FieldRef { up, field }) {
                    Some(m) => {
                        f.meaning = m;
                        return;
                    }
                    None => "it is neither an integer nor a 16-byte mantissa128".to_string(),
                }
            }
        };
        self.warning(
            pos,
            format!(
                "field \"{}\" names exponent \"{exponent}\" but is not read as a decimal: {why}",
                f.name
            ),
        );
    }

    /// Set the offsets of a block's `fields` (read from `field_elems`, one
    /// for each), reporting overlaps; the end of the last one.
    fn place_fields(&mut self, fields: &mut [Field], field_elems: &[&Element]) -> u32 {
        let slots: Vec<Slot> = fields
            .iter()
            .zip(field_elems)
            .map(|(f, c)| Slot {
                explicit_offset: self.uint_attr(c, "offset"),
                length: f.encoded_length,
            })
            .collect();
        let placed = place::place(&slots);
        for (i, min) in &placed.overlaps {
            if let (Some(f), Some(c)) = (fields.get(*i), field_elems.get(*i)) {
                let msg = format!(
                    "field \"{}\" offset overlaps the previous field (earliest offset {min})",
                    f.name
                );
                self.error(&c.pos, msg);
            }
        }
        for (f, off) in fields.iter_mut().zip(&placed.offsets) {
            f.offset = *off;
        }
        placed.end
    }

    /// The block's `blockLength`: as declared, unless it is less than
    /// `end`, the end of its fields (an error), or `end` if not declared.
    fn block_length(&mut self, e: &Element, owner: &str, end: u32) -> u32 {
        match self.uint_attr(e, "blockLength") {
            Some(b) if b < end => {
                self.error(
                    &e.pos,
                    format!(
                        "blockLength {b} of \"{owner}\" is smaller than its fields ({end} bytes)"
                    ),
                );
                end
            }
            Some(b) => b,
            None => end,
        }
    }

    fn check_unique(
        &mut self,
        names: &mut HashSet<String>,
        ids: &mut HashSet<u32>,
        name: &str,
        id: u32,
        pos: &Pos,
        owner: &str,
    ) {
        if !names.insert(name.to_string()) {
            self.error(pos, format!("duplicate name \"{name}\" in \"{owner}\""));
        }
        if !ids.insert(id) {
            self.error(
                pos,
                format!("duplicate id {id} (\"{name}\") in \"{owner}\""),
            );
        }
    }

    fn member_id(&mut self, e: &Element, name: &str) -> u32 {
        match self.uint_attr(e, "id") {
            Some(id) => id,
            None => {
                if e.attr("id").is_none() {
                    self.error(&e.pos, format!("\"{name}\" has no id"));
                }
                0
            }
        }
    }

    fn field(&mut self, e: &Element) -> Option<Field> {
        let name = self.name(e)?;
        let id = self.member_id(e, &name);
        let Some(type_name) = e.attr("type") else {
            self.error(&e.pos, format!("field \"{name}\" has no type"));
            return None;
        };
        let ty = self.field_type(type_name, &e.pos)?;
        let declared = e.attr("presence");
        let presence = match declared {
            Some("constant") => Presence::Constant,
            Some("optional") => Presence::Optional,
            Some("required") => Presence::Required,
            Some(other) => {
                self.error(&e.pos, format!("unknown presence \"{other}\""));
                Presence::Required
            }
            None => type_presence(&ty),
        };
        if let (Some(fs), Some(ts)) = (e.attr("semanticType"), &ty.semantic_type) {
            if fs != ts {
                self.error(
                    &e.pos,
                    format!("Mismatched semanticType on type and field: {name}"),
                );
            }
        }
        let value_ref = e.attr("valueRef").map(str::to_string);
        let const_value = if presence == Presence::Constant {
            self.field_constant(e, &name, &ty, value_ref.as_deref())
        } else {
            if value_ref.is_some() {
                self.error(
                    &e.pos,
                    format!("field \"{name}\" has a valueRef but is not constant"),
                );
            }
            None
        };
        let own_since = self.since_version(e);
        let semantic_type = e.attr("semanticType");
        let time_unit = self.time_unit(e);
        let mut meaning = meaning::of_field(semantic_type, time_unit, presence, &ty);
        // A declared meaning on the field's type (`DeclaredMeanings`),
        // where the field says nothing else.
        if meaning == Meaning::Plain
            && semantic_type.is_none()
            && self.declared.get(&ty.name).is_some()
        {
            meaning = meaning::with_presence(ty.meaning.clone(), presence, &ty);
        }
        Some(Field {
            id,
            description: e.attr("description").map(str::to_string),
            offset: 0,
            encoded_length: field_length(&ty, presence),
            type_name: type_name.to_string(),
            presence,
            value_ref,
            const_value,
            since_version: own_since.max(ty.since_version),
            deprecated: self.deprecated(e),
            semantic_type: semantic_type.map(str::to_string),
            meaning,
            pos: e.pos.clone(),
            element: 0,
            ty,
            name,
        })
    }

    /// The unit a field's `timeUnit` attribute names (an early SBE
    /// draft's, still in the reference's FIX samples), if it has one.
    fn time_unit(&mut self, e: &Element) -> Option<sbe_rt::TimeUnit> {
        let name = e.attr("timeUnit")?;
        let code = meaning::time_unit_named(name);
        if code.is_none() {
            self.warning(&e.pos, format!("unknown timeUnit \"{name}\" (second, millisecond, microsecond or nanosecond): the unit is left unstated"));
        }
        code
    }

    fn field_constant(
        &mut self,
        e: &Element,
        name: &str,
        ty: &Type,
        value_ref: Option<&str>,
    ) -> Option<ConstValue> {
        if let Some(vr) = value_ref {
            let cv = self.value_ref(vr, &e.pos)?;
            if let (ConstValue::EnumValue { enum_name, .. }, TypeKind::Enum(_)) = (&cv, &ty.kind) {
                if *enum_name != ty.name {
                    self.error(
                        &e.pos,
                        format!(
                            "valueRef \"{vr}\" is not a value of the field's enum \"{}\"",
                            ty.name
                        ),
                    );
                }
            }
            return Some(cv);
        }
        match &ty.kind {
            TypeKind::Encoded(enc) if enc.const_value.is_some() => enc.const_value.clone(),
            // As for a constant type: char text is trimmed unless it is
            // nothing but whitespace (a single space is 0x20).
            TypeKind::Encoded(enc) if enc.primitive == Primitive::Char && !e.text.is_empty() => {
                Some(ConstValue::Text(char_text(&e.text).to_string()))
            }
            TypeKind::Encoded(enc) if !e.text.trim().is_empty() => {
                match enc.primitive.parse_scalar(e.text.trim()) {
                    Ok(v) => Some(ConstValue::Number(v)),
                    Err(msg) => {
                        self.error(&e.pos, format!("constant field \"{name}\": {msg}"));
                        None
                    }
                }
            }
            _ => {
                self.error(&e.pos, format!("constant field \"{name}\" has no value (no valueRef and its type is not constant)"));
                None
            }
        }
    }

    /// A field's type: a primitive by name, or a named type.
    fn field_type(&mut self, type_name: &str, pos: &Pos) -> Option<Type> {
        if let Some(p) = Primitive::from_name(type_name) {
            let kind = TypeKind::Encoded(Encoded {
                primitive: p,
                length: 1,
                presence: Presence::Required,
                null_value: None,
                min_value: None,
                max_value: None,
                character_encoding: (p == Primitive::Char).then(|| "US-ASCII".to_string()),
                const_value: None,
                value_ref: None,
                var_len: false,
            });
            return Some(Type {
                name: type_name.to_string(),
                description: None,
                since_version: 0,
                deprecated: None,
                semantic_type: None,
                meaning: meaning::of_type(None, &kind),
                kind,
                pos: pos.clone(),
            });
        }
        self.named_type(type_name, pos)
    }

    fn group(&mut self, e: &Element) -> Option<Group> {
        let name = self.name(e)?;
        let id = self.member_id(e, &name);
        let dim_name = e.attr("dimensionType").unwrap_or("groupSizeEncoding");
        let dimension = self.named_type(dim_name, &e.pos);
        if let Some(dim) = &dimension {
            self.check_dimension(dim, dim_name, &name, &e.pos);
        }
        let since_version = self.since_version(e);
        let block = self.block(e, &name, since_version)?;
        Some(Group {
            id,
            description: e.attr("description").map(str::to_string),
            deprecated: self.deprecated(e),
            dimension_type: dimension?,
            block,
            pos: e.pos.clone(),
            element: 0,
            name,
        })
    }

    fn check_dimension(&mut self, dim: &Type, dim_name: &str, group: &str, pos: &Pos) {
        let TypeKind::Composite(c) = &dim.kind else {
            self.error(
                pos,
                format!("group \"{group}\": dimensionType should be a composite type: {dim_name}"),
            );
            return;
        };
        for member in ["blockLength", "numInGroup"] {
            match c.members.iter().find(|m| m.ty.name == member) {
                Some(m) if member_primitive(&m.ty).is_some_and(|p| !p.is_signed() && !p.is_float() && p != Primitive::Char) => {
                    self.check_java_int_max(&m.ty, &format!("group \"{group}\": {dim_name}.{member}"), pos);
                }
                Some(_) => self.error(pos, format!("group \"{group}\": \"{dim_name}.{member}\" must be an unsigned integer type")),
                None => self.error(pos, format!("group \"{group}\": dimensionType \"{dim_name}\" has no \"{member}\"")),
            }
        }
    }

    /// The reference holds counts and lengths in a Java int: a uint32 or
    /// uint64 one must cap itself with a maxValue that fits.
    fn check_java_int_max(&mut self, ty: &Type, what: &str, pos: &Pos) {
        const JAVA_INT_MAX: i128 = i32::MAX as i128;
        let TypeKind::Encoded(enc) = &ty.kind else {
            return;
        };
        if enc.primitive.size() < 4 {
            return;
        }
        let max = match enc.max_value {
            Some(Scalar::Int(m)) => m,
            _ => enc.primitive.int_range().1,
        };
        if max > JAVA_INT_MAX {
            self.error(
                pos,
                format!(
                    "{what}: maxValue must be set for {} type: max value allowed={JAVA_INT_MAX}",
                    enc.primitive.name()
                ),
            );
        }
    }

    fn data(&mut self, e: &Element) -> Option<Data> {
        let name = self.name(e)?;
        let id = self.member_id(e, &name);
        let Some(type_name) = e.attr("type") else {
            self.error(&e.pos, format!("data \"{name}\" has no type"));
            return None;
        };
        let ty = self.named_type(type_name, &e.pos)?;
        let TypeKind::Composite(c) = &ty.kind else {
            self.error(&e.pos, format!("data \"{name}\": type \"{type_name}\" should be a composite with length and varData"));
            return None;
        };
        let length = c.members.iter().find(|m| m.ty.name == "length");
        let var_data = c.members.iter().find(|m| m.ty.name == "varData");
        let (Some(length), Some(var_data)) = (length, var_data) else {
            self.error(&e.pos, format!("data \"{name}\": composite \"{type_name}\" needs \"length\" and \"varData\" members"));
            return None;
        };
        let length_primitive = match member_primitive(&length.ty) {
            Some(p) if !p.is_signed() && !p.is_float() && p != Primitive::Char => p,
            _ => {
                self.error(
                    &e.pos,
                    format!(
                        "data \"{name}\": \"{type_name}.length\" must be an unsigned integer type"
                    ),
                );
                return None;
            }
        };
        self.check_java_int_max(
            &length.ty,
            &format!("data \"{name}\": {type_name}.length"),
            &e.pos,
        );
        let max_length = match &length.ty.kind {
            TypeKind::Encoded(Encoded {
                max_value: Some(Scalar::Int(m)),
                ..
            }) => u64::try_from(*m).unwrap_or(0),
            _ => u64::try_from(length_primitive.int_range().1).unwrap_or(u64::MAX),
        };
        // The reference puts no rule on varData's primitive (int8 data
        // ships; the bytes are opaque, hex in JSON, unless it has a
        // characterEncoding), but takes it as a <type>: an enum, set or
        // composite there fails its cast.
        let character_encoding = match &var_data.ty.kind {
            TypeKind::Encoded(enc) => enc.character_encoding.clone(),
            _ => {
                self.error(
                    &e.pos,
                    format!("data \"{name}\": \"{type_name}.varData\" must be a <type>, not an enum, set or composite"),
                );
                return None;
            }
        };
        let since_version = self.since_version(e);
        Some(Data {
            id,
            description: e.attr("description").map(str::to_string),
            length_primitive,
            max_length,
            meaning: meaning::of_data(character_encoding.as_deref()),
            character_encoding,
            since_version: since_version.max(ty.since_version),
            deprecated: self.deprecated(e),
            pos: e.pos.clone(),
            element: 0,
            encoding_type: ty,
            name,
        })
    }
}

/// A type's presence when the field does not say.
fn type_presence(ty: &Type) -> Presence {
    match &ty.kind {
        TypeKind::Encoded(e) => e.presence,
        TypeKind::Enum(e) => e.presence,
        _ => Presence::Required,
    }
}

/// The primitive of a single-value `<type>`.
fn member_primitive(ty: &Type) -> Option<Primitive> {
    match &ty.kind {
        TypeKind::Encoded(e) if e.length == 1 => Some(e.primitive),
        _ => None,
    }
}

/// A field a later field's `exponent` attribute may name.
pub(super) struct ExponentCandidate {
    name: String,
    /// Its index in its block's fields.
    index: usize,
    /// It is an `int8` on the wire (not a constant).
    on_wire_int8: bool,
}

fn is_wire_int8(f: &Field) -> bool {
    f.presence != Presence::Constant
        && matches!(&f.ty.kind, TypeKind::Encoded(e)
            if e.primitive == Primitive::Int8 && e.length == 1 && !e.var_len && e.presence != Presence::Constant)
}
