//! FORMAT.md's JSON mapping as serde sees it, for the owned messages of
//! code generated with `Config::serde(true)`: the generated `Serialize`
//! and `Deserialize` impls hold the names and call these for the values.
//!
//! * [`Json`]: numbers, floats (NaN is `null`), optional values (`null`),
//!   arrays and text, and a field decimal's exact decimal string;
//! * [`Char`], [`OptChar`], [`Hex`]: a single char (a string of one
//!   character, `""` for NUL) and opaque var data (lowercase hex), whose
//!   Rust types (`u8`, `Vec<u8>`) say nothing of how they read;
//! * enums ([`enum_ser`], [`enum_de`]: the value's name, or its raw
//!   value) and sets ([`set_ser`], [`set_de`]: the names of the choices
//!   set, then unknown bits as numbers);
//! * objects: [`FromMap`] (a generated struct's fields by key, each read
//!   with a seed that names the field in its errors: [`json`], [`plain`],
//!   [`nested`], [`one_char`], [`hex`]) and [`required`];
//! * the message enum: [`message_ser`], [`message_de`] and
//!   [`MessageBody`] (`{"message": name, "body": {...}}`).
//!
//! Every error is serde's (`D::Error`), naming the field where the value
//! is one; nothing here panics.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde::Deserialize;

/// A value as FORMAT.md writes it.
pub trait Json: Sized {
    /// Writes the value.
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
    /// Reads the value.
    fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

macro_rules! json_as_serde {
    ($($t:ty),*) => {$(
        impl Json for $t {
            fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.serialize(s)
            }
            fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$t>::deserialize(d)
            }
        }
    )*};
}

json_as_serde!(u8, u16, u32, u64, i8, i16, i32, i64, String);

macro_rules! json_float {
    ($($t:ty),*) => {$(
        /// NaN is `null` (FORMAT.md rule 2), both ways.
        impl Json for $t {
            fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if self.is_nan() {
                    s.serialize_none()
                } else {
                    self.serialize(s)
                }
            }
            fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                Option::<$t>::deserialize(d).map(|v| v.unwrap_or(<$t>::NAN))
            }
        }
    )*};
}

json_float!(f32, f64);

/// `null` is `None`.
impl<T: Json> Json for Option<T> {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Some(v) => s.serialize_some(&AsJson(v)),
            None => s.serialize_none(),
        }
    }
    fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Json> Visitor<'de> for V<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                T::de(d).map(Some)
            }
        }
        d.deserialize_option(V(PhantomData))
    }
}

/// An array: its elements in order, exactly `N` of them.
impl<T: Json, const N: usize> Json for [T; N] {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(N))?;
        for v in self {
            seq.serialize_element(&AsJson(v))?;
        }
        seq.end()
    }
    fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T, const N: usize>(PhantomData<T>);
        impl<'de, T: Json, const N: usize> Visitor<'de> for V<T, N> {
            type Value = [T; N];
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of {N} elements")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(N);
                while let Some(v) = seq.next_element_seed(JsonSeed(PhantomData::<T>))? {
                    if out.len() == N {
                        return Err(de::Error::invalid_length(N + 1, &self));
                    }
                    out.push(v);
                }
                let n = out.len();
                out.try_into()
                    .map_err(|_| de::Error::invalid_length(n, &self))
            }
        }
        d.deserialize_seq(V::<T, N>(PhantomData))
    }
}

/// A field decimal (its exponent another field's, Binance's
/// `mbx:exponent`): its exact decimal string, both ways (`"65000.12"`, as
/// `sbe decode --values semantic` writes it and `sbe encode` reads it).
/// Not its wire mantissa: that is a count of a unit another field, maybe
/// of an enclosing block, gives, which an entry read on its own does not
/// know; the owned message's `encode` writes the value at that field's
/// exponent, exactly or `Err`. A JSON number is refused: an integer could
/// be the mantissa or the value, and a float is not exact.
impl Json for crate::Decimal {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
    fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = crate::Decimal;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a decimal as a string, such as \"65000.12\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                v.parse()
                    .map_err(|e| E::custom(format_args!("{v:?} is not a decimal: {e}")))
            }
        }
        d.deserialize_str(V)
    }
}

