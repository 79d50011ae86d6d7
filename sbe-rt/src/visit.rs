//! Walking a decoded block field by field: what generated `Debug` and
//! JSON are made of, and what any other output format can be made of.
//!
//! A generated block decoder (message, group entry or composite)
//! implements [`Visit`]: its one method calls [`Visitor::field`] for each
//! field, group and var data the acting version holds, in schema order,
//! with the schema's name and the accessor's value. Every value is a
//! [`Field`]: it has its own `Debug` and gives its [`Value`], the SBE
//! value mapped onto a few kinds (numbers, text, bytes, enums, sets,
//! nested blocks and lists). [`JsonWriter`](crate::JsonWriter) is a
//! visitor, and [`debug_struct`] drives `Debug`.
//!
//! ```
//! use core::fmt;
//! use sbe_rt::visit::{debug_struct, Field, Text, Value, Visit, Visitor};
//!
//! // What the generator writes for a block of two fields.
//! struct Quote<'a> { bid: Option<i64>, venue: &'a [u8] }
//! impl Visit for Quote<'_> {
//!     fn visit(&self, v: &mut dyn Visitor) {
//!         v.field("bid", &self.bid);
//!         v.field("venue", &Text::latin1(self.venue).until_nul());
//!     }
//! }
//! impl fmt::Debug for Quote<'_> {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         debug_struct(f, "Quote", self)
//!     }
//! }
//!
//! // A visitor of your own: the names of the fields that are null.
//! struct Nulls(Vec<String>);
//! impl Visitor for Nulls {
//!     fn field(&mut self, name: &str, value: &dyn Field) {
//!         if let Value::Null = value.value() {
//!             self.0.push(name.to_string());
//!         }
//!     }
//! }
//!
//! let q = Quote { bid: None, venue: b"XCME\0\0" };
//! let mut nulls = Nulls(Vec::new());
//! q.visit(&mut nulls);
//! assert_eq!(nulls.0, ["bid"]);
//! assert_eq!(format!("{q:?}"), r#"Quote { bid: None, venue: "XCME" }"#);
//! # #[cfg(feature = "alloc")]
//! assert_eq!(sbe_rt::JsonWriter::new().object(&q).as_str(), r#"{"bid":null,"venue":"XCME"}"#);
//! ```

use core::fmt;

use crate::__private::codec;
use crate::text::trim_nul;

/// A block whose fields can be walked: a generated message, group entry
/// or composite decoder.
pub trait Visit {
    /// Calls `v.field` for each field, group and var data the acting
    /// version holds, in schema order.
    fn visit(&self, v: &mut dyn Visitor);

    /// Writes the block as a JSON object (FORMAT.md's mapping).
    ///
    /// ```
    /// use sbe_rt::visit::{Visit, Visitor};
    ///
    /// struct Tick(u32);
    /// impl Visit for Tick {
    ///     fn visit(&self, v: &mut dyn Visitor) { v.field("px", &self.0); }
    /// }
    /// let mut w = sbe_rt::JsonWriter::new();
    /// Tick(7).write_json(&mut w);
    /// assert_eq!(w.as_str(), r#"{"px":7}"#);
    /// ```
    #[cfg(feature = "alloc")]
    fn write_json(&self, w: &mut crate::JsonWriter)
    where
        Self: Sized,
    {
        w.object(self);
    }
}

/// What receives the fields of a [`Visit`], one call per field.
pub trait Visitor {
    /// The field `name` (the schema's name) has `value`.
    fn field(&mut self, name: &str, value: &dyn Field);
}

/// A value a visitor receives: it formats itself with `Debug` and maps
/// itself onto a [`Value`].
pub trait Field: fmt::Debug {
    /// The value, as one of the kinds every output format handles.
    fn value(&self) -> Value<'_>;
}

