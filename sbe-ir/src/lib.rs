//! Read SBE (Simple Binary Encoding) schemas: parse, resolve, validate
//! and lay out once, into the IR every SBE tool reads.
//!
//! The flow is parse (roxmltree; every element keeps its file, line and
//! column) → resolve, validate and lay out (the resolver passes) → the IR
//! ([`ir`]: the model, its wire facts, its meaning facts, its primitives).
//! The backends read the IR and compute nothing of their own: code
//! generation (`sbe-build`), the run-time codec (`sbe-otf`), the columnar
//! export (`sbe-columnar`), the Wireshark dissector (`sbe-dissector`), the
//! layout report ([`report`]) and the compatibility check ([`compat`]).
//! Every wire fact is computed once, here; the slots it gives out are
//! `sbe_rt::wire`'s ([`Uint`](sbe_rt::wire::Uint),
//! [`Dimension`](sbe_rt::wire::Dimension), [`VarData`](sbe_rt::wire::VarData)),
//! the same the generated code and the run-time codec read through:
//!
//! | fact | where in [`ir`] |
//! |---|---|
//! | offsets of fields, members and composites | `Field::offset`, `Member::offset` |
//! | a message's root block and a group's entry: fields, groups, var data, block length, version | [`ir::Block`] |
//! | the end of a block at each acting version | [`ir::Block::end_at`] |
//! | the header's roles (blockLength, templateId, schemaId, version; numGroups, numVarDataFields) | [`ir::HeaderRole`], [`ir::Schema::header`] |
//! | a dimension's blockLength and numInGroup, their maximum | [`ir::Group::dimension`] |
//! | what an entry takes after its block, per version | `Group::entry_tail` |
//! | a var data's length and data members, its maximum | [`ir::Data::var_data`] |
//! | the bytes of a group or var data written empty | `Group::empty_bytes`, `Data::empty_bytes` |
//! | presence, null values | `Field::presence`, [`ir::null_bytes`], [`ir::unset_bytes`], `Block::unset_bytes` |
//! | what a value means: decimal, time and its unit, date, MonthYear, text | [`ir::Meaning`] |
//!
//! # Example
//!
//! ```
//! let xml = r#"<messageSchema package="demo" id="1">
//!   <types>
//!     <composite name="messageHeader">
//!       <type name="blockLength" primitiveType="uint16"/>
//!       <type name="templateId" primitiveType="uint16"/>
//!       <type name="schemaId" primitiveType="uint16"/>
//!       <type name="version" primitiveType="uint16"/>
//!     </composite>
//!   </types>
//!   <message name="Ping" id="1">
//!     <field name="seq" id="1" type="uint64"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::load_str("demo.xml", xml)?;
//! assert_eq!(schema.messages[0].name, "Ping");
//! assert_eq!(schema.messages[0].block.block_length, 8);
//!
//! // A broken schema is an error that says where.
//! let err = sbe_ir::load_str("bad.xml", "<messageSchema").unwrap_err();
//! assert!(err.to_string().starts_with("bad.xml:1:"), "{err}");
//! # Ok::<(), sbe_ir::Error>(())
//! ```
#![deny(missing_docs)]

pub mod compat;
mod error;
pub mod ir;
mod parse;
pub mod report;
mod resolve;

pub use error::{Diagnostic, Diagnostics, Error, Severity};
pub use ir::{load, load_str, load_with, IncludePolicy, Schema};
pub use parse::Pos;
