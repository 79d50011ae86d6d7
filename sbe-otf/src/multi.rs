//! Several schemas at once: each message is decoded with the schema whose
//! id its header's `schemaId` names (CME's TCP replay mixes MDP3 and its
//! session schema in one stream).
//!
//! The schema id is read with the first schema's header; every schema
//! must keep its `schemaId` at the same offset, with the same primitive
//! and byte order (checked once, by `Schemas::new`). The rest of each
//! message, its header included, is read with its own schema, so headers
//! may differ in what follows or precedes the schema id.
//!
//! With one schema nothing is dispatched: every message goes to it, and
//! its `--schema-id-check` setting decides about a foreign schema id.

use std::collections::HashMap;
use std::fmt;

use sbe_ir::ir::ByteOrder;
use sbe_rt::wire::Uint;

use crate::decode::{DecodeError, DecodeErrorKind, Decoded};
use crate::{read_slot, slot_offset, Codec, Header};

/// One schema of a [`Schemas`]: its codec and the label (the path given)
/// its messages carry as `"schema"`.
#[derive(Debug)]
pub struct Entry<'s> {
    /// The schema's codec.
    pub codec: Codec<'s>,
    /// What `"schema"` says for its messages.
    pub label: String,
}

/// Schemas that cannot be used together.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemasError {
    /// No schema at all.
    None,
    /// Two schemas with one id: a message could not say which it is.
    DuplicateId {
        /// The id.
        id: u64,
        /// The first schema with it.
        first: String,
        /// The second.
        second: String,
    },
    /// A schema whose header has no `schemaId` on the wire.
    NoSchemaId {
        /// The schema.
        label: String,
    },
    /// Headers that keep the schema id in different places.
    HeaderMismatch {
        /// The first schema.
        first: String,
        /// Where the first schema keeps it.
        ours: String,
        /// The other schema.
        other: String,
        /// Where the other keeps it.
        theirs: String,
    },
}

impl fmt::Display for SchemasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemasError::None => f.write_str("no schema given"),
            SchemasError::DuplicateId { id, first, second } => write!(
                f,
                "{first} and {second} have the same schema id {id}: a message's header cannot tell them apart"
            ),
            SchemasError::NoSchemaId { label } => write!(
                f,
                "{label}: the message header has no schemaId member on the wire, so messages cannot be told apart by schema"
            ),
            SchemasError::HeaderMismatch {
                first,
                ours,
                other,
                theirs,
            } => write!(
                f,
                "{other}'s header keeps schemaId {theirs}, {first}'s {ours}: the schema id is read with the first schema's header, so every schema must keep it at the same offset, type and byte order"
            ),
        }
    }
}

impl std::error::Error for SchemasError {}

/// A message that could not be decoded by any of the schemas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MultiError {
    /// Its schema could not decode it.
    Decode(DecodeError),
    /// Its header names a schema id none of the schemas has.
    UnknownSchema {
        /// Offset of the schema id in the input.
        offset: u64,
        /// The id read.
        id: u64,
        /// The ids known, with their schemas: `1 (car.xml), 7 (md.xml)`.
        known: String,
    },
}

impl MultiError {
    /// Offset of the problem in the input.
    pub fn offset(&self) -> u64 {
        match self {
            MultiError::Decode(e) => e.offset,
            MultiError::UnknownSchema { offset, .. } => *offset,
        }
    }

    /// The bytes ran out (more input could fix it).
    pub fn is_truncated(&self) -> bool {
        matches!(self, MultiError::Decode(e) if e.is_truncated())
    }

    /// Bytes from the message's start needed to go on, when truncated.
    pub fn need(&self) -> Option<u64> {
        match self {
            MultiError::Decode(e) => e.need,
            MultiError::UnknownSchema { .. } => None,
        }
    }

    /// What is wrong, without the offset.
    pub fn what(&self) -> What<'_> {
        What(self)
    }
}

/// [`MultiError::what`]: the error without its offset.
pub struct What<'a>(&'a MultiError);

impl fmt::Display for What<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            MultiError::Decode(e) => write!(f, "{}", e.kind),
            MultiError::UnknownSchema { id, known, .. } => {
                write!(
                    f,
                    "unknown schema id {id} ({id:#06x}): the schemas given have {known}"
                )
            }
        }
    }
}

