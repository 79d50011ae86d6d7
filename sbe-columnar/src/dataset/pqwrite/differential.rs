//! Our Parquet against the `parquet` crate's `ArrowWriter` on random
//! batches of every column kind the exporter makes (each at the top
//! level, in a struct, and in a list of structs beside nested lists):
//! nulls at every level, empty lists, wide decimals, unsigned 64-bit
//! extremes, several pages and row groups. The same values read back;
//! each chunk's statistics, level histograms and unencoded bytes are
//! the crate's; and each page of our column index is what the crate
//! records for that page's rows written alone (our pages may be cut at
//! other rows than the crate's, so the oracle of a page is the crate's
//! writer on its rows).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::types::UInt16Type;
use arrow_array::{
    ArrayRef, BinaryArray, Date32Array, Decimal128Array, DictionaryArray, Float32Array,
    Float64Array, Int16Array, Int32Array, Int64Array, Int8Array, ListArray, RecordBatch,
    StringArray, StructArray, Time64NanosecondArray, TimestampNanosecondArray,
    TimestampSecondArray, UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::data_type::AsBytes;
use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::serialized_reader::ReadOptionsBuilder;
use proptest::prelude::*;

use super::ParquetPart;
use crate::dataset::{Compression, ROW_GROUP_ROWS};

/// A xorshift generator: the batch is a function of the case's seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A value: small, near an extreme, or any of the 64 bits.
    fn wide(&mut self) -> u64 {
        match self.below(4) {
            0 => self.below(100),
            1 => u64::MAX - self.below(3),
            2 => (1 << 63) + self.below(3) - 1,
            _ => self.next(),
        }
    }
}

/// How a case's columns are made.
#[derive(Debug, Clone, Copy)]
struct Shape {
    /// Percent of nulls, per column: 0, some, or all.
    nulls: u64,
    /// The longest list.
    list: u64,
    /// Distinct text values.
    distinct: u64,
    /// Whether text may be longer than the truncation length (then the
    /// crate's writer takes the chunk): only at the top level, where a
    /// page with values is never taken for a null page (see
    /// [`differ`]).
    long: bool,
}

fn kinds() -> Vec<DataType> {
    let dict = DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8));
    vec![
        DataType::Int8,
        DataType::Int16,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt16,
        DataType::UInt32,
        DataType::UInt64,
        DataType::Float32,
        DataType::Float64,
        DataType::Decimal128(9, 2),
        DataType::Decimal128(18, 4),
        DataType::Decimal128(19, 9),
        DataType::Decimal128(38, 0),
        DataType::Date32,
        DataType::Time64(TimeUnit::Nanosecond),
        DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        DataType::Timestamp(TimeUnit::Second, Some("UTC".into())),
        dict,
        DataType::Utf8,
        DataType::Binary,
    ]
}

/// The leaves' fields: every kind, nullable, named by its place.
fn leaf_fields(prefix: &str) -> Vec<Field> {
    (kinds().into_iter().enumerate())
        .map(|(i, t)| Field::new(format!("{prefix}{i}"), t, true))
        .collect()
}

fn schema() -> SchemaRef {
    let mut top = leaf_fields("c");
    // Required columns (no level at all).
    top.push(Field::new("req_u64", DataType::UInt64, false));
    top.push(Field::new("req_text", DataType::Utf8, false));
    let inner = Field::new("item", DataType::Int64, true);
    let texts = Field::new("item", DataType::Utf8, true);
    let mut entry = leaf_fields("g");
    entry.push(Field::new("inner", DataType::List(Arc::new(inner)), true));
    entry.push(Field::new("texts", DataType::List(Arc::new(texts)), true));
    let entry = Field::new("item", DataType::Struct(Fields::from(entry)), true);
    top.push(Field::new(
        "x",
        DataType::Struct(Fields::from(leaf_fields("x"))),
        true,
    ));
    top.push(Field::new("g", DataType::List(Arc::new(entry)), true));
    Arc::new(Schema::new(top))
}

fn validity(n: usize, rng: &mut Rng, shape: Shape, nullable: bool) -> Option<NullBuffer> {
    if !nullable || shape.nulls == 0 {
        return None;
    }
    let bits: Vec<bool> = (0..n).map(|_| !rng.chance(shape.nulls)).collect();
    Some(NullBuffer::from(bits))
}

