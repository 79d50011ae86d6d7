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

use sbe_capture::{self as capture, Level, Origin};
use sbe_columnar::dataset::{Compression, Existing, Format};
use sbe_columnar::pipeline::{Input, Pipeline, PipelineError, PushError, RunError, Source};
use sbe_columnar::Frame;
use sbe_framing::split::{FrameError, FrameReader, ReadError, MSG_SEQ_NUM, SENDING_TIME};
use sbe_framing::Endian;
use sbe_otf::decode::{DecodeError, DecodeErrorKind};
use sbe_otf::multi::MultiError;

use super::DecodeOptions;
use crate::capture_json::failed_at_start;
use crate::hint::Hint;
use crate::reading::{endian, Fail, Undecodable, Undecoded};
use crate::say::Reporter;
use sbe_framing::guess::Carrier;
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
        let mut sink = Sink {
            into,
            schemas: self.schemas,
            hint: Hint::new(self.o.framing),
            reports: Reporter::new("decode", input),
            ok: true,
            frame: None,
            addrs: None,
            frame_of: None,
        };
        let r = capture::run(&mut cap, &opts, &mut sink);
        sink.reports.end();
        let ok = sink.ok;
        super::capture_end(r, !self.o.filters.is_empty(), ok, input, "decode")
    }

    fn stream(&self, into: &mut Input<'_>, reader: Box<dyn Read>) -> io::Result<bool> {
        let input = self.input;
        if !self.o.filters.is_empty() {
            say!("sbe decode: {input}: --filter is for captures (pcap, pcapng), and this is none");
            return Ok(false);
        }
        let mut frames = FrameReader::new(reader, self.o.framing, self.order);
        frames.skip(self.o.skip)?;
        let start = frames.offset();
        let mut ok = true;
        let mut reports = Reporter::new("decode", input);
        let mut hint = Hint::new(self.o.framing);
        let mut unknown: Option<MultiError> = None;
        while let Some(r) = frames.next_message(|buf, base| {
            let r = into.offer(buf, &Frame::at(base)).map(|len| (len, true));
            if matches!(r, Err(PushError::Message(_))) && base == start {
                hint.failed_at_start(self.schemas, buf, Carrier::Stream);
            }
            r.map_err(|e| match e {
                PushError::Message(MultiError::Decode(e)) => Undecoded(e),
                PushError::Message(other) => {
                    let offset = other.offset();
                    unknown = Some(other);
                    Undecoded(DecodeError {
                        offset,
                        kind: DecodeErrorKind::Framing("unknown schema id".to_string()),
                        need: None,
                    })
                }
                PushError::Output(e) => Undecoded(DecodeError {
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
                    into.give_up();
                    let text = match unknown.take() {
                        Some(u) => u.to_string(),
                        None => e.to_string(),
                    };
                    reports.report(false, &text, hint.take().as_deref());
                    if into.failed().is_some() || !self.o.keep_going {
                        break;
                    }
                }
            }
        }
        reports.end();
        Ok(ok)
    }
}

/// A capture's messages into the pipeline, each with its packet's frame.
struct Sink<'i, 'a> {
    into: &'i mut Input<'a>,
    schemas: &'i Schemas<'i>,
    hint: Hint,
    reports: Reporter<'i>,
    ok: bool,
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

impl capture::Sink for Sink<'_, '_> {
    type Failure = Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        // Boxed, so that taking it from the sink for `offer` and putting
        // it back moves a pointer, not the frame.
        let mut frame = self.frame.take().unwrap_or_default();
        if self.frame_of != Some(origin.packet) {
            packet_frame(&mut frame, origin, &mut self.addrs);
            self.frame_of = Some(origin.packet);
        }
        frame.offset = Some(origin.offset);
        // A message cut short in a TCP segment is offered again with the
        // next; one the capture gives up on is reported (`report`).
        let r = self.into.offer(bytes, &frame);
        self.frame = Some(frame);
        if matches!(r, Err(PushError::Message(_))) {
            failed_at_start(&mut self.hint, self.schemas, bytes, origin);
        }
        r.map_err(|e| match e {
            PushError::Message(e) => Fail::Message(Undecodable(e)),
            PushError::Output(e) => Fail::Output(io::Error::other(e)),
        })
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
            self.into.give_up();
        }
        let hint = self.hint.take();
        self.reports
            .report(level == Level::Notice, text, hint.as_deref());
        Ok(())
    }
}
