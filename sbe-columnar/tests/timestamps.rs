//! Timestamps: seconds become milliseconds, exactly; a coarser
//! [`TimestampUnit`] rounds down and keeps the wire integer in
//! `<name>_raw` where digits were lost, for the schema's timestamps and
//! the frame's alike; Parquet gets a timestamp logical type for each.

use std::fs::File;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int64Type, TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::basic::LogicalType;
use parquet::file::reader::{FileReader, SerializedFileReader};
use sbe_columnar::dataset::{self, Compression, DatasetWriter, Existing, Format};
use sbe_columnar::{Exporter, Frame, Options, TimestampUnit};

const SCHEMA: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="times" id="4" version="0" byteOrder="littleEndian">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="Seconds" semanticType="UTCTimestamp">
      <type name="time" primitiveType="int64"/>
      <type name="unit" primitiveType="uint8" presence="constant">0</type>
    </composite>
    <composite name="SmallSeconds" semanticType="UTCTimestamp">
      <type name="time" primitiveType="uint32"/>
      <type name="unit" primitiveType="uint8" presence="constant">0</type>
    </composite>
    <composite name="Millis" semanticType="UTCTimestamp">
      <type name="time" primitiveType="int64"/>
      <type name="unit" primitiveType="uint8" presence="constant">3</type>
    </composite>
    <composite name="Nanos" semanticType="UTCTimestamp">
      <type name="time" primitiveType="int64"/>
      <type name="unit" primitiveType="uint8" presence="constant">9</type>
    </composite>
  </types>
  <sbe:message name="T" id="1">
    <field name="s" id="1" type="Seconds"/>
    <field name="small" id="2" type="SmallSeconds"/>
    <field name="ms" id="3" type="Millis"/>
    <field name="ns" id="4" type="Nanos"/>
  </sbe:message>
</sbe:messageSchema>
"#;

fn msg(s: i64, small: u32, ms: i64, ns: i64) -> Vec<u8> {
    let mut b: Vec<u8> = [28u16, 1, 4, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    b.extend(s.to_le_bytes());
    b.extend(small.to_le_bytes());
    b.extend(ms.to_le_bytes());
    b.extend(ns.to_le_bytes());
    b
}

/// The rows `(s, small, ms, ns)`, each with a frame time of `ns`.
const ROWS: [(i64, u32, i64, i64); 3] = [
    // 2057-12-31T23:59:59Z, whole microseconds.
    (
        2_777_068_799,
        2_777_068_799,
        1_700_000_000_123,
        1_700_000_000_123_456_000,
    ),
    // Nanoseconds a microsecond does not hold; seconds past i64 in ms.
    (i64::MAX / 10, 0, -1, 1_700_000_000_123_456_789),
    // Before the epoch: rounded down, not towards zero.
    (-1, 1, 0, -1),
];

fn export(unit: TimestampUnit) -> RecordBatch {
    let schema = sbe_ir::ir::load_str("times.xml", SCHEMA).unwrap();
    let options = Options::default().frames(true).timestamp_unit(unit);
    let mut ex = Exporter::new(&schema, options).unwrap();
    for (s, small, ms, ns) in ROWS {
        let mut frame = Frame::at(0);
        frame.time_ns = Some(ns);
        frame.sending_time = Some(ns);
        ex.append(&msg(s, small, ms, ns), &frame).unwrap();
    }
    let batches = ex.finish().unwrap();
    let (_, b) = batches.into_iter().find(|(n, _)| n == "T").unwrap();
    b
}

fn values<T: arrow_array::types::ArrowPrimitiveType>(
    b: &RecordBatch,
    name: &str,
) -> Vec<Option<T::Native>>
where
    T::Native: Copy,
{
    let c = b
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"));
    let p = c.as_primitive::<T>();
    (0..p.len())
        .map(|i| p.is_valid(i).then(|| p.value(i)))
        .collect()
}

#[test]
fn seconds_are_milliseconds_and_a_count_past_them_keeps_its_integer() {
    let b = export(TimestampUnit::Nanos);
    let utc = Some("UTC".into());
    let ty = |n: &str| b.schema().field_with_name(n).unwrap().data_type().clone();
    assert_eq!(
        ty("s"),
        DataType::Timestamp(TimeUnit::Millisecond, utc.clone())
    );
    assert_eq!(
        ty("small"),
        DataType::Timestamp(TimeUnit::Millisecond, utc.clone())
    );
    assert_eq!(
        ty("ns"),
        DataType::Timestamp(TimeUnit::Nanosecond, utc.clone())
    );
    assert_eq!(ty("time"), DataType::Timestamp(TimeUnit::Nanosecond, utc));
    assert_eq!(
        values::<TimestampMillisecondType>(&b, "s"),
        [Some(2_777_068_799_000), None, Some(-1000)]
    );
    // Only the count the milliseconds cannot hold is there.
    assert_eq!(
        values::<Int64Type>(&b, "s_raw"),
        [None, Some(i64::MAX / 10), None]
    );
    // A 32-bit count of seconds always fits: no `_raw`.
    assert!(b.column_by_name("small_raw").is_none());
    assert_eq!(
        values::<TimestampMillisecondType>(&b, "small"),
        [Some(2_777_068_799_000), Some(0), Some(1000)]
    );
    // Nanoseconds stay as they are, with no `_raw` column.
    assert!(b.column_by_name("ns_raw").is_none());
    assert!(b.column_by_name("time_raw").is_none());
    assert_eq!(
        values::<TimestampNanosecondType>(&b, "ns"),
        ROWS.map(|r| Some(r.3))
    );
}

#[test]
fn microseconds_round_down_and_keep_the_lost_digits_in_raw() {
    let b = export(TimestampUnit::Micros);
    let ty = |n: &str| b.schema().field_with_name(n).unwrap().data_type().clone();
    let us = DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()));
    assert_eq!(ty("ns"), us);
    assert_eq!(ty("time"), us);
    assert_eq!(ty("sendingTime"), us);
    // A coarser unit on the wire stays.
    assert_eq!(
        ty("ms"),
        DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()))
    );
    let want = [
        Some(1_700_000_000_123_456),
        Some(1_700_000_000_123_456),
        Some(-1),
    ];
    let lost = [None, Some(1_700_000_000_123_456_789), Some(-1)];
    assert_eq!(values::<TimestampMicrosecondType>(&b, "ns"), want);
    assert_eq!(values::<Int64Type>(&b, "ns_raw"), lost);
    // The frame's times alike.
    assert_eq!(values::<TimestampMicrosecondType>(&b, "time"), want);
    assert_eq!(values::<Int64Type>(&b, "time_raw"), lost);
    assert_eq!(values::<TimestampMicrosecondType>(&b, "sendingTime"), want);
    assert_eq!(values::<Int64Type>(&b, "sendingTime_raw"), lost);
    // Milliseconds: every nanosecond count above loses digits.
    let b = export(TimestampUnit::Millis);
    assert_eq!(
        values::<TimestampMillisecondType>(&b, "ns"),
        [Some(1_700_000_000_123), Some(1_700_000_000_123), Some(-1)]
    );
    assert_eq!(values::<Int64Type>(&b, "ns_raw"), ROWS.map(|r| Some(r.3)));
}

