//! Wire facts that every backend needs and that follow from the resolved
//! model: where the header's, a dimension's and a var-data prefix's
//! integer members are (as `sbe_rt::wire`'s slots, the vocabulary the
//! generated code and the run-time codec read through), their maxima, how
//! long a type is, and how long a block must be for an acting version.
//! Codegen and the run-time codec read them here instead of looking
//! members up by name themselves.
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
//!     <composite name="groupSizeEncoding">
//!       <type name="blockLength" primitiveType="uint16"/>
//!       <type name="numInGroup" primitiveType="uint16" maxValue="100"/>
//!     </composite>
//!     <composite name="varString">
//!       <type name="length" primitiveType="uint8" maxValue="20"/>
//!       <type name="varData" primitiveType="uint8" length="0"/>
//!     </composite>
//!   </types>
//!   <message name="Ping" id="1">
//!     <field name="seq" id="1" type="uint64"/>
//!     <group name="legs" id="2"><field name="qty" id="3" type="uint32"/></group>
//!     <data name="note" id="4" type="varString"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
//! let ping = &schema.messages[0];
//! use sbe_ir::ir::HeaderRole;
//! use sbe_rt::wire::{Dimension, Uint, VarData};
//! let order = schema.byte_order;
//! let dim = ping.block.groups[0].dimension(order);
//! assert_eq!(
//!     dim,
//!     Dimension { len: 4, block_length: Uint::U16Le(0), count: Uint::U16Le(2), max_count: 100 }
//! );
//! let note = ping.block.data[0].var_data(order);
//! assert_eq!(note, VarData { length: Uint::U8(0), data_offset: 1, max_length: 20, element: 6 });
//! assert_eq!(ping.block.end_at(0), 8);
//! let header = schema.header();
//! assert_eq!((header.len, header.version), (8, Some(Uint::U16Le(6))));
//! let version = schema.header_member(HeaderRole::Version).unwrap();
//! assert_eq!((version.ty.name.as_str(), version.offset), ("version", 6));
//! assert!(schema.header_member(HeaderRole::NumGroups).is_none());
//! ```

use super::model::*;
use sbe_rt::wire::{Dimension, Uint, VarData};

/// The member named `name` of composite `ty`.
fn member<'t>(ty: &'t Type, name: &str) -> Option<&'t Member> {
    match &ty.kind {
        TypeKind::Composite(c) => c.members.iter().find(|m| m.ty.name == name),
        _ => None,
    }
}

/// Where the member `m` of a header composite is, if it is a single
/// integer (or a constant integer), in byte order `order`.
fn slot(m: &Member, order: ByteOrder) -> Option<Uint> {
    let TypeKind::Encoded(e) = &m.ty.kind else {
        return None;
    };
    if e.presence == Presence::Constant {
        return match &e.const_value {
            Some(ConstValue::Number(Scalar::Int(v))) => {
                Some(Uint::Const(u64::try_from((*v).max(0)).unwrap_or(u64::MAX)))
            }
            _ => None,
        };
    }
    (e.length == 1 && !e.primitive.is_float()).then(|| e.primitive.slot(order, m.offset as usize))
}

/// The largest value of member `name` of `ty`: its `maxValue`, else its
/// primitive's largest (a constant's own value).
fn max_of(ty: &Type, name: &str) -> u64 {
    let max = match member(ty, name).map(|m| &m.ty.kind) {
        Some(TypeKind::Encoded(e)) => match (&e.max_value, &e.const_value) {
            (_, Some(ConstValue::Number(Scalar::Int(v)))) => *v,
            (Some(Scalar::Int(m)), _) => *m,
            _ => e.primitive.int_range().1,
        },
        _ => 0,
    };
    u64::try_from(max.max(0)).unwrap_or(u64::MAX)
}

impl Group {
    /// Where this group's dimension keeps its block length and count, in
    /// the schema's byte order `order`, and the largest count a decoder
    /// accepts and an encoder writes (`numInGroup`'s `maxValue`, else its
    /// primitive's largest). A member that is not there (validation rules
    /// that out) is the standard `uint16` at the standard offset.
    #[must_use]
    pub fn dimension(&self, order: ByteOrder) -> Dimension {
        let dim = &self.dimension_type;
        let at = |name: &str, standard: usize| {
            member(dim, name)
                .and_then(|m| slot(m, order))
                .unwrap_or_else(|| Primitive::Uint16.slot(order, standard))
        };
        Dimension {
            len: encoded_length(dim).unwrap_or(0) as usize,
            block_length: at("blockLength", 0),
            count: at("numInGroup", 2),
            max_count: max_of(dim, "numInGroup"),
        }
    }

