//! Resolve named types, once each and cached, and the encoded `<type>`:
//! its primitive, presence, bounds, constant value and `valueRef`.

use super::limits::Size;
use super::meaning;
use super::Resolver;
use crate::ir::*;
use crate::parse::{Element, Pos};

/// The text of a char value (a char `validValue`, constant, `nullValue`,
/// `minValue` or `maxValue`): trimmed, unless it is nothing but
/// whitespace, which is taken as written. The reference never trims such
/// text (`<validValue name="NotApplicable"> </validValue>` is a space,
/// 0x20, there); trimming what has more than whitespace keeps accepting
/// pretty-printed values, as for numbers.
pub(super) fn char_text(raw: &str) -> &str {
    let t = raw.trim();
    if t.is_empty() {
        raw
    } else {
        t
    }
}

/// A single char value's byte (see [`char_text`]).
fn char_scalar(raw: &str) -> Result<i128, String> {
    let t = char_text(raw);
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if u32::from(c) < 256 => Ok(i128::from(u32::from(c))),
        _ => Err(format!("\"{}\" is not a single char", t.escape_debug())),
    }
}

/// A value as written for `primitive`, with [`char_text`]'s rule for char.
pub(super) fn parse_value(primitive: Primitive, raw: &str) -> Result<Scalar, String> {
    if primitive == Primitive::Char {
        char_scalar(raw).map(Scalar::Int)
    } else {
        primitive.parse_scalar(raw)
    }
}

