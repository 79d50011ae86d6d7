//! Wire facts that every backend needs and that follow from the resolved
//! model: where the header's, a dimension's and a var-data prefix's
//! integer members are, their maxima, and how long a block must be for an
//! acting version. Codegen and the run-time codec read them here instead
//! of looking members up by name themselves.
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
//! let schema = sbe_build::ir::load_str("demo.xml", xml).unwrap();
//! let ping = &schema.messages[0];
//! let dim = ping.groups[0].dimension_layout();
//! assert_eq!((dim.encoded_length, dim.max_count), (4, 100));
//! let note = ping.data[0].layout();
//! assert_eq!((note.data_offset, note.max_length), (1, 20));
//! assert_eq!(sbe_build::ir::block_end(&ping.fields, 0), 8);
//! assert_eq!(schema.header_layout().encoded_length, 8);
//! use sbe_build::ir::HeaderRole;
//! let version = schema.header_member(HeaderRole::Version).unwrap();
//! assert_eq!((version.ty.name.as_str(), version.offset), ("version", 6));
//! assert!(schema.header_member(HeaderRole::NumGroups).is_none());
//! ```

use super::layout::encoded_length;
use super::model::*;

/// Where an integer member of a composite (header, dimension, var-data
/// prefix) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntSlot {
    /// On the wire at `offset` from the composite's start.
    Wire {
        /// Offset from the composite's start.
        offset: u32,
        /// Its primitive (an integer type, or char).
        primitive: Primitive,
    },
    /// A constant member: not on the wire, its value from the schema.
    Constant(i128),
}

impl IntSlot {
    /// The slot of the member named `name` of composite `ty`, if it is a
    /// single integer (or a constant integer).
    fn find(ty: &Type, name: &str) -> Option<IntSlot> {
        let TypeKind::Composite(c) = &ty.kind else {
            return None;
        };
        let m = c.members.iter().find(|m| m.ty.name == name)?;
        let TypeKind::Encoded(e) = &m.ty.kind else {
            return None;
        };
        if e.presence == Presence::Constant {
            return match &e.const_value {
                Some(ConstValue::Number(Scalar::Int(v))) => Some(IntSlot::Constant(*v)),
                _ => None,
            };
        }
        (e.length == 1 && !e.primitive.is_float()).then_some(IntSlot::Wire {
            offset: m.offset,
            primitive: e.primitive,
        })
    }

    /// The member's largest value: its `maxValue`, else its primitive's
    /// largest (a constant's own value).
    fn max_in(ty: &Type, name: &str) -> u64 {
        let member = match &ty.kind {
            TypeKind::Composite(c) => c.members.iter().find(|m| m.ty.name == name),
            _ => None,
        };
        let max = match member.map(|m| &m.ty.kind) {
            Some(TypeKind::Encoded(e)) => match (&e.max_value, &e.const_value) {
                (_, Some(ConstValue::Number(Scalar::Int(v)))) => *v,
                (Some(Scalar::Int(m)), _) => *m,
                _ => e.primitive.int_range().1,
            },
            _ => 0,
        };
        u64::try_from(max.max(0)).unwrap_or(u64::MAX)
    }
}

/// The layout of a group's dimension composite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DimensionLayout {
    /// Bytes of the dimension.
    pub encoded_length: u32,
    /// The `blockLength` member (validation guarantees it is there).
    pub block_length: Option<IntSlot>,
    /// The `numInGroup` member (validation guarantees it is there).
    pub num_in_group: Option<IntSlot>,
    /// The largest count a decoder accepts and an encoder writes:
    /// `numInGroup`'s `maxValue`, else its primitive's largest.
    pub max_count: u64,
}

impl Group {
    /// Where this group's dimension keeps its block length and count.
    pub fn dimension_layout(&self) -> DimensionLayout {
        let dim = &self.dimension;
        DimensionLayout {
            encoded_length: encoded_length(dim).unwrap_or(0),
            block_length: IntSlot::find(dim, "blockLength"),
            num_in_group: IntSlot::find(dim, "numInGroup"),
            max_count: IntSlot::max_in(dim, "numInGroup"),
        }
    }

    /// Whether the entries are blocks only (no nested groups, no var
    /// data): a decoder can then check the whole span of entries when the
    /// group is opened.
    pub fn entries_are_blocks(&self) -> bool {
        self.groups.is_empty() && self.data.is_empty()
    }

