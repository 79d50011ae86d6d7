//! SBE messages to Arrow record batches, typed from the schema's IR: one
//! table per message, its columns named as the schema's fields, their
//! Arrow types from the meaning facts (`sbe_ir::ir::Meaning`). Feed the
//! batches to DataFusion or Polars in process, or write them as a Parquet
//! or Arrow IPC dataset with [`dataset`]. [`pipeline`] does all of it on
//! several threads, messages from any reader in, a dataset out: what
//! `sbe decode --format parquet` runs.
//!
//! | schema value | Arrow type |
//! |---|---|
//! | decimal, constant exponent | `Decimal128(p, -exponent)`, `p` the mantissa type's digits |
//! | decimal, exponent on the wire | `Float64`, plus `<name>_exact`: struct of the mantissa and exponent (both null where the mantissa is: a null mantissa is a null decimal) |
//! | decimal, exponent another field's (Binance's `mbx:exponent`; read from the mantissa's block or an enclosing one, so a group entry takes its message's) | `Decimal128(38, s)`, plus `<name>_raw`: struct of the mantissa (`Int64`, or `Decimal128(38, 0)` for a 128-bit mantissa) and the exponent (`Int8`), non-null only where the value does not fit the column (see below) |
//! | timestamp | `Timestamp(unit, UTC)`: the wire's unit, seconds as milliseconds (exactly: Parquet and Polars have no seconds), and nothing finer than [`Options::timestamp_unit`] (nanoseconds by default, also when the unit is on the wire or unstated); plus `<name>_raw`, the wire integer where the column does not hold it exactly (past its range, or digits a coarser unit rounded down), when that can happen |
//! | time of day | `Time64(ns)` |
//! | date | `Date32` |
//! | enum | `Dictionary(UInt16, Utf8)` of the names, plus `<name>_raw`: the value when it is outside the enum |
//! | set | `List<Utf8>` of the choices set, plus `<name>_raw`: the integer |
//! | char, char array | `Utf8` (cut at NUL) |
//! | var data | `Utf8` with a character encoding, else `Binary` |
//! | integer, float | the same width |
//! | other composite | `Struct` of its members |
//! | group | `List<Struct>` (or a child table with `flatten`) |
//!
//! A null value, an optional value at null and a field newer than the
//! acting version are Arrow nulls.
//!
//! A field decimal's exponent varies per message, and a `Decimal128`
//! column has one scale: `s` is the finest exponent the exponent field may
//! hold, `-minValue` where its type declares a `minValue` (clamped to
//! 0..=38), else 18, which holds every `int64` mantissa at exponents -18
//! to +1 (Binance's are among them). A value finer than the scale, or of
//! more than 38 digits at it, or whose exponent is null, is null in
//! `<name>` and exact in `<name>_raw`, as a timestamp the column cannot
//! hold is in its `_raw`; a null mantissa is null in both.
//!
//! # Parquet: what each column is written as
//!
//! [`dataset`] writes each column with an encoding that pyarrow, DuckDB,
//! Polars (its own reader), DataFusion and Spark all decode, not only what
//! the Parquet format allows: readers implement different parts of it.
//! Each of the five reads every kind below and agrees on the values
//! (`sbe-command/tests/readers.rs`).
//!
//! | Arrow type | physical type | logical type | encoding | the reader that decided |
//! |---|---|---|---|---|
//! | `Int8`..`Int32`, `UInt8`..`UInt32`, `Date32`, `Decimal128` of up to 9 digits | `INT32` | `INT(bits, signed)`, `DATE`, `DECIMAL(p, s)` | `DELTA_BINARY_PACKED` | all five read it; smaller than `PLAIN` and cheaper than a dictionary |
//! | `Int64`, `UInt64`, `Decimal128` of 10 to 18 digits | `INT64` | `INT(64, signed)`, `DECIMAL(p, s)` | `DELTA_BINARY_PACKED` | as above; Spark reads `UINT64` as `DECIMAL(20, 0)` |
//! | `Timestamp(ms \| us \| ns, UTC)` | `INT64` | `TIMESTAMP(MILLIS \| MICROS \| NANOS, UTC)` | `DELTA_BINARY_PACKED` | Spark refuses `NANOS` unless `spark.sql.legacy.parquet.nanosAsLong` is set (then an integer): [`Options::timestamp_unit`] `Micros` is what it reads by default |
//! | a timestamp in seconds | `INT64` | `TIMESTAMP(MILLIS, UTC)`, the seconds times 1000 | `DELTA_BINARY_PACKED` | Arrow's `Timestamp(s)` is written as a plain `INT64`: pyarrow, DuckDB and Spark read an integer where DataFusion and Polars read a time |
//! | `Time64(ns)` | `INT64` | `TIME(NANOS)` | `DELTA_BINARY_PACKED` | Spark reads `TIME` only with `spark.sql.timeType.enabled` |
//! | `Decimal128` of 19 digits or more (an `int64` mantissa) | `FIXED_LEN_BYTE_ARRAY(n)` | `DECIMAL(p, s)` | `PLAIN` | Polars refuses `DELTA_BYTE_ARRAY` for fixed-length values (every MDP3 price, and any group holding one); a dictionary of generated MDP3 prices was a fifth larger than `PLAIN` and slower to write |
//! | `Float32`, `Float64` | `FLOAT`, `DOUBLE` | none | `PLAIN` | all five; floats do not repeat or delta well |
//! | `Utf8`, `Binary`, `Dictionary(UInt16, Utf8)` | `BYTE_ARRAY` | `STRING` (none for `Binary`) | `RLE_DICTIONARY`, a `PLAIN` dictionary page (`PLAIN` past the dictionary's size limit) | all five; enum names, addresses and symbols repeat |
//! | a list's or an optional column's levels | | | `RLE` | all five |
//!
//! ```
//! let xml = r#"<messageSchema package="demo" id="1">
//!   <types>
//!     <composite name="messageHeader">
//!       <type name="blockLength" primitiveType="uint16"/>
//!       <type name="templateId" primitiveType="uint16"/>
//!       <type name="schemaId" primitiveType="uint16"/>
//!       <type name="version" primitiveType="uint16"/>
//!     </composite>
//!     <composite name="PRICE9">
//!       <type name="mantissa" primitiveType="int64"/>
//!       <type name="exponent" primitiveType="int8" presence="constant">-9</type>
//!     </composite>
//!   </types>
//!   <message name="Trade" id="1">
//!     <field name="px" id="1" type="PRICE9"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
//! let mut ex = sbe_columnar::Exporter::new(&schema, sbe_columnar::Options::default()).unwrap();
//! let msg = [8, 0, 1, 0, 1, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b, 0, 0, 0, 0]; // px = 1.000000000
//! assert_eq!(ex.append(&msg, &sbe_columnar::Frame::at(0)), Ok(16));
//! let batches = ex.finish().unwrap();
//! let (name, batch) = &batches[0];
//! assert_eq!(name, "Trade");
//! let px = batch.column_by_name("px").unwrap();
//! assert_eq!(px.data_type(), &arrow_schema::DataType::Decimal128(19, 9));
//! ```
#![deny(missing_docs)]
// Input never reaches a panic: no indexing, unwrap or expect outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

