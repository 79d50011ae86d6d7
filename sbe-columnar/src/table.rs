//! A block's columns (its fields, groups and var data) and the walk that
//! fills them from a message's bytes, by the IR's wire facts and the
//! rules of `sbe_rt::__private::codec` (the ones generated decoders and
//! `sbe decode` apply): a message is first walked without filling
//! anything, so that one that breaks a rule leaves no partial row.

use std::sync::Arc;

use arrow_array::{ArrayRef, ListArray, RecordBatch, UInt64Array};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};

use crate::nulls::Nulls;
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema as ArrowSchema, SchemaRef};
use sbe_ir::ir::{Block, ByteOrder, Data, Exponent, Group, Meaning, Presence};
use sbe_rt::__private::codec;
use sbe_rt::wire::{Dimension, VarData};

use crate::error::ExportError;
use crate::node::{self, DataCol, DecimalCol, EnumCol, IntCol, Node};

/// How many bytes of rows wait to be read into their columns at most:
/// few enough to stay in the first-level cache while each column reads
/// them.
const STAGED_BYTES: usize = 16 * 1024;

/// The columns of one block.
pub(crate) struct BlockCols {
    /// The integer, enum and decimal fields (the most common values),
    /// each kind filled in a loop of its own with no dispatch on the kind,
    /// with their `sinceVersion`.
    ints: Vec<(u32, IntCol)>,
    enums: Vec<(u32, EnumCol)>,
    decimals: Vec<(u32, DecimalCol)>,
    /// The other fields, with their `sinceVersion`.
    fields: Vec<(u32, Node)>,
    /// The fields in column order, for the arrays.
    order: Vec<FieldCol>,
    /// The newest `sinceVersion` of a field: at or past it, none is absent.
    newest: u32,
    /// Rows of `ints`, `enums` and `decimals` not read yet: blocks of
    /// `stride` bytes, read into the columns a column at a time (a
    /// value's slot matched once for many rows, not once a value). Only
    /// blocks that hold every such field, at an acting version where none
    /// is absent, wait here; any other block (or one of another length)
    /// reads them first.
    staged: Vec<u8>,
    stride: usize,
    /// Where the last of those fields ends (0: there are none).
    span: usize,
    groups: Vec<GroupCol>,
    data: Vec<(u32, DataCol)>,
    /// The Arrow fields, in column order.
    pub arrow: Vec<Field>,
    /// This block's exponent fields that field decimals of its groups'
    /// entries read, published as each row is read.
    publish: Vec<node::Publish>,
    /// Exponent fields this block's (and its entries') field decimals read
    /// from enclosing blocks: (blocks out from this one, the field's
    /// index there, where it is published), for the enclosing block to
    /// take when it is planned ([`BlockCols::adopt`]).
    outer: Vec<(usize, usize, node::ExponentCell)>,
}

/// A group's columns: a list of structs, or a child table.
pub(crate) enum GroupCol {
    Nested {
        field: FieldRef,
        offsets: Vec<i32>,
        nulls: Nulls,
        entry: Box<BlockCols>,
    },
    Flat(Box<Table>),
}

/// How a table's rows are keyed: a message's own header and frame
/// columns, or a flattened group's key path.
pub(crate) struct Table {
    pub name: String,
    pub schema: SchemaRef,
    /// Key columns: `msgIndex` and the entry indices of the path.
    pub keys: Vec<Vec<u64>>,
    /// The meta columns a message table has before its fields (filled by
    /// the exporter).
    pub meta: crate::meta::MetaCols,
    pub block: BlockCols,
    pub rows: usize,
}

/// Where a field's column is: its index in [`BlockCols::ints`],
/// `enums`, `decimals` or `fields`.
#[derive(Clone, Copy)]
enum FieldCol {
    Int(usize),
    Enum(usize),
    Decimal(usize),
    Other(usize),
}

/// Options the planning reads.
#[derive(Clone, Copy)]
pub(crate) struct Plan {
    pub flatten: bool,
    /// The schema's byte order.
    pub order: ByteOrder,
    /// The finest unit of a timestamp column.
    pub time: crate::TimestampUnit,
}

