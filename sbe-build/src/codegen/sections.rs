//! Sections: how a decoder finds the groups and var data after its block
//! (its sections, groups first, numbered in schema order).
//!
//! A group entry steps over its sections when it is wrapped (`entry_walk`)
//! and keeps each as it found it: a group of blocks as its checked
//! iterator (`s{i}`), any other group as its position (`s{i}`, its entries
//! found again when iterated), var data as its bytes (`d{j}`).
//!
//! A message's root decoder finds them lazily, through an
//! `sbe_rt::__private::sections::Sections` cache of where each starts once known;
//! what the generated code adds is `sbe_step`, where each of its sections
//! ends, and `sbe_d{j}`, which reads var data `j` through the cache.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::blocks::{GroupIdents, NamedBlock};
use super::decoder::{Kind, Shape};
use super::values::{at_least, uint_tokens, ulit};
use super::Ctx;
use crate::ir::Group;

/// The field an entry decoder keeps group `section` in.
fn group_field(section: usize) -> Ident {
    format_ident!("s{}", section)
}

/// The field an entry decoder keeps var data `j` (section `groups + j`) in.
fn data_field(j: usize) -> Ident {
    format_ident!("d{}", j)
}

/// The private method a root decoder reads var data `j` through.
fn data_reader(j: usize) -> Ident {
    format_ident!("sbe_d{}", j)
}

