//! `sbe`: look into, check, decode and encode SBE messages with nothing but
//! their schema.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use sbe_build::ir::Schema;
use sbe_cli::framing::{sofh_header, FrameError, FrameReader, Framing};
use sbe_cli::otf::Codec;

/// Decode, encode, inspect and check SBE (Simple Binary Encoding) data
/// from its XML schema alone.
#[derive(Parser)]
#[command(name = "sbe", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    #[command(after_help = "Example:\n  sbe layout --schema schemas/car.xml > car.layout.json")]
    Layout {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
    },
    /// Check a schema: exit 0, or print every error with file:line:col and exit 1.
    #[command(after_help = "Example:\n  sbe validate --schema schemas/car.xml && echo valid")]
    Validate {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
    },
    /// Decode messages to JSON, one object per line.
    #[command(after_help = "Examples:\n  \
        sbe decode --schema schemas/car.xml cars.bin\n  \
        sbe decode --schema fix.xml --framing sofh --template 99,98 --keep-going capture.bin | jq .body\n  \
        cat cars.bin | sbe decode --schema schemas/car.xml -")]
    Decode {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
        /// How messages follow one another: raw (back to back) or sofh.
        #[arg(long, default_value = "raw", value_parser = parse_framing)]
        framing: Framing,
        /// Skip this many bytes (a file header) before the first message.
        #[arg(long, default_value_t = 0)]
        skip: u64,
        /// Print only messages with these template ids (repeat the option or separate ids by commas).
        #[arg(long = "template", value_delimiter = ',', value_name = "ID")]
        templates: Vec<u64>,
        /// After a bad message go on at the next frame, where the framing allows it.
        #[arg(long)]
        keep_going: bool,
        /// Refuse messages whose header names another schema id (on, as
        /// generated decoders do), or decode them all the same (off: for a
        /// capture whose schema id is known to be wrong).
        #[arg(long, value_enum, default_value = "on", value_name = "on|off")]
        schema_id_check: Switch,
        /// The input file, or - for standard input.
        input: String,
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
        /// How to frame the messages: raw (back to back) or sofh.
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
    /// Print an annotated hex dump: offset, bytes, field path and value of every field.
    #[command(after_help = "Example:\n  sbe inspect --schema schemas/car.xml car.bin | less")]
    Inspect {
        /// The schema (XML).
        #[arg(long)]
        schema: PathBuf,
        /// How messages follow one another: raw (back to back) or sofh.
        #[arg(long, default_value = "raw", value_parser = parse_framing)]
        framing: Framing,
        /// Skip this many bytes (a file header) before the first message.
        #[arg(long, default_value_t = 0)]
        skip: u64,
        /// The input file, or - for standard input.
        input: String,
    },
}

fn parse_framing(s: &str) -> Result<Framing, String> {
    s.parse()
        .map_err(|e: sbe_cli::framing::UnknownFraming| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Layout { schema } => layout(&schema),
        Command::Validate { schema } => validate(&schema),
        Command::Decode {
            schema,
            framing,
            skip,
            templates,
            keep_going,
            schema_id_check,
            input,
        } => decode(
            &schema,
            framing,
            skip,
            &templates,
            keep_going,
            schema_id_check == Switch::On,
            &input,
        ),
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
            input,
        } => inspect(&schema, framing, skip, &input),
        Command::Generate { schema, out } => generate(&schema, &out),
        Command::Compat { old, new } => compat(&old, &new),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sbe: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Load a schema, printing its errors; `None` when it is unusable.
fn load(path: &Path) -> Option<Schema> {
    match sbe_build::ir::load(path) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("{e}");
            None
        }
    }
}

fn codec(schema: &Schema) -> Option<Codec<'_>> {
    match Codec::new(schema) {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("sbe: {e}");
            None
        }
    }
}

fn layout(path: &Path) -> io::Result<bool> {
    let Some(schema) = load(path) else {
        return Ok(false);
    };
    let text = sbe_build::ir::layout_json(&schema, &path.to_string_lossy());
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    Ok(true)
}

fn validate(path: &Path) -> io::Result<bool> {
    let Some(schema) = load(path) else {
        return Ok(false);
    };
    for w in &schema.warnings {
        eprintln!("{w}");
    }
    println!(
        "{}: ok: {} messages, {} types, {} warnings",
        path.display(),
        schema.messages.len(),
        schema.types.len(),
        schema.warnings.len()
    );
    Ok(true)
}