impl fmt::Display for MultiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset(), self.what())
    }
}

impl std::error::Error for MultiError {}

impl From<DecodeError> for MultiError {
    fn from(e: DecodeError) -> Self {
        MultiError::Decode(e)
    }
}

/// The schemas messages are decoded with.
#[derive(Debug)]
pub struct Schemas<'s> {
    entries: Vec<Entry<'s>>,
    by_id: HashMap<u64, usize>,
    /// Where the first schema's header keeps the schema id.
    id_slot: Option<Uint>,
    order: ByteOrder,
    known: String,
}

fn describe(slot: Option<Uint>, order: ByteOrder) -> String {
    match slot {
        Some(Uint::Const(v)) => format!("as the constant {v}"),
        Some(slot) => {
            let order = match order {
                ByteOrder::Little => "little-endian",
                ByteOrder::Big => "big-endian",
            };
            let offset = slot.offset().unwrap_or(0);
            format!("at offset {offset} as Uint{} ({order})", 8 * slot.len())
        }
        None => "nowhere".to_string(),
    }
}

impl<'s> Schemas<'s> {
    /// The schemas `entries`, in the order given. With more than one, each
    /// needs a distinct schema id and a `schemaId` header member where the
    /// first schema has it.
    pub fn new(entries: Vec<Entry<'s>>) -> Result<Schemas<'s>, SchemasError> {
        let first = entries.first().ok_or(SchemasError::None)?;
        let order = first.codec.order;
        let id_slot = first.codec.header.schema_id;
        let mut by_id = HashMap::new();
        let mut known = Vec::new();
        if entries.len() > 1 {
            for (i, e) in entries.iter().enumerate() {
                let slot = e.codec.header.schema_id;
                if slot.and_then(Uint::offset).is_none() {
                    return Err(SchemasError::NoSchemaId {
                        label: e.label.clone(),
                    });
                }
                if slot != id_slot || e.codec.order != order {
                    return Err(SchemasError::HeaderMismatch {
                        first: first.label.clone(),
                        ours: describe(id_slot, order),
                        other: e.label.clone(),
                        theirs: describe(slot, e.codec.order),
                    });
                }
                let id = u64::from(e.codec.schema.id);
                if let Some(&j) = by_id.get(&id) {
                    let first = entries.get(j).map(|e: &Entry| e.label.clone());
                    return Err(SchemasError::DuplicateId {
                        id,
                        first: first.unwrap_or_default(),
                        second: e.label.clone(),
                    });
                }
                by_id.insert(id, i);
                known.push(format!("{id} ({})", e.label));
            }
        }
        Ok(Schemas {
            entries,
            by_id,
            id_slot,
            order,
            known: known.join(", "),
        })
    }

    /// The schemas, in the order given.
    pub fn entries(&self) -> &[Entry<'s>] {
        &self.entries
    }

    /// The first schema (the one whose header the schema id is read with).
    pub fn first(&self) -> Option<&Entry<'s>> {
        self.entries.first()
    }

    /// Byte order of the first schema (for framing headers that depend on
    /// it, such as SOFH's encoding type).
    pub fn byte_order(&self) -> ByteOrder {
        self.order
    }

