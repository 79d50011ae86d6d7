"""`to_arrow`'s tables reach pyarrow, Polars and DuckDB without a copy:
the buffers pyarrow holds are those Rust made (the addresses are equal),
Polars holds the same memory, and DuckDB scans them in place and gives
the same values. DuckDB shows no buffer addresses; the strongest check it
allows is to change a value in the memory Rust made, at the address Rust
gave, and see DuckDB's next query of the registered table read it."""

import ctypes

import pytest

import sbe_rs

pa = pytest.importorskip("pyarrow")


def tables_with_addresses(source, schemas):
    """The tables of `to_arrow` (made as it makes them), each with the
    addresses of its first batch's columns' buffers as Rust made them."""
    batches, addresses = {}, {}
    for key, stream in sbe_rs._arrow_batches(source, schemas, "raw", "report", 0, (), (), True, True, False):
        addresses.setdefault(key, stream.buffer_addresses)
        batches.setdefault(key, []).append(pa.RecordBatchReader.from_stream(stream).read_next_batch())
    return {key: (pa.Table.from_batches(b), addresses[key]) for key, b in batches.items()}


def values_address(chunk):
    """The address of a primitive array's values buffer (pyarrow puts the
    validity bitmap first)."""
    return chunk.buffers()[1].address


def test_pyarrow_takes_rusts_buffers(md, session, captures):
    tables = tables_with_addresses(captures[0], [md, session])
    table, addresses = tables["venue.md/Trade"]
    assert table.num_rows > 0
    for name in ("qty", "px", "transactTime"):
        i = table.schema.get_field_index(name)
        chunk = table.column(i).chunks[0]
        assert values_address(chunk) == addresses[i], name


def test_polars_takes_them_too(md, session, captures):
    pl = pytest.importorskip("polars")
    table = sbe_rs.to_arrow(captures[0], [md, session])["venue.md/Trade"]
    df = pl.from_arrow(table, rechunk=False)
    for name in ("qty", "px"):
        back = df[name].to_arrow()
        if isinstance(back, pa.ChunkedArray):
            back = back.chunks[0]
        assert values_address(back) == values_address(table.column(name).chunks[0]), name
    assert df["qty"].to_list() == table.column("qty").to_pylist()
    assert df["px"].to_list() == table.column("px").to_pylist()
    # A Polars query on it.
    buys = df.filter(pl.col("side") == "BUY").select(pl.col("qty").sum()).item()
    assert buys == sum(q for q, s in zip(table.column("qty").to_pylist(), table.column("side").to_pylist()) if s == "BUY")


def test_duckdb_scans_them_in_place(md, session, captures):
    duckdb = pytest.importorskip("duckdb")
    trades = sbe_rs.to_arrow(captures[0], [md, session])["venue.md/Trade"]
    con = duckdb.connect()
    con.register("trades", trades)
    got = con.execute("SELECT qty, px, side FROM trades ORDER BY msgIndex").fetchall()
    want = list(zip(*(trades.column(c).to_pylist() for c in ("qty", "px", "side"))))
    assert got == want
    n = con.execute("SELECT count(*) FROM trades, unnest(fills) AS f").fetchone()[0]
    assert n == sum(len(f) for f in trades.column("fills").to_pylist())


def test_duckdb_reads_the_memory_rust_made(md, session, captures):
    duckdb = pytest.importorskip("duckdb")
    trades, addresses = tables_with_addresses(captures[0], [md, session])["venue.md/Trade"]
    i = trades.schema.get_field_index("qty")
    assert trades.schema.field(i).type == pa.uint32()
    chunk = trades.column(i).chunks[0]
    assert values_address(chunk) == addresses[i]
    con = duckdb.connect()
    con.register("trades", trades)
    qty = [q for (q,) in con.execute("SELECT qty FROM trades ORDER BY msgIndex").fetchall()]
    assert qty == trades.column("qty").to_pylist()
    # The first row's qty, written where Rust put it: DuckDB reads it there.
    first = ctypes.c_uint32.from_address(addresses[i] + 4 * chunk.offset)
    was = first.value
    first.value = 4242
    try:
        seen = con.execute("SELECT qty FROM trades ORDER BY msgIndex LIMIT 1").fetchone()[0]
    finally:
        first.value = was
    assert (was, seen) == (qty[0], 4242)
