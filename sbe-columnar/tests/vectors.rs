//! Every golden vector of ../shared/vectors through the Parquet path:
//! exported, written as a dataset, read back with the parquet crate's
//! reader, and turned back into FORMAT.md's JSON by the IR, it equals
//! what `sbe decode` (the run-time codec) gives for the same bytes, value
//! for value: decimals exactly, nulls as nulls.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sbe_columnar::dataset::{Compression, DatasetWriter, Format};
use sbe_columnar::{Exporter, Frame, Options};
use sbe_ir::ir::Schema;

fn load(cache: &mut HashMap<PathBuf, Schema>, path: PathBuf) -> &Schema {
    cache
        .entry(path.clone())
        .or_insert_with(|| sbe_ir::ir::load(&path).unwrap_or_else(|e| panic!("{e}")))
}

fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let f = std::fs::File::open(path).unwrap();
    let r = ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap();
    r.map(|b| b.unwrap()).collect()
}

#[test]
fn every_vector_reads_back_as_sbe_decode_shows_it() {
    let Some(shared) = test_support::shared_dir("every_vector_reads_back_as_sbe_decode_shows_it")
    else {
        return;
    };
    let corpus = shared.join("corpus");
    let tmp = std::env::temp_dir().join(format!("sbe-columnar-vectors-{}", std::process::id()));
    let mut schemas = HashMap::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, v) in test_support::vectors(&shared).into_iter().enumerate() {
        if v.cross_version {
            continue;
        }
        let schema = load(&mut schemas, corpus.join(&v.schema));
        let codec = sbe_otf::Codec::new(schema).unwrap();
        let (want, decoded) = codec.decode_value(&v.bin, None).unwrap();
        let mut ex = Exporter::new(schema, Options::default()).unwrap();
        let shown = v.bin_path.display();
        match ex.append(&v.bin, &Frame::at(0)) {
            Ok(len) if len == decoded.len => {}
            other => {
                failures.push(format!("{shown}: append gave {other:?}"));
                continue;
            }
        }
        let dir = tmp.join(n.to_string());
        let mut w = DatasetWriter::new(&dir, "vector", Format::Parquet(Compression::Zstd(1)));
        for (table, batch) in ex.finish().expect("batches") {
            w.write(&table, &batch).unwrap();
        }
        let parts = w.close().unwrap();
        let name = &decoded.message.name;
        let part = dir.join(name).join("part-00000-vector.parquet");
        assert!(parts.contains(&part), "{shown}: {parts:?}");
        let batches = read_parquet(&part);
        assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 1);
        let batch = &batches[0];
        let cols = common::Cols::of_batch(batch);
        let version = decoded.header.version;
        let body = common::block(&decoded.message.block, &cols, 0, version);
        // A null mantissa is a null decimal: its exponent is not kept.
        let (want_body, got_body) = (
            test_support::null_decimals(&want["body"]),
            test_support::null_decimals(&body),
        );
        if let Some(diff) = test_support::diff(&want_body, &got_body, "$.body") {
            failures.push(format!("{shown}: {diff}"));
        }
        for key in ["templateId", "schemaId", "version"] {
            // A meta column whose name a body field takes is `_`-prefixed.
            let mut col = key.to_string();
            while want["body"].get(&col).is_some() {
                col.insert(0, '_');
            }
            let got = common::scalar(cols.get(&col).as_ref(), 0);
            if want["header"][key] != got && want["header"].get(key).is_some() {
                failures.push(format!("{shown}: header {key} {got}"));
            }
        }
        count += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(count > 100, "only {count} vectors");
    assert!(
        failures.is_empty(),
        "{} of {count} vectors differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
