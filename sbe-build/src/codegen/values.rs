//! One value at a fixed offset (a field of a block or a member of a
//! composite): its shape (`Val`), its accessor's type and how it is read,
//! and the literals and `sbe_rt` calls the generated code spells numbers
//! with. How it is written is in `setters`, its JSON and `Debug` in
//! `json_debug`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::Ctx;
use crate::ir::{ConstValue, EnumType, Presence, Primitive, Scalar, SetType, Type, TypeKind};
use sbe_rt::wire::Uint;

/// The shape of a value, as the generated code sees it.
pub(crate) enum Val<'s> {
    /// Not on the wire.
    Const {
        value: &'s ConstValue,
        prim: Primitive,
        /// The enum's Rust name for a `valueRef`.
        enum_ident: Option<Ident>,
    },
    /// A single number.
    Prim {
        prim: Primitive,
        optional: bool,
        null: Scalar,
    },
    /// A char or a char array.
    Char {
        len: usize,
        optional: bool,
        null: i128,
        utf8: bool,
    },
    /// A fixed array of numbers.
    Array {
        prim: Primitive,
        len: usize,
        optional: bool,
        null: Scalar,
    },
    /// An enum.
    Enum {
        ident: Ident,
        ty: &'s EnumType,
        optional: bool,
    },
    /// A set.
    Set { ident: Ident, ty: &'s SetType },
    /// A composite.
    Comp { dec: Ident, enc: Ident, len: usize },
}

