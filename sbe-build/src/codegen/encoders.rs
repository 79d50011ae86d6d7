//! Encoders: a message's (its header and root block written at `wrap`)
//! and a group's (its dimension written when started, an entry per
//! `next_entry`), with their setters and the writers of groups and var
//! data.
//!
//! Schema order is kept by types: a block with groups or var data has an
//! encoder per stage, the first holding the block and its setters, each
//! next one standing before a section (`CarEncoderAtPerformanceFigures`,
//! then `CarEncoderAtEnd`). A stage's methods are the sections from its
//! own on, each consuming the stage and returning the one after the
//! section, so that going back does not compile; going forward writes the
//! sections skipped empty, bytes known here. A group's method returns the
//! group's encoder, which owns the tail (a message's group) or borrows the
//! entry's (a nested one); its `end()` writes the count and returns the
//! stage after the group. (Groups written by closures were slower: where
//! the code writing a message was inlined twice, its closures stayed out
//! of line, the group's encoder in memory.)

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::blocks::{Accessor, GroupIdents, NamedBlock};
use super::typed;
use super::values::{plus, typed_lit, uint_put, ulit, Val};
use super::{deprecated, docs, moved, Ctx};
use crate::ir::{Group, Message};

/// The encoder of message `m`, whose root block is `b`: its stages
/// (`stages[0]`, the encoder, then one per section after the first and
/// one after the last; the encoder alone where the message has no group
/// or var data).
pub(super) fn message_encoder(
    ctx: &Ctx,
    b: &NamedBlock,
    (stages, decoder): (&[Ident], &Ident),
    m: &Message,
    groups: &[GroupIdents],
) -> TokenStream {
    let Some(ident) = stages.first() else {
        return TokenStream::new();
    };
    let block_length = ulit(b.block_len());
    let setters = field_setters(ctx, b);
    let doc = format!(
        " Encoder of message `{}`: header and root block at `wrap`, the fields set in any order, \
         then groups and var data in schema order, each returning the encoder of what may follow. \
         The fields' descriptions are on [`{decoder}`].",
        b.name
    );
    // The block is kept only where a setter writes to it.
    let (buf_field, buf_init) = if b.has_setters() {
        (
            quote!(buf: &'a mut [u8; #block_length],),
            quote!(buf: block,),
        )
    } else {
        (quote!(), quote!())
    };
    let wrap_fn = message_wrap_fn(ctx, b, m, buf_init);
    let reserves = reserve_consts(ctx, b, Tail::Root(ident));
    let length_fn = length_fn(b, Tail::Root(ident));
    let element = proc_macro2::Literal::u16_unsuffixed(b.element);
    let first = stage_items(ctx, b, (stages, 0), groups, Tail::Root(ident));
    let later = later_stages(ctx, b, stages, groups, Tail::Root(ident));
    let (setters, wrap_fn, reserves) = (moved(setters), moved(wrap_fn), moved(reserves));
    let (length_fn, first) = (moved(length_fn), moved(first));
    quote! {
        #[doc = #doc]
        pub struct #ident<'a> {
            #buf_field
            tail: &'a mut [u8],
            total: usize,
        }

        #[allow(deprecated)]
        impl<'a> #ident<'a> {
            #reserves

            #wrap_fn

            ::sbe_rt::encoder_api!(wrap_exact 'a, #element);

            #length_fn

            #setters

            #first
        }

        #later
    }
}

/// The stages of `b`'s encoder after the first (`stages[1..]`): a type
/// each, holding the tail (a message's) or the group's encoder (an
/// entry's), with the sections from its own on and `finish`.
fn later_stages(
    ctx: &Ctx,
    b: &NamedBlock,
    stages: &[Ident],
    groups: &[GroupIdents],
    tail: Tail,
) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, stage) in stages.iter().enumerate().skip(1) {
        let items = moved(stage_items(ctx, b, (stages, i), groups, tail));
        let doc = match section_name(b, i) {
            Some(name) => format!(
                " Encoder of `{}` where {name} and the sections after it may follow; \
                 earlier ones are written.",
                b.name
            ),
            None => format!(
                " Encoder of `{}` with all its groups and var data written.",
                b.name
            ),
        };
        out.extend(match tail {
            Tail::Root(_) => quote! {
                #[doc = #doc]
                pub struct #stage<'a> {
                    tail: &'a mut [u8],
                    total: usize,
                }

                #[allow(deprecated)]
                impl<'a> #stage<'a> {
                    #items
                }
            },
            Tail::Entry(_) => {
                // The last stage writes nothing that needs room kept.
                let reserve = if i < b.sections() {
                    quote!(reserve: usize,)
                } else {
                    TokenStream::new()
                };
                quote! {
                #[doc = #doc]
                pub struct #stage<'g, 'a> {
                    tail: &'g mut &'a mut [u8],
                    step: &'g mut usize,
                    #reserve
                }

                #[allow(deprecated)]
                impl<'g, 'a> #stage<'g, 'a> {
                    #items
                }
                }
            }
        });
    }
    out
}

