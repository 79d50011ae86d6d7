//! Owned messages (`Options::owned`): per message, group entry and
//! composite a plain struct of its values, named as the stem its decoder
//! and encoder are named from (`Car` beside `CarDecoder` and
//! `CarEncoder`, `CarFuelFigures` beside `CarFuelFiguresEntry`, `Engine`
//! beside `EngineDecoder`), so that it never needs a name of its own.
//!
//! A decoder's `to_owned()` makes one; an owned message's `encode(buf)`
//! writes it through the message's encoder, the one writer of the wire
//! format: an owned message writes the bytes the encoder writes. These are
//! items of their own beside the decoders and encoders, which they only
//! call: the flyweights' code is the same with or without them.
//!
//! Shapes: a value as its decoder's accessor reads it (enums and sets are
//! their own `Copy` types, optional values `Option`s, numeric arrays
//! arrays), except that a char array is a `String` (its bytes up to the
//! first NUL, UTF-8 or ISO-8859-1 as its `characterEncoding` says; written
//! back NUL-padded) and a composite its owned struct, or its typed value
//! (`sbe_rt::Fixed` for a decimal at a constant exponent, `Decimal`,
//! `Timestamp`, `MonthYear`) where the IR's meaning gives one that its
//! decoder reads and its encoder writes back exactly
//! (`typed::owned_value`; a decimal with its exponent on the wire, required,
//! whose mantissa may be null is an `Option<Decimal>`, `None` where the
//! mantissa is null whatever the exponent holds; where the exponent may be
//! null too the composite stays, as a mantissa beside a null exponent is
//! no `Decimal` and would be lost); an integer timestamp or date
//! field (the schema's, or a type's meaning declared with
//! `Config::meaning`) its `Timestamp` or `Date`; a field decimal (its
//! exponent another field, Binance's `mbx:exponent`) its `Decimal`
//! ([`FieldDecimal`]: read at the exponent its exponent field holds,
//! written back at the exponent the owned value of that field holds,
//! exactly or `Err` naming the field; an entry whose exponent is an
//! enclosing block's takes it as an argument of its `to_owned`); constants are not
//! held (they are not on the wire); var data is a `String` where it is
//! text (`Meaning::Text`), else a `Vec<u8>`; a group is a `Vec` of its
//! owned entries. An item newer than its block is an `Option` of that,
//! `None` when the message's version predates it (an optional value newer
//! than its block is then an `Option<Option<_>>`: absent, or null).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::accessors::MemberView;
use super::blocks::{GroupIdents, NamedBlock};
use super::decoder::{field_views, FieldView};
use super::owned_serde::{self, Item, Kind};
use super::values::{at_least, int_lit, is_utf8, lit, ulit, Val};
use super::{docs, moved, Ctx};
use crate::ir::{ConstValue, Exponent, Meaning, Presence, Primitive, TypeKind};