impl BlockCols {
    /// The columns of `block`, inside the blocks `outer` (outermost
    /// first: the message's root block, the entries holding this one).
    pub(crate) fn new(
        block: &Block,
        outer_blocks: &[&Block],
        plan: Plan,
        path: &str,
        keys: &[String],
    ) -> BlockCols {
        let within: Vec<&Block> = outer_blocks.iter().copied().chain([block]).collect();
        let mut arrow = Vec::new();
        let mut ints = Vec::new();
        let mut enums = Vec::new();
        let mut decimals = Vec::new();
        let mut fields = Vec::new();
        let mut order = Vec::new();
        let mut outer = Vec::new();
        let mut publish = Vec::new();
        for f in &block.fields {
            let constant = (f.presence == Presence::Constant)
                .then_some(f.const_value.as_ref())
                .flatten();
            let field_decimal = match &f.meaning {
                Meaning::Decimal(d) => match d.exponent {
                    Exponent::Field(r) => {
                        let exponent_field = within
                            .len()
                            .checked_sub(r.up + 1)
                            .and_then(|i| within.get(i))
                            .and_then(|b| b.fields.get(r.field));
                        let exp = if r.up == 0 {
                            let e = block.fields.get(r.field);
                            let p = e.and_then(|e| {
                                node::Publish::new(e, plan.order, node::ExponentCell::new())
                            });
                            p.map(|p| node::ExponentAt::Row {
                                read: p.read,
                                null: p.null,
                            })
                        } else {
                            let cell = node::ExponentCell::new();
                            outer.push((r.up, r.field, cell.clone()));
                            Some(node::ExponentAt::Outer(cell))
                        };
                        exp.zip(exponent_field).and_then(|(exp, ef)| {
                            node::plan_field_decimal(
                                (&f.name, ef),
                                &f.ty,
                                d,
                                (&f.type_name, f.offset as usize, plan.order),
                                exp,
                            )
                        })
                    }
                    _ => None,
                },
                _ => None,
            };
            let (n, fs) = match field_decimal {
                Some(planned) => planned,
                None => node::plan(node::Spec {
                    name: &f.name,
                    ty: &f.ty,
                    meaning: &f.meaning,
                    type_name: &f.type_name,
                    semantic: f.semantic_type.as_deref(),
                    at: f.offset as usize,
                    optional: f.presence == Presence::Optional,
                    constant,
                    order: plan.order,
                    time: plan.time,
                }),
            };
            // A field newer than some acting version is null in it.
            arrow.extend(fs.into_iter().map(|c| {
                let nullable = c.is_nullable() || f.since_version > 0;
                c.with_nullable(nullable)
            }));
            let since = f.since_version;
            match n {
                Node::Int(c) => {
                    order.push(FieldCol::Int(ints.len()));
                    ints.push((since, c));
                }
                Node::Enum(c) => {
                    order.push(FieldCol::Enum(enums.len()));
                    enums.push((since, c));
                }
                Node::Decimal(c) => {
                    order.push(FieldCol::Decimal(decimals.len()));
                    decimals.push((since, c));
                }
                n => {
                    order.push(FieldCol::Other(fields.len()));
                    fields.push((since, n));
                }
            }
        }
        let newest = block.fields.iter().map(|f| f.since_version).max();
        let mut groups = Vec::new();
        for g in &block.groups {
            let child_path = format!("{path}.{}", g.name);
            if plan.flatten {
                let mut child_keys = keys.to_vec();
                child_keys.push(format!("{}Index", g.name));
                let mut child = Table::child(&child_path, &g.block, &within, plan, child_keys);
                adopt(
                    block,
                    plan,
                    &mut child.block.outer,
                    &mut outer,
                    &mut publish,
                );
                groups.push(GroupCol::Flat(Box::new(child)));
            } else {
                let mut entry = BlockCols::new(&g.block, &within, plan, &child_path, keys);
                adopt(block, plan, &mut entry.outer, &mut outer, &mut publish);
                let st = DataType::Struct(Fields::from(entry.arrow.clone()));
                // Entries are never null, the list only where the group
                // is newer than the acting version.
                let item = Arc::new(Field::new("item", st, false));
                let list = node::field(
                    &g.name,
                    DataType::List(item.clone()),
                    &g.dimension_type.name,
                    "group",
                );
                arrow.push(list.with_nullable(g.block.since_version > 0));
                groups.push(GroupCol::Nested {
                    field: item,
                    offsets: vec![0],
                    nulls: Nulls::new(),
                    entry: Box::new(entry),
                });
            }
        }
        let mut data = Vec::new();
        for d in &block.data {
            let col = DataCol::new(&d.meaning, d.character_encoding.as_deref());
            arrow.push(node::field(
                &d.name,
                col.data_type(),
                &d.encoding_type.name,
                d.meaning.kind(),
            ));
            data.push((d.since_version, col));
        }
        let span = (ints.iter().map(|(_, c)| c.end()))
            .chain(enums.iter().map(|(_, c)| c.end()))
            .chain(decimals.iter().map(|(_, c)| c.end()))
            .max()
            .unwrap_or(0);
        BlockCols {
            ints,
            enums,
            decimals,
            fields,
            order,
            newest: newest.unwrap_or(0),
            staged: Vec::new(),
            stride: 0,
            span,
            groups,
            data,
            arrow,
            publish,
            outer,
        }
    }

