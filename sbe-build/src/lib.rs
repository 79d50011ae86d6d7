//! Generate Rust decoders and encoders for SBE (Simple Binary Encoding)
//! schemas from a `build.rs`, the way `prost-build` does for protobuf.
//!
//! The schema is read by `sbe-ir` (re-exported as [`schema`]): parsed,
//! resolved, validated and laid out once, into the IR that holds every wire
//! and meaning fact. This crate generates code from that IR ([`generate`],
//! [`compile`]). The generated code holds the schema's names, offsets and
//! types; what every message shares (group iterators, a lazy decoder's
//! section cache, an encoder's section stepping, the checks, null values,
//! the walk over a block's fields that `Debug` and JSON are visitors of) is
//! generic code in `sbe-rt`, which the run-time codec calls too, so that
//! the generated decoder and `sbe decode` give the same verdict on the same
//! bytes.
//!
//! ```no_run
//! // in build.rs's main:
//! sbe_build::compile("schemas/car.xml").unwrap(); // writes $OUT_DIR/baseline.rs
//! ```
//!
//! and in the crate, a module per schema (`pub`: a program uses a part of
//! the generated code, and in a private module every item it does not use
//! warns as dead code):
//!
//! ```ignore
//! pub mod car {
//!     sbe_rt::include_schema!("baseline");
//! }
//! ```
//!
//! # Names
//!
//! **Files.** Each schema is written to `<stem>.rs` in the output folder
//! (`$OUT_DIR` unless [`Config::out_dir`] names another) and included with
//! `sbe_rt::include_schema!("<stem>")`. The stem is the schema's `package`
//! in lower case with every character that is not an ASCII letter or digit
//! made `_` ([`file_stem`]); no `_` is put between words.
//! [`Config::file_name`] chooses another name per package,
//! [`Config::schema_file_name`] per schema file (two schemas written to one
//! file are an [`Error::SameOutputFile`]).
//!
//! ```
//! use sbe_build::file_stem;
//!
//! assert_eq!(file_stem("baseline"), "baseline");
//! assert_eq!(file_stem("MDP3.Market-Data"), "mdp3_market_data");
//! assert_eq!(
//!     file_stem("uk.co.real_logic.sbe.benchmarks.fix"),
//!     "uk_co_real_logic_sbe_benchmarks_fix"
//! );
//! // Two packages, one stem: compiling both is an error.
//! assert_eq!(file_stem("a.b"), file_stem("a_b"));
//! ```
//!
//! **Items.** Every character of a schema name that cannot be in a Rust
//! identifier is made `_` (and a leading digit gets a `_` before it), then
//! the case is converted as the `heck` crate does it: a run of capitals is
//! one word (`MDEntryPx` is `MD` `Entry` `Px`, `PRICENULL9` one word).
//!
//! | schema | Rust | example |
//! |---|---|---|
//! | message | `XDecoder`, `XEncoder` (UpperCamelCase); variant `Message::X`; owned: `X`, variant `OwnedMessage::X` | `MDIncrementalRefreshBook46` → `MdIncrementalRefreshBook46Decoder`, `MdIncrementalRefreshBook46Encoder`, `Message::MdIncrementalRefreshBook46`, owned `MdIncrementalRefreshBook46` |
//! | composite | `XDecoder` (a view), `XEncoder` (a writer); owned: `X` | `PRICENULL9` → `Pricenull9Decoder`, `Pricenull9Encoder`, owned `Pricenull9` |
//! | enum | type `X`, a constant per value (both UpperCamelCase) | `MDUpdateAction` value `DeleteThru` → `MdUpdateAction::DeleteThru` |
//! | set | type `X`; per choice a getter and a `with_` setter (snake_case) and a mask, an `X` of the one choice (SHOUTY_SNAKE_CASE) | `SettlPriceType` choice `ReservedBits` → `reserved_bits()`, `with_reserved_bits()`, `SettlPriceType::RESERVED_BITS` |
//! | field, composite member, var data | accessor in snake_case; a char array or text var data adds `_str()` | `MDEntryPx` → `md_entry_px()`, `SecurityID` → `security_id()`, `Symbol` (`char` × 6) → `symbol()` and `symbol_str()` |
//! | typed value (the IR's [`Meaning`]) | a decimal, time or MonthYear composite's decoder adds `value()` (an `sbe_rt::Decimal`, `Timestamp` or `MonthYear`; an `Option` where a part may be null) and its encoder `value(v)`; an integer timestamp or date field adds `_value()` and the setter `_value(v)`; an integer field whose exponent is another field (Binance's `mbx:exponent`) adds `_value(exponent)` and the setter `_value(v, exponent)`, the caller passing that field's value; numbered like any clash | `MDEntryPx` (`PRICENULL9`) → `md_entry_px().value()`; `TransactTime` (`uint64`, `UTCTimestamp`) → `transact_time_value()`; `TradeDate` (`LocalMktDate`) → `trade_date_value()` |
//! | group | accessor in snake_case; types: message and group in UpperCamelCase with `Decoder` (the iterator), `Entry`, `Encoder`; owned entry: without a suffix | `NoMDEntries` of the message above → `no_md_entries()`, `MdIncrementalRefreshBook46NoMdEntriesEntry`, owned `MdIncrementalRefreshBook46NoMdEntries` |
//! | owned value (field, member, group, var data) | a `pub` field named as the accessor; a decimal, timestamp, date or MonthYear that reads and writes back exactly holds its `sbe_rt` value: a decimal at a constant exponent a `Fixed<mantissa type, exponent>`, one whose exponent is on the wire a `Decimal`, as is a field decimal (Binance's `mbx:exponent`: read at its exponent field's value, written at the owned exponent field's, exactly or `Err`; a group entry whose exponent field is an enclosing block's takes it in `to_owned(exponent, ...)`) | `MDEntryPx` (`PRICENULL9`) → `.md_entry_px` (`Option<Fixed<i64, -9>>`) |
//!
//! The owned types ([`Config::owned`], on by default) take the stem the
//! decoder and encoder are named from, which is claimed with them: they
//! need no name of their own and clash with nothing. `OwnedMessage` is
//! one of the names the generated code uses itself (a schema type
//! `OwnedMessage` is numbered, `OwnedMessage2`).
//!
//! At its top level the file also has `SCHEMA_ID`, `SCHEMA_VERSION`,
//! `HEADER_LENGTH`, `decode`, `message_length`, and `ELEMENTS` with
//! `explain`: the path of each schema element (`Car.fuelFigures`) by the
//! number a decoder's or encoder's error names
//! ([`sbe_rt::Error::element`](https://docs.rs/sbe-rt)), and the error
//! displayed with it.
//!
//! The examples of the table, generated:
//!
//! ```
//! let xml = r#"<messageSchema package="names" id="1"><types>
//! # <composite name="messageHeader">
//! #   <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
//! #   <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
//! # </composite>
//!   <composite name="groupSize">
//!     <type name="blockLength" primitiveType="uint16"/><type name="numInGroup" primitiveType="uint8"/>
//!   </composite>
//!   <composite name="PRICENULL9">
//!     <type name="mantissa" primitiveType="int64" presence="optional"/>
//!     <type name="exponent" primitiveType="int8" presence="constant">-9</type>
//!   </composite>
//!   <enum name="MDUpdateAction" encodingType="uint8"><validValue name="DeleteThru">3</validValue></enum>
//!   <set name="SettlPriceType" encodingType="uint8"><choice name="ReservedBits">1</choice></set>
//!   <type name="Symbol" primitiveType="char" length="6"/>
//! </types>
//! <message name="MDIncrementalRefreshBook46" id="46">
//!   <field name="SecurityID" id="48" type="int32"/>
//!   <field name="Symbol" id="55" type="Symbol"/>
//!   <field name="SettlPriceType" id="731" type="SettlPriceType"/>
//!   <field name="TransactTime" id="60" type="uint64" semanticType="UTCTimestamp"/>
//!   <field name="TradeDate" id="75" type="uint16" semanticType="LocalMktDate"/>
//!   <group name="NoMDEntries" id="268" dimensionType="groupSize">
//!     <field name="MDEntryPx" id="270" type="PRICENULL9"/>
//!     <field name="MDUpdateAction" id="279" type="MDUpdateAction"/>
//!   </group>
//! </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::load_str("names.xml", xml).unwrap();
//! let code = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
//! // One space for each run of white space: a macro call is broken
//! // across lines where its names' lengths have it.
//! let code = code.split_whitespace().collect::<Vec<_>>().join(" ");
//! for item in [
//!     // message
//!     "pub struct MdIncrementalRefreshBook46Decoder<'a> {",
//!     "pub struct MdIncrementalRefreshBook46Encoder<'a> {",
//!     "MdIncrementalRefreshBook46(MdIncrementalRefreshBook46Decoder<'a>),", // in `Message`
//!     // composite, enum, set
//!     "pub struct Pricenull9Decoder<'a> {",
//!     "pub struct Pricenull9Encoder<'b> {",
//!     "pub struct MdUpdateAction(pub u8);",
//!     "pub const DeleteThru: Self",
//!     "pub const fn reserved_bits(self) -> bool {",
//!     "pub const fn with_reserved_bits(self, on: bool) -> Self {",
//!     "pub const RESERVED_BITS: Self",
//!     // fields, a char array, a group
//!     // (a field's or member's accessor is an `sbe_rt::getter!` call)
//!     "security_id : i32 =",
//!     "symbol = base[",
//!     "symbol_str = symbol",
//!     "settl_price_type : SettlPriceType =",
//!     "md_entry_px : Pricenull9Decoder =",
//!     "pub fn no_md_entries(&self) -> MdIncrementalRefreshBook46NoMdEntriesDecoder<'_> {",
//!     "pub struct MdIncrementalRefreshBook46NoMdEntriesEntry<'a> {",
//!     // owned
//!     "pub struct MdIncrementalRefreshBook46 {",
//!     "MdIncrementalRefreshBook46(MdIncrementalRefreshBook46),", // in `OwnedMessage`
//!     "pub struct Pricenull9 {",
//!     "pub struct MdIncrementalRefreshBook46NoMdEntries {",
//!     "pub md_entry_px: ::core::option::Option<::sbe_rt::Fixed<i64, -9>>,", // the typed value
//!     "pub transact_time: ::sbe_rt::Timestamp,",
//!     "pub no_md_entries: ::sbe_rt::__private::alloc::vec::Vec<",
//!     // typed values
//!     "pub fn value(&self) -> ::core::option::Option<::sbe_rt::Decimal> {", // on Pricenull9Decoder
//!     "pub fn transact_time_value(&self) -> ::sbe_rt::Timestamp {",
//!     "pub fn trade_date_value(&self) -> ::sbe_rt::Date {",
//! ] {
//!     assert!(code.contains(item), "not generated: {item}");
//! }
//! ```
//!
//! **Keywords** become raw identifiers: a field `type` → `r#type()`, a set
//! choice `Final` → `r#final()`. `self`, `Self`, `super` and `crate`,
//! which cannot be raw, get a `_`: a field `self` → `self_()`, a set
//! `self` → `Self_`.
//!
//! ```
//! let xml = r#"<messageSchema package="keywords" id="1"><types>
//! # <composite name="messageHeader">
//! #   <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
//! #   <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
//! # </composite>
//!   <set name="self" encodingType="uint8"><choice name="Final">0</choice></set>
//! </types>
//! <message name="Order" id="1">
//!   <field name="type" id="1" type="uint8"/>
//!   <field name="self" id="2" type="uint8"/>
//!   <field name="flags" id="3" type="self"/>
//! </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::load_str("keywords.xml", xml).unwrap();
//! let code = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
//! // One space for each run of white space: a macro call is broken
//! // across lines where its names' lengths have it.
//! let code = code.split_whitespace().collect::<Vec<_>>().join(" ");
//! for item in [
//!     "r#type : u8 =", // the accessor, an `sbe_rt::getter!` call
//!     "self_ : u8 =",
//!     "pub struct Self_(pub u8);",
//!     "pub const fn r#final(self) -> bool {",
//!     "flags : Self_ =",
//! ] {
//!     assert!(code.contains(item), "not generated: {item}");
//! }
//! assert!(!code.contains(" type :") && !code.contains(" self :"));
//! ```
//!
//! **Clashes** are numbered in schema order: the second name gets `2`, the
//! third `3` (`_2`, `_3` for an accessor, constant, enum or set type that
//! ends in a digit). Fields `mdEntryPx` and `MdEntryPx` of one message →
//! `md_entry_px()` and `md_entry_px2()`, `v1` and `V1` → `v1()` and
//! `v1_2()`; enum values `Bid` and `BID` → `Bid` and `Bid2`. The
//! names the generated code uses itself are taken first: a field `header`
//! → `header2()` (likewise `decode`, `wrap`, `finish`, `next_entry`,
//! `to_owned`...), an enum `Message` → `Message2` (likewise
//! `OwnedMessage`). Types are named before messages: a message
//! `MDEntryType` beside an enum `MDEntryType` (`MdEntryType`) gets
//! `MdEntryType2Decoder` and `MdEntryType2Encoder`, while its `Message`
//! variant, in a scope of its own, stays `Message::MdEntryType`.
//!
//! ```
//! let xml = r#"<messageSchema package="clashes" id="1"><types>
//! # <composite name="messageHeader">
//! #   <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
//! #   <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
//! # </composite>
//!   <enum name="MDEntryType" encodingType="char">
//!     <validValue name="Bid">0</validValue><validValue name="BID">1</validValue>
//!   </enum>
//!   <enum name="Message" encodingType="uint8"><validValue name="A">0</validValue></enum>
//! </types>
//! <message name="Quote" id="1">
//!   <field name="mdEntryPx" id="1" type="uint8"/>
//!   <field name="MdEntryPx" id="2" type="uint8"/>
//!   <field name="v1" id="3" type="uint8"/>
//!   <field name="V1" id="4" type="uint8"/>
//!   <field name="header" id="5" type="uint8"/>
//!   <field name="side" id="6" type="MDEntryType"/>
//!   <field name="kind" id="7" type="Message"/>
//! </message>
//! <message name="MDEntryType" id="2"><field name="x" id="1" type="uint8"/></message>
//! </messageSchema>"#;
//! let schema = sbe_ir::load_str("clashes.xml", xml).unwrap();
//! let code = sbe_build::generate(&schema, &sbe_build::Config::new()).unwrap();
//! // One space for each run of white space: a macro call is broken
//! // across lines where its names' lengths have it.
//! let code = code.split_whitespace().collect::<Vec<_>>().join(" ");
//! for item in [
//!     // numbered in schema order, `_2` after a digit
//!     "md_entry_px : u8 =", // accessors, `sbe_rt::getter!` calls
//!     "md_entry_px2 : u8 =",
//!     "v1 : u8 =",
//!     "v1_2 : u8 =",
//!     "pub const Bid: Self",
//!     "pub const Bid2: Self",
//!     // the generated code's own names first
//!     "header2 : u8 =",
//!     "pub struct Message2(pub u8);",
//!     // types before messages; the `Message` variant in its own scope
//!     "pub struct MdEntryType(pub u8);",
//!     "pub struct MdEntryType2Decoder<'a> {",
//!     "pub struct MdEntryType2Encoder<'a> {",
//!     "MdEntryType(MdEntryType2Decoder<'a>),",
//! ] {
//!     assert!(code.contains(item), "not generated: {item}");
//! }
//! assert!(!code.contains(" header : u8 ="));
//! assert!(!code.contains("pub struct MdEntryTypeDecoder"));
//! ```
#![deny(missing_docs)]

// The generator's internals: public for sbe-build's own tests (the
// formatter's token round trip), not an API.
#[doc(hidden)]
pub mod codegen;
mod config;
mod error;

/// The schema reader and its IR: the crate `sbe-ir`, which
/// [`generate`] takes a schema from.
pub use sbe_ir as schema;
use sbe_ir::ir;

pub use config::{compile, file_stem, generate, write_if_changed, Config};
pub use error::{Diagnostic, Error, Severity};
/// What a value means, to declare it for a type ([`Config::meaning`]).
pub use sbe_ir::ir::Meaning;
pub use sbe_ir::Pos;
/// The unit of a timestamp, for [`Config::timestamp_unit`] (sbe-rt's, so
/// that a `build.rs` needs no sbe-rt of its own).
pub use sbe_rt::TimeUnit;
