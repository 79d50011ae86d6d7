//! IR → plan: the steps of a message, its literal text rendered once.

use sbe_ir::ir::{
    encoded_length, Block, ByteOrder, Encoded, Message, Presence, Primitive, Type, TypeKind,
};

use super::{BlockPlan, DataPlan, GroupPlan, MessagePlan, Op, Span, Step};
use crate::decode::{render_constant, render_value};
use crate::{int_null, is_utf8, Codec};

/// Steps past which a template is left to the walk (a schema of huge
/// arrays would make a plan larger than it is worth).
const MAX_STEPS: usize = 1 << 16;

/// The plan of `message`, or `None` when it is too large to be worth one.
pub(crate) fn compile(codec: &Codec<'_>, message: &Message) -> Option<MessagePlan> {
    let mut b = Builder {
        order: codec.order,
        plan: MessagePlan {
            since: 0,
            header: Vec::new(),
            root: BlockPlan::default(),
            pool: Vec::new(),
            tables: Vec::new(),
            enums: Vec::new(),
            sets: Vec::new(),
            enc: None,
        },
        pending: Vec::new(),
        steps: Vec::new(),
        count: 0,
    };
    b.lit(b"\"message\":");
    b.lit(&json_str(&message.name));
    b.lit(b",\"header\":");
    b.composite(&codec.schema.header_type, 0, codec.header_len);
    b.lit(b",\"body\":{");
    b.plan.header = b.take_steps();
    b.plan.root = b.block(&message.block);
    b.plan.since = since(&message.block);
    b.plan.enc = super::encode::compile(codec, message, b.plan.since);
    // Every span's first `WIDE` bytes can be read (`MessagePlan::put`).
    b.plan
        .pool
        .resize(b.plan.pool.len() + crate::json_buf::WIDE, 0);
    (b.count <= MAX_STEPS).then_some(b.plan)
}

/// The newest `sinceVersion` of anything in `block`: from that acting
/// version on, every part of it is on the wire.
fn since(block: &Block) -> u32 {
    let fields = block.fields.iter().map(|f| f.since_version);
    let groups = block
        .groups
        .iter()
        .map(|g| g.block.since_version.max(since(&g.block)));
    let data = block.data.iter().map(|d| d.since_version);
    fields.chain(groups).chain(data).max().unwrap_or(0)
}

/// A JSON string, escaped as the walk's writer escapes it.
fn json_str(s: &str) -> Vec<u8> {
    let mut w = sbe_rt::JsonWriter::new();
    w.str(s);
    w.finish().into_bytes()
}

/// `"name":`, as the walk's writer writes a key.
fn json_key(name: &str) -> Vec<u8> {
    let mut w = sbe_rt::JsonWriter::new();
    w.begin_object().key(name);
    w.finish().into_bytes().split_off(1)
}

struct Builder {
    order: ByteOrder,
    plan: MessagePlan,
    /// Literal text since the last step.
    pending: Vec<u8>,
    steps: Vec<Step>,
    count: usize,
}

impl Builder {
    fn span(&mut self, bytes: &[u8]) -> Span {
        let start = u32::try_from(self.plan.pool.len()).unwrap_or(u32::MAX);
        self.plan.pool.extend_from_slice(bytes);
        Span {
            start,
            len: u32::try_from(bytes.len()).unwrap_or(0),
        }
    }