    /// The schema that decodes the message at the start of `buf` (at input
    /// offset `base`).
    pub fn pick(&self, buf: &[u8], base: u64) -> Result<&Entry<'s>, MultiError> {
        let (Some(first), true) = (self.entries.first(), self.entries.len() > 1) else {
            return self.entries.first().ok_or_else(|| self.unknown(base, 0));
        };
        let hl = first.codec.header_len;
        let Some(id) = buf.get(..hl).and_then(|h| read_slot(self.id_slot, h)) else {
            return Err(MultiError::Decode(DecodeError {
                offset: base,
                kind: DecodeErrorKind::Truncated {
                    what: "message header".to_string(),
                    need: hl as u64,
                    have: buf.len() as u64,
                },
                need: Some(hl as u64),
            }));
        };
        self.by_id
            .get(&id)
            .and_then(|&i| self.entries.get(i))
            .ok_or_else(|| self.unknown(base, id))
    }

    fn unknown(&self, base: u64, id: u64) -> MultiError {
        MultiError::UnknownSchema {
            offset: base + slot_offset(self.id_slot),
            id,
            known: self.known.clone(),
        }
    }

    /// The header of the message at the start of `buf`, read with its
    /// schema; `None` when its schema is unknown or `buf` is too short.
    pub fn read_header(&self, buf: &[u8]) -> Option<Header> {
        self.pick(buf, 0).ok()?.codec.read_header(buf)
    }

    /// Decode the message at the start of `buf` with its schema and append
    /// its JSON (`"schema"` its label) to `out`; on error `out` is left as
    /// it was.
    pub fn decode_json(
        &self,
        buf: &[u8],
        base: u64,
        out: &mut Vec<u8>,
    ) -> Result<Decoded<'s>, MultiError> {
        let e = self.pick(buf, base)?;
        Ok(e.codec.decode_json(buf, base, Some(&e.label), out)?)
    }

    /// [`decode_json`](Self::decode_json) into a [`JsonBuf`](crate::JsonBuf)
    /// (see [`Codec::decode_json_into`](crate::Codec::decode_json_into)).
    pub fn decode_json_into(
        &self,
        buf: &[u8],
        base: u64,
        out: &mut crate::JsonBuf,
    ) -> Result<Decoded<'s>, MultiError> {
        let e = self.pick(buf, base)?;
        Ok(e.codec.decode_json_into(buf, base, Some(&e.label), out)?)
    }

    /// The length of the message at the start of `buf`, without its values.
    pub fn message_length(&self, buf: &[u8], base: u64) -> Result<Decoded<'s>, MultiError> {
        let e = self.pick(buf, base)?;
        Ok(e.codec.message_length(buf, base)?)
    }

    /// Append the annotated dump of the message at the start of `buf` to
    /// `out` (its heading names the schema when there are several).
    pub fn inspect(
        &self,
        buf: &[u8],
        base: u64,
        out: &mut String,
    ) -> Result<Decoded<'s>, MultiError> {
        let e = match self.pick(buf, base) {
            Ok(e) => e,
            Err(err) => {
                out.push_str(&format!("message at byte {base}: {}\n", err.what()));
                return Err(err);
            }
        };
        if self.entries.len() > 1 {
            out.push_str(&format!("schema {}\n", e.label));
        }
        Ok(e.codec.inspect(buf, base, out)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(path: &str) -> sbe_ir::ir::Schema {
        let p = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
        sbe_ir::ir::load(p).expect("schema")
    }

    #[test]
    fn one_schema_id_twice_is_refused() {
        let car = schema("../schemas/car.xml");
        let entries = vec![
            Entry {
                codec: Codec::new(&car).expect("codec"),
                label: "a.xml".into(),
            },
            Entry {
                codec: Codec::new(&car).expect("codec"),
                label: "b.xml".into(),
            },
        ];
        let e = Schemas::new(entries).expect_err("same id");
        assert!(
            matches!(&e, SchemasError::DuplicateId { id: 1, first, second } if first == "a.xml" && second == "b.xml"),
            "{e}"
        );
    }

    #[test]
    fn unknown_id_names_the_known_ones() {
        let car = schema("../schemas/car.xml");
        let md = schema("../sbe-command/benches/market-data.xml");
        let s = Schemas::new(vec![
            Entry {
                codec: Codec::new(&car).expect("codec"),
                label: "car.xml".into(),
            },
            Entry {
                codec: Codec::new(&md).expect("codec"),
                label: "md.xml".into(),
            },
        ])
        .expect("schemas");
        // blockLength 0, templateId 1, schemaId 9, version 0.
        let msg = [0u8, 0, 1, 0, 9, 0, 0, 0];
        let e = s.pick(&msg, 100).expect_err("unknown");
        assert_eq!(e.offset(), 104);
        assert_eq!(
            e.to_string(),
            "at byte 104: unknown schema id 9 (0x0009): the schemas given have 1 (car.xml), 7 (md.xml)"
        );
        let msg = [0u8, 0, 1, 0, 7, 0, 0, 0];
        assert_eq!(s.pick(&msg, 0).map(|e| e.label.as_str()), Ok("md.xml"));
        assert!(s.pick(&msg[..5], 0).expect_err("short").is_truncated());
    }
}
