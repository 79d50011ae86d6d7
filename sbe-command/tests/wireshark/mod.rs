//! What the dissector tests share: captures written here (pcap around
//! Ethernet/IPv4 UDP and TCP frames built with etherparse), generating a
//! dissector with the `sbe` binary, running tshark on it (PDML) and
//! comparing the items it shows with `sbe decode`'s JSON.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use etherparse::PacketBuilder;
use serde_json::Value;

use crate::common;

/// Whether tshark runs here, Lua scripts given to it included: a skip
/// notice when not, a failure with CI=true. Asked of tshark once a run.
pub fn tshark_present(test: &str) -> bool {
    static UNUSABLE: OnceLock<Option<String>> = OnceLock::new();
    let Some(why) = UNUSABLE.get_or_init(tshark_unusable) else {
        return true;
    };
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: {why} (CI=true)"
    );
    eprintln!("{test}: skipped, {why}");
    false
}

/// Why tshark cannot run the dissector tests here, if it cannot: it is
/// not installed, or it runs no `-X lua_script:` script. Wireshark 4.2
/// and later skip those silently when run as root unless a global
/// init.lua sets `run_user_scripts_when_superuser` (4.0's own init.lua
/// did); every test would then see no item at all.
fn tshark_unusable() -> Option<String> {
    let version = Command::new("tshark")
        .arg("-v")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| {
            let out = String::from_utf8_lossy(&o.stdout).into_owned();
            let first = out.lines().next().unwrap_or_default();
            first.trim_end_matches('.').to_string()
        });
    let Some(version) = version else {
        return Some("tshark is not installed".into());
    };
    let dir = common::scratch("tshark-probe");
    let lua = dir.join("probe.lua");
    std::fs::write(&lua, "print(\"sbe probe: Lua runs\")\n").expect("probe script");
    let cap = dir.join("empty.pcap");
    std::fs::write(&cap, pcap(&[])).expect("empty capture");
    let out = Command::new("tshark")
        .arg("-X")
        .arg(format!("lua_script:{}", lua.display()))
        .arg("-r")
        .arg(&cap)
        .output()
        .expect("run tshark");
    let ran = String::from_utf8_lossy(&out.stdout).contains("sbe probe: Lua runs");
    (!ran).then(|| {
        format!(
            "{version}: no -X lua_script: script runs here (run as root, Wireshark 4.2 \
             and later skip them unless a global init.lua sets \
             run_user_scripts_when_superuser = true)"
        )
    })
}

/// A schema of the repository, by its path from the workspace root.
pub fn repo_schema(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// The dissector `sbe dissector` writes for `schemas` with `extra`
/// arguments, into `dir`.
pub fn dissector(dir: &Path, schemas: &[&str], extra: &[&str]) -> PathBuf {
    let out = dir.join("dissector.lua");
    let out_s = out.to_string_lossy().into_owned();
    let mut args = vec!["dissector"];
    for s in schemas {
        args.extend(["--schema", s]);
    }
    args.extend_from_slice(extra);
    args.extend(["-o", out_s.as_str()]);
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "sbe dissector: {err}");
    out
}

/// Encode JSON messages with `schema`: the bytes of each.
pub fn encode(schema: &str, jsons: &[String]) -> Vec<Vec<u8>> {
    jsons
        .iter()
        .map(|j| {
            let (code, bin, err) = common::sbe(&["encode", "--schema", schema, "-"], j.as_bytes());
            assert_eq!(code, 0, "{err}");
            bin
        })
        .collect()
}

/// A pcap file (µs timestamps, Ethernet) of `frames`.
pub fn pcap(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend(0xa1b2_c3d4u32.to_le_bytes());
    f.extend(2u16.to_le_bytes());
    f.extend(4u16.to_le_bytes());
    f.extend([0; 8]);
    f.extend(65535u32.to_le_bytes());
    f.extend(1u32.to_le_bytes());
    for (i, frame) in frames.iter().enumerate() {
        f.extend((1_709_649_001 + i as u32).to_le_bytes());
        f.extend(123_456u32.to_le_bytes());
        f.extend((frame.len() as u32).to_le_bytes());
        f.extend((frame.len() as u32).to_le_bytes());
        f.extend(frame);
    }
    f
}

