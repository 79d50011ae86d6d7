//! Repetition and definition levels of a leaf, straight from the Arrow
//! offsets and validity of the columns above it (Dremel's rules, as the
//! `parquet` crate's Arrow schema lays them out): an optional struct, an
//! optional list and an optional leaf each add one definition level when
//! present, a list's entries one more; each list adds one repetition
//! level, which its second and later entries carry.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use arrow_array::{Array, ArrayRef, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field};
use parquet::errors::ParquetError;

use super::rle::{bits_for, hybrid};

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

impl Step {
    fn nulls(&self) -> Option<&NullBuffer> {
        match self {
            Step::Struct { nulls, .. } | Step::Leaf { nulls, .. } | Step::List { nulls, .. } => {
                nulls.as_ref()
            }
        }
    }

    fn nullable(&self) -> bool {
        match self {
            Step::Struct { nullable, .. }
            | Step::Leaf { nullable, .. }
            | Step::List { nullable, .. } => *nullable,
        }
    }

    /// The addresses of the step's buffers (and their lengths).
    fn identity(&self) -> [usize; 4] {
        let (nulls, offsets) = match self {
            Step::Struct { nulls, .. } | Step::Leaf { nulls, .. } => (nulls, None),
            Step::List { nulls, offsets, .. } => (nulls, Some(offsets)),
        };
        let n = nulls.as_ref();
        [
            n.map_or(0, |n| n.validity().as_ptr() as usize),
            n.map_or(0, |n| n.offset()),
            offsets.map_or(0, |o| o.as_ptr() as usize),
            offsets.map_or(0, |o| o.len()),
        ]
    }
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

/// Levels of one kind (repetition or definition) over a column, and
/// their encoded blocks per page once a chunk has made them: the leaves
/// of one list share the list's, and often its definition levels too.
/// Blocks are kept per bit width, as leaves sharing levels may have
/// different highest levels (a leaf of nothing but nulls has the levels
/// of its parent, whose highest is lower).
#[derive(Debug, Default)]
pub(crate) struct LevelVec {
    /// The levels (empty when the highest is 0).
    pub levels: Vec<u16>,
    blocks: RefCell<Vec<(u8, Blocks)>>,
    /// Each page's histogram, per highest level, once a chunk with
    /// statistics has counted them: shared like the blocks.
    histograms: RefCell<Vec<(u16, Histograms)>>,
}

/// Each page's count of each level.
pub(crate) type Histograms = Rc<Vec<Vec<i64>>>;

/// Each page's encoded levels.
pub(crate) type Blocks = Rc<Vec<Vec<u8>>>;

impl LevelVec {
    fn new(levels: Vec<u16>) -> Rc<LevelVec> {
        Rc::new(LevelVec {
            levels,
            blocks: RefCell::default(),
            histograms: RefCell::default(),
        })
    }

    /// Each page's count of each level from 0 to `max`, the pages
    /// starting at `cuts` and ending at `end`.
    pub(crate) fn histograms(&self, cuts: &[Cut], end: usize, max: u16) -> Histograms {
        if let Some((_, h)) = self.histograms.borrow().iter().find(|(m, _)| *m == max) {
            return h.clone();
        }
        let ends = cuts.iter().skip(1).map(|c| c.level).chain([end]);
        let made: Vec<Vec<i64>> = cuts
            .iter()
            .zip(ends)
            .map(|(c, e)| histogram(self.levels.get(c.level..e).unwrap_or_default(), max))
            .collect();
        let made = Rc::new(made);
        self.histograms.borrow_mut().push((max, made.clone()));
        made
    }

