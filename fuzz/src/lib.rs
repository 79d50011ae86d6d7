//! What the fuzz targets share: the generated decoders of every schema
//! compiled in, the schemas' IR and run-time codecs, and the verdict of
//! each decoder as one comparable value.

use std::sync::OnceLock;

/// A schema compiled in: its generated `decode` (JSON and `Debug` of the
/// message) and `message_length`, and where its XML is.
pub struct Schema {
    /// Module name.
    pub name: &'static str,
    /// The schema file.
    pub xml: &'static str,
    /// The generated module's `decode`, then `to_json` and `Debug`.
    pub decode: fn(&[u8]) -> Result<(String, String), sbe_rt::Error>,
    /// The generated `message_length`.
    pub message_length: fn(&[u8]) -> Result<usize, sbe_rt::Error>,
}

include!(concat!(env!("OUT_DIR"), "/schemas.rs"));
include!(concat!(env!("OUT_DIR"), "/drivers.rs"));

/// The schema a target picks with its first byte.
pub fn pick(selector: u8) -> &'static Schema {
    &SCHEMAS[usize::from(selector) % SCHEMAS.len()]
}

/// The IR of every schema, loaded once.
pub fn irs() -> &'static [sbe_ir::ir::Schema] {
    static IRS: OnceLock<Vec<sbe_ir::ir::Schema>> = OnceLock::new();
    IRS.get_or_init(|| {
        SCHEMAS
            .iter()
            .map(|s| sbe_ir::ir::load(s.xml).expect("schema loads"))
            .collect()
    })
}

/// The IR of `schema`.
pub fn ir_of(schema: &Schema) -> &'static sbe_ir::ir::Schema {
    let i = SCHEMAS
        .iter()
        .position(|s| s.name == schema.name)
        .expect("listed");
    &irs()[i]
}