/// A [`Json`] value as `Serialize`.
pub struct AsJson<'a, T>(pub &'a T);

impl<T: Json> Serialize for AsJson<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.ser(s)
    }
}

/// Reads a [`Json`] value.
struct JsonSeed<T>(PhantomData<T>);

impl<'de, T: Json> DeserializeSeed<'de> for JsonSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::de(d)
    }
}

/// A single char: the string of its one character (ISO-8859-1, or UTF-8
/// where `.1`: ASCII, any other byte U+FFFD), `""` for NUL (FORMAT.md rule 4).
pub struct Char(pub u8, pub bool);

impl Serialize for Char {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Char(b, utf8) = *self;
        let c = match b {
            0 => return s.serialize_str(""),
            b if utf8 && !b.is_ascii() => char::REPLACEMENT_CHARACTER,
            b => char::from(b),
        };
        let mut buf = [0u8; 4];
        s.serialize_str(c.encode_utf8(&mut buf))
    }
}

/// An optional single char: `null`, or as [`Char`].
pub struct OptChar(pub Option<u8>, pub bool);

impl Serialize for OptChar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(b) => s.serialize_some(&Char(b, self.1)),
            None => s.serialize_none(),
        }
    }
}

/// A single char, required (`u8`) or optional (`Option<u8>`), as the
/// [`OptChar`] it is written as.
pub trait SerChar {
    /// The char of UTF-8 text where `utf8`, else of ISO-8859-1.
    fn ser(self, utf8: bool) -> OptChar;
}

impl SerChar for u8 {
    fn ser(self, utf8: bool) -> OptChar {
        OptChar(Some(self), utf8)
    }
}

impl SerChar for Option<u8> {
    fn ser(self, utf8: bool) -> OptChar {
        OptChar(self, utf8)
    }
}

/// The byte of a one-character string ([`Char`]).
fn char_byte<E: de::Error>(text: &str, utf8: bool) -> Result<u8, E> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Ok(0),
        (Some(c), None) => match u8::try_from(c) {
            Ok(b) if !utf8 || b.is_ascii() => Ok(b),
            _ => Err(E::invalid_value(
                de::Unexpected::Char(c),
                &"a character of one byte",
            )),
        },
        _ => Err(E::invalid_length(text.chars().count(), &"one character")),
    }
}

/// Reads a single char ([`Char`]); `Option` where optional.
struct CharSeed<T> {
    utf8: bool,
    _t: PhantomData<T>,
}

impl<'de> Visitor<'de> for CharSeed<u8> {
    type Value = u8;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string of one character")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<u8, E> {
        char_byte(v, self.utf8)
    }
}

impl<'de> DeserializeSeed<'de> for CharSeed<u8> {
    type Value = u8;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u8, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for CharSeed<Option<u8>> {
    type Value = Option<u8>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string of one character, or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(CharSeed::<u8> {
            utf8: self.utf8,
            _t: PhantomData,
        })
        .map(Some)
    }
}

impl<'de> DeserializeSeed<'de> for CharSeed<Option<u8>> {
    type Value = Option<u8>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u8>, D::Error> {
        d.deserialize_option(self)
    }
}

/// Opaque var data: its bytes as a lowercase hex string (FORMAT.md rule
/// 11; upper case is read too).
pub struct Hex<'a>(pub &'a [u8]);

impl Serialize for Hex<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let text: String = self
            .0
            .iter()
            .flat_map(|b| [b >> 4, b & 0xf])
            .map(|n| char::from(DIGITS.get(usize::from(n)).copied().unwrap_or(b'0')))
            .collect();
        s.serialize_str(&text)
    }
}