    /// Each page's block (length in 4 bytes, then the hybrid at the
    /// width of `max`), the pages starting at `cuts` and ending at `end`.
    pub(crate) fn blocks(&self, cuts: &[Cut], end: usize, max: u16) -> Blocks {
        let width = bits_for(u64::from(max));
        if let Some((_, b)) = self.blocks.borrow().iter().find(|(w, _)| *w == width) {
            return b.clone();
        }
        let ends = cuts.iter().skip(1).map(|c| c.level).chain([end]);
        let made: Vec<Vec<u8>> = cuts
            .iter()
            .zip(ends)
            .map(|(c, e)| {
                let levels = self.levels.get(c.level..e).unwrap_or_default();
                let mut out = vec![0; 4];
                hybrid(&mut out, levels, width);
                let len = (out.len() - 4) as u32;
                if let Some(slot) = out.get_mut(..4) {
                    slot.copy_from_slice(&len.to_le_bytes());
                }
                out
            })
            .collect();
        let made = Rc::new(made);
        self.blocks.borrow_mut().push((width, made.clone()));
        made
    }
}

/// How many of `levels` are each level from 0 to `max`.
pub(crate) fn histogram(levels: &[u16], max: u16) -> Vec<i64> {
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

/// A leaf's levels over a column.
#[derive(Debug, Clone)]
pub(crate) struct Levels {
    /// Definition levels (empty when the highest is 0).
    pub def: Rc<LevelVec>,
    /// Repetition levels (empty when the highest is 0).
    pub rep: Rc<LevelVec>,
    /// The indices in the leaf array of the values present, in order.
    pub values: Rc<Vec<usize>>,
    /// The page starts, the first at 0.
    pub cuts: Rc<Vec<Cut>>,
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

    /// The leaf's levels, with a page start wherever `limit` says; the
    /// levels of the lists above it are taken from `cache`, where the
    /// leaves of the same list (walked in turn) find them.
    pub(crate) fn walk(&self, limit: PageLimit, cache: &mut Cache) -> Result<Levels, ParquetError> {
        let last_list = self
            .steps
            .iter()
            .rposition(|s| matches!(s, Step::List { .. }));
        let (above, below) = self.steps.split_at(last_list.map_or(0, |k| k + 1));
        if above.is_empty() && below.len() == 1 {
            return Ok(self.top_level(limit, cache));
        }
        // The steps above are the same arrays exactly when their
        // buffers are.
        let key: Vec<usize> = above.iter().flat_map(Step::identity).collect();
        let slots = match cache.0.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = Rc::new(Slots::of(above, self.rows, limit)?);
                cache.0.insert(key.clone(), s.clone());
                s
            }
        };
        let rep = if self.max_rep > 0 {
            slots.rep.clone()
        } else {
            Rc::default()
        };
        // With no nulls below the last list, every entry is a value and
        // its level only rises by the optional steps below: shared by
        // the leaves alike.
        // Where the first step below with nulls is nothing but nulls, no
        // entry goes past it: its levels rise by the optional steps
        // before it, and it has no values (an enum's raw column is mostly
        // such).
        let first_nulls = below
            .iter()
            .position(|s| s.nulls().is_some_and(|n| n.null_count() > 0));
        let (rise, present) = match first_nulls {
            None => (below.iter().map(|s| u16::from(s.nullable())).sum(), true),
            Some(k)
                if below
                    .get(k)
                    .and_then(Step::nulls)
                    .is_some_and(|n| n.null_count() == n.len()) =>
            {
                (
                    below.iter().take(k).map(|s| u16::from(s.nullable())).sum(),
                    false,
                )
            }
            Some(_) => return Ok(self.finish(&slots, below, rep)),
        };
        let def = if self.max_def == 0 {
            Rc::default()
        } else if rise == 0 {
            slots.def.clone()
        } else {
            let shared = cache.1.entry((key, rise)).or_insert_with(|| {
                let d = slots.def.levels.iter().zip(&slots.idx);
                LevelVec::new(
                    d.map(|(&d, &i)| d + if i == NONE { 0 } else { rise })
                        .collect(),
                )
            });
            shared.clone()
        };
        let (values, cuts) = if present {
            (slots.present.clone(), slots.cuts.clone())
        } else {
            let cuts = slots.cuts.iter().map(|c| Cut { value: 0, ..*c });
            (Rc::default(), Rc::new(cuts.collect()))
        };
        Ok(Levels {
            def,
            rep,
            values,
            cuts,
            len: slots.idx.len(),
        })
    }

