//! A Parquet part file whose hot column chunks are encoded here rather
//! than by the `parquet` crate's per-value encoders: enum columns from
//! their Arrow dictionaries and keys, integers delta-packed, levels from
//! the Arrow offsets and validity. Every other leaf goes through the
//! crate's own column writer; both kinds of chunk are spliced into row
//! groups of the crate's file writer, which keeps the Arrow schema in
//! the footer as `ArrowWriter` does.

mod chunk;
mod codec;
mod delta;
mod index;
mod levels;
mod rle;
mod text;
mod values;

#[cfg(test)]
mod differential;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::BufWriter;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Field, SchemaRef};
use parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory;
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnWriter, ArrowLeafColumn};
use parquet::arrow::ArrowWriter;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::schema::types::ColumnDescPtr;

use crate::dataset::{Compression, ROW_GROUP_BYTES, ROW_GROUP_ROWS};
use chunk::{Kind, Part, Scratch};
use codec::Codec;
use levels::{Cache, PageLimit, Path};

/// Pages end at a row start once they hold this many rows, or this many
/// levels: the crate's writer cuts a page once it has 20,000 rows, which
/// it looks at every 1,024, so top-level pages (and their column index)
/// are as its.
const PAGE: PageLimit = PageLimit {
    rows: 20_480,
    levels: 128 * 1024,
};

/// Bytes written to the file at once: the crate's writer writes each
/// page header and page by itself, a system call apiece.
const FILE_BUFFER: usize = 1 << 20;

/// The part file as the crate's writer writes it.
type Out = BufWriter<File>;

/// A part file being written, row group by row group.
pub(crate) struct ParquetPart {
    file: SerializedFileWriter<Out>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    scratch: Scratch,
    pending: Vec<RecordBatch>,
    rows: usize,
    bytes: usize,
    row_groups: usize,
}

impl ParquetPart {
    /// A part of `schema` written to `file` with `props`, its pages
    /// compressed as `compression` (which `props` names too).
    pub(crate) fn try_new(
        file: File,
        schema: SchemaRef,
        props: WriterProperties,
        compression: Compression,
    ) -> Result<ParquetPart, ParquetError> {
        let file = BufWriter::with_capacity(FILE_BUFFER, file);
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props))?;
        let (file, factory) = writer.into_serialized_writer()?;
        Ok(ParquetPart {
            file,
            factory,
            schema,
            scratch: Scratch::new(Codec::new(compression)?),
            pending: Vec::new(),
            rows: 0,
            bytes: 0,
            row_groups: 0,
        })
    }

    /// Adds `batch`'s rows, writing each row group as it fills.
    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        // Our chunks trust the columns to be of the schema's types (the
        // crate's writer checks as it goes).
        let fields = self.schema.fields();
        let same = batch.num_columns() == fields.len()
            && fields
                .iter()
                .zip(batch.columns())
                .all(|(f, c)| f.data_type() == c.data_type());
        if !same {
            return Err(general("a batch not of the part's schema"));
        }
        // A slice holds its batch's buffers: count its share of them.
        let per_row = batch.get_array_memory_size() / batch.num_rows().max(1);
        let mut batch = batch.clone();
        while self.rows + batch.num_rows() >= ROW_GROUP_ROWS && batch.num_rows() > 0 {
            let take = ROW_GROUP_ROWS - self.rows;
            self.pending.push(batch.slice(0, take));
            self.rows += take;
            self.flush()?;
            batch = batch.slice(take, batch.num_rows() - take);
        }
        if batch.num_rows() > 0 {
            self.bytes += per_row * batch.num_rows();
            self.rows += batch.num_rows();
            self.pending.push(batch);
        }
        if self.bytes >= ROW_GROUP_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the rows so far as a row group.
    fn flush(&mut self) -> Result<(), ParquetError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let batches = std::mem::take(&mut self.pending);
        (self.rows, self.bytes) = (0, 0);
        let descr = self.file.schema_descr().columns().to_vec();
        let mut group = Group {
            descr,
            props: self.file.properties().clone(),
            leaf: 0,
            factory: &self.factory,
            row_group: self.row_groups,
            writers: None,
            scratch: &mut self.scratch,
            out: self.file.next_row_group()?,
        };
        // Levels shared by leaves, per batch: a list's by its leaves, and
        // those of the top-level columns with no nulls.
        let mut caches: Vec<Cache> = batches.iter().map(|_| Cache::default()).collect();
        for (i, field) in self.schema.fields().iter().enumerate() {
            let arrays: Vec<ArrayRef> = batches.iter().map(|b| b.column(i).clone()).collect();
            group.field(field, &arrays, &mut caches)?;
        }
        group.out.close()?;
        self.row_groups += 1;
        Ok(())
    }

    /// Writes the last row group and the footer.
    pub(crate) fn close(mut self) -> Result<(), ParquetError> {
        self.flush()?;
        // Our buffer's last bytes are written here, where an error (a
        // full disk) is reported, not dropped.
        let file = self.file.into_inner()?;
        file.into_inner()
            .map_err(|e| ParquetError::External(Box::new(e.into_error())))?;
        Ok(())
    }
}

