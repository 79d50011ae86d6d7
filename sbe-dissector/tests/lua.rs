//! The generated Lua as Lua itself sees it: every file passes `luac -p`
//! of Lua 5.2 (Wireshark 4.0) and 5.4, and the prelude's helpers that
//! need no Wireshark run on both. Skipped with a notice where neither is
//! installed (failing with CI=true); `.ci/run` installs them.

use std::path::{Path, PathBuf};
use std::process::Command;

use sbe_dissector::{Dissector, Framing};

/// A fresh folder for `name`'s files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sbe-dissector-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Fails when nothing ran and CI=true, else says that `test` skipped.
fn none_ran(test: &str, what: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: no {what} installed (CI=true)"
    );
    eprintln!("{test}: no {what} installed, skipped");
}

#[test]
fn every_framing_passes_luac() {
    let dir = scratch("luac");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/");
    let car = sbe_ir::ir::load(format!("{root}car.xml")).unwrap();
    let md = sbe_ir::ir::load(format!("{root}market-data.xml")).unwrap();
    let schemas = [car, md];
    let mut files = Vec::new();
    for (i, framing) in [
        "raw",
        "sofh",
        "sofh-le",
        "mdp3",
        "len=u32be,counts=message",
        "packet=16,len=u16be",
    ]
    .into_iter()
    .enumerate()
    {
        let framing: Framing = framing.parse().unwrap();
        let tcp = if framing.is_packet() {
            vec![]
        } else {
            vec![9000]
        };
        let lua = Dissector::new(&schemas)
            .framing(framing)
            .udp_ports([5000])
            .tcp_ports(tcp)
            .protocol("venue")
            .generate()
            .unwrap();
        let path = dir.join(format!("{i}.lua"));
        std::fs::write(&path, lua).unwrap();
        files.push(path);
    }
    let mut ran = 0;
    for luac in ["luac5.2", "luac5.4"] {
        for file in &files {
            let Ok(out) = Command::new(luac).arg("-p").arg(file).output() else {
                eprintln!("every_framing_passes_luac: {luac} is not installed");
                break;
            };
            assert!(
                out.status.success(),
                "{luac} -p {}: {}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    if ran == 0 {
        none_ran("every_framing_passes_luac", "luac5.2 or luac5.4");
    }
}

/// The generated file's helpers that need no Wireshark, run by Lua 5.2
/// and 5.4 themselves (where installed): exact decimals, integers as
/// integers, dates and MonthYears.
#[test]
fn helpers_on_lua_5_2_and_5_4() {
    let checks = r#"
assert(dec_text(123456, -2) == "1234.56", dec_text(123456, -2))
assert(dec_text(-5, -3) == "-0.005", dec_text(-5, -3))
assert(dec_text(7, 2) == "700")
assert(dec_text(0, 3) == "0")
assert(dec_text(12, 0) == "12")
assert(int(2.0) == "2" and int(-7) == "-7", int(2.0))
assert(date_text(19787) == "2024-03-05", date_text(19787))
assert(month_year(2024, 3, 15, nil) == "2024-03-15")
assert(month_year(2024.0, 3.0, nil, 2.0) == "2024-03w2")
assert(isnan(0/0) and not isnan(1.5))
local held_as_float = { tonumber = function() return 2000.0 end }
assert(tostring(u64num(held_as_float)) == "2000", tostring(u64num(held_as_float)))
assert(int(u64num(held_as_float)) == "2000")
local m = measure_tree()
assert(m:add(1, 2):add_le(3):set_text("x") == m)
print("ok")
"#;
    let script = format!("E = {{}}\n{}\n{checks}", include_str!("../src/prelude.lua"));
    let dir = scratch("helpers");
    let path = dir.join("helpers.lua");
    std::fs::write(&path, script).unwrap();
    let mut ran = 0;
    for lua in ["lua5.2", "lua5.4"] {
        let Ok(out) = Command::new(lua).arg(&path).output() else {
            eprintln!("helpers_on_lua_5_2_and_5_4: {lua} is not installed, skipped");
            continue;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.trim() == "ok",
            "{lua}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    if ran == 0 {
        none_ran("helpers_on_lua_5_2_and_5_4", "lua5.2 or lua5.4");
    }
}
