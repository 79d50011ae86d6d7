//! Code generation: IR → `quote!` tokens → `syn` syntax tree → text
//! (`prettyplease`) → one Rust file per schema.
//!
//! `syn` is the major version the common proc-macro crates use (serde's,
//! clap's and thiserror's derives), with only the features prettyplease
//! needs, so that a consumer building those compiles it once. Parsing the
//! tokens is most of the generation time: [`generate`] makes the file in
//! chunks, one per available thread.
//!
//! The generated file has, at its top level, `decode`, `Message` and
//! `Message::to_json` (the contract of DESIGN.md), one Rust type per enum,
//! set and composite the messages use, and per message a decoder, an
//! encoder and, per group, an iterator, an entry decoder and an encoder.
//! Every offset comes from the IR; nothing is recomputed here. What is
//! the same for every type or message is a macro of `sbe_rt`'s, named
//! with the type (`set_api!`, `enum_api!`, `debug_impl!`,
//! `decoder_api!`, `encoder_api!`, `owned_passes!`, `owned_to_owned!`),
//! as are a field's or member's accessor and setter in their usual
//! shapes (`getter!`, `setter!`, given the name, type, offset and docs)
//! and the runs of a decoder's `visit` calls (`visit_fields!`),
//! and bodies name `sbe_rt::__private` through the file's alias `__sbe`:
//! fewer tokens to parse and print here, and to compile in the schema's
//! crate.
//!
//! The generator is split by what it generates: `dispatch` (the schema
//! constants, the header read, `decode`, `message_length`, `Message`),
//! `types` (enums, sets, composites), `blocks` (what a root block or group
//! entry is made of, and the order every message's types come in),
//! `decoder` (root and entry decoders), `sections` (how a decoder finds its
//! groups and var data), `groups` (group iterators), `encoders` (message
//! and group encoders), `accessors`, `setters` and `json_debug` (the
//! methods reading, writing and showing one item, shared by blocks and
//! composites; `json_debug` is each block's `sbe_rt::visit::Visit`),
//! `values` (the shape of one value and its literals), `names` (Rust names
//! for schema names), `owned` and `owned_serde` (the owned messages and
//! their serde), `printing` (chunks, threads, `syn` and `prettyplease`).
//!
//! # The generated API, for the car example
//!
//! ```ignore
//! mod car { sbe_rt::include_schema!("baseline"); }
//!
//! // Encode: header and root block at wrap, fields in any order, then groups
//! // and var data in schema order, each call consuming the encoder and
//! // returning the next stage's (`CarEncoderAtPerformanceFigures`, ...): a
//! // section skipped is written empty; going back does not compile.
//! let mut buf = [0u8; 256];
//! let mut e = car::CarEncoder::wrap(&mut buf)?;
//! e.serial_number(1234).model_year(2013).code(car::Model::A);
//! e.vehicle_code("abcdef")?;
//! e.engine().capacity(2000).num_cylinders(4);
//! let mut ff = e.fuel_figures(1)?; // the group's encoder
//! let mut entry = ff.next_entry()?; // an entry's first stage
//! entry.speed(30).mpg(35.9);
//! entry.usage_description("Urban Cycle")?;
//! let e = ff.end()?; // the count written; CarEncoderAtPerformanceFigures
//! let len = e.manufacturer("Honda")?.finish()?;
//!
//! // Decode: everything is checked once, in `decode`; field reads after
//! // that return values, not `Result`s.
//! let car::Message::Car(d) = car::decode(&buf[..len])?;
//! assert_eq!(d.serial_number(), 1234);
//! assert_eq!(d.vehicle_code_str()?, "abcdef");
//! for f in d.fuel_figures() {
//!     println!("{} {}", f.speed(), f.usage_description_str()?);
//! }
//! println!("{}", car::decode(&buf[..len])?.to_json());
//! ```
//!
//! Shapes: optional fields read as `Option`; enums are open `Copy`
//! newtypes over the wire value with one constant per valid value
//! (`match` on `Model::A`, with a `_` arm: any value is kept, as a newer
//! schema version may add some); sets are `Copy` newtypes with one
//! accessor (and `with_*` builder) per choice, and one mask per choice of
//! the set's own type (`OptionalExtras::SUN_ROOF | OptionalExtras::SPORTS_PACK`,
//! `extras.contains(...)`); composites are views
//! (`EngineDecoder<'a>`) and writers (`EngineEncoder<'_>`); char arrays
//! give raw bytes and a `*_str()` view; fields, groups and var data newer
//! than the message's acting version read as `None`.
//!
//! # Owned messages (`Options::owned`)
//!
//! ```ignore
//! // `Car`, `CarFuelFigures`, `Engine`: the stems of the decoders.
//! let owned: car::Car = d.to_owned()?;              // CarDecoder::to_owned
//! let all: car::OwnedMessage = car::decode(buf)?.to_owned()?; // or OwnedMessage::decode(buf)
//! assert_eq!(owned.fuel_figures[0].speed, 30);
//! let mut out = vec![0u8; owned.encoded_length()];
//! let len = owned.encode(&mut out)?;              // through CarEncoder
//! // With `Options::serde`: FORMAT.md's JSON, the body of `to_json`.
//! let json = serde_json::to_string(&owned)?;
//! ```
//!
//! `owned` generates them (their shapes are in its docs), `owned_serde`
//! their serde impls.