/// `if version >= since { then } else { otherwise }` where the section is
/// newer than the block (`gated`), else `then`.
fn when_present(gated: bool, since: u32, then: TokenStream, otherwise: TokenStream) -> TokenStream {
    if gated {
        let present = at_least(quote!(version), since);
        quote!(if #present { #then } else { #otherwise })
    } else {
        then
    }
}

/// How a decoder's accessor finds a section: the expression, and whether
/// it is a field the decoder keeps (reading it computes nothing, so a gated
/// accessor takes it with `then_some`, not a closure).
pub(super) struct SectionRead {
    pub expr: TokenStream,
    pub kept: bool,
}

/// The iterator over group `g` (section `section`, iterator type `iter`)
/// as the decoder's accessor makes it.
pub(super) fn group_at(shape: &Shape, section: usize, g: &Group, iter: &Ident) -> SectionRead {
    let field = group_field(section);
    let (expr, kept) = if shape.kind == Kind::LazyRoot {
        let (section, next) = (ulit(section), ulit(section + 1));
        (
            quote!(#iter::open(self.buf, self.sbe_at(#section), self.version, self.sec.slot(#next))),
            false,
        )
    } else if g.has_block_entries() {
        (quote!(self.#field), true)
    } else {
        (
            quote!(#iter::at(self.buf, self.#field, self.version)),
            false,
        )
    };
    SectionRead { expr, kept }
}

/// The bytes of var data `j` as the decoder's accessor finds them.
pub(super) fn data_bytes(shape: &Shape, j: usize) -> SectionRead {
    if shape.kind == Kind::LazyRoot {
        let reader = data_reader(j);
        SectionRead {
            expr: quote!(self.#reader()),
            kept: false,
        }
    } else {
        let field = data_field(j);
        SectionRead {
            expr: quote!(self.#field),
            kept: true,
        }
    }
}

/// The constant a decoder keeps var data `j`'s length prefix in.
fn data_const(j: usize) -> Ident {
    format_ident!("SBE_D{}", j)
}

/// A decoder's constant per var data: where its length prefix and bytes
/// are, as the `sbe_rt::wire::VarData` its reads and steps go through.
pub(super) fn var_data_consts(ctx: &Ctx, b: &NamedBlock) -> TokenStream {
    let mut out = TokenStream::new();
    for (j, d) in b.data.iter().enumerate() {
        let name = data_const(j);
        let var_data = d.var_data(ctx.byte_order());
        let length = uint_tokens(var_data.length);
        let (data_offset, max_length) = (ulit(var_data.data_offset), var_data.max_length);
        let element = super::element_lit(var_data.element);
        let doc = format!(" Where var data `{}` keeps its length and bytes.", d.name);
        out.extend(quote! {
            #[doc = #doc]
            const #name: ::sbe_rt::wire::VarData = ::sbe_rt::wire::VarData {
                length: #length,
                data_offset: #data_offset,
                max_length: #max_length,
                element: #element,
            };
        });
    }
    out
}

/// Var data `j` whose prefix starts at `pos` in `buf`, read (`read`: its
/// bytes and end) or stepped over (`end`), checked against its maximum
/// and the bytes there are (the prefix is read before `pos` is added to:
/// a root decoder's reader may be handed a start not known yet). Through
/// `sbe_rt::var_data!`, not `VarData`'s methods: its two `?` exits stay in
/// the caller, which keeps the decoders' entry loops as short as
/// hand-written ones.
fn var_data_call(j: usize, what: TokenStream) -> TokenStream {
    let name = data_const(j);
    quote!(::sbe_rt::var_data!(#what Self::#name, buf, pos))
}

/// What an entry decoder's `wrap_at` does to step over its sections
/// (`statements`, advancing `pos`), and the fields it keeps them in.
#[derive(Default)]
pub(super) struct EntryWalk {
    pub statements: TokenStream,
    pub fields: TokenStream,
    pub inits: TokenStream,
}

/// Steps over every section of the entry `b` as `wrap_at` makes it.
pub(super) fn entry_walk(b: &NamedBlock, groups: &[GroupIdents]) -> EntryWalk {
    let mut walk = EntryWalk::default();
    for (section, (g, idents)) in b.groups.iter().zip(groups).enumerate() {
        let iter = &idents.iter;
        let since = g.block.since_version;
        let gated = b.is_gated(since);
        let field = group_field(section);
        if g.has_block_entries() {
            // Checked whole here; an absent group is an empty one.
            let check = quote!({
                let (g, end) = #iter::check(buf, pos, version)?;
                pos = end;
                g
            });
            walk.statements.extend(if gated {
                let present = at_least(quote!(version), since);
                quote!(let #field = if #present #check else {
                    #iter::empty(version)
                };)
            } else {
                quote!(let #field = #check;)
            });
            walk.fields.extend(quote!(#field: #iter<'a>,));
        } else {
            let skip = quote!(pos = #iter::skip(buf, pos, version)?;);
            walk.statements.extend(if gated {
                let present = at_least(quote!(version), since);
                quote!(let #field = pos; if #present { #skip })
            } else {
                quote!(let #field = pos; #skip)
            });
            walk.fields.extend(quote!(#field: usize,));
        }
        walk.inits.extend(quote!(#field,));
    }
    for (j, d) in b.data.iter().enumerate() {
        let since = d.since_version;
        let field = data_field(j);
        let read_call = var_data_call(j, quote!(read));
        let read = quote!({
            let (d, end) = #read_call?;
            pos = end;
            d
        });
        walk.statements.extend(if b.is_gated(since) {
            let present = at_least(quote!(version), since);
            quote!(let #field: &'a [u8] = if #present #read else { &[] };)
        } else {
            quote!(let #field: &'a [u8] = #read;)
        });
        walk.fields.extend(quote!(#field: &'a [u8],));
        walk.inits.extend(quote!(#field,));
    }
    walk
}

/// The section cache of a root decoder: its field and its initial value
/// (section 0 starts at `pos`, after the block; the others are unknown).
pub(super) fn cache_field(b: &NamedBlock) -> (TokenStream, TokenStream) {
    let sections = b.sections();
    let slots = ulit(sections + 1);
    (
        quote!(sec: __sbe::sections::Sections<#slots>,),
        quote!(sec: __sbe::sections::Sections::new(pos),),
    )
}

/// The arms of `sbe_step`: where each section that starts at `pos` ends;
/// and whether any arm reads `version` (a group's step does, and so does
/// a section newer than the block).
fn step_arms(b: &NamedBlock, groups: &[GroupIdents]) -> (TokenStream, bool) {
    let mut arms = TokenStream::new();
    let mut uses_version = false;
    for (section, (g, idents)) in b.groups.iter().zip(groups).enumerate() {
        let iter = &idents.iter;
        let step = quote!(#iter::skip(buf, pos, version)?);
        uses_version = true;
        let since = g.block.since_version;
        let end = when_present(b.is_gated(since), since, step, quote!(pos));
        let section = ulit(section);
        arms.extend(quote!(#section => #end,));
    }
    for (j, d) in b.data.iter().enumerate() {
        let section = b.groups.len() + j;
        let end_call = var_data_call(j, quote!(end));
        let step = quote!(#end_call?);
        let since = d.since_version;
        uses_version |= b.is_gated(since);
        let end = when_present(b.is_gated(since), since, step, quote!(pos));
        let section = ulit(section);
        arms.extend(quote!(#section => #end,));
    }
    (arms, uses_version)
}

/// A root decoder's lazy section lookup (`sbe_rt::__private::sections` holds the
/// cache and the walk): `sbe_step`, the one step that differs per message,
/// `sbe_at`, and the var data readers.
pub(super) fn lazy_fns(b: &NamedBlock, groups: &[GroupIdents]) -> TokenStream {
    let (step_arms, uses_version) = step_arms(b, groups);
    let unused = (!uses_version).then(|| quote!(let _ = version;));
    let readers = data_readers(b);
    // The groups' accessors open them where the cache says they start.
    let at_fn = if b.groups.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            /// Where section `i` starts, checked (found once, then cached).
            #[inline]
            fn sbe_at(&self, i: usize) -> ::sbe_rt::Result<usize> {
                self.sec.at(i, self.buf, self.version, Self::sbe_step)
            }
        }
    };
    quote! {
        /// Steps over section `j` starting at `pos`: where it ends, checked.
        #[inline(always)]
        fn sbe_step(buf: &[u8], version: u32, j: usize, pos: usize) -> ::sbe_rt::Result<usize> {
            #unused
            __sbe::Ok(match j {
                #step_arms
                _ => return __sbe::Err(__sbe::codec::no_section(buf)),
            })
        }

        #at_fn

        #readers
    }
}

/// A root decoder's `sbe_d{j}` per var data: its bytes, found through the
/// section cache; data that does not check reads as empty.
fn data_readers(b: &NamedBlock) -> TokenStream {
    let mut out = TokenStream::new();
    for j in 0..b.data.len() {
        let section = ulit(b.groups.len() + j);
        let reader = data_reader(j);
        let read_call = var_data_call(j, quote!(read));
        out.extend(quote! {
            #[inline]
            fn #reader(&self) -> &'a [u8] {
                let buf = self.buf;
                self.sec.data(#section, buf, self.version, Self::sbe_step, |pos| #read_call)
            }
        });
    }
    out
}

/// A root decoder's `sbe_end`: where the message ends in the bytes after
/// the header, checked as `decode` and `checked_length` check it, without
/// a decoder (the module's `message_length`).
pub(super) fn message_end_fn(b: &NamedBlock) -> TokenStream {
    let at = super::at(b.element);
    let sections = (0..b.sections()).map(ulit);
    let mut_pos = if b.sections() > 0 {
        quote!(mut)
    } else {
        quote!()
    };
    quote! {
        /// Where the message ends in `buf` (the bytes after the
        /// header), checked as `decode` and `checked_length` check
        /// it, without making a decoder: the schema's
        /// `message_length`.
        #[inline]
        fn sbe_end(buf: &'a [u8], block_length: usize, version: u32) -> ::sbe_rt::Result<usize> {
            __sbe::codec::check_block_length(block_length, Self::required(version))#at?;
            let #mut_pos pos = ::sbe_rt::slice(buf, 0, block_length)#at?.len();
            #(pos = Self::sbe_step(buf, version, #sections, pos)?;)*
            __sbe::Ok(pos)
        }
    }
}

/// A root decoder's length functions: a lazy decoder's `checked_length`
/// steps over the sections not reached yet, and may find they do not
/// check, so it is its only length (a `Result`); a decoder without
/// sections knows its end, so it has `encoded_length` too.
pub(super) fn message_length_fns(lazy: bool) -> TokenStream {
    // The same for every message of the kind: `sbe_rt`'s.
    if lazy {
        quote!(::sbe_rt::decoder_api!(lazy_length);)
    } else {
        quote!(::sbe_rt::decoder_api!(fixed_length);)
    }
}
