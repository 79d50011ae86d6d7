#!/usr/bin/env bash
# Clean-build time of a consumer crate using schemas/car.xml: once with
# sbe-build + sbe-rt (this workspace), once with ergo-sbe 0.1.30. Each crate
# is created in a temporary folder, with its own empty target folder, and
# built with `cargo build` (dev profile). Prints the two wall-clock times
# and how many warnings each build gave.
#
# Usage: sbe-bench/scripts/build-time.sh   (from the repository root)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mk() { # name, build-dependency line, dependency line, build.rs, lib.rs
    mkdir -p "$tmp/$1/src"
    cat > "$tmp/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.1.0"
edition = "2021"
publish = false
[workspace]
[build-dependencies]
$2
[dependencies]
$3
TOML
    printf '%s\n' "$4" > "$tmp/$1/build.rs"
    printf '%s\n' "$5" > "$tmp/$1/src/lib.rs"
}

mk with-sbe-build \
    "sbe-build = { path = \"$root/sbe-build\" }" \
    "sbe-rt = { path = \"$root/sbe-rt\" }" \
    "fn main() { sbe_build::compile(\"$root/schemas/car.xml\").unwrap(); }" \
    '//! A consumer of the car schema.
/// The generated code.
pub mod baseline { sbe_rt::include_schema!("baseline"); }'

mk with-ergo-sbe \
    'ergo-sbe = { version = "=0.1.30", default-features = false }' \
    '' \
    "fn main() {
    let ir = ergo_sbe::parse_file(\"$root/schemas/car.xml\").unwrap();
    let set = ergo_sbe::Generator::new(ergo_sbe::GenerationConfig::new(\"car\"))
        .generate(&ergo_sbe::Schema::from_ir(ir))
        .unwrap();
    let out = std::path::PathBuf::from(std::env::var(\"OUT_DIR\").unwrap());
    for m in set.modules() { std::fs::write(out.join(&m.path), &m.source).unwrap(); }
}" \
    '//! A consumer of the car schema.
/// The generated code.
pub mod car { include!(concat!(env!("OUT_DIR"), "/car.rs")); }'

# Fetch first, so that download time is not counted.
for c in with-sbe-build with-ergo-sbe; do
    (cd "$tmp/$c" && cargo fetch -q)
done
for c in with-sbe-build with-ergo-sbe; do
    start=$(date +%s.%N)
    (cd "$tmp/$c" && CARGO_TARGET_DIR="$tmp/$c/target" cargo build 2> "$tmp/$c.log")
    end=$(date +%s.%N)
    warnings=$(grep -c '^warning' "$tmp/$c.log" || true)
    printf '%s: %.1f s, %s warning lines\n' "$c" "$(echo "$end - $start" | bc)" "$warnings"
done
