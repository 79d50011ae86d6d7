//! Setters: the encoder methods that write one value at a fixed offset of
//! `self.buf`, a field of a block or a member of a composite. A setter of a
//! number, enum or set takes the value (an `Option` where the value is
//! optional, `None` written as the null value) and returns the encoder
//! for chaining; a char array's is fallible; a composite's returns its
//! encoder.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::values::{elem_at, int_lit, lit, putter, rust_prim, ulit, Val};
use super::Ctx;
use crate::ir::Primitive;

impl Val<'_> {
    /// The encoder's setter `name` for this value, writing to `self.buf`
    /// at `offset`, after `attrs`; `None` for constants. A fallible one's
    /// errors name schema element `element` (0: none).
    pub(crate) fn setter(
        &self,
        ctx: &Ctx,
        name: &Ident,
        (offset, element): (usize, u16),
        attrs: &TokenStream,
    ) -> Option<TokenStream> {
        match self {
            Val::Const { .. } => None,
            Val::Char { len, .. } if *len != 1 => {
                Some(char_array_setter(attrs, name, (offset, *len), element))
            }
            Val::Comp { enc, .. } => Some(composite_setter(attrs, name, offset, enc)),
            _ => {
                let (param, write) = self.chained_write(ctx, offset)?;
                Some(chained_setter(attrs, name, param, write))
            }
        }
    }

    /// For a value whose setter takes it and returns the encoder (a
    /// number, char, array, enum or set): the parameter's type and the
    /// statements writing `v` at `offset`.
    fn chained_write(&self, ctx: &Ctx, at: usize) -> Option<(TokenStream, TokenStream)> {
        let buf = quote!(self.buf);
        let offset = ulit(at);
        Some(match self {
            Val::Prim {
                prim,
                optional,
                null,
            } => {
                let prim_type = rust_prim(*prim);
                let put = putter(ctx, *prim);
                if *optional {
                    let null = lit(*prim, *null);
                    (
                        quote!(::core::option::Option<#prim_type>),
                        quote!(#put(#buf, #offset, v.unwrap_or(#null));),
                    )
                } else {
                    (quote!(#prim_type), quote!(#put(#buf, #offset, v);))
                }
            }
            Val::Char {
                len: 1,
                optional,
                null,
                ..
            } => {
                if *optional {
                    let null = int_lit(Primitive::Char, *null);
                    (
                        quote!(::core::option::Option<u8>),
                        quote!(::sbe_rt::put_u8_le(#buf, #offset, v.unwrap_or(#null));),
                    )
                } else {
                    (quote!(u8), quote!(::sbe_rt::put_u8_le(#buf, #offset, v);))
                }
            }
            Val::Array { prim, len, .. } => {
                let prim_type = rust_prim(*prim);
                let put = putter(ctx, *prim);
                let at = elem_at(at, prim.size() as usize);
                let len = ulit(*len);
                let write = quote! {
                    for (i, x) in v.into_iter().enumerate() {
                        #put(#buf, #at, x);
                    }
                };
                (quote!([#prim_type; #len]), write)
            }
            Val::Enum {
                ident,
                ty,
                optional,
            } => {
                let put = putter(ctx, ty.encoding);
                if *optional {
                    let null = int_lit(ty.encoding, ty.null_value);
                    (
                        quote!(::core::option::Option<#ident>),
                        quote!(#put(#buf, #offset, v.map_or(#null, #ident::raw));),
                    )
                } else {
                    (quote!(#ident), quote!(#put(#buf, #offset, v.raw());))
                }
            }
            Val::Set { ident, ty } => {
                let put = putter(ctx, ty.encoding);
                (quote!(#ident), quote!(#put(#buf, #offset, v.0);))
            }
            Val::Const { .. } | Val::Char { .. } | Val::Comp { .. } => return None,
        })
    }
}

/// A setter `name` taking `v: param`, running `write` and returning the
/// encoder.
fn chained_setter(
    attrs: &TokenStream,
    name: &Ident,
    param: TokenStream,
    write: TokenStream,
) -> TokenStream {
    quote! {
        #attrs
        #[inline]
        pub fn #name(&mut self, v: #param) -> &mut Self {
            #write
            self
        }
    }
}

/// The setter of a composite: its encoder over the bytes from `offset`.
fn composite_setter(attrs: &TokenStream, name: &Ident, offset: usize, enc: &Ident) -> TokenStream {
    let offset = ulit(offset);
    quote! {
        #attrs
        #[inline]
        pub fn #name(&mut self) -> #enc<'_> {
            #enc { buf: self.buf.get_mut(#offset..).unwrap_or_default() }
        }
    }
}

/// The setter of a char array of `len` bytes: NUL-padded, too long an `Err`.
fn char_array_setter(
    attrs: &TokenStream,
    name: &Ident,
    (offset, len): (usize, usize),
    element: u16,
) -> TokenStream {
    let at = super::at(element);
    let (offset, len) = (ulit(offset), ulit(len));
    quote! {
        #attrs
        /// Fails when `v` is longer than the array; a shorter value is padded with NUL.
        #[inline]
        pub fn #name(&mut self, v: impl ::core::convert::AsRef<[u8]>) -> ::sbe_rt::Result<&mut Self> {
            ::sbe_rt::text::put_char_array(self.buf, #offset, #len, v.as_ref())#at?;
            __sbe::Ok(self)
        }
    }
}
