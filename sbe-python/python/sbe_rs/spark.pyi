"""Type stubs of sbe_rs.spark: decoding captures across Spark with mapInArrow."""

from typing import Any, Callable, Iterator, Optional, Sequence

import pyarrow

def spark_schema(schema: pyarrow.Schema) -> pyarrow.Schema:
    """The schema :func:`for_spark` gives batches of ``schema``."""

def for_spark(batch: pyarrow.RecordBatch) -> pyarrow.RecordBatch:
    """``batch`` cast to types Spark takes."""

def decode_files(
    schema_paths: Sequence[str], message: str, framing: str = "raw", **options: Any
) -> Callable[[Iterator[pyarrow.RecordBatch]], Iterator[pyarrow.RecordBatch]]:
    """The function to give ``DataFrame.mapInArrow`` over a ``binaryFile`` DataFrame."""

def read_messages(
    spark: Any,
    path: str,
    schema_paths: Sequence[str],
    message: str,
    framing: str = "raw",
    frames: Optional[bool] = None,
    **options: Any,
) -> Any:
    """A DataFrame of the ``message`` rows of every file under ``path``."""