    /// Reads the fields of the block `bytes` (checked to hold every
    /// field of acting version `version`) into their columns, kind by
    /// kind (the order of the columns is kept by `order`, not by the
    /// filling); a field newer than `version` is null.
    #[inline(always)]
    fn fill(&mut self, bytes: &[u8], version: u32) {
        self.fill_rows(bytes, bytes.len(), 1, version);
    }

    /// [`Self::fill`] of `count` blocks of `block_len` bytes, one after
    /// another in `rows` (a group's entries): staged whole where they can
    /// be, in one copy.
    #[inline(always)]
    fn fill_rows(&mut self, rows: &[u8], block_len: usize, count: usize, version: u32) {
        /// Each column of `cols`: filled, or null when newer than
        /// `version` (checked only when some field is).
        macro_rules! fill {
            ($cols:expr, $fill:ident, $every:expr, $bytes:expr) => {
                for (since, c) in $cols {
                    if $every || *since <= version {
                        c.$fill($bytes, 0);
                    } else {
                        c.push_null();
                    }
                }
            };
        }
        let every = version >= self.newest;
        let row = |i: usize| {
            let at = i.saturating_mul(block_len);
            rows.get(at..at.saturating_add(block_len))
                .unwrap_or_default()
        };
        if every && self.span > 0 && block_len >= self.span {
            if self.stride != block_len {
                self.read_staged();
                self.stride = block_len;
            }
            self.staged.extend_from_slice(rows);
            if self.staged.len() >= STAGED_BYTES {
                self.read_staged();
            }
        } else {
            self.read_staged();
            for i in 0..count {
                let bytes = row(i);
                fill!(&mut self.ints, fill, every, bytes);
                fill!(&mut self.enums, fill, every, bytes);
                fill!(&mut self.decimals, fill, every, bytes);
            }
        }
        if !self.fields.is_empty() {
            for i in 0..count {
                let bytes = row(i);
                fill!(&mut self.fields, fill_other, every, bytes);
            }
        }
        // The rows whose groups are read after them come one at a time
        // (a block with groups is never filled as many rows).
        if let Some(last) = count.checked_sub(1) {
            for p in &self.publish {
                p.publish(row(last));
            }
        }
    }

    /// Whether every group is a list column (none flattened).
    pub(crate) fn lists_only(&self) -> bool {
        self.groups
            .iter()
            .all(|g| matches!(g, GroupCol::Nested { .. }))
    }

    /// Reads the staged rows into their columns.
    fn read_staged(&mut self) {
        if self.staged.is_empty() {
            return;
        }
        let (rows, stride) = (&self.staged, self.stride);
        for (_, c) in &mut self.ints {
            c.fill_rows(rows, stride);
        }
        for (_, c) in &mut self.enums {
            c.fill_rows(rows, stride);
        }
        for (_, c) in &mut self.decimals {
            c.fill_rows(rows, stride);
        }
        self.staged.clear();
    }

