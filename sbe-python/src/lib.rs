//! `sbe_rs._native`: the Rust half of the Python package `sbe-rs`, a thin
//! layer over the library crates. Schema reading is `sbe_ir`'s, decoding
//! and encoding `sbe_otf`'s, framings `sbe_framing`'s, captures
//! `sbe_capture`'s and Arrow batches `sbe_columnar`'s: this file turns
//! Python arguments into their options and their results and errors into
//! Python objects, and releases the GIL while they run. The Pythonic API
//! (generators, `pyarrow` tables, docstrings) is `python/sbe_rs`.
//!
//! Nothing here may panic across the FFI boundary: input never reaches an
//! `unwrap`, `expect` or index (denied below), and every library error is
//! a Python exception.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, RecordBatch, RecordBatchIterator};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyCapsule, PyString};
use sbe_capture::decoding::{
    endian, JsonSink, StreamFailure, StreamItem, StreamOptions, Undecodable,
};
use sbe_capture::{self as capture, Level};
use sbe_columnar::dataset::{Compression, Existing, Format};
use sbe_columnar::pipeline::{CollectedBatch, Input, Pipeline, PipelineError, RunError, Source};
use sbe_columnar::TimestampUnit;
use sbe_framing::Framing;
use sbe_ir::ir::{IncludePolicy, Schema as IrSchema};
use sbe_otf::multi::{Entry, MultiError, Schemas};
use sbe_otf::semantic::Values;
use sbe_otf::Codec;

create_exception!(
    sbe_rs,
    SbeError,
    PyException,
    "The base class of every error of sbe_rs."
);
create_exception!(
    sbe_rs,
    SchemaError,
    SbeError,
    "A schema that cannot be read or is invalid: `file`, `line`, `col` of its first error, `diagnostics` all of them."
);
create_exception!(
    sbe_rs,
    DecodeError,
    SbeError,
    "A message that cannot be decoded: `offset` (bytes into the input or payload), `element` (the schema element being read, when known), `packet` (captures)."
);
create_exception!(
    sbe_rs,
    EncodeError,
    SbeError,
    "A message (dict) that cannot be encoded: `path` is the JSON path of the value at fault."
);
create_exception!(
    sbe_rs,
    FramingError,
    SbeError,
    "A framing string, capture or stream that cannot be read as asked."
);

/// A schema's codecs: one per value mapping, borrowing the IR.
struct Codecs<'s> {
    wire: Codec<'s>,
    semantic: Codec<'s>,
}

self_cell::self_cell!(
    /// An IR with its codecs.
    struct Loaded {
        owner: IrSchema,
        #[not_covariant]
        dependent: Codecs,
    }
);

/// One schema: its IR and codecs (`Schema.load` in Python).
#[pyclass(frozen, module = "sbe_rs._native")]
struct Schema {
    loaded: Loaded,
    /// The path as given: the `schema` label of decoded messages.
    path: String,
}

fn schema_error(py: Python<'_>, e: &sbe_ir::Error, path: &str) -> PyErr {
    let err = SchemaError::new_err(e.to_string());
    let value = err.value(py);
    let (mut file, mut line, mut col): (String, Option<u32>, Option<u32>) =
        (path.to_string(), None, None);
    let mut diagnostics = Vec::new();
    if let sbe_ir::Error::Schema(ds) = e {
        for (i, d) in ds.iter().enumerate() {
            let (f, l, c) = match &d.pos {
                Some(p) => (
                    p.file.to_string_lossy().into_owned(),
                    Some(p.line),
                    Some(p.col),
                ),
                None => (path.to_string(), None, None),
            };
            if i == 0 {
                (file, line, col) = (f.clone(), l, c);
            }
            diagnostics.push((f, l, c, d.message.clone()));
        }
    }
    let _ = value.setattr("file", file);
    let _ = value.setattr("line", line);
    let _ = value.setattr("col", col);
    let _ = value.setattr("diagnostics", diagnostics);
    err
}

/// The schema element a decode error names, when it names one.
fn element(e: &MultiError) -> Option<String> {
    match e {
        MultiError::Decode(d) => d.kind.element().map(str::to_string),
        MultiError::UnknownSchema { .. } => None,
    }
}

fn decode_error(
    py: Python<'_>,
    text: String,
    e: Option<&MultiError>,
    packet: Option<u64>,
) -> PyErr {
    let err = DecodeError::new_err(text);
    let value = err.value(py);
    let _ = value.setattr("offset", e.map(MultiError::offset));
    let _ = value.setattr("element", e.and_then(element));
    let _ = value.setattr("packet", packet);
    err
}

/// The codec's JSON as text: it writes UTF-8 (ISO-8859-1 text widened).
fn json_text(out: Vec<u8>) -> PyResult<String> {
    String::from_utf8(out).map_err(|e| SbeError::new_err(format!("decoded JSON is not UTF-8: {e}")))
}

fn values_of(values: &str) -> PyResult<Values> {
    match values {
        "wire" => Ok(Values::Wire),
        "semantic" => Ok(Values::Semantic),
        other => Err(PyValueError::new_err(format!(
            "values={other:?}: \"wire\" or \"semantic\""
        ))),
    }
}

fn framing_of(s: &str) -> PyResult<Framing> {
    s.parse()
        .map_err(|e| FramingError::new_err(sbe_framing::split::framing_error(s, &e)))
}

