"""Every golden vector of ../shared/vectors (FORMAT.md) decodes through
`Schema.decode` to its `.json`, compared as sbe-command/tests/golden.rs
compares it (test_support::diff), and its `.json` encodes back to its
`.bin`."""

import json
import os

import pytest

import sbe_rs

from conftest import SHARED


def diff(expected, actual, path="$"):
    """test_support::diff: the first difference, or None. Objects need the
    same keys in the same order; numbers compare as numbers (integers
    exactly, others as the same f64); the rest exactly."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if list(expected) != list(actual):
            return f"{path}: want keys {list(expected)}, got {list(actual)}"
        for k, v in expected.items():
            d = diff(v, actual[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path}: want {len(expected)} elements, got {len(actual)}"
        for i, (x, y) in enumerate(zip(expected, actual)):
            d = diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    number = (int, float)
    if (isinstance(expected, number) and isinstance(actual, number)
            and not isinstance(expected, bool) and not isinstance(actual, bool)):
        return None if expected == actual else f"{path}: want {expected}, got {actual}"
    if type(expected) is type(actual) and expected == actual:
        return None
    return f"{path}: want {expected!r}, got {actual!r}"


def vectors():
    root = SHARED / "vectors"
    if not root.is_dir():
        return []
    out = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        for j in sorted(d.glob("*.json")):
            if j.name == "layout.json":
                continue
            stem = j.name[: -len(".json")]
            cross = ".as-v" in stem
            out.append((j, d / (stem.split(".as-v")[0] + ".bin"), cross))
    return out


def test_every_vector_decodes_to_its_json_and_encodes_back(monkeypatch):
    found = vectors()
    if not found:
        if os.environ.get("CI"):
            pytest.fail(f"no golden vectors under {SHARED}")
        pytest.skip(f"no golden vectors under {SHARED} (set SBE_SHARED)")
    # The `schema` key is the path given to Schema.load: the corpus path.
    monkeypatch.chdir(SHARED / "corpus")
    schemas = {}
    failures = []
    checked = 0
    for json_path, bin_path, cross in found:
        want = json.loads(json_path.read_text())
        rel = want["schema"]
        if rel not in schemas:
            schemas[rel] = sbe_rs.Schema.load(rel)
        schema = schemas[rel]
        data = bin_path.read_bytes()
        try:
            got = schema.decode(data)
        except sbe_rs.DecodeError as e:
            failures.append(f"decode {json_path}: {e}")
            continue
        d = diff(want, got)
        if d:
            failures.append(f"decode {json_path}: {d}")
        if cross:
            continue
        checked += 1
        try:
            again = schema.encode(want)
        except sbe_rs.EncodeError as e:
            failures.append(f"encode {json_path}: {e}")
            continue
        if again != data:
            failures.append(f"encode {json_path}: bytes differ")
    assert checked > 1000, f"only {checked} vectors"
    assert not failures, "\n".join(failures[:40])


def test_semantic_values_are_the_clis(md, sbe, tmp_path):
    """`values="semantic"` gives what `sbe decode --values semantic` prints,
    and encodes back."""
    from conftest import trade

    data = md.encode(trade(5))
    (tmp_path / "t.bin").write_bytes(data)
    code, out, err = sbe("decode", "--schema", md.path, "--values", "semantic", tmp_path / "t.bin")
    assert code == 0, err
    got = md.decode(data, values="semantic")
    assert got == json.loads(out)
    assert got["body"]["px"] == "0.1234505"
    assert got["body"]["transactTime"].startswith("2023-11-14T22:13:20.000005")
    assert md.encode(got) == data
