"""Spark in local mode (`local[2]`): `mapInArrow` over three capture files
gives the rows `to_arrow` gives over the same files; and the README's
recipe writes them as Parquet from Spark."""

import os
import shutil

import pytest

import sbe_rs

pa = pytest.importorskip("pyarrow")
pyspark = pytest.importorskip("pyspark")

from sbe_rs.spark import for_spark, read_messages  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java for Spark")
    from pyspark.sql import SparkSession

    s = (SparkSession.builder.master("local[2]").appName("sbe-rs-test")
         .config("spark.ui.enabled", "false")
         .config("spark.sql.session.timeZone", "UTC")
         .getOrCreate())
    yield s
    s.stop()


def rows(table):
    """Rows as tuples, in a set-comparable order."""
    cols = table.column_names
    out = [tuple(r[c] for c in cols) for r in table.to_pylist()]
    return sorted(out, key=repr)


def test_map_in_arrow_over_three_captures_is_to_arrow(spark, feed_dir, md, session, captures, tmp_path):
    df = read_messages(spark, str(feed_dir / "feed-*.pcap"), [md.path, session.path], "Trade")
    got = pa.Table.from_batches(df._collect_as_arrow()) if hasattr(df, "_collect_as_arrow") else None
    if got is None:
        got = pa.Table.from_pylist([r.asDict(recursive=True) for r in df.collect()])
    want_batches = []
    for p in captures:
        table = sbe_rs.to_arrow(p, [md, session])["venue.md/Trade"]
        want_batches += [for_spark(b) for b in table.to_batches()]
    want = pa.Table.from_batches(want_batches)
    assert got.num_rows == want.num_rows == sum(
        sbe_rs.to_arrow(p, [md, session])["venue.md/Trade"].num_rows for p in captures)
    assert got.column_names == want.column_names
    assert rows(got) == rows(want)
    # The recipe written out (README): the same rows.
    from pyspark.sql.pandas.types import from_arrow_schema

    from sbe_rs.spark import decode_files, spark_schema

    arrow = md.arrow_schemas(frames=True)["Trade"]
    by_hand = (spark.read.format("binaryFile").load(str(feed_dir / "feed-*.pcap"))
               .mapInArrow(decode_files([md.path, session.path], "Trade"), from_arrow_schema(spark_schema(arrow))))
    assert sorted(map(repr, by_hand.collect())) == sorted(map(repr, df.collect()))
    # The recipe's end: Parquet from Spark.
    out = str(tmp_path / "trades")
    df.write.parquet(out)
    assert spark.read.parquet(out).count() == want.num_rows
