//! Messages and groups as blocks: what the decoder and the encoder of a
//! root block or a group entry are made from (fields, groups, var data and
//! their Rust names), and the order in which the types of every message
//! are generated. What each type looks like is in the module that
//! generates it: `decoder` (root and entry decoders), `groups` (group
//! iterators), `encoders`.

use std::ops::Range;

use proc_macro2::{Ident, TokenStream};
use quote::format_ident;

use super::decoder::{block_decoder, Owner};
use super::encoders;
use super::groups;
use super::names::{self, Scope};
use super::Ctx;
use crate::ir::{self, Group, Message, Presence, Primitive, TypeKind};

/// Method names of decoders and encoders (their own, and those of the
/// `sbe_rt` traits they implement, which an inherent method of the same
/// name would hide), and trait method names clippy wants implemented as
/// traits: a field never takes one of these.
const RESERVED: &[&str] = &[
    "decode",
    "wrap",
    "wrap_at",
    "header",
    "acting_version",
    "encoded_length",
    "exact_length",
    "entry_length",
    "wrap_exact",
    "write_json",
    "visit",
    "to_json",
    "skip",
    "open",
    "from_block",
    "sbe_step",
    "sbe_end",
    "sbe_at",
    "sbe_owned",
    "checked_length",
    "at",
    "required",
    "finish",
    "advance",
    "next_entry",
    "new",
    "buf",
    "fmt",
    "deref",
    "deref_mut",
    "borrow",
    "borrow_mut",
    "as_ref",
    "as_mut",
    "clone",
    "hash",
    "eq",
    "cmp",
    "partial_cmp",
    "default",
    "drop",
    "from_str",
    "from_iter",
    "into_iter",
    "next",
    "not",
    "neg",
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "shl",
    "shr",
    "bitand",
    "bitor",
    "bitxor",
    "index",
    "index_mut",
    "to_owned",
    "type_id",
];

/// Generated messages.
pub(crate) struct Messages {
    /// All the tokens.
    pub tokens: TokenStream,
    /// (message, decoder ident) for dispatch.
    pub decoders: Vec<(usize, Ident)>,
}

/// A root block or group entry (the IR's [`ir::Block`], which it
/// dereferences to) with what its decoder and encoder are made of besides:
/// its owner's name and docs, and its Rust names.
pub(super) struct NamedBlock<'s> {
    /// Schema name of the message or group.
    pub name: &'s str,
    /// The block's fields, groups and var data.
    pub block: &'s ir::Block,
    /// The schema version from which the block is there (0 for a root
    /// block, a group's `sinceVersion`): a field, group or var data newer
    /// than that is absent from older messages, which read it as `None`.
    pub base_since: u32,
    pub deprecated: Option<u32>,
    pub description: Option<&'s str>,
    /// The message's or group's number among the schema's elements, which
    /// its errors name.
    pub element: u16,
    /// The names of its accessors and setters, the same in decoder and
    /// encoder.
    pub names: BlockNames,
}

/// Rust names of the methods for a block's fields, groups and var data.
#[derive(Default)]
pub(super) struct BlockNames {
    pub fields: Vec<Accessor>,
    pub groups: Vec<Ident>,
    pub data: Vec<Accessor>,
}

/// The name of a field's or var data's accessor (and setter), of its
/// `_str` twin where the bytes are text, and of its `_value` twin where an
/// integer is a timestamp or date.
pub(super) struct Accessor {
    pub name: Ident,
    pub text: Option<Ident>,
    pub value: Option<Ident>,
}

impl std::ops::Deref for NamedBlock<'_> {
    type Target = ir::Block;

    /// The block's fields, groups, var data and sections, as the IR has
    /// them.
    fn deref(&self) -> &ir::Block {
        self.block
    }
}

impl<'s> NamedBlock<'s> {
    /// The root block of message `m`.
    pub(super) fn message(m: &'s Message) -> Self {
        NamedBlock::new(NamedBlock {
            name: &m.name,
            block: &m.block,
            // A root block is read at any version: everything newer than
            // the oldest message is gated.
            base_since: 0,
            deprecated: m.deprecated,
            description: m.description.as_deref(),
            element: m.element,
            names: BlockNames::default(),
        })
    }

    /// An entry of group `g`.
    pub(super) fn group(g: &'s Group) -> Self {
        NamedBlock::new(NamedBlock {
            name: &g.name,
            block: &g.block,
            base_since: g.block.since_version,
            deprecated: g.deprecated,
            description: g.description.as_deref(),
            element: g.element,
            names: BlockNames::default(),
        })
    }

    /// `block` with its names claimed.
    fn new(mut block: NamedBlock<'s>) -> Self {
        block.names = block_names(&block);
        block
    }

    /// The schema's block length, as generated code uses lengths.
    pub fn block_len(&self) -> usize {
        self.block.block_length as usize
    }

    /// Whether an item since schema version `since` is absent from some
    /// messages that have the block.
    pub fn is_gated(&self, since: u32) -> bool {
        since > self.base_since
    }

