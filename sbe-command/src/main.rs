//! `sbe`: look into, check, decode and encode SBE messages with nothing but
//! their schema.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// First: its `say!` is for every module after it.
#[macro_use]
mod say;
mod capture_json;
mod columnar;
mod hint;
mod pick;
mod reading;

use pick::{template_ids, Enough, Pick};
use reading::{endian, fail, Fail, Undecoded};
use sbe_capture::{self as capture, Level, Origin, Term};
use sbe_framing::guess::Carrier;
use sbe_framing::split::FrameReader;
use sbe_framing::Framing;
use sbe_ir::ir::Schema;
use sbe_otf::multi::{Entry, MultiError, Schemas};
use sbe_otf::Codec;

/// Decode, encode, inspect and check SBE (Simple Binary Encoding) data
/// from its XML schema alone.
#[derive(Parser)]
#[command(name = "sbe", version, about)]
struct Cli {
    /// Let schemas xi:include files outside their own folder (absolute
    /// paths, `..`, file: URLs); refused by default, so that a schema from
    /// elsewhere reads nothing but its folder.
    #[arg(long, global = true)]
    allow_includes_outside: bool,
    /// Declare what a type means where the schema does not say, for every
    /// schema loaded: TYPE=timestamp:UNIT, TYPE=timeofday:UNIT (UNIT s,
    /// ms, us or ns) or TYPE=date; repeat it, or separate items with
    /// commas. Binance: --meaning utcTimestampUs=timestamp:us
    #[arg(long = "meaning", global = true, value_name = "TYPE=KIND", value_parser = parse_meanings)]
    declared: Vec<sbe_ir::ir::DeclaredMeanings>,
    #[command(subcommand)]
    command: Command,
}

/// Where schemas may `xi:include` from, as `--allow-includes-outside` says
/// (set once in `main`, read by every command that loads a schema).
static INCLUDES: std::sync::OnceLock<sbe_ir::ir::IncludePolicy> = std::sync::OnceLock::new();

fn include_policy() -> sbe_ir::ir::IncludePolicy {
    INCLUDES.get().copied().unwrap_or_default()
}

/// What types mean where the schemas do not say, as `--meaning` declares
/// (set once in `main`, read by every command that loads a schema).
static MEANINGS: std::sync::OnceLock<sbe_ir::ir::DeclaredMeanings> = std::sync::OnceLock::new();

fn parse_meanings(s: &str) -> Result<sbe_ir::ir::DeclaredMeanings, String> {
    s.parse()
}

/// How every schema loads: `--allow-includes-outside` and `--meaning`.
fn load_options() -> sbe_ir::ir::LoadOptions {
    let meanings = MEANINGS.get().cloned().unwrap_or_default();
    sbe_ir::ir::LoadOptions::new()
        .includes(include_policy())
        .meanings(meanings)
}

/// How `sbe decode` writes values (`sbe_otf::semantic::Values`).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ValuesArg {
    /// FORMAT.md's JSON, byte for byte.
    Wire,
    /// Decimals as exact decimal strings ("123.45"), timestamps as RFC
    /// 3339 UTC with nanoseconds, dates as "YYYY-MM-DD", MonthYears as
    /// "YYYYMM", "YYYYMMDD" or "YYYYMMwN"; everything else as wire.
    Semantic,
}

impl From<ValuesArg> for sbe_otf::semantic::Values {
    fn from(v: ValuesArg) -> Self {
        match v {
            ValuesArg::Wire => Self::Wire,
            ValuesArg::Semantic => Self::Semantic,
        }
    }
}

/// A check that is on or off.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Switch {
    On,
    Off,
}

