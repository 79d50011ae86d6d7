//! Wireshark Lua dissectors generated from SBE (Simple Binary Encoding)
//! schemas: what `sbe dissector` writes, as a library.
//!
//! [`Dissector`] takes the schemas (read by `sbe-ir` into its IR), the
//! [`Framing`] messages travel in, the ports and the protocol's name, and
//! [`generate`](Dissector::generate)s one deterministic, readable Lua
//! file: a function per message and per group (comments naming the schema
//! elements), the framing's packets, frames and TCP reassembly, and a
//! ProtoField per item under the naming rule below. Load it with
//! `tshark -X lua_script:<file>` or from Wireshark's plugins folder; it
//! runs on Lua 5.2 (Wireshark 4.0) and 5.4.
//!
//! ```
//! use sbe_dissector::{Dissector, Framing};
//!
//! let xml = r#"<messageSchema package="demo" id="7">
//!   <types>
//!     <composite name="messageHeader">
//!       <type name="blockLength" primitiveType="uint16"/>
//!       <type name="templateId" primitiveType="uint16"/>
//!       <type name="schemaId" primitiveType="uint16"/>
//!       <type name="version" primitiveType="uint16"/>
//!     </composite>
//!   </types>
//!   <message name="Ping" id="1"><field name="seq" id="1" type="uint64"/></message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml)?;
//! let schemas = [schema];
//! let lua = Dissector::new(&schemas)
//!     .framing(Framing::Sofh)
//!     .tcp_ports([9000])
//!     .protocol("demo")
//!     .generate()?;
//! assert!(lua.contains("local function s1_Ping(tvb, t, b, ver, blen, lim)"));
//! assert!(lua.contains(r#"ProtoField.uint64("demo.seq", "seq", base.DEC)"#));
//! assert!(lua.contains(r#"local TCP_PORTS = "9000""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What the dissector shows
//!
//! It decodes as `sbe decode` does: each block by the block length on the
//! wire and the acting version, groups and var data, enums by name, sets
//! one flag per choice, optional nulls as null, constants, char arrays as
//! text, decimals as exact text and timestamps as absolute times (UTC)
//! from the IR's meaning facts. Several schemas are told apart by the
//! message header's schemaId. Bad input (an unknown template, a truncated
//! block, a count or length larger than the bytes left, a bad encoding
//! type or frame length) becomes an expert item, never a Lua error.
//!
//! It registers on the UDP and TCP ports given (Wireshark preferences
//! `<protocol>.udp_ports` and `<protocol>.tcp_ports`), heuristically (a
//! known schemaId and templateId) and under Decode As. A tree that is not
//! visible gets only the fields Wireshark references
//! (`TreeItem:referenced`).
//!
//! # Field names
//!
//! Every item's abbreviation (its display filter name) is
//! `<protocol>.<path>`, the protocol being [`Dissector::protocol`]
//! ([`DEFAULT_PROTOCOL`] unless set):
//!
//! - a block field, group or var data: its schema name, wherever it is
//!   (in any message, group or schema), so that `<protocol>.<name>`
//!   filters across messages;
//! - a composite member, set choice or group dimension member:
//!   `<parent path>.<name>`; a group's entries `<group>.entry`;
//! - the message header's members `header.<name>`, the message itself
//!   `message`;
//! - the framing's items `frame.length`, `frame.encodingType`,
//!   `packet.msgSeqNum` and `packet.sendingTime` (MDP3), `packet.header`
//!   (a custom packet framing).
//!
//! When one path would carry two kinds of value (another Wireshark type,
//! display name or enum table), the first in schema order (the schemas in
//! the order given) keeps it and each other kind gets `.<type name>`
//! appended (the schema's name of its type: `venue.px` a uint32,
//! `venue.px.PRICE` a decimal), then `_<schema id>` if that is taken too.
//! Characters Wireshark does not take in a field name (all but letters,
//! digits, `_`, `-` and `.`) become `_`.
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

mod blocks;
mod names;
mod values;