    /// The arrays of the rows so far, in column order.
    fn finish(&mut self, out: &mut Vec<ArrayRef>) {
        self.read_staged();
        for col in &self.order {
            match *col {
                FieldCol::Int(i) => {
                    if let Some((_, c)) = self.ints.get_mut(i) {
                        out.push(c.finish());
                    }
                }
                FieldCol::Enum(i) => {
                    if let Some((_, c)) = self.enums.get_mut(i) {
                        c.finish(out);
                    }
                }
                FieldCol::Decimal(i) => {
                    if let Some((_, c)) = self.decimals.get_mut(i) {
                        out.push(c.finish());
                    }
                }
                FieldCol::Other(i) => {
                    if let Some((_, n)) = self.fields.get_mut(i) {
                        n.finish(out);
                    }
                }
            }
        }
        for g in &mut self.groups {
            if let GroupCol::Nested {
                field,
                offsets,
                nulls,
                entry,
            } = g
            {
                let mut arrays = Vec::new();
                entry.finish(&mut arrays);
                let fields = match field.data_type() {
                    DataType::Struct(f) => f.clone(),
                    _ => Fields::empty(),
                };
                let len = offsets.last().copied().unwrap_or(0) as usize;
                let mut valid = Nulls::new();
                valid.append_n_non_nulls(len);
                let values = node::struct_array(&fields, arrays, &mut valid);
                let offsets = std::mem::replace(offsets, vec![0]);
                let list = ListArray::try_new(
                    field.clone(),
                    OffsetBuffer::new(ScalarBuffer::from(offsets)),
                    values,
                    nulls.finish(),
                );
                out.push(match list {
                    Ok(l) => Arc::new(l),
                    Err(_) => arrow_array::new_null_array(&DataType::List(field.clone()), 0),
                });
            }
        }
        for (_, d) in &mut self.data {
            out.push(d.finish());
        }
    }

    /// Batches of the child tables that hold `bound` rows or more (all of
    /// them when `all`).
    fn ready(
        &mut self,
        bound: usize,
        all: bool,
        out: &mut Vec<(String, RecordBatch)>,
    ) -> Result<(), ExportError> {
        for g in &mut self.groups {
            match g {
                GroupCol::Flat(t) => t.ready(bound, all, out)?,
                GroupCol::Nested { entry, .. } => entry.ready(bound, all, out)?,
            }
        }
        Ok(())
    }

    /// The schemas of the child tables.
    fn child_schemas(&self, out: &mut Vec<(String, SchemaRef)>) {
        for g in &self.groups {
            match g {
                GroupCol::Flat(t) => {
                    out.push((t.name.clone(), t.schema.clone()));
                    t.block.child_schemas(out);
                }
                GroupCol::Nested { entry, .. } => entry.child_schemas(out),
            }
        }
    }
}

/// Takes a group entry's requests for exponent fields of enclosing blocks
/// (`child`, counted from the entry): the ones of `block`, the entry's
/// enclosing block, it publishes; the others go on out (`outer`).
fn adopt(
    block: &Block,
    plan: Plan,
    child: &mut Vec<(usize, usize, node::ExponentCell)>,
    outer: &mut Vec<(usize, usize, node::ExponentCell)>,
    publish: &mut Vec<node::Publish>,
) {
    for (up, field, cell) in child.drain(..) {
        if up <= 1 {
            if let Some(p) = block
                .fields
                .get(field)
                .and_then(|f| node::Publish::new(f, plan.order, cell))
            {
                publish.push(p);
            }
        } else {
            outer.push((up - 1, field, cell));
        }
    }
}

impl Table {
    /// A flattened group's table.
    fn child(name: &str, block: &Block, outer: &[&Block], plan: Plan, keys: Vec<String>) -> Table {
        let block_cols = BlockCols::new(block, outer, plan, name, &keys);
        let mut fields: Vec<Field> = keys
            .iter()
            .map(|k| Field::new(k, DataType::UInt64, false))
            .collect();
        fields.extend(block_cols.arrow.iter().cloned());
        Table {
            name: name.to_string(),
            schema: Arc::new(ArrowSchema::new(fields)),
            keys: vec![Vec::new(); keys.len()],
            meta: crate::meta::MetaCols::none(),
            block: block_cols,
            rows: 0,
        }
    }

