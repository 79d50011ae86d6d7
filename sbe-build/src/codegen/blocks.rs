//! Messages and groups as blocks: what the decoder and the encoder of a
//! root block or a group entry are made from (fields, groups, var data and
//! their Rust names), and the order in which the types of every message
//! are generated. What each type looks like is in the module that
//! generates it: `decoder` (root and entry decoders), `groups` (group
//! iterators), `encoders`.

use std::ops::Range;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::encoders;
use super::groups;
use super::names::{self, Scope};
use super::values::{getter, plus, str_getter, to_u64, Val};
use super::{deprecated, docs, Ctx};
use crate::ir::{Data, Field, Group, IntSlot, Message, Presence, Primitive, TypeKind};

/// Method names of decoders and encoders, and trait method names clippy
/// wants implemented as traits: a field never takes one of these.
const RESERVED: &[&str] = &[
    "decode",
    "wrap",
    "wrap_at",
    "header",
    "acting_version",
    "encoded_length",
    "write_json",
    "to_json",
    "skip",
    "open",
    "from_block",
    "sbe_step",
    "sbe_end",
    "sbe_walk",
    "sbe_at",
    "sbe_end_at",
    "checked_length",
    "at",
    "required",
    "finish",
    "advance",
    "advance_slow",
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

/// A root block or group entry: what its decoder and encoder are made of.
pub(super) struct Block<'s> {
    /// Schema name of the message or group.
    pub name: &'s str,
    pub fields: &'s [Field],
    pub groups: &'s [Group],
    pub data: &'s [Data],
    /// The schema's block length.
    pub block_length: usize,
    /// The schema version from which the block is there (0 for a root
    /// block, a group's `sinceVersion`): a field, group or var data newer
    /// than that is absent from older messages, which read it as `None`.
    pub base_since: u32,
    pub deprecated: Option<u32>,
    pub description: Option<&'s str>,
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

/// The name of a field's or var data's accessor (and setter), and of its
/// `_str` twin where the bytes are text.
pub(super) struct Accessor {
    pub name: Ident,
    pub text: Option<Ident>,
}

impl<'s> Block<'s> {
    /// The root block of message `m`.
    fn message(m: &'s Message) -> Self {
        Block::new(Block {
            name: &m.name,
            fields: &m.fields,
            groups: &m.groups,
            data: &m.data,
            block_length: m.block_length as usize,
            base_since: 0,
            deprecated: m.deprecated,
            description: m.description.as_deref(),
            names: BlockNames::default(),
        })
    }

    /// An entry of group `g`.
    fn group(g: &'s Group) -> Self {
        Block::new(Block {
            name: &g.name,
            fields: &g.fields,
            groups: &g.groups,
            data: &g.data,
            block_length: g.block_length as usize,
            base_since: g.since_version,
            deprecated: g.deprecated,
            description: g.description.as_deref(),
            names: BlockNames::default(),
        })
    }

    /// `block` with its names claimed.
    fn new(mut block: Block<'s>) -> Self {
        block.names = block_names(&block);
        block
    }

    /// How many groups and var data follow the block: its sections, groups
    /// first, numbered in schema order.
    pub fn sections(&self) -> usize {
        self.groups.len() + self.data.len()
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
        crate::ir::block_end(self.fields, version) as usize
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
        self.fields.iter().any(|f| f.encoded_length > 0)
    }
}

/// Claims the method names of `b`'s fields, groups and var data, in schema
/// order, after the names the generated code uses itself.
fn block_names(b: &Block) -> BlockNames {
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
            Accessor { name, text }
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
            Accessor { name, text }
        })
        .collect();
    BlockNames {
        fields,
        groups,
        data,
    }
}

/// Layout of a group's dimension composite: where its block length and
/// entry count are and how they are encoded.
pub(super) struct Dim {
    /// Bytes of the dimension.
    pub len: usize,
    pub block_length_offset: usize,
    pub block_length_primitive: Primitive,
    pub count_offset: usize,
    pub count_primitive: Primitive,
    /// The most entries the count may say (`numInGroup`'s `maxValue`).
    pub max_count: u64,
}