/// An SBE value, as output formats see it.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum Value<'a> {
    /// An optional value that is absent (its null value on the wire).
    Null,
    /// An unsigned integer (a char where its encoding is a number).
    U64(u64),
    /// A signed integer.
    I64(i64),
    /// A `float`.
    F32(f32),
    /// A `double`.
    F64(f64),
    /// Text from the schema (a constant).
    Str(&'a str),
    /// Character data from the wire.
    Text(Text<'a>),
    /// Binary data from the wire.
    Bytes(&'a [u8]),
    /// An enum's value: the schema's name for it, or `None` when the
    /// schema names no such value, and its raw value either way.
    Enum {
        /// The value's name in the schema.
        name: Option<&'a str>,
        /// The encoded value.
        raw: &'a dyn Field,
    },
    /// A set's value.
    Set(Bits<'a>),
    /// A block: a composite, a group entry or a message.
    Object(&'a dyn Visit),
    /// A sequence: an array's elements or a group's entries.
    List(&'a dyn List),
}

/// A sequence of values: a fixed array or a group's entries.
pub trait List {
    /// Calls `f` with each element, in order.
    fn each(&self, f: &mut dyn FnMut(&dyn Field));
}

/// Character data in ISO-8859-1 or UTF-8: JSON as a string, `Debug` as a
/// quoted string (invalid UTF-8 bytes as `\xNN`).
///
/// ```
/// use sbe_rt::visit::Text;
///
/// let t = Text::latin1(b"caf\xe9\0\0").until_nul();
/// assert_eq!(t.bytes(), b"caf\xe9");
/// assert_eq!(format!("{t:?}"), r#""caf\xe9""#);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Text<'a> {
    bytes: &'a [u8],
    utf8: bool,
}

impl<'a> Text<'a> {
    /// ISO-8859-1 text (the default character encoding of SBE).
    #[inline]
    #[must_use]
    pub const fn latin1(bytes: &'a [u8]) -> Self {
        Text { bytes, utf8: false }
    }

    /// UTF-8 text; invalid sequences are U+FFFD in JSON, `\xNN` in
    /// `Debug`.
    #[inline]
    #[must_use]
    pub const fn utf8(bytes: &'a [u8]) -> Self {
        Text { bytes, utf8: true }
    }

    /// The text before its first NUL: how a char array is read.
    #[inline]
    #[must_use]
    pub fn until_nul(self) -> Self {
        Text {
            bytes: trim_nul(self.bytes),
            ..self
        }
    }

    /// The text's bytes.
    #[inline]
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether the text is UTF-8 (else ISO-8859-1).
    #[inline]
    #[must_use]
    pub const fn is_utf8(&self) -> bool {
        self.utf8
    }
}

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&codec::Text(self.bytes), f)
    }
}

impl Field for Text<'_> {
    fn value(&self) -> Value<'_> {
        Value::Text(*self)
    }
}

/// A single char: text of one byte, or none when it is NUL.
///
/// ```
/// use sbe_rt::visit::{Char, Field, Value};
///
/// assert_eq!(format!("{:?}", Char::latin1(b'A')), r#""A""#);
/// assert!(matches!(Char::latin1(0).value(), Value::Text(t) if t.bytes().is_empty()));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Char {
    byte: [u8; 1],
    utf8: bool,
}

impl Char {
    /// An ISO-8859-1 char.
    #[inline]
    #[must_use]
    pub const fn latin1(byte: u8) -> Self {
        Char {
            byte: [byte],
            utf8: false,
        }
    }

    /// A UTF-8 char (one byte: ASCII; any other is U+FFFD in JSON,
    /// `\xNN` in `Debug`).
    #[inline]
    #[must_use]
    pub const fn utf8(byte: u8) -> Self {
        Char {
            byte: [byte],
            utf8: true,
        }
    }

    fn text(&self) -> Text<'_> {
        Text {
            bytes: &self.byte,
            utf8: self.utf8,
        }
        .until_nul()
    }
}

impl fmt::Debug for Char {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text(), f)
    }
}

impl Field for Char {
    fn value(&self) -> Value<'_> {
        Value::Text(self.text())
    }
}

