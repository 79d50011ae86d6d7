"""SBE (Simple Binary Encoding) messages and captures to dicts and Arrow tables.

A thin layer over the Rust crates of the ``sbe`` command: schemas are read by
``sbe-ir``, messages decoded and encoded by ``sbe-otf``, captures read by
``sbe-capture`` with the framings of ``sbe-framing``, and Arrow batches made by
``sbe-columnar``. What ``sbe decode`` prints, ``read`` yields; what ``sbe decode
--format parquet`` writes, ``to_arrow`` returns as tables and ``write_dataset``
writes.

    >>> import sbe_rs
    >>> car = sbe_rs.Schema.load("schemas/car.xml")
    >>> msg = car.decode(open("car.bin", "rb").read())
    >>> car.encode(msg) == open("car.bin", "rb").read()
    True

The GIL is released while Rust reads, decodes and writes: threads decode
files in parallel.
"""

from __future__ import annotations

import io
import json
import os
import warnings
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from . import _native
from ._native import DecodeError, EncodeError, FramingError, SbeError, SchemaError

__all__ = [
    "Schema",
    "read",
    "to_arrow",
    "record_batches",
    "write_dataset",
    "SbeError",
    "SchemaError",
    "DecodeError",
    "EncodeError",
    "FramingError",
    "SbeWarning",
]


class SbeWarning(UserWarning):
    """A report of a read with ``errors="report"``: a message skipped (it
    could not be decoded), a TCP gap or retransmission, an MDP3 sequence gap.
    The text says where (file, packet, byte) and what, as ``sbe decode`` says
    it on stderr."""


class Schema:
    """An SBE schema (XML), loaded and checked.

    Use :meth:`Schema.load`. ``messages`` lists its messages with their
    fields and meanings (decimal, timestamp, date, text, ...), as
    ``sbe layout --meanings`` gives them.
    """

    __slots__ = ("_native", "_layout")

    def __init__(self, native: "_native.Schema") -> None:
        self._native = native
        self._layout: Optional[Dict[str, Any]] = None

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"], allow_includes_outside: bool = False) -> "Schema":
        """Load the schema at ``path``.

        ``allow_includes_outside`` lets the schema ``xi:include`` files outside
        its own folder (refused by default, as ``sbe`` does without
        ``--allow-includes-outside``).

        Raises :class:`SchemaError` (with ``file``, ``line``, ``col`` of the
        first error and ``diagnostics``, all of them) when the schema is
        invalid or cannot be read.
        """
        return cls(_native.Schema.load(os.fspath(path), allow_includes_outside))

    @property
    def path(self) -> str:
        """The path as given to :meth:`load`: the ``schema`` key of decoded messages."""
        return self._native.path

    @property
    def package(self) -> str:
        """The schema's package."""
        return self._native.package

    @property
    def id(self) -> int:
        """The schema's id."""
        return self._native.id

    @property
    def version(self) -> int:
        """The schema's version."""
        return self._native.version

    @property
    def byte_order(self) -> str:
        """``"littleEndian"`` or ``"bigEndian"``."""
        return self._native.byte_order

    @property
    def warnings(self) -> List[str]:
        """The schema's warnings, as ``sbe validate`` prints them."""
        return self._native.warnings

    @property
    def layout(self) -> Dict[str, Any]:
        """The computed layout with meanings: ``sbe layout --meanings``'s JSON."""
        if self._layout is None:
            self._layout = json.loads(self._native._layout_json())
        return self._layout

    @property
    def messages(self) -> List[Dict[str, Any]]:
        """The messages: each a dict with ``name``, ``id``, ``fields`` (each
        with its ``meaning``), ``groups`` and ``data``, as in :attr:`layout`."""
        return list(self.layout.get("messages", []))

    def arrow_schemas(
        self, frames: bool = False, flatten: bool = False, timestamp_unit: str = "ns"
    ) -> Dict[str, Any]:
        """The ``pyarrow.Schema`` of each table :func:`to_arrow` makes of this
        schema's messages, before any is read: ``frames`` adds a capture's
        frame columns, ``flatten`` makes groups child tables,
        ``timestamp_unit`` is :func:`to_arrow`'s."""
        import pyarrow as pa

        return {
            name: pa.schema(s) for name, s in self._native._arrow_schemas(frames, flatten, timestamp_unit)
        }

    def decode(self, buf: Union[bytes, bytearray, memoryview], values: str = "wire") -> Dict[str, Any]:
        """Decode the message at the start of ``buf`` to a dict: ``schema``,
        ``message``, ``header``, ``body``, the same mapping as ``sbe decode``.

        ``values="wire"`` gives FORMAT.md's values; ``"semantic"`` gives
        decimals as exact decimal strings, timestamps as RFC 3339 UTC,
        dates as ``YYYY-MM-DD``, as ``sbe decode --values semantic``.

        Raises :class:`DecodeError` (with ``offset`` and ``element``).
        """
        if not isinstance(buf, bytes):
            buf = bytes(buf)
        return json.loads(self._native._decode_json(buf, values))

    def encode(self, obj: Dict[str, Any]) -> bytes:
        """Encode a message given as :meth:`decode` returns it (either value
        mapping; ``header`` may be left out). Raises :class:`EncodeError`
        (with ``path``, the JSON path of the value at fault)."""
        try:
            text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as e:
            err = EncodeError(f"not JSON-serialisable: {e}")
            err.path = "$"
            raise err from e
        return self._native._encode_json(text)

    def __repr__(self) -> str:
        return repr(self._native)


Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, io.IOBase, Any]
Schemas = Union[Schema, Sequence[Schema]]


