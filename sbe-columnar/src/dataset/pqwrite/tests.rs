//! Our chunks read back through the `parquet` crate's reader: the same
//! values and nulls that went in, over nulls, empty and null lists,
//! nested lists, nullable struct fields, pages and row groups, wide
//! dictionary keys; and the statistics the crate's own writer gives.

use std::fs::{self, File};
use std::sync::Arc;

use arrow_array::types::UInt16Type;
use arrow_array::{
    Array, ArrayRef, BinaryArray, Date32Array, Decimal128Array, DictionaryArray, Float64Array,
    Int32Array, Int64Array, Int8Array, ListArray, RecordBatch, StringArray, StructArray,
    TimestampNanosecondArray, UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::dataset::{prepare, Compression, DatasetWriter, Existing, Format};

fn nulls(n: usize, every: usize, at: usize) -> Option<NullBuffer> {
    Some(NullBuffer::from(
        (0..n).map(|i| i % every != at).collect::<Vec<bool>>(),
    ))
}

/// A dictionary column of `n` keys over `size` names starting at `shift`.
fn names(n: usize, size: usize, shift: usize, seed: usize) -> ArrayRef {
    let keys: Vec<Option<u16>> = (0..n)
        .map(|i| (i % 5 != 2).then_some(((i * 7 + seed) % size) as u16))
        .collect();
    let values: Vec<String> = (0..size).map(|i| format!("Name{}", i + shift)).collect();
    let dict = DictionaryArray::<UInt16Type>::try_new(
        UInt16Array::from(keys),
        Arc::new(StringArray::from(values)),
    )
    .unwrap();
    Arc::new(dict)
}

fn dict_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8))
}

/// `list<struct{a: int64, e: enum, f: double, inner: list<int32>}>`: null
/// lists, empty lists, null entries, null fields, nested empty lists.
fn group(rows: usize, size: usize, shift: usize) -> ArrayRef {
    let lens: Vec<usize> = (0..rows)
        .map(|r| if r % 11 < 2 { 0 } else { r % 4 + 1 })
        .collect();
    let n: usize = lens.iter().sum();
    let inner_lens: Vec<usize> = (0..n).map(|i| i % 3).collect();
    let m: usize = inner_lens.iter().sum();
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    let inner = ListArray::new(
        item.clone(),
        OffsetBuffer::from_lengths(inner_lens),
        Arc::new(Int32Array::new(
            (0..m as i32).map(|i| i * 3 - 50).collect(),
            nulls(m, 4, 1),
        )),
        nulls(n, 7, 3),
    );
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("e", dict_type(), true),
        Field::new("f", DataType::Float64, true),
        Field::new("t", DataType::Utf8, true),
        Field::new("inner", DataType::List(item), true),
    ]);
    let entries = StructArray::new(
        fields.clone(),
        vec![
            Arc::new(Int64Array::new(
                (0..n as i64).map(|i| i * 1000 - 7).collect(),
                nulls(n, 3, 0),
            )),
            names(n, size, shift, 1),
            Arc::new(Float64Array::new(
                (0..n).map(|i| i as f64 / 4.0).collect(),
                nulls(n, 6, 5),
            )),
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| (i % 4 != 1).then(|| format!("t{}", i / 3 % 7))),
            )),
            Arc::new(inner),
        ],
        nulls(n, 9, 4),
    );
    let entry = Arc::new(Field::new("item", DataType::Struct(fields), true));
    // Rows 11k are null lists, 11k+1 empty ones.
    let list_nulls = NullBuffer::from((0..rows).map(|r| r % 11 != 0).collect::<Vec<bool>>());
    Arc::new(ListArray::new(
        entry,
        OffsetBuffer::from_lengths(lens),
        Arc::new(entries),
        Some(list_nulls),
    ))
}