/// Reads [`Hex`].
struct HexSeed;

impl Visitor<'_> for HexSeed {
    type Value = Vec<u8>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a hex string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        let digit = |c: u8| {
            char::from(c)
                .to_digit(16)
                .and_then(|d| u8::try_from(d).ok())
                .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
        };
        if v.len() % 2 != 0 {
            return Err(E::invalid_length(v.len(), &"an even number of hex digits"));
        }
        v.as_bytes()
            .chunks_exact(2)
            .map(|pair| match pair {
                [hi, lo] => Ok(digit(*hi)? << 4 | digit(*lo)?),
                _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
            })
            .collect()
    }
}

impl<'de> DeserializeSeed<'de> for HexSeed {
    type Value = Vec<u8>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_str(self)
    }
}

/// An enum's value: its `name`, or where the schema names none its `raw`
/// value (FORMAT.md rule 6).
pub fn enum_ser<T: Serialize, S: Serializer>(
    name: Option<&str>,
    raw: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    match name {
        Some(name) => s.serialize_str(name),
        None => raw.serialize(s),
    }
}

/// Serde's `unknown variant` error for name `v`, listing the names of
/// `table` (an enum's values, a set's choices) as serde's
/// `unknown_variant` does: the generated tables pair each name with its
/// value, and `unknown_variant` takes the names alone.
fn unknown_name<E: de::Error, T>(v: &str, table: &[(&str, T)]) -> E {
    /// The names, as serde lists them.
    struct OneOf<'a, T>(&'a [(&'a str, T)]);
    impl<T> fmt::Display for OneOf<'_, T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self.0 {
                [] => f.write_str("there are no variants"),
                [(a, _)] => write!(f, "expected `{a}`"),
                [(a, _), (b, _)] => write!(f, "expected `{a}` or `{b}`"),
                [(first, _), rest @ ..] => {
                    write!(f, "expected one of `{first}`")?;
                    rest.iter().try_for_each(|(n, _)| write!(f, ", `{n}`"))
                }
            }
        }
    }
    E::custom(format_args!("unknown variant `{v}`, {}", OneOf(table)))
}

/// Reads the raw value of enum `enum_name` (whose values are `values`,
/// by name): a name of `values`, or a raw value as a number.
pub fn enum_de<'de, T, D>(
    d: D,
    enum_name: &'static str,
    values: &'static [(&'static str, T)],
) -> Result<T, D::Error>
where
    T: Copy + TryFrom<u64> + TryFrom<i64>,
    D: Deserializer<'de>,
{
    struct V<T: 'static> {
        enum_name: &'static str,
        values: &'static [(&'static str, T)],
    }
    impl<T: Copy + TryFrom<u64> + TryFrom<i64>> Visitor<'_> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a value of enum `{}`", self.enum_name)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            match self.values.iter().find(|(name, _)| *name == v) {
                Some((_, raw)) => Ok(*raw),
                None => Err(unknown_name(v, self.values)),
            }
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
            T::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
            T::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }
    }
    d.deserialize_any(V { enum_name, values })
}

/// A set's value, `raw` of `width` bits: the names of the `choices` (name,
/// bit) set, in schema order, then the bits set that name no choice, as
/// numbers (FORMAT.md rule 7; `sbe_rt::visit::Bits`, as `to_json`).
pub fn set_ser<S: Serializer>(
    raw: u64,
    width: u32,
    choices: &'static [(&'static str, u8)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(None)?;
    let mut result = Ok(());
    crate::visit::Bits::new(raw, width, choices).for_each(|bit| {
        if result.is_ok() {
            result = match bit {
                crate::visit::Bit::Choice(name) => seq.serialize_element(name),
                crate::visit::Bit::Unknown(bit) => seq.serialize_element(&bit),
            };
        }
    });
    result?;
    seq.end()
}

