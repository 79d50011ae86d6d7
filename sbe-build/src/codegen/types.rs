//! Enums, sets and composites.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::accessors::{self, MemberView};
use super::json_debug;
use super::names::{self, Scope};
use super::typed;
use super::values::{int_lit, rust_prim, Val};
use super::{deprecated, docs, moved, Ctx, TypeEntry};
use crate::ir::{Composite, EnumType, Member, Presence, SetType, TypeKind};

/// The registered types in `emit` (indices into `Ctx::types`).
pub(crate) fn all(ctx: &Ctx, emit: std::ops::Range<usize>) -> TokenStream {
    let mut out = TokenStream::new();
    for e in &ctx.types[emit] {
        out.extend(match &e.ty.kind {
            TypeKind::Enum(en) => enum_type(ctx, e, en),
            TypeKind::Set(s) => set_type(ctx, e, s),
            TypeKind::Composite(c) => composite(ctx, e, c),
            TypeKind::Encoded(_) => TokenStream::new(),
        });
    }
    out
}

/// Rust names of an enum's values.
pub(crate) fn variants(en: &EnumType) -> Vec<Ident> {
    // The methods share the value namespace with the constants.
    let mut scope = Scope::with(&["from_raw", "raw", "name", "is_known"]);
    en.values
        .iter()
        .map(|v| names::ident(&scope.claim(&names::camel(&v.name))))
        .collect()
}

/// An enum is an open newtype over its wire value with one constant per
/// valid value, not a Rust `enum`: reading one is a plain load (no match
/// to map it, none to map it back), every wire value is kept (a newer
/// schema version may add values), and `match` still works on the
/// constants, with a `_` arm for the values this schema does not name.
fn enum_type(ctx: &Ctx, e: &TypeEntry, en: &EnumType) -> TokenStream {
    let ident = &e.ident;
    let doc = docs(
        e.ty.description.as_deref(),
        format!(
            "Enum `{}`, encoded as {}: one constant per valid value; `.0` is the wire value.",
            e.key,
            en.encoding.name()
        ),
    );
    let dep = deprecated(e.ty.deprecated);
    let attrs = ctx.type_attrs(&e.key);
    let wire_type = rust_prim(en.encoding);
    let variant_names = variants(en);
    let raws: Vec<TokenStream> = en
        .values
        .iter()
        .map(|v| int_lit(en.encoding, v.value))
        .collect();
    let consts = en
        .values
        .iter()
        .zip(&variant_names)
        .zip(&raws)
        .map(|((v, variant), raw)| {
            let doc = docs(
                v.description.as_deref(),
                format!("`{}` (wire value {}).", v.name, v.value),
            );
            let dep = deprecated(v.deprecated);
            quote!(#doc #dep pub const #variant: Self = Self(#raw);)
        });
    let schema_names: Vec<&str> = en.values.iter().map(|v| v.name.as_str()).collect();
    let methods = enum_methods(&raws, &schema_names);
    let serde_impls = if super::owned_serde::on(ctx) {
        super::owned_serde::enum_impls(ident, &e.key, &schema_names, &raws)
    } else {
        TokenStream::new()
    };
    let (serde_impls, doc, methods) = (moved(serde_impls), moved(doc), moved(methods));
    quote! {
        #serde_impls

        #doc
        #dep
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(transparent)]
        #attrs
        pub struct #ident(pub #wire_type);

        #[allow(deprecated, non_upper_case_globals)]
        impl #ident {
            #(#consts)*

            #methods
        }

        ::sbe_rt::enum_api!(#ident, #wire_type);
    }
}

/// An enum's value's schema name (`names`, by wire value `raws`); its
/// conversions from and to the wire value and its `Field` and `Debug`
/// impls are `sbe_rt::enum_api!`'s.
fn enum_methods(raws: &[TokenStream], names: &[&str]) -> TokenStream {
    quote! {
        /// The schema name of the value, `None` for a value the schema
        /// does not name.
        pub const fn name(self) -> ::core::option::Option<&'static str> {
            match self.0 {
                #(#raws => __sbe::Some(#names),)*
                _ => __sbe::None,
            }
        }
    }
}

