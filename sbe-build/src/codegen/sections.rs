//! Sections: how a decoder finds the groups and var data after its block
//! (its sections, groups first, numbered in schema order).
//!
//! A group entry steps over its sections when it is wrapped (`entry_walk`)
//! and keeps each as it found it: a group of blocks as its checked
//! iterator (`s{i}`), any other group as its position (`s{i}`, its entries
//! found again when iterated), var data as its bytes (`d{j}`).
//!
//! A message's root decoder finds them lazily: `sec` caches where each
//! section starts once known (`usize::MAX` until then; section 0 starts
//! after the block), `sbe_at` finds one by stepping over the sections
//! before it (`sbe_step`, `sbe_walk`) from the nearest known one, and var
//! data is read through `sbe_d{j}`, which remembers where the next section
//! starts.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::blocks::{data_layout, entries_are_blocks, Block, GroupIdents};
use super::decoder::Shape;
use super::values::{getter, plus, to_u64};
use super::Ctx;
use crate::ir::{Data, Group};

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
        quote!(if version >= #since { #then } else { #otherwise })
    } else {
        then
    }
}

/// The iterator over group `g` (section `section`, iterator type `iter`)
/// as the decoder's accessor makes it.
pub(super) fn group_at(shape: &Shape, section: usize, g: &Group, iter: &Ident) -> TokenStream {
    let field = group_field(section);
    if shape.lazy {
        let next = section + 1;
        quote!(#iter::open(self.buf, self.sbe_at(#section), self.version, self.sec.get(#next)))
    } else if entries_are_blocks(g) {
        quote!(self.#field)
    } else {
        quote!(#iter::at(self.buf, self.#field, self.version))
    }
}

/// The bytes of var data `j` as the decoder's accessor finds them.
pub(super) fn data_bytes(shape: &Shape, j: usize) -> TokenStream {
    if shape.lazy {
        let reader = data_reader(j);
        quote!(self.#reader())
    } else {
        let field = data_field(j);
        quote!(self.#field)
    }
}

/// The arguments of `sbe_rt::codec::var_data` and `data_end` for var data
/// `d` whose encoding composite starts at `pos` in `buf`: where its bytes
/// start, their length as read, and the most allowed.
fn var_data_args(ctx: &Ctx, d: &Data) -> TokenStream {
    let (length_offset, data_offset) = data_layout(d);
    let get_length = getter(ctx, d.length_primitive);
    let length = to_u64(
        d.length_primitive,
        quote!(#get_length(::sbe_rt::slice(buf, pos, #data_offset)?, #length_offset)),
    );
    let start = plus(quote!(pos), data_offset);
    let max_length = d.max_length;
    quote!(buf, #start, #length, #max_length)
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
pub(super) fn entry_walk(ctx: &Ctx, b: &Block, groups: &[GroupIdents]) -> EntryWalk {
    let mut walk = EntryWalk::default();
    for (section, (g, idents)) in b.groups.iter().zip(groups).enumerate() {
        let iter = &idents.iter;
        let since = g.since_version;
        let gated = b.is_gated(since);
        let field = group_field(section);
        if entries_are_blocks(g) {
            // Checked whole here; an absent group is an empty one.
            let check = quote!({
                let (g, end) = #iter::check(buf, pos, version)?;
                pos = end;
                g
            });
            walk.statements.extend(if gated {
                quote!(let #field = if version >= #since #check else {
                    #iter::empty(version)
                };)
            } else {
                quote!(let #field = #check;)
            });
            walk.fields.extend(quote!(#field: #iter<'a>,));
        } else {
            let skip = quote!(pos = #iter::skip(buf, pos, version)?;);
            walk.statements.extend(if gated {
                quote!(let #field = pos; if version >= #since { #skip })
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
        let args = var_data_args(ctx, d);
        let read = quote!({
            let (d, end) = ::sbe_rt::codec::var_data(#args)?;
            pos = end;
            d
        });
        walk.statements.extend(if b.is_gated(since) {
            quote!(let #field: &'a [u8] = if version >= #since #read else { &[] };)
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
pub(super) fn cache_field(b: &Block) -> (TokenStream, TokenStream) {
    let sections = b.sections();
    let slots = sections + 1;
    let unknown = (0..sections).map(|_| quote!(::core::cell::Cell::new(usize::MAX)));
    (
        quote!(sec: [::core::cell::Cell<usize>; #slots],),
        quote!(sec: [::core::cell::Cell::new(pos), #(#unknown),*],),
    )
}

/// The arms of `sbe_step`: where each section that starts at `pos` ends.
fn step_arms(ctx: &Ctx, b: &Block, groups: &[GroupIdents]) -> TokenStream {
    let mut arms = TokenStream::new();
    for (section, (g, idents)) in b.groups.iter().zip(groups).enumerate() {
        let iter = &idents.iter;
        let step = quote!(#iter::skip(buf, pos, version)?);
        let since = g.since_version;
        let end = when_present(b.is_gated(since), since, step, quote!(pos));
        arms.extend(quote!(#section => #end,));
    }
    for (j, d) in b.data.iter().enumerate() {
        let section = b.groups.len() + j;
        let args = var_data_args(ctx, d);
        let step = quote!(::sbe_rt::codec::data_end(#args)?);
        let since = d.since_version;
        let end = when_present(b.is_gated(since), since, step, quote!(pos));
        arms.extend(quote!(#section => #end,));
    }
    arms
}

/// A root decoder's lazy section lookup: `sbe_at`, `sbe_end_at`,
/// `sbe_step`, `sbe_walk` and the var data readers.
pub(super) fn lazy_fns(ctx: &Ctx, b: &Block, groups: &[GroupIdents]) -> TokenStream {
    let end = b.sections();
    let lookup = cache_lookup_fns(end);
    let walk = walk_fns(step_arms(ctx, b, groups), end);
    let readers = data_readers(ctx, b);
    quote! {
        #lookup

        #walk

        #readers
    }
}

/// `sbe_at` (where one section starts) and `sbe_end_at` (where the message
/// ends, every section found on the way remembered); `end`: the section
/// count, the cache's last slot.
fn cache_lookup_fns(end: usize) -> TokenStream {
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
            match self.sec.get(#end) {
                ::core::option::Option::Some(c) if c.get() != usize::MAX => ::core::result::Result::Ok(c.get()),
                _ => {
                    let known = self.sec.each_ref().map(::core::cell::Cell::get);
                    let (end, found) = Self::sbe_walk(self.buf, self.version, known, #end)?;
                    for (c, p) in self.sec.iter().zip(found) {
                        c.set(p);
                    }
                    ::core::result::Result::Ok(end)
                }
            }
        }
    }
}

/// `sbe_step` (over one section, by `step_arms`) and `sbe_walk` (over the
/// sections up to one); `end`: the section count.
fn walk_fns(step_arms: TokenStream, end: usize) -> TokenStream {
    let slots = end + 1;
    quote! {
        /// Steps over section `j` starting at `pos`: where it ends, checked.
        #[inline(always)]
        fn sbe_step(buf: &'a [u8], version: u32, j: usize, pos: usize) -> ::core::result::Result<usize, ::sbe_rt::Error> {
            let _ = version;
            ::core::result::Result::Ok(match j {
                #step_arms
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
        fn sbe_walk(buf: &'a [u8], version: u32, mut known: [usize; #slots], i: usize) -> ::core::result::Result<(usize, [usize; #slots]), ::sbe_rt::Error> {
            let mut j = i.min(#end);
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
    }
}

/// A root decoder's `sbe_d{j}` per var data: reads where the section
/// starts (found once), then the data, and remembers where the next
/// section starts. Data that does not check reads as empty.
fn data_readers(ctx: &Ctx, b: &Block) -> TokenStream {
    let mut out = TokenStream::new();
    for (j, d) in b.data.iter().enumerate() {
        let section = b.groups.len() + j;
        let next = section + 1;
        let reader = data_reader(j);
        let args = var_data_args(ctx, d);
        out.extend(quote! {
            #[inline]
            fn #reader(&self) -> &'a [u8] {
                let buf = self.buf;
                let found = self.sbe_at(#section).and_then(|pos| {
                    ::sbe_rt::codec::var_data(#args)
                });
                match found {
                    ::core::result::Result::Ok((d, end)) => {
                        if let ::core::option::Option::Some(c) = self.sec.get(#next) {
                            c.set(end);
                        }
                        d
                    }
                    ::core::result::Result::Err(_) => &[],
                }
            }
        });
    }
    out
}

/// A root decoder's `sbe_end`: where the message ends in the bytes after
/// the header, checked as `decode` and `checked_length` check it, without
/// a decoder (the module's `message_length`).
pub(super) fn message_end_fn(b: &Block) -> TokenStream {
    let sections = 0..b.sections();
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
        fn sbe_end(buf: &'a [u8], block_length: usize, version: u32) -> ::core::result::Result<usize, ::sbe_rt::Error> {
            ::sbe_rt::codec::check_block_length(block_length, Self::required(version))?;
            let #mut_pos pos = ::sbe_rt::slice(buf, 0, block_length)?.len();
            #(pos = Self::sbe_step(buf, version, #sections, pos)?;)*
            ::core::result::Result::Ok(pos)
        }
    }
}

/// A root decoder's `encoded_length` and `checked_length`: a lazy decoder
/// steps over the sections not reached yet, any other knows its end.
pub(super) fn message_length_fns(lazy: bool) -> TokenStream {
    if lazy {
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
    }
}
