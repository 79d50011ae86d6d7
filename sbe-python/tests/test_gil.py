"""The GIL is released while Rust reads and decodes: a read of a named pipe
finishes only when Python code on another thread writes the pipe's bytes,
which it cannot while the reading thread holds the GIL (a held GIL would
deadlock; the join's timeout turns that into a failure)."""

import os
import threading

import pytest

import sbe_rs

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


def through_a_pipe(tmp_path, call, data):
    fifo = tmp_path / "feed.pipe"
    os.mkfifo(fifo)
    result = {}

    def reader():
        try:
            result["value"] = call(str(fifo))
        except BaseException as e:  # handed to the test's thread
            result["error"] = e

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    # Blocks until the reader has opened the pipe: inside Rust by then.
    with open(fifo, "wb") as w:
        for i in range(0, len(data), 4096):
            w.write(data[i:i + 4096])
    t.join(timeout=60)
    assert not t.is_alive(), "the read never ended: the GIL was held"
    if "error" in result:
        raise result["error"]
    return result["value"]


def test_read_releases_the_gil(tmp_path, md, session, captures):
    data = captures[0].read_bytes()
    got = through_a_pipe(tmp_path, lambda p: list(sbe_rs.read(p, [md, session])), data)
    assert got == list(sbe_rs.read(data, [md, session]))


def test_to_arrow_releases_the_gil(tmp_path, md, session, captures):
    pytest.importorskip("pyarrow")
    data = captures[1].read_bytes()
    got = through_a_pipe(tmp_path, lambda p: sbe_rs.to_arrow(p, [md, session]), data)
    assert got["venue.md/Trade"].equals(sbe_rs.to_arrow(data, [md, session])["venue.md/Trade"])


def test_threads_decode_files_at_once(md, session, captures):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as pool:
        got = list(pool.map(lambda p: list(sbe_rs.read(p, [md, session])), captures))
    assert got == [list(sbe_rs.read(p, [md, session])) for p in captures]