#[test]
fn parquet_has_a_timestamp_logical_type_for_every_unit() {
    let dir = std::env::temp_dir().join(format!("sbe-columnar-times-{}", std::process::id()));
    for (unit, want) in [
        (TimestampUnit::Nanos, "NANOS"),
        (TimestampUnit::Micros, "MICROS"),
    ] {
        dataset::prepare(&dir, Existing::Overwrite).unwrap();
        let b = export(unit);
        let mut w = DatasetWriter::new(&dir, "t", Format::Parquet(Compression::Zstd(1)));
        w.write("T", &b).unwrap();
        let parts = w.close().unwrap();
        let r = SerializedFileReader::new(File::open(&parts[0]).unwrap()).unwrap();
        let descr = r.metadata().file_metadata().schema_descr_ptr();
        // The column's logical type, as `Timestamp UNIT` (the parquet
        // crate's names), or what else it is.
        let logical = |name: &str| {
            let c = (0..descr.num_columns())
                .map(|i| descr.column(i))
                .find(|c| c.name() == name)
                .unwrap();
            match c.logical_type_ref() {
                Some(LogicalType::Timestamp(t)) if t.is_adjusted_to_u_t_c => {
                    format!("Timestamp {:?}", t.unit)
                }
                other => format!("{other:?}"),
            }
        };
        // Seconds: TIMESTAMP(MILLIS), which every reader reads as a time.
        assert!(
            logical("s").starts_with("Timestamp MILLIS"),
            "{unit}: {}",
            logical("s")
        );
        assert!(
            logical("small").starts_with("Timestamp MILLIS"),
            "{unit}: {}",
            logical("small")
        );
        for n in ["ns", "time", "sendingTime"] {
            let got = logical(n);
            assert!(
                got.starts_with(&format!("Timestamp {want}")),
                "{unit} {n}: {got}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_errors_table_takes_the_unit_and_keeps_the_nanoseconds() {
    let schema = sbe_ir::ir::load_str("times.xml", SCHEMA).unwrap();
    let options = Options::default()
        .frames(true)
        .timestamp_unit(TimestampUnit::Micros);
    let mut ex = Exporter::new(&schema, options).unwrap();
    for ns in [1_000, 1_001] {
        let mut frame = Frame::at(0);
        frame.time_ns = Some(ns);
        ex.append_error(&[1, 2], &frame, "short", "too short");
    }
    let batches = ex.finish().unwrap();
    let (_, b) = batches
        .into_iter()
        .find(|(n, _)| n == sbe_columnar::ERRORS)
        .unwrap();
    assert_eq!(
        values::<TimestampMicrosecondType>(&b, "time"),
        [Some(1), Some(1)]
    );
    assert_eq!(values::<Int64Type>(&b, "time_raw"), [None, Some(1_001)]);
    // Nanoseconds, the default: no `time_raw`.
    let mut ex = Exporter::new(&schema, Options::default().frames(true)).unwrap();
    ex.append_error(&[1, 2], &Frame::at(0), "short", "too short");
    let batches = ex.finish().unwrap();
    let (_, b) = batches
        .into_iter()
        .find(|(n, _)| n == sbe_columnar::ERRORS)
        .unwrap();
    assert!(b.column_by_name("time_raw").is_none());
}
