//! Writing tables as a dataset: one folder per table, holding part files
//! `part-NNNNN-<source>.parquet` (or `.arrow`, Arrow IPC files). A part is
//! written as `.part-NNNNN-<source>.parquet.tmp` and renamed when closed,
//! so a killed run or a full disk leaves no file that readers (which skip
//! names starting with `.`, and glob `*.parquet`) take as complete.
//!
//! ```no_run
//! use sbe_columnar::dataset::{DatasetWriter, Format, Compression};
//! # fn run(batch: arrow_array::RecordBatch) -> Result<(), sbe_columnar::dataset::DatasetError> {
//! let mut w = DatasetWriter::new("out".as_ref(), "capture", Format::Parquet(Compression::Zstd(1)));
//! w.write("Trade", &batch)?;
//! let parts = w.close()?; // out/Trade/part-00000-capture.parquet
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use arrow_array::RecordBatch;
use parquet::basic::{Compression as PqCompression, Encoding, Type as PhysicalType, ZstdLevel};
use parquet::file::properties::WriterProperties;

mod pqwrite;

/// Rows of a Parquet row group at most.
pub const ROW_GROUP_ROWS: usize = 64 * 1024;
/// Bytes of Arrow batches a Parquet row group buffers before it is
/// written (row groups are encoded whole, from the batches).
pub const ROW_GROUP_BYTES: usize = 128 << 20;

/// A part file's compression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Uncompressed.
    None,
    /// Snappy.
    Snappy,
    /// Zstandard at a level (1 by default).
    Zstd(i32),
}

impl FromStr for Compression {
    type Err = String;

    /// `none`, `snappy`, `zstd` or `zstd:LEVEL`.
    fn from_str(s: &str) -> Result<Compression, String> {
        match s.split_once(':') {
            None if s == "none" => Ok(Compression::None),
            None if s == "snappy" => Ok(Compression::Snappy),
            None if s == "zstd" => Ok(Compression::Zstd(1)),
            Some(("zstd", level)) => level
                .parse::<i32>()
                .ok()
                .filter(|l| ZstdLevel::try_new(*l).is_ok())
                .map(Compression::Zstd)
                .ok_or_else(|| format!("zstd level `{level}`: give 1 to 22")),
            _ => Err(format!(
                "compression `{s}`: give none, snappy, zstd or zstd:LEVEL"
            )),
        }
    }
}

/// The file format of the parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Parquet, compressed.
    Parquet(Compression),
    /// Arrow IPC files.
    Arrow,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Parquet(_) => "parquet",
            Format::Arrow => "arrow",
        }
    }
}

/// A dataset could not be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum DatasetError {
    /// The file system refused.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The Parquet or Arrow writer refused a batch.
    Write {
        /// The part file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The output folder exists and neither appending nor overwriting was
    /// asked for.
    Exists(PathBuf),
}

