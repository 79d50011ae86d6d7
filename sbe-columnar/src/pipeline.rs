//! Messages in, a dataset out, on as many threads as it is given: what
//! `sbe decode --format parquet|arrow` runs, for any reader of messages
//! (a capture, a file, a Kafka topic).
//!
//! A [`Pipeline`] says how (the schemas, the output folder, the format,
//! the threads); [`Pipeline::start`] makes the folder ready and gives the
//! [`Dataset`]. Its inputs are fed one of two ways:
//!
//! - [`Dataset::input`] gives an [`Input`] to push each message into
//!   ([`Input::push`], with the [`Frame`] of where it was), on the caller's
//!   thread; [`Input::finish`] writes the rest and closes its part files.
//! - [`Dataset::run`] reads several [`Source`]s at once, each into an
//!   `Input` of its own, on the pipeline's threads.
//!
//! Each message goes to the dataset of its schema (with several schemas,
//! under `schema=<package>/`) and its message's table: one part file per
//! table and input (`<Message>/part-NNNNN-<label>.parquet`). A message
//! that cannot be decoded goes to `_errors` ([`crate::ERRORS`]), with its
//! bytes, where it was, and the run-time codec's verdict.
//!
//! [`Pipeline::threads`] (default: the cores) are the threads of a run:
//! up to that many inputs are decoded at once, and each input's batches are
//! encoded and compressed on a thread of its own beside its decoding where
//! the threads are at least twice the inputs decoded at once (one input
//! with 2 threads); 1 keeps each input on one thread.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use sbe_columnar::dataset::Existing;
//! use sbe_columnar::pipeline::{Messages, Pipeline};
//! use sbe_columnar::Frame;
//! use sbe_otf::multi::{Entry, Schemas};
//!
//! let xml = r#"<messageSchema package="demo" id="1">
//!   <types>
//!     <composite name="messageHeader">
//!       <type name="blockLength" primitiveType="uint16"/>
//!       <type name="templateId" primitiveType="uint16"/>
//!       <type name="schemaId" primitiveType="uint16"/>
//!       <type name="version" primitiveType="uint16"/>
//!     </composite>
//!   </types>
//!   <message name="Tick" id="1">
//!     <field name="seq" id="1" type="uint32"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
//! let codec = sbe_otf::Codec::new(&schema)?;
//! let schemas = Schemas::new(vec![Entry { codec, label: "demo.xml".into() }])?;
//!
//! // Two inputs of ticks (header, then `seq`), and a message of a
//! // template the schema has not.
//! let tick = |seq: u8| vec![4, 0, 1, 0, 1, 0, 0, 0, seq, 0, 0, 0];
//! let a = (0..3).map(|i| (tick(i), Frame::at(12 * u64::from(i))));
//! let b = [(tick(7), Frame::at(0)), (vec![4, 0, 9, 0, 1, 0, 0, 0, 0, 0, 0, 0], Frame::at(12))];
//! let mut sources = [Messages::new("a", a.collect()), Messages::new("b", b.to_vec())];
//!
//! let dir = std::env::temp_dir().join(format!("sbe-pipeline-doc-{}", std::process::id()));
//! let dataset = Pipeline::new(&schemas, &dir)
//!     .threads(2)
//!     .existing(Existing::Overwrite)
//!     .start()?;
//! let summary = dataset.run(&mut sources)?;
//! assert_eq!((summary.messages(), summary.refused()), (4, 1));
//!
//! // Read back: a part per input under Tick/, the bad one in _errors/.
//! use parquet::file::reader::{FileReader, SerializedFileReader};
//! let rows = |path: &std::path::Path| -> Result<i64, Box<dyn std::error::Error>> {
//!     let part = SerializedFileReader::new(std::fs::File::open(path)?)?;
//!     Ok(part.metadata().file_metadata().num_rows())
//! };
//! assert_eq!(rows(&dir.join("Tick/part-00000-a.parquet"))?, 3);
//! assert_eq!(rows(&dir.join("Tick/part-00000-b.parquet"))?, 1);
//! assert_eq!(rows(&dir.join("_errors/part-00000-b.parquet"))?, 1);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(()) }
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use sbe_otf::decode::{DecodeError, DecodeErrorKind};
use sbe_otf::multi::{MultiError, Schemas};

use crate::dataset::{self, Compression, DatasetError, DatasetWriter, Existing, Format};
use crate::{ExportError, Exporter, Frame, Options, SetupError, Spare, TimestampUnit, Unfinished};

/// Bytes of a bad message kept in `_errors` at most.
const ERROR_BYTES: usize = 1 << 20;

/// Messages of a batch: an eighth of a row group. A batch's columns are
/// fresh memory, written once and read once by the writer: small ones
/// fault fewer pages and stay in cache between the two (half a row group
/// took 5 to 10 % more time and 20 MB more with two inputs, BENCHMARKS.md).
const BATCH_ROWS: usize = dataset::ROW_GROUP_ROWS / 8;

/// Batches the reader may be ahead of the writer by: a row group's, so
/// that the reader fills the next row group while the writer encodes
/// one. With none waiting, the reader stopped after one batch, and the
/// two threads took three quarters of one's time rather than half.
const WRITE_QUEUE: usize = dataset::ROW_GROUP_ROWS / BATCH_ROWS;

/// Batches queued for the writer under which a table's arrays are left
/// to the writer to make; with more queued, the writer is the slower,
/// and the reader makes them. Making them on one thread or the other
/// alone left the other idle part of the time.
const WRITER_MAKES_BELOW: usize = WRITE_QUEUE / 2;

