//! Reading SBE messages out of network captures: pcap (µs and ns
//! timestamps, either byte order) and pcapng files, told by their magic.
//!
//! [`file`](mod@file) reads the packets (pcap-parser), [`net`] finds each one's UDP
//! datagram or TCP segment (etherparse), [`tcp`] puts each direction's
//! segments back into a stream, the framing's
//! [`Datagram`] and [`StreamSplitter`] find the messages of
//! a datagram or stream, and [`run`] drives it all, handing every
//! message with where it came from ([`Origin`]) to a [`Sink`].
//!
//! UDP: each datagram is a packet of the framing. TCP: each direction
//! (src ip:port → dst ip:port) is a stream, reassembled in sequence order;
//! a gap (the stream resumes at the next segment), an overlap or a
//! retransmission is reported with its packet number. IP fragments are
//! reported and skipped.
//!
//! What a message is, and whether it decodes, is the [`Sink`]'s business:
//! this crate finds the bytes and says where they came from. A sink's
//! failure says where in the message and what went wrong ([`Failure`]), and
//! the run reports it with its packet and place.
//!
//! ```
//! use std::io;
//! use sbe_capture::{CaptureReader, Fail, Format, Level, Options, Origin, Sink};
//!
//! /// Counts the messages of a capture, each a 4-byte frame.
//! struct Count(u64);
//!
//! impl Sink for Count {
//!     type Failure = std::convert::Infallible;
//!     fn message(&mut self, bytes: &[u8], _: &Origin<'_>) -> Result<usize, Fail<Self::Failure>> {
//!         self.0 += 1;
//!         Ok(bytes.len())
//!     }
//!     fn report(&mut self, _: Level, text: &str) -> io::Result<()> {
//!         panic!("{text}")
//!     }
//! }
//!
//! // A pcap file (µs, Ethernet) of one UDP datagram of two 4-byte frames.
//! let mut pcap = vec![0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0];
//! pcap.extend([0xff, 0xff, 0, 0, 1, 0, 0, 0]);
//! let payload = [4, 0, 1, 2, 4, 0, 3, 4];
//! let mut frame = vec![0u8; 12];
//! frame.extend([0x08, 0x00]); // IPv4
//! let ip_len = 20 + 8 + payload.len() as u16;
//! frame.extend([0x45, 0, (ip_len >> 8) as u8, ip_len as u8, 0, 0, 0, 0, 64, 17, 0, 0]);
//! frame.extend([10, 0, 0, 1, 10, 0, 0, 2]);
//! frame.extend([0x23, 0x28, 0x13, 0x88, 0, 8 + payload.len() as u8, 0, 0]);
//! frame.extend(payload);
//! let len = (frame.len() as u32).to_le_bytes();
//! pcap.extend([0; 8]);
//! pcap.extend(len);
//! pcap.extend(len);
//! pcap.extend(frame);
//!
//! let mut reader = CaptureReader::new(Format::Pcap, &pcap[..])?;
//! let options = Options {
//!     framing: "len=u16le".parse().unwrap(),
//!     order: sbe_framing::Endian::Little,
//!     filter: Vec::new(),
//! };
//! let mut count = Count(0);
//! let summary = sbe_capture::run(&mut reader, &options, &mut count)?;
//! assert_eq!((summary.packets, count.0), (1, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
// Input never reaches a panic: no indexing, unwrap or expect outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

#[cfg(feature = "otf")]
pub mod decoding;
pub mod file;
pub mod filter;
pub mod net;
pub mod tcp;
pub mod time;

use std::collections::HashSet;
use std::fmt;
use std::io;
use std::net::SocketAddr;

use sbe_framing::{Endian, Framing};

use sbe_framing::split::{Datagram, DatagramFraming, FrameError, StreamSplitter};

pub use file::{sniff, sniff_read, CaptureError, CaptureReader, Format, Packet};
pub use filter::{BadTerm, Term, SYNTAX};
pub use net::Transport;
pub use time::Timestamp;

