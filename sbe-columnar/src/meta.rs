//! The columns a message table has before its fields: `msgIndex`, the
//! header's `templateId`, `schemaId` and `version`, where the message
//! was (`offset`) and, for a capture, its frame (`time`, `packet`,
//! `src`, `dst`, `msgSeqNum`, `sendingTime`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::types::{
    ArrowPrimitiveType, Int64Type, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, DictionaryArray, PrimitiveArray, StringArray, UInt16Array, UInt64Array,
};
use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use sbe_ir::ir::HeaderRole;
use sbe_rt::TimeUnit;

use crate::node::UTC;
use crate::nulls::Nulls;
use crate::time::{self, TimestampUnit};

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
    /// Sender, as `ip:port`. Shared: a frame that keeps the same
    /// `Arc` from message to message has its key found without comparing
    /// the text.
    pub src: Option<Arc<str>>,
    /// Receiver, as `ip:port` (shared, as `src`).
    pub dst: Option<Arc<str>>,
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
    /// The unit of `time` and `sendingTime` (nanoseconds on the frame);
    /// a coarser one adds `time_raw` and `sendingTime_raw`, the
    /// nanoseconds where the unit rounded digits off.
    unit: TimeUnit,
    /// The numbers of each row, made into their columns with the batch
    /// (one push a message, not one a column).
    rows: Vec<MetaRow>,
    src: AddrCol,
    dst: AddrCol,
}

/// A message's meta numbers.
#[derive(Clone, Copy)]
struct MetaRow {
    index: u64,
    template_id: Option<u32>,
    schema_id: Option<u32>,
    version: u32,
    offset: Option<u64>,
    time: Option<i64>,
    packet: Option<u64>,
    seq: Option<u64>,
    sending: Option<i64>,
}

/// The column of `rows`' `f`.
fn column<T: ArrowPrimitiveType>(
    rows: &[MetaRow],
    f: impl Fn(&MetaRow) -> Option<T::Native>,
) -> PrimitiveArray<T> {
    // The values and whether all are there, in one pass.
    let mut all = true;
    let vals: Vec<T::Native> = (rows.iter())
        .map(|r| {
            let v = f(r);
            all &= v.is_some();
            v.unwrap_or_default()
        })
        .collect();
    let nulls = if all {
        None
    } else {
        let valid = BooleanBuffer::from_iter(rows.iter().map(|r| f(r).is_some()));
        Some(NullBuffer::new(valid))
    };
    PrimitiveArray::new(ScalarBuffer::from(vals), nulls)
}

/// An address column's type: a dictionary of the batch's addresses, which
/// repeat message after message (a string per row was most of the cost of
/// the frame columns, filling them and encoding them again).
fn addr() -> DataType {
    DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8))
}

/// An address column as it is filled: the keys, the batch's dictionary,
/// and the last address with its key (a frame keeps the same `Arc` while
/// its addresses stay, so most rows take that key without a lookup).
#[derive(Default)]
struct AddrCol {
    keys: Vec<u16>,
    nulls: Nulls,
    names: Vec<Arc<str>>,
    index: HashMap<Arc<str>, u16>,
    last: Option<(Arc<str>, u16)>,
}

impl AddrCol {
    #[inline(always)]
    fn push(&mut self, addr: Option<&Arc<str>>) {
        let key = addr.and_then(|a| match &self.last {
            Some((last, k)) if Arc::ptr_eq(last, a) => Some(*k),
            _ => self.key(a),
        });
        self.keys.push(key.unwrap_or(0));
        self.nulls.append(key.is_some());
    }

    /// `addr`'s key, added to the dictionary when new; `None` once it has
    /// `u16::MAX` names (the batch is cut before that: see [`Self::full`]).
    fn key(&mut self, addr: &Arc<str>) -> Option<u16> {
        let k = match self.index.get(addr) {
            Some(k) => *k,
            None => {
                let k = u16::try_from(self.names.len()).ok()?;
                self.names.push(addr.clone());
                self.index.insert(addr.clone(), k);
                k
            }
        };
        self.last = Some((addr.clone(), k));
        Some(k)
    }

    fn full(&self) -> bool {
        self.names.len() >= usize::from(u16::MAX)
    }

    /// The rows so far, the dictionary emptied for the next batch.
    fn finish(&mut self) -> ArrayRef {
        let keys = UInt16Array::new(
            ScalarBuffer::from(crate::node::take(&mut self.keys)),
            self.nulls.finish(),
        );
        let names: StringArray = std::mem::take(&mut self.names)
            .iter()
            .map(|n| Some(&**n))
            .collect();
        self.index.clear();
        self.last = None;
        // The keys index `names` by construction.
        match DictionaryArray::<UInt16Type>::try_new(keys, Arc::new(names)) {
            Ok(d) => Arc::new(d),
            Err(_) => arrow_array::new_null_array(&addr(), 0),
        }
    }
}

fn ts(unit: TimeUnit) -> DataType {
    time::timestamp_type(unit)
}

impl MetaCols {
    /// No meta columns (a flattened group's table).
    pub(crate) fn none() -> MetaCols {
        MetaCols::new(false, false, TimestampUnit::Nanos, &HashSet::new())
    }

