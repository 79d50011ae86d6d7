"""Bad schemas and bad messages raise the documented exceptions, all
subclasses of `SbeError`, with the facts: file:line:col, offset and
element, JSON path. Inside `read`/`to_arrow`, `errors="report"` skips a bad
message and reports it as the CLI does."""

import json

import pytest

import sbe_rs

from conftest import MD_XML, pcap, trade


def test_a_bad_schema_raises_schema_error_with_file_line_col(tmp_path):
    bad = MD_XML.replace('<field name="qty" id="3" type="uint32"/>', '<field name="qty" id="3" type="nosuch"/>')
    path = tmp_path / "bad.xml"
    path.write_text(bad)
    with pytest.raises(sbe_rs.SchemaError) as e:
        sbe_rs.Schema.load(path)
    err = e.value
    assert isinstance(err, sbe_rs.SbeError)
    assert err.file == str(path)
    line = next(i for i, l in enumerate(bad.splitlines(), 1) if 'type="nosuch"' in l)
    assert err.line == line and err.col >= 1
    assert "nosuch" in str(err)
    assert err.diagnostics and err.diagnostics[0][:2] == (str(path), line)


def test_a_missing_schema_and_bad_xml_raise_schema_error(tmp_path):
    with pytest.raises(sbe_rs.SchemaError) as e:
        sbe_rs.Schema.load(tmp_path / "none.xml")
    assert e.value.file == str(tmp_path / "none.xml")
    (tmp_path / "cut.xml").write_text(MD_XML[:300])
    with pytest.raises(sbe_rs.SchemaError) as e:
        sbe_rs.Schema.load(tmp_path / "cut.xml")
    assert e.value.line is not None


def test_includes_outside_the_folder_are_refused_unless_allowed(tmp_path):
    (tmp_path / "types.xml").write_text("<types/>")
    inner = tmp_path / "inner"
    inner.mkdir()
    xml = MD_XML.replace("<types>", '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="../types.xml"/>\n  <types>', 1)
    (inner / "s.xml").write_text(xml)
    with pytest.raises(sbe_rs.SchemaError, match="outside"):
        sbe_rs.Schema.load(inner / "s.xml")
    assert sbe_rs.Schema.load(inner / "s.xml", allow_includes_outside=True).package == "venue.md"


def test_a_bad_message_raises_decode_error_with_offset_and_element(md):
    data = md.encode(trade(2))
    with pytest.raises(sbe_rs.DecodeError) as e:
        md.decode(data[:20])
    err = e.value
    assert isinstance(err, sbe_rs.SbeError)
    assert err.offset is not None and err.offset <= 20
    assert err.element and "Trade" in err.element
    assert "truncated" in str(err)
    with pytest.raises(sbe_rs.DecodeError) as e:
        md.decode(b"\x08\x00\x63\x00\x0a\x00\x00\x00" + bytes(8))
    assert "unknown template id 99" in str(e.value)
    assert e.value.offset == 2 and e.value.element is None  # the templateId's


def test_a_bad_dict_raises_encode_error_with_its_path(md):
    bad = trade(1)
    bad["body"]["fills"] = [{"fillPx": {"mantissa": 1}, "fillQty": -1}]
    with pytest.raises(sbe_rs.EncodeError) as e:
        md.encode(bad)
    assert isinstance(e.value, sbe_rs.SbeError)
    assert e.value.path == "$.body.fills[0].fillQty"
    with pytest.raises(sbe_rs.EncodeError) as e:
        md.encode({"message": "Trade", "body": {"nosuch": 1}})
    with pytest.raises(sbe_rs.EncodeError):
        md.encode({"message": object()})


def test_a_bad_framing_raises_framing_error(md, captures):
    with pytest.raises(sbe_rs.FramingError) as e:
        list(sbe_rs.read(captures[0], md, framing="len=u99"))
    assert isinstance(e.value, sbe_rs.SbeError)
    with pytest.raises(sbe_rs.FramingError):
        list(sbe_rs.read(captures[0], md, filters=["nosuch=1"]))
    with pytest.raises(ValueError):
        list(sbe_rs.read(captures[0], md, values="pretty"))


def bad_capture(md):
    good = md.encode(trade(1))
    # The second datagram's message cut short: the packet's rest is lost.
    return pcap([good, good[:30], good])


def test_read_skips_and_reports_a_bad_message_as_the_cli(md, sbe, tmp_path):
    path = tmp_path / "bad.pcap"
    path.write_bytes(bad_capture(md))
    code, out, err = sbe("decode", "--schema", md.path, path)
    assert code == 1
    with pytest.warns(sbe_rs.SbeWarning) as w:
        got = list(sbe_rs.read(path, md))
    assert got == [json.loads(line) for line in out.splitlines()]
    assert len(got) == 2
    texts = [str(x.message) for x in w]
    assert [f"sbe decode: {t}" for t in texts] == err.splitlines()
    assert "packet 2" in texts[0] and "of the payload: truncated" in texts[0]


def test_errors_raise_stops_at_the_first_bad_message(md, tmp_path):
    path = tmp_path / "bad.pcap"
    path.write_bytes(bad_capture(md))
    with pytest.raises(sbe_rs.DecodeError, match="packet 2") as e:
        list(sbe_rs.read(path, md, errors="raise"))
    assert (e.value.packet, e.value.element) == (2, "group dimension of Trade.fills")
    assert e.value.offset is not None
    with pytest.raises(sbe_rs.DecodeError):
        sbe_rs.to_arrow(path, md, errors="raise")
    # A stream: the codec's error, with its offset.
    data = md.encode(trade(1))
    with pytest.raises(sbe_rs.DecodeError) as e:
        list(sbe_rs.read(data + data[:30], md, errors="raise"))
    assert e.value.offset is not None and e.value.offset >= len(data)


def test_to_arrow_keeps_a_bad_message_in_errors(md, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "bad.pcap"
    path.write_bytes(bad_capture(md))
    with pytest.warns(sbe_rs.SbeWarning, match="packet 2"):
        tables = sbe_rs.to_arrow(path, md)
    assert tables["Trade"].num_rows == 2
    assert tables["_errors"].num_rows == 1


def test_write_dataset_reports_an_input_it_refuses_and_writes_the_others(md, session, captures, sbe, tmp_path):
    raw = tmp_path / "raw.bin"
    raw.write_bytes(md.encode(trade(1)))
    args = ("--schema", md.path, "--schema", session.path, "--format", "parquet", "--filter", "udp", "--jobs", "1")
    code, _, err = sbe("decode", *args, "--out", tmp_path / "cli", raw, captures[0])
    assert code == 1 and "is for captures" in err
    with pytest.warns(sbe_rs.SbeWarning, match="filters are for captures"):
        done = sbe_rs.write_dataset([raw, captures[0]], tmp_path / "py", [md, session], filters=["udp"], jobs=1)
    assert done["messages"] == 40
    rel = sorted(str(p.relative_to(tmp_path / "py")) for p in (tmp_path / "py").rglob("*.parquet"))
    assert rel == sorted(str(p.relative_to(tmp_path / "cli")) for p in (tmp_path / "cli").rglob("*.parquet"))
