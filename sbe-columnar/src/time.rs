//! The unit of a timestamp column and the conversion into it: one rule
//! for the schema's timestamps and the frame columns (`time`,
//! `sendingTime`), so that every timestamp of a table agrees.

use std::fmt;
use std::str::FromStr;

use std::sync::Arc;

use arrow_array::{
    ArrayRef, Int64Array, TimestampMicrosecondArray, TimestampMillisecondArray,
    TimestampNanosecondArray,
};
use arrow_schema::{DataType, TimeUnit as ArrowUnit};
use sbe_ir::ir::Primitive;
use sbe_rt::TimeUnit;

use crate::node::UTC;

/// The finest unit a timestamp column is written in
/// ([`crate::Options::timestamp_unit`]). A finer unit on the wire is
/// rounded down to it, and the exact wire integer kept in the
/// `<name>_raw` column beside it wherever that loses digits.
///
/// Nanoseconds (the default) keep every wire value; microseconds are what
/// Spark reads with its default settings (it refuses
/// `TIMESTAMP(NANOS)` unless `spark.sql.legacy.parquet.nanosAsLong` is
/// set, and then reads an integer).
///
/// ```
/// use sbe_columnar::TimestampUnit;
/// assert_eq!("us".parse::<TimestampUnit>(), Ok(TimestampUnit::Micros));
/// assert_eq!(TimestampUnit::default().to_string(), "ns");
/// assert!("s".parse::<TimestampUnit>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimestampUnit {
    /// Milliseconds (`ms`).
    Millis,
    /// Microseconds (`us`).
    Micros,
    /// Nanoseconds (`ns`).
    #[default]
    Nanos,
}

impl TimestampUnit {
    fn unit(self) -> TimeUnit {
        match self {
            TimestampUnit::Millis => TimeUnit::Millis,
            TimestampUnit::Micros => TimeUnit::Micros,
            TimestampUnit::Nanos => TimeUnit::Nanos,
        }
    }
}

impl FromStr for TimestampUnit {
    type Err = String;

    /// `ns`, `us` or `ms`.
    fn from_str(s: &str) -> Result<TimestampUnit, String> {
        match s {
            "ns" => Ok(TimestampUnit::Nanos),
            "us" => Ok(TimestampUnit::Micros),
            "ms" => Ok(TimestampUnit::Millis),
            _ => Err(format!("timestamp unit `{s}`: give ns, us or ms")),
        }
    }
}

impl fmt::Display for TimestampUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TimestampUnit::Nanos => "ns",
            TimestampUnit::Micros => "us",
            TimestampUnit::Millis => "ms",
        })
    }
}

/// The column unit of a timestamp whose wire unit is `wire` (`None`: the
/// unit is on the wire, per message): seconds become milliseconds (a
/// Parquet timestamp has no seconds unit: Arrow's is written as plain
/// INT64, which pyarrow, DuckDB and Spark read as an integer, and Polars
/// has no seconds unit at all); otherwise the coarser of `wire` and
/// `finest`.
pub(crate) fn column_unit(wire: Option<TimeUnit>, finest: TimestampUnit) -> TimeUnit {
    let finest = finest.unit();
    match wire {
        Some(TimeUnit::Seconds) => TimeUnit::Millis,
        Some(u) if u.nanos() > finest.nanos() => u,
        _ => finest,
    }
}

/// Arrow's name of `u`.
pub(crate) fn arrow_unit(u: TimeUnit) -> ArrowUnit {
    match u {
        TimeUnit::Seconds => ArrowUnit::Second,
        TimeUnit::Millis => ArrowUnit::Millisecond,
        TimeUnit::Micros => ArrowUnit::Microsecond,
        TimeUnit::Nanos => ArrowUnit::Nanosecond,
    }
}

/// A UTC timestamp column's type in `unit`.
pub(crate) fn timestamp_type(unit: TimeUnit) -> DataType {
    DataType::Timestamp(arrow_unit(unit), Some(UTC.into()))
}

/// A frame's nanoseconds in `unit`, and the nanoseconds again where that
/// is not exact (for its `_raw` column).
pub(crate) fn from_nanos(ns: Option<i64>, unit: TimeUnit) -> (Option<i64>, Option<i64>) {
    match ns {
        None => (None, None),
        Some(ns) => match convert(i128::from(ns), TimeUnit::Nanos, unit) {
            (v, true) => (v, None),
            (v, false) => (v, Some(ns)),
        },
    }
}