    /// A top-level leaf: a level per row, its validity. Those of the
    /// batch with no nulls share theirs, as they share the pages' level
    /// blocks (most columns of a message).
    fn top_level(&self, limit: PageLimit, cache: &mut Cache) -> Levels {
        let nulls = match self.steps.first() {
            Some(Step::Leaf { nulls, .. }) => nulls.as_ref().filter(|n| n.null_count() > 0),
            _ => None,
        };
        if nulls.is_none() {
            let key = (self.max_def, self.rows, limit.rows);
            if let Some(l) = cache.2.get(&key) {
                return l.clone();
            }
            let l = self.top_level_of(limit, None);
            cache.2.insert(key, l.clone());
            return l;
        }
        self.top_level_of(limit, nulls)
    }

    fn top_level_of(&self, limit: PageLimit, nulls: Option<&NullBuffer>) -> Levels {
        let cuts = (0..self.rows)
            .step_by(limit.rows.max(1))
            .map(|row| Cut {
                row,
                level: row,
                value: nulls.map_or(row, |n| row - n.slice(0, row).null_count()),
            })
            .collect();
        let (def, values) = match nulls {
            None => (
                vec![self.max_def; self.rows * usize::from(self.max_def > 0)],
                (0..self.rows).collect(),
            ),
            Some(n) => (
                n.iter().map(u16::from).collect(),
                n.valid_indices().collect(),
            ),
        };
        Levels {
            def: LevelVec::new(def),
            rep: Rc::default(),
            values: Rc::new(values),
            cuts: Rc::new(cuts),
            len: self.rows,
        }
    }

    /// The levels of the leaf from those of the lists above it, through
    /// the structs below the last (`below`, ending with the leaf).
    fn finish(&self, slots: &Slots, below: &[Step], rep: Rc<LevelVec>) -> Levels {
        // Only the steps with nulls are looked at per entry: one null
        // there leaves the level at what the steps before it raised.
        let rise: u16 = below.iter().map(|s| u16::from(s.nullable())).sum();
        let mut checks: Vec<(&NullBuffer, u16)> = Vec::new();
        let mut before = 0;
        for step in below {
            if let Some(n) = step.nulls().filter(|n| n.null_count() > 0) {
                checks.push((n, before));
            }
            before += u16::from(step.nullable());
        }
        let mut def = Vec::with_capacity(slots.idx.len());
        let mut values = Vec::with_capacity(slots.present.len());
        let ends = slots.cuts.iter().skip(1).map(|c| c.level);
        let ends = ends.chain([slots.idx.len()]);
        let mut out_cuts = Vec::with_capacity(slots.cuts.len());
        for (c, end) in slots.cuts.iter().zip(ends) {
            out_cuts.push(Cut {
                value: values.len(),
                ..*c
            });
            let d = slots.def.levels.get(c.level..end).unwrap_or_default();
            let idx = slots.idx.get(c.level..end).unwrap_or_default();
            let levels = (d, idx, rise);
            match checks.as_slice() {
                // One step with nulls (an optional field, mostly): its
                // bits read directly, not through a search of the steps.
                [(n, b)] => {
                    let bits = n.inner();
                    let null_at = |i: usize| (i < bits.len() && !bits.value(i)).then_some(*b);
                    levels_below(levels, null_at, &mut def, &mut values);
                }
                _ => {
                    let null_at = |i| checks.iter().find(|(n, _)| n.is_null(i)).map(|(_, b)| *b);
                    levels_below(levels, null_at, &mut def, &mut values);
                }
            }
        }
        if self.max_def == 0 {
            def.clear();
        }
        Levels {
            def: LevelVec::new(def),
            rep,
            values: Rc::new(values),
            cuts: Rc::new(out_cuts),
            len: slots.idx.len(),
        }
    }
}

/// The definition levels of a page's entries (`d`, the levels above,
/// and `idx`, the entries), raised by `rise` where the entry is a value
/// (its index then goes into `values`) and by `null_at`'s levels where a
/// step below has it null.
#[inline(always)]
fn levels_below(
    (d, idx, rise): (&[u16], &[usize], u16),
    null_at: impl Fn(usize) -> Option<u16>,
    def: &mut Vec<u16>,
    values: &mut Vec<usize>,
) {
    for (&d, &i) in d.iter().zip(idx) {
        if i == NONE {
            def.push(d);
        } else if let Some(b) = null_at(i) {
            def.push(d + b);
        } else {
            def.push(d + rise);
            values.push(i);
        }
    }
}

