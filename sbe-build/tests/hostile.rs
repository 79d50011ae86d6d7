//! Hostile schemas: every shape loads in time and memory linear in its
//! size, or is refused with its position and the limit it hit. Each
//! schema is made here; none comes from a file. The tests run on the
//! default test thread (2 MiB of stack in a debug build, less than a build
//! script's main thread has).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const HEADER: &str = r#"<composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
    </composite>"#;

/// A whole schema around `types` and `messages`.
fn schema(types: &str, messages: &str) -> String {
    format!(
        "<messageSchema package=\"p\" id=\"1\">\n<types>\n{HEADER}\n{types}\n</types>\n{messages}\n</messageSchema>\n"
    )
}

/// The error text of loading `xml` as `name`, which must be refused.
fn refused(name: &str, xml: &str) -> String {
    match sbe_build::ir::load_str(name, xml) {
        Ok(_) => panic!("{name}: loaded, expected a refusal"),
        Err(e) => e.to_string(),
    }
}

/// A schema of about 800 KB and 120,000 elements, on one line and with a
/// newline after every element. Positions were counted from the line
/// start for every element: quadratic on one line (1.2 s against 40 ms).
/// Now one line costs about what many do, and positions are still right.
#[test]
fn a_schema_on_one_line_loads_in_linear_time() {
    // Elements the resolver passes over (cheap in a debug build, so the
    // parse's share shows), and fields that it resolves.
    let filler = vec!["<x/>"; 120_000].join("\n");
    let fields: Vec<String> = (0..2000)
        .map(|i| {
            format!(
                "<field name=\"field{i}\" id=\"{i}\" type=\"uint32\" description=\"number {i}\"/>"
            )
        })
        .collect();
    let many = schema(
        &filler,
        &format!(
            "<message name=\"M\" id=\"1\">\n{}\n</message>",
            fields.join("\n")
        ),
    );
    let one = many.replace('\n', " ");
    assert!(one.len() > 500_000, "{} bytes", one.len());
    let time = |xml: &str| {
        (0..3)
            .map(|_| {
                let start = Instant::now();
                let s = sbe_build::ir::load_str("one.xml", xml).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(s.messages[0].fields.len(), 2000);
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let (t_many, t_one) = (time(&many), time(&one));
    eprintln!("one line: {t_one:?}, a line per element: {t_many:?}");
    assert!(
        t_one < t_many * 3 + Duration::from_millis(50),
        "one line {t_one:?} against {t_many:?} with newlines"
    );

    // Positions on the one line: the last field's column, in characters
    // (a multi-byte character before it counts once).
    let bad = one
        .replacen("description=\"number 0\"", "description=\"é\"", 1)
        .replace(
            "type=\"uint32\" description=\"number 1999\"",
            "type=\"nothing\"",
        );
    let err = refused("one.xml", &bad);
    let at = bad.find("<field name=\"field1999\"").unwrap_or_default();
    let col = bad[..at].chars().count() + 1;
    assert!(col < at + 1, "a multi-byte character comes first");
    assert!(
        err.starts_with(&format!(
            "one.xml:1:{col}: error: type \"nothing\" is not defined"
        )),
        "column {col}: {err}"
    );
}

/// One element with a great many attributes (roxmltree checks each
/// against the others: 40,000 took 2 s) is refused before parsing.
#[test]
fn an_element_with_thousands_of_attributes_is_refused() {
    let attrs: String = (0..40_000).map(|i| format!(" a{i}=\"1\"")).collect();
    let xml = format!("<messageSchema package=\"p\">\n  <types{attrs}/></messageSchema>");
    let start = Instant::now();
    let err = refused("attrs.xml", &xml);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(
        err.starts_with("attrs.xml:2:3: error: element with more than 256 attributes"),
        "{err}"
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sbe-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// Load `path` on another thread: a blocking read fails the test instead
/// of hanging it.
fn load_within(path: &Path, limit: Duration) -> Result<sbe_build::ir::Schema, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(sbe_build::ir::load(&p).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{}: still loading after {limit:?}", path.display()))
}

/// A schema that includes `href` on its third line, column 3.
fn including(dir: &Path, href: &str) -> PathBuf {
    let main = dir.join("main.xml");
    let text = format!(
        "<messageSchema xmlns:xi=\"http://www.w3.org/2001/XInclude\" package=\"p\" id=\"1\">\n<types>\n  <xi:include href=\"{href}\"/>\n</types>\n</messageSchema>\n"
    );
    std::fs::write(&main, text).unwrap_or_else(|e| panic!("{e}"));
    main
}

/// An include of /dev/zero read without end; now refused before it is
/// opened, at the include.
#[cfg(unix)]
#[test]
fn an_include_of_dev_zero_is_refused_at_the_include() {
    let dir = scratch("zero");
    let main = including(&dir, "/dev/zero");
    let err = load_within(&main, Duration::from_secs(10))
        .err()
        .unwrap_or_default();
    assert!(
        err.starts_with(&format!("{}:3:3: error:", main.display())),
        "{err}"
    );
    assert!(err.contains("/dev/zero is not a regular file"), "{err}");
}

/// An include of a FIFO blocked on open forever (nothing writes to it).
#[cfg(unix)]
#[test]
fn an_include_of_a_fifo_is_refused_without_blocking() {
    let dir = scratch("fifo");
    let fifo = dir.join("part.xml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(matches!(made, Ok(s) if s.success()), "mkfifo: {made:?}");
    let main = including(&dir, "part.xml");
    let err = load_within(&main, Duration::from_secs(10))
        .err()
        .unwrap_or_default();
    assert!(
        err.starts_with(&format!("{}:3:3: error:", main.display())),
        "{err}"
    );
    assert!(err.contains("part.xml is not a regular file"), "{err}");
}

/// The schema itself may be a pipe (`--schema <(...)`), but what is read
/// is capped: /dev/zero as the schema stops at 32 MiB.
#[cfg(unix)]
#[test]
fn a_schema_that_never_ends_is_refused_at_the_cap() {
    let err = load_within(Path::new("/dev/zero"), Duration::from_secs(20))
        .err()
        .unwrap_or_default();
    assert_eq!(
        err,
        "/dev/zero: schema refused: more than 32 MiB of schema text, includes counted"
    );
}

/// Parts that each include a smaller part 40 times: 40^3 reads of a few
/// bytes from three small files. Refused once 1,000 includes are read.
#[test]
fn includes_that_fan_out_are_refused_at_the_include_limit() {
    let dir = scratch("fan");
    let xi = "xmlns:xi=\"http://www.w3.org/2001/XInclude\"";
    let forty = |href: &str| format!("<xi:include href=\"{href}\"/>\n").repeat(40);
    let write = |name: &str, text: String| {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{e}"))
    };
    write("c.xml", "<x/>".to_string());
    write("b.xml", format!("<b {xi}>\n{}</b>", forty("c.xml")));
    write("a.xml", format!("<a {xi}>\n{}</a>", forty("b.xml")));
    let main = dir.join("main.xml");
    write(
        "main.xml",
        format!("<messageSchema {xi}>\n{}</messageSchema>", forty("a.xml")),
    );
    let start = Instant::now();
    let err = load_within(&main, Duration::from_secs(10))
        .err()
        .unwrap_or_default();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // The 1,001st include: a.xml is the 1st, each b.xml with its c.xml
    // parts 41 more, so it is the 15th include of the 25th b.xml, on the
    // line after its 15th.
    assert!(
        err.starts_with(&format!(
            "{}:16:1: error: more than 1000 xi:includes in one schema",
            dir.join("b.xml").display()
        )),
        "{err}"
    );
}