#[derive(Subcommand)]
enum Command {
    /// Print the schema's computed layout (offsets, lengths, versions) as JSON.
    #[command(
        after_help = "Example:\n  sbe layout --schema schemas/car.xml > car.layout.json\n  sbe layout --schema schemas/car.xml --meanings"
    )]
    Layout {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
        /// Add each field's and var data's meaning (plain, decimal,
        /// timestamp, date, monthYear, text, with its parts) as a
        /// `meaning` object after the reference's keys.
        #[arg(long)]
        meanings: bool,
    },
    /// Check a schema: exit 0, or print every error with file:line:col and exit 1.
    #[command(after_help = "Example:\n  sbe validate --schema schemas/car.xml && echo valid")]
    Validate {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
    },
    /// Decode messages to JSON, one object per line.
    #[command(after_help = decode_help())]
    Decode {
        /// The schema (XML). Repeat it to decode each message with the
        /// schema whose id its header's schemaId names.
        #[arg(long, required = true, value_name = "SCHEMA")]
        schema: Vec<PathBuf>,
        /// How messages follow one another: raw (back to back), sofh, sofh-le, mdp3
        /// (captures only: a packet framing), or a custom form (see below).
        #[arg(long, default_value = "raw", value_parser = parse_framing)]
        framing: Framing,
        /// Skip this many bytes (a file header) before the first message (not with a capture).
        #[arg(long, default_value_t = 0)]
        skip: u64,
        /// Print only messages with these template ids (repeat the option or separate ids by commas).
        #[arg(long = "template", value_delimiter = ',', value_name = "ID")]
        templates: Vec<u64>,
        /// Print only messages of these names (repeat the option or separate names by commas).
        #[arg(long = "message", value_delimiter = ',', value_name = "NAME")]
        messages: Vec<String>,
        /// Stop after this many messages printed (JSON lines output).
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// After a bad message go on at the next frame, where the framing allows it
        /// (a capture always goes on with the next packet).
        #[arg(long)]
        keep_going: bool,
        /// Refuse messages whose header names another schema id (on, as
        /// generated decoders do), or decode them all the same (off: for a
        /// capture whose schema id is known to be wrong; one --schema only).
        #[arg(long, value_enum, default_value = "on", value_name = "on|off")]
        schema_id_check: Switch,
        /// How values are written: wire (FORMAT.md's JSON) or semantic (decimals,
        /// timestamps, dates and MonthYears as text; `sbe encode` reads both).
        #[arg(long, value_enum, default_value = "wire")]
        values: ValuesArg,
        /// Captures: decode only the datagrams and segments that match (repeat: all must
        /// match): udp, tcp, port=N (or N,N,...), host=IP, IP:PORT, src=IP or src=IP:PORT, dst=... alike.
        #[arg(long = "filter", value_name = "TERM", value_parser = parse_filter)]
        filters: Vec<Term>,
        #[command(flatten)]
        columnar: columnar::Args,
        /// The input files (SBE bytes, or pcap/pcapng captures), or - for standard input.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// Encode JSON messages (as `decode` prints them) to bytes on standard output.
    #[command(after_help = "Examples:\n  \
        sbe encode --schema schemas/car.xml cars.jsonl > cars.bin\n  \
        echo '{\"message\":\"Car\",\"body\":{...}}' | sbe encode --schema schemas/car.xml --framing sofh - > car.sofh\n\n\
        The \"header\" object may be left out: it is filled in. Optional fields may be left out (null).")]
    Encode {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
        /// How to frame the messages: raw (back to back), sofh, sofh-le, or a custom
        /// stream form (len=..., see `sbe decode --help`).
        #[arg(long, default_value = "raw", value_parser = parse_framing)]
        framing: Framing,
        /// After a bad message go on with the next one (it is not written).
        #[arg(long)]
        keep_going: bool,
        /// The input file (JSON objects, one per line or pretty-printed), or - for standard input.
        input: String,
    },
    /// Write the Rust code build.rs would generate for the schema into the --out folder.
    #[command(
        after_help = "Example:\n  sbe generate --schema schemas/car.xml --out src/generated\n\n\
        Writes <stem>.rs into the --out folder (the stem: the schema's package in lower case,\n\
        every character but a letter or digit made _), the same file sbe_build::compile\n\
        writes to OUT_DIR; the file is rewritten only when it changed."
    )]
    Generate {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
        /// The folder to write into (created when missing).
        #[arg(long)]
        out: PathBuf,
    },
    /// Is NEW a safe evolution of OLD? Exit 0, or print what breaks and exit 1.
    #[command(
        after_help = "Example:\n  sbe compat --old schemas/v1/car.xml --new schemas/car.xml\n\n\
        Checks the SBE extension rules: old fields keep their offsets and types, new fields,\n\
        groups and var data come after the old ones with a sinceVersion above the old version,\n\
        enums and sets only gain values, the header and byte order stay."
    )]
    Compat {
        /// The schema as deployed today.
        #[arg(long)]
        old: PathBuf,
        /// The schema to deploy.
        #[arg(long)]
        new: PathBuf,
    },
    /// Write a Wireshark Lua dissector of the schemas, for the framing.
    #[command(after_help = DISSECTOR_HELP)]
    Dissector {
        /// The schema (XML); repeat it for several (chosen by the header's schemaId).
        #[arg(long, required = true, value_name = "SCHEMA")]
        schema: Vec<PathBuf>,
        /// How messages are framed: raw, sofh, sofh-le, mdp3, or a custom form
        /// (as for decode).
        #[arg(long, default_value = "raw", value_parser = parse_framing)]
        framing: Framing,
        /// A UDP port of the feed (repeat it); a preference in Wireshark.
        #[arg(long = "udp-port", value_name = "PORT")]
        udp_ports: Vec<u16>,
        /// A TCP port of the sessions (repeat it); a preference in Wireshark.
        #[arg(long = "tcp-port", value_name = "PORT")]
        tcp_ports: Vec<u16>,
        /// The protocol's name: the filter prefix of every field.
        #[arg(long, default_value = sbe_dissector::DEFAULT_PROTOCOL, value_name = "NAME")]
        proto: String,
        /// The file to write (standard output when not given).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Print an annotated hex dump: offset, bytes, field path and value of every field.
    #[command(after_help = "Examples:\n  \
        sbe inspect --schema schemas/car.xml car.bin | less\n  \
        sbe inspect --schema md.xml --filter port=14310 capture.pcap\n\n\
        A pcap or pcapng capture is read as by `sbe decode` (see its --help): each packet's\n\
        messages follow a line naming the packet.")]
    Inspect {
        /// The schema (XML); repeat it for several (dispatched on the header's schemaId).
        #[arg(long, required = true, value_name = "SCHEMA")]
        schema: Vec<PathBuf>,
        /// How messages follow one another: raw, sofh, sofh-le, mdp3 (captures only),
        /// or a custom form (as for decode).
        #[arg(long, default_value = "raw", value_parser = parse_framing)]
        framing: Framing,
        /// Skip this many bytes (a file header) before the first message (not with a capture).
        #[arg(long, default_value_t = 0)]
        skip: u64,
        /// Print only messages with these template ids (repeat the option or separate ids by commas).
        #[arg(long = "template", value_delimiter = ',', value_name = "ID")]
        templates: Vec<u64>,
        /// Print only messages of these names (repeat the option or separate names by commas).
        #[arg(long = "message", value_delimiter = ',', value_name = "NAME")]
        messages: Vec<String>,
        /// Stop after this many messages printed.
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// Captures: inspect only what matches (as for decode).
        #[arg(long = "filter", value_name = "TERM", value_parser = parse_filter)]
        filters: Vec<Term>,
        /// The input file (SBE bytes, or a pcap/pcapng capture), or - for standard input.
        input: String,
    },
}