mod accessors;
pub mod api;
mod blocks;
mod decoder;
mod dispatch;
mod encoders;
mod groups;
mod json_debug;
pub mod names;
mod owned;
mod owned_serde;
mod printing;
mod sections;
mod setters;
mod typed;
mod types;
mod values;

pub use printing::{generate, generate_tokens};

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::ir::{ByteOrder, Field, Group, Schema, Type, TypeKind};
use names::Scope;

/// What to generate, beyond the decoders and encoders.
#[derive(Debug, Clone)]
pub struct Options {
    /// Generate `to_json` / `write_json` (needs `sbe-rt`'s `alloc` feature).
    pub json: bool,
    /// Generate `Debug` impls for decoders.
    pub debug: bool,
    /// Generate the owned messages (`Car`, `OwnedMessage`, `to_owned`;
    /// needs `sbe-rt`'s `alloc` feature).
    pub owned: bool,
    /// Implement `serde`'s `Serialize` and `Deserialize` for the owned
    /// messages and the enums and sets (needs `sbe-rt`'s `serde`
    /// feature); only with `owned`.
    pub serde: bool,
    /// Extra attributes for generated enums and sets: (schema type name or
    /// `.` for all, attribute text such as `#[derive(serde::Serialize)]`).
    pub type_attributes: Vec<(String, String)>,
    /// The unit of an integer timestamp whose schema states none
    /// ([`crate::ir::TimeUnitSource::Unstated`]).
    pub timestamp_unit: sbe_rt::TimeUnit,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            json: true,
            debug: true,
            owned: true,
            serde: false,
            type_attributes: Vec::new(),
            timestamp_unit: sbe_rt::TimeUnit::Nanos,
        }
    }
}

/// A Rust type generated for an enum, set or composite of the schema.
pub(crate) struct TypeEntry<'s> {
    /// Registry key: the schema name of the type.
    key: String,
    /// The type.
    ty: &'s Type,
    /// Rust name (for composites, the base of `XDecoder` / `XEncoder`).
    ident: Ident,
}

/// Everything code generation needs to know about the schema.
pub(crate) struct Ctx<'s> {
    schema: &'s Schema,
    opts: &'s Options,
    types: Vec<TypeEntry<'s>>,
    scope: Scope,
}

/// Names the generated file uses at its top level.
const TOP_LEVEL: &[&str] = &[
    "Message",
    "OwnedMessage",
    "decode",
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "HEADER_LENGTH",
    "ELEMENTS",
    "explain",
    "EncodeError",
    "EncodeResult",
];

impl<'s> Ctx<'s> {
    fn new(schema: &'s Schema, opts: &'s Options) -> Self {
        let mut ctx = Ctx {
            schema,
            opts,
            types: Vec::new(),
            scope: Scope::with(TOP_LEVEL),
        };
        ctx.register(&schema.header_type.name.clone(), &schema.header_type);
        for m in &schema.messages {
            ctx.register_fields(&m.block.fields);
            ctx.register_groups(&m.block.groups);
        }
        ctx
    }

    fn register_fields(&mut self, fields: &'s [Field]) {
        for f in fields {
            self.register(&f.type_name, &f.ty);
            if let Some(crate::ir::ConstValue::EnumValue { enum_name, .. }) = &f.const_value {
                self.register_named(enum_name);
            }
        }
    }

    fn register_groups(&mut self, groups: &'s [Group]) {
        for g in groups {
            self.register_fields(&g.block.fields);
            self.register_groups(&g.block.groups);
        }
    }

    fn register_named(&mut self, name: &str) {
        let schema = self.schema;
        if let Some(t) = schema.types.iter().find(|t| t.name == name) {
            self.register(name, t);
        }
    }