/// The value of a set: the names of the choices set, in schema order,
/// then the positions of the bits set that no choice names.
///
/// ```
/// use sbe_rt::visit::Bits;
///
/// let extras = Bits::new(0b1000_0101, 8, &[("sunRoof", 0), ("sportsPack", 1), ("cruiseControl", 2)]);
/// assert_eq!(format!("{extras:?}"), r#"["sunRoof", "cruiseControl", 7]"#);
/// ```
#[derive(Clone, Copy)]
pub struct Bits<'a> {
    raw: u64,
    width: u32,
    choices: &'a [(&'a str, u8)],
}

/// One element of a [`Bits`]: a choice's name or an unnamed bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bit<'a> {
    /// A choice that is set.
    Choice(&'a str),
    /// A bit that is set and that no choice names.
    Unknown(u32),
}

impl<'a> Bits<'a> {
    /// The set whose raw value is `raw`, encoded in `width` bits, whose
    /// choices are `(name, bit)` in schema order.
    #[inline]
    #[must_use]
    pub const fn new(raw: u64, width: u32, choices: &'a [(&'a str, u8)]) -> Self {
        Bits {
            raw,
            width,
            choices,
        }
    }

    /// Calls `f` with each choice set, in schema order, then each bit set
    /// that no choice names, lowest first.
    pub fn for_each(&self, f: impl FnMut(Bit<'a>)) {
        let choices = self
            .choices
            .iter()
            .map(|&(name, bit)| (name, u32::from(bit)));
        for_each_bit(self.raw, self.width, choices, f);
    }
}

/// The rule [`Bits`] shows a set by, for choices that are not in a
/// `'static` table (a schema read at run time, as `sbe decode` does):
/// calls `f` with each choice of `choices` (`(name, bit)`, in schema
/// order) whose bit is set in `raw`, then each bit of the `width` that is
/// set and that no choice names, lowest first.
///
/// ```
/// use sbe_rt::visit::{for_each_bit, Bit};
///
/// let mut shown = Vec::new();
/// for_each_bit(0b1001, 8, [("a", 0), ("b", 1)], |b| shown.push(b));
/// assert_eq!(shown, [Bit::Choice("a"), Bit::Unknown(3)]);
/// ```
pub fn for_each_bit<'a>(
    raw: u64,
    width: u32,
    choices: impl IntoIterator<Item = (&'a str, u32)>,
    mut f: impl FnMut(Bit<'a>),
) {
    let mut named = 0u64;
    for (name, bit) in choices {
        let mask = 1u64.checked_shl(bit).unwrap_or(0);
        named |= mask;
        if raw & mask != 0 {
            f(Bit::Choice(name));
        }
    }
    // The set bits no choice names, lowest first: one step a bit set,
    // not one a bit of the width.
    let width_mask = 1u64.checked_shl(width).map_or(u64::MAX, |m| m - 1);
    let mut unknown = raw & !named & width_mask;
    while unknown != 0 {
        f(Bit::Unknown(unknown.trailing_zeros()));
        unknown &= unknown - 1;
    }
}

impl fmt::Debug for Bits<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        self.for_each(|bit| match bit {
            Bit::Choice(name) => {
                list.entry(&name);
            }
            Bit::Unknown(bit) => {
                list.entry(&bit);
            }
        });
        list.finish()
    }
}

/// Formats `block` as a struct named `name` with its fields, the way a
/// derived `Debug` does: what generated decoders' `Debug` calls.
///
/// ```
/// use core::fmt;
/// use sbe_rt::visit::{debug_struct, Visit, Visitor};
///
/// struct Tick(u32, [u8; 2]);
/// impl Visit for Tick {
///     fn visit(&self, v: &mut dyn Visitor) {
///         v.field("px", &self.0);
///         v.field("flags", &self.1);
///     }
/// }
/// impl fmt::Debug for Tick {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { debug_struct(f, "Tick", self) }
/// }
/// assert_eq!(format!("{:?}", Tick(7, [1, 2])), "Tick { px: 7, flags: [1, 2] }");
/// ```
pub fn debug_struct(f: &mut fmt::Formatter<'_>, name: &str, block: &dyn Visit) -> fmt::Result {
    struct Fields<'a, 'b>(fmt::DebugStruct<'a, 'b>);
    impl Visitor for Fields<'_, '_> {
        fn field(&mut self, name: &str, value: &dyn Field) {
            self.0.field(name, &AsDebug(value));
        }
    }
    let mut fields = Fields(f.debug_struct(name));
    block.visit(&mut fields);
    fields.0.finish()
}