/// Reads the raw value of set `set_name` of `width` bits: an array of
/// names of its `choices` and of bit numbers.
pub fn set_de<'de, T, D>(
    d: D,
    set_name: &'static str,
    width: u32,
    choices: &'static [(&'static str, u8)],
) -> Result<T, D::Error>
where
    T: TryFrom<u64>,
    D: Deserializer<'de>,
{
    /// One element: a choice's name or a bit number.
    struct Bit {
        width: u32,
        choices: &'static [(&'static str, u8)],
    }
    impl Visitor<'_> for Bit {
        type Value = u32;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a choice's name or a bit below {}", self.width)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u32, E> {
            match self.choices.iter().find(|(name, _)| *name == v) {
                Some((_, bit)) => Ok(u32::from(*bit)),
                None => Err(unknown_name(v, self.choices)),
            }
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u32, E> {
            match u32::try_from(v) {
                Ok(bit) if bit < self.width => Ok(bit),
                _ => Err(E::invalid_value(de::Unexpected::Unsigned(v), &self)),
            }
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u32, E> {
            match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
            }
        }
    }
    impl<'de> DeserializeSeed<'de> for Bit {
        type Value = u32;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
            d.deserialize_any(self)
        }
    }
    struct V<T> {
        set_name: &'static str,
        width: u32,
        choices: &'static [(&'static str, u8)],
        _t: PhantomData<T>,
    }
    impl<'de, T: TryFrom<u64>> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "an array of choices of set `{}`", self.set_name)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
            let mut raw = 0u64;
            let (width, choices) = (self.width, self.choices);
            while let Some(bit) = seq.next_element_seed(Bit { width, choices })? {
                raw |= 1u64.checked_shl(bit).unwrap_or(0);
            }
            T::try_from(raw)
                .map_err(|_| de::Error::invalid_value(de::Unexpected::Unsigned(raw), &self))
        }
    }
    d.deserialize_seq(V {
        set_name,
        width,
        choices,
        _t: PhantomData,
    })
}

/// A generated struct read from a map of its fields by their schema names.
pub trait FromMap: Sized {
    /// What the struct is, for errors (`message \`Car\``).
    const EXPECTING: &'static str;
    /// The schema names of its fields, in schema order (constants too:
    /// they are read and dropped).
    const KEYS: &'static [&'static str];
    /// Reads the fields: the value of each key `KEYS[i]` with `Keys`.
    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// `Deserialize` of a [`FromMap`] struct.
pub fn from_map<'de, T: FromMap, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    struct V<T>(PhantomData<T>);
    impl<'de, T: FromMap> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::from_map(map)
        }
    }
    d.deserialize_struct(T::EXPECTING, T::KEYS, V(PhantomData))
}

/// `Serialize` of a schema's `OwnedMessage`: `{"message": name, "body":
/// body}`, the generated `to_json` without its header (an owned message
/// holds none: its encoder writes it).
pub fn message_ser<S: Serializer, B: Serialize + ?Sized>(
    s: S,
    name: &'static str,
    body: &B,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut st = s.serialize_struct("OwnedMessage", 2)?;
    st.serialize_field("message", name)?;
    st.serialize_field("body", body)?;
    st.end()
}

/// A schema's generated `OwnedMessage`, as [`message_de`] reads it.
pub trait MessageBody: Sized {
    /// The messages' schema names, by variant.
    const NAMES: &'static [&'static str];
    /// Reads the body of message `NAMES[index]` as the map's next value.
    fn body<'de, A: MapAccess<'de>>(index: usize, map: &mut A) -> Result<Self, A::Error>;
}

/// Reads a message's name as its index in the names given; a name not
/// among them is serde's `unknown_variant`.
struct MessageName(&'static [&'static str]);

impl Visitor<'_> for MessageName {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message name of the schema")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|n| *n == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }
}