    /// Whether the entries are blocks only (no nested groups, no var
    /// data): a decoder can then check the whole span of entries when the
    /// group is opened. sbe-rt's iterator of such a group is
    /// `group::Blocks`, over `BlockEntry` decoders.
    #[must_use]
    pub fn has_block_entries(&self) -> bool {
        self.block.sections() == 0
    }

    /// The bytes of this group with no entries, as an encoder writes a
    /// group it was not given: the dimension with its block length (where
    /// that is on the wire) and a count of 0.
    #[must_use]
    pub fn empty_bytes(&self, order: ByteOrder) -> Vec<u8> {
        let dim = self.dimension(order);
        let mut out = vec![0u8; dim.len];
        // A block length the dimension cannot hold is left 0: validation
        // has refused such a schema.
        let _ = dim
            .block_length
            .put(&mut out, u64::from(self.block.block_length));
        out
    }
}

impl Data {
    /// The bytes of this var data when empty, as an encoder writes one it
    /// was not given: a length of 0 (and whatever lies before the data).
    #[must_use]
    pub fn empty_bytes(&self) -> Vec<u8> {
        vec![0u8; self.data_offset() as usize]
    }

    /// Offset of the length member from the start of the field.
    fn length_offset(&self) -> u32 {
        member(&self.encoding_type, "length").map_or(0, |m| m.offset)
    }

    /// Offset of the first data byte from the start of the field: the
    /// `varData` member's offset, at least just after the length.
    fn data_offset(&self) -> u32 {
        let size = self.length_primitive.size();
        let after_length = self.length_offset().saturating_add(size);
        member(&self.encoding_type, "varData")
            .map_or(size, |m| m.offset)
            .max(after_length)
    }

    /// Where this var data's length prefix and bytes are, in the schema's
    /// byte order `order`, and the longest length it may have.
    #[must_use]
    pub fn var_data(&self, order: ByteOrder) -> VarData {
        VarData {
            length: self
                .length_primitive
                .slot(order, self.length_offset() as usize),
            data_offset: self.data_offset() as usize,
            max_length: self.max_length,
            element: self.element,
        }
    }
}

impl Group {
    /// The fewest bytes each entry takes after its block at acting version
    /// `version`: the dimensions of its nested groups and the length
    /// prefixes of its var data, those present in that version. A count
    /// whose entries cannot fit in the bytes left is refused before any
    /// entry is read.
    pub fn entry_tail(&self, version: u32) -> u32 {
        let groups = self
            .block
            .groups
            .iter()
            .filter(|g| g.block.since_version <= version)
            .map(|g| encoded_length(&g.dimension_type).unwrap_or(0));
        let data = self
            .block
            .data
            .iter()
            .filter(|d| d.since_version <= version)
            .map(Data::data_offset);
        groups.chain(data).fold(0, u32::saturating_add)
    }

    /// The versions above this group's own `sinceVersion` at which
    /// [`Group::entry_tail`] grows, ascending.
    pub fn entry_tail_versions(&self) -> Vec<u32> {
        let mut versions: Vec<u32> = self
            .block
            .groups
            .iter()
            .map(|g| g.block.since_version)
            .chain(self.block.data.iter().map(|d| d.since_version))
            .filter(|&v| v > self.block.since_version)
            .collect();
        versions.sort_unstable();
        versions.dedup();
        versions
    }
}

/// What a member of the message header is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeaderRole {
    /// `blockLength`: the root block's length.
    BlockLength,
    /// `templateId`: which message follows.
    TemplateId,
    /// `schemaId`: which schema the message is of.
    SchemaId,
    /// `version`: the schema version the sender used (the acting version).
    Version,
    /// `numGroups` (SBE 2.0): how many groups the message has.
    NumGroups,
    /// `numVarDataFields` (SBE 2.0): how many var data fields it has.
    NumVarDataFields,
}