fn compat(old: &Path, new: &Path) -> io::Result<bool> {
    let (Some(old_schema), Some(new_schema)) = (load(old), load(new)) else {
        return Ok(false);
    };
    let report = sbe_build::compat::check(&old_schema, &new_schema);
    for d in report.errors.iter().chain(&report.warnings) {
        eprintln!("{d}");
    }
    if report.is_compatible() {
        println!(
            "{}: compatible with {} ({} warnings)",
            new.display(),
            old.display(),
            report.warnings.len()
        );
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
        let bar = indicatif::ProgressBar::new(size);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        return Ok(Box::new(bar.wrap_read(f)));
    }
    Ok(Box::new(f))
}

fn decode(
    schema_path: &Path,
    framing: Framing,
    skip: u64,
    templates: &[u64],
    keep_going: bool,
    schema_id_check: bool,
    input: &str,
) -> io::Result<bool> {
    let Some(schema) = load(schema_path) else {
        return Ok(false);
    };
    let Some(codec) = codec(&schema) else {
        return Ok(false);
    };
    let codec = codec.with_schema_id_check(schema_id_check);
    let label = schema_path.to_string_lossy();
    let mut reader = FrameReader::new(open(input)?, framing, schema.byte_order);
    reader.skip(skip)?;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    let mut ok = true;
    while let Some(r) = reader.next_message(|buf, base| {
        line.clear();
        if !templates.is_empty() {
            let wanted = codec
                .read_header(buf)
                .is_some_and(|h| templates.contains(&h.template_id));
            if !wanted {
                return codec.message_length(buf, base).map(|d| (d.len, false));
            }
        }
        let d = codec.decode_json(buf, base, Some(&label), &mut line)?;
        line.push(b'\n');
        Ok((d.len, true))
    }) {
        match r {
            Ok(true) => out.write_all(&line)?,
            Ok(false) => {}
            Err(FrameError::Io(e)) => return Err(e),
            Err(e) => {
                ok = false;
                out.flush()?;
                eprintln!("sbe decode: {input}: {e}");
                if !keep_going {
                    break;
                }
            }
        }
    }
    out.flush()?;
    Ok(ok)
}

fn encode(schema_path: &Path, framing: Framing, keep_going: bool, input: &str) -> io::Result<bool> {
    let Some(schema) = load(schema_path) else {
        return Ok(false);
    };
    let Some(codec) = codec(&schema) else {
        return Ok(false);
    };
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
        let value: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) if e.is_eof() && n > 0 => continue,
            Err(e) => {
                ok = false;
                eprintln!(
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
        text.clear();
        msg.clear();
        match codec.encode_value(&value, &mut msg) {
            Ok(len) => {
                if framing == Framing::Sofh {
                    match sofh_header(len, schema.byte_order) {
                        Some(h) => out.write_all(&h)?,
                        None => {
                            eprintln!(
                                "sbe encode: {input}:{start_line}: message too long for SOFH"
                            );
                            ok = false;
                            continue;
                        }
                    }
                }
                out.write_all(&msg)?;
            }
            Err(e) => {
                ok = false;
                eprintln!("sbe encode: {input}:{start_line}: {e}");
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
        eprintln!("{w}");
    }
    let mut config = sbe_build::Config::new();
    config.out_dir(out_dir).quiet(true);
    let text = match config.generate(&schema) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return Ok(false);
        }
    };
    std::fs::create_dir_all(out_dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", out_dir.display())))?;
    let file = out_dir.join(config.file_name_for(&schema));
    if let Err(e) = sbe_build::write_if_changed(&file, &text) {
        eprintln!("sbe generate: {e}");
        return Ok(false);
    }
    println!("{}", file.display());
    Ok(true)
}

fn inspect(schema_path: &Path, framing: Framing, skip: u64, input: &str) -> io::Result<bool> {
    let Some(schema) = load(schema_path) else {
        return Ok(false);
    };
    let Some(codec) = codec(&schema) else {
        return Ok(false);
    };
    let mut reader = FrameReader::new(open(input)?, framing, schema.byte_order);
    reader.skip(skip)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut text = String::new();
    let mut ok = true;
    while let Some(r) = reader.next_message(|buf, base| {
        text.clear();
        let r = codec.inspect(buf, base, &mut text);
        match r {
            Ok(d) => Ok((d.len, ())),
            Err(e) if e.is_truncated() => Err(e),
            Err(e) => {
                text.push_str(&format!("  error: {e}\n"));
                Err(e)
            }
        }
    }) {
        out.write_all(text.as_bytes())?;
        if let Err(e) = r {
            ok = false;
            out.flush()?;
            eprintln!("sbe inspect: {input}: {e}");
        }
    }
    out.flush()?;
    Ok(ok)
}