/// `list<struct{...}>` as the groups of messages mostly are: entries and
/// fields that could be null but are not, a field that is, a nested list
/// without nulls.
fn plain_group(rows: usize) -> ArrayRef {
    let lens: Vec<usize> = (0..rows).map(|r| r % 5).collect();
    let n: usize = lens.iter().sum();
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    let inner_lens: Vec<usize> = (0..n).map(|i| i % 2).collect();
    let m: usize = inner_lens.iter().sum();
    let inner = ListArray::new(
        item.clone(),
        OffsetBuffer::from_lengths(inner_lens),
        Arc::new(Int32Array::from_iter_values(0..m as i32)),
        None,
    );
    let keys = UInt16Array::from_iter_values((0..n).map(|i| (i % 3) as u16));
    let e = DictionaryArray::<UInt16Type>::try_new(
        keys,
        Arc::new(StringArray::from(vec!["A", "B", "C"])),
    )
    .unwrap();
    let fields = Fields::from(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Int32, false),
        Field::new("e", dict_type(), true),
        Field::new("z", DataType::Int64, true),
        Field::new("raw", DataType::UInt8, true),
        Field::new("p", DataType::Decimal128(19, 9), true),
        Field::new("bin", DataType::Binary, true),
        Field::new("q", DataType::Decimal128(30, 2), false),
        Field::new("inner", DataType::List(item), true),
    ]);
    let entries = StructArray::new(
        fields.clone(),
        vec![
            Arc::new(Int64Array::from_iter_values((0..n as i64).map(|i| i * 5))),
            Arc::new(Int32Array::from_iter_values((0..n as i32).map(|i| -i))),
            Arc::new(e),
            Arc::new(Int64Array::new((0..n as i64).collect(), nulls(n, 4, 1))),
            Arc::new(UInt8Array::from(vec![None::<u8>; n])),
            Arc::new(
                Decimal128Array::new(
                    (0..n as i128).map(|i| (i - 40) * 1_000_000_007).collect(),
                    nulls(n, 3, 2),
                )
                .with_precision_and_scale(19, 9)
                .unwrap(),
            ),
            Arc::new(BinaryArray::from_iter_values(
                (0..n).map(|i| vec![(i / 2 % 5) as u8; i % 3]),
            )),
            Arc::new(
                Decimal128Array::from_iter_values((0..n as i128).map(|i| -i * 10i128.pow(25)))
                    .with_precision_and_scale(30, 2)
                    .unwrap(),
            ),
            Arc::new(inner),
        ],
        None,
    );
    let entry = Arc::new(Field::new("item", DataType::Struct(fields), false));
    Arc::new(ListArray::new(
        entry,
        OffsetBuffer::from_lengths(lens),
        Arc::new(entries),
        None,
    ))
}

/// A batch of `rows` rows starting at row `from`, its enum names a
/// dictionary of `size` entries starting at `shift`.
fn batch(from: usize, rows: usize, size: usize, shift: usize) -> RecordBatch {
    let r = |f: fn(usize) -> i64| (from..from + rows).map(f).collect::<Vec<i64>>();
    let exact = Fields::from(vec![
        Field::new("m", DataType::Int64, true),
        Field::new("e", DataType::Int8, true),
    ]);
    let g = group(rows, size, shift);
    let h = plain_group(rows);
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int64, true),
        Field::new("u", DataType::UInt32, true),
        Field::new("w", DataType::UInt64, false),
        Field::new("d", DataType::Date32, true),
        Field::new(
            "t",
            DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
            true,
        ),
        Field::new("e", dict_type(), true),
        Field::new("s", DataType::Utf8, true),
        Field::new("x", DataType::Struct(exact.clone()), true),
        Field::new("g", g.data_type().clone(), true),
        Field::new("h", h.data_type().clone(), false),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::new(
            r(|i| i as i64 * 3 - (i % 5) as i64).into(),
            nulls(rows, 7, 6),
        )),
        Arc::new(UInt32Array::from_iter_values(
            (from..from + rows).map(|i| (i as u32).wrapping_mul(2_654_435_761)),
        )),
        Arc::new(UInt64Array::from_iter_values(
            (from..from + rows).map(|i| u64::MAX - i as u64 * 977),
        )),
        Arc::new(Date32Array::from_iter_values(
            (from..from + rows).map(|i| 19_000 + (i / 100) as i32),
        )),
        Arc::new(
            TimestampNanosecondArray::new(
                r(|i| 1_700_000_000_000_000_000 + i as i64 * 1_777).into(),
                nulls(rows, 13, 0),
            )
            .with_timezone("UTC"),
        ),
        names(rows, size, shift, 0),
        Arc::new(StringArray::from_iter_values(
            (from..from + rows).map(|i| format!("s{}", i % 9)),
        )),
        Arc::new(StructArray::new(
            exact,
            vec![
                Arc::new(Int64Array::new(
                    r(|i| i as i64 - 500).into(),
                    nulls(rows, 4, 2),
                )),
                Arc::new(Int8Array::from_iter_values(
                    (from..from + rows).map(|i| -((i % 9) as i8)),
                )),
            ],
            nulls(rows, 10, 3),
        )),
        g,
        h,
    ];
    RecordBatch::try_new(schema, columns).unwrap()
}