    /// The bytes of this group with no entries, as an encoder writes a
    /// group it was not given: the dimension with its block length (where
    /// that is on the wire) and a count of 0.
    pub fn empty_bytes(&self, order: ByteOrder) -> Vec<u8> {
        let layout = self.dimension_layout();
        let mut out = vec![0u8; layout.encoded_length as usize];
        if let Some(IntSlot::Wire { offset, primitive }) = layout.block_length {
            let value = int_bytes(i128::from(self.block_length), primitive.size(), order);
            let at = offset as usize;
            if let Some(dst) = out.get_mut(at..at + value.len()) {
                dst.copy_from_slice(&value);
            }
        }
        out
    }
}

impl Data {
    /// The bytes of this var data when empty, as an encoder writes one it
    /// was not given: a length of 0 (and whatever lies before the data).
    pub fn empty_bytes(&self) -> Vec<u8> {
        vec![0u8; self.layout().data_offset as usize]
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
            .groups
            .iter()
            .filter(|g| g.since_version <= version)
            .map(|g| g.dimension_layout().encoded_length);
        let data = self
            .data
            .iter()
            .filter(|d| d.since_version <= version)
            .map(|d| d.layout().data_offset);
        groups.chain(data).fold(0, u32::saturating_add)
    }

    /// The versions above this group's own `sinceVersion` at which
    /// [`Group::entry_tail`] grows, ascending.
    pub fn entry_tail_versions(&self) -> Vec<u32> {
        let mut versions: Vec<u32> = self
            .groups
            .iter()
            .map(|g| g.since_version)
            .chain(self.data.iter().map(|d| d.since_version))
            .filter(|&v| v > self.since_version)
            .collect();
        versions.sort_unstable();
        versions.dedup();
        versions
    }
}

/// The layout of a var data field's encoding composite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarDataLayout {
    /// Offset of the length member from the start of the field.
    pub length_offset: u32,
    /// Primitive of the length member.
    pub length_primitive: Primitive,
    /// Offset of the first data byte from the start of the field: the
    /// `varData` member's offset, at least just after the length.
    pub data_offset: u32,
    /// The largest length a decoder accepts and an encoder writes.
    pub max_length: u64,
}

impl Data {
    /// Where this var data's length prefix and bytes are.
    pub fn layout(&self) -> VarDataLayout {
        let size = self.length_primitive.size();
        let offset_of = |name: &str| match &self.ty.kind {
            TypeKind::Composite(c) => c
                .members
                .iter()
                .find(|m| m.ty.name == name)
                .map(|m| m.offset),
            _ => None,
        };
        let length_offset = offset_of("length").unwrap_or(0);
        let after_length = length_offset.saturating_add(size);
        VarDataLayout {
            length_offset,
            length_primitive: self.length_primitive,
            data_offset: offset_of("varData").unwrap_or(size).max(after_length),
            max_length: self.max_length,
        }
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

/// The roles of the message header's members.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeaderLayout {
    /// Bytes of the header.
    pub encoded_length: u32,
    /// `blockLength` of the root block.
    pub block_length: Option<IntSlot>,
    /// `templateId`: which message follows.
    pub template_id: Option<IntSlot>,
    /// `schemaId`: checked against the schema's id when on the wire.
    pub schema_id: Option<IntSlot>,
    /// `version`: the acting version.
    pub version: Option<IntSlot>,
}

impl Schema {
    /// Where the message header keeps its four roles.
    pub fn header_layout(&self) -> HeaderLayout {
        let h = &self.header;
        let slot = |role: HeaderRole| IntSlot::find(h, role.member_name());
        HeaderLayout {
            encoded_length: encoded_length(h).unwrap_or(0),
            block_length: slot(HeaderRole::BlockLength),
            template_id: slot(HeaderRole::TemplateId),
            schema_id: slot(HeaderRole::SchemaId),
            version: slot(HeaderRole::Version),
        }
    }

    /// The message header's members, each with its role (`None` for a
    /// member of the schema's own), in member order.
    pub fn header_members(&self) -> Vec<(&Member, Option<HeaderRole>)> {
        match &self.header.kind {
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
/// use sbe_build::ir::{null_bytes, ByteOrder, TypeKind};
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
/// let schema = sbe_build::ir::load_str("demo.xml", xml).unwrap();
/// let price = schema.types.iter().find(|t| t.name == "PRICENULL9").unwrap();
/// let null = i64::MIN.to_le_bytes().to_vec();
/// assert_eq!(null_bytes(price, ByteOrder::Little), Some(null));
/// assert_eq!(null_bytes(&schema.header, ByteOrder::Little), None);
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

/// The `size` low bytes of `v` (two's complement) in byte order `order`.
fn int_bytes(v: i128, size: u32, order: ByteOrder) -> Vec<u8> {
    let le = (v as u128).to_le_bytes();
    let mut out: Vec<u8> = le.iter().take(size as usize).copied().collect();
    if order == ByteOrder::Big {
        out.reverse();
    }
    out
}