/// How messages become a dataset: the schemas, the output folder and the
/// settings. Nothing is touched before [`Pipeline::start`].
#[derive(Debug, Clone)]
pub struct Pipeline<'a> {
    schemas: &'a Schemas<'a>,
    out: PathBuf,
    threads: usize,
    format: Format,
    flatten: bool,
    frames: bool,
    timestamp_unit: TimestampUnit,
    existing: Existing,
    templates: Vec<u64>,
}

impl<'a> Pipeline<'a> {
    /// A pipeline of the messages of `schemas` (each message decoded with
    /// the schema its header names, as [`Schemas::pick`] picks it) into a
    /// dataset under `out`. By default: Parquet parts compressed with zstd
    /// level 1, the cores' threads, groups as list columns, no frame
    /// columns, every template, and an existing `out` refused.
    ///
    /// Whether a message naming another schema id is refused is each
    /// schema's codec's setting ([`sbe_otf::Codec::with_schema_id_check`]).
    pub fn new(schemas: &'a Schemas<'a>, out: impl Into<PathBuf>) -> Pipeline<'a> {
        Pipeline {
            schemas,
            out: out.into(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            format: Format::Parquet(Compression::Zstd(1)),
            flatten: false,
            frames: false,
            timestamp_unit: TimestampUnit::Nanos,
            existing: Existing::Refuse,
            templates: Vec::new(),
        }
    }

    /// The threads of a run (at least 1; default: the cores): up to `n`
    /// inputs decoded at once by [`Dataset::run`], and an input's batches
    /// encoded on a thread of its own where `n` is at least twice the
    /// inputs decoded at once (for one [`Dataset::input`]: from 2 on).
    #[must_use]
    pub fn threads(mut self, n: usize) -> Pipeline<'a> {
        self.threads = n.max(1);
        self
    }

    /// The part files' format (and compression, for Parquet).
    #[must_use]
    pub fn format(mut self, format: Format) -> Pipeline<'a> {
        self.format = format;
        self
    }

    /// Each group as a child table `<Message>.<Group>`, one row per entry
    /// keyed by `msgIndex` and the entry index path (see
    /// [`Options::flatten`]), instead of a list column.
    #[must_use]
    pub fn flatten(mut self, on: bool) -> Pipeline<'a> {
        self.flatten = on;
        self
    }

    /// Whether message tables have the capture frame columns (`time`,
    /// `packet`, `src`, `dst`, `msgSeqNum`, `sendingTime`; see
    /// [`Options::frames`]), filled from each message's [`Frame`].
    #[must_use]
    pub fn frames(mut self, on: bool) -> Pipeline<'a> {
        self.frames = on;
        self
    }

    /// The finest unit of a timestamp column (see
    /// [`Options::timestamp_unit`]; nanoseconds by default).
    #[must_use]
    pub fn timestamp_unit(mut self, unit: TimestampUnit) -> Pipeline<'a> {
        self.timestamp_unit = unit;
        self
    }

    /// What [`Pipeline::start`] does with an output folder that exists.
    #[must_use]
    pub fn existing(mut self, existing: Existing) -> Pipeline<'a> {
        self.existing = existing;
        self
    }

    /// Only messages of these template ids (none: all). The others are
    /// measured and stepped over, in no table.
    #[must_use]
    pub fn templates(mut self, ids: &[u64]) -> Pipeline<'a> {
        self.templates = ids.to_vec();
        self
    }

    /// Checks that every schema can be exported and makes the output
    /// folder ready ([`dataset::prepare`]).
    ///
    /// # Errors
    /// [`PipelineError::Setup`] for a schema whose message header cannot
    /// be read, [`PipelineError::Prepare`] when the folder exists and is
    /// refused, or cannot be made.
    pub fn start(self) -> Result<Dataset<'a>, PipelineError> {
        for entry in self.schemas.entries() {
            self.exporter(entry, 0)?;
        }
        dataset::prepare(&self.out, self.existing).map_err(PipelineError::Prepare)?;
        Ok(Dataset { p: self })
    }

    /// One input whose batches are kept in memory rather than written
    /// (for a reader of the tables in process: Arrow consumers, the
    /// Python package): its messages are decoded and checked exactly as
    /// an input of [`Pipeline::start`]'s dataset, on the caller's thread;
    /// the output folder, the format and the threads are not used, and
    /// nothing is touched. [`Input::finish_collected`] gives the batches.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
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
    /// # let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
    /// # let codec = sbe_otf::Codec::new(&schema)?;
    /// # let entry = sbe_otf::multi::Entry { codec, label: "demo.xml".into() };
    /// # let schemas = sbe_otf::multi::Schemas::new(vec![entry])?;
    /// use sbe_columnar::pipeline::Pipeline;
    /// use sbe_columnar::Frame;
    ///
    /// let mut input = Pipeline::new(&schemas, "").collect()?;
    /// input.push(&[4, 0, 1, 0, 1, 0, 0, 0, 42, 0, 0, 0], &Frame::at(0))?;
    /// let _ = input.push(&[4, 0, 1, 0, 1, 0], &Frame::at(12)); // cut short
    /// let collected = input.finish_collected()?;
    /// let tables: Vec<_> = collected.batches.iter().map(|b| b.table.as_str()).collect();
    /// assert_eq!(tables, ["Tick", "_errors"]);
    /// assert_eq!(collected.batches[0].batch.num_rows(), 1);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`PipelineError::Setup`] for a schema whose message header cannot
    /// be read.
    pub fn collect(self) -> Result<Input<'a>, PipelineError> {
        self.collected(Writers::Memory(Vec::new()))
    }

    /// As [`Pipeline::collect`], but each batch is handed to `each` as soon
    /// as it is complete rather than kept: a reader of a large input holds
    /// one batch per table at a time, not the whole input (the Python
    /// package's `record_batches`). `each` returns `false` to stop the
    /// input: [`Input::push`] then fails with [`PipelineError::WriterStopped`],
    /// and the reader stops. [`Input::finish_collected`] hands the tables'
    /// rests to `each` and gives no batches.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
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
    /// # let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
    /// # let codec = sbe_otf::Codec::new(&schema)?;
    /// # let entry = sbe_otf::multi::Entry { codec, label: "demo.xml".into() };
    /// # let schemas = sbe_otf::multi::Schemas::new(vec![entry])?;
    /// use sbe_columnar::pipeline::Pipeline;
    /// use sbe_columnar::Frame;
    ///
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let mut input = Pipeline::new(&schemas, "").collect_each(move |b| tx.send(b).is_ok())?;
    /// input.push(&[4, 0, 1, 0, 1, 0, 0, 0, 42, 0, 0, 0], &Frame::at(0))?;
    /// assert!(input.finish_collected()?.batches.is_empty());
    /// let batch = rx.recv()?;
    /// assert_eq!((batch.table.as_str(), batch.batch.num_rows()), ("Tick", 1));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Pipeline::collect`]'s.
    pub fn collect_each(
        self,
        each: impl FnMut(CollectedBatch) -> bool + Send + 'a,
    ) -> Result<Input<'a>, PipelineError> {
        self.collected(Writers::Each(Box::new(each)))
    }

    /// An input of no dataset, its batches to `to`.
    fn collected(self, to: Writers<'a>) -> Result<Input<'a>, PipelineError> {
        let outs = (self.schemas.entries().iter())
            .map(|entry| self.exporter(entry, 0))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Input {
            schemas: self.schemas,
            outs,
            to,
            templates: self.templates,
            failed: None,
            pending: None,
            summary: InputSummary::default(),
        })
    }

    /// The exporter of `entry`'s messages, its `msgIndex` from `first`.
    fn exporter(
        &self,
        entry: &'a sbe_otf::multi::Entry<'a>,
        first: u64,
    ) -> Result<Exporter<'a>, PipelineError> {
        let options = Options::default()
            .flatten(self.flatten)
            .frames(self.frames)
            .timestamp_unit(self.timestamp_unit)
            .schema_id_check(entry.codec.schema_id_check())
            .first_index(first)
            .batch_rows(BATCH_ROWS);
        let schema = entry.codec.schema();
        Exporter::new(schema, options).map_err(|source| PipelineError::Setup {
            package: schema.package.clone(),
            source,
        })
    }

    /// A writer per schema of the parts labelled `label`: with several
    /// schemas, each into `schema=<package>/` (or its id) of its own.
    fn writers(&self, label: &str) -> Vec<DatasetWriter> {
        let entries = self.schemas.entries();
        let several = entries.len() > 1;
        entries
            .iter()
            .map(|entry| {
                let schema = entry.codec.schema();
                let root = if several {
                    let name = if schema.package.is_empty() {
                        format!("{}", schema.id)
                    } else {
                        dataset::source_label(&schema.package)
                    };
                    self.out.join(format!("schema={name}"))
                } else {
                    self.out.clone()
                };
                DatasetWriter::new(&root, label, self.format)
            })
            .collect()
    }
}

