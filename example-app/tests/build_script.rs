//! What `sbe_build::compile` told cargo when it ran as this crate's build
//! script: a `rerun-if-changed` for the schema and for each XInclude part
//! (never a folder), and one generated file per schema package.

use std::path::Path;

#[test]
fn build_script_asks_to_rerun_for_every_file_it_read() {
    let out_dir = Path::new(env!("OUT_DIR"));
    let output = std::fs::read_to_string(out_dir.join("../output")).expect("build script output");
    let reruns: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
        .collect();
    for file in ["car.xml", "common.xml", "market-data.xml"] {
        assert!(
            reruns
                .iter()
                .any(|r| Path::new(r).file_name() == Some(file.as_ref())),
            "no rerun-if-changed for {file} in {reruns:?}"
        );
    }
    assert!(reruns.iter().all(|r| !Path::new(r).is_dir()), "{reruns:?}");
    for generated in ["baseline.rs", "market_data.rs"] {
        assert!(
            out_dir.join(generated).is_file(),
            "{generated} not generated"
        );
    }
}
