//! Helpers of the sbe-cli tests alone: running the built `sbe` binary,
//! scratch folders and MDP3 packets. What the workspace's tests share (../shared, golden
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
    let dir = std::env::temp_dir().join(format!("sbe-cli-test-{}-{name}", std::process::id()));
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
