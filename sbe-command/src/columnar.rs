//! `sbe decode --format parquet|arrow --out DIR`: the messages of every
//! input as a dataset per message (`sbe_columnar`), read as `sbe decode`
//! reads them (files, streams, captures, several schemas). A bad message
//! is reported as the JSON path reports it and goes to `_errors`.
//!
//! The threads, the batches and the writing are the library's
//! (`sbe_columnar::pipeline`); this is the command's part: its options,
//! reading each input into the pipeline, and saying what went wrong in
//! the command's words.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sbe_capture as capture;
use sbe_capture::decoding::StreamFailure;
use sbe_columnar::dataset::{Compression, Existing, Format};
use sbe_columnar::pipeline::{Input, Pipeline, PipelineError, RunError, Source};
use sbe_columnar::reading::{push_stream, CaptureSink};
use sbe_columnar::TimestampUnit;
use sbe_framing::Endian;

use super::DecodeOptions;
use crate::capture_json::failed_at_start;
use crate::hint::{Head, Hint};
use crate::reading::{endian, Fail, Undecodable};
use crate::say::Reporter;
use sbe_capture::{Level, Origin};
use sbe_otf::multi::Schemas;

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
    /// The finest unit of a timestamp column: ns, us or ms. A finer
    /// wire value is rounded down and its exact integer kept in the
    /// NAME_raw column beside it. Spark reads us with its default
    /// settings (ns only with spark.sql.legacy.parquet.nanosAsLong, as
    /// integers). Seconds are always written as ms.
    #[arg(long, value_name = "UNIT", default_value = "ns", value_parser = parse_timestamp_unit)]
    pub timestamp_unit: TimestampUnit,
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

fn parse_timestamp_unit(s: &str) -> Result<TimestampUnit, String> {
    s.parse()
}

/// Runs the columnar export of `inputs`; `Ok(false)` when a message was
/// bad or an input unreadable.
pub(crate) fn decode(
    paths: &[PathBuf],
    o: &DecodeOptions,
    a: &Args,
    inputs: &[String],
) -> io::Result<bool> {
    let Some(out) = a.out.as_deref() else {
        say!("sbe decode: --format parquet|arrow needs --out DIR");
        return Ok(false);
    };
    if inputs.iter().any(|i| i == "-") && inputs.len() > 1 {
        say!("sbe decode: - (standard input) is the only input or none");
        return Ok(false);
    }
    let Some(loaded) = super::load_all(paths) else {
        return Ok(false);
    };
    // Once for every input, before the output folder is touched.
    let Some(schemas) = super::schemas(&loaded, paths, o.schema_id_check, o.values) else {
        return Ok(false);
    };
    let existing = match (a.append, a.overwrite) {
        (true, _) => Existing::Append,
        (_, true) => Existing::Overwrite,
        _ => Existing::Refuse,
    };
    let format = match a.format {
        OutFormat::Arrow => Format::Arrow,
        _ => Format::Parquet(a.compression),
    };
    // `--jobs`, its default the cores (`DecodeOptions::jobs`), is the
    // threads of the run: one an input at once, and each input's writer on
    // a thread of its own where there are threads to spare.
    let pipeline = Pipeline::new(&schemas, out)
        .threads(o.jobs)
        .format(format)
        .flatten(a.flatten)
        .timestamp_unit(a.timestamp_unit)
        .frames(inputs.iter().any(|i| is_capture(i)))
        .existing(existing)
        .templates(&o.templates);
    let dataset = match pipeline.start() {
        Ok(d) => d,
        Err(e) => return said(e),
    };
    let mut sources: Vec<InputSource<'_>> = inputs
        .iter()
        .map(|input| InputSource {
            o,
            schemas: &schemas,
            order: endian(schemas.byte_order()),
            input,
            label: match Path::new(input).file_name() {
                Some(f) if input != "-" => f.to_string_lossy().into_owned(),
                _ => "stdin".to_string(),
            },
            ok: true,
        })
        .collect();
    match dataset.run(&mut sources) {
        Ok(_) => Ok(sources.iter().all(|s| s.ok)),
        Err(RunError::Source(e)) => Err(e),
        Err(RunError::Pipeline(e)) => said(e),
    }
}

