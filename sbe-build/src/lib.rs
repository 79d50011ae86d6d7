//! Generate Rust decoders and encoders for SBE (Simple Binary Encoding)
//! schemas from a `build.rs`, the way `prost-build` does for protobuf.
//!
//! The flow is parse ([`schema`]) → resolve and lay out ([`ir`]) → generate
//! code. Every offset and length is computed once, in the IR.
#![deny(missing_docs)]

pub mod compat;
pub mod error;
pub mod ir;
pub mod schema;

pub use error::{Diagnostic, Error, Severity};
