//! Writes the drivers: per message an encoder driver (values from a
//! [`super::Src`] through the typed setters, the expected [`super::V`]
//! beside) and a reader (the typed getters into a [`super::V`]), from the
//! schema's IR and the names `sbe_build::codegen::api` gives out, so that
//! nothing here guesses a Rust name.

use std::fmt::Write as _;

use sbe_build::codegen::api::{self, Api, BlockNames};
use sbe_ir::ir::{
    ConstValue, Data, Field, Group, Member, Presence, Primitive, Scalar, Schema, Type, TypeKind,
};

/// The drivers of `schema` as a module `module`, for its generated code at
/// the path `generated` (e.g. `crate::car`).
///
/// The module has `MESSAGES` (the messages' schema names), `encode(i, src,
/// buf, expected)` (message `i` encoded into `buf` through the typed
/// encoder, its length; what it wrote pushed onto `expected`) and `read(i,
/// bytes)` (message `i` decoded with its generated decoder, its values
/// through the typed getters, and its `checked_length`).
pub fn drivers(schema: &Schema, generated: &str, module: &str) -> String {
    let api = api::names(schema);
    let mut g = Gen {
        api: &api,
        out: String::new(),
        n: 0,
    };
    let mut canon = String::new();
    for t in &api.types {
        canon.push_str(&type_canon(t));
    }
    let mut encoders = String::new();
    let mut readers = String::new();
    for (i, (m, names)) in schema.messages.iter().zip(&api.messages).enumerate() {
        let what = &m.name;
        g.out.clear();
        g.block(
            (&m.block.fields, &m.block.groups, &m.block.data),
            &names.block,
            ("e", "x"),
            what,
            0,
            None,
        );
        let _ = writeln!(
            encoders,
            "    fn enc_{i}(s: &mut Src, buf: &mut [u8], x: &mut Vec<V>) -> R<usize> {{\n        let mut e = g::{enc}::wrap(buf)?;\n{body}        Ok(e.finish()?)\n    }}\n",
            enc = names.encoder,
            body = g.out
        );
        let _ = writeln!(
            readers,
            "    fn read_{i}(b: &[u8]) -> R<(V, R<usize>)> {{\n        let d = g::{dec}::decode(b)?;\n        let n = d.checked_length();\n        Ok((d.canon(), n))\n    }}\n",
            dec = names.decoder
        );
        canon.push_str(&block_canon(
            &format!("g::{}<'_>", names.decoder),
            (&m.block.fields, &m.block.groups, &m.block.data),
            &names.block,
        ));
    }
    let n = schema.messages.len();
    let list: Vec<String> = schema
        .messages
        .iter()
        .map(|m| format!("{:?}", m.name))
        .collect();
    let enc_arms: String = (0..n)
        .map(|i| format!("            {i} => enc_{i}(s, buf, x),\n"))
        .collect();
    let read_arms: String = (0..n)
        .map(|i| format!("            {i} => read_{i}(b),\n"))
        .collect();
    format!(
        "/// Drivers of the typed encoders and decoders of `{package}` (written by test-support's drive::gen).\n\
         #[allow(deprecated, unused_mut, unused_variables, unused_braces, unused_labels, unreachable_code, clippy::all)]\n\
         pub mod {module} {{\n\
         {PRELUDE}\n    use {generated} as g;\n\n\
         /// The messages, by schema name, in schema order.\n\
         pub const MESSAGES: &[&str] = &[{list}];\n\n\
         /// Encodes message `i` into `buf` with values from `s`; what it wrote onto `x`.\n\
         pub fn encode(i: usize, s: &mut Src, buf: &mut [u8], x: &mut Vec<V>) -> R<usize> {{\n        match i {{\n{enc_arms}            _ => panic!(\"no message {{i}}\"),\n        }}\n    }}\n\n\
         /// Decodes message `i` from `b`: its values as the getters read them, and its checked length.\n\
         pub fn read(i: usize, b: &[u8]) -> R<(V, R<usize>)> {{\n        match i {{\n{read_arms}            _ => panic!(\"no message {{i}}\"),\n        }}\n    }}\n\n\
         {encoders}{readers}{canon}}}\n",
        package = schema.package,
        list = list.join(", "),
    )
}

