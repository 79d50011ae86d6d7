#!/usr/bin/env bash
# Instructions per operation of every benchmarked operation (callgrind;
# deterministic for one binary and input): the run's total less that of a
# 0-iteration run, divided by the iteration count.
#
#   sbe-bench/scripts/instructions.sh [ITERATIONS] [OP...]
#
# Needs valgrind. Builds examples/profile in release first.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20000}
shift || true
ops=("$@")
if [ ${#ops[@]} -eq 0 ]; then
  for g in car_decode car_encode md_decode md_encode ring_4u32 md_len; do
    for c in this raw ergo_sbe; do ops+=("$g/$c"); done
  done
  for g in car_owned_decode car_owned_encode md_owned_decode md_owned_encode; do
    for c in this flyweight ergo_sbe; do ops+=("$g/$c"); done
  done
  ops+=(car_text/this md_text/this)
fi
cargo build --release -q -p sbe-bench --example profile
bin=${CARGO_TARGET_DIR:-target}/release/examples/profile
total() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-22s %10s\n' op instr/op
for op in "${ops[@]}"; do
  empty=$(total "$op" 0)
  full=$(total "$op" "$n")
  awk -v op="$op" -v e="$empty" -v f="$full" -v n="$n" \
    'BEGIN { printf "%-22s %10.1f\n", op, (f - e) / n }'
done
