"""Type stubs of sbe_rs: SBE messages and captures to dicts and Arrow tables."""

import io
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import pyarrow

_Path = Union[str, "os.PathLike[str]"]
Source = Union[_Path, bytes, bytearray, memoryview, io.IOBase]
Schemas = Union["Schema", Sequence["Schema"]]

class SbeError(Exception):
    """The base class of every error of sbe_rs."""

class SchemaError(SbeError):
    """A schema that cannot be read or is invalid."""

    file: str
    """The file of the first error (the schema, or a file it includes)."""
    line: Optional[int]
    """Its 1-based line (None: no place, e.g. a file that cannot be read)."""
    col: Optional[int]
    """Its 1-based column."""
    diagnostics: List[Tuple[str, Optional[int], Optional[int], str]]
    """Every error: (file, line, col, message)."""

class DecodeError(SbeError):
    """A message that cannot be decoded."""

    offset: Optional[int]
    """Bytes into the input (a stream), the UDP payload or the TCP stream (a capture) where it went wrong."""
    element: Optional[str]
    """The schema element being read (field, group, var data, block), when the error names one."""
    packet: Optional[int]
    """The capture's packet (1-based), for a capture."""

class EncodeError(SbeError):
    """A message (dict) that cannot be encoded."""

    path: str
    """JSON path of the value at fault, e.g. ``$.body.fills[0].qty``."""

class FramingError(SbeError):
    """A framing or filter string, capture or stream that cannot be read as asked."""

class SbeWarning(UserWarning):
    """A report of a read with ``errors="report"`` (a message skipped, a TCP gap, a sequence gap)."""

class Schema:
    """An SBE schema (XML), loaded and checked."""

    @classmethod
    def load(cls, path: _Path, allow_includes_outside: bool = False) -> "Schema":
        """Load the schema at ``path``; raises :class:`SchemaError`."""
    @property
    def path(self) -> str:
        """The path as given: the ``schema`` key of decoded messages."""
    @property
    def package(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def byte_order(self) -> str:
        """``"littleEndian"`` or ``"bigEndian"``."""
    @property
    def warnings(self) -> List[str]: ...
    @property
    def layout(self) -> Dict[str, Any]:
        """``sbe layout --meanings``'s JSON."""
    @property
    def messages(self) -> List[Dict[str, Any]]:
        """The messages with their fields (each with its ``meaning``), groups and data."""
    def arrow_schemas(
        self, frames: bool = False, flatten: bool = False, timestamp_unit: str = "ns"
    ) -> Dict[str, pyarrow.Schema]:
        """The Arrow schema of each table :func:`to_arrow` makes of this schema."""
    def decode(self, buf: Union[bytes, bytearray, memoryview], values: str = "wire") -> Dict[str, Any]:
        """The message at the start of ``buf`` as ``sbe decode`` gives it; raises :class:`DecodeError`."""
    def encode(self, obj: Dict[str, Any]) -> bytes:
        """The bytes of a message given as :meth:`decode` returns it; raises :class:`EncodeError`."""

def read(
    source: Source,
    schemas: Schemas,
    framing: str = "raw",
    values: str = "wire",
    errors: str = "report",
    *,
    skip: int = 0,
    templates: Sequence[int] = (),
    filters: Sequence[str] = (),
    keep_going: bool = True,
    schema_id_check: bool = True,
) -> Iterator[Dict[str, Any]]:
    """Every message of ``source`` as a dict, as ``sbe decode`` prints it, yielded as the source is read."""

def to_arrow(
    source: Source,
    schemas: Schemas,
    framing: str = "raw",
    errors: str = "report",
    *,
    skip: int = 0,
    templates: Sequence[int] = (),
    filters: Sequence[str] = (),
    keep_going: bool = True,
    schema_id_check: bool = True,
    flatten: bool = False,
    timestamp_unit: str = "ns",
) -> Dict[str, pyarrow.Table]:
    """One table per message, typed as ``sbe decode --format parquet`` writes it; no copy."""

def record_batches(
    source: Source,
    schemas: Schemas,
    framing: str = "raw",
    message: Optional[str] = None,
    errors: str = "report",
    *,
    skip: int = 0,
    filters: Sequence[str] = (),
    keep_going: bool = True,
    schema_id_check: bool = True,
) -> Iterator[pyarrow.RecordBatch]:
    """The record batches of one message type (``message`` required when the schemas hold several), yielded as
    they fill while the source is read (what a Spark ``mapInArrow`` calls)."""

def write_dataset(
    sources: Union[Source, Sequence[Source]],
    out_dir: _Path,
    schemas: Schemas,
    framing: str = "raw",
    *,
    format: str = "parquet",
    compression: str = "zstd:1",
    flatten: bool = False,
    append: bool = False,
    overwrite: bool = False,
    jobs: Optional[int] = None,
    skip: int = 0,
    templates: Sequence[int] = (),
    filters: Sequence[str] = (),
    keep_going: bool = True,
    schema_id_check: bool = True,
    timestamp_unit: str = "ns",
) -> Dict[str, Any]:
    """``sbe decode --format parquet --out DIR`` over ``sources``: {"parts", "messages", "refused"}."""
