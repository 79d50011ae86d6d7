//! `Pipeline::threads` honoured: how many sources read at once, and how
//! many writer threads there are beside them, seen from inside the
//! sources (the threads counted by name in /proc, hence a test binary of
//! its own: no other test's threads to count).
#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sbe_columnar::pipeline::{Input, Pipeline, Source};
use sbe_columnar::Frame;
use sbe_otf::multi::{Entry, Schemas};

const XML: &str = r#"<messageSchema package="demo" id="1">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
  </types>
  <message name="Tick" id="1">
    <field name="seq" id="1" type="uint32"/>
  </message>
</messageSchema>"#;

const TICK: [u8; 12] = [4, 0, 1, 0, 1, 0, 0, 0, 7, 0, 0, 0];

/// Threads of this process whose name starts with `prefix` (names are
/// cut at 15 bytes).
fn threads_named(prefix: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with(prefix))
        .count()
}

/// Waits (up to 10 s) until `f` holds; whether it does.
fn until(f: impl Fn() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while !f() {
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    true
}

/// Writer threads: once as many as `want` (those of inputs just finished
/// may take a moment to go).
fn writers(want: usize) -> usize {
    until(|| threads_named("sbe-columnar-wr") == want);
    threads_named("sbe-columnar-wr")
}

/// What a source saw while it read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    /// The thread it read on.
    thread: Option<String>,
    /// Sources reading at once.
    at_once: usize,
    /// Writer threads then.
    writers: usize,
}

/// A source that waits for `at_once` sources to be reading (or 10 s),
/// notes what it sees, and waits for them all to have seen it.
struct Probe<'c> {
    name: String,
    at_once: usize,
    writers: usize,
    reading: &'c AtomicUsize,
    noted: &'c AtomicUsize,
    seen: Option<Seen>,
}

impl Source for Probe<'_> {
    type Error = String;

    fn name(&self) -> &str {
        &self.name
    }

    fn read(&mut self, input: &mut Input<'_>) -> Result<(), String> {
        input
            .push(&TICK, &Frame::at(0))
            .map_err(|e| e.to_string())?;
        let round = self.noted.load(Ordering::SeqCst) / self.at_once;
        self.reading.fetch_add(1, Ordering::SeqCst);
        until(|| self.reading.load(Ordering::SeqCst) >= self.at_once);
        // Time for one more to come, where there should be none.
        std::thread::sleep(Duration::from_millis(20));
        self.seen = Some(Seen {
            thread: std::thread::current().name().map(str::to_string),
            at_once: self.reading.load(Ordering::SeqCst),
            writers: writers(self.writers),
        });
        self.noted.fetch_add(1, Ordering::SeqCst);
        let all = (round + 1) * self.at_once;
        until(|| self.noted.load(Ordering::SeqCst) >= all);
        self.reading.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }
}

#[test]
fn the_threads_are_inputs_at_once_and_a_writer_each_where_they_spare() {
    let schema = sbe_ir::ir::load_str("demo.xml", XML).unwrap();
    let entry = Entry {
        codec: sbe_otf::Codec::new(&schema).unwrap(),
        label: "demo.xml".into(),
    };
    let schemas = Schemas::new(vec![entry]).unwrap();
    let dir = std::env::temp_dir().join(format!("sbe-pipeline-threads-{}", std::process::id()));
    // (threads, sources, sources read at once, writer threads at once)
    let cases = [
        (1, 2, 1, 0),
        (2, 2, 2, 0),
        (3, 2, 2, 0),
        (4, 2, 2, 2),
        (2, 1, 1, 1),
        (8, 3, 3, 3),
        (4, 3, 3, 0),
    ];
    for (threads, n, at_once, writer_threads) in cases {
        let out = dir.join(format!("out-{threads}-{n}"));
        let dataset = Pipeline::new(&schemas, &out)
            .threads(threads)
            .start()
            .unwrap();
        let (reading, noted) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let mut sources: Vec<Probe> = (0..n)
            .map(|i| Probe {
                name: format!("in{i}"),
                at_once,
                writers: writer_threads,
                reading: &reading,
                noted: &noted,
                seen: None,
            })
            .collect();
        let summary = dataset.run(&mut sources).unwrap();
        assert_eq!(summary.messages(), n as u64);
        for s in &sources {
            let want = Seen {
                thread: Some("sbe-columnar-decode".to_string()),
                at_once,
                writers: writer_threads,
            };
            assert_eq!(
                s.seen.as_ref(),
                Some(&want),
                "{threads} threads, {n} sources"
            );
        }
        assert_eq!(writers(0), 0, "the writers are gone with the run");
    }
    // One input pushed into: a writer thread from 2 threads on.
    for (threads, writer_threads) in [(1, 0), (2, 1)] {
        let out = dir.join(format!("pushed-{threads}"));
        let dataset = Pipeline::new(&schemas, &out)
            .threads(threads)
            .start()
            .unwrap();
        let mut input = dataset.input("in", "in").unwrap();
        input.push(&TICK, &Frame::at(0)).unwrap();
        assert_eq!(writers(writer_threads), writer_threads, "{threads} threads");
        input.finish().unwrap();
        assert_eq!(writers(0), 0);
        // Dropped unfinished: its writer stops too.
        let mut input = dataset.input("in", "in").unwrap();
        input.push(&TICK, &Frame::at(0)).unwrap();
        drop(input);
        assert_eq!(writers(0), 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