/// Flows are looked up once a packet: foldhash rather than SipHash, which
/// cost more than parsing the packet's headers; still seeded per run, so a
/// capture cannot be made with addresses that collide.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A packet header field (MDP3's `msgSeqNum`, ...).
pub type Field = (&'static str, u64);

/// A framing error's text without its offset (`at byte N: ` is said
/// apart, with the packet).
fn what(e: &FrameError) -> String {
    let text = e.to_string();
    match e.offset() {
        Some(at) => text
            .strip_prefix(&format!("at byte {at}: "))
            .map_or_else(|| text.clone(), str::to_string),
        None => text,
    }
}

/// Where a message came from.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The packet (1-based, as Wireshark numbers them); for TCP, the one
    /// whose segment completes the message.
    pub packet: u64,
    /// When that packet was captured.
    pub time: Option<Timestamp>,
    /// UDP or TCP.
    pub transport: Transport,
    /// Sender.
    pub src: SocketAddr,
    /// Receiver.
    pub dst: SocketAddr,
    /// The packet header's fields (MDP3's `msgSeqNum`, `sendingTime`).
    pub fields: &'a [Field],
    /// Offset of the message in the UDP payload, or in the direction's TCP
    /// stream (bytes since its first payload byte).
    pub offset: u64,
}

impl Origin<'_> {
    /// `packet 5, udp 10.0.0.1:9000 -> 10.0.0.2:5000`.
    pub fn place(&self) -> String {
        Place(self.packet, self.transport, self.src, self.dst).to_string()
    }

    /// Where the offset counts from: `of the payload` / `of the stream`.
    fn unit(&self) -> &'static str {
        unit(self.transport)
    }

    /// The same place with the packet header's fields `fields`.
    pub fn with_fields<'b>(&self, fields: &'b [Field]) -> Origin<'b> {
        Origin {
            packet: self.packet,
            time: self.time,
            transport: self.transport,
            src: self.src,
            dst: self.dst,
            fields,
            offset: self.offset,
        }
    }

    /// What is said of the message here that could not be decoded:
    /// `packet 2, udp 10.0.0.1:1 -> 10.0.0.2:2, byte 47 of the payload: ...`.
    pub fn failure(&self, e: &impl Failure) -> String {
        format!(
            "{}, byte {} {}: {}",
            self.place(),
            e.offset(),
            self.unit(),
            e.what()
        )
    }

    /// The `frame` object, all but its `offset` and closing brace:
    /// `{"packet":5,"time":"...","transport":"udp","src":"...","dst":"...",...`.
    pub fn write_json_head(&self, out: &mut Vec<u8>) {
        FrameWriter::default().head(self, out);
    }

    /// The whole `frame` object.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write_json_head(out);
        out.extend_from_slice(b",\"offset\":");
        write_int(out, self.offset);
        out.push(b'}');
    }
}

/// `packet 5, udp 10.0.0.1:9000 -> 10.0.0.2:5000`, formatted only when said.
#[derive(Clone, Copy)]
struct Place(u64, Transport, SocketAddr, SocketAddr);

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Place(packet, t, src, dst) = *self;
        write!(f, "packet {packet}, {} {src} -> {dst}", t.name())
    }
}

/// Writes `frame` objects fast: the flow's part is kept per flow and the
/// time's per second, as most packets share them with the one before.
#[derive(Debug, Default)]
pub struct FrameWriter {
    /// Packet header fields that are times written as RFC 3339 text
    /// (`--values semantic`), not as their count.
    semantic: bool,
    flow: Option<(Transport, SocketAddr, SocketAddr)>,
    flow_json: Vec<u8>,
    secs: Option<i64>,
    secs_json: Vec<u8>,
    keys: Vec<(&'static str, Vec<u8>)>,
}

impl FrameWriter {
    /// A writer that gives the packet header fields that are times
    /// (MDP3's `sendingTime`, see [`sbe_framing::split::field_time`]) as
    /// RFC 3339 UTC strings with nanoseconds when `semantic`, as the
    /// message's own timestamps are in `--values semantic`.
    pub fn new(semantic: bool) -> Self {
        FrameWriter {
            semantic,
            ..FrameWriter::default()
        }
    }

    /// `,"name":`, escaped once per field name (a framing has a few).
    fn key(&mut self, name: &'static str) -> &[u8] {
        let at = match self.keys.iter().position(|(n, _)| *n == name) {
            Some(at) => at,
            None => {
                let mut key = vec![b','];
                write_str(&mut key, name);
                key.push(b':');
                self.keys.push((name, key));
                self.keys.len() - 1
            }
        };
        self.keys.get(at).map_or(&[][..], |(_, key)| key)
    }

