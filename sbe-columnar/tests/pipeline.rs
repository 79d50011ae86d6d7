//! The pipeline through its public API: messages pushed on one thread or
//! several write the same files, a bad message goes to `_errors` with the
//! codec's verdict, a message offered waits until it is given up, the
//! template filter, several schemas, a source's error, existing folders.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sbe_columnar::dataset::{DatasetError, Existing, Format};
use sbe_columnar::pipeline::{
    Input, InputSummary, Messages, Pipeline, PipelineError, PushError, RunError, Source,
};
use sbe_columnar::Frame;
use sbe_ir::ir::Schema;
use sbe_otf::multi::{Entry, MultiError, Schemas};

fn xml(package: &str, id: u16) -> String {
    format!(
        r#"<messageSchema package="{package}" id="{id}" byteOrder="littleEndian">
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
    <composite name="varStringEncoding">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="PRICE9">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    </composite>
    <enum name="Side" encodingType="uint8">
      <validValue name="Buy">1</validValue>
      <validValue name="Sell">2</validValue>
    </enum>
  </types>
  <message name="Trade" id="1">
    <field name="seq" id="1" type="uint32"/>
    <field name="px" id="2" type="PRICE9"/>
    <field name="side" id="3" type="Side"/>
    <group name="legs" id="4" dimensionType="groupSizeEncoding">
      <field name="qty" id="5" type="uint32"/>
    </group>
    <data name="note" id="6" type="varStringEncoding"/>
  </message>
  <message name="Heartbeat" id="2">
    <field name="at" id="1" type="uint64"/>
  </message>
</messageSchema>"#
    )
}

fn load(package: &str, id: u16) -> Schema {
    sbe_ir::ir::load_str(format!("{package}.xml"), &xml(package, id)).unwrap()
}

fn schemas(loaded: &[Schema]) -> Schemas<'_> {
    let entries = loaded
        .iter()
        .map(|s| Entry {
            codec: sbe_otf::Codec::new(s).unwrap(),
            label: format!("{}.xml", s.package),
        })
        .collect();
    Schemas::new(entries).unwrap()
}

/// A trade of schema `schema_id`: `seq`, a price, a side, a leg per
/// quantity and a note.
fn trade(schema_id: u16, seq: u32, legs: &[u32], note: &str) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [13u16, 1, schema_id, 0] {
        m.extend(v.to_le_bytes());
    }
    m.extend(seq.to_le_bytes());
    m.extend((4_500_000_000_000i64 + i64::from(seq)).to_le_bytes());
    m.push(1 + (seq % 2) as u8);
    m.extend(4u16.to_le_bytes());
    m.extend((legs.len() as u16).to_le_bytes());
    for q in legs {
        m.extend(q.to_le_bytes());
    }
    m.extend((note.len() as u16).to_le_bytes());
    m.extend(note.as_bytes());
    m
}

fn heartbeat(schema_id: u16, at: u64) -> Vec<u8> {
    let mut m = Vec::new();
    for v in [8u16, 2, schema_id, 0] {
        m.extend(v.to_le_bytes());
    }
    m.extend(at.to_le_bytes());
    m
}

/// `n` messages of schema 1 with their offsets, back to back: trades and
/// heartbeats, and a bad one (a foreign schema id) every 5,000th.
fn feed(first: u32, n: u32) -> Vec<(Vec<u8>, Frame)> {
    let mut at = 0u64;
    (first..first + n)
        .map(|i| {
            let m = match i % 5000 {
                4999 => {
                    let mut bad = trade(1, i, &[1], "bad");
                    bad[4] = 9;
                    bad
                }
                _ if i % 7 == 0 => heartbeat(1, u64::from(i)),
                _ => trade(
                    1,
                    i,
                    &[i % 3, i % 5][..(i % 3) as usize],
                    ["", "a", "note"][(i % 3) as usize],
                ),
            };
            let frame = Frame::at(at);
            at += m.len() as u64;
            (m, frame)
        })
        .collect()
}

