//! `sbe decode --format parquet|arrow --out DIR`: the messages of every
//! input as a dataset per message (`sbe_columnar`), read as `sbe decode`
//! reads them (files, streams, captures, several schemas). A bad message
//! is reported as the JSON path reports it and goes to `_errors`.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sbe_capture::{self as capture, Level, Origin};
use sbe_columnar::dataset::{self, Compression, DatasetWriter, Existing, Format};
use sbe_columnar::{Exporter, Frame, Options, Spare, Unfinished};
use sbe_framing::split::{FrameError, FrameReader, ReadError, MSG_SEQ_NUM, SENDING_TIME};
use sbe_ir::ir::Schema;
use sbe_otf::decode::{DecodeError, DecodeErrorKind};
use sbe_otf::multi::{MultiError, Schemas};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::DecodeOptions;
use crate::reading::{endian, fail, Fail, Undecodable, Undecoded};

/// What `sbe decode` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutFormat {
    /// JSON lines on standard output.
    Jsonl,
    /// A Parquet dataset per message under --out.
    Parquet,
    /// Arrow IPC files per message under --out.
    Arrow,
}

/// The columnar options of `sbe decode`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// What to write: jsonl (standard output), or a parquet or arrow
    /// dataset per message under --out.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: OutFormat,
    /// The output folder of --format parquet|arrow.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write each group as a child dataset MESSAGE.GROUP, one row per
    /// entry, keyed by msgIndex and the entry index path (default: list
    /// of struct columns).
    #[arg(long)]
    pub flatten: bool,
    /// Parquet compression: none, snappy, zstd or zstd:LEVEL (zstd is
    /// zstd:1; snappy: parts about a seventh larger, for about a tenth
    /// fewer instructions). A column chunk is compressed only where its
    /// first page shrinks by a tenth.
    #[arg(long, default_value = "zstd:1", value_parser = parse_compression)]
    pub compression: Compression,
    /// Add part files to an existing --out folder.
    #[arg(long, conflicts_with = "overwrite")]
    pub append: bool,
    /// Replace an existing --out folder.
    #[arg(long)]
    pub overwrite: bool,
    /// Threads (default: the cores). For a columnar format: inputs decoded
    /// at once, and an input's encoding on a thread of its own where N is
    /// at least twice the inputs decoded at once. For the JSON of a capture
    /// file (not a stream), 2 or more read its packets on a thread of their
    /// own. 1 keeps to one thread.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
}

fn parse_compression(s: &str) -> Result<Compression, String> {
    s.parse()
}

/// Bytes of a bad message kept in `_errors` at most.
const ERROR_BYTES: usize = 1 << 20;

/// Runs the columnar export of `inputs`; `Ok(false)` when a message was
/// bad or an input unreadable.
pub(crate) fn decode(
    paths: &[PathBuf],
    o: &DecodeOptions,
    a: &Args,
    inputs: &[String],
) -> io::Result<bool> {
    let Some(out) = a.out.as_deref() else {
        eprintln!("sbe decode: --format parquet|arrow needs --out DIR");
        return Ok(false);
    };
    if inputs.iter().any(|i| i == "-") && inputs.len() > 1 {
        eprintln!("sbe decode: - (standard input) is the only input or none");
        return Ok(false);
    }
    let Some(loaded) = super::load_all(paths) else {
        return Ok(false);
    };
    let existing = match (a.append, a.overwrite) {
        (true, _) => Existing::Append,
        (_, true) => Existing::Overwrite,
        _ => Existing::Refuse,
    };
    if let Err(e) = dataset::prepare(out, existing) {
        eprintln!("sbe decode: {e}");
        return Ok(false);
    }
    let names: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let numbers = match dataset::claim_inputs(out, &names) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("sbe decode: {e}");
            return Ok(false);
        }
    };
    let frames = inputs.iter().any(|i| is_capture(i));
    let job = Job {
        paths,
        loaded: &loaded,
        o,
        a,
        out,
        frames,
        writer_thread: false,
    };
    // `--jobs`, its default the cores (`DecodeOptions::jobs`), is the
    // threads of the run: one an input at once, and each input's writer on
    // a thread of its own where there are threads to spare.
    let jobs = o.jobs.clamp(1, inputs.len().max(1));
    let job = Job {
        writer_thread: o.jobs >= 2 * jobs,
        ..job
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<io::Result<bool>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                s.spawn(|| {
                    let mut ok = true;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else {
                            return Ok(ok);
                        };
                        let number = numbers.get(i).copied().unwrap_or(i as u64);
                        ok &= job.run(number, input)?;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(io::Error::other("a decoding thread failed")))
            })
            .collect()
    });
    let mut ok = true;
    for r in results {
        ok &= r?;
    }
    Ok(ok)
}

