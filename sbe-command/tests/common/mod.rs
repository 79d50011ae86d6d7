//! Helpers of the sbe-command tests alone: running the built `sbe` binary,
//! scratch folders, SOFH frames, MDP3 packets and pcapng files. What the workspace's tests share (../shared, golden
//! vectors, FORMAT.md's comparison) is in the `test-support` crate.
#![allow(dead_code)]

use std::path::PathBuf;

/// Run the `sbe` binary with `args` and `stdin`: (exit code, stdout, stderr).
pub fn sbe(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sbe"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sbe");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait sbe");
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh scratch folder under the system temp dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sbe-command-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// An MDP3 packet: MsgSeqNum, SendingTime, then each message behind its
/// u16 MsgSize (counting itself).
pub fn mdp3(seq: u32, sending_time: u64, msgs: &[impl AsRef<[u8]>]) -> Vec<u8> {
    let mut p = seq.to_le_bytes().to_vec();
    p.extend(sending_time.to_le_bytes());
    for m in msgs {
        let m = m.as_ref();
        p.extend(((m.len() + 2) as u16).to_le_bytes());
        p.extend(m);
    }
    p
}

/// A SOFH frame (big-endian header, SBE little-endian encoding type).
pub fn sofh(msg: &[u8]) -> Vec<u8> {
    let mut v = ((msg.len() + 6) as u32).to_be_bytes().to_vec();
    v.extend_from_slice(&0xEB50u16.to_be_bytes());
    v.extend_from_slice(msg);
    v
}

/// One packet of a capture: when, and the link-layer frame.
pub struct Rec {
    pub secs: u32,
    pub nanos: u32,
    pub frame: Vec<u8>,
}

/// Packet `i`, captured at 1709649001 + `i` seconds and 123456789 ns.
pub fn rec(i: u32, frame: Vec<u8>) -> Rec {
    Rec {
        secs: 1_709_649_001 + i,
        nanos: 123_456_789,
        frame,
    }
}

/// A pcapng block: type, total length, body (padded to 4), total length.
fn block(kind: u32, body: &[u8]) -> Vec<u8> {
    let pad = (4 - body.len() % 4) % 4;
    let len = (12 + body.len() + pad) as u32;
    let mut b = kind.to_le_bytes().to_vec();
    b.extend(len.to_le_bytes());
    b.extend(body);
    b.extend(vec![0; pad]);
    b.extend(len.to_le_bytes());
    b
}

/// A little-endian pcapng file: a section, one interface with ns
/// timestamps (if_tsresol 9), an enhanced packet block per packet.
pub fn pcapng(link: u32, recs: &[Rec]) -> Vec<u8> {
    let mut shb = 0x1a2b_3c4du32.to_le_bytes().to_vec();
    shb.extend(1u16.to_le_bytes());
    shb.extend(0u16.to_le_bytes());
    shb.extend((-1i64).to_le_bytes()); // section length unknown
    let mut f = block(0x0a0d_0d0a, &shb);
    let mut idb = (link as u16).to_le_bytes().to_vec();
    idb.extend(0u16.to_le_bytes());
    idb.extend(0u32.to_le_bytes()); // snaplen: none
    idb.extend(9u16.to_le_bytes()); // if_tsresol
    idb.extend(1u16.to_le_bytes());
    idb.extend([9, 0, 0, 0]);
    idb.extend([0, 0, 0, 0]); // opt_endofopt
    f.extend(block(1, &idb));
    for r in recs {
        let ts = u64::from(r.secs) * 1_000_000_000 + u64::from(r.nanos);
        let mut epb = 0u32.to_le_bytes().to_vec();
        epb.extend(((ts >> 32) as u32).to_le_bytes());
        epb.extend((ts as u32).to_le_bytes());
        epb.extend((r.frame.len() as u32).to_le_bytes());
        epb.extend((r.frame.len() as u32).to_le_bytes());
        epb.extend(&r.frame);
        epb.extend(vec![0; (4 - r.frame.len() % 4) % 4]);
        f.extend(block(6, &epb));
    }
    f
}

/// Ethernet addresses of the frames built here.
pub const MAC_A: [u8; 6] = [2, 0, 0, 0, 0, 1];
pub const MAC_B: [u8; 6] = [2, 0, 0, 0, 0, 2];

/// `a.b.c.d:port` as its octets and port.
pub fn v4(s: &str) -> ([u8; 4], u16) {
    let a: std::net::SocketAddrV4 = s.parse().expect("ipv4:port");
    (a.ip().octets(), a.port())
}

/// An Ethernet frame of a UDP datagram (IPv4) from `src` to `dst`.
pub fn udp(src: &str, dst: &str, payload: &[u8]) -> Vec<u8> {
    let (s, sp) = v4(src);
    let (d, dp) = v4(dst);
    let mut f = Vec::new();
    etherparse::PacketBuilder::ethernet2(MAC_A, MAC_B)
        .ipv4(s, d, 64)
        .udp(sp, dp)
        .write(&mut f, payload)
        .expect("udp frame");
    f
}
