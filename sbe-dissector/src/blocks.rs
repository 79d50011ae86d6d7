//! Lua functions for the messages and groups of a schema: one per
//! message and per group, each reading its block by the block length on
//! the wire and the acting version, then its groups and var data, as
//! `sbe decode` reads them.

use sbe_ir::ir::{
    Block, Data, Exponent, Field, FieldRef, Group, Meaning, Message, Presence, TypeKind,
};

use super::names::identifier;
use super::values::{plus, read_slot, text_encoding, Val};
use super::{Gen, Lua, Sch};

/// Lua setting `var` to what `at(version)` gives at the acting version
/// `ver`, for each version in `versions` (ascending).
fn by_version(w: &mut Lua, var: &str, versions: &[u32], at: impl Fn(u32) -> u32) {
    w.line(&format!("local {var} = {}", at(0)));
    let mut last = at(0);
    for &v in versions {
        let x = at(v);
        if x != last {
            w.line(&format!("if ver >= {v} then {var} = {x} end"));
            last = x;
        }
    }
}

/// The versions at which the block's fields change, ascending.
fn field_versions(block: &Block) -> Vec<u32> {
    let mut v: Vec<u32> = block.fields.iter().map(|f| f.since_version).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Lua `if ver >= N then` around what `body` writes, when `since` is
/// above `floor`.
fn since(w: &mut Lua, since: u32, floor: u32, body: impl FnOnce(&mut Lua)) {
    if since > floor {
        w.open(&format!("if ver >= {since} then"));
        body(w);
        w.close("end");
    } else {
        body(w);
    }
}

/// Which fields of `block` a field decimal of it or of its groups'
/// entries (any depth) reads its exponent from ([`Exponent::Field`]).
fn exponent_fields(block: &Block) -> Vec<bool> {
    fn mark(b: &Block, depth: usize, marks: &mut [bool]) {
        for f in &b.fields {
            if let Meaning::Decimal(d) = &f.meaning {
                if let Exponent::Field(r) = d.exponent {
                    if r.up == depth {
                        if let Some(m) = marks.get_mut(r.field) {
                            *m = true;
                        }
                    }
                }
            }
        }
        for g in &b.groups {
            mark(&g.block, depth + 1, marks);
        }
    }
    let mut marks = vec![false; block.fields.len()];
    mark(block, 0, &mut marks);
    marks
}

impl Gen {
    /// The key of `EXP` (the prelude's) holding the exponent field `r`
    /// names, from the block being generated.
    pub(crate) fn exponent_key(&self, r: FieldRef) -> Option<String> {
        let depth = self.exp_blocks.len().checked_sub(1)?.checked_sub(r.up)?;
        let block = self.exp_blocks.get(depth)?;
        Some(format!("\"{block}_{}\"", r.field))
    }

    /// The functions of `message` (its groups first) into `out`.
    pub(crate) fn message(&mut self, s: &Sch, m: &Message, out: &mut Vec<String>) -> String {
        let name = format!("{}_{}", s.tag, identifier(&m.name));
        let mut w = Lua::default();
        w.line(&format!(
            "-- message {} (templateId {}): block length {} at schema version {}",
            m.name, m.id, m.block.block_length, s.schema.version
        ));
        w.open(&format!("local function {name}(tvb, t, b, ver, blen, lim)"));
        self.exp_next += 1;
        self.exp_blocks.push(self.exp_next);
        w.line(&format!("blen = blen or {}", m.block.block_length));
        self.block_checks(&mut w, &m.block, &m.name, "t", "blen");
        w.line(&format!(
            "if b + blen > lim then return bad(t, E.truncated, {:?} .. blen .. \" bytes, \" .. (lim - b) .. \" left\") end", format!("{} block: ", m.name)));
        self.fields(s, &mut w, &m.block, "t", "b");
        w.line("local o = b + blen");
        self.sections(s, &mut w, &m.block, &name, "t", out);
        self.exp_blocks.pop();
        w.line("return o");
        w.close("end");
        w.out
    }

    /// The block-length check of a block at the acting version.
    fn block_checks(&mut self, w: &mut Lua, block: &Block, what: &str, t: &str, blen: &str) {
        let versions = field_versions(block);
        by_version(w, "need", &versions, |v| block.end_at(v));
        w.line(&format!(
            "if {blen} < need then return bad({t}, E.short_block, {:?} .. {blen} .. \" is shorter than the \" .. need .. \" bytes its fields need\") end", format!("{}: block length ", what)));
    }

    /// Lua adding every field of `block` (those of the acting version)
    /// at `b` under `t`.
    fn fields(&mut self, s: &Sch, w: &mut Lua, block: &Block, t: &str, b: &str) {
        let marks = exponent_fields(block);
        for (i, f) in block.fields.iter().enumerate() {
            self.field(s, w, f, block.since_version, t, b);
            if marks.get(i).copied().unwrap_or(false) {
                self.publish_exponent(s, w, f, i, block.since_version, b);
            }
        }
    }

    /// Lua keeping the value of exponent field `f` (the `i`th of its
    /// block, an `int8`) in `EXP` for the field decimals that read it:
    /// `nil` where it is null or newer than the acting version.
    fn publish_exponent(&mut self, s: &Sch, w: &mut Lua, f: &Field, i: usize, floor: u32, b: &str) {
        let Some(key) = self.exponent_key(FieldRef { up: 0, field: i }) else {
            return;
        };
        let TypeKind::Encoded(e) = &f.ty.kind else {
            return;
        };
        w.line(&format!("EXP[{key}] = nil"));
        let at = plus(b, f.offset);
        let value = super::values::read(e.primitive, &at, s.le);
        let optional = f.presence == Presence::Optional || e.presence == Presence::Optional;
        let null = match e.null() {
            sbe_ir::ir::Scalar::Int(n) if optional => Some(n),
            _ => None,
        };
        since(w, f.since_version, floor, |w| match null {
            Some(n) => w.line(&format!(
                "do local x = {value}; if x ~= {n} then EXP[{key}] = x end end"
            )),
            None => w.line(&format!("EXP[{key}] = {value}")),
        });
    }

    fn field(&mut self, s: &Sch, w: &mut Lua, f: &Field, floor: u32, t: &str, b: &str) {
        let v = Val {
            ty: &f.ty,
            path: f.name.clone(),
            name: &f.name,
            type_name: &f.type_name,
            presence: f.presence,
            meaning: &f.meaning,
            const_value: f.const_value.as_ref(),
        };
        let v = match (&f.ty.kind, f.presence, &v.const_value) {
            // A constant enum field names its value (valueRef).
            (TypeKind::Enum(_), Presence::Constant, None) => return,
            _ => v,
        };
        w.line(&format!(
            "-- field {} (id {}), {}",
            f.name, f.id, f.type_name
        ));
        since(w, f.since_version, floor, |w| {
            self.value(s, w, &v, t, &plus(b, f.offset))
        });
    }

    /// Lua reading the groups, then the var data, after a block; `o` is
    /// where they start and ends where they end.
    fn sections(
        &mut self,
        s: &Sch,
        w: &mut Lua,
        block: &Block,
        owner: &str,
        t: &str,
        out: &mut Vec<String>,
    ) {
        for g in &block.groups {
            let name = format!("{owner}_{}", identifier(&g.name));
            let f = self.group(s, g, &name, out);
            out.push(f);
            since(w, g.block.since_version, block.since_version, |w| {
                w.line(&format!("o = {name}(tvb, {t}, o, ver, lim)"));
                w.line("if not o then return nil end");
            });
        }
        for d in &block.data {
            since(w, d.since_version, block.since_version, |w| {
                self.data(s, w, d, t)
            });
        }
    }

    /// The function of group `g` (nested groups first into `out`).
    fn group(&mut self, s: &Sch, g: &Group, name: &str, out: &mut Vec<String>) -> String {
        let dim = g.dimension(s.schema.byte_order);
        let mut w = Lua::default();
        w.line(&format!(
            "-- group {} (id {}): entries of block length {}",
            g.name, g.id, g.block.block_length
        ));
        w.open(&format!("local function {name}(tvb, t, o, ver, lim)"));
        w.line(&format!(
            "if o + {} > lim then return bad(t, E.truncated, {:?} .. (lim - o) .. \" left\") end",
            dim.len,
            format!("{}: the dimension needs {} bytes, ", g.name, dim.len),
        ));
        w.line(&format!("local bl = {}", read_slot(dim.block_length, "o")));
        w.line(&format!("local n = {}", read_slot(dim.count, "o")));
        let gf = self.group_item(s, g);
        // An item not wanted is its parent (see the prelude's `W`).
        w.line("local g = t");
        w.open(&format!("if W[{gf}] then"));
        w.line(&format!("g = ADD(t, F[{gf}], RANGE(tvb, o, {}))", dim.len));
        w.line(&format!(
            "SET_TEXT(g, {:?} .. int(n) .. \" entries\")",
            format!("{}: ", g.name)
        ));
        w.close("end");
        let dv = Val {
            ty: &g.dimension_type,
            path: self.fields.path_of(gf),
            name: &g.name,
            type_name: &g.dimension_type.name,
            presence: Presence::Required,
            meaning: &g.dimension_type.meaning,
            const_value: None,
        };
        if let TypeKind::Composite(c) = &g.dimension_type.kind {
            for m in &c.members {
                let mv = super::values::member_val(&dv.path, m);
                self.value(s, &mut w, &mv, "g", &plus("o", m.offset));
            }
        }
        w.line(&format!(
            "if n > {} then return bad(g, E.count, {:?} .. n .. \" is above its maximum {}\") end",
            dim.max_count,
            format!("{}: count ", g.name),
            dim.max_count
        ));
        self.block_checks(&mut w, &g.block, &g.name, "g", "bl");
        let tail_versions = g.entry_tail_versions();
        by_version(&mut w, "tail", &tail_versions, |v| {
            g.entry_tail(v.max(g.block.since_version))
        });
        w.line(&format!("local start = o\no = o + {}", dim.len));
        w.line(&format!(
            "if n * (bl + tail) > lim - o then return bad(g, E.count, {:?} .. n .. \" needs \" .. n * (bl + tail) .. \" bytes, \" .. (lim - o) .. \" left\") end", format!("{}: count ", g.name)));
        let ef = self.entry_item(s, g, gf);
        self.exp_next += 1;
        self.exp_blocks.push(self.exp_next);
        w.open("for i = 0, n - 1 do");
        w.line("local b = o");
        w.line("local e = g");
        w.open(&format!("if W[{ef}] then"));
        w.line(&format!("e = ADD(g, F[{ef}], RANGE(tvb, o, bl))"));
        w.line("SET_TEXT(e, \"entry \" .. int(i))");
        w.close("end");
        self.fields(s, &mut w, &g.block, "e", "b");
        w.line("o = b + bl");
        self.sections(s, &mut w, &g.block, name, "e", out);
        w.line("if e ~= g then SET_LEN(e, o - b) end");
        w.close("end");
        self.exp_blocks.pop();
        w.line("if g ~= t then SET_LEN(g, o - start) end");
        w.line("return o");
        w.close("end");
        w.out
    }

    fn group_item(&mut self, s: &Sch, g: &Group) -> usize {
        self.none_item(s, &g.name, &g.name, &g.name)
    }

    fn entry_item(&mut self, s: &Sch, g: &Group, group_field: usize) -> usize {
        let path = format!("{}.entry", self.fields.path_of(group_field));
        self.none_item(s, &path, "entry", &g.name)
    }

    /// An item that holds others (FT_NONE).
    pub(crate) fn none_item(&mut self, s: &Sch, path: &str, name: &str, type_name: &str) -> usize {
        let proto = self.proto.clone();
        self.fields.field(
            &proto,
            &super::names::Decl {
                path,
                type_name,
                schema_id: s.id,
                ctor: "none",
                name,
                rest: String::new(),
            },
        )
    }

    /// Lua reading var data `d` at `o` under `t`: its bytes (text when it
    /// has a character encoding) with its length beneath.
    fn data(&mut self, s: &Sch, w: &mut Lua, d: &Data, t: &str) {
        let vd = d.var_data(s.schema.byte_order);
        let text = d.character_encoding.is_some();
        let (ctor, rest) = if text {
            ("string", String::new())
        } else {
            ("bytes", String::new())
        };
        let proto = self.proto.clone();
        let encoding_name = d.encoding_type.name.clone();
        let f = self.fields.field(
            &proto,
            &super::names::Decl {
                path: &d.name,
                type_name: &encoding_name,
                schema_id: s.id,
                ctor,
                name: &d.name,
                rest,
            },
        );
        let doff = vd.data_offset;
        w.line(&format!(
            "-- data {} (id {}), {}",
            d.name, d.id, encoding_name
        ));
        w.open("do");
        w.line(&format!(
            "if o + {doff} > lim then return bad({t}, E.truncated, {:?} .. (lim - o) .. \" left\") end", format!("{}: the length needs {doff} bytes, ", d.name)));
        w.line(&format!("local n = {}", read_slot(vd.length, "o")));
        w.line(&format!(
            "if n > {} then return bad({t}, E.count, {:?} .. n .. \" is above its maximum {}\") end", vd.max_length, format!("{}: length ", d.name), vd.max_length));
        w.line(&format!(
            "if n > lim - o - {doff} then return bad({t}, E.count, {:?} .. n .. \" is larger than the \" .. (lim - o - {doff}) .. \" bytes left\") end", format!("{}: length ", d.name)));
        w.line(&format!("local d = {t}"));
        w.open(&format!("if W[{f}] then"));
        w.line(&format!("local r = RANGE(tvb, o + {doff}, n)"));
        if text {
            let enc = text_encoding(d.character_encoding.as_deref());
            w.line("local s = \"\"");
            w.line(&format!("if n > 0 then s = r:string({enc}) end"));
            w.line(&format!("d = ADD({t}, F[{f}], r, s)"));
        } else {
            w.line(&format!("d = ADD({t}, F[{f}], r)"));
        }
        w.close("end");
        let dv_path = self.fields.path_of(f);
        if let TypeKind::Composite(c) = &d.encoding_type.kind {
            for m in &c.members {
                let TypeKind::Encoded(e) = &m.ty.kind else {
                    continue;
                };
                if e.var_len {
                    continue;
                }
                let mv = super::values::member_val(&dv_path, m);
                self.value(s, w, &mv, "d", &plus("o", m.offset));
            }
        }
        w.line(&format!("o = o + {doff} + n"));
        w.close("end");
    }
}