/// A `Field` seen as its `Debug` (no trait upcasting before Rust 1.86).
struct AsDebug<'a>(&'a dyn Field);

impl fmt::Debug for AsDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Formats a set as the list [`Bits`] shows, and any other field as its
/// value: what a generated set's `Debug` calls.
///
/// ```
/// use core::fmt;
/// use sbe_rt::visit::{debug_value, Bits, Field, Value};
///
/// struct Flags(u8);
/// impl Field for Flags {
///     fn value(&self) -> Value<'_> { Value::Set(Bits::new(self.0.into(), 8, &[("a", 0)])) }
/// }
/// impl fmt::Debug for Flags {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { debug_value(self, f) }
/// }
/// assert_eq!(format!("{:?}", Flags(3)), r#"["a", 1]"#);
/// ```
pub fn debug_value(field: &dyn Field, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    fmt::Debug::fmt(&field.value(), f)
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("None"),
            Value::U64(v) => fmt::Debug::fmt(v, f),
            Value::I64(v) => fmt::Debug::fmt(v, f),
            Value::F32(v) => fmt::Debug::fmt(v, f),
            Value::F64(v) => fmt::Debug::fmt(v, f),
            Value::Str(v) => fmt::Debug::fmt(v, f),
            Value::Text(v) => fmt::Debug::fmt(v, f),
            Value::Bytes(v) => fmt::Debug::fmt(v, f),
            Value::Enum { name: Some(n), .. } => f.write_str(n),
            Value::Enum { name: None, raw } => {
                f.debug_tuple("Unknown").field(&AsDebug(*raw)).finish()
            }
            Value::Set(v) => fmt::Debug::fmt(v, f),
            Value::Object(v) => debug_struct(f, "", *v),
            Value::List(v) => {
                let mut list = f.debug_list();
                v.each(&mut |e| {
                    list.entry(&AsDebug(e));
                });
                list.finish()
            }
        }
    }
}

macro_rules! numbers {
    ($($t:ty => $kind:ident),* $(,)?) => {$(
        impl Field for $t {
            #[inline]
            fn value(&self) -> Value<'_> {
                Value::$kind((*self).into())
            }
        }
    )*};
}

numbers!(
    u8 => U64, u16 => U64, u32 => U64, u64 => U64,
    i8 => I64, i16 => I64, i32 => I64, i64 => I64,
    f32 => F32, f64 => F64,
);

impl Field for &str {
    fn value(&self) -> Value<'_> {
        Value::Str(self)
    }
}

/// Binary data (var data without a character encoding): JSON as hex.
impl Field for &[u8] {
    fn value(&self) -> Value<'_> {
        Value::Bytes(self)
    }
}

impl<T: Field> Field for Option<T> {
    fn value(&self) -> Value<'_> {
        match self {
            Some(v) => v.value(),
            None => Value::Null,
        }
    }
}

impl<T: Field, const N: usize> List for [T; N] {
    fn each(&self, f: &mut dyn FnMut(&dyn Field)) {
        for e in self {
            f(e);
        }
    }
}

impl<T: Field, const N: usize> Field for [T; N] {
    fn value(&self) -> Value<'_> {
        Value::List(self)
    }
}

/// A block is a field of the block holding it.
impl<T: Visit + fmt::Debug> Field for T {
    fn value(&self) -> Value<'_> {
        Value::Object(self)
    }
}

