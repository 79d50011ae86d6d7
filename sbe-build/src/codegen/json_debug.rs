//! JSON and `Debug`: each block and composite decoder implements
//! `sbe_rt::visit::Visit`, one call per field with its schema name and its
//! accessor's value, and its `Debug` is `sbe_rt::visit::debug_struct`.
//! JSON (FORMAT.md's mapping) and `Debug` are visitors in sbe-rt; the
//! generated code holds only the names and which accessor gives each
//! value.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::accessors::MemberView;
use super::decoder::{DataView, FieldView, GroupView};
use super::values::{is_utf8, lit, Val};
use super::Ctx;
use crate::ir::ConstValue;

impl Val<'_> {
    /// The `&dyn sbe_rt::visit::Field` a visitor receives for `v`, the
    /// accessor's value: the value itself, or wrapped where its Rust type
    /// does not say how it reads (text, null array elements).
    pub(crate) fn field(&self, v: TokenStream) -> TokenStream {
        let optional = self.is_option();
        match self {
            Val::Const {
                value: ConstValue::EnumValue { value_name, .. },
                enum_ident: None,
                ..
            } => quote!(&#value_name),
            Val::Char { len: 1, utf8, .. } => {
                let make = text_fn(quote!(Char), *utf8);
                if optional {
                    quote!(&#v.map(#make))
                } else {
                    quote!(&#make(#v))
                }
            }
            Val::Char { utf8, .. } => {
                let make = text_fn(quote!(Text), *utf8);
                if optional {
                    quote!(&#v.map(|t| #make(t).until_nul()))
                } else {
                    quote!(&#make(#v).until_nul())
                }
            }
            Val::Array {
                prim,
                optional: true,
                null,
                ..
            } => {
                let null = lit(*prim, *null);
                quote!(&#v.map(|x| ::sbe_rt::non_null(x, #null)))
            }
            _ => quote!(&#v),
        }
    }
}

/// Calls of `v.field`, where a run of those visiting their accessor's
/// value is one `sbe_rt::visit_fields!` call: the `visit` body in the
/// making, in schema order.
#[derive(Default)]
struct Body {
    /// The statements before the run.
    done: TokenStream,
    /// The run's entries: `"Price" price, "OrderQty" order_qty`.
    run: TokenStream,
}

impl Body {
    /// Visits `self.name()` as field `key`, as text (`Some(utf8)`) up to
    /// its first NUL or as it is.
    fn entry(&mut self, key: &str, name: &Ident, text: Option<bool>) {
        let text = text.map(|utf8| {
            if utf8 {
                quote!(as utf8)
            } else {
                quote!(as latin1)
            }
        });
        let comma = (!self.run.is_empty()).then(|| quote!(,));
        self.run.extend(quote!(#comma #key #name #text));
    }

    /// The entry visiting `val`, the value of accessor `name`, where a
    /// run can hold it; `false` where it cannot.
    fn value(&mut self, key: &str, name: &Ident, val: &Val) -> bool {
        match val {
            Val::Const {
                value: ConstValue::EnumValue { .. },
                enum_ident: None,
                ..
            }
            | Val::Char { len: 1, .. }
            | Val::Array { optional: true, .. } => false,
            Val::Char { optional, utf8, .. } => {
                if !*optional {
                    self.entry(key, name, Some(*utf8));
                }
                !*optional
            }
            _ => {
                self.entry(key, name, None);
                true
            }
        }
    }

    /// A statement written out, after the run so far.
    fn statement(&mut self, tokens: TokenStream) {
        self.flush();
        self.done.extend(tokens);
    }

    fn flush(&mut self) {
        if !self.run.is_empty() {
            let run = std::mem::take(&mut self.run);
            self.done
                .extend(quote!(::sbe_rt::visit_fields!(self, v; #run);));
        }
    }

    fn finish(mut self) -> TokenStream {
        self.flush();
        self.done
    }
}

/// `::sbe_rt::visit::Text::latin1` (or `utf8`, or of `Char`).
fn text_fn(ty: TokenStream, utf8: bool) -> TokenStream {
    if utf8 {
        quote!(::sbe_rt::visit::#ty::utf8)
    } else {
        quote!(::sbe_rt::visit::#ty::latin1)
    }
}

/// The `visit` body of a block decoder's fields, groups and var data, in
/// schema order.
pub(super) fn block_fields(
    fields: &[FieldView],
    groups: &[GroupView],
    data: &[DataView],
) -> TokenStream {
    let mut body = Body::default();
    for view in fields {
        if view.gated || !body.value(&view.field.name, &view.names.name, &view.val) {
            body.statement(field_visit(view));
        }
    }
    for view in groups {
        let g = view.group;
        let key = &g.name;
        if view.gated {
            let iter = &view.at.expr;
            let call = quote!(v.field(#key, &#iter););
            body.statement(guarded(Some(g.block.since_version), call));
        } else {
            body.entry(key, view.name, None);
        }
    }
    for view in data {
        let d = view.data;
        let key = &d.name;
        let value = view.value();
        let field = match &d.character_encoding {
            Some(e) => {
                let make = text_fn(quote!(Text), is_utf8(Some(e)));
                quote!(&#make(#value))
            }
            None => quote!(&#value),
        };
        let call = quote!(v.field(#key, #field););
        body.statement(guarded(view.gated.then_some(d.since_version), call));
    }
    body.finish()
}

/// `call`, under `if self.version >= since` where the item is newer than
/// its block.
fn guarded(since: Option<u32>, call: TokenStream) -> TokenStream {
    match since {
        Some(since) => {
            let present = super::values::at_least(quote!(self.version), since);
            quote!(if #present { #call })
        }
        None => call,
    }
}

/// A field's `visit` call. Gated, its accessor is `None` exactly when the
/// version predates the field; an optional value's accessor is then
/// already the `Option` the value's visit expects.
fn field_visit(view: &FieldView) -> TokenStream {
    let f = view.field;
    let (key, name, val) = (&f.name, &view.names.name, &view.val);
    if !view.gated {
        let field = val.field(quote!(self.#name()));
        return quote!(v.field(#key, #field););
    }
    let guarded_value = if super::accessors::reads_null_when_absent(view) || val.is_option() {
        Some(quote!(self.#name()))
    } else if matches!(val, Val::Const { .. }) {
        // A constant is read where it is written down (no bytes).
        Some(view.read.clone())
    } else {
        None
    };
    if let Some(value) = guarded_value {
        let field = val.field(value);
        return guarded(Some(f.since_version), quote!(v.field(#key, #field);));
    }
    let field = val.field(quote!(x));
    quote! {
        if let __sbe::Some(x) = self.#name() { v.field(#key, #field); }
    }
}

/// The `visit` body of a composite decoder's members.
pub(super) fn member_fields(members: &[MemberView]) -> TokenStream {
    let mut body = Body::default();
    for view in members {
        let name = &view.name;
        let key = &view.member.ty.name;
        if !body.value(key, name, &view.val) {
            let field = view.val.field(quote!(self.#name()));
            body.statement(quote!(v.field(#key, #field);));
        }
    }
    body.finish()
}

/// The `Visit` impl of decoder `ident` (whose fields `body` visits), and
/// the `Debug` impl that shows them; nothing when the schema's code has
/// neither JSON nor `Debug`.
pub(super) fn visit_and_debug(ctx: &Ctx, ident: &Ident, body: TokenStream) -> TokenStream {
    if !ctx.opts.json && !ctx.opts.debug {
        return TokenStream::new();
    }
    let debug = if ctx.opts.debug {
        // The same impl for every decoder: `sbe_rt`'s, as a set's algebra is.
        quote!(::sbe_rt::debug_impl!(decoder #ident);)
    } else {
        TokenStream::new()
    };
    // A block of no fields (an empty entry) does not use its visitor.
    let visitor = if body.is_empty() {
        quote!(_)
    } else {
        quote!(v)
    };
    let (body, debug) = (super::moved(body), super::moved(debug));
    quote! {
        #[allow(deprecated)]
        impl ::sbe_rt::visit::Visit for #ident<'_> {
            fn visit(&self, #visitor: &mut dyn ::sbe_rt::visit::Visitor) {
                #body
            }
        }

        #debug
    }
}