#[pymethods]
impl Schema {
    /// Loads and checks the schema at `path` (see the Python docstring).
    #[staticmethod]
    #[pyo3(signature = (path, allow_includes_outside = false))]
    fn load(py: Python<'_>, path: PathBuf, allow_includes_outside: bool) -> PyResult<Schema> {
        let label = path.to_string_lossy().into_owned();
        let policy = IncludePolicy {
            allow_outside: allow_includes_outside,
        };
        let ir = py
            .detach(|| sbe_ir::ir::load_with(&path, policy))
            .map_err(|e| schema_error(py, &e, &label))?;
        // The codec refuses what it cannot decode (a header without a
        // templateId, ...): said as a schema error of the file.
        let loaded = Loaded::try_new(ir, |ir| -> Result<Codecs<'_>, String> {
            let wire = Codec::new(ir).map_err(|e| e.to_string())?;
            let semantic = Codec::new(ir)
                .map_err(|e| e.to_string())?
                .with_values(Values::Semantic);
            Ok(Codecs { wire, semantic })
        })
        .map_err(|text| {
            let err = SchemaError::new_err(format!("{label}: {text}"));
            let v = err.value(py);
            let _ = v.setattr("file", label.clone());
            let _ = v.setattr("line", None::<u32>);
            let _ = v.setattr("col", None::<u32>);
            let _ = v.setattr("diagnostics", Vec::<(String, u32, u32, String)>::new());
            err
        })?;
        Ok(Schema {
            loaded,
            path: label,
        })
    }

    /// The path it was loaded from, as given.
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    /// The schema's package.
    #[getter]
    fn package(&self) -> &str {
        &self.loaded.borrow_owner().package
    }

    /// The schema's id.
    #[getter]
    fn id(&self) -> u32 {
        self.loaded.borrow_owner().id
    }

    /// The schema's version.
    #[getter]
    fn version(&self) -> u32 {
        self.loaded.borrow_owner().version
    }

    /// `"littleEndian"` or `"bigEndian"`.
    #[getter]
    fn byte_order(&self) -> &'static str {
        match self.loaded.borrow_owner().byte_order {
            sbe_ir::ir::ByteOrder::Little => "littleEndian",
            sbe_ir::ir::ByteOrder::Big => "bigEndian",
        }
    }

    /// The warnings of the schema, as `sbe validate` prints them.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        (self.loaded.borrow_owner().warnings.iter())
            .map(ToString::to_string)
            .collect()
    }

    /// `sbe layout --meanings`'s JSON text.
    fn _layout_json(&self) -> String {
        let options = sbe_ir::report::LayoutOptions::default().meanings(true);
        sbe_ir::report::layout_json_with(self.loaded.borrow_owner(), &self.path, options)
    }

    /// The JSON text of the message at the start of `buf`.
    #[pyo3(signature = (buf, values = "wire"))]
    fn _decode_json<'py>(
        &self,
        py: Python<'py>,
        buf: PyBackedBytes,
        values: &str,
    ) -> PyResult<Bound<'py, PyString>> {
        let values = values_of(values)?;
        let label = self.path.as_str();
        let r = py.detach(|| {
            self.loaded.with_dependent(|_, c| {
                let codec = match values {
                    Values::Semantic => &c.semantic,
                    _ => &c.wire,
                };
                let mut out = Vec::with_capacity(256);
                codec
                    .decode_json(&buf, 0, Some(label), &mut out)
                    .map(|_| out)
            })
        });
        match r {
            // Text, not bytes: `json.loads` of a str skips telling the
            // encoding.
            Ok(out) => Ok(PyString::new(py, &json_text(out)?)),
            Err(e) => {
                let e = MultiError::Decode(e);
                Err(decode_error(py, e.to_string(), Some(&e), None))
            }
        }
    }

    /// The bytes of a message given as JSON text (either value mapping).
    fn _encode_json<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyBytes>> {
        let r = py.detach(|| {
            self.loaded.with_dependent(|_, c| {
                let mut out = Vec::with_capacity(256);
                if c.wire.encode_text(text, &mut out).is_some() {
                    return Ok(out);
                }
                out.clear();
                let value: serde_json::Value = serde_json::from_str(text)
                    .map_err(|e| ("$".to_string(), format!("invalid JSON: {e}")))?;
                (c.wire.encode_value(&value, &mut out).map(|_| out))
                    .map_err(|e| (e.path.clone(), e.to_string()))
            })
        });
        match r {
            Ok(out) => Ok(PyBytes::new(py, &out)),
            Err((path, text)) => {
                let err = EncodeError::new_err(text);
                let _ = err.value(py).setattr("path", path);
                Err(err)
            }
        }
    }

    /// The Arrow schema of each table `to_arrow` makes of this schema's
    /// messages (`frames`: with a capture's frame columns; `flatten`:
    /// groups as child tables): `[(table, ArrowSchema)]`, known before any
    /// message is read (Spark's `mapInArrow` needs it up front).
    #[pyo3(signature = (frames = false, flatten = false, timestamp_unit = "ns"))]
    fn _arrow_schemas(
        &self,
        frames: bool,
        flatten: bool,
        timestamp_unit: &str,
    ) -> PyResult<Vec<(String, ArrowSchema)>> {
        let options = sbe_columnar::Options::default()
            .frames(frames)
            .flatten(flatten)
            .timestamp_unit(unit_of(timestamp_unit)?);
        let ex = sbe_columnar::Exporter::new(self.loaded.borrow_owner(), options)
            .map_err(|e| SchemaError::new_err(format!("{}: {e}", self.path)))?;
        Ok((ex.schemas().into_iter())
            .map(|(name, schema)| (name, ArrowSchema { schema }))
            .collect())
    }

    fn __repr__(&self) -> String {
        let ir = self.loaded.borrow_owner();
        format!(
            "Schema(path={:?}, package={:?}, id={}, version={}, messages={})",
            self.path,
            ir.package,
            ir.id,
            ir.version,
            ir.messages.len()
        )
    }
}

