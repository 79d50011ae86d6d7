//! Generate Rust decoders and encoders for SBE (Simple Binary Encoding)
//! schemas from a `build.rs`, the way `prost-build` does for protobuf.
//!
//! The flow is parse → resolve and lay out ([`ir`]) → generate code
//! ([`generate`], [`compile`]). Every wire fact is computed once, in the
//! IR, which the `sbe` command's run-time codec, its layout report and
//! [`compat`] read too:
//!
//! | fact | where in [`ir`] |
//! |---|---|
//! | offsets of fields, members and composites | `Field::offset`, `Member::offset` (`ir/layout.rs`) |
//! | the end of a block at each acting version | [`ir::block_end`] |
//! | the header's roles (blockLength, templateId, schemaId, version; numGroups, numVarDataFields) | [`ir::HeaderRole`], `Schema::header_layout` |
//! | a dimension's blockLength and numInGroup, their maximum | `Group::dimension_layout` |
//! | what an entry takes after its block, per version | `Group::entry_tail` |
//! | a var data's length and data members, its maximum | `Data::layout` |
//! | the bytes of a group or var data written empty | `Group::empty_bytes`, `Data::empty_bytes` |
//! | presence, null values | `Field::presence`, [`ir::null_bytes`] |
//!
//! The generated code holds the schema's names, offsets and types; what
//! every message shares (group iterators, a lazy decoder's section cache,
//! an encoder's section stepping, the checks, null values, the walk over
//! a block's fields that `Debug` and JSON are visitors of) is generic code
//! in `sbe-rt`, which both decoders call, so that the generated decoder and
//! `sbe decode` give the same verdict on the same bytes.
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
//! and included with `sbe_rt::include_schema!("<stem>")`. The stem is the
//! schema's `package` in lower case with every character that is not an
//! ASCII letter or digit made `_` ([`file_stem`]); no `_` is put between
//! words. [`Config::file_name`] chooses another name per package,
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
//! | message | `XDecoder`, `XEncoder` (UpperCamelCase); variant `Message::X` | `MDIncrementalRefreshBook46` → `MdIncrementalRefreshBook46Decoder`, `MdIncrementalRefreshBook46Encoder`, `Message::MdIncrementalRefreshBook46` |
//! | composite | `XDecoder` (a view), `XEncoder` (a writer) | `PRICENULL9` → `Pricenull9Decoder`, `Pricenull9Encoder` |
//! | enum | type `X`, a constant per value (both UpperCamelCase) | `MDUpdateAction` value `DeleteThru` → `MdUpdateAction::DeleteThru` |
//! | set | type `X`; per choice a getter and a `with_` setter (snake_case) and a mask, an `X` of the one choice (SHOUTY_SNAKE_CASE) | `SettlPriceType` choice `ReservedBits` → `reserved_bits()`, `with_reserved_bits()`, `SettlPriceType::RESERVED_BITS` |
//! | field, composite member, var data | accessor in snake_case; a char array or text var data adds `_str()` | `MDEntryPx` → `md_entry_px()`, `SecurityID` → `security_id()`, `Symbol` (`char` × 6) → `symbol()` and `symbol_str()` |
//! | group | accessor in snake_case; types: message and group in UpperCamelCase with `Decoder` (the iterator), `Entry`, `Encoder` | `NoMDEntries` of the message above → `no_md_entries()`, `MdIncrementalRefreshBook46NoMdEntriesEntry` |
//!
//! **Keywords** become raw identifiers: a field `type` → `r#type()`, a set
//! choice `Final` → `r#final()`. `self`, `Self`, `super` and `crate`,
//! which cannot be raw, get a `_`: a field `self` → `self_()`, a set
//! `self` → `Self_`.
//!
//! **Clashes** are numbered in schema order: the second name gets `2`, the
//! third `3` (`_2`, `_3` for an accessor, constant, enum or set type that
//! ends in a digit). Fields `mdEntryPx` and `MdEntryPx` of one message →
//! `md_entry_px()` and `md_entry_px2()`, `v1` and `V1` → `v1()` and
//! `v1_2()`; enum values `Bid` and `BID` → `Bid` and `Bid2`. The
//! names the generated code uses itself are taken first: a field `header`
//! → `header2()` (likewise `decode`, `wrap`, `finish`, `next_entry`...), an
//! enum `Message` → `Message2`. Types are named before messages: a message
//! `MDEntryType` beside an enum `MDEntryType` (`MdEntryType`) gets
//! `MdEntryType2Decoder` and `MdEntryType2Encoder`, while its `Message`
//! variant, in a scope of its own, stays `Message::MdEntryType`.
#![deny(missing_docs)]

// The generator's internals: public for sbe-build's own tests (the
// formatter's token round trip), not an API.
#[doc(hidden)]
pub mod codegen;
pub mod compat;
mod config;
mod error;
pub mod ir;
mod schema;

pub use config::{compile, file_stem, generate, write_if_changed, Config};
pub use error::{Diagnostic, Error, Severity};
pub use schema::Pos;
