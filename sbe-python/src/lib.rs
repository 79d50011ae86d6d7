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

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, RecordBatch, RecordBatchIterator};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyCapsule, PyString};
use sbe_capture::decoding::{
    endian, JsonSink, StreamFailure, StreamItem, StreamOptions, Undecodable,
};
use sbe_capture::{self as capture, Level};
use sbe_columnar::dataset::{Compression, Existing, Format};
use sbe_columnar::pipeline::{Input, Pipeline, PipelineError, RunError, Source};
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

/// Where a read's bytes come from: a file (opened without the GIL) or
/// bytes handed over by Python.
enum Bytes {
    Path(PathBuf),
    Buffer(PyBackedBytes),
}

impl Bytes {
    fn name(&self) -> String {
        match self {
            Bytes::Path(p) => p.to_string_lossy().into_owned(),
            Bytes::Buffer(_) => "<bytes>".to_string(),
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
        })
    }
}

fn source_of(source: &Bound<'_, PyAny>) -> PyResult<Bytes> {
    if let Ok(b) = source.extract::<PyBackedBytes>() {
        return Ok(Bytes::Buffer(b));
    }
    Ok(Bytes::Path(source.extract::<PathBuf>()?))
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

/// A report of a read: `(level, text)`, with the number of messages before
/// it.
type Report = (usize, &'static str, String);

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

/// What a read gives Python: the JSON lines (newline-terminated), the
/// reports in order, and the first error when `errors="raise"`.
#[derive(Default)]
struct JsonRun {
    lines: Vec<u8>,
    count: usize,
    reports: Vec<Report>,
    stop: Option<Stop>,
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

/// Reads `bytes` to JSON lines, as `sbe decode` does.
fn read_json(
    schemas: &Schemas<'_>,
    bytes: &Bytes,
    o: &ReadOptions,
    raise: bool,
) -> io::Result<JsonRun> {
    let name = bytes.name();
    let (source, format) = capture::sniff_read(bytes.open()?)?;
    let mut run = JsonRun::default();
    let Some(format) = format else {
        if !o.filters.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{name}: filters are for captures (pcap, pcapng), and this is none"),
            ));
        }
        let opts = StreamOptions {
            framing: o.framing,
            skip: o.skip,
            templates: &o.templates,
            keep_going: o.keep_going && !raise,
        };
        capture::decoding::stream_json(schemas, source, &opts, |item| {
            match item {
                StreamItem::Line(line) => {
                    run.lines.extend_from_slice(line);
                    run.lines.push(b'\n');
                    run.count += 1;
                }
                StreamItem::Failed(e) => {
                    let text = format!("{name}: {e}");
                    if raise && run.stop.is_none() {
                        run.stop = Some(Stop {
                            text: text.clone(),
                            error: match &e {
                                StreamFailure::Message(m) => Some(m.clone()),
                                StreamFailure::Frame(_) => None,
                            },
                            packet: None,
                        });
                    }
                    run.reports.push((run.count, "error", text));
                }
            }
            Ok(())
        })?;
        return Ok(run);
    };
    no_skip(&name, o)?;
    let (mut cap, opts) = open_capture(&name, format, source, o, schemas.byte_order())?;
    // The sink's lines and reports land in one place, in order.
    let shared = std::cell::RefCell::new(JsonRun::default());
    let sink = JsonSink::new(
        schemas,
        &o.templates,
        |line| {
            let mut r = shared.borrow_mut();
            r.lines.extend_from_slice(line);
            r.lines.push(b'\n');
            r.count += 1;
            Ok(())
        },
        |level, text| {
            let mut r = shared.borrow_mut();
            let text = format!("{name}: {text}");
            if raise && level == Level::Error {
                r.stop = Some(Stop {
                    text: text.clone(),
                    error: None,
                    packet: None,
                });
                // Stops the run: the first error is raised.
                return Err(io::Error::other("stopped at the first error"));
            }
            let count = r.count;
            r.reports.push((count, level_name(level), text));
            Ok(())
        },
    );
    let mut sink = Remember { sink, last: None };
    let r = capture::run(&mut cap, &opts, &mut sink);
    let last = sink.last.take();
    drop(sink);
    let mut run = shared.into_inner();
    run.stop = run.stop.map(|s| s.with(last));
    match r {
        Ok(s) => {
            if s.matched == 0 {
                run.reports.push((
                    run.count,
                    "notice",
                    format!(
                        "{name}: none of its {} packets is a UDP datagram or TCP segment{}",
                        s.packets,
                        if o.filters.is_empty() {
                            ""
                        } else {
                            " that the filters take"
                        }
                    ),
                ));
            }
        }
        Err(_) if run.stop.is_some() => {}
        Err(capture::RunError::Output(e))
        | Err(capture::RunError::Capture(capture::CaptureError::Io(e))) => return Err(e),
        Err(capture::RunError::Capture(e)) => {
            let text = format!("{name}: {e}");
            if raise {
                run.stop = Some(Stop {
                    text,
                    error: None,
                    packet: None,
                });
            } else {
                run.reports.push((run.count, "error", text));
            }
        }
    }
    Ok(run)
}