/// A row group being written, leaf by leaf.
struct Group<'a> {
    descr: Vec<ColumnDescPtr>,
    /// The part's properties: which leaves keep statistics, for ours as
    /// for the crate's (`dataset`'s encodings say).
    props: WriterPropertiesPtr,
    /// The next leaf's index in the schema.
    leaf: usize,
    factory: &'a ArrowRowGroupWriterFactory,
    row_group: usize,
    /// The crate's writers, one per leaf, for the leaves not ours: made
    /// when the first such leaf comes (making them costs, and most row
    /// groups have none).
    writers: Option<Vec<Option<ArrowColumnWriter>>>,
    scratch: &'a mut Scratch,
    out: SerializedRowGroupWriter<'a, Out>,
}

impl Group<'_> {
    /// Writes the leaves of `field`, a top-level column over `arrays`
    /// (the row group's batches).
    fn field(
        &mut self,
        field: &Field,
        arrays: &[ArrayRef],
        caches: &mut [Cache],
    ) -> Result<(), ParquetError> {
        let paths: Option<Vec<Vec<Path>>> =
            arrays.iter().map(|a| levels::paths(field, a)).collect();
        // The crate's leaves, worked out once a leaf needs them.
        let mut theirs: Option<Vec<Vec<ArrowLeafColumn>>> = None;
        let count = match &paths {
            Some(p) => p.first().map_or(0, Vec::len),
            None => {
                let t = crate_leaves(field, arrays)?;
                let n = t.first().map_or(0, Vec::len);
                theirs = Some(t);
                n
            }
        };
        for j in 0..count {
            let descr = self.next_descr()?;
            let ours = paths.as_ref().and_then(|p| ours(&descr, &self.props, p, j));
            let done = match ours {
                Some((kind, parts)) => self.ours(&descr, kind, &parts, caches)?,
                None => false,
            };
            if !done {
                if theirs.is_none() {
                    theirs = Some(crate_leaves(field, arrays)?);
                }
                let writer = self.writer(self.leaf - 1)?;
                let leaves = theirs.as_ref().map(|t| t.iter().filter_map(|l| l.get(j)));
                self.theirs(writer, leaves.into_iter().flatten())?;
            }
        }
        Ok(())
    }

    /// The crate's writer of leaf `leaf`.
    fn writer(&mut self, leaf: usize) -> Result<ArrowColumnWriter, ParquetError> {
        if self.writers.is_none() {
            let made = self.factory.create_column_writers(self.row_group)?;
            self.writers = Some(made.into_iter().map(Some).collect());
        }
        self.writers
            .as_mut()
            .and_then(|w| w.get_mut(leaf))
            .and_then(Option::take)
            .ok_or_else(|| general("fewer writers than leaves"))
    }

    fn next_descr(&mut self) -> Result<ColumnDescPtr, ParquetError> {
        let d = self
            .descr
            .get(self.leaf)
            .cloned()
            .ok_or_else(|| general("more leaves than the schema"))?;
        self.leaf += 1;
        Ok(d)
    }

    /// Writes the leaf's chunk, unless it turns out not to be ours.
    fn ours(
        &mut self,
        descr: &ColumnDescPtr,
        kind: Kind,
        paths: &[&Path],
        caches: &mut [Cache],
    ) -> Result<bool, ParquetError> {
        let parts = paths
            .iter()
            .zip(caches)
            .map(|(&path, cache)| {
                Ok(Part {
                    path,
                    levels: path.walk(PAGE, cache)?,
                })
            })
            .collect::<Result<Vec<_>, ParquetError>>()?;
        let stats = self.props.statistics_enabled(descr.path()) != EnabledStatistics::None;
        // `next_descr` has counted this leaf.
        let leaf = self.leaf.saturating_sub(1);
        match chunk::encode(descr, leaf, kind, &parts, stats, self.scratch)? {
            Some((bytes, close)) => self.out.append_column(&bytes, close)?,
            None => return Ok(false),
        }
        Ok(true)
    }

    fn theirs<'l>(
        &mut self,
        mut writer: ArrowColumnWriter,
        leaves: impl Iterator<Item = &'l ArrowLeafColumn>,
    ) -> Result<(), ParquetError> {
        for leaf in leaves {
            writer.write(leaf)?;
        }
        writer.close()?.append_to_row_group(&mut self.out)
    }
}

/// Leaf `j` of every batch, with its encoding, when the leaf is ours
/// (in the encoding `props` asks for).
fn ours<'p>(
    descr: &ColumnDescPtr,
    props: &WriterProperties,
    paths: &'p [Vec<Path>],
    j: usize,
) -> Option<(Kind, Vec<&'p Path>)> {
    let parts: Vec<&Path> = paths.iter().map(|p| p.get(j)).collect::<Option<_>>()?;
    let first = parts.first()?;
    let kind = Kind::of(descr, first.leaf.data_type(), props)?;
    if kind == Kind::Dict {
        let leaves: Vec<&ArrayRef> = parts.iter().map(|p| &p.leaf).collect();
        if !values::dictionaries_plain(&leaves) {
            return None;
        }
    }
    Some((kind, parts))
}

fn crate_leaves(
    field: &Field,
    arrays: &[ArrayRef],
) -> Result<Vec<Vec<ArrowLeafColumn>>, ParquetError> {
    arrays.iter().map(|a| compute_leaves(field, a)).collect()
}

fn general(what: &str) -> ParquetError {
    ParquetError::General(what.to_string())
}