impl std::fmt::Display for DatasetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatasetError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            DatasetError::Write { path, message } => write!(f, "{}: {message}", path.display()),
            DatasetError::Exists(path) => {
                write!(
                    f,
                    "{}: exists (give --append or --overwrite)",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for DatasetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatasetError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl DatasetError {
    /// The same error again, an I/O error as its kind and text.
    pub(crate) fn duplicate(&self) -> DatasetError {
        match self {
            DatasetError::Io { path, source } => DatasetError::Io {
                path: path.clone(),
                source: io::Error::new(source.kind(), source.to_string()),
            },
            DatasetError::Write { path, message } => DatasetError::Write {
                path: path.clone(),
                message: message.clone(),
            },
            DatasetError::Exists(path) => DatasetError::Exists(path.clone()),
        }
    }
}

/// What to do with an output folder that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse it.
    Refuse,
    /// Add parts beside those there.
    Append,
    /// Remove it first.
    Overwrite,
}

/// Makes `dir` ready for a run: refused, kept or emptied as `existing`
/// says when it is there, created when not.
pub fn prepare(dir: &Path, existing: Existing) -> Result<(), DatasetError> {
    let io_err = |source| DatasetError::Io {
        path: dir.to_path_buf(),
        source,
    };
    if dir.exists() {
        match existing {
            Existing::Refuse => return Err(DatasetError::Exists(dir.to_path_buf())),
            Existing::Append => {}
            Existing::Overwrite => fs::remove_dir_all(dir).map_err(io_err)?,
        }
    }
    fs::create_dir_all(dir).map_err(io_err)
}

/// The marker a dataset keeps per input it was given: `.sbe-input-NNNNNN`
/// at its root (hidden, so readers skip it), holding the input's name.
const INPUT_MARK: &str = ".sbe-input-";

/// Claims a dataset-wide number for each of `inputs`, in order: numbers
/// that no earlier run into `dir` (kept with [`Existing::Append`]) and no
/// run at the same time took, so that `msgIndex`, which counts from the
/// input's number, stays unique across `--append` runs. A fresh folder
/// gives `0, 1, 2, …`. Each claim is a marker file made with
/// `create_new`, which one process at most can win.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("sbe-claim-doc-{}", std::process::id()));
/// sbe_columnar::dataset::prepare(&dir, sbe_columnar::dataset::Existing::Overwrite).unwrap();
/// let first = sbe_columnar::dataset::claim_inputs(&dir, &["a.pcap", "b.pcap"]).unwrap();
/// let again = sbe_columnar::dataset::claim_inputs(&dir, &["a.pcap"]).unwrap();
/// assert_eq!((first, again), (vec![0, 1], vec![2]));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn claim_inputs(dir: &Path, inputs: &[&str]) -> Result<Vec<u64>, DatasetError> {
    let io_err = |path: PathBuf| move |source| DatasetError::Io { path, source };
    let taken = fs::read_dir(dir)
        .map_err(io_err(dir.to_path_buf()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name();
            name.to_str()?.strip_prefix(INPUT_MARK)?.parse::<u64>().ok()
        })
        .map(|n| n + 1)
        .max()
        .unwrap_or(0);
    let mut next = taken;
    let mut claimed = Vec::with_capacity(inputs.len());
    for input in inputs {
        loop {
            let path = dir.join(format!("{INPUT_MARK}{next:06}"));
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    io::Write::write_all(&mut f, input.as_bytes()).map_err(io_err(path))?;
                    break;
                }
                // Another run took it first: try the next.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => next += 1,
                Err(e) => return Err(io_err(path)(e)),
            }
        }
        claimed.push(next);
        next += 1;
    }
    Ok(claimed)
}

/// A source label as a part file's name holds it: letters, digits, `-` and
/// `_` kept, anything else (`.` too) `_`.
#[must_use]
pub fn source_label(name: &str) -> String {
    let label: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if label.is_empty() {
        "stdin".to_string()
    } else {
        label
    }
}

enum Writer {
    Parquet(pqwrite::ParquetPart),
    Arrow(arrow_ipc::writer::FileWriter<File>),
}

struct Part {
    tmp: PathBuf,
    done: PathBuf,
    writer: Writer,
}

/// Writes batches into one part file per table, under `root`.
pub struct DatasetWriter {
    root: PathBuf,
    source: String,
    format: Format,
    parts: HashMap<String, Part>,
}

impl DatasetWriter {
    /// A writer of parts named for `source` into table folders under
    /// `root` (which exists: see [`prepare`]).
    #[must_use]
    pub fn new(root: &Path, source: &str, format: Format) -> DatasetWriter {
        DatasetWriter {
            root: root.to_path_buf(),
            source: source_label(source),
            format,
            parts: HashMap::new(),
        }
    }

    /// Appends `batch` to `table`'s part, opening it on the first batch.
    pub fn write(&mut self, table: &str, batch: &RecordBatch) -> Result<(), DatasetError> {
        if !self.parts.contains_key(table) {
            let part = self.open(table, batch)?;
            self.parts.insert(table.to_string(), part);
        }
        let Some(part) = self.parts.get_mut(table) else {
            return Ok(());
        };
        let failed = |e: &dyn std::fmt::Display| DatasetError::Write {
            path: part.tmp.clone(),
            message: e.to_string(),
        };
        match &mut part.writer {
            Writer::Parquet(w) => w.write(batch).map_err(|e| failed(&e))?,
            Writer::Arrow(w) => w.write(batch).map_err(|e| failed(&e))?,
        }
        Ok(())
    }

