//! What a new user trips on (issue 42), through the real `sbe` binary: a
//! capture or stream read with the wrong `--framing` says which framing
//! fits; an error repeated in every packet is said five times and then
//! summed up; a closed stdout or stderr never makes `sbe` panic;
//! `sbe inspect` picks messages as `sbe decode` does.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{pcapng, rec, udp, Rec};

/// The schema the example capture is written with (`gen_market_capture`):
/// sbe-command/benches/market-data.xml, schema id 7.
fn md_schema() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches/market-data.xml")
        .to_string_lossy()
        .into_owned()
}

/// `n` BookUpdates (transact times 1000, 1001, ...), one message each
/// (all of one length).
fn books(n: usize) -> Vec<Vec<u8>> {
    let jsons: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"message":"BookUpdate","body":{{"transactTime":{},"flags":["EndOfEvent"],"entries":[{{"price":{{"mantissa":4500000000000}},"size":5,"securityId":1001,"rptSeq":{i},"level":1,"action":"New","entryType":"Bid"}}]}}}}"#,
                1000 + i
            )
        })
        .collect();
    let (code, bin, err) = common::sbe(
        &["encode", "--schema", &md_schema(), "-"],
        jsons.join("\n").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    bin.chunks(bin.len() / n).map(<[u8]>::to_vec).collect()
}

/// A capture as `gen_market_capture … mdp3` writes one: `packets` MDP3
/// packets over UDP, two BookUpdates each, sending times a nanosecond
/// apart.
fn mdp3_capture(packets: usize) -> Vec<u8> {
    let b = books(2 * packets);
    let recs: Vec<Rec> = (0..packets)
        .map(|i| {
            let packet = common::mdp3(
                i as u32 + 1,
                1_709_649_001_000_000_000 + i as u64,
                &[&b[2 * i], &b[2 * i + 1]],
            );
            rec(i as u32, udp("10.0.0.1:9000", "224.0.31.1:14310", &packet))
        })
        .collect();
    pcapng(1, &recs)
}

fn write(name: &str, bytes: &[u8]) -> String {
    let path = common::scratch(name).join("input");
    std::fs::write(&path, bytes).expect("write");
    path.display().to_string()
}

#[test]
fn an_mdp3_capture_read_as_raw_says_try_mdp3_once_and_sums_up_the_rest() {
    let file = write("mdp3-raw", &mdp3_capture(40));
    let md = md_schema();
    for jobs in ["1", "2"] {
        let (code, out, err) =
            common::sbe(&["decode", "--schema", &md, "--jobs", jobs, &file], &[]);
        assert_eq!(code, 1, "{err}");
        assert!(out.is_empty());
        let lines: Vec<&str> = err.lines().collect();
        // Five errors in full, the first with the hint, then one line.
        assert_eq!(lines.len(), 6, "{err}");
        assert!(
            lines[0].contains("the message is of another schema (the rest of the datagram, ")
                && lines[0].ends_with(
                    " bytes, is skipped); these look like MDP3 packets: try --framing mdp3"
                ),
            "{err}"
        );
        assert!(lines[0].contains("packet 1, udp"), "{err}");
        assert_eq!(err.matches("try --framing").count(), 1, "{err}");
        assert!(lines[4].contains("packet 5, udp"), "{err}");
        assert!(
            lines[5].starts_with(&format!(
                "sbe decode: {file}: ... and 35 more errors like this: wrong schema id "
            )),
            "{err}"
        );
    }
    // The same to Parquet.
    let out_dir = common::scratch("mdp3-raw-parquet").join("out");
    let out_dir = out_dir.display().to_string();
    let (code, _, err) = common::sbe(
        &[
            "decode", "--schema", &md, "--format", "parquet", "--out", &out_dir, &file,
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 6, "{err}");
    assert!(
        err.lines()
            .next()
            .is_some_and(|l| l.ends_with("try --framing mdp3")),
        "{err}"
    );
    // Read as the hint says, every message decodes.
    let (code, out, err) = common::sbe(
        &["decode", "--schema", &md, "--framing", "mdp3", &file],
        &[],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 80);
    // sbe inspect says the same.
    let (code, _, err) = common::sbe(&["inspect", "--schema", &md, &file], &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 6, "{err}");
    assert!(
        err.lines()
            .next()
            .is_some_and(|l| l.ends_with("try --framing mdp3")),
        "{err}"
    );
}

#[test]
fn a_sofh_stream_read_as_raw_says_try_sofh() {
    let md = md_schema();
    let b = books(3);
    let sofh: Vec<u8> = b.iter().flat_map(|m| common::sofh(m)).collect();
    let file = write("sofh-raw", &sofh);
    for input in [file.as_str(), "-"] {
        let (code, out, err) = common::sbe(&["decode", "--schema", &md, input], &sofh);
        assert_eq!(code, 1, "{err}");
        assert!(out.is_empty());
        assert_eq!(
            err.trim_end(),
            format!(
                "sbe decode: {input}: at byte 4: wrong schema id 20715 (expected 7): the message is \
                 of another schema; these look like SOFH frames (Simple Open Framing Header): try \
                 --framing sofh"
            )
        );
    }
    let (code, _, err) = common::sbe(&["inspect", "--schema", &md, &file], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.trim_end().ends_with("try --framing sofh"), "{err}");

    // iLink 3 / B3 frames: u16 LE length counting the 4 bytes, u16 LE 0xEB50.
    let sofh_le: Vec<u8> = b
        .iter()
        .flat_map(|m| {
            let mut f = ((m.len() + 4) as u16).to_le_bytes().to_vec();
            f.extend(0xEB50u16.to_le_bytes());
            f.extend(m);
            f
        })
        .collect();
    let (code, _, err) = common::sbe(&["decode", "--schema", &md, "-"], &sofh_le);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.trim_end().ends_with(
            "these look like sofh-le frames (iLink 3, B3 EntryPoint): try --framing sofh-le"
        ),
        "{err}"
    );
    // Bytes that fit no framing get no hint.
    let (code, _, err) = common::sbe(&["decode", "--schema", &md, "-"], &[7; 64]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("try --framing"), "{err}");
}

