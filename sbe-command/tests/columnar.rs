//! `sbe decode --format parquet|arrow --out DIR` through the real binary:
//! a capture of two schemas, --flatten, several inputs with --jobs, bad
//! messages in `_errors`, existing folders, a killed writer, and DuckDB
//! (via Python) as an independent reader.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::RecordBatch;
use etherparse::PacketBuilder;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn schema(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn car_schema() -> String {
    schema("../schemas/car.xml")
}

fn md_schema() -> String {
    schema("benches/market-data.xml")
}

fn encode_each(schema: &str, jsons: &[String]) -> Vec<Vec<u8>> {
    let input = jsons.join("\n");
    let (code, bin, err) = common::sbe(&["encode", "--schema", schema, "-"], input.as_bytes());
    assert_eq!(code, 0, "{err}");
    let n = jsons.len();
    bin.chunks(bin.len() / n).map(<[u8]>::to_vec).collect()
}

/// Cars with serial numbers from `first`, each with two performance
/// figures of two accelerations.
fn cars(first: u64, n: usize) -> Vec<Vec<u8>> {
    let jsons: Vec<String> = (0..n as u64)
        .map(|i| {
            format!(
                r#"{{"message":"Car","body":{{"serialNumber":{},"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack"],"engine":{{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{{"BoostType":"NITROUS","horsePower":200}}}},"fuelFigures":[{{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}}],"performanceFigures":[{{"octaneRating":95,"acceleration":[{{"mph":30,"seconds":4.0}},{{"mph":60,"seconds":7.5}}]}},{{"octaneRating":99,"acceleration":[{{"mph":30,"seconds":3.8}},{{"mph":60,"seconds":7.1}}]}}],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}}}"#,
                first + i
            )
        })
        .collect();
    encode_each(&car_schema(), &jsons)
}

const ACTIONS: [&str; 3] = ["New", "Change", "Delete"];

/// Book updates: message `i` has price (4500 + i) and action i % 3.
fn books(n: usize) -> Vec<Vec<u8>> {
    let jsons: Vec<String> = (0..n as u64)
        .map(|i| {
            format!(
                r#"{{"message":"BookUpdate","body":{{"transactTime":{},"flags":["EndOfEvent"],"entries":[{{"price":{{"mantissa":{}}},"size":5,"securityId":1001,"rptSeq":{i},"level":1,"action":"{}","entryType":"Bid"}}]}}}}"#,
                1_700_000_000_000_000_000u64 + i,
                (4500 + i) * 1_000_000_000,
                ACTIONS[i as usize % 3]
            )
        })
        .collect();
    encode_each(&md_schema(), &jsons)
}

fn udp(payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::new();
    PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
        .ipv4([10, 0, 0, 1], [224, 0, 31, 1], 64)
        .udp(9000, 14310)
        .write(&mut f, payload)
        .expect("udp frame");
    f
}

/// A little-endian nanosecond pcap of Ethernet frames, packet `i` at
/// 1709649001 + i seconds and 5 ns.
fn pcap(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut f = Vec::new();
    for v in [0xa1b2_3c4du32, 0x0004_0002, 0, 0, 65535, 1] {
        f.extend(v.to_le_bytes());
    }
    for (i, fr) in frames.iter().enumerate() {
        for v in [
            1_709_649_001 + i as u32,
            5,
            fr.len() as u32,
            fr.len() as u32,
        ] {
            f.extend(v.to_le_bytes());
        }
        f.extend(fr);
    }
    f
}

fn read(path: &Path) -> Vec<RecordBatch> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| b.unwrap())
        .collect()
}

/// The batches of every finished part of the dataset at `dir`.
fn dataset(dir: &Path) -> Vec<RecordBatch> {
    parts(dir).iter().flat_map(|p| read(p)).collect()
}

fn parts(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    v.sort();
    v
}