pub mod dataset;
mod error;
mod errors;
mod meta;
mod node;
mod nulls;
pub mod pipeline;
#[cfg(feature = "capture")]
pub mod reading;
mod table;
mod time;

use std::collections::{HashMap, HashSet};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use sbe_ir::ir::{Header, Schema};
use sbe_rt::__private::codec;

pub use error::ExportError;
pub use meta::Frame;
pub use time::TimestampUnit;

use meta::{HeaderValues, MetaCols};
use table::{Plan, Shape, Table, Walk};

/// The name of the table of messages that could not be decoded.
pub const ERRORS: &str = "_errors";

/// How the tables are made.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// Groups as child tables `<Message>.<Group>` (one row per entry,
    /// keyed by `msgIndex` and the entry index path) instead of
    /// `List<Struct>` columns.
    pub flatten: bool,
    /// Rows of a table after which its batch is ready ([`Exporter::take_ready`]).
    /// A batch with frame columns is cut sooner when it has 65,535
    /// distinct addresses, which its `Dictionary(UInt16, Utf8)` holds at
    /// most.
    pub batch_rows: usize,
    /// Whether message tables have the capture frame columns (`time`,
    /// `packet`, `src`, `dst`, `msgSeqNum`, `sendingTime`).
    pub frames: bool,
    /// Refuse a message whose header names another schema id (as the
    /// generated decoders do).
    pub schema_id_check: bool,
    /// The first `msgIndex`: give each exporter writing into one dataset
    /// its own range.
    pub first_index: u64,
    /// The finest unit of a timestamp column (the schema's and the
    /// frame's): nanoseconds by default.
    pub timestamp_unit: TimestampUnit,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            flatten: false,
            batch_rows: 64 * 1024,
            frames: false,
            schema_id_check: true,
            first_index: 0,
            timestamp_unit: TimestampUnit::Nanos,
        }
    }
}