// The README's example compiles.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use std::fmt;

use sbe_framing::{Counts, Endian, Expect, Width};
use sbe_ir::ir::{ByteOrder, Presence, Schema, TypeKind};

use names::{Decl, Fields};
use values::{member_val, read_slot};

/// How messages are framed: `sbe_framing::Framing`, here so that a
/// user needs no other crate to name one.
pub use sbe_framing::Framing;

/// The protocol's name when [`Dissector::protocol`] is not called: `sbe`.
pub const DEFAULT_PROTOCOL: &str = "sbe";

/// A dissector to generate: the schemas, the framing, the ports and the
/// protocol's name. Built with [`Dissector::new`] and the setters, then
/// [`generate`](Dissector::generate)d.
///
/// ```
/// # let xml = r#"<messageSchema package="p" id="1"><types><composite name="messageHeader">
/// #   <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
/// #   <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
/// # </composite></types><message name="M" id="1"/></messageSchema>"#;
/// # let schemas = [sbe_ir::ir::load_str("p.xml", xml)?];
/// use sbe_dissector::{Dissector, Framing};
///
/// let lua = Dissector::new(&schemas)
///     .framing(Framing::Mdp3)
///     .udp_ports([14310])
///     .protocol("mdp3")
///     .generate()?;
/// assert!(lua.contains(r#"local proto = Proto("mdp3", "SBE (mdp3)")"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "a Dissector does nothing until generated"]
pub struct Dissector<'a> {
    schemas: &'a [Schema],
    protocol: String,
    framing: Framing,
    udp_ports: Vec<u16>,
    tcp_ports: Vec<u16>,
}

impl<'a> Dissector<'a> {
    /// A dissector of `schemas` (several told apart by the schemaId in
    /// the message header, in the order given when naming fields):
    /// [`Framing::Raw`], no ports, protocol [`DEFAULT_PROTOCOL`].
    pub fn new(schemas: &'a [Schema]) -> Self {
        Dissector {
            schemas,
            protocol: DEFAULT_PROTOCOL.to_string(),
            framing: Framing::Raw,
            udp_ports: Vec::new(),
            tcp_ports: Vec::new(),
        }
    }

    /// How messages are framed: each UDP datagram is a packet of the
    /// framing; over TCP (a stream framing) frames are reassembled across
    /// segments.
    pub fn framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    /// The UDP ports to register on (a Wireshark preference), replacing
    /// any set before.
    pub fn udp_ports(mut self, ports: impl IntoIterator<Item = u16>) -> Self {
        self.udp_ports = ports.into_iter().collect();
        self
    }

    /// The TCP ports to register on (a Wireshark preference), replacing
    /// any set before. A packet framing takes none: see
    /// [`Error::PacketOverTcp`].
    pub fn tcp_ports(mut self, ports: impl IntoIterator<Item = u16>) -> Self {
        self.tcp_ports = ports.into_iter().collect();
        self
    }

    /// The protocol's name: Wireshark's protocol and the prefix of every
    /// field's filter name (`<name>.<path>`), upper-cased in the Protocol
    /// column. Lower-case ASCII letters, digits and `_`, a letter first
    /// (else [`Error::ProtocolName`]).
    pub fn protocol(mut self, name: impl Into<String>) -> Self {
        self.protocol = name.into();
        self
    }

    /// The Lua text of the dissector.
    ///
    /// # Errors
    ///
    /// [`Error::ProtocolName`] for a protocol name Wireshark does not
    /// take, [`Error::NoSchema`] without a schema, and
    /// [`Error::PacketOverTcp`] for TCP ports with a packet framing.
    pub fn generate(&self) -> Result<String, Error> {
        generate(self)
    }
}