/// What every drivers module starts with: its imports and the `Canon`
/// trait (a getter's value as a `V`), with its impls for what is not
/// generated.
const PRELUDE: &str = r#"    use test_support::drive::{self as dr, Num, Src, V};

    type R<T> = ::core::result::Result<T, ::sbe_rt::Error>;

    /// A getter's value as compared.
    trait Canon {
        fn canon(self) -> V;
    }

    macro_rules! canon_num {
        ($($t:ty),*) => {$(
            impl Canon for $t {
                fn canon(self) -> V {
                    Num::to_v(self)
                }
            }
        )*};
    }
    canon_num!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

    impl<T: Canon, const N: usize> Canon for [T; N] {
        fn canon(self) -> V {
            V::List(self.into_iter().map(Canon::canon).collect())
        }
    }

    impl Canon for &[u8] {
        fn canon(self) -> V {
            V::Bytes(self.to_vec())
        }
    }

    impl<T: Canon> Canon for Option<T> {
        fn canon(self) -> V {
            match self {
                Some(v) => v.canon(),
                None => V::Null,
            }
        }
    }
"#;

/// A literal of `p` for `v` (clamped into an integer type's range).
fn lit(p: Primitive, v: Scalar) -> String {
    let t = p.rust_type();
    match (p, v) {
        (Primitive::Float, Scalar::Float(f)) if f.is_nan() => "f32::NAN".into(),
        (Primitive::Double, Scalar::Float(f)) if f.is_nan() => "f64::NAN".into(),
        (Primitive::Float, Scalar::Float(f)) => {
            format!("f32::from_bits({:#x})", (f as f32).to_bits())
        }
        (Primitive::Double, Scalar::Float(f)) => format!("f64::from_bits({:#x})", f.to_bits()),
        (Primitive::Float | Primitive::Double, Scalar::Int(i)) => lit(p, Scalar::Float(i as f64)),
        (_, Scalar::Float(f)) => lit(p, Scalar::Int(f as i128)),
        (_, Scalar::Int(i)) => {
            let (lo, hi) = match p {
                Primitive::Char | Primitive::Uint8 => (0, 255),
                _ => p.int_range(),
            };
            format!("{}{t}", i.clamp(lo, hi))
        }
    }
}

/// Whether an item is a constant (not on the wire, no setter): the test
/// the generator's value shapes make.
fn is_const(ty: &Type, presence: Presence, cv: Option<&ConstValue>) -> bool {
    presence == Presence::Constant
        && (cv.is_some() || matches!(&ty.kind, TypeKind::Encoded(e) if e.const_value.is_some()))
}

/// Presence of a composite member.
fn member_presence(m: &Member) -> Presence {
    match &m.ty.kind {
        TypeKind::Encoded(e) => e.presence,
        TypeKind::Enum(e) => e.presence,
        _ => Presence::Required,
    }
}

fn member_key(m: &Member) -> String {
    m.type_name.clone().unwrap_or_else(|| m.ty.name.clone())
}

/// The `Canon` impl of an enum, set or composite.
fn type_canon(t: &api::TypeNames) -> String {
    match &t.ty.kind {
        TypeKind::Enum(_) | TypeKind::Set(_) => format!(
            "    impl Canon for g::{} {{\n        fn canon(self) -> V {{\n            V::I(self.0 as i128)\n        }}\n    }}\n\n",
            t.rust
        ),
        TypeKind::Composite(c) => {
            let items: Vec<String> = c
                .members
                .iter()
                .zip(&t.members)
                .filter(|(m, _)| !is_const(&m.ty, member_presence(m), None))
                .map(|(_, a)| format!("self.{}().canon()", a.name))
                .collect();
            format!(
                "    impl Canon for g::{}Decoder<'_> {{\n        fn canon(self) -> V {{\n            V::List(vec![{}])\n        }}\n    }}\n\n",
                t.rust,
                items.join(", ")
            )
        }
        TypeKind::Encoded(_) => String::new(),
    }
}

type Items<'s> = (&'s [Field], &'s [Group], &'s [Data]);