/// Bytes read from a Python file object at a time: a file object is read
/// in pieces as the decoding needs them, never whole.
const FILE_CHUNK: usize = 256 << 10;

/// JSON lines handed to Python at a time (or [`LINES_BYTES`] of them):
/// one crossing of the channel and one `str` for many messages, few
/// enough that the first message comes without waiting for the input.
const CHUNK_LINES: usize = 512;

/// Bytes of JSON lines handed to Python at a time at most.
const LINES_BYTES: usize = 256 << 10;

/// Pieces (JSON line chunks, reports, Arrow batches) the reading thread
/// may be ahead of the Python consumer by: what bounds a stream's memory.
const AHEAD: usize = 2;

/// Where a read's bytes come from: a file (opened without the GIL),
/// bytes handed over by Python, or a Python binary file object (read in
/// [`FILE_CHUNK`]s, the GIL taken for each read only).
enum Bytes {
    Path(PathBuf),
    Buffer(PyBackedBytes),
    File(Py<PyAny>),
}

impl Bytes {
    fn name(&self) -> String {
        match self {
            Bytes::Path(p) => p.to_string_lossy().into_owned(),
            Bytes::Buffer(_) => "<bytes>".to_string(),
            Bytes::File(_) => "<file>".to_string(),
        }
    }

    fn open(&self) -> io::Result<Box<dyn Read + '_>> {
        Ok(match self {
            Bytes::Path(p) => Box::new(BufReader::with_capacity(
                1 << 16,
                File::open(p)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))?,
            )),
            Bytes::Buffer(b) => Box::new(io::Cursor::new(&b[..])),
            Bytes::File(f) => Box::new(PyFileReader {
                file: f,
                buf: Vec::new(),
                at: 0,
            }),
        })
    }
}

/// A Python binary file object as a [`Read`]: `read(FILE_CHUNK)` when
/// what it read before is used up. A Python exception of `read` is the
/// `io::Error`'s inner error, raised again as it was ([`io_error`]).
struct PyFileReader<'f> {
    file: &'f Py<PyAny>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for PyFileReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.buf.len() {
            self.buf.clear();
            self.at = 0;
            let file = self.file;
            let buf = &mut self.buf;
            let r = Python::try_attach(|py| -> PyResult<()> {
                let data = file.bind(py).call_method1("read", (FILE_CHUNK,))?;
                if let Ok(b) = data.cast::<PyBytes>() {
                    buf.extend_from_slice(b.as_bytes());
                } else if let Ok(b) = data.cast::<PyByteArray>() {
                    buf.extend_from_slice(&b.to_vec());
                } else if !data.is_none() {
                    return Err(PyTypeError::new_err(
                        "a file object given as source must be opened in binary mode",
                    ));
                }
                Ok(())
            });
            match r {
                Some(Ok(())) => {}
                Some(Err(e)) => return Err(io::Error::other(e)),
                None => return Err(io::Error::other("the Python interpreter is shutting down")),
            }
        }
        let rest = self.buf.get(self.at..).unwrap_or_default();
        let n = rest.len().min(out.len());
        if let (Some(to), Some(from)) = (out.get_mut(..n), rest.get(..n)) {
            to.copy_from_slice(from);
        }
        self.at += n;
        Ok(n)
    }
}

fn source_of(source: &Bound<'_, PyAny>) -> PyResult<Bytes> {
    if let Ok(b) = source.extract::<PyBackedBytes>() {
        return Ok(Bytes::Buffer(b));
    }
    if let Ok(p) = source.extract::<PathBuf>() {
        return Ok(Bytes::Path(p));
    }
    if source.hasattr("read")? {
        return Ok(Bytes::File(source.clone().unbind()));
    }
    Err(PyTypeError::new_err(format!(
        "source: a path, bytes or a binary file object, not {}",
        source.get_type().name()?
    )))
}

/// The options of a read shared by `read`, `to_arrow` and `write_dataset`.
struct ReadOptions {
    framing: Framing,
    skip: u64,
    templates: Vec<u64>,
    filters: Vec<capture::Term>,
    keep_going: bool,
    schema_id_check: bool,
    values: Values,
}

#[allow(clippy::too_many_arguments)]
fn read_options(
    framing: &str,
    skip: u64,
    templates: Vec<u64>,
    filters: Vec<String>,
    keep_going: bool,
    schema_id_check: bool,
    values: &str,
) -> PyResult<ReadOptions> {
    let filters = (filters.iter())
        .map(|f| {
            f.parse()
                .map_err(|e: capture::BadTerm| FramingError::new_err(e.to_string()))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(ReadOptions {
        framing: framing_of(framing)?,
        skip,
        templates,
        filters,
        keep_going,
        schema_id_check,
        values: values_of(values)?,
    })
}

/// The schemas of a read as one dispatcher, as `sbe decode` makes it.
fn dispatcher<'s>(schemas: &[&'s Schema], values: Values, id_check: bool) -> PyResult<Schemas<'s>> {
    if !id_check && schemas.len() > 1 {
        return Err(PyValueError::new_err(
            "schema_id_check=False needs a single schema: with several, each message's schema id picks its schema",
        ));
    }
    let mut entries = Vec::new();
    for s in schemas {
        let codec = Codec::new(s.loaded.borrow_owner())
            .map_err(|e| SchemaError::new_err(format!("{}: {e}", s.path)))?
            .with_schema_id_check(id_check)
            .with_values(values);
        entries.push(Entry {
            codec,
            label: s.path.clone(),
        });
    }
    Schemas::new(entries).map_err(|e| SchemaError::new_err(e.to_string()))
}