    /// What [`Origin::write_json_head`] writes.
    pub fn head(&mut self, o: &Origin<'_>, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"packet\":");
        write_int(out, o.packet);
        if let Some(t) = o.time {
            if self.secs != Some(t.secs) {
                self.secs = Some(t.secs);
                self.secs_json.clear();
                let text = Timestamp { nanos: 0, ..t }.to_string();
                // Up to the fraction: `2024-03-05T14:30:01.`.
                let whole = text.len().saturating_sub(10);
                self.secs_json
                    .extend_from_slice(text.as_bytes().get(..whole).unwrap_or_default());
            }
            out.extend_from_slice(b",\"time\":\"");
            out.extend_from_slice(&self.secs_json);
            // Nine digits with leading zeros: those of 1_000_000_000 + nanos
            // after its leading 1.
            let mut digits = itoa::Buffer::new();
            let digits = digits.format(1_000_000_000 + t.nanos % 1_000_000_000);
            out.extend_from_slice(digits.as_bytes().get(1..).unwrap_or_default());
            out.extend_from_slice(b"Z\"");
        }
        let flow = (o.transport, o.src, o.dst);
        if self.flow != Some(flow) {
            self.flow = Some(flow);
            self.flow_json.clear();
            use std::io::Write as _;
            let _ = write!(
                self.flow_json,
                ",\"transport\":\"{}\",\"src\":\"{}\",\"dst\":\"{}\"",
                o.transport.name(),
                o.src,
                o.dst
            );
        }
        out.extend_from_slice(&self.flow_json);
        for &(name, value) in o.fields {
            out.extend_from_slice(self.key(name));
            let time = self
                .semantic
                .then(|| sbe_framing::split::field_time(name, value))
                .flatten();
            match time {
                Some(t) => {
                    use std::io::Write as _;
                    let _ = write!(out, "\"{t}\"");
                }
                None => out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes()),
            }
        }
    }
}

/// `n` in decimal.
fn write_int(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// `text` as a JSON string: quoted, with `"`, `\\` and control characters
/// escaped.
fn write_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            c if u32::from(c) < 0x20 => {
                out.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
            }
            c => {
                let mut utf8 = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
    }
    out.push(b'"');
}

fn unit(t: Transport) -> &'static str {
    match t {
        Transport::Udp => "of the payload",
        Transport::Tcp => "of the stream",
    }
}

/// What a [`Sink`] says of a message it could not take.
pub trait Failure {
    /// Offset of the problem in the UDP payload or the TCP stream.
    fn offset(&self) -> u64;
    /// What is wrong, without the offset.
    fn what(&self) -> String;
    /// `Some(need)` when the message runs past the bytes it was given (with
    /// a framing that cannot size a message, `raw`, a TCP stream then waits
    /// for more), `need` being the bytes it needs from its start where
    /// known; `None` for any other failure.
    fn truncated(&self) -> Option<Option<u64>>;
}

/// No failure: a sink that takes every message.
impl Failure for std::convert::Infallible {
    fn offset(&self) -> u64 {
        match *self {}
    }
    fn what(&self) -> String {
        match *self {}
    }
    fn truncated(&self) -> Option<Option<u64>> {
        match *self {}
    }
}

/// Why a message went nowhere.
#[derive(Debug)]
pub enum Fail<E> {
    /// It could not be decoded: reported, and the run goes on.
    Message(E),
    /// Writing the output failed: stop.
    Output(io::Error),
}

impl<E> From<io::Error> for Fail<E> {
    fn from(e: io::Error) -> Self {
        Fail::Output(e)
    }
}

/// How bad a report is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Worth knowing, nothing lost (a retransmission dropped, a sequence
    /// gap of the feed).
    Notice,
    /// Messages lost or undecodable (exit code 1).
    Error,
}

/// Takes the messages found and the reports made.
pub trait Sink {
    /// What the sink says of a message it could not take.
    type Failure: Failure;
    /// The message at the start of `bytes` (for content-sized framings:
    /// every byte from its start on); its length, or why not.
    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail<Self::Failure>>;
    /// Something to say (one line, its place included).
    fn report(&mut self, level: Level, text: &str) -> io::Result<()>;
}

