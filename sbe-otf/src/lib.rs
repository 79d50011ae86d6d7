//! The on-the-fly codec: decode, encode and inspect SBE messages from a
//! schema's IR (`sbe_ir::ir`) at run time, with no generated code. It
//! is what the `sbe` command's `decode`, `encode` and `inspect` run, with
//! no command line or terminal of its own, and it gives the same verdict
//! as the generated decoders on the same bytes: both call the rules of
//! `sbe-rt`.
//!
//! [`Codec`] holds what every message of a schema shares (the header
//! layout, the template table); [`decode`] turns bytes into FORMAT.md's
//! JSON, [`encode`] turns that JSON back into bytes, [`size`] finds where
//! a message ends, [`inspect`] annotates its bytes, and [`multi`] picks the
//! schema of each message among several.
//!
//! Each template is compiled, the first time a message of it is coded,
//! into a plan: per block a flat list of steps, each the JSON text up to
//! the next value (keys, commas, braces and constants, escaped once) and
//! one read of the wire at the slot the IR gives, with its null value.
//! Decoding, sizing and encoding text in the form `sbe decode` writes
//! ([`Codec::encode_text`]) run the plan; a message older than some part of
//! its template, a problem, and any other form of JSON go the general way,
//! the walk over the IR, which gives the same result and the verdict.
//!
//! ```no_run
//! let schema = sbe_ir::ir::load("schemas/car.xml").unwrap();
//! let codec = sbe_otf::Codec::new(&schema).unwrap();
//! let bytes = std::fs::read("car.bin").unwrap();
//! let mut json = Vec::new();
//! let decoded = codec.decode_json(&bytes, 0, None, &mut json).unwrap();
//! println!("{} bytes: {}", decoded.len, String::from_utf8_lossy(&json));
//! ```
#![deny(missing_docs)]
// Input never reaches a panic: no indexing, unwrap or expect outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

pub mod decode;
pub mod encode;
pub mod inspect;
#[doc(hidden)] // The JSON writer's pieces the `sbe` command's capture metadata reuses.
pub mod json;
mod json_buf;
pub mod multi;
mod plan;
pub mod semantic;
pub mod size;

pub use json_buf::JsonBuf;

use std::collections::HashMap;
use std::sync::OnceLock;

use sbe_ir::ir::{ByteOrder, Header as HeaderSlots, Message, Scalar, Schema};
use sbe_rt::wire::Uint;

/// A schema cannot be used for run-time coding.
#[derive(Debug)]
#[non_exhaustive]
pub enum CodecError {
    /// The message header composite has no usable `templateId` member.
    NoTemplateId {
        /// The header composite's name.
        header: String,
    },
    /// The message header composite has no fixed length.
    HeaderLength {
        /// The header composite's name.
        header: String,
    },
}

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodecError::NoTemplateId { header } => {
                write!(
                    f,
                    "message header `{header}` has no integer `templateId` member"
                )
            }
            CodecError::HeaderLength { header } => {
                write!(f, "message header `{header}` has no fixed length")
            }
        }
    }
}

impl std::error::Error for CodecError {}

/// Reads a member of the message header (`bytes` are the header's) at
/// the slot the IR gives for it; `None` when there is no such member or
/// `bytes` are too short.
pub(crate) fn read_slot(slot: Option<Uint>, bytes: &[u8]) -> Option<u64> {
    slot?.try_get(bytes)
}

/// The byte offset of a slot on the wire (0 for a constant).
pub(crate) fn slot_offset(slot: Option<Uint>) -> u64 {
    slot.and_then(Uint::offset).map_or(0, |at| at as u64)
}

/// The header fields that drive decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Root block length on the wire.
    pub block_length: u64,
    /// Template id.
    pub template_id: u64,
    /// Schema id (None when the header has no such member).
    pub schema_id: Option<u64>,
    /// Acting version (a version the wire says is larger than a `u32`
    /// is `u32::MAX`, as generated decoders read it).
    pub version: u32,
}

/// What every message of one schema shares: byte order, header layout and
/// the template table. Build once, use for every message.
#[derive(Debug)]
pub struct Codec<'s> {
    pub(crate) schema: &'s Schema,
    pub(crate) order: ByteOrder,
    pub(crate) header_len: usize,
    pub(crate) header: HeaderSlots,
    pub(crate) schema_id_check: bool,
    pub(crate) values: semantic::Values,
    pub(crate) timestamp_unit: sbe_rt::TimeUnit,
    /// `(template id, message index)`, sorted by id (the first message of
    /// an id that is there twice).
    by_id: Vec<(u64, usize)>,
    by_name: HashMap<&'s str, usize>,
    /// Each message's plan (`plan`), built the first time one is coded.
    plans: Vec<OnceLock<Option<plan::MessagePlan>>>,
    /// The first schema label decoded with, and its `"schema":` text.
    label: OnceLock<(String, Vec<u8>)>,
}