    /// Registers the enum, set or composite `ty` known as `key` (and the
    /// types of its members).
    fn register(&mut self, key: &str, ty: &'s Type) {
        match &ty.kind {
            TypeKind::Encoded(e) => {
                if let Some(crate::ir::ConstValue::EnumValue { enum_name, .. }) = &e.const_value {
                    self.register_named(enum_name);
                }
                return;
            }
            TypeKind::Enum(_) | TypeKind::Set(_) | TypeKind::Composite(_) => {}
        }
        if self.find(key, ty).is_some() {
            return;
        }
        if let TypeKind::Composite(c) = &ty.kind {
            for m in &c.members {
                let key = m.type_name.clone().unwrap_or_else(|| m.ty.name.clone());
                self.register(&key, &m.ty);
            }
        }
        let mut base = names::camel(key);
        if base == "Self" {
            base.push('_');
        }
        let ident = match &ty.kind {
            TypeKind::Composite(_) => self.claim_family(&base, &["Decoder", "Encoder"]),
            _ => self.scope.claim(&base),
        };
        self.types.push(TypeEntry {
            key: key.to_string(),
            ty,
            ident: format_ident!("{ident}"),
        });
    }

    /// Claims `base{n}{suffix}` for every suffix, for the first free `n`;
    /// returns `base{n}`.
    pub(crate) fn claim_family(&mut self, base: &str, suffixes: &[&str]) -> String {
        let mut n = 1;
        loop {
            let stem = if n == 1 {
                base.to_string()
            } else {
                format!("{base}{n}")
            };
            if !self.scope.is_taken(&stem)
                && suffixes
                    .iter()
                    .all(|s| !self.scope.is_taken(&format!("{stem}{s}")))
            {
                self.scope.claim(&stem);
                for s in suffixes {
                    self.scope.claim(&format!("{stem}{s}"));
                }
                return stem;
            }
            n += 1;
        }
    }

    fn find(&self, key: &str, ty: &Type) -> Option<&TypeEntry<'s>> {
        self.types
            .iter()
            .find(|e| e.key == key && e.ty.kind == ty.kind)
    }

    /// Rust name of the registered type `ty` known as `key`.
    pub(crate) fn type_ident(&self, key: &str, ty: &Type) -> Ident {
        match self.find(key, ty) {
            Some(e) => e.ident.clone(),
            None => format_ident!("{}", names::camel(key)),
        }
    }

    /// Rust name of the message header's decoder or encoder (`suffix`:
    /// `Decoder` or `Encoder`).
    pub(crate) fn header_type(&self, suffix: &str) -> Ident {
        let base = self.type_ident(&self.schema.header_type.name, &self.schema.header_type);
        format_ident!("{base}{suffix}")
    }

    /// Rust name of the enum named `name` in the schema, if registered.
    pub(crate) fn enum_ident(&self, name: &str) -> Option<Ident> {
        self.types
            .iter()
            .find(|e| e.key == name && matches!(e.ty.kind, TypeKind::Enum(_)))
            .map(|e| e.ident.clone())
    }

    /// The enum type whose Rust name is `ident`.
    pub(crate) fn enum_type(&self, ident: &Ident) -> &'s Type {
        self.types
            .iter()
            .find(|e| &e.ident == ident)
            .map(|e| e.ty)
            .unwrap_or(&self.schema.header_type)
    }

    /// `le` or `be`.
    pub(crate) fn byte_order(&self) -> ByteOrder {
        self.schema.byte_order
    }

    /// The schema's byte order as generated function names spell it.
    pub(crate) fn order(&self) -> &'static str {
        match self.schema.byte_order {
            ByteOrder::Little => "le",
            ByteOrder::Big => "be",
        }
    }

    /// Extra attributes the configuration asks for on type `name`.
    pub(crate) fn type_attrs(&self, name: &str) -> TokenStream {
        let mut out = TokenStream::new();
        for (sel, attr) in &self.opts.type_attributes {
            if sel == "." || sel == name {
                if let Ok(ts) = attr.parse::<TokenStream>() {
                    out.extend(ts);
                }
            }
        }
        out
    }
}

/// A token stream that `quote!` moves in where it is interpolated: a
/// `TokenStream` interpolated as itself is copied, each of its idents and
/// literals allocated again, and the original dropped after, the most of
/// what splicing the generated items into one another cost. Interpolate
/// it once; it is empty after.
pub(crate) struct Moved(std::cell::Cell<TokenStream>);

