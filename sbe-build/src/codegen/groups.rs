//! Group iterators: the `Iterator` over a group's entries, one type per
//! group, of one of two kinds.
//!
//! A group whose entries are blocks only (no nested groups, no var data)
//! has its dimension and the whole span of its entries checked once, when
//! it is opened; `next` then only splits the span. Any other group checks
//! each entry as it reaches it, and is stepped over (`skip`) by the walks
//! that find the sections after it.
//!
//! A group of a message's root block (`top`) is opened lazily from where
//! the root decoder's section cache says it starts (`open`), and tells the
//! cache where it ends; a group nested in an entry is opened by the entry
//! when the entry is wrapped.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::blocks::{dim_of, entries_are_blocks, GroupIdents};
use super::values::{getter, plus, to_u64};
use super::Ctx;
use crate::ir::Group;

/// `sbe_rt::codec::MAX_EMPTY_ENTRIES`: the most entries of no bytes a group
/// may claim (corpus-tests' `codec_behaviour` checks the two are equal).
pub const MAX_EMPTY_ENTRIES: u64 = 1 << 20;

/// The iterator over the entries of group `g`. `top`: a group of a root
/// block; `gated`: newer than the block it is in, so an older message
/// reads it as empty.
pub(super) fn group_iter(
    ctx: &Ctx,
    g: &Group,
    idents: &GroupIdents,
    top: bool,
    gated: bool,
) -> TokenStream {
    if entries_are_blocks(g) {
        fixed_group_iter(ctx, g, idents, top, gated)
    } else {
        variable_group_iter(ctx, g, idents, top)
    }
}

/// The iterator over a group whose entries have nested groups or var data:
/// it keeps where the next entry starts, and wraps (checks) each entry as
/// it is reached.
fn variable_group_iter(ctx: &Ctx, g: &Group, idents: &GroupIdents, top: bool) -> TokenStream {
    let GroupIdents { iter, entry, .. } = idents;
    let doc = format!(" The entries of group `{}`, in order.", g.name);
    let at_and_head = variable_at_and_head(ctx, g, entry);
    let open_fn = if top {
        variable_open_fn()
    } else {
        TokenStream::new()
    };
    let skip_fn = variable_skip_fn(g, entry);
    let next_impl = variable_iterator_impl(iter, entry);
    let tail = iter_tail(ctx, iter);
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #iter<'a> {
            buf: &'a [u8],
            pos: usize,
            block_length: usize,
            remaining: usize,
            version: u32,
            done: ::core::option::Option<&'a ::core::cell::Cell<usize>>,
        }

        impl<'a> #iter<'a> {
            #at_and_head
            #open_fn
            #skip_fn
        }

        #next_impl

        #tail
    }
}

