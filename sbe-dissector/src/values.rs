//! Lua for one value of a block, composite or header: an item per field,
//! member, array element or set choice, read as `sbe decode` reads it
//! (nulls, constants, text, enums by name, decimals and times from the
//! IR's meaning facts).

use sbe_ir::ir::{
    encoded_length, ConstValue, Encoded, Exponent, Meaning, Presence, Primitive, Scalar,
    TimeUnitSource, Type, TypeKind,
};
use sbe_rt::wire::Uint;

use super::names::Decl;
use super::{Gen, Lua, Sch};

/// A value to show: a field, a composite member or a header member.
pub(crate) struct Val<'a> {
    /// Its type.
    pub(crate) ty: &'a Type,
    /// The path of its abbreviation.
    pub(crate) path: String,
    /// Its schema name (the item's display name).
    pub(crate) name: &'a str,
    /// The schema's name of its type (the naming rule's suffix).
    pub(crate) type_name: &'a str,
    /// Effective presence.
    pub(crate) presence: Presence,
    /// What it means.
    pub(crate) meaning: &'a Meaning,
    /// Its constant value, if constant.
    pub(crate) const_value: Option<&'a ConstValue>,
}

impl<'a> Val<'a> {
    /// A composite member of the value at `parent`.
    fn member(parent: &str, ty: &'a Type, type_name: Option<&'a str>) -> Self {
        let (presence, const_value) = match &ty.kind {
            TypeKind::Encoded(e) => (e.presence, e.const_value.as_ref()),
            TypeKind::Enum(en) => (en.presence, None),
            _ => (Presence::Required, None),
        };
        Val {
            ty,
            path: format!("{parent}.{}", ty.name),
            name: &ty.name,
            type_name: type_name.unwrap_or(&ty.name),
            presence,
            meaning: &ty.meaning,
            const_value,
        }
    }
}

/// The ProtoField constructor of a primitive's values.
fn ctor(p: Primitive) -> &'static str {
    match p {
        Primitive::Char | Primitive::Uint8 => "uint8",
        Primitive::Uint16 => "uint16",
        Primitive::Uint32 => "uint32",
        Primitive::Uint64 => "uint64",
        Primitive::Int8 => "int8",
        Primitive::Int16 => "int16",
        Primitive::Int32 => "int32",
        Primitive::Int64 => "int64",
        Primitive::Float => "float",
        Primitive::Double => "double",
    }
}

/// The base argument of a primitive's ProtoField (none for floats).
fn base(p: Primitive) -> String {
    if p.is_float() {
        String::new()
    } else {
        "base.DEC".into()
    }
}

/// Lua of offset `base` + `offset` (`base` alone for 0).
pub(crate) fn plus(base: &str, offset: impl Into<u64>) -> String {
    match offset.into() {
        0 => base.to_string(),
        n => format!("{base} + {n}"),
    }
}

/// Lua reading the primitive `p` at offset `at` in byte order `le`: an
/// integer of up to 32 bits from the prelude's `RAW` bytes (a number), a
/// 64-bit one as `UInt64`/`Int64` and a float through a TvbRange.
pub(crate) fn read(p: Primitive, at: &str, le: bool) -> String {
    let signed = match p {
        Primitive::Int8 => Some("128"),
        Primitive::Int16 => Some("32768"),
        Primitive::Int32 => Some("2147483648"),
        _ => None,
    };
    if let Some(unsigned) = raw_uint(p.size() as usize, at, le) {
        return match signed {
            Some(half) => format!("signed({unsigned}, {half})"),
            None => unsigned,
        };
    }
    let n = p.size();
    let e = if le { "le_" } else { "" };
    let kind = match p {
        Primitive::Float | Primitive::Double => "float",
        Primitive::Int64 => "int64",
        Primitive::Uint64 => "uint64",
        Primitive::Int8 | Primitive::Int16 | Primitive::Int32 => "int",
        _ => "uint",
    };
    let e = if n == 1 { "" } else { e };
    format!("tvb({at}, {n}):{e}{kind}()")
}

/// Lua reading an unsigned integer of `n` bytes (1, 2 or 4) at `at` from
/// the prelude's `RAW` bytes; `None` for another width.
fn raw_uint(n: usize, at: &str, le: bool) -> Option<String> {
    let f = match (n, le) {
        (1, _) => "u8",
        (2, true) => "u16le",
        (2, false) => "u16be",
        (4, true) => "u32le",
        (4, false) => "u32be",
        _ => return None,
    };
    Some(format!("{f}({at})"))
}

