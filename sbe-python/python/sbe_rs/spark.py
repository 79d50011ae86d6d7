"""Decoding captures across a Spark cluster with ``mapInArrow``.

Spark reads each file with the ``binaryFile`` source, and every executor
runs :func:`sbe_rs.record_batches` over the files it is given, handing Arrow
record batches back to Spark: one DataFrame per message type.

    >>> from sbe_rs.spark import read_messages
    >>> trades = read_messages(spark, "s3://bucket/pcaps/*.pcap", ["md.xml"], "Trade", framing="mdp3")
    >>> trades.write.parquet("s3://bucket/trades/")

Spark has no unsigned integers, no nanosecond timestamps, no times of day
and no dictionary arrays: :func:`for_spark` maps the columns that use them
(uint8/16/32 to the next wider signed integer, uint64 to decimal(20,0),
timestamps to microseconds, time64 to int64 nanoseconds, dictionaries to
their values). Everything else (Decimal128, list<struct>, structs, dates,
strings, binary) is kept.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator, Optional, Sequence

import sbe_rs

__all__ = ["for_spark", "spark_schema", "decode_files", "read_messages"]


def _spark_type(t: Any) -> Any:
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        return _spark_type(t.value_type)
    if pa.types.is_uint8(t):
        return pa.int16()
    if pa.types.is_uint16(t):
        return pa.int32()
    if pa.types.is_uint32(t):
        return pa.int64()
    if pa.types.is_uint64(t):
        return pa.decimal128(20, 0)
    if pa.types.is_timestamp(t):
        return pa.timestamp("us", tz=t.tz)
    if pa.types.is_time(t):
        return pa.int64()
    if pa.types.is_large_list(t) or pa.types.is_list(t):
        return pa.list_(pa.field(t.value_field.name, _spark_type(t.value_type), t.value_field.nullable))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _spark_type(f.type), f.nullable) for f in t])
    return t


def spark_schema(schema: Any) -> Any:
    """The ``pyarrow.Schema`` :func:`for_spark` gives batches of ``schema``."""
    import pyarrow as pa

    return pa.schema([pa.field(f.name, _spark_type(f.type), f.nullable) for f in schema])


def for_spark(batch: Any) -> Any:
    """``batch`` with its columns cast to types Spark takes (see the module's
    docstring). A timestamp keeps its microseconds (nanoseconds are cut)."""
    import pyarrow as pa

    target = spark_schema(batch.schema)
    if target.equals(batch.schema):
        return batch
    columns = []
    for col, field in zip(batch.columns, target):
        if col.type.equals(field.type):
            columns.append(col)
            continue
        if pa.types.is_time(col.type):
            col = col.cast(pa.int64())
        columns.append(col.cast(field.type, safe=False))
    return pa.RecordBatch.from_arrays(columns, schema=target)


def decode_files(
    schema_paths: Sequence[str],
    message: str,
    framing: str = "raw",
    **options: Any,
) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The function to give ``DataFrame.mapInArrow``: it takes the batches of
    a ``binaryFile`` DataFrame (its ``content`` column) and yields the
    ``message`` batches of each file, cast :func:`for_spark`. The schemas are
    loaded on each executor from ``schema_paths`` (paths every executor can
    read); ``options`` are :func:`sbe_rs.record_batches`'s."""
    paths = [os.fspath(p) for p in schema_paths]

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        schemas = [sbe_rs.Schema.load(p) for p in paths]
        for batch in batches:
            for content in batch.column("content").to_pylist():
                for rb in sbe_rs.record_batches(content, schemas, framing, message=message, **options):
                    yield for_spark(rb)

    return run


def read_messages(
    spark: Any,
    path: str,
    schema_paths: Sequence[str],
    message: str,
    framing: str = "raw",
    frames: Optional[bool] = None,
    **options: Any,
) -> Any:
    """A DataFrame of the ``message`` rows of every file under ``path`` (a
    ``binaryFile`` path or glob): ``spark.read.format("binaryFile")
    .load(path).mapInArrow(decode_files(...), schema)``. ``frames``: whether
    the files are captures (their tables have the frame columns); by
    default, whether ``path`` names ``.pcap``/``.pcapng`` files. Every file
    must be of the one kind: the columns are declared up front."""
    from pyspark.sql.pandas.types import from_arrow_schema

    schemas = [sbe_rs.Schema.load(p) for p in schema_paths]
    if frames is None:
        frames = ".pcap" in path
    arrow = None
    for s in schemas:
        tables = s.arrow_schemas(frames=frames)
        if message in tables:
            arrow = tables[message]
            break
    if arrow is None:
        raise ValueError(f"message {message!r}: no schema given has it")
    files = spark.read.format("binaryFile").load(path)
    return files.mapInArrow(
        decode_files(schema_paths, message, framing, **options),
        from_arrow_schema(spark_schema(arrow)),
    )