const DECODE_HELP: &str = "Examples:
  sbe decode --schema schemas/car.xml cars.bin
  sbe decode --schema fix.xml --framing sofh --template 99,98 --keep-going capture.bin | jq .body
  cat cars.bin | sbe decode --schema schemas/car.xml -

Captures (pcap or pcapng, told by their magic), one per framing shape:
  sbe decode --schema mdp3.xml --framing mdp3 --filter udp cme-md.pcap         # CME MDP3 over UDP
  sbe decode --schema ilinkbinary.xml --framing sofh-le --filter port=9000 ilink3.pcapng
                                                            # iLink 3 / B3 EntryPoint over TCP
  sbe decode --schema fix.xml --framing sofh --filter 10.0.0.1:9000 session.pcap   # SOFH
  sbe decode --schema venue.xml --framing len=u32be,counts=message feed.pcap       # custom
  sbe decode --schema venue.xml --framing packet=16,len=u16be feed.pcap
                                          # 16-byte packet header, u16 BE length counting itself
  sbe decode --schema venue.xml --framing packet=24,len=u32le,counts=message,enc=u16le feed.pcap
                                          # 24-byte packet header, u32 LE length, encoding type
  sbe decode --schema venue.xml --framing len=u16le@0,prefix=0,align=8 orders.pcap
                                          # the length inside the SBE header, frames padded to 8
  sbe decode --schema schemas/car.xml cars.pcap                 # raw: messages back to back
  sbe decode --schema mktdata.xml --schema session.xml --framing sofh-le replay.pcap

  Link types: Ethernet (802.1Q VLAN tags), Linux cooked (SLL, SLL2), raw IP, loopback;
  IPv4 and IPv6. Each UDP datagram's payload is framed as a packet; each TCP direction
  (src ip:port -> dst ip:port) is reassembled in sequence order and framed as a stream
  (mdp3, a packet framing, skips TCP). A gap (decoding resumes with the next segment),
  an overlap or a retransmission (the same bytes are dropped) is reported on stderr with
  its packet number, as is an mdp3 msgSeqNum that is not the flow's previous + 1; IP
  fragments are skipped. Each line gains a \"frame\" object: packet (1-based, as
  Wireshark numbers them; for TCP the packet that completes the message), time (capture
  time, RFC 3339 UTC with nanoseconds), transport, src, dst, the packet header's fields
  (mdp3: msgSeqNum, sendingTime), and offset (of the message in the UDP payload or the
  TCP stream). A bad message is reported and decoding goes on with the next packet or
  frame; the exit code is then 1 (retransmissions and sequence gaps keep it 0).
  --filter (repeat: all must match): udp, tcp, port=N[,N...], host=IP, IP:PORT or
  [IPv6]:PORT (either end), src=IP[:PORT], dst=IP[:PORT].

Several schemas: each message is decoded with the schema whose id its header's schemaId
names (read with the first schema's header: every schema must keep schemaId at the same
offset, type and byte order), and \"schema\" says which (the path given).";

/// `sbe decode --help`'s closing text: examples, captures, the custom framing syntax.
fn decode_help() -> String {
    format!("{DECODE_HELP}\n\n{}", sbe_framing::CUSTOM_SYNTAX)
}

fn parse_filter(s: &str) -> Result<Term, String> {
    s.parse().map_err(|e: capture::BadTerm| {
        format!(
            "bad --filter {:?}: expected one of {}",
            e.term,
            capture::SYNTAX
        )
    })
}

