//! The public builder: what the Lua holds for a schema, the ports, the
//! protocol's name and each framing, and the errors.

use sbe_dissector::{Dissector, Error, Framing, DEFAULT_PROTOCOL};
use sbe_ir::ir::Schema;

/// The repository's Car schema (it includes `common.xml`).
fn car() -> Schema {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/car.xml");
    sbe_ir::ir::load(path).unwrap()
}

/// A small schema of id `id`, byte order `order`: one message with a
/// field, an enum, a group and var data.
fn small(id: u32, order: &str) -> Schema {
    let xml = format!(
        r#"<messageSchema package="small" id="{id}" version="0" byteOrder="{order}">
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
      <type name="length" primitiveType="uint32" maxValue="1073741824"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <enum name="Side" encodingType="uint8">
      <validValue name="Buy">1</validValue>
      <validValue name="Sell">2</validValue>
    </enum>
  </types>
  <message name="Order" id="5">
    <field name="qty" id="1" type="uint32"/>
    <field name="side" id="2" type="Side"/>
    <group name="fills" id="3" dimensionType="groupSizeEncoding">
      <field name="px" id="4" type="int64"/>
    </group>
    <data name="note" id="5" type="varStringEncoding"/>
  </message>
</messageSchema>"#
    );
    sbe_ir::ir::load_str("small.xml", &xml).unwrap()
}

/// The Lua table `FR`: the framing's description.
fn fr(lua: &str) -> &str {
    let start = lua.find("local FR = {\n").unwrap();
    let len = lua[start..].find("\n}\n").unwrap();
    &lua[start..start + len]
}

fn has(lua: &str, text: &str) {
    assert!(lua.contains(text), "{text:?} is not in the Lua");
}

#[test]
fn a_schema_gives_its_functions_and_proto_fields() {
    let schemas = [small(9, "littleEndian")];
    let lua = Dissector::new(&schemas).generate().unwrap();
    for text in [
        // A function per message and per group, and the schema's own.
        "-- message Order (templateId 5): block length 5 at schema version 0",
        "local function s1_Order(tvb, t, b, ver, blen, lim)",
        "local function s1_Order_fills(tvb, t, o, ver, lim)",
        "local function s1_is(tvb, o, lim)",
        "local function s1_known(tvb, o, lim)",
        "local function s1_dissect(tvb, t, o, lim)",
        "[5] = { s1_Order, \"Order\" }",
        "{ is = s1_is, known = s1_known, dissect = s1_dissect }",
        // A field per item, named by the rule.
        r#"ProtoField.uint32("sbe.qty", "qty", base.DEC)"#,
        r#"ProtoField.uint8("sbe.side", "side", base.DEC, VS[1])"#,
        r#"VS[1] = { [1] = "Buy", [2] = "Sell" }"#,
        r#"ProtoField.none("sbe.fills.entry", "entry")"#,
        r#"ProtoField.int64("sbe.px", "px", base.DEC)"#,
        r#"ProtoField.uint16("sbe.fills.numInGroup", "numInGroup", base.DEC)"#,
        r#"ProtoField.uint16("sbe.header.templateId", "templateId", base.DEC)"#,
        r#"ProtoField.string("sbe.message", "SBE message")"#,
        // The experts, under the protocol.
        r#"E.truncated = ProtoExpert.new("sbe.truncated", "#,
        "proto.fields = all_fields",
    ] {
        has(&lua, text);
    }
    // The header names the schema it was made from.
    has(
        &lua,
        "--   small.xml: package \"small\", schema id 9, version 0\n",
    );
}