/// A started [`Pipeline`]: its output folder is ready for inputs.
#[derive(Debug)]
pub struct Dataset<'a> {
    p: Pipeline<'a>,
}

impl<'a> Dataset<'a> {
    /// The output folder.
    pub fn out(&self) -> &Path {
        &self.p.out
    }

    /// An input to push messages into: `name` is recorded in the dataset
    /// (a hidden marker claiming the input's number, from which its
    /// `msgIndex` counts, unique across runs into the folder: see
    /// [`dataset::claim_inputs`]), `label` names its part files
    /// (`part-NNNNN-<label>.parquet`, made safe by
    /// [`dataset::source_label`]). With 2 threads or more its batches are
    /// encoded on a thread of its own.
    ///
    /// # Errors
    /// [`PipelineError::Prepare`] when its number cannot be claimed.
    pub fn input(&self, name: &str, label: &str) -> Result<Input<'a>, PipelineError> {
        let numbers =
            dataset::claim_inputs(&self.p.out, &[name]).map_err(PipelineError::Prepare)?;
        let number = numbers.first().copied().unwrap_or(0);
        self.open(number, label, self.p.threads >= 2)
    }

    /// Reads every source into an [`Input`] of its own, up to
    /// [`Pipeline::threads`] at once; the inputs' numbers are claimed in
    /// the order of `sources`. An error stops the run: no source is
    /// started after one failed (those reading finish), and the error of
    /// the first failed source, in the order of `sources`, is returned.
    ///
    /// A source's own error leaves its part files under their temporary
    /// names (see [`Input`]); but where its input's output failed first,
    /// that is the error returned.
    ///
    /// # Errors
    /// [`RunError::Source`] for a source's own error, [`RunError::Pipeline`]
    /// for the dataset's ([`PipelineError`]).
    pub fn run<S>(&self, sources: &mut [S]) -> Result<Summary, RunError<S::Error>>
    where
        S: Source + Send,
        S::Error: Send,
    {
        let names: Vec<&str> = sources.iter().map(|s| s.name()).collect();
        let numbers = dataset::claim_inputs(&self.p.out, &names).map_err(PipelineError::Prepare)?;
        let jobs = self.p.threads.clamp(1, sources.len().max(1));
        let writer_thread = self.p.threads >= 2 * jobs;
        let queue = Mutex::new(sources.iter_mut().zip(numbers).enumerate());
        let stop = AtomicBool::new(false);
        let work = || {
            let mut done = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                let Some((i, (source, number))) = next else {
                    break;
                };
                let r = self.one(source, number, writer_thread);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                done.push((i, r));
            }
            done
        };
        let (mut results, panicked) = std::thread::scope(|s| {
            let workers: Vec<_> = (0..jobs)
                .filter_map(|_| {
                    std::thread::Builder::new()
                        .name("sbe-columnar-decode".into())
                        .spawn_scoped(s, work)
                        .ok()
                })
                .collect();
            if workers.is_empty() {
                // No thread to be had: the caller's.
                return (work(), false);
            }
            let mut results = Vec::new();
            let mut panicked = false;
            for w in workers {
                match w.join() {
                    Ok(done) => results.extend(done),
                    Err(_) => panicked = true,
                }
            }
            (results, panicked)
        });
        results.sort_by_key(|(i, _)| *i);
        let mut inputs = Vec::with_capacity(results.len());
        for (_, r) in results {
            inputs.push(r?);
        }
        if panicked {
            return Err(PipelineError::DecodingThread.into());
        }
        Ok(Summary { inputs })
    }

    /// Reads `source` into its part files.
    fn one<S: Source>(
        &self,
        source: &mut S,
        number: u64,
        writer_thread: bool,
    ) -> Result<InputSummary, RunError<S::Error>> {
        let mut input = self.open(number, source.label(), writer_thread)?;
        match source.read(&mut input) {
            Ok(()) => Ok(input.finish()?),
            Err(e) => Err(match input.abandon() {
                Some(output) => RunError::Pipeline(output),
                None => RunError::Source(e),
            }),
        }
    }

    /// The input numbered `number` (its `msgIndex` range), its parts
    /// labelled `label`, encoded on a thread of its own or not.
    fn open(
        &self,
        number: u64,
        label: &str,
        writer_thread: bool,
    ) -> Result<Input<'a>, PipelineError> {
        let outs = (self.p.schemas.entries().iter())
            .map(|entry| self.p.exporter(entry, number << 40))
            .collect::<Result<Vec<_>, _>>()?;
        let to = if writer_thread {
            ToThread::spawn(self.p.writers(label))
                .map_or_else(|| Writers::Here(self.p.writers(label)), Writers::Thread)
        } else {
            Writers::Here(self.p.writers(label))
        };
        Ok(Input {
            schemas: self.p.schemas,
            outs,
            to,
            templates: self.p.templates.clone(),
            failed: None,
            pending: None,
            summary: InputSummary {
                number,
                ..InputSummary::default()
            },
        })
    }
}