fn parse_framing(s: &str) -> Result<Framing, String> {
    s.parse()
        .map_err(|e| sbe_framing::split::framing_error(s, &e))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = INCLUDES.set(sbe_ir::ir::IncludePolicy {
        allow_outside: cli.allow_includes_outside,
    });
    let declared = cli
        .declared
        .iter()
        .flat_map(|d| d.iter())
        .fold(sbe_ir::ir::DeclaredMeanings::new(), |all, (name, m)| {
            all.declare(name, m.clone())
        });
    let _ = MEANINGS.set(declared);
    let r = match cli.command {
        Command::Layout { schema, meanings } => layout(&schema, meanings),
        Command::Validate { schema } => validate(&schema),
        Command::Decode {
            schema,
            framing,
            skip,
            mut templates,
            messages,
            count,
            keep_going,
            schema_id_check,
            values,
            filters,
            columnar,
            inputs,
        } => {
            if !messages.is_empty() {
                // The names' ids, from the schemas loaded once more.
                let ids = load_all(&schema).and_then(|loaded| {
                    let s = schemas(&loaded, &schema, true, Default::default())?;
                    template_ids(&s, &messages, "decode")
                });
                match ids {
                    Some(ids) => templates.extend(ids),
                    None => return ExitCode::FAILURE,
                }
            }
            if count.is_some() && columnar.format != columnar::OutFormat::Jsonl {
                say!("sbe decode: --count is for JSON lines (the default --format)");
                return ExitCode::FAILURE;
            }
            let o = DecodeOptions {
                framing,
                skip,
                templates,
                count: pick::Count::new(count),
                keep_going,
                schema_id_check: schema_id_check == Switch::On,
                values: values.into(),
                filters,
                jobs: columnar
                    .jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            };
            if columnar.format == columnar::OutFormat::Jsonl {
                inputs.iter().try_fold(true, |ok, input| {
                    // --count reached: the inputs left are not read.
                    Ok(o.count.reached() || decode(&schema, &o, input)? && ok)
                })
            } else {
                columnar::decode(&schema, &o, &columnar, &inputs)
            }
        }
        Command::Encode {
            schema,
            framing,
            keep_going,
            input,
        } => encode(&schema, framing, keep_going, &input),
        Command::Inspect {
            schema,
            framing,
            skip,
            templates,
            messages,
            count,
            filters,
            input,
        } => {
            let o = InspectOptions {
                framing,
                skip,
                templates,
                messages,
                count,
                filters,
            };
            inspect(&schema, &o, &input)
        }
        Command::Dissector {
            schema,
            framing,
            udp_ports,
            tcp_ports,
            proto,
            output,
        } => dissector(&schema, output.as_deref(), |d| {
            d.framing(framing)
                .udp_ports(udp_ports)
                .tcp_ports(tcp_ports)
                .protocol(proto)
        }),
        Command::Generate { schema, out } => generate(&schema, &out),
        Command::Compat { old, new } => compat(&old, &new),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say!("sbe: {e}");
            ExitCode::FAILURE
        }
    }
}

const DISSECTOR_HELP: &str = "Examples, one per framing shape:
  sbe dissector --schema mdp3.xml --framing mdp3 --udp-port 14310 --proto mdp3 -o mdp3.lua
  sbe dissector --schema ilinkbinary.xml --framing sofh-le --tcp-port 9000 --proto ilink3 -o ilink3.lua
  sbe dissector --schema fix.xml --framing sofh --tcp-port 9000 -o fix.lua
  sbe dissector --schema venue.xml --framing len=u32be,counts=message --udp-port 5000 -o venue.lua
  sbe dissector --schema a.xml --schema b.xml --framing raw --udp-port 5000 -o venue.lua
  tshark -X lua_script:mdp3.lua -r capture.pcap -Y 'mdp3.securityID == 1234' -V

UDP: each datagram is a packet of the framing. TCP (stream framings): frames are
reassembled across segments, several per segment. Besides the ports (preferences)
the dissector registers heuristically (a known schemaId and templateId) and under
Decode As.