/// The dimension of group `g`; a member the IR does not place on the wire
/// reads as the standard `uint16` at the standard offset.
pub(super) fn dim_of(g: &Group) -> Dim {
    let layout = g.dimension_layout();
    let wire = |slot: Option<IntSlot>, default_offset: usize| match slot {
        Some(IntSlot::Wire { offset, primitive }) => (offset as usize, primitive),
        _ => (default_offset, Primitive::Uint16),
    };
    let (block_length_offset, block_length_primitive) = wire(layout.block_length, 0);
    let (count_offset, count_primitive) = wire(layout.num_in_group, 2);
    Dim {
        len: layout.encoded_length as usize,
        block_length_offset,
        block_length_primitive,
        count_offset,
        count_primitive,
        max_count: layout.max_count,
    }
}

/// Whether the entries of `g` are blocks only (no nested groups, no var
/// data): such a group is checked whole when opened, and its entry decoder
/// is handed its block.
pub(super) fn entries_are_blocks(g: &Group) -> bool {
    g.groups.is_empty() && g.data.is_empty()
}

/// Layout of a var data encoding composite: (length offset, data offset).
pub(super) fn data_layout(d: &Data) -> (usize, usize) {
    let layout = d.layout();
    (layout.length_offset as usize, layout.data_offset as usize)
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
        let stem = ctx.claim_family(&names::camel(&m.name), &["Decoder", "Encoder"]);
        let decoder = format_ident!("{stem}Decoder");
        if !emit.contains(&i) {
            claim_groups(ctx, &m.groups, &stem);
            out.decoders.push((i, decoder));
            continue;
        }
        let block = Block::message(m);
        let encoder = format_ident!("{stem}Encoder");
        // Nested types first, so each type follows the types it uses.
        let groups = group_types(ctx, &block, &stem, true, &mut out.tokens);
        out.tokens
            .extend(block_decoder(ctx, &block, &decoder, Some(m), &groups));
        out.tokens
            .extend(encoders::message_encoder(ctx, &block, &encoder, m, &groups));
        out.decoders.push((i, decoder));
    }
    out
}

/// Claims the names `group_types` would, in the same order, without
/// generating anything.
fn claim_groups(ctx: &mut Ctx, groups: &[Group], stem: &str) {
    for g in groups {
        let group_stem = claim_group(ctx, stem, g);
        claim_groups(ctx, &g.groups, &group_stem);
    }
}

/// Claims the stem of group `g` of the block named `stem` (its types are
/// the stem with `Decoder`, `Entry` and `Encoder`).
fn claim_group(ctx: &mut Ctx, stem: &str, g: &Group) -> String {
    ctx.claim_family(
        &format!("{stem}{}", names::camel(&g.name)),
        &["Decoder", "Entry", "Encoder"],
    )
}

/// Rust names of a group's types.
pub(super) struct GroupIdents {
    /// The iterator over its entries (`…Decoder`).
    pub iter: Ident,
    /// The decoder of one entry (`…Entry`).
    pub entry: Ident,
    /// The encoder (`…Encoder`).
    pub enc: Ident,
}

/// Generates the types of every group of `b` (recursively, nested groups
/// first) into `out` and returns their names. `top`: `b` is a root block.
fn group_types(
    ctx: &mut Ctx,
    b: &Block,
    stem: &str,
    top: bool,
    out: &mut TokenStream,
) -> Vec<GroupIdents> {
    let mut idents = Vec::new();
    for g in b.groups {
        let group_stem = claim_group(ctx, stem, g);
        let entry = Block::group(g);
        let group = GroupIdents {
            iter: format_ident!("{group_stem}Decoder"),
            entry: format_ident!("{group_stem}Entry"),
            enc: format_ident!("{group_stem}Encoder"),
        };
        let nested = group_types(ctx, &entry, &group_stem, false, out);
        // An entry stands an empty group in for one newer than its version.
        let gated = b.is_gated(g.since_version);
        out.extend(groups::group_iter(ctx, g, &group, top, gated));
        out.extend(block_decoder(ctx, &entry, &group.entry, None, &nested));
        out.extend(encoders::group_encoder(ctx, g, &entry, &group, &nested));
        idents.push(group);
    }
    idents
}