/// Whether the file `input` starts with a capture's magic.
fn is_capture(input: &str) -> bool {
    let mut head = [0u8; 4];
    std::fs::File::open(input)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && capture::sniff(&head).is_some()
}

/// What every input's run shares.
struct Job<'a> {
    paths: &'a [PathBuf],
    loaded: &'a [Schema],
    o: &'a DecodeOptions,
    a: &'a Args,
    out: &'a Path,
    frames: bool,
    /// Whether each input's batches are encoded on a thread of their own,
    /// beside its decoding (else on the decoding thread).
    writer_thread: bool,
}

impl Job<'_> {
    /// Decodes the input the dataset numbers `n` (its `msgIndex` range)
    /// into its part files.
    fn run(&self, n: u64, input: &str) -> io::Result<bool> {
        let Some(schemas) = super::schemas(
            self.loaded,
            self.paths,
            self.o.schema_id_check,
            self.o.values,
        ) else {
            return Ok(false);
        };
        let format = match self.a.format {
            OutFormat::Arrow => Format::Arrow,
            _ => Format::Parquet(self.a.compression),
        };
        let several = self.loaded.len() > 1;
        let source = match Path::new(input).file_name() {
            Some(f) if input != "-" => f.to_string_lossy().into_owned(),
            _ => "stdin".to_string(),
        };
        let mut outs = Vec::new();
        let mut writers = Vec::new();
        for (i, schema) in self.loaded.iter().enumerate() {
            let options = Options::default()
                .flatten(self.a.flatten)
                .frames(self.frames)
                .schema_id_check(self.o.schema_id_check)
                .first_index(n << 40)
                .batch_rows(BATCH_ROWS);
            let Ok(exporter) = Exporter::new(schema, options) else {
                eprintln!(
                    "sbe decode: {}: its message header cannot be read",
                    schema.package
                );
                return Ok(false);
            };
            let root = if several {
                let name = if schema.package.is_empty() {
                    format!("{}", schema.id)
                } else {
                    dataset::source_label(&schema.package)
                };
                let _ = i;
                self.out.join(format!("schema={name}"))
            } else {
                self.out.to_path_buf()
            };
            writers.push(DatasetWriter::new(&root, &source, format));
            outs.push(exporter);
        }
        let sink = |to| Sink {
            schemas: &schemas,
            outs,
            to,
            templates: &self.o.templates,
            input,
            ok: true,
            failed: None,
            pending: None,
            frame: None,
            addrs: None,
            frame_of: None,
        };
        if !self.writer_thread {
            // A part is closed (given its name) only after a run without
            // an output error, as the writing thread does.
            let read = self.read(sink(Writers::Here(&mut writers)), input)?;
            return Ok(close_all(writers) && read);
        }
        // Encoding and compressing the batches runs on a thread of its
        // own, beside the decoding.
        let (tx, rx) = std::sync::mpsc::sync_channel(WRITE_QUEUE);
        let (give_back, spares) = std::sync::mpsc::channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let to = Writers::Thread(ToThread {
            tx,
            spares,
            queued: queued.clone(),
        });
        std::thread::scope(|s| {
            let writer = s.spawn(move || write_all(writers, rx, &give_back, &queued));
            let read = self.read(sink(to), input);
            let written = writer
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the writing thread failed")));
            // The writer's own error first: the reader's is that it stopped.
            let written = written?;
            Ok(read? && written)
        })
    }

    /// Reads `input` into `sink`'s exporters, and hands their last
    /// batches to the writer.
    fn read(&self, mut sink: Sink<'_, '_>, input: &str) -> io::Result<bool> {
        let (reader, format) = super::sniffed(input)?;
        let ok = match format {
            Some(format) => self.capture(&mut sink, format, reader, input)?,
            None => self.stream(&mut sink, reader, input)?,
        };
        sink.record();
        let ok = ok && sink.ok;
        if let Some(e) = sink.failed {
            return Err(e);
        }
        for i in 0..sink.outs.len() {
            let rest = sink.outs.get_mut(i).map(Exporter::finish);
            for (table, batch) in rest.unwrap_or_default() {
                sink.to.write(i, (table, batch).into(), &mut sink.outs)?;
            }
        }
        Ok(ok)
    }

    fn capture(
        &self,
        sink: &mut Sink<'_, '_>,
        format: capture::Format,
        reader: Box<dyn Read>,
        input: &str,
    ) -> io::Result<bool> {
        let Some(mut cap) = super::open_capture(self.o.skip, format, reader, input, "decode")?
        else {
            return Ok(false);
        };
        let opts = capture::Options {
            framing: self.o.framing,
            order: endian(sink.schemas.byte_order()),
            filter: self.o.filters.clone(),
        };
        let r = capture::run(&mut cap, &opts, sink);
        super::capture_end(r, !self.o.filters.is_empty(), true, input, "decode")
    }

    fn stream(
        &self,
        sink: &mut Sink<'_, '_>,
        reader: Box<dyn Read>,
        input: &str,
    ) -> io::Result<bool> {
        if !self.o.filters.is_empty() {
            eprintln!(
                "sbe decode: {input}: --filter is for captures (pcap, pcapng), and this is none"
            );
            return Ok(false);
        }
        let mut frames =
            FrameReader::new(reader, self.o.framing, endian(sink.schemas.byte_order()));
        frames.skip(self.o.skip)?;
        let mut ok = true;
        let mut unknown: Option<MultiError> = None;
        while let Some(r) = frames.next_message(|buf, base| {
            let r = sink.put(buf, &Frame::at(base), base).map(|len| (len, true));
            r.map_err(|e| match e {
                Fail::Message(Undecodable(MultiError::Decode(e))) => Undecoded(e),
                Fail::Message(Undecodable(other)) => {
                    let offset = other.offset();
                    unknown = Some(other);
                    Undecoded(DecodeError {
                        offset,
                        kind: DecodeErrorKind::Framing("unknown schema id".to_string()),
                        need: None,
                    })
                }
                Fail::Output(e) => Undecoded(DecodeError {
                    offset: base,
                    kind: DecodeErrorKind::Framing(format!("output: {e}")),
                    need: None,
                }),
            })
        }) {
            match r {
                Ok(_) => {}
                Err(ReadError::Frame(FrameError::Io(e))) => return Err(e),
                Err(e) => {
                    ok = false;
                    sink.record();
                    match unknown.take() {
                        Some(u) => eprintln!("sbe decode: {input}: {u}"),
                        None => eprintln!("sbe decode: {input}: {e}"),
                    }
                    if sink.failed.is_some() || !self.o.keep_going {
                        break;
                    }
                }
            }
        }
        Ok(ok)
    }
}

