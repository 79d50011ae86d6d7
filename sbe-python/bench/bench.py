"""The Python package's figures in BENCHMARKS.md (not a test): wall time,
best of ROUNDS, on the machine at hand.

    cargo build --release -p sbe-command --bin sbe --example gen_market_capture
    target/release/examples/gen_market_capture 1000000 md.bin md.pcap 4 mdp3
    pip install ./sbe-python sbe==0.4.3
    python3 sbe-python/bench/bench.py md.pcap target/release/sbe [ROUNDS]

1. to_arrow of the capture against the Rust exporter (`sbe decode --format
   arrow|parquet --jobs 1`), messages/s;
2. Schema.decode of car messages (car-plain.xml, one dict each) against
   the PyPI package `sbe` on the same bytes;
3. read (dicts) of four 100,000-message captures and to_arrow of four of
   the capture, on 1, 2 and 4 threads (each read has a Rust reading thread
   of its own besides);
4. the peak memory (max RSS) of record_batches, read and to_arrow of the
   capture, each in a fresh process: streaming holds a few batches, to_arrow
   the tables.

The load average (others' builds) is printed at the start and the end.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sbe_rs

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SBE_SHARED", ROOT.parent / "shared"))
MD_SCHEMA = ROOT / "sbe-command" / "benches" / "market-data.xml"


def best(rounds, f):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def arrow_vs_exporter(capture, sbe_bin, rounds):
    md = sbe_rs.Schema.load(MD_SCHEMA)
    n = sum(t.num_rows for k, t in sbe_rs.to_arrow(capture, md, framing="mdp3").items() if k != "_errors")
    py = best(rounds, lambda: sbe_rs.to_arrow(capture, md, framing="mdp3"))
    out = {}
    for fmt in ("arrow", "parquet"):
        d = tempfile.mkdtemp()

        def cli():
            shutil.rmtree(d, ignore_errors=True)
            subprocess.run([sbe_bin, "decode", "--schema", str(MD_SCHEMA), "--framing", "mdp3", "--format", fmt,
                            "--jobs", "1", "--out", d, str(capture)], check=True)

        out[fmt] = best(rounds, cli)
        shutil.rmtree(d, ignore_errors=True)
    print(f"to_arrow: {n} messages, {n / py / 1e6:.2f} M msg/s ({py:.3f} s)")
    for fmt, t in out.items():
        print(f"sbe decode --format {fmt} --jobs 1: {n / t / 1e6:.2f} M msg/s ({t:.3f} s); to_arrow / it: {t / py:.2f}x")


def car_vs_pypi(rounds):
    """The PyPI package decodes none of the golden Car vectors (constant
    members, sets, composites and var data trip it), so both decode the
    same messages of car-plain.xml, the sample Car cut to what it reads."""
    import random

    import sbe as pypi_sbe

    xml = Path(__file__).with_name("car-plain.xml")
    ours = sbe_rs.Schema.load(xml)
    with open(xml) as f:
        theirs = pypi_sbe.Schema.parse(f)
    rng = random.Random(7)
    msgs = [ours.encode({"message": "Car", "body": {
        "serialNumber": rng.randrange(1 << 40), "modelYear": 2000 + i % 25, "available": "FT"[i % 2],
        "code": "ABC"[i % 3], "vehicleCode": f"v{i % 100000:05d}", "mileage": rng.randrange(1 << 20),
        "fuelFigures": [{"speed": 30 + 10 * j, "mpg": 20.5 + j} for j in range(i % 4)]}})
        for i in range(20000)]
    assert theirs.decode(msgs[5]).value["fuelFigures"][0]["speed"] == ours.decode(msgs[5])["body"]["fuelFigures"][0]["speed"]
    a = best(rounds, lambda: [ours.decode(m) for m in msgs])
    b = best(rounds, lambda: [theirs.decode(m) for m in msgs])
    print(f"car decode, {len(msgs)} messages of car-plain.xml, a dict each: sbe_rs {len(msgs) / a / 1e3:.0f} k msg/s, "
          f"PyPI sbe 0.4.3 {len(msgs) / b / 1e3:.1f} k msg/s: sbe_rs {b / a:.1f}x faster")


def threads(small, capture, rounds):
    """Against a control: hashlib, which releases the GIL too, tells how many
    cores the machine gives at the time."""
    import hashlib

    data = b"x" * (200 << 20)
    for k in (1, 2):
        with ThreadPoolExecutor(k) as pool:
            t = best(rounds, lambda: list(pool.map(lambda _: hashlib.sha256(data).digest(), range(4))))
        print(f"control, sha256 of 4 x 200 MB on {k} threads: {t:.2f} s")
    md = sbe_rs.Schema.load(MD_SCHEMA)
    # read (dicts) of the small capture, to_arrow of the large one: each
    # a second or more on one thread.
    for name, path, f in (("read", small, lambda p: sum(1 for _ in sbe_rs.read(p, md, framing="mdp3"))),
                          ("to_arrow", capture, lambda p: sbe_rs.to_arrow(p, md, framing="mdp3"))):
        files = [path] * 4
        base = None
        for k in (1, 2, 4):
            with ThreadPoolExecutor(k) as pool:
                t = best(rounds, lambda: list(pool.map(f, files)))
            base = base or t
            print(f"{name} of 4 captures of {path.name} on {k} threads: {t:.2f} s ({base / t:.2f}x of 1 thread)")


def memory(capture):
    """Peak RSS of each call over the capture, in a process of its own
    (VmHWM: getrusage's ru_maxrss keeps the forking parent's peak across
    exec)."""
    calls = {
        "import only": "pass",
        "record_batches": "sum(b.num_rows for b in sbe_rs.record_batches(c, md, 'mdp3', message='BookUpdate'))",
        "read": "sum(1 for _ in sbe_rs.read(c, md, 'mdp3'))",
        "to_arrow": "sbe_rs.to_arrow(c, md, 'mdp3')",
    }
    for name, call in calls.items():
        code = (f"import sbe_rs, pyarrow; md = sbe_rs.Schema.load({str(MD_SCHEMA)!r}); c = {str(capture)!r}; {call}; "
                "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')))")
        kb = int(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)
        print(f"peak RSS, {name} of the {os.path.getsize(capture) / 1e6:.0f} MB capture: {kb / 1024:.0f} MB")


def load():
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    load()
    capture, sbe_bin = Path(sys.argv[1]), sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if os.environ.get("SKIP_ARROW") is None:
        arrow_vs_exporter(capture, sbe_bin, rounds)
    car_vs_pypi(rounds)
    small = Path(tempfile.mkdtemp()) / "small.pcap"
    gen = Path(sbe_bin).parent / "examples" / "gen_market_capture"
    subprocess.run([str(gen), "100000", str(small.with_suffix(".bin")), str(small), "4", "mdp3"], check=True)
    threads(small, capture, rounds)
    if os.environ.get("SKIP_ARROW") is None:
        memory(capture)
    load()
