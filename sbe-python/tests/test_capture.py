"""A capture of two schemas through `read` and `to_arrow` equals what the
`sbe` binary gives for it: its JSON lines and its Parquet dataset."""

import io
import json
import warnings

import pytest

import sbe_rs

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def cli_lines(sbe, md, session, path, *extra):
    code, out, err = sbe("decode", "--schema", md.path, "--schema", session.path, *extra, path)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_read_of_a_capture_is_the_clis_json(sbe, md, session, captures):
    want = cli_lines(sbe, md, session, captures[0])
    got = list(sbe_rs.read(captures[0], [md, session]))
    assert len(got) == 40
    assert got == want
    # The frame: packet, time, addresses, offset.
    f = got[0]["frame"]
    assert (f["packet"], f["transport"], f["src"], f["dst"], f["offset"]) == (
        1, "udp", "10.0.0.1:9000", "10.0.0.2:5000", 0)
    assert {m["message"] for m in got} == {"Trade", "Heartbeat"}
    assert {m["schema"] for m in got} == {md.path, session.path}


def test_read_takes_bytes_and_file_objects_alike(md, session, captures):
    data = captures[1].read_bytes()
    by_path = list(sbe_rs.read(captures[1], [md, session]))
    assert list(sbe_rs.read(data, [md, session])) == by_path
    assert list(sbe_rs.read(io.BytesIO(data), [md, session])) == by_path
    with open(captures[1], "rb") as f:
        assert list(sbe_rs.read(f, [md, session])) == by_path


def test_read_of_a_sofh_stream_and_semantic_values(sbe, md, tmp_path):
    from conftest import trade

    msgs = [md.encode(trade(i)) for i in range(5)]
    # SOFH: u32 BE length (of the frame), u16 BE encoding type 0x5BE0 (LE schema: 0xEB50).
    stream = b"".join(
        (6 + len(m)).to_bytes(4, "big") + (0xEB50).to_bytes(2, "big") + m for m in msgs)
    path = tmp_path / "s.sofh"
    path.write_bytes(stream)
    code, out, err = sbe("decode", "--schema", md.path, "--framing", "sofh", "--values", "semantic", path)
    assert code == 0, err
    want = [json.loads(line) for line in out.splitlines()]
    assert list(sbe_rs.read(path, md, framing="sofh", values="semantic")) == want
    assert len(want) == 5


def parquet_tables(sbe, md, session, paths, out):
    code, _, err = sbe("decode", "--schema", md.path, "--schema", session.path,
                       "--format", "parquet", "--out", out, "--jobs", "1", *paths)
    assert code == 0, err
    tables = {}
    for package in (md.package, session.package):
        root = out / f"schema={package.replace('.', '_')}"
        for d in sorted(root.iterdir()):
            if d.is_dir() and not d.name.startswith("."):
                parts = sorted(d.glob("*.parquet"))
                tables[f"{package}/{d.name}"] = pa.concat_tables([pq.read_table(p) for p in parts])
    return tables


def test_to_arrow_of_a_capture_is_the_clis_parquet(sbe, md, session, captures, tmp_path):
    want = parquet_tables(sbe, md, session, [captures[0]], tmp_path / "out")
    got = sbe_rs.to_arrow(captures[0], [md, session])
    assert sorted(got) == sorted(want) == ["venue.md/Trade", "venue.session/Heartbeat"]
    for key, table in got.items():
        w = want[key]
        assert table.schema.equals(w.schema, check_metadata=False), f"{key}:\n{table.schema}\n{w.schema}"
        assert table.combine_chunks().equals(w.combine_chunks()), key
    trades = got["venue.md/Trade"]
    assert trades.schema.field("px").type == pa.decimal128(19, 7)
    assert pa.types.is_timestamp(trades.schema.field("transactTime").type)
    assert pa.types.is_dictionary(trades.schema.field("side").type)
    assert pa.types.is_list(trades.schema.field("fills").type)


def test_record_batches_are_to_arrows_rows(md, session, captures):
    tables = sbe_rs.to_arrow(captures[2], [md, session])
    batches = list(sbe_rs.record_batches(captures[2], [md, session], message="Trade"))
    assert batches and all(isinstance(b, pa.RecordBatch) for b in batches)
    assert pa.Table.from_batches(batches).equals(tables["venue.md/Trade"].combine_chunks())
    with pytest.raises(ValueError, match="several message types"):
        list(sbe_rs.record_batches(captures[2], [md, session]))


def test_write_dataset_is_the_clis(sbe, md, session, captures, tmp_path):
    want = parquet_tables(sbe, md, session, captures, tmp_path / "cli")
    out = tmp_path / "py"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        done = sbe_rs.write_dataset(captures, out, [md, session], jobs=1)
    assert done["messages"] == sum(40 + 7 * k for k in range(3))
    assert done["refused"] == 0
    rel = sorted(str(p.relative_to(out)) for p in out.rglob("*.parquet"))
    assert rel == sorted(str(p.relative_to(tmp_path / "cli")) for p in (tmp_path / "cli").rglob("*.parquet"))
    for key, w in want.items():
        package, name = key.split("/")
        parts = sorted((out / f"schema={package.replace('.', '_')}" / name).glob("*.parquet"))
        got = pa.concat_tables([pq.read_table(p) for p in parts])
        assert got.equals(w), key
    with pytest.raises(sbe_rs.SbeError):
        sbe_rs.write_dataset(captures, out, [md, session])  # exists: refused


def test_timestamp_unit_is_the_clis_and_keeps_lost_digits_in_raw(sbe, md, session, captures, tmp_path):
    # transactTime is whole microseconds (1.7e18 + i * 1000 ns): in
    # milliseconds, every trade but the first of each thousand loses digits.
    tables = sbe_rs.to_arrow(captures[0], [md, session], timestamp_unit="ms")
    trades = tables["venue.md/Trade"]
    assert trades.schema.field("transactTime").type == pa.timestamp("ms", tz="UTC")
    assert trades.schema.field("time").type == pa.timestamp("ms", tz="UTC")
    wire = [t.value for t in sbe_rs.to_arrow(captures[0], [md, session])["venue.md/Trade"].column("transactTime")]
    got = trades.column("transactTime").cast(pa.int64()).to_pylist()
    assert got == [w // 1_000_000 for w in wire]
    raw = trades.column("transactTime_raw").to_pylist()
    assert raw == [None if w % 1_000_000 == 0 else w for w in wire]
    assert md.arrow_schemas(frames=True, timestamp_unit="ms")["Trade"] == trades.schema
    with pytest.raises(ValueError, match="give ns, us or ms"):
        sbe_rs.to_arrow(captures[0], [md, session], timestamp_unit="s")
    # write_dataset writes what `sbe decode --timestamp-unit ms` writes.
    code, _, err = sbe("decode", "--schema", md.path, "--schema", session.path, "--format", "parquet",
                       "--timestamp-unit", "ms", "--out", tmp_path / "cli", captures[0])
    assert code == 0, err
    sbe_rs.write_dataset(captures[0], tmp_path / "py", [md, session], timestamp_unit="ms")
    for p in (tmp_path / "cli").rglob("*.parquet"):
        assert pq.read_table(tmp_path / "py" / p.relative_to(tmp_path / "cli")).equals(pq.read_table(p)), p