#[test]
fn the_wrong_schema_for_the_capture_gets_no_framing_hint() {
    // schemas/market-data.xml (id 1) is not the capture's: the framing is
    // right, and the error says the message is of another schema.
    let schema = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../schemas/market-data.xml");
    let file = write("other-schema", &mdp3_capture(3));
    let (code, _, err) = common::sbe(
        &["decode", "--schema", &schema.display().to_string(), &file],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("try --framing"), "{err}");
}

/// Runs `sbe args`, reads `read_out` lines of stdout and `read_err` of
/// stderr, closes what `close_*` says at once (the rest after the reads),
/// and gives the exit code, stdout and stderr read.
fn closed_pipe(args: &[&str], close_out: bool, close_err: bool) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sbe"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sbe");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let (mut out_text, mut err_text) = (String::new(), String::new());
    // One line of each closed stream is read first, as `| head -1` does.
    if close_out {
        out.read_line(&mut out_text).expect("read");
        drop(out);
        err.read_to_string(&mut err_text).expect("read");
    } else if close_err {
        err.read_line(&mut err_text).expect("read");
        drop(err);
        out.read_to_string(&mut out_text).expect("read");
    }
    let status = child.wait().expect("wait");
    (status.code(), out_text, err_text)
}

#[test]
fn a_closed_stdout_or_stderr_never_panics() {
    let md = md_schema();
    // Enough packets that stderr and stdout outlast a pipe's buffer.
    let file = write("closed-pipe", &mdp3_capture(3000));

    // `sbe decode … 2>&1 | head -1` closes both: stderr read one line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sbe"))
        .args(["decode", "--schema", &md, &file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sbe");
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first = String::new();
    err.read_line(&mut first).expect("read");
    assert!(first.contains("try --framing mdp3"), "{first}");
    drop(err);
    drop(child.stdout.take());
    let status = child.wait().expect("wait");
    // 1: the run's errors; a panic would be 101.
    assert_eq!(status.code(), Some(1));

    // Errors on every packet, stderr closed after its first line: the
    // run goes on and ends with its status.
    let (code, _, _) = closed_pipe(&["decode", "--schema", &md, &file], false, true);
    assert_eq!(code, Some(1));
    // No errors, a large stdout closed after one line: quiet, status 0.
    let (code, out, err) = closed_pipe(
        &["decode", "--schema", &md, "--framing", "mdp3", &file],
        true,
        false,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("{\"schema\""), "{out}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err, "");
    // The same with the inspect dump, and with stderr closed on an
    // inspect whose every packet fails.
    let (code, _, err) = closed_pipe(
        &["inspect", "--schema", &md, "--framing", "mdp3", &file],
        true,
        false,
    );
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let (code, _, _) = closed_pipe(&["inspect", "--schema", &md, &file], false, true);
    assert_eq!(code, Some(1));
    // A command that prints one line on stdout, closed at once.
    let (code, _, err) = closed_pipe(&["validate", "--schema", &md], true, false);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn inspect_picks_messages_by_template_name_and_count() {
    let md = md_schema();
    let file = write("inspect-count", &mdp3_capture(4));
    let headings = |out: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(out)
            .lines()
            .filter(|l| !l.starts_with(' '))
            .map(str::to_string)
            .collect()
    };
    let (code, out, err) = common::sbe(
        &[
            "inspect",
            "--schema",
            &md,
            "--framing",
            "mdp3",
            "--count",
            "3",
            &file,
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let h = headings(&out);
    assert_eq!(h.len(), 5, "{h:?}");
    assert!(h[0].starts_with("packet 1 at "), "{h:?}");
    assert!(
        h[1].starts_with("BookUpdate (templateId 1, version 0) at byte 14"),
        "{h:?}"
    );
    assert!(h[3].starts_with("packet 2 at "), "{h:?}");
    assert!(
        h[4].starts_with("BookUpdate (templateId 1, version 0) at byte 14"),
        "{h:?}"
    );
    // By name or template id: the same; another id: nothing.
    for pick in [["--message", "BookUpdate"], ["--template", "1"]] {
        let (code, out2, err) = common::sbe(
            &[
                "inspect",
                "--schema",
                &md,
                "--framing",
                "mdp3",
                pick[0],
                pick[1],
                "--count",
                "3",
                &file,
            ],
            &[],
        );
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out2, out);
    }
    let (code, out, err) = common::sbe(
        &[
            "inspect",
            "--schema",
            &md,
            "--framing",
            "mdp3",
            "--template",
            "9",
            &file,
        ],
        &[],
    );
    assert_eq!((code, err.as_str(), out.len()), (0, "", 0));
    // A file of messages back to back: the count, then the end.
    let raw: Vec<u8> = books(5).concat();
    let (code, out, err) = common::sbe(&["inspect", "--schema", &md, "--count", "2", "-"], &raw);
    assert_eq!(code, 0, "{err}");
    assert_eq!(headings(&out).len(), 2);
    // sbe decode takes --message too: the same pick as --template.
    let (code, by_name, err) = common::sbe(
        &["decode", "--schema", &md, "--message", "BookUpdate", "-"],
        &raw,
    );
    assert_eq!(code, 0, "{err}");
    let (_, by_id, _) = common::sbe(&["decode", "--schema", &md, "--template", "1", "-"], &raw);
    assert_eq!(by_name, by_id);
    assert_eq!(by_name.iter().filter(|&&b| b == b'\n').count(), 5);
    let (code, _, err) = common::sbe(
        &["decode", "--schema", &md, "--message", "Trade", "-"],
        &raw,
    );
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        "sbe decode: --message Trade: no message of that name; the schemas have BookUpdate"
    );
    // A name no schema has.
    let (code, _, err) = common::sbe(
        &["inspect", "--schema", &md, "--message", "Trade", "-"],
        &raw,
    );
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        "sbe inspect: --message Trade: no message of that name; the schemas have BookUpdate"
    );
}

#[test]
fn semantic_values_give_the_mdp3_sending_time_as_a_time() {
    let md = md_schema();
    let file = write("sending-time", &mdp3_capture(2));
    for jobs in ["1", "2"] {
        let run = |values: &str| -> Vec<serde_json::Value> {
            let (code, out, err) = common::sbe(
                &[
                    "decode",
                    "--schema",
                    &md,
                    "--framing",
                    "mdp3",
                    "--jobs",
                    jobs,
                    "--values",
                    values,
                    &file,
                ],
                &[],
            );
            assert_eq!(code, 0, "{err}");
            String::from_utf8(out)
                .expect("utf-8")
                .lines()
                .map(|l| serde_json::from_str(l).expect("json"))
                .collect()
        };
        let semantic = run("semantic");
        let sent: Vec<&str> = semantic
            .iter()
            .map(|l| l["frame"]["sendingTime"].as_str().expect("a string"))
            .collect();
        assert_eq!(
            sent,
            [
                "2024-03-05T14:30:01.000000000Z",
                "2024-03-05T14:30:01.000000000Z",
                "2024-03-05T14:30:01.000000001Z",
                "2024-03-05T14:30:01.000000001Z"
            ]
        );
        // The packet number and sequence number stay numbers.
        assert_eq!(semantic[2]["frame"]["msgSeqNum"], 2);
        // Wire values keep the count.
        let wire = run("wire");
        assert_eq!(
            wire[2]["frame"]["sendingTime"],
            1_709_649_001_000_000_001u64
        );
    }
}

/// The example capture itself, as the README has it written
/// (`gen_market_capture … mdp3`; `cargo test` builds the example beside
/// the `sbe` binary): the default framing hints at mdp3 and sums up the
/// rest; the README's command decodes it all.
#[test]
fn the_readme_example_capture() {
    let sbe = PathBuf::from(env!("CARGO_BIN_EXE_sbe"));
    let generator = sbe
        .parent()
        .expect("target dir")
        .join("examples")
        .join(format!(
            "gen_market_capture{}",
            std::env::consts::EXE_SUFFIX
        ));
    if !generator.exists() {
        // `cargo test` builds the examples; `cargo test --test new_user`
        // alone does not. CI runs the first.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{}: not built (CI=true)",
            generator.display()
        );
        eprintln!(
            "the_readme_example_capture: skipped, {} not built",
            generator.display()
        );
        return;
    }
    let dir = common::scratch("readme-capture");
    let (bin, pcap) = (dir.join("md.bin"), dir.join("md.pcap"));
    let status = Command::new(&generator)
        .args([
            "200".as_ref(),
            bin.as_os_str(),
            pcap.as_os_str(),
            "4".as_ref(),
            "mdp3".as_ref(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run gen_market_capture");
    assert!(status.success());
    let pcap = pcap.display().to_string();
    let md = md_schema();
    let (code, out, err) = common::sbe(&["decode", "--schema", &md, &pcap], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert!(
        lines[0].ends_with("these look like MDP3 packets: try --framing mdp3"),
        "{err}"
    );
    assert!(
        lines[5].contains("more errors like this: wrong schema id"),
        "{err}"
    );
    let (code, out, err) = common::sbe(
        &["decode", "--schema", &md, "--framing", "mdp3", &pcap],
        &[],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 200);
    // The other market-data.xml: the framing is right, the schema is not.
    let other = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../schemas/market-data.xml");
    let (code, _, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &other.display().to_string(),
            "--framing",
            "mdp3",
            &pcap,
        ],
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("wrong schema id 7 (expected 1)") && !err.contains("try --framing"),
        "{err}"
    );
}

#[test]
fn decode_count_stops_after_n_messages_as_inspect_does() {
    let md = md_schema();
    let lines = |out: &[u8]| out.iter().filter(|&&b| b == b'\n').count();
    let raw: Vec<u8> = books(5).concat();
    let file = write("decode-count", &raw);
    // Of every input together; 0 prints nothing.
    for (count, want) in [("3", 3), ("7", 7), ("0", 0), ("99", 10)] {
        let (code, out, err) = common::sbe(
            &["decode", "--schema", &md, "--count", count, &file, &file],
            &[],
        );
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(lines(&out), want, "--count {count}");
    }
    // A capture, on one thread or two: the first N messages.
    let cap = write("decode-count-capture", &mdp3_capture(10));
    let (_, all, _) = common::sbe(&["decode", "--schema", &md, "--framing", "mdp3", &cap], &[]);
    let first3: Vec<u8> = all
        .split_inclusive(|&b| b == b'\n')
        .take(3)
        .flatten()
        .copied()
        .collect();
    for jobs in ["1", "2"] {
        let (code, out, err) = common::sbe(
            &[
                "decode",
                "--schema",
                &md,
                "--framing",
                "mdp3",
                "--jobs",
                jobs,
                "--count",
                "3",
                &cap,
            ],
            &[],
        );
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, first3, "--jobs {jobs}");
    }
    // With --template: N of the messages picked.
    let (code, out, _) = common::sbe(
        &[
            "decode",
            "--schema",
            &md,
            "--template",
            "1",
            "--count",
            "2",
            &file,
        ],
        &[],
    );
    assert_eq!((code, lines(&out)), (0, 2));
    // Not for a columnar format, which is written by another pipeline.
    let out_dir = common::scratch("decode-count-parquet").join("out");
    let (code, _, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &md,
            "--count",
            "1",
            "--format",
            "parquet",
            "--out",
            &out_dir.display().to_string(),
            &file,
        ],
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        "sbe decode: --count is for JSON lines (the default --format)"
    );
}