fn u64s(batches: &[RecordBatch], col: &str) -> Vec<u64> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name(col).unwrap_or_else(|| panic!("no {col}"));
            c.as_primitive::<UInt64Type>().values().to_vec()
        })
        .collect()
}

fn package(path: &str) -> String {
    sbe_ir::ir::load(path).unwrap().package.replace('.', "_")
}

/// Runs `sbe decode --schema <md> --format parquet` with `extra` over
/// `input`; the BookUpdate rows.
fn export_books(dir: &Path, input: &Path, extra: &[&str]) -> Vec<RecordBatch> {
    let out = dir.join("out");
    let md = md_schema();
    let mut args = vec!["decode", "--schema", &md, "--format", "parquet"];
    args.extend(extra);
    args.extend(["--overwrite", "--out", out.to_str().unwrap()]);
    args.push(input.to_str().unwrap());
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    dataset(&out.join("BookUpdate"))
}

#[test]
fn a_sofh_stream_and_a_pcapng_capture_export_their_messages() {
    let dir = common::scratch("columnar-inputs");
    let b = books(3);
    let times = |batches: &[RecordBatch]| u64s(batches, "transactTime");
    let sent: Vec<u64> = (0..3).map(|i| 1_700_000_000_000_000_000 + i).collect();

    // A SOFH stream: each message's offset is after its 6-byte header.
    let stream = dir.join("books.sofh");
    std::fs::write(
        &stream,
        b.iter()
            .map(|m| common::sofh(m))
            .collect::<Vec<_>>()
            .concat(),
    )
    .unwrap();
    let rows = export_books(&dir, &stream, &["--framing", "sofh"]);
    assert_eq!(times(&rows), sent);
    let frame = 6 + b[0].len() as u64;
    assert_eq!(u64s(&rows, "offset"), [6, frame + 6, 2 * frame + 6]);

    // A pcapng capture of one datagram of the three: its packet and time.
    let capture = dir.join("books.pcapng");
    let packet = common::rec(0, udp(&b.concat()));
    std::fs::write(&capture, common::pcapng(1, &[packet])).unwrap();
    let rows = export_books(&dir, &capture, &[]);
    assert_eq!(times(&rows), sent);
    assert_eq!(u64s(&rows, "packet"), [1, 1, 1]);
    let time = rows[0].column_by_name("time").unwrap();
    let time = time.as_primitive::<arrow_array::types::TimestampNanosecondType>();
    assert_eq!(time.value(2), 1_709_649_001_123_456_789);
}