/// A report of a read: `(level, text)`, as `sbe decode` says it on stderr.
type Report = (&'static str, String);

/// What the reading thread hands Python, in the order of the input.
enum Piece {
    /// JSON lines, each ended by a newline.
    Lines(Vec<u8>),
    /// A report (`errors="report"`).
    Report(Report),
    /// An Arrow batch of the table `.0` (see [`read_arrow`]).
    Batch(String, RecordBatch),
    /// The read is over: the last piece.
    End(Ended),
}

/// How a read ended.
enum Ended {
    /// At the end of the input.
    Done,
    /// At its first bad message (`errors="raise"`).
    Stopped(Stop),
    /// An error that is no bad message: a file that cannot be read, a
    /// Python exception of a file object's `read`, ...
    Failed(PyErr),
}

/// The consumer of a stream dropped it: the reading thread stops.
fn gone() -> io::Error {
    io::Error::other("the reader of the stream went away")
}

fn send(tx: &SyncSender<Piece>, piece: Piece) -> io::Result<()> {
    tx.send(piece).map_err(|_| gone())
}

/// A read's JSON lines and reports to the channel: lines in chunks, each
/// report after the lines before it.
struct LineOut<'t> {
    tx: &'t SyncSender<Piece>,
    lines: Vec<u8>,
    count: usize,
}

impl LineOut<'_> {
    fn line(&mut self, line: &[u8]) -> io::Result<()> {
        self.lines.extend_from_slice(line);
        self.lines.push(b'\n');
        self.count += 1;
        if self.count >= CHUNK_LINES || self.lines.len() >= LINES_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn report(&mut self, level: &'static str, text: String) -> io::Result<()> {
        self.flush()?;
        send(self.tx, Piece::Report((level, text)))
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        self.count = 0;
        let lines = std::mem::replace(&mut self.lines, Vec::with_capacity(LINES_BYTES));
        send(self.tx, Piece::Lines(lines))
    }
}

/// A capture sink that keeps the last message it could not take, and its
/// packet: the facts of a `DecodeError` when the run's report of it stops
/// the read.
struct Remember<S> {
    sink: S,
    last: Option<(MultiError, u64)>,
}

impl<S: capture::Sink<Failure = Undecodable>> capture::Sink for Remember<S> {
    type Failure = Undecodable;

    fn message(
        &mut self,
        bytes: &[u8],
        origin: &capture::Origin<'_>,
    ) -> Result<usize, capture::Fail<Undecodable>> {
        let r = self.sink.message(bytes, origin);
        if let Err(capture::Fail::Message(Undecodable(e))) = &r {
            self.last = Some((e.clone(), origin.packet));
        }
        r
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        self.sink.report(level, text)
    }
}

impl Stop {
    /// The stop with the facts of the message `remembered` last, when
    /// the stop has none.
    fn with(mut self, remembered: Option<(MultiError, u64)>) -> Stop {
        if self.error.is_none() {
            if let Some((e, packet)) = remembered {
                self.error = Some(e);
                self.packet = Some(packet);
            }
        }
        self
    }
}

/// Why a read stopped before its end, for `errors="raise"`.
struct Stop {
    text: String,
    error: Option<MultiError>,
    packet: Option<u64>,
}

impl Stop {
    /// A stop of which only the text is known.
    fn of(text: String) -> Stop {
        Stop {
            text,
            error: None,
            packet: None,
        }
    }

    /// The stop at a failure of a stream of messages.
    fn of_stream(text: String, e: StreamFailure) -> Stop {
        Stop {
            text,
            error: match e {
                StreamFailure::Message(m) => Some(m),
                StreamFailure::Frame(_) => None,
            },
            packet: None,
        }
    }
}

/// Filters are for captures.
fn no_filters(name: &str, o: &ReadOptions) -> io::Result<()> {
    if !o.filters.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{name}: filters are for captures (pcap, pcapng), and this is none"),
        ));
    }
    Ok(())
}

/// A capture file has no bytes to skip before its first message.
fn no_skip(name: &str, o: &ReadOptions) -> io::Result<()> {
    if o.skip > 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{name}: skip is for files of messages, and this is a capture"),
        ));
    }
    Ok(())
}

/// The reader of a capture `source` of `format`, and how to read it;
/// bytes that are no readable capture say so.
fn open_capture<'r, R: Read + 'r>(
    name: &str,
    format: capture::Format,
    source: R,
    o: &ReadOptions,
    order: sbe_ir::ir::ByteOrder,
) -> io::Result<(capture::CaptureReader<'r>, capture::Options)> {
    let cap = capture::CaptureReader::new(format, source).map_err(|e| match e {
        capture::CaptureError::Io(e) => e,
        e => io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{name}: not a readable capture: {e}"),
        ),
    })?;
    let opts = capture::Options {
        framing: o.framing,
        order: endian(order),
        filter: o.filters.clone(),
    };
    Ok((cap, opts))
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Notice => "notice",
        Level::Error => "error",
    }
}