impl HeaderRole {
    /// Every role, in the order the standard header lists them.
    pub const ALL: [HeaderRole; 6] = [
        HeaderRole::BlockLength,
        HeaderRole::TemplateId,
        HeaderRole::SchemaId,
        HeaderRole::Version,
        HeaderRole::NumGroups,
        HeaderRole::NumVarDataFields,
    ];

    /// The member name the standard gives the role: the one place that
    /// knows it.
    pub fn member_name(self) -> &'static str {
        match self {
            HeaderRole::BlockLength => "blockLength",
            HeaderRole::TemplateId => "templateId",
            HeaderRole::SchemaId => "schemaId",
            HeaderRole::Version => "version",
            HeaderRole::NumGroups => "numGroups",
            HeaderRole::NumVarDataFields => "numVarDataFields",
        }
    }

    fn of(member: &Member) -> Option<HeaderRole> {
        HeaderRole::ALL
            .into_iter()
            .find(|r| r.member_name() == member.ty.name)
    }
}

/// Where the message header keeps its roles' values, in the schema's
/// byte order; a role the header does not have is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Header {
    /// Bytes of the header.
    pub len: usize,
    /// `blockLength` of the root block.
    pub block_length: Option<Uint>,
    /// `templateId`: which message follows.
    pub template_id: Option<Uint>,
    /// `schemaId`: checked against the schema's id when on the wire.
    pub schema_id: Option<Uint>,
    /// `version`: the acting version.
    pub version: Option<Uint>,
}

impl Schema {
    /// Where the message header keeps its four roles.
    #[must_use]
    pub fn header(&self) -> Header {
        let h = &self.header_type;
        let order = self.byte_order;
        let slot = |role: HeaderRole| member(h, role.member_name()).and_then(|m| slot(m, order));
        Header {
            len: encoded_length(h).unwrap_or(0) as usize,
            block_length: slot(HeaderRole::BlockLength),
            template_id: slot(HeaderRole::TemplateId),
            schema_id: slot(HeaderRole::SchemaId),
            version: slot(HeaderRole::Version),
        }
    }

    /// The message header's members, each with its role (`None` for a
    /// member of the schema's own), in member order.
    pub fn header_members(&self) -> Vec<(&Member, Option<HeaderRole>)> {
        match &self.header_type.kind {
            TypeKind::Composite(c) => c.members.iter().map(|m| (m, HeaderRole::of(m))).collect(),
            _ => Vec::new(),
        }
    }

    /// The header member with `role`, if the header has one.
    pub fn header_member(&self, role: HeaderRole) -> Option<&Member> {
        self.header_members()
            .into_iter()
            .find_map(|(m, r)| (r == Some(role)).then_some(m))
    }
}

/// The block length that the `fields` of a block need at acting version
/// `version`: the end of the last field present in that version. A block
/// on the wire shorter than this is refused (when it is read at all).
pub fn block_end(fields: &[Field], version: u32) -> u32 {
    fields
        .iter()
        .filter(|f| f.since_version <= version)
        .map(|f| f.offset.saturating_add(f.encoded_length))
        .max()
        .unwrap_or(0)
}

