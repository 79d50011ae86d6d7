//! The frame columns' addresses are a dictionary per batch, and a batch
//! is cut before its dictionary would overflow its `UInt16` keys.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt16Type;
use arrow_array::Array;
use sbe_columnar::{Exporter, Frame, Options};

const SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="frames" id="3" version="0" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
  </types>
  <sbe:message name="Tick" id="1">
    <field name="n" id="1" type="uint32"/>
  </sbe:message>
</sbe:messageSchema>
"#;

fn tick(n: u32) -> Vec<u8> {
    let mut b: Vec<u8> = [4u16, 1, 3, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    b.extend(n.to_le_bytes());
    b
}

#[test]
fn a_batch_is_cut_before_its_address_dictionary_overflows() {
    let schema = sbe_ir::ir::load_str("frames.xml", SCHEMA).unwrap();
    let options = Options::default().frames(true).batch_rows(1 << 20);
    let mut ex = Exporter::new(&schema, options).unwrap();
    let dst: Arc<str> = "224.0.31.1:14310".into();
    let total = u32::from(u16::MAX) + 10;
    let mut batches = Vec::new();
    for n in 0..total {
        let mut frame = Frame::at(0);
        frame.src = Some(format!("10.{}.{}.{}:1", n >> 16, (n >> 8) & 0xff, n & 0xff).into());
        frame.dst = Some(dst.clone());
        ex.append(&tick(n), &frame).unwrap();
        batches.extend(ex.take_ready().expect("batches"));
    }
    batches.extend(ex.finish().expect("batches"));
    let rows: Vec<usize> = batches.iter().map(|(_, b)| b.num_rows()).collect();
    assert_eq!(rows, [usize::from(u16::MAX), 10]);
    for (_, b) in &batches {
        let src = b
            .column_by_name("src")
            .unwrap()
            .as_dictionary::<UInt16Type>();
        assert_eq!(src.values().len(), b.num_rows(), "a name per row");
        let dst = b
            .column_by_name("dst")
            .unwrap()
            .as_dictionary::<UInt16Type>();
        assert_eq!(dst.values().len(), 1);
        assert_eq!(dst.null_count(), 0);
    }
    let last = &batches[1].1;
    let src = last
        .column_by_name("src")
        .unwrap()
        .as_dictionary::<UInt16Type>();
    let names = src.values().as_string::<i32>();
    let first = usize::from(src.keys().value(0));
    assert_eq!(names.value(first), "10.0.255.255:1");
}
