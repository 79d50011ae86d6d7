//! The columnar export on any bytes: messages one after another, each
//! appended or refused (and then recorded as an error), in small batches
//! that flatten groups or not. Nothing panics, and the message tables
//! have exactly the rows of the messages taken. Each table's batches are
//! then written as a Parquet part (our page writer: levels, dictionaries,
//! statistics) and read back by the `parquet` crate: the same values.
#![no_main]

use std::collections::HashMap;

use arrow_array::RecordBatch;
use libfuzzer_sys::fuzz_target;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sbe_columnar::dataset::{prepare, Compression, DatasetWriter, Existing, Format};
use sbe_columnar::{Exporter, Frame, Options};

/// Writes each table's batches as one Parquet part, in a folder of this
/// process, and reads it back: the same rows and values.
fn parquet_round_trip(tables: &HashMap<String, Vec<RecordBatch>>, compression: Compression) {
    let dir = std::env::temp_dir().join(format!("sbe-fuzz-columnar-{}", std::process::id()));
    prepare(&dir, Existing::Overwrite).expect("a scratch folder");
    let mut w = DatasetWriter::new(&dir, "fuzz", Format::Parquet(compression));
    let mut names: Vec<&String> = tables.keys().collect();
    names.sort();
    for name in &names {
        for b in &tables[*name] {
            w.write(name, b).expect("our writer takes what the exporter makes");
        }
    }
    let parts = w.close().expect("our writer closes");
    for (name, part) in names.iter().zip(&parts) {
        let batches = &tables[*name];
        let Some(first) = batches.first() else { continue };
        let want = arrow_select::concat::concat_batches(&first.schema(), batches).unwrap();
        let file = std::fs::File::open(part).unwrap();
        let read: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("the crate reads our footer")
            .build()
            .unwrap()
            .map(|b| b.expect("the crate reads our pages"))
            .collect();
        let got = arrow_select::concat::concat_batches(&first.schema(), &read).unwrap();
        assert_eq!(got.num_rows(), want.num_rows(), "{name}");
        for (i, (g, w)) in got.columns().iter().zip(want.columns()).enumerate() {
            assert_eq!(g.to_data(), w.to_data(), "{name} column {i}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let ir = sbe_fuzz::ir_of(sbe_fuzz::pick(selector));
    let options = Options::default()
        .flatten(selector & 0x80 != 0)
        .frames(selector & 0x40 != 0)
        .batch_rows(usize::from(selector % 7) + 1);
    let Ok(mut ex) = Exporter::new(ir, options) else {
        return;
    };
    let mut taken = 0;
    let mut rows: HashMap<String, usize> = HashMap::new();
    let mut tables: HashMap<String, Vec<RecordBatch>> = HashMap::new();
    let mut count = |batches: Vec<(String, RecordBatch)>| {
        for (table, b) in batches {
            *rows.entry(table.clone()).or_default() += b.num_rows();
            if b.num_rows() > 0 {
                tables.entry(table).or_default().push(b);
            }
        }
    };
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        match ex.append(rest, &Frame::at(at as u64)) {
            Ok(len) => {
                assert!(len > 0 && len <= rest.len(), "took {len} of {}", rest.len());
                taken += 1;
                at += len;
            }
            Err(e) => {
                ex.append_error(rest, &Frame::at(at as u64), "Fuzz", &e.to_string());
                at += 1;
            }
        }
        count(ex.take_ready().expect("the exporter fills what Arrow takes"));
    }
    count(ex.finish().expect("the exporter fills what Arrow takes"));
    // A message table's rows are the messages taken: none of a refused
    // message, none lost at a batch's cut.
    let messages: usize = (ir.messages.iter())
        .map(|m| rows.get(&m.name).copied().unwrap_or(0))
        .sum();
    assert_eq!(messages, taken);
    let compression = match selector % 3 {
        0 => Compression::None,
        1 => Compression::Snappy,
        _ => Compression::Zstd(1),
    };
    parquet_round_trip(&tables, compression);
});
