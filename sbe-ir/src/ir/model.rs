//! The IR: a schema with every reference resolved and every offset, length,
//! block length, presence and version computed (by [`super::layout`] and
//! [`super::resolve`], and nowhere else). Codegen, the layout report, the
//! run-time codec and the compatibility check all read this.

use super::Meaning;
use crate::error::Diagnostic;
use crate::parse::Pos;
use std::path::PathBuf;

/// Byte order of every multi-byte value of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteOrder {
    /// `littleEndian` (the default).
    Little,
    /// `bigEndian`.
    Big,
}

/// The SBE primitive types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Primitive {
    Char,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float,
    Double,
}

/// A scalar from the schema: an integer (any primitive but float/double,
/// `char` as its byte code) or a floating point number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// Integer value, wide enough for int64 and uint64.
    Int(i128),
    /// float or double value.
    Float(f64),
}

impl Scalar {
    /// The value as a float (an integer converted): how a float field's
    /// null or limit written as an integer reads.
    #[must_use]
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }
}

/// Presence of a field or type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Always holds a value.
    Required,
    /// May hold the null value.
    Optional,
    /// Not on the wire; the value comes from the schema.
    Constant,
}

/// A constant's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    /// A char or char-array constant.
    Text(String),
    /// A numeric constant.
    Number(Scalar),
    /// A `valueRef` to an enum's valid value.
    EnumValue {
        /// The enum type's name.
        enum_name: String,
        /// The valid value's name.
        value_name: String,
        /// Its wire value.
        value: i128,
    },
}

/// A named or inline type, fully resolved.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Type {
    /// The type's name (for a composite member, the member's name).
    pub name: String,
    /// `description`, if any.
    pub description: Option<String>,
    /// `sinceVersion` of the type (0 by default).
    pub since_version: u32,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// `semanticType`, if any.
    pub semantic_type: Option<String>,
    /// What kind of type, and its layout.
    pub kind: TypeKind,
    /// What its values mean (from its shape and `semanticType`).
    pub meaning: Meaning,
    /// Where it is declared.
    pub pos: Pos,
}

/// The four kinds of SBE type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// `<type>`: a primitive or fixed array of one.
    Encoded(Encoded),
    /// `<enum>`.
    Enum(EnumType),
    /// `<set>`.
    Set(SetType),
    /// `<composite>`.
    Composite(Composite),
}

/// A `<type>`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Encoded {
    /// Primitive of each element.
    pub primitive: Primitive,
    /// Number of elements (1 for a scalar, 0 for var data).
    pub length: u32,
    /// Presence declared on the type.
    pub presence: Presence,
    /// `nullValue` if the schema gives one.
    pub null_value: Option<Scalar>,
    /// `minValue` if the schema gives one.
    pub min_value: Option<Scalar>,
    /// `maxValue` if the schema gives one.
    pub max_value: Option<Scalar>,
    /// `characterEncoding`, if any (char types default to US-ASCII).
    pub character_encoding: Option<String>,
    /// The constant value of a constant type.
    pub const_value: Option<ConstValue>,
    /// `valueRef` on the type, as written (`Enum.Value`).
    pub value_ref: Option<String>,
    /// Variable length: the `varData` of a composite that `<data>` uses.
    pub var_len: bool,
}

impl Encoded {
    /// The null value an optional value of this type holds when absent:
    /// the schema's `nullValue`, else the spec's default for the
    /// primitive (NaN for floats). Whether a value read is that null is
    /// `sbe_rt::null`'s rule, for the generated decoders and `sbe decode`
    /// alike.
    #[must_use]
    pub fn null(&self) -> Scalar {
        self.null_value
            .unwrap_or_else(|| self.primitive.default_null())
    }
}

/// An `<enum>`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EnumType {
    /// Primitive of the encoding (char or an integer type).
    pub encoding: Primitive,
    /// Presence from the encoding type.
    pub presence: Presence,
    /// The null value: the encoding type's `nullValue` or the spec default.
    pub null_value: i128,
    /// The valid values in schema order.
    pub values: Vec<ValidValue>,
}

/// One `<validValue>`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ValidValue {
    /// Name.
    pub name: String,
    /// Wire value (a char's byte code for char enums).
    pub value: i128,
    /// `sinceVersion`.
    pub since_version: u32,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// `description`, if any.
    pub description: Option<String>,
}

/// A `<set>`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SetType {
    /// Primitive of the encoding (an unsigned integer type).
    pub encoding: Primitive,
    /// The choices in schema order.
    pub choices: Vec<Choice>,
}

/// One `<choice>` of a set.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Choice {
    /// Name.
    pub name: String,
    /// Bit position, 0 = least significant.
    pub bit: u32,
    /// `sinceVersion`.
    pub since_version: u32,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// `description`, if any.
    pub description: Option<String>,
}

/// A `<composite>`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Composite {
    /// Members in schema order, with offsets.
    pub members: Vec<Member>,
}

/// A member of a composite.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Member {
    /// Offset from the composite's start.
    pub offset: u32,
    /// The member's type; its `name` is the member's name.
    pub ty: Type,
    /// The named type a `<ref>` points at; `None` for a member declared
    /// in place.
    pub type_name: Option<String>,
}