fn text(rng: &mut Rng, shape: Shape) -> String {
    let k = rng.below(shape.distinct);
    // Some long values: past the truncation length, which the crate's
    // writer then takes (and truncates).
    let long = if shape.long && k % 17 == 16 {
        "x".repeat(70)
    } else {
        String::new()
    };
    format!("{}{long}-{k}", ["", "a", "ES", "ESZ5", "é"][k as usize % 5])
}

/// A column of `field` over `n` rows.
fn column(field: &Field, n: usize, rng: &mut Rng, shape: Shape) -> ArrayRef {
    let nulls = validity(n, rng, shape, field.is_nullable());
    let mut ints =
        |f: &mut dyn FnMut(&mut Rng) -> u64| -> Vec<u64> { (0..n).map(|_| f(rng)).collect() };
    match field.data_type() {
        DataType::Int8 => Arc::new(Int8Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as i8)
                .collect(),
            nulls,
        )),
        DataType::Int16 => Arc::new(Int16Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as i16)
                .collect(),
            nulls,
        )),
        DataType::Int32 => Arc::new(Int32Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as i32)
                .collect(),
            nulls,
        )),
        DataType::Int64 => Arc::new(Int64Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as i64)
                .collect(),
            nulls,
        )),
        DataType::UInt8 => Arc::new(UInt8Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as u8)
                .collect(),
            nulls,
        )),
        DataType::UInt16 => Arc::new(UInt16Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as u16)
                .collect(),
            nulls,
        )),
        DataType::UInt32 => Arc::new(UInt32Array::new(
            ints(&mut |r| r.wide())
                .into_iter()
                .map(|v| v as u32)
                .collect(),
            nulls,
        )),
        DataType::UInt64 => Arc::new(UInt64Array::new(
            ints(&mut |r| r.wide()).into_iter().collect(),
            nulls,
        )),
        DataType::Float32 => Arc::new(Float32Array::new(
            ints(&mut |r| r.next())
                .into_iter()
                .map(|v| float(v) as f32)
                .collect(),
            nulls,
        )),
        DataType::Float64 => Arc::new(Float64Array::new(
            ints(&mut |r| r.next()).into_iter().map(float).collect(),
            nulls,
        )),
        DataType::Decimal128(p, s) => {
            let max = 10i128.pow(u32::from(*p)) - 1;
            let v: Vec<i128> = ints(&mut |r| r.next())
                .into_iter()
                .map(|x| match x % 4 {
                    0 => max - (x % 3) as i128,
                    1 => -max + (x % 3) as i128,
                    _ => (x as i128 * 7919) % max,
                })
                .collect();
            Arc::new(
                Decimal128Array::new(v.into(), nulls)
                    .with_precision_and_scale(*p, *s)
                    .unwrap(),
            )
        }
        DataType::Date32 => Arc::new(Date32Array::new(
            ints(&mut |r| r.below(40_000))
                .into_iter()
                .map(|v| v as i32 - 10_000)
                .collect(),
            nulls,
        )),
        DataType::Time64(_) => Arc::new(Time64NanosecondArray::new(
            ints(&mut |r| r.below(86_400_000_000_000))
                .into_iter()
                .map(|v| v as i64)
                .collect(),
            nulls,
        )),
        DataType::Timestamp(TimeUnit::Second, _) => Arc::new(
            TimestampSecondArray::new(
                ints(&mut |r| r.wide())
                    .into_iter()
                    .map(|v| (v >> 30) as i64)
                    .collect(),
                nulls,
            )
            .with_timezone("UTC"),
        ),
        DataType::Timestamp(_, _) => Arc::new(
            TimestampNanosecondArray::new(
                ints(&mut |r| r.wide())
                    .into_iter()
                    .map(|v| v as i64)
                    .collect(),
                nulls,
            )
            .with_timezone("UTC"),
        ),
        DataType::Dictionary(_, _) => {
            let size = 1 + rng.below(shape.distinct) as usize;
            let names: Vec<String> = (0..size)
                .map(|_| text(rng, shape))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let keys: Vec<u16> = (0..n)
                .map(|_| rng.below(names.len() as u64) as u16)
                .collect();
            let keys = UInt16Array::new(keys.into(), nulls);
            Arc::new(
                DictionaryArray::<UInt16Type>::try_new(keys, Arc::new(StringArray::from(names)))
                    .unwrap(),
            )
        }
        DataType::Utf8 => {
            let v: Vec<String> = (0..n).map(|_| text(rng, shape)).collect();
            Arc::new(StringArray::new(
                OffsetBuffer::from_lengths(v.iter().map(String::len)),
                v.concat().into_bytes().into(),
                nulls,
            ))
        }
        DataType::Binary => {
            let v: Vec<Vec<u8>> = (0..n)
                .map(|_| text(rng, shape).into_bytes().into_iter().rev().collect())
                .collect();
            Arc::new(BinaryArray::new(
                OffsetBuffer::from_lengths(v.iter().map(Vec::len)),
                v.concat().into(),
                nulls,
            ))
        }
        DataType::Struct(fields) => {
            let children = fields.iter().map(|f| column(f, n, rng, shape)).collect();
            Arc::new(StructArray::new(fields.clone(), children, nulls))
        }
        DataType::List(item) => {
            let lens: Vec<usize> = (0..n).map(|_| rng.below(shape.list + 1) as usize).collect();
            // A null list has no entries.
            let lens: Vec<usize> = match &nulls {
                Some(b) => lens
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if b.is_valid(i) { l } else { 0 })
                    .collect(),
                None => lens,
            };
            let m = lens.iter().sum();
            let values = column(
                item,
                m,
                rng,
                Shape {
                    long: false,
                    ..shape
                },
            );
            Arc::new(ListArray::new(
                item.clone(),
                OffsetBuffer::from_lengths(lens),
                values,
                nulls,
            ))
        }
        other => unreachable!("no generator for {other}"),
    }
}