    /// A message's table: meta columns, then the root block's.
    pub(crate) fn message(
        name: &str,
        block: &Block,
        plan: Plan,
        meta: crate::meta::MetaCols,
        metadata: std::collections::HashMap<String, String>,
    ) -> Table {
        let block_cols = BlockCols::new(block, &[], plan, name, &["msgIndex".to_string()]);
        let mut fields = meta.fields();
        fields.extend(block_cols.arrow.iter().cloned());
        Table {
            name: name.to_string(),
            schema: Arc::new(ArrowSchema::new_with_metadata(fields, metadata)),
            keys: Vec::new(),
            meta,
            block: block_cols,
            rows: 0,
        }
    }

    /// The rows so far as a batch, the table emptied.
    pub(crate) fn take_batch(&mut self) -> Result<RecordBatch, ExportError> {
        let mut arrays: Vec<ArrayRef> = Vec::new();
        for k in &mut self.keys {
            arrays.push(Arc::new(UInt64Array::from(crate::node::take(k))));
        }
        self.meta.finish(&mut arrays);
        self.block.finish(&mut arrays);
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), arrays)
            .map_err(|e| ExportError::Arrow(e.to_string()))
    }

    /// Whether the table's batch is ready: `bound` rows, or a full
    /// address dictionary.
    pub(crate) fn full(&self, bound: usize) -> bool {
        (self.rows >= bound && bound > 0) || self.meta.full()
    }

    /// Moves this table's batch to `out` when it holds `bound` rows or
    /// more (any rows when `all`), and its child tables' likewise. A batch
    /// Arrow refuses is an error, not a table left out.
    pub(crate) fn ready(
        &mut self,
        bound: usize,
        all: bool,
        out: &mut Vec<(String, RecordBatch)>,
    ) -> Result<(), ExportError> {
        if (all && self.rows > 0) || self.full(bound) {
            out.push((self.name.clone(), self.take_batch()?));
        }
        self.block.ready(bound, all, out)
    }

    /// This table's schema and its child tables'.
    pub(crate) fn schemas(&self, out: &mut Vec<(String, SchemaRef)>) {
        out.push((self.name.clone(), self.schema.clone()));
        self.block.child_schemas(out);
    }
}

/// A block's wire facts as the walk reads them, computed once from the
/// IR when the exporter is made (the IR computes a group's layout and
/// the lengths a version needs each time it is asked).
pub(crate) struct Shape<'s> {
    block: &'s Block,
    /// The version `required` and the groups' `tail` were computed at
    /// (the schema's); other acting versions ask the IR.
    version: u32,
    /// `block.end_at(version)`.
    required: usize,
    groups: Vec<GroupShape<'s>>,
    data: Vec<(&'s Data, VarData)>,
    /// A block then groups of entries of a block only, no var data (most
    /// market data): checked and filled without a walk of its own (see
    /// [`Walk::spans`]).
    pub(crate) flat: bool,
}

/// Where a group's entries are in a message: at, how many, each's
/// length (`None`: the group is newer than the acting version).
pub(crate) type Span = Option<(usize, usize, usize)>;

/// A group's wire facts.
struct GroupShape<'s> {
    group: &'s Group,
    dim: Dimension,
    /// `group.entry_tail(version)` at the shape's version.
    tail: usize,
    /// Its entries are a block only (no groups, no var data).
    fixed: bool,
    entries: Shape<'s>,
}

