//! Decoding what the readers find with the run-time codec
//! ([`sbe_otf`]), as `sbe decode` does (feature `otf`): its errors as the
//! readers take them ([`Undecoded`], [`Undecodable`]), a schema's byte
//! order as a framing's ([`endian`]), each message of a capture as a JSON
//! line with its `frame` object ([`FramedJson`], [`JsonSink`]), and a
//! file or stream of framed messages as JSON lines ([`stream_json`]).
//! The `sbe` command and the Python package both read through these, so
//! that both give the same lines and the same reports.

use std::fmt;
use std::io::{self, Read};

use sbe_framing::split::{FrameError, FrameReader, MessageError, ReadError};
use sbe_framing::{Endian, Framing};
use sbe_ir::ir::ByteOrder;
use sbe_otf::multi::{MultiError, Schemas};
use sbe_otf::JsonBuf;

use crate::{FrameWriter, Level, Origin};

/// The framing's byte order of a schema's (SOFH's encoding type).
pub fn endian(order: ByteOrder) -> Endian {
    match order {
        ByteOrder::Little => Endian::Little,
        ByteOrder::Big => Endian::Big,
    }
}

/// A message the schemas could not decode, as a [`FrameReader`] takes it:
/// with `raw`, a message cut short waits for more bytes.
#[derive(Debug)]
pub struct Undecoded(pub MultiError);

impl MessageError for Undecoded {
    fn truncated(&self) -> Option<Option<u64>> {
        self.0.is_truncated().then(|| self.0.need())
    }
}

impl fmt::Display for Undecoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A message of a capture that the schemas could not decode, as the
/// capture reader takes it.
#[derive(Debug)]
pub struct Undecodable(pub MultiError);

impl crate::Failure for Undecodable {
    fn offset(&self) -> u64 {
        self.0.offset()
    }

    fn what(&self) -> String {
        self.0.what().to_string()
    }

    fn truncated(&self) -> Option<Option<u64>> {
        self.0.is_truncated().then(|| self.0.need())
    }
}

/// Why a message of a capture went nowhere, in a decoding sink.
pub type Fail = crate::Fail<Undecodable>;

/// A message the schemas could not decode, as a sink's failure.
pub fn fail(e: MultiError) -> Fail {
    crate::Fail::Message(Undecodable(e))
}

/// Whether `templates` (empty: all) leaves the message at the start of
/// `bytes` out.
pub fn left_out(schemas: &Schemas<'_>, templates: &[u64], bytes: &[u8]) -> bool {
    !templates.is_empty()
        && !schemas
            .read_header(bytes)
            .is_some_and(|h| templates.contains(&h.template_id))
}

/// Closes a message's JSON object with its `frame` object, as `sbe
/// decode` writes a capture's messages: `{..."body":{...},"frame":{"packet":1,...,"offset":N}}`.
/// The `frame` object's head is made once per packet.
#[derive(Debug, Default)]
pub struct FramedJson {
    frames: FrameWriter,
    /// The `frame` object's head for packet `packet`.
    head: Vec<u8>,
    packet: u64,
}

impl FramedJson {
    /// The packet header's times (MDP3's `sendingTime`) as RFC 3339 text
    /// when `semantic` (`--values semantic`), else as their count.
    pub fn new(semantic: bool) -> Self {
        FramedJson {
            frames: FrameWriter::new(semantic),
            ..FramedJson::default()
        }
    }

    /// Adds the `frame` object of `origin` to the message's JSON object in
    /// `line` (one object, no newline).
    pub fn append(&mut self, line: &mut JsonBuf, origin: &Origin<'_>) {
        if self.packet != origin.packet || self.head.is_empty() {
            self.head.clear();
            self.frames.head(origin, &mut self.head);
            self.packet = origin.packet;
        }
        if line.as_bytes().last() == Some(&b'}') {
            line.truncate(line.len() - 1);
        }
        line.extend_from_slice(b",\"frame\":");
        line.extend_from_slice(&self.head);
        line.extend_from_slice(b",\"offset\":");
        line.extend_from_slice(itoa::Buffer::new().format(origin.offset).as_bytes());
        line.extend_from_slice(b"}}");
    }
}

/// A capture [`Sink`](crate::Sink) that decodes each message to its JSON
/// line with its `frame` object (no newline) and hands it to `line`;
/// reports go to `report`.
pub struct JsonSink<'a, 's, L, R> {
    schemas: &'a Schemas<'s>,
    templates: &'a [u64],
    json: JsonBuf,
    framed: FramedJson,
    line: L,
    report: R,
    /// No error was reported.
    pub ok: bool,
}

impl<'a, 's, L, R> JsonSink<'a, 's, L, R>
where
    L: FnMut(&[u8]) -> io::Result<()>,
    R: FnMut(Level, &str) -> io::Result<()>,
{
    /// A sink of the messages of `templates` (empty: all), decoded with
    /// `schemas`.
    pub fn new(schemas: &'a Schemas<'s>, templates: &'a [u64], line: L, report: R) -> Self {
        JsonSink {
            schemas,
            templates,
            json: JsonBuf::with_capacity(4096),
            framed: FramedJson::default(),
            line,
            report,
            ok: true,
        }
    }

    /// The `frame` object gives packet header times as RFC 3339 text when
    /// `semantic` (see [`FramedJson::new`]).
    #[must_use]
    pub fn frame_times(mut self, semantic: bool) -> Self {
        self.framed = FramedJson::new(semantic);
        self
    }
}