impl Resolver<'_> {
    /// A named type, resolved once and cached; `None` if it is unknown or
    /// broken (already reported).
    pub(super) fn named_type(&mut self, name: &str, used_at: &Pos) -> Option<Type> {
        self.named_sized(name, used_at).map(|(ty, _)| ty)
    }

    /// A named type, resolved (and cached) but not copied.
    fn resolved(&mut self, name: &str, used_at: &Pos) -> Option<&Type> {
        if !self.cache.contains_key(name) {
            self.resolve_named(name, used_at);
        }
        self.cache
            .get(name)
            .and_then(|t| t.as_ref())
            .map(|(ty, _)| ty)
    }

    /// [`Self::named_type`] with the copy's size, charged to the budget.
    pub(super) fn named_sized(&mut self, name: &str, used_at: &Pos) -> Option<(Type, Size)> {
        if self.halted {
            return None;
        }
        if !self.cache.contains_key(name) {
            self.resolve_named(name, used_at);
        }
        let size = self.cache.get(name)?.as_ref()?.1;
        if !self.charge(size.nodes, used_at) {
            return None;
        }
        let (ty, _) = self.cache.get(name)?.as_ref()?;
        Some((ty.clone(), size))
    }

    /// Resolve the named type `name` into the cache (`None` there when it
    /// is broken), unless it is unknown or part of a cycle.
    fn resolve_named(&mut self, name: &str, used_at: &Pos) {
        let Some(&elem) = self.named.get(name) else {
            self.error(used_at, format!("type \"{name}\" is not defined"));
            return;
        };
        if self.resolving.iter().any(|n| n == name) {
            self.error(
                &elem.pos,
                format!("ref types cannot create circular dependencies: \"{name}\""),
            );
            return;
        }
        self.resolving.push(name.to_string());
        let ty = self.type_def(elem);
        self.resolving.pop();
        self.cache.insert(name.to_string(), ty);
    }

    /// Any type element: `<type>`, `<composite>`, `<enum>` or `<set>`.
    pub(super) fn type_def(&mut self, e: &Element) -> Option<(Type, Size)> {
        self.nested(&e.pos, |r| r.type_def_inner(e))
    }

    fn type_def_inner(&mut self, e: &Element) -> Option<(Type, Size)> {
        let name = self.name(e)?;
        let (kind, size) = match e.name.as_str() {
            "type" => (
                TypeKind::Encoded(self.encoded(e, &name)?),
                Size {
                    nodes: 1,
                    height: 1,
                },
            ),
            "composite" => {
                let (c, size) = self.composite(e, &name)?;
                if !self.within_height(&name, size, &e.pos) {
                    return None;
                }
                (TypeKind::Composite(c), size)
            }
            "enum" => {
                let en = self.enum_type(e)?;
                let nodes = 1 + en.values.len();
                (TypeKind::Enum(en), Size { nodes, height: 1 })
            }
            "set" => {
                let set = self.set_type(e)?;
                let nodes = 1 + set.choices.len();
                (TypeKind::Set(set), Size { nodes, height: 1 })
            }
            other => {
                self.error(&e.pos, format!("<{other}> is not a type"));
                return None;
            }
        };
        // The members of a composite were charged as they were made.
        let own = match kind {
            TypeKind::Composite(_) => 1,
            _ => size.nodes,
        };
        if !self.charge(own, &e.pos) {
            return None;
        }
        let semantic_type = e.attr("semanticType");
        let mut meaning = meaning::of_type(semantic_type, &kind);
        // A declaration names a type of the schema's <types>, not a
        // composite's member of the same name.
        let top_level = self
            .named
            .get(name.as_str())
            .is_some_and(|t| std::ptr::eq(*t, e));
        if let Some(declared) = self.declared.get(&name).filter(|_| top_level).cloned() {
            match meaning::declared(&declared, &meaning, &kind) {
                Ok(m) => meaning = m,
                Err(why) => self.warning(
                    &e.pos,
                    format!("the meaning declared for type \"{name}\" is not applied: {why}"),
                ),
            }
        }
        let ty = Type {
            name,
            description: e.attr("description").map(str::to_string),
            since_version: self.since_version(e),
            deprecated: self.deprecated(e),
            semantic_type: semantic_type.map(str::to_string),
            meaning,
            kind,
            pos: e.pos.clone(),
        };
        Some((ty, size))
    }

    pub(super) fn presence(&mut self, e: &Element) -> Presence {
        match e.attr("presence").unwrap_or("required") {
            "required" => Presence::Required,
            "optional" => Presence::Optional,
            "constant" => Presence::Constant,
            other => {
                self.error(&e.pos, format!("unknown presence \"{other}\""));
                Presence::Required
            }
        }
    }

    fn encoded(&mut self, e: &Element, name: &str) -> Option<Encoded> {
        let Some(prim_name) = e.attr("primitiveType") else {
            self.error(&e.pos, format!("type \"{name}\" has no primitiveType"));
            return None;
        };
        let Some(primitive) = Primitive::from_name(prim_name) else {
            self.error(&e.pos, format!("unknown primitiveType \"{prim_name}\""));
            return None;
        };
        let presence = self.presence(e);
        let length = self.uint_attr(e, "length").unwrap_or(1);
        let value = |attr: &str, r: &mut Self| -> Option<Scalar> {
            let text = e.attr(attr)?;
            match parse_value(primitive, text) {
                Ok(v) => Some(v),
                Err(msg) => {
                    r.error(&e.pos, format!("{attr} of \"{name}\": {msg}"));
                    None
                }
            }
        };
        let null_value = value("nullValue", self);
        let min_value = value("minValue", self);
        let max_value = value("maxValue", self);
        let value_ref = e.attr("valueRef").map(str::to_string);
        let const_value = if presence == Presence::Constant {
            self.const_value(e, name, primitive, value_ref.as_deref())
        } else {
            None
        };
        let character_encoding = e
            .attr("characterEncoding")
            .map(str::to_string)
            .or_else(|| (primitive == Primitive::Char).then(|| "US-ASCII".to_string()));
        Some(Encoded {
            primitive,
            length,
            presence,
            null_value,
            min_value,
            max_value,
            character_encoding,
            const_value,
            value_ref,
            var_len: false,
        })
    }

    fn const_value(
        &mut self,
        e: &Element,
        name: &str,
        primitive: Primitive,
        value_ref: Option<&str>,
    ) -> Option<ConstValue> {
        if let Some(vr) = value_ref {
            return self.value_ref(vr, &e.pos);
        }
        // The FIX 1.0 spec's own Examples.xml writes "-3    ": trim it (a
        // char's text is only trimmed when more than whitespace).
        let text = if primitive == Primitive::Char {
            char_text(&e.text)
        } else {
            e.text.trim()
        };
        if text.is_empty() {
            self.error(
                &e.pos,
                format!("type \"{name}\" has declared presence as \"constant\" but XML node has no data"),
            );
            return None;
        }
        if primitive == Primitive::Char {
            return Some(ConstValue::Text(text.to_string()));
        }
        match primitive.parse_scalar(text) {
            Ok(v) => Some(ConstValue::Number(v)),
            Err(msg) => {
                self.error(&e.pos, format!("constant \"{name}\": {msg}"));
                None
            }
        }
    }

    /// Resolve `Enum.Value` to the value's wire value.
    pub(super) fn value_ref(&mut self, value_ref: &str, pos: &Pos) -> Option<ConstValue> {
        let Some((enum_name, value_name)) = value_ref.split_once('.') else {
            self.error(
                pos,
                format!("valueRef \"{value_ref}\" is not of the form Enum.Value"),
            );
            return None;
        };
        if !self.named.contains_key(enum_name) {
            self.error(
                pos,
                format!("valueRef \"{value_ref}\": no enum \"{enum_name}\""),
            );
            return None;
        }
        // Looked at in the cache, not copied: only one value is needed.
        let found = match &self.resolved(enum_name, pos)?.kind {
            TypeKind::Enum(en) => Some(
                en.values
                    .iter()
                    .find(|v| v.name == value_name)
                    .map(|v| v.value),
            ),
            _ => None,
        };
        let Some(found) = found else {
            self.error(
                pos,
                format!("valueRef \"{value_ref}\": \"{enum_name}\" is not an enum"),
            );
            return None;
        };
        let Some(value) = found else {
            self.error(
                pos,
                format!(
                    "valueRef \"{value_ref}\": enum \"{enum_name}\" has no value \"{value_name}\""
                ),
            );
            return None;
        };
        Some(ConstValue::EnumValue {
            enum_name: enum_name.to_string(),
            value_name: value_name.to_string(),
            value,
        })
    }
}
