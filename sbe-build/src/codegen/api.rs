//! The Rust names of the generated API, as the generator gives them out
//! (the same claims, in the same order, as the code it writes): for tools
//! that write code driving generated code, such as the fuzz and property
//! drivers, which must not guess a name the clash rules changed.
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
//!     <field name="header" id="1" type="uint64"/>
//!     <field name="Header" id="2" type="uint8"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
//! let api = sbe_build::codegen::api::names(&schema);
//! let ping = &api.messages[0];
//! assert_eq!((ping.decoder.as_str(), ping.encoder.as_str()), ("PingDecoder", "PingEncoder"));
//! assert_eq!(ping.block.fields[0].name, "header2");
//! assert_eq!(ping.block.fields[1].name, "header3");
//! ```

use super::blocks::{self, NamedBlock};
use super::names;
use super::{types, Ctx, Options};
use crate::ir::{Schema, Type, TypeKind};

/// The names of a schema's generated API.
#[derive(Debug, Clone)]
pub struct Api {
    /// Per message, in schema order.
    pub messages: Vec<MessageNames>,
    /// Every enum, set and composite with a Rust type, in generation order.
    pub types: Vec<TypeNames>,
}

/// A message's types and its root block's methods.
#[derive(Debug, Clone)]
pub struct MessageNames {
    /// `XDecoder`.
    pub decoder: String,
    /// `XEncoder`.
    pub encoder: String,
    /// The methods of the root block's decoder and encoder.
    pub block: BlockNames,
}

/// The methods of a root block or group entry, the same on its decoder and
/// its encoder, in schema order.
#[derive(Debug, Clone)]
pub struct BlockNames {
    /// Per field (constants included): accessor and setter.
    pub fields: Vec<Accessor>,
    /// Per group.
    pub groups: Vec<GroupNames>,
    /// Per var data: accessor and writer.
    pub data: Vec<Accessor>,
}

/// An accessor (and setter) name, with its `_str` twin where there is one.
/// Keywords are escaped as they are in the code (`r#type`, `self_`).
#[derive(Debug, Clone)]
pub struct Accessor {
    /// The accessor.
    pub name: String,
    /// The `_str` accessor of a char array or text var data.
    pub text: Option<String>,
    /// The `_value` accessor (and setter) of an integer timestamp or date
    /// field, its typed value.
    pub value: Option<String>,
}

/// A group: its accessor (the group starter on an encoder) and its types.
#[derive(Debug, Clone)]
pub struct GroupNames {
    /// The decoder's iterator accessor and the encoder's starter.
    pub accessor: String,
    /// The iterator over its entries (`…Decoder`).
    pub iter: String,
    /// One entry's decoder (`…Entry`).
    pub entry: String,
    /// The group's encoder (`…Encoder`).
    pub encoder: String,
    /// The methods of an entry.
    pub block: BlockNames,
}

/// An enum, set or composite type.
#[derive(Debug, Clone)]
pub struct TypeNames {
    /// The schema name the type is registered under (a field's type name,
    /// or a composite member's `<ref>` or own name).
    pub key: String,
    /// The type.
    pub ty: Type,
    /// The Rust type (for a composite, the stem of `XDecoder`, `XEncoder`).
    pub rust: String,
    /// A composite's members: accessor and setter names, in schema order
    /// (empty for enums and sets).
    pub members: Vec<Accessor>,
}

impl Api {
    /// The Rust type of the enum, set or composite `ty` known as `key` (a
    /// field's `type_name`, a member's `type_name` or else its name).
    pub fn type_of(&self, key: &str, ty: &Type) -> Option<&TypeNames> {
        self.types
            .iter()
            .find(|t| t.key == key && t.ty.kind == ty.kind)
    }
}

/// The names of everything generated for `schema`.
pub fn names(schema: &Schema) -> Api {
    let opts = Options::default();
    let mut ctx = Ctx::new(schema, &opts);
    let types = ctx
        .types
        .iter()
        .map(|e| TypeNames {
            key: e.key.clone(),
            ty: e.ty.clone(),
            rust: e.ident.to_string(),
            members: match &e.ty.kind {
                TypeKind::Composite(c) => types::members(&ctx, c)
                    .into_iter()
                    .map(|m| Accessor {
                        name: m.name.to_string(),
                        text: m.text_name.map(|t| t.to_string()),
                        value: None,
                    })
                    .collect(),
                _ => Vec::new(),
            },
        })
        .collect();
    let mut messages = Vec::new();
    for m in &schema.messages {
        let stem = ctx.claim_family(&names::camel(&m.name), &["Decoder", "Encoder"]);
        let block = NamedBlock::message(m);
        messages.push(MessageNames {
            decoder: format!("{stem}Decoder"),
            encoder: format!("{stem}Encoder"),
            block: block_names(&mut ctx, &block, &stem),
        });
    }
    Api { messages, types }
}

/// The names of block `b` of the message or group whose stem is `stem`,
/// its groups claimed as `blocks::all` claims them (each group, then its
/// nested groups, then the next group).
fn block_names(ctx: &mut Ctx, b: &NamedBlock, stem: &str) -> BlockNames {
    let accessor = |a: &blocks::Accessor| Accessor {
        name: a.name.to_string(),
        text: a.text.as_ref().map(ToString::to_string),
        value: a.value.as_ref().map(ToString::to_string),
    };
    let mut groups = Vec::new();
    for (g, name) in b.groups.iter().zip(&b.names.groups) {
        let group_stem = blocks::claim_group(ctx, stem, g);
        let entry = NamedBlock::group(g);
        groups.push(GroupNames {
            accessor: name.to_string(),
            iter: format!("{group_stem}Decoder"),
            entry: format!("{group_stem}Entry"),
            encoder: format!("{group_stem}Encoder"),
            block: block_names(ctx, &entry, &group_stem),
        });
    }
    BlockNames {
        fields: b.names.fields.iter().map(accessor).collect(),
        groups,
        data: b.names.data.iter().map(accessor).collect(),
    }
}