#[test]
fn mdp3_packet_header_fields_are_each_message_s_frame_columns() {
    let dir = common::scratch("columnar-mdp3");
    let b = books(5);
    let frames = [
        udp(&common::mdp3(41, 1_000, &b[0..2])),
        udp(&common::mdp3(42, 2_000, &b[2..3])),
        udp(&common::mdp3(43, 3_000, &b[3..5])),
    ];
    let input = dir.join("md.pcap");
    std::fs::write(&input, pcap(&frames)).unwrap();
    let out = dir.join("out");
    let md = md_schema();
    let (code, _, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &md,
            "--framing",
            "mdp3",
            "--format",
            "parquet",
            "--out",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let books = dataset(&out.join("BookUpdate"));
    assert_eq!(books.len(), 1);
    assert_eq!(u64s(&books, "packet"), [1, 1, 2, 3, 3]);
    assert_eq!(u64s(&books, "msgSeqNum"), [41, 41, 42, 43, 43]);
    let sending: Vec<i64> = books
        .iter()
        .flat_map(|batch| {
            let c = batch.column_by_name("sendingTime").unwrap();
            let c = c.as_primitive::<arrow_array::types::TimestampNanosecondType>();
            c.values().to_vec()
        })
        .collect();
    assert_eq!(sending, [1_000, 1_000, 2_000, 3_000, 3_000]);
    // The packet header is 12 bytes, and each message has its size first.
    let second = 12 + 2 + b[0].len() as u64 + 2;
    assert_eq!(u64s(&books, "offset"), [14, second, 14, 14, second]);
    assert_eq!(u64s(&books, "msgIndex"), [0, 1, 2, 3, 4]);
}

#[test]
fn timestamp_unit_us_rounds_down_and_keeps_the_nanoseconds_in_raw() {
    use arrow_array::types::{Int64Type, TimestampMicrosecondType, TimestampNanosecondType};
    let dir = common::scratch("columnar-us");
    let b = books(3);
    // Two packets: sending times of 1.5 and 2 microseconds, captured at
    // 1_709_649_001 s and 5 ns, and a second later.
    let frames = [
        udp(&common::mdp3(41, 1_500, &b[..2])),
        udp(&common::mdp3(42, 2_000, &b[2..])),
    ];
    let input = dir.join("md.pcap");
    std::fs::write(&input, pcap(&frames)).unwrap();
    let col = |books: &[RecordBatch], name: &str| {
        assert_eq!(books.len(), 1);
        books[0].column_by_name(name).unwrap().clone()
    };
    let ns = export_books(&dir, &input, &["--framing", "mdp3"]);
    let time = col(&ns, "time");
    let time = time
        .as_primitive::<TimestampNanosecondType>()
        .values()
        .to_vec();
    assert_eq!(time[0], 1_709_649_001_000_000_005);
    assert!(
        ns[0].column_by_name("time_raw").is_none(),
        "nanoseconds lose nothing"
    );
    let us = export_books(
        &dir,
        &input,
        &["--framing", "mdp3", "--timestamp-unit", "us"],
    );
    let t = col(&us, "time");
    let t = t.as_primitive::<TimestampMicrosecondType>();
    assert_eq!(t.timezone(), Some("UTC"));
    let floor: Vec<i64> = time.iter().map(|n| n / 1000).collect();
    assert_eq!(t.values().to_vec(), floor);
    let raw = col(&us, "time_raw");
    let raw: Vec<Option<i64>> = raw.as_primitive::<Int64Type>().iter().collect();
    assert_eq!(raw, time.iter().map(|&n| Some(n)).collect::<Vec<_>>());
    let s = col(&us, "sendingTime");
    let s = s
        .as_primitive::<TimestampMicrosecondType>()
        .values()
        .to_vec();
    assert_eq!(s, [1, 1, 2]);
    // Only where digits were lost.
    let s = col(&us, "sendingTime_raw");
    let s: Vec<Option<i64>> = s.as_primitive::<Int64Type>().iter().collect();
    assert_eq!(s, [Some(1_500), Some(1_500), None]);
    // A unit not offered is refused, saying which are.
    let md = md_schema();
    let (code, _, err) = common::sbe(
        &[
            "decode",
            "--schema",
            &md,
            "--format",
            "parquet",
            "--timestamp-unit",
            "s",
            "-",
        ],
        b"",
    );
    assert_ne!(code, 0);
    assert!(err.contains("give ns, us or ms"), "{err}");
}

/// Writes the capture of the two-schema test: cars 700, 701 and three
/// book updates over two packets.
fn two_schema_capture(dir: &Path) -> PathBuf {
    let c = cars(700, 2);
    let b = books(3);
    let frames = [
        udp(&[c[0].clone(), b[0].clone()].concat()),
        udp(&[b[1].clone(), c[1].clone(), b[2].clone()].concat()),
    ];
    let path = dir.join("two.pcap");
    std::fs::write(&path, pcap(&frames)).unwrap();
    path
}

#[test]
fn a_capture_of_two_schemas_is_a_dataset_per_message_under_its_schema() {
    let dir = common::scratch("columnar-two");
    let input = two_schema_capture(&dir);
    let input = input.to_str().unwrap();
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let (car, md) = (car_schema(), md_schema());
    let args = [
        "decode", "--schema", &car, "--schema", &md, "--format", "parquet", "--out", out_s, input,
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let cars_dir = out.join(format!("schema={}", package(&car))).join("Car");
    let books_dir = out
        .join(format!("schema={}", package(&md)))
        .join("BookUpdate");
    assert_eq!(
        parts(&cars_dir),
        [cars_dir.join("part-00000-two_pcap.parquet")]
    );
    let cars = dataset(&cars_dir);
    let books = dataset(&books_dir);
    assert_eq!(cars.iter().map(RecordBatch::num_rows).sum::<usize>(), 2);
    assert_eq!(books.iter().map(RecordBatch::num_rows).sum::<usize>(), 3);
    assert_eq!(u64s(&cars, "packet"), [1, 2]);
    assert_eq!(u64s(&books, "packet"), [1, 2, 2]);
    // Each message's own offset in its packet, though the packet's frame
    // is shared by its messages and by the two schemas' tables.
    let (c, b) = (self::cars(700, 2), self::books(3));
    let len = |m: &Vec<u8>| m.len() as u64;
    assert_eq!(u64s(&cars, "offset"), [0, len(&b[1])]);
    assert_eq!(
        u64s(&books, "offset"),
        [len(&c[0]), 0, len(&b[1]) + len(&c[1])]
    );
    let serials: Vec<u64> = u64s(&cars, "serialNumber");
    assert_eq!(serials, [700, 701]);
    let ids: Vec<u32> = cars[0]
        .column_by_name("schemaId")
        .unwrap()
        .as_primitive::<UInt32Type>()
        .values()
        .to_vec();
    assert_eq!(ids, [1, 1]);
    let time = cars[0].column_by_name("time").unwrap();
    let t = time
        .as_primitive::<arrow_array::types::TimestampNanosecondType>()
        .values()
        .to_vec();
    assert_eq!(t, [1_709_649_001_000_000_005, 1_709_649_002_000_000_005]);
    // msgIndex: unique in the dataset.
    let mut idx = u64s(&books, "msgIndex");
    idx.dedup();
    assert_eq!(idx.len(), 3);
    // Metadata: the schema and the field's SBE type.
    let f = std::fs::File::open(&parts(&cars_dir)[0]).unwrap();
    let schema = ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .schema()
        .clone();
    assert_eq!(schema.metadata()["sbe.schemaId"], "1");
    let serial = schema.field_with_name("serialNumber").unwrap();
    assert_eq!(serial.metadata()["sbe.type"], "uint64");

    // An existing folder is refused; --append adds a part; --overwrite
    // starts again.
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 1);
    assert!(
        err.contains("exists (give --append or --overwrite)"),
        "{err}"
    );
    let mut more = args.to_vec();
    more.insert(1, "--append");
    let (code, _, err) = common::sbe(&more, b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(parts(&cars_dir).len(), 2);
    // The appended run's msgIndex values are not the first run's.
    let mut idx = u64s(&dataset(&cars_dir), "msgIndex");
    idx.sort_unstable();
    idx.dedup();
    assert_eq!(idx.len(), 4, "msgIndex unique across --append runs");
    more[1] = "--overwrite";
    let (code, _, err) = common::sbe(&more, b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(parts(&cars_dir).len(), 1);
}

#[test]
fn flatten_writes_each_group_as_a_child_dataset_keyed_by_its_path() {
    let dir = common::scratch("columnar-flatten");
    let bin = dir.join("cars.bin");
    std::fs::write(&bin, cars(1, 3).concat()).unwrap();
    let out = dir.join("out");
    let car = car_schema();
    let args = [
        "decode",
        "--schema",
        &car,
        "--format",
        "parquet",
        "--flatten",
        "--compression",
        "snappy",
        "--out",
        out.to_str().unwrap(),
        bin.to_str().unwrap(),
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let cars = dataset(&out.join("Car"));
    assert!(cars[0].column_by_name("performanceFigures").is_none());
    let perf = dataset(&out.join("Car.performanceFigures"));
    let acc = dataset(&out.join("Car.performanceFigures.acceleration"));
    let msg = u64s(&cars, "msgIndex");
    assert_eq!(
        u64s(&perf, "msgIndex"),
        [msg[0], msg[0], msg[1], msg[1], msg[2], msg[2]]
    );
    assert_eq!(u64s(&perf, "performanceFiguresIndex"), [0, 1, 0, 1, 0, 1]);
    assert_eq!(acc.iter().map(RecordBatch::num_rows).sum::<usize>(), 12);
    assert_eq!(u64s(&acc, "performanceFiguresIndex")[..4], [0, 0, 1, 1]);
    assert_eq!(u64s(&acc, "accelerationIndex")[..4], [0, 1, 0, 1]);
    let mph: Vec<u16> = acc[0]
        .column_by_name("mph")
        .unwrap()
        .as_primitive::<arrow_array::types::UInt16Type>()
        .values()
        .to_vec();
    assert_eq!(mph[..4], [30, 60, 30, 60]);
}

#[test]
fn several_inputs_at_once_write_a_part_each() {
    let dir = common::scratch("columnar-jobs");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    std::fs::write(&a, cars(1, 2).concat()).unwrap();
    std::fs::write(&b, cars(10, 3).concat()).unwrap();
    let out = dir.join("out");
    let car = car_schema();
    let args = [
        "decode",
        "--schema",
        &car,
        "--format",
        "parquet",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let d = out.join("Car");
    assert_eq!(
        parts(&d),
        [
            d.join("part-00000-a_bin.parquet"),
            d.join("part-00000-b_bin.parquet")
        ]
    );
    let batches = dataset(&d);
    let mut serials = u64s(&batches, "serialNumber");
    serials.sort_unstable();
    assert_eq!(serials, [1, 2, 10, 11, 12]);
    let mut idx = u64s(&batches, "msgIndex");
    idx.sort_unstable();
    idx.dedup();
    assert_eq!(idx.len(), 5, "msgIndex unique over the inputs");
}

#[test]
fn parts_are_zstd_level_1_by_default_where_it_pays() {
    let dir = common::scratch("columnar-zstd");
    let bin = dir.join("cars.bin");
    std::fs::write(&bin, cars(1, 200).concat()).unwrap();
    let codecs = |extra: &[&str]| {
        let out = dir.join(format!("out{}", extra.len()));
        let car = car_schema();
        let mut args = vec!["decode", "--schema", &car, "--format", "parquet"];
        args.extend(extra);
        args.extend(["--overwrite", "--out", out.to_str().unwrap()]);
        args.push(bin.to_str().unwrap());
        let (code, _, err) = common::sbe(&args, b"");
        assert_eq!(code, 0, "{err}");
        let part = std::fs::File::open(&parts(&out.join("Car"))[0]).unwrap();
        let r = parquet::file::reader::SerializedFileReader::new(part).unwrap();
        use parquet::file::reader::FileReader;
        let mut names: Vec<String> = (r.metadata().row_group(0).columns().iter())
            .map(|c| c.compression().to_string())
            .collect();
        names.sort();
        names.dedup();
        names
    };
    // Chunks that a codec cannot shrink by a tenth are left as they are.
    assert_eq!(codecs(&[]), ["UNCOMPRESSED", "ZSTD(ZstdLevel(1))"]);
    assert_eq!(
        codecs(&["--compression", "snappy"]),
        ["SNAPPY", "UNCOMPRESSED"]
    );
    assert_eq!(codecs(&["--compression", "none"]), ["UNCOMPRESSED"]);
    // Parquet records the codec, not its level (the reader shows 1): a
    // higher level shows in the size.
    let size = |extra: &[&str]| {
        let out = dir.join(format!("out{}", extra.len()));
        std::fs::metadata(&parts(&out.join("Car"))[0])
            .unwrap()
            .len()
    };
    assert_eq!(codecs(&[]), ["UNCOMPRESSED", "ZSTD(ZstdLevel(1))"]);
    let level_1 = size(&[]);
    let high = ["--compression", "zstd:19"];
    assert_eq!(codecs(&high), ["UNCOMPRESSED", "ZSTD(ZstdLevel(1))"]);
    assert!(size(&high) < level_1, "{} against {level_1}", size(&high));
    // A level zstd has not, or a codec not offered: refused, saying why.
    let car = car_schema();
    let out = dir.join("refused");
    for (value, said) in [
        ("zstd:99", "zstd level `99`: give 1 to 22"),
        ("lz4", "give none, snappy, zstd or zstd:LEVEL"),
    ] {
        let args = [
            "decode",
            "--schema",
            &car,
            "--format",
            "parquet",
            "--compression",
            value,
            "--out",
            out.to_str().unwrap(),
            bin.to_str().unwrap(),
        ];
        let (code, _, err) = common::sbe(&args, b"");
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(said), "{err}");
        assert!(!out.exists(), "nothing written for a refused --compression");
    }
}

/// Every file under `dir` (the part files and `_errors`), by relative path.
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

#[test]
fn the_writer_on_its_own_thread_or_the_decoding_one_writes_the_same_files() {
    // --jobs 1: one thread; --jobs 2 with one input: the encoding on a
    // thread of its own; --jobs 2 with two inputs: each on its decoding
    // thread. A bad message among them goes to `_errors` each time.
    let dir = common::scratch("columnar-writer-thread");
    let c = cars(1, 3);
    let mut bad = c[1].clone();
    bad[4] = 9; // schemaId
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    std::fs::write(&a, [c[0].clone(), bad, c[2].clone()].concat()).unwrap();
    std::fs::write(&b, cars(10, 2).concat()).unwrap();
    let car = car_schema();
    let run = |jobs: &str, inputs: &[&Path]| {
        let out = dir.join(format!("out-{jobs}-{}", inputs.len()));
        let mut args = vec![
            "decode".to_string(),
            "--schema".into(),
            car.clone(),
            "--format".into(),
            "parquet".into(),
            "--jobs".into(),
            jobs.into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ];
        args.extend(inputs.iter().map(|p| p.to_str().unwrap().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = common::sbe(&args, b"");
        (code, err, tree_bytes(&out))
    };
    let one = run("1", &[&a]);
    let two = run("2", &[&a]);
    assert_eq!(one.0, 1, "a bad message: exit 1");
    assert!(one.1.contains("a.bin"), "{}", one.1);
    assert!(one.2.iter().any(|(p, _)| p.starts_with("_errors")));
    assert!(one
        .2
        .iter()
        .all(|(p, _)| !p.to_string_lossy().contains(".tmp")));
    assert_eq!(one, two);
    let both_one = run("1", &[&a, &b]);
    let both_two = run("2", &[&a, &b]);
    assert_eq!(both_one, both_two);
    let parts = |files: &[(PathBuf, Vec<u8>)]| {
        files
            .iter()
            .filter(|(p, _)| p.extension().is_some_and(|x| x == "parquet"))
            .count()
    };
    assert_eq!(
        parts(&both_one.2),
        parts(&one.2) + 1,
        "a part more for b.bin"
    );
}

#[test]
fn full_batches_made_on_the_writer_thread_or_the_decoding_one_write_the_same_files() {
    // Past five batches of one table: with the writer on a thread of its
    // own (--jobs 2, one input), full tables go to it to be made into
    // batches while it keeps up, and come back emptied to be filled
    // again; with --jobs 1 all is made on the one thread.
    let dir = common::scratch("columnar-full-batches");
    let three = books(3);
    let n = 42_000;
    let input = dir.join("books.bin");
    let messages: Vec<u8> = (0..n).flat_map(|i| three[i % 3].clone()).collect();
    std::fs::write(&input, messages).unwrap();
    let md = md_schema();
    let run = |jobs: &str| {
        let out = dir.join(format!("out-{jobs}"));
        let args = [
            "decode",
            "--schema",
            &md,
            "--format",
            "parquet",
            "--jobs",
            jobs,
            "--out",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ];
        let (code, _, err) = common::sbe(&args, b"");
        assert_eq!(code, 0, "{err}");
        out
    };
    let (one, two) = (run("1"), run("2"));
    let index = u64s(&dataset(&two.join("BookUpdate")), "msgIndex");
    assert_eq!(index, (0..n as u64).collect::<Vec<_>>());
    assert_eq!(tree_bytes(&one), tree_bytes(&two));
}

#[test]
fn a_bad_message_is_reported_as_today_and_kept_in_errors() {
    let dir = common::scratch("columnar-errors");
    let c = cars(1, 2);
    let mut bad = c[1].clone();
    bad[4] = 9; // schemaId
    let bin = dir.join("bad.bin");
    std::fs::write(&bin, [c[0].clone(), bad.clone()].concat()).unwrap();
    let car = car_schema();
    let bin_s = bin.to_str().unwrap();
    let (json_code, _, json_err) = common::sbe(&["decode", "--schema", &car, bin_s], b"");
    assert_eq!(json_code, 1);
    let out = dir.join("out");
    let args = [
        "decode",
        "--schema",
        &car,
        "--format",
        "parquet",
        "--out",
        out.to_str().unwrap(),
        bin_s,
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 1);
    assert_eq!(err, json_err);
    assert_eq!(u64s(&dataset(&out.join("Car")), "serialNumber"), [1]);
    let errors = dataset(&out.join("_errors"));
    assert_eq!(errors.iter().map(RecordBatch::num_rows).sum::<usize>(), 1);
    let e = &errors[0];
    assert_eq!(
        e.column_by_name("kind")
            .unwrap()
            .as_string::<i32>()
            .value(0),
        "WrongSchemaId"
    );
    let text = e
        .column_by_name("error")
        .unwrap()
        .as_string::<i32>()
        .value(0);
    assert!(json_err.contains(text), "{text} in {json_err}");
    let bytes = e
        .column_by_name("bytes")
        .unwrap()
        .as_binary::<i32>()
        .value(0);
    assert_eq!(bytes, bad);
    assert_eq!(u64s(&errors, "offset"), [c[0].len() as u64]);
}

#[test]
fn arrow_ipc_files_hold_the_same_tables() {
    let dir = common::scratch("columnar-arrow");
    let bin = dir.join("cars.bin");
    std::fs::write(&bin, cars(5, 2).concat()).unwrap();
    let out = dir.join("out");
    let car = car_schema();
    let args = [
        "decode",
        "--schema",
        &car,
        "--format",
        "arrow",
        "--out",
        out.to_str().unwrap(),
        bin.to_str().unwrap(),
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let path = out.join("Car").join("part-00000-cars_bin.arrow");
    let f = std::fs::File::open(&path).unwrap();
    let r = arrow_ipc::reader::FileReader::try_new(f, None).unwrap();
    let batches: Vec<RecordBatch> = r.map(|b| b.unwrap()).collect();
    assert_eq!(u64s(&batches, "offset").len(), 2);
    assert_eq!(u64s(&batches, "serialNumber"), [5, 6]);
}

#[test]
fn a_killed_writer_leaves_only_temporary_names() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = common::scratch("columnar-killed");
    let out = dir.join("out");
    let md = md_schema();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sbe"))
        .args(["decode", "--schema", &md, "--format", "parquet", "--out"])
        .arg(&out)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // More than one batch (64 Ki rows): the first part is open, and
    // standard input stays open.
    let one = books(1).remove(0);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&one.repeat(70_000)).unwrap();
    stdin.flush().unwrap();
    let dataset = out.join("BookUpdate");
    let mut open = Vec::new();
    for _ in 0..600 {
        open = std::fs::read_dir(&dataset)
            .map(|d| d.map(|e| e.unwrap().file_name()).collect::<Vec<_>>())
            .unwrap_or_default();
        if !open.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap();
    let _ = child.wait();
    drop(stdin);
    assert!(!open.is_empty(), "no part was opened");
    let names: Vec<String> = std::fs::read_dir(&dataset)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [".part-00000-stdin.parquet.tmp"]);
}

/// DuckDB, through Python, reads the dataset: row counts per message, a
/// sum of decimal prices, the distinct enum names.
#[test]
fn duckdb_reads_the_dataset() {
    let has_duckdb = Command::new("python3")
        .args(["-c", "import duckdb"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_duckdb {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python3 with duckdb is missing (.ci/run installs it)"
        );
        eprintln!("skipping duckdb_reads_the_dataset: no python3 with duckdb (pip install duckdb)");
        return;
    }
    let dir = common::scratch("columnar-duckdb");
    let input = two_schema_capture(&dir);
    let out = dir.join("out");
    let (car, md) = (car_schema(), md_schema());
    let args = [
        "decode",
        "--schema",
        &car,
        "--schema",
        &md,
        "--format",
        "parquet",
        "--out",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ];
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    let script = r#"
import duckdb, sys
out = sys.argv[1]
con = duckdb.connect()
cars = con.execute(f"select count(*) from read_parquet('{out}/*/Car/*.parquet')").fetchone()[0]
books = con.execute(f"select count(*) from read_parquet('{out}/*/BookUpdate/*.parquet')").fetchone()[0]
total, names = con.execute(f"""
    select sum(e.price)::varchar, count(distinct e.action)
    from (select unnest(entries) as e from read_parquet('{out}/*/BookUpdate/*.parquet'))
""").fetchone()
print(cars, books, total, names)
"#;
    let r = Command::new("python3")
        .args(["-c", script])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // Prices 4500, 4501 and 4502, exactly; actions New, Change, Delete.
    assert_eq!(stdout.trim(), "2 3 13503.000000000 3");
}

/// A pcap past the progress bar's 64 MiB: a packet of three book
/// updates, then Ethernet frames that are not IP (read, and passed over).
fn large_capture(path: &Path) {
    let mut frames = vec![udp(&books(3).concat())];
    let mut arp = vec![2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x06];
    arp.resize(60_000, 0);
    frames.extend(std::iter::repeat_n(arp, 1_120));
    std::fs::write(path, pcap(&frames)).unwrap();
}

#[test]
fn a_large_input_has_a_progress_bar_on_a_terminal_only() {
    // `script` (util-linux) runs the command on a pseudo-terminal.
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "script (util-linux) is missing"
        );
        eprintln!(
            "skipping a_large_input_has_a_progress_bar_on_a_terminal_only: no script (util-linux)"
        );
        return;
    }
    let dir = common::scratch("columnar-progress");
    let input = dir.join("large.pcap");
    large_capture(&input);
    let md = md_schema();
    let decode = |out: &Path| {
        [
            "decode".to_string(),
            "--schema".into(),
            md.clone(),
            "--format".into(),
            "parquet".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            input.to_str().unwrap().into(),
        ]
    };
    let glyphs = |text: &str| text.contains('░') || text.contains('█');

    let on_tty = dir.join("tty");
    let command = std::iter::once(env!("CARGO_BIN_EXE_sbe").to_string())
        .chain(decode(&on_tty))
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let run = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{screen}");
    assert!(
        screen.contains("large.pcap ") && screen.contains("/64.10 MiB") && glyphs(&screen),
        "no bar on the terminal: {screen:?}"
    );
    assert_eq!(
        dataset(&on_tty.join("BookUpdate"))
            .iter()
            .map(RecordBatch::num_rows)
            .sum::<usize>(),
        3
    );

    // Not a terminal: no bar in what is kept of stderr.
    let piped = dir.join("piped");
    let args = decode(&piped);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = common::sbe(&args, b"");
    assert_eq!(code, 0, "{err}");
    assert!(!glyphs(&err) && !err.contains("MiB"), "{err:?}");
}