/// Batches the reader may be ahead of the writer by: a row group's, so
/// that the reader fills the next row group while the writer encodes
/// one. With none waiting, the reader stopped after one batch, and the
/// two threads took three quarters of one's time rather than half.
const WRITE_QUEUE: usize = dataset::ROW_GROUP_ROWS / BATCH_ROWS;

/// Messages of a batch: an eighth of a row group. A batch's columns are
/// fresh memory, written once and read once by the writer: small ones
/// fault fewer pages and stay in cache between the two (half a row group
/// took 5 to 10 % more time and 20 MB more with two inputs, BENCHMARKS.md).
const BATCH_ROWS: usize = dataset::ROW_GROUP_ROWS / 8;

/// A batch for the writer: which schema's dataset, and the table's rows
/// (made into arrays by the writer, when there is one).
type Batch = (usize, Unfinished);

/// Writes each batch into its dataset's part, then closes every part;
/// `Ok(false)` when a part could not be closed. The tables it makes into
/// batches go back (`give_back`) to be filled again; `queued` counts the
/// batches sent and not written yet.
fn write_all(
    mut writers: Vec<DatasetWriter>,
    batches: std::sync::mpsc::Receiver<Batch>,
    give_back: &std::sync::mpsc::Sender<(usize, Spare)>,
    queued: &AtomicUsize,
) -> io::Result<bool> {
    for (i, rows) in batches {
        let (made, spare) = rows.finish_keeping();
        // The reader may be gone (an error of its own).
        let _ = give_back.send((i, spare));
        write_one(&mut writers, i, made.map_err(io::Error::other)?)?;
        queued.fetch_sub(1, Ordering::Relaxed);
    }
    Ok(close_all(writers))
}