fn io_error(e: io::Error) -> PyErr {
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

/// Every message of `source` as JSON lines (bytes), the reports as
/// `(messages before, level, text)`.
#[pyfunction]
#[pyo3(signature = (source, schemas, framing = "raw", values = "wire", errors = "report", skip = 0, templates = Vec::new(), filters = Vec::new(), keep_going = true, schema_id_check = true))]
#[allow(clippy::too_many_arguments)]
fn _read_json<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    schemas: Vec<Py<Schema>>,
    framing: &str,
    values: &str,
    errors: &str,
    skip: u64,
    templates: Vec<u64>,
    filters: Vec<String>,
    keep_going: bool,
    schema_id_check: bool,
) -> PyResult<(Bound<'py, PyString>, usize, Vec<Report>)> {
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
    let refs = schema_refs(&schemas);
    let dispatch = dispatcher(&refs, o.values, o.schema_id_check)?;
    let run = py
        .detach(|| read_json(&dispatch, &bytes, &o, raise))
        .map_err(io_error)?;
    if let Some(stop) = run.stop {
        return Err(decode_error(
            py,
            stop.text,
            stop.error.as_ref(),
            stop.packet,
        ));
    }
    Ok((
        PyString::new(py, &json_text(run.lines)?),
        run.count,
        run.reports,
    ))
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

/// The tables of a read as Arrow streams: `(key, stream)`.
type Streams = Vec<(String, ArrowStream)>;

/// The batches of one read, by table.
type Tables = Vec<(String, arrow_schema::SchemaRef, Vec<RecordBatch>)>;

/// `timestamp_unit=`: `"ns"`, `"us"` or `"ms"`.
fn unit_of(s: &str) -> PyResult<TimestampUnit> {
    s.parse().map_err(|e: String| PyValueError::new_err(e))
}

/// What a columnar read gives Python: the tables, the reports, the first
/// error when `errors="raise"`.
struct ArrowRun {
    tables: Tables,
    reports: Vec<Report>,
    stop: Option<Stop>,
}

/// Reads `bytes` into an in-memory pipeline input and gathers its batches
/// by table (a table's key: its name, under `<package>/` with several
/// schemas).
fn read_arrow(
    schemas: &Schemas<'_>,
    bytes: &Bytes,
    o: &ReadOptions,
    raise: bool,
    flatten: bool,
    unit: TimestampUnit,
) -> io::Result<Result<ArrowRun, PipelineError>> {
    let name = bytes.name();
    let (source, format) = capture::sniff_read(bytes.open()?)?;
    let pipeline = Pipeline::new(schemas, "")
        .flatten(flatten)
        .timestamp_unit(unit)
        .frames(format.is_some())
        .templates(&o.templates);
    let mut input = match pipeline.collect() {
        Ok(i) => i,
        Err(e) => return Ok(Err(e)),
    };
    let mut reports: Vec<Report> = Vec::new();
    let mut stop: Option<Stop> = None;
    match format {
        None => {
            if !o.filters.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{name}: filters are for captures (pcap, pcapng), and this is none"),
                ));
            }
            sbe_columnar::reading::push_stream(
                &mut input,
                source,
                o.framing,
                endian(schemas.byte_order()),
                o.skip,
                o.keep_going && !raise,
                |e| {
                    let text = format!("{name}: {e}");
                    if raise && stop.is_none() {
                        stop = Some(Stop {
                            text: text.clone(),
                            error: match &e {
                                StreamFailure::Message(m) => Some(m.clone()),
                                StreamFailure::Frame(_) => None,
                            },
                            packet: None,
                        });
                    }
                    reports.push((0, "error", text));
                    Ok(())
                },
            )?;
        }
        Some(format) => {
            no_skip(&name, o)?;
            let (mut cap, opts) = open_capture(&name, format, source, o, schemas.byte_order())?;
            let sink = sbe_columnar::reading::CaptureSink::new(&mut input, |level, text: &str| {
                let text = format!("{name}: {text}");
                if raise && level == Level::Error {
                    stop = Some(Stop {
                        text,
                        error: None,
                        packet: None,
                    });
                    return Err(io::Error::other("stopped at the first error"));
                }
                reports.push((0, level_name(level), text));
                Ok(())
            });
            let mut sink = Remember { sink, last: None };
            let r = capture::run(&mut cap, &opts, &mut sink);
            let last = sink.last.take();
            drop(sink);
            stop = stop.map(|s| s.with(last));
            match r {
                Ok(_) => {}
                Err(_) if stop.is_some() => {}
                Err(capture::RunError::Output(e))
                | Err(capture::RunError::Capture(capture::CaptureError::Io(e))) => return Err(e),
                Err(capture::RunError::Capture(e)) => {
                    reports.push((0, "error", format!("{name}: {e}")))
                }
            }
        }
    }
    let collected = match input.finish_collected() {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    let several = schemas.entries().len() > 1;
    let mut tables: Tables = Vec::new();
    for b in collected.batches {
        let key = match schemas.entries().get(b.schema) {
            Some(entry) if several => format!("{}/{}", entry.codec.schema().package, b.table),
            _ => b.table,
        };
        match tables.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, _, batches)) => batches.push(b.batch),
            None => tables.push((key, b.batch.schema(), vec![b.batch])),
        }
    }
    Ok(Ok(ArrowRun {
        tables,
        reports,
        stop,
    }))
}

