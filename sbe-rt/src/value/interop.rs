//! Conversions between the value types and other crates' types, each
//! behind its feature: `std` (`SystemTime`), `rust_decimal`, `chrono`,
//! `time`.

#[cfg(feature = "chrono")]
#[path = "interop/chrono.rs"]
mod chrono;
#[cfg(feature = "rust_decimal")]
#[path = "interop/rust_decimal.rs"]
mod rust_decimal;
#[cfg(feature = "std")]
#[path = "interop/system_time.rs"]
mod system_time;
#[cfg(feature = "time")]
#[path = "interop/time.rs"]
mod time;
