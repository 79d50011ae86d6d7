//! Typed values: the accessors and setters that read and write a value as
//! the IR's meaning facts say it is ([`Meaning`]): `sbe_rt::Decimal`,
//! `Timestamp`, `Date` and `MonthYear`, beside the raw accessors, which
//! stay. A composite's decoder gets `value()` and its encoder
//! `value(v)`; an integer timestamp or date field gets `<field>_value()`
//! and the same setter. A typed setter fails with `ValueOutOfRange`
//! where the value does not fit exactly (digits the exponent cannot hold,
//! a time before the epoch in an unsigned field, out of range); it never
//! rounds or wraps.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::accessors::MemberView;
use super::values::{rust_prim, Val};
use crate::ir::{
    Exponent, Field, Meaning, MonthYearParts, Presence, Primitive, TimeUnitSource, Type, TypeKind,
};
use sbe_rt::TimeUnit;

/// The tokens of a constant time unit.
fn unit_tokens(unit: TimeUnit) -> TokenStream {
    match unit {
        TimeUnit::Seconds => quote!(::sbe_rt::TimeUnit::Seconds),
        TimeUnit::Millis => quote!(::sbe_rt::TimeUnit::Millis),
        TimeUnit::Micros => quote!(::sbe_rt::TimeUnit::Micros),
        TimeUnit::Nanos => quote!(::sbe_rt::TimeUnit::Nanos),
    }
}

/// The constant unit of a time, `None` when it is read from the wire.
fn constant_unit(unit: TimeUnitSource, unstated: TimeUnit) -> Option<TimeUnit> {
    match unit {
        TimeUnitSource::Constant(u) => Some(u),
        TimeUnitSource::Unstated => Some(unstated),
        TimeUnitSource::Member(_) => None,
    }
}

/// A composite member read through its accessor, `?` where the accessor
/// gives an `Option` (the typed value is then one too).
struct Read {
    expr: TokenStream,
    fallible: bool,
}