impl Options {
    /// Set [`Options::flatten`].
    #[must_use]
    pub fn flatten(mut self, on: bool) -> Options {
        self.flatten = on;
        self
    }

    /// Set [`Options::frames`].
    #[must_use]
    pub fn frames(mut self, on: bool) -> Options {
        self.frames = on;
        self
    }

    /// Set [`Options::batch_rows`].
    #[must_use]
    pub fn batch_rows(mut self, rows: usize) -> Options {
        self.batch_rows = rows.max(1);
        self
    }

    /// Set [`Options::schema_id_check`].
    #[must_use]
    pub fn schema_id_check(mut self, on: bool) -> Options {
        self.schema_id_check = on;
        self
    }

    /// Set [`Options::first_index`].
    #[must_use]
    pub fn first_index(mut self, index: u64) -> Options {
        self.first_index = index;
        self
    }

    /// Set [`Options::timestamp_unit`].
    #[must_use]
    pub fn timestamp_unit(mut self, unit: TimestampUnit) -> Options {
        self.timestamp_unit = unit;
        self
    }
}

/// The schema cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// The message header has no fixed length or no template id.
    Header(String),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Header(name) => write!(
                f,
                "message header `{name}` has no fixed length or no integer template id"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Turns one schema's messages into record batches, one table per
/// message (and per group with [`Options::flatten`]), plus [`ERRORS`].
pub struct Exporter<'s> {
    schema: &'s Schema,
    header: Header,
    /// Table by template id, looked up once a message: foldhash, not
    /// SipHash (the ids are the schema's, not the input's).
    by_id: HashMap<u64, usize, foldhash::fast::FixedState>,
    /// The template id looked up last and its table.
    last_table: Option<(u64, usize)>,
    /// Whether the header's four roles are `uint16`s, little-endian, at
    /// 0, 2, 4 and 6 (nearly every schema's): read at once.
    le16: bool,
    tables: Vec<Table>,
    /// Each message's wire facts, beside its table.
    shapes: Vec<Shape<'s>>,
    /// The key path of the entry being filled (reused from message to
    /// message).
    keys: Vec<u64>,
    /// The groups' entries of a flat message (see `table::Walk::spans`).
    spans: Vec<table::Span>,
    errors: errors::ErrorTable,
    next_index: u64,
    options: Options,
    ready: Vec<(String, RecordBatch)>,
    /// Message tables that filled, taken out whole (see [`Unfinished`]),
    /// with their index in `tables`.
    unfinished: Vec<(usize, Box<Table>)>,
    /// Tables emptied and given back ([`Exporter::give_back`]), to take
    /// the place of the next that fill: their buffers are kept, so that
    /// they grow no more.
    spares: Vec<(usize, Box<Table>)>,
}