/// A set is a `Copy` newtype over its raw value with, per choice, a mask
/// constant (a set of the one choice), a getter and a `with_` builder; and
/// what sets of choices are used with: `contains`, `union`,
/// `intersection`, `difference`, `|`, `&`.
fn set_type(ctx: &Ctx, e: &TypeEntry, s: &SetType) -> TokenStream {
    let ident = &e.ident;
    let doc = docs(
        e.ty.description.as_deref(),
        format!(
            "Set `{}`: a bit set encoded as {}; `.0` is the raw value.",
            e.key,
            s.encoding.name()
        ),
    );
    let dep = deprecated(e.ty.deprecated);
    let attrs = ctx.type_attrs(&e.key);
    let raw_type = rust_prim(s.encoding);
    let items = set_choices(s);
    let width = proc_macro2::Literal::u32_unsuffixed(s.encoding.size() * 8);
    let raw = if s.encoding.size() == 8 {
        quote!(self.0)
    } else {
        quote!(u64::from(self.0))
    };
    let table: Vec<TokenStream> = s
        .choices
        .iter()
        .map(|c| {
            // Validation keeps every bit inside the encoding (under 64).
            let bit = proc_macro2::Literal::u8_unsuffixed(u8::try_from(c.bit).unwrap_or(u8::MAX));
            let name = &c.name;
            quote!((#name, #bit))
        })
        .collect();
    let serde_impls = if super::owned_serde::on(ctx) {
        super::owned_serde::set_impls(ident, &e.key, &width, &raw, &quote!(#(#table),*))
    } else {
        TokenStream::new()
    };
    quote! {
        #serde_impls

        #doc
        #dep
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #attrs
        pub struct #ident(pub #raw_type);

        #[allow(deprecated)]
        impl #ident {
            #items
        }

        ::sbe_rt::set_api!(#ident, #raw_type);

        impl ::sbe_rt::visit::Field for #ident {
            fn value(&self) -> ::sbe_rt::visit::Value<'_> {
                let choices = &[#(#table),*];
                ::sbe_rt::visit::Value::Set(::sbe_rt::visit::Bits::new(#raw, #width, choices))
            }
        }

        ::sbe_rt::debug_impl!(#ident);
    }
}

/// The names `sbe_rt::set_api!` gives a set, which no choice's getter or
/// builder may take.
const SET_METHODS: &[&str] = &[
    "raw",
    "write_json",
    "from_raw",
    "contains",
    "is_empty",
    "union",
    "intersection",
    "difference",
];

/// What a set's choices generate: per choice its items (mask, getter,
/// builder).
fn set_choices(s: &SetType) -> TokenStream {
    // The methods share a scope, the mask constants have their own.
    let mut methods = Scope::with(SET_METHODS);
    let mut masks = Scope::default();
    let mut items = TokenStream::new();
    for c in &s.choices {
        let getter = names::ident(&methods.claim(&names::snake(&c.name)));
        let builder = names::ident(&methods.claim(&format!("with_{}", names::snake(&c.name))));
        let mask_name = names::ident(&masks.claim(&names::shouty(&c.name)));
        let bit = c.bit;
        let mask = int_lit(s.encoding, 1i128 << bit);
        let doc = docs(
            c.description.as_deref(),
            format!("Choice `{}` (bit {bit}).", c.name),
        );
        let dep = deprecated(c.deprecated);
        let name = &c.name;
        let mask_doc = format!(" Choice `{name}` alone: its mask, as a set.");
        let builder_doc = format!(" This set with choice `{name}` set or cleared.");
        items.extend(quote! {
            #[doc = #mask_doc]
            pub const #mask_name: Self = Self(#mask);
            #doc
            #dep
            #[inline]
            pub const fn #getter(self) -> bool {
                self.0 & Self::#mask_name.0 != 0
            }
            #[doc = #builder_doc]
            #dep
            #[inline]
            #[must_use]
            pub const fn #builder(self, on: bool) -> Self {
                if on { Self(self.0 | Self::#mask_name.0) } else { Self(self.0 & !Self::#mask_name.0) }
            }
        });
    }
    items
}

/// Presence of a composite member.
fn member_presence(m: &Member) -> Presence {
    match &m.ty.kind {
        TypeKind::Encoded(e) => e.presence,
        TypeKind::Enum(e) => e.presence,
        _ => Presence::Required,
    }
}

/// The value shape and accessor names of each member of a composite.
pub(crate) fn members<'s>(ctx: &Ctx<'s>, c: &'s Composite) -> Vec<MemberView<'s>> {
    let mut scope = Scope::with(&["wrap", "write_json", "buf", "fmt", "to_owned"]);
    c.members
        .iter()
        .map(|m| {
            let key = m.type_name.clone().unwrap_or_else(|| m.ty.name.clone());
            let val = Val::of(ctx, &key, &m.ty, member_presence(m), None);
            let base = names::snake(&m.ty.name);
            let name = names::ident(&scope.claim(&base));
            let text_name = matches!(val, Val::Char { len, .. } if len > 1)
                .then(|| names::ident(&scope.claim(&format!("{base}_str"))));
            MemberView {
                member: m,
                val,
                name,
                text_name,
            }
        })
        .collect()
}

/// A composite: a decoder (a view of its bytes) and an encoder (a writer).
fn composite(ctx: &Ctx, e: &TypeEntry, c: &Composite) -> TokenStream {
    let base = &e.ident;
    let dec = format_ident!("{base}Decoder");
    let enc = format_ident!("{base}Encoder");
    let len = crate::ir::encoded_length(e.ty).unwrap_or(0) as usize;
    let members = members(ctx, c);
    let decoder = composite_decoder(ctx, e, &dec, len, &members);
    let mut setters = composite_setters(ctx, &members);
    let value = typed::composite_value_name(&members);
    let unstated = ctx.opts.timestamp_unit;
    setters.extend(typed::composite_setter(
        &e.ty.meaning,
        &members,
        &value,
        unstated,
    ));
    let enc_doc = format!(
        " Writes composite `{}` ({len} bytes). The members' descriptions are on [`{dec}`].",
        e.key
    );
    let dep = deprecated(e.ty.deprecated);
    let owned = if ctx.opts.owned {
        super::owned::composite(ctx, (&e.key, e.ty), (base, &dec, &enc), len, &members)
    } else {
        TokenStream::new()
    };
    let len = super::values::ulit(len);
    quote! {
        #decoder

        #owned

        #[doc = #enc_doc]
        #dep
        pub struct #enc<'b> {
            buf: &'b mut [u8],
        }

        #[allow(deprecated)]
        impl<'b> #enc<'b> {
            /// Writes the composite at the start of `buf` (checked when written).
            pub fn wrap(buf: &'b mut [u8]) -> EncodeResult<Self> {
                __sbe::codec::check_room(buf, #len)?;
                __sbe::Ok(Self { buf })
            }
            #setters
        }
    }
}

/// `NULL`, the composite with every member null, where every member has a
/// null (optional or constant): what a field of the type newer than the
/// message reads as, so that its accessor needs no `Option` of its own.
fn null_const(ctx: &Ctx, e: &TypeEntry, len: usize) -> TokenStream {
    let Some(bytes) = crate::ir::null_bytes(e.ty, ctx.schema.byte_order) else {
        return TokenStream::new();
    };
    if len == 0 || bytes.len() != len {
        return TokenStream::new();
    }
    let bytes = bytes.into_iter().map(proc_macro2::Literal::u8_unsuffixed);
    quote! {
        /// The composite with every member null: what a field of this
        /// type reads as in a message older than the field.
        pub const NULL: Self = Self { buf: &[#(#bytes),*] };
    }
}

/// A composite's decoder `dec`, a view of its `len` bytes, with its JSON
/// and `Debug`.
fn composite_decoder(
    ctx: &Ctx,
    e: &TypeEntry,
    dec: &Ident,
    len: usize,
    members: &[MemberView],
) -> TokenStream {
    let doc = docs(
        e.ty.description.as_deref(),
        format!("Composite `{}` ({len} bytes).", e.key),
    );
    let dep = deprecated(e.ty.deprecated);
    let mut getters = accessors::member_accessors(ctx, members);
    let value = typed::composite_value_name(members);
    let unstated = ctx.opts.timestamp_unit;
    getters.extend(typed::composite_getter(
        &e.ty.meaning,
        members,
        &value,
        unstated,
    ));
    let null = null_const(ctx, e, len);
    let visit_impls = json_debug::visit_and_debug(ctx, dec, json_debug::member_fields(members));
    let len = super::values::ulit(len);
    quote! {
        #doc
        #dep
        #[derive(Clone, Copy)]
        pub struct #dec<'a> {
            buf: &'a [u8; #len],
        }

        #[allow(deprecated)]
        impl<'a> #dec<'a> {
            /// Bytes the composite takes.
            pub const ENCODED_LENGTH: usize = #len;

            /// Reads the composite at the start of `buf`.
            #[inline(always)]
            pub fn wrap(buf: &'a [u8]) -> ::sbe_rt::Result<Self> {
                match buf.first_chunk::<#len>() {
                    __sbe::Some(buf) => __sbe::Ok(Self { buf }),
                    __sbe::None => __sbe::Err(::sbe_rt::Error::truncated(#len, buf.len())),
                }
            }
            #null
            #getters
        }

        #visit_impls
    }
}

/// The setters of a composite's encoder, writing to `self.buf`.
fn composite_setters(ctx: &Ctx, members: &[MemberView]) -> TokenStream {
    let mut out = TokenStream::new();
    for view in members {
        let m = view.member;
        let offset = m.offset as usize;
        // As a message's setters: the description is on the decoder's.
        let doc = docs(None, format!("`{}`: offset {offset}.", m.ty.name));
        let dep = deprecated(m.ty.deprecated);
        if let Some(setter) = view
            .val
            .setter(ctx, &view.name, (offset, 0), &quote!(#doc #dep))
        {
            out.extend(setter);
        }
    }
    out
}