    /// Bytes of the fields present whenever the block is.
    pub fn base_len(&self) -> usize {
        self.end_for(self.base_since)
    }

    /// Where the fields of schema version `version` end in the block.
    pub fn end_for(&self, version: u32) -> usize {
        self.block.end_at(version) as usize
    }

    /// Whether a field on the wire is newer than the block: the decoder
    /// then keeps the whole block, not only its base.
    pub fn has_ext(&self) -> bool {
        self.fields
            .iter()
            .any(|f| self.is_gated(f.since_version) && f.encoded_length > 0)
    }

    /// Whether a field on the wire is as old as the block: the decoder then
    /// keeps the base as a fixed-size array.
    pub fn uses_base(&self) -> bool {
        self.fields
            .iter()
            .any(|f| !self.is_gated(f.since_version) && f.encoded_length > 0)
    }

    /// Whether a field has bytes to set (not every field is a constant).
    pub fn has_setters(&self) -> bool {
        has_setters(self.block)
    }
}

/// Whether a field of `block` has bytes to set.
fn has_setters(block: &ir::Block) -> bool {
    block.fields.iter().any(|f| f.encoded_length > 0)
}

/// Whether a group whose entries are `block` has them all of one size (no
/// nested group or var data) and written by setters: its encoder then
/// has `sbe_each`, which the owned entries are written with.
pub(super) fn entries_of_one_size(block: &ir::Block) -> bool {
    block.groups.is_empty() && block.data.is_empty() && has_setters(block)
}

/// Claims the method names of `b`'s fields, groups and var data, in schema
/// order, after the names the generated code uses itself.
fn block_names(b: &NamedBlock) -> BlockNames {
    let mut scope = Scope::with(RESERVED);
    // A root decoder reads var data `j` through a private `sbe_d{j}`.
    for j in 0..b.data.len() {
        scope.claim(&format!("sbe_d{j}"));
    }
    let fields = b
        .fields
        .iter()
        .map(|f| {
            let base = names::snake(&f.name);
            let name = names::ident(&scope.claim(&base));
            let is_char_array = match &f.ty.kind {
                TypeKind::Encoded(e) => {
                    e.primitive == Primitive::Char
                        && e.length > 1
                        && f.presence != Presence::Constant
                }
                _ => false,
            };
            let text = is_char_array.then(|| names::ident(&scope.claim(&format!("{base}_str"))));
            let value = super::typed::field_has_value(f)
                .then(|| names::ident(&scope.claim(&format!("{base}_value"))));
            Accessor { name, text, value }
        })
        .collect();
    let groups = b
        .groups
        .iter()
        .map(|g| names::ident(&scope.claim(&names::snake(&g.name))))
        .collect();
    let data = b
        .data
        .iter()
        .map(|d| {
            let base = names::snake(&d.name);
            let name = names::ident(&scope.claim(&base));
            let text = d
                .character_encoding
                .is_some()
                .then(|| names::ident(&scope.claim(&format!("{base}_str"))));
            Accessor {
                name,
                text,
                value: None,
            }
        })
        .collect();
    BlockNames {
        fields,
        groups,
        data,
    }
}

/// The decoders and encoders of every message.
///
/// Only the messages whose index is in `emit` get code; the others only
/// claim their names (in schema order, so every name is the same whichever
/// part of the file is being generated), and all are in `decoders`.
pub(crate) fn all(ctx: &mut Ctx, emit: Range<usize>) -> Messages {
    let mut out = Messages {
        tokens: TokenStream::new(),
        decoders: Vec::new(),
    };
    let schema = ctx.schema;
    for (i, m) in schema.messages.iter().enumerate() {
        let mut suffixes = vec!["Decoder".to_string(), "Encoder".into()];
        suffixes.extend(stage_suffixes(&m.block, "Encoder").into_iter().skip(1));
        let suffixes: Vec<&str> = suffixes.iter().map(String::as_str).collect();
        let stem = ctx.claim_family(&names::camel(&m.name), &suffixes);
        let decoder = format_ident!("{stem}Decoder");
        if !emit.contains(&i) {
            claim_groups(ctx, &m.block.groups, &stem);
            out.decoders.push((i, decoder));
            continue;
        }
        let block = NamedBlock::message(m);
        let encoder = format_ident!("{stem}Encoder");
        let mut stages = stage_idents(&m.block, &stem, "Encoder");
        if stages.is_empty() {
            stages.push(encoder.clone());
        }
        // Nested types first, so each type follows the types it uses.
        let chain = [(&m.block, block.base_since)];
        let groups = group_types(ctx, &block, (&stem, &stages), &chain, &mut out.tokens);
        out.tokens.extend(block_decoder(
            ctx,
            &block,
            &decoder,
            Owner::Message(m),
            &groups,
        ));
        out.tokens.extend(encoders::message_encoder(
            ctx,
            &block,
            (&stages, &decoder),
            m,
            &groups,
        ));
        if ctx.opts.owned {
            let owned = format_ident!("{stem}");
            out.tokens.extend(super::owned::block(
                ctx,
                &block,
                (&owned, &decoder, &encoder),
                None,
                &chain,
                &groups,
            ));
        }
        out.decoders.push((i, decoder));
    }
    out
}