/// `tokens`, to be moved into the `quote!` that interpolates it.
pub(crate) fn moved(tokens: TokenStream) -> Moved {
    Moved(std::cell::Cell::new(tokens))
}

impl quote::ToTokens for Moved {
    fn to_tokens(&self, out: &mut TokenStream) {
        out.extend(self.0.take());
    }
}

/// `.at_element(n)` (`sbe_rt::__private::At`, a `map_err`) naming schema
/// element `element` in an error that names none yet
/// (`sbe_rt::Error::at`): on the failing branch only. Nothing for 0 (an
/// element past the most an error names, or none).
pub(crate) fn at(element: u16) -> TokenStream {
    if element == 0 {
        return TokenStream::new();
    }
    let n = proc_macro2::Literal::u16_unsuffixed(element);
    quote!(.at_element(#n))
}

/// An element's number as a `u16` literal.
pub(crate) fn element_lit(element: u16) -> proc_macro2::Literal {
    proc_macro2::Literal::u16_unsuffixed(element)
}

/// Doc attributes: the schema's description, if any, then the generated
/// line, which names the schema element (so that searching rustdoc for a
/// schema name finds its item even where the description does not say it).
///
/// The attributes are made as tokens here, not by `quote!` from
/// formatted lines: there are some for nearly every item, and making
/// them was a tenth of the generation.
pub(crate) fn docs(description: Option<&str>, generated: String) -> TokenStream {
    let mut out = TokenStream::new();
    let mut line = String::new();
    if let Some(d) = description.map(str::trim).filter(|d| !d.is_empty()) {
        for text in d.lines() {
            doc_attr(&mut out, &mut line, text);
        }
        doc_attr(&mut out, &mut line, "");
    }
    for text in generated.lines() {
        doc_attr(&mut out, &mut line, text);
    }
    out
}

/// `#[doc = " text"]` (trimmed; `""` for a blank line) appended to `out`;
/// `line`: a buffer to spell the literal in.
fn doc_attr(out: &mut TokenStream, line: &mut String, text: &str) {
    use proc_macro2::{Delimiter, Group, Punct, Spacing, Span, TokenTree};
    let text = text.trim();
    line.clear();
    if !text.is_empty() {
        line.push(' ');
        line.push_str(text);
    }
    let attr = [
        TokenTree::Ident(Ident::new("doc", Span::call_site())),
        TokenTree::Punct(Punct::new('=', Spacing::Alone)),
        TokenTree::Literal(doc_literal(line)),
    ];
    out.extend([
        TokenTree::Punct(Punct::new('#', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Bracket, attr.into_iter().collect())),
    ]);
}

/// `text` as a raw string literal where it can be one: there is no
/// escaping to do here, nor to undo where syn reads the literal and
/// prettyplease prints it as a `///` comment (docs are a third of the
/// text). The comment is the same either way.
fn doc_literal(text: &str) -> proc_macro2::Literal {
    if text.chars().any(|c| c.is_control() && c != '\t') {
        return proc_macro2::Literal::string(text);
    }
    // One `#` more than follows any `"` in the text.
    let hashes = text
        .split('"')
        .skip(1)
        .map(|after| 1 + after.len() - after.trim_start_matches('#').len())
        .max()
        .unwrap_or(0);
    let mut raw = String::with_capacity(text.len() + 3 + 2 * hashes);
    raw.push('r');
    raw.extend(std::iter::repeat_n('#', hashes));
    raw.push('"');
    raw.push_str(text);
    raw.push('"');
    raw.extend(std::iter::repeat_n('#', hashes));
    raw.parse()
        .unwrap_or_else(|_| proc_macro2::Literal::string(text))
}

/// `#[deprecated]` when the schema deprecates an item.
pub(crate) fn deprecated(since: Option<u32>) -> TokenStream {
    match since {
        Some(v) => {
            let note = format!("deprecated since schema version {v}");
            quote!(#[deprecated(note = #note)])
        }
        None => TokenStream::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A doc line reads back as itself, raw where it can be.
    #[test]
    fn doc_literals_hold_their_text() {
        for text in [
            "",
            " plain",
            " \"quoted\" and \"#hash\"## and \\ backslash",
            " a\ttab",
            " a\rreturn",
            " \u{7f} and ✓",
        ] {
            let lit = doc_literal(text).to_string();
            let raw = !text.chars().any(|c| c.is_control() && c != '\t');
            assert_eq!(lit.starts_with('r'), raw, "{lit}");
            let value = syn::parse_str::<syn::LitStr>(&lit).expect(&lit).value();
            assert_eq!(value, text, "{lit}");
        }
    }
}
