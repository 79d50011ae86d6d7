//! The intermediate representation: a schema resolved, validated and laid
//! out once (by the private resolver passes), as a model ([`Schema`] and
//! what it holds), its wire facts (where header, dimension and var-data
//! members are, block ends per version, nulls) and its primitives. The
//! backends read it: codegen, the layout report ([`crate::report`]), the
//! compatibility check ([`crate::compat`]) and the `sbe` command's
//! run-time codec.
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
//!     <field name="flags" id="2" type="uint8" offset="12"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
//! let ping = &schema.messages[0].block;
//! assert_eq!(ping.fields[1].offset, 12);
//! assert_eq!(ping.block_length, 13);
//! ```

pub(crate) mod element;
mod meaning;
mod model;
mod primitive;
mod wire;

use std::path::Path;

pub use crate::resolve::is_identifier;
pub use element::HEADER_ELEMENT;
pub use meaning::*;
pub use model::*;
pub use wire::{
    block_end, encoded_length, field_length, null_bytes, unset_bytes, Header, HeaderRole,
};

use crate::error::Error;
use crate::parse;
pub use crate::parse::IncludePolicy;

/// Parse, resolve and lay out the schema at `path` (with its includes,
/// which must stay in its folder: see [`IncludePolicy`]).
pub fn load(path: impl AsRef<Path>) -> Result<Schema, Error> {
    load_with(path, IncludePolicy::default())
}

/// Like [`load`], with includes allowed where `policy` says.
pub fn load_with(path: impl AsRef<Path>, policy: IncludePolicy) -> Result<Schema, Error> {
    let doc = parse::parse_file(path.as_ref(), policy)?;
    crate::resolve::resolve(&doc, &DeclaredMeanings::new()).map_err(Error::Schema)
}

/// How a schema loads: where includes may come from, and what types mean
/// where the schema does not say ([`DeclaredMeanings`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Where `xi:include` may read from.
    pub includes: IncludePolicy,
    /// Meanings the user declares for types the schema leaves plain.
    pub meanings: DeclaredMeanings,
}

impl LoadOptions {
    /// The defaults: includes in the schema's folder, nothing declared.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// With includes allowed as `policy` says.
    #[must_use]
    pub fn includes(mut self, policy: IncludePolicy) -> Self {
        self.includes = policy;
        self
    }

    /// With `meanings` declared.
    #[must_use]
    pub fn meanings(mut self, meanings: DeclaredMeanings) -> Self {
        self.meanings = meanings;
        self
    }
}

/// Like [`load`], as `options` say.
pub fn load_with_options(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Schema, Error> {
    let doc = parse::parse_file(path.as_ref(), options.includes)?;
    crate::resolve::resolve(&doc, &options.meanings).map_err(Error::Schema)
}

/// Like [`load_str`], as `options` say.
pub fn load_str_with_options(
    path: impl AsRef<Path>,
    xml: &str,
    options: &LoadOptions,
) -> Result<Schema, Error> {
    let doc = parse::parse_str(path.as_ref(), xml, options.includes)?;
    crate::resolve::resolve(&doc, &options.meanings).map_err(Error::Schema)
}

/// Like [`load`], from a schema held in memory (`path` names it in
/// diagnostics and anchors relative includes).
pub fn load_str(path: impl AsRef<Path>, xml: &str) -> Result<Schema, Error> {
    let doc = parse::parse_str(path.as_ref(), xml, IncludePolicy::default())?;
    crate::resolve::resolve(&doc, &DeclaredMeanings::new()).map_err(Error::Schema)
}