/// Claims the names `group_types` would, in the same order, without
/// generating anything.
fn claim_groups(ctx: &mut Ctx, groups: &[Group], stem: &str) {
    for g in groups {
        let group_stem = claim_group(ctx, stem, g);
        claim_groups(ctx, &g.block.groups, &group_stem);
    }
}

/// Claims the stem of group `g` of the block named `stem` (its types are
/// the stem with `Decoder`, `Entry` and `Encoder`).
pub(super) fn claim_group(ctx: &mut Ctx, stem: &str, g: &Group) -> String {
    let mut suffixes = vec!["Decoder".to_string(), "Entry".into(), "Encoder".into()];
    suffixes.extend(stage_suffixes(&g.block, "EntryEncoder"));
    let suffixes: Vec<&str> = suffixes.iter().map(String::as_str).collect();
    ctx.claim_family(&format!("{stem}{}", names::camel(&g.name)), &suffixes)
}

/// The suffixes of the names of the encoder stages of `block` (a root
/// block or group entry with groups or var data; none without), after its
/// stem: the first stage, `first` itself (`Encoder`, `EntryEncoder`),
/// then one per section after the first, named for the section it stands
/// before (`EncoderAtPerformanceFigures`), then the stage after the last
/// (`EncoderAtEnd`). A message's first stage is its encoder, claimed with
/// it.
pub(super) fn stage_suffixes(block: &ir::Block, first: &str) -> Vec<String> {
    if block.sections() == 0 {
        return Vec::new();
    }
    let mut scope = Scope::default();
    let mut out = vec![first.to_string()];
    let names = block.groups.iter().map(|g| &g.name);
    let names = names.chain(block.data.iter().map(|d| &d.name)).skip(1);
    for name in names {
        out.push(format!("{first}At{}", scope.claim(&names::camel(name))));
    }
    out.push(format!("{first}At{}", scope.claim("End")));
    out
}

/// The identifiers of the encoder stages of a block whose types are named
/// from `stem` (see [`stage_suffixes`]).
pub(super) fn stage_idents(block: &ir::Block, stem: &str, first: &str) -> Vec<Ident> {
    stage_suffixes(block, first)
        .iter()
        .map(|s| format_ident!("{stem}{s}"))
        .collect()
}

/// Rust names of a group's types.
pub(super) struct GroupIdents {
    /// The iterator over its entries (`…Decoder`).
    pub iter: Ident,
    /// The decoder of one entry (`…Entry`).
    pub entry: Ident,
    /// The encoder (`…Encoder`).
    pub enc: Ident,
    /// The owned entry (the stem).
    pub owned: Ident,
    /// The stages of an entry's encoder (`…EntryEncoder`, then one per
    /// section it has, see [`stage_suffixes`]); none where the entry has
    /// no group or var data (the group's encoder writes it).
    pub stages: Vec<Ident>,
}

/// Generates the types of every group of `b` (recursively, nested groups
/// first) into `out` and returns their names. `chain`: `b` and the blocks
/// enclosing it, outermost first, each with its `base_since` (one: `b` is
/// a root block).
fn group_types(
    ctx: &mut Ctx,
    b: &NamedBlock,
    (stem, stages): (&str, &[Ident]),
    chain: &[super::owned::Level],
    out: &mut TokenStream,
) -> Vec<GroupIdents> {
    let top = chain.len() == 1;
    let mut idents = Vec::new();
    for (section, g) in b.groups.iter().enumerate() {
        let group_stem = claim_group(ctx, stem, g);
        let entry = NamedBlock::group(g);
        let group = GroupIdents {
            iter: format_ident!("{group_stem}Decoder"),
            entry: format_ident!("{group_stem}Entry"),
            enc: format_ident!("{group_stem}Encoder"),
            owned: format_ident!("{group_stem}"),
            stages: stage_idents(&g.block, &group_stem, "EntryEncoder"),
        };
        let mut inner: Vec<super::owned::Level> = chain.to_vec();
        inner.push((&g.block, entry.base_since));
        let nested = group_types(ctx, &entry, (&group_stem, &group.stages), &inner, out);
        out.extend(groups::group_iter(g, &group, top));
        out.extend(block_decoder(
            ctx,
            &entry,
            &group.entry,
            Owner::Group(g),
            &nested,
        ));
        if let Some(next) = stages.get(section + 1) {
            let last = section + 1 == b.sections();
            let at = encoders::Position {
                top,
                section,
                last,
                next,
            };
            out.extend(encoders::group_encoder(
                ctx,
                (g, at),
                &entry,
                &group,
                &nested,
            ));
        }
        if ctx.opts.owned {
            out.extend(super::owned::block(
                ctx,
                &entry,
                (&group.owned, &group.entry, &group.enc),
                group.stages.first(),
                &inner,
                &nested,
            ));
        }
        idents.push(group);
    }
    idents
}