Field names (filters): every item is <proto>.<path>, where the path of a block
field, group or var data is its schema name, wherever it is (any message, group or
schema: <proto>.<name> filters across messages); a composite member, set choice or
group dimension member is <parent path>.<name>; a group's entries <group>.entry;
the message header's members header.<name>; the message name <proto>.message;
frame.length, frame.encodingType, packet.msgSeqNum, packet.sendingTime (MDP3) and
packet.header (custom packet framings). When one path would carry two kinds of
value (another Wireshark type, enum or set), the first in schema order (schemas in
command-line order) keeps it and each other kind gets .<type name> appended (the
schema's name of its type), then _<schema id> if that is taken too.

Values: enums by name, sets one flag per choice, optional nulls as null, constants
as generated items, char arrays as text, decimals as exact text (members beneath),
timestamps as absolute times (UTC) with the raw count beside, dates as YYYY-MM-DD.
Bad input (unknown template, truncated block, count or length larger than the bytes
left, bad encoding type) becomes an expert item; dissection goes on with the next
message.";

/// Write the dissector of `schemas` that `options` sets up.
fn dissector(
    schemas: &[PathBuf],
    output: Option<&Path>,
    options: impl FnOnce(sbe_dissector::Dissector<'_>) -> sbe_dissector::Dissector<'_>,
) -> io::Result<bool> {
    let mut loaded = Vec::new();
    for path in schemas {
        match load(path) {
            Some(s) => loaded.push(s),
            None => return Ok(false),
        }
    }
    let lua = match options(sbe_dissector::Dissector::new(&loaded)).generate() {
        Ok(lua) => lua,
        // The library's words name no flag; the command's name its own.
        Err(sbe_dissector::Error::PacketOverTcp) => {
            say!(
                "sbe dissector: a packet framing (a header per datagram) is carried by UDP only: no --tcp-port"
            );
            return Ok(false);
        }
        Err(e) => {
            say!("sbe dissector: {e}");
            return Ok(false);
        }
    };
    match output {
        Some(path) => std::fs::write(path, lua)?,
        None => io::stdout().lock().write_all(lua.as_bytes())?,
    }
    Ok(true)
}

/// Load a schema, printing its errors; `None` when it is unusable.
fn load(path: &Path) -> Option<Schema> {
    match sbe_ir::ir::load_with_options(path, &load_options()) {
        Ok(s) => Some(s),
        Err(e) => {
            say!("{e}");
            None
        }
    }
}

fn codec(schema: &Schema) -> Option<Codec<'_>> {
    match Codec::new(schema) {
        Ok(c) => Some(c),
        Err(e) => {
            say!("sbe: {e}");
            None
        }
    }
}

fn layout(path: &Path, meanings: bool) -> io::Result<bool> {
    let Some(schema) = load(path) else {
        return Ok(false);
    };
    let options = sbe_ir::report::LayoutOptions::default().meanings(meanings);
    let text = sbe_ir::report::layout_json_with(&schema, &path.to_string_lossy(), options);
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    Ok(true)
}

fn validate(path: &Path) -> io::Result<bool> {
    let Some(schema) = load(path) else {
        return Ok(false);
    };
    for w in &schema.warnings {
        say!("{w}");
    }
    writeln!(
        io::stdout().lock(),
        "{}: ok: {} messages, {} types, {} warnings",
        path.display(),
        schema.messages.len(),
        schema.types.len(),
        schema.warnings.len()
    )?;
    Ok(true)
}

fn compat(old: &Path, new: &Path) -> io::Result<bool> {
    let (Some(old_schema), Some(new_schema)) = (load(old), load(new)) else {
        return Ok(false);
    };
    let report = sbe_ir::compat::check(&old_schema, &new_schema);
    for d in report.errors.iter().chain(&report.warnings) {
        say!("{d}");
    }
    if report.is_compatible() {
        writeln!(
            io::stdout().lock(),
            "{}: compatible with {} ({} warnings)",
            new.display(),
            old.display(),
            report.warnings.len()
        )?;
    }
    Ok(report.is_compatible())
}

/// Open the input (a file or `-`), with a progress bar on a terminal for
/// large files.
fn open(input: &str) -> io::Result<Box<dyn Read>> {
    if input == "-" {
        return Ok(Box::new(io::stdin().lock()));
    }
    let f = File::open(input).map_err(|e| io::Error::new(e.kind(), format!("{input}: {e}")))?;
    let size = f.metadata().map(|m| m.len()).unwrap_or(0);
    if io::stderr().is_terminal() && size >= 64 << 20 {
        // One set of bars for the run: inputs read at once (--jobs) each
        // get a line of their own.
        static BARS: std::sync::OnceLock<indicatif::MultiProgress> = std::sync::OnceLock::new();
        let bar = BARS
            .get_or_init(indicatif::MultiProgress::new)
            .add(indicatif::ProgressBar::new(size));
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} {bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let name = Path::new(input).file_name().unwrap_or_default();
        bar.set_prefix(name.to_string_lossy().into_owned());
        return Ok(Box::new(bar.wrap_read(f)));
    }
    Ok(Box::new(f))
}

/// `sbe decode`'s options.
struct DecodeOptions {
    framing: Framing,
    skip: u64,
    templates: Vec<u64>,
    /// `--count`: messages printed, of every input.
    count: pick::Count,
    keep_going: bool,
    schema_id_check: bool,
    values: sbe_otf::semantic::Values,
    filters: Vec<Term>,
    /// `--jobs`, default the cores: inputs exported at once to a columnar
    /// format; for a capture file's JSON, with 2 or more, packets are read
    /// on one thread and the JSON written on another.
    jobs: usize,
}

/// Load every schema, printing the errors of those that fail.
fn load_all(paths: &[PathBuf]) -> Option<Vec<Schema>> {
    let loaded: Vec<_> = paths.iter().map(|p| load(p)).collect();
    loaded.into_iter().collect()
}

/// The schemas as one dispatcher (labels: the paths given).
fn schemas<'s>(
    loaded: &'s [Schema],
    paths: &[PathBuf],
    id_check: bool,
    values: sbe_otf::semantic::Values,
) -> Option<Schemas<'s>> {
    if !id_check && loaded.len() > 1 {
        say!(
            "sbe: --schema-id-check off needs a single --schema: with several, each message's \
             schema id picks its schema"
        );
        return None;
    }
    let mut entries = Vec::new();
    for (schema, path) in loaded.iter().zip(paths) {
        entries.push(Entry {
            codec: codec(schema)?
                .with_schema_id_check(id_check)
                .with_values(values),
            label: path.to_string_lossy().into_owned(),
        });
    }
    match Schemas::new(entries) {
        Ok(s) => Some(s),
        Err(e) => {
            say!("sbe: {e}");
            None
        }
    }
}

