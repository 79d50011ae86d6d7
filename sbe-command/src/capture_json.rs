//! `sbe decode`'s JSON lines for a capture: each message with its `frame`
//! object, and the run's reports between them in order.
//!
//! For a capture file, with two threads or more (`--jobs`, default the
//! cores), the packets are read, parsed and framed on the calling thread
//! and the JSON written on another ([`Pipelined`]): the capture's own work
//! is then beside the decoding, not before it. Each message's verdict is
//! still given where the packet is read, by the codec's length check,
//! which runs the rule the JSON decoding runs. A stream is decoded inline
//! ([`Inline`]), its lines not held back in batches.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::mpsc;

use crate::hint::Hint;
use crate::pick::{Count, Enough};
use crate::reading::{fail, Fail};
use crate::say::Reporter;
use sbe_capture::decoding::{left_out, FramedJson};
use sbe_capture::{self as capture, Field, Level, Origin};
use sbe_framing::guess::Carrier;
use sbe_otf::multi::Schemas;
use sbe_otf::JsonBuf;

/// Message bytes a batch holds before it is handed to the writer.
const BATCH_BYTES: usize = 1 << 16;
/// Messages and reports a batch holds at most.
const BATCH_EVENTS: usize = 1024;
/// Batches on their way to the writer at most: memory stays flat.
const BATCHES_IN_FLIGHT: usize = 2;

/// Writes messages as JSON lines with their `frame` object, and reports
/// to stderr (stdout flushed first, so that the two read in order).
pub struct JsonLines<'a, 's, W> {
    schemas: &'a Schemas<'s>,
    out: W,
    line: JsonBuf,
    framed: FramedJson,
    reports: Reporter<'a>,
}

impl<'a, 's, W: Write> JsonLines<'a, 's, W> {
    /// Lines of `schemas`' messages to `out`; packet header times as text
    /// when `semantic` (`--values semantic`).
    pub fn new(schemas: &'a Schemas<'s>, out: W, input: &'a str, semantic: bool) -> Self {
        JsonLines {
            schemas,
            out,
            line: JsonBuf::with_capacity(4096),
            framed: FramedJson::new(semantic),
            reports: Reporter::new("decode", input),
        }
    }

    /// Decodes and writes the message at the start of `bytes`: its length.
    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        self.line.clear();
        let d = self
            .schemas
            .decode_json_into(bytes, origin.offset, &mut self.line)
            .map_err(fail)?;
        self.framed.append(&mut self.line, origin);
        self.line.push(b'\n');
        self.out.write_all(self.line.as_bytes())?;
        Ok(d.len)
    }

    fn report(&mut self, level: Level, text: &str, hint: Option<&str>) -> io::Result<()> {
        self.out.flush()?;
        self.reports.report(level == Level::Notice, text, hint);
        Ok(())
    }

    /// Writes what is held, then says the reports summed up.
    pub fn end(&mut self) -> io::Result<()> {
        self.out.flush()?;
        self.reports.end();
        Ok(())
    }
}

/// Decodes and writes each message as the capture is read.
pub struct Inline<'a, 's, W> {
    pub lines: JsonLines<'a, 's, W>,
    pub templates: &'a [u64],
    pub count: &'a Count,
    pub hint: Hint,
    /// No error was reported.
    pub ok: bool,
}

impl<W: Write> capture::Sink for Inline<'_, '_, W> {
    type Failure = crate::reading::Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        let schemas = self.lines.schemas;
        let r = if left_out(schemas, self.templates, bytes) {
            schemas
                .message_length(bytes, origin.offset)
                .map(|d| d.len)
                .map_err(fail)
        } else {
            let r = self.lines.message(bytes, origin);
            if r.is_ok() && self.count.printed() {
                return Err(Fail::Output(io::Error::other(Enough)));
            }
            r
        };
        if let Err(Fail::Message(_)) = r {
            failed_at_start(&mut self.hint, schemas, bytes, origin);
        }
        r
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
        }
        let hint = self.hint.take();
        self.lines.report(level, text, hint.as_deref())
    }
}

/// What the writer is handed, in the capture's order.
enum Event {
    /// A message whose length check passed: its bytes and its packet
    /// header's fields in the batch, and where it came from.
    Message {
        bytes: Range<usize>,
        fields: Range<usize>,
        origin: Origin<'static>,
    },
    Report {
        level: Level,
        text: String,
        /// The framing hint said after it.
        hint: Option<String>,
    },
}

/// Messages and reports on their way to the writer.
#[derive(Default)]
pub struct Batch {
    bytes: Vec<u8>,
    fields: Vec<Field>,
    events: Vec<Event>,
}

impl Batch {
    fn full(&self) -> bool {
        self.bytes.len() >= BATCH_BYTES || self.events.len() >= BATCH_EVENTS
    }
}

