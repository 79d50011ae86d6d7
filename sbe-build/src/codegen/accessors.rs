//! Accessors: the methods that read one item, of a block decoder (a field,
//! a group, a var data) or of a composite's decoder (a member), with the
//! `_str` twin of a char array or text var data.
//!
//! An item of a block newer than the block is gated on the acting version:
//! `None` for an older message. A composite member never is.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::decoder::{DataView, FieldView, GroupView};
use super::values::{at_least, ulit, Val};
use super::{deprecated, docs, Ctx};
use crate::ir::{ConstValue, Member, Scalar};

/// `body` without its braces when it is one `{ ... }` block, to be put
/// in braces of its own (a function's, a branch's): `{ { ... } }` would
/// need `#[allow(unused_braces)]`.
pub(crate) fn unbraced(body: TokenStream) -> TokenStream {
    let mut tokens = body.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(proc_macro2::TokenTree::Group(g)), None)
            if g.delimiter() == proc_macro2::Delimiter::Brace =>
        {
            g.stream()
        }
        _ => body,
    }
}

/// `attrs`, then a `#[inline]` accessor `name` returning `ret` as `body`.
fn accessor(attrs: TokenStream, name: &Ident, ret: TokenStream, body: TokenStream) -> TokenStream {
    let body = unbraced(body);
    quote! {
        #attrs
        #[inline]
        pub fn #name(&self) -> #ret { #body }
    }
}

/// An accessor of an item newer than its block: `doc`, a line saying it is
/// `None` for a message older than the `item`, `dep`; returns `ret` as
/// `body`.
fn gated_accessor(
    doc: TokenStream,
    item: &str,
    dep: TokenStream,
    name: &Ident,
    ret: TokenStream,
    body: TokenStream,
) -> TokenStream {
    let note = format!(" `None` when the message's version predates {item}.");
    accessor(
        quote! {
            #doc
            #[doc = ""]
            #[doc = #note]
            #dep
        },
        name,
        ret,
        body,
    )
}

