#!/usr/bin/env python3
"""Prints criterion's medians and ratios of one run as a Markdown table
(the criterion tables of sbe-bench/HISTORY.md).

Usage: sbe-bench/scripts/table.py [CRITERION_DIR]
(default: $CARGO_TARGET_DIR/criterion, else target/criterion)
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")

GROUPS = ["car_decode", "car_encode", "md_decode", "md_encode", "ring_4u32",
          "frame_stream/messages", "frame_stream/bytes", "codegen"]
CONTENDERS = ["this", "raw", "ergo_sbe", "serde_json", "prost"]


def load(group, contender, name):
    parts = group.split("/")
    path = os.path.join(root, parts[0], contender, *parts[1:], "new", name)
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return None


def median(group, contender):
    e = load(group, contender, "estimates.json")
    return e["median"]["point_estimate"] if e else None


def fmt(ns):
    if ns is None:
        return ""
    for unit, scale in (("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


print("| group | " + " | ".join(CONTENDERS) + " | this/raw | this/ergo_sbe |")
print("|---" * (len(CONTENDERS) + 3) + "|")
for g in GROUPS:
    m = {c: median(g, c) for c in CONTENDERS}
    if not any(m.values()):
        continue
    ratio = lambda a, b: f"{m[a] / m[b]:.2f}" if m[a] and m[b] else ""
    print(f"| {g} | " + " | ".join(fmt(m[c]) for c in CONTENDERS)
          + f" | {ratio('this', 'raw')} | {ratio('this', 'ergo_sbe')} |")

print()
print("| throughput (from the median) | " + " | ".join(CONTENDERS[:3]) + " |")
print("|---" * 4 + "|")
for g in ("ring_4u32", "frame_stream/messages", "frame_stream/bytes"):
    cells = []
    for c in CONTENDERS[:3]:
        m, b = median(g, c), load(g, c, "benchmark.json")
        t = (b or {}).get("throughput") or {}
        if not m or not t:
            cells.append("")
        elif "Bytes" in t:
            cells.append(f"{t['Bytes'] / m:.2f} GB/s")
        else:
            cells.append(f"{t['Elements'] / m * 1e3:.1f} M/s")
    print(f"| {g} | " + " | ".join(cells) + " |")