/// The input, and its capture format when its magic says it is one
/// (`sbe_capture::sniff_read`).
fn sniffed(input: &str) -> io::Result<(Box<dyn Read>, Option<capture::Format>)> {
    capture::sniff_read(open(input)?)
}

fn decode(paths: &[PathBuf], o: &DecodeOptions, input: &str) -> io::Result<bool> {
    let Some(loaded) = load_all(paths) else {
        return Ok(false);
    };
    let Some(schemas) = schemas(&loaded, paths, o.schema_id_check, o.values) else {
        return Ok(false);
    };
    let (source, format) = sniffed(input)?;
    if let Some(format) = format {
        return decode_capture(&schemas, o, format, source, input);
    }
    if !o.filters.is_empty() {
        say!("sbe decode: {input}: --filter is for captures (pcap, pcapng), and this is none");
        return Ok(false);
    }
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let opts = capture::decoding::StreamOptions {
        framing: o.framing,
        skip: o.skip,
        templates: &o.templates,
        keep_going: o.keep_going,
    };
    let source = hint::Head::new(source);
    let kept = source.kept();
    let mut hint = hint::Hint::new(o.framing);
    let mut reports = say::Reporter::new("decode", input);
    let mut lines = 0u64;
    let stream = capture::decoding::stream_json(&schemas, source, &opts, |item| match item {
        capture::decoding::StreamItem::Line(line) => {
            lines += 1;
            out.write_all(line)?;
            out.write_all(b"\n")?;
            if o.count.printed() {
                return Err(io::Error::other(Enough));
            }
            Ok(())
        }
        // stdout first, so that the two read in order.
        capture::decoding::StreamItem::Failed(e) => {
            out.flush()?;
            if lines == 0 {
                hint.failed_at_stream_start(&schemas, &kept, o.skip);
            }
            reports.report(false, &e.to_string(), hint.take().as_deref());
            Ok(())
        }
    });
    let ok = match stream {
        Ok(ok) => ok,
        Err(e) if e.get_ref().is_some_and(|e| e.is::<Enough>()) => true,
        Err(e) => return Err(e),
    };
    out.flush()?;
    reports.end();
    Ok(ok)
}

/// Open a capture and check what does not apply to one.
fn open_capture<'r>(
    skip: u64,
    format: capture::Format,
    source: Box<dyn Read + 'r>,
    input: &str,
    cmd: &str,
) -> io::Result<Option<capture::CaptureReader<'r>>> {
    let name = match format {
        capture::Format::Pcap => "pcap",
        capture::Format::PcapNg => "pcapng",
    };
    if skip > 0 {
        say!("sbe {cmd}: {input}: --skip is for files of messages, and this is a {name} capture");
        return Ok(None);
    }
    match capture::CaptureReader::new(format, source) {
        Ok(c) => Ok(Some(c)),
        Err(capture::CaptureError::Io(e)) => Err(e),
        Err(e) => {
            say!("sbe {cmd}: {input}: not a readable {name} capture: {e}");
            Ok(None)
        }
    }
}

/// After a capture run: its end said, the verdict.
fn capture_end(
    r: Result<capture::Summary, capture::RunError>,
    filtered: bool,
    ok: bool,
    input: &str,
    cmd: &str,
) -> io::Result<bool> {
    match r {
        Ok(s) => {
            if s.matched == 0 {
                say!(
                    "sbe {cmd}: {input}: none of its {} packets is a UDP datagram or TCP segment{}",
                    s.packets,
                    if filtered { " that --filter takes" } else { "" }
                );
            }
            Ok(ok)
        }
        Err(capture::RunError::Output(e)) if e.get_ref().is_some_and(|e| e.is::<Enough>()) => {
            Ok(ok)
        }
        Err(capture::RunError::Output(e))
        | Err(capture::RunError::Capture(capture::CaptureError::Io(e))) => Err(e),
        Err(capture::RunError::Capture(e)) => {
            say!("sbe {cmd}: {input}: {e}");
            Ok(false)
        }
    }
}