const MAC_A: [u8; 6] = [2, 0, 0, 0, 0, 1];
const MAC_B: [u8; 6] = [2, 0, 0, 0, 0, 2];

/// An Ethernet/IPv4/UDP frame from port 40000 to `port`.
pub fn udp(port: u16, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::new();
    PacketBuilder::ethernet2(MAC_A, MAC_B)
        .ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
        .udp(40000, port)
        .write(&mut f, payload)
        .expect("udp frame");
    f
}

/// The frames of a TCP connection to `port` (handshake, then `stream`
/// cut at `cuts`, one segment per piece).
pub fn tcp(port: u16, stream: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let seg = |seq: u32, ack: u32, syn: bool, from_client: bool, payload: &[u8]| {
        let (src, dst, sp, dp) = if from_client {
            ([10, 0, 0, 1], [10, 0, 0, 2], 40000, port)
        } else {
            ([10, 0, 0, 2], [10, 0, 0, 1], port, 40000)
        };
        let mut b = PacketBuilder::ethernet2(MAC_A, MAC_B)
            .ipv4(src, dst, 64)
            .tcp(sp, dp, seq, 65535);
        b = if syn { b.syn() } else { b };
        if ack != 0 {
            b = b.ack(ack);
        }
        let mut f = Vec::new();
        b.write(&mut f, payload).expect("tcp frame");
        f
    };
    let mut frames = vec![
        seg(999, 0, true, true, &[]),
        seg(4999, 1000, true, false, &[]),
        seg(1000, 5000, false, true, &[]),
    ];
    let mut at = 0;
    let mut bounds: Vec<usize> = cuts.to_vec();
    bounds.push(stream.len());
    for end in bounds {
        let piece = stream.get(at..end).unwrap_or_default();
        frames.push(seg(1000 + at as u32, 5000, false, true, piece));
        at = end;
    }
    frames
}

/// tshark's output (stdout, stderr) on `capture` with the dissector
/// `lua` and more arguments.
pub fn tshark(lua: &Path, capture: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new("tshark")
        .arg("-X")
        .arg(format!("lua_script:{}", lua.display()))
        .arg("-r")
        .arg(capture)
        .args(args)
        .output()
        .expect("run tshark");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "tshark failed: {stderr}");
    assert!(
        !stdout.contains("Lua Error") && !stderr.contains("Lua Error"),
        "a Lua error:\n{stderr}\n{stdout}"
    );
    (stdout, stderr)
}

/// One item of tshark's tree (a PDML `field`).
#[derive(Debug, Clone)]
pub struct Item {
    /// The abbreviation.
    pub abbrev: String,
    /// The label.
    pub showname: String,
    /// The value as tshark shows it.
    pub show: String,
    /// The items beneath.
    pub children: Vec<Item>,
}

impl Item {
    /// The display name: the label before its first ": " (and the mark
    /// of a label cut short).
    pub fn name(&self) -> &str {
        let name = self.showname.split(": ").next().unwrap_or_default();
        let name = name.strip_suffix(" […]").unwrap_or(name);
        name.strip_suffix(" [truncated]").unwrap_or(name)
    }

    /// Every item at or beneath this one with abbreviation `abbrev`.
    pub fn find<'a>(&'a self, abbrev: &str, out: &mut Vec<&'a Item>) {
        if self.abbrev == abbrev {
            out.push(self);
        }
        for c in &self.children {
            c.find(abbrev, out);
        }
    }
}

fn item(node: roxmltree::Node) -> Item {
    Item {
        abbrev: node.attribute("name").unwrap_or_default().into(),
        showname: node.attribute("showname").unwrap_or_default().into(),
        show: node.attribute("show").unwrap_or_default().into(),
        children: node
            .children()
            .filter(|c| c.has_tag_name("field"))
            .map(item)
            .collect(),
    }
}