/// Where an input's messages come from, for [`Dataset::run`]: a file, a
/// capture, a topic.
///
/// ```
/// use sbe_columnar::pipeline::{Input, PushError, Source};
/// use sbe_columnar::Frame;
///
/// /// Messages back to back in a buffer.
/// struct Packed { name: String, bytes: Vec<u8> }
///
/// impl Source for Packed {
///     type Error = sbe_columnar::pipeline::PipelineError;
///     fn name(&self) -> &str {
///         &self.name
///     }
///     fn read(&mut self, input: &mut Input<'_>) -> Result<(), Self::Error> {
///         let mut at = 0;
///         while let Some(rest) = self.bytes.get(at..).filter(|r| !r.is_empty()) {
///             match input.push(rest, &Frame::at(at as u64)) {
///                 Ok(len) => at += len,
///                 // In `_errors`; its length is unknown: stop here.
///                 Err(PushError::Message(_)) => break,
///                 Err(PushError::Output(e)) => return Err(e),
///             }
///         }
///         Ok(())
///     }
/// }
/// ```
pub trait Source {
    /// Why reading stopped.
    type Error;

    /// The input's name, recorded in the dataset (see [`Dataset::input`]).
    fn name(&self) -> &str;

    /// The label of its part files (default: its name).
    fn label(&self) -> &str {
        self.name()
    }

    /// Pushes the input's messages into `input` ([`Input::push`]). The
    /// pipeline finishes the input after it.
    ///
    /// # Errors
    /// Why the input could not be read to its end: the run stops.
    fn read(&mut self, input: &mut Input<'_>) -> Result<(), Self::Error>;
}

/// A [`Source`] of messages one by one: each item a message's bytes and
/// its [`Frame`]. A message that cannot be decoded goes to `_errors`, and
/// the next is read.
#[derive(Debug, Clone)]
pub struct Messages<B> {
    name: String,
    items: Vec<(B, Frame)>,
}

impl<B: AsRef<[u8]>> Messages<B> {
    /// The messages `items`, the input named (and its parts labelled)
    /// `name`.
    pub fn new(name: &str, items: Vec<(B, Frame)>) -> Messages<B> {
        Messages {
            name: name.to_string(),
            items,
        }
    }
}

impl<B: AsRef<[u8]>> Source for Messages<B> {
    type Error = PipelineError;

    fn name(&self) -> &str {
        &self.name
    }

