//! A page's values out of the Arrow leaf, as the physical type stores
//! them: the conversions the `parquet` crate's Arrow writer makes (small
//! and unsigned integers widened or reinterpreted into INT32/INT64,
//! decimals truncated into them), the enum dictionaries, and the running
//! min and max of a chunk.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Decimal128Type, Int16Type, Int32Type, Int64Type, Int8Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, DictionaryArray, StringArray};
use arrow_schema::{DataType, TimeUnit};
use parquet::errors::ParquetError;

use super::delta;
use super::rle::bits_for;

fn wrong(what: &str) -> ParquetError {
    ParquetError::General(format!("leaf values: {what}"))
}

/// The indices `idx` as one range, where they are one after another
/// (mostly: the values are all there).
fn run_of(idx: &[usize]) -> Option<std::ops::RangeInclusive<usize>> {
    let (&first, &last) = (idx.first()?, idx.last()?);
    (last.checked_sub(first)? + 1 == idx.len()).then_some(first..=last)
}

/// Appends the values at `idx` of the primitive array `a`, converted.
fn gather<T: ArrowPrimitiveType, O>(
    a: &dyn Array,
    idx: &[usize],
    f: impl Fn(T::Native) -> O,
    out: &mut Vec<O>,
) -> Result<(), ParquetError> {
    let p = a.as_primitive_opt::<T>().ok_or_else(|| wrong("type"))?;
    let vals = p.values();
    out.reserve(idx.len());
    if let Some(run) = run_of(idx) {
        let run = vals.get(run).ok_or_else(|| wrong("index"))?;
        out.extend(run.iter().map(|&x| f(x)));
        return Ok(());
    }
    for &i in idx {
        out.push(f(*vals.get(i).ok_or_else(|| wrong("index"))?));
    }
    Ok(())
}

/// The INT32 values at `idx` of `leaf`, DELTA_BINARY_PACKED into `body`.
pub(crate) fn int32(
    leaf: &ArrayRef,
    idx: &[usize],
    body: &mut Vec<u8>,
    m: &mut MinMax,
) -> Result<(), ParquetError> {
    let a = leaf.as_ref();
    let mut v: Vec<i32> = Vec::new();
    match leaf.data_type() {
        DataType::Int8 => gather::<Int8Type, _>(a, idx, i32::from, &mut v)?,
        DataType::Int16 => gather::<Int16Type, _>(a, idx, i32::from, &mut v)?,
        DataType::Int32 => gather::<Int32Type, _>(a, idx, |x| x, &mut v)?,
        DataType::UInt8 => gather::<UInt8Type, _>(a, idx, i32::from, &mut v)?,
        DataType::UInt16 => gather::<UInt16Type, _>(a, idx, i32::from, &mut v)?,
        // Reinterpreted: the column's logical type says unsigned.
        DataType::UInt32 => gather::<UInt32Type, _>(a, idx, |x| x as i32, &mut v)?,
        DataType::Date32 => gather::<Date32Type, _>(a, idx, |x| x, &mut v)?,
        DataType::Time32(TimeUnit::Second) => gather::<Time32SecondType, _>(a, idx, |x| x, &mut v)?,
        DataType::Time32(TimeUnit::Millisecond) => {
            gather::<Time32MillisecondType, _>(a, idx, |x| x, &mut v)?
        }
        DataType::Decimal128(..) => gather::<Decimal128Type, _>(a, idx, |x| x as i32, &mut v)?,
        _ => return Err(wrong("not INT32")),
    }
    pack(&v, |x| x as u32, body, m);
    Ok(())
}

/// The INT64 values at `idx` of `leaf`, DELTA_BINARY_PACKED into `body`.
pub(crate) fn int64(
    leaf: &ArrayRef,
    idx: &[usize],
    body: &mut Vec<u8>,
    m: &mut MinMax,
) -> Result<(), ParquetError> {
    let a = leaf.as_ref();
    let mut v: Vec<i64> = Vec::new();
    let same = |x: i64| x;
    match leaf.data_type() {
        DataType::Int64 => gather::<Int64Type, _>(a, idx, same, &mut v)?,
        DataType::UInt64 => gather::<UInt64Type, _>(a, idx, |x| x as i64, &mut v)?,
        DataType::Timestamp(TimeUnit::Second, _) => {
            gather::<TimestampSecondType, _>(a, idx, same, &mut v)?
        }
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            gather::<TimestampMillisecondType, _>(a, idx, same, &mut v)?
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            gather::<TimestampMicrosecondType, _>(a, idx, same, &mut v)?
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            gather::<TimestampNanosecondType, _>(a, idx, same, &mut v)?
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            gather::<Time64MicrosecondType, _>(a, idx, same, &mut v)?
        }
        DataType::Time64(TimeUnit::Nanosecond) => {
            gather::<Time64NanosecondType, _>(a, idx, same, &mut v)?
        }
        DataType::Decimal128(..) => gather::<Decimal128Type, _>(a, idx, |x| x as i64, &mut v)?,
        _ => return Err(wrong("not INT64")),
    }
    pack(&v, |x| x as u64, body, m);
    Ok(())
}