/// Checks each message and hands it, copied, to the writer thread
/// ([`write_batches`]), with the reports between them.
pub struct Pipelined<'a, 's> {
    schemas: &'a Schemas<'s>,
    templates: &'a [u64],
    count: &'a Count,
    batch: Batch,
    to_writer: mpsc::SyncSender<Batch>,
    /// Batches the writer is done with, to fill again.
    recycled: mpsc::Receiver<Batch>,
    hint: Hint,
    /// No error was reported.
    pub ok: bool,
}

/// The reader's end of the writer's channels: batches out, emptied ones
/// back.
pub type ReaderEnd = (mpsc::SyncSender<Batch>, mpsc::Receiver<Batch>);
/// The writer's end: batches in, emptied ones back.
pub type WriterEnd = (mpsc::Receiver<Batch>, mpsc::Sender<Batch>);

/// Both ends: what [`Pipelined::new`] keeps and what [`write_batches`]
/// takes.
pub fn channels() -> (ReaderEnd, WriterEnd) {
    let (to_writer, from_reader) = mpsc::sync_channel(BATCHES_IN_FLIGHT);
    let (to_reader, recycled) = mpsc::channel();
    ((to_writer, recycled), (from_reader, to_reader))
}

impl<'a, 's> Pipelined<'a, 's> {
    pub fn new(
        schemas: &'a Schemas<'s>,
        templates: &'a [u64],
        count: &'a Count,
        hint: Hint,
        (to_writer, recycled): ReaderEnd,
    ) -> Self {
        Pipelined {
            schemas,
            templates,
            count,
            batch: Batch::default(),
            to_writer,
            recycled,
            hint,
            ok: true,
        }
    }

    /// Hands the batch so far to the writer; an error when it has stopped
    /// (its own error says why).
    pub fn send(&mut self) -> io::Result<()> {
        if self.batch.events.is_empty() {
            return Ok(());
        }
        let next = self.recycled.try_recv().unwrap_or_default();
        let batch = std::mem::replace(&mut self.batch, next);
        self.to_writer
            .send(batch)
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the JSON writer stopped"))
    }
}

impl capture::Sink for Pipelined<'_, '_> {
    type Failure = crate::reading::Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        let len = match self.schemas.message_length(bytes, origin.offset) {
            Ok(d) => d.len,
            Err(e) => {
                failed_at_start(&mut self.hint, self.schemas, bytes, origin);
                return Err(fail(e));
            }
        };
        if left_out(self.schemas, self.templates, bytes) {
            return Ok(len);
        }
        let b = &mut self.batch;
        let at = b.bytes.len();
        b.bytes.extend_from_slice(bytes.get(..len).unwrap_or(bytes));
        let fields_at = b.fields.len();
        b.fields.extend_from_slice(origin.fields);
        b.events.push(Event::Message {
            bytes: at..b.bytes.len(),
            fields: fields_at..b.fields.len(),
            origin: origin.with_fields(&[]),
        });
        if b.full() {
            self.send()?;
        }
        // The writer writes what it was sent; the reading stops here.
        if self.count.printed() {
            return Err(Fail::Output(io::Error::other(Enough)));
        }
        Ok(len)
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
        }
        self.batch.events.push(Event::Report {
            level,
            text: text.to_string(),
            hint: self.hint.take(),
        });
        if self.batch.full() {
            self.send()?;
        }
        Ok(())
    }
}

/// The writer thread: writes every batch's messages and reports in order,
/// until the reader hangs up; `Ok(false)` when a message failed here
/// after its length check passed (not expected: both run one rule).
pub fn write_batches<W: Write>(
    lines: &mut JsonLines<'_, '_, W>,
    (from_reader, to_reader): WriterEnd,
) -> io::Result<bool> {
    let mut ok = true;
    for mut batch in from_reader {
        for event in batch.events.drain(..) {
            match event {
                Event::Message {
                    bytes,
                    fields,
                    origin,
                } => {
                    let origin = origin.with_fields(batch.fields.get(fields).unwrap_or_default());
                    let bytes = batch.bytes.get(bytes).unwrap_or_default();
                    match lines.message(bytes, &origin) {
                        Ok(_) => {}
                        Err(Fail::Output(e)) => return Err(e),
                        Err(Fail::Message(e)) => {
                            ok = false;
                            lines.report(Level::Error, &origin.failure(&e), None)?;
                        }
                    }
                }
                Event::Report { level, text, hint } => {
                    lines.report(level, &text, hint.as_deref())?
                }
            }
        }
        batch.bytes.clear();
        batch.fields.clear();
        // The reader may have finished: nothing to recycle for.
        let _ = to_reader.send(batch);
    }
    lines.end()?;
    Ok(ok)
}

/// A message failed: at the start of a datagram or TCP stream, the
/// framing hint looks into the bytes.
pub fn failed_at_start(hint: &mut Hint, schemas: &Schemas<'_>, bytes: &[u8], origin: &Origin<'_>) {
    if origin.offset == 0 {
        let carrier = match origin.transport {
            capture::Transport::Udp => Carrier::Datagram,
            capture::Transport::Tcp => Carrier::Stream,
        };
        hint.failed_at_start(schemas, bytes, carrier);
    }
}