/// Why no dissector could be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The protocol name (held here) is not a Wireshark filter name:
    /// lower-case ASCII letters, digits and `_`, a letter first.
    ProtocolName(String),
    /// TCP ports with a packet framing, which only datagrams carry.
    PacketOverTcp,
    /// No schema was given.
    NoSchema,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ProtocolName(p) => write!(
                f,
                "protocol name {p:?}: use lower-case letters, digits and _, a letter first"
            ),
            Error::PacketOverTcp => f.write_str(
                "a packet framing (a header per datagram) is carried by UDP only: no TCP ports",
            ),
            Error::NoSchema => f.write_str("no schema given"),
        }
    }
}

impl std::error::Error for Error {}

/// Lua text with indentation.
#[derive(Default)]
pub(crate) struct Lua {
    out: String,
    depth: usize,
}

impl Lua {
    /// Each line of `s`, indented.
    fn line(&mut self, s: &str) {
        for l in s.lines() {
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
            self.out.push_str(l);
            self.out.push('\n');
        }
    }

    /// A line opening a block.
    fn open(&mut self, s: &str) {
        self.line(s);
        self.depth += 1;
    }

    /// A line closing a block.
    fn close(&mut self, s: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.line(s);
    }
}

/// The schema being generated.
pub(crate) struct Sch<'a> {
    schema: &'a Schema,
    /// Its id.
    id: u32,
    /// Little-endian.
    le: bool,
    /// Prefix of its Lua functions: `s1`, `s2`, ... in command-line order.
    tag: String,
}

/// The generator's state: the fields declared, the 64-bit constants.
pub(crate) struct Gen {
    proto: String,
    fields: Fields,
    constants: Vec<String>,
    /// The field [`Gen::decl`] declared last.
    last: usize,
    /// The blocks being generated, outermost first, each by a number of
    /// its own: where a field decimal's exponent field is (`EXP` in the
    /// prelude holds the exponents as they are read).
    exp_blocks: Vec<usize>,
    exp_next: usize,
}

impl Gen {
    /// The Lua name of the 64-bit constant `v` of type `kind` (`UInt64`
    /// or `Int64`), declared once.
    fn constant(&mut self, kind: &str, v: i128) -> String {
        // Two's complement: the bits of the value as the wire holds them.
        let bits = v as u64;
        let decl = format!("{kind}.fromhex(\"{bits:016x}\")");
        let n = match self.constants.iter().position(|c| *c == decl) {
            Some(i) => i + 1,
            None => {
                self.constants.push(decl);
                self.constants.len()
            }
        };
        format!("K[{n}]")
    }

    fn fixed(&mut self, path: &str, ctor: &str, name: &str, rest: &str) -> usize {
        let proto = self.proto.clone();
        self.fields.field(
            &proto,
            &Decl {
                path,
                type_name: ctor,
                schema_id: 0,
                ctor,
                name,
                rest: rest.into(),
            },
        )
    }
}

/// The experts, in declaration order: key, summary, group, severity.
const EXPERTS: &[(&str, &str, &str, &str)] = &[
    (
        "unknown_template",
        "Unknown template id",
        "UNDECODED",
        "WARN",
    ),
    ("unknown_schema", "Unknown schema id", "UNDECODED", "WARN"),
    (
        "truncated",
        "Truncated: fewer bytes than needed",
        "MALFORMED",
        "ERROR",
    ),
    (
        "count",
        "Count or length larger than allowed or than the bytes left",
        "MALFORMED",
        "ERROR",
    ),
    (
        "short_block",
        "Block length shorter than the fields need",
        "MALFORMED",
        "ERROR",
    ),
    ("encoding", "Unexpected encoding type", "PROTOCOL", "ERROR"),
    ("framing", "Bad frame length", "MALFORMED", "ERROR"),
    ("bug", "Dissector error", "UNDECODED", "ERROR"),
];

/// The encoding types a frame may carry, for schemas of byte orders
/// `orders` (as `sbe decode` expects them: SOFH's by the byte order);
/// `None` for any.
fn accepted(f: &Framing, orders: &[Endian]) -> Option<Vec<u16>> {
    let mut values = Vec::new();
    for &order in orders {
        match f.expected_encoding(order)? {
            Expect::Any => return None,
            Expect::Value(v) => values.push(v),
            Expect::Either(a, b) => values.extend([a, b]),
        }
    }
    values.sort_unstable();
    values.dedup();
    Some(values)
}