/// Lua reading the slot `u` (a header, dimension or length member) at
/// `base` + its offset, as a Lua number.
pub(crate) fn read_slot(u: Uint, base: &str) -> String {
    let at = |o: usize| plus(base, o as u64);
    let raw = |o: usize, n: usize, le: bool| raw_uint(n, &at(o), le).unwrap_or_default();
    match u {
        Uint::U8(o) => raw(o, 1, true),
        Uint::U16Le(o) => raw(o, 2, true),
        Uint::U16Be(o) => raw(o, 2, false),
        Uint::U32Le(o) => raw(o, 4, true),
        Uint::U32Be(o) => raw(o, 4, false),
        Uint::U64Le(o) => format!("u64num(tvb({}, 8):le_uint64())", at(o)),
        Uint::U64Be(o) => format!("u64num(tvb({}, 8):uint64())", at(o)),
        Uint::Const(v) => v.to_string(),
    }
}

/// Lua of the scalar `v` of primitive `p`, as the item's value.
fn literal(g: &mut Gen, p: Primitive, v: Scalar) -> String {
    match (p, v) {
        (_, Scalar::Float(f)) if f.is_nan() => "(0/0)".into(),
        (_, Scalar::Float(f)) => format!("{f:?}"),
        (Primitive::Uint64, Scalar::Int(i)) => g.constant("UInt64", i),
        (Primitive::Int64, Scalar::Int(i)) => g.constant("Int64", i),
        (_, Scalar::Int(i)) => i.to_string(),
    }
}

/// Lua testing whether `value` (a read of `p`) is the null `null`.
fn is_null(g: &mut Gen, p: Primitive, value: &str, null: Scalar) -> String {
    match null {
        Scalar::Float(f) if f.is_nan() => format!("isnan({value})"),
        _ => format!("{value} == {}", literal(g, p, null)),
    }
}

/// The Lua encoding of text in `encoding`: UTF-8, else ISO-8859-1 (as
/// FORMAT.md maps it).
pub(crate) fn text_encoding(encoding: Option<&str>) -> &'static str {
    match encoding {
        Some(e) if e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8") => "ENC_UTF_8",
        _ => "ENC_ISO_8859_1",
    }
}

impl Gen {
    /// The ProtoField number of `v` shown with constructor `ctor` and
    /// more arguments `rest`.
    fn decl(&mut self, s: &Sch, v: &Val, ctor: &str, rest: String) -> usize {
        let proto = self.proto.clone();
        self.last = self.fields.field(
            &proto,
            &Decl {
                path: &v.path,
                type_name: v.type_name,
                schema_id: s.id,
                ctor,
                name: v.name,
                rest,
            },
        );
        self.last
    }

    /// Lua adding the value `v` at offset `at` under tree `t`.
    pub(crate) fn value(&mut self, s: &Sch, w: &mut Lua, v: &Val, t: &str, at: &str) {
        if v.presence == Presence::Constant {
            return self.constant_item(s, w, v, t);
        }
        match &v.ty.kind {
            TypeKind::Encoded(e) => self.encoded(s, w, v, e, t, at),
            TypeKind::Enum(en) => {
                let vs = self.enum_table(&v.ty.kind);
                let null = (v.presence == Presence::Optional).then_some(Scalar::Int(en.null_value));
                self.scalar(s, w, v, en.encoding, t, at, null, vs);
            }
            TypeKind::Set(set) => self.set(s, w, v, set, t, at),
            TypeKind::Composite(_) => self.composite(s, w, v, t, at),
        }
    }

    /// The value-string table of an enum (`None` for another kind, or an
    /// enum of 64-bit values, which Wireshark's tables do not hold).
    fn enum_table(&mut self, kind: &TypeKind) -> Option<String> {
        let TypeKind::Enum(en) = kind else {
            return None;
        };
        if en.encoding.size() > 4 {
            return None;
        }
        let entries: Vec<String> = en
            .values
            .iter()
            .map(|vv| format!("[{}] = {:?}", vv.value, vv.name))
            .collect();
        Some(self.fields.table(&entries.join(", ")))
    }