fn decode_capture(
    schemas: &Schemas<'_>,
    o: &DecodeOptions,
    format: capture::Format,
    source: Box<dyn Read>,
    input: &str,
) -> io::Result<bool> {
    let Some(mut cap) = open_capture(o.skip, format, source, input, "decode")? else {
        return Ok(false);
    };
    let opts = capture::Options {
        framing: o.framing,
        order: endian(schemas.byte_order()),
        filter: o.filters.clone(),
    };
    let stdout = || BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let semantic = o.values == sbe_otf::semantic::Values::Semantic;
    // A stream (stdin, a pipe from tcpdump) is written as it comes: the
    // writer thread's batches would hold its lines back longer.
    let file = std::fs::metadata(input).is_ok_and(|m| m.is_file());
    if o.jobs < 2 || !file {
        let mut sink = capture_json::Inline {
            lines: capture_json::JsonLines::new(schemas, stdout(), input, semantic),
            templates: &o.templates,
            count: &o.count,
            hint: hint::Hint::new(o.framing),
            ok: true,
        };
        let r = capture::run(&mut cap, &opts, &mut sink);
        sink.lines.end()?;
        return capture_end(r, !o.filters.is_empty(), sink.ok, input, "decode");
    }
    let (reader_end, writer_end) = capture_json::channels();
    std::thread::scope(|s| {
        let writer = s.spawn(move || {
            let mut lines = capture_json::JsonLines::new(schemas, stdout(), input, semantic);
            capture_json::write_batches(&mut lines, writer_end)
        });
        let mut sink = capture_json::Pipelined::new(
            schemas,
            &o.templates,
            &o.count,
            hint::Hint::new(o.framing),
            reader_end,
        );
        let mut r = capture::run(&mut cap, &opts, &mut sink);
        // What is left goes to the writer however the run ended.
        let sent = sink.send();
        if let (Ok(_), Err(e)) = (&r, sent) {
            r = Err(capture::RunError::Output(e));
        }
        let ok = sink.ok;
        // Hangs up: the writer ends once it has written what it holds.
        drop(sink);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the JSON writer panicked")));
        // The writer's own error says why the reader could not go on.
        let written_ok = written?;
        capture_end(r, !o.filters.is_empty(), ok && written_ok, input, "decode")
    })
}

fn encode(schema_path: &Path, framing: Framing, keep_going: bool, input: &str) -> io::Result<bool> {
    let Some(schema) = load(schema_path) else {
        return Ok(false);
    };
    let Some(codec) = codec(&schema) else {
        return Ok(false);
    };
    if framing.is_packet() {
        say!(
            "sbe encode: --framing {framing} is a packet framing (a header per datagram): \
             sbe encode writes a stream; give its message framing"
        );
        return Ok(false);
    }
    let mut lines = BufReader::with_capacity(1 << 16, open(input)?);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut text = String::new();
    let mut line = String::new();
    let mut msg = Vec::new();
    let (mut line_no, mut start_line) = (0usize, 0usize);
    let mut ok = true;
    loop {
        line.clear();
        let n = lines.read_line(&mut line)?;
        if n > 0 {
            line_no += 1;
            if text.trim().is_empty() {
                text.clear();
                start_line = line_no;
            }
            text.push_str(&line);
            if text.trim().is_empty() {
                continue;
            }
        } else if text.trim().is_empty() {
            break;
        }
        msg.clear();
        // The plan reads the form `sbe decode` writes; any other text, and
        // every problem, is parsed and told by `encode_value`.
        let encoded = match codec.encode_text(&text, &mut msg) {
            Some(n) => Ok(n),
            None => {
                let value: serde_json::Value = match serde_json::from_str(&text) {
                    Ok(v) => v,
                    Err(e) if e.is_eof() && n > 0 => continue,
                    Err(e) => {
                        ok = false;
                        say!(
                            "sbe encode: {input}:{}: invalid JSON: {e}",
                            start_line + e.line().saturating_sub(1)
                        );
                        text.clear();
                        if keep_going && n > 0 {
                            continue;
                        }
                        break;
                    }
                };
                msg.clear();
                codec.encode_value(&value, &mut msg)
            }
        };
        text.clear();
        match encoded {
            Ok(_) => {
                if let Err(e) =
                    sbe_framing::split::frame_message(&framing, &mut msg, endian(schema.byte_order))
                {
                    say!("sbe encode: {input}:{start_line}: {e}");
                    ok = false;
                    continue;
                }
                out.write_all(&msg)?;
            }
            Err(e) => {
                ok = false;
                say!("sbe encode: {input}:{start_line}: {e}");
                if !keep_going {
                    break;
                }
            }
        }
        if n == 0 {
            break;
        }
    }
    out.flush()?;
    Ok(ok)
}