/// The `Debug` impl of a generated type: a decoder's (`decoder $ty`, a
/// struct of its fields, [`debug_struct`]) or a set's (its value,
/// [`debug_value`]; an enum's comes with `enum_api!`). Generated code
/// names the type; the impl is the same for every one.
///
/// ```
/// use sbe_rt::visit::{Field, Value};
/// #[derive(Clone, Copy)]
/// pub struct Flags(pub u8);
/// impl Field for Flags {
///     fn value(&self) -> Value<'_> {
///         self.0.value()
///     }
/// }
/// sbe_rt::debug_impl!(Flags);
/// assert_eq!(format!("{:?}", Flags(3)), "3");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! debug_impl {
    (decoder $ty:ident) => {
        impl ::core::fmt::Debug for $ty<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::visit::debug_struct(f, ::core::stringify!($ty), self)
            }
        }
    };
    ($ty:ident) => {
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::visit::debug_value(self, f)
            }
        }
    };
}

/// The `visit` calls of a run of a decoder's fields (or members, or
/// groups) whose value is their accessor's: `"Price" price` visits
/// `self.price()` as field `Price`, `"Symbol" symbol as latin1` (or
/// `as utf8`) a char array's bytes as text up to the first NUL. Generated
/// code calls it in its `visit` with the receiver and the visitor; the
/// fields a run cannot hold are written out between runs, in schema
/// order. A call written out was a dozen tokens for the generator to
/// parse and print, an entry here is two or three.
///
/// ```
/// use sbe_rt::visit::{Visit, Visitor};
/// pub struct Decoder;
/// impl Decoder {
///     fn a(&self) -> u8 {
///         1
///     }
///     fn b(&self) -> &[u8] {
///         b"x\0"
///     }
/// }
/// impl Visit for Decoder {
///     fn visit(&self, v: &mut dyn Visitor) {
///         sbe_rt::visit_fields!(self, v; "A" a, "B" b as latin1);
///     }
/// }
/// impl core::fmt::Debug for Decoder {
///     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
///         sbe_rt::visit::debug_struct(f, "Decoder", self)
///     }
/// }
/// assert_eq!(format!("{Decoder:?}"), "Decoder { A: 1, B: \"x\" }");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! visit_fields {
    ($s:tt, $v:ident; $($key:literal $name:ident $(as $text:ident)?),* $(,)?) => {
        $($v.field($key, &$crate::visit_fields!(@value $s $name $($text)?));)*
    };
    (@value $s:tt $name:ident) => {
        $s.$name()
    };
    (@value $s:tt $name:ident latin1) => {
        $crate::visit::Text::latin1($s.$name()).until_nul()
    };
    (@value $s:tt $name:ident utf8) => {
        $crate::visit::Text::utf8($s.$name()).until_nul()
    };
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::format;
    use std::vec::Vec;

    #[test]
    fn bits_name_choices_in_schema_order_then_unknown_bits() {
        let choices = [("b", 1), ("a", 0), ("high", 63)];
        let mut seen = Vec::new();
        Bits::new(u64::MAX, 64, &choices).for_each(|b| seen.push(b));
        assert_eq!(
            &seen[..3],
            [Bit::Choice("b"), Bit::Choice("a"), Bit::Choice("high")]
        );
        assert_eq!(seen[3], Bit::Unknown(2));
        assert_eq!(seen.len(), 64);
        // A bit beyond the encoding's width is not shown.
        assert_eq!(format!("{:?}", Bits::new(0x100, 8, &choices)), "[]");
    }

    #[test]
    fn values_of_plain_fields() {
        assert!(matches!(7u8.value(), Value::U64(7)));
        assert!(matches!((-7i16).value(), Value::I64(-7)));
        assert!(matches!(None::<u32>.value(), Value::Null));
        assert!(matches!(Some(1.5f32).value(), Value::F32(v) if v == 1.5));
        assert!(matches!((&b"\x01"[..]).value(), Value::Bytes(b"\x01")));
        assert_eq!(
            format!(
                "{:?}",
                Value::Enum {
                    name: None,
                    raw: &9u8
                }
            ),
            "Unknown(9)"
        );
        assert_eq!(format!("{:?}", [1u16, 2].value()), "[1, 2]");
        assert_eq!(format!("{:?}", Text::utf8(b"a\0b").until_nul()), r#""a""#);
    }
}