    fn encoded(&mut self, s: &Sch, w: &mut Lua, v: &Val, e: &Encoded, t: &str, at: &str) {
        if let Meaning::Decimal(d) = v.meaning {
            if let Exponent::Field(r) = d.exponent {
                return self.field_decimal(s, w, v, e, d, r, t, at);
            }
        }
        let optional = v.presence == Presence::Optional;
        if *v.meaning == Meaning::Text || (e.primitive == Primitive::Char && e.length > 1) {
            let f = self.decl(s, v, "string", String::new());
            let enc = text_encoding(e.character_encoding.as_deref());
            let null = match e.null() {
                Scalar::Int(i) => i,
                Scalar::Float(_) => 0,
            };
            w.line(&format!(
                "if W[{f}] then text({t}, F[{f}], tvb, {at}, {}, {enc}, {optional}, {null}, {:?}) end",
                e.length, v.name
            ));
            return;
        }
        let null = optional.then(|| e.null());
        if e.length == 1 {
            return self.scalar(s, w, v, e.primitive, t, at, null, None);
        }
        let size = e.primitive.size();
        w.open(&format!("for i = 0, {} do", e.length.saturating_sub(1)));
        let element = format!("{at} + i * {size}");
        self.scalar(s, w, v, e.primitive, t, &element, null, None);
        w.close("end");
    }

    /// A field decimal ([`Exponent::Field`], Binance's `mbx:exponent`):
    /// its exact text at the exponent an enclosing block kept in `EXP`
    /// (`null` where the mantissa or the exponent is null), an integer
    /// mantissa or a `mantissa128` (16 bytes, a little-endian `i128`).
    #[allow(clippy::too_many_arguments)]
    fn field_decimal(
        &mut self,
        s: &Sch,
        w: &mut Lua,
        v: &Val,
        e: &Encoded,
        d: &sbe_ir::ir::DecimalParts,
        r: sbe_ir::ir::FieldRef,
        t: &str,
        at: &str,
    ) {
        let key = self.exponent_key(r).unwrap_or_else(|| "\"\"".into());
        let (m, n, null) = if d.mantissa128 {
            // The text of the 128 bits, and the null test on it.
            let null = if d.optional {
                format!("m == {:?}", sbe_rt::Decimal::MANTISSA128_NULL.to_string())
            } else {
                "false".into()
            };
            (format!("i128_text({at})"), 16, null)
        } else {
            let value = read(e.primitive, at, s.le);
            let null = match (d.optional, e.null()) {
                (true, n) => is_null(self, e.primitive, "m", n),
                _ => "false".into(),
            };
            (value, e.primitive.size(), null)
        };
        let f = self.decl(s, v, "string", String::new());
        let label = format!("{}: null", v.name);
        w.open(&format!("if W[{f}] then"));
        w.line(&format!("local m = {m}"));
        w.line(&format!("local x = EXP[{key}]"));
        w.line(&format!(
            "if x == nil or {null} then SET_TEXT(ADD({t}, F[{f}], RANGE(tvb, {at}, {n}), \"\"), {label:?})"
        ));
        w.line(&format!(
            "else ADD({t}, F[{f}], RANGE(tvb, {at}, {n}), dec_text(m, x)) end"
        ));
        w.close("end");
    }

    /// One integer or float (an enum's with its table `vs`), null when it
    /// holds `null`; a time or date by its meaning.
    #[allow(clippy::too_many_arguments)]
    fn scalar(
        &mut self,
        s: &Sch,
        w: &mut Lua,
        v: &Val,
        p: Primitive,
        t: &str,
        at: &str,
        null: Option<Scalar>,
        vs: Option<String>,
    ) {
        let n = p.size();
        let value = read(p, at, s.le);
        let null_test = match null {
            Some(x) => is_null(self, p, &value, x),
            None => "false".into(),
        };
        match v.meaning {
            Meaning::Timestamp(tp) if tp.time.is_none() => {
                let per = match tp.unit {
                    TimeUnitSource::Constant(u) => u.nanos().to_string(),
                    _ => "1".into(),
                };
                let ctor = if tp.of_day {
                    "relative_time"
                } else {
                    "absolute_time"
                };
                let rest = if tp.of_day {
                    String::new()
                } else {
                    "base.UTC".into()
                };
                let f = self.decl(s, v, ctor, rest);
                let null_test = if tp.optional {
                    null_test
                } else {
                    "false".into()
                };
                w.line(&format!(
                    "if W[{f}] then time_item({t}, F[{f}], RANGE(tvb, {at}, {n}), {value}, {per}, {null_test}, {:?}) end",
                    v.name
                ));
            }
            Meaning::Date(d) => {
                let f = self.decl(s, v, "string", String::new());
                let null_test = if d.optional {
                    null_test
                } else {
                    "false".into()
                };
                w.line(&format!(
                    "if W[{f}] then date_item({t}, F[{f}], RANGE(tvb, {at}, {n}), {value}, {null_test}, {:?}) end",
                    v.name
                ));
            }
            _ => {
                let mut rest = base(p);
                if let Some(vs) = vs {
                    rest = format!("{rest}, {vs}");
                }
                let f = self.decl(s, v, ctor(p), rest);
                let add = if s.le { "ADD_LE" } else { "ADD" };
                if null.is_some() {
                    w.line(&format!(
                        "if W[{f}] then opt({t}, F[{f}], RANGE(tvb, {at}, {n}), {}, {null_test}, {:?}) end",
                        s.le, v.name
                    ));
                } else {
                    w.line(&format!(
                        "if W[{f}] then {add}({t}, F[{f}], RANGE(tvb, {at}, {n})) end"
                    ));
                }
            }
        }
    }

