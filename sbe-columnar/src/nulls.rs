//! A column's validity as it is filled, inline (arrow's
//! `NullBufferBuilder` is a call per row from here): valid rows are
//! counted until the first null, then each row is a bit.

use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};

/// The validity of a column's rows so far.
#[derive(Default)]
pub(crate) struct Nulls {
    /// Once there is a null, bit `i % 8` of byte `i / 8`: whether row
    /// `i` is valid (Arrow's order).
    bytes: Vec<u8>,
    rows: usize,
    nulls: usize,
}

impl Nulls {
    /// No rows yet.
    pub(crate) fn new() -> Nulls {
        Nulls::default()
    }

    /// A row, valid or null.
    #[inline]
    pub(crate) fn append(&mut self, valid: bool) {
        if valid && self.nulls == 0 {
            // No bits until the first null: the rows are counted.
            self.rows += 1;
        } else {
            self.bit(valid);
        }
    }

    /// Row `rows` as a bit: a null, or any row after one.
    #[inline]
    fn bit(&mut self, valid: bool) {
        if self.nulls == 0 {
            self.first_null();
        }
        self.push_bit(valid);
        self.nulls += usize::from(!valid);
    }

    /// The bits of the valid rows counted before the first null.
    #[cold]
    fn first_null(&mut self) {
        let rows = std::mem::take(&mut self.rows);
        self.bytes.clear();
        for _ in 0..rows {
            self.push_bit(true);
        }
    }

    #[inline]
    fn push_bit(&mut self, valid: bool) {
        let bit = self.rows % 8;
        if bit == 0 {
            self.bytes.push(0);
        }
        if let Some(b) = self.bytes.last_mut() {
            *b |= u8::from(valid) << bit;
        }
        self.rows += 1;
    }

    /// A valid row.
    #[inline]
    pub(crate) fn append_non_null(&mut self) {
        self.append(true);
    }

    /// `n` null rows.
    pub(crate) fn append_n_nulls(&mut self, n: usize) {
        for _ in 0..n {
            self.append(false);
        }
    }

    /// `n` valid rows.
    pub(crate) fn append_n_non_nulls(&mut self, n: usize) {
        if self.nulls == 0 {
            self.rows += n;
            return;
        }
        for _ in 0..n {
            self.push_bit(true);
        }
    }

    /// A null row.
    #[inline]
    pub(crate) fn append_null(&mut self) {
        self.append(false);
    }

    /// The rows so far.
    pub(crate) fn len(&self) -> usize {
        self.rows
    }

    /// The rows' validity (`None` when none is null), the column emptied
    /// (its bytes with room for as many rows).
    pub(crate) fn finish(&mut self) -> Option<NullBuffer> {
        let rows = std::mem::take(&mut self.rows);
        if std::mem::take(&mut self.nulls) == 0 {
            return None;
        }
        let bytes = crate::node::take(&mut self.bytes);
        let bits = BooleanBuffer::new(Buffer::from_vec(bytes), 0, rows);
        Some(NullBuffer::new(bits))
    }
}

#[cfg(test)]
mod tests {
    use super::Nulls;

    #[test]
    fn counts_valid_rows_and_keeps_the_nulls_where_they_were() {
        let mut n = Nulls::new();
        n.append(true);
        n.append_n_non_nulls(2);
        assert_eq!((n.len(), n.finish()), (3, None));
        n.append_non_null();
        n.append(false);
        n.append(true);
        n.append_null();
        assert_eq!(n.len(), 4);
        let b = n.finish().unwrap();
        let valid: Vec<bool> = (0..4).map(|i| b.is_valid(i)).collect();
        assert_eq!(valid, [true, false, true, false]);
        assert_eq!(n.len(), 0);
    }

    #[test]
    fn null_rows_then_valid_ones_keep_their_places() {
        let mut n = Nulls::new();
        n.append_n_nulls(9);
        n.append(true);
        n.append_n_nulls(2);
        n.append_n_non_nulls(1);
        let b = n.finish().unwrap();
        let valid: Vec<usize> = (0..13).filter(|i| b.is_valid(*i)).collect();
        assert_eq!((b.len(), valid), (13, vec![9, 12]));
    }
}