#[test]
fn defaults_are_raw_no_ports_and_the_default_protocol() {
    let schemas = [car()];
    let lua = Dissector::new(&schemas).generate().unwrap();
    assert_eq!(DEFAULT_PROTOCOL, "sbe");
    for text in [
        "--   framing: raw\n",
        "local proto = Proto(\"sbe\", \"SBE (sbe)\")\nlocal PROTO_COLUMN = \"SBE\"\n",
        "local UDP_PORTS = \"\"\nlocal TCP_PORTS = \"\"\n",
        "local FR = {\n  stream = true,\n  framed = false,\n}\n",
        r#"ProtoField.uint64("sbe.serialNumber", "serialNumber", base.DEC)"#,
        "local function s1_Car_performanceFigures_acceleration(tvb, t, o, ver, lim)",
    ] {
        has(&lua, text);
    }
    let explicit = Dissector::new(&schemas)
        .framing(Framing::Raw)
        .protocol(DEFAULT_PROTOCOL)
        .generate()
        .unwrap();
    assert!(
        lua == explicit,
        "the defaults are not Raw and {DEFAULT_PROTOCOL}"
    );
}

#[test]
fn ports_and_the_protocol_name_appear_where_wireshark_reads_them() {
    let schemas = [car()];
    let lua = Dissector::new(&schemas)
        .framing(Framing::Sofh)
        .udp_ports([5000, 5001])
        .tcp_ports([9000])
        .protocol("venue")
        .generate()
        .unwrap();
    for text in [
        "local proto = Proto(\"venue\", \"SBE (venue)\")\nlocal PROTO_COLUMN = \"VENUE\"\n",
        "local UDP_PORTS = \"5000,5001\"\nlocal TCP_PORTS = \"9000\"\n",
        r#"ProtoExpert.new("venue.count", "#,
        r#"ProtoField.uint64("venue.serialNumber", "serialNumber", base.DEC)"#,
        r#"ProtoField.uint32("venue.frame.length", "frame length", base.DEC)"#,
    ] {
        has(&lua, text);
    }
    assert!(
        !lua.contains("\"sbe."),
        "a field left under the default name"
    );
    // A setter called again replaces what it set.
    let lua = Dissector::new(&schemas)
        .udp_ports([1, 2])
        .udp_ports([3])
        .tcp_ports([4])
        .tcp_ports([])
        .protocol("first")
        .protocol("second")
        .generate()
        .unwrap();
    has(&lua, "local UDP_PORTS = \"3\"\nlocal TCP_PORTS = \"\"\n");
    has(&lua, "local proto = Proto(\"second\", \"SBE (second)\")");
}

#[test]
fn mdp3_packets_and_sofh_streams_get_their_framing() {
    let schemas = [car()];
    let mdp3 = Dissector::new(&schemas)
        .framing(Framing::Mdp3)
        .udp_ports([14310])
        .protocol("mdp3")
        .generate()
        .unwrap();
    for text in [
        "--   framing: mdp3\n",
        "local FR = {\n  stream = false,\n  packet = 12,\n  framed = true,\n  prefix = 2,\n",
        r#"ProtoField.none("mdp3.packet", "MDP3 packet header")"#,
        r#"ProtoField.uint32("mdp3.packet.msgSeqNum", "msgSeqNum", base.DEC)"#,
        r#"ProtoField.absolute_time("mdp3.packet.sendingTime", "sendingTime", base.UTC)"#,
        r#"ProtoField.uint16("mdp3.frame.length", "frame length", base.DEC)"#,
        "return \"seq \" .. int(u32le(0))",
    ] {
        has(&mdp3, text);
    }
    assert!(
        !fr(&mdp3).contains("enc_"),
        "MDP3 frames carry no encoding type"
    );

    // SOFH: a stream, a 6-byte big-endian header whose encoding type is
    // the one for the schema's byte order (Car is little-endian: 0xEB50).
    let sofh = Dissector::new(&schemas)
        .framing(Framing::Sofh)
        .tcp_ports([9000])
        .generate()
        .unwrap();
    for text in [
        "--   framing: sofh\n",
        "local FR = {\n  stream = true,\n  framed = true,\n  prefix = 6,\n  len_off = 0,\n  len_w = 4,\n  len_le = false,\n",
        "  enc_ok = { [0xeb50] = true },\n",
        r#"ProtoField.uint16("sbe.frame.encodingType", "encoding type", base.HEX)"#,
        r#"ProtoField.bytes("sbe.packet.header", "packet header")"#,
    ] {
        has(&sofh, text);
    }
    assert!(
        !fr(&sofh).contains("packet"),
        "a stream framing has no packet"
    );
    assert!(
        !sofh.contains("msgSeqNum"),
        "MDP3's header in a SOFH stream"
    );

    let big = [small(2, "bigEndian")];
    let sofh_be = Dissector::new(&big).framing(Framing::Sofh).generate();
    has(&sofh_be.unwrap(), "  enc_ok = { [0x5be0] = true },\n");

    // A custom packet framing: its header as bytes.
    let custom: Framing = "packet=16,len=u16be".parse().unwrap();
    let lua = Dissector::new(&schemas)
        .framing(custom)
        .udp_ports([5000])
        .generate()
        .unwrap();
    has(&lua, "--   framing: packet=16,len=u16be\n");
    has(&lua, "local FR = {\n  stream = false,\n  packet = 16,\n");
    has(
        &lua,
        r#"ProtoField.bytes("sbe.packet.header", "packet header")"#,
    );
    assert!(
        !lua.contains("msgSeqNum"),
        "MDP3's header in a custom packet"
    );
}