/// A float: any finite value, a few special ones (signed zeros, which
/// the statistics order by their own rules).
fn float(bits: u64) -> f64 {
    match bits % 8 {
        0 => 0.0,
        1 => -0.0,
        2 => f64::MAX,
        3 => f64::MIN_POSITIVE,
        _ => (bits >> 11) as f64 / (1u64 << 20) as f64 - 4e6,
    }
}

fn batch(rows: usize, seed: u64, shape: Shape) -> RecordBatch {
    let schema = schema();
    let mut rng = Rng(seed | 1);
    let columns: Vec<ArrayRef> = (schema.fields().iter())
        .map(|f| {
            // Per column: nulls none, some, or all.
            let nulls = match rng.below(4) {
                0 => 0,
                3 => 100,
                _ => shape.nulls,
            };
            column(f, rows, &mut rng, Shape { nulls, ..shape })
        })
        .collect();
    RecordBatch::try_new(schema, columns).unwrap()
}

/// The dataset's properties; with `plain`, its fixed-length decimals
/// PLAIN (as the encoding choice may have them).
fn props(schema: &Schema, plain: bool) -> WriterProperties {
    let mut p = super::super::encodings(
        WriterProperties::builder().set_max_row_group_row_count(Some(ROW_GROUP_ROWS)),
        schema,
    )
    .unwrap();
    if plain {
        let descr = parquet::arrow::ArrowSchemaConverter::new()
            .convert(schema)
            .unwrap();
        for c in descr.columns() {
            if c.physical_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY {
                p = p.set_column_encoding(c.path().clone(), parquet::basic::Encoding::PLAIN);
            }
        }
    }
    p.build()
}

/// `batch` written by the crate's writer, in memory.
fn theirs(batch: &RecordBatch, plain: bool) -> Bytes {
    let mut out = Vec::new();
    let props = props(&batch.schema(), plain);
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
    Bytes::from(out)
}

fn metadata(file: Bytes) -> Arc<ParquetMetaData> {
    let options = ReadOptionsBuilder::new().with_page_index().build();
    let r = SerializedFileReader::new_with_options(file, options).unwrap();
    Arc::new(r.metadata().clone())
}

