//! The `sbe` command as a library: decode, encode, frame and inspect SBE
//! messages at run time from a schema's IR (see `sbe_build::ir`).
//!
//! ```no_run
//! let schema = sbe_build::ir::load("schemas/car.xml").unwrap();
//! let codec = sbe_cli::otf::Codec::new(&schema).unwrap();
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

pub mod capture;
pub mod framing;
pub mod inspect;
pub mod otf;

/// Several schemas at once: `otf::multi`, also at the crate's top level.
pub use otf::multi;