/// Whether entry `idx` is a value through `steps` (structs, then the
/// leaf), raising `def` by each optional one present.
fn present(steps: &[Step], idx: usize, def: &mut u16) -> bool {
    for step in steps {
        let (nullable, nulls) = match step {
            Step::Struct { nullable, nulls } | Step::Leaf { nullable, nulls } => (nullable, nulls),
            Step::List { .. } => return false,
        };
        if is_null(nulls, idx) {
            return false;
        }
        *def += u16::from(*nullable);
    }
    true
}

/// An entry of no array: the level ends above it.
const NONE: usize = usize::MAX;

/// The levels of the lists above some leaves, shared by those leaves,
/// and those of the top-level leaves with no nulls (by highest level,
/// rows and page rows), shared by them: a batch's.
#[derive(Default)]
pub(crate) struct Cache(
    HashMap<Vec<usize>, Rc<Slots>>,
    HashMap<(Vec<usize>, u16), Rc<LevelVec>>,
    HashMap<(u16, usize, usize), Levels>,
);

/// Levels so far, each with the entry (of the array below) it goes on
/// into, or [`NONE`].
pub(crate) struct Slots {
    def: Rc<LevelVec>,
    rep: Rc<LevelVec>,
    idx: Vec<usize>,
    /// The entries that are not [`NONE`], in order.
    present: Rc<Vec<usize>>,
    /// The page starts, counting the present entries as values.
    cuts: Rc<Vec<Cut>>,
}

impl Slots {
    /// The levels of `rows` rows through `steps` (ending with a list).
    fn of(steps: &[Step], rows: usize, limit: PageLimit) -> Result<Slots, ParquetError> {
        let mut def = vec![0u16; rows];
        let mut rep = vec![0u16; rows];
        let mut idx: Vec<usize> = (0..rows).collect();
        for step in steps {
            match step {
                Step::List {
                    nullable,
                    nulls,
                    offsets,
                    rep: again,
                } => {
                    let list = List {
                        nullable: *nullable,
                        nulls,
                        offsets,
                        again: *again,
                    };
                    (def, rep, idx) = list.expand(&def, &rep, &idx)?;
                }
                Step::Struct { .. } | Step::Leaf { .. } => {
                    let step = std::slice::from_ref(step);
                    for (d, i) in def.iter_mut().zip(idx.iter_mut()) {
                        if *i != NONE && !present(step, *i, d) {
                            *i = NONE;
                        }
                    }
                }
            }
        }
        let mut cuts = cuts(&rep, limit);
        let mut present = Vec::with_capacity(idx.len());
        // Each page's entries, the page's first value counted as it starts.
        let ends: Vec<usize> = (cuts.iter().skip(1).map(|c| c.level))
            .chain([idx.len()])
            .collect();
        for (c, end) in cuts.iter_mut().zip(ends) {
            c.value = present.len();
            let page = idx.get(c.level..end).unwrap_or_default();
            // Runs with no empty slot (most) copied whole.
            for run in page.chunks(64) {
                if run.contains(&NONE) {
                    present.extend(run.iter().copied().filter(|&i| i != NONE));
                } else {
                    present.extend_from_slice(run);
                }
            }
        }
        Ok(Slots {
            def: LevelVec::new(def),
            rep: LevelVec::new(rep),
            idx,
            present: Rc::new(present),
            cuts: Rc::new(cuts),
        })
    }
}

/// Page starts at row starts (repetition level 0), as `limit` says.
fn cuts(rep: &[u16], limit: PageLimit) -> Vec<Cut> {
    let mut out: Vec<Cut> = Vec::new();
    // The row about to start, and the last page's first row and level.
    let (mut row, mut page_row, mut page_level) = (0usize, 0usize, 0usize);
    const RUN: usize = 64;
    for (k, run) in rep.chunks(RUN).enumerate() {
        let at = k * RUN;
        // The row starts of a run are counted at once; only a run where
        // a page may start (or the first) is looked at level by level.
        let starts = run.iter().filter(|&&r| r == 0).count();
        let last_row = (row + starts).saturating_sub(1);
        let may_cut = out.is_empty()
            || last_row.saturating_sub(page_row) >= limit.rows
            || (at + run.len() - 1).saturating_sub(page_level) >= limit.levels;
        if starts == 0 || !may_cut {
            row += starts;
            continue;
        }
        for (i, &r) in run.iter().enumerate() {
            if r != 0 {
                continue;
            }
            let level = at + i;
            if out.is_empty() || row - page_row >= limit.rows || level - page_level >= limit.levels
            {
                out.push(Cut {
                    row,
                    level,
                    value: 0,
                });
                (page_row, page_level) = (row, level);
            }
            row += 1;
        }
    }
    out
}