fn read_member(members: &[MemberView], i: usize) -> Option<Read> {
    let view = members.get(i)?;
    let name = &view.name;
    Some(if view.val.is_option() {
        Read {
            expr: quote!(self.#name()?),
            fallible: true,
        }
    } else {
        Read {
            expr: quote!(self.#name()),
            fallible: false,
        }
    })
}

/// The wire primitive of a composite member that is a plain number.
fn member_prim(members: &[MemberView], i: usize) -> Option<Primitive> {
    match members.get(i)?.val {
        Val::Prim { prim, .. } => Some(prim),
        _ => None,
    }
}

/// `expr` (a `from`) as an `Option` of integer type `to`, wrapped by
/// `some`: as it is, widened, or `None` where it does not fit (spelled so
/// that no conversion is to the same type, which clippy would flag in the
/// consumer's crate).
fn fit(expr: &TokenStream, from: Primitive, to: Primitive, some: TokenStream) -> TokenStream {
    let ty = rust_prim(to);
    if from == to {
        quote!(#some(#expr))
    } else if widens(from, to) {
        quote!(#some(<#ty as ::core::convert::From<_>>::from(#expr)))
    } else {
        quote!(<#ty as ::core::convert::TryFrom<_>>::try_from(#expr).ok())
    }
}

/// Every value of integer type `from` is one of `to`.
fn widens(from: Primitive, to: Primitive) -> bool {
    let fits = if from.is_signed() == to.is_signed() {
        from.size() <= to.size()
    } else {
        !from.is_signed() && from.size() < to.size()
    };
    fits && from != Primitive::Char
}

/// `expr` (a `from`) as a member of integer type `to` for a setter: as it
/// is, widened, or `?` with `Err(ValueOutOfRange)` where it does not fit.
fn into_member(expr: TokenStream, from: Primitive, to: Primitive) -> TokenStream {
    let ty = rust_prim(to);
    if from == to {
        expr
    } else if widens(from, to) {
        quote!(<#ty as ::core::convert::From<_>>::from(#expr))
    } else {
        quote!(<#ty as ::core::convert::TryFrom<_>>::try_from(#expr).map_err(|_| ::sbe_rt::RangeError::Overflow)?)
    }
}

/// A method returning `value` as `ret`, or as `Option<ret>` when a read
/// on the way is fallible (its doc then says when it is `None`).
fn getter(
    doc: &str,
    name: &Ident,
    ret: TokenStream,
    value: TokenStream,
    fallible: bool,
) -> TokenStream {
    if fallible {
        let doc = format!("{doc}; `None` where it is null.");
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self) -> ::core::option::Option<#ret> {
                __sbe::Some(#value)
            }
        }
    } else {
        let doc = format!("{doc}.");
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self) -> #ret {
                #value
            }
        }
    }
}

/// The typed `value()` of a composite's decoder, if its meaning has one.
pub(super) fn composite_getter(
    meaning: &Meaning,
    members: &[MemberView],
    name: &Ident,
    unstated: TimeUnit,
) -> TokenStream {
    match meaning {
        Meaning::Decimal(d) => decimal_getter(d.mantissa, d.exponent, members, name),
        Meaning::Timestamp(t) => match t.zone {
            None => time_getter(t.time, t.unit, members, name, unstated),
            Some(zone) => zoned_getter(t, zone, members, name, unstated),
        },
        Meaning::MonthYear(parts) => {
            let member = |i: Option<usize>, to: Primitive| -> TokenStream {
                let none = quote!(__sbe::None);
                let Some((view, from)) =
                    i.and_then(|i| Some((members.get(i)?, member_prim(members, i)?)))
                else {
                    return none;
                };
                let name = &view.name;
                let ty = rust_prim(to);
                if view.val.is_option() && from == to {
                    quote!(self.#name())
                } else if view.val.is_option() && widens(from, to) {
                    quote!(self.#name().map(<#ty as ::core::convert::From<_>>::from))
                } else if view.val.is_option() {
                    quote!(self.#name().and_then(|v| <#ty as ::core::convert::TryFrom<_>>::try_from(v).ok()))
                } else {
                    fit(&quote!(self.#name()), from, to, quote!(__sbe::Some))
                }
            };
            let year = member(Some(parts.year), Primitive::Uint16);
            let month = member(Some(parts.month), Primitive::Uint8);
            let day = member(parts.day, Primitive::Uint8);
            let week = member(parts.week, Primitive::Uint8);
            let value =
                quote!(::sbe_rt::MonthYear { year: #year, month: #month, day: #day, week: #week });
            let doc = " The MonthYear; a null year makes it null (`MonthYear::is_null`)";
            getter(doc, name, quote!(::sbe_rt::MonthYear), value, false)
        }
        _ => TokenStream::new(),
    }
}

fn decimal_getter(
    mantissa: usize,
    exponent: Exponent,
    members: &[MemberView],
    name: &Ident,
) -> TokenStream {
    let Some(m) = read_member(members, mantissa) else {
        return TokenStream::new();
    };
    let (exp, exp_fallible) = match exponent {
        Exponent::Constant(e) => (quote!(#e), false),
        Exponent::Member(i) => match read_member(members, i) {
            Some(r) => (r.expr, r.fallible),
            None => return TokenStream::new(),
        },
        // A field decimal is no composite's.
        Exponent::Field(_) => return TokenStream::new(),
    };
    let mant = m.expr;
    let value = quote!(::sbe_rt::Decimal::new(::core::convert::Into::<i128>::into(#mant), #exp));
    let doc = " The decimal `mantissa × 10^exponent`, exact";
    getter(
        doc,
        name,
        quote!(::sbe_rt::Decimal),
        value,
        m.fallible || exp_fallible,
    )
}

/// The instant a time composite's `time` and `unit` give, and whether
/// reading it may fail (a null time, a unit code that is no unit).
fn time_value(
    time: Option<usize>,
    unit: TimeUnitSource,
    members: &[MemberView],
    unstated: TimeUnit,
) -> Option<(TokenStream, bool)> {
    let t = time.and_then(|i| read_member(members, i))?;
    let (unit, unit_fallible) = match unit {
        TimeUnitSource::Member(i) => {
            // A number, or an enum (the reference's `TimeUnit`) read raw.
            let view = members.get(i).filter(|v| !v.val.is_option())?;
            let n = &view.name;
            let (raw, prim) = match &view.val {
                Val::Prim { prim, .. } => (quote!(self.#n()), *prim),
                Val::Enum { ty, .. } => (quote!(self.#n().raw()), ty.encoding),
                _ => return None,
            };
            let code = if prim == Primitive::Uint8 {
                raw
            } else {
                quote!(<u8 as ::core::convert::TryFrom<_>>::try_from(#raw).ok()?)
            };
            (quote!(::sbe_rt::TimeUnit::from_code(#code)?), true)
        }
        other => (unit_tokens(constant_unit(other, unstated)?), false),
    };
    let count = t.expr;
    let value =
        quote!(::sbe_rt::Timestamp::from_count(::core::convert::Into::<i128>::into(#count), #unit));
    Some((value, t.fallible || unit_fallible))
}

fn time_getter(
    time: Option<usize>,
    unit: TimeUnitSource,
    members: &[MemberView],
    name: &Ident,
    unstated: TimeUnit,
) -> TokenStream {
    let Some((value, fallible)) = time_value(time, unit, members, unstated) else {
        return TokenStream::new();
    };
    let doc = " The time as an instant (a time of day as that time on 1970-01-01), in the composite's unit";
    getter(doc, name, quote!(::sbe_rt::Timestamp), value, fallible)
}

/// A zoned time's member `i` (`timezoneHour`, `timezoneMinute`) as `to`
/// (`i8`, `u8`), `?` where it does not fit or is null.
fn zone_member(members: &[MemberView], i: usize, to: Primitive) -> Option<TokenStream> {
    let read = read_member(members, i)?.expr;
    let from = member_prim(members, i)?;
    let ty = rust_prim(to);
    Some(if from == to {
        read
    } else {
        quote!(<#ty as ::core::convert::TryFrom<_>>::try_from(#read).ok()?)
    })
}

/// A `TZTimestamp` / `TZTimeOnly` composite's `value()`: its local time
/// and offset, `None` where a member is null or the offset is no offset.
fn zoned_getter(
    t: &crate::ir::TimeParts,
    (hour, minute): (usize, usize),
    members: &[MemberView],
    name: &Ident,
    unstated: TimeUnit,
) -> TokenStream {
    let Some((local, _)) = time_value(t.time, t.unit, members, unstated) else {
        return TokenStream::new();
    };
    let (Some(hour), Some(minute)) = (
        zone_member(members, hour, Primitive::Int8),
        zone_member(members, minute, Primitive::Uint8),
    ) else {
        return TokenStream::new();
    };
    let doc = " The local time and its offset from UTC (a time of day as that time on 1970-01-01); `None` where a member is null or a unit code or an offset is none (a minute past 59).";
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(&self) -> ::core::option::Option<::sbe_rt::ZonedTimestamp> {
            ::sbe_rt::ZonedTimestamp::from_parts(#local, #hour, #minute).ok()
        }
    }
}

/// A `TZTimestamp` / `TZTimeOnly` composite's `value(v)` where its unit is
/// a constant: the local time as a count of it, the offset as the hour
/// (with the sign) and minute.
fn zoned_setter(
    t: &crate::ir::TimeParts,
    (hour, minute): (usize, usize),
    members: &[MemberView],
    name: &Ident,
    unstated: TimeUnit,
) -> TokenStream {
    let (Some(i), Some(unit)) = (t.time, constant_unit(t.unit, unstated)) else {
        return TokenStream::new();
    };
    let (mut writes, unit) = (TokenStream::new(), unit_tokens(unit));
    // The count in the member's own type; the offset's parts from i8 / u8.
    let parts = [
        (i, quote!(v.local().to_units(#unit)?), None),
        (hour, quote!(hour), Some(Primitive::Int8)),
        (minute, quote!(minute), Some(Primitive::Uint8)),
    ];
    for (i, raw, from) in parts {
        let (Some(view), Some(prim)) = (members.get(i), member_prim(members, i)) else {
            return TokenStream::new();
        };
        let ty = rust_prim(prim);
        let raw = match from {
            Some(from) => into_member(raw, from, prim),
            None => raw,
        };
        writes.extend(quote!(let raw: #ty = #raw;));
        writes.extend(setter_call(&view.name, quote!(raw), view.val.is_option()));
    }
    let doc = " Writes the local time as a count of the composite's unit and the offset as its hour and minute; `Err(ValueOutOfRange)` if the time is not a whole count or does not fit, or the offset is west of UTC by less than an hour (the sign is on the hour).";
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(&mut self, v: ::sbe_rt::ZonedTimestamp) -> EncodeResult<&mut Self> {
            let (hour, minute) = v.offset_parts()?;
            #writes
            __sbe::Ok(self)
        }
    }
}

/// The typed `value(v)` of a composite's encoder: a decimal (the
/// exponent constant or written with it), a time of a constant unit or a
/// MonthYear.
pub(super) fn composite_setter(
    meaning: &Meaning,
    members: &[MemberView],
    name: &Ident,
    unstated: TimeUnit,
) -> TokenStream {
    match meaning {
        Meaning::Decimal(d) => decimal_setter(d.mantissa, d.exponent, members, name),
        Meaning::Timestamp(
            t @ crate::ir::TimeParts {
                zone: Some(zone), ..
            },
        ) => zoned_setter(t, *zone, members, name, unstated),
        Meaning::Timestamp(t) => {
            let (Some(i), Some(unit)) = (t.time, constant_unit(t.unit, unstated)) else {
                return TokenStream::new();
            };
            let (Some(view), Some(prim)) = (members.get(i), member_prim(members, i)) else {
                return TokenStream::new();
            };
            let (setter, ty, unit) = (&view.name, rust_prim(prim), unit_tokens(unit));
            let raw = quote!(v.to_units::<#ty>(#unit)?);
            let doc = " Writes the instant as a count of the composite's unit; `Err(ValueOutOfRange)` if it is not a whole count or does not fit (a time before the epoch in an unsigned count).";
            typed_setter(
                doc,
                name,
                quote!(::sbe_rt::Timestamp),
                setter,
                raw,
                view.val.is_option(),
            )
        }
        Meaning::MonthYear(parts) => month_year_setter(parts, members, name),
        _ => TokenStream::new(),
    }
}

/// The MonthYear parts a composite holds: (the value's field, the member,
/// the value's integer type), `None` where a part has no member.
fn month_year_parts(parts: &MonthYearParts) -> [(&'static str, Option<usize>, Primitive); 4] {
    [
        ("year", Some(parts.year), Primitive::Uint16),
        ("month", Some(parts.month), Primitive::Uint8),
        ("day", parts.day, Primitive::Uint8),
        ("week", parts.week, Primitive::Uint8),
    ]
}

/// Whether every MonthYear member is a plain number the setter can write.
fn month_year_writable(parts: &MonthYearParts, members: &[MemberView]) -> bool {
    month_year_parts(parts)
        .iter()
        .all(|(_, i, _)| i.is_none_or(|i| member_prim(members, i).is_some()))
}

/// The MonthYear encoder's `value(v)`: each part converted first (a part
/// the composite has no member for, or a null part of a required member,
/// is `Err(ValueOutOfRange)`), then written, so that an error writes
/// nothing.
fn month_year_setter(parts: &MonthYearParts, members: &[MemberView], name: &Ident) -> TokenStream {
    if !month_year_writable(parts, members) {
        return TokenStream::new();
    }
    let overflow = quote!(::sbe_rt::RangeError::Overflow);
    let (mut checks, mut writes) = (TokenStream::new(), TokenStream::new());
    for (part, i, from) in month_year_parts(parts) {
        let field = super::names::ident(part);
        let Some((view, prim)) = i.and_then(|i| Some((members.get(i)?, member_prim(members, i)?)))
        else {
            checks.extend(quote! {
                if v.#field.is_some() {
                    return __sbe::Err(#overflow.into());
                }
            });
            continue;
        };
        let conv = into_member(quote!(x), from, prim);
        let setter = &view.name;
        if view.val.is_option() && prim == from {
            checks.extend(quote!(let #field = v.#field;));
        } else if view.val.is_option() {
            checks.extend(quote! {
                let #field = match v.#field {
                    __sbe::Some(x) => __sbe::Some(#conv),
                    __sbe::None => __sbe::None,
                };
            });
        } else {
            checks.extend(quote! {
                let #field = match v.#field {
                    __sbe::Some(x) => #conv,
                    __sbe::None => return __sbe::Err(#overflow.into()),
                };
            });
        }
        writes.extend(quote!(self.#setter(#field);));
    }
    let doc = " Writes the MonthYear's parts; `Err(ValueOutOfRange)`, with nothing written, where a part does not fit its member, is set where the composite has no member for it, or is null where its member is required.";
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(&mut self, v: ::sbe_rt::MonthYear) -> EncodeResult<&mut Self> {
            #checks
            #writes
            __sbe::Ok(self)
        }
    }
}

/// How an owned struct holds a composite as its typed value
/// ([`owned_value`]): the type, and how it is read from the composite's
/// decoder and written with its encoder.
pub(super) struct OwnedValue {
    /// The held type (an `Option` where the value may be null).
    pub ty: TokenStream,
    via: Via,
}

enum Via {
    /// The composite's typed `value()` and `value(v)`, of the same type.
    Value(Ident),
    /// A decimal at the schema's constant exponent, held as a
    /// `sbe_rt::Fixed` of its mantissa: read and written through the
    /// mantissa member's accessor and setter (`optional`: those take an
    /// `Option`), so that writing it checks nothing.
    Mantissa { member: Ident, optional: bool },
    /// A decimal with its exponent on the wire whose mantissa may be null:
    /// an `Option<Decimal>`, `None` where the mantissa is null whatever the
    /// exponent holds; `None` is written as the null mantissa (the
    /// exponent, required, as the encoder has it).
    NullableDecimal { value: Ident, mantissa: Ident },
}

impl OwnedValue {
    /// The held value, read with the composite's decoder `dec`.
    pub(super) fn read(&self, dec: &TokenStream) -> TokenStream {
        match &self.via {
            Via::Value(value) | Via::NullableDecimal { value, .. } => quote!(#dec.#value()),
            Via::Mantissa {
                member,
                optional: true,
            } => quote!(#dec.#member().map(::sbe_rt::Fixed::new)),
            Via::Mantissa { member, .. } => quote!(::sbe_rt::Fixed::new(#dec.#member())),
        }
    }

    /// Writes the held value `v` with the composite's encoder `enc`; may
    /// use `?`.
    pub(super) fn write(&self, enc: &TokenStream, v: &TokenStream) -> TokenStream {
        match &self.via {
            Via::Value(value) => quote!(#enc.#value(#v)?;),
            Via::Mantissa {
                member,
                optional: true,
            } => quote!(#enc.#member(::core::option::Option::map(#v, ::sbe_rt::Fixed::mantissa));),
            Via::Mantissa { member, .. } => quote!(#enc.#member(::sbe_rt::Fixed::mantissa(#v));),
            Via::NullableDecimal { value, mantissa } => quote! {
                match #v {
                    __sbe::Some(v) => {
                        #enc.#value(v)?;
                    }
                    __sbe::None => {
                        #enc.#mantissa(__sbe::None);
                    }
                }
            },
        }
    }
}

/// The typed value an owned struct holds for a composite of type `ty`:
/// where the decoder's `value()` and the encoder's `value(v)` both exist
/// and take the same type, so that the owned value reads and writes back
/// exactly; a decimal at a constant exponent is a `sbe_rt::Fixed` of its
/// mantissa type instead of a `Decimal`, exact by its type.
pub(super) fn owned_value(ctx: &super::Ctx, ty: &Type) -> Option<OwnedValue> {
    let TypeKind::Composite(c) = &ty.kind else {
        return None;
    };
    let members = super::types::members(ctx, c);
    let unstated = ctx.opts.timestamp_unit;
    let plain_member = |i: usize| Some((members.get(i)?, member_prim(&members, i)?).0);
    let (value, optional) = match &ty.meaning {
        Meaning::Decimal(d) => {
            let m = plain_member(d.mantissa)?;
            match d.exponent {
                Exponent::Constant(e) => {
                    let prim = rust_prim(member_prim(&members, d.mantissa)?);
                    let e = proc_macro2::Literal::i8_unsuffixed(e);
                    let fixed = quote!(::sbe_rt::Fixed<#prim, #e>);
                    let optional = m.val.is_option();
                    let via = Via::Mantissa {
                        member: m.name.clone(),
                        optional,
                    };
                    return Some(OwnedValue {
                        ty: option_if(optional, fixed),
                        via,
                    });
                }
                Exponent::Member(i) => {
                    let e = members.get(i)?;
                    // A null mantissa beside a required exponent: an
                    // `Option<Decimal>`. Where the exponent may be null too
                    // (iLink 3's Decimal32NULL), a mantissa beside a null
                    // exponent is on the wire (the reference's own vectors
                    // hold one) and no `Decimal`: the composite stays, so
                    // that nothing read is lost.
                    if m.val.is_option() && !e.val.is_option() {
                        let via = Via::NullableDecimal {
                            value: composite_value_name(&members),
                            mantissa: m.name.clone(),
                        };
                        return Some(OwnedValue {
                            ty: option_if(true, quote!(::sbe_rt::Decimal)),
                            via,
                        });
                    }
                    if m.val.is_option() || e.val.is_option() {
                        return None;
                    }
                    (quote!(::sbe_rt::Decimal), false)
                }
                Exponent::Field(_) => return None,
            }
        }
        Meaning::Timestamp(t) if t.zone.is_none() => {
            constant_unit(t.unit, unstated)?;
            (
                quote!(::sbe_rt::Timestamp),
                plain_member(t.time?)?.val.is_option(),
            )
        }
        Meaning::MonthYear(parts) if month_year_writable(parts, &members) => {
            (quote!(::sbe_rt::MonthYear), false)
        }
        _ => return None,
    };
    Some(OwnedValue {
        ty: option_if(optional, value),
        via: Via::Value(composite_value_name(&members)),
    })
}

/// `ty`, or `Option<ty>` where `optional`.
fn option_if(optional: bool, ty: TokenStream) -> TokenStream {
    if optional {
        quote!(::core::option::Option<#ty>)
    } else {
        ty
    }
}

/// The typed value an owned struct holds for an integer timestamp or
/// date field of shape `val`: (its type, the wire integer's, the unit),
/// converted with `sbe_rt::__private::owned::WireInt`. A date whose wire
/// type does not widen to `i32` days stays an integer: its value could
/// fail to read.
pub(super) fn owned_field_value(
    f: &Field,
    val: &Val,
    unstated: TimeUnit,
) -> Option<(TokenStream, TokenStream, TokenStream)> {
    let Val::Prim { prim, optional, .. } = val else {
        return None;
    };
    if !field_has_value(f) {
        return None;
    }
    let (value, unit) = match &f.meaning {
        Meaning::Timestamp(t) if t.time.is_none() => (
            quote!(::sbe_rt::Timestamp),
            unit_tokens(constant_unit(t.unit, unstated)?),
        ),
        Meaning::Date(_) if *prim == Primitive::Int32 || widens(*prim, Primitive::Int32) => {
            (quote!(::sbe_rt::Date), unit_tokens(unstated))
        }
        _ => return None,
    };
    let wire = rust_prim(*prim);
    Some(if *optional {
        (
            quote!(::core::option::Option<#value>),
            quote!(::core::option::Option<#wire>),
            unit,
        )
    } else {
        (value, wire, unit)
    })
}

fn decimal_setter(
    mantissa: usize,
    exponent: Exponent,
    members: &[MemberView],
    name: &Ident,
) -> TokenStream {
    let (Some(view), Some(prim)) = (members.get(mantissa), member_prim(members, mantissa)) else {
        return TokenStream::new();
    };
    let (setter, ty, optional) = (&view.name, rust_prim(prim), view.val.is_option());
    match exponent {
        Exponent::Constant(e) => {
            let raw = quote!(v.mantissa_at::<#ty>(#e)?);
            let doc = " Writes the decimal's mantissa at the schema's exponent; `Err(ValueOutOfRange)` if that would lose a digit or overflow the mantissa.";
            typed_setter(doc, name, quote!(::sbe_rt::Decimal), setter, raw, optional)
        }
        Exponent::Field(_) => TokenStream::new(),
        Exponent::Member(i) => {
            let Some(exp) = members.get(i) else {
                return TokenStream::new();
            };
            let exp_setter = &exp.name;
            let write_exp = if exp.val.is_option() {
                quote!(self.#exp_setter(__sbe::Some(v.exponent()));)
            } else {
                quote!(self.#exp_setter(v.exponent());)
            };
            let raw = quote!(v.mantissa_at::<#ty>(v.exponent())?);
            let write = setter_call(setter, raw, optional);
            let doc = " Writes the decimal's mantissa and exponent; `Err(ValueOutOfRange)` if the mantissa overflows its type.";
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #name(&mut self, v: ::sbe_rt::Decimal) -> EncodeResult<&mut Self> {
                    #write
                    #write_exp
                    __sbe::Ok(self)
                }
            }
        }
    }
}

/// `self.setter(raw)`, `Some(raw)` where the raw setter takes an `Option`.
fn setter_call(setter: &Ident, raw: TokenStream, optional: bool) -> TokenStream {
    if optional {
        quote!(self.#setter(__sbe::Some(#raw));)
    } else {
        quote!(self.#setter(#raw);)
    }
}

/// A setter `name(v: ty)` writing `raw` (computed from `v`) through the
/// raw setter; where that takes an `Option`, so does this one (`None`
/// writes the null).
fn typed_setter(
    doc: &str,
    name: &Ident,
    ty: TokenStream,
    setter: &Ident,
    raw: TokenStream,
    optional: bool,
) -> TokenStream {
    if optional {
        quote! {
            #[doc = #doc]
            #[doc = ""]
            #[doc = " `None` writes the null value."]
            #[inline]
            pub fn #name(&mut self, v: ::core::option::Option<#ty>) -> EncodeResult<&mut Self> {
                let raw = match v {
                    __sbe::Some(v) => __sbe::Some(#raw),
                    __sbe::None => __sbe::None,
                };
                self.#setter(raw);
                __sbe::Ok(self)
            }
        }
    } else {
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&mut self, v: #ty) -> EncodeResult<&mut Self> {
                self.#setter(#raw);
                __sbe::Ok(self)
            }
        }
    }
}

/// Whether a field gets a `<field>_value` twin: an integer timestamp or
/// date on the wire (a composite's typed value is on its decoder).
pub(super) fn field_has_value(f: &Field) -> bool {
    let typed = match &f.meaning {
        Meaning::Timestamp(t) => t.time.is_none(),
        Meaning::Date(_) => true,
        // A field decimal (Binance's `mbx:exponent`) of an integer
        // mantissa: its value takes the exponent ([`field_getter`]).
        Meaning::Decimal(d) => matches!(d.exponent, Exponent::Field(_)),
        _ => false,
    };
    // A `mantissa128` is 16 bytes; a required one is read as an `i128`.
    let wide = matches!(&f.meaning, Meaning::Decimal(d) if d.mantissa128 && !d.optional);
    typed
        && f.presence != Presence::Constant
        && matches!(&f.ty.kind, TypeKind::Encoded(e) if e.length == 1 || (wide && e.length == 16))
}

/// The name of a composite's typed `value`: `value`, numbered past a
/// member of that name.
pub(super) fn composite_value_name(members: &[MemberView]) -> Ident {
    let mut scope = super::names::Scope::with(&["wrap", "write_json", "buf", "fmt"]);
    for m in members {
        scope.claim(&m.name.to_string());
    }
    super::names::ident(&scope.claim("value"))
}

/// The typed `<field>_value()` of an integer timestamp or date, read
/// through the raw accessor `raw` (which gives an `Option` when `option`).
pub(super) fn field_getter(
    meaning: &Meaning,
    val: &Val,
    name: &Ident,
    raw: &Ident,
    option: bool,
    unstated: TimeUnit,
) -> TokenStream {
    let read = if option {
        quote!(self.#raw()?)
    } else {
        quote!(self.#raw())
    };
    if let (Meaning::Decimal(d), Val::Array { prim, len: 16, .. }) = (meaning, val) {
        if !d.mantissa128 || !matches!(prim, Primitive::Uint8 | Primitive::Int8) {
            return TokenStream::new();
        }
        // The 16 bytes as a little-endian two's-complement `i128`.
        let bytes = if *prim == Primitive::Uint8 {
            read
        } else {
            quote!(#read.map(|b| b as u8))
        };
        let value =
            quote!(::sbe_rt::Decimal::new(::sbe_rt::Decimal::mantissa128(#bytes), exponent));
        let doc = format!(" `{raw}` (a 128-bit mantissa: its 16 bytes as a little-endian `i128`) as a decimal at `exponent`, the value of the field the schema's `exponent` attribute names for it (in this block or an enclosing one: pass the message's or the entry's accessor of that field), exact");
        let (ret, body, doc) = if option {
            (
                quote!(::core::option::Option<::sbe_rt::Decimal>),
                quote!(__sbe::Some(#value)),
                format!("{doc}; `None` where the field is absent."),
            )
        } else {
            (quote!(::sbe_rt::Decimal), value, format!("{doc}."))
        };
        return quote! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self, exponent: i8) -> #ret {
                #body
            }
        };
    }
    let Val::Prim { prim, .. } = val else {
        return TokenStream::new();
    };
    match meaning {
        Meaning::Decimal(d) if matches!(d.exponent, Exponent::Field(_)) => {
            // The exponent is another field's, maybe of the message or an
            // enclosing entry: the caller reads it there and passes it, so
            // that an entry decoder holds nothing more than its bytes.
            let value = quote!(::sbe_rt::Decimal::new(::core::convert::Into::<i128>::into(#read), exponent));
            let doc = format!(" `{raw}` as a decimal at `exponent`, the value of the field the schema's `exponent` attribute names for it (in this block or an enclosing one: pass the message's or the entry's accessor of that field), exact");
            let (ret, body) = if option {
                (
                    quote!(::core::option::Option<::sbe_rt::Decimal>),
                    quote!(__sbe::Some(#value)),
                )
            } else {
                (quote!(::sbe_rt::Decimal), value)
            };
            let doc = if option {
                format!("{doc}; `None` where the mantissa is null.")
            } else {
                format!("{doc}.")
            };
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #name(&self, exponent: i8) -> #ret {
                    #body
                }
            }
        }
        Meaning::Timestamp(t) if t.time.is_none() => {
            let Some(unit) = constant_unit(t.unit, unstated) else {
                return TokenStream::new();
            };
            let unit = unit_tokens(unit);
            let value = quote!(::sbe_rt::Timestamp::from_count(::core::convert::Into::<i128>::into(#read), #unit));
            let doc = format!(" `{raw}` as an instant (a time of day as that time on 1970-01-01)");
            getter(&doc, name, quote!(::sbe_rt::Timestamp), value, option)
        }
        Meaning::Date(_) => {
            let days = quote!(days);
            let (value, fallible) = if *prim == Primitive::Int32 {
                (quote!(::sbe_rt::Date::from_days(#read)), option)
            } else if widens(*prim, Primitive::Int32) {
                (
                    quote!(::sbe_rt::Date::from_days(::core::convert::From::from(#read))),
                    option,
                )
            } else {
                let fit = fit(&days, *prim, Primitive::Int32, quote!(__sbe::Some));
                (
                    quote!({ let days = #read; ::sbe_rt::Date::from_days(#fit?) }),
                    true,
                )
            };
            let doc = format!(" `{raw}` as a date (days since 1970-01-01)");
            getter(&doc, name, quote!(::sbe_rt::Date), value, fallible)
        }
        _ => TokenStream::new(),
    }
}

/// The typed setter `<field>_value(v)` of an integer timestamp or date,
/// writing through the raw setter `raw`.
/// `expr?` for an `expr` whose error is an `sbe_rt::RangeError`, naming
/// schema element `element` when it fails (0: none).
pub(super) fn fallible(expr: TokenStream, element: u16) -> TokenStream {
    if element == 0 {
        return quote!(#expr?);
    }
    let n = super::element_lit(element);
    quote!(#expr.map_err(|e| __sbe::at(::sbe_rt::Error::from(e), #n))?)
}

pub(super) fn field_setter(
    meaning: &Meaning,
    val: &Val,
    (name, raw): (&Ident, &Ident),
    unstated: TimeUnit,
    element: u16,
) -> TokenStream {
    let Val::Prim { prim, optional, .. } = val else {
        return TokenStream::new();
    };
    let ty = rust_prim(*prim);
    match meaning {
        Meaning::Decimal(d) if matches!(d.exponent, Exponent::Field(_)) => {
            let raw_value = fallible(quote!(v.mantissa_at::<#ty>(exponent)), element);
            let doc = format!(" Sets `{raw}` to the decimal's mantissa at `exponent`, the value the exponent field the schema's `exponent` attribute names holds (in this block or an enclosing one, written there); `Err(ValueOutOfRange)` if that would lose a digit or overflow `{raw}`.");
            let (arg, write) = if *optional {
                (
                    quote!(::core::option::Option<::sbe_rt::Decimal>),
                    quote! {
                        let raw = match v {
                            __sbe::Some(v) => __sbe::Some(#raw_value),
                            __sbe::None => __sbe::None,
                        };
                        self.#raw(raw);
                    },
                )
            } else {
                (quote!(::sbe_rt::Decimal), quote!(self.#raw(#raw_value);))
            };
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #name(&mut self, v: #arg, exponent: i8) -> EncodeResult<&mut Self> {
                    #write
                    __sbe::Ok(self)
                }
            }
        }
        Meaning::Timestamp(t) if t.time.is_none() => {
            let Some(unit) = constant_unit(t.unit, unstated) else {
                return TokenStream::new();
            };
            let unit = unit_tokens(unit);
            let count = fallible(quote!(v.to_units::<#ty>(#unit)), element);
            let doc = format!(" Sets `{raw}` to the instant as a whole count of its unit; `Err(ValueOutOfRange)` if it is not one or does not fit (a time before the epoch in an unsigned field).");
            typed_setter(
                &doc,
                name,
                quote!(::sbe_rt::Timestamp),
                raw,
                count,
                *optional,
            )
        }
        Meaning::Date(_) => {
            let days = if *prim == Primitive::Int32 {
                quote!(v.days())
            } else {
                fallible(
                    quote!(<#ty as ::core::convert::TryFrom<i32>>::try_from(v.days()).map_err(|_| ::sbe_rt::RangeError::Overflow)),
                    element,
                )
            };
            let doc = format!(" Sets `{raw}` to the date's days since 1970-01-01; `Err(ValueOutOfRange)` if they do not fit.");
            typed_setter(&doc, name, quote!(::sbe_rt::Date), raw, days, *optional)
        }
        _ => TokenStream::new(),
    }
}
