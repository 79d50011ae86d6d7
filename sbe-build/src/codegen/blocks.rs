//! Messages and groups: decoders (root block, group iterator, group
//! entry) and encoders (root, group), with groups and var data in schema
//! order.

use std::ops::Range;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::groups;
use super::names::{self, Scope};
use super::values::{getter, int_lit, plus, putter, str_getter, to_u64, Val};
use super::{deprecated, docs, Ctx};
use crate::ir::{Data, Field, Group, IntSlot, Message, Primitive, TypeKind};

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

/// A root block or group entry.
struct Block<'s> {
    /// Schema name.
    name: &'s str,
    fields: &'s [Field],
    groups: &'s [Group],
    data: &'s [Data],
    block_length: usize,
    base_since: u32,
    deprecated: Option<u32>,
    description: Option<&'s str>,
}

/// The names of a block's items.
struct Names {
    fields: Vec<(Ident, Option<Ident>)>,
    groups: Vec<Ident>,
    data: Vec<(Ident, Option<Ident>)>,
}

fn block_names(b: &Block) -> Names {
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
            let n = names::ident(&scope.claim(&base));
            let is_chars = match &f.ty.kind {
                TypeKind::Encoded(e) => {
                    e.primitive == Primitive::Char
                        && e.length > 1
                        && f.presence != crate::ir::Presence::Constant
                }
                _ => false,
            };
            let s = is_chars.then(|| names::ident(&scope.claim(&format!("{base}_str"))));
            (n, s)
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
            let n = names::ident(&scope.claim(&base));
            let s = d
                .character_encoding
                .is_some()
                .then(|| names::ident(&scope.claim(&format!("{base}_str"))));
            (n, s)
        })
        .collect();
    Names {
        fields,
        groups,
        data,
    }
}

impl Block<'_> {
    fn sections(&self) -> usize {
        self.groups.len() + self.data.len()
    }

    /// Bytes of the fields present whenever the block is.
    fn base_len(&self) -> usize {
        self.end_for(self.base_since)
    }

    fn end_for(&self, version: u32) -> usize {
        crate::ir::block_end(self.fields, version) as usize
    }

    fn has_ext(&self) -> bool {
        self.fields
            .iter()
            .any(|f| f.since_version > self.base_since && f.encoded_length > 0)
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
fn data_layout(d: &Data) -> (usize, usize) {
    let layout = d.layout();
    (layout.length_offset as usize, layout.data_offset as usize)
}

/// Bytes of an integer in the schema's byte order.
fn int_bytes(ctx: &Ctx, p: Primitive, v: u64) -> Vec<u8> {
    let n = p.size() as usize;
    let le = v.to_le_bytes();
    let mut out: Vec<u8> = le.iter().take(n).copied().collect();
    if ctx.order() == "be" {
        out.reverse();
    }
    out
}

/// The bytes of section `k` when it is empty.
fn empty_bytes(ctx: &Ctx, b: &Block, k: usize) -> Vec<u8> {
    match b.groups.get(k) {
        Some(g) => {
            let d = dim_of(g);
            let mut out = vec![0u8; d.len];
            for (i, x) in int_bytes(ctx, d.block_length_primitive, u64::from(g.block_length))
                .into_iter()
                .enumerate()
            {
                if let Some(slot) = out.get_mut(d.block_length_offset + i) {
                    *slot = x;
                }
            }
            out
        }
        None => match b.data.get(k - b.groups.len()) {
            Some(d) => vec![0u8; data_layout(d).1],
            None => Vec::new(),
        },
    }
}

fn empty_after(ctx: &Ctx, b: &Block, k: usize) -> usize {
    (k..b.sections())
        .map(|j| empty_bytes(ctx, b, j).len())
        .sum()
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
        if !emit.contains(&i) {
            claim_groups(ctx, &m.groups, &stem);
            out.decoders.push((i, format_ident!("{stem}Decoder")));
            continue;
        }
        let b = Block {
            name: &m.name,
            fields: &m.fields,
            groups: &m.groups,
            data: &m.data,
            block_length: m.block_length as usize,
            base_since: 0,
            deprecated: m.deprecated,
            description: m.description.as_deref(),
        };
        let dec = format_ident!("{stem}Decoder");
        let enc = format_ident!("{stem}Encoder");
        let mut toks = TokenStream::new();
        let sub = group_types(ctx, &b, &stem, true, &mut toks);
        toks.extend(block_decoder(ctx, &b, &dec, Some(m), &sub));
        toks.extend(block_encoder(ctx, &b, &enc, Some(m), &sub));
        out.tokens.extend(toks);
        out.decoders.push((i, dec));
    }
    out
}