fn pipeline_error(e: PipelineError) -> PyErr {
    match e {
        PipelineError::Setup { .. } => SchemaError::new_err(e.to_string()),
        e => SbeError::new_err(e.to_string()),
    }
}

/// Every message of `source` as Arrow batches by table: `[(key,
/// ArrowStream)]`, and the reports.
#[pyfunction]
#[pyo3(signature = (source, schemas, framing = "raw", errors = "report", skip = 0, templates = Vec::new(), filters = Vec::new(), keep_going = true, schema_id_check = true, flatten = false, timestamp_unit = "ns"))]
#[allow(clippy::too_many_arguments)]
fn _read_arrow<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
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
) -> PyResult<(Streams, Vec<Report>)> {
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
    let refs = schema_refs(&schemas);
    let dispatch = dispatcher(&refs, o.values, o.schema_id_check)?;
    let run = py
        .detach(|| read_arrow(&dispatch, &bytes, &o, raise, flatten, unit))
        .map_err(io_error)?
        .map_err(pipeline_error)?;
    if let Some(stop) = run.stop {
        return Err(decode_error(
            py,
            stop.text,
            stop.error.as_ref(),
            stop.packet,
        ));
    }
    let tables = (run.tables.into_iter())
        .map(|(key, schema, batches)| (key, ArrowStream::new(schema, batches)))
        .collect();
    Ok((tables, run.reports))
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
        let name = self.path.clone();
        let reports = &mut self.reports;
        match format {
            None => {
                sbe_columnar::reading::push_stream(
                    into,
                    source,
                    self.o.framing,
                    endian(into.schemas().byte_order()),
                    self.o.skip,
                    self.o.keep_going,
                    |e| {
                        reports.push((0, "error", format!("{name}: {e}")));
                        Ok(())
                    },
                )?;
            }
            Some(format) => {
                let (mut cap, opts) =
                    open_capture(&name, format, source, self.o, into.schemas().byte_order())?;
                let mut sink =
                    sbe_columnar::reading::CaptureSink::new(into, |level, text: &str| {
                        reports.push((0, level_name(level), format!("{name}: {text}")));
                        Ok(())
                    });
                match capture::run(&mut cap, &opts, &mut sink) {
                    Ok(_) => {}
                    Err(capture::RunError::Output(e))
                    | Err(capture::RunError::Capture(capture::CaptureError::Io(e))) => {
                        return Err(e)
                    }
                    Err(capture::RunError::Capture(e)) => {
                        reports.push((0, "error", format!("{name}: {e}")))
                    }
                }
            }
        }
        Ok(())
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