/// Writes `batches` as one part, reads it back whole.
fn round_trip(
    name: &str,
    batches: &[RecordBatch],
    c: Compression,
) -> (RecordBatch, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("sbe-pqwrite-{name}-{}", std::process::id()));
    prepare(&dir, Existing::Overwrite).unwrap();
    let mut w = DatasetWriter::new(&dir, "t", Format::Parquet(c));
    for b in batches {
        w.write("T", b).unwrap();
    }
    let parts = w.close().unwrap();
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&parts[0]).unwrap())
        .unwrap()
        .with_batch_size(rows)
        .build()
        .unwrap();
    let read: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    assert_eq!(read.len(), 1);
    (read.into_iter().next().unwrap(), parts[0].clone())
}

fn assert_same(read: &RecordBatch, batches: &[RecordBatch]) {
    assert_eq!(read.schema(), batches[0].schema());
    let mut at = 0;
    for b in batches {
        for (i, col) in b.columns().iter().enumerate() {
            let got = read.column(i).slice(at, b.num_rows());
            assert_eq!(got.to_data(), col.to_data(), "column {i} at row {at}");
        }
        at += b.num_rows();
    }
    assert_eq!(at, read.num_rows());
}

#[test]
fn a_small_batch_reads_back() {
    for c in [Compression::None, Compression::Snappy, Compression::Zstd(1)] {
        let batches = [batch(0, 100, 3, 0)];
        let (read, path) = round_trip("small", &batches, c);
        fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
        assert_same(&read, &batches);
    }
}

#[test]
fn pages_and_row_groups_across_batches_read_back() {
    // Row groups of 65,536 rows cut the second batch; each batch has its
    // own dictionary, so a chunk joins two.
    let batches = [
        batch(0, 50_000, 4, 0),
        batch(50_000, 50_000, 6, 2),
        batch(100_000, 7, 2, 9),
    ];
    let (read, path) = round_trip("groups", &batches, Compression::Snappy);
    let r = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let groups = r.metadata().num_row_groups();
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_eq!(groups, 2);
    assert_same(&read, &batches);
}

#[test]
fn wide_dictionary_keys_read_back() {
    let batches = [batch(0, 3000, 40_000, 0)];
    let (read, path) = round_trip("wide", &batches, Compression::Zstd(3));
    let r = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    // Column 5 is `e`: its dictionary page is the Arrow dictionary whole
    // (the crate's writer keeps only the names used), so it is ours.
    let mut pages = r
        .get_row_group(0)
        .unwrap()
        .get_column_page_reader(5)
        .unwrap();
    let first = pages.get_next_page().unwrap().unwrap();
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_eq!(first.page_type(), parquet::basic::PageType::DICTIONARY_PAGE);
    assert_eq!(first.num_values(), 40_000);
    assert_same(&read, &batches);
}

#[test]
fn an_empty_row_group_and_all_nulls_read_back() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int64, true),
        Field::new("e", dict_type(), true),
    ]));
    let e = DictionaryArray::<UInt16Type>::try_new(
        UInt16Array::from(vec![None::<u16>; 5]),
        Arc::new(StringArray::from(vec!["A"])),
    )
    .unwrap();
    let b = RecordBatch::try_new(
        schema,
        vec![
            Arc::new(Int64Array::from(vec![None::<i64>; 5])),
            Arc::new(e),
        ],
    )
    .unwrap();
    let batches = [b.slice(0, 0), b];
    let (read, path) = round_trip("nulls", &batches, Compression::Snappy);
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_same(&read, &batches[1..]);
}