/// A list step being applied.
struct List<'a> {
    nullable: bool,
    nulls: &'a Option<NullBuffer>,
    offsets: &'a OffsetBuffer<i32>,
    again: u16,
}

type Expanded = (Vec<u16>, Vec<u16>, Vec<usize>);

impl List<'_> {
    /// Each level going on into a list: the list's entries, or one level
    /// for a null or empty list.
    fn expand(&self, def: &[u16], rep: &[u16], idx: &[usize]) -> Result<Expanded, ParquetError> {
        match self.expand_full(def, rep, idx) {
            Some(all) => Ok(all),
            None => self.expand_each(def, rep, idx),
        }
    }

    /// [`List::expand`], a level at a time.
    fn expand_each(
        &self,
        def: &[u16],
        rep: &[u16],
        idx: &[usize],
    ) -> Result<Expanded, ParquetError> {
        let n = self.offsets.last().map_or(0, |&e| e.max(0) as usize);
        let (mut d2, mut r2, mut i2) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for ((&d, &r), &i) in def.iter().zip(rep).zip(idx) {
            if i == NONE || is_null(self.nulls, i) {
                d2.push(d);
                r2.push(r);
                i2.push(NONE);
                continue;
            }
            let d = d + u16::from(self.nullable);
            let (start, end) = match (self.offsets.get(i), self.offsets.get(i + 1)) {
                (Some(&s), Some(&e)) if 0 <= s && s <= e => (s as usize, e as usize),
                _ => return Err(ParquetError::General(format!("list offsets at {i}"))),
            };
            if start == end {
                d2.push(d);
                r2.push(r);
                i2.push(NONE);
                continue;
            }
            d2.extend(std::iter::repeat_n(d + 1, end - start));
            r2.push(r);
            r2.extend(std::iter::repeat_n(self.again, end - start - 1));
            i2.extend(start..end);
        }
        Ok((d2, r2, i2))
    }

    /// [`List::expand`] where every level goes on into one list, all of
    /// one level, and no list is null or empty (a top-level group that
    /// every message has entries of, mostly): the entries' levels are
    /// the same but at each list's first entry, so they are filled
    /// whole, not a list at a time. `None` for any other.
    fn expand_full(&self, def: &[u16], rep: &[u16], idx: &[usize]) -> Option<Expanded> {
        let (&first, &last) = (idx.first()?, idx.last()?);
        // Indices are below the array's length, so only the next one
        // of the run (not a NONE) is `first` after the ones before.
        let one_run =
            first != NONE && (idx.iter().enumerate()).all(|(k, &i)| i.wrapping_sub(k) == first);
        let (&d, &r) = (def.first()?, rep.first()?);
        let uniform = def.iter().all(|&x| x == d) && rep.iter().all(|&x| x == r);
        let no_nulls = self.nulls.as_ref().is_none_or(|n| n.null_count() == 0);
        if !(one_run && uniform && no_nulls) {
            return None;
        }
        let offsets = self.offsets.get(first..last.checked_add(2)?)?;
        let rises = offsets
            .iter()
            .zip(offsets.iter().skip(1))
            .all(|(a, b)| a < b);
        let (start, end) = (
            usize::try_from(*offsets.first()?).ok()?,
            usize::try_from(*offsets.last()?).ok()?,
        );
        if !rises || start > end {
            return None;
        }
        let d = d + u16::from(self.nullable) + 1;
        let mut r2 = vec![self.again; end - start];
        for &o in offsets.iter().take(idx.len()) {
            *r2.get_mut((o as usize).checked_sub(start)?)? = r;
        }
        Some((vec![d; end - start], r2, (start..end).collect()))
    }
}