impl<'de> DeserializeSeed<'de> for MessageName {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

/// `Deserialize` of a schema's `OwnedMessage` from `{"message": name,
/// "body": {...}}`, what [`message_ser`] writes; other keys (`sbe
/// decode`'s `schema` and `header`) are skipped, so a line of `sbe decode`
/// reads as it is. `message` must come before `body`, as both write it:
/// the body's type is the message's.
pub fn message_de<'de, T: MessageBody, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    struct V<T>(PhantomData<T>);
    impl<'de, T: MessageBody> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a message: {\"message\": name, \"body\": {...}}")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
            const KEYS: &[&str] = &["message", "body"];
            let mut index = None;
            let mut message = None;
            while let Some(k) = map.next_key_seed(EnvelopeKeys(KEYS))? {
                match (k, index) {
                    (0, _) => index = Some(map.next_value_seed(MessageName(T::NAMES))?),
                    (1, Some(i)) => message = Some(T::body(i, &mut map)?),
                    (1, None) => {
                        return Err(de::Error::custom("`message` must come before `body`"))
                    }
                    _ => skip(&mut map)?,
                }
            }
            required(message, "body")
        }
    }
    d.deserialize_struct("OwnedMessage", &["message", "body"], V(PhantomData))
}

/// Reads a key as its index in the keys given; a key not among them is
/// serde's `unknown_field` error, naming it and listing the keys, as
/// `sbe encode` refuses a field the schema does not have (a misspelt
/// field would otherwise be dropped silently).
pub struct Keys(pub &'static [&'static str]);

impl Visitor<'_> for Keys {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|k| *k == v)
            .ok_or_else(|| E::unknown_field(v, self.0))
    }
}

impl<'de> DeserializeSeed<'de> for Keys {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

/// [`Keys`] for a message's envelope, where other keys (`sbe decode`'s
/// `schema` and `header`) are skipped: `usize::MAX` for a key not among
/// the keys given.
struct EnvelopeKeys(&'static [&'static str]);

impl Visitor<'_> for EnvelopeKeys {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key of a message")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        Ok(self.0.iter().position(|k| *k == v).unwrap_or(usize::MAX))
    }
}

impl<'de> DeserializeSeed<'de> for EnvelopeKeys {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

/// Skips the value of a key the envelope does not know; the generated
/// `FromMap`s call it where [`Keys`] cannot give an unknown key (it
/// refuses one), so that their `match` on the key's index is complete.
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<de::IgnoredAny>().map(|_| ())
}

/// The value of field `name`, `Err(missing_field)` where it was not given.
pub fn required<T, E: de::Error>(v: Option<T>, name: &'static str) -> Result<T, E> {
    v.ok_or_else(|| E::missing_field(name))
}

/// `e`, said to be of field `name`.
fn of_field<E: de::Error>(name: &str, e: E) -> E {
    E::custom(format_args!("field `{name}`: {e}"))
}

/// Reads field `name`'s value, naming the field in an error.
pub struct Field<T, K> {
    name: &'static str,
    kind: K,
    _t: PhantomData<T>,
}

/// How a [`Field`] reads its value: as [`Json`].
pub struct AsJsonKind;
/// As its own `Deserialize` (an enum or a set).
pub struct Plain;
/// As its own `Deserialize`, whose fields name themselves (a composite, a
/// group): not named again.
pub struct Nested;
/// As a [`Char`] (`.0`: UTF-8).
pub struct CharKind(bool);
/// As [`Hex`].
pub struct HexKind;

/// Reads field `name` as [`Json`].
pub fn json<T>(name: &'static str) -> Field<T, AsJsonKind> {
    Field {
        name,
        kind: AsJsonKind,
        _t: PhantomData,
    }
}

/// Reads field `name` with its `Deserialize` (an enum, a set).
pub fn plain<T>(name: &'static str) -> Field<T, Plain> {
    Field {
        name,
        kind: Plain,
        _t: PhantomData,
    }
}