/// Reads `bytes` to JSON lines into `out`, as `sbe decode` does; with
/// `raise`, the first bad message stops the read and is returned.
fn read_json(
    schemas: &Schemas<'_>,
    bytes: &Bytes,
    o: &ReadOptions,
    raise: bool,
    out: &RefCell<LineOut<'_>>,
) -> io::Result<Option<Stop>> {
    let name = bytes.name();
    let (source, format) = capture::sniff_read(bytes.open()?)?;
    let mut stop: Option<Stop> = None;
    let Some(format) = format else {
        no_filters(&name, o)?;
        let opts = StreamOptions {
            framing: o.framing,
            skip: o.skip,
            templates: &o.templates,
            keep_going: o.keep_going && !raise,
        };
        capture::decoding::stream_json(schemas, source, &opts, |item| match item {
            StreamItem::Line(line) => out.borrow_mut().line(line),
            StreamItem::Failed(e) => {
                let text = format!("{name}: {e}");
                if raise {
                    stop = stop.take().or(Some(Stop::of_stream(text, e)));
                    return Ok(());
                }
                out.borrow_mut().report("error", text)
            }
        })?;
        return Ok(stop);
    };
    no_skip(&name, o)?;
    let (mut cap, opts) = open_capture(&name, format, source, o, schemas.byte_order())?;
    let sink = JsonSink::new(
        schemas,
        &o.templates,
        |line| out.borrow_mut().line(line),
        |level, text| {
            let text = format!("{name}: {text}");
            if raise && level == Level::Error {
                stop = Some(Stop::of(text));
                // Stops the run: the first error is raised.
                return Err(io::Error::other("stopped at the first error"));
            }
            out.borrow_mut().report(level_name(level), text)
        },
    );
    let mut sink = Remember { sink, last: None };
    let r = capture::run(&mut cap, &opts, &mut sink);
    let last = sink.last.take();
    drop(sink);
    let mut stop = stop.map(|s| s.with(last));
    match r {
        Ok(s) => {
            if s.matched == 0 {
                let text = format!(
                    "{name}: none of its {} packets is a UDP datagram or TCP segment{}",
                    s.packets,
                    if o.filters.is_empty() {
                        ""
                    } else {
                        " that the filters take"
                    }
                );
                out.borrow_mut().report("notice", text)?;
            }
        }
        Err(_) if stop.is_some() => {}
        Err(capture::RunError::Output(e))
        | Err(capture::RunError::Capture(capture::CaptureError::Io(e))) => return Err(e),
        Err(capture::RunError::Capture(e)) => {
            let text = format!("{name}: {e}");
            if raise {
                stop = Some(Stop::of(text));
            } else {
                out.borrow_mut().report("error", text)?;
            }
        }
    }
    Ok(stop)
}

/// Pushes the messages of `source` (a capture of `format`, or a stream of
/// messages when `None`) into `into`, as `sbe decode --format parquet`
/// reads an input; reports to `report`. With `raise`, the first bad
/// message stops the read and is returned. `to_arrow`, `record_batches`
/// and `write_dataset` all read through it.
fn push_input(
    into: &mut Input<'_>,
    name: &str,
    source: impl Read,
    format: Option<capture::Format>,
    o: &ReadOptions,
    raise: bool,
    report: &mut dyn FnMut(Report) -> io::Result<()>,
) -> io::Result<Option<Stop>> {
    let mut stop: Option<Stop> = None;
    let Some(format) = format else {
        no_filters(name, o)?;
        let order = endian(into.schemas().byte_order());
        let keep_going = o.keep_going && !raise;
        sbe_columnar::reading::push_stream(
            into,
            source,
            o.framing,
            order,
            o.skip,
            keep_going,
            |e| {
                let text = format!("{name}: {e}");
                if raise {
                    stop = stop.take().or(Some(Stop::of_stream(text, e)));
                    return Ok(());
                }
                report(("error", text))
            },
        )?;
        return Ok(stop);
    };
    no_skip(name, o)?;
    let (mut cap, opts) = open_capture(name, format, source, o, into.schemas().byte_order())?;
    let sink = sbe_columnar::reading::CaptureSink::new(into, |level, text: &str| {
        let text = format!("{name}: {text}");
        if raise && level == Level::Error {
            stop = Some(Stop::of(text));
            return Err(io::Error::other("stopped at the first error"));
        }
        report((level_name(level), text))
    });
    let mut sink = Remember { sink, last: None };
    let r = capture::run(&mut cap, &opts, &mut sink);
    let last = sink.last.take();
    drop(sink);
    let stop = stop.map(|s| s.with(last));
    match r {
        Ok(_) => {}
        Err(_) if stop.is_some() => {}
        Err(capture::RunError::Output(e))
        | Err(capture::RunError::Capture(capture::CaptureError::Io(e))) => return Err(e),
        Err(capture::RunError::Capture(e)) => report(("error", format!("{name}: {e}")))?,
    }
    Ok(stop)
}

/// Reads `bytes` into Arrow batches, each handed to the channel as soon as
/// it is complete (a table's key: its name, under `<package>/` with
/// several schemas), the reports between them.
fn read_arrow(
    schemas: &Schemas<'_>,
    bytes: &Bytes,
    o: &ReadOptions,
    raise: bool,
    flatten: bool,
    unit: TimestampUnit,
    tx: &SyncSender<Piece>,
) -> PyResult<Option<Stop>> {
    let name = bytes.name();
    let (source, format) =
        capture::sniff_read(bytes.open().map_err(io_error)?).map_err(io_error)?;
    let several = schemas.entries().len() > 1;
    let packages: Vec<String> = (schemas.entries().iter())
        .map(|e| e.codec.schema().package.clone())
        .collect();
    let batches = tx.clone();
    let each = move |b: CollectedBatch| {
        let key = match packages.get(b.schema) {
            Some(package) if several => format!("{package}/{}", b.table),
            _ => b.table,
        };
        batches.send(Piece::Batch(key, b.batch)).is_ok()
    };
    let mut input = Pipeline::new(schemas, "")
        .flatten(flatten)
        .timestamp_unit(unit)
        .frames(format.is_some())
        .templates(&o.templates)
        .collect_each(each)
        .map_err(pipeline_error)?;
    let mut report = |r: Report| send(tx, Piece::Report(r));
    let stop =
        push_input(&mut input, &name, source, format, o, raise, &mut report).map_err(io_error)?;
    if stop.is_some() {
        return Ok(stop);
    }
    input.finish_collected().map_err(pipeline_error)?;
    Ok(None)
}

