//! Captures and streams of framed messages into a pipeline [`Input`], as
//! `sbe decode --format parquet` reads them (feature `capture`): each
//! capture message with its packet's [`Frame`] ([`CaptureSink`]), each
//! stream message at its offset ([`push_stream`]). The `sbe` command and
//! the Python package both read through these.

use std::io::{self, Read};
use std::net::SocketAddr;

use sbe_capture::decoding::{Fail, StreamFailure, Undecodable, Undecoded};
use sbe_capture::{Level, Origin};
use sbe_framing::split::{FrameError, FrameReader, ReadError, MSG_SEQ_NUM, SENDING_TIME};
use sbe_framing::{Endian, Framing};
use sbe_otf::decode::{DecodeError, DecodeErrorKind};
use sbe_otf::multi::MultiError;

use crate::pipeline::{Input, PushError};
use crate::Frame;

/// A capture's messages into an [`Input`], each with its packet's frame;
/// the run's reports go to `report` (an error report gives up the message
/// held back, recording it in `_errors`).
pub struct CaptureSink<'i, 'a, R> {
    into: &'i mut Input<'a>,
    report: R,
    /// No error was reported.
    pub ok: bool,
    /// The capture frame of the message, kept from one message to the
    /// next: its addresses are formatted again only when they change.
    frame: Option<Box<Frame>>,
    /// The sender and receiver `frame` holds as text.
    addrs: Option<(SocketAddr, SocketAddr)>,
    /// The packet whose frame `frame` is: its messages share it.
    frame_of: Option<u64>,
}

impl<'i, 'a, R: FnMut(Level, &str) -> io::Result<()>> CaptureSink<'i, 'a, R> {
    /// A sink into `into`, its reports to `report`.
    pub fn new(into: &'i mut Input<'a>, report: R) -> Self {
        CaptureSink {
            into,
            report,
            ok: true,
            frame: None,
            addrs: None,
            frame_of: None,
        }
    }
}

/// Sets what `frame` tells of `origin`'s packet: everything but the
/// offset, the same for each message of a packet (or the TCP segment
/// that completes them). `addrs` are those `frame` holds as text.
fn packet_frame(
    frame: &mut Frame,
    origin: &Origin<'_>,
    addrs: &mut Option<(SocketAddr, SocketAddr)>,
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

impl<R: FnMut(Level, &str) -> io::Result<()>> sbe_capture::Sink for CaptureSink<'_, '_, R> {
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
        (self.report)(level, text)
    }
}

/// Pushes every message of `source` (framed by `framing`, `skip` bytes
/// first) into `into`, each at its offset; each failure goes to `failed`
/// (the message in `_errors`), and reading stops after it unless
/// `keep_going` (or the output failed). `Ok(true)` when nothing failed.
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
/// #   <message name="Tick" id="1"><field name="seq" id="1" type="uint32"/></message>
/// # </messageSchema>"#;
/// # let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
/// # let entry = sbe_otf::multi::Entry { codec: sbe_otf::Codec::new(&schema)?, label: "demo.xml".into() };
/// # let schemas = sbe_otf::multi::Schemas::new(vec![entry])?;
/// use sbe_columnar::pipeline::Pipeline;
/// use sbe_columnar::reading::push_stream;
///
/// // Two ticks behind a u16 LE length (of the frame) each, then one cut short.
/// let tick = [14, 0, 4, 0, 1, 0, 1, 0, 0, 0, 7, 0, 0, 0];
/// let bytes = [&tick[..], &tick[..], &tick[..9]].concat();
/// let mut input = Pipeline::new(&schemas, "").collect()?;
/// let mut failures = Vec::new();
/// let framing = "len=u16le".parse()?;
/// let order = sbe_framing::Endian::Little;
/// let ok = push_stream(&mut input, &bytes[..], framing, order, 0, true, |e| {
///     failures.push(e.to_string());
///     Ok(())
/// })?;
/// assert!(!ok && failures.len() == 1, "{failures:?}");
/// // The frame cut short is the framing's failure: no message to refuse.
/// let collected = input.finish_collected()?;
/// assert_eq!((collected.summary.messages, collected.summary.refused), (2, 0));
/// # Ok(()) }
/// ```
///
/// # Errors
/// Reading `source` failed, or `failed` did.
pub fn push_stream<R: Read>(
    into: &mut Input<'_>,
    source: R,
    framing: Framing,
    order: Endian,
    skip: u64,
    keep_going: bool,
    mut failed: impl FnMut(StreamFailure) -> io::Result<()>,
) -> io::Result<bool> {
    let mut frames = FrameReader::new(source, framing, order);
    frames.skip(skip)?;
    let mut ok = true;
    while let Some(r) = frames.next_message(|buf, base| {
        let r = into.offer(buf, &Frame::at(base)).map(|len| (len, true));
        r.map_err(|e| match e {
            PushError::Message(e) => Undecoded(e),
            PushError::Output(e) => Undecoded(MultiError::Decode(DecodeError {
                offset: base,
                kind: DecodeErrorKind::Framing(format!("output: {e}")),
                need: None,
            })),
        })
    }) {
        match r {
            Ok(_) => {}
            Err(ReadError::Frame(FrameError::Io(e))) => return Err(e),
            Err(e) => {
                ok = false;
                into.give_up();
                failed(match e {
                    ReadError::Message(Undecoded(e)) => StreamFailure::Message(e),
                    ReadError::Frame(e) => StreamFailure::Frame(e),
                })?;
                if into.failed().is_some() || !keep_going {
                    break;
                }
            }
        }
    }
    Ok(ok)
}