#[test]
fn several_schemas_are_told_apart_by_schema_id() {
    let schemas = [small(9, "littleEndian"), car()];
    let lua = Dissector::new(&schemas).generate().unwrap();
    for text in [
        "-- schema \"small\" (id 9, version 0)",
        "-- schema \"baseline\" (id 1, version 0)",
        "local function s1_Order(tvb, t, b, ver, blen, lim)",
        "local function s2_Car(tvb, t, b, ver, blen, lim)",
        "local SCHEMAS = {\n  { is = s1_is, known = s1_known, dissect = s1_dissect },\n  { is = s2_is, known = s2_known, dissect = s2_dissect }\n}\n",
    ] {
        has(&lua, text);
    }
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let schemas = [car(), small(9, "littleEndian")];
    let d = Dissector::new(&schemas)
        .framing(Framing::SofhLe)
        .tcp_ports([9000]);
    let a = d.generate().unwrap();
    let b = d.clone().generate().unwrap();
    assert!(a == b, "two runs, two files");
}

#[test]
fn a_protocol_name_wireshark_does_not_take_is_an_error() {
    let schemas = [car()];
    for bad in [
        "", "Bad Name", "Sbe", "1sbe", "_sbe", "my-proto", "a.b", "é",
    ] {
        let e = Dissector::new(&schemas)
            .protocol(bad)
            .generate()
            .unwrap_err();
        assert_eq!(e, Error::ProtocolName(bad.to_string()));
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("protocol name {bad:?}: ")),
            "{text}"
        );
    }
    for good in ["a", "mdp3", "ilink_3", "x_"] {
        let r = Dissector::new(&schemas).protocol(good).generate();
        assert!(r.is_ok(), "{good}: {r:?}");
    }
}

#[test]
fn tcp_ports_with_a_packet_framing_are_an_error() {
    let schemas = [car()];
    for framing in ["mdp3", "packet=16,len=u16be"] {
        let framing: Framing = framing.parse().unwrap();
        let e = Dissector::new(&schemas)
            .framing(framing)
            .tcp_ports([9000])
            .generate()
            .unwrap_err();
        assert_eq!(e, Error::PacketOverTcp, "{framing}");
        assert!(e.to_string().contains("UDP only"), "{e}");
    }
    // Stream framings and raw go over TCP.
    for framing in [Framing::Raw, Framing::Sofh, Framing::SofhLe] {
        let r = Dissector::new(&schemas)
            .framing(framing)
            .tcp_ports([9000])
            .generate();
        assert!(r.is_ok(), "{framing}: {r:?}");
    }
}

#[test]
fn no_schema_is_an_error() {
    let e = Dissector::new(&[]).generate().unwrap_err();
    assert_eq!(e, Error::NoSchema);
    assert_eq!(e.to_string(), "no schema given");
    // An std error: it goes where any error goes.
    let boxed: Box<dyn std::error::Error + Send + Sync> = e.into();
    assert_eq!(boxed.to_string(), "no schema given");
}
