//! The columns a message table has before its fields: `msgIndex`, the
//! header's `templateId`, `schemaId` and `version`, where the message
//! was (`offset`) and, for a capture, its frame (`time`, `packet`,
//! `src`, `dst`, `msgSeqNum`, `sendingTime`).

use std::collections::HashSet;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, TimestampNanosecondArray, UInt32Array, UInt64Array};
use arrow_schema::{DataType, Field, TimeUnit};
use sbe_build::ir::HeaderRole;

use crate::node::UTC;

/// Where a message was read: what a capture or a file tells beside its
/// bytes. Every part is optional; a table has the frame columns when the
/// exporter was made with [`crate::Options::frames`].
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Frame {
    /// Capture time, nanoseconds since the Unix epoch (UTC).
    pub time_ns: Option<i64>,
    /// The packet (1-based, as Wireshark numbers them).
    pub packet: Option<u64>,
    /// Sender, as `ip:port`.
    pub src: Option<String>,
    /// Receiver, as `ip:port`.
    pub dst: Option<String>,
    /// The packet header's sequence number (MDP3's `msgSeqNum`).
    pub msg_seq_num: Option<u64>,
    /// The packet header's sending time, nanoseconds since the epoch.
    pub sending_time: Option<i64>,
    /// Offset of the message in its payload, stream or file.
    pub offset: Option<u64>,
}

impl Frame {
    /// A frame that gives only the message's offset (a file of messages).
    #[must_use]
    pub fn at(offset: u64) -> Frame {
        Frame {
            offset: Some(offset),
            ..Frame::default()
        }
    }
}

/// The header values of a message.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeaderValues {
    pub template_id: u64,
    pub schema_id: Option<u64>,
    pub version: u32,
}

/// The meta columns' names (a name a field of the message takes is
/// prefixed with `_`), values and whether the frame ones are there.
pub(crate) struct MetaCols {
    names: Vec<String>,
    on: bool,
    frames: bool,
    msg_index: Vec<u64>,
    template_id: Vec<Option<u32>>,
    schema_id: Vec<Option<u32>>,
    version: Vec<Option<u32>>,
    offset: Vec<Option<u64>>,
    time: Vec<Option<i64>>,
    packet: Vec<Option<u64>>,
    src: StringBuilder,
    dst: StringBuilder,
    seq: Vec<Option<u64>>,
    sending: Vec<Option<i64>>,
}

fn ts() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some(UTC.into()))
}

impl MetaCols {
    /// No meta columns (a flattened group's table).
    pub(crate) fn none() -> MetaCols {
        MetaCols::new(false, false, &HashSet::new())
    }

    /// A message table's, avoiding the names in `taken`.
    pub(crate) fn new(on: bool, frames: bool, taken: &HashSet<String>) -> MetaCols {
        let mut base = vec![
            "msgIndex".to_string(),
            HeaderRole::TemplateId.member_name().to_string(),
            HeaderRole::SchemaId.member_name().to_string(),
            HeaderRole::Version.member_name().to_string(),
            "offset".to_string(),
        ];
        if frames {
            for n in ["time", "packet", "src", "dst", "msgSeqNum", "sendingTime"] {
                base.push(n.to_string());
            }
        }
        let names = base
            .into_iter()
            .map(|n| {
                let mut n = n;
                while taken.contains(&n) {
                    n.insert(0, '_');
                }
                n
            })
            .collect();
        MetaCols {
            names,
            on,
            frames,
            msg_index: Vec::new(),
            template_id: Vec::new(),
            schema_id: Vec::new(),
            version: Vec::new(),
            offset: Vec::new(),
            time: Vec::new(),
            packet: Vec::new(),
            src: StringBuilder::new(),
            dst: StringBuilder::new(),
            seq: Vec::new(),
            sending: Vec::new(),
        }
    }

    pub(crate) fn fields(&self) -> Vec<Field> {
        if !self.on {
            return Vec::new();
        }
        let types = [
            DataType::UInt64,
            DataType::UInt32,
            DataType::UInt32,
            DataType::UInt32,
            DataType::UInt64,
            ts(),
            DataType::UInt64,
            DataType::Utf8,
            DataType::Utf8,
            DataType::UInt64,
            ts(),
        ];
        self.names
            .iter()
            .zip(types)
            .map(|(n, t)| Field::new(n, t, n != "msgIndex"))
            .collect()
    }

    pub(crate) fn push(&mut self, index: u64, h: HeaderValues, frame: &Frame) {
        if !self.on {
            return;
        }
        let small = |v: u64| u32::try_from(v).ok();
        self.msg_index.push(index);
        self.template_id.push(small(h.template_id));
        self.schema_id.push(h.schema_id.and_then(small));
        self.version.push(Some(h.version));
        self.offset.push(frame.offset);
        if self.frames {
            self.time.push(frame.time_ns);
            self.packet.push(frame.packet);
            self.src.append_option(frame.src.as_deref());
            self.dst.append_option(frame.dst.as_deref());
            self.seq.push(frame.msg_seq_num);
            self.sending.push(frame.sending_time);
        }
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<ArrayRef>) {
        if !self.on {
            return;
        }
        out.push(Arc::new(UInt64Array::from(crate::node::take(
            &mut self.msg_index,
        ))));
        out.push(Arc::new(UInt32Array::from(crate::node::take(
            &mut self.template_id,
        ))));
        out.push(Arc::new(UInt32Array::from(crate::node::take(
            &mut self.schema_id,
        ))));
        out.push(Arc::new(UInt32Array::from(crate::node::take(
            &mut self.version,
        ))));
        out.push(Arc::new(UInt64Array::from(crate::node::take(
            &mut self.offset,
        ))));
        if self.frames {
            let t = TimestampNanosecondArray::from(crate::node::take(&mut self.time));
            out.push(Arc::new(t.with_timezone(UTC)));
            out.push(Arc::new(UInt64Array::from(crate::node::take(
                &mut self.packet,
            ))));
            out.push(Arc::new(self.src.finish()));
            out.push(Arc::new(self.dst.finish()));
            out.push(Arc::new(UInt64Array::from(crate::node::take(
                &mut self.seq,
            ))));
            let s = TimestampNanosecondArray::from(crate::node::take(&mut self.sending));
            out.push(Arc::new(s.with_timezone(UTC)));
        }
    }
}