/// Lua `HINTS`: with `raw`, the preset framings
/// (`sbe_framing::guess::PRESETS`) an unknown schema id is checked
/// against, each as `FR` describes a framing, with its name and words
/// (`sbe_framing::guess::preset_words`); empty with any other framing,
/// whose frames say where messages start.
fn hints(f: &Framing, orders: &[Endian]) -> String {
    let mut out = String::from("-- With raw: the preset framings a message of an unknown schema id may be in.\nlocal HINTS = {\n");
    if *f == Framing::Raw {
        for preset in sbe_framing::guess::PRESETS {
            let (Some(ff), Some(words)) = (
                preset.frame_format(),
                sbe_framing::guess::preset_words(&preset),
            ) else {
                continue;
            };
            let mut h = vec![
                format!("name = {:?}", preset.to_string()),
                format!("words = {words:?}"),
                format!(
                    "packet = {}",
                    preset.packet_format().map_or(0, |p| p.header_len)
                ),
                format!("prefix = {}", ff.prefix_len),
                format!("len_off = {}", ff.length.offset),
                format!("len_w = {}", ff.length.width.bytes()),
                format!("len_le = {}", ff.length.order == Endian::Little),
                format!("counts_message = {}", ff.counts == Counts::Message),
                format!("align = {}", ff.align),
                format!("header = {}", ff.header_len()),
                format!("min = {}", ff.min_frame_len()),
            ];
            if let Some(enc) = ff.encoding {
                h.push(format!("enc_off = {}", enc.offset));
                h.push(format!("enc_le = {}", enc.order == Endian::Little));
                if let Some(values) = accepted(&preset, orders) {
                    let entries: Vec<String> = values
                        .iter()
                        .map(|v| format!("[{v:#06x}] = true"))
                        .collect();
                    h.push(format!("enc_ok = {{ {} }}", entries.join(", ")));
                }
            }
            out.push_str(&format!("  {{ {} }},\n", h.join(", ")));
        }
    }
    out.push_str("}\n");
    out
}