/// The decimals at `idx` of `leaf` as FIXED_LEN_BYTE_ARRAY of `len`
/// bytes (each value's low bytes, big-endian) into `body`, their min and
/// max into `m`: DELTA_BYTE_ARRAY when `prefixed` (how many leading
/// bytes each shares with the value before, the first with none, then
/// the rest of each as DELTA_LENGTH_BYTE_ARRAY: their lengths, then the
/// bytes), else PLAIN.
pub(crate) fn decimal(
    leaf: &ArrayRef,
    idx: &[usize],
    (len, prefixed): (usize, bool),
    body: &mut Vec<u8>,
    m: &mut MinMax,
) -> Result<(), ParquetError> {
    if !(1..=16).contains(&len) {
        return Err(wrong("decimal length"));
    }
    let bits = 8 * len as u32;
    let mut values: Vec<i128> = Vec::new();
    gather::<Decimal128Type, _>(leaf.as_ref(), idx, |x| x, &mut values)?;
    if m.wanted {
        let (lo, hi) = min_max(values.iter().copied());
        m.page(lo, hi);
    }
    // The value's low `len` bytes (those past them are its sign).
    let window = u128::MAX >> (128 - bits);
    let xs: Vec<u128> = values.iter().map(|&x| x as u128 & window).collect();
    if !prefixed {
        body.reserve(xs.len() * len);
        for x in &xs {
            let be = x.to_be_bytes();
            body.extend_from_slice(be.get(16 - len..).unwrap_or_default());
        }
        return Ok(());
    }
    // The leading bytes each shares with the one before: none for the
    // first, compared with its own complement. In a pass of its own, so
    // that each loop keeps its values in registers.
    let mut before = xs.first().map_or(0, |&x| !x & window);
    let shared: Vec<i32> = (xs.iter())
        .map(|&x| {
            let common = ((before ^ x).leading_zeros() - (128 - bits)) / 8;
            before = x;
            common as i32
        })
        .collect();
    let rest: Vec<i32> = shared.iter().map(|&c| len as i32 - c).collect();
    super::delta::encode(body, &shared);
    super::delta::encode(body, &rest);
    // Each value's bytes past the shared ones go at the front of a
    // 16-byte copy, cut back to them (the next value's copy goes over
    // the rest): no pass to zero the bytes first.
    body.reserve(xs.len() * len + 16);
    for (&x, &common) in xs.iter().zip(&shared) {
        let own = len as u32 - common as u32;
        let front = x.checked_shl(128 - 8 * own).unwrap_or(0);
        body.extend_from_slice(&front.to_be_bytes());
        body.truncate(body.len() - 16 + own as usize);
    }
    Ok(())
}

/// The keys at `idx` of the dictionary array `leaf`, moved by `base`
/// (where its dictionary starts in the chunk's).
pub(crate) fn keys(leaf: &ArrayRef, idx: &[usize], base: u32) -> Result<Vec<u32>, ParquetError> {
    let d = leaf
        .as_any()
        .downcast_ref::<DictionaryArray<UInt16Type>>()
        .ok_or_else(|| wrong("not a u16 dictionary"))?;
    let keys = d.keys().values();
    // Arrow checks keys when a dictionary array is made, but not when it
    // is made unchecked: a key past the dictionary would be read as
    // another entry's, so look.
    let len = d.values().len();
    let mut out = Vec::with_capacity(idx.len());
    // Checked and moved a run at a time where they are one (the loops
    // vectorise).
    if let Some(run) = run_of(idx) {
        let run = keys.get(run).ok_or_else(|| wrong("index"))?;
        if run.iter().max().is_some_and(|&k| usize::from(k) >= len) {
            return Err(wrong("key past the dictionary"));
        }
        out.extend(run.iter().map(|&k| u32::from(k) + base));
        return Ok(out);
    }
    for &i in idx {
        match keys.get(i) {
            Some(&k) if usize::from(k) < len => out.push(u32::from(k) + base),
            _ => return Err(wrong("key past the dictionary")),
        }
    }
    Ok(out)
}

/// The dictionary of `leaf` when it is one the chunk can hold as its own:
/// text with no nulls.
fn dictionary_of(leaf: &ArrayRef) -> Option<&StringArray> {
    let d = leaf
        .as_any()
        .downcast_ref::<DictionaryArray<UInt16Type>>()?;
    let v = d.values().as_string_opt::<i32>()?;
    (v.null_count() == 0).then_some(v)
}

/// Whether every batch's dictionary is text with no nulls (a null entry
/// would make its keys null, which the crate's writer handles).
pub(crate) fn dictionaries_plain(leaves: &[&ArrayRef]) -> bool {
    leaves.iter().all(|l| dictionary_of(l).is_some())
}