/// The `Canon` impl of a root or entry decoder `ty` (and of its groups'
/// iterators and entries): its fields, groups and var data in order.
fn block_canon(ty: &str, (fields, groups, _): Items, names: &BlockNames) -> String {
    let mut items: Vec<String> = fields
        .iter()
        .zip(&names.fields)
        .filter(|(f, _)| !is_const(&f.ty, f.presence, f.const_value.as_ref()))
        .map(|(_, a)| format!("self.{}().canon()", a.name))
        .collect();
    let mut nested = String::new();
    for (g, n) in groups.iter().zip(&names.groups) {
        items.push(format!("self.{}().canon()", n.accessor));
        let _ = write!(
            nested,
            "    impl Canon for g::{}<'_> {{\n        fn canon(self) -> V {{\n            V::List(self.map(Canon::canon).collect())\n        }}\n    }}\n\n",
            n.iter
        );
        nested.push_str(&block_canon(
            &format!("g::{}<'_>", n.entry),
            (&g.block.fields, &g.block.groups, &g.block.data),
            &n.block,
        ));
    }
    items.extend(
        names
            .data
            .iter()
            .map(|a| format!("self.{}().canon()", a.name)),
    );
    format!(
        "    impl Canon for {ty} {{\n        fn canon(self) -> V {{\n            V::List(vec![{}])\n        }}\n    }}\n\n{nested}",
        items.join(", ")
    )
}

/// The encoder drivers being written.
struct Gen<'a> {
    api: &'a Api,
    out: String,
    /// Names taken so far, for fresh variables.
    n: usize,
}

