//! The `sbe` command as a library: the reading of files, streams and
//! captures (`framing`, `capture`) around the run-time codec, which is
//! the crate `sbe-otf` (re-exported as [`otf`], with its `inspect`).
//!
//! ```no_run
//! let schema = sbe_schema::ir::load("schemas/car.xml").unwrap();
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

/// The run-time codec: the crate `sbe-otf`.
pub use sbe_otf as otf;
/// Annotated hex dumps: `sbe_otf::inspect`, also at the crate's top level.
pub use sbe_otf::inspect;
/// Several schemas at once: `sbe_otf::multi`, also at the crate's top level.
pub use sbe_otf::multi;
