//! Field decimals (an `exponent` attribute naming another field, as
//! Binance's `mbx:exponent`) as `Decimal128` columns: the scale from the
//! exponent field's `minValue`, the exponent in the root block while the
//! mantissas sit in a group too; a value finer than the scale is null in
//! its column and exact in `<name>_raw`.

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal128Type, Int32Type, Int8Type};
use arrow_array::{Array, RecordBatch};
use sbe_columnar::{Exporter, Frame, Options};

const SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" xmlns:mbx="https://example.com/mbx"
                   package="fd" id="5" version="0" byteOrder="littleEndian">
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
    <type name="exp4" primitiveType="int8" minValue="-4" maxValue="4"/>
  </types>
  <sbe:message name="Quote" id="1">
    <field name="exp" id="1" type="exp4"/>
    <field name="px" id="2" type="int64" mbx:exponent="exp"/>
    <group name="fills" id="3" dimensionType="groupSizeEncoding">
      <field name="qty" id="1" type="int32" mbx:exponent="exp"/>
    </group>
  </sbe:message>
</sbe:messageSchema>
"#;

/// A Quote: exponent `exp`, price mantissa `px`, fills' mantissas `qtys`.
fn quote(exp: i8, px: i64, qtys: &[i32]) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [9u16, 1, 5, 0] {
        m.extend(v.to_le_bytes());
    }
    m.extend(exp.to_le_bytes());
    m.extend(px.to_le_bytes());
    m.extend(4u16.to_le_bytes());
    m.extend((qtys.len() as u16).to_le_bytes());
    for q in qtys {
        m.extend(q.to_le_bytes());
    }
    m
}

fn batch(messages: &[Vec<u8>]) -> RecordBatch {
    let schema = sbe_ir::ir::load_str("fd.xml", SCHEMA).expect("schema");
    let mut ex = Exporter::new(&schema, Options::default()).expect("exporter");
    for m in messages {
        assert_eq!(ex.append(m, &Frame::at(0)), Ok(m.len()));
    }
    let mut batches = ex.finish().expect("batches");
    assert_eq!(batches.len(), 1);
    batches.remove(0).1
}

#[test]
fn the_exponent_fields_min_value_sets_the_scale_and_a_finer_value_is_raw() {
    let b = batch(&[
        quote(-2, 12_345, &[7, -1]),
        // 1.2345 fits the scale; 0.000001 is finer than it.
        quote(-6, 1_234_500, &[1]),
        quote(2, 5, &[]),
    ]);
    let px = b.column_by_name("px").expect("px");
    assert_eq!(format!("{:?}", px.data_type()), "Decimal128(38, 4)");
    let px = px.as_primitive::<Decimal128Type>();
    let shown: Vec<String> = (0..3).map(|i| px.value_as_string(i)).collect();
    assert_eq!(shown, ["123.4500", "1.2345", "500.0000"]);
    // Every price fits: its raw pair is null.
    assert_eq!(b.column_by_name("px_raw").expect("raw").null_count(), 3);

    let fills = b.column_by_name("fills").expect("fills").as_list::<i32>();
    let first = fills.value(0);
    let qty = first.as_struct().column_by_name("qty").expect("qty");
    let qty = qty.as_primitive::<Decimal128Type>();
    assert_eq!(qty.value_as_string(0), "0.0700");
    assert_eq!(qty.value_as_string(1), "-0.0100");
    // 1 at exponent -6: not held at scale 4, so null, and exact beside it.
    let second = fills.value(1);
    let entry = second.as_struct();
    assert!(entry.column_by_name("qty").expect("qty").is_null(0));
    let raw = entry.column_by_name("qty_raw").expect("qty_raw");
    assert!(raw.is_valid(0));
    let raw = raw.as_struct();
    assert_eq!(raw.column_names(), ["qty", "exp"]);
    assert_eq!(raw.column(0).as_primitive::<Int32Type>().value(0), 1);
    assert_eq!(raw.column(1).as_primitive::<Int8Type>().value(0), -6);
}