/// Whether `p` can name a Wireshark protocol (and filter prefix).
fn valid_proto(p: &str) -> bool {
    let mut chars = p.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The Lua dissector `options` describes.
fn generate(options: &Dissector<'_>) -> Result<String, Error> {
    let schemas = options.schemas;
    if !valid_proto(&options.protocol) {
        return Err(Error::ProtocolName(options.protocol.clone()));
    }
    if schemas.is_empty() {
        return Err(Error::NoSchema);
    }
    if options.framing.is_packet() && !options.tcp_ports.is_empty() {
        return Err(Error::PacketOverTcp);
    }
    let mut g = Gen {
        proto: options.protocol.clone(),
        fields: Fields::default(),
        constants: Vec::new(),
        last: 0,
        exp_blocks: Vec::new(),
        exp_next: 0,
    };
    let orders: Vec<Endian> = schemas
        .iter()
        .map(|s| match s.byte_order {
            ByteOrder::Little => Endian::Little,
            ByteOrder::Big => Endian::Big,
        })
        .collect();
    let framing = g.framing(&options.framing, &orders);
    let mut body = String::new();
    let mut list = Vec::new();
    for (i, schema) in schemas.iter().enumerate() {
        let s = Sch {
            schema,
            id: schema.id,
            le: schema.byte_order == ByteOrder::Little,
            tag: format!("s{}", i + 1),
        };
        body.push_str(&g.schema(&s));
        list.push(format!(
            "{{ is = {0}_is, known = {0}_known, dissect = {0}_dissect }}",
            s.tag
        ));
    }
    let mut out = preamble(schemas, options);
    out.push_str(&experts(&options.protocol));
    out.push_str(&g.fields.lua());
    out.push_str("local K = {}\n");
    for (i, c) in g.constants.iter().enumerate() {
        out.push_str(&format!("K[{}] = {c}\n", i + 1));
    }
    out.push('\n');
    out.push_str(include_str!("prelude.lua"));
    out.push('\n');
    out.push_str(&framing);
    out.push('\n');
    out.push_str(&body);
    out.push_str(&format!(
        "local SCHEMAS = {{\n  {}\n}}\n",
        list.join(",\n  ")
    ));
    out.push_str(&g.schema_id_text(schemas));
    out.push('\n');
    out.push_str(include_str!("framing.lua"));
    out.push_str("\nproto.fields = all_fields\n");
    Ok(lua_escapes(&out))
}

/// `text` with the `\u{..}` escapes of Rust's string quoting (which Lua
/// 5.2 lacks) made the decimal byte escapes of the character's UTF-8.
fn lua_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u{") {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let tail = after.get(3..).unwrap_or_default();
        let end = tail.find('}').unwrap_or(0);
        let c = u32::from_str_radix(tail.get(..end).unwrap_or_default(), 16)
            .ok()
            .and_then(char::from_u32);
        match c {
            Some(c) => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:03}"));
                }
                rest = tail.get(end + 1..).unwrap_or_default();
            }
            None => {
                out.push_str("\\u");
                rest = after.get(2..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

/// The file's head: what made it, the protocol, its column name and ports.
fn preamble(schemas: &[Schema], options: &Dissector<'_>) -> String {
    let mut out = String::from(
        "-- Wireshark dissector generated by `sbe dissector` from the schemas below;\n\
         -- regenerate rather than edit. Load it with `-X lua_script:<file>` or from\n\
         -- the plugins folder. Runs on Lua 5.2 (Wireshark 4.0) and 5.4.\n",
    );
    for s in schemas {
        let file = s
            .files
            .first()
            .and_then(|f| f.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push_str(&format!(
            "--   {file}: package {:?}, schema id {}, version {}\n",
            s.package, s.id, s.version
        ));
    }
    out.push_str(&format!("--   framing: {}\n\n", options.framing));
    let p = &options.protocol;
    out.push_str(&format!(
        "local proto = Proto({p:?}, \"SBE ({p})\")\nlocal PROTO_COLUMN = {:?}\n",
        p.to_uppercase()
    ));
    let ports = |v: &[u16]| v.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
    out.push_str(&format!(
        "local UDP_PORTS = {:?}\nlocal TCP_PORTS = {:?}\n\n",
        ports(&options.udp_ports),
        ports(&options.tcp_ports)
    ));
    out
}

fn experts(proto: &str) -> String {
    let mut out = String::from("local E = {}\n");
    for (key, summary, group, severity) in EXPERTS {
        out.push_str(&format!(
            "E.{key} = ProtoExpert.new(\"{proto}.{key}\", {summary:?}, expert.group.{group}, expert.severity.{severity})\n"
        ));
    }
    let keys: Vec<String> = EXPERTS.iter().map(|e| format!("E.{}", e.0)).collect();
    out.push_str(&format!("proto.experts = {{ {} }}\n\n", keys.join(", ")));
    out
}

impl Gen {
    /// The framing's fields and its Lua table `FR`, and the packet header.
    fn framing(&mut self, f: &Framing, orders: &[Endian]) -> String {
        let mut out = String::from("-- The framing.\nlocal FR = {\n");
        let mut field = |k: &str, v: String| out.push_str(&format!("  {k} = {v},\n"));
        field("stream", (!f.is_packet()).to_string());
        if let Some(p) = f.packet_format() {
            field("packet", p.header_len.to_string());
        }
        let msg = self.fixed("message", "string", "SBE message", "");
        let hdr = self.fixed("header", "none", "message header", "");
        let mut extra = format!("local F_MESSAGE, F_HEADER = {msg}, {hdr}\n");
        match f.frame_format() {
            None => field("framed", "false".into()),
            Some(ff) => {
                let width = match ff.length.width {
                    Width::U16 => "uint16",
                    Width::U32 => "uint32",
                };
                let fl = self.fixed("frame.length", width, "frame length", "base.DEC");
                field("framed", "true".into());
                field("prefix", ff.prefix_len.to_string());
                field("len_off", ff.length.offset.to_string());
                field("len_w", ff.length.width.bytes().to_string());
                field("len_le", (ff.length.order == Endian::Little).to_string());
                field("counts_message", (ff.counts == Counts::Message).to_string());
                field("align", ff.align.to_string());
                field("header", ff.header_len().to_string());
                field("min", ff.min_frame_len().to_string());
                field("f_len", fl.to_string());
                if let Some(enc) = ff.encoding {
                    let fe =
                        self.fixed("frame.encodingType", "uint16", "encoding type", "base.HEX");
                    field("enc_off", enc.offset.to_string());
                    field("enc_le", (enc.order == Endian::Little).to_string());
                    field("f_enc", fe.to_string());
                    let ok = accepted(f, orders).map(|values| {
                        let entries: Vec<String> = values
                            .iter()
                            .map(|v| format!("[{v:#06x}] = true"))
                            .collect();
                        format!("{{ {} }}", entries.join(", "))
                    });
                    if let Some(ok) = ok {
                        field("enc_ok", ok);
                    }
                }
            }
        }
        out.push_str("}\n");
        out.push_str(&extra);
        extra.clear();
        out.push_str(&hints(f, orders));
        out.push_str(&self.packet_header(f));
        out
    }

    /// Lua `packet_header`: MDP3's sequence number and sending time, a
    /// custom packet header's bytes.
    fn packet_header(&mut self, f: &Framing) -> String {
        let mut w = Lua::default();
        w.line("-- The packet header under root; what the Info column starts with.");
        w.open("local function packet_header(tvb, root)");
        match f {
            Framing::Mdp3 => {
                let h = self.fixed("packet", "none", "MDP3 packet header", "");
                let seq = self.fixed("packet.msgSeqNum", "uint32", "msgSeqNum", "base.DEC");
                let time = self.fixed(
                    "packet.sendingTime",
                    "absolute_time",
                    "sendingTime",
                    "base.UTC",
                );
                w.line("local h = root");
                w.line(&format!(
                    "if W[{h}] then h = ADD(root, F[{h}], RANGE(tvb, 0, FR.packet)) end"
                ));
                w.line(&format!(
                    "if W[{seq}] then ADD_LE(h, F[{seq}], RANGE(tvb, 0, 4)) end"
                ));
                w.line(&format!(
                    "if W[{time}] then time_item(h, F[{time}], RANGE(tvb, 4, 8), tvb(4, 8):le_uint64(), 1, false, \"sendingTime\") end"
                ));
                w.line("return \"seq \" .. int(u32le(0))");
            }
            _ => {
                let h = self.fixed("packet.header", "bytes", "packet header", "");
                w.line(&format!(
                    "if W[{h}] then ADD(root, F[{h}], RANGE(tvb, 0, FR.packet)) end"
                ));
                w.line("return nil");
            }
        }
        w.close("end");
        w.out
    }

    /// Lua `SCHEMA_ID_TEXT`: the schema id a message's header names, as
    /// the first schema's header reads it; and `MIN_HEADER`.
    fn schema_id_text(&mut self, schemas: &[Schema]) -> String {
        let min = schemas.iter().map(|s| s.header().len).min().unwrap_or(0);
        let first = schemas.first().and_then(|s| s.header().schema_id);
        let read = first.map_or("\"?\"".into(), |u| {
            format!("tostring({})", read_slot(u, "o"))
        });
        format!(
            "local MIN_HEADER = {min}\nlocal function SCHEMA_ID_TEXT(tvb, o)\n  if tvb:len() - o < MIN_HEADER then return \"?\" end\n  return {read}\nend\n"
        )
    }

    /// The Lua of one schema: its message and group functions, its
    /// template table and header reader.
    fn schema(&mut self, s: &Sch) -> String {
        let schema = s.schema;
        let mut out = format!(
            "-- schema {:?} (id {}, version {})\n",
            schema.package, schema.id, schema.version
        );
        let mut table = Vec::new();
        for m in &schema.messages {
            let mut fns = Vec::new();
            let f = self.message(s, m, &mut fns);
            for x in fns {
                out.push_str(&x);
                out.push('\n');
            }
            out.push_str(&f);
            out.push('\n');
            table.push(format!(
                "[{}] = {{ {}_{}, {:?} }}",
                m.id, s.tag, m.name, m.name
            ));
        }
        out.push_str(&format!(
            "local {}_T = {{\n  {}\n}}\n",
            s.tag,
            table.join(",\n  ")
        ));
        out.push_str(&self.header(s));
        out
    }

    /// `<tag>_is`, `<tag>_known` and `<tag>_dissect`: the header, then
    /// the message it names.
    fn header(&mut self, s: &Sch) -> String {
        let h = s.schema.header();
        let slot = |u: Option<sbe_rt::wire::Uint>, absent: &str| {
            u.map_or(absent.to_string(), |u| read_slot(u, "o"))
        };
        let len = h.len;
        // As sbe decode: only a schema id on the wire is checked.
        let sid = match h.schema_id {
            Some(u) if u.offset().is_some() => format!("{} == {}", read_slot(u, "o"), s.id),
            _ => "true".into(),
        };
        let tid = slot(h.template_id, "0");
        let ver = slot(h.version, &s.schema.version.to_string());
        let blen = slot(h.block_length, "nil");
        let tag = &s.tag;
        let mut w = Lua::default();
        w.open(&format!("local function {tag}_is(tvb, o, lim)"));
        w.line(&format!("return lim - o >= {len} and {sid}"));
        w.close("end");
        w.open(&format!("local function {tag}_known(tvb, o, lim)"));
        w.line(&format!(
            "return lim - o >= {len} and {tag}_T[{tid}] ~= nil"
        ));
        w.close("end");
        w.line(&format!(
            "-- a message of schema {}: its header, then its body",
            s.id
        ));
        w.open(&format!("local function {tag}_dissect(tvb, t, o, lim)"));
        w.line(&format!(
            "if lim - o < {len} then return bad(t, E.truncated, \"message header: {len} bytes needed, \" .. (lim - o) .. \" left\") end"
        ));
        w.line(&format!("local tid, ver, blen = {tid}, {ver}, {blen}"));
        w.line(&format!("local entry = {tag}_T[tid]"));
        w.line("local name = entry and entry[2] or (\"unknown template \" .. int(tid))");
        // An item not wanted is its parent (see the prelude's `W`).
        w.line("local m = t");
        w.open("if W[F_MESSAGE] then");
        w.line("m = ADD(t, F[F_MESSAGE], RANGE(tvb, o, lim - o), name)");
        w.line(&format!(
            "SET_TEXT(m, name .. \" (templateId \" .. int(tid) .. \", schema {}, version \" .. int(ver) .. \")\")",
            s.id
        ));
        w.close("end");
        w.line("local c = m");
        w.line(&format!(
            "if W[F_HEADER] then c = ADD(m, F[F_HEADER], RANGE(tvb, o, {len})) end"
        ));
        if let TypeKind::Composite(c) = &s.schema.header_type.kind {
            for m in &c.members {
                let mut v = member_val("header", m);
                if v.presence == Presence::Optional {
                    // A header member shows what it holds.
                    v.presence = Presence::Required;
                }
                self.value(s, &mut w, &v, "c", &values::plus("o", m.offset));
            }
        }
        w.line(&format!(
            "if not entry then return bad(m, E.unknown_template, \"unknown template id \" .. tid .. \" in schema {}\") end",
            s.id
        ));
        w.line(&format!(
            "local e = entry[1](tvb, m, o + {len}, ver, blen, lim)"
        ));
        w.line("if e and m ~= t then SET_LEN(m, e - o) end");
        w.line("return e, name");
        w.close("end");
        w.out
    }
}