    fn open(&self, table: &str, batch: &RecordBatch) -> Result<Part, DatasetError> {
        let dir = self.root.join(table);
        fs::create_dir_all(&dir).map_err(|source| DatasetError::Io {
            path: dir.clone(),
            source,
        })?;
        let ext = self.format.extension();
        let n = next_part(&dir, &format!("-{}.{ext}", self.source));
        let name = format!("part-{n:05}-{}.{ext}", self.source);
        let done = dir.join(&name);
        let tmp = dir.join(format!(".{name}.tmp"));
        let file = File::create(&tmp).map_err(|source| DatasetError::Io {
            path: tmp.clone(),
            source,
        })?;
        let failed = |e: &dyn std::fmt::Display| DatasetError::Write {
            path: tmp.clone(),
            message: e.to_string(),
        };
        let schema = batch.schema();
        let writer = match self.format {
            Format::Parquet(c) => {
                let compression = match c {
                    Compression::None => PqCompression::UNCOMPRESSED,
                    Compression::Snappy => PqCompression::SNAPPY,
                    Compression::Zstd(l) => {
                        PqCompression::ZSTD(ZstdLevel::try_new(l).map_err(|e| failed(&e))?)
                    }
                };
                let props = encodings(
                    WriterProperties::builder()
                        .set_compression(compression)
                        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS)),
                    &schema,
                )
                .map_err(|e| failed(&e))?
                .build();
                Writer::Parquet(
                    pqwrite::ParquetPart::try_new(file, schema, props, c)
                        .map_err(|e| failed(&e))?,
                )
            }
            Format::Arrow => Writer::Arrow(
                arrow_ipc::writer::FileWriter::try_new(file, &schema).map_err(|e| failed(&e))?,
            ),
        };
        Ok(Part { tmp, done, writer })
    }

    /// Closes every part and gives it its final name; returns those names.
    pub fn close(self) -> Result<Vec<PathBuf>, DatasetError> {
        let mut done = Vec::new();
        for (_, part) in self.parts {
            let failed = |e: &dyn std::fmt::Display| DatasetError::Write {
                path: part.tmp.clone(),
                message: e.to_string(),
            };
            match part.writer {
                Writer::Parquet(w) => w.close().map_err(|e| failed(&e))?,
                Writer::Arrow(mut w) => w.finish().map_err(|e| failed(&e))?,
            }
            fs::rename(&part.tmp, &part.done).map_err(|source| DatasetError::Io {
                path: part.done.clone(),
                source,
            })?;
            done.push(part.done);
        }
        done.sort();
        Ok(done)
    }
}

/// Each column's encoding (which `pqwrite`'s own encoders follow for the
/// leaves they take): a dictionary for the text columns (strings,
/// enum names, set choices, addresses), where values repeat; integers
/// (timestamps, counters, sequence numbers: mostly ascending or close
/// to one another) delta-packed; the rest plain. Hashing every number
/// into a dictionary, and compressing plain integers, cost more than
/// they saved.
///
/// Statistics (min and max, per page and per row group, level
/// histograms) are the crate's default for every leaf, text and group
/// leaves too: `WHERE symbol = 'ESZ5'` prunes row groups and pages in
/// DuckDB and Spark only by them.
fn encodings(
    props: parquet::file::properties::WriterPropertiesBuilder,
    schema: &arrow_schema::Schema,
) -> Result<parquet::file::properties::WriterPropertiesBuilder, parquet::errors::ParquetError> {
    let descr = parquet::arrow::ArrowSchemaConverter::new().convert(schema)?;
    let mut props = props.set_dictionary_enabled(false);
    for c in descr.columns() {
        match c.physical_type() {
            PhysicalType::BYTE_ARRAY => {
                props = props.set_column_dictionary_enabled(c.path().clone(), true);
            }
            PhysicalType::INT32 | PhysicalType::INT64 => {
                props = props.set_column_encoding(c.path().clone(), Encoding::DELTA_BINARY_PACKED);
            }
            // A decimal too wide for INT64 (an int64 mantissa needs 19
            // digits): PLAIN, as the dictionary is disabled. Polars
            // refuses DELTA_BYTE_ARRAY for fixed-length values, and a
            // dictionary of generated MDP3 prices was a fifth larger than
            // PLAIN and slower to write (BENCHMARKS.md).
            _ => {}
        }
    }
    Ok(props)
}