/// A message table's rows taken out of the [`Exporter`] as they are,
/// when its batch is ready: making them into arrays (reading the staged
/// blocks into their columns, the dictionaries, the lists of a set's
/// choices) is work of its own, which [`Unfinished::finish`] does where
/// it is called, on a thread beside the decoding, say. Or a batch that
/// is already made.
///
/// ```
/// # let xml = r#"<messageSchema package="demo" id="1">
/// #   <types>
/// #     <composite name="messageHeader">
/// #       <type name="blockLength" primitiveType="uint16"/>
/// #       <type name="templateId" primitiveType="uint16"/>
/// #       <type name="schemaId" primitiveType="uint16"/>
/// #       <type name="version" primitiveType="uint16"/>
/// #     </composite>
/// #   </types>
/// #   <message name="Tick" id="1">
/// #     <field name="seq" id="1" type="uint32"/>
/// #   </message>
/// # </messageSchema>"#;
/// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
/// let options = sbe_columnar::Options::default().batch_rows(2);
/// let mut ex = sbe_columnar::Exporter::new(&schema, options).unwrap();
/// let tick = |seq: u8| [4, 0, 1, 0, 1, 0, 0, 0, seq, 0, 0, 0];
/// for seq in 0..3 {
///     ex.append(&tick(seq), &sbe_columnar::Frame::at(0)).unwrap();
/// }
/// // The first two rows, to be made into a batch on another thread.
/// let full = ex.take_unfinished();
/// let made = std::thread::spawn(move || {
///     full.into_iter().map(|u| u.finish().unwrap()).collect::<Vec<_>>()
/// });
/// let (name, batch) = &made.join().unwrap()[0];
/// assert_eq!((name.as_str(), batch.num_rows()), ("Tick", 2));
/// // The third is the rest.
/// assert_eq!(ex.finish().unwrap()[0].1.num_rows(), 1);
/// ```
pub struct Unfinished(Pending);

enum Pending {
    Table(usize, Box<Table>),
    Made(String, RecordBatch),
}

/// A batch already made, to go the way of those still to be made.
impl From<(String, RecordBatch)> for Unfinished {
    fn from((table, batch): (String, RecordBatch)) -> Unfinished {
        Unfinished(Pending::Made(table, batch))
    }
}

/// A table [`Unfinished::finish_keeping`] emptied, for
/// [`Exporter::give_back`] (the default: none).
#[derive(Default)]
pub struct Spare(Option<(usize, Box<Table>)>);

/// Spares an exporter keeps at most.
const SPARES: usize = 64;

impl Unfinished {
    /// The table's name.
    pub fn table(&self) -> &str {
        match &self.0 {
            Pending::Table(_, t) => &t.name,
            Pending::Made(name, _) => name,
        }
    }

    /// The rows as the table's record batch, with the table's name.
    ///
    /// # Errors
    /// As [`Exporter::take_ready`] would drop it: a batch Arrow refuses
    /// (none that the exporter fills is).
    pub fn finish(self) -> Result<(String, RecordBatch), ExportError> {
        self.finish_keeping().0
    }

    /// [`Unfinished::finish`], and the table emptied, which its exporter
    /// fills again when it is given back ([`Exporter::give_back`]) rather
    /// than a new one.
    pub fn finish_keeping(self) -> (Result<(String, RecordBatch), ExportError>, Spare) {
        match self.0 {
            Pending::Table(slot, mut t) => {
                let made = t.take_batch().map(|b| (t.name.clone(), b));
                (made, Spare(Some((slot, t))))
            }
            Pending::Made(name, batch) => (Ok((name, batch)), Spare(None)),
        }
    }
}

