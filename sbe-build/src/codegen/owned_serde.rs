//! `Serialize` and `Deserialize` of the owned types (`Options::serde`):
//! FORMAT.md's JSON, the body of `Message::to_json`, but for a field
//! decimal (Binance's `mbx:exponent`), its exact decimal string (an entry
//! read alone does not know the exponent its mantissa counts in). The generated impls
//! hold the schema names and say how each value reads
//! (`sbe_rt::__private::serde_owned` has the mapping of each kind of
//! value); a struct serializes its fields in schema order, constants
//! included, and an item newer than its block only when held;
//! deserializing takes the fields by schema name (constants are
//! skipped, a key the schema does not have is an error naming it, as in
//! `sbe encode`), every field required but those newer than their block;
//! an enum or set name the schema does not have is an error listing the
//! names it has.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::values::Val;
use super::Ctx;

/// How a value is mapped (`sbe_rt::__private::serde_owned`).
#[derive(Clone)]
pub(super) enum Kind {
    /// `Json`: numbers, floats, `Option`s, arrays, text.
    Json,
    /// Its own impls (an enum, a set), named in errors.
    Plain,
    /// Its own impls (a composite, a group's entries), which name their
    /// own fields.
    Nested,
    /// A single char (`u8` or `Option<u8>`).
    Char { utf8: bool },
    /// Opaque var data.
    Hex,
    /// A composite's typed value (`sbe_rt::Decimal`, ...), written as the
    /// composite whose owned struct this is (`Typed`).
    Typed(Ident),
    /// A typed value held for an integer field, written as that integer
    /// (`wire`, in `unit` where a timestamp).
    Wire {
        wire: TokenStream,
        unit: TokenStream,
    },
}

impl Kind {
    /// The kind of value `val` (not a constant).
    pub(super) fn of(val: &Val) -> Kind {
        match val {
            Val::Char { len: 1, utf8, .. } => Kind::Char { utf8: *utf8 },
            Val::Enum { .. } | Val::Set { .. } => Kind::Plain,
            Val::Comp { .. } => Kind::Nested,
            _ => Kind::Json,
        }
    }