impl Gen<'_> {
    fn fresh(&mut self, base: &str) -> String {
        self.n += 1;
        format!("{base}{}", self.n)
    }

    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth + 2 {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Writes the fields, groups and var data of a block through encoder
    /// `enc` (its first stage, a `let mut`), pushing what is written onto
    /// `x`. The sections go through the stages, each `let {enc} = …;`, a
    /// section left out written empty; now and then the rest are left to
    /// `finish` (`end`: a message's, which returns the length, or the
    /// label of an entry's block, which is left).
    fn block(
        &mut self,
        (fields, groups, data): Items,
        names: &BlockNames,
        (enc, x): (&str, &str),
        what: &str,
        depth: usize,
        end: Option<&str>,
    ) {
        for (f, a) in fields.iter().zip(&names.fields) {
            if is_const(&f.ty, f.presence, f.const_value.as_ref()) {
                continue;
            }
            let what = format!("{what}.{}", f.name);
            self.value(
                &f.type_name,
                &f.ty,
                f.presence,
                enc,
                &a.name,
                x,
                &what,
                depth,
            );
        }
        // The values of sections written empty, in order.
        let empties: Vec<&str> = groups
            .iter()
            .map(|_| "V::List(Vec::new())")
            .chain(data.iter().map(|_| "V::Bytes(Vec::new())"))
            .collect();
        for (k, (g, n)) in groups.iter().zip(&names.groups).enumerate() {
            self.finish_early(&empties[k..], enc, x, depth, end);
            let what = format!("{what}.{}", g.name);
            let max = g.dimension(sbe_ir::ir::ByteOrder::Little).max_count;
            let ge = self.fresh("ge");
            let ee = self.fresh("ee");
            let xg = self.fresh("xg");
            let xe = self.fresh("xe");
            let label = self.fresh("'entry");
            let name = &n.accessor;
            self.line(depth, &format!("let {enc} = if s.skip_section() {{"));
            self.line(depth + 1, &format!("{x}.push(V::List(Vec::new()));"));
            self.line(depth + 1, &format!("{enc}.{name}(0)?.end()?"));
            self.line(depth, "} else {");
            let d = depth + 1;
            self.line(d, &format!("let (count, n, over) = s.count({max});"));
            self.line(d, &format!("if count as u64 > {max} {{"));
            self.line(
                d + 1,
                &format!("return Err(dr::rejected(s, {enc}.{name}(count).map(|_| ()), {what:?}));"),
            );
            self.line(d, "}");
            self.line(d, &format!("let mut {ge} = {enc}.{name}(count)?;"));
            self.line(d, &format!("let mut {xg} = Vec::new();"));
            self.line(d, "for _ in 0..n {");
            self.line(d + 1, &format!("let mut {ee} = {ge}.next_entry()?;"));
            self.line(d + 1, &format!("let mut {xe} = Vec::new();"));
            self.line(d + 1, &format!("{label}: {{"));
            self.block(
                (&g.block.fields, &g.block.groups, &g.block.data),
                &n.block,
                (&ee, &xe),
                &what,
                d + 2,
                Some(&label),
            );
            self.line(d + 1, "}");
            self.line(d + 1, &format!("{xg}.push(V::List({xe}));"));
            self.line(d, "}");
            self.line(d, "if over {");
            self.line(d + 1, &format!("{ge}.next_entry().map(|_| ())?;"));
            self.line(
                d + 1,
                &format!("return Err(dr::past_count(s, {ge}.end().map(|_| ()), {what:?}));"),
            );
            self.line(d, "}");
            self.line(d, &format!("{x}.push(V::List({xg}));"));
            self.line(d, &format!("{ge}.end()?"));
            self.line(depth, "};");
        }
        for (j, (dd, a)) in data.iter().zip(&names.data).enumerate() {
            let k = groups.len() + j;
            self.finish_early(&empties[k..], enc, x, depth, end);
            let what = format!("{what}.{}", dd.name);
            let max = dd.max_length;
            let text = dd.character_encoding.is_some();
            let name = &a.name;
            self.line(depth, &format!("let {enc} = if s.skip_section() {{"));
            self.line(depth + 1, &format!("{x}.push(V::Bytes(Vec::new()));"));
            self.line(depth + 1, &format!("{enc}.{name}(b\"\")?"));
            self.line(depth, "} else {");
            let d = depth + 1;
            self.line(d, &format!("let v = s.data({max}, {text});"));
            self.line(d, &format!("if v.len() as u64 > {max} {{"));
            self.line(
                d + 1,
                &format!("return Err(dr::rejected(s, {enc}.{name}(&v).map(|_| ()), {what:?}));"),
            );
            self.line(d, "}");
            self.line(d, &format!("let {enc} = {enc}.{name}(&v)?;"));
            self.line(d, &format!("{x}.push(V::Bytes(v));"));
            self.line(d, enc);
            self.line(depth, "};");
        }
    }

    /// Before a section: now and then, the sections from it on (`empties`,
    /// their values written empty) left to the stage's `finish`, and the
    /// block left (see [`Gen::block`]'s `end`).
    fn finish_early(&mut self, empties: &[&str], enc: &str, x: &str, d: usize, end: Option<&str>) {
        self.line(d, "if s.finish_early() {");
        for v in empties {
            self.line(d + 1, &format!("{x}.push({v});"));
        }
        match end {
            None => self.line(d + 1, &format!("return Ok({enc}.finish()?);")),
            Some(label) => {
                self.line(d + 1, &format!("{enc}.finish()?;"));
                self.line(d + 1, &format!("break {label};"));
            }
        }
        self.line(d, "}");
    }

    /// Writes one value (a field or a composite member) of type `ty` with
    /// setter `setter` on `enc`, pushing what is written onto `x`.
    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        key: &str,
        ty: &Type,
        presence: Presence,
        enc: &str,
        setter: &str,
        x: &str,
        what: &str,
        depth: usize,
    ) {
        let optional = presence == Presence::Optional;
        // (type of v, its value, what it holds when its setter is not
        // called (its null where optional, else zeros: `Block::unset_bytes`),
        // the setter's call, the value read).
        let (gen, zero, call, read): (String, String, String, String) = match &ty.kind {
            TypeKind::Encoded(e) if e.primitive == Primitive::Char && e.length <= 1 => {
                let null = match e.null_value {
                    Some(Scalar::Int(n)) => n.clamp(0, 255),
                    _ => 0,
                };
                if optional {
                    (
                        format!("s.opt_char({null})"),
                        "None".into(),
                        format!("{enc}.{setter}(v);"),
                        format!("dr::opt_char_v(v, {null})"),
                    )
                } else {
                    (
                        "s.char1()".into(),
                        "0".into(),
                        format!("{enc}.{setter}(v);"),
                        "Num::to_v(v)".into(),
                    )
                }
            }
            TypeKind::Encoded(e) if e.primitive == Primitive::Char => {
                let n = e.length;
                (
                    format!("s.chars({n})"),
                    "Vec::new()".into(),
                    format!(
                        "if v.len() > {n} {{ return Err(dr::rejected(s, {enc}.{setter}(&v).map(|_| ()), {what:?})); }}\n{}{enc}.{setter}(&v)?;",
                        "    ".repeat(depth + 3)
                    ),
                    format!("dr::char_v(&v, {n}, {optional})"),
                )
            }
            TypeKind::Encoded(e) => {
                let p = e.primitive;
                let t = p.rust_type();
                let lo = lit(p, e.min_value.unwrap_or_else(|| p.default_min()));
                let hi = lit(p, e.max_value.unwrap_or_else(|| p.default_max()));
                let null = lit(p, e.null());
                if e.length > 1 {
                    let n = e.length;
                    (
                        format!("s.arr::<{t}, {n}>({lo}, {hi})"),
                        if optional {
                            format!("[{null}; {n}]")
                        } else {
                            format!("[{t}::default(); {n}]")
                        },
                        format!("{enc}.{setter}(v);"),
                        "V::List(v.iter().map(|x| Num::to_v(*x)).collect())".into(),
                    )
                } else if optional {
                    (
                        format!("s.opt_num::<{t}>({lo}, {hi}, {null})"),
                        "None".into(),
                        format!("{enc}.{setter}(v);"),
                        format!("dr::opt_v(v, {null})"),
                    )
                } else {
                    (
                        format!("s.num::<{t}>({lo}, {hi})"),
                        format!("{t}::default()"),
                        format!("{enc}.{setter}(v);"),
                        "Num::to_v(v)".into(),
                    )
                }
            }
            TypeKind::Enum(en) => {
                let rust_ty = self.type_name(key, ty);
                let w = en.encoding.rust_type();
                let known: Vec<String> = en
                    .values
                    .iter()
                    .map(|v| lit(en.encoding, Scalar::Int(v.value)))
                    .collect();
                let known = format!("&[{}]", known.join(", "));
                let null = lit(en.encoding, Scalar::Int(en.null_value));
                if optional {
                    (
                        format!("s.opt_enum::<{w}>({known}, {null}).map(g::{rust_ty}::from_raw)"),
                        "None".into(),
                        format!("{enc}.{setter}(v);"),
                        format!("match v {{ Some(v) if v.0 != {null} => V::I(v.0 as i128), _ => V::Null }}"),
                    )
                } else {
                    (
                        format!("g::{rust_ty}::from_raw(s.enum_raw::<{w}>({known}))"),
                        format!("g::{rust_ty}::from_raw(0)"),
                        format!("{enc}.{setter}(v);"),
                        "V::I(v.0 as i128)".into(),
                    )
                }
            }
            TypeKind::Set(set) => {
                let rust_ty = self.type_name(key, ty);
                let mask = set.choices.iter().fold(0u128, |m, c| m | 1u128 << c.bit);
                let mask = lit(set.encoding, Scalar::Int(mask as i128));
                (
                    format!("g::{rust_ty}(s.set_raw({mask}))"),
                    format!("g::{rust_ty}(0)"),
                    format!("{enc}.{setter}(v);"),
                    "V::I(v.0 as i128)".into(),
                )
            }
            TypeKind::Composite(c) => {
                let names = self
                    .api
                    .type_of(key, ty)
                    .unwrap_or_else(|| panic!("{what}: composite {key} has no Rust type"))
                    .members
                    .clone();
                let ce = self.fresh("c");
                let xc = self.fresh("xc");
                self.line(depth, "{");
                self.line(depth + 1, &format!("let mut {ce} = {enc}.{setter}();"));
                self.line(depth + 1, &format!("let mut {xc} = Vec::new();"));
                for (m, a) in c.members.iter().zip(&names) {
                    let p = member_presence(m);
                    if is_const(&m.ty, p, None) {
                        continue;
                    }
                    let what = format!("{what}.{}", m.ty.name);
                    self.value(
                        &member_key(m),
                        &m.ty,
                        p,
                        &ce,
                        &a.name,
                        &xc,
                        &what,
                        depth + 1,
                    );
                }
                self.line(depth + 1, &format!("{x}.push(V::List({xc}));"));
                self.line(depth, "}");
                return;
            }
        };
        self.line(depth, "{");
        self.line(
            depth + 1,
            &format!("let v = if s.skip_value() {{ {zero} }} else {{"),
        );
        self.line(depth + 2, &format!("let v = {gen};"));
        self.line(depth + 2, &call);
        self.line(depth + 2, "v");
        self.line(depth + 1, "};");
        self.line(depth + 1, &format!("{x}.push({read});"));
        self.line(depth, "}");
    }

    fn type_name(&self, key: &str, ty: &Type) -> String {
        self.api
            .type_of(key, ty)
            .unwrap_or_else(|| panic!("type {key} has no Rust type"))
            .rust
            .clone()
    }
}