    fn read(&mut self, input: &mut Input<'_>) -> Result<(), PipelineError> {
        for (bytes, frame) in &self.items {
            match input.push(bytes.as_ref(), frame) {
                Ok(_) | Err(PushError::Message(_)) => {}
                Err(PushError::Output(e)) => return Err(e),
            }
        }
        Ok(())
    }
}

/// One input's messages on their way into the dataset: each decoded into
/// its table, the tables' batches handed to the writer (on a thread of
/// its own with [`Pipeline::threads`] of 2 or more) as they fill.
///
/// [`Input::finish`] writes the rest and gives each part file its name.
/// An input dropped without it leaves its parts under their temporary
/// names (`.part-NNNNN-<label>.parquet.tmp`, which readers skip).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
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
/// # let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
/// # let codec = sbe_otf::Codec::new(&schema)?;
/// # let entry = sbe_otf::multi::Entry { codec, label: "demo.xml".into() };
/// # let schemas = sbe_otf::multi::Schemas::new(vec![entry])?;
/// use sbe_columnar::pipeline::{Pipeline, PushError};
/// use sbe_columnar::Frame;
///
/// let dir = std::env::temp_dir().join(format!("sbe-input-doc-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir);
/// let dataset = Pipeline::new(&schemas, &dir).threads(1).start()?;
/// let mut input = dataset.input("feed", "feed")?;
/// input.push(&[4, 0, 1, 0, 1, 0, 0, 0, 42, 0, 0, 0], &Frame::at(0))?;
/// // Cut short: refused, kept in `_errors`.
/// let cut = input.push(&[4, 0, 1, 0, 1, 0], &Frame::at(12));
/// assert!(matches!(cut, Err(PushError::Message(e)) if e.is_truncated()));
/// let summary = input.finish()?;
/// assert_eq!((summary.messages, summary.refused), (1, 1));
/// assert_eq!(summary.parts, [
///     dir.join("Tick/part-00000-feed.parquet"),
///     dir.join("_errors/part-00000-feed.parquet"),
/// ]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(()) }
/// ```
pub struct Input<'a> {
    schemas: &'a Schemas<'a>,
    /// An exporter per schema, in the order of `schemas`.
    outs: Vec<Exporter<'a>>,
    /// To the writer.
    to: Writers<'a>,
    templates: Vec<u64>,
    /// An output error: the input stops.
    failed: Option<PipelineError>,
    /// The last message refused, kept until the reader gives up on it (a
    /// truncated one is offered again with more bytes).
    pending: Option<Refused>,
    summary: InputSummary,
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("summary", &self.summary)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

/// A refused message: which exporter's `_errors` gets it, and what.
struct Refused {
    exporter: usize,
    bytes: Vec<u8>,
    frame: Frame,
    kind: &'static str,
    text: String,
}

impl Input<'_> {
    /// Decodes the message at the start of `bytes` (where it was:
    /// `frame`; errors count their offsets from `frame.offset`) into its
    /// table, and hands the batches it completes to the writer; returns
    /// its length. `bytes` may go on past the message (the next ones,
    /// back to back). A message that cannot be decoded goes to `_errors`.
    ///
    /// # Errors
    /// [`PushError::Message`]: the message could not be decoded (the
    /// run-time codec's verdict, as `sbe decode` gives it), and is in
    /// `_errors`; the input goes on. [`PushError::Output`]: a batch could
    /// not be written; the input stops, and [`Input::finish`] gives the
    /// cause.
    pub fn push(&mut self, bytes: &[u8], frame: &Frame) -> Result<usize, PushError> {
        let r = self.offer(bytes, frame);
        if r.is_err() {
            self.give_up();
        }
        r
    }

    /// As [`Input::push`], but a message refused is held back, not yet in
    /// `_errors`, for a reader that may offer it again with more bytes (a
    /// message cut at the end of a TCP segment): the next message offered
    /// or pushed takes its place, and [`Input::give_up`] (or
    /// [`Input::finish`]) records it in `_errors`.
    ///
    /// # Errors
    /// As [`Input::push`]'s.
    pub fn offer(&mut self, bytes: &[u8], frame: &Frame) -> Result<usize, PushError> {
        if let Some(e) = &self.failed {
            return Err(PushError::Output(e.duplicate()));
        }
        let base = frame.offset.unwrap_or(0);
        if !self.templates.is_empty()
            && !self
                .schemas
                .read_header(bytes)
                .is_some_and(|h| self.templates.contains(&h.template_id))
        {
            let len = self.schemas.message_length(bytes, base)?.len;
            self.summary.skipped += 1;
            return Ok(len);
        }
        let picked = self.schemas.pick(bytes, base);
        let index = picked.as_ref().ok().and_then(|e| {
            self.schemas
                .entries()
                .iter()
                .position(|x| std::ptr::eq(x, *e))
        });
        let Some((i, ex)) = index.and_then(|i| Some((i, self.outs.get_mut(i)?))) else {
            let e = match picked {
                Err(e) => e,
                Ok(_) => self
                    .schemas
                    .message_length(bytes, base)
                    .err()
                    .unwrap_or_else(|| {
                        MultiError::Decode(framing_error(base, "no exporter for its schema"))
                    }),
            };
            self.pending = Some(Refused {
                exporter: 0,
                bytes: clip(bytes).to_vec(),
                frame: frame.clone(),
                kind: "UnknownSchema",
                text: e.to_string(),
            });
            return Err(PushError::Message(e));
        };
        match ex.append(bytes, frame) {
            Ok(len) => {
                self.pending = None;
                self.summary.messages += 1;
                let ready = ex.take_unfinished();
                // Most messages complete no batch: then no loop is made
                // and dropped.
                if ready.is_empty() {
                    return Ok(len);
                }
                for rows in ready {
                    if let Err(e) = self.to.write(i, rows, &mut self.outs) {
                        self.failed = Some(e.duplicate());
                        return Err(PushError::Output(e));
                    }
                }
                Ok(len)
            }
            Err(col) => {
                // The run-time codec's verdict, as the JSON path reports it.
                let e = match self.schemas.message_length(bytes, base) {
                    Err(e) => e,
                    Ok(_) => MultiError::Decode(framing_error(base, &col.to_string())),
                };
                self.pending = Some(Refused {
                    exporter: index.unwrap_or(0),
                    bytes: clip(bytes).to_vec(),
                    frame: frame.clone(),
                    kind: col.kind(),
                    text: e.to_string(),
                });
                Err(PushError::Message(e))
            }
        }
    }

