//! Repetition and definition levels of a leaf, straight from the Arrow
//! offsets and validity of the columns above it (Dremel's rules, as the
//! `parquet` crate's Arrow schema lays them out): an optional struct, an
//! optional list and an optional leaf each add one definition level when
//! present, a list's entries one more; each list adds one repetition
//! level, which its second and later entries carry.

use arrow_array::{Array, ArrayRef, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field};
use parquet::errors::ParquetError;

/// A step from a top-level column down to a leaf.
#[derive(Clone)]
enum Step {
    Struct {
        nullable: bool,
        nulls: Option<NullBuffer>,
    },
    List {
        nullable: bool,
        nulls: Option<NullBuffer>,
        offsets: OffsetBuffer<i32>,
        /// The repetition level its second and later entries carry.
        rep: u16,
    },
    Leaf {
        nullable: bool,
        nulls: Option<NullBuffer>,
    },
}

/// The way from a top-level column to one of its leaves.
#[derive(Clone)]
pub(crate) struct Path {
    steps: Vec<Step>,
    /// The leaf's values.
    pub leaf: ArrayRef,
    /// The top-level column's rows.
    rows: usize,
    /// The highest definition level (a present value).
    pub max_def: u16,
    /// The highest repetition level.
    pub max_rep: u16,
}

/// Where a page starts: at a row's first level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Cut {
    /// The row, counted in the walked column.
    pub row: usize,
    /// The index of the row's first level.
    pub level: usize,
    /// The number of values before it.
    pub value: usize,
}

/// A leaf's levels over a column.
#[derive(Debug, Default)]
pub(crate) struct Levels {
    /// Definition levels (empty when the highest is 0).
    pub def: Vec<u16>,
    /// Repetition levels (empty when the highest is 0).
    pub rep: Vec<u16>,
    /// The indices in the leaf array of the values present, in order.
    pub values: Vec<usize>,
    /// The page starts, the first at 0.
    pub cuts: Vec<Cut>,
    /// How many levels there are.
    pub len: usize,
}

/// How large a page grows before the next row starts another.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageLimit {
    /// Rows at most.
    pub rows: usize,
    /// Levels at most (passed only by the row that crosses it).
    pub levels: usize,
}

/// The paths to the leaves of `array` (a column of `field`), in the
/// order of the Parquet schema; `None` for a shape not walked here.
pub(crate) fn paths(field: &Field, array: &ArrayRef) -> Option<Vec<Path>> {
    let mut out = Vec::new();
    let mut steps = Vec::new();
    collect(field, array, &mut steps, (0, 0), array.len(), &mut out)?;
    Some(out)
}

fn collect(
    field: &Field,
    array: &ArrayRef,
    steps: &mut Vec<Step>,
    (def, rep): (u16, u16),
    rows: usize,
    out: &mut Vec<Path>,
) -> Option<()> {
    let nullable = field.is_nullable();
    let def = def + u16::from(nullable);
    let nulls = array.nulls().filter(|_| nullable).cloned();
    match field.data_type() {
        DataType::Struct(fields) => {
            let s = array.as_any().downcast_ref::<StructArray>()?;
            steps.push(Step::Struct { nullable, nulls });
            for (f, child) in fields.iter().zip(s.columns()) {
                collect(f, child, steps, (def, rep), rows, out)?;
            }
            steps.pop();
        }
        DataType::List(item) => {
            let l = array.as_any().downcast_ref::<ListArray>()?;
            let offsets = l.offsets().clone();
            steps.push(Step::List {
                nullable,
                nulls,
                offsets,
                rep: rep + 1,
            });
            collect(item, l.values(), steps, (def + 1, rep + 1), rows, out)?;
            steps.pop();
        }
        DataType::LargeList(_)
        | DataType::FixedSizeList(..)
        | DataType::Map(..)
        | DataType::ListView(_)
        | DataType::LargeListView(_)
        | DataType::Union(..)
        | DataType::RunEndEncoded(..) => return None,
        _ => {
            steps.push(Step::Leaf { nullable, nulls });
            out.push(Path {
                steps: steps.clone(),
                leaf: array.clone(),
                rows,
                max_def: def,
                max_rep: rep,
            });
            steps.pop();
        }
    }
    Some(())
}

impl Path {
    /// The rows of the top-level column.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The leaf's levels, with a page start wherever `limit` says.
    pub(crate) fn walk(&self, limit: PageLimit) -> Result<Levels, ParquetError> {
        let mut out = Levels::default();
        let mut walker = Walker {
            max_def: self.max_def,
            max_rep: self.max_rep,
            out: &mut out,
        };
        let mut page_start = Cut::default();
        for row in 0..self.rows {
            let len = walker.out.len;
            if row == 0
                || row - page_start.row >= limit.rows
                || len - page_start.level >= limit.levels
            {
                page_start = Cut {
                    row,
                    level: len,
                    value: walker.out.values.len(),
                };
                walker.out.cuts.push(page_start);
            }
            walker.walk(&self.steps, row, 0, 0)?;
        }
        Ok(out)
    }
}

struct Walker<'a> {
    max_def: u16,
    max_rep: u16,
    out: &'a mut Levels,
}

fn is_null(nulls: &Option<NullBuffer>, i: usize) -> bool {
    nulls.as_ref().is_some_and(|n| n.is_null(i))
}

impl Walker<'_> {
    fn push(&mut self, def: u16, rep: u16) {
        if self.max_def > 0 {
            self.out.def.push(def);
        }
        if self.max_rep > 0 {
            self.out.rep.push(rep);
        }
        self.out.len += 1;
    }

    /// The levels of entry `i` of the array `steps` starts at, whose
    /// parent's definition level is `def`, its first level repeating at
    /// `rep`.
    fn walk(&mut self, steps: &[Step], i: usize, def: u16, rep: u16) -> Result<(), ParquetError> {
        let Some((step, rest)) = steps.split_first() else {
            return Ok(());
        };
        match step {
            Step::Struct { nullable, nulls } => {
                if is_null(nulls, i) {
                    self.push(def, rep);
                    return Ok(());
                }
                self.walk(rest, i, def + u16::from(*nullable), rep)
            }
            Step::List {
                nullable,
                nulls,
                offsets,
                rep: again,
            } => {
                if is_null(nulls, i) {
                    self.push(def, rep);
                    return Ok(());
                }
                let def = def + u16::from(*nullable);
                let (start, end) = match (offsets.get(i), offsets.get(i + 1)) {
                    (Some(&s), Some(&e)) if s <= e => (s as usize, e as usize),
                    _ => return Err(ParquetError::General(format!("list offsets at {i}"))),
                };
                if start == end {
                    self.push(def, rep);
                    return Ok(());
                }
                self.walk(rest, start, def + 1, rep)?;
                for child in start + 1..end {
                    self.walk(rest, child, def + 1, *again)?;
                }
                Ok(())
            }
            Step::Leaf { nullable, nulls } => {
                if is_null(nulls, i) {
                    self.push(def, rep);
                } else {
                    self.push(def + u16::from(*nullable), rep);
                    self.out.values.push(i);
                }
                Ok(())
            }
        }
    }
}