impl<'s> Shape<'s> {
    /// The shape of `block`, its lengths at acting version `version`.
    pub(crate) fn new(block: &'s Block, order: ByteOrder, version: u32) -> Shape<'s> {
        let groups: Vec<GroupShape<'s>> = (block.groups.iter())
            .map(|g| GroupShape {
                group: g,
                dim: g.dimension(order),
                tail: g.entry_tail(version) as usize,
                fixed: g.block.groups.is_empty() && g.block.data.is_empty(),
                entries: Shape::new(&g.block, order, version),
            })
            .collect();
        Shape {
            flat: block.data.is_empty() && groups.iter().all(|g| g.fixed),
            block,
            version,
            required: block.end_at(version) as usize,
            groups,
            data: block.data.iter().map(|d| (d, d.var_data(order))).collect(),
        }
    }

    /// The block length the fields need at acting version `version`.
    pub(crate) fn required(&self, version: u32) -> usize {
        if version == self.version {
            self.required
        } else {
            self.block.end_at(version) as usize
        }
    }
}

impl GroupShape<'_> {
    /// The fewest bytes an entry takes after its block at `version`.
    fn tail(&self, version: u32) -> usize {
        if version == self.entries.version {
            self.tail
        } else {
            self.group.entry_tail(version) as usize
        }
    }
}

/// The walk over one message's bytes.
pub(crate) struct Walk<'b> {
    pub buf: &'b [u8],
    pub version: u32,
}