    /// Records the message refused last by [`Input::offer`] in `_errors`
    /// (nothing when there is none).
    pub fn give_up(&mut self) {
        if let Some(r) = self.pending.take() {
            if let Some(ex) = self.outs.get_mut(r.exporter) {
                ex.append_error(&r.bytes, &r.frame, r.kind, &r.text);
                self.summary.refused += 1;
            }
        }
    }

    /// The output error that stopped the input, if one did.
    pub fn failed(&self) -> Option<&PipelineError> {
        self.failed.as_ref()
    }

    /// The schemas its messages are decoded with.
    pub fn schemas(&self) -> &Schemas<'_> {
        self.schemas
    }

    /// Records the message held back (see [`Input::offer`]), writes every
    /// table's rest, and closes the part files, giving each its name.
    ///
    /// # Errors
    /// The output error that stopped the input (the writer thread's
    /// first), its parts left under their temporary names; or
    /// [`PipelineError::Close`] when parts could not be closed (every
    /// other one is).
    pub fn finish(mut self) -> Result<InputSummary, PipelineError> {
        self.give_up();
        let flushed = match self.failed.take() {
            Some(e) => Err(e),
            None => self.flush(),
        };
        let (parts, errors) = match std::mem::replace(&mut self.to, Writers::Gone) {
            Writers::Here(writers) => {
                flushed?;
                close_all(writers)
            }
            Writers::Thread(to) => {
                let written = to.close(flushed.is_ok());
                // The writer's own error first: the reader's is that it
                // stopped.
                let written = written?;
                flushed?;
                written
            }
            Writers::Memory(_) | Writers::Each(_) => {
                flushed?;
                (Vec::new(), Vec::new())
            }
            Writers::Gone => (Vec::new(), Vec::new()),
        };
        if !errors.is_empty() {
            return Err(PipelineError::Close(errors));
        }
        let mut summary = std::mem::take(&mut self.summary);
        summary.parts = parts;
        Ok(summary)
    }

    /// For an input of [`Pipeline::collect`]: records the message held
    /// back, completes every table, and gives the batches, in the order
    /// they were completed (a table's batches in the order of its rows).
    ///
    /// # Errors
    /// Arrow refused a batch ([`PipelineError::Export`]).
    pub fn finish_collected(mut self) -> Result<Collected, PipelineError> {
        self.give_up();
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.flush()?;
        let batches = match std::mem::replace(&mut self.to, Writers::Gone) {
            Writers::Memory(batches) => batches,
            _ => Vec::new(),
        };
        Ok(Collected {
            summary: std::mem::take(&mut self.summary),
            batches,
        })
    }

    /// Hands every table's rest to the writer.
    fn flush(&mut self) -> Result<(), PipelineError> {
        for i in 0..self.outs.len() {
            let rest = self.outs.get_mut(i).map(Exporter::finish).transpose();
            for (table, batch) in rest.map_err(PipelineError::Export)?.unwrap_or_default() {
                self.to.write(i, (table, batch).into(), &mut self.outs)?;
            }
        }
        Ok(())
    }

    /// Stops without closing the parts; the output error that stopped the
    /// input, if one did (the writer thread's first).
    fn abandon(mut self) -> Option<PipelineError> {
        let failed = self.failed.take();
        match std::mem::replace(&mut self.to, Writers::Gone) {
            Writers::Thread(to) => to.close(false).err().or(failed),
            _ => failed,
        }
    }
}

impl Drop for Input<'_> {
    /// An input not finished: its writer thread, if any, is stopped and
    /// waited for, its parts left under their temporary names.
    fn drop(&mut self) {
        if let Writers::Thread(to) = std::mem::replace(&mut self.to, Writers::Gone) {
            let _ = to.close(false);
        }
    }
}

fn framing_error(base: u64, text: &str) -> DecodeError {
    DecodeError {
        offset: base,
        kind: DecodeErrorKind::Framing(text.to_string()),
        need: None,
    }
}

fn clip(buf: &[u8]) -> &[u8] {
    buf.get(..ERROR_BYTES).unwrap_or(buf)
}

/// Hands a batch of a collecting input on; `false`: stop the input.
type EachBatch<'a> = Box<dyn FnMut(CollectedBatch) -> bool + Send + 'a>;

