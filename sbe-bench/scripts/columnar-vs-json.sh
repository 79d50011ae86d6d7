#!/usr/bin/env bash
# Parquet export against the JSON path on one capture, in rounds that run
# each binary's Parquet, then HEAD's JSON to a file and to /dev/null, with
# the default threads and with --jobs 1 (issue 20's ">= 1.5x the JSON
# path's messages/s, in the same run"). Prints wall min-max and median,
# CPU and RSS per run, and the JSON/Parquet wall ratio per round.
#
#   cargo build --release -p sbe-command --bin sbe --example gen_market_capture
#   target/release/examples/gen_market_capture 1000000 md.bin md.pcap 4 mdp3
#   sbe-bench/scripts/columnar-vs-json.sh 9 md.pcap BASE_SBE target/release/sbe
#
# Outputs go to a scratch folder beside the capture (removed at the end).
set -euo pipefail
rounds=${1:?rounds}; capture=${2:?capture}; base=${3:?base binary}; head=${4:?head binary}
schema="$(cd "$(dirname "$0")/../.." && pwd)/sbe-command/benches/market-data.xml"
scratch="$(dirname "$capture")/columnar-vs-json.$$"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
raw="$scratch/raw"
t() { local name=$1; shift; /usr/bin/time -f "$name %e %U %S %M" "$@"; }
for _ in $(seq "$rounds"); do
  for jobs in "" "--jobs 1"; do
    sfx=${jobs:+-j1}
    # shellcheck disable=SC2086
    {
      rm -rf "$scratch/out"; sync
      t "parquet-base$sfx" "$base" decode --schema "$schema" --framing mdp3 --format parquet $jobs --out "$scratch/out" "$capture"
      rm -rf "$scratch/out"; sync
      t "parquet-head$sfx" "$head" decode --schema "$schema" --framing mdp3 --format parquet $jobs --out "$scratch/out" "$capture"
      rm -f "$scratch/out.jsonl"; sync
      t "json-file$sfx" "$head" decode --schema "$schema" --framing mdp3 $jobs "$capture" > "$scratch/out.jsonl"
      t "json-null$sfx" "$head" decode --schema "$schema" --framing mdp3 $jobs "$capture" > /dev/null
    } 2>> "$raw"
  done
done
python3 - "$raw" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 5]
runs = {}
for name, wall, user, sys_, rss in rows:
    runs.setdefault(name, []).append((float(wall), float(user) + float(sys_), int(rss)))
for name in sorted(runs):
    v = runs[name]
    w = sorted(x[0] for x in v)
    print(f"{name:16} wall {w[0]:.2f}-{w[-1]:.2f} s, median {st.median(w):.2f} s | "
          f"cpu median {st.median(x[1] for x in v):.2f} s | rss {min(x[2] for x in v) // 1000}-{max(x[2] for x in v) // 1000} MB")
def wall(name): return [x[0] for x in runs.get(name, [])]
for sfx in ["", "-j1"]:
    for json in ["json-file", "json-null"]:
        for pq in ["parquet-head", "parquet-base"]:
            r = [j / p for j, p in zip(wall(json + sfx), wall(pq + sfx))]
            if r:
                print(f"{json + sfx:12} / {pq + sfx:16} per round {' '.join(f'{x:.2f}' for x in r)}, median {st.median(r):.2f}x")
PY