/// What to decode.
#[derive(Debug, Clone)]
pub struct Options {
    /// How messages sit in datagrams (any framing) and TCP streams (stream
    /// framings: a packet framing skips TCP, said once per flow).
    pub framing: Framing,
    /// Byte order of the schemas (SOFH's encoding type depends on it).
    pub order: Endian,
    /// Filter terms, all to match.
    pub filter: Vec<Term>,
}

/// Capture reading ended early.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The capture cannot be read on.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// Writing failed.
    #[error(transparent)]
    Output(#[from] io::Error),
}

/// What a run went through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Packets in the capture.
    pub packets: u64,
    /// UDP datagrams and TCP segments that matched the filter.
    pub matched: u64,
}

struct Flow {
    dir: tcp::Direction,
    /// `None`: a packet framing, which cannot split a stream.
    stream: Option<StreamSplitter>,
    last_packet: u64,
}

struct Run<'o, S> {
    opts: &'o Options,
    sink: &'o mut S,
    flows: HashMap<(SocketAddr, SocketAddr), Flow>,
    /// Last `msgSeqNum` per UDP flow, but for the flow of the last
    /// packet, which is in `last_seq` (most packets are of the flow
    /// before them: a comparison, not a hash of the addresses).
    seqs: HashMap<(SocketAddr, SocketAddr), u64>,
    last_seq: Option<((SocketAddr, SocketAddr), u64)>,
    links_said: HashSet<u32>,
    /// The current datagram's packet header fields.
    fields: Vec<Field>,
    datagrams: DatagramFraming,
    summary: Summary,
}

/// Read every packet of `reader` and hand its messages to `sink`.
pub fn run<S: Sink>(
    reader: &mut CaptureReader<'_>,
    opts: &Options,
    sink: &mut S,
) -> Result<Summary, RunError> {
    let mut r = Run {
        opts,
        sink,
        flows: HashMap::default(),
        seqs: HashMap::default(),
        last_seq: None,
        links_said: HashSet::new(),
        fields: Vec::new(),
        datagrams: DatagramFraming::new(&opts.framing, opts.order),
        summary: Summary::default(),
    };
    let end = loop {
        match reader.next_packet(|p| r.packet(p)) {
            Ok(Some(Ok(()))) => {}
            Ok(Some(Err(e))) => return Err(RunError::Output(e)),
            Ok(None) => break None,
            Err(CaptureError::Io(e)) => return Err(RunError::Capture(CaptureError::Io(e))),
            Err(e) => break Some(e),
        }
    };
    r.summary.packets = reader.packets();
    // Streams that end inside a message, in the order they were last seen.
    let mut open: Vec<_> = r
        .flows
        .iter()
        .filter_map(|(k, f)| {
            let s = f.stream.as_ref().filter(|s| s.pending() > 0)?;
            Some((f.last_packet, *k, s.pending(), s.offset()))
        })
        .collect();
    open.sort();
    for (last, (src, dst), pending, at) in open {
        r.sink.report(
            Level::Error,
            &format!(
                "tcp {src} -> {dst}: the capture ends {pending} bytes into a message \
                 (at byte {at} of the stream, last packet {last})"
            ),
        )?;
    }
    match end {
        Some(e) => Err(RunError::Capture(e)),
        None => Ok(r.summary),
    }
}