/// Writes a batch into its dataset's part.
fn write_one(
    writers: &mut [DatasetWriter],
    i: usize,
    (table, batch): (String, arrow_array::RecordBatch),
) -> io::Result<()> {
    match writers.get_mut(i) {
        Some(w) => w.write(&table, &batch).map_err(io::Error::other),
        None => Ok(()),
    }
}

/// Closes every part; `false` when one could not be closed.
fn close_all(writers: Vec<DatasetWriter>) -> bool {
    let mut ok = true;
    for w in writers {
        if let Err(e) = w.close() {
            eprintln!("sbe decode: {e}");
            ok = false;
        }
    }
    ok
}

/// Where a sink's batches go.
enum Writers<'w> {
    /// To the writing thread.
    Thread(ToThread),
    /// Written on the decoding thread.
    Here(&'w mut Vec<DatasetWriter>),
}

/// The way to the writing thread and back.
struct ToThread {
    tx: std::sync::mpsc::SyncSender<Batch>,
    /// The tables the writer emptied.
    spares: std::sync::mpsc::Receiver<(usize, Spare)>,
    /// Batches sent and not written yet.
    queued: Arc<AtomicUsize>,
}

/// Batches queued for the writer under which a table's arrays are left
/// to the writer to make; with more queued, the writer is the slower,
/// and the reader makes them. Making them on one thread or the other
/// alone left the other idle part of the time.
const WRITER_MAKES_BELOW: usize = WRITE_QUEUE / 2;

impl Writers<'_> {
    /// Hands `rows` of exporter `i` (of `outs`) on, and the tables
    /// emptied since back to their exporters.
    fn write(&mut self, i: usize, rows: Unfinished, outs: &mut [Exporter<'_>]) -> io::Result<()> {
        let keep = |u: Unfinished, outs: &mut [Exporter<'_>]| {
            let (made, spare) = u.finish_keeping();
            if let Some(ex) = outs.get_mut(i) {
                ex.give_back(spare);
            }
            made.map_err(io::Error::other)
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
                to.tx.send((i, rows)).map_err(|_| writer_stopped())
            }
            Writers::Here(writers) => write_one(writers, i, keep(rows, outs)?),
        }
    }
}

/// The error of a reader whose writer stopped (the writer has the cause).
fn writer_stopped() -> io::Error {
    io::Error::other("the writer stopped")
}

/// Each message into its schema's exporter, batches out to its part
/// files as they fill.
struct Sink<'a, 's> {
    schemas: &'a Schemas<'s>,
    outs: Vec<Exporter<'s>>,
    /// To the writer.
    to: Writers<'a>,
    templates: &'a [u64],
    input: &'a str,
    ok: bool,
    /// An output error: the run stops.
    failed: Option<io::Error>,
    /// The last message refused, kept until the reader gives up on it (a
    /// truncated one is tried again with more bytes).
    pending: Option<Refused>,
    /// The capture frame of the message, kept from one message to the
    /// next: its addresses are formatted again only when they change.
    frame: Option<Box<Frame>>,
    /// The sender and receiver `frame` holds as text.
    addrs: Option<(std::net::SocketAddr, std::net::SocketAddr)>,
    /// The packet whose frame `frame` is: its messages share it.
    frame_of: Option<u64>,
}