/// The packets of tshark's PDML, each as its protocol items.
pub fn pdml(lua: &Path, capture: &Path, extra: &[&str]) -> Vec<Item> {
    let mut args = vec!["-T", "pdml"];
    args.extend_from_slice(extra);
    let (out, _) = tshark(lua, capture, &args);
    let doc = roxmltree::Document::parse(&out).expect("PDML");
    doc.descendants()
        .filter(|n| n.has_tag_name("packet"))
        .map(|p| Item {
            abbrev: "packet".into(),
            showname: String::new(),
            show: String::new(),
            children: p
                .descendants()
                .filter(|n| n.has_tag_name("proto") || n.has_tag_name("field"))
                .filter(|n| n.parent().is_some_and(|p| p.has_tag_name("packet")))
                .map(|n| {
                    let mut i = item(n);
                    i.children = n
                        .children()
                        .filter(|c| c.has_tag_name("field"))
                        .map(item)
                        .collect();
                    i
                })
                .collect(),
        })
        .collect()
}

/// Every message item in the packets, in order.
pub fn messages<'a>(packets: &'a [Item], proto: &str) -> Vec<&'a Item> {
    let mut out = Vec::new();
    for p in packets {
        p.find(&format!("{proto}.message"), &mut out);
    }
    out
}

/// How many items of abbreviation `abbrev` the packets hold.
pub fn count(packets: &[Item], abbrev: &str) -> usize {
    let mut out = Vec::new();
    for p in packets {
        p.find(abbrev, &mut out);
    }
    out.len()
}

/// `sbe decode`'s JSON of `capture`, one value per message.
pub fn decoded(schemas: &[&str], framing: &str, capture: &Path) -> Vec<Value> {
    let cap = capture.to_string_lossy().into_owned();
    let mut args = vec!["decode", "--framing", framing, "--keep-going"];
    for s in schemas {
        args.extend(["--schema", s]);
    }
    args.push(cap.as_str());
    let (_, out, _) = common::sbe(&args, b"");
    String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Where the message item `m` differs from `sbe decode`'s `json` of it:
/// its name, header members and every field value.
pub fn differs(json: &Value, m: &Item) -> Option<String> {
    if json["message"].as_str() != Some(m.show.as_str()) {
        return Some(format!("message {} shown as {}", json["message"], m.show));
    }
    let mut header = Vec::new();
    m.children
        .iter()
        .filter(|c| c.name() == "message header")
        .for_each(|h| header.push(h));
    let h = header
        .first()
        .map(|h| h.children.as_slice())
        .unwrap_or_default();
    object(&json["header"], h, "header").or_else(|| object(&json["body"], &m.children, "body"))
}

fn object(expected: &Value, items: &[Item], path: &str) -> Option<String> {
    let Value::Object(map) = expected else {
        return Some(format!("{path}: expected an object, have {expected}"));
    };
    for (key, value) in map {
        let found: Vec<&Item> = items.iter().filter(|i| i.name() == key).collect();
        if let Some(d) = matches(value, &found, &format!("{path}.{key}")) {
            return Some(d);
        }
    }
    None
}

fn one<'a>(items: &[&'a Item], path: &str) -> Result<&'a Item, String> {
    match items {
        [i] => Ok(i),
        _ => Err(format!("{path}: {} items shown, 1 expected", items.len())),
    }
}

fn matches(expected: &Value, items: &[&Item], path: &str) -> Option<String> {
    let single = || one(items, path);
    match expected {
        Value::Object(_) => match single() {
            Ok(i) => object(expected, &i.children, path),
            Err(e) => Some(e),
        },
        Value::Array(values) => array(values, items, path),
        _ => match single() {
            Ok(i) => scalar(expected, i, path),
            Err(e) => Some(e),
        },
    }
}

fn is_entry(i: &Item) -> bool {
    i.showname.starts_with("entry ")
}

