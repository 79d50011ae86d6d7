//! Fields newer than a message's acting version: every kind of column
//! (integer, enum, decimal, set, the root's and a group entry's) is null
//! in the rows of an older message and holds the value in a newer one,
//! and a group newer than the version is a null list.

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt16Type, UInt32Type};
use arrow_array::{Array, RecordBatch};
use sbe_columnar::{Exporter, Frame, Options};

const SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="versions" id="9" version="1" byteOrder="littleEndian">
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
    <composite name="Price">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-2</type>
    </composite>
    <enum name="Side" encodingType="uint8">
      <validValue name="Buy">1</validValue>
      <validValue name="Sell">2</validValue>
    </enum>
    <set name="Flags" encodingType="uint8">
      <choice name="A">0</choice>
      <choice name="B">1</choice>
    </set>
  </types>
  <sbe:message name="Order" id="1">
    <field name="id" id="1" type="uint32"/>
    <field name="qty" id="2" type="int32" sinceVersion="1"/>
    <field name="side" id="3" type="Side" sinceVersion="1"/>
    <field name="price" id="4" type="Price" sinceVersion="1"/>
    <field name="flags" id="5" type="Flags" sinceVersion="1"/>
    <group name="legs" id="6" dimensionType="groupSizeEncoding">
      <field name="legId" id="7" type="uint16"/>
      <field name="legSide" id="8" type="Side" sinceVersion="1"/>
    </group>
    <group name="notes" id="9" dimensionType="groupSizeEncoding" sinceVersion="1">
      <field name="code" id="10" type="uint16"/>
    </group>
  </sbe:message>
</sbe:messageSchema>
"#;

fn header(block_length: u16, version: u16) -> Vec<u8> {
    [block_length, 1, 9, version]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// Version 0: the root block is `id` alone, each leg its `legId`, and
/// there is no `notes` group.
fn old_order() -> Vec<u8> {
    let mut b = header(4, 0);
    b.extend(7u32.to_le_bytes());
    b.extend([2, 0, 1, 0]); // legs: blockLength 2, one entry
    b.extend(70u16.to_le_bytes());
    b
}

/// Version 1: every field, `side` as given.
fn new_order_with(side: u8) -> Vec<u8> {
    let mut b = header(18, 1);
    b.extend(8u32.to_le_bytes());
    b.extend((-5i32).to_le_bytes());
    b.push(side);
    b.extend(12345i64.to_le_bytes());
    b.push(0b11);
    b.extend([3, 0, 1, 0]); // legs: blockLength 3, one entry
    b.extend(80u16.to_le_bytes());
    b.push(1); // Buy
    b.extend([2, 0, 1, 0]); // notes: one entry
    b.extend(9u16.to_le_bytes());
    b
}

fn new_order() -> Vec<u8> {
    new_order_with(2) // Sell
}

fn export_of(messages: &[Vec<u8>]) -> RecordBatch {
    let schema = sbe_ir::ir::load_str("versions.xml", SCHEMA).unwrap();
    let mut ex = Exporter::new(&schema, Options::default()).unwrap();
    for bytes in messages {
        let len = ex.append(bytes, &Frame::at(0)).unwrap();
        assert_eq!(len, bytes.len());
    }
    let mut batches = ex.finish().expect("batches");
    assert_eq!(batches.len(), 1, "{batches:?}");
    batches.remove(0).1
}

fn export() -> RecordBatch {
    export_of(&[old_order(), new_order()])
}

#[test]
fn a_field_newer_than_the_acting_version_is_null_in_every_kind_of_column() {
    let b = export();
    let col = |name: &str| b.column_by_name(name).unwrap().clone();
    let ids = col("id");
    assert_eq!(ids.as_primitive::<UInt32Type>().values(), &[7, 8]);
    let qty = col("qty");
    let qty = qty.as_primitive::<Int32Type>();
    assert!(qty.is_null(0));
    assert_eq!(qty.value(1), -5);
    let side = col("side");
    let side = side.as_dictionary::<UInt16Type>();
    assert!(side.is_null(0));
    let names = side.values().as_string::<i32>();
    assert_eq!(names.value(usize::from(side.keys().value(1))), "Sell");
    let price = col("price");
    let price = price.as_primitive::<arrow_array::types::Decimal128Type>();
    assert!(price.is_null(0));
    assert_eq!(price.value(1), 12345);
    let flags = col("flags");
    assert!(flags.is_null(0));
    assert!(col("flags_raw").is_null(0));
    assert!(!flags.is_null(1));

    let legs = col("legs");
    let legs = legs.as_list::<i32>();
    let entries = legs.values().as_struct();
    let leg_side = entries.column_by_name("legSide").unwrap();
    assert_eq!(legs.value_offsets(), &[0, 1, 2]);
    assert!(leg_side.is_null(0), "the old message's leg");
    assert!(!leg_side.is_null(1));
    let leg_ids = entries.column_by_name("legId").unwrap();
    let leg_ids = leg_ids.as_primitive::<arrow_array::types::UInt16Type>();
    assert_eq!(leg_ids.values(), &[70, 80]);

    let notes = col("notes");
    assert!(notes.is_null(0), "a group newer than the version");
    assert!(!notes.is_null(1));
}

#[test]
fn a_value_outside_the_enum_is_kept_in_its_raw_column_and_only_there() {
    let b = export_of(&[
        new_order_with(7),
        new_order(),
        old_order(),
        new_order_with(9),
        new_order(),
    ]);
    let side = b.column_by_name("side").unwrap();
    let raw = b.column_by_name("side_raw").unwrap();
    let raw = raw.as_primitive::<arrow_array::types::UInt8Type>();
    let names: Vec<bool> = (0..5).map(|i| side.is_valid(i)).collect();
    assert_eq!(names, [false, true, false, false, true]);
    let raws: Vec<Option<u8>> = raw.iter().collect();
    assert_eq!(raws, [Some(7), None, None, Some(9), None]);
}