/// What a reading thread makes of its input.
#[derive(Clone, Copy)]
enum Make {
    /// JSON lines (`read`).
    Json,
    /// Arrow batches (`to_arrow`, `record_batches`); `flatten`: groups as
    /// child tables; `unit`: the finest timestamp unit.
    Arrow { flatten: bool, unit: TimestampUnit },
}

/// Starts the thread that reads `bytes` and hands its pieces to the
/// stream it returns, at most [`AHEAD`] pieces ahead of the consumer:
/// a read holds a few pieces in memory, never the whole input, and
/// decodes without the GIL (it takes it only to read a Python file
/// object).
fn spawn_read(
    py: Python<'_>,
    schemas: Vec<Py<Schema>>,
    bytes: Bytes,
    o: ReadOptions,
    raise: bool,
    make: Make,
) -> PyResult<ReadStream> {
    // The schemas' errors are raised by the call, before any reading.
    drop(dispatcher(
        &schema_refs(&schemas),
        o.values,
        o.schema_id_check,
    )?);
    let (tx, rx) = mpsc::sync_channel(AHEAD);
    let worker = move || {
        let end = {
            let refs = schema_refs(&schemas);
            match dispatcher(&refs, o.values, o.schema_id_check) {
                Err(e) => Ended::Failed(e),
                Ok(d) => match make {
                    Make::Json => {
                        let out = RefCell::new(LineOut {
                            tx: &tx,
                            lines: Vec::with_capacity(LINES_BYTES),
                            count: 0,
                        });
                        let r = read_json(&d, &bytes, &o, raise, &out);
                        // The lines before an error come before it.
                        match out.into_inner().flush().and(r) {
                            Ok(None) => Ended::Done,
                            Ok(Some(stop)) => Ended::Stopped(stop),
                            Err(e) => Ended::Failed(io_error(e)),
                        }
                    }
                    Make::Arrow { flatten, unit } => {
                        match read_arrow(&d, &bytes, &o, raise, flatten, unit, &tx) {
                            Ok(None) => Ended::Done,
                            Ok(Some(stop)) => Ended::Stopped(stop),
                            Err(e) => Ended::Failed(e),
                        }
                    }
                },
            }
        };
        // Refused when the consumer is gone: nobody to tell.
        let _ = tx.send(Piece::End(end));
        // Python objects are let go of with the GIL when it can be had
        // (not while the interpreter shuts down).
        let mut held = Some((schemas, bytes));
        let _ = Python::try_attach(|_| drop(held.take()));
    };
    let spawned = py.detach(|| {
        std::thread::Builder::new()
            .name("sbe-rs-read".into())
            .spawn(worker)
    });
    spawned.map_err(|e| PyOSError::new_err(format!("cannot start a reading thread: {e}")))?;
    Ok(ReadStream {
        rx: Mutex::new(Some(rx)),
    })
}

/// The pieces of a read, as the reading thread hands them on: an iterator
/// of `(0, lines)` (JSON lines, a `str`), `(1, level, text)` (a report),
/// `(2, key, ArrowStream)` (a batch of table `key`); it raises the error
/// that ended the read.
#[pyclass(frozen, module = "sbe_rs._native")]
struct ReadStream {
    /// `None` once the read has ended.
    rx: Mutex<Option<Receiver<Piece>>>,
}

#[pymethods]
impl ReadStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // Waits for the reading thread without the GIL: it may need it to
        // read a file object, and other threads may run meanwhile.
        let piece = py.detach(|| {
            let rx = self.rx.lock().ok()?;
            Some(rx.as_ref()?.recv().ok())
        });
        let piece = match piece {
            None => return Ok(None),
            Some(Some(piece)) => piece,
            Some(None) => {
                self.close();
                return Err(SbeError::new_err(
                    "the reading thread stopped without an end",
                ));
            }
        };
        Ok(Some(match piece {
            Piece::Lines(lines) => (0, PyString::new(py, &json_text(lines)?))
                .into_pyobject(py)?
                .into_any()
                .unbind(),
            Piece::Report((level, text)) => (1, level, text).into_pyobject(py)?.into_any().unbind(),
            Piece::Batch(key, batch) => {
                let stream = ArrowStream::new(batch.schema(), vec![batch]);
                (2, key, stream).into_pyobject(py)?.into_any().unbind()
            }
            Piece::End(end) => {
                self.close();
                return match end {
                    Ended::Done => Ok(None),
                    Ended::Stopped(stop) => Err(decode_error(
                        py,
                        stop.text,
                        stop.error.as_ref(),
                        stop.packet,
                    )),
                    Ended::Failed(e) => Err(e),
                };
            }
        }))
    }
}

impl ReadStream {
    fn close(&self) {
        if let Ok(mut rx) = self.rx.lock() {
            *rx = None;
        }
    }
}

