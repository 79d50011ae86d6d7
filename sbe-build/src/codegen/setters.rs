//! Setters: the encoder methods that write one value at a fixed offset of
//! `self.buf`, a field of a block or a member of a composite. A setter of a
//! number, enum or set takes the value (an `Option` where the value is
//! optional, `None` written as the null value) and returns the encoder
//! for chaining; a char array's is fallible; a composite's returns its
//! encoder.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::element_lit;
use super::values::{elem_at, int_lit, lit, putter, rust_prim, ulit, Val};
use super::Ctx;
use crate::ir::Primitive;

impl Val<'_> {
    /// The encoder's setter `name` for this value, writing to `self.buf`
    /// at `offset`, after `attrs`; `None` for constants. A fallible one's
    /// errors name schema element `element` (0: none). The usual shapes
    /// are `sbe_rt::setter!`'s; an array's is written out.
    pub(crate) fn setter(
        &self,
        ctx: &Ctx,
        name: &Ident,
        (offset, element): (usize, u16),
        attrs: &TokenStream,
    ) -> Option<TokenStream> {
        let at = ulit(offset);
        let call = match self {
            Val::Const { .. } => return None,
            Val::Char { len, .. } if *len != 1 => {
                let len = ulit(*len);
                let element = (element != 0).then(|| {
                    let n = element_lit(element);
                    quote!(, #n)
                });
                quote!(chars #attrs #name = (#at, #len) #element)
            }
            Val::Comp { enc, .. } => quote!(comp #attrs #name: #enc = #at),
            Val::Prim {
                prim,
                optional,
                null,
            } => {
                let (ty, put) = (rust_prim(*prim), put_ident(ctx, *prim));
                if *optional {
                    let null = lit(*prim, *null);
                    quote!(opt #attrs #name: #ty = #put(#at), #null)
                } else {
                    quote!(put #attrs #name: #ty = #put(#at))
                }
            }
            Val::Char { optional, null, .. } => {
                if *optional {
                    let null = int_lit(Primitive::Char, *null);
                    quote!(opt #attrs #name: u8 = put_u8_le(#at), #null)
                } else {
                    quote!(put #attrs #name: u8 = put_u8_le(#at))
                }
            }
            Val::Enum {
                ident,
                ty,
                optional,
            } => {
                let put = put_ident(ctx, ty.encoding);
                if *optional {
                    let null = int_lit(ty.encoding, ty.null_value);
                    quote!(opt_enum #attrs #name: #ident = #put(#at), #null)
                } else {
                    quote!(enum #attrs #name: #ident = #put(#at))
                }
            }
            Val::Set { ident, ty } => {
                let put = put_ident(ctx, ty.encoding);
                quote!(set #attrs #name: #ident = #put(#at))
            }
            Val::Array { prim, len, .. } => {
                let prim_type = rust_prim(*prim);
                let put = putter(ctx, *prim);
                let at = elem_at(offset, prim.size() as usize);
                let len = ulit(*len);
                return Some(quote! {
                    #attrs
                    #[inline]
                    pub fn #name(&mut self, v: [#prim_type; #len]) -> &mut Self {
                        for (i, x) in v.into_iter().enumerate() {
                            #put(self.buf, #at, x);
                        }
                        self
                    }
                });
            }
        };
        Some(quote!(::sbe_rt::setter!(#call);))
    }
}

/// `put_u16_le`: the `sbe_rt` function writing primitive `p`.
fn put_ident(ctx: &Ctx, p: Primitive) -> Ident {
    quote::format_ident!("put_{}_{}", p.rust_type(), ctx.order())
}
