//! The `_errors` table: each message that could not be decoded, with
//! where it was, its bytes and the error.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use sbe_rt::TimeUnit;

use crate::meta::Frame;
use crate::time::{self, TimestampUnit};
use crate::ExportError;

pub(crate) struct ErrorTable {
    schema: SchemaRef,
    /// The unit of `time`; a coarser one than nanoseconds adds
    /// `time_raw`.
    unit: TimeUnit,
    offset: Vec<Option<u64>>,
    packet: Vec<Option<u64>>,
    time: Vec<Option<i64>>,
    src: StringBuilder,
    dst: StringBuilder,
    kind: StringBuilder,
    error: StringBuilder,
    bytes: BinaryBuilder,
}

impl ErrorTable {
    pub(crate) fn new(metadata: HashMap<String, String>, finest: TimestampUnit) -> ErrorTable {
        let unit = time::column_unit(Some(TimeUnit::Nanos), finest);
        let ts = time::timestamp_type(unit);
        let mut fields = vec![
            Field::new("offset", DataType::UInt64, true),
            Field::new("packet", DataType::UInt64, true),
            Field::new("time", ts, true),
            Field::new("src", DataType::Utf8, true),
            Field::new("dst", DataType::Utf8, true),
            Field::new("kind", DataType::Utf8, true),
            Field::new("error", DataType::Utf8, true),
            Field::new("bytes", DataType::Binary, true),
        ];
        if unit != TimeUnit::Nanos {
            fields.push(Field::new("time_raw", DataType::Int64, true));
        }
        ErrorTable {
            unit,
            schema: Arc::new(Schema::new_with_metadata(fields, metadata)),
            offset: Vec::new(),
            packet: Vec::new(),
            time: Vec::new(),
            src: StringBuilder::new(),
            dst: StringBuilder::new(),
            kind: StringBuilder::new(),
            error: StringBuilder::new(),
            bytes: BinaryBuilder::new(),
        }
    }

    pub(crate) fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    pub(crate) fn rows(&self) -> usize {
        self.offset.len()
    }

    pub(crate) fn push(&mut self, bytes: &[u8], frame: &Frame, kind: &str, error: &str) {
        self.offset.push(frame.offset);
        self.packet.push(frame.packet);
        self.time.push(frame.time_ns);
        self.src.append_option(frame.src.as_deref());
        self.dst.append_option(frame.dst.as_deref());
        self.kind.append_value(kind);
        self.error.append_value(error);
        self.bytes.append_value(bytes);
    }

    pub(crate) fn take_batch(&mut self) -> Result<RecordBatch, ExportError> {
        let (time, raw) = time::frame_times(&std::mem::take(&mut self.time), self.unit);
        let mut arrays: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(std::mem::take(&mut self.offset))),
            Arc::new(UInt64Array::from(std::mem::take(&mut self.packet))),
            time,
            Arc::new(self.src.finish()),
            Arc::new(self.dst.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.error.finish()),
            Arc::new(self.bytes.finish()),
        ];
        arrays.extend(raw);
        RecordBatch::try_new(self.schema.clone(), arrays)
            .map_err(|e| ExportError::Arrow(e.to_string()))
    }
}