/// A Python exception of a file object's `read` as it was raised; other
/// errors of reading as `FramingError` (bytes that are no readable input)
/// or `OSError`.
fn io_error(e: io::Error) -> PyErr {
    if e.get_ref().is_some_and(|inner| inner.is::<PyErr>()) {
        if let Some(Ok(py)) = e.into_inner().map(|inner| inner.downcast::<PyErr>()) {
            return *py;
        }
        return SbeError::new_err("a Python error of the source was lost");
    }
    match e.kind() {
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData => {
            FramingError::new_err(e.to_string())
        }
        _ => PyOSError::new_err(e.to_string()),
    }
}

/// Checks `errors` and says whether it is `"raise"`.
fn raises(errors: &str) -> PyResult<bool> {
    match errors {
        "raise" => Ok(true),
        "report" => Ok(false),
        other => Err(PyValueError::new_err(format!(
            "errors={other:?}: \"raise\" or \"report\""
        ))),
    }
}

/// The schemas Python handed over (frozen: read without the GIL).
fn schema_refs(schemas: &[Py<Schema>]) -> Vec<&Schema> {
    schemas.iter().map(Py::get).collect()
}

/// Every message of `source` as JSON lines, streamed: a [`ReadStream`] of
/// line chunks and reports.
#[pyfunction]
#[pyo3(signature = (source, schemas, framing = "raw", values = "wire", errors = "report", skip = 0, templates = Vec::new(), filters = Vec::new(), keep_going = true, schema_id_check = true))]
#[allow(clippy::too_many_arguments)]
fn _read_json(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    schemas: Vec<Py<Schema>>,
    framing: &str,
    values: &str,
    errors: &str,
    skip: u64,
    templates: Vec<u64>,
    filters: Vec<String>,
    keep_going: bool,
    schema_id_check: bool,
) -> PyResult<ReadStream> {
    let raise = raises(errors)?;
    let o = read_options(
        framing,
        skip,
        templates,
        filters,
        keep_going,
        schema_id_check,
        values,
    )?;
    let bytes = source_of(source)?;
    spawn_read(py, schemas, bytes, o, raise, Make::Json)
}

/// An Arrow C stream of one table's batches, handed to Python through the
/// Arrow PyCapsule interface (`__arrow_c_stream__`): the consumer takes
/// the buffers as they are, no copy.
#[pyclass(module = "sbe_rs._native")]
struct ArrowStream {
    batches: Mutex<Option<(arrow_schema::SchemaRef, Vec<RecordBatch>)>>,
    /// The address of each column's values buffer in the first batch, as
    /// made in Rust: what a consumer's buffers are compared with to see
    /// that nothing was copied.
    #[pyo3(get)]
    buffer_addresses: Vec<Option<usize>>,
    /// Rows over the batches.
    #[pyo3(get)]
    num_rows: usize,
}

impl ArrowStream {
    fn new(schema: arrow_schema::SchemaRef, batches: Vec<RecordBatch>) -> ArrowStream {
        let buffer_addresses = match batches.first() {
            Some(b) => (b.columns().iter())
                .map(|c| {
                    let data = c.to_data();
                    data.buffers().first().map(|b| b.as_ptr() as usize)
                })
                .collect(),
            None => Vec::new(),
        };
        let num_rows = batches.iter().map(RecordBatch::num_rows).sum();
        ArrowStream {
            batches: Mutex::new(Some((schema, batches))),
            buffer_addresses,
            num_rows,
        }
    }
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule interface: an `ArrowArrayStream` capsule of the
    /// batches (once: the stream is moved out).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let taken = self
            .batches
            .lock()
            .map_err(|_| SbeError::new_err("the Arrow stream's lock is poisoned"))?
            .take();
        let Some((schema, batches)) = taken else {
            return Err(SbeError::new_err("the Arrow stream was consumed already"));
        };
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

/// An Arrow schema handed to Python through the Arrow PyCapsule interface
/// (`__arrow_c_schema__`): `pyarrow.schema(obj)` takes it.
#[pyclass(frozen, module = "sbe_rs._native")]
struct ArrowSchema {
    schema: arrow_schema::SchemaRef,
}

#[pymethods]
impl ArrowSchema {
    /// The Arrow PyCapsule interface: an `ArrowSchema` capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let ffi = arrow_schema::ffi::FFI_ArrowSchema::try_from(self.schema.as_ref())
            .map_err(|e| SbeError::new_err(e.to_string()))?;
        PyCapsule::new_with_value(py, ffi, c"arrow_schema")
    }
}

/// `timestamp_unit=`: `"ns"`, `"us"` or `"ms"`.
fn unit_of(s: &str) -> PyResult<TimestampUnit> {
    s.parse().map_err(|e: String| PyValueError::new_err(e))
}

fn pipeline_error(e: PipelineError) -> PyErr {
    match e {
        PipelineError::Setup { .. } => SchemaError::new_err(e.to_string()),
        e => SbeError::new_err(e.to_string()),
    }
}

/// Every message of `source` as Arrow batches, streamed: a [`ReadStream`]
/// of batches (each with its table's key) and reports.
#[pyfunction]
#[pyo3(signature = (source, schemas, framing = "raw", errors = "report", skip = 0, templates = Vec::new(), filters = Vec::new(), keep_going = true, schema_id_check = true, flatten = false, timestamp_unit = "ns"))]
#[allow(clippy::too_many_arguments)]
fn _read_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    schemas: Vec<Py<Schema>>,
    framing: &str,
    errors: &str,
    skip: u64,
    templates: Vec<u64>,
    filters: Vec<String>,
    keep_going: bool,
    schema_id_check: bool,
    flatten: bool,
    timestamp_unit: &str,
) -> PyResult<ReadStream> {
    let raise = raises(errors)?;
    let unit = unit_of(timestamp_unit)?;
    let o = read_options(
        framing,
        skip,
        templates,
        filters,
        keep_going,
        schema_id_check,
        "wire",
    )?;
    let bytes = source_of(source)?;
    spawn_read(py, schemas, bytes, o, raise, Make::Arrow { flatten, unit })
}

