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

/// A page's histograms of its levels (none where the highest is 0).
pub(crate) struct PageLevels<'a> {
    /// Its count of each definition level.
    pub def: Option<&'a [i64]>,
    /// Its count of each repetition level.
    pub rep: Option<&'a [i64]>,
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
        let rep = add_histogram(&mut self.rep, levels.rep);
        let def = add_histogram(&mut self.def, levels.def);
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

/// The page's histogram `page` added into the chunk's `total`.
fn add_histogram(total: &mut Option<Vec<i64>>, page: Option<&[i64]>) -> Option<LevelHistogram> {
    let counts = page?;
    let total = total.get_or_insert_with(|| vec![0; counts.len()]);
    for (t, c) in total.iter_mut().zip(counts) {
        *t += c;
    }
    Some(LevelHistogram::from(counts.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_add_up_page_by_page() {
        let mut total = None;
        add_histogram(&mut total, Some(&[0, 2]));
        add_histogram(&mut total, Some(&[1, 1]));
        assert_eq!(total, Some(vec![1, 3]));
        assert!(add_histogram(&mut total, None).is_none());
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