/// Where an input's batches go.
enum Writers<'a> {
    /// Written on the decoding thread.
    Here(Vec<DatasetWriter>),
    /// To the writing thread.
    Thread(ToThread),
    /// Kept in memory ([`Pipeline::collect`]).
    Memory(Vec<CollectedBatch>),
    /// Handed on as each is complete ([`Pipeline::collect_each`]).
    Each(EachBatch<'a>),
    /// Closed or abandoned.
    Gone,
}

/// What the writing thread is sent.
enum ToWriter {
    /// Rows of a table of schema `.0`, to write into its part.
    Batch(usize, Unfinished),
    /// Close the parts: the input is done.
    Close,
}

/// The part files written and those that could not be closed.
type Closed = (Vec<PathBuf>, Vec<DatasetError>);

/// The way to the writing thread and back.
struct ToThread {
    tx: SyncSender<ToWriter>,
    /// The tables the writer emptied.
    spares: Receiver<(usize, Spare)>,
    /// Batches sent and not written yet.
    queued: Arc<AtomicUsize>,
    thread: JoinHandle<Result<Closed, PipelineError>>,
}

impl ToThread {
    /// A writing thread of `writers`; `None` when no thread can be had.
    fn spawn(writers: Vec<DatasetWriter>) -> Option<ToThread> {
        let (tx, rx) = mpsc::sync_channel(WRITE_QUEUE);
        let (give_back, spares) = mpsc::channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let counted = queued.clone();
        let thread = std::thread::Builder::new()
            .name("sbe-columnar-write".into())
            .spawn(move || write_all(writers, rx, &give_back, &counted))
            .ok()?;
        Some(ToThread {
            tx,
            spares,
            queued,
            thread,
        })
    }

    /// Tells the writer to close the parts (`close`) or to leave them,
    /// and waits for it.
    fn close(self, close: bool) -> Result<Closed, PipelineError> {
        if close {
            // Refused when the writer stopped: its error is its result.
            let _ = self.tx.send(ToWriter::Close);
        }
        drop(self.tx);
        self.thread
            .join()
            .unwrap_or(Err(PipelineError::WritingThread))
    }
}

/// Writes each batch into its dataset's part, and closes every part when
/// told to. The tables it makes into batches go back (`give_back`) to be
/// filled again; `queued` counts the batches sent and not written yet.
fn write_all(
    mut writers: Vec<DatasetWriter>,
    batches: Receiver<ToWriter>,
    give_back: &Sender<(usize, Spare)>,
    queued: &AtomicUsize,
) -> Result<Closed, PipelineError> {
    for batch in batches {
        let (i, rows) = match batch {
            ToWriter::Batch(i, rows) => (i, rows),
            ToWriter::Close => return Ok(close_all(writers)),
        };
        let (made, spare) = rows.finish_keeping();
        // The reader may be gone (an error of its own).
        let _ = give_back.send((i, spare));
        write_one(&mut writers, i, made.map_err(PipelineError::Export)?)?;
        queued.fetch_sub(1, Ordering::Relaxed);
    }
    // The input was abandoned: the parts keep their temporary names.
    Ok((Vec::new(), Vec::new()))
}

/// Writes a batch into its dataset's part.
fn write_one(
    writers: &mut [DatasetWriter],
    i: usize,
    (table, batch): (String, arrow_array::RecordBatch),
) -> Result<(), PipelineError> {
    match writers.get_mut(i) {
        Some(w) => w.write(&table, &batch).map_err(PipelineError::Write),
        None => Ok(()),
    }
}

/// Closes every part: those closed, by name, and the errors of those
/// that could not be.
fn close_all(writers: Vec<DatasetWriter>) -> Closed {
    let mut parts = Vec::new();
    let mut errors = Vec::new();
    for w in writers {
        match w.close() {
            Ok(done) => parts.extend(done),
            Err(e) => errors.push(e),
        }
    }
    (parts, errors)
}

impl Writers<'_> {
    /// Hands `rows` of exporter `i` (of `outs`) on, and the tables
    /// emptied since back to their exporters.
    fn write(
        &mut self,
        i: usize,
        rows: Unfinished,
        outs: &mut [Exporter<'_>],
    ) -> Result<(), PipelineError> {
        let keep = |u: Unfinished, outs: &mut [Exporter<'_>]| {
            let (made, spare) = u.finish_keeping();
            if let Some(ex) = outs.get_mut(i) {
                ex.give_back(spare);
            }
            made.map_err(PipelineError::Export)
        };
        match self {
            Writers::Thread(to) => {
                while let Ok((k, spare)) = to.spares.try_recv() {
                    if let Some(ex) = outs.get_mut(k) {
                        ex.give_back(spare);
                    }
                }
                let rows = if to.queued.load(Ordering::Relaxed) >= WRITER_MAKES_BELOW {
                    keep(rows, outs)?.into()
                } else {
                    rows
                };
                to.queued.fetch_add(1, Ordering::Relaxed);
                (to.tx.send(ToWriter::Batch(i, rows))).map_err(|_| PipelineError::WriterStopped)
            }
            Writers::Here(writers) => write_one(writers, i, keep(rows, outs)?),
            Writers::Memory(batches) => {
                let (table, batch) = keep(rows, outs)?;
                batches.push(CollectedBatch {
                    schema: i,
                    table,
                    batch,
                });
                Ok(())
            }
            Writers::Each(each) => {
                let (table, batch) = keep(rows, outs)?;
                let batch = CollectedBatch {
                    schema: i,
                    table,
                    batch,
                };
                if each(batch) {
                    Ok(())
                } else {
                    Err(PipelineError::WriterStopped)
                }
            }
            Writers::Gone => Err(PipelineError::WriterStopped),
        }
    }
}