/// A constant's value as serde writes it (a `&impl Serialize`): what its
/// accessor reads (`read`), or the enum value's name where the enum has no
/// type of its own.
fn const_value(val: &Val, read: &TokenStream) -> TokenStream {
    match val {
        Val::Const {
            value: ConstValue::EnumValue { value_name, .. },
            enum_ident: None,
            ..
        } => quote!(&#value_name),
        _ => quote!(&#read),
    }
}

/// `::sbe_rt::__private::alloc::vec::Vec` (in full: the owned types' fields show it).
fn vec_type() -> TokenStream {
    quote!(::sbe_rt::__private::alloc::vec::Vec)
}

/// `::sbe_rt::__private::alloc::string::String` (in full, as `vec_type`).
fn string_type() -> TokenStream {
    quote!(::sbe_rt::__private::alloc::string::String)
}

/// The owned struct of a composite whose decoder is `dec` (`EngineDecoder`
/// → `Engine`).
pub(super) fn owned_of(dec: &Ident) -> Ident {
    let name = dec.to_string();
    format_ident!("{}", name.strip_suffix("Decoder").unwrap_or(&name))
}

impl Val<'_> {
    /// The owned type of the value; `None` for a constant (not held).
    pub(crate) fn owned_type(&self) -> Option<TokenStream> {
        let plain = match self {
            Val::Const { .. } => return None,
            Val::Char { len, .. } if *len > 1 => string_type(),
            Val::Comp { dec, .. } => {
                let owned = owned_of(dec);
                quote!(#owned)
            }
            // Each element null on its own (FORMAT.md).
            Val::Array {
                prim,
                len,
                optional: true,
                ..
            } => {
                let elem = super::values::rust_prim(*prim);
                let len = ulit(*len);
                return Some(quote!([::core::option::Option<#elem>; #len]));
            }
            _ => {
                // The accessor's type, which is `Copy` and owns its value.
                return Some(self.dec_type());
            }
        };
        Some(if self.is_option() {
            quote!(::core::option::Option<#plain>)
        } else {
            plain
        })
    }

    /// The owned value of `v`, what the decoder's accessor (or the read it
    /// makes) gives; may use `?`.
    fn owned_from(&self, v: TokenStream) -> TokenStream {
        match self {
            Val::Char {
                len,
                utf8,
                optional,
                ..
            } if *len > 1 => {
                if *optional {
                    quote!(match #v {
                        __sbe::Some(b) => __sbe::Some(__sbe::owned::char_array(b, #utf8)?),
                        __sbe::None => __sbe::None,
                    })
                } else {
                    quote!(__sbe::owned::char_array(#v, #utf8)?)
                }
            }
            Val::Comp { .. } => quote!(#v.to_owned()?),
            Val::Array {
                prim,
                optional: true,
                null,
                ..
            } => {
                let null = lit(*prim, *null);
                quote!(#v.map(|x| ::sbe_rt::non_null(x, #null)))
            }
            _ => v,
        }
    }

    /// Statements writing the owned value at `place` with the encoder
    /// `e`'s setter `name`.
    fn owned_write(&self, name: &Ident, place: &Place) -> TokenStream {
        let Place {
            receiver,
            reference,
            value,
        } = place;
        match self {
            Val::Const { .. } => TokenStream::new(),
            Val::Char {
                len,
                utf8,
                optional,
                ..
            } if *len > 1 => {
                // The array's bytes, padded: the setter then copies a known length.
                let value = if *optional {
                    // Null is "": NUL bytes, as an array that starts with NUL reads as null.
                    quote!(#receiver.as_deref().unwrap_or_default())
                } else {
                    quote!(#reference)
                };
                let len = ulit(*len);
                quote!(e.#name(__sbe::owned::pass_char_array_bytes::<#len, CONVERT>(#value, #utf8)?)?;)
            }
            Val::Comp { .. } => quote!(#receiver.sbe_write::<CONVERT>(&mut e.#name())?;),
            Val::Array {
                prim,
                optional: true,
                null,
                ..
            } => {
                let null = lit(*prim, *null);
                quote!(e.#name(#receiver.map(|x| x.unwrap_or(#null)));)
            }
            _ => quote!(e.#name(#value);),
        }
    }

    /// Whether writing the owned value may convert text (an ISO-8859-1
    /// char array, or a composite with one: its `SBE_CONVERTS`), as a
    /// constant expression; `None` where it never does.
    fn owned_converts(&self) -> Option<TokenStream> {
        match self {
            Val::Char {
                len, utf8: false, ..
            } if *len > 1 => Some(quote!(true)),
            Val::Comp { dec, .. } => {
                let owned = owned_of(dec);
                Some(quote!(#owned::SBE_CONVERTS))
            }
            _ => None,
        }
    }

    /// Statements writing, with setter `name`, the value of an item the
    /// owned message does not have (it predates it): null where the value
    /// has one the encoder spells, else the block's zeros.
    fn absent_write(&self, name: &Ident) -> TokenStream {
        match self {
            Val::Prim { optional: true, .. }
            | Val::Enum { optional: true, .. }
            | Val::Char {
                len: 1,
                optional: true,
                ..
            } => quote!(e.#name(__sbe::None);),
            Val::Prim { prim, null, .. } => {
                let null = lit(*prim, *null);
                quote!(e.#name(#null);)
            }
            Val::Enum { ident, ty, .. } => {
                let null = int_lit(ty.encoding, ty.null_value);
                quote!(e.#name(#ident::from_raw(#null));)
            }
            Val::Char { len: 1, null, .. } => {
                let null = int_lit(Primitive::Char, *null);
                quote!(e.#name(#null);)
            }
            _ => TokenStream::new(),
        }
    }
}

/// A block as the owned types see the blocks around it: the block and
/// the schema version from which it is there (`NamedBlock::base_since`).
/// A chain of them, outermost first, ends at the block being generated.
pub(super) type Level<'s> = (&'s crate::ir::Block, u32);

/// An exponent field: the depth of its block in the chain (0 the
/// message's root block) and its index in that block's fields.
type ExpAt = (usize, usize);

/// Where the exponent of field `f` of the last block of `chain` is, where
/// the owned struct holds `f` as a `Decimal` (a field decimal, Binance's
/// `mbx:exponent`): `f` an integer, or a required 128-bit mantissa, as old
/// as its block (it then has its typed accessor and setter), and its
/// exponent field a required `int8` as old as its own block, so that the
/// owned struct holding that field holds an `i8` to write it at. Else
/// `None`, and the field is held as its mantissa.
fn field_decimal_exponent(chain: &[Level], f: &crate::ir::Field) -> Option<ExpAt> {
    let Meaning::Decimal(d) = &f.meaning else {
        return None;
    };
    let Exponent::Field(r) = d.exponent else {
        return None;
    };
    let (&(_, base), outer) = chain.split_last()?;
    if f.since_version > base || !super::typed::field_has_value(f) {
        return None;
    }
    let bytes = matches!(&f.ty.kind, TypeKind::Encoded(e) if matches!(e.primitive, Primitive::Uint8 | Primitive::Int8));
    if d.mantissa128 && !bytes {
        return None;
    }
    let at = outer.len().checked_sub(r.up)?;
    let (block, base) = chain.get(at)?;
    let e = block.fields.get(r.field)?;
    let held = e.presence == Presence::Required
        && e.since_version <= *base
        && matches!(&e.ty.kind, TypeKind::Encoded(t) if t.primitive == Primitive::Int8 && t.length == 1);
    held.then_some((at, r.field))
}

/// The exponent fields of enclosing blocks that the field decimals of the
/// last block of `chain`, or of its groups' entries, read: the arguments
/// of its entry's `to_owned` and `sbe_write`, in chain order.
fn outer_exponents(chain: &[Level]) -> Vec<ExpAt> {
    let Some(&(block, _)) = chain.last() else {
        return Vec::new();
    };
    let depth = chain.len() - 1;
    let mut out = std::collections::BTreeSet::new();
    out.extend(
        block
            .fields
            .iter()
            .filter_map(|f| field_decimal_exponent(chain, f)),
    );
    for g in &block.groups {
        let mut inner = chain.to_vec();
        inner.push((&g.block, g.block.since_version));
        out.extend(outer_exponents(&inner));
    }
    out.retain(|(at, _)| *at < depth);
    out.into_iter().collect()
}

/// How a block's owned code names the exponent fields that its field
/// decimals and its groups' entries read: a field of the block itself
/// (its accessor in `to_owned`, its held value in `sbe_write`), or an
/// argument the enclosing block passes.
struct Exponents {
    depth: usize,
    /// The block's own fields' names (accessors and owned fields alike).
    own: Vec<Ident>,
    /// The enclosing blocks' exponent fields and the arguments naming them.
    outer: Vec<(ExpAt, Ident)>,
    /// The documentation of the arguments.
    docs: Vec<String>,
}

impl Exponents {
    fn of(chain: &[Level], b: &NamedBlock) -> Self {
        // Not a name the bodies bind (closures' `x`, `g`; `v`, `e`, `b`, `it`).
        let mut scope = super::names::Scope::with(&["x", "g", "v", "e", "b", "it", "buf"]);
        let mut docs = Vec::new();
        let outer = outer_exponents(chain)
            .into_iter()
            .filter_map(|(at, i)| {
                let f = chain.get(at)?.0.fields.get(i)?;
                let name = scope.claim(&super::names::snake(&f.name));
                docs.push(format!(
                    "`{name}`: the `{}` of the enclosing {}",
                    f.name,
                    if at == 0 { "message" } else { "entry" }
                ));
                Some(((at, i), super::names::ident(&name)))
            })
            .collect();
        Exponents {
            depth: chain.len().saturating_sub(1),
            own: b.names.fields.iter().map(|a| a.name.clone()).collect(),
            outer,
            docs,
        }
    }

    /// Exponent field `at`: read by the decoder (`read`), or the owned value held.
    fn get(&self, (depth, i): ExpAt, read: bool) -> TokenStream {
        if depth == self.depth {
            if let Some(name) = self.own.get(i) {
                return if read {
                    quote!(self.#name())
                } else {
                    quote!(self.#name)
                };
            }
        }
        match self.outer.iter().find(|(at, _)| *at == (depth, i)) {
            Some((_, arg)) => quote!(#arg),
            // Not reached: `outer_exponents` gives every exponent outside.
            None => quote!(0),
        }
    }

    /// The arguments of a group's entry whose `to_owned` (`read`) or
    /// `sbe_write` takes `child`, separated by commas.
    fn args(&self, child: &[ExpAt], read: bool) -> TokenStream {
        let args = child.iter().map(|at| self.get(*at, read));
        quote!(#(#args),*)
    }

    /// The block's parameters (a leading comma before each).
    fn params(&self) -> TokenStream {
        let names = self.outer.iter().map(|(_, n)| n);
        quote!(#(, #names: i8)*)
    }
}

/// How an owned struct holds a field decimal ([`field_decimal_exponent`]):
/// an `sbe_rt::Decimal` (`Option` where the mantissa is optional), read
/// with the decoder's typed `_value(exponent)` at the exponent its field
/// holds, and written at the exponent the owned struct's exponent field
/// holds: the exponent field is the truth, and a value that is not exact
/// at its exponent (a digit lost, or a mantissa too large) is `Err`
/// naming the field, nothing rounded.
struct FieldDecimal;

impl FieldDecimal {
    fn held(view: &FieldView, exp: ExpAt, exps: &Exponents, place: &Place) -> Option<Held> {
        let Meaning::Decimal(d) = &view.field.meaning else {
            return None;
        };
        let value = view.names.value.as_ref()?;
        let name = &view.names.name;
        let (read_exp, held_exp) = (exps.get(exp, true), exps.get(exp, false));
        let v = &place.value;
        let write = if d.mantissa128 {
            // No typed setter: the 16 bytes of the mantissa at the exponent.
            let at = super::typed::fallible(quote!(#v.rescale(#held_exp)), view.field.element);
            let bytes = quote!(::sbe_rt::Decimal::mantissa128_bytes(#at));
            let bytes = match &view.field.ty.kind {
                TypeKind::Encoded(e) if e.primitive == Primitive::Int8 => {
                    quote!(#bytes.map(|b| b as i8))
                }
                _ => bytes,
            };
            quote!(e.#name(#bytes);)
        } else {
            quote!(e.#value(#v, #held_exp)?;)
        };
        let ty = if d.optional && !d.mantissa128 {
            quote!(::core::option::Option<::sbe_rt::Decimal>)
        } else {
            quote!(::sbe_rt::Decimal)
        };
        Some(Held {
            ty,
            read: quote!(self.#value(#read_exp)),
            write,
            kind: Kind::Json,
            converts: None,
        })
    }
}

/// What an owned struct is made of: per item its declaration, its value in
/// `to_owned`, the statements writing it in `sbe_write`, and the bytes it
/// takes after the block (sections) in `sbe_len`.
#[derive(Default)]
struct Parts {
    decls: TokenStream,
    inits: TokenStream,
    writes: TokenStream,
    lens: Vec<TokenStream>,
    /// The items as serde sees them, constants included.
    serde: Vec<Item>,
    /// Constant expressions, one per item whose writing may convert text
    /// (`Val::owned_converts`).
    converts: Vec<TokenStream>,
    /// Per item its value in the struct's `Default` (`name: value,`).
    defaults: TokenStream,
}

impl Parts {
    /// An item `name` of type `ty`, gated (newer than its block, since
    /// version `since`) or not; `read`: its value, `write`: statements
    /// writing it (a gated one as `v: &T`, [`Place::bound`]), `absent`:
    /// those of a gated item not held.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        doc: String,
        name: &Ident,
        ty: TokenStream,
        gated: Option<u32>,
        read: TokenStream,
        write: TokenStream,
        absent: TokenStream,
        (key, kind): (&str, Kind),
    ) {
        self.serde.push(Item::Held {
            key: key.to_string(),
            ident: name.clone(),
            ty: ty.clone(),
            kind,
            gated: gated.is_some(),
        });
        let (ty, read, write) = match gated {
            Some(since) => {
                let present = at_least(quote!(self.version), since);
                (
                    quote!(::core::option::Option<#ty>),
                    quote!(if #present { __sbe::Some(#read) } else { __sbe::None }),
                    if write.is_empty() {
                        TokenStream::new()
                    } else if absent.is_empty() {
                        quote!(if let __sbe::Some(v) = &self.#name { #write })
                    } else {
                        quote!(match &self.#name {
                            __sbe::Some(v) => { #write }
                            __sbe::None => { #absent }
                        })
                    },
                )
            }
            None => (ty, read, write),
        };
        let doc = docs(None, doc);
        self.decls.extend(quote!(#doc pub #name: #ty,));
        self.inits.extend(quote!(#name: #read,));
        self.writes.extend(write);
    }

    /// The value of item `name` in the struct's `Default`: `value`, or
    /// `None` where the item is gated (newer than its block).
    fn push_default(&mut self, name: &Ident, value: TokenStream, gated: bool) {
        let value = if gated { quote!(__sbe::None) } else { value };
        self.defaults.extend(quote!(#name: #value,));
    }
}

impl Val<'_> {
    /// The owned value a struct's `Default` holds for this value, the
    /// value an encoder leaves in a field never set (`Block::unset_bytes`)
    /// as its decoder reads it: `None` for an optional value (an optional
    /// array's elements each `None`), zero, false, empty or the enum's
    /// wire value 0 for a required one.
    fn owned_default(&self) -> TokenStream {
        let default = quote!(::core::default::Default::default());
        match self {
            // `[T; N]` is `Default` only up to 32 elements.
            Val::Array { len, .. } => {
                let len = ulit(*len);
                quote!([#default; #len])
            }
            Val::Enum {
                ident,
                optional: false,
                ..
            } => quote!(#ident::from_raw(0)),
            _ => default,
        }
    }
}

/// How an owned struct holds a value: its type, its value read from the
/// decoder (`read` the accessor's), the statements writing it (at the
/// place given) with encoder `e`, and how serde maps it.
struct Held {
    ty: TokenStream,
    read: TokenStream,
    write: TokenStream,
    kind: Kind,
    /// Whether writing it may convert text ([`Val::owned_converts`]).
    converts: Option<TokenStream>,
}

impl Held {
    /// `val` of type `ty` held in `name` (its decoder accessor's value
    /// `read`, owned type `owned`, written from `place`): as the typed
    /// value where the composite's meaning has one both ways, else as its
    /// shape says.
    fn of(
        ctx: &Ctx,
        (val, ty, field): (&Val, &crate::ir::Type, Option<&crate::ir::Field>),
        (name, place): (&Ident, &Place),
        read: TokenStream,
        owned: TokenStream,
    ) -> Held {
        let value = &place.value;
        let unstated = ctx.opts.timestamp_unit;
        if let Some((typed, wire, unit)) =
            field.and_then(|f| super::typed::owned_field_value(f, val, unstated))
        {
            let conv = quote!(__sbe::owned::WireInt);
            return Held {
                ty: typed,
                read: quote!(#conv::<#wire>::from_wire(#read, #unit)?),
                write: quote!(e.#name(#conv::<#wire>::to_wire(#value, #unit)?);),
                kind: Kind::Wire { wire, unit },
                converts: None,
            };
        }
        if let (Val::Comp { dec, .. }, Some(typed)) = (val, super::typed::owned_value(ctx, ty)) {
            return Held {
                read: typed.read(&read),
                write: typed.write(&quote!(e.#name()), value),
                ty: typed.ty,
                kind: Kind::Typed(owned_of(dec)),
                converts: None,
            };
        }
        Held {
            ty: owned,
            read: val.owned_from(read),
            write: val.owned_write(name, place),
            kind: Kind::of(val),
            converts: val.owned_converts(),
        }
    }
}

/// The owned parts of a block's fields (constants are not held); the
/// last block of `chain` is theirs.
fn field_parts(
    ctx: &Ctx,
    parts: &mut Parts,
    fields: &[FieldView],
    (chain, exps): (&[Level], &Exponents),
) {
    for view in fields {
        let f = view.field;
        let Some(ty) = view.val.owned_type() else {
            parts.serde.push(Item::Const {
                key: f.name.clone(),
                value: const_value(&view.val, &view.read),
            });
            continue;
        };
        let name = &view.names.name;
        let gated = view.gated.then_some(f.since_version);
        let read = if view.gated {
            view.read.clone()
        } else {
            quote!(self.#name())
        };
        let doc = match gated {
            Some(since) => format!(
                "`{}` (id {}); `None` when the message's version predates it (version {since}).",
                f.name, f.id
            ),
            None => format!("`{}` (id {}).", f.name, f.id),
        };
        let place = if view.gated {
            Place::bound()
        } else {
            Place::held(name)
        };
        let decimal = field_decimal_exponent(chain, f)
            .and_then(|exp| FieldDecimal::held(view, exp, exps, &place));
        let default = match decimal {
            Some(_) => quote!(::core::default::Default::default()),
            None => view.val.owned_default(),
        };
        let item = decimal.unwrap_or_else(|| {
            Held::of(ctx, (&view.val, &f.ty, Some(f)), (name, &place), read, ty)
        });
        parts.converts.extend(item.converts);
        parts.push_default(name, default, view.gated);
        parts.push(
            doc,
            name,
            item.ty,
            gated,
            item.read,
            item.write,
            view.val.absent_write(name),
            (&f.name, item.kind),
        );
    }
}

/// The owned parts of a block's groups and var data, in schema order;
/// the last block of `chain` is theirs.
fn section_parts(
    parts: &mut Parts,
    b: &NamedBlock,
    groups: &[GroupIdents],
    (chain, exps): (&[Level], &Exponents),
) {
    let vec = vec_type();
    for ((g, name), idents) in b.groups.iter().zip(&b.names.groups).zip(groups) {
        let owned = &idents.owned;
        let gated = b.is_gated(g.block.since_version);
        // The exponents the entries' field decimals read out of them.
        let mut inner = chain.to_vec();
        inner.push((&g.block, g.block.since_version));
        let takes = outer_exponents(&inner);
        let (read_args, write_args) = (exps.args(&takes, true), exps.args(&takes, false));
        let collect =
            |it: TokenStream| quote!(__sbe::owned::entries(#it, |x| x.to_owned(#read_args))?);
        let read = if gated {
            let it = collect(quote!(it));
            quote!(match self.#name() {
                __sbe::Some(it) => #it,
                __sbe::None => #vec::new(),
            })
        } else {
            collect(quote!(self.#name()))
        };
        // Entries of one size are written with one check for all of them
        // (the group encoder's `sbe_each`, see `encoders::each_entry_fn`).
        // The write is an expression: the encoder's stage after the group.
        let write = if super::blocks::entries_of_one_size(&g.block) {
            quote! {{
                let mut g = e.#name(v.len())?;
                g.sbe_each(v, |x, g| x.sbe_write::<CONVERT>(g, #write_args))?;
                g.end()?
            }}
        } else {
            quote! {{
                let mut g = e.#name(v.len())?;
                for x in v {
                    x.sbe_write::<CONVERT>(g.next_entry()?, #write_args)?;
                }
                g.end()?
            }}
        };
        // What the group adds to the encoder's length rule
        // (`encoders::length_fn`): its count, or its entries' lengths.
        let fixed = g.block.groups.is_empty() && g.block.data.is_empty();
        let len = |v: Place| {
            let v = v.receiver;
            if fixed {
                quote!(#v.len())
            } else {
                quote!(#v.iter().map(#owned::sbe_len))
            }
        };
        let doc = format!("Group `{}` (id {}): its entries.", g.name, g.id);
        parts.converts.push(quote!(#owned::SBE_CONVERTS));
        push_section(
            parts,
            (doc, &g.name, Kind::Nested),
            name,
            quote!(#vec<#owned>),
            gated.then_some(g.block.since_version),
            (read, write, &len),
            (fixed, quote!(e.#name(0)?.end()?)),
        );
    }
    for (d, names) in b.data.iter().zip(&b.names.data) {
        let name = &names.name;
        let gated = b.is_gated(d.since_version);
        let text = d.meaning == Meaning::Text;
        let utf8 = is_utf8(d.character_encoding.as_deref());
        let at = super::at(d.element);
        let (ty, from, write, len): (_, _, _, Box<dyn Fn(Place) -> TokenStream>) = if text {
            (
                string_type(),
                quote!(__sbe::owned::text(b, #utf8)#at?),
                quote!(e.#name(__sbe::owned::pass_text_bytes::<CONVERT>(v, #utf8)?)?),
                Box::new(move |v: Place| {
                    let v = v.reference;
                    quote!(__sbe::owned::text_len(#v, #utf8))
                }),
            )
        } else {
            (
                quote!(#vec<u8>),
                quote!(b.to_vec()),
                quote!(e.#name(v)?),
                Box::new(move |v: Place| {
                    let v = v.receiver;
                    quote!(#v.len())
                }),
            )
        };
        let read = if gated {
            quote!(match self.#name() {
                __sbe::Some(b) => #from,
                __sbe::None => ::core::default::Default::default(),
            })
        } else {
            quote!({ let b = self.#name(); #from })
        };
        let doc = if text {
            format!("Var data `{}` (id {}), as text.", d.name, d.id)
        } else {
            format!("Var data `{}` (id {}), its bytes.", d.name, d.id)
        };
        let kind = if text { Kind::Json } else { Kind::Hex };
        if text && !utf8 {
            parts.converts.push(quote!(true));
        }
        push_section(
            parts,
            (doc, &d.name, kind),
            name,
            ty,
            gated.then_some(d.since_version),
            (read, write, &*len),
            (true, quote!(e.#name(b"")?)),
        );
    }
}

/// A held value as the statements writing it and the expression of a
/// section's length name it: as the receiver of a method call (`self.x`,
/// or `v` of a `&T`), as a `&T` argument (`&self.x`, `v`) and, where it
/// is `Copy`, as a `T` (`self.x`, `*v`). Named in place, not bound to a
/// `v` in a block of its own: the blocks and `let`s were a thirtieth of
/// the generation.
struct Place {
    receiver: TokenStream,
    reference: TokenStream,
    value: TokenStream,
}

impl Place {
    /// The value held in field `name` of `self`.
    fn held(name: &Ident) -> Self {
        Place {
            receiver: quote!(self.#name),
            reference: quote!(&self.#name),
            value: quote!(self.#name),
        }
    }

    /// The value `v: &T`.
    fn bound() -> Self {
        Place {
            receiver: quote!(v),
            reference: quote!(v),
            value: quote!(*v),
        }
    }
}

/// A group or var data of an owned struct: as [`Parts::push`], and its
/// argument `len` (of `v: &T`) to the encoder's length rule: a count or
/// a var data's bytes (`number`), or a group's entries' lengths. `write`
/// and `empty` (writing the section empty, for `None`) are expressions of
/// the encoder's stage after the section, which the next section's write
/// takes: `let e = …;`.
fn push_section(
    parts: &mut Parts,
    (doc, key, kind): (String, &str, Kind),
    name: &Ident,
    ty: TokenStream,
    gated: Option<u32>,
    (read, write, len): (TokenStream, TokenStream, &dyn Fn(Place) -> TokenStream),
    (number, empty): (bool, TokenStream),
) {
    // A section the message predates is written empty.
    let (doc, len) = match gated {
        Some(since) => (
            format!("{doc} `None` when the message's version predates it (version {since})."),
            {
                let len = len(Place::bound());
                if number {
                    quote!(self.#name.as_ref().map_or(0, |v| #len))
                } else {
                    quote!(self.#name.iter().flat_map(|v| #len))
                }
            },
        ),
        None => (doc, len(Place::held(name))),
    };
    // The section's statements name it `v`.
    let write = match gated {
        Some(_) => quote!(let e = match &self.#name {
            __sbe::Some(v) => #write,
            __sbe::None => #empty,
        };),
        None => quote!(let e = { let v = &self.#name; #write };),
    };
    parts.push_default(
        name,
        quote!(::core::default::Default::default()),
        gated.is_some(),
    );
    parts.push(
        doc,
        name,
        ty,
        gated,
        read,
        TokenStream::new(),
        TokenStream::new(),
        (key, kind),
    );
    parts.writes.extend(write);
    parts.lens.push(len);
}

/// The owned struct `owned` of block `b` (a message's root block, of
/// `root`'s message, or a group entry), with the `to_owned` of its decoder
/// `dec` and its writer for its encoder `enc` (the type, lifetimes
/// included); `groups`: the names of the block's groups' types.
pub(super) fn block(
    ctx: &Ctx,
    b: &NamedBlock,
    (owned, dec, encoder): (&Ident, &Ident, &Ident),
    entry_stage: Option<&Ident>,
    chain: &[Level],
    groups: &[GroupIdents],
) -> TokenStream {
    let root = chain.len() == 1;
    let fields = field_views(ctx, b);
    let exps = Exponents::of(chain, b);
    let mut parts = Parts::default();
    field_parts(ctx, &mut parts, &fields, (chain, &exps));
    let sets_fields = !parts.writes.is_empty();
    section_parts(&mut parts, b, groups, (chain, &exps));
    let Parts {
        decls,
        inits,
        writes,
        lens,
        serde,
        converts,
        defaults,
    } = parts;
    let converts = any(&converts);
    // What `sbe_write` writes with and returns: a message's first stage,
    // its length from `finish`; an entry's first stage, where it has
    // sections; else the group's encoder.
    let mut_e = if sets_fields {
        quote!(mut e)
    } else {
        quote!(e)
    };
    let (param, ret, end) = match (root, entry_stage) {
        (true, _) => (
            quote!(#mut_e: #encoder<'_>),
            quote!(usize),
            quote!(__sbe::Ok(e.finish()?)),
        ),
        (false, Some(stage)) => (
            quote!(#mut_e: #stage<'_, '_>),
            quote!(()),
            quote!(let _ = e; __sbe::Ok(())),
        ),
        (false, None) => {
            let e = if sets_fields { quote!(e) } else { quote!(_) };
            // A group's encoder in a message's root block has the one
            // lifetime; nested, the entry's borrow too.
            let lifetimes = if chain.len() == 2 {
                quote!(<'_>)
            } else {
                quote!(<'_, '_>)
            };
            (
                quote!(#e: &mut #encoder #lifetimes),
                quote!(()),
                quote!(__sbe::Ok(())),
            )
        }
    };
    // The length is the encoder's rule (`exact_length`, `entry_length`),
    // given what the sections hold, so that `encoded_length` and what the
    // encoder measures agree. An entry of one size is counted, not
    // measured: it has no rule of its own.
    let len = quote!(#encoder::exact_length(#(#lens),*));
    let entry_len = if b.sections() > 0 {
        quote! {
            /// Bytes of the entry, by its encoder's `entry_length`.
            fn sbe_len(&self) -> usize {
                #encoder::entry_length(#(#lens),*)
            }
        }
    } else {
        TokenStream::new()
    };
    let name = b.name;
    let (what, doc) = if root {
        (
            "message",
            format!("Message `{name}`, owned: its values, made by [`{dec}::to_owned`], written by `encode`."),
        )
    } else {
        (
            "entry",
            format!("One entry of group `{name}`, owned: its values (see [`{dec}`])."),
        )
    };
    let root_fns = if root {
        let encode = message_encode(encoder, converts.to_string() != "false");
        let length_doc = format!(" [`{encoder}::exact_length`] of its groups and var data.");
        let encode_doc = format!(
            " Writes the message at the start of `buf`, header included, with [`{encoder}`]: \
             the bytes it writes. Returns the message's length."
        );
        quote! {
            #[doc = #encode_doc]
            #encode
            /// Bytes [`encode`](Self::encode) writes, header included:
            #[doc = #length_doc]
            pub fn encoded_length(&self) -> usize {
                #len
            }
        }
    } else {
        entry_len
    };
    let to_owned = to_owned_fns(owned, &inits, root, &exps);
    let params = exps.params();
    let write_doc = format!(
        " Writes the {what}'s values with its encoder, converting text (`CONVERT`) \
         or failing on text that needs it (the message's first pass, see its `encode`)."
    );
    let derive = derives(ctx);
    let doc = docs(b.description, doc);
    let serde_impls = if owned_serde::on(ctx) {
        let expecting = if root {
            format!("message `{name}`")
        } else {
            format!("an entry of group `{name}`")
        };
        owned_serde::impls(owned, name, &expecting, &serde)
    } else {
        TokenStream::new()
    };
    let (serde_impls, doc, decls) = (moved(serde_impls), moved(doc), moved(decls));
    let (root_fns, writes, to_owned) = (moved(root_fns), moved(writes), moved(to_owned));
    quote! {
        #serde_impls

        #doc
        #derive
        pub struct #owned {
            #decls
        }

        #[allow(deprecated, clippy::derivable_impls)]
        impl ::core::default::Default for #owned {
            /// The values an encoder leaves in fields never set: `None`
            /// for an optional field (it encodes as its null), zero, empty
            /// or the enum's wire value 0 for a required one, no entries
            /// in a group, `None` for an item newer than the block.
            fn default() -> Self {
                Self { #defaults }
            }
        }

        #[allow(deprecated)]
        impl #owned {
            /// Whether writing it may convert text (ISO-8859-1 text, here
            /// or in its composites or groups' entries); read by the
            /// message's `encode` (unused where a known `true` decides).
            #[allow(dead_code)]
            const SBE_CONVERTS: bool = #converts;

            #root_fns

            #[doc = #write_doc]
            #[inline]
            fn sbe_write<const CONVERT: bool>(&self, #param #params) -> ::sbe_rt::Result<#ret> {
                #writes
                #end
            }

        }

        #[allow(deprecated)]
        impl #dec<'_> {
            #to_owned
        }
    }
}

/// A message's `encode` with its encoder `encoder`: one pass, converting
/// text, where the message has no text to convert (`converts` false),
/// else a first pass without and, where that fails, the converting pass.
fn message_encode(encoder: &Ident, converts: bool) -> TokenStream {
    if !converts {
        return quote! {
            pub fn encode(&self, buf: &mut [u8]) -> EncodeResult<usize> {
                __sbe::Ok(self.sbe_write::<true>(#encoder::wrap(buf)?)?)
            }
        };
    }
    quote! {
        pub fn encode(&self, buf: &mut [u8]) -> EncodeResult<usize> {
            if !Self::SBE_CONVERTS {
                return __sbe::Ok(self.sbe_encode::<true>(buf)?);
            }
            // Text as its own bytes first: a pass that needs no
            // conversion, and so no call, in its loops. ISO-8859-1 text
            // that is not ASCII fails it before it is written; the
            // converting pass then writes the message again, and its
            // result (bytes or error) is `encode`'s.
            match self.sbe_encode::<false>(buf) {
                __sbe::Ok(n) => __sbe::Ok(n),
                __sbe::Err(_) => __sbe::Ok(self.sbe_encode_converting(buf)?),
            }
        }

        // `sbe_encode` (a pass, converting or not) and, out of line,
        // `sbe_encode_converting`: the same for every message.
        ::sbe_rt::owned_passes!(#encoder);
    }
}

/// A decoder's `to_owned` making `owned` of `inits`. A message's reads its
/// values first and checks its groups and var data after (`checked_length`,
/// by then a read of the positions the reads cached, where checking first
/// walks them twice), and the check's error comes first, as if it had run
/// first.
fn to_owned_fns(owned: &Ident, inits: &TokenStream, root: bool, exps: &Exponents) -> TokenStream {
    let make = quote!(__sbe::Ok(#owned { #inits }));
    if !root {
        let params = exps.params();
        let doc = if exps.docs.is_empty() {
            " The entry's values, owned.".to_string()
        } else {
            format!(
                " The entry's values, owned, its decimals read at the exponents enclosing blocks hold (the schema's `exponent` attributes name them): {}.",
                exps.docs.join(", ")
            )
        };
        return quote! {
            #[doc = #doc]
            #[allow(clippy::wrong_self_convention)]
            pub fn to_owned(&self #params) -> ::sbe_rt::Result<#owned> {
                #make
            }
        };
    }
    // `to_owned`, the same for every message: `sbe_rt`'s.
    quote! {
        ::sbe_rt::owned_to_owned!(#owned);

        /// The message's values, read without checking its groups and var
        /// data first ([`to_owned`](Self::to_owned) checks them after).
        fn sbe_owned(&self) -> ::sbe_rt::Result<#owned> {
            #make
        }
    }
}

/// The constant expression true when any of `exprs` is (`false` for none).
fn any(exprs: &[TokenStream]) -> TokenStream {
    if exprs.iter().any(|e| e.to_string() == "true") {
        return quote!(true);
    }
    match exprs {
        [] => quote!(false),
        [first, rest @ ..] => quote!(#first #(|| #rest)*),
    }
}

/// The derives of an owned type.
fn derives(_ctx: &Ctx) -> TokenStream {
    quote!(#[derive(Clone, Debug, PartialEq)])
}

/// The owned struct `owned` of a composite (`key` in the schema) of `len`
/// bytes, decoder `dec` and encoder `enc`, made of `members`.
pub(super) fn composite(
    ctx: &Ctx,
    (key, ty): (&str, &crate::ir::Type),
    (owned, dec, enc): (&Ident, &Ident, &Ident),
    len: usize,
    members: &[MemberView],
) -> TokenStream {
    let mut decls = TokenStream::new();
    let mut inits = TokenStream::new();
    let mut writes = TokenStream::new();
    let mut serde = Vec::new();
    let mut converts = Vec::new();
    let mut defaults = TokenStream::new();
    for view in members {
        let key = &view.member.ty.name;
        let Some(ty) = view.val.owned_type() else {
            let read = view.val.dec_read(ctx, &quote!(self.buf), 0);
            serde.push(Item::Const {
                key: key.clone(),
                value: const_value(&view.val, &read),
            });
            continue;
        };
        let name = &view.name;
        let item = Held::of(
            ctx,
            (&view.val, &view.member.ty, None),
            (name, &Place::held(name)),
            quote!(self.#name()),
            ty,
        );
        let (ty, from, write) = (&item.ty, &item.read, &item.write);
        converts.extend(item.converts.clone());
        serde.push(Item::Held {
            key: key.clone(),
            ident: name.clone(),
            ty: ty.clone(),
            kind: item.kind.clone(),
            gated: false,
        });
        let doc = docs(None, format!("`{}`.", view.member.ty.name));
        let default = view.val.owned_default();
        defaults.extend(quote!(#name: #default,));
        decls.extend(quote!(#doc pub #name: #ty,));
        inits.extend(quote!(#name: #from,));
        writes.extend(write.clone());
    }
    let e = if writes.is_empty() {
        quote!(_)
    } else {
        quote!(e)
    };
    let converts = any(&converts);
    let doc = format!(" Composite `{key}`, owned: its values, made by [`{dec}::to_owned`].");
    let derive = derives(ctx);
    let serde_impls = if owned_serde::on(ctx) {
        let mut impls = owned_serde::impls(owned, key, &format!("composite `{key}`"), &serde);
        impls.extend(typed_impl(ctx, ty, (owned, dec, enc), len));
        impls
    } else {
        TokenStream::new()
    };
    let len = ulit(len);
    quote! {
        #serde_impls

        #[doc = #doc]
        #derive
        pub struct #owned {
            #decls
        }

        #[allow(deprecated, clippy::derivable_impls)]
        impl ::core::default::Default for #owned {
            /// The values an encoder leaves in members never set: `None`
            /// for an optional member (it encodes as its null), zero or
            /// empty for a required one.
            fn default() -> Self {
                Self { #defaults }
            }
        }

        #[allow(deprecated)]
        impl #owned {
            /// Whether writing it may convert text (ISO-8859-1 text, here
            /// or in its composites); read by the `SBE_CONVERTS` of the
            /// owned types that hold it (unused where none does).
            #[allow(dead_code)]
            const SBE_CONVERTS: bool = #converts;

            /// Writes the composite at the start of `buf` with its encoder;
            /// returns its length.
            pub fn encode(&self, buf: &mut [u8]) -> EncodeResult<usize> {
                self.sbe_write::<true>(&mut #enc::wrap(buf)?)?;
                __sbe::Ok(#len)
            }

            /// Writes the composite's values with its encoder, converting
            /// text (`CONVERT`) or failing on text that needs it (the
            /// message's first pass, see its `encode`).
            #[inline]
            fn sbe_write<const CONVERT: bool>(&self, #e: &mut #enc<'_>) -> ::sbe_rt::Result<()> {
                #writes
                __sbe::Ok(())
            }
        }

        #[allow(deprecated)]
        impl #dec<'_> {
            /// The composite's values, owned.
            #[allow(clippy::wrong_self_convention)]
            pub fn to_owned(&self) -> ::sbe_rt::Result<#owned> {
                __sbe::Ok(#owned { #inits })
            }
        }
    }
}

/// `serde_owned::Typed` of a composite's owned struct where an owned
/// message holds the composite as its typed value: through the
/// composite's encoder and decoder, whose typed `value(v)` and `value()`
/// are the one conversion.
fn typed_impl(
    ctx: &Ctx,
    ty: &crate::ir::Type,
    (owned, dec, enc): (&Ident, &Ident, &Ident),
    len: usize,
) -> TokenStream {
    let Some(typed) = super::typed::owned_value(ctx, ty) else {
        return TokenStream::new();
    };
    let len = ulit(len);
    let value_ty = &typed.ty;
    let write = typed.write(&quote!(#enc::wrap(&mut b)?), &quote!(v));
    let read = typed.read(&quote!(#dec::wrap(&b)?));
    quote! {
        impl __sbe::serde_owned::Typed for #owned {
            type Value = #value_ty;
            fn from_value(v: #value_ty) -> ::sbe_rt::Result<Self> {
                let mut b = [0u8; #len];
                #write
                #dec::wrap(&b)?.to_owned()
            }
            fn value(&self) -> ::sbe_rt::Result<#value_ty> {
                let mut b = [0u8; #len];
                self.encode(&mut b)?;
                __sbe::Ok(#read)
            }
        }
    }
}