impl<S: Sink> Run<'_, S> {
    /// The flow's `msgSeqNum` before `seq`, which takes its place.
    fn last_seq_of(&mut self, flow: (SocketAddr, SocketAddr), seq: u64) -> Option<u64> {
        match &mut self.last_seq {
            Some((last, v)) if *last == flow => Some(std::mem::replace(v, seq)),
            _ => {
                if let Some((last, v)) = self.last_seq.take() {
                    self.seqs.insert(last, v);
                }
                self.last_seq = Some((flow, seq));
                self.seqs.remove(&flow)
            }
        }
    }

    fn packet(&mut self, p: Packet<'_>) -> io::Result<()> {
        if p.link == file::NO_INTERFACE {
            let text = format!(
                "packet {}: its pcapng interface has no description block; skipped",
                p.number
            );
            return self.sink.report(Level::Error, &text);
        }
        let seg = match net::segment(p.link, p.data) {
            Ok(s) => s,
            Err(net::Skip::Other) => return Ok(()),
            Err(net::Skip::Link(l)) => {
                if self.links_said.insert(l) {
                    let text = format!(
                        "packet {}: {}; packets of this link type are skipped",
                        p.number,
                        net::Skip::Link(l)
                    );
                    self.sink.report(Level::Notice, &text)?;
                }
                return Ok(());
            }
            Err(skip @ net::Skip::Fragment { .. }) => {
                return self
                    .sink
                    .report(Level::Notice, &format!("packet {}: {skip}", p.number));
            }
            Err(skip) => {
                let cut = if (p.data.len() as u64) < u64::from(p.orig_len) {
                    format!(
                        " (the capture kept {} of its {} bytes)",
                        p.data.len(),
                        p.orig_len
                    )
                } else {
                    String::new()
                };
                return self.sink.report(
                    Level::Error,
                    &format!("packet {}: {skip}{cut}; skipped", p.number),
                );
            }
        };
        if !filter::matches(&self.opts.filter, &seg) {
            return Ok(());
        }
        self.summary.matched += 1;
        let r = match (seg.transport, seg.tcp) {
            (Transport::Tcp, Some(info)) => self.tcp(&p, &seg, info),
            _ => self.udp(&p, &seg),
        };
        match r {
            Err(Fail::Output(e)) => Err(e),
            _ => Ok(()),
        }
    }

    fn udp(&mut self, p: &Packet<'_>, seg: &net::Segment<'_>) -> Result<(), Fail<S::Failure>> {
        let at = Place(p.number, seg.transport, seg.src, seg.dst);
        let mut d = match self.datagrams.datagram(seg.payload) {
            Ok(d) => d,
            Err(e) => {
                let text = format!(
                    "{at}, byte {} of the payload: {}",
                    e.offset().unwrap_or(0),
                    what(&e)
                );
                self.sink.report(Level::Error, &text)?;
                return Ok(());
            }
        };
        // Kept in a buffer of the run: no allocation per packet.
        let mut fields = std::mem::take(&mut self.fields);
        fields.clear();
        fields.extend_from_slice(d.fields());
        let r = self.datagram(p, seg, &mut d, &fields);
        self.fields = fields;
        r
    }

    fn datagram(
        &mut self,
        p: &Packet<'_>,
        seg: &net::Segment<'_>,
        d: &mut Datagram<'_>,
        fields: &[Field],
    ) -> Result<(), Fail<S::Failure>> {
        let at = Place(p.number, seg.transport, seg.src, seg.dst);
        if let Some(&(_, seq)) = fields
            .iter()
            .find(|(n, _)| *n == sbe_framing::split::MSG_SEQ_NUM)
        {
            if let Some(prev) = self.last_seq_of((seg.src, seg.dst), seq) {
                if seq != prev.wrapping_add(1) {
                    let what = if seq > prev {
                        let n = seq - prev - 1;
                        format!("{n} packet{} missing", if n == 1 { "" } else { "s" })
                    } else {
                        "repeated or out of order".to_string()
                    };
                    let text = format!("{at}: sequence gap: msgSeqNum {seq} after {prev} ({what})");
                    self.sink.report(Level::Notice, &text)?;
                }
            }
        }
        while let Some(piece) = d.next_piece() {
            let piece = match piece {
                Ok(piece) => piece,
                Err(e) => {
                    let text = format!(
                        "{at}, byte {} of the payload: {}",
                        e.offset().unwrap_or(0),
                        what(&e)
                    );
                    self.sink.report(Level::Error, &text)?;
                    continue;
                }
            };
            let origin = Origin {
                packet: p.number,
                time: p.time,
                transport: seg.transport,
                src: seg.src,
                dst: seg.dst,
                fields,
                offset: piece.offset,
            };
            match self.sink.message(piece.bytes, &origin) {
                Ok(n) => d.consumed(n),
                Err(Fail::Message(e)) => {
                    let rest = match d.failed() {
                        Some(n) if n > 0 => {
                            format!(" (the rest of the datagram, {n} bytes, is skipped)")
                        }
                        _ => String::new(),
                    };
                    let text = format!("{}{rest}", origin.failure(&e));
                    self.sink.report(Level::Error, &text)?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn tcp(
        &mut self,
        p: &Packet<'_>,
        seg: &net::Segment<'_>,
        info: net::TcpInfo,
    ) -> Result<(), Fail<S::Failure>> {
        let at = Place(p.number, seg.transport, seg.src, seg.dst);
        let (framing, order) = (self.opts.framing, self.opts.order);
        let mut refused = None;
        let flow = self
            .flows
            .entry((seg.src, seg.dst))
            .or_insert_with(|| Flow {
                dir: tcp::Direction::default(),
                stream: StreamSplitter::new(&framing, order)
                    .map_err(|e| refused = Some(e))
                    .ok(),
                last_packet: 0,
            });
        flow.last_packet = p.number;
        if let Some(e) = refused {
            let text = format!("{at}: {e}; this TCP flow is skipped");
            self.sink.report(Level::Notice, &text)?;
        }
        let Some(stream) = flow.stream.as_mut() else {
            return Ok(());
        };
        let out = flow.dir.segment(info, seg.payload);
        if out.restart {
            let pending = stream.reset(0);
            if pending > 0 {
                let text = format!(
                    "{at}: a new connection (SYN) while {pending} bytes of a message were pending: they are dropped"
                );
                self.sink.report(Level::Error, &text)?;
            }
        }
        if let Some(old) = out.old {
            let (from, to) = (old.at, old.at + old.len as u64);
            let what = if out.data.is_empty() {
                "retransmission"
            } else {
                "overlap"
            };
            let (level, text) = match old.same {
                Some(true) => (
                    Level::Notice,
                    format!("{at}: {what} of stream bytes {from}..{to}, the same bytes: dropped"),
                ),
                Some(false) => (
                    Level::Error,
                    format!(
                        "{at}: {what} of stream bytes {from}..{to} with different bytes: \
                         the first copy is kept"
                    ),
                ),
                None => (
                    Level::Notice,
                    format!(
                        "{at}: {what} of stream bytes {from}..{to}, older than the bytes kept \
                         to compare: dropped unchecked"
                    ),
                ),
            };
            self.sink.report(level, &text)?;
        }
        if let Some(gap) = out.gap {
            let pending = stream.reset(out.at);
            let dropped = if pending > 0 {
                format!(", and the {pending} bytes of the message it cuts are dropped")
            } else {
                String::new()
            };
            let text = format!(
                "{at}: gap: {gap} bytes missing before byte {} of the stream{dropped}; \
                 decoding resumes with this segment",
                out.at
            );
            self.sink.report(Level::Error, &text)?;
        }
        if !out.data.is_empty() {
            stream.push(out.at, out.data);
            let content_sized = matches!(framing, Framing::Raw);
            loop {
                let piece = match stream.next_piece() {
                    None => break,
                    Some(Ok(piece)) => piece,
                    Some(Err(e)) => {
                        let rest = if e.is_recoverable() {
                            ""
                        } else {
                            "; the stream resumes with the next segment"
                        };
                        let text = format!(
                            "{at}, byte {} of the stream: {}{rest}",
                            e.offset().unwrap_or(0),
                            what(&e)
                        );
                        self.sink.report(Level::Error, &text)?;
                        continue;
                    }
                };
                let origin = Origin {
                    packet: p.number,
                    time: p.time,
                    transport: seg.transport,
                    src: seg.src,
                    dst: seg.dst,
                    fields: &[],
                    offset: piece.offset,
                };
                match self.sink.message(piece.bytes, &origin) {
                    Ok(n) => stream.consumed(n),
                    Err(Fail::Message(e)) if content_sized && e.truncated().is_some() => {
                        if let Err(big) = stream.wait(e.truncated().flatten()) {
                            let lost = stream.failed().unwrap_or(0);
                            let text = format!(
                                "{at}, byte {} of the stream: {} ({}); {lost} bytes dropped, \
                                 the stream resumes with the next segment",
                                e.offset(),
                                what(&big),
                                e.what()
                            );
                            self.sink.report(Level::Error, &text)?;
                        }
                        break;
                    }
                    Err(Fail::Message(e)) => {
                        let rest = match stream.failed() {
                            Some(n) => format!(
                                "; {n} bytes dropped, the stream resumes with the next segment"
                            ),
                            None => String::new(),
                        };
                        let text = format!("{}{rest}", origin.failure(&e));
                        self.sink.report(Level::Error, &text)?;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        if out.closed {
            let offset = stream.offset();
            let pending = stream.reset(0);
            if pending > 0 {
                let text = format!(
                    "{at}: the connection closes {pending} bytes into a message \
                     (at byte {offset} of the stream)"
                );
                self.sink.report(Level::Error, &text)?;
            }
        }
        Ok(())
    }
}