    /// A set: its raw value, then one flag per choice.
    fn set(&mut self, s: &Sch, w: &mut Lua, v: &Val, set: &sbe_ir::ir::SetType, t: &str, at: &str) {
        let p = set.encoding;
        let n = p.size();
        let f = self.decl(s, v, ctor(p), "base.HEX".into());
        let add = if s.le { "ADD_LE" } else { "ADD" };
        w.open("do");
        // The range made once, when the first item wants it.
        w.line("local r");
        w.line(&format!("local v = {}", read(p, at, s.le)));
        w.line(&format!("local c = {t}"));
        w.line(&format!(
            "if W[{f}] then\n  r = RANGE(tvb, {at}, {n})\n  c = {add}({t}, F[{f}], r)\nend"
        ));
        let parent = self.fields.path_of(f);
        for choice in &set.choices {
            let cv = Val {
                ty: v.ty,
                path: format!("{parent}.{}", choice.name),
                name: &choice.name,
                type_name: v.type_name,
                presence: Presence::Required,
                meaning: &Meaning::Plain,
                const_value: None,
            };
            let cf = self.decl(s, &cv, "bool", String::new());
            let (word, bit) = match (n, choice.bit) {
                (8, b) if b >= 32 => ("v:higher()", b - 32),
                (8, b) => ("v:lower()", b),
                (_, b) => ("v", b),
            };
            let mask = 1u64 << bit.min(31);
            w.line(&format!(
                "if W[{cf}] then\n  r = r or RANGE(tvb, {at}, {n})\n  ADD(c, F[{cf}], r, bit.band({word}, {mask:#x}) ~= 0)\nend"
            ));
        }
        w.close("end");
    }

    /// A constant: a generated item with the schema's value.
    fn constant_item(&mut self, s: &Sch, w: &mut Lua, v: &Val, t: &str) {
        let prim = match &v.ty.kind {
            TypeKind::Encoded(e) => e.primitive,
            TypeKind::Enum(en) => en.encoding,
            _ => Primitive::Uint8,
        };
        let (f, value) = match v.const_value {
            Some(ConstValue::Text(text)) => (
                self.decl(s, v, "string", String::new()),
                format!("{text:?}"),
            ),
            Some(ConstValue::Number(x)) if *v.meaning == Meaning::Text => {
                let c = match x {
                    Scalar::Int(i) => u32::try_from(*i).ok().and_then(char::from_u32),
                    Scalar::Float(_) => None,
                };
                let text = c.map(String::from).unwrap_or_default();
                (
                    self.decl(s, v, "string", String::new()),
                    format!("{text:?}"),
                )
            }
            Some(ConstValue::Number(x)) => {
                let f = self.decl(s, v, ctor(prim), base(prim));
                (f, literal(self, prim, *x))
            }
            Some(ConstValue::EnumValue {
                value, value_name, ..
            }) if !matches!(v.ty.kind, TypeKind::Enum(_)) => {
                // A valueRef on a plain type: the value's name, its number beside.
                let f = self.decl(s, v, "string", String::new());
                let label = format!("{}: {value_name} ({value})", v.name);
                w.line(&format!(
                    "if W[{f}] then SET_GENERATED(SET_TEXT(ADD({t}, F[{f}], {value_name:?}), {label:?})) end"
                ));
                return;
            }
            Some(ConstValue::EnumValue { value, .. }) => {
                let table = self.enum_table(&v.ty.kind);
                let rest = match table {
                    Some(vs) => format!("{}, {vs}", base(prim)),
                    None => base(prim),
                };
                let f = self.decl(s, v, ctor(prim), rest);
                (f, literal(self, prim, Scalar::Int(*value)))
            }
            None => return,
        };
        w.line(&format!(
            "if W[{f}] then SET_GENERATED(ADD({t}, F[{f}], {value})) end"
        ));
    }