/// The bytes of a value of `ty` that reads as null in every part, in byte
/// order `order`: what a field of the type reads as in a message older than
/// the field. `None` when a part has no null (a required member, a set).
///
/// ```
/// use sbe_ir::ir::{null_bytes, ByteOrder, TypeKind};
/// let xml = r#"<messageSchema package="demo" id="1"><types>
///   <composite name="messageHeader">
///     <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
///     <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
///   </composite>
///   <composite name="PRICENULL9">
///     <type name="mantissa" primitiveType="int64" presence="optional"/>
///     <type name="exponent" primitiveType="int8" presence="constant">-9</type>
///   </composite>
/// </types></messageSchema>"#;
/// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
/// let price = schema.types.iter().find(|t| t.name == "PRICENULL9").unwrap();
/// let null = i64::MIN.to_le_bytes().to_vec();
/// assert_eq!(null_bytes(price, ByteOrder::Little), Some(null));
/// assert_eq!(null_bytes(&schema.header_type, ByteOrder::Little), None);
/// ```
pub fn null_bytes(ty: &Type, order: ByteOrder) -> Option<Vec<u8>> {
    let int_bytes = |v: i128, size: u32| int_bytes(v, size, order);
    match &ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => Some(Vec::new()),
        TypeKind::Encoded(e) if e.presence == Presence::Optional && !e.var_len => {
            let size = e.primitive.size();
            let one = match e.null() {
                Scalar::Int(v) => int_bytes(v, size),
                Scalar::Float(f) if e.primitive == Primitive::Float => {
                    int_bytes(i128::from((f as f32).to_bits()), size)
                }
                Scalar::Float(f) => int_bytes(i128::from(f.to_bits()), size),
            };
            Some(one.repeat(e.length.max(1) as usize))
        }
        TypeKind::Enum(en) if en.presence == Presence::Optional => {
            Some(int_bytes(en.null_value, en.encoding.size()))
        }
        TypeKind::Composite(c) => {
            let mut out = vec![0u8; encoded_length(ty)? as usize];
            for m in &c.members {
                let part = null_bytes(&m.ty, order)?;
                let at = m.offset as usize;
                out.get_mut(at..at + part.len())?.copy_from_slice(&part);
            }
            Some(out)
        }
        _ => None,
    }
}

/// The bytes of a value of `ty` with effective presence `presence` that
/// an encoder was never given: what a block holds before its setters run
/// (the generated encoders' `wrap` and `next_entry`, the owned types'
/// `Default`, `sbe encode` of a JSON object that leaves the field out).
/// Every part that can be null reads as null: an optional field holds its
/// type's null (an enum's too, and a field made optional whose type is
/// required holds the type's null all the same, as the decoders read it);
/// a composite's optional members hold theirs, whatever the field's
/// presence. Everything else (a required value, a set, a constant) is zeros.
///
/// ```
/// use sbe_ir::ir::{unset_bytes, ByteOrder, Presence};
/// let xml = r#"<messageSchema package="demo" id="1"><types>
///   <composite name="messageHeader">
///     <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
///     <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
///   </composite>
///   <enum name="Flag" encodingType="uint8"><validValue name="No">0</validValue></enum>
///   <composite name="Px">
///     <type name="mantissa" primitiveType="int32" presence="optional"/>
///     <type name="scale" primitiveType="uint8"/>
///   </composite>
/// </types></messageSchema>"#;
/// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
/// let ty = |name: &str| schema.types.iter().find(|t| t.name == name).unwrap();
/// let order = ByteOrder::Little;
/// assert_eq!(unset_bytes(ty("Flag"), Presence::Optional, order), [255]);
/// assert_eq!(unset_bytes(ty("Flag"), Presence::Required, order), [0]);
/// assert_eq!(unset_bytes(ty("Px"), Presence::Required, order), [0, 0, 0, 0x80, 0]);
/// ```
#[must_use]
pub fn unset_bytes(ty: &Type, presence: Presence, order: ByteOrder) -> Vec<u8> {
    let len = field_length(ty, presence) as usize;
    let mut out = vec![0u8; len];
    let optional = presence == Presence::Optional;
    match &ty.kind {
        TypeKind::Encoded(e) if optional && !e.var_len => {
            let null = match e.null() {
                Scalar::Int(v) => int_bytes(v, e.primitive.size(), order),
                Scalar::Float(f) if e.primitive == Primitive::Float => {
                    int_bytes(i128::from((f as f32).to_bits()), 4, order)
                }
                Scalar::Float(f) => int_bytes(i128::from(f.to_bits()), 8, order),
            };
            for (dst, src) in out.iter_mut().zip(null.iter().cycle()) {
                *dst = *src;
            }
        }
        TypeKind::Enum(en) if optional => {
            let null = int_bytes(en.null_value, en.encoding.size(), order);
            for (dst, src) in out.iter_mut().zip(&null) {
                *dst = *src;
            }
        }
        TypeKind::Composite(c) if presence != Presence::Constant => {
            for m in &c.members {
                let member_presence = match &m.ty.kind {
                    TypeKind::Encoded(e) => e.presence,
                    TypeKind::Enum(e) => e.presence,
                    _ => Presence::Required,
                };
                let part = unset_bytes(&m.ty, member_presence, order);
                let at = m.offset as usize;
                if let Some(dst) = out.get_mut(at..at.saturating_add(part.len())) {
                    dst.copy_from_slice(&part);
                }
            }
        }
        _ => {}
    }
    out
}