/// A field of a message or group block.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Field {
    /// Name.
    pub name: String,
    /// `id`.
    pub id: u32,
    /// `description`, if any.
    pub description: Option<String>,
    /// Offset from the start of the block.
    pub offset: u32,
    /// Bytes on the wire (0 for a constant).
    pub encoded_length: u32,
    /// Name of the field's type (a primitive or a named type).
    pub type_name: String,
    /// The resolved type.
    pub ty: Type,
    /// Effective presence (the field's, else the type's).
    pub presence: Presence,
    /// `valueRef`, as written.
    pub value_ref: Option<String>,
    /// The constant value, for constant fields.
    pub const_value: Option<ConstValue>,
    /// Effective sinceVersion: the larger of the field's and its type's.
    pub since_version: u32,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// `semanticType`, if any.
    pub semantic_type: Option<String>,
    /// What its value means: its type's meaning, with the field's own
    /// `semanticType`, `timeUnit` and presence applied.
    pub meaning: Meaning,
    /// Its number among the schema's elements ([`Schema::element_paths`]),
    /// which the generated code's errors name; 0 when past the most an
    /// error can name.
    pub element: u16,
    /// Where it is declared.
    pub pos: Pos,
}

/// The part a message's root and a group's entry share: a block of
/// fields, then the groups and var data after it (its sections, groups
/// first, in schema order).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Block {
    /// The block's fields.
    pub fields: Vec<Field>,
    /// Groups after the block.
    pub groups: Vec<Group>,
    /// Var data after the groups.
    pub data: Vec<Data>,
    /// Bytes of the block in this schema version (its `blockLength`).
    pub block_length: u32,
    /// The schema version from which the block is there: a group's
    /// `sinceVersion`, a message's.
    pub since_version: u32,
}

impl Block {
    /// The block length that the fields need at acting version
    /// `version`: the end of the last field present in that version. A
    /// block on the wire shorter than this is refused (when it is read at
    /// all).
    #[must_use]
    pub fn end_at(&self, version: u32) -> u32 {
        super::wire::block_end(&self.fields, version)
    }

    /// How many groups and var data follow the block.
    #[must_use]
    pub fn sections(&self) -> usize {
        self.groups.len() + self.data.len()
    }
}

/// A repeating group.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Group {
    /// Name.
    pub name: String,
    /// `id`.
    pub id: u32,
    /// `description`, if any.
    pub description: Option<String>,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// The `dimensionType` composite (`blockLength` and `numInGroup`
    /// members); where they are is [`Group::dimension`].
    pub dimension_type: Type,
    /// Each entry: its block (`since_version` is the group's), nested
    /// groups and var data.
    pub block: Block,
    /// Its number among the schema's elements ([`Schema::element_paths`]),
    /// which the generated code's errors name; 0 when past the most an
    /// error can name.
    pub element: u16,
    /// Where it is declared.
    pub pos: Pos,
}

/// A var data field.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Data {
    /// Name.
    pub name: String,
    /// `id`.
    pub id: u32,
    /// `description`, if any.
    pub description: Option<String>,
    /// The encoding composite (`length` and `varData` members); where
    /// they are is [`Data::var_data`].
    pub encoding_type: Type,
    /// Primitive of the length prefix.
    pub length_primitive: Primitive,
    /// Largest length allowed (the length member's maxValue or its type's max).
    pub max_length: u64,
    /// `characterEncoding` of the `varData` member: text when set.
    pub character_encoding: Option<String>,
    /// [`Meaning::Text`] with a character encoding, else
    /// [`Meaning::Plain`] (opaque bytes).
    pub meaning: Meaning,
    /// `sinceVersion`.
    pub since_version: u32,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// Its number among the schema's elements ([`Schema::element_paths`]),
    /// which the generated code's errors name; 0 when past the most an
    /// error can name.
    pub element: u16,
    /// Where it is declared.
    pub pos: Pos,
}

/// A message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Message {
    /// Name.
    pub name: String,
    /// Template id.
    pub id: u32,
    /// `description`, if any.
    pub description: Option<String>,
    /// `deprecated` version, if any.
    pub deprecated: Option<u32>,
    /// `semanticType`, if any.
    pub semantic_type: Option<String>,
    /// The root block (`since_version` is the message's), its groups and
    /// var data.
    pub block: Block,
    /// Its number among the schema's elements ([`Schema::element_paths`]),
    /// which the generated code's errors name; 0 when past the most an
    /// error can name.
    pub element: u16,
    /// Where it is declared.
    pub pos: Pos,
}

/// A whole schema.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Schema {
    /// `package` (may be empty).
    pub package: String,
    /// Schema `id`.
    pub id: u32,
    /// Schema `version`.
    pub version: u32,
    /// `semanticVersion`, if any.
    pub semantic_version: Option<String>,
    /// `description`, if any.
    pub description: Option<String>,
    /// Byte order of the wire.
    pub byte_order: ByteOrder,
    /// The message header composite (its name is the `headerType`);
    /// where its members are is [`Schema::header`].
    pub header_type: Type,
    /// Every named type in document order.
    pub types: Vec<Type>,
    /// Messages in document order.
    pub messages: Vec<Message>,
    /// Warnings found while resolving.
    pub warnings: Vec<Diagnostic>,
    /// Every file read (the schema, then each include part).
    pub files: Vec<PathBuf>,
}