fn generate(schema_path: &Path, out_dir: &Path) -> io::Result<bool> {
    let Some(schema) = load(schema_path) else {
        return Ok(false);
    };
    for w in &schema.warnings {
        say!("{w}");
    }
    let mut config = sbe_build::Config::new();
    config.out_dir(out_dir).quiet(true);
    let text = match config.generate(&schema) {
        Ok(t) => t,
        Err(e) => {
            say!("{e}");
            return Ok(false);
        }
    };
    std::fs::create_dir_all(out_dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", out_dir.display())))?;
    let file = out_dir.join(config.file_name_for(&schema));
    if let Err(e) = sbe_build::write_if_changed(&file, &text) {
        say!("sbe generate: {e}");
        return Ok(false);
    }
    writeln!(io::stdout().lock(), "{}", file.display())?;
    Ok(true)
}

/// `sbe inspect`'s options.
struct InspectOptions {
    framing: Framing,
    skip: u64,
    templates: Vec<u64>,
    messages: Vec<String>,
    count: Option<u64>,
    filters: Vec<Term>,
}

fn inspect(paths: &[PathBuf], o: &InspectOptions, input: &str) -> io::Result<bool> {
    let (framing, skip, filters) = (o.framing, o.skip, &o.filters);
    let Some(loaded) = load_all(paths) else {
        return Ok(false);
    };
    let Some(schemas) = schemas(&loaded, paths, true, Default::default()) else {
        return Ok(false);
    };
    let Some(mut pick) = Pick::new(
        &schemas,
        o.templates.clone(),
        &o.messages,
        o.count,
        "inspect",
    ) else {
        return Ok(false);
    };
    if pick.done() {
        return Ok(true);
    }
    let (source, format) = sniffed(input)?;
    if let Some(format) = format {
        let Some(mut cap) = open_capture(skip, format, source, input, "inspect")? else {
            return Ok(false);
        };
        let mut sink = InspectSink {
            schemas: &schemas,
            out: BufWriter::new(io::stdout().lock()),
            text: String::new(),
            packet: 0,
            waits: matches!(framing, Framing::Raw),
            pick,
            hint: hint::Hint::new(framing),
            reports: say::Reporter::new("inspect", input),
            ok: true,
        };
        let opts = capture::Options {
            framing,
            order: endian(schemas.byte_order()),
            filter: filters.to_vec(),
        };
        let r = capture::run(&mut cap, &opts, &mut sink);
        sink.out.flush()?;
        sink.reports.end();
        return capture_end(r, !filters.is_empty(), sink.ok, input, "inspect");
    }
    if !filters.is_empty() {
        say!("sbe inspect: {input}: --filter is for captures (pcap, pcapng), and this is none");
        return Ok(false);
    }
    let mut reader = FrameReader::new(source, framing, endian(schemas.byte_order()));
    reader.skip(skip)?;
    let start = reader.offset();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut text = String::new();
    let mut ok = true;
    let mut hint = hint::Hint::new(framing);
    let mut reports = say::Reporter::new("inspect", input);
    while let Some(r) = reader.next_message(|buf, base| {
        text.clear();
        if pick.left_out(&schemas, buf) {
            return match schemas.message_length(buf, base) {
                Ok(d) => Ok((d.len, false)),
                Err(e) => Err(Undecoded(e)),
            };
        }
        let r = schemas.inspect(buf, base, &mut text);
        if r.is_err() && base == start {
            hint.failed_at_start(&schemas, buf, Carrier::Stream);
        }
        match r {
            Ok(d) => Ok((d.len, true)),
            Err(e) => {
                if matches!(e, MultiError::Decode(_)) && !e.is_truncated() {
                    text.push_str(&format!("  error: {e}\n"));
                }
                Err(Undecoded(e))
            }
        }
    }) {
        out.write_all(text.as_bytes())?;
        match r {
            Ok(true) => {
                if pick.shown() {
                    break;
                }
            }
            Ok(false) => {}
            Err(e) => {
                ok = false;
                out.flush()?;
                reports.report(false, &e.to_string(), hint.take().as_deref());
            }
        }
    }
    out.flush()?;
    reports.end();
    Ok(ok)
}

/// Dumps each message of a capture under a line naming its packet.
struct InspectSink<'a, 's, W: Write> {
    schemas: &'a Schemas<'s>,
    out: W,
    text: String,
    /// The packet last named.
    packet: u64,
    /// A truncated message in a TCP stream waits for more bytes.
    waits: bool,
    pick: Pick,
    hint: hint::Hint,
    reports: say::Reporter<'a>,
    ok: bool,
}

impl<W: Write> capture::Sink for InspectSink<'_, '_, W> {
    type Failure = crate::reading::Undecodable;

    fn message(&mut self, bytes: &[u8], origin: &Origin<'_>) -> Result<usize, Fail> {
        self.text.clear();
        if self.pick.left_out(self.schemas, bytes) {
            return Ok(self
                .schemas
                .message_length(bytes, origin.offset)
                .map_err(fail)?
                .len);
        }
        let r = self.schemas.inspect(bytes, origin.offset, &mut self.text);
        if r.is_err() {
            capture_json::failed_at_start(&mut self.hint, self.schemas, bytes, origin);
        }
        let waiting = matches!(&r, Err(e) if e.is_truncated())
            && self.waits
            && origin.transport == capture::Transport::Tcp;
        if waiting {
            return r.map(|d| d.len).map_err(fail);
        }
        if origin.packet != self.packet {
            self.packet = origin.packet;
            write!(self.out, "packet {}", origin.packet)?;
            if let Some(t) = origin.time {
                write!(self.out, " at {t}")?;
            }
            write!(
                self.out,
                ", {} {} -> {}",
                origin.transport.name(),
                origin.src,
                origin.dst
            )?;
            for (name, value) in origin.fields {
                write!(self.out, ", {name} {value}")?;
            }
            writeln!(self.out)?;
        }
        self.out.write_all(self.text.as_bytes())?;
        match r {
            Ok(d) => {
                if self.pick.shown() {
                    return Err(Fail::Output(io::Error::other(Enough)));
                }
                Ok(d.len)
            }
            Err(e) => {
                writeln!(self.out, "  error: {}", e.what())?;
                Err(fail(e))
            }
        }
    }

    fn report(&mut self, level: Level, text: &str) -> io::Result<()> {
        self.out.flush()?;
        if level == Level::Error {
            self.ok = false;
        }
        let hint = self.hint.take();
        self.reports
            .report(level == Level::Notice, text, hint.as_deref());
        Ok(())
    }
}