def _source(source: Any) -> Any:
    """A path or a buffer (read by Rust without the GIL), or a binary file
    object, which Rust reads in pieces as it decodes (taking the GIL for
    each ``read`` call only)."""
    if isinstance(source, bytes):
        return source
    if isinstance(source, (bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if getattr(source, "read", None) is not None:
        return source
    raise TypeError(f"source: a path, bytes or a binary file object, not {type(source).__name__}")


def _schemas(schemas: Schemas) -> List["_native.Schema"]:
    if isinstance(schemas, Schema):
        return [schemas._native]
    out = [s._native for s in schemas]
    if not out:
        raise ValueError("schemas: at least one Schema")
    return out


def _warn(level: str, text: str) -> None:
    warnings.warn(text, SbeWarning, stacklevel=3)


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
    """Yield every message of ``source`` as a dict, as ``sbe decode`` prints it.

    ``source``: a path, bytes or a binary file object holding raw messages, a
    SOFH or custom-framed stream, or a pcap/pcapng capture (told by its
    magic). ``schemas``: a :class:`Schema` or several (each message decoded
    with the schema its header's schemaId names; ``schema`` says which).
    ``framing``: as ``sbe decode --framing`` (``raw``, ``sofh``, ``sofh-le``,
    ``mdp3``, ``len=u16le,...``). A capture's messages carry a ``frame`` dict
    (packet, time, transport, src, dst, the packet header's fields, offset).

    Messages come as the source is read: a thread of Rust reads and decodes
    a little ahead of the loop, without the GIL, and holds a few hundred
    messages at most, however large the source (a file object is read in
    pieces of 256 KiB).

    ``errors="report"``: a bad message is skipped and reported as a
    :class:`SbeWarning` (as the CLI reports it on stderr); ``"raise"``: the
    messages before it are yielded, then it raises :class:`DecodeError`.
    ``templates``, ``filters``, ``skip``, ``keep_going`` and
    ``schema_id_check`` are ``sbe decode``'s ``--template``, ``--filter``,
    ``--skip``, ``--keep-going`` (on here) and ``--schema-id-check``.
    """
    stream = _native._read_json(
        _source(source),
        _schemas(schemas),
        framing,
        values,
        errors,
        skip,
        list(templates),
        list(filters),
        keep_going,
        schema_id_check,
    )
    loads = json.loads
    for piece in stream:
        if piece[0] == 0:
            # One JSON object a line; a newline inside a string is escaped.
            for line in piece[1].split("\n")[:-1]:
                yield loads(line)
        else:
            _warn(piece[1], piece[2])


def _arrow_batches(
    source: Source,
    schemas: Schemas,
    framing: str,
    errors: str,
    skip: int,
    templates: Sequence[int],
    filters: Sequence[str],
    keep_going: bool,
    schema_id_check: bool,
    flatten: bool,
    timestamp_unit: str = "ns",
) -> Iterator[Any]:
    """``(key, stream)`` of each Arrow batch as Rust completes it (a
    stream: one batch over the Arrow PyCapsule interface, with the
    addresses of its buffers as Rust made them); reports are warned."""
    stream = _native._read_arrow(
        _source(source),
        _schemas(schemas),
        framing,
        errors,
        skip,
        list(templates),
        list(filters),
        keep_going,
        schema_id_check,
        flatten,
        timestamp_unit,
    )
    for piece in stream:
        if piece[0] == 2:
            yield piece[1], piece[2]
        else:
            _warn(piece[1], piece[2])


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
) -> Dict[str, Any]:
    """Decode every message of ``source`` into one ``pyarrow.Table`` per
    message, with the columns and types of ``sbe decode --format parquet``
    (Decimal128, Timestamp, dictionaries, ``list<struct>``; a capture adds the
    frame columns). With several schemas a table's key is
    ``"<package>/<Message>"``. Messages that could not be decoded are in
    ``"_errors"``.

    The tables come over the Arrow PyCapsule interface with no copy:
    ``polars.from_arrow`` and DuckDB take them as they are. The arguments are
    :func:`read`'s; ``flatten`` writes groups as child tables
    ``Message.group``; ``timestamp_unit`` (``"ns"``, ``"us"``, ``"ms"``) is the
    finest unit of a timestamp column, as ``sbe decode --timestamp-unit``:
    a finer wire value is rounded down, its integer kept in ``<name>_raw``.
    """
    import pyarrow as pa

    batches: Dict[str, List[Any]] = {}
    for key, stream in _arrow_batches(
        source, schemas, framing, errors, skip, templates, filters, keep_going, schema_id_check, flatten, timestamp_unit
    ):
        batches.setdefault(key, []).append(pa.RecordBatchReader.from_stream(stream).read_next_batch())
    return {key: pa.Table.from_batches(b) for key, b in batches.items()}


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
) -> Iterator[Any]:
    """Yield the ``pyarrow.RecordBatch``es of one message type (``message``:
    its name, or its table key as :func:`to_arrow` gives it; required when
    the schemas hold several types). This is the function a Spark
    ``mapInArrow`` calls: see :mod:`sbe_rs.spark`.

    Batches come as they fill (8,192 rows), while the source is read: a
    thread of Rust reads and decodes ahead of the loop, without the GIL,
    by two batches at most, so a capture larger than memory streams through.
    """
    import pyarrow as pa

    given = [schemas] if isinstance(schemas, Schema) else list(schemas)
    if message is None:
        names = [m.get("name") for s in given for m in s.messages]
        if len(names) != 1:
            raise ValueError(f"several message types ({', '.join(map(str, names))}): say which with message=")
        message = names[0]
    name = message.rsplit("/", 1)[-1]
    templates = [m["id"] for s in given for m in s.messages if m.get("name") == name]
    if not templates:
        raise ValueError(f"message {message!r}: no schema given has it")
    for key, stream in _arrow_batches(
        source, schemas, framing, errors, skip, templates, filters, keep_going, schema_id_check, False
    ):
        if key == message or key.rsplit("/", 1)[-1] == message:
            yield pa.RecordBatchReader.from_stream(stream).read_next_batch()


def write_dataset(
    sources: Union[Source, Sequence[Source]],
    out_dir: Union[str, "os.PathLike[str]"],
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
    """Write ``sources`` (paths) as a Parquet (or Arrow IPC) dataset per
    message under ``out_dir``: ``sbe decode --format parquet --out DIR``, with
    its options (``compression``: none, snappy, zstd, zstd:LEVEL; ``jobs``:
    threads, default the cores; ``timestamp_unit``: ns, us or ms, as
    ``--timestamp-unit``). Returns ``{"parts": [...], "messages": n,
    "refused": n}``; reports are :class:`SbeWarning`s."""
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    paths = [os.fspath(s) for s in sources]
    parts, messages, refused, reports = _native._write_dataset(
        paths,
        os.fspath(out_dir),
        _schemas(schemas),
        framing,
        format,
        compression,
        flatten,
        append,
        overwrite,
        jobs,
        skip,
        list(templates),
        list(filters),
        keep_going,
        schema_id_check,
        timestamp_unit,
    )
    for level, text in reports:
        _warn(level, text)
    return {"parts": [os.fspath(p) for p in parts], "messages": messages, "refused": refused}