/// The statistics of each top-level column as the crate's own writer
/// records them (min, max, nulls), against ours.
#[test]
fn statistics_are_the_crates() {
    // Pages of 20,000 rows: several per chunk, nulls among them.
    let batches = [batch(0, 50_000, 4, 0)];
    let (_, ours) = round_trip("stats", &batches, Compression::Snappy);
    let theirs = ours.with_extension("crate");
    let schema = batches[0].schema();
    let props = super::super::encodings(
        parquet::file::properties::WriterProperties::builder(),
        &schema,
    )
    .unwrap()
    .build();
    let mut w = ArrowWriter::try_new(File::create(&theirs).unwrap(), schema, Some(props)).unwrap();
    w.write(&batches[0]).unwrap();
    w.close().unwrap();
    let stats = |p: &std::path::Path| {
        let r = SerializedFileReader::new(File::open(p).unwrap()).unwrap();
        let rg = r.metadata().row_group(0);
        (0..rg.num_columns())
            .map(|i| {
                let c = rg.column(i);
                let s = c.statistics();
                (
                    c.column_path().string(),
                    s.and_then(|s| s.min_bytes_opt().map(<[u8]>::to_vec)),
                    s.and_then(|s| s.max_bytes_opt().map(<[u8]>::to_vec)),
                    s.and_then(|s| s.null_count_opt()),
                )
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (stats(&ours), stats(&theirs));
    let (ia, ib) = (index_summary(&ours), index_summary(&theirs));
    let pages = our_pages(&ours, &batches[0]);
    fs::remove_dir_all(ours.parent().unwrap().parent().unwrap()).unwrap();
    // The same columns indexed, in the same order, with the same nulls;
    // pages may be cut elsewhere. The crate leaves out the index of
    // `h.raw` (a list's leaf of nulls only): a page with no value but
    // fewer rows than nulls makes its index invalid, where ours marks
    // the page null, as the format says.
    let raw = ia.iter().position(|(i, _, _)| *i == 18).unwrap();
    let mut ia = ia;
    assert_eq!(ia.remove(raw), (18, "Some(ASCENDING)".to_string(), 110000));
    assert_eq!(ia, ib);
    for (want, got) in pages {
        assert_eq!(want, got);
    }
    assert_eq!(a, b);
}

#[test]
fn text_past_the_dictionary_limit_is_the_crates_and_reads_back() {
    let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)]));
    let s = StringArray::from_iter((0..3000).map(|i| (i % 10 != 3).then(|| format!("{i:0>500}"))));
    let b = RecordBatch::try_new(schema, vec![Arc::new(s)]).unwrap();
    let batches = [b];
    let (read, path) = round_trip("bigtext", &batches, Compression::Snappy);
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_same(&read, &batches);
}

#[test]
fn a_dictionary_of_one_name_reads_back() {
    let schema = Arc::new(Schema::new(vec![Field::new("e", dict_type(), true)]));
    let e = DictionaryArray::<UInt16Type>::try_new(
        UInt16Array::from(vec![Some(0), None, Some(0), Some(0)]),
        Arc::new(StringArray::from(vec!["Only"])),
    )
    .unwrap();
    let batches = [RecordBatch::try_new(schema, vec![Arc::new(e)]).unwrap()];
    let (read, path) = round_trip("one", &batches, Compression::Snappy);
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_same(&read, &batches);
}

/// Per indexed column of row group 0: its boundary order, total nulls,
/// and whether a page's min or max is ever past the other's.
fn index_summary(p: &std::path::Path) -> Vec<(usize, String, i64)> {
    let options = parquet::file::serialized_reader::ReadOptionsBuilder::new()
        .with_page_index()
        .build();
    let r = SerializedFileReader::new_with_options(File::open(p).unwrap(), options).unwrap();
    let ci = &r.metadata().column_index().unwrap()[0];
    ci.iter()
        .enumerate()
        .filter(|(_, c)| !matches!(c, ColumnIndexMetaData::NONE))
        .map(|(i, c)| {
            let order = format!("{:?}", c.get_boundary_order());
            let nulls = c.null_counts().map_or(0, |n| n.iter().sum());
            (i, order, nulls)
        })
        .collect()
}

/// For the first three columns (Int64 with nulls, UInt32, UInt64) of
/// our file, each page's (min, max) from the index and from the batch's
/// rows of that page (by the offset index).
/// Each page's (min, max).
type Bounds = Vec<(i64, i64)>;