/// Claims the names `group_types` would, in the same order, without
/// generating anything.
fn claim_groups(ctx: &mut Ctx, groups: &[Group], stem: &str) {
    for g in groups {
        let gstem = claim_group(ctx, stem, g);
        claim_groups(ctx, &g.groups, &gstem);
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

/// Generates the types of every group of `b` (recursively) and returns
/// their names.
fn group_types(
    ctx: &mut Ctx,
    b: &Block,
    stem: &str,
    top: bool,
    out: &mut TokenStream,
) -> Vec<GroupIdents> {
    let mut ids = Vec::new();
    for g in b.groups {
        let gstem = claim_group(ctx, stem, g);
        let gb = Block {
            name: &g.name,
            fields: &g.fields,
            groups: &g.groups,
            data: &g.data,
            block_length: g.block_length as usize,
            base_since: g.since_version,
            deprecated: g.deprecated,
            description: g.description.as_deref(),
        };
        let gi = GroupIdents {
            iter: format_ident!("{gstem}Decoder"),
            entry: format_ident!("{gstem}Entry"),
            enc: format_ident!("{gstem}Encoder"),
        };
        let sub = group_types(ctx, &gb, &gstem, false, out);
        // An entry stands an empty group in for one newer than its version.
        let gated = g.since_version > b.base_since;
        out.extend(groups::group_iter(ctx, g, &gi, top, gated));
        out.extend(block_decoder(ctx, &gb, &gi.entry, None, &sub));
        out.extend(group_encoder(ctx, g, &gb, &gi, &sub));
        ids.push(gi);
    }
    ids
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
    let nm = block_names(b);
    let k = b.sections();
    // An entry of a group without nested groups or var data: its group
    // hands it its block, already checked.
    let fixed_entry = msg.is_none() && k == 0;
    let base_len = b.base_len();
    let ext = b.has_ext();
    let header_t = ctx_header_ident(ctx);
    let mut getters = TokenStream::new();
    let mut json = TokenStream::new();
    let mut dbg = TokenStream::new();
    for (f, (name, str_name)) in b.fields.iter().zip(&nm.fields) {
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
    for (j, (d, (dname, str_name))) in b.data.iter().zip(&nm.data).enumerate() {
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
    let uses_base = b
        .fields
        .iter()
        .any(|f| f.since_version <= b.base_since && f.encoded_length > 0);
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

fn ctx_header_ident(ctx: &Ctx) -> Ident {
    let base = ctx.type_ident(&ctx.schema.header.name, &ctx.schema.header);
    format_ident!("{base}Decoder")
}

/// Setters and section writers shared by the root and group encoders.
fn encoder_items(ctx: &Ctx, b: &Block, sub: &[GroupIdents], is_root: bool) -> TokenStream {
    let nm = block_names(b);
    let k = b.sections();
    let mut out = TokenStream::new();
    for (f, (name, _)) in b.fields.iter().zip(&nm.fields) {
        let val = Val::of(ctx, &f.type_name, &f.ty, f.presence, f.const_value.as_ref());
        let d = docs(
            f.description.as_deref(),
            format!("Sets `{}` (id {}, offset {}).", f.name, f.id, f.offset),
        );
        let dep = deprecated(f.deprecated);
        if let Some(s) = val.setter(ctx, name, f.offset as usize, &quote!(#d #dep)) {
            out.extend(s);
        }
    }
    // The tail as a reference and as a place (to take it and put it back).
    let (tail, tail_place) = if is_root {
        (quote!(&mut self.tail), quote!(self.tail))
    } else {
        (quote!(&mut *self.tail), quote!(*self.tail))
    };
    for (i, (g, gname)) in b.groups.iter().zip(&nm.groups).enumerate() {
        let enc = &sub[i].enc;
        let after = empty_after(ctx, b, i + 1);
        let step = i + 1;
        let d = docs(
            None,
            format!(
                "Starts group `{}` (id {}) for at most `count` entries; write each entry after `next_entry()`. Earlier groups and var data not written yet are written empty; a later one already written gives `Err(WrongOrder)`.",
                g.name, g.id
            ),
        );
        let dep = deprecated(g.deprecated);
        let res = if is_root {
            quote!(#after)
        } else {
            plus(quote!(self.reserve), after)
        };
        out.extend(quote! {
            #d
            #dep
            pub fn #gname(&mut self, count: usize) -> ::core::result::Result<#enc<'_, 'a>, ::sbe_rt::Error> {
                self.advance(#i)?;
                self.step = #step;
                #enc::new(#tail, count, #res)
            }
        });
    }
    let ng = b.groups.len();
    for (j, (d, (dname, _))) in b.data.iter().zip(&nm.data).enumerate() {
        let i = ng + j;
        let (lo, vo) = data_layout(d);
        let after = empty_after(ctx, b, i + 1);
        let put = putter(ctx, d.length_primitive);
        let t = super::values::rust_prim(d.length_primitive);
        let max = d.max_length;
        let step = i + 1;
        let doc = docs(
            None,
            format!(
                "Writes var data `{}` (id {}). Earlier groups and var data not written yet are written empty; a later one already written gives `Err(WrongOrder)`.",
                d.name, d.id
            ),
        );
        let dep = deprecated(d.deprecated);
        let res = if is_root {
            quote!(#after)
        } else {
            plus(quote!(self.reserve), after)
        };
        out.extend(quote! {
            #doc
            #dep
            #[inline(always)]
            pub fn #dname(&mut self, v: impl ::core::convert::AsRef<[u8]>) -> ::core::result::Result<&mut Self, ::sbe_rt::Error> {
                let v = v.as_ref();
                let n = ::sbe_rt::codec::check_length(v.len(), #max)?;
                self.advance(#i)?;
                let prefix = ::sbe_rt::codec::put_var_data_n::<#vo>(#tail, v, #res)?;
                #put(prefix, #lo, n as #t);
                self.step = #step;
                ::core::result::Result::Ok(self)
            }
        });
    }
    if k > 0 {
        let arms = (0..k).map(|j| {
            let bytes = empty_bytes(ctx, b, j);
            quote!(#j => &[#(#bytes),*],)
        });
        out.extend(quote! {
            /// Writes the sections before `k` that are not written yet, empty.
            #[inline(always)]
            fn advance(&mut self, k: usize) -> ::core::result::Result<(), ::sbe_rt::Error> {
                if self.step == k {
                    return ::core::result::Result::Ok(());
                }
                let (tail, done) = Self::advance_slow(self.step, k, ::core::mem::take(&mut #tail_place));
                #tail_place = tail;
                done?;
                self.step = k;
                ::core::result::Result::Ok(())
            }

            /// [`Self::advance`] when sections are skipped or out of order:
            /// writes them at the front of `tail` and gives back the rest.
            /// Takes and returns the tail by value, not `self`, so that the
            /// tail never has its address taken and stays in registers.
            #[cold]
            #[inline(never)]
            fn advance_slow(step: usize, k: usize, tail: &'a mut [u8]) -> (&'a mut [u8], ::core::result::Result<(), ::sbe_rt::Error>) {
                if step > k {
                    return (tail, ::core::result::Result::Err(::sbe_rt::Error::WrongOrder));
                }
                let mut n = 0;
                for s in step..k {
                    let empty: &[u8] = match s {
                        #(#arms)*
                        _ => &[],
                    };
                    n = match ::sbe_rt::codec::write_at(tail, n, empty) {
                        ::core::result::Result::Ok(n) => n,
                        ::core::result::Result::Err(e) => return (tail, ::core::result::Result::Err(e)),
                    };
                }
                ::sbe_rt::codec::skip_front(tail, n)
            }
        });
    }
    out
}

fn header_encoder_ident(ctx: &Ctx) -> Ident {
    let base = ctx.type_ident(&ctx.schema.header.name, &ctx.schema.header);
    format_ident!("{base}Encoder")
}

fn block_encoder(
    ctx: &Ctx,
    b: &Block,
    ident: &Ident,
    msg: Option<&Message>,
    sub: &[GroupIdents],
) -> TokenStream {
    let Some(m) = msg else {
        return TokenStream::new();
    };
    let k = b.sections();
    let bl = b.block_length;
    let empty_all = empty_after(ctx, b, 0);
    let items = encoder_items(ctx, b, sub, true);
    let henc = header_encoder_ident(ctx);
    let hwrite = super::dispatch::header_writes(ctx, bl as u64, u64::from(m.id));
    let (step_field, step_init, finish_body) = if k > 0 {
        (
            quote!(step: usize,),
            quote!(step: 0,),
            quote!(self.advance(#k)?;),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    let doc = format!(
        " Encoder of message `{}`: header and root block first, then groups and var data in schema order.",
        b.name
    );
    let dep = deprecated(b.deprecated);
    let need = plus(quote!(HEADER_LENGTH), bl + empty_all);
    let (buf_field, buf_init) = if has_setters(b) {
        (quote!(buf: &'a mut [u8; #bl],), quote!(buf: block,))
    } else {
        (quote!(), quote!())
    };
    quote! {
        #[doc = #doc]
        pub struct #ident<'a> {
            #buf_field
            tail: &'a mut [u8],
            total: usize,
            #step_field
        }

        #[allow(deprecated)]
        impl<'a> #ident<'a> {
            /// Starts a message at the start of `buf`: writes the header and
            /// zeroes the root block. Fails when `buf` cannot hold the
            /// message with its groups and var data empty.
            #dep
            pub fn wrap(buf: &'a mut [u8]) -> ::core::result::Result<Self, ::sbe_rt::Error> {
                let total = buf.len();
                ::sbe_rt::check_len(buf, #need)?;
                let (hdr, rest) = ::sbe_rt::codec::split_array_mut::<HEADER_LENGTH>(buf)?;
                let (block, tail) = ::sbe_rt::codec::split_array_mut::<#bl>(rest)?;
                *hdr = [0; HEADER_LENGTH];
                *block = [0; #bl];
                let mut h = #henc { buf: hdr };
                #hwrite
                ::core::result::Result::Ok(Self { #buf_init tail, total, #step_init })
            }

            /// Bytes written so far, header included.
            #[inline]
            pub fn encoded_length(&self) -> usize {
                self.total - self.tail.len()
            }

            /// Writes the groups and var data not written yet, empty, and
            /// returns the message's length.
            ///
            /// Takes `&mut self`, not `self`: moving the encoder here made
            /// the compiler copy it through memory with wide loads right
            /// after a setter's narrow stores, a store-forwarding stall on
            /// every message.
            #[inline(always)]
            pub fn finish(&mut self) -> ::core::result::Result<usize, ::sbe_rt::Error> {
                #finish_body
                ::core::result::Result::Ok(self.encoded_length())
            }

            #items
        }
    }
}

fn group_encoder(
    ctx: &Ctx,
    g: &Group,
    b: &Block,
    gi: &GroupIdents,
    sub: &[GroupIdents],
) -> TokenStream {
    let enc = &gi.enc;
    let k = b.sections();
    let bl = b.block_length;
    let d = dim_of(g);
    let (dim, blo, no, max) = (d.len, d.block_length_offset, d.count_offset, d.max_count);
    let put_bl = putter(ctx, d.block_length_primitive);
    let put_n = putter(ctx, d.count_primitive);
    let tn = super::values::rust_prim(d.count_primitive);
    let bl_lit = int_lit(d.block_length_primitive, bl as i128);
    let dim_need = plus(quote!(reserve), dim);
    let empty_all = empty_after(ctx, b, 0);
    let items = encoder_items(ctx, b, sub, false);
    let need = plus(quote!(self.reserve), bl + empty_all);
    let (buf_field, buf_init, buf_set) = if has_setters(b) {
        (
            quote!(buf: &'a mut [u8],),
            quote!(buf: &mut [],),
            quote!(self.buf = block;),
        )
    } else {
        (quote!(), quote!(), quote!(let _ = block;))
    };
    let step_reset = if k > 0 {
        quote!(self.step = 0;)
    } else {
        quote!()
    };
    let (step_field, step_init, advance_all, drop_impl) = if k > 0 {
        (
            quote!(step: usize,),
            quote!(step: #k,),
            quote!(self.advance(#k)?;),
            quote! {
                impl ::core::ops::Drop for #enc<'_, '_> {
                    fn drop(&mut self) {
                        let _ = self.advance(#k);
                    }
                }
            },
        )
    } else {
        (quote!(), quote!(), quote!(), quote!())
    };
    let doc = format!(
        " Encoder of group `{}`: call `next_entry()` before writing each entry.",
        g.name
    );
    quote! {
        #[doc = #doc]
        pub struct #enc<'p, 'a> {
            tail: &'p mut &'a mut [u8],
            dim: &'a mut [u8; #dim],
            #buf_field
            count: usize,
            written: usize,
            reserve: usize,
            #step_field
        }

        #[allow(deprecated)]
        impl<'p, 'a> #enc<'p, 'a> {
            #[inline]
            fn new(tail: &'p mut &'a mut [u8], count: usize, reserve: usize) -> ::core::result::Result<Self, ::sbe_rt::Error> {
                ::sbe_rt::codec::check_count(count, #max)?;
                let dim = ::sbe_rt::codec::take_zeroed::<#dim>(tail, #dim_need)?;
                #put_bl(dim, #blo, #bl_lit);
                ::core::result::Result::Ok(Self { tail, dim, #buf_init count, written: 0, reserve, #step_init })
            }

            /// Starts the next entry (zeroed); its fields, nested groups and
            /// var data follow. Fails when `count` entries are written already
            /// or the buffer is too small.
            #[inline]
            pub fn next_entry(&mut self) -> ::core::result::Result<&mut Self, ::sbe_rt::Error> {
                #advance_all
                if self.written >= self.count {
                    return ::core::result::Result::Err(::sbe_rt::Error::CountOutOfRange { count: self.written as u64 + 1, max: self.count as u64 });
                }
                let block = ::sbe_rt::codec::take_zeroed::<#bl>(self.tail, #need)?;
                #buf_set
                self.written += 1;
                #put_n(self.dim, #no, self.written as #tn);
                #step_reset
                ::core::result::Result::Ok(self)
            }

            #items
        }

        #drop_impl
    }
}

/// Whether a block has a field to set (not every field is a constant).
fn has_setters(b: &Block) -> bool {
    b.fields.iter().any(|f| f.encoded_length > 0)
}
