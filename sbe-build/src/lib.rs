//! Generate Rust decoders and encoders for SBE (Simple Binary Encoding)
//! schemas from a `build.rs`, the way `prost-build` does for protobuf.
//!
//! The flow is parse ([`schema`]) → resolve and lay out ([`ir`]) → generate
//! code ([`codegen`]). Every offset and length is computed once, in the IR.
//!
//! ```no_run
//! // in build.rs's main:
//! sbe_build::compile("schemas/car.xml").unwrap();
//! ```
#![deny(missing_docs)]

pub mod codegen;
pub mod compat;
mod config;
pub mod error;
pub mod ir;
pub mod schema;

pub use config::{compile, file_stem, generate, write_if_changed, Config};
pub use error::{Diagnostic, Error, Severity};
