"""`read` and `record_batches` stream: a thread of Rust reads and decodes
a little ahead of the Python loop, and no further. A file object that
counts what is read of it shows that the first message (batch) comes
while most of the source is unread, and that at every step what has been
read is within a bound of what has been handed over: the input is never
held whole."""

import io
import threading
import time

import pytest

import sbe_rs

from conftest import trade

# How far the reader may run ahead of what it has handed over: a 256 KiB
# read of the file object, the frame reader's buffer, and the pieces on
# their way (two in the channel, one being made, one in Python): 512 lines
# each for `read`, a batch of 8,192 rows for `record_batches`.
READ_AHEAD = 1 << 20
BATCH_AHEAD = 3 << 20


class Counting(io.RawIOBase):
    """A binary file object that counts the bytes read of it."""

    def __init__(self, data):
        self.data = memoryview(data)
        self.at = 0
        self.reads = 0

    def readable(self):
        return True

    def read(self, n=-1):
        self.reads += 1
        end = len(self.data) if n is None or n < 0 else min(len(self.data), self.at + n)
        out = bytes(self.data[self.at:end])
        self.at = end
        return out


@pytest.fixture(scope="module")
def stream(md):
    """A raw stream of 200,000 trades (about 12 MB) and their lengths."""
    msgs = [md.encode(trade(i)) for i in range(100)]
    return b"".join(msgs) * 2000, [len(m) for m in msgs] * 2000


def test_read_yields_as_it_reads_never_far_ahead(md, stream):
    data, lengths = stream
    f = Counting(data)
    handed = 0
    first_at = None
    worst = 0
    for k, msg in enumerate(sbe_rs.read(f, md)):
        if first_at is None:
            first_at = f.at
            assert msg == md.decode(data)
        handed += lengths[k]
        worst = max(worst, f.at - handed)
    assert k + 1 == len(lengths) and f.at == len(data)
    assert first_at <= READ_AHEAD < len(data) // 4, first_at
    assert worst <= READ_AHEAD, f"read {worst} bytes ahead of the messages handed over"
    assert f.reads >= len(data) // (256 << 10), "read in pieces"


def test_record_batches_yield_as_they_fill_never_far_ahead(md, stream):
    pa = pytest.importorskip("pyarrow")
    data, lengths = stream
    f = Counting(data)
    rows = 0
    first_at = None
    worst = 0
    batches = []
    for b in sbe_rs.record_batches(f, md, message="Trade"):
        first_at = f.at if first_at is None else first_at
        rows += b.num_rows
        batches.append(b)
        worst = max(worst, f.at - sum(lengths[:rows]))
    assert rows == len(lengths) and len(batches) > 10
    assert first_at < len(data) // 4, first_at
    assert worst <= BATCH_AHEAD, f"read {worst} bytes ahead of the rows handed over"
    # The same rows as the whole read.
    assert pa.Table.from_batches(batches).equals(sbe_rs.to_arrow(data, md)["Trade"].combine_chunks())


def test_a_stream_left_early_stops_reading(md, stream):
    data, _ = stream
    f = Counting(data)
    it = sbe_rs.read(f, md)
    next(it)
    it.close()
    del it
    time.sleep(0.5)
    at = f.at
    time.sleep(0.5)
    assert f.at == at < len(data) // 4, "the reading thread went on"


def test_errors_raise_yields_the_messages_before_the_bad_one(md):
    good = md.encode(trade(1))
    got = []
    with pytest.raises(sbe_rs.DecodeError) as e:
        for m in sbe_rs.read(good + good + good[:30], md, errors="raise"):
            got.append(m)
    assert got == [md.decode(good)] * 2
    assert e.value.offset is not None and e.value.offset >= 2 * len(good)


def test_errors_report_skips_and_reports_while_streaming(md, recwarn):
    def sofh(m):
        return (6 + len(m)).to_bytes(4, "big") + (0xEB50).to_bytes(2, "big") + m

    frames = [sofh(md.encode(trade(i))) for i in range(100)] * 1000
    # A bad message (a foreign schema id) in the middle: SOFH goes on at
    # the next frame.
    bad = bytearray(frames[50_000])
    bad[6 + 4] = 99
    frames[50_000] = bytes(bad)
    at = sum(map(len, frames[:50_000])) + 6
    n = sum(1 for _ in sbe_rs.read(Counting(b"".join(frames)), md, framing="sofh"))
    assert n == len(frames) - 1
    texts = [str(w.message) for w in recwarn if issubclass(w.category, sbe_rs.SbeWarning)]
    assert len(texts) == 1 and f"at byte {at + 4}" in texts[0], texts


def test_a_file_objects_errors_are_raised_as_they_were(md):
    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            raise ValueError("the disk is on fire")

    with pytest.raises(ValueError, match="on fire"):
        list(sbe_rs.read(Broken(), md))
    with pytest.raises(TypeError, match="binary mode"):
        list(sbe_rs.read(io.StringIO("text"), md))


def test_a_thread_pool_decodes_as_one_thread_does(md, session, captures):
    pytest.importorskip("pyarrow")
    from concurrent.futures import ThreadPoolExecutor

    def both(p):
        tables = sbe_rs.to_arrow(p, [md, session])
        return list(sbe_rs.read(p, [md, session])), {k: t.combine_chunks() for k, t in tables.items()}

    serial = [both(p) for p in captures]
    with ThreadPoolExecutor(2) as pool:
        parallel = list(pool.map(both, captures * 2))
    for (lines, tables), (want_lines, want_tables) in zip(parallel, serial * 2):
        assert lines == want_lines
        assert tables.keys() == want_tables.keys()
        assert all(tables[k].equals(want_tables[k]) for k in tables)


def test_streams_read_on_several_threads_at_once(md, stream):
    """Two reads of file objects on two threads, each waiting on its own
    reading thread: neither holds the GIL while it waits."""
    data, lengths = stream
    counts = {}

    def run(k):
        counts[k] = sum(1 for _ in sbe_rs.read(Counting(data), md))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert counts == {0: len(lengths), 1: len(lengths)}


def test_to_arrow_and_record_batches_take_a_file_object(md):
    pa = pytest.importorskip("pyarrow")
    data = b"".join(md.encode(trade(i)) for i in range(300))
    want = sbe_rs.to_arrow(data, md)["Trade"]
    f = Counting(data)
    assert sbe_rs.to_arrow(f, md)["Trade"].equals(want)
    assert f.at == len(data)
    # One message type in the schemas: `message` may be left out.
    assert pa.Table.from_batches(list(sbe_rs.record_batches(Counting(data), md))).equals(want.combine_chunks())
