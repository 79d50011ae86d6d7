//! JSON and `Debug`: the `write_json` (FORMAT.md's JSON) and `Debug`
//! impls of block and composite decoders, and how one value is written in
//! each. Both call the accessors rather than repeat their bodies (much
//! smaller code for composites, char arrays and optional values).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::accessors::MemberView;
use super::decoder::{DataView, FieldView, GroupView};
use super::values::{is_utf8, null_test, Val};
use super::Ctx;
use crate::ir::{ConstValue, Primitive};

impl Val<'_> {
    /// Statements writing `v` (the accessor's value) as JSON to `w`.
    pub(crate) fn json(&self, v: TokenStream) -> TokenStream {
        if self.is_option() {
            let inner = self.json_plain(quote!(v));
            return quote! {
                let v = #v;
                match v {
                    ::core::option::Option::Some(v) => { #inner }
                    ::core::option::Option::None => { w.null(); }
                }
            };
        }
        self.json_plain(v)
    }

    /// Statements writing `v`, a present value, as JSON to `w`.
    fn json_plain(&self, v: TokenStream) -> TokenStream {
        match self {
            Val::Const { value, prim, .. } => match value {
                ConstValue::Text(t) => quote!(w.str(#t);),
                ConstValue::EnumValue { value_name, .. } => quote!(w.str(#value_name);),
                ConstValue::Number(_) => json_prim(*prim, v),
            },
            Val::Prim { prim, .. } => json_prim(*prim, v),
            Val::Char { len: 1, utf8, .. } => {
                let text_fn = if *utf8 {
                    quote!(utf8_lossy)
                } else {
                    quote!(latin1)
                };
                quote!(w.#text_fn(::sbe_rt::text::trim_nul(&[#v]));)
            }
            Val::Char { utf8, .. } => {
                let text_fn = if *utf8 {
                    quote!(utf8_lossy)
                } else {
                    quote!(latin1)
                };
                quote!(w.#text_fn(::sbe_rt::text::trim_nul(#v));)
            }
            Val::Array {
                prim,
                optional,
                null,
                ..
            } => {
                let one = json_prim(*prim, quote!(x));
                let body = if *optional {
                    let test = null_test(*prim, *null, quote!(x));
                    quote!(if #test { w.null(); } else { #one })
                } else {
                    one
                };
                quote! {
                    w.begin_array();
                    for x in #v { #body }
                    w.end_array();
                }
            }
            Val::Enum { ty, .. } => {
                // FORMAT.md rule 6: a value that matches no validValue is
                // its raw value; only the null value (read as `None`
                // before this) is `null`.
                let raw = json_prim(ty.encoding, quote!(e.raw()));
                quote! {
                    let e = #v;
                    match e.name() {
                        ::core::option::Option::Some(n) => { w.str(n); }
                        ::core::option::Option::None => { #raw }
                    }
                }
            }
            Val::Set { .. } | Val::Comp { .. } => quote!(#v.write_json(w);),
        }
    }

    /// An expression to hand to `DebugStruct::field` for the value `v`.
    pub(crate) fn debug(&self, v: TokenStream) -> TokenStream {
        match self {
            Val::Char { len, .. } if *len > 1 => {
                if self.is_option() {
                    quote!(&#v.map(|t| ::sbe_rt::codec::Text(::sbe_rt::text::trim_nul(t))))
                } else {
                    quote!(&::sbe_rt::codec::Text(::sbe_rt::text::trim_nul(#v)))
                }
            }
            _ => quote!(&#v),
        }
    }
}

/// JSON of a primitive value `v`.
fn json_prim(p: Primitive, v: TokenStream) -> TokenStream {
    match p {
        Primitive::Float => quote!(w.f32(#v);),
        Primitive::Double => quote!(w.f64(#v);),
        Primitive::Int64 => quote!(w.i64(#v);),
        Primitive::Uint64 => quote!(w.u64(#v);),
        p if p.is_signed() => quote!(w.i64(i64::from(#v));),
        _ => quote!(w.u64(u64::from(#v));),
    }
}

/// The `write_json` statements and `Debug` fields of a decoder's items, in
/// schema order.
#[derive(Default)]
pub(super) struct Entries {
    pub json: TokenStream,
    pub debug: TokenStream,
}

impl Entries {
    /// Adds an item's `json` and `debug`, under `guard` (an `if` head
    /// without its block) where the item may be absent.
    fn push(&mut self, guard: Option<TokenStream>, json: TokenStream, debug: TokenStream) {
        match guard {
            Some(guard) => {
                self.json.extend(quote!(#guard { #json }));
                self.debug.extend(quote!(#guard { #debug }));
            }
            None => {
                self.json.extend(json);
                self.debug.extend(debug);
            }
        }
    }
}

/// The JSON member and `Debug` field `key` for the value `v` of shape `val`.
fn keyed(val: &Val, key: &str, v: TokenStream) -> (TokenStream, TokenStream) {
    let (json, debug) = (val.json(v.clone()), val.debug(v));
    (
        quote! { w.key(#key); #json },
        quote! { s.field(#key, #debug); },
    )
}

/// `if self.version >= since`: the guard of an item newer than its block.
fn since_guard(since: u32) -> TokenStream {
    quote!(if self.version >= #since)
}

/// A block decoder's `write_json` (in its impl) and `Debug` impl.
pub(super) fn block_json_and_debug(
    ctx: &Ctx,
    ident: &Ident,
    fields: &[FieldView],
    groups: &[GroupView],
    data: &[DataView],
) -> (TokenStream, TokenStream) {
    let entries = block_entries(fields, groups, data);
    let json_fn = write_json_fn(
        ctx,
        quote! {
            /// Writes the fields, groups and var data as a JSON object.

        },
        &entries.json,
    );
    let allow = quote!(#[allow(deprecated)]);
    (json_fn, debug_impl(ctx, ident, allow, &entries.debug))
}

/// The entries of a block decoder's fields, groups and var data.
fn block_entries(fields: &[FieldView], groups: &[GroupView], data: &[DataView]) -> Entries {
    let mut entries = Entries::default();
    for view in fields {
        field_entry(&mut entries, view);
    }
    for view in groups {
        let g = view.group;
        let key = &g.name;
        let name = view.name;
        let iter = if view.gated {
            view.at.clone()
        } else {
            quote!(self.#name())
        };
        let json = quote! {
            w.key(#key).begin_array();
            for e in #iter { e.write_json(w); }
            w.end_array();
        };
        let guard = view.gated.then(|| since_guard(g.since_version));
        entries.push(guard, json, quote! { s.field(#key, &#iter); });
    }
    for view in data {
        let d = view.data;
        let key = &d.name;
        let value = view.value();
        let (json, debug) = match &d.character_encoding {
            Some(e) if is_utf8(Some(e)) => (
                quote!(w.utf8_lossy(#value);),
                quote!(&::sbe_rt::codec::Text(#value)),
            ),
            Some(_) => (
                quote!(w.latin1(#value);),
                quote!(&::sbe_rt::codec::Text(#value)),
            ),
            None => (quote!(w.hex(#value);), quote!(&#value)),
        };
        let guard = view.gated.then(|| since_guard(d.since_version));
        entries.push(
            guard,
            quote! { w.key(#key); #json },
            quote! { s.field(#key, #debug); },
        );
    }
    entries
}

/// A field's entry. Gated, its accessor is `None` exactly when the
/// version predates the field; an optional value's accessor is then
/// already the `Option` the value's JSON and `Debug` expect.
fn field_entry(entries: &mut Entries, view: &FieldView) {
    let f = view.field;
    let (key, name, val) = (&f.name, &view.names.name, &view.val);
    if !view.gated {
        let (json, debug) = keyed(val, key, quote!(self.#name()));
        entries.push(None, json, debug);
    } else if super::accessors::reads_null_when_absent(view) {
        let (json, debug) = keyed(val, key, quote!(self.#name()));
        entries.push(Some(since_guard(f.since_version)), json, debug);
    } else if val.is_option() || matches!(val, Val::Const { .. }) {
        // A constant is read where it is written down (no bytes).
        let v = if val.is_option() {
            quote!(self.#name())
        } else {
            view.read.clone()
        };
        let (json, debug) = keyed(val, key, v);
        entries.push(Some(since_guard(f.since_version)), json, debug);
    } else {
        let (json, debug) = keyed(val, key, quote!(v));
        let guard = quote!(if let ::core::option::Option::Some(v) = self.#name());
        entries.push(Some(guard), json, debug);
    }
}

/// The entries of a composite decoder's members.
pub(super) fn member_entries(members: &[MemberView]) -> Entries {
    let mut entries = Entries::default();
    for view in members {
        let name = &view.name;
        let (json, debug) = keyed(&view.val, &view.member.ty.name, quote!(self.#name()));
        entries.push(None, json, debug);
    }
    entries
}

/// `write_json` of a decoder: `attrs` (its doc), then the object of `body`.
pub(super) fn write_json_fn(ctx: &Ctx, attrs: TokenStream, body: &TokenStream) -> TokenStream {
    if !ctx.opts.json {
        return TokenStream::new();
    }
    quote! {
        #attrs
        pub fn write_json(&self, w: &mut ::sbe_rt::JsonWriter) {
            w.begin_object();
            #body
            w.end_object();
        }
    }
}

/// The `Debug` impl of decoder `ident`: a struct of the fields `body`
/// adds, under the lints allowed by `allow`.
pub(super) fn debug_impl(
    ctx: &Ctx,
    ident: &Ident,
    allow: TokenStream,
    body: &TokenStream,
) -> TokenStream {
    if !ctx.opts.debug {
        return TokenStream::new();
    }
    let struct_name = ident.to_string();
    quote! {
        #allow
        impl ::core::fmt::Debug for #ident<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut s = f.debug_struct(#struct_name);
                #body
                s.finish()
            }
        }
    }
}