    /// A message table's, avoiding the names in `taken`.
    pub(crate) fn new(
        on: bool,
        frames: bool,
        finest: TimestampUnit,
        taken: &HashSet<String>,
    ) -> MetaCols {
        let unit = time::column_unit(Some(TimeUnit::Nanos), finest);
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
            if unit != TimeUnit::Nanos {
                base.push("time_raw".to_string());
                base.push("sendingTime_raw".to_string());
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
            unit,
            rows: Vec::new(),
            src: AddrCol::default(),
            dst: AddrCol::default(),
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
            ts(self.unit),
            DataType::UInt64,
            addr(),
            addr(),
            DataType::UInt64,
            ts(self.unit),
            DataType::Int64,
            DataType::Int64,
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
        self.rows.push(MetaRow {
            index,
            template_id: small(h.template_id),
            schema_id: h.schema_id.and_then(small),
            version: h.version,
            offset: frame.offset,
            time: frame.time_ns,
            packet: frame.packet,
            seq: frame.msg_seq_num,
            sending: frame.sending_time,
        });
        if self.frames {
            self.src.push(frame.src.as_ref());
            self.dst.push(frame.dst.as_ref());
        }
    }

    /// Whether an address dictionary is full, so that the batch must be
    /// cut before another row.
    pub(crate) fn full(&self) -> bool {
        self.src.full() || self.dst.full()
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<ArrayRef>) {
        if !self.on {
            return;
        }
        // The rows are read into their columns and the buffer kept: its
        // pages stay mapped for the next batch.
        let rows = &self.rows[..];
        let index: Vec<u64> = rows.iter().map(|r| r.index).collect();
        out.push(Arc::new(UInt64Array::from(index)));
        out.push(Arc::new(column::<UInt32Type>(rows, |r| r.template_id)));
        out.push(Arc::new(column::<UInt32Type>(rows, |r| r.schema_id)));
        out.push(Arc::new(column::<UInt32Type>(rows, |r| Some(r.version))));
        out.push(Arc::new(column::<UInt64Type>(rows, |r| r.offset)));
        if self.frames {
            let unit = self.unit;
            let time = |f: fn(&MetaRow) -> Option<i64>| -> ArrayRef {
                let at = |r: &MetaRow| time::from_nanos(f(r), unit).0;
                match unit {
                    TimeUnit::Nanos => {
                        Arc::new(column::<TimestampNanosecondType>(rows, f).with_timezone(UTC))
                    }
                    TimeUnit::Micros => {
                        Arc::new(column::<TimestampMicrosecondType>(rows, at).with_timezone(UTC))
                    }
                    _ => Arc::new(column::<TimestampMillisecondType>(rows, at).with_timezone(UTC)),
                }
            };
            out.push(time(|r| r.time));
            out.push(Arc::new(column::<UInt64Type>(rows, |r| r.packet)));
            out.push(self.src.finish());
            out.push(self.dst.finish());
            out.push(Arc::new(column::<UInt64Type>(rows, |r| r.seq)));
            out.push(time(|r| r.sending));
            if unit != TimeUnit::Nanos {
                out.push(Arc::new(column::<Int64Type>(rows, |r| {
                    time::from_nanos(r.time, unit).1
                })));
                out.push(Arc::new(column::<Int64Type>(rows, |r| {
                    time::from_nanos(r.sending, unit).1
                })));
            }
        }
        self.rows.clear();
    }
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;

    use super::*;

    fn names_of(a: &ArrayRef) -> Vec<Option<String>> {
        let d = a.as_dictionary::<UInt16Type>();
        let names = d.values().as_string::<i32>();
        d.keys()
            .iter()
            .map(|k| k.map(|k| names.value(usize::from(k)).to_string()))
            .collect()
    }

    #[test]
    fn addresses_are_a_dictionary_of_the_batch_shared_or_not() {
        let mut col = AddrCol::default();
        let a: Arc<str> = "10.0.0.1:9000".into();
        let b: Arc<str> = "10.0.0.2:9000".into();
        // The same text in another `Arc` takes the same key.
        let a2: Arc<str> = "10.0.0.1:9000".into();
        for addr in [Some(&a), Some(&a), Some(&b), None, Some(&a2)] {
            col.push(addr);
        }
        let first = col.finish();
        let d = first.as_dictionary::<UInt16Type>();
        assert_eq!(d.values().len(), 2, "two names, {first:?}");
        assert_eq!(
            names_of(&first),
            [Some(&a), Some(&a), Some(&b), None, Some(&a)].map(|v| v.map(|s| s.to_string()))
        );
        // The next batch's dictionary holds its own addresses only.
        col.push(Some(&b));
        let second = col.finish();
        assert_eq!(second.as_dictionary::<UInt16Type>().values().len(), 1);
        assert_eq!(names_of(&second), [Some(b.to_string())]);
    }

    #[test]
    fn a_full_address_dictionary_cuts_the_batch() {
        let mut col = AddrCol::default();
        for i in 0..u32::from(u16::MAX) {
            assert!(!col.full());
            col.push(Some(&Arc::from(format!("10.0.{}.{}:1", i >> 8, i & 0xff))));
        }
        assert!(col.full());
        let a = col.finish();
        assert_eq!(a.len(), usize::from(u16::MAX));
        assert!(!col.full(), "emptied with the batch");
    }
}