/// The section methods of stage `i` of `b`'s encoder (standing before
/// section `i`): one per section from `i` on, and `finish`, which writes
/// the sections not written empty. Section `i`'s method writes it; a later
/// one's writes those before it empty and calls the method of the stage
/// standing before it: each section's writing is generated once.
fn stage_items(
    ctx: &Ctx,
    b: &NamedBlock,
    (stages, i): (&[Ident], usize),
    groups: &[GroupIdents],
    tail: Tail,
) -> TokenStream {
    let mut out = finish_fn(ctx, b, i, tail);
    let sections = b.sections();
    for j in i..sections {
        let (Some(next), Some(target)) = (stages.get(j + 1), stages.get(j)) else {
            continue;
        };
        let (name, params, args, dep, ret) = section_signature(b, groups, j, next, tail);
        let body = if j == i {
            match b.groups.get(j) {
                Some(_) => group_body(b, groups, j, tail),
                None => data_body(ctx, b, j, next, tail),
            }
        } else {
            let skipped = skipped_bytes(ctx, b, i..j);
            let tail_ref = tail.tail();
            let make = tail.stage(target, false);
            quote! {
                __sbe::codec::put_empty(#tail_ref, &[#(#skipped),*])?;
                #make.#name(#args)
            }
        };
        let doc = section_doc(b, j, i, target);
        // A message's stages take their tail out of `self`; an entry's
        // write through their `&mut` of the group's encoder.
        let this = match tail {
            Tail::Root(_) if j > i || b.groups.get(j).is_none() => quote!(mut self),
            _ => quote!(self),
        };
        out.extend(quote! {
            #doc
            #dep
            #[inline(always)]
            pub fn #name(#this, #params) -> #ret {
                #body
            }
        });
    }
    out
}

/// The bytes of sections `range` of `b` written empty, one after another,
/// as literals.
fn skipped_bytes(
    ctx: &Ctx,
    b: &NamedBlock,
    range: std::ops::Range<usize>,
) -> Vec<proc_macro2::Literal> {
    range
        .flat_map(|section| empty_section(ctx, b, section))
        .map(proc_macro2::Literal::u8_unsuffixed)
        .collect()
}

/// The schema name of section `section` of `b`, quoted for a doc
/// (`` group `fuelFigures` ``).
fn section_name(b: &NamedBlock, section: usize) -> Option<String> {
    match b.groups.get(section) {
        Some(g) => Some(format!("group `{}`", g.name)),
        None => b
            .data
            .get(section - b.groups.len())
            .map(|d| format!("var data `{}`", d.name)),
    }
}

/// The doc of section `j`'s method on stage `i`: what it writes, and for
/// a later section, that those before it are written empty.
fn section_doc(b: &NamedBlock, j: usize, i: usize, target: &Ident) -> TokenStream {
    let what = match b.groups.get(j) {
        Some(g) => format!(
            "starts group `{}` (id {}) for at most `count` entries: its encoder, whose `next_entry()` \
             starts each entry and whose `end()` writes the count of entries written and returns the \
             encoder of what may follow.",
            g.name, g.id
        ),
        None => {
            let d = b.data.get(j - b.groups.len());
            format!(
                "writes var data `{}` (id {}); returns the encoder of what may follow.",
                d.map_or("", |d| d.name.as_str()),
                d.map_or(0, |d| d.id)
            )
        }
    };
    if j == i {
        let mut what = what;
        what[..1].make_ascii_uppercase();
        docs(None, what)
    } else {
        docs(
            None,
            format!(
                "Writes {} empty, then as [`{target}`] does: {what}",
                section_names(b, i..j)
            ),
        )
    }
}