/// `value` where the acting version has the item (since version `since`),
/// else `None`: `bool::then`, lazy, so that nothing is read from an older
/// message; `then_some` for a value there is nothing to read for (`plain`:
/// a literal, or a field of the decoder). An `Option` value (`is_option`) is
/// flattened, `None` for an older message as for a null.
fn when_present(since: u32, value: TokenStream, is_option: bool, plain: bool) -> TokenStream {
    let value = unbraced(value);
    let present = at_least(quote!(self.version), since);
    let present = quote!((#present));
    if is_option {
        quote!(#present.then(|| #value).flatten())
    } else if plain {
        quote!(#present.then_some(#value))
    } else {
        quote!(#present.then(|| #value))
    }
}

/// The `_str` accessor `text_name` of a char array at
/// `buf[offset..offset + len]`: its bytes up to the first NUL as UTF-8.
/// `from_accessor`: the byte accessor `name` returns the bytes themselves
/// (not an `Option`, not gated), so the text reads through it.
pub(crate) fn str_getter(
    text_name: &Ident,
    name: &Ident,
    buf: &TokenStream,
    (offset, len): (usize, usize),
    from_accessor: bool,
    (doc, element): (&str, u16),
    attrs: &TokenStream,
) -> TokenStream {
    if from_accessor {
        let element = (element != 0).then(|| {
            let n = super::element_lit(element);
            quote!(, #n)
        });
        return quote! {
            ::sbe_rt::getter!(str #[doc = #doc] #attrs #text_name = #name #element);
        };
    }
    let (offset, end) = (ulit(offset), ulit(offset + len));
    let at = super::at(element);
    let bytes = if from_accessor {
        quote!(self.#name())
    } else {
        quote!(#buf.get(#offset..#end).unwrap_or_default())
    };
    quote! {
        #[doc = #doc]
        #attrs
        #[inline]
        pub fn #text_name(&self) -> ::sbe_rt::Result<&'a str> {
            ::sbe_rt::text::as_str(::sbe_rt::text::trim_nul(#bytes))#at
        }
    }
}

/// What a doc says of a constant (a value not on the wire, which has no
/// offset): `the constant -4`, or `a constant` when its value is too long
/// to show. `None` for a value on the wire.
fn constant_doc(val: &Val) -> Option<String> {
    /// The longest value a doc shows.
    const SHOWN: usize = 32;
    let Val::Const { value, .. } = val else {
        return None;
    };
    let shown = match value {
        ConstValue::Text(t) => format!("`{t:?}`"),
        ConstValue::Number(Scalar::Int(i)) => i.to_string(),
        ConstValue::Number(Scalar::Float(f)) => f.to_string(),
        ConstValue::EnumValue {
            enum_name,
            value_name,
            ..
        } => format!("`{enum_name}.{value_name}`"),
    };
    Some(if shown.len() <= SHOWN {
        format!("the constant {shown}")
    } else {
        "a constant".to_string()
    })
}

/// Whether a field newer than its block reads as its type's `NULL` (a
/// composite every member of which has a null) rather than as `None`, so
/// that an optional member does not read as `Option<Option<_>>`.
pub(super) fn reads_null_when_absent(view: &FieldView) -> bool {
    // Whether a null exists does not depend on the byte order.
    matches!(view.val, Val::Comp { len, .. } if len > 0)
        && crate::ir::null_bytes(&view.field.ty, crate::ir::ByteOrder::Little).is_some()
}

/// The accessors of a block decoder's fields: `sbe_rt::getter!` calls
/// where the field is in every version of its block and has one of the
/// usual shapes.
pub(super) fn field_accessors(
    ctx: &Ctx,
    fields: &[FieldView],
    unstated: sbe_rt::TimeUnit,
) -> TokenStream {
    let mut out = TokenStream::new();
    for view in fields {
        let f = view.field;
        let name = &view.names.name;
        let offset = f.offset as usize;
        let since = if f.since_version > 0 {
            format!(", since version {}", f.since_version)
        } else {
            String::new()
        };
        let generated = match constant_doc(&view.val) {
            Some(constant) => format!(
                "`{}` (id {}, type `{}`{since}): {constant}, not on the wire.",
                f.name, f.id, f.type_name
            ),
            None => format!(
                "`{}` (id {}, offset {offset}, type `{}`{since}).",
                f.name, f.id, f.type_name
            ),
        };
        let doc = docs(f.description.as_deref(), generated);
        let dep = deprecated(f.deprecated);
        let ret = view.val.dec_type();
        let read = view.read.clone();
        let null_composite = match &view.val {
            Val::Comp { dec, .. } if view.gated && reads_null_when_absent(view) => Some(dec),
            _ => None,
        };
        out.extend(if let Some(dec) = null_composite {
            let present = at_least(quote!(self.version), f.since_version);
            let body = quote!(if #present { #read } else { #dec::NULL });
            let note = " Every member null when the message's version predates the field.";
            accessor(
                quote!(#doc #[doc = ""] #[doc = #note] #dep),
                name,
                ret,
                body,
            )
        } else if view.gated {
            let is_option = view.val.is_option();
            let ret = if is_option {
                ret
            } else {
                quote!(::core::option::Option<#ret>)
            };
            let plain = matches!(view.val, Val::Const { .. });
            let body = when_present(f.since_version, read, is_option, plain);
            gated_accessor(doc, "the field", dep.clone(), name, ret, body)
        } else {
            let attrs = quote!(#doc #dep);
            let base = proc_macro2::Ident::new("base", proc_macro2::Span::call_site());
            match view.val.getter(ctx, &base, offset, &attrs, name) {
                Some(call) => call,
                None => accessor(attrs, name, ret, read),
            }
        });
        if let Some(value_name) = &view.names.value {
            let option = view.gated || view.val.is_option();
            out.extend(super::typed::field_getter(
                &f.meaning, &view.val, value_name, name, option, unstated,
            ));
        }
        if let (Some(text_name), Val::Char { len, optional, .. }) = (&view.names.text, &view.val) {
            let text_doc = format!(" `{}` up to its first NUL, as UTF-8 text.", f.name);
            let from_accessor = !(view.gated || *optional);
            out.extend(str_getter(
                text_name,
                name,
                &view.buf,
                (offset, *len),
                from_accessor,
                (&text_doc, f.element),
                &dep,
            ));
        }
    }
    out
}

/// The accessors of a block decoder's groups: their iterators.
pub(super) fn group_accessors(groups: &[GroupView]) -> TokenStream {
    let mut out = TokenStream::new();
    for view in groups {
        let g = view.group;
        let doc = docs(
            g.description.as_deref(),
            format!(
                "Group `{}` (id {}): an iterator over its entries.",
                g.name, g.id
            ),
        );
        let dep = deprecated(g.deprecated);
        let (iter, lifetime, at) = (view.iter, &view.lifetime, &view.at.expr);
        out.extend(if view.gated {
            let body = when_present(g.block.since_version, at.clone(), false, view.at.kept);
            let ret = quote!(::core::option::Option<#iter<#lifetime>>);
            gated_accessor(doc, "the group", dep, view.name, ret, body)
        } else {
            accessor(
                quote!(#doc #dep),
                view.name,
                quote!(#iter<#lifetime>),
                at.clone(),
            )
        });
    }
    out
}

/// The accessors of a block decoder's var data: their bytes, and as text
/// where the schema gives a character encoding.
pub(super) fn data_accessors(data: &[DataView]) -> TokenStream {
    let mut out = TokenStream::new();
    for view in data {
        let d = view.data;
        let name = &view.names.name;
        let doc = docs(
            d.description.as_deref(),
            format!("Var data `{}` (id {}).", d.name, d.id),
        );
        let dep = deprecated(d.deprecated);
        let since = d.since_version;
        let bytes = view.bytes.expr.clone();
        out.extend(if view.gated {
            let body = when_present(since, bytes.clone(), false, view.bytes.kept);
            let ret = quote!(::core::option::Option<&'a [u8]>);
            gated_accessor(doc, "it", dep.clone(), name, ret, body)
        } else {
            accessor(quote!(#doc #dep), name, quote!(&'a [u8]), bytes.clone())
        });
        if let Some(text_name) = &view.names.text {
            let text_doc = format!(" `{}` as UTF-8 text.", d.name);
            // An older message has no text: "" rather than an `Option`.
            let at = super::at(d.element);
            let body = if view.gated {
                let present = at_least(quote!(self.version), since);
                quote!(if #present { ::sbe_rt::text::as_str(#bytes)#at } else { __sbe::Ok("") })
            } else {
                let value = view.value();
                quote!(::sbe_rt::text::as_str(#value)#at)
            };
            out.extend(quote! {
                #[doc = #text_doc]
                #dep
                #[inline]
                pub fn #text_name(&self) -> ::sbe_rt::Result<&'a str> { #body }
            });
        }
    }
    out
}

/// A composite member as its decoder and encoder see it: the member, its
/// value's shape, and its accessor (and setter) name and `_str` twin.
pub(crate) struct MemberView<'s> {
    pub member: &'s Member,
    pub val: Val<'s>,
    pub name: Ident,
    pub text_name: Option<Ident>,
}

/// The accessors of a composite's decoder, reading `self.buf`.
pub(super) fn member_accessors(ctx: &Ctx, members: &[MemberView]) -> TokenStream {
    let buf = quote!(self.buf);
    let mut out = TokenStream::new();
    for view in members {
        let m = view.member;
        let (name, val) = (&view.name, &view.val);
        let offset = m.offset as usize;
        let generated = match constant_doc(val) {
            Some(constant) => format!("`{}`: {constant}, not on the wire.", m.ty.name),
            None => format!("`{}`: offset {offset}.", m.ty.name),
        };
        let doc = docs(m.ty.description.as_deref(), generated);
        let dep = deprecated(m.ty.deprecated);
        let attrs = quote!(#doc #dep);
        let buf_field = proc_macro2::Ident::new("buf", proc_macro2::Span::call_site());
        out.extend(match val.getter(ctx, &buf_field, offset, &attrs, name) {
            Some(call) => call,
            None => accessor(attrs, name, val.dec_type(), val.dec_read(ctx, &buf, offset)),
        });
        if let (Some(text_name), Val::Char { len, optional, .. }) = (&view.text_name, val) {
            // Named by its Rust name, unlike a block field's (its schema name).
            let text_doc = format!(" `{name}` up to its first NUL, as UTF-8 text.");
            out.extend(str_getter(
                text_name,
                name,
                &buf,
                (offset, *len),
                !*optional,
                (&text_doc, 0),
                &dep,
            ));
        }
    }
    out
}
