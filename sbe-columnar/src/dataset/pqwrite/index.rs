//! A chunk's column index (each page's min, max and nulls, and whether
//! pages go up or down) where the crate keeps one: the top-level numbers,
//! whose pages readers may skip by it.

use parquet::basic::{BoundaryOrder, Type as PhysicalType};
use parquet::errors::ParquetError;
use parquet::file::metadata::{ColumnIndexBuilder, LevelHistogram};
use parquet::file::page_index::column_index::ColumnIndexMetaData;

/// The column index being made, page by page.
pub(crate) struct PageIndex {
    physical: PhysicalType,
    builder: ColumnIndexBuilder,
    ascending: bool,
    descending: bool,
    /// The last page with values: its min and max, in the column's order.
    last: Option<(i128, i128)>,
    /// The chunk's count of each definition level (none when the
    /// highest is 0).
    pub histogram: Option<Vec<i64>>,
}

impl PageIndex {
    /// An index of a column of `physical` (INT32 or INT64).
    pub(crate) fn new(physical: PhysicalType) -> PageIndex {
        PageIndex {
            physical,
            builder: ColumnIndexBuilder::new(physical),
            ascending: true,
            descending: true,
            last: None,
            histogram: None,
        }
    }

    /// Adds a page of `nulls` nulls and values from `min` to `max` (none
    /// for a page of nulls only), its definition levels `def` (up to
    /// `max_def`), as the crate's writer does.
    pub(crate) fn page(
        &mut self,
        nulls: usize,
        min_max: Option<(i128, i128)>,
        def: &[u16],
        max_def: u16,
    ) {
        self.histogram_of(def, max_def);
        let nulls = nulls as i64;
        let Some((min, max)) = min_max else {
            self.builder.append(true, Vec::new(), Vec::new(), nulls);
            return;
        };
        if let Some((last_min, last_max)) = self.last {
            self.ascending &= last_min <= min && last_max <= max;
            self.descending &= min <= last_min && max <= last_max;
        }
        self.last = Some((min, max));
        self.builder
            .append(false, self.bytes(min), self.bytes(max), nulls);
    }

    fn histogram_of(&mut self, def: &[u16], max_def: u16) {
        if max_def == 0 {
            return;
        }
        // A pass per level rather than a count per value through an
        // index: levels are few, and each pass, counting in 16 bits a
        // block at a time, vectorises. A level above `max_def` (none is)
        // counts as none.
        let count = |level: u16| -> i64 {
            (def.chunks(u16::MAX as usize))
                .map(|block| {
                    let n = block.iter().fold(0u16, |n, &d| n + u16::from(d == level));
                    i64::from(n)
                })
                .sum()
        };
        let counts: Vec<i64> = (0..=max_def).map(count).collect();
        let total = self.histogram.get_or_insert_with(|| vec![0; counts.len()]);
        for (t, c) in total.iter_mut().zip(&counts) {
            *t += c;
        }
        let page = Some(LevelHistogram::from(counts));
        self.builder.append_histograms(&None, &page);
    }

    /// A value as the index keeps it: PLAIN (little-endian, the low bits
    /// of an unsigned one).
    fn bytes(&self, v: i128) -> Vec<u8> {
        match self.physical {
            PhysicalType::INT32 => (v as i32).to_le_bytes().to_vec(),
            _ => (v as i64).to_le_bytes().to_vec(),
        }
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