/// A batch of an input of [`Pipeline::collect`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CollectedBatch {
    /// Its schema: the index of its entry in the pipeline's schemas.
    pub schema: usize,
    /// Its table: the message's name, a flattened group's
    /// `Message.group`, or [`crate::ERRORS`].
    pub table: String,
    /// The rows, typed as the dataset's part files are.
    pub batch: arrow_array::RecordBatch,
}

/// What an input of [`Pipeline::collect`] gives: what it went through, and
/// its batches.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Collected {
    /// Its messages, those refused and those stepped over (no parts).
    pub summary: InputSummary,
    /// Its batches, in the order they were completed.
    pub batches: Vec<CollectedBatch>,
}

/// What an input went through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputSummary {
    /// The input's number in the dataset: its `msgIndex` counts from
    /// `number << 40`.
    pub number: u64,
    /// Messages decoded into their tables.
    pub messages: u64,
    /// Messages recorded in `_errors`.
    pub refused: u64,
    /// Messages stepped over, of templates not asked for
    /// ([`Pipeline::templates`]).
    pub skipped: u64,
    /// The part files written, sorted by schema, then by path.
    pub parts: Vec<PathBuf>,
}

/// What a [`Dataset::run`] went through: each input's summary, in the
/// order of the sources.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Each input's, in the order of the sources.
    pub inputs: Vec<InputSummary>,
}

impl Summary {
    /// Messages decoded into their tables, over the inputs.
    pub fn messages(&self) -> u64 {
        self.inputs.iter().map(|i| i.messages).sum()
    }

    /// Messages recorded in `_errors`, over the inputs.
    pub fn refused(&self) -> u64 {
        self.inputs.iter().map(|i| i.refused).sum()
    }
}

/// The dataset could not be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum PipelineError {
    /// A schema's messages cannot be exported.
    Setup {
        /// The schema's package.
        package: String,
        /// Why.
        source: SetupError,
    },
    /// The output folder could not be made ready (it exists and is
    /// refused, or cannot be made), or an input's number not claimed:
    /// nothing of the input was written.
    Prepare(DatasetError),
    /// A part file could not be written.
    Write(DatasetError),
    /// Arrow refused a batch (a bug of this crate, not of the input).
    Export(ExportError),
    /// Part files that could not be closed (the others were).
    Close(Vec<DatasetError>),
    /// The writing thread stopped (its own error says why).
    WriterStopped,
    /// The writing thread panicked.
    WritingThread,
    /// A decoding thread panicked.
    DecodingThread,
}

fn join(errors: &[DatasetError]) -> String {
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::Setup { package, .. } => {
                write!(f, "{package}: its message header cannot be read")
            }
            PipelineError::Prepare(e) | PipelineError::Write(e) => e.fmt(f),
            PipelineError::Export(e) => e.fmt(f),
            PipelineError::Close(e) => f.write_str(&join(e)),
            PipelineError::WriterStopped => f.write_str("the writer stopped"),
            PipelineError::WritingThread => f.write_str("the writing thread failed"),
            PipelineError::DecodingThread => f.write_str("a decoding thread failed"),
        }
    }
}

impl std::error::Error for PipelineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PipelineError::Setup { source, .. } => Some(source),
            PipelineError::Prepare(e) | PipelineError::Write(e) => e.source(),
            PipelineError::Export(e) => e.source(),
            _ => None,
        }
    }
}

impl PipelineError {
    /// The same error again (an I/O error as its kind and text), for the
    /// pusher to see while the input keeps it.
    fn duplicate(&self) -> PipelineError {
        match self {
            PipelineError::Setup { package, source } => PipelineError::Setup {
                package: package.clone(),
                source: source.clone(),
            },
            PipelineError::Prepare(e) => PipelineError::Prepare(e.duplicate()),
            PipelineError::Write(e) => PipelineError::Write(e.duplicate()),
            PipelineError::Export(e) => PipelineError::Export(e.clone()),
            PipelineError::Close(e) => {
                PipelineError::Close(e.iter().map(DatasetError::duplicate).collect())
            }
            PipelineError::WriterStopped => PipelineError::WriterStopped,
            PipelineError::WritingThread => PipelineError::WritingThread,
            PipelineError::DecodingThread => PipelineError::DecodingThread,
        }
    }
}

/// A message could not be pushed.
#[derive(Debug)]
pub enum PushError {
    /// It could not be decoded; the input goes on.
    Message(MultiError),
    /// The output failed; the input stops.
    Output(PipelineError),
}

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushError::Message(e) => e.fmt(f),
            PushError::Output(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PushError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PushError::Message(e) => e.source(),
            PushError::Output(e) => e.source(),
        }
    }
}

impl From<MultiError> for PushError {
    fn from(e: MultiError) -> PushError {
        PushError::Message(e)
    }
}

/// A [`Dataset::run`] stopped.
#[derive(Debug)]
pub enum RunError<E> {
    /// The dataset's error.
    Pipeline(PipelineError),
    /// A source's own.
    Source(E),
}

impl<E> From<PipelineError> for RunError<E> {
    fn from(e: PipelineError) -> RunError<E> {
        RunError::Pipeline(e)
    }
}

impl<E: fmt::Display> fmt::Display for RunError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Pipeline(e) => e.fmt(f),
            RunError::Source(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for RunError<E> {
    /// As the error's own (the display is the error's).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Pipeline(e) => e.source(),
            RunError::Source(e) => e.source(),
        }
    }
}