/// A pipeline error in the command's words: an output folder refused, a
/// schema that cannot be exported, or parts not closed are said as
/// `sbe decode: ...` (exit 1); the rest is the run's error (`sbe: ...`).
fn said(e: PipelineError) -> io::Result<bool> {
    match e {
        PipelineError::Close(errors) => {
            for e in errors {
                say!("sbe decode: {e}");
            }
            Ok(false)
        }
        e @ (PipelineError::Prepare(_) | PipelineError::Setup { .. }) => {
            say!("sbe decode: {e}");
            Ok(false)
        }
        e => Err(io::Error::other(e)),
    }
}

/// Whether the file `input` starts with a capture's magic.
fn is_capture(input: &str) -> bool {
    let mut head = [0u8; 4];
    std::fs::File::open(input)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && capture::sniff(&head).is_some()
}

/// An input of the command line: a capture, a file or stream of framed
/// messages.
struct InputSource<'a> {
    o: &'a DecodeOptions,
    /// The schemas, for the framing hint (`crate::hint`).
    schemas: &'a Schemas<'a>,
    /// The schemas' byte order (a framing's header may follow it).
    order: Endian,
    input: &'a str,
    /// Its part files' label: its file name, or `stdin`.
    label: String,
    /// No message was bad, nothing unreadable.
    ok: bool,
}

impl Source for InputSource<'_> {
    type Error = io::Error;

    fn name(&self) -> &str {
        self.input
    }

    fn label(&self) -> &str {
        &self.label
    }

    fn read(&mut self, into: &mut Input<'_>) -> io::Result<()> {
        let (reader, format) = super::sniffed(self.input)?;
        self.ok = match format {
            Some(format) => self.capture(into, format, reader)?,
            None => self.stream(into, reader)?,
        };
        Ok(())
    }
}

impl InputSource<'_> {
    fn capture(
        &self,
        into: &mut Input<'_>,
        format: capture::Format,
        reader: Box<dyn Read>,
    ) -> io::Result<bool> {
        let input = self.input;
        let Some(mut cap) = super::open_capture(self.o.skip, format, reader, input, "decode")?
        else {
            return Ok(false);
        };
        let opts = capture::Options {
            framing: self.o.framing,
            order: self.order,
            filter: self.o.filters.clone(),
        };
        let mut sink = Hinted {
            inner: CaptureSink::new(into, |_, _: &str| Ok(())),
            schemas: self.schemas,
            hint: Hint::new(self.o.framing),
            reports: Reporter::new("decode", input),
        };
        let r = capture::run(&mut cap, &opts, &mut sink);
        sink.reports.end();
        let ok = sink.inner.ok;
        super::capture_end(r, !self.o.filters.is_empty(), ok, input, "decode")
    }

    fn stream(&self, into: &mut Input<'_>, reader: Box<dyn Read>) -> io::Result<bool> {
        let input = self.input;
        if !self.o.filters.is_empty() {
            say!("sbe decode: {input}: --filter is for captures (pcap, pcapng), and this is none");
            return Ok(false);
        }
        let reader = Head::new(reader);
        let kept = reader.kept();
        let mut reports = Reporter::new("decode", input);
        let mut hint = Hint::new(self.o.framing);
        let (schemas, skip) = (self.schemas, self.o.skip);
        let ok = push_stream(
            into,
            reader,
            self.o.framing,
            self.order,
            skip,
            self.o.keep_going,
            |e| {
                // Raw stops at its first failure: one at the start is the
                // first message's.
                if let StreamFailure::Message(_) = e {
                    hint.failed_at_stream_start(schemas, &kept, skip);
                }
                reports.report(false, &e.to_string(), hint.take().as_deref());
                Ok(())
            },
        );
        reports.end();
        ok
    }
}

/// The library's capture sink, with the command's framing hint and
/// repeated-error summary around its reports.
struct Hinted<'i, 'a, R> {
    inner: CaptureSink<'i, 'a, R>,
    schemas: &'i Schemas<'i>,
    hint: Hint,
    reports: Reporter<'i>,
}

impl<R: FnMut(Level, &str) -> io::Result<()>> capture::Sink for Hinted<'_, '_, R> {
    type Failure = Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        let r = self.inner.message(bytes, origin);
        if let Err(capture::Fail::Message(_)) = r {
            failed_at_start(&mut self.hint, self.schemas, bytes, origin);
        }
        r
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        self.inner.report(level, text)?;
        let hint = self.hint.take();
        self.reports
            .report(level == Level::Notice, text, hint.as_deref());
        Ok(())
    }
}