fn our_pages(p: &std::path::Path, b: &RecordBatch) -> Vec<(Bounds, Bounds)> {
    let options = parquet::file::serialized_reader::ReadOptionsBuilder::new()
        .with_page_index()
        .build();
    let r = SerializedFileReader::new_with_options(File::open(p).unwrap(), options).unwrap();
    let md = r.metadata();
    let ci = &md.column_index().unwrap()[0];
    let oi = &md.offset_index().unwrap()[0];
    (0..3)
        .map(|c| {
            let starts: Vec<usize> = oi[c]
                .page_locations()
                .iter()
                .map(|l| l.first_row_index as usize)
                .collect();
            let ends: Vec<usize> = starts
                .iter()
                .skip(1)
                .copied()
                .chain([md.row_group(0).num_rows() as usize])
                .collect();
            let col = b.column(c);
            let want = starts
                .iter()
                .zip(&ends)
                .map(|(&s, &e)| {
                    let v: Vec<i128> = match c {
                        0 => col
                            .as_any()
                            .downcast_ref::<Int64Array>()
                            .unwrap()
                            .slice(s, e - s)
                            .iter()
                            .flatten()
                            .map(i128::from)
                            .collect(),
                        1 => col
                            .as_any()
                            .downcast_ref::<UInt32Array>()
                            .unwrap()
                            .slice(s, e - s)
                            .iter()
                            .flatten()
                            .map(i128::from)
                            .collect(),
                        _ => col
                            .as_any()
                            .downcast_ref::<UInt64Array>()
                            .unwrap()
                            .slice(s, e - s)
                            .iter()
                            .flatten()
                            .map(i128::from)
                            .collect(),
                    };
                    (
                        *v.iter().min().unwrap() as i64,
                        *v.iter().max().unwrap() as i64,
                    )
                })
                .collect();
            let got = match &ci[c] {
                ColumnIndexMetaData::INT64(x) => x
                    .min_values()
                    .iter()
                    .zip(x.max_values())
                    .map(|(&a, &b)| (a, b))
                    .collect(),
                ColumnIndexMetaData::INT32(x) => x
                    .min_values()
                    .iter()
                    .zip(x.max_values())
                    .map(|(&a, &b)| (i64::from(a as u32), i64::from(b as u32)))
                    .collect(),
                other => panic!("{other:?}"),
            };
            (want, got)
        })
        .collect()
}

/// `array` as the one column of a batch, written and read back.
fn column_reads_back(name: &str, array: ArrayRef) {
    let schema = Arc::new(Schema::new(vec![Field::new(
        "c",
        array.data_type().clone(),
        true,
    )]));
    let batches = [RecordBatch::try_new(schema, vec![array]).unwrap()];
    let (read, path) = round_trip(name, &batches, Compression::None);
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_same(&read, &batches);
}

#[test]
fn delta_packed_extremes_read_back() {
    let int64: Vec<Vec<i64>> = vec![
        vec![5],
        vec![5, 4],
        (0..129).collect(),
        (0..1000)
            .map(|i| 1_700_000_000_000_000_000 + i * 37 - (i % 5) * 100)
            .collect(),
        vec![i64::MIN, i64::MAX, 0, -1, i64::MAX, i64::MIN],
        (0..300)
            .map(|i| if i % 2 == 0 { i64::MIN } else { i64::MAX })
            .collect(),
    ];
    for v in int64 {
        column_reads_back("d64", Arc::new(Int64Array::from(v)));
    }
    let int32: Vec<Vec<i32>> = vec![
        vec![-7],
        (0..1000).map(|i| i * 3 % 17 - 8).collect(),
        vec![i32::MIN, i32::MAX, 0, -1, i32::MAX, i32::MIN, 1],
        (0..257)
            .map(|i| if i % 3 == 0 { i32::MIN } else { i32::MAX })
            .collect(),
    ];
    for v in int32 {
        column_reads_back("d32", Arc::new(Int32Array::from(v)));
    }
    let wide = vec![0, u64::MAX, 1, u64::MAX - 1, 1 << 63];
    column_reads_back("du64", Arc::new(UInt64Array::from(wide)));
    let wide = vec![0, u32::MAX, 1, u32::MAX - 1, 1 << 31];
    column_reads_back("du32", Arc::new(UInt32Array::from(wide)));
}

