"""Fixtures of the sbe-rs tests: the repository's schemas, two schemas of a
feed made here, captures of them written here, and the `sbe` binary to
compare with (built by `cargo build -p sbe-command`, or `SBE_BIN`)."""

import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

import sbe_rs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SHARED = Path(os.environ.get("SBE_SHARED", ROOT.parent / "shared"))

MD_XML = """<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="venue.md" id="10" version="0" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <composite name="varStringEncoding">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="PRICE">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-7</type>
    </composite>
    <composite name="UTCTimestampNanos" semanticType="UTCTimestamp">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">9</type>
    </composite>
    <enum name="Side" encodingType="char">
      <validValue name="BUY">1</validValue>
      <validValue name="SELL">2</validValue>
    </enum>
  </types>
  <sbe:message name="Trade" id="1">
    <field name="transactTime" id="1" type="UTCTimestampNanos"/>
    <field name="px" id="2" type="PRICE"/>
    <field name="qty" id="3" type="uint32"/>
    <field name="side" id="4" type="Side"/>
    <group name="fills" id="5" dimensionType="groupSizeEncoding">
      <field name="fillPx" id="6" type="PRICE"/>
      <field name="fillQty" id="7" type="uint32"/>
    </group>
    <data name="venue" id="8" type="varStringEncoding"/>
  </sbe:message>
</sbe:messageSchema>
"""

SESSION_XML = MD_XML.replace('package="venue.md" id="10"', 'package="venue.session" id="20"').split("<sbe:message ")[0] + """  <sbe:message name="Heartbeat" id="1">
    <field name="seq" id="1" type="uint64"/>
  </sbe:message>
</sbe:messageSchema>
"""


@pytest.fixture(scope="session")
def feed_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("feed")
    (d / "md.xml").write_text(MD_XML)
    (d / "session.xml").write_text(SESSION_XML)
    return d


@pytest.fixture(scope="session")
def md(feed_dir):
    return sbe_rs.Schema.load(feed_dir / "md.xml")


@pytest.fixture(scope="session")
def session(feed_dir):
    return sbe_rs.Schema.load(feed_dir / "session.xml")


def trade(i):
    return {
        "message": "Trade",
        "body": {
            "transactTime": {"time": 1_700_000_000_000_000_000 + i * 1_000},
            "px": {"mantissa": 1_234_500 + i},
            "qty": 10 + i,
            "side": "BUY" if i % 2 else "SELL",
            "fills": [{"fillPx": {"mantissa": 1_234_500 + j}, "fillQty": j + 1} for j in range(i % 3)],
            "venue": f"X{i}",
        },
    }


def heartbeat(i):
    return {"message": "Heartbeat", "body": {"seq": i}}


def pcap(datagrams, t0=1_700_000_000):
    """A pcap (µs, Ethernet) of UDP datagrams 10.0.0.1:9000 -> 10.0.0.2:5000."""
    out = bytearray(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for n, payload in enumerate(datagrams):
        udp = struct.pack(">HHHH", 9000, 5000, 8 + len(payload), 0) + payload
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])) + udp
        frame = b"\x00" * 12 + b"\x08\x00" + ip
        out += struct.pack("<IIII", t0 + n, n * 10, len(frame), len(frame)) + frame
    return bytes(out)


def feed_capture(md, session, start, count):
    """Datagrams of 1 to 3 messages back to back (raw framing), trades of
    the first schema and heartbeats of the second mixed."""
    datagrams = []
    i = start
    while i < start + count:
        msgs = b""
        for _ in range(1 + i % 3):
            if i >= start + count:
                break
            msgs += session.encode(heartbeat(i)) if i % 4 == 3 else md.encode(trade(i))
            i += 1
        datagrams.append(msgs)
    return pcap(datagrams)


@pytest.fixture(scope="session")
def captures(feed_dir, md, session):
    """Three capture files of the feed."""
    paths = []
    for k in range(3):
        p = feed_dir / f"feed-{k}.pcap"
        p.write_bytes(feed_capture(md, session, 100 * k, 40 + 7 * k))
        paths.append(p)
    return paths


def sbe_binary():
    env = os.environ.get("SBE_BIN")
    if env:
        return env
    for profile in ("release", "debug"):
        p = ROOT / "target" / profile / "sbe"
        if p.exists():
            return str(p)
    return shutil.which("sbe")


@pytest.fixture(scope="session")
def sbe():
    """Runs the `sbe` binary: (exit code, stdout bytes, stderr text)."""
    path = sbe_binary()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("no sbe binary: cargo build -p sbe-command, or set SBE_BIN")
        pytest.skip("no sbe binary: cargo build -p sbe-command, or set SBE_BIN")

    def run(*args, cwd=None):
        r = subprocess.run([path, *map(str, args)], capture_output=True, cwd=cwd)
        return r.returncode, r.stdout, r.stderr.decode()

    return run