    fn lit(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    fn op(&mut self, op: Op) {
        let pending = std::mem::take(&mut self.pending);
        let lit = self.span(&pending);
        self.pending = pending;
        self.pending.clear();
        self.steps.push(Step { lit, op });
        self.count += 1;
    }

    /// The steps so far, the literal text after the last value included.
    fn take_steps(&mut self) -> Vec<Step> {
        if !self.pending.is_empty() {
            self.op(Op::None);
        }
        std::mem::take(&mut self.steps)
    }

    fn block(&mut self, block: &Block) -> BlockPlan {
        let outer = std::mem::take(&mut self.steps);
        let outer_pending = std::mem::take(&mut self.pending);
        let mut members = 0usize;
        for f in &block.fields {
            self.comma(&mut members);
            self.lit(&json_key(&f.name));
            if f.presence == Presence::Constant {
                self.lit(&render_constant(&f.ty, f.const_value.as_ref()));
                continue;
            }
            let optional = f.presence == Presence::Optional;
            self.value(
                &f.ty,
                f.offset as usize,
                f.encoded_length as usize,
                optional,
            );
        }
        let steps = self.take_steps();
        let mut groups = Vec::new();
        for g in &block.groups {
            let mut key = if members > 0 {
                b",".to_vec()
            } else {
                Vec::new()
            };
            members += 1;
            key.extend_from_slice(&json_key(&g.name));
            key.push(b'[');
            let key = self.span(&key);
            groups.push(GroupPlan {
                key,
                dim: g.dimension(self.order),
                tail: g.entry_tail(u32::MAX) as usize,
                block: self.block(&g.block),
            });
        }
        let mut data = Vec::new();
        for d in &block.data {
            let mut key = if members > 0 {
                b",".to_vec()
            } else {
                Vec::new()
            };
            members += 1;
            key.extend_from_slice(&json_key(&d.name));
            let key = self.span(&key);
            let enc = d.character_encoding.as_deref();
            data.push(DataPlan {
                key,
                lay: d.var_data(self.order),
                text: d.character_encoding.as_ref().map(|_| is_utf8(enc)),
            });
        }
        self.steps = outer;
        self.pending = outer_pending;
        BlockPlan {
            required: block.end_at(u32::MAX) as usize,
            steps,
            groups,
            data,
        }
    }

    /// A `,` before every member of an object but the first.
    fn comma(&mut self, members: &mut usize) {
        if *members > 0 {
            self.lit(b",");
        }
        *members += 1;
    }

    /// A value of type `ty` in the `len` bytes at `at` (as the walk's
    /// `value` reads it).
    fn value(&mut self, ty: &Type, at: usize, len: usize, optional: bool) {
        match &ty.kind {
            TypeKind::Composite(_) => return self.composite(ty, at, len),
            TypeKind::Encoded(e) if e.presence == Presence::Constant => {
                return self.lit(&render_value(self.order, ty, &[], optional));
            }
            _ => {}
        }
        if len <= 1 {
            return self.table(ty, at, len, optional);
        }
        match &ty.kind {
            TypeKind::Encoded(e) => {
                self.encoded(e, at, len, optional || e.presence == Presence::Optional)
            }
            TypeKind::Enum(en) if len >= en.encoding.size() as usize => {
                let mut names: Vec<(i128, Span)> = Vec::new();
                for v in &en.values {
                    // The walk shows the first value of a number.
                    if names.iter().all(|(n, _)| *n != v.value) {
                        let s = self.span(&json_str(&v.name));
                        names.push((v.value, s));
                    }
                }
                names.sort_by_key(|(n, _)| *n);
                self.plan.enums.push(names);
                let nullable = optional || en.presence == Presence::Optional;
                self.op(Op::Enum {
                    slot: en.encoding.slot(self.order, at),
                    prim: en.encoding,
                    names: self.plan.enums.len() - 1,
                    null: nullable.then_some(en.null_value),
                });
            }
            TypeKind::Set(s) if len >= s.encoding.size() as usize => {
                let choices = s
                    .choices
                    .iter()
                    .map(|c| (c.bit, self.span(&json_str(&c.name))))
                    .collect();
                self.plan.sets.push(choices);
                self.op(Op::Set {
                    slot: s.encoding.slot(self.order, at),
                    prim: s.encoding,
                    width: s.encoding.size() * 8,
                    choices: self.plan.sets.len() - 1,
                });
            }
            // Too short for its encoding: the same text whatever the bytes.
            _ => self.lit(&render_value(self.order, ty, &vec![0; len], optional)),
        }
    }

    /// A value of at most one byte: the walk's text for each byte value.
    fn table(&mut self, ty: &Type, at: usize, len: usize, optional: bool) {
        if len == 0 {
            return self.lit(&render_value(self.order, ty, &[], optional));
        }
        let mut table = [Span::default(); 256];
        for (b, slot) in table.iter_mut().enumerate() {
            let text = render_value(self.order, ty, &[b as u8], optional);
            *slot = self.span(&text);
        }
        self.plan.tables.push(table);
        self.op(Op::Table {
            at,
            table: self.plan.tables.len() - 1,
        });
    }

    fn composite(&mut self, ty: &Type, at: usize, len: usize) {
        self.lit(b"{");
        if let TypeKind::Composite(c) = &ty.kind {
            for (i, m) in c.members.iter().enumerate() {
                if i > 0 {
                    self.lit(b",");
                }
                self.lit(&json_key(&m.ty.name));
                let mlen = encoded_length(&m.ty).unwrap_or(0) as usize;
                let off = m.offset as usize;
                let fits = off <= len && mlen <= len - off;
                if fits {
                    self.value(&m.ty, at + off, mlen, false);
                } else if mlen != 0 {
                    self.lit(b"null");
                } else {
                    self.lit(&render_value(self.order, &m.ty, &[], false));
                }
            }
        }
        self.lit(b"}");
    }

    /// An encoded type of more than one byte.
    fn encoded(&mut self, e: &Encoded, at: usize, len: usize, optional: bool) {
        let p = e.primitive;
        if p == Primitive::Char {
            let null = u8::try_from(int_null(e).unwrap_or(0)).unwrap_or(0);
            return self.op(Op::Chars {
                at,
                len,
                optional,
                one: (e.length == 1).then_some(null),
                utf8: is_utf8(e.character_encoding.as_deref()),
            });
        }
        if e.length == 1 {
            return self.scalar(e, at, len, optional);
        }
        let size = p.size().max(1) as usize;
        self.lit(b"[");
        for i in 0..len / size {
            if i > 0 {
                self.lit(b",");
            }
            self.scalar(e, at + i * size, size, optional);
        }
        self.lit(b"]");
    }

    fn scalar(&mut self, e: &Encoded, at: usize, len: usize, optional: bool) {
        let p = e.primitive;
        if len < p.size() as usize {
            return self.lit(b"null");
        }
        let slot = p.slot(self.order, at);
        let op = match p {
            Primitive::Float => Op::Float {
                slot,
                null: optional.then(|| e.null().as_f64() as f32),
            },
            Primitive::Double => Op::Double {
                slot,
                null: optional.then(|| e.null().as_f64()),
            },
            _ => Op::Int {
                slot,
                sign_shift: p.is_signed().then(|| 64 - 8 * p.size().min(8)),
                null: if optional {
                    int_null(e).map(|v| wire_bits(v, p.size()))
                } else {
                    None
                },
            },
        };
        self.op(op);
    }
}

/// The `size` low bytes of `v`'s two's complement: the bits a slot of
/// that width reads for the value `v`.
fn wire_bits(v: i128, size: u32) -> u64 {
    let bits = v as u64;
    match size {
        1..=7 => bits & ((1u64 << (8 * size)) - 1),
        _ => bits,
    }
}