/// Sets what `frame` tells of `origin`'s packet: everything but the
/// offset, the same for each message of a packet (or the TCP segment
/// that completes them). `addrs` are those `frame` holds as text.
fn packet_frame(
    frame: &mut Frame,
    origin: &Origin<'_>,
    addrs: &mut Option<(std::net::SocketAddr, std::net::SocketAddr)>,
) {
    frame.time_ns = origin.time.map(|t| {
        t.secs
            .saturating_mul(1_000_000_000)
            .saturating_add(i64::from(t.nanos))
    });
    frame.packet = Some(origin.packet);
    if *addrs != Some((origin.src, origin.dst)) {
        frame.src = Some(origin.src.to_string().into());
        frame.dst = Some(origin.dst.to_string().into());
        *addrs = Some((origin.src, origin.dst));
    }
    frame.msg_seq_num = None;
    frame.sending_time = None;
    for &(name, value) in origin.fields {
        match name {
            MSG_SEQ_NUM => frame.msg_seq_num = Some(value),
            SENDING_TIME => frame.sending_time = i64::try_from(value).ok(),
            _ => {}
        }
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

impl Sink<'_, '_> {
    /// Records the message refused last in `_errors`.
    fn record(&mut self) {
        if let Some(r) = self.pending.take() {
            if let Some(ex) = self.outs.get_mut(r.exporter) {
                ex.append_error(&r.bytes, &r.frame, r.kind, &r.text);
            }
        }
    }
}

impl Sink<'_, '_> {
    /// The message at the start of `buf` (`base`: its offset in the
    /// input); its length.
    fn put(&mut self, buf: &[u8], frame: &Frame, base: u64) -> Result<usize, Fail> {
        if !self.templates.is_empty()
            && !self
                .schemas
                .read_header(buf)
                .is_some_and(|h| self.templates.contains(&h.template_id))
        {
            return Ok(self.schemas.message_length(buf, base).map_err(fail)?.len);
        }
        let picked = self.schemas.pick(buf, base);
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
                    .message_length(buf, base)
                    .err()
                    .unwrap_or_else(|| {
                        MultiError::Decode(framing_error(base, "no exporter for its schema"))
                    }),
            };
            self.pending = Some(Refused {
                exporter: 0,
                bytes: clip(buf).to_vec(),
                frame: frame.clone(),
                kind: "UnknownSchema",
                text: e.to_string(),
            });
            return Err(fail(e));
        };
        match ex.append(buf, frame) {
            Ok(len) => {
                self.pending = None;
                let ready = ex.take_unfinished();
                // Most messages complete no batch: then no loop is made
                // and dropped.
                if ready.is_empty() {
                    return Ok(len);
                }
                for rows in ready {
                    if let Err(e) = self.to.write(i, rows, &mut self.outs) {
                        self.failed = Some(io::Error::new(e.kind(), e.to_string()));
                        return Err(Fail::Output(e));
                    }
                }
                Ok(len)
            }
            Err(col) => {
                // The run-time codec's verdict, as the JSON path reports it.
                let e = match self.schemas.message_length(buf, base) {
                    Err(e) => e,
                    Ok(_) => MultiError::Decode(framing_error(base, &col.to_string())),
                };
                self.pending = Some(Refused {
                    exporter: index.unwrap_or(0),
                    bytes: clip(buf).to_vec(),
                    frame: frame.clone(),
                    kind: col.kind(),
                    text: e.to_string(),
                });
                Err(fail(e))
            }
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

impl capture::Sink for Sink<'_, '_> {
    type Failure = crate::reading::Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        // Boxed, so that taking it from the sink for `put` and putting it
        // back moves a pointer, not the frame.
        let mut frame = self.frame.take().unwrap_or_default();
        if self.frame_of != Some(origin.packet) {
            packet_frame(&mut frame, origin, &mut self.addrs);
            self.frame_of = Some(origin.packet);
        }
        frame.offset = Some(origin.offset);
        let r = self.put(bytes, &frame, origin.offset);
        self.frame = Some(frame);
        r
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
            self.record();
        }
        eprintln!("sbe decode: {}: {text}", self.input);
        Ok(())
    }
}