impl Block {
    /// The block's bytes with no field set ([`unset_bytes`] of each field at
    /// its offset; padding and what no field covers are zeros): what an
    /// encoder starts a message's root block or a group's entry from.
    #[must_use]
    pub fn unset_bytes(&self, order: ByteOrder) -> Vec<u8> {
        let mut out = vec![0u8; self.block_length as usize];
        for f in &self.fields {
            let part = unset_bytes(&f.ty, f.presence, order);
            let at = f.offset as usize;
            if let Some(dst) = out.get_mut(at..at.saturating_add(part.len())) {
                dst.copy_from_slice(&part);
            }
        }
        out
    }

    /// [`unset_bytes`](Self::unset_bytes) as stores over a zeroed block:
    /// each run of non-zero bytes as `(offset, width, value)`s of 8, 4, 2
    /// or 1 bytes, `value` the bytes read as a little-endian integer (so
    /// that a little-endian store writes them back in order, whatever the
    /// schema's byte order). Empty when no field of the block has a null
    /// to write. An encoder zeroes a block and makes these stores of
    /// constants, cheaper than copying a whole block.
    ///
    /// ```
    /// let xml = r#"<messageSchema package="demo" id="1"><types>
    ///   <composite name="messageHeader">
    ///     <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
    ///     <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
    ///   </composite></types>
    ///   <message name="M" id="1">
    ///     <field name="a" id="1" type="uint8"/>
    ///     <field name="b" id="2" type="uint32" presence="optional"/>
    ///     <field name="c" id="3" type="int16" presence="optional"/>
    ///   </message></messageSchema>"#;
    /// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
    /// let block = &schema.messages[0].block;
    /// let order = schema.byte_order;
    /// assert_eq!(block.unset_bytes(order), [0, 255, 255, 255, 255, 0, 128]);
    /// assert_eq!(block.unset_stores(order), [(1, 4, 0xffff_ffff), (6, 1, 0x80)]);
    /// ```
    #[must_use]
    pub fn unset_stores(&self, order: ByteOrder) -> Vec<(usize, usize, u64)> {
        let bytes = self.unset_bytes(order);
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(&byte) = bytes.get(at) {
            if byte == 0 {
                at += 1;
                continue;
            }
            let run = bytes.iter().skip(at).take_while(|x| **x != 0).count();
            let width = [8, 4, 2, 1].into_iter().find(|w| *w <= run).unwrap_or(1);
            let value = bytes
                .iter()
                .skip(at)
                .take(width)
                .rev()
                .fold(0u64, |v, b| v << 8 | u64::from(*b));
            out.push((at, width, value));
            at += width;
        }
        out
    }
}

/// The `size` low bytes of `v` (two's complement) in byte order `order`,
/// written through the slot every writer of the wire uses.
fn int_bytes(v: i128, size: u32, order: ByteOrder) -> Vec<u8> {
    let mut out = vec![0u8; size as usize];
    let slot = Uint::new(size as usize, order == ByteOrder::Big, 0);
    // `out` is the slot's length: the write cannot fail.
    let _ = slot.put(&mut out, v as u64);
    out
}

/// Bytes a type takes on the wire, or `None` when it is variable length
/// (a var data encoding composite).
pub fn encoded_length(ty: &Type) -> Option<u32> {
    match &ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => Some(0),
        TypeKind::Encoded(e) if e.var_len => None,
        TypeKind::Encoded(e) => Some(e.primitive.size().saturating_mul(e.length)),
        TypeKind::Enum(e) => Some(e.encoding.size()),
        TypeKind::Set(s) => Some(s.encoding.size()),
        TypeKind::Composite(c) => {
            let mut end = 0u32;
            for m in &c.members {
                let len = encoded_length(&m.ty)?;
                end = end.max(m.offset.saturating_add(len));
            }
            Some(end)
        }
    }
}

/// Bytes a field of type `ty` with effective `presence` takes in its block.
pub fn field_length(ty: &Type, presence: Presence) -> u32 {
    if presence == Presence::Constant {
        0
    } else {
        encoded_length(ty).unwrap_or(0)
    }
}