/// Keys `keys` into a dictionary of `size` names: the hybrid at the
/// width of `size - 1`.
fn keys_read_back(keys: &[u16], size: usize) {
    let names: Vec<String> = (0..size).map(|i| format!("k{i}")).collect();
    let dict = DictionaryArray::<UInt16Type>::try_new(
        UInt16Array::from(keys.to_vec()),
        Arc::new(StringArray::from(names)),
    )
    .unwrap();
    column_reads_back("keys", Arc::new(dict));
}

#[test]
fn hybrid_runs_and_literals_read_back() {
    let cases: Vec<Vec<u16>> = vec![
        vec![1],
        vec![0, 1, 2, 3, 2, 1, 0, 1, 2],
        vec![3; 100],
        [vec![1, 2, 3], vec![0; 20], vec![1, 2], vec![3; 9]].concat(),
        [vec![1; 7], vec![2; 8], vec![1; 15], vec![0; 17]].concat(),
        (0..1000).map(|i| (i % 7 / 3) as u16).collect(),
        (0..1000).map(|i| (i / 13 % 4) as u16).collect(),
    ];
    for keys in &cases {
        keys_read_back(keys, 4);
        keys_read_back(keys, 8);
    }
    // The most a reader takes into u16 keys: 65,535 names.
    let wide: Vec<u16> = (0..5000u32).map(|i| (i * 7919 % 65535) as u16).collect();
    keys_read_back(&wide, 65535);
    let nine: Vec<u16> = (0..5000).map(|i| (i / 40 % 300) as u16).collect();
    keys_read_back(&nine, 300);
}

#[test]
fn dictionaries_past_u16_keys_in_one_row_group_read_back() {
    // Two batches of 40,000 names each (other ones): joined, more than
    // a u16 key reaches, so the crate's writer takes the chunk.
    let schema = Arc::new(Schema::new(vec![Field::new("e", dict_type(), true)]));
    let batches: Vec<RecordBatch> = [0, 40_000]
        .iter()
        .map(|&shift| {
            let e = names(3000, 40_000, shift, 11);
            RecordBatch::try_new(schema.clone(), vec![e]).unwrap()
        })
        .collect();
    let (read, path) = round_trip("joined", &batches, Compression::Snappy);
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_same(&read, &batches);
}

#[test]
fn a_chunk_is_compressed_only_where_its_first_page_shrinks() {
    // Random deltas bit-pack to bytes snappy cannot shrink; a text column
    // of long repeated names (its dictionary page first) and a column
    // of a value each row repeats shrink.
    let n = 30_000;
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let random: Vec<i64> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as i64
        })
        .collect();
    let text: Vec<String> = (0..n)
        .map(|i| format!("{}-{}", "a long repeated name".repeat(3), i % 3))
        .collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("random", DataType::Int64, true),
        Field::new("text", DataType::Utf8, true),
        Field::new("names", dict_type(), true),
    ]));
    let batches = [RecordBatch::try_new(
        schema,
        vec![
            Arc::new(Int64Array::from(random)),
            Arc::new(StringArray::from(text)),
            names(n, 3000, 0, 1),
        ],
    )
    .unwrap()];
    for c in [Compression::Snappy, Compression::Zstd(1), Compression::None] {
        let (read, path) = round_trip("compressed", &batches, c);
        let r = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
        let codecs: Vec<String> = (r.metadata().row_group(0).columns().iter())
            .map(|c| c.compression().to_string())
            .collect();
        fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
        assert_same(&read, &batches);
        let named = match c {
            Compression::Snappy => "SNAPPY",
            Compression::Zstd(_) => "ZSTD(ZstdLevel(1))",
            Compression::None => "UNCOMPRESSED",
        };
        assert_eq!(codecs, ["UNCOMPRESSED", named, named], "{c:?}");
    }
}