impl<L, R> crate::Sink for JsonSink<'_, '_, L, R>
where
    L: FnMut(&[u8]) -> io::Result<()>,
    R: FnMut(Level, &str) -> io::Result<()>,
{
    type Failure = Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        if left_out(self.schemas, self.templates, bytes) {
            return Ok(self
                .schemas
                .message_length(bytes, origin.offset)
                .map_err(fail)?
                .len);
        }
        self.json.clear();
        let d = self
            .schemas
            .decode_json_into(bytes, origin.offset, &mut self.json)
            .map_err(fail)?;
        self.framed.append(&mut self.json, origin);
        (self.line)(self.json.as_bytes())?;
        Ok(d.len)
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        if level == Level::Error {
            self.ok = false;
        }
        (self.report)(level, text)
    }
}

/// How [`stream_json`] reads a file or stream of framed messages.
#[derive(Debug, Clone)]
pub struct StreamOptions<'a> {
    /// How messages follow one another (a stream framing).
    pub framing: Framing,
    /// Bytes (a file header) to skip before the first message.
    pub skip: u64,
    /// The templates to decode (empty: all); the others are stepped over.
    pub templates: &'a [u64],
    /// After a bad message, go on at the next frame where the framing
    /// allows it.
    pub keep_going: bool,
}

/// A message of a stream that could not be decoded, or a framing error.
#[derive(Debug)]
pub enum StreamFailure {
    /// The schemas could not decode the message.
    Message(MultiError),
    /// The framing refused the bytes.
    Frame(FrameError),
}

impl fmt::Display for StreamFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamFailure::Message(e) => e.fmt(f),
            StreamFailure::Frame(e) => e.fmt(f),
        }
    }
}

/// What [`stream_json`] hands on, in the order of the input.
#[derive(Debug)]
pub enum StreamItem<'a> {
    /// A message's JSON object (no newline).
    Line(&'a [u8]),
    /// A message that failed: reading stops after it unless
    /// [`StreamOptions::keep_going`].
    Failed(StreamFailure),
}

/// Decodes every message of `source` (framed as `o.framing` says) to its
/// JSON object, each handed to `on`, as is each failure; reading stops
/// after a failure unless `o.keep_going`. `Ok(true)` when nothing failed:
/// what `sbe decode` does with a file of messages.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use sbe_capture::decoding::{stream_json, StreamItem, StreamOptions};
/// let xml = r#"<messageSchema package="demo" id="1">
///   <types>
///     <composite name="messageHeader">
///       <type name="blockLength" primitiveType="uint16"/>
///       <type name="templateId" primitiveType="uint16"/>
///       <type name="schemaId" primitiveType="uint16"/>
///       <type name="version" primitiveType="uint16"/>
///     </composite>
///   </types>
///   <message name="Tick" id="1"><field name="seq" id="1" type="uint32"/></message>
/// </messageSchema>"#;
/// let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
/// let entry = sbe_otf::multi::Entry { codec: sbe_otf::Codec::new(&schema)?, label: "demo.xml".into() };
/// let schemas = sbe_otf::multi::Schemas::new(vec![entry])?;
/// // Two ticks back to back, the second cut short.
/// let bytes = [4, 0, 1, 0, 1, 0, 0, 0, 7, 0, 0, 0, 4, 0, 1, 0, 1, 0];
/// let o = StreamOptions { framing: sbe_framing::Framing::Raw, skip: 0, templates: &[], keep_going: false };
/// let (mut lines, mut failures) = (Vec::new(), Vec::new());
/// let ok = stream_json(&schemas, &bytes[..], &o, |item| {
///     match item {
///         StreamItem::Line(l) => lines.push(String::from_utf8_lossy(l).into_owned()),
///         StreamItem::Failed(e) => failures.push(e.to_string()),
///     }
///     Ok(())
/// })?;
/// assert!(!ok);
/// assert_eq!(lines.len(), 1);
/// assert!(lines[0].contains(r#""seq":7"#), "{}", lines[0]);
/// assert!(failures[0].starts_with("at byte 12: truncated"), "{}", failures[0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Reading `source` failed, or `on` did.
pub fn stream_json<R: Read>(
    schemas: &Schemas<'_>,
    source: R,
    o: &StreamOptions<'_>,
    mut on: impl FnMut(StreamItem<'_>) -> io::Result<()>,
) -> io::Result<bool> {
    let mut reader = FrameReader::new(source, o.framing, endian(schemas.byte_order()));
    reader.skip(o.skip)?;
    let mut json = JsonBuf::with_capacity(4096);
    let mut ok = true;
    while let Some(r) = reader.next_message(|buf, base| {
        json.clear();
        let r = if left_out(schemas, o.templates, buf) {
            schemas.message_length(buf, base).map(|d| (d.len, false))
        } else {
            schemas
                .decode_json_into(buf, base, &mut json)
                .map(|d| (d.len, true))
        };
        r.map_err(Undecoded)
    }) {
        match r {
            Ok(true) => on(StreamItem::Line(json.as_bytes()))?,
            Ok(false) => {}
            Err(ReadError::Frame(FrameError::Io(e))) => return Err(e),
            Err(e) => {
                ok = false;
                on(StreamItem::Failed(match e {
                    ReadError::Message(Undecoded(e)) => StreamFailure::Message(e),
                    ReadError::Frame(e) => StreamFailure::Frame(e),
                }))?;
                if !o.keep_going {
                    break;
                }
            }
        }
    }
    Ok(ok)
}