/// Section `j`'s method's name, parameters, the arguments passing them on,
/// its `#[deprecated]` and its return type (`Result` of stage `next`).
fn section_signature(
    b: &NamedBlock,
    groups: &[GroupIdents],
    j: usize,
    next: &Ident,
    tail: Tail,
) -> (Ident, TokenStream, TokenStream, TokenStream, TokenStream) {
    let lifetimes = match tail {
        Tail::Root(_) => quote!(<'a>),
        Tail::Entry(_) => quote!(<'g, 'a>),
    };
    let ret = quote!(EncodeResult<#next #lifetimes>);
    match (b.groups.get(j), b.names.groups.get(j), groups.get(j)) {
        (Some(g), Some(name), Some(idents)) => {
            let enc = &idents.enc;
            (
                name.clone(),
                quote!(count: usize),
                quote!(count),
                deprecated(g.deprecated),
                quote!(EncodeResult<#enc #lifetimes>),
            )
        }
        _ => {
            let k = j - b.groups.len();
            let name = b.names.data.get(k).map(|a| a.name.clone());
            let dep = deprecated(b.data.get(k).and_then(|d| d.deprecated));
            (
                name.unwrap_or_else(|| format_ident!("sbe_d{k}")),
                quote!(v: impl ::core::convert::AsRef<[u8]>),
                quote!(v),
                dep,
                ret,
            )
        }
    }
}

/// The start of group `j` by the stage standing before it: the group's
/// encoder, given the tail (a message's) or the entry's tail and step,
/// which its `end()` gives back with the stage after the group.
fn group_body(b: &NamedBlock, groups: &[GroupIdents], j: usize, tail: Tail) -> TokenStream {
    let Some(idents) = groups.get(j) else {
        return TokenStream::new();
    };
    let enc = &idents.enc;
    let reserve = tail.reserve(&reserve_after(b, j));
    match tail {
        Tail::Root(_) => quote! {
            #enc::new(self.tail, self.total, count, #reserve)
        },
        Tail::Entry(_) => quote! {
            #enc::new(self.tail, self.step, self.reserve, count, #reserve)
        },
    }
}

/// The writing of var data `j` (a section number) by the stage standing
/// before it: its length and bytes, leaving room for the sections after.
fn data_body(ctx: &Ctx, b: &NamedBlock, j: usize, next: &Ident, tail: Tail) -> TokenStream {
    let Some(d) = b.data.get(j - b.groups.len()) else {
        return TokenStream::new();
    };
    let var_data = d.var_data(ctx.byte_order());
    let data_offset = ulit(var_data.data_offset);
    let reserve = tail.reserve(&reserve_after(b, j));
    let max_length = var_data.max_length;
    // A var data's length is always on the wire.
    let put_length = match uint_put(var_data.length) {
        Some((put, offset, ty)) => quote!(#put(prefix, #offset, n as #ty);),
        None => TokenStream::new(),
    };
    let at = super::at(d.element);
    let step = ulit(j + 1);
    let tail_ref = tail.tail();
    let stage = tail.stage(next, j + 1 == b.sections());
    let make = match tail {
        Tail::Root(_) => stage,
        Tail::Entry(_) => quote!({ *self.step = #step; #stage }),
    };
    quote! {
        let v = v.as_ref();
        let n = __sbe::codec::check_length(v.len(), #max_length)#at?;
        __sbe::codec::put_var_data_n::<#data_offset>(#tail_ref, v, #reserve, |prefix| { #put_length })#at?;
        __sbe::Ok(#make)
    }
}

/// `finish` of stage `i` of `b`'s encoder: the sections from `i` on
/// written empty; a message's returns its length, an entry's nothing (its
/// group's next entry or end would write them).
fn finish_fn(ctx: &Ctx, b: &NamedBlock, i: usize, tail: Tail) -> TokenStream {
    let rest = skipped_bytes(ctx, b, i..b.sections());
    let tail_ref = tail.tail();
    match tail {
        Tail::Root(_) => {
            let (this, put) = if rest.is_empty() {
                (quote!(self), TokenStream::new())
            } else {
                (
                    quote!(mut self),
                    quote!(__sbe::codec::put_empty(#tail_ref, &[#(#rest),*])?;),
                )
            };
            quote! {
                ::sbe_rt::encoder_api!(encoded_length);

                /// Writes the groups and var data not written yet, empty,
                /// and returns the message's length.
                #[inline(always)]
                pub fn finish(#this) -> EncodeResult<usize> {
                    #put
                    __sbe::Ok(self.encoded_length())
                }
            }
        }
        Tail::Entry(group) => quote! {
            /// Writes the entry's groups and var data not written yet,
            /// empty (the next entry, or the end of the group, would).
            #[inline]
            pub fn finish(self) -> EncodeResult<()> {
                __sbe::Ok(#group::complete(self.step, self.tail)?)
            }
        },
    }
}

/// The statements that make block `block` (a `&mut [u8; N]` of `b`'s
/// block) hold no field set (`Block::unset_bytes`, the IR's): zeros, then
/// the nulls' bytes, a run of non-zero bytes at a time, in stores of 8, 4,
/// 2 and 1 bytes (`zero`: whether to zero the block first; `next_entry`'s
/// comes zeroed). Copying the whole block from a constant cost more
/// (loads and stores of every byte, where zeroing stores one register):
/// these stores of constants are one instruction each, and a block without
/// nulls is the zeroing it was.
fn unset_block(ctx: &Ctx, b: &NamedBlock, block: &TokenStream, zero: bool) -> TokenStream {
    let block_length = ulit(b.block_len());
    let mut out = if zero {
        quote!(*#block = [0; #block_length];)
    } else {
        TokenStream::new()
    };
    for (at, width, value) in b.block.unset_stores(ctx.byte_order()) {
        let (put, lit) = match width {
            8 => (
                quote!(put_u64_le),
                proc_macro2::Literal::u64_suffixed(value),
            ),
            4 => (
                quote!(put_u32_le),
                proc_macro2::Literal::u32_suffixed(value as u32),
            ),
            2 => (
                quote!(put_u16_le),
                proc_macro2::Literal::u16_suffixed(value as u16),
            ),
            _ => (
                quote!(put_u8_le),
                proc_macro2::Literal::u8_suffixed(value as u8),
            ),
        };
        let at = ulit(at);
        out.extend(quote!(::sbe_rt::#put(#block, #at, #lit);));
    }
    out
}

/// `wrap` of a message encoder: checks the buffer holds the message with
/// its sections empty, writes the header and the root block unset.
/// `buf_init`: the encoder's block field, if it keeps one.
fn message_wrap_fn(ctx: &Ctx, b: &NamedBlock, m: &Message, buf_init: TokenStream) -> TokenStream {
    let header_encoder = ctx.header_type("Encoder");
    let header_writes = super::dispatch::header_writes(ctx, b.block_len() as u64, u64::from(m.id));
    let dep = deprecated(b.deprecated);
    let need = plus(quote!(HEADER_LENGTH), b.block_len());
    let block_length = ulit(b.block_len());
    let need = if b.sections() > 0 {
        quote!(#need + Self::SECTIONS_RESERVE)
    } else {
        need
    };
    let unset = unset_block(ctx, b, &quote!(block), true);
    quote! {
        /// Starts a message at the start of `buf`: writes the header and
        /// the root block with no field set (an optional field holds its
        /// null, any other field zeros). Fails when `buf` cannot hold the
        /// message with its groups and var data empty.
        #dep
        pub fn wrap(buf: &'a mut [u8]) -> EncodeResult<Self> {
            let total = buf.len();
            __sbe::codec::check_room(buf, #need)?;
            let (hdr, rest) = __sbe::codec::split_array_mut::<HEADER_LENGTH>(buf)?;
            let (block, tail) = __sbe::codec::split_array_mut::<#block_length>(rest)?;
            *hdr = [0; HEADER_LENGTH];
            #unset
            let mut h = #header_encoder { buf: hdr };
            #header_writes
            __sbe::Ok(Self { #buf_init tail, total })
        }
    }
}

/// Where a group is: in a message's root block (its encoder then owns the
/// tail, and the message's length so far) or in a group's entry (its
/// encoder borrows the entry's tail and step), and the stage after it,
/// which its `end()` returns.
#[derive(Clone, Copy)]
pub(super) struct Position<'i> {
    pub top: bool,
    /// The group's number among its block's sections.
    pub section: usize,
    /// Whether it is its block's last section.
    pub last: bool,
    pub next: &'i Ident,
}

impl Position<'_> {
    /// The lifetimes of the group's encoder: `'g`, the entry's borrow,
    /// where it is nested.
    fn lifetimes(self) -> TokenStream {
        if self.top {
            quote!(<'a>)
        } else {
            quote!(<'g, 'a>)
        }
    }

    /// The encoder's tail as a `&mut &'a mut [u8]`.
    fn tail(self) -> TokenStream {
        tail_ref(self.top)
    }
}

/// `self.tail` as a `&mut &'a mut [u8]`, where `self` owns the tail
/// (`owns`: a message's stage, a message's group) or borrows it (an
/// entry's stage, a nested group).
fn tail_ref(owns: bool) -> TokenStream {
    if owns {
        quote!(&mut self.tail)
    } else {
        quote!(&mut *self.tail)
    }
}

/// Whether `next_entry` counts `b`'s entries plainly (`codec::take_entry`)
/// rather than as `codec::next_block` does: entries with groups or var
/// data, each taking a byte at least (its block, or its sections written
/// empty), so that the room bounds how many there can be. `end` checks
/// the count either way.
fn counts_plainly(ctx: &Ctx, b: &NamedBlock) -> bool {
    b.sections() > 0 && (b.block_len() > 0 || empty_from(ctx, b, 0) > 0)
}

/// The encoder of group `g`, at `at`, whose entry block is `b`, and where
/// the entries have groups or var data, the stages of an entry's encoder.
pub(super) fn group_encoder(
    ctx: &Ctx,
    (g, at): (&Group, Position),
    b: &NamedBlock,
    idents: &GroupIdents,
    nested: &[GroupIdents],
) -> TokenStream {
    let enc = &idents.enc;
    let sections = b.sections();
    let dim_len = ulit(g.dimension(ctx.byte_order()).len);
    // Entries without sections are written by the group's encoder, whose
    // setters write the entry's block; an entry with sections has stages
    // of its own, the first holding the block.
    let (buf_field, buf_init, setters) = if sections == 0 && b.has_setters() {
        (
            quote!(buf: &'a mut [u8],),
            quote!(buf: &mut [],),
            field_setters(ctx, b),
        )
    } else {
        (quote!(), quote!(), TokenStream::new())
    };
    let sections_lit = ulit(sections);
    let (step_field, step_init, complete) = if sections > 0 {
        (
            quote!(step: usize,),
            quote!(step: #sections_lit,),
            complete_fn(ctx, b),
        )
    } else {
        (quote!(), quote!(), TokenStream::new())
    };
    let lifetimes = at.lifetimes();
    let (outer_fields, outer_init) = if at.top {
        (
            quote!(tail: &'a mut [u8], total: usize,),
            quote!(tail, total,),
        )
    } else if at.last {
        // The entry's last section: nothing after it needs room kept.
        (
            quote!(tail: &'g mut &'a mut [u8], parent_step: &'g mut usize,),
            quote!(tail, parent_step,),
        )
    } else {
        (
            quote!(tail: &'g mut &'a mut [u8], parent_step: &'g mut usize, parent_reserve: usize,),
            quote!(tail, parent_step, parent_reserve,),
        )
    };
    let new_fn = group_new_fn(ctx, g, b, at, (outer_init, buf_init, step_init));
    let end_fn = end_fn(ctx, g, b, at);
    let each_entry_fn = each_entry_fn(ctx, b, at);
    let next_entry_fn = next_entry_fn(ctx, b, idents, at);
    let reserves = reserve_consts(ctx, b, Tail::Entry(enc));
    let length_fn = moved(if sections > 0 {
        length_fn(b, Tail::Entry(enc))
    } else {
        TokenStream::new()
    });
    let stages = moved(entry_stages(ctx, b, idents, nested));
    let doc = format!(
        " Encoder of group `{}`: `next_entry()` starts each entry, `end()` writes the count of \
         entries written and returns the encoder of what follows the group. The fields' \
         descriptions are on [`{}`].",
        g.name, idents.entry
    );
    let (setters, reserves, new_fn) = (moved(setters), moved(reserves), moved(new_fn));
    let (next_entry_fn, complete, end_fn) = (moved(next_entry_fn), moved(complete), moved(end_fn));
    quote! {
        #[doc = #doc]
        #[must_use = "the group's count and what follows it are written by `end()`"]
        pub struct #enc #lifetimes {
            #outer_fields
            dim: &'a mut [u8; #dim_len],
            #buf_field
            count: usize,
            written: usize,
            reserve: usize,
            #step_field
        }

        #[allow(deprecated)]
        impl #lifetimes #enc #lifetimes {
            #reserves

            #new_fn

            #length_fn

            #next_entry_fn

            #end_fn

            #complete

            #each_entry_fn

            #setters
        }

        #stages
    }
}

/// `end` of a group's encoder at `at`: the last entry's sections not
/// written are written empty, the count of entries written is written,
/// and the stage after the group is returned with the tail (and, nested,
/// the entry's step counting the group as written).
fn end_fn(ctx: &Ctx, g: &Group, b: &NamedBlock, at: Position) -> TokenStream {
    let next = at.next;
    let lifetimes = at.lifetimes();
    let put_count = put_count(ctx, g);
    let complete = if b.sections() > 0 {
        let tail = at.tail();
        quote!(Self::complete(&mut self.step, #tail)?;)
    } else {
        TokenStream::new()
    };
    let this = if b.sections() > 0 {
        quote!(mut self)
    } else {
        quote!(self)
    };
    let make = if at.top {
        quote!(#next { tail: self.tail, total: self.total })
    } else {
        let step = ulit(at.section + 1);
        let reserve = (!at.last).then(|| quote!(reserve: self.parent_reserve));
        quote!({
            *self.parent_step = #step;
            #next { tail: self.tail, step: self.parent_step, #reserve }
        })
    };
    let at_group = super::at(g.element);
    quote! {
        /// Ends the group: the last entry's groups and var data not
        /// written are written empty, and the count of entries written
        /// is written. Refused when more entries were written than the
        /// count the group was started with. Returns the encoder of what
        /// follows the group.
        #[inline(always)]
        pub fn end(#this) -> EncodeResult<#next #lifetimes> {
            #complete
            __sbe::codec::check_written(self.written, self.count)#at_group?;
            #put_count
            __sbe::Ok(#make)
        }
    }
}

/// The stages of the encoder of an entry of the group `idents` names,
/// where its entries have groups or var data (`idents.stages`): the first
/// holds the entry's block and its setters. Each holds the tail, the
/// group encoder's step (the entry's sections written) and its reserve.
fn entry_stages(
    ctx: &Ctx,
    b: &NamedBlock,
    idents: &GroupIdents,
    nested: &[GroupIdents],
) -> TokenStream {
    let (Some(first), enc) = (idents.stages.first(), &idents.enc) else {
        return TokenStream::new();
    };
    let block_length = ulit(b.block_len());
    let (buf_field, setters) = if b.has_setters() {
        (
            quote!(buf: &'a mut [u8; #block_length],),
            field_setters(ctx, b),
        )
    } else {
        (quote!(), TokenStream::new())
    };
    let items = stage_items(ctx, b, (&idents.stages, 0), nested, Tail::Entry(enc));
    let later = later_stages(ctx, b, &idents.stages, nested, Tail::Entry(enc));
    let doc = format!(
        " Encoder of an entry of group `{}`: its fields set in any order, then its groups and \
         var data in schema order, each returning the encoder of what may follow.",
        b.name
    );
    let (setters, items) = (moved(setters), moved(items));
    quote! {
        #[doc = #doc]
        pub struct #first<'g, 'a> {
            #buf_field
            tail: &'g mut &'a mut [u8],
            step: &'g mut usize,
            reserve: usize,
        }

        #[allow(deprecated)]
        impl<'g, 'a> #first<'g, 'a> {
            #setters

            #items
        }

        #later
    }
}

/// `complete` of the encoder of a group whose entries have sections: the
/// current entry's sections from `step` on, written empty (each stage
/// counts in `step` the sections it wrote).
fn complete_fn(ctx: &Ctx, b: &NamedBlock) -> TokenStream {
    let sections = ulit(b.sections());
    let empty_sections = (0..b.sections()).map(|section| {
        let bytes = empty_section(ctx, b, section)
            .into_iter()
            .map(proc_macro2::Literal::u8_unsuffixed);
        quote!(&[#(#bytes),*])
    });
    quote! {
        /// Writes the current entry's sections not written yet (from
        /// `step`), empty.
        #[inline(always)]
        fn complete(step: &mut usize, tail: &mut &mut [u8]) -> ::sbe_rt::Result<()> {
            __sbe::codec::complete(step, #sections, tail, &[#(#empty_sections),*])
        }
    }
}

/// `new` of a group encoder at `at`: checks the count and writes the
/// dimension (its count is written by `end`). `inits`: the encoder's
/// fields beside the dimension and counts.
fn group_new_fn(
    ctx: &Ctx,
    g: &Group,
    b: &NamedBlock,
    at: Position,
    (outer_init, buf_init, step_init): (TokenStream, TokenStream, TokenStream),
) -> TokenStream {
    let dim = g.dimension(ctx.byte_order());
    let dim_len = ulit(dim.len);
    let max_count = dim.max_count;
    // A constant block length is not on the wire.
    let put_block_length = match uint_put(dim.block_length) {
        Some((put, offset, ty)) => {
            let block_length = typed_lit(u64::from(b.block.block_length), &ty);
            quote!(#put(dim, #offset, #block_length);)
        }
        None => TokenStream::new(),
    };
    let dim_need = plus(quote!(reserve), dim.len);
    let (params, tail) = if at.top {
        (
            quote!(mut tail: &'a mut [u8], total: usize,),
            quote!(&mut tail),
        )
    } else {
        let parent_reserve = if at.last {
            quote!(_parent_reserve)
        } else {
            quote!(parent_reserve)
        };
        (
            quote!(tail: &'g mut &'a mut [u8], parent_step: &'g mut usize, #parent_reserve: usize,),
            quote!(&mut *tail),
        )
    };
    // Until `end`, the entry's step says the group is open: dropped
    // before then, its count unwritten, the entry cannot go on.
    let open = if at.top {
        TokenStream::new()
    } else {
        let element = super::element_lit(g.element);
        quote!(*parent_step = __sbe::codec::group_open(#element);)
    };
    quote! {
        #[inline]
        fn new(#params count: usize, reserve: usize) -> EncodeResult<Self> {
            __sbe::codec::check_count(count, #max_count)?;
            let dim = __sbe::codec::take_zeroed::<#dim_len>(#tail, #dim_need)?;
            #put_block_length
            #open
            __sbe::Ok(Self { #outer_init dim, #buf_init count, written: 0, reserve, #step_init })
        }
    }
}

/// The dimension's count written as the entries written (`self.written`),
/// when the count is on the wire.
fn put_count(ctx: &Ctx, g: &Group) -> TokenStream {
    match uint_put(g.dimension(ctx.byte_order()).count) {
        Some((put, offset, count_type)) => {
            quote!(#put(self.dim, #offset, self.written as #count_type);)
        }
        None => TokenStream::new(),
    }
}

/// `next_entry` of a group encoder: takes a block with no field set (see
/// `unset_block`) and counts it. Where entries have sections, the
/// previous entry's not written are written empty first, and the entry's
/// first stage is returned; else the group's encoder, whose setters write
/// the block.
fn next_entry_fn(ctx: &Ctx, b: &NamedBlock, idents: &GroupIdents, at: Position) -> TokenStream {
    let need = plus(quote!(self.reserve), b.block_len());
    let block_length = ulit(b.block_len());
    let sections = b.sections() > 0;
    let need = if sections {
        quote!(#need + Self::SECTIONS_RESERVE)
    } else {
        need
    };
    let tail = at.tail();
    let take = if counts_plainly(ctx, b) {
        quote!(__sbe::codec::take_entry::<#block_length>(#tail, &mut self.written, #need)?)
    } else {
        quote!(__sbe::codec::next_block::<#block_length>(#tail, &mut self.written, self.count, #need)?)
    };
    let take = if !b.block.unset_stores(ctx.byte_order()).is_empty() {
        // `next_entry` zeroes the block; the nulls follow.
        let unset = unset_block(ctx, b, &quote!(block), false);
        quote!({ let block = #take; #unset block })
    } else {
        take
    };
    let doc = quote! {
        /// Starts the next entry, no field set (an optional field holds
        /// its null, any other field zeros); its fields, nested groups and
        /// var data follow. Fails when the buffer is too small; `end()`
        /// refuses more entries than the count the group was started with.
    };
    match (sections, idents.stages.first()) {
        (true, Some(first)) => {
            let (keep, init) = if b.has_setters() {
                (quote!(let block = #take;), quote!(buf: block,))
            } else {
                (quote!(#take;), quote!())
            };
            quote! {
                #doc
                #[inline]
                pub fn next_entry(&mut self) -> EncodeResult<#first<'_, 'a>> {
                    Self::complete(&mut self.step, #tail)?;
                    #keep
                    self.step = 0;
                    __sbe::Ok(#first { #init tail: #tail, step: &mut self.step, reserve: self.reserve })
                }
            }
        }
        _ => {
            let keep = if b.has_setters() {
                quote!(self.buf = #take;)
            } else {
                quote!(#take;)
            };
            quote! {
                #doc
                #[inline]
                pub fn next_entry(&mut self) -> EncodeResult<&mut Self> {
                    #keep
                    __sbe::Ok(self)
                }
            }
        }
    }
}

/// `sbe_each` of a group encoder whose entries are of one size (a block
/// of fields, no nested group or var data), for the owned messages
/// (`sbe_rt::owned_each_entry!`).
fn each_entry_fn(ctx: &Ctx, b: &NamedBlock, at: Position) -> TokenStream {
    // `entries_of_one_size` implies setters, so the encoder keeps `buf`.
    if !ctx.opts.owned || !super::blocks::entries_of_one_size(b.block) {
        return TokenStream::new();
    }
    let block_length = ulit(b.block_len());
    if at.top {
        quote!(::sbe_rt::owned_each_entry!(#block_length);)
    } else {
        quote!(::sbe_rt::owned_each_entry!(#block_length, nested);)
    }
}

/// Which encoder a block's sections are written by: where its tail (the
/// buffer after what is written) is, and what it must leave room for.
#[derive(Clone, Copy)]
enum Tail<'i> {
    /// A message's stages (the first named): they own the tail.
    Root(&'i Ident),
    /// An entry's stages, holding the group's encoder (named), which owns
    /// the tail and leaves room for the sections after the group
    /// (`reserve`).
    Entry(&'i Ident),
}

impl Tail<'_> {
    /// The stage's tail as a `&mut &'a mut [u8]`.
    fn tail(self) -> TokenStream {
        tail_ref(matches!(self, Tail::Root(_)))
    }

    /// Stage `next`, made from the stage or group encoder `self`: a
    /// message's tail and its length so far, or an entry's tail, step
    /// and, unless `next` is the entry's last stage (`last`), reserve.
    fn stage(self, next: &Ident, last: bool) -> TokenStream {
        match self {
            Tail::Root(_) => quote!(#next { tail: self.tail, total: self.total }),
            Tail::Entry(_) => {
                let reserve = (!last).then(|| quote!(reserve: self.reserve));
                quote!(#next { tail: self.tail, step: self.step, #reserve })
            }
        }
    }

    /// The bytes to leave after a section: those of the sections after
    /// it, written empty (the constant `after`, on the type that has
    /// them), and in an entry those after the group.
    fn reserve(self, after: &Ident) -> TokenStream {
        match self {
            Tail::Root(root) => quote!(#root::#after),
            Tail::Entry(group) => quote!(self.reserve + #group::#after),
        }
    }
}

/// A setter per field on the wire (constants have none).
fn field_setters(ctx: &Ctx, b: &NamedBlock) -> TokenStream {
    let mut out = TokenStream::new();
    for (f, Accessor { name, value, .. }) in b.fields.iter().zip(&b.names.fields) {
        let val = Val::of(ctx, &f.type_name, &f.ty, f.presence, f.const_value.as_ref());
        // The description is on the decoder's accessor (linked from the
        // encoder's own doc): written twice it was a tenth of a venue's file.
        let doc = docs(
            None,
            format!("Sets `{}` (id {}, offset {}).", f.name, f.id, f.offset),
        );
        let dep = deprecated(f.deprecated);
        if let Some(setter) = val.setter(
            ctx,
            name,
            (f.offset as usize, f.element),
            &quote!(#doc #dep),
        ) {
            out.extend(setter);
        }
        if let Some(value) = value {
            let unstated = ctx.opts.timestamp_unit;
            out.extend(typed::field_setter(
                &f.meaning,
                &val,
                (value, name),
                unstated,
                f.element,
            ));
        }
    }
    out
}

/// The name of the constant that holds the bytes left free after section
/// `section` of `b`: its accessor's, shouted, with `_RESERVE`.
fn reserve_after(b: &NamedBlock, section: usize) -> Ident {
    let name = match b.names.groups.get(section) {
        Some(name) => name.to_string(),
        None => b
            .names
            .data
            .get(section - b.groups.len())
            .map(|a| a.name.to_string())
            .unwrap_or_default(),
    };
    let name = name.trim_start_matches("r#").to_uppercase();
    format_ident!("{name}_RESERVE")
}

/// The schema names of sections `range` of `b`, for a doc: `` `a`, `b` ``.
fn section_names(b: &NamedBlock, range: std::ops::Range<usize>) -> String {
    range
        .map(|section| match b.groups.get(section) {
            Some(g) => format!("`{}`", g.name),
            None => b
                .data
                .get(section - b.groups.len())
                .map(|d| format!("`{}`", d.name))
                .unwrap_or_default(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The encoder's constants of the bytes it leaves free for the sections
/// still to come, written empty: `SECTIONS_RESERVE`, those of all of
/// them, which `wrap` or `next_entry` leaves after the block; and per
/// section, those after it, which its writer leaves.
fn reserve_consts(ctx: &Ctx, b: &NamedBlock, tail: Tail) -> TokenStream {
    let sections = b.sections();
    if sections == 0 {
        return TokenStream::new();
    }
    let (maker, whose, beside) = match tail {
        Tail::Root(_) => ("wrap", "message's", ""),
        Tail::Entry(_) => ("next_entry", "entry's", ", beside `reserve`"),
    };
    let all = ulit(empty_from(ctx, b, 0));
    let doc = format!(
        " Bytes `{maker}` leaves free after the block{beside}: the {whose} groups and \
         var data ({}), written empty.",
        section_names(b, 0..sections)
    );
    let mut out = quote! {
        #[doc = #doc]
        const SECTIONS_RESERVE: usize = #all;
    };
    for section in 0..sections {
        let name = reserve_after(b, section);
        let after = ulit(empty_from(ctx, b, section + 1));
        let what = section_name(b, section).unwrap_or_default();
        let doc = if section + 1 < sections {
            format!(
                " Bytes left free after {what}{beside}: the {whose} sections after it ({}), \
                 written empty.",
                section_names(b, section + 1..sections)
            )
        } else {
            format!(" Bytes left free after {what}{beside}: none, it is the {whose} last section.")
        };
        out.extend(quote! {
            #[doc = #doc]
            const #name: usize = #after;
        });
    }
    out
}

/// The bytes of section `section` written empty (the IR's
/// `Group::empty_bytes` and `Data::empty_bytes`).
fn empty_section(ctx: &Ctx, b: &NamedBlock, section: usize) -> Vec<u8> {
    match b.groups.get(section) {
        Some(g) => g.empty_bytes(ctx.schema.byte_order),
        None => match b.data.get(section - b.groups.len()) {
            Some(d) => d.empty_bytes(),
            None => Vec::new(),
        },
    }
}

/// Bytes of the sections from `first` on, written empty.
fn empty_from(ctx: &Ctx, b: &NamedBlock, first: usize) -> usize {
    (first..b.sections())
        .map(|section| empty_section(ctx, b, section).len())
        .sum()
}

/// Whether a group's entries are all of one size: no nested group or var
/// data (the length rule then takes the group's count, not its entries'
/// lengths).
fn fixed_entries(g: &Group) -> bool {
    g.block.groups.is_empty() && g.block.data.is_empty()
}

/// The length rule of `b`: a message encoder's `exact_length` (header
/// included) or a group encoder's `entry_length` (one entry), from what
/// its sections will hold: per group, the count of its entries (entries
/// of one size) or each entry's `entry_length`; per var data, its bytes.
/// The owned types' `encoded_length` calls it too, so that the two agree.
fn length_fn(b: &NamedBlock, tail: Tail) -> TokenStream {
    let mut params = Vec::new();
    let mut parts = Vec::new();
    let mut docs_of = Vec::new();
    for (g, name) in b.groups.iter().zip(&b.names.groups) {
        if fixed_entries(g) {
            let block = ulit(g.block.block_length as usize);
            params.push(quote!(#name: usize));
            parts.push(quote!(__sbe::codec::blocks_length(#name, #block)));
            docs_of.push(format!(
                "`{}`: the count of entries of group `{}`",
                name.to_string().trim_start_matches("r#"),
                g.name
            ));
        } else {
            params.push(quote!(#name: impl ::core::iter::IntoIterator<Item = usize>));
            parts.push(quote!(__sbe::codec::entries_length(#name)));
            docs_of.push(format!(
                "`{}`: each entry's length, from `entry_length`, of group `{}`",
                name.to_string().trim_start_matches("r#"),
                g.name
            ));
        }
    }
    for (d, a) in b.data.iter().zip(&b.names.data) {
        let name = &a.name;
        params.push(quote!(#name: usize));
        parts.push(quote!(#name));
        docs_of.push(format!(
            "`{}`: the bytes of var data `{}`",
            name.to_string().trim_start_matches("r#"),
            d.name
        ));
    }
    let block = b.block_len();
    let (fn_name, base, what) = match tail {
        Tail::Root(_) => (
            quote!(exact_length),
            {
                let base = plus(quote!(HEADER_LENGTH), block);
                if b.sections() > 0 {
                    quote!(#base + Self::SECTIONS_RESERVE)
                } else {
                    base
                }
            },
            "The exact length of the message, header included, before writing it (for `wrap_exact`)",
        ),
        Tail::Entry(_) => (
            quote!(entry_length),
            if block == 0 {
                quote!(Self::SECTIONS_RESERVE)
            } else {
                let block = ulit(block);
                quote!(#block + Self::SECTIONS_RESERVE)
            },
            "The exact length of one entry, for the group's length in its message's `exact_length`",
        ),
    };
    let doc = if docs_of.is_empty() {
        format!(" {what}.")
    } else {
        format!(" {what}: {}.", docs_of.join("; "))
    };
    let body = if parts.is_empty() {
        base
    } else {
        quote!(__sbe::codec::sum_lengths(#base, &[#(#parts),*]))
    };
    let allow = if params.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        TokenStream::new()
    };
    let constness = if params.is_empty() {
        quote!(const)
    } else {
        TokenStream::new()
    };
    quote! {
        #[doc = #doc]
        #allow
        #[inline]
        pub #constness fn #fn_name(#(#params),*) -> usize {
            #body
        }
    }
}