/// The first part number no file of this source in `dir` uses (finished
/// or not): parts of other sources, written at the same time, keep their
/// own numbers.
fn next_part(dir: &Path, tail: &str) -> u32 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let name = name.trim_start_matches('.');
            let name = name.strip_suffix(".tmp").unwrap_or(name);
            let rest = name.strip_prefix("part-")?.strip_suffix(tail)?;
            rest.get(..5)?.parse::<u32>().ok()
        })
        .map(|n| n + 1)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Int64Array, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::basic::Encoding;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    use super::*;

    #[test]
    fn integers_are_delta_packed_and_text_has_a_dictionary() {
        let dir = std::env::temp_dir().join(format!("sbe-columnar-enc-{}", std::process::id()));
        prepare(&dir, Existing::Overwrite).unwrap();
        let schema = Arc::new(Schema::new(vec![
            Field::new("n", DataType::Int64, true),
            Field::new("s", DataType::Utf8, true),
        ]));
        let batch = RecordBatch::try_new(
            schema,
            vec![
                Arc::new(Int64Array::from(vec![10, 11, 13])),
                Arc::new(StringArray::from(vec!["a", "b", "a"])),
            ],
        )
        .unwrap();
        let mut w = DatasetWriter::new(&dir, "t", Format::Parquet(Compression::Zstd(1)));
        w.write("T", &batch).unwrap();
        let parts = w.close().unwrap();
        let r = SerializedFileReader::new(File::open(&parts[0]).unwrap()).unwrap();
        let rg = r.metadata().row_group(0);
        let n: Vec<Encoding> = rg.column(0).encodings().collect();
        let s: Vec<Encoding> = rg.column(1).encodings().collect();
        fs::remove_dir_all(&dir).unwrap();
        assert!(n.contains(&Encoding::DELTA_BINARY_PACKED), "{n:?}");
        assert!(!n.contains(&Encoding::RLE_DICTIONARY), "{n:?}");
        assert!(s.contains(&Encoding::RLE_DICTIONARY), "{s:?}");
    }

    #[test]
    fn text_and_group_leaves_have_statistics() {
        use arrow_array::builder::{Int64Builder, ListBuilder};
        use arrow_array::Array;
        let dir = std::env::temp_dir().join(format!("sbe-columnar-stats-{}", std::process::id()));
        prepare(&dir, Existing::Overwrite).unwrap();
        let mut list = ListBuilder::new(Int64Builder::new());
        list.values().append_value(7);
        list.append(true);
        let list = list.finish();
        let schema = Arc::new(Schema::new(vec![
            Field::new("n", DataType::Int64, false),
            Field::new("s", DataType::Utf8, true),
            Field::new("l", list.data_type().clone(), true),
        ]));
        let batch = RecordBatch::try_new(
            schema,
            vec![
                Arc::new(Int64Array::from(vec![10])),
                Arc::new(StringArray::from(vec!["a"])),
                Arc::new(list),
            ],
        )
        .unwrap();
        let mut w = DatasetWriter::new(&dir, "t", Format::Parquet(Compression::Zstd(1)));
        w.write("T", &batch).unwrap();
        let parts = w.close().unwrap();
        let r = SerializedFileReader::new(File::open(&parts[0]).unwrap()).unwrap();
        let rg = r.metadata().row_group(0);
        let has: Vec<(Vec<u8>, Vec<u8>)> = (0..3)
            .map(|i| {
                let s = rg.column(i).statistics().unwrap();
                let b = |b: Option<&[u8]>| b.unwrap().to_vec();
                (b(s.min_bytes_opt()), b(s.max_bytes_opt()))
            })
            .collect();
        fs::remove_dir_all(&dir).unwrap();
        let (ten, seven) = (10i64.to_le_bytes().to_vec(), 7i64.to_le_bytes().to_vec());
        let a = b"a".to_vec();
        assert_eq!(
            has,
            [(ten.clone(), ten), (a.clone(), a), (seven.clone(), seven)]
        );
    }
}