/// Reads field `name` with its `Deserialize` (a composite, a group's
/// entries), which names its own fields in errors.
pub fn nested<T>(name: &'static str) -> Field<T, Nested> {
    Field {
        name,
        kind: Nested,
        _t: PhantomData,
    }
}

/// Reads field `name` as a single char ([`Char`]; `u8`, or `Option<u8>`
/// where optional).
pub fn one_char<T>(name: &'static str, utf8: bool) -> Field<T, CharKind> {
    Field {
        name,
        kind: CharKind(utf8),
        _t: PhantomData,
    }
}

/// Reads field `name` as [`Hex`].
pub fn hex(name: &'static str) -> Field<Vec<u8>, HexKind> {
    Field {
        name,
        kind: HexKind,
        _t: PhantomData,
    }
}

impl<'de, T: Json> DeserializeSeed<'de> for Field<T, AsJsonKind> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::de(d).map_err(|e| of_field(self.name, e))
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Field<T, Plain> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d).map_err(|e| of_field(self.name, e))
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Field<T, Nested> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        let _ = self.name;
        T::deserialize(d)
    }
}

impl<'de> DeserializeSeed<'de> for Field<u8, CharKind> {
    type Value = u8;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u8, D::Error> {
        CharSeed::<u8> {
            utf8: self.kind.0,
            _t: PhantomData,
        }
        .deserialize(d)
        .map_err(|e| of_field(self.name, e))
    }
}

impl<'de> DeserializeSeed<'de> for Field<Option<u8>, CharKind> {
    type Value = Option<u8>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u8>, D::Error> {
        CharSeed::<Option<u8>> {
            utf8: self.kind.0,
            _t: PhantomData,
        }
        .deserialize(d)
        .map_err(|e| of_field(self.name, e))
    }
}

impl<'de> DeserializeSeed<'de> for Field<Vec<u8>, HexKind> {
    type Value = Vec<u8>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u8>, D::Error> {
        HexSeed.deserialize(d).map_err(|e| of_field(self.name, e))
    }
}

/// An owned composite struct whose values an owned message holds as one
/// typed value ([`Decimal`](crate::Decimal), [`Timestamp`](crate::Timestamp),
/// [`MonthYear`](crate::MonthYear)): the generated impl converts through
/// the composite's own encoder and decoder (its typed `value(v)` and
/// `value()`), so serde writes the value in its wire form, the composite's
/// JSON.
pub trait Typed: Sized {
    /// The typed value (an `Option` of it where the composite may be null).
    type Value: Copy;
    /// The composite holding `v`; `Err` where `v` does not fit it.
    fn from_value(v: Self::Value) -> crate::Result<Self>;
    /// The typed value the composite holds.
    fn value(&self) -> crate::Result<Self::Value>;
}

/// Writes a typed value as its composite `C`.
pub struct AsComposite<'a, C: Typed>(pub &'a C::Value);

impl<C: Typed + Serialize> Serialize for AsComposite<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match C::from_value(*self.0) {
            Ok(c) => c.serialize(s),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

/// How a [`Field`] reads its value: as composite `C`, then its typed value.
pub struct CompositeKind<C>(PhantomData<C>);

/// Reads field `name` as composite `C` (which names its own fields in
/// errors) and gives its typed value.
pub fn composite_value<C: Typed>(name: &'static str) -> Field<C::Value, CompositeKind<C>> {
    Field {
        name,
        kind: CompositeKind(PhantomData),
        _t: PhantomData,
    }
}

impl<'de, C: Typed + Deserialize<'de>> DeserializeSeed<'de> for Field<C::Value, CompositeKind<C>> {
    type Value = C::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<C::Value, D::Error> {
        let c = C::deserialize(d)?;
        c.value()
            .map_err(|e| of_field(self.name, de::Error::custom(e)))
    }
}