/// Message `m`'s table, empty.
fn message_table(schema: &Schema, m: &sbe_ir::ir::Message, options: &Options) -> Table {
    let plan = Plan {
        flatten: options.flatten,
        order: schema.byte_order,
        time: options.timestamp_unit,
    };
    let taken: HashSet<String> = m
        .block
        .fields
        .iter()
        .map(|f| f.name.clone())
        .chain(m.block.groups.iter().map(|g| g.name.clone()))
        .chain(m.block.data.iter().map(|d| d.name.clone()))
        .collect();
    let meta = MetaCols::new(true, options.frames, options.timestamp_unit, &taken);
    Table::message(&m.name, &m.block, plan, meta, metadata(schema, m.id))
}

/// Whether `h` is the standard header of a little-endian schema.
fn standard_le16(h: &Header) -> bool {
    use sbe_rt::wire::Uint::U16Le;
    h.len >= 8
        && h.block_length == Some(U16Le(0))
        && h.template_id == Some(U16Le(2))
        && h.schema_id == Some(U16Le(4))
        && h.version == Some(U16Le(6))
}

impl<'s> Exporter<'s> {
    /// An exporter of `schema`'s messages.
    pub fn new(schema: &'s Schema, options: Options) -> Result<Exporter<'s>, SetupError> {
        let header = schema.header();
        if header.len == 0 || header.template_id.is_none() {
            return Err(SetupError::Header(schema.header_type.name.clone()));
        }
        let mut by_id = HashMap::default();
        let tables = schema
            .messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                by_id.entry(u64::from(m.id)).or_insert(i);
                message_table(schema, m, &options)
            })
            .collect();
        let shapes = schema
            .messages
            .iter()
            .map(|m| Shape::new(&m.block, schema.byte_order, schema.version))
            .collect();
        Ok(Exporter {
            shapes,
            keys: Vec::new(),
            spans: Vec::new(),
            schema,
            le16: standard_le16(&header),
            header,
            by_id,
            last_table: None,
            tables,
            errors: errors::ErrorTable::new(metadata(schema, 0), options.timestamp_unit),
            next_index: options.first_index,
            options,
            ready: Vec::new(),
            unfinished: Vec::new(),
            spares: Vec::new(),
        })
    }

    /// The schema.
    pub fn schema(&self) -> &'s Schema {
        self.schema
    }

    /// Every table's name and Arrow schema: each message's, its
    /// flattened groups', and [`ERRORS`].
    pub fn schemas(&self) -> Vec<(String, SchemaRef)> {
        let mut out = Vec::new();
        for t in &self.tables {
            t.schemas(&mut out);
        }
        out.push((ERRORS.to_string(), self.errors.schema()));
        out
    }

    /// Decodes the message at the start of `bytes` into its table's next
    /// row (and its flattened groups' rows); returns the bytes it took.
    /// A message that breaks a rule adds nothing: the error says why, and
    /// [`Exporter::append_error`] records it in [`ERRORS`].
    pub fn append(&mut self, bytes: &[u8], frame: &Frame) -> Result<usize, ExportError> {
        let (h, block_len, table) = self.header(bytes)?;
        let walk = Walk {
            buf: bytes,
            version: h.version,
        };
        let (Some(message), Some(shape)) =
            (self.schema.messages.get(table), self.shapes.get(table))
        else {
            return Err(ExportError::UnknownTemplate(h.template_id));
        };
        let required = shape.required(h.version);
        codec::check_block_length(block_len, required)
            .map_err(|e| ExportError::rule(&message.name, self.header.len, e))?;
        let mut pos = self.header.len;
        let index = self.next_index;
        let Some(t) = self.tables.get_mut(table) else {
            return Err(ExportError::UnknownTemplate(h.template_id));
        };
        if shape.flat && t.block.lists_only() {
            // The checks once, the groups' entries found by them filled
            // without a second walk.
            let spans = &mut self.spans;
            spans.clear();
            walk.spans(shape, &mut pos, block_len, spans)?;
            t.meta.push(index, h, frame);
            t.rows += 1;
            // Checked above: cannot fail now.
            walk.fill_flat(&mut t.block, self.header.len, block_len, spans)?;
        } else {
            let keys = &mut self.keys;
            keys.clear();
            keys.push(index);
            walk.block(shape, None, &mut pos, block_len, keys)?;
            let mut end = self.header.len;
            t.meta.push(index, h, frame);
            t.rows += 1;
            // Checked above: the same walk cannot fail now.
            walk.block(shape, Some(&mut t.block), &mut end, block_len, keys)?;
        }
        self.next_index += 1;
        let bound = self.options.batch_rows;
        // A table without child tables is taken out whole, its arrays
        // made by whoever takes it (child tables fill at their own pace,
        // and are cut when they fill); it has none to look through.
        if self.options.flatten {
            t.ready(bound, false, &mut self.ready)?;
        } else if t.full(bound) {
            let spare = (self.spares.iter())
                .rposition(|(slot, _)| *slot == table)
                .map(|k| self.spares.swap_remove(k).1);
            let empty = spare
                .unwrap_or_else(|| Box::new(message_table(self.schema, message, &self.options)));
            self.unfinished
                .push((table, Box::new(std::mem::replace(t, *empty))));
        }
        Ok(pos)
    }

    /// Records a message that could not be decoded, with its bytes and
    /// the error's text, in [`ERRORS`].
    pub fn append_error(&mut self, bytes: &[u8], frame: &Frame, kind: &str, error: &str) {
        self.errors.push(bytes, frame, kind, error);
        if self.errors.rows() >= self.options.batch_rows {
            if let Ok(b) = self.errors.take_batch() {
                self.ready.push((ERRORS.to_string(), b));
            }
        }
    }

    /// The batches that reached [`Options::batch_rows`] rows since the
    /// last call.
    ///
    /// # Errors
    /// A batch Arrow refuses (none that the exporter fills is); the
    /// other batches stay to be taken.
    pub fn take_ready(&mut self) -> Result<Vec<(String, RecordBatch)>, ExportError> {
        let mut out = Vec::new();
        for (slot, t) in std::mem::take(&mut self.unfinished) {
            let (made, spare) = Unfinished(Pending::Table(slot, t)).finish_keeping();
            self.give_back(spare);
            out.push(made?);
        }
        out.append(&mut self.ready);
        Ok(out)
    }

    /// The batches that reached [`Options::batch_rows`] rows since the
    /// last call, as [`Exporter::take_ready`] gives them, but for the
    /// message tables, whose arrays are left for [`Unfinished::finish`]
    /// to make.
    pub fn take_unfinished(&mut self) -> Vec<Unfinished> {
        // Most messages complete none: no iterators made and dropped.
        if self.unfinished.is_empty() && self.ready.is_empty() {
            return Vec::new();
        }
        let tables = (self.unfinished.drain(..)).map(|(slot, t)| Pending::Table(slot, t));
        let made = self.ready.drain(..).map(|(n, b)| Pending::Made(n, b));
        tables.chain(made).map(Unfinished).collect()
    }

    /// Takes back a table that [`Unfinished::finish_keeping`] emptied, to
    /// fill again: its buffers are the size its rows took. One of another
    /// exporter (or not empty) is dropped.
    pub fn give_back(&mut self, spare: Spare) {
        let Some((slot, t)) = spare.0 else {
            return;
        };
        let ours = self
            .tables
            .get(slot)
            .is_some_and(|mine| mine.schema == t.schema);
        if ours && t.rows == 0 && self.spares.len() < SPARES {
            self.spares.push((slot, t));
        }
    }

    /// Every batch not taken yet: the ready ones and the rest of every
    /// table (tables without rows give none).
    ///
    /// # Errors
    /// A batch Arrow refuses (none that the exporter fills is): a table
    /// is never left out without a word.
    pub fn finish(&mut self) -> Result<Vec<(String, RecordBatch)>, ExportError> {
        let mut out = self.take_ready()?;
        for t in &mut self.tables {
            t.ready(0, true, &mut out)?;
        }
        if self.errors.rows() > 0 {
            out.push((ERRORS.to_string(), self.errors.take_batch()?));
        }
        Ok(out)
    }

    /// The header's values, the root block length, and the message's
    /// table, with the header's rules checked.
    fn header(&mut self, bytes: &[u8]) -> Result<(HeaderValues, usize, usize), ExportError> {
        let hl = self.header.len;
        let truncated = || ExportError::truncated("message header", 0, hl, bytes.len());
        let h = bytes.get(..hl).ok_or_else(truncated)?;
        if let (true, Some(&[b0, b1, t0, t1, s0, s1, v0, v1])) = (self.le16, h.first_chunk()) {
            let template_id = u64::from(u16::from_le_bytes([t0, t1]));
            let schema_id = u64::from(u16::from_le_bytes([s0, s1]));
            if self.options.schema_id_check {
                codec::check_schema_id(schema_id, u64::from(self.schema.id))
                    .map_err(|e| ExportError::rule("message header", 4, e))?;
            }
            let values = HeaderValues {
                template_id,
                schema_id: Some(schema_id),
                version: u32::from(u16::from_le_bytes([v0, v1])),
            };
            let block_len = usize::from(u16::from_le_bytes([b0, b1]));
            return Ok((values, block_len, self.table_of(template_id)?));
        }
        let template_id = self
            .header
            .template_id
            .and_then(|s| s.try_get(h))
            .ok_or_else(truncated)?;
        let schema_id = self.header.schema_id.and_then(|s| s.try_get(h));
        if let (true, Some(at), Some(actual)) = (
            self.options.schema_id_check,
            self.header.schema_id.and_then(sbe_rt::wire::Uint::offset),
            schema_id,
        ) {
            codec::check_schema_id(actual, u64::from(self.schema.id))
                .map_err(|e| ExportError::rule("message header", at, e))?;
        }
        let table = self.table_of(template_id)?;
        let block_len = match self.header.block_length.and_then(|s| s.try_get(h)) {
            Some(v) => codec::to_usize(v),
            None => self
                .schema
                .messages
                .get(table)
                .map_or(0, |m| m.block.block_length as usize),
        };
        let version = match self.header.version.and_then(|s| s.try_get(h)) {
            Some(v) => u32::try_from(v).unwrap_or(u32::MAX),
            None => self.schema.version,
        };
        let values = HeaderValues {
            template_id,
            schema_id,
            version,
        };
        Ok((values, block_len, table))
    }

    /// The table of template `id`; the last one found is kept aside, as
    /// a feed's messages are mostly of one or a few templates.
    fn table_of(&mut self, id: u64) -> Result<usize, ExportError> {
        match self.last_table {
            Some((last, table)) if last == id => Ok(table),
            _ => {
                let table = *self
                    .by_id
                    .get(&id)
                    .ok_or(ExportError::UnknownTemplate(id))?;
                self.last_table = Some((id, table));
                Ok(table)
            }
        }
    }
}

/// A table's schema metadata: which schema, version and source.
fn metadata(schema: &Schema, template_id: u32) -> HashMap<String, String> {
    let mut m = HashMap::new();
    m.insert("sbe.schemaId".to_string(), schema.id.to_string());
    m.insert("sbe.schemaVersion".to_string(), schema.version.to_string());
    m.insert("sbe.package".to_string(), schema.package.clone());
    if let Some(f) = schema.files.first() {
        m.insert("sbe.source".to_string(), f.display().to_string());
    }
    if template_id > 0 {
        m.insert("sbe.templateId".to_string(), template_id.to_string());
    }
    m
}