impl<'s> Codec<'s> {
    /// Prepare `schema` for run-time coding.
    pub fn new(schema: &'s Schema) -> Result<Codec<'s>, CodecError> {
        let header = &schema.header_type;
        let header_len =
            sbe_ir::ir::encoded_length(header).ok_or_else(|| CodecError::HeaderLength {
                header: header.name.clone(),
            })? as usize;
        let layout = schema.header();
        if layout.template_id.and_then(Uint::offset).is_none() {
            return Err(CodecError::NoTemplateId {
                header: header.name.clone(),
            });
        }
        let mut by_id: Vec<(u64, usize)> = Vec::new();
        let mut by_name = HashMap::new();
        for (i, m) in schema.messages.iter().enumerate() {
            by_id.push((u64::from(m.id), i));
            by_name.entry(m.name.as_str()).or_insert(i);
        }
        // A stable sort: the first message of an id comes first, and stays.
        by_id.sort_by_key(|&(id, _)| id);
        by_id.dedup_by_key(|&mut (id, _)| id);
        Ok(Codec {
            schema,
            order: schema.byte_order,
            header_len,
            header: layout,
            by_id,
            by_name,
            schema_id_check: true,
            values: semantic::Values::Wire,
            timestamp_unit: sbe_rt::TimeUnit::Nanos,
            plans: schema.messages.iter().map(|_| OnceLock::new()).collect(),
            label: OnceLock::new(),
        })
    }

    /// How decoding writes values: FORMAT.md's wire form (the default) or
    /// [`semantic::Values::Semantic`] text for decimals, timestamps, dates
    /// and MonthYears. Encoding reads both forms whatever this says.
    pub fn with_values(mut self, values: semantic::Values) -> Self {
        self.values = values;
        self
    }

    /// The unit of an integer timestamp whose schema states none, for
    /// [`semantic::Values::Semantic`] and for reading timestamps as text
    /// (default: nanoseconds, as the generated code's
    /// `Config::timestamp_unit`).
    pub fn with_timestamp_unit(mut self, unit: sbe_rt::TimeUnit) -> Self {
        self.timestamp_unit = unit;
        self
    }

    /// Whether a message whose header names another schema id is refused
    /// (`true`, the default, as generated decoders refuse it) or decoded
    /// all the same (`false`: for captures whose schema id is known to be
    /// wrong).
    pub fn with_schema_id_check(mut self, check: bool) -> Self {
        self.schema_id_check = check;
        self
    }

    /// Whether a message whose header names another schema id is refused
    /// (see [`Codec::with_schema_id_check`]).
    pub fn schema_id_check(&self) -> bool {
        self.schema_id_check
    }

    /// The schema.
    pub fn schema(&self) -> &'s Schema {
        self.schema
    }

    /// Bytes of the message header.
    pub fn header_len(&self) -> usize {
        self.header_len
    }

    /// The message with template id `id`.
    pub fn message_by_id(&self, id: u64) -> Option<&'s Message> {
        self.message_index(id)
            .and_then(|i| self.schema.messages.get(i))
    }

    /// The index in the schema of the message with template id `id`.
    pub(crate) fn message_index(&self, id: u64) -> Option<usize> {
        let i = self.by_id.binary_search_by_key(&id, |&(id, _)| id).ok()?;
        self.by_id.get(i).map(|&(_, m)| m)
    }

    /// The index in the schema of the message named `name`.
    pub(crate) fn message_index_by_name(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The plan of message `i` of the schema (built on first use).
    pub(crate) fn plan(&self, i: usize) -> Option<&plan::MessagePlan> {
        let message = self.schema.messages.get(i)?;
        self.plans
            .get(i)?
            .get_or_init(|| plan::compile(self, message))
            .as_ref()
    }

    /// The message named `name`.
    pub fn message_by_name(&self, name: &str) -> Option<&'s Message> {
        self.by_name
            .get(name)
            .and_then(|&i| self.schema.messages.get(i))
    }

    /// Read the header at the start of `buf`, or `None` when `buf` is
    /// shorter than the header.
    pub fn read_header(&self, buf: &[u8]) -> Option<Header> {
        let h = buf.get(..self.header_len)?;
        let lay = &self.header;
        let template_id = read_slot(lay.template_id, h)?;
        let block_length = match read_slot(lay.block_length, h) {
            Some(v) => v,
            None => self
                .message_by_id(template_id)
                .map_or(0, |m| u64::from(m.block.block_length)),
        };
        Some(Header {
            block_length,
            template_id,
            schema_id: read_slot(lay.schema_id, h),
            version: read_slot(lay.version, h).map_or(self.schema.version, |v| {
                u32::try_from(v).unwrap_or(u32::MAX)
            }),
        })
    }
}

/// `characterEncoding` names UTF-8.
pub(crate) fn is_utf8(enc: Option<&str>) -> bool {
    enc.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// The null value of an encoded type, as an integer (`None` for floats,
/// whose null the callers compare as `sbe_rt::null` does).
pub(crate) fn int_null(e: &sbe_ir::ir::Encoded) -> Option<i128> {
    match e.null() {
        Scalar::Int(v) => Some(v),
        Scalar::Float(_) => None,
    }
}