/// A path under the temp folder, not there (the pipeline makes it).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sbe-pipeline-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every file under `dir`, by relative path, with its bytes.
fn tree_bytes(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                files.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> Vec<RecordBatch> {
    let f = std::fs::File::open(path).unwrap();
    let r = ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap();
    r.map(Result::unwrap).collect()
}

fn rows(batches: &[RecordBatch]) -> usize {
    batches.iter().map(RecordBatch::num_rows).sum()
}

fn u64s(batches: &[RecordBatch], col: &str) -> Vec<u64> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name(col).unwrap();
            let c = arrow_array::cast::downcast_array::<arrow_array::UInt64Array>(c.as_ref());
            c.values().to_vec()
        })
        .collect()
}

/// An input's number, messages, refused, skipped, and parts under `out`.
type Counts = (u64, u64, u64, u64, Vec<PathBuf>);

fn counts(s: &InputSummary, out: &Path) -> Counts {
    let parts = (s.parts.iter())
        .map(|p| p.strip_prefix(out).unwrap().to_path_buf())
        .collect();
    (s.number, s.messages, s.refused, s.skipped, parts)
}

#[test]
fn one_thread_or_several_write_the_same_files() {
    let dir = scratch("threads");
    let loaded = [load("trades", 1)];
    let schemas = schemas(&loaded);
    // Past several batches (8 Ki rows) of Trade in `a`: with a writer
    // thread, full tables go to it to be made and come back emptied.
    let (a, b) = (feed(0, 30_000), feed(100_000, 6_000));
    let run = |threads: usize, inputs: usize| {
        let out = dir.join(format!("out-{threads}-{inputs}"));
        let dataset = Pipeline::new(&schemas, &out)
            .threads(threads)
            .start()
            .unwrap();
        let mut sources = vec![Messages::new("a.bin", a.clone())];
        if inputs > 1 {
            sources.push(Messages::new("b.bin", b.clone()));
        }
        let summary = dataset.run(&mut sources).unwrap();
        let counts: Vec<Counts> = (summary.inputs.iter()).map(|i| counts(i, &out)).collect();
        (counts, tree_bytes(&out))
    };
    let one = run(1, 1);
    assert_eq!(one.0.len(), 1);
    assert_eq!(one.0[0].1 + one.0[0].2, 30_000);
    assert_eq!(one.0[0].2, 6);
    assert!(one.1.iter().any(|(p, _)| p.starts_with("_errors")));
    assert!(one
        .1
        .iter()
        .all(|(p, _)| !p.to_string_lossy().contains(".tmp")));
    // The encoding on a thread of its own.
    assert_eq!(run(2, 1), one);
    // Pushed one by one, on one thread and with a writer thread.
    for threads in [1, 2] {
        let out = dir.join(format!("pushed-{threads}"));
        let dataset = Pipeline::new(&schemas, &out)
            .threads(threads)
            .start()
            .unwrap();
        let mut input = dataset.input("a.bin", "a.bin").unwrap();
        for (m, frame) in &a {
            let _ = input.push(m, frame);
        }
        let summary = input.finish().unwrap();
        assert_eq!(counts(&summary, &out), one.0[0]);
        assert_eq!(tree_bytes(&out), one.1, "pushed, {threads} threads");
    }
    // Two inputs: one thread; one each; one each and a writer each.
    let both = run(1, 2);
    assert_eq!(both.0.iter().map(|c| c.1 + c.2).sum::<u64>(), 36_000);
    assert_eq!(run(2, 2), both);
    assert_eq!(run(4, 2), both);
    let parts = |files: &[(PathBuf, Vec<u8>)]| {
        (files.iter())
            .filter(|(p, _)| p.extension().is_some_and(|x| x == "parquet"))
            .count()
    };
    assert_eq!(
        parts(&both.1),
        parts(&one.1) + 3,
        "b.bin's Trade, Heartbeat, _errors"
    );
    // msgIndex: each input's own range, in the order of the messages.
    let trades = read(&dir.join("out-1-2/Trade/part-00000-a_bin.parquet"));
    let index = u64s(&trades, "msgIndex");
    assert!(index.windows(2).all(|w| w[0] < w[1]));
    let theirs = read(&dir.join("out-1-2/Trade/part-00000-b_bin.parquet"));
    assert!(u64s(&theirs, "msgIndex").iter().all(|&i| i >> 40 == 1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_message_goes_to_errors_with_the_codec_s_verdict() {
    let dir = scratch("errors");
    let loaded = [load("trades", 1)];
    let schemas = schemas(&loaded);
    let dataset = Pipeline::new(&schemas, &dir)
        .threads(1)
        .existing(Existing::Overwrite)
        .start()
        .unwrap();
    let mut input = dataset.input("feed", "feed").unwrap();
    let good = trade(1, 1, &[5], "x");
    let mut foreign = trade(1, 2, &[], "");
    foreign[4] = 9;
    let unknown = {
        let mut m = heartbeat(1, 3);
        m[2] = 77;
        m
    };
    let cut = &good[..good.len() - 1];
    assert_eq!(input.push(&good, &Frame::at(0)).unwrap(), good.len());
    let mut said = Vec::new();
    for (m, at) in [(&foreign[..], 100), (&unknown[..], 200), (cut, 300)] {
        match input.push(m, &Frame::at(at)) {
            Err(PushError::Message(e)) => said.push(e),
            other => panic!("{other:?}"),
        }
    }
    assert!(said[2].is_truncated());
    let summary = input.finish().unwrap();
    assert_eq!((summary.messages, summary.refused), (1, 3));
    let errors = read(&dir.join("_errors/part-00000-feed.parquet"));
    assert_eq!(rows(&errors), 3);
    let e = &errors[0];
    let kinds: Vec<&str> = (0..3)
        .map(|i| {
            e.column_by_name("kind")
                .unwrap()
                .as_string::<i32>()
                .value(i)
        })
        .collect();
    assert_eq!(kinds, ["WrongSchemaId", "UnknownTemplateId", "Truncated"]);
    let texts: Vec<&str> = (0..3)
        .map(|i| {
            e.column_by_name("error")
                .unwrap()
                .as_string::<i32>()
                .value(i)
        })
        .collect();
    let expected: Vec<String> = said.iter().map(MultiError::to_string).collect();
    assert_eq!(texts, expected);
    assert!(texts[0].starts_with("at byte 104: "), "{}", texts[0]);
    let bytes = e.column_by_name("bytes").unwrap().as_binary::<i32>();
    assert_eq!(bytes.value(0), &foreign[..]);
    assert_eq!(bytes.value(2), cut);
    assert_eq!(u64s(&errors, "offset"), [100, 200, 300]);
    let trades = read(&dir.join("Trade/part-00000-feed.parquet"));
    assert_eq!(
        trades[0]
            .column_by_name("seq")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt32Type>()
            .values()
            .to_vec(),
        [1]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_message_offered_waits_until_it_is_given_up() {
    let dir = scratch("offer");
    let loaded = [load("trades", 1)];
    let schemas = schemas(&loaded);
    let dataset = Pipeline::new(&schemas, &dir).threads(1).start().unwrap();
    let mut input = dataset.input("tcp", "tcp").unwrap();
    let whole = trade(1, 1, &[1, 2], "abc");
    // Cut at the end of a segment, then whole with the next: one row.
    let r = input.offer(&whole[..20], &Frame::at(0));
    assert!(matches!(r, Err(PushError::Message(e)) if e.is_truncated()));
    assert_eq!(input.offer(&whole, &Frame::at(0)).unwrap(), whole.len());
    // Refused and given up: in `_errors`.
    let mut bad = heartbeat(1, 9);
    bad[4] = 3;
    assert!(input.offer(&bad, &Frame::at(40)).is_err());
    input.give_up();
    input.give_up();
    // Refused and never taken back: recorded when the input finishes.
    assert!(input.offer(&whole[..5], &Frame::at(60)).is_err());
    let summary = input.finish().unwrap();
    assert_eq!((summary.messages, summary.refused), (1, 2));
    let errors = read(&dir.join("_errors/part-00000-tcp.parquet"));
    assert_eq!(u64s(&errors, "offset"), [40, 60]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn templates_not_asked_for_are_stepped_over() {
    let dir = scratch("templates");
    let loaded = [load("trades", 1)];
    let schemas = schemas(&loaded);
    let dataset = Pipeline::new(&schemas, &dir)
        .threads(1)
        .templates(&[2])
        .start()
        .unwrap();
    let mut sources = [Messages::new("f", feed(0, 700))];
    let summary = dataset.run(&mut sources).unwrap();
    let input = &summary.inputs[0];
    assert_eq!(
        (input.messages, input.skipped, input.refused),
        (100, 600, 0)
    );
    assert_eq!(input.parts, [dir.join("Heartbeat/part-00000-f.parquet")]);
    assert!(!dir.join("Trade").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn several_schemas_write_a_dataset_each() {
    let dir = scratch("schemas");
    let loaded = [load("trades", 1), load("other.venue", 2)];
    let schemas = schemas(&loaded);
    let dataset = Pipeline::new(&schemas, &dir)
        .threads(2)
        .format(Format::Arrow)
        .start()
        .unwrap();
    let mut input = dataset.input("mixed", "mixed").unwrap();
    input.push(&trade(1, 1, &[], ""), &Frame::at(0)).unwrap();
    input.push(&trade(2, 2, &[], ""), &Frame::at(0)).unwrap();
    input.push(&heartbeat(2, 3), &Frame::at(0)).unwrap();
    let r = input.push(&heartbeat(5, 4), &Frame::at(0));
    assert!(
        matches!(
            &r,
            Err(PushError::Message(MultiError::UnknownSchema { id: 5, .. }))
        ),
        "{r:?}"
    );
    let summary = input.finish().unwrap();
    let names: Vec<String> = (summary.parts.iter())
        .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "schema=trades/Trade/part-00000-mixed.arrow",
            "schema=trades/_errors/part-00000-mixed.arrow",
            "schema=other_venue/Heartbeat/part-00000-mixed.arrow",
            "schema=other_venue/Trade/part-00000-mixed.arrow",
        ]
    );
    let f = std::fs::File::open(&summary.parts[1]).unwrap();
    let errors: Vec<RecordBatch> = arrow_ipc::reader::FileReader::try_new(f, None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let kind = errors[0].column_by_name("kind").unwrap().as_string::<i32>();
    assert_eq!(kind.value(0), "UnknownSchema");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A source of `count` heartbeats, then an error of its own or not.
struct Scripted {
    name: String,
    count: u64,
    fail: bool,
    read: bool,
}

impl Source for Scripted {
    type Error = String;

    fn name(&self) -> &str {
        &self.name
    }

    fn read(&mut self, input: &mut Input<'_>) -> Result<(), String> {
        self.read = true;
        for i in 0..self.count {
            input
                .push(&heartbeat(1, i), &Frame::at(16 * i))
                .map_err(|e| e.to_string())?;
        }
        if self.fail {
            return Err(format!("{}: unreadable", self.name));
        }
        Ok(())
    }
}

#[test]
fn a_source_s_error_stops_the_run() {
    let dir = scratch("source-error");
    let loaded = [load("trades", 1)];
    let schemas = schemas(&loaded);
    let dataset = Pipeline::new(&schemas, &dir).threads(1).start().unwrap();
    // b fails after a batch (8 Ki rows) went to its part.
    let mut sources: Vec<Scripted> = [("a", 3, false), ("b", 9000, true), ("c", 3, false)]
        .iter()
        .map(|&(name, count, fail)| Scripted {
            name: name.to_string(),
            count,
            fail,
            read: false,
        })
        .collect();
    match dataset.run(&mut sources) {
        Err(RunError::Source(e)) => assert_eq!(e, "b: unreadable"),
        other => panic!("{other:?}"),
    }
    let read: Vec<bool> = sources.iter().map(|s| s.read).collect();
    assert_eq!(read, [true, true, false], "c not started after b failed");
    // a's part is closed; b's left under its temporary name.
    let mut names: Vec<String> = std::fs::read_dir(dir.join("Heartbeat"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".part-00000-b.parquet.tmp", "part-00000-a.parquet"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_existing_folder_is_refused_kept_or_replaced_as_asked() {
    let dir = scratch("existing");
    let out = dir.join("out");
    let loaded = [load("trades", 1)];
    let schemas = schemas(&loaded);
    let write = |existing: Existing| {
        let dataset = Pipeline::new(&schemas, &out)
            .threads(1)
            .existing(existing)
            .start()?;
        let mut sources = [Messages::new("f", vec![(heartbeat(1, 1), Frame::at(0))])];
        match dataset.run(&mut sources) {
            Ok(s) => Ok(s),
            Err(RunError::Pipeline(e)) => Err(e),
            Err(RunError::Source(e)) => Err(e),
        }
    };
    let first = write(Existing::Refuse).unwrap();
    assert_eq!(first.inputs[0].number, 0);
    match write(Existing::Refuse) {
        Err(PipelineError::Prepare(DatasetError::Exists(p))) => assert_eq!(p, out),
        other => panic!("{other:?}"),
    }
    // Appended: the next number, so msgIndex stays unique, and a part of
    // its own beside the first.
    let again = write(Existing::Append).unwrap();
    assert_eq!(again.inputs[0].number, 1);
    assert_eq!(
        again.inputs[0].parts,
        [out.join("Heartbeat/part-00001-f.parquet")]
    );
    let replaced = write(Existing::Overwrite).unwrap();
    assert_eq!(replaced.inputs[0].number, 0);
    assert_eq!(std::fs::read_dir(out.join("Heartbeat")).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn collect_each_hands_batches_on_as_they_fill_and_can_stop() {
    let loaded = [load("a", 1)];
    let schemas = schemas(&loaded);
    let messages = feed(0, 30_000);
    // Kept: the batches as `collect` gives them.
    let mut input = Pipeline::new(&schemas, "").collect().unwrap();
    for (m, f) in &messages {
        let _ = input.push(m, f);
    }
    let kept = input.finish_collected().unwrap().batches;
    // Handed on: the first batch comes before the input is all pushed.
    let (tx, rx) = std::sync::mpsc::channel();
    let mut input = Pipeline::new(&schemas, "")
        .collect_each(move |b| tx.send(b).is_ok())
        .unwrap();
    let mut first_at = None;
    for (i, (m, f)) in messages.iter().enumerate() {
        let _ = input.push(m, f);
        if first_at.is_none() {
            if let Ok(b) = rx.try_recv() {
                first_at = Some((i, b));
            }
        }
    }
    assert!(input.finish_collected().unwrap().batches.is_empty());
    let (at, first) = first_at.expect("a batch before the end");
    assert!(at < messages.len() / 2, "first batch after {at} messages");
    let handed: Vec<_> = std::iter::once(first).chain(rx.try_iter()).collect();
    assert_eq!(handed.len(), kept.len());
    for (h, k) in handed.iter().zip(&kept) {
        assert_eq!((&h.table, h.schema), (&k.table, k.schema));
        assert_eq!(h.batch, k.batch);
    }
    // `false` stops the input: the next batch completed fails it.
    let mut input = Pipeline::new(&schemas, "").collect_each(|_| false).unwrap();
    let stopped = messages.iter().find_map(|(m, f)| match input.push(m, f) {
        Err(PushError::Output(e)) => Some(e),
        _ => None,
    });
    assert!(
        matches!(stopped, Some(PipelineError::WriterStopped)),
        "{stopped:?}"
    );
    assert!(input.failed().is_some());
}