/// What a chunk records of its values: min, max, nulls, and its level
/// histograms and unencoded bytes.
type ChunkFacts = (
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<u64>,
    Option<Vec<i64>>,
    Option<Vec<i64>>,
    Option<i64>,
);

fn facts(rg: &RowGroupMetaData, leaf: usize) -> ChunkFacts {
    let c = rg.column(leaf);
    let s = c.statistics();
    (
        s.and_then(|s| s.min_bytes_opt().map(<[u8]>::to_vec)),
        s.and_then(|s| s.max_bytes_opt().map(<[u8]>::to_vec)),
        s.and_then(|s| s.null_count_opt()),
        c.repetition_level_histogram().map(|h| h.values().to_vec()),
        c.definition_level_histogram().map(|h| h.values().to_vec()),
        c.unencoded_byte_array_data_bytes(),
    )
}

/// What a page of a column index records: min, max, nulls, histograms.
type PageFacts = (
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<u64>,
    Option<Vec<i64>>,
    Option<Vec<i64>>,
);

/// Page `p` of a column index as chunk facts (min, max, nulls,
/// histograms; the unencoded bytes are the offset index's).
fn page_facts(ci: &ColumnIndexMetaData, p: usize) -> PageFacts {
    macro_rules! bounds {
        ($x:expr) => {
            (
                $x.min_value(p).map(|v| v.as_bytes().to_vec()),
                $x.max_value(p).map(|v| v.as_bytes().to_vec()),
            )
        };
    }
    let (min, max) = match ci {
        ColumnIndexMetaData::INT32(x) => bounds!(x),
        ColumnIndexMetaData::INT64(x) => bounds!(x),
        ColumnIndexMetaData::FLOAT(x) => bounds!(x),
        ColumnIndexMetaData::DOUBLE(x) => bounds!(x),
        ColumnIndexMetaData::BYTE_ARRAY(x) | ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(x) => (
            x.min_value(p).map(<[u8]>::to_vec),
            x.max_value(p).map(<[u8]>::to_vec),
        ),
        other => panic!("no column index of {other:?}"),
    };
    (
        min,
        max,
        ci.null_count(p).map(|n| n as u64),
        ci.repetition_level_histogram(p).map(<[i64]>::to_vec),
        ci.definition_level_histogram(p).map(<[i64]>::to_vec),
    )
}