    /// `v` (a `&T` expression) as the `&impl Serialize` written.
    fn wrap(&self, v: TokenStream) -> TokenStream {
        let p = quote!(__sbe::serde_owned);
        match self {
            Kind::Json => quote!(&#p::AsJson(#v)),
            Kind::Plain | Kind::Nested => v,
            Kind::Char { utf8 } => {
                let utf8 = *utf8;
                quote!(&__sbe::serde_owned::SerChar::ser(*#v, #utf8))
            }
            Kind::Hex => quote!(&#p::Hex(#v)),
            Kind::Typed(c) => quote!(&#p::AsComposite::<#c>(#v)),
            Kind::Wire { wire, unit } => {
                quote!(&#p::AsWire::<#wire, _>(#v, #unit, ::core::marker::PhantomData))
            }
        }
    }

    /// The seed reading a value of type `ty` under `key`.
    fn seed(&self, key: &str, ty: &TokenStream) -> TokenStream {
        let p = quote!(__sbe::serde_owned);
        match self {
            Kind::Json => quote!(#p::json::<#ty>(#key)),
            Kind::Plain => quote!(#p::plain::<#ty>(#key)),
            Kind::Nested => quote!(#p::nested::<#ty>(#key)),
            Kind::Char { utf8 } => {
                let utf8 = *utf8;
                quote!(#p::one_char::<#ty>(#key, #utf8))
            }
            Kind::Hex => quote!(#p::hex(#key)),
            Kind::Typed(c) => quote!(#p::composite_value::<#c>(#key)),
            Kind::Wire { wire, unit } => quote!(#p::wire_value::<#wire, #ty>(#key, #unit)),
        }
    }
}

/// One item of an owned struct as serde sees it.
pub(super) enum Item {
    /// A value held in field `ident` of type `ty` (`Option<ty>` when
    /// `gated`).
    Held {
        key: String,
        ident: Ident,
        ty: TokenStream,
        kind: Kind,
        gated: bool,
    },
    /// A constant, written as `value` (a `&impl Serialize`).
    Const { key: String, value: TokenStream },
}

/// The `Serialize` and `Deserialize` impls of owned struct `owned`, made
/// of `items` in schema order; `expecting` says what it is (for errors).
pub(super) fn impls(owned: &Ident, name: &str, expecting: &str, items: &[Item]) -> TokenStream {
    let serde = quote!(__sbe::serde);
    let p = quote!(__sbe::serde_owned);
    let mut fields = TokenStream::new();
    let mut keys = Vec::new();
    let mut lets = TokenStream::new();
    let mut arms = TokenStream::new();
    let mut inits = TokenStream::new();
    for item in items {
        match item {
            Item::Const { key, value } => {
                fields.extend(quote!(st.serialize_field(#key, #value)?;));
                // A known key, read and dropped (the `_` arm): written
                // by `Serialize`, it must read back.
                keys.push(key.as_str());
            }
            Item::Held {
                key,
                ident,
                ty,
                kind,
                gated,
            } => {
                let value = kind.wrap(quote!(v));
                fields.extend(if *gated {
                    quote! {
                        match &self.#ident {
                            __sbe::Some(v) => st.serialize_field(#key, #value)?,
                            __sbe::None => st.skip_field(#key)?,
                        }
                    }
                } else {
                    quote!({ let v = &self.#ident; st.serialize_field(#key, #value)?; })
                });
                let index = keys.len();
                let slot = quote::format_ident!("f{index}");
                let index = super::values::ulit(index);
                let seed = kind.seed(key, ty);
                lets.extend(quote!(let mut #slot: ::core::option::Option<#ty> = __sbe::None;));
                arms.extend(quote!(#index => #slot = __sbe::Some(map.next_value_seed(#seed)?),));
                inits.extend(if *gated {
                    quote!(#ident: #slot,)
                } else {
                    quote!(#ident: #p::required(#slot, #key)?,)
                });
                keys.push(key.as_str());
            }
        }
    }
    let count = items.len();
    let count_lit = super::values::ulit(count);
    // Nothing held (constants only): every key's value is skipped.
    let read_keys = if arms.is_empty() {
        quote! {
            while map.next_key_seed(#p::Keys(Self::KEYS))?.is_some() {
                #p::skip(&mut map)?;
            }
        }
    } else {
        quote! {
            while let __sbe::Some(k) = map.next_key_seed(#p::Keys(Self::KEYS))? {
                match k {
                    #arms
                    _ => #p::skip(&mut map)?,
                }
            }
        }
    };
    let st = if count == 0 {
        quote!(st)
    } else {
        quote!(mut st)
    };
    quote! {
        /// FORMAT.md's JSON object of its fields, by schema name.
        impl #serde::Serialize for #owned {
            fn serialize<S: #serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use #serde::ser::SerializeStruct as _;
                let #st = s.serialize_struct(#name, #count_lit)?;
                #fields
                st.end()
            }
        }

        impl #p::FromMap for #owned {
            const EXPECTING: &'static str = #expecting;
            const KEYS: &'static [&'static str] = &[#(#keys),*];
            fn from_map<'de, A: #serde::de::MapAccess<'de>>(mut map: A) -> ::core::result::Result<Self, A::Error> {
                #lets
                #read_keys
                __sbe::Ok(Self { #inits })
            }
        }

        /// From FORMAT.md's JSON object of its fields, by schema name.
        impl<'de> #serde::Deserialize<'de> for #owned {
            fn deserialize<D: #serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                #p::from_map(d)
            }
        }
    }
}

/// `Serialize` and `Deserialize` of enum `ident` (`key` in the schema):
/// its value's name, or its raw value where the schema names none.
pub(super) fn enum_impls(
    ident: &Ident,
    key: &str,
    names: &[&str],
    raws: &[TokenStream],
) -> TokenStream {
    let serde = quote!(__sbe::serde);
    let p = quote!(__sbe::serde_owned);
    quote! {
        /// The value's schema name, or its raw value where the schema names none.
        impl #serde::Serialize for #ident {
            fn serialize<S: #serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                #p::enum_ser(self.name(), &self.0, s)
            }
        }

        /// A value's schema name, or a raw value.
        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<D: #serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                #p::enum_de(d, #key, &[#((#names, #raws)),*]).map(Self)
            }
        }
    }
}

/// `Serialize` and `Deserialize` of set `ident` (`key` in the schema) of
/// `width` bits, whose raw value as a `u64` is `raw` and whose choices are
/// `table`, `(name, bit)`s.
pub(super) fn set_impls(
    ident: &Ident,
    key: &str,
    width: &proc_macro2::Literal,
    raw: &TokenStream,
    table: &TokenStream,
) -> TokenStream {
    let serde = quote!(__sbe::serde);
    let p = quote!(__sbe::serde_owned);
    quote! {
        /// The names of the choices set, then the other bits set, as numbers.
        impl #serde::Serialize for #ident {
            fn serialize<S: #serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                #p::set_ser(#raw, #width, &[#table], s)
            }
        }

        /// An array of choices' names and bit numbers.
        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<D: #serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                #p::set_de(d, #key, #width, &[#table]).map(Self)
            }
        }
    }
}

/// Whether the owned types get serde impls.
pub(super) fn on(ctx: &Ctx) -> bool {
    ctx.opts.owned && ctx.opts.serde
}