/// One input of `write_dataset`: a file read as `sbe decode --format
/// parquet` reads it.
struct FileSource<'o> {
    path: String,
    label: String,
    o: &'o ReadOptions,
    reports: Vec<Report>,
}

impl Source for FileSource<'_> {
    type Error = io::Error;

    fn name(&self) -> &str {
        &self.path
    }

    fn label(&self) -> &str {
        &self.label
    }

    fn read(&mut self, into: &mut Input<'_>) -> io::Result<()> {
        let bytes = Bytes::Path(PathBuf::from(&self.path));
        let (source, format) = capture::sniff_read(bytes.open()?)?;
        let reports = &mut self.reports;
        let mut report = |r: Report| {
            reports.push(r);
            Ok(())
        };
        match push_input(into, &self.path, source, format, self.o, false, &mut report) {
            // An input refused before any message (a skip for a capture,
            // filters for a file of messages, no readable capture) is
            // reported and the others go on, as `sbe decode` does.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData
                ) =>
            {
                reports.push(("error", e.to_string()));
                Ok(())
            }
            r => r.map(drop),
        }
    }
}

/// `sbe decode --format parquet|arrow --out DIR` over `sources`: the
/// files written and the reports.
#[pyfunction]
#[pyo3(signature = (sources, out_dir, schemas, framing = "raw", format = "parquet", compression = "zstd:1", flatten = false, append = false, overwrite = false, jobs = None, skip = 0, templates = Vec::new(), filters = Vec::new(), keep_going = true, schema_id_check = true, timestamp_unit = "ns"))]
#[allow(clippy::too_many_arguments)]
fn _write_dataset(
    py: Python<'_>,
    sources: Vec<PathBuf>,
    out_dir: PathBuf,
    schemas: Vec<Py<Schema>>,
    framing: &str,
    format: &str,
    compression: &str,
    flatten: bool,
    append: bool,
    overwrite: bool,
    jobs: Option<usize>,
    skip: u64,
    templates: Vec<u64>,
    filters: Vec<String>,
    keep_going: bool,
    schema_id_check: bool,
    timestamp_unit: &str,
) -> PyResult<(Vec<PathBuf>, u64, u64, Vec<Report>)> {
    let unit = unit_of(timestamp_unit)?;
    let o = read_options(
        framing,
        skip,
        templates,
        filters,
        keep_going,
        schema_id_check,
        "wire",
    )?;
    let format = match format {
        "parquet" => Format::Parquet(
            compression
                .parse::<Compression>()
                .map_err(PyValueError::new_err)?,
        ),
        "arrow" => Format::Arrow,
        other => {
            return Err(PyValueError::new_err(format!(
                "format={other:?}: \"parquet\" or \"arrow\""
            )))
        }
    };
    if append && overwrite {
        return Err(PyValueError::new_err(
            "append and overwrite: one or the other",
        ));
    }
    let existing = match (append, overwrite) {
        (true, _) => Existing::Append,
        (_, true) => Existing::Overwrite,
        _ => Existing::Refuse,
    };
    let refs = schema_refs(&schemas);
    let dispatch = dispatcher(&refs, o.values, o.schema_id_check)?;
    let threads = jobs
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1);
    let frames = sources.iter().any(|p| {
        let mut head = [0u8; 4];
        File::open(p)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
            && capture::sniff(&head).is_some()
    });
    let r = py.detach(|| {
        let dataset = Pipeline::new(&dispatch, &out_dir)
            .threads(threads)
            .format(format)
            .flatten(flatten)
            .timestamp_unit(unit)
            .frames(frames)
            .existing(existing)
            .templates(&o.templates)
            .start()
            .map_err(RunError::Pipeline)?;
        let mut inputs: Vec<FileSource<'_>> = (sources.iter())
            .map(|p| FileSource {
                path: p.to_string_lossy().into_owned(),
                label: p
                    .file_name()
                    .map_or_else(|| "input".to_string(), |f| f.to_string_lossy().into_owned()),
                o: &o,
                reports: Vec::new(),
            })
            .collect();
        let summary = dataset.run(&mut inputs)?;
        let reports: Vec<Report> = inputs.into_iter().flat_map(|i| i.reports).collect();
        Ok::<_, RunError<io::Error>>((summary, reports))
    });
    match r {
        Ok((summary, reports)) => {
            let parts = summary
                .inputs
                .iter()
                .flat_map(|i| i.parts.clone())
                .collect();
            Ok((parts, summary.messages(), summary.refused(), reports))
        }
        Err(RunError::Source(e)) => Err(io_error(e)),
        Err(RunError::Pipeline(e)) => Err(pipeline_error(e)),
    }
}

/// The native module `sbe_rs._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Schema>()?;
    m.add_class::<ArrowStream>()?;
    m.add_class::<ArrowSchema>()?;
    m.add_class::<ReadStream>()?;
    m.add_function(wrap_pyfunction!(_read_json, m)?)?;
    m.add_function(wrap_pyfunction!(_read_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(_write_dataset, m)?)?;
    m.add("SbeError", py.get_type::<SbeError>())?;
    m.add("SchemaError", py.get_type::<SchemaError>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("EncodeError", py.get_type::<EncodeError>())?;
    m.add("FramingError", py.get_type::<FramingError>())?;
    Ok(())
}
