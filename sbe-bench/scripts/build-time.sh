#!/usr/bin/env bash
# Clean-build time of a consumer crate using schemas/car.xml: once with
# sbe-build + sbe-rt (this workspace), once with ergo-sbe 0.1.30. Each crate
# is created in a temporary folder, with its own empty target folder, and
# built with `cargo build` (dev profile). Prints the two wall-clock times
# and how many warnings each build gave.
#
# Then the consumer's rebuild time after a schema edit, dev and release, for
# car, CME's FixBinary and CME iLink 3 (the last two read from
# ../shared/corpus, skipped when it is not there): the crate is built once,
# then an enum value of a probe type added to the schema's <types> is
# changed (so the generated code changes) and the crate built again; the
# second build is what is timed, build script and codegen included.
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

# The probe type, with value $2, inserted after the first <types> of $1.
probe() {
    grep -q RebuildProbe "$1" || sed -i "0,/<types>/s//<types><enum name=\"RebuildProbe\" encodingType=\"uint8\"><validValue name=\"V\">$2<\/validValue><\/enum>/" "$1"
    sed -i "s/<validValue name=\"V\">[0-9]*</<validValue name=\"V\">$2</" "$1"
}

shared="$root/../shared/corpus/sbe/tests"
for schema in "$root/schemas/car.xml" "$shared/FixBinary.xml" "$shared/ilinkbinary.xml"; do
    if [ ! -f "$schema" ]; then
        echo "rebuild: skipped $(basename "$schema") (not found: $schema)"
        continue
    fi
    name=$(basename "$schema" .xml)
    crate="rebuild-$(echo "$name" | tr 'A-Z' 'a-z')"
    mk "$crate" \
        "sbe-build = { path = \"$root/sbe-build\" }" \
        "sbe-rt = { path = \"$root/sbe-rt\" }" \
        "fn main() { sbe_build::Config::new().schema_file_name(\"$name.xml\", \"generated\").compile(&[\"$name.xml\"]).unwrap(); }" \
        '//! A consumer of one schema.
#![allow(dead_code, missing_docs)]
/// The generated code.
pub mod generated { sbe_rt::include_schema!("generated"); }'
    # The schema's folder, for the parts it includes.
    cp "$(dirname "$schema")"/*.xml "$tmp/$crate/"
    probe "$tmp/$crate/$name.xml" 1
    for profile in dev release; do
        flag=$([ "$profile" = release ] && echo --release || true)
        (cd "$tmp/$crate" && CARGO_TARGET_DIR="$tmp/$crate/target" cargo build -q $flag 2> /dev/null)
        probe "$tmp/$crate/$name.xml" 2
        start=$(date +%s.%N)
        (cd "$tmp/$crate" && CARGO_TARGET_DIR="$tmp/$crate/target" cargo build -q $flag 2> "$tmp/$crate.log")
        end=$(date +%s.%N)
        printf 'rebuild after a schema edit, %s (%s): %.1f s\n' "$name" "$profile" "$(echo "$end - $start" | bc)"
        probe "$tmp/$crate/$name.xml" 1
    done
done