/// Writes `batches` through our writer and the crate's and compares.
fn differ(batches: &[RecordBatch], name: &str, plain: bool) {
    let path = std::env::temp_dir().join(format!("sbe-pqdiff-{name}-{}", std::process::id()));
    let schema = batches[0].schema();
    let file = std::fs::File::create(&path).unwrap();
    let props = props(&schema, plain);
    let mut w = ParquetPart::try_new(file, schema, props, Compression::Snappy).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
    let ours = Bytes::from(std::fs::read(&path).unwrap());
    std::fs::remove_file(&path).unwrap();
    let all = arrow_select_concat(batches);

    // The same values read back.
    let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(ours.clone())
        .unwrap()
        .with_batch_size(all.num_rows().max(1))
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let rows: usize = read.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, all.num_rows());
    if let Some(r) = read.first() {
        for (i, col) in all.columns().iter().enumerate() {
            assert_eq!(r.column(i).to_data(), col.to_data(), "column {i}");
        }
    }

    // Each chunk's statistics are the crate's.
    let (a, b) = (metadata(ours), metadata(theirs(&all, plain)));
    assert_eq!(a.num_row_groups(), b.num_row_groups());
    let mut start = 0;
    let mut oracle: HashMap<(usize, usize), Arc<ParquetMetaData>> = HashMap::new();
    for g in 0..a.num_row_groups() {
        let (ra, rb) = (a.row_group(g), b.row_group(g));
        assert_eq!(ra.num_rows(), rb.num_rows());
        for leaf in 0..ra.num_columns() {
            let path = ra.column(leaf).column_path().string();
            assert_eq!(facts(ra, leaf), facts(rb, leaf), "row group {g}, {path}");
            let kinds = |c: &parquet::file::metadata::ColumnChunkMetaData| {
                let mut k: Vec<String> = (c.page_encoding_stats().into_iter().flatten())
                    .map(|s| format!("{:?} {:?}", s.page_type, s.encoding))
                    .collect();
                k.sort();
                k.dedup();
                k
            };
            assert_eq!(kinds(ra.column(leaf)), kinds(rb.column(leaf)), "{path}");
            // Each page of our index against the crate's record of its
            // rows.
            let ci = &a.column_index().unwrap()[g][leaf];
            let oi = &a.offset_index().unwrap()[g][leaf];
            if matches!(ci, ColumnIndexMetaData::NONE) {
                // Only the crate's chunks (floats, decimals, long text)
                // may lack one: see the note on null pages.
                assert!(!ours_kind(ra.column(leaf)), "{path} has no index");
                continue;
            }
            let locations = oi.page_locations();
            for (p, loc) in locations.iter().enumerate() {
                let from = loc.first_row_index as usize;
                let to = locations
                    .get(p + 1)
                    .map_or(ra.num_rows() as usize, |l| l.first_row_index as usize);
                let md = oracle.entry((start + from, to - from)).or_insert_with(|| {
                    metadata(theirs(&all.slice(start + from, to - from), plain))
                });
                let want = facts(md.row_group(0), leaf);
                let got = page_facts(ci, p);
                let got_bytes = oi
                    .unencoded_byte_array_data_bytes()
                    .and_then(|v| v.get(p).copied());
                if !ours_kind(ra.column(leaf))
                    && got
                        != (
                            want.0.clone(),
                            want.1.clone(),
                            want.2,
                            want.3.clone(),
                            want.4.clone(),
                        )
                {
                    // The crate marks a page null when its rows equal its
                    // nulls, values or not: its chunks are not ours to
                    // check.
                    continue;
                }
                assert_eq!(
                    got,
                    (want.0, want.1, want.2, want.3, want.4),
                    "row group {g}, {path}, page {p} (rows {from}..{to})"
                );
                assert_eq!(got_bytes, want.5, "{path} page {p}");
                assert_eq!(ci.is_null_page(p), got.0.is_none(), "{path} page {p}");
            }
        }
        start += ra.num_rows() as usize;
    }
}

/// Whether a chunk is one our encoders wrote (delta-packed numbers,
/// decimals, dictionary keys of text), not the crate's.
fn ours_kind(c: &parquet::file::metadata::ColumnChunkMetaData) -> bool {
    use parquet::basic::Encoding;
    c.encodings()
        .any(|e| matches!(e, Encoding::DELTA_BINARY_PACKED))
        || c.column_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY
        || (c.encodings().any(|e| e == Encoding::RLE_DICTIONARY)
            && c.column_type() == parquet::basic::Type::BYTE_ARRAY
            && c.statistics()
                .and_then(|s| s.max_bytes_opt())
                .is_none_or(|m| m.len() <= 64))
}

fn arrow_select_concat(batches: &[RecordBatch]) -> RecordBatch {
    let schema = batches[0].schema();
    arrow_select::concat::concat_batches(&schema, batches).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Small batches, split in up to three, every kind and shape.
    #[test]
    fn small_batches_are_the_crates(
        seed in any::<u64>(),
        rows in 0usize..400,
        cuts in proptest::collection::vec(0usize..400, 0..3),
        nulls in prop_oneof![Just(0u64), 1u64..60],
        list in 0u64..5,
        distinct in 1u64..40,
        plain in any::<bool>(),
    ) {
        let all = batch(rows, seed, Shape { nulls, list, distinct, long: true });
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(rows)).collect();
        cuts.sort();
        let mut at = 0;
        let mut batches = Vec::new();
        for c in cuts.into_iter().chain([rows]) {
            batches.push(all.slice(at, c - at));
            at = c;
        }
        differ(&batches, "small", plain);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    /// One batch of several pages and row groups.
    #[test]
    fn pages_and_row_groups_are_the_crates(seed in any::<u64>(), extra in 0usize..30_000) {
        let rows = ROW_GROUP_ROWS + 20_000 + extra;
        let all = batch(rows, seed, Shape { nulls: 20, list: 3, distinct: 300, long: true });
        differ(&[all], "large", seed % 2 == 0);
    }
}