/// `at` (the group at a position already checked) and `head` (the group at
/// a position, its dimension checked) of a group of non-block entries.
fn variable_at_and_head(ctx: &Ctx, g: &Group, entry: &Ident) -> TokenStream {
    let dim = dim_of(g);
    let dim_len = dim.len;
    let max_count = dim.max_count;
    let get_block_length = getter(ctx, dim.block_length_primitive);
    let get_count = getter(ctx, dim.count_primitive);
    let entries_at = plus(quote!(pos), dim_len);
    let block_length_at = plus(quote!(pos), dim.block_length_offset);
    let count_at = plus(quote!(pos), dim.count_offset);
    let block_length = to_u64(
        dim.block_length_primitive,
        quote!(#get_block_length(buf, #block_length_at)),
    );
    let count = to_u64(dim.count_primitive, quote!(#get_count(buf, #count_at)));
    quote! {
        /// The group whose dimension header is at `buf[pos..]` (checked by `skip`).
        #[inline]
        fn at(buf: &'a [u8], pos: usize, version: u32) -> Self {
            Self {
                buf,
                pos: #entries_at,
                block_length: ::sbe_rt::codec::to_usize(#block_length),
                remaining: ::sbe_rt::codec::to_usize(#count),
                version,
                done: ::core::option::Option::None,
            }
        }

        /// The group at `buf[pos..]`, its dimension checked.
        #[inline]
        fn head(buf: &'a [u8], pos: usize, version: u32) -> ::core::result::Result<Self, ::sbe_rt::Error> {
            ::sbe_rt::slice(buf, pos, #dim_len)?;
            let mut g = Self::at(buf, pos, version);
            g.block_length = ::sbe_rt::codec::check_group(g.remaining, g.block_length, #max_count, #entry::required(version))?;
            ::core::result::Result::Ok(g)
        }
    }
}

/// `open` of a root block's group of non-block entries: where it ends is
/// known only when its last entry is reached, and stored then.
fn variable_open_fn() -> TokenStream {
    quote! {
        /// The group at `pos` (when known), its dimension checked here;
        /// empty when it does not check. When the last entry is reached,
        /// where the group ends is stored in `done`.
        #[inline]
        fn open(buf: &'a [u8], pos: ::core::result::Result<usize, ::sbe_rt::Error>, version: u32, done: ::core::option::Option<&'a ::core::cell::Cell<usize>>) -> Self {
            match pos.and_then(|pos| Self::head(buf, pos, version)) {
                ::core::result::Result::Ok(mut g) => {
                    if g.remaining == 0 {
                        if let ::core::option::Option::Some(c) = done {
                            c.set(g.pos);
                        }
                    } else {
                        g.done = done;
                    }
                    g
                }
                ::core::result::Result::Err(_) => Self { buf, pos: 0, block_length: 0, remaining: 0, version, done: ::core::option::Option::None },
            }
        }
    }
}

/// `skip` of a group of non-block entries: checks every entry.
fn variable_skip_fn(g: &Group, entry: &Ident) -> TokenStream {
    let min_tail = entry_tail_expr(g);
    quote! {
        /// Checks the group at `buf[pos..]` and returns where it ends.
        #[inline]
        fn skip(buf: &'a [u8], pos: usize, version: u32) -> ::core::result::Result<usize, ::sbe_rt::Error> {
            let g = Self::head(buf, pos, version)?;
            // The whole walk (`checked_length`, `message_length`)
            // refuses a count its entries cannot fit before any
            // entry, as `sbe decode` does; lazy iteration finds it
            // at the entry that does not fit.
            ::sbe_rt::codec::check_entries(buf, g.pos, g.remaining, g.block_length.saturating_add(#min_tail))?;
            let mut p = g.pos;
            for _ in 0..g.remaining {
                p = #entry::wrap_at(buf, p, g.block_length, version)?.end;
            }
            ::core::result::Result::Ok(p)
        }
    }
}

/// The fewest bytes an entry of `g` takes after its block at the acting
/// `version` (the IR's `entry_tail`), as an expression of `version`.
fn entry_tail_expr(g: &Group) -> TokenStream {
    let base = g.entry_tail(g.since_version) as usize;
    let mut body = quote!(#base);
    for v in g.entry_tail_versions() {
        let tail = g.entry_tail(v) as usize;
        body = quote!(if version >= #v { #tail } else { #body });
    }
    body
}

/// `Iterator` for a group of non-block entries: an entry that does not
/// check ends the iteration.
fn variable_iterator_impl(iter: &Ident, entry: &Ident) -> TokenStream {
    quote! {
        impl<'a> ::core::iter::Iterator for #iter<'a> {
            type Item = #entry<'a>;

            #[inline]
            fn next(&mut self) -> ::core::option::Option<#entry<'a>> {
                if self.remaining == 0 {
                    return ::core::option::Option::None;
                }
                match #entry::wrap_at(self.buf, self.pos, self.block_length, self.version) {
                    ::core::result::Result::Ok(e) => {
                        self.pos = e.end;
                        self.remaining -= 1;
                        if self.remaining == 0 {
                            if let ::core::option::Option::Some(c) = self.done {
                                c.set(self.pos);
                            }
                        }
                        ::core::option::Option::Some(e)
                    }
                    ::core::result::Result::Err(_) => {
                        self.remaining = 0;
                        ::core::option::Option::None
                    }
                }
            }

            #[inline]
            fn size_hint(&self) -> (usize, ::core::option::Option<usize>) {
                (self.remaining, ::core::option::Option::Some(self.remaining))
            }
        }
    }
}

/// What every group iterator has after its `Iterator` impl (which counts
/// down `remaining`): `ExactSizeIterator` and a `Debug` listing the entries.
fn iter_tail(ctx: &Ctx, iter: &Ident) -> TokenStream {
    let debug_impl = if ctx.opts.debug {
        quote! {
            impl ::core::fmt::Debug for #iter<'_> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.debug_list().entries(*self).finish()
                }
            }
        }
    } else {
        TokenStream::new()
    };
    quote! {
        impl ::core::iter::ExactSizeIterator for #iter<'_> {}

        #debug_impl
    }
}

/// The iterator over a group whose entries are blocks only (no nested
/// groups, no var data): the dimension and the whole span of entries are
/// checked once, when the group is opened, and `next` only splits the span.
/// The group's end is known then too, so a root decoder learns where the
/// next section starts without waiting for the last entry.
fn fixed_group_iter(
    ctx: &Ctx,
    g: &Group,
    idents: &GroupIdents,
    top: bool,
    gated: bool,
) -> TokenStream {
    let GroupIdents { iter, entry, .. } = idents;
    let doc = format!(" The entries of group `{}`, in order.", g.name);
    // For `open`'s fallback, and for an entry older than the group.
    let empty_fn = if top || gated {
        fixed_empty_fn()
    } else {
        TokenStream::new()
    };
    let check_fn = fixed_check_fn(ctx, g, entry);
    // A root decoder opens its groups lazily and steps over them to find
    // later sections; an entry keeps its nested groups as checked.
    let top_fns = if top {
        fixed_open_and_skip_fns()
    } else {
        TokenStream::new()
    };
    let next_impl = fixed_iterator_impl(iter, entry, top);
    let tail = iter_tail(ctx, iter);
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #iter<'a> {
            entries: &'a [u8],
            block_length: usize,
            remaining: usize,
            version: u32,
        }

        impl<'a> #iter<'a> {
            #empty_fn
            #check_fn
            #top_fns
        }

        #next_impl

        #tail
    }
}

/// `empty` of a group of block entries: what a group not there reads as.
fn fixed_empty_fn() -> TokenStream {
    quote! {
        /// A group of no entries, as one that is not there reads.
        #[inline]
        fn empty(version: u32) -> Self {
            Self { entries: &[], block_length: 0, remaining: 0, version }
        }
    }
}

/// `check` of a group of block entries: the dimension and that the whole
/// span of entries is in the buffer.
fn fixed_check_fn(ctx: &Ctx, g: &Group, entry: &Ident) -> TokenStream {
    let dim = dim_of(g);
    let dim_len = dim.len;
    let max_count = dim.max_count;
    let get_block_length = getter(ctx, dim.block_length_primitive);
    let get_count = getter(ctx, dim.count_primitive);
    let block_length_offset = dim.block_length_offset;
    let count_offset = dim.count_offset;
    let block_length = to_u64(
        dim.block_length_primitive,
        quote!(#get_block_length(h, #block_length_offset)),
    );
    let count = to_u64(dim.count_primitive, quote!(#get_count(h, #count_offset)));
    let entries_at = plus(quote!(pos), dim_len);
    // Entries of no bytes are bounded by `sbe_rt::codec::MAX_EMPTY_ENTRIES`;
    // below that bound the count maximum bounds them already, and the
    // check would cost every group open (md_decode +21 instructions).
    let empty_entries = if max_count > MAX_EMPTY_ENTRIES {
        quote!(::sbe_rt::codec::check_entries(buf, #entries_at, remaining, block_length)?;)
    } else {
        TokenStream::new()
    };
    quote! {
        /// Checks the dimension at `buf[pos..]` and that every entry
        /// fits in `buf`: the group, and where it ends.
        #[inline]
        fn check(buf: &'a [u8], pos: usize, version: u32) -> ::core::result::Result<(Self, usize), ::sbe_rt::Error> {
            let h = ::sbe_rt::codec::array_at::<#dim_len>(buf, pos)?;
            let block_length = ::sbe_rt::codec::to_usize(#block_length);
            let remaining = ::sbe_rt::codec::to_usize(#count);
            let block_length = ::sbe_rt::codec::check_group(remaining, block_length, #max_count, #entry::required(version))?;
            #empty_entries
            let end = ::sbe_rt::codec::blocks_end(buf, #entries_at, remaining, block_length)?;
            let entries = buf.get(#entries_at..end).unwrap_or_default();
            ::core::result::Result::Ok((Self { entries, block_length, remaining, version }, end))
        }
    }
}

/// `open` and `skip` of a root block's group of block entries: both check
/// the group whole, so its end is known (and stored) at once.
fn fixed_open_and_skip_fns() -> TokenStream {
    quote! {
        /// The group at `pos` (when known); empty when it does not
        /// check. Where the group ends is stored in `done`.
        #[inline]
        fn open(buf: &'a [u8], pos: ::core::result::Result<usize, ::sbe_rt::Error>, version: u32, done: ::core::option::Option<&'a ::core::cell::Cell<usize>>) -> Self {
            match pos.and_then(|pos| Self::check(buf, pos, version)) {
                ::core::result::Result::Ok((g, end)) => {
                    if let ::core::option::Option::Some(c) = done {
                        c.set(end);
                    }
                    g
                }
                ::core::result::Result::Err(_) => Self::empty(version),
            }
        }

        /// Checks the group at `buf[pos..]` and returns where it ends.
        #[inline]
        fn skip(buf: &'a [u8], pos: usize, version: u32) -> ::core::result::Result<usize, ::sbe_rt::Error> {
            ::core::result::Result::Ok(Self::check(buf, pos, version)?.1)
        }
    }
}

/// `Iterator` for a group of block entries: `next` splits the checked span.
fn fixed_iterator_impl(iter: &Ident, entry: &Ident, top: bool) -> TokenStream {
    // A top-level group's count is checked anyway: measured, LLVM merges
    // `open`'s empty fallback into the loop when only the span ends it
    // (`md_decode` 137 -> 154 instructions), while a nested group's loop
    // gets tighter (`car_decode` 483 -> 438). An empty group of zero-length
    // blocks (a version-gated one, `block_length: 0`) ends on its count.
    let count_check = if top {
        quote!(self.remaining == 0)
    } else {
        quote!(self.block_length == 0 && self.remaining == 0)
    };
    quote! {
        impl<'a> ::core::iter::Iterator for #iter<'a> {
            type Item = #entry<'a>;

            #[inline]
            fn next(&mut self) -> ::core::option::Option<#entry<'a>> {
                // The span holds exactly `remaining` entries: when they are
                // at least a byte long, it runs out when the count does,
                // and splitting it is the only check (LLVM drops the
                // `block_length` test, known non-zero from `check`).
                if #count_check {
                    return ::core::option::Option::None;
                }
                let (block, rest) = self.entries.split_at_checked(self.block_length)?;
                self.entries = rest;
                self.remaining = self.remaining.saturating_sub(1);
                ::core::option::Option::Some(#entry::from_block(block, self.version))
            }

            #[inline]
            fn size_hint(&self) -> (usize, ::core::option::Option<usize>) {
                (self.remaining, ::core::option::Option::Some(self.remaining))
            }
        }
    }
}
