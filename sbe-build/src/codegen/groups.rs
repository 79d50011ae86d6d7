//! Group iterators: the iterator over a group's entries is one of
//! `sbe_rt::group`'s two, named for the group by a type alias; what the
//! generated code adds is the entry decoder's side of it, the
//! `BlockEntry` or `VarEntry` impl (the dimension, the block length the
//! fields need, and how an entry is made from its bytes).
//!
//! A group whose entries are blocks only (no nested groups, no var data)
//! is `Blocks`: its dimension and the whole span of its entries are
//! checked once, when it is opened. Any other group is `Entries`: each
//! entry is checked as the iteration reaches it, and the group is stepped
//! over (`skip`) by the walks that find the sections after it.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::blocks::GroupIdents;
use super::values::{uint_tokens, ulit};
use super::Ctx;
use crate::ir::Group;

/// The iterator type of group `g`: an alias of `sbe_rt::group`'s. `top`:
/// a group of a root block (whose iteration ends on its count; see
/// `sbe_rt::group::Blocks`).
pub(super) fn group_iter(g: &Group, idents: &GroupIdents, top: bool) -> TokenStream {
    let GroupIdents { iter, entry, .. } = idents;
    let doc = format!(" The entries of group `{}`, in order.", g.name);
    let ty = if g.has_block_entries() {
        quote!(::sbe_rt::group::Blocks<'a, #entry<'a>, #top>)
    } else {
        quote!(::sbe_rt::group::Entries<'a, #entry<'a>>)
    };
    quote! {
        #[doc = #doc]
        pub type #iter<'a> = #ty;
    }
}

/// The impl through which the iterator of group `g` makes entry decoder
/// `entry`: `BlockEntry` (`blocks`: entries are blocks only) or
/// `VarEntry`. `items`: the entry's `required` and `from_block` or
/// `wrap_at`.
pub(super) fn entry_impl(
    ctx: &Ctx,
    g: &Group,
    entry: &Ident,
    blocks: bool,
    items: TokenStream,
) -> TokenStream {
    let dim = dimension(ctx, g);
    let element = super::element_lit(g.element);
    if blocks {
        quote! {
            impl<'a> ::sbe_rt::group::BlockEntry<'a> for #entry<'a> {
                const DIMENSION: ::sbe_rt::wire::Dimension = #dim;
                const ELEMENT: u16 = #element;
                #items
            }
        }
    } else {
        let (min_tail, uses_version) = entry_tail_expr(g);
        let param = if uses_version {
            quote!(version)
        } else {
            quote!(_)
        };
        quote! {
            impl<'a> ::sbe_rt::group::VarEntry<'a> for #entry<'a> {
                const DIMENSION: ::sbe_rt::wire::Dimension = #dim;
                const ELEMENT: u16 = #element;
                #items

                #[inline]
                fn min_tail(#param: u32) -> usize {
                    #min_tail
                }

                #[inline]
                fn end(&self) -> usize {
                    self.end
                }
            }
        }
    }
}

/// Group `g`'s dimension as an `sbe_rt::wire::Dimension`.
fn dimension(ctx: &Ctx, g: &Group) -> TokenStream {
    let dim = g.dimension(ctx.byte_order());
    let len = ulit(dim.len);
    let max_count = dim.max_count;
    let block_length = uint_tokens(dim.block_length);
    let count = uint_tokens(dim.count);
    quote! {
        ::sbe_rt::wire::Dimension { len: #len, block_length: #block_length, count: #count, max_count: #max_count }
    }
}

/// The fewest bytes an entry of `g` takes after its block at the acting
/// `version` (the IR's `entry_tail`), as an expression of `version`, and
/// whether it reads `version`.
fn entry_tail_expr(g: &Group) -> (TokenStream, bool) {
    let base = g.entry_tail(g.block.since_version) as usize;
    let steps = g
        .entry_tail_versions()
        .into_iter()
        .map(|v| (v, g.entry_tail(v) as usize));
    super::values::version_ladder(base, steps)
}