/// Decimals of precision `p` (FIXED_LEN_BYTE_ARRAY), at the top level
/// (the crate's writer, which keeps statistics) and as list entries
/// (ours): both PLAIN (no DELTA_BYTE_ARRAY, which Polars refuses for
/// fixed-length values), read back the same.
fn wide_decimals_read_back(p: u8, values: Vec<Option<i128>>) {
    let n = values.len();
    let top = Arc::new(
        Decimal128Array::from(values)
            .with_precision_and_scale(p, 3)
            .unwrap(),
    );
    let item = Arc::new(Field::new("item", top.data_type().clone(), true));
    let lens: Vec<usize> = (0..)
        .map(|i| i % 4)
        .scan(0, |sum, l| {
            let l = l.min(n - *sum);
            *sum += l;
            (l > 0 || *sum < n).then_some(l)
        })
        .collect();
    let list = ListArray::new(item, OffsetBuffer::from_lengths(lens), top.clone(), None);
    let schema = Arc::new(Schema::new(vec![
        Field::new("top", top.data_type().clone(), true),
        Field::new("list", list.data_type().clone(), true),
    ]));
    // The list has fewer rows than its entries: a batch of the list, and
    // one of the top-level column.
    for (name, col, i) in [
        ("top", top as ArrayRef, 0),
        ("list", Arc::new(list) as ArrayRef, 1),
    ] {
        let schema = Arc::new(Schema::new(vec![schema.field(i).clone()]));
        let batches = [RecordBatch::try_new(schema, vec![col]).unwrap()];
        let (read, path) = round_trip(&format!("dba-{name}-{p}"), &batches, Compression::None);
        assert_same(&read, &batches);
        let meta = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
        let chunk = meta.metadata().row_group(0).column(0).clone();
        let encodings: Vec<_> = chunk.encodings().collect();
        assert!(
            encodings.contains(&parquet::basic::Encoding::PLAIN)
                && !encodings.contains(&parquet::basic::Encoding::DELTA_BYTE_ARRAY),
            "{name} {p}: {encodings:?}"
        );
        fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    }
}

#[test]
fn wide_decimals_are_plain_and_read_back() {
    // Prices near each other, the same value again, signs changing,
    // nulls between.
    let prices: Vec<Option<i128>> = (0..700)
        .map(|i| match i % 9 {
            0 => None,
            1 | 2 => Some(4_500_000_000_000),
            3 => Some(-(i as i128) * 250_000),
            _ => Some(4_500_000_000_000 + (i as i128 * 7919 % 1000) * 250_000),
        })
        .collect();
    for p in [19, 30, 38] {
        wide_decimals_read_back(p, prices.clone());
    }
    // The extremes of each width, and one value.
    let max = |p: u32| 10i128.pow(p) - 1;
    for p in [19u8, 25, 38] {
        let m = max(u32::from(p));
        wide_decimals_read_back(
            p,
            vec![
                Some(m),
                Some(-m),
                Some(0),
                Some(m),
                Some(m),
                Some(-1),
                Some(1),
            ],
        );
        wide_decimals_read_back(p, vec![Some(-m)]);
    }
}

#[test]
fn a_chunk_that_did_not_pay_is_not_tried_for_seven_row_groups() {
    // One row group of random values (its chunk stored uncompressed),
    // then row groups of a value that repeats, which would shrink: the
    // next seven are stored uncompressed untried, the ninth is tried and
    // compressed. A column that pays in every row group is compressed in
    // every one.
    use crate::dataset::ROW_GROUP_ROWS;
    let groups = 10;
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let values: Vec<i64> = (0..groups * ROW_GROUP_ROWS)
        .map(|i| {
            if i < ROW_GROUP_ROWS {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as i64
            } else {
                (i % 2) as i64 * 1_000_000_000_000_000
            }
        })
        .collect();
    let repeats: Vec<i64> = (0..values.len())
        .map(|i| (i % 3) as i64 * 1_000_000_007)
        .collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("changes", DataType::Int64, false),
        Field::new("repeats", DataType::Int64, false),
    ]));
    let batches = [RecordBatch::try_new(
        schema,
        vec![
            Arc::new(Int64Array::from(values)),
            Arc::new(Int64Array::from(repeats)),
        ],
    )
    .unwrap()];
    let (read, path) = round_trip("untried", &batches, Compression::Snappy);
    let r = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let codecs = |leaf: usize| -> Vec<bool> {
        (0..r.metadata().num_row_groups())
            .map(|g| {
                r.metadata().row_group(g).column(leaf).compression()
                    != parquet::basic::Compression::UNCOMPRESSED
            })
            .collect()
    };
    let (changes, repeats) = (codecs(0), codecs(1));
    fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).unwrap();
    assert_same(&read, &batches);
    let mut expected = vec![false; 8];
    expected.extend([true, true]);
    assert_eq!(changes, expected);
    assert_eq!(repeats, vec![true; groups]);
}
