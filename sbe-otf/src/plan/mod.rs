//! Each message compiled once into a plan, then run for every message of
//! that template: the fast path of [`Codec::decode_json`](crate::Codec::decode_json),
//! [`Codec::message_length`](crate::Codec::message_length) and
//! [`Codec::encode_text`](crate::Codec::encode_text).
//!
//! A plan is a flat list of [`Step`]s per block: each step is a literal
//! (the JSON text between two values, keys with their quotes and colon,
//! commas, braces and constants, all escaped once when the plan is built)
//! followed by one read of the wire ([`Op`]) at an offset the IR gives, as
//! the slot ([`sbe_rt::wire::Uint`]) of its width and byte order, with its
//! null value. A value of one byte (an enum, a set, a `uint8`, a `char`)
//! is a table of the 256 texts the walk writes for it. Groups and var
//! data keep their dimension and length slots ([`sbe_rt::wire::Dimension`],
//! [`sbe_rt::wire::VarData`]) and are checked with the rules of
//! `sbe_rt::__private::codec`, as the walk and the generated decoders check them.
//!
//! The plan holds for a message whose acting version has every field,
//! group and var data of its template (the schema's version, as a rule);
//! an older one, and every message the plan finds a problem in, is
//! decoded by the walk over the IR (`decode.rs`), which gives the same
//! JSON and says what the problem is. Every text a plan writes without
//! reading the wire was written by that walk when the plan was built, so
//! the two cannot drift apart.

mod compile;
mod decode;
mod encode;
mod scan;

use sbe_ir::ir::Primitive;
use sbe_rt::wire::{Dimension, Uint, VarData};

/// Bytes `start..start + len` of a plan's text pool.
#[derive(Debug, Clone, Copy, Default)]
struct Span {
    start: u32,
    len: u32,
}

/// Read one value from the wire and write its JSON.
#[derive(Debug, Clone)]
enum Op {
    /// Nothing (a step of literal text only).
    None,
    /// An integer at `slot`; `sign_shift`, for a signed one, the bits of
    /// a `u64` above its width (its sign is extended by shifting them
    /// out and back); `null` the wire bits of its null value (as `slot`
    /// reads them) when the field is optional. The bits are compared and
    /// written as read: no widening to `i128` per value.
    Int {
        slot: Uint,
        sign_shift: Option<u32>,
        null: Option<u64>,
    },
    /// A `float`; `null` when optional.
    Float { slot: Uint, null: Option<f32> },
    /// A `double`; `null` when optional.
    Double { slot: Uint, null: Option<f64> },
    /// A one-byte value at `at`: entry `byte` of table `table`.
    Table { at: usize, table: usize },
    /// Characters `at..at + len`, cut at the first NUL; `null` when
    /// optional and empty (`one`: the null byte of a single char).
    Chars {
        at: usize,
        len: usize,
        optional: bool,
        one: Option<u8>,
        utf8: bool,
    },
    /// An enum wider than a byte: its names in `enums[names]`, sorted by
    /// value; `null` its null value when it may be null.
    Enum {
        slot: Uint,
        prim: Primitive,
        names: usize,
        null: Option<i128>,
    },
    /// A set wider than a byte: choices in `sets[choices]`.
    Set {
        slot: Uint,
        prim: Primitive,
        width: u32,
        choices: usize,
    },
}

/// Literal text, then one value.
#[derive(Debug, Clone)]
struct Step {
    lit: Span,
    op: Op,
}

/// A block (the root block, a group's entry): its fields' steps, then
/// its groups and var data.
#[derive(Debug, Clone, Default)]
struct BlockPlan {
    /// The block length the rules require (`Block::end_at`).
    required: usize,
    steps: Vec<Step>,
    groups: Vec<GroupPlan>,
    data: Vec<DataPlan>,
}

#[derive(Debug, Clone)]
struct GroupPlan {
    /// `"name":[` (after a comma when the object has members before it).
    key: Span,
    dim: Dimension,
    /// The bytes after each entry's block (`Group::entry_tail`).
    tail: usize,
    block: BlockPlan,
}

#[derive(Debug, Clone)]
struct DataPlan {
    /// `"name":` (after a comma when the object has members before it).
    key: Span,
    lay: VarData,
    /// Text (UTF-8 or not) or hex.
    text: Option<bool>,
}

/// One template's plan.
#[derive(Debug, Clone)]
pub(crate) struct MessagePlan {
    /// The plan holds from this acting version on.
    since: u32,
    /// `"message":"Name","header":` … the header … `,"body":{`.
    header: Vec<Step>,
    root: BlockPlan,
    /// Text pool of every span.
    pool: Vec<u8>,
    tables: Vec<[Span; 256]>,
    enums: Vec<Vec<(i128, Span)>>,
    sets: Vec<Vec<(u32, Span)>>,
    /// The encoder's plan, when the template has one.
    enc: Option<encode::EncodePlan>,
}

pub(crate) use compile::compile;
pub(crate) use encode::JsonText;

impl MessagePlan {
    fn text(&self, s: Span) -> &[u8] {
        let start = s.start as usize;
        self.pool
            .get(start..start + s.len as usize)
            .unwrap_or_default()
    }
}

impl MessagePlan {
    /// The acting version from which the plan holds.
    pub(crate) fn since(&self) -> u32 {
        self.since
    }

    /// The message in `j` (its `"message"` read) encoded onto `out`.
    pub(crate) fn encode(&self, j: &mut JsonText<'_>, out: &mut Vec<u8>) -> Option<usize> {
        self.enc.as_ref()?.run(j, out)
    }
}

/// `"schema":"label",` (the label escaped as the walk's writer does).
pub(crate) fn schema_label(out: &mut Vec<u8>, label: &str) {
    out.extend_from_slice(b"\"schema\":");
    crate::json::write_str(out, label);
    out.push(b',');
}

#[cfg(test)]
mod tests;
