//! Value types for what SBE fields mean: exact decimals, timestamps, dates
//! and FIX `MonthYear`s, with text forms (`Display` / `FromStr`) and
//! checked conversions to and from what the wire carries.
//!
//! * [`Decimal`]: `mantissa * 10^exponent`, any wire mantissa type without
//!   loss, compared by value, printed exactly (`123.45`);
//! * [`Fixed`]: a decimal at an exponent its type fixes (the schema's
//!   constant), held as the wire's mantissa, exact by construction;
//! * [`Timestamp`] and [`TimeUnit`]: nanoseconds since the Unix epoch, from
//!   and to a count of the SBE time composite's unit, printed as RFC 3339
//!   (`2024-01-02T03:04:05.123456789Z`);
//! * [`ZonedTimestamp`]: a local time and its offset from UTC
//!   (`TZTimestamp`), printed as RFC 3339 with the offset;
//! * [`Date`]: days since the Unix epoch (`LocalMktDate`, `UTCDateOnly`),
//!   printed as ISO 8601 (`2024-01-02`);
//! * [`MonthYear`]: the `MonthYear` composite, each member nullable,
//!   printed as FIX does (`202406`, `20240615`, `202406w3`).
//!
//! None of them allocates or panics on any input; what does not fit is a
//! [`RangeError`], what does not parse a [`ParseError`]. With features
//! `rust_decimal`, `chrono` and `time` they convert to and from those
//! crates' types; with `std`, [`Timestamp`] to and from
//! `std::time::SystemTime`.

mod civil;
mod date;
mod decimal;
mod decimal_str;
mod error;
mod fixed;
mod interop;
mod month_year;
mod scan;
pub(crate) mod stack_str;
mod time_unit;
mod timestamp;
mod timestamp_str;
mod wire;
mod zoned;

pub use date::Date;
pub use decimal::Decimal;
pub use error::{ParseError, RangeError};
pub use fixed::{Fixed, Mantissa};
pub use month_year::MonthYear;
pub use time_unit::TimeUnit;
pub use timestamp::Timestamp;
pub use zoned::ZonedTimestamp;