/// The required block length for the acting `version`.
fn required_fn(b: &Block) -> TokenStream {
    let base = b.base_len();
    let mut sinces: Vec<u32> = b
        .fields
        .iter()
        .map(|f| f.since_version)
        .filter(|s| *s > b.base_since)
        .collect();
    sinces.sort_unstable();
    sinces.dedup();
    let mut body = quote!(#base);
    for s in sinces {
        let end = b.end_for(s);
        if end > base {
            body = quote!(if version >= #s { #end } else { #body });
        }
    }
    quote! {
        /// The block length the fields of version `version` need.
        #[inline]
        pub const fn required(version: u32) -> usize {
            let _ = version;
            #body
        }
    }
}

/// The decoder of a root block (`msg` is `Some`) or a group entry.
fn block_decoder(
    ctx: &Ctx,
    b: &Block,
    ident: &Ident,
    msg: Option<&Message>,
    sub: &[GroupIdents],
) -> TokenStream {
    let nm = &b.names;
    let k = b.sections();
    // An entry of a group without nested groups or var data: its group
    // hands it its block, already checked.
    let fixed_entry = msg.is_none() && k == 0;
    let base_len = b.base_len();
    let ext = b.has_ext();
    let header_t = ctx.header_type("Decoder");
    let mut getters = TokenStream::new();
    let mut json = TokenStream::new();
    let mut dbg = TokenStream::new();
    for (
        f,
        Accessor {
            name,
            text: str_name,
        },
    ) in b.fields.iter().zip(&nm.fields)
    {
        let off = f.offset as usize;
        let val = Val::of(ctx, &f.type_name, &f.ty, f.presence, f.const_value.as_ref());
        let gated = f.since_version > b.base_since;
        let buf = if gated && f.encoded_length > 0 {
            quote!(self.block)
        } else {
            quote!(self.base)
        };
        let read = val.dec_read(ctx, &buf, off);
        let ret = val.dec_type();
        let d = docs(
            f.description.as_deref(),
            format!(
                "`{}` (id {}, offset {off}, type `{}`{}).",
                f.name,
                f.id,
                f.type_name,
                if f.since_version > 0 {
                    format!(", since version {}", f.since_version)
                } else {
                    String::new()
                }
            ),
        );
        let dep = deprecated(f.deprecated);
        let since = f.since_version;
        if gated {
            let (ret, body) = if val.is_option() {
                (
                    ret,
                    quote!(if self.version >= #since { #read } else { ::core::option::Option::None }),
                )
            } else {
                (
                    quote!(::core::option::Option<#ret>),
                    quote!(if self.version >= #since { ::core::option::Option::Some(#read) } else { ::core::option::Option::None }),
                )
            };
            getters.extend(quote! {
                #d
                #[doc = ""]
                #[doc = " `None` when the message's version predates the field."]
                #dep
                #[inline]
                pub fn #name(&self) -> #ret { #body }
            });
        } else {
            getters.extend(quote! {
                #d
                #dep
                #[inline]
                pub fn #name(&self) -> #ret { #read }
            });
        }
        if let (Some(sn), Val::Char { len, optional, .. }) = (str_name, &val) {
            let sdoc = format!(" `{}` up to its first NUL, as UTF-8 text.", f.name);
            let from_accessor = !(gated || *optional);
            getters.extend(str_getter(
                sn,
                name,
                &buf,
                (off, *len),
                from_accessor,
                &sdoc,
                &dep,
            ));
        }
        let key = &f.name;
        // JSON and `Debug` call the accessor rather than repeat its body
        // (much smaller code for composites, char arrays and optional
        // values). Gated, it is `None` exactly when the version predates
        // the field; an optional value's accessor is then already the
        // `Option` the value's JSON and `Debug` expect.
        if !gated {
            let v = quote!(self.#name());
            let (j, dv) = (val.json(v.clone()), val.debug(v));
            json.extend(quote! { w.key(#key); #j });
            dbg.extend(quote! { s.field(#key, #dv); });
        } else if val.is_option() || matches!(val, Val::Const { .. }) {
            // A constant is read where it is written down (no bytes).
            let v = if val.is_option() {
                quote!(self.#name())
            } else {
                read.clone()
            };
            let (j, dv) = (val.json(v.clone()), val.debug(v));
            json.extend(quote! { if self.version >= #since { w.key(#key); #j } });
            dbg.extend(quote! { if self.version >= #since { s.field(#key, #dv); } });
        } else {
            let (j, dv) = (val.json(quote!(v)), val.debug(quote!(v)));
            json.extend(quote! { if let ::core::option::Option::Some(v) = self.#name() { w.key(#key); #j } });
            dbg.extend(quote! { if let ::core::option::Option::Some(v) = self.#name() { s.field(#key, #dv); } });
        }
    }
    // Sections. The root block of a message with groups or var data finds
    // them lazily (`sbe_at`); a group entry steps over its own when wrapped.
    let lazy = msg.is_some() && k > 0;
    let mut walk = TokenStream::new();
    let mut steps = TokenStream::new();
    let mut sec_fields = TokenStream::new();
    let mut sec_inits = TokenStream::new();
    let mut needs_buf = lazy;
    let mut lazy_data = TokenStream::new();
    for (i, (g, gname)) in b.groups.iter().zip(&nm.groups).enumerate() {
        let gi = &sub[i];
        let iter = &gi.iter;
        let since = g.since_version;
        let gated = since > b.base_since;
        // An entry keeps each section as it found it when wrapped: a group
        // of blocks only as its checked decoder, any other group as its
        // position (its entries are found again when iterated).
        let fixed = g.groups.is_empty() && g.data.is_empty();
        let sf = format_ident!("s{}", i);
        if fixed {
            let check = quote!({
                let (g, end) = #iter::check(buf, pos, version)?;
                pos = end;
                g
            });
            walk.extend(if gated {
                quote!(let #sf = if version >= #since #check else {
                    #iter::empty(version)
                };)
            } else {
                quote!(let #sf = #check;)
            });
            sec_fields.extend(quote!(#sf: #iter<'a>,));
        } else {
            walk.extend(if gated {
                quote!(let #sf = pos; if version >= #since { pos = #iter::skip(buf, pos, version)?; })
            } else {
                quote!(let #sf = pos; pos = #iter::skip(buf, pos, version)?;)
            });
            sec_fields.extend(quote!(#sf: usize,));
            needs_buf = true;
        }
        sec_inits.extend(quote!(#sf,));
        let lstep = quote!(#iter::skip(buf, pos, version)?);
        steps.extend(if gated {
            quote!(#i => if version >= #since { #lstep } else { pos },)
        } else {
            quote!(#i => #lstep,)
        });
        let n1 = i + 1;
        let at = if lazy {
            quote!(#iter::open(self.buf, self.sbe_at(#i), self.version, self.sec.get(#n1)))
        } else if fixed {
            quote!(self.#sf)
        } else {
            quote!(#iter::at(self.buf, self.#sf, self.version))
        };
        let lt = if lazy { quote!('_) } else { quote!('a) };
        let d = docs(
            g.description.as_deref(),
            format!(
                "Group `{}` (id {}): an iterator over its entries.",
                g.name, g.id
            ),
        );
        let dep = deprecated(g.deprecated);
        let key = &g.name;
        if gated {
            getters.extend(quote! {
                #d
                #[doc = ""]
                #[doc = " `None` when the message's version predates the group."]
                #dep
                #[inline]
                pub fn #gname(&self) -> ::core::option::Option<#iter<#lt>> {
                    if self.version >= #since { ::core::option::Option::Some(#at) } else { ::core::option::Option::None }
                }
            });
            json.extend(quote! {
                if self.version >= #since {
                    w.key(#key).begin_array();
                    for e in #at { e.write_json(w); }
                    w.end_array();
                }
            });
            dbg.extend(quote! { if self.version >= #since { s.field(#key, &#at); } });
        } else {
            getters.extend(quote! {
                #d
                #dep
                #[inline]
                pub fn #gname(&self) -> #iter<#lt> { #at }
            });
            json.extend(quote! {
                w.key(#key).begin_array();
                for e in self.#gname() { e.write_json(w); }
                w.end_array();
            });
            dbg.extend(quote! { s.field(#key, &self.#gname()); });
        }
    }
    let ng = b.groups.len();
    for (
        j,
        (
            d,
            Accessor {
                name: dname,
                text: str_name,
            },
        ),
    ) in b.data.iter().zip(&nm.data).enumerate()
    {
        let i = ng + j;
        let (lo, vo) = data_layout(d);
        let get = getter(ctx, d.length_primitive);
        let max = d.max_length;
        let since = d.since_version;
        let gated = since > b.base_since;
        let n_read = to_u64(
            d.length_primitive,
            quote!(#get(::sbe_rt::slice(buf, pos, #vo)?, #lo)),
        );
        let pos_vo = plus(quote!(pos), vo);
        let df = format_ident!("d{}", j);
        let step = quote!({
            let (d, end) = ::sbe_rt::codec::var_data(buf, #pos_vo, #n_read, #max)?;
            pos = end;
            d
        });
        walk.extend(if gated {
            quote!(let #df: &'a [u8] = if version >= #since #step else { &[] };)
        } else {
            quote!(let #df: &'a [u8] = #step;)
        });
        sec_fields.extend(quote!(#df: &'a [u8],));
        sec_inits.extend(quote!(#df,));
        let lstep = quote!(::sbe_rt::codec::data_end(buf, #pos_vo, #n_read, #max)?);
        steps.extend(if gated {
            quote!(#i => if version >= #since { #lstep } else { pos },)
        } else {
            quote!(#i => #lstep,)
        });
        let bytes = if lazy {
            // Read where the section starts (found once), then the data,
            // and remember where the next section starts.
            let helper = format_ident!("sbe_d{}", j);
            let n1 = i + 1;
            lazy_data.extend(quote! {
                #[inline]
                fn #helper(&self) -> &'a [u8] {
                    let buf = self.buf;
                    let found = self.sbe_at(#i).and_then(|pos| {
                        ::sbe_rt::codec::var_data(buf, #pos_vo, #n_read, #max)
                    });
                    match found {
                        ::core::result::Result::Ok((d, end)) => {
                            if let ::core::option::Option::Some(c) = self.sec.get(#n1) {
                                c.set(end);
                            }
                            d
                        }
                        ::core::result::Result::Err(_) => &[],
                    }
                }
            });
            quote!(self.#helper())
        } else {
            quote!(self.#df)
        };
        let doc = docs(
            d.description.as_deref(),
            format!("Var data `{}` (id {}).", d.name, d.id),
        );
        let dep = deprecated(d.deprecated);
        let key = &d.name;
        // As for fields: the accessor where it returns the bytes themselves.
        let value = if gated {
            bytes.clone()
        } else {
            quote!(self.#dname())
        };
        let (jw, dv) = match &d.character_encoding {
            Some(e) if e.eq_ignore_ascii_case("UTF-8") || e.eq_ignore_ascii_case("UTF8") => (
                quote!(w.utf8_lossy(#value);),
                quote!(&::sbe_rt::codec::Text(#value)),
            ),
            Some(_) => (
                quote!(w.latin1(#value);),
                quote!(&::sbe_rt::codec::Text(#value)),
            ),
            None => (quote!(w.hex(#value);), quote!(&#value)),
        };
        if gated {
            getters.extend(quote! {
                #doc
                #[doc = ""]
                #[doc = " `None` when the message's version predates it."]
                #dep
                #[inline]
                pub fn #dname(&self) -> ::core::option::Option<&'a [u8]> {
                    if self.version >= #since { ::core::option::Option::Some(#bytes) } else { ::core::option::Option::None }
                }
            });
            json.extend(quote! { if self.version >= #since { w.key(#key); #jw } });
            dbg.extend(quote! { if self.version >= #since { s.field(#key, #dv); } });
        } else {
            getters.extend(quote! {
                #doc
                #dep
                #[inline]
                pub fn #dname(&self) -> &'a [u8] { #bytes }
            });
            json.extend(quote! { w.key(#key); #jw });
            dbg.extend(quote! { s.field(#key, #dv); });
        }
        if let Some(sn) = str_name {
            let sdoc = format!(" `{}` as UTF-8 text.", d.name);
            let body = if gated {
                quote!(if self.version >= #since { ::sbe_rt::text::as_str(#bytes) } else { ::core::result::Result::Ok("") })
            } else {
                quote!(::sbe_rt::text::as_str(#value))
            };
            getters.extend(quote! {
                #[doc = #sdoc]
                #dep
                #[inline]
                pub fn #sn(&self) -> ::core::result::Result<&'a str, ::sbe_rt::Error> { #body }
            });
        }
    }

    let required = required_fn(b);
    let (hdr_field, hdr_param, hdr_init) = if msg.is_some() {
        (
            quote!(header: #header_t<'a>,),
            quote!(header: #header_t<'a>,),
            quote!(header,),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    let (block_field, block_init) = if ext {
        (quote!(block: &'a [u8],), quote!(block,))
    } else {
        (quote!(), quote!())
    };
    let (sec_field, sec_init) = if lazy {
        let k1 = k + 1;
        let unknown = (0..k).map(|_| quote!(::core::cell::Cell::new(usize::MAX)));
        // A root decoder finds its sections lazily (`sbe_at`), not here.
        walk = TokenStream::new();
        (
            quote!(sec: [::core::cell::Cell<usize>; #k1],),
            quote!(sec: [::core::cell::Cell::new(pos), #(#unknown),*],),
        )
    } else {
        (sec_fields, sec_inits)
    };
    let uses_base = b.uses_base();
    let block_binding = if ext || uses_base {
        quote!(block)
    } else {
        quote!(_block)
    };
    let (buf_field, buf_init) = if needs_buf {
        (quote!(buf: &'a [u8],), quote!(buf,))
    } else if k > 0 {
        (quote!(), quote!())
    } else if !uses_base && !ext && msg.is_none() {
        (
            quote!(_buf: ::core::marker::PhantomData<&'a [u8]>,),
            quote!(_buf: ::core::marker::PhantomData,),
        )
    } else {
        (quote!(), quote!())
    };
    let (base_field, base_init, base_let) = if uses_base {
        (
            quote!(base: &'a [u8; #base_len],),
            quote!(base,),
            if ext {
                quote!(let base = ::sbe_rt::codec::array_at::<#base_len>(block, 0)?;)
            } else {
                quote!(let base = ::sbe_rt::codec::block_at::<#base_len>(buf, start, block_length)?;)
            },
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    let block_let = if ext || !uses_base {
        quote!(let #block_binding = ::sbe_rt::slice(buf, start, block_length)?;)
    } else {
        TokenStream::new()
    };
    let mut_pos = if k > 0 && !lazy {
        quote!(mut)
    } else {
        quote!()
    };
    let (end_field, end_init) = if lazy {
        (quote!(), quote!())
    } else if fixed_entry {
        (quote!(len: usize,), quote!(len: block.len()))
    } else {
        (quote!(end: usize,), quote!(end: pos))
    };
    let derive = if lazy {
        quote!(#[derive(Clone)])
    } else {
        quote!(#[derive(Clone, Copy)])
    };
    // A group entry's block length was checked with the group's dimension.
    let bl_check = if msg.is_some() {
        quote!(::sbe_rt::codec::check_block_length(block_length, Self::required(version))?;)
    } else {
        TokenStream::new()
    };
    let lazy_items = if lazy {
        let bytes_fn = lazy_data;
        let sections = k + 1;
        quote! {
            /// Where section `i` (a group or var data; `i` = their count:
            /// the end) starts, checked: known once reached (in order, or
            /// by `checked_length`), else found by stepping over the
            /// sections before it from the nearest known one, and
            /// remembered.
            #[inline]
            fn sbe_at(&self, i: usize) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                match self.sec.get(i) {
                    ::core::option::Option::Some(c) if c.get() != usize::MAX => ::core::result::Result::Ok(c.get()),
                    _ => {
                        // Only section `i` is remembered here: storing every
                        // position found made the hot path keep them all
                        // (`car_decode` 438 -> 476 instructions).
                        let known = self.sec.each_ref().map(::core::cell::Cell::get);
                        let (pos, _) = Self::sbe_walk(self.buf, self.version, known, i)?;
                        if let ::core::option::Option::Some(c) = self.sec.get(i) {
                            c.set(pos);
                        }
                        ::core::result::Result::Ok(pos)
                    }
                }
            }

            /// Where the message ends ([`Self::sbe_at`] of the end),
            /// remembering where every section starts on the way, so that
            /// reading sections after `checked_length` (as the module's
            /// `decode` calls it) steps over nothing again.
            #[inline]
            fn sbe_end_at(&self) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                match self.sec.get(#k) {
                    ::core::option::Option::Some(c) if c.get() != usize::MAX => ::core::result::Result::Ok(c.get()),
                    _ => {
                        let known = self.sec.each_ref().map(::core::cell::Cell::get);
                        let (end, found) = Self::sbe_walk(self.buf, self.version, known, #k)?;
                        for (c, p) in self.sec.iter().zip(found) {
                            c.set(p);
                        }
                        ::core::result::Result::Ok(end)
                    }
                }
            }

            /// Steps over section `j` starting at `pos`: where it ends, checked.
            #[inline(always)]
            fn sbe_step(buf: &'a [u8], version: u32, j: usize, pos: usize) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                let _ = version;
                ::core::result::Result::Ok(match j {
                    #steps
                    _ => return ::core::result::Result::Err(::sbe_rt::Error::Truncated { needed: usize::MAX, available: buf.len() }),
                })
            }

            /// Where section `i` starts, and the sections' positions
            /// (`known`, with `usize::MAX` where not known yet; section 0
            /// always is) with those up to it filled in, stepping from the
            /// nearest known one before it.
            /// Takes and returns copies, not `self`: the decoder's address
            /// never escapes to an out-of-line call, so it can live in
            /// registers.
            #[inline(never)]
            fn sbe_walk(buf: &'a [u8], version: u32, mut known: [usize; #sections], i: usize) -> ::core::result::Result<(usize, [usize; #sections]), ::sbe_rt::Error> {
                let mut j = i.min(#k);
                while j > 0 && !matches!(known.get(j), ::core::option::Option::Some(&p) if p != usize::MAX) {
                    j -= 1;
                }
                let mut pos = known.get(j).copied().unwrap_or(0);
                while j < i {
                    pos = Self::sbe_step(buf, version, j, pos)?;
                    j += 1;
                    if let ::core::option::Option::Some(p) = known.get_mut(j) {
                        *p = pos;
                    }
                }
                ::core::result::Result::Ok((pos, known))
            }

            #bytes_fn
        }
    } else {
        TokenStream::new()
    };
    let name = b.name;
    let doc = if msg.is_some() {
        docs(
            b.description,
            format!("Decoder of message `{name}`: a view of its bytes."),
        )
    } else {
        docs(
            b.description,
            format!("One entry of group `{name}`: a view of its bytes."),
        )
    };
    let len_fns = if lazy {
        quote! {
            /// Bytes of the whole message: header, root block, groups and
            /// var data (stepped over here when not reached yet). When they
            /// do not check, everything from the header on.
            #[inline]
            pub fn encoded_length(&self) -> usize {
                HEADER_LENGTH + self.sbe_end_at().unwrap_or(self.buf.len())
            }

            /// Checks the groups and var data (`decode` checks the header
            /// and the root block only) and returns the bytes of the whole
            /// message.
            pub fn checked_length(&self) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                ::core::result::Result::Ok(HEADER_LENGTH + self.sbe_end_at()?)
            }
        }
    } else {
        quote! {
            /// Bytes of the whole message: header, root block, groups and var data.
            #[inline]
            pub fn encoded_length(&self) -> usize {
                HEADER_LENGTH + self.end
            }

            /// The bytes of the whole message (all checked by `decode`).
            #[inline]
            pub fn checked_length(&self) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                ::core::result::Result::Ok(self.encoded_length())
            }
        }
    };
    let end_steps = 0..k;
    let end_mut = if k > 0 { quote!(mut) } else { quote!() };
    let root_items = match msg {
        Some(m) => {
            let tid = m.id;
            let bl = b.block_length;
            let dep = deprecated(b.deprecated);
            quote! {
                /// The message's template id.
                pub const TEMPLATE_ID: u64 = #tid as u64;
                /// The root block length of this schema version.
                pub const BLOCK_LENGTH: usize = #bl;
                /// The message's name in the schema.
                pub const NAME: &'static str = #name;

                /// Reads the message at the start of `buf`: header, template
                /// and schema ids and root block are checked here; groups are
                /// checked entry by entry as they are reached, var data when
                /// read (`checked_length` checks them all).
                #dep
                #[inline]
                pub fn decode(buf: &'a [u8]) -> ::core::result::Result<Self, ::sbe_rt::Error> {
                    let (header, body, block_length, template_id, version) = read_header(buf)?;
                    if template_id != Self::TEMPLATE_ID {
                        return ::core::result::Result::Err(::sbe_rt::Error::UnknownTemplateId { template_id });
                    }
                    Self::wrap_at(header, body, 0, block_length, version)
                }

                /// The message header.
                #[inline]
                pub fn header(&self) -> #header_t<'a> {
                    self.header
                }

                /// Where the message ends in `buf` (the bytes after the
                /// header), checked as `decode` and `checked_length` check
                /// it, without making a decoder: the schema's
                /// `message_length`.
                #[inline]
                fn sbe_end(buf: &'a [u8], block_length: usize, version: u32) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                    ::sbe_rt::codec::check_block_length(block_length, Self::required(version))?;
                    let #end_mut pos = ::sbe_rt::slice(buf, 0, block_length)?.len();
                    #(pos = Self::sbe_step(buf, version, #end_steps, pos)?;)*
                    ::core::result::Result::Ok(pos)
                }

                #len_fns
            }
        }
        None if fixed_entry => quote! {
            /// Bytes of the entry: its block.
            #[inline]
            pub fn encoded_length(&self) -> usize {
                self.len
            }
        },
        None => quote! {
            /// Bytes of the entry: block, nested groups and var data.
            #[inline]
            pub fn encoded_length(&self) -> usize {
                self.end - self.start
            }
        },
    };
    let (start_field, start_init) = if msg.is_none() && !fixed_entry {
        (quote!(start: usize,), quote!(start,))
    } else {
        (quote!(), quote!())
    };
    let wrap_fn = if fixed_entry {
        let base_let = if uses_base {
            quote!(let base = block.first_chunk::<#base_len>().unwrap_or(&[0; #base_len]);)
        } else {
            TokenStream::new()
        };
        quote! {
            /// The entry whose block is `block` (its length checked with the
            /// group's dimension: at least `required(version)`).
            #[inline]
            fn from_block(block: &'a [u8], version: u32) -> Self {
                #base_let
                Self { #buf_init #base_init #block_init version, #end_init }
            }
        }
    } else {
        quote! {
            /// Checks and reads the block at `buf[start..]` and steps over
            /// its groups and var data.
            #[inline]
            fn wrap_at(#hdr_param buf: &'a [u8], start: usize, block_length: usize, version: u32) -> ::core::result::Result<Self, ::sbe_rt::Error> {
                #bl_check
                #block_let
                #base_let
                let #mut_pos pos = start + block_length;
                #walk
                ::core::result::Result::Ok(Self { #hdr_init #buf_init #base_init #block_init version, #sec_init #start_init #end_init })
            }
        }
    };
    let json_fn = if ctx.opts.json {
        quote! {
            /// Writes the fields, groups and var data as a JSON object.
            #[allow(unused_braces)]
            pub fn write_json(&self, w: &mut ::sbe_rt::JsonWriter) {
                w.begin_object();
                #json
                w.end_object();
            }
        }
    } else {
        TokenStream::new()
    };
    let dbg_impl = if ctx.opts.debug {
        let sname = ident.to_string();
        quote! {
            #[allow(deprecated, unused_braces)]
            impl ::core::fmt::Debug for #ident<'_> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut s = f.debug_struct(#sname);
                    #dbg
                    s.finish()
                }
            }
        }
    } else {
        TokenStream::new()
    };
    quote! {
        #doc
        #derive
        pub struct #ident<'a> {
            #hdr_field
            #buf_field
            #base_field
            #block_field
            version: u32,
            #sec_field
            #start_field
            #end_field
        }

        #[allow(deprecated, unused_braces)]
        impl<'a> #ident<'a> {
            #root_items
            #required

            #wrap_fn

            #lazy_items

            /// The acting version: the schema version the sender used.
            #[inline]
            pub fn acting_version(&self) -> u32 {
                self.version
            }

            #getters
            #json_fn
        }

        #dbg_impl
    }
}