impl Walk<'_> {
    /// `len` bytes at `at`, or a truncation naming `what`.
    fn take(&self, at: usize, len: usize, what: &str) -> Result<&[u8], ExportError> {
        at.checked_add(len)
            .and_then(|end| self.buf.get(at..end))
            .ok_or_else(|| ExportError::truncated(what, at, len, self.buf.len()))
    }

    /// The root block or an entry: `block_len` bytes at `*pos`, then the
    /// groups and var data; `*pos` ends after them. With `cols`, the
    /// values go into them (and `keys` is the entry's key path).
    pub(crate) fn block(
        &self,
        shape: &Shape<'_>,
        mut cols: Option<&mut BlockCols>,
        pos: &mut usize,
        block_len: usize,
        keys: &mut Vec<u64>,
    ) -> Result<(), ExportError> {
        let bytes = self.take(*pos, block_len, "block")?;
        if let Some(c) = cols.as_deref_mut() {
            c.fill(bytes, self.version);
        }
        *pos = pos.saturating_add(block_len);
        for (i, g) in shape.groups.iter().enumerate() {
            let gc = cols.as_deref_mut().and_then(|c| c.groups.get_mut(i));
            if g.group.block.since_version > self.version {
                if let Some(GroupCol::Nested { offsets, nulls, .. }) = gc {
                    node::end_list(offsets, nulls, 0, false);
                }
                continue;
            }
            self.group(g, gc, pos, keys)?;
        }
        for (i, (d, lay)) in shape.data.iter().enumerate() {
            let dc = cols.as_deref_mut().and_then(|c| c.data.get_mut(i));
            if d.since_version > self.version {
                if let Some((_, dc)) = dc {
                    dc.push(None);
                }
                continue;
            }
            let bytes = self.data(d, *lay, pos)?;
            if let Some((_, dc)) = dc {
                dc.push(Some(bytes));
            }
        }
        Ok(())
    }

    fn group(
        &self,
        shape: &GroupShape<'_>,
        mut col: Option<&mut GroupCol>,
        pos: &mut usize,
        keys: &mut Vec<u64>,
    ) -> Result<(), ExportError> {
        let (at, count, block_len) = self.entries(shape, pos)?;
        if shape.fixed && !matches!(col, Some(GroupCol::Flat(_))) {
            // Entries of a block only, their bytes checked above: nothing
            // in them to check, and their fields filled here rather than
            // by a walk of each entry.
            if let Some(gc) = col {
                self.fill_fixed(gc, Some((at, count, block_len)))?;
            }
            *pos = pos.saturating_add(count.saturating_mul(block_len));
            return Ok(());
        }
        for i in 0..count {
            let entry = match col.as_deref_mut() {
                None => None,
                Some(GroupCol::Nested { entry, .. }) => Some(&mut **entry),
                Some(GroupCol::Flat(t)) => {
                    for (k, v) in t.keys.iter_mut().zip(keys.iter().chain([&(i as u64)])) {
                        k.push(*v);
                    }
                    t.rows += 1;
                    Some(&mut t.block)
                }
            };
            keys.push(i as u64);
            let r = self.block(&shape.entries, entry, pos, block_len, keys);
            keys.pop();
            r?;
        }
        if let Some(GroupCol::Nested { offsets, nulls, .. }) = col {
            node::end_list(offsets, nulls, count, true);
        }
        Ok(())
    }

    /// The group's dimension at `*pos`, checked with the bytes of its
    /// entries (their count, length and what the acting version needs):
    /// where the entries start (`*pos` ends there), how many, each's
    /// length.
    fn entries(
        &self,
        shape: &GroupShape<'_>,
        pos: &mut usize,
    ) -> Result<(usize, usize, usize), ExportError> {
        let g = shape.group;
        let layout = shape.dim;
        let dim = self.take(*pos, layout.len, "group dimension")?;
        let block_len = codec::to_usize(layout.block_length.get(dim));
        let count = codec::to_usize(layout.count.get(dim));
        let required = shape.entries.required(self.version);
        codec::check_group(count, block_len, layout.max_count, required)
            .map_err(|e| ExportError::rule(&g.name, *pos, e))?;
        let dim_at = *pos;
        *pos += layout.len;
        let min_entry = block_len.saturating_add(shape.tail(self.version));
        codec::check_entries(self.buf, *pos, count, min_entry).map_err(|e| {
            let at = if *pos > self.buf.len() { *pos } else { dim_at };
            ExportError::rule(&g.name, at, e)
        })?;
        Ok((*pos, count, block_len))
    }

    /// A [`Shape::flat`] message's checks, as [`Walk::block`] makes them:
    /// the root block of `block_len` bytes at `*pos`, then each group's
    /// entries, whose [`Span`]s go into `spans` for [`Walk::fill_flat`];
    /// `*pos` ends after them.
    pub(crate) fn spans(
        &self,
        shape: &Shape<'_>,
        pos: &mut usize,
        block_len: usize,
        spans: &mut Vec<Span>,
    ) -> Result<(), ExportError> {
        self.take(*pos, block_len, "block")?;
        *pos = pos.saturating_add(block_len);
        for g in &shape.groups {
            if g.group.block.since_version > self.version {
                spans.push(None);
                continue;
            }
            let (at, count, len) = self.entries(g, pos)?;
            *pos = pos.saturating_add(count.saturating_mul(len));
            spans.push(Some((at, count, len)));
        }
        Ok(())
    }

    /// Fills `cols` (whose groups are lists) from the root block of
    /// `block_len` bytes at `at` and the groups' `spans`, all checked by
    /// [`Walk::spans`].
    pub(crate) fn fill_flat(
        &self,
        cols: &mut BlockCols,
        at: usize,
        block_len: usize,
        spans: &[Span],
    ) -> Result<(), ExportError> {
        cols.fill(self.take(at, block_len, "block")?, self.version);
        for (gc, span) in cols.groups.iter_mut().zip(spans) {
            self.fill_fixed(gc, *span)?;
        }
        Ok(())
    }

    /// A list column's row of the entries at `span` (checked), all of a
    /// block only; `None`: a null list, the group newer than the version.
    #[inline(always)]
    fn fill_fixed(&self, col: &mut GroupCol, span: Span) -> Result<(), ExportError> {
        let GroupCol::Nested {
            offsets,
            nulls,
            entry,
            ..
        } = col
        else {
            return Ok(());
        };
        match span {
            None => node::end_list(offsets, nulls, 0, false),
            Some((at, count, len)) => {
                let all = self.take(at, count.saturating_mul(len), "block")?;
                entry.fill_rows(all, len, count, self.version);
                node::end_list(offsets, nulls, count, true);
            }
        }
        Ok(())
    }

    /// A var data's bytes at `*pos`; `*pos` ends after them.
    fn data(&self, d: &Data, lay: VarData, pos: &mut usize) -> Result<&[u8], ExportError> {
        let prefix = self.take(*pos, lay.data_offset, "var data prefix")?;
        let len = codec::to_usize(lay.length.get(prefix));
        codec::check_length(len, lay.max_length)
            .map_err(|e| ExportError::rule(&d.name, *pos, e))?;
        *pos += lay.data_offset;
        let bytes = self.take(*pos, len, "var data")?;
        *pos += len;
        Ok(bytes)
    }
}