/// A chunk's dictionary: the batches' Arrow dictionaries one after the
/// other (each once), so that keys only move by where theirs starts.
pub(crate) struct Dictionary {
    distinct: Vec<StringArray>,
    /// Where each batch's dictionary starts.
    pub bases: Vec<u32>,
    /// Entries.
    pub len: usize,
    /// The bits of a key.
    pub width: u8,
}

impl Dictionary {
    /// The dictionary of the batches' `leaves`; `None` when it has more
    /// entries than a u16 key reaches (batches of other dictionaries in
    /// one row group), which a reader into `Dictionary(UInt16, _)`
    /// refuses: the crate's writer, which keeps each name once, takes it.
    pub(crate) fn of(leaves: &[&ArrayRef]) -> Result<Option<Dictionary>, ParquetError> {
        let mut distinct: Vec<StringArray> = Vec::new();
        let mut starts: Vec<u32> = Vec::new();
        let mut bases = Vec::with_capacity(leaves.len());
        let mut len = 0usize;
        for leaf in leaves {
            let v = dictionary_of(leaf).ok_or_else(|| wrong("dictionary"))?;
            let at = match distinct.iter().position(|d| d == v) {
                Some(at) => starts.get(at).copied().unwrap_or(0),
                None => {
                    let at = u32::try_from(len).map_err(|_| wrong("dictionary size"))?;
                    distinct.push(v.clone());
                    starts.push(at);
                    len += v.len();
                    at
                }
            };
            bases.push(at);
        }
        if len > usize::from(u16::MAX) {
            return Ok(None);
        }
        let width = bits_for(len.saturating_sub(1) as u64);
        Ok(Some(Dictionary {
            distinct,
            bases,
            len,
            width,
        }))
    }

    /// The entries, by key.
    pub(crate) fn entries(&self) -> Vec<&[u8]> {
        let strings = self.distinct.iter().flat_map(|d| d.iter().flatten());
        strings.map(str::as_bytes).collect()
    }

    /// The dictionary page's body: each entry PLAIN (length, bytes).
    pub(crate) fn plain(&self, out: &mut Vec<u8>) {
        for d in &self.distinct {
            for s in d.iter().flatten() {
                out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                out.extend_from_slice(s.as_bytes());
            }
        }
    }
}

/// A page's `values` into `m`'s min and max (in the column's order:
/// `unsigned` gives a value's unsigned reading) and DELTA_BINARY_PACKED
/// into `body`.
fn pack<T, U>(values: &[T], unsigned: impl Fn(T) -> U, body: &mut Vec<u8>, m: &mut MinMax)
where
    T: delta::DeltaInt + Into<i128>,
    U: Ord + Copy + Into<i128>,
{
    if m.wanted {
        let (lo, hi) = if m.unsigned {
            min_max(values.iter().map(|&x| unsigned(x)))
        } else {
            min_max(values.iter().copied())
        };
        m.page(lo, hi);
    }
    delta::encode(body, values);
}

/// The smallest and largest of `values`, widened.
fn min_max<T: Ord + Copy + Into<i128>>(
    mut values: impl Iterator<Item = T>,
) -> (Option<i128>, Option<i128>) {
    // One pass for both.
    let Some(first) = values.next() else {
        return (None, None);
    };
    let (lo, hi) = values.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (Some(lo.into()), Some(hi.into()))
}

/// A chunk's running min and max, in the column's order (unsigned for
/// unsigned integers), when its statistics are kept.
#[derive(Debug)]
pub(crate) struct MinMax {
    unsigned: bool,
    /// Whether the chunk keeps statistics (else nothing is compared).
    pub wanted: bool,
    min: Option<i128>,
    max: Option<i128>,
    /// The last page's min and max (none for a page of nulls).
    pub last: Option<(i128, i128)>,
}

impl MinMax {
    /// None seen yet.
    pub(crate) fn new(unsigned: bool, wanted: bool) -> MinMax {
        MinMax {
            unsigned,
            wanted,
            min: None,
            max: None,
            last: None,
        }
    }

    fn page(&mut self, lo: Option<i128>, hi: Option<i128>) {
        self.last = lo.zip(hi);
        self.min = match (self.min, lo) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // `None` orders before any value.
        self.max = self.max.max(hi);
    }

    /// As INT32 (the low 32 bits, which an unsigned value is stored in).
    pub(crate) fn int32(&self) -> (Option<i32>, Option<i32>) {
        (self.min.map(|v| v as i32), self.max.map(|v| v as i32))
    }

    /// As they are (a decimal's values).
    pub(crate) fn int128(&self) -> (Option<i128>, Option<i128>) {
        (self.min, self.max)
    }

    /// As INT64.
    pub(crate) fn int64(&self) -> (Option<i64>, Option<i64>) {
        (self.min.map(|v| v as i64), self.max.map(|v| v as i64))
    }
}