/// Rust type of a primitive's wire value (the IR's `Primitive::rust_type`).
pub(crate) fn rust_prim(p: Primitive) -> TokenStream {
    let type_name = format_ident!("{}", p.rust_type());
    quote!(#type_name)
}

/// `::sbe_rt::get_u16_le`.
pub(crate) fn getter(ctx: &Ctx, p: Primitive) -> TokenStream {
    let function = format_ident!("get_{}_{}", p.rust_type(), ctx.order());
    quote!(::sbe_rt::#function)
}

/// `get_u16_le`: the `sbe_rt` function reading primitive `p`.
fn get_ident(ctx: &Ctx, p: Primitive) -> Ident {
    format_ident!("get_{}_{}", p.rust_type(), ctx.order())
}

/// A wire slot from the IR as the tokens of its `sbe_rt::wire::Uint`.
pub(crate) fn uint_tokens(slot: Uint) -> TokenStream {
    let at = |variant: &str, offset: usize| {
        let variant = format_ident!("{variant}");
        let offset = ulit(offset);
        quote!(::sbe_rt::wire::Uint::#variant(#offset))
    };
    match slot {
        Uint::U8(o) => at("U8", o),
        Uint::U16Le(o) => at("U16Le", o),
        Uint::U16Be(o) => at("U16Be", o),
        Uint::U32Le(o) => at("U32Le", o),
        Uint::U32Be(o) => at("U32Be", o),
        Uint::U64Le(o) => at("U64Le", o),
        Uint::U64Be(o) => at("U64Be", o),
        Uint::Const(v) => quote!(::sbe_rt::wire::Uint::Const(#v)),
    }
}

/// How generated code writes a slot on the wire: the `::sbe_rt::put_u16_le`
/// of its width and byte order, its offset and its Rust type; `None` for
/// a constant, which is not on the wire.
pub(crate) fn uint_put(slot: Uint) -> Option<(TokenStream, proc_macro2::Literal, Ident)> {
    let offset = ulit(slot.offset()?);
    let order = if slot.is_big_endian() { "be" } else { "le" };
    let ty = format_ident!("u{}", 8 * slot.len());
    let function = format_ident!("put_{ty}_{order}");
    Some((quote!(::sbe_rt::#function), offset, ty))
}

/// `v` as a literal of the Rust type `ty` (`2u16`).
pub(crate) fn typed_lit(v: u64, ty: &Ident) -> TokenStream {
    format!("{v}{ty}")
        .parse::<proc_macro2::Literal>()
        .map_or_else(|_| quote!(#v), |lit| quote!(#lit))
}

/// `::sbe_rt::put_u16_le`.
pub(crate) fn putter(ctx: &Ctx, p: Primitive) -> TokenStream {
    let function = format_ident!("put_{}_{}", p.rust_type(), ctx.order());
    quote!(::sbe_rt::#function)
}

/// A literal of primitive `p`. A negative float is `-` and a literal: a
/// literal token cannot hold the sign.
pub(crate) fn lit(p: Primitive, v: Scalar) -> TokenStream {
    match v {
        Scalar::Float(f) if f.is_nan() => {
            let type_name = format_ident!("{}", p.rust_type());
            quote!(#type_name::NAN)
        }
        // Not `abs()`: -0.0 is written as the literal it is.
        Scalar::Float(f) if p == Primitive::Float => {
            if f < 0.0 {
                let literal = proc_macro2::Literal::f32_suffixed(-f as f32);
                quote!(-#literal)
            } else {
                let literal = proc_macro2::Literal::f32_suffixed(f as f32);
                quote!(#literal)
            }
        }
        Scalar::Float(f) if p == Primitive::Double => {
            if f < 0.0 {
                let literal = proc_macro2::Literal::f64_suffixed(-f);
                quote!(-#literal)
            } else {
                let literal = proc_macro2::Literal::f64_suffixed(f);
                quote!(#literal)
            }
        }
        Scalar::Float(f) => int_lit(p, f as i128),
        Scalar::Int(i) if p.is_float() => lit(p, Scalar::Float(i as f64)),
        Scalar::Int(i) => int_lit(p, i),
    }
}

/// An integer literal of primitive `p`, clamped into its range: the
/// bounds are written `T::MIN` and `T::MAX` (`0` for unsigned types).
pub(crate) fn int_lit(p: Primitive, v: i128) -> TokenStream {
    let type_name = format_ident!("{}", p.rust_type());
    let suffix = p.rust_type();
    let (lo, hi) = match p {
        Primitive::Char | Primitive::Uint8 => (0, 255),
        _ => p.int_range(),
    };
    let parse = |text: String| {
        text.parse::<proc_macro2::Literal>()
            .unwrap_or(proc_macro2::Literal::u8_unsuffixed(0))
    };
    if v <= lo {
        if lo == 0 {
            let zero = parse(format!("0{suffix}"));
            return quote!(#zero);
        }
        return quote!(#type_name::MIN);
    }
    if v >= hi {
        return quote!(#type_name::MAX);
    }
    if v < 0 {
        let literal = parse(format!("{}{suffix}", v.unsigned_abs()));
        quote!(-#literal)
    } else {
        let literal = parse(format!("{v}{suffix}"));
        quote!(#literal)
    }
}

/// Whether a character encoding is UTF-8 (else the text is Latin-1).
pub(crate) fn is_utf8(enc: Option<&str>) -> bool {
    enc.is_some_and(|e| e.eq_ignore_ascii_case("UTF-8") || e.eq_ignore_ascii_case("UTF8"))
}

impl<'s> Val<'s> {
    /// Classifies a value of type `ty` (registry name `key`) with effective
    /// `presence` and constant value `cv`.
    pub(crate) fn of(
        ctx: &Ctx<'s>,
        key: &str,
        ty: &'s Type,
        presence: Presence,
        cv: Option<&'s ConstValue>,
    ) -> Val<'s> {
        let optional = presence == Presence::Optional;
        if presence == Presence::Constant {
            if let Some(value) = cv.or(match &ty.kind {
                TypeKind::Encoded(e) => e.const_value.as_ref(),
                _ => None,
            }) {
                let prim = match &ty.kind {
                    TypeKind::Encoded(e) => e.primitive,
                    TypeKind::Enum(e) => e.encoding,
                    TypeKind::Set(s) => s.encoding,
                    TypeKind::Composite(_) => Primitive::Uint8,
                };
                let enum_ident = match value {
                    ConstValue::EnumValue { enum_name, .. } => ctx.enum_ident(enum_name),
                    _ => None,
                };
                return Val::Const {
                    value,
                    prim,
                    enum_ident,
                };
            }
        }
        match &ty.kind {
            TypeKind::Encoded(e) if e.primitive == Primitive::Char => Val::Char {
                len: e.length.max(1) as usize,
                optional,
                null: match e.null_value {
                    Some(Scalar::Int(n)) => n,
                    _ => 0,
                },
                utf8: is_utf8(e.character_encoding.as_deref()),
            },
            TypeKind::Encoded(e) if e.length == 1 => Val::Prim {
                prim: e.primitive,
                optional,
                null: e.null(),
            },
            TypeKind::Encoded(e) => Val::Array {
                prim: e.primitive,
                len: e.length as usize,
                optional,
                null: e.null(),
            },
            TypeKind::Enum(en) => Val::Enum {
                ident: ctx.type_ident(key, ty),
                ty: en,
                optional,
            },
            TypeKind::Set(s) => Val::Set {
                ident: ctx.type_ident(key, ty),
                ty: s,
            },
            TypeKind::Composite(_) => {
                let base = ctx.type_ident(key, ty);
                Val::Comp {
                    dec: format_ident!("{base}Decoder"),
                    enc: format_ident!("{base}Encoder"),
                    len: crate::ir::encoded_length(ty).unwrap_or(0) as usize,
                }
            }
        }
    }

    /// Whether the decoder accessor returns an `Option` by itself.
    pub(crate) fn is_option(&self) -> bool {
        match self {
            Val::Prim { optional, .. }
            | Val::Char { optional, .. }
            | Val::Enum { optional, .. } => *optional,
            _ => false,
        }
    }

    /// The decoder accessor's return type (without version gating).
    pub(crate) fn dec_type(&self) -> TokenStream {
        let plain = match self {
            Val::Const {
                value,
                prim,
                enum_ident,
                ..
            } => match (value, enum_ident) {
                (ConstValue::Text(_), _) => quote!(&'static str),
                (ConstValue::EnumValue { .. }, Some(e)) => quote!(#e),
                (ConstValue::EnumValue { .. }, None) => quote!(i64),
                (ConstValue::Number(_), _) => rust_prim(*prim),
            },
            Val::Prim { prim, .. } => rust_prim(*prim),
            Val::Char { len: 1, .. } => quote!(u8),
            Val::Char { .. } => quote!(&'a [u8]),
            Val::Array { prim, len, .. } => {
                let elem_type = rust_prim(*prim);
                let len = ulit(*len);
                quote!([#elem_type; #len])
            }
            Val::Enum { ident, .. } | Val::Set { ident, .. } => quote!(#ident),
            Val::Comp { dec, .. } => quote!(#dec<'a>),
        };
        if self.is_option() {
            quote!(::core::option::Option<#plain>)
        } else {
            plain
        }
    }

    /// The decoder's accessor `name` (after `attrs`) reading this value
    /// from its array `self.buf` at `off`, as a call of `sbe_rt::getter!`;
    /// `None` for the shapes it has no arm for (a constant, an array of
    /// numbers, an optional char or char array), written out instead.
    pub(crate) fn getter(
        &self,
        ctx: &Ctx,
        buf: &Ident,
        off: usize,
        attrs: &TokenStream,
        name: &Ident,
    ) -> Option<TokenStream> {
        let at = ulit(off);
        let call = match self {
            Val::Prim {
                prim,
                optional,
                null,
            } => {
                let (ty, get) = (rust_prim(*prim), get_ident(ctx, *prim));
                if *optional {
                    let null = lit(*prim, *null);
                    quote!(opt #attrs #name: #ty = #get(#buf, #at), #null)
                } else {
                    quote!(read #attrs #name: #ty = #get(#buf, #at))
                }
            }
            Val::Char {
                len: 1,
                optional: false,
                ..
            } => quote!(read #attrs #name: u8 = get_u8_le(#buf, #at)),
            Val::Char {
                len,
                optional: false,
                ..
            } => {
                let end = ulit(off + len);
                quote!(chars #attrs #name = #buf[#at..#end])
            }
            Val::Enum {
                ident,
                ty,
                optional,
            } => {
                let get = get_ident(ctx, ty.encoding);
                if *optional {
                    let null = int_lit(ty.encoding, ty.null_value);
                    quote!(opt_enum #attrs #name: #ident = #get(#buf, #at), #null)
                } else {
                    quote!(enum #attrs #name: #ident = #get(#buf, #at))
                }
            }
            Val::Set { ident, ty } => {
                let get = get_ident(ctx, ty.encoding);
                quote!(set #attrs #name: #ident = #get(#buf, #at))
            }
            Val::Comp { dec, .. } => quote!(comp #attrs #name: #dec = #buf[#at..]),
            Val::Const { .. } | Val::Char { .. } | Val::Array { .. } => return None,
        };
        Some(quote!(::sbe_rt::getter!(#call);))
    }

    /// The decoder accessor's body reading from `buf` (a `&[u8; N]` or a
    /// checked `&[u8]`) at `off`.
    pub(crate) fn dec_read(&self, ctx: &Ctx, buf: &TokenStream, off: usize) -> TokenStream {
        let at = off;
        let off = ulit(off);
        match self {
            Val::Const {
                value,
                prim,
                enum_ident,
            } => const_read(ctx, value, *prim, enum_ident.as_ref()),
            Val::Prim {
                prim,
                optional,
                null,
            } => {
                let get = getter(ctx, *prim);
                let read = quote!(#get(#buf, #off));
                if *optional {
                    let null = lit(*prim, *null);
                    quote!(::sbe_rt::non_null(#read, #null))
                } else {
                    read
                }
            }
            Val::Char {
                len,
                optional,
                null,
                ..
            } => char_read(buf, at, *len, *optional, *null),
            Val::Array { prim, .. } => {
                // The accessor's return type, `[T; len]`, types the array.
                let get = getter(ctx, *prim);
                let at = elem_at(at, prim.size() as usize);
                quote!(::core::array::from_fn(|i| #get(#buf, #at)))
            }
            Val::Enum {
                ident,
                ty,
                optional,
            } => {
                let get = getter(ctx, ty.encoding);
                if *optional {
                    let null = int_lit(ty.encoding, ty.null_value);
                    quote!(::sbe_rt::non_null(#get(#buf, #off), #null).map(#ident::from_raw))
                } else {
                    quote!(#ident::from_raw(#get(#buf, #off)))
                }
            }
            Val::Set { ident, ty } => {
                let get = getter(ctx, ty.encoding);
                quote!(#ident(#get(#buf, #off)))
            }
            Val::Comp { dec, .. } => {
                quote!(#dec { buf: __sbe::codec::array_or_zeros(#buf, #off) })
            }
        }
    }
}

/// The value of a constant, as its accessor returns it: text, an enum's
/// value (`enum_ident`: the enum's Rust name, where registered) or a
/// number of primitive `prim`.
fn const_read(
    ctx: &Ctx,
    value: &ConstValue,
    prim: Primitive,
    enum_ident: Option<&Ident>,
) -> TokenStream {
    match (value, enum_ident) {
        (ConstValue::Text(t), _) => quote!(#t),
        (ConstValue::EnumValue { value, .. }, Some(e)) => {
            let TypeKind::Enum(en) = &ctx.enum_type(e).kind else {
                return quote!(#e::from_raw(0));
            };
            let raw = int_lit(en.encoding, *value);
            quote!(#e::from_raw(#raw))
        }
        (ConstValue::EnumValue { value, .. }, None) => {
            let raw = int_lit(Primitive::Int64, *value);
            quote!(#raw)
        }
        (ConstValue::Number(n), _) => lit(prim, *n),
    }
}

/// The read of a char (`len` 1: the byte) or a char array (its bytes) at
/// `buf[off..]`. Optional, a char is absent when NUL or the null value, an
/// array when it starts with NUL.
fn char_read(buf: &TokenStream, off: usize, len: usize, optional: bool, null: i128) -> TokenStream {
    let (off, end) = (ulit(off), ulit(off + len));
    if len == 1 {
        let read = quote!(::sbe_rt::get_u8_le(#buf, #off));
        if !optional {
            return read;
        }
        let null = int_lit(Primitive::Char, null);
        return quote!(::sbe_rt::null::non_null_char(#read, #null));
    }
    let read = quote!(#buf.get(#off..#end).unwrap_or_default());
    if !optional {
        return read;
    }
    quote!(::sbe_rt::null::non_empty_chars(#read))
}

/// `off + i * size`, without the parts that do nothing.
pub(crate) fn elem_at(off: usize, size: usize) -> TokenStream {
    let scaled = if size == 1 {
        quote!(i)
    } else {
        let size = ulit(size);
        quote!(i * #size)
    };
    if off == 0 {
        scaled
    } else {
        let off = ulit(off);
        quote!(#off + #scaled)
    }
}

/// `e + n`, or `e` when `n` is 0.
pub(crate) fn plus(e: TokenStream, n: usize) -> TokenStream {
    if n == 0 {
        e
    } else {
        let n = ulit(n);
        quote!(#e + #n)
    }
}

/// A length that grows with the acting version: `base`, then each
/// `(since, value)` of `steps` (in ascending `since`) from that version on,
/// as an `if version >= since { .. } else { .. }` chain; and whether the
/// chain reads `version` at all.
pub(crate) fn version_ladder(
    base: usize,
    steps: impl IntoIterator<Item = (u32, usize)>,
) -> (TokenStream, bool) {
    let base = ulit(base);
    let mut body = quote!(#base);
    let mut reads_version = false;
    for (since, value) in steps {
        let present = at_least(quote!(version), since);
        let value = ulit(value);
        body = quote!(if #present { #value } else { #body });
        reads_version = true;
    }
    (body, reads_version)
}

/// `version >= since`: whether the acting version `version` (an
/// expression: `version`, `self.version`) has an item of version `since`.
pub(crate) fn at_least(version: TokenStream, since: u32) -> TokenStream {
    let since = plain(since);
    quote!(#version >= #since)
}

/// `n` as a literal without a suffix, for the places whose type the
/// literal takes from its context (a version compared with the acting
/// version, a template id), as a hand-writer writes them.
pub(crate) fn plain(n: impl Into<u64>) -> proc_macro2::Literal {
    proc_macro2::Literal::u64_unsuffixed(n.into())
}

/// A `usize` (an offset, a length, a count) as a literal without a
/// suffix: every place one lands types it as `usize` already (an offset
/// added to a position, an array length, a const generic), so the suffix
/// `quote!` gives a `usize` would only make the code read as generated.
pub(crate) fn ulit(n: usize) -> proc_macro2::Literal {
    proc_macro2::Literal::usize_unsuffixed(n)
}