/// Writes a typed value held for an integer field (a timestamp, a date)
/// as that integer, `W` ([`WireInt`](super::owned::WireInt)).
pub struct AsWire<'a, W, T>(pub &'a T, pub crate::TimeUnit, pub PhantomData<W>);

impl<W: Json, T: super::owned::WireInt<W>> Serialize for AsWire<'_, W, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.to_wire(self.1) {
            Ok(w) => w.ser(s),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

/// How a [`Field`] reads its value: as the integer `W`, then its typed value.
pub struct WireKind<W>(crate::TimeUnit, PhantomData<W>);

/// Reads field `name` as integer `W` and gives its typed value `T`.
pub fn wire_value<W, T>(name: &'static str, unit: crate::TimeUnit) -> Field<T, WireKind<W>> {
    Field {
        name,
        kind: WireKind(unit, PhantomData),
        _t: PhantomData,
    }
}

impl<'de, W: Json, T: super::owned::WireInt<W>> DeserializeSeed<'de> for Field<T, WireKind<W>> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        let w = W::de(d).map_err(|e| of_field(self.name, e))?;
        T::from_wire(w, self.kind.0).map_err(|e| of_field(self.name, de::Error::custom(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn floats_are_null_when_nan_both_ways() {
        let json = serde_json::to_string(&AsJson(&[1.5f32, f32::NAN])).unwrap_or_default();
        assert_eq!(json, "[1.5,null]");
        let mut de = serde_json::Deserializer::from_str("[2.0,null]");
        let back = <[f64; 2]>::de(&mut de).unwrap_or([0.0; 2]);
        assert_eq!(back[0], 2.0);
        assert!(back[1].is_nan());
    }

    #[test]
    fn field_decimals_are_exact_strings_both_ways() {
        let d = crate::Decimal::new(-123_456_789_012_345_678_901_234, -8);
        let json = serde_json::to_string(&AsJson(&Some(d))).unwrap_or_default();
        assert_eq!(json, "\"-1234567890123456.78901234\"");
        let mut de = serde_json::Deserializer::from_str(&json);
        assert_eq!(<Option<crate::Decimal>>::de(&mut de).ok(), Some(Some(d)));
        for refused in ["6500012", "1.5", "\"1.5.0\""] {
            let mut de = serde_json::Deserializer::from_str(refused);
            assert!(crate::Decimal::de(&mut de).is_err(), "{refused}");
        }
    }

    #[test]
    fn arrays_must_have_their_length() {
        let mut de = serde_json::Deserializer::from_str("[1,2,3]");
        assert!(<[u8; 2]>::de(&mut de).is_err());
        let mut de = serde_json::Deserializer::from_str("[1]");
        assert!(<[u8; 2]>::de(&mut de).is_err());
    }

    #[test]
    fn chars_and_hex_read_back() {
        let json = serde_json::to_string(&(Char(b'A', true), Char(0, true), Char(0xe9, false)))
            .unwrap_or_default();
        assert_eq!(json, r#"["A","","é"]"#);
        let mut de = serde_json::Deserializer::from_str(r#""é""#);
        assert_eq!(
            one_char::<u8>("c", false).deserialize(&mut de).ok(),
            Some(0xe9)
        );
        let mut de = serde_json::Deserializer::from_str(r#""é""#);
        let e = one_char::<u8>("c", true).deserialize(&mut de).err();
        assert!(e.is_some_and(|e| e.to_string().contains("field `c`")));
        assert_eq!(
            serde_json::to_string(&Hex(&[0xbe, 0xef, 0x01])).unwrap_or_default(),
            r#""beef01""#
        );
        let mut de = serde_json::Deserializer::from_str(r#""BEef01""#);
        assert_eq!(
            hex("h").deserialize(&mut de).ok(),
            Some(vec![0xbe, 0xef, 1])
        );
        let mut de = serde_json::Deserializer::from_str(r#""bee""#);
        assert!(hex("h").deserialize(&mut de).is_err());
    }
}
