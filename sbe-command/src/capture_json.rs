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

use crate::reading::{fail, Fail};
use sbe_capture::decoding::{left_out, FramedJson};
use sbe_capture::{self as capture, Field, Level, Origin};
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
    input: &'a str,
}

impl<'a, 's, W: Write> JsonLines<'a, 's, W> {
    pub fn new(schemas: &'a Schemas<'s>, out: W, input: &'a str) -> Self {
        JsonLines {
            schemas,
            out,
            line: JsonBuf::with_capacity(4096),
            framed: FramedJson::default(),
            input,
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

    fn report(&mut self, text: &str) -> io::Result<()> {
        self.out.flush()?;
        eprintln!("sbe decode: {}: {text}", self.input);
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Decodes and writes each message as the capture is read.
pub struct Inline<'a, 's, W> {
    pub lines: JsonLines<'a, 's, W>,
    pub templates: &'a [u64],
    /// No error was reported.
    pub ok: bool,
}

impl<W: Write> capture::Sink for Inline<'_, '_, W> {
    type Failure = crate::reading::Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        let schemas = self.lines.schemas;
        if left_out(schemas, self.templates, bytes) {
            return Ok(schemas
                .message_length(bytes, origin.offset)
                .map_err(fail)?
                .len);
        }
        self.lines.message(bytes, origin)
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
        }
        self.lines.report(text)
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
    Report(String),
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
    batch: Batch,
    to_writer: mpsc::SyncSender<Batch>,
    /// Batches the writer is done with, to fill again.
    recycled: mpsc::Receiver<Batch>,
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
        (to_writer, recycled): ReaderEnd,
    ) -> Self {
        Pipelined {
            schemas,
            templates,
            batch: Batch::default(),
            to_writer,
            recycled,
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
        let len = self
            .schemas
            .message_length(bytes, origin.offset)
            .map_err(fail)?
            .len;
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
        Ok(len)
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
        }
        self.batch.events.push(Event::Report(text.to_string()));
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
                            lines.report(&origin.failure(&e))?;
                        }
                    }
                }
                Event::Report(text) => lines.report(&text)?,
            }
        }
        batch.bytes.clear();
        batch.fields.clear();
        // The reader may have finished: nothing to recycle for.
        let _ = to_reader.send(batch);
    }
    lines.flush()?;
    Ok(ok)
}