    /// A composite: an item (a decimal's exact value, a time, a
    /// MonthYear, or none), its members beneath.
    fn composite(&mut self, s: &Sch, w: &mut Lua, v: &Val, t: &str, at: &str) {
        let TypeKind::Composite(c) = &v.ty.kind else {
            return;
        };
        let len = encoded_length(v.ty).unwrap_or(0);
        let member_at = |i: usize| -> Option<(String, Primitive)> {
            let m = c.members.get(i)?;
            let TypeKind::Encoded(e) = &m.ty.kind else {
                return None;
            };
            Some((read(e.primitive, &plus(at, m.offset), s.le), e.primitive))
        };
        let null_of = |i: usize| -> Option<Scalar> {
            match &c.members.get(i)?.ty.kind {
                TypeKind::Encoded(e) => Some(e.null()),
                _ => None,
            }
        };
        w.open("do");
        let range = format!("RANGE(tvb, {at}, {len})");
        match v.meaning {
            Meaning::Decimal(d) => {
                let (m, p) = member_at(d.mantissa).unwrap_or(("0".into(), Primitive::Int64));
                let e = match d.exponent {
                    Exponent::Constant(e) => e.to_string(),
                    Exponent::Member(i) => member_at(i).map_or("0".into(), |x| x.0),
                    // A field decimal is no composite's.
                    Exponent::Field(_) => "0".into(),
                };
                let null = match (d.optional, null_of(d.mantissa)) {
                    (true, Some(n)) => is_null(self, p, "m", n),
                    _ => "false".into(),
                };
                let f = self.decl(s, v, "string", String::new());
                w.line(&format!("local c = {t}"));
                w.open(&format!("if W[{f}] then"));
                w.line(&format!("local m = {m}"));
                w.line(&format!("c = ADD({t}, F[{f}], {range}, dec_text(m, {e}))"));
                if null != "false" {
                    let label = format!("{}: null", v.name);
                    w.line(&format!("if {null} then SET_TEXT(c, {label:?}) end"));
                }
                w.close("end");
            }
            Meaning::Timestamp(tp) if tp.time.is_some() => {
                let i = tp.time.unwrap_or(0);
                let (value, p) = member_at(i).unwrap_or(("0".into(), Primitive::Uint64));
                let per = match tp.unit {
                    TimeUnitSource::Constant(u) => u.nanos().to_string(),
                    TimeUnitSource::Member(u) => {
                        format!("UNIT_NANOS[{}]", member_at(u).map_or("-1".into(), |x| x.0))
                    }
                    TimeUnitSource::Unstated => "1".into(),
                };
                let null = match (tp.optional, null_of(i)) {
                    (true, Some(n)) => is_null(self, p, &value, n),
                    _ => "false".into(),
                };
                let (ctor, rest) = if tp.of_day {
                    ("relative_time", String::new())
                } else {
                    ("absolute_time", "base.UTC".into())
                };
                let f = self.decl(s, v, ctor, rest);
                w.line(&format!("local c = {t}"));
                w.line(&format!(
                    "if W[{f}] then c = time_item({t}, F[{f}], {range}, {value}, {per}, {null}, {:?}) end",
                    v.name
                ));
            }
            Meaning::MonthYear(my) => {
                let part = |i: Option<usize>| i.and_then(member_at).map_or("nil".into(), |x| x.0);
                let f = self.decl(s, v, "string", String::new());
                w.line(&format!("local c = {t}"));
                w.line(&format!(
                    "if W[{f}] then c = ADD({t}, F[{f}], {range}, month_year({}, {}, {}, {})) end",
                    part(Some(my.year)),
                    part(Some(my.month)),
                    part(my.day),
                    part(my.week)
                ));
            }
            _ => {
                let f = self.decl(s, v, "none", String::new());
                w.line(&format!("local c = {t}"));
                w.line(&format!("if W[{f}] then c = ADD({t}, F[{f}], {range}) end"));
            }
        }
        let parent = self.fields.path_of(self.last);
        for m in &c.members {
            let mv = Val::member(&parent, &m.ty, m.type_name.as_deref());
            self.value(s, w, &mv, "c", &plus(at, m.offset));
        }
        w.close("end");
    }
}

/// The value of composite member `m` under the path `parent`.
pub(crate) fn member_val<'a>(parent: &str, m: &'a sbe_ir::ir::Member) -> Val<'a> {
    Val::member(parent, &m.ty, m.type_name.as_deref())
}