/// Frame nanoseconds as a UTC timestamp column in `unit`, and their
/// `_raw` column where `unit` is not nanoseconds.
pub(crate) fn frame_times(ns: &[Option<i64>], unit: TimeUnit) -> (ArrayRef, Option<ArrayRef>) {
    let (vals, raw): (Vec<Option<i64>>, Vec<Option<i64>>) =
        ns.iter().map(|&t| from_nanos(t, unit)).unzip();
    let col: ArrayRef = match unit {
        TimeUnit::Nanos => Arc::new(TimestampNanosecondArray::from(vals).with_timezone(UTC)),
        TimeUnit::Micros => Arc::new(TimestampMicrosecondArray::from(vals).with_timezone(UTC)),
        _ => Arc::new(TimestampMillisecondArray::from(vals).with_timezone(UTC)),
    };
    let raw = (unit != TimeUnit::Nanos).then(|| Arc::new(Int64Array::from(raw)) as ArrayRef);
    (col, raw)
}

/// `v` ticks of `from` as ticks of `to`, rounded down (towards the past,
/// as an instant's coarser tick holds it), and whether that is exact:
/// `None` where it is past `i64`.
#[inline]
pub(crate) fn convert(v: i128, from: TimeUnit, to: TimeUnit) -> (Option<i64>, bool) {
    let (f, t) = (from.nanos(), to.nanos());
    if f == t {
        let x = i64::try_from(v).ok();
        (x, x.is_some())
    } else if f > t {
        let x = v.checked_mul(f / t).and_then(|x| i64::try_from(x).ok());
        (x, x.is_some())
    } else {
        let d = t / f;
        // In 64 bits where the value fits, which every time of the
        // next few centuries does.
        let (q, r) = match (i64::try_from(v), i64::try_from(d)) {
            (Ok(v), Ok(d)) => (i128::from(v.div_euclid(d)), v.rem_euclid(d) == 0),
            _ => (v.div_euclid(d), v.rem_euclid(d) == 0),
        };
        let x = i64::try_from(q).ok();
        (x, x.is_some() && r)
    }
}

/// Whether converting wire integers of `prim` in unit `from` (`None`: on
/// the wire) into `to` can lose digits or range, so that the column
/// needs a `<name>_raw` beside it.
pub(crate) fn can_lose(prim: Primitive, from: Option<TimeUnit>, to: TimeUnit) -> bool {
    let Some(from) = from else {
        return true;
    };
    if prim == Primitive::Uint64 || from.nanos() < to.nanos() {
        return true;
    }
    // A coarser unit multiplied: only a 64-bit count can pass `i64`
    // (2^32 times 10^9 does not).
    from.nanos() > to.nanos() && prim.size() > 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_become_millis_and_the_coarser_unit_wins() {
        use TimestampUnit as T;
        assert_eq!(
            column_unit(Some(TimeUnit::Seconds), T::Nanos),
            TimeUnit::Millis
        );
        assert_eq!(
            column_unit(Some(TimeUnit::Seconds), T::Millis),
            TimeUnit::Millis
        );
        assert_eq!(
            column_unit(Some(TimeUnit::Millis), T::Nanos),
            TimeUnit::Millis
        );
        assert_eq!(
            column_unit(Some(TimeUnit::Nanos), T::Micros),
            TimeUnit::Micros
        );
        assert_eq!(column_unit(None, T::Micros), TimeUnit::Micros);
        assert_eq!(column_unit(None, T::Nanos), TimeUnit::Nanos);
    }

    #[test]
    fn conversions_round_down_and_say_when_they_lose() {
        let (s, ms, us, ns) = (
            TimeUnit::Seconds,
            TimeUnit::Millis,
            TimeUnit::Micros,
            TimeUnit::Nanos,
        );
        assert_eq!(
            convert(2_777_068_799, s, ms),
            (Some(2_777_068_799_000), true)
        );
        assert_eq!(convert(1_500, ns, us), (Some(1), false));
        assert_eq!(convert(2_000, ns, us), (Some(2), true));
        assert_eq!(convert(-1, ns, us), (Some(-1), false));
        assert_eq!(convert(i128::from(u64::MAX), ns, ns), (None, false));
        assert_eq!(convert(i128::from(i64::MAX), s, ms), (None, false));
        assert_eq!(
            convert(i128::from(u64::MAX), ns, ms),
            (Some(18_446_744_073_709), false)
        );
        assert!(!can_lose(Primitive::Uint32, Some(s), ms));
        assert!(can_lose(Primitive::Int64, Some(s), ms));
        assert!(!can_lose(Primitive::Int64, Some(ns), ns));
        assert!(can_lose(Primitive::Int64, Some(ns), us));
        assert!(can_lose(Primitive::Uint64, Some(ms), ms));
        assert!(can_lose(Primitive::Int32, None, ns));
    }
}
