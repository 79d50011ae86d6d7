//! A chunk's column index (each page's min, max and nulls, and whether
//! pages go up or down) and its level histograms, as the crate's writer
//! keeps them where statistics are on (its default): for every leaf,
//! top-level or inside a group, numbers and text alike.

use parquet::basic::{BoundaryOrder, Type as PhysicalType};
use parquet::errors::ParquetError;
use parquet::file::metadata::{ColumnIndexBuilder, LevelHistogram};
use parquet::file::page_index::column_index::ColumnIndexMetaData;

/// A page's (or chunk's) smallest and largest value: each as a key that
/// orders as the column does (the value for a signed integer, its
/// unsigned reading for an unsigned one, its rank among the chunk's
/// dictionary entries for text) and as the bytes the index keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// The smallest value's key and bytes.
    pub min: (i128, Vec<u8>),
    /// The largest value's key and bytes.
    pub max: (i128, Vec<u8>),
}

impl Bounds {
    /// The bounds of an INT32 or INT64 page from its keys: the bytes are
    /// the value PLAIN (little-endian, the low bits of an unsigned one).
    pub(crate) fn int(physical: PhysicalType, (lo, hi): (i128, i128)) -> Bounds {
        let bytes = |v: i128| match physical {
            PhysicalType::INT32 => (v as i32).to_le_bytes().to_vec(),
            _ => (v as i64).to_le_bytes().to_vec(),
        };
        Bounds {
            min: (lo, bytes(lo)),
            max: (hi, bytes(hi)),
        }
    }

    /// The bounds of a decimal page from its values: the bytes are the
    /// value's low `len` bytes, big-endian (FIXED_LEN_BYTE_ARRAY).
    pub(crate) fn decimal(len: usize, (lo, hi): (i128, i128)) -> Bounds {
        let bytes = |v: i128| {
            let be = v.to_be_bytes();
            be.get(16usize.saturating_sub(len)..)
                .unwrap_or_default()
                .to_vec()
        };
        Bounds {
            min: (lo, bytes(lo)),
            max: (hi, bytes(hi)),
        }
    }

    /// Widens `self` to take in `other`.
    pub(crate) fn merge(&mut self, other: &Bounds) {
        if other.min.0 < self.min.0 {
            self.min = other.min.clone();
        }
        if other.max.0 > self.max.0 {
            self.max = other.max.clone();
        }
    }
}

/// A page's levels, as the histograms count them.
pub(crate) struct PageLevels<'a> {
    /// Definition levels (empty when the highest is 0).
    pub def: &'a [u16],
    /// The highest definition level.
    pub max_def: u16,
    /// Repetition levels (empty when the highest is 0).
    pub rep: &'a [u16],
    /// The highest repetition level.
    pub max_rep: u16,
}

/// The column index and level histograms being made, page by page.
pub(crate) struct PageIndex {
    physical: PhysicalType,
    builder: ColumnIndexBuilder,
    ascending: bool,
    descending: bool,
    /// The last page with values: its min and max keys.
    last: Option<(i128, i128)>,
    /// The chunk's count of each definition level (none when the
    /// highest is 0).
    pub def: Option<Vec<i64>>,
    /// The chunk's count of each repetition level (none when the
    /// highest is 0).
    pub rep: Option<Vec<i64>>,
}

impl PageIndex {
    /// An index of a column of `physical`.
    pub(crate) fn new(physical: PhysicalType) -> PageIndex {
        PageIndex {
            physical,
            builder: ColumnIndexBuilder::new(physical),
            ascending: true,
            descending: true,
            last: None,
            def: None,
            rep: None,
        }
    }

    /// Adds a page of `nulls` nulls (levels that are not a value) and
    /// values within `bounds` (none for a page with no value, which the
    /// index marks a null page).
    pub(crate) fn page(&mut self, nulls: usize, bounds: Option<&Bounds>, levels: &PageLevels<'_>) {
        let rep = add_histogram(&mut self.rep, levels.rep, levels.max_rep);
        let def = add_histogram(&mut self.def, levels.def, levels.max_def);
        let nulls = nulls as i64;
        match bounds {
            None => self.builder.append(true, Vec::new(), Vec::new(), nulls),
            Some(b) => {
                let (min, max) = (b.min.0, b.max.0);
                if let Some((last_min, last_max)) = self.last {
                    self.ascending &= last_min <= min && last_max <= max;
                    self.descending &= min <= last_min && max <= last_max;
                }
                self.last = Some((min, max));
                self.builder
                    .append(false, b.min.1.clone(), b.max.1.clone(), nulls);
            }
        }
        self.builder.append_histograms(&rep, &def);
    }

    /// The finished index.
    pub(crate) fn finish(&mut self) -> Result<ColumnIndexMetaData, ParquetError> {
        // Equal pages (or none but nulls) count as ascending.
        let order = match (self.ascending, self.descending) {
            (true, _) => BoundaryOrder::ASCENDING,
            (false, true) => BoundaryOrder::DESCENDING,
            (false, false) => BoundaryOrder::UNORDERED,
        };
        let mut builder =
            std::mem::replace(&mut self.builder, ColumnIndexBuilder::new(self.physical));
        builder.set_boundary_order(order);
        builder.build()
    }
}

/// The page's histogram of `levels` (up to `max`), added into the
/// chunk's `total`; none when `max` is 0.
fn add_histogram(total: &mut Option<Vec<i64>>, levels: &[u16], max: u16) -> Option<LevelHistogram> {
    if max == 0 {
        return None;
    }
    let counts = histogram(levels, max);
    let total = total.get_or_insert_with(|| vec![0; counts.len()]);
    for (t, c) in total.iter_mut().zip(&counts) {
        *t += c;
    }
    Some(LevelHistogram::from(counts))
}

/// How many of `levels` are each level from 0 to `max`.
fn histogram(levels: &[u16], max: u16) -> Vec<i64> {
    // A pass per level rather than a count per value through an index:
    // levels are few, and each pass, counting in 16 bits a block at a
    // time, vectorises. A level above `max` (none is) counts as none.
    let count = |level: u16| -> i64 {
        (levels.chunks(u16::MAX as usize))
            .map(|block| {
                let n = block.iter().fold(0u16, |n, &d| n + u16::from(d == level));
                i64::from(n)
            })
            .sum()
    };
    (0..=max).map(count).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_count_each_level() {
        assert_eq!(histogram(&[0, 2, 2, 1, 2], 2), [1, 1, 3]);
        let mut total = None;
        add_histogram(&mut total, &[1, 1], 1);
        add_histogram(&mut total, &[0, 1], 1);
        assert_eq!(total, Some(vec![1, 3]));
        assert!(add_histogram(&mut total, &[], 0).is_none());
    }

    #[test]
    fn bounds_widen_by_key_not_by_bytes() {
        // Unsigned 32-bit: 3,000,000,000 is above 1 though its bytes read
        // as a negative i32.
        let mut b = Bounds::int(PhysicalType::INT32, (1, 1));
        b.merge(&Bounds::int(
            PhysicalType::INT32,
            (3_000_000_000, 3_000_000_000),
        ));
        assert_eq!(b.max.0, 3_000_000_000);
        assert_eq!(b.max.1, (3_000_000_000u32 as i32).to_le_bytes());
        assert_eq!(b.min.0, 1);
    }
}