fn is_null(nulls: &Option<NullBuffer>, i: usize) -> bool {
    nulls.as_ref().is_some_and(|n| n.is_null(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page starts, one level at a time.
    fn cuts_level_by_level(rep: &[u16], limit: PageLimit) -> Vec<Cut> {
        let mut out: Vec<Cut> = Vec::new();
        let starts = rep.iter().enumerate().filter(|(_, &r)| r == 0);
        for (row, (level, _)) in starts.enumerate() {
            let start = match out.last() {
                None => true,
                Some(c) => row - c.row >= limit.rows || level - c.level >= limit.levels,
            };
            if start {
                out.push(Cut {
                    row,
                    level,
                    value: 0,
                });
            }
        }
        out
    }

    #[test]
    fn histograms_count_each_level_per_page() {
        assert_eq!(histogram(&[0, 2, 2, 1, 2], 2), [1, 1, 3]);
        let v = LevelVec::new(vec![0, 1, 1, 0, 0]);
        let cuts = [
            Cut::default(),
            Cut {
                level: 3,
                ..Cut::default()
            },
        ];
        assert_eq!(*v.histograms(&cuts, 5, 1), [vec![1, 2], vec![2, 0]]);
    }

    #[test]
    fn lists_expanded_whole_are_as_expanded_a_level_at_a_time() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut whole = 0;
        for case in 0..400 {
            let rows = 1 + next(40) as usize;
            // Lists of 1 to 4 entries; some cases with an empty or a
            // null list, some below a list (levels not all one, entries
            // not one run), some after a list's offset past 0.
            let mut lens: Vec<i32> = (0..rows).map(|_| 1 + next(4) as i32).collect();
            if case % 5 == 1 {
                lens[next(rows as u64) as usize] = 0;
            }
            let base = if case % 3 == 0 { 7 } else { 0 };
            let offsets: Vec<i32> = std::iter::once(base)
                .chain(lens.iter().scan(base, |o, l| {
                    *o += l;
                    Some(*o)
                }))
                .collect();
            let offsets = OffsetBuffer::new(offsets.into());
            let nulls = (case % 5 == 2).then(|| {
                let mut v = vec![true; rows];
                v[next(rows as u64) as usize] = false;
                NullBuffer::from(v)
            });
            let mut def = vec![1u16; rows];
            let mut rep = vec![0u16; rows];
            let mut idx: Vec<usize> = (0..rows).collect();
            match case % 7 {
                3 => def[next(rows as u64) as usize] = 0,
                4 => rep[next(rows as u64) as usize] = 1,
                5 => idx[next(rows as u64) as usize] = NONE,
                _ => {}
            }
            let list = List {
                nullable: case % 2 == 0,
                nulls: &nulls,
                offsets: &offsets,
                again: 1 + (case % 2) as u16,
            };
            let each = list.expand_each(&def, &rep, &idx).unwrap();
            assert_eq!(list.expand(&def, &rep, &idx).unwrap(), each, "case {case}");
            whole += usize::from(list.expand_full(&def, &rep, &idx).is_some());
        }
        // Both ways were taken.
        assert!((100..300).contains(&whole), "{whole} expanded whole");
    }

    #[test]
    fn page_starts_counted_a_run_at_a_time_are_those_of_each_level() {
        let mut x: u64 = 0x853c_49e6_748f_ea9b;
        for len in [0, 1, 63, 64, 65, 1000, 5000] {
            for limit in [
                (1, 1000),
                (3, 1000),
                (70, 1000),
                (1000, 50),
                (1000, 1),
                (7, 130),
            ] {
                let rep: Vec<u16> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Rows of 1 to 8 levels, some long runs of entries.
                        u16::from(x % 8 != 0 && x % 1000 != 1) * (1 + (x % 3) as u16)
                    })
                    .collect();
                let limit = PageLimit {
                    rows: limit.0,
                    levels: limit.1,
                };
                assert_eq!(
                    cuts(&rep, limit),
                    cuts_level_by_level(&rep, limit),
                    "{len} levels, {limit:?}"
                );
            }
        }
    }
}