fn array(values: &[Value], items: &[&Item], path: &str) -> Option<String> {
    let container = match items {
        [i] if !i.children.is_empty() || values.iter().all(Value::is_object) => Some(*i),
        _ => None,
    };
    if let Some(c) =
        container.filter(|c| c.children.iter().any(is_entry) || values.iter().all(Value::is_object))
    {
        let entries: Vec<&Item> = c.children.iter().filter(|i| is_entry(i)).collect();
        if entries.len() != values.len() {
            return Some(format!(
                "{path}: {} entries shown, {} expected",
                entries.len(),
                values.len()
            ));
        }
        return values
            .iter()
            .zip(&entries)
            .enumerate()
            .find_map(|(k, (v, e))| object(v, &e.children, &format!("{path}[{k}]")));
    }
    if let Some(set) = container.filter(|_| values.iter().all(|v| !v.is_object())) {
        if items.len() == 1 && values.iter().all(Value::is_string) && !set.children.is_empty() {
            let on: Vec<&str> = set
                .children
                .iter()
                .filter(|c| c.show == "1" || c.show.eq_ignore_ascii_case("true"))
                .map(Item::name)
                .collect();
            let want: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            return (on != want)
                .then(|| format!("{path}: choices {on:?} shown, {want:?} expected"));
        }
    }
    if values.is_empty()
        && items.len() == 1
        && items
            .iter()
            .all(|i| i.children.iter().all(|c| !is_entry(c)))
    {
        return None;
    }
    if items.len() != values.len() {
        return Some(format!(
            "{path}: {} elements shown, {} expected",
            items.len(),
            values.len()
        ));
    }
    values
        .iter()
        .zip(items)
        .enumerate()
        .find_map(|(k, (v, i))| matches(v, &[i], &format!("{path}[{k}]")))
}

/// The raw value a label shows beside the value: its last `(N)`.
fn raw_beside(showname: &str) -> Option<&str> {
    let inner = showname.strip_suffix(')')?;
    let at = inner.rfind('(')?;
    inner.get(at + 1..)
}

fn scalar(expected: &Value, i: &Item, path: &str) -> Option<String> {
    let fail = || {
        Some(format!(
            "{path}: {} expected, tshark shows {:?} ({:?})",
            expected, i.show, i.showname
        ))
    };
    match expected {
        Value::Null => {
            let null = i.showname.ends_with(": null") || i.show.eq_ignore_ascii_case("nan");
            (!null).then(fail).flatten()
        }
        Value::Number(n) => {
            let text = n.to_string();
            let shown = if i.show.parse::<f64>().is_ok() {
                i.show.as_str()
            } else {
                raw_beside(&i.showname).unwrap_or("")
            };
            if shown == text {
                return None;
            }
            let (Ok(a), Ok(b)) = (shown.parse::<f64>(), text.parse::<f64>()) else {
                return fail();
            };
            let close = (a - b).abs() <= 1e-5 * a.abs().max(b.abs()) || (a == b);
            // Integers must be exact; floats as tshark prints them (6 or 15 digits).
            let integer = !text.contains(['.', 'e', 'E']) && !shown.contains(['.', 'e', 'E']);
            (integer || !close).then(fail).flatten()
        }
        Value::String(s) => {
            let bytes = i.show.replace(':', "");
            let ok = i.show == *s
                || i.showname.starts_with(&format!("{}: {s} (", i.name()))
                || (!s.is_empty() && bytes == *s)
                || (s.is_empty() && (i.show.is_empty() || i.show == "<MISSING>"));
            (!ok).then(fail).flatten()
        }
        _ => fail(),
    }
}

/// `luac -p` of `lua` for each Lua version installed (5.2, 5.4).
pub fn luac(lua: &Path) {
    for luac in ["luac5.2", "luac5.4"] {
        let Ok(out) = Command::new(luac).arg("-p").arg(lua).output() else {
            continue;
        };
        assert!(
            out.status.success(),
            "{luac} -p {}: {}",
            lua.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
