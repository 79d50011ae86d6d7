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
    match sbe_ir::ir::load_str(name, xml) {
        Ok(_) => panic!("{name}: loaded, expected a refusal"),
        Err(e) => e.to_string(),
    }
}

/// The line of `xml` (1-based) holding `needle`.
fn line_of(xml: &str, needle: &str) -> usize {
    let at = xml
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in schema"));
    xml[..at].matches('\n').count() + 1
}

/// A chain of composites, each `<ref>`-ing the next, the last holding a
/// type; `leaf_first` declares them from the end of the chain.
fn ref_chain(links: usize, leaf_first: bool) -> String {
    let mut decls: Vec<String> = (0..links)
        .map(|i| {
            format!(
                "<composite name=\"c{i}\"><ref name=\"next\" type=\"c{}\"/></composite>",
                i + 1
            )
        })
        .collect();
    decls.push(format!(
        "<composite name=\"c{links}\"><type name=\"x\" primitiveType=\"uint8\"/></composite>"
    ));
    if leaf_first {
        decls.reverse();
    }
    schema(&decls.join("\n"), "")
}

/// A chain of 5,000 refs declared from its head: resolving it recurses
/// once per link (named type, composite, ref, named type...), which
/// overflowed the stack at about 1,000 links in a debug build. Refused at
/// the link where the nesting limit is hit.
#[test]
fn a_ref_chain_of_5000_links_is_refused_at_the_depth_limit() {
    let xml = ref_chain(5000, false);
    let err = refused("chain.xml", &xml);
    assert_eq!(
        err.lines().count(),
        1,
        "one error, not one per link:\n{err}"
    );
    assert!(
        err.contains("types nested more than 32 deep"),
        "names the limit: {err}"
    );
    // The 33rd level down the chain is c32 (c0 is the first).
    let line = line_of(&xml, "<composite name=\"c32\">");
    assert!(
        err.starts_with(&format!("chain.xml:{line}:1: error:")),
        "at c32, line {line}: {err}"
    );
}

/// A plain chain of 2,000 refs declared from its leaf: each composite
/// finds the next already resolved, so nothing recurses deeply, but each
/// held a copy of the whole chain below it (quadratic: 1.8 GB). Refused
/// where the chain gets too deep.
#[test]
fn a_ref_chain_of_2000_links_declared_leaf_first_is_refused() {
    let xml = ref_chain(2000, true);
    let start = Instant::now();
    let err = refused("leaf-first.xml", &xml);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("composite \"c1969\" nests types more than 32 deep"),
        "names the limit: {err}"
    );
    // c2000 and its uint8 are 2 levels, so c1969 is the first 33 deep.
    let line = line_of(&xml, "<composite name=\"c1969\">");
    assert!(
        err.starts_with(&format!("leaf-first.xml:{line}:1: error:")),
        "at c1969, line {line}: {err}"
    );
}

/// 30 levels of composites, each with 4 refs to the level below: shallow
/// enough, but the IR copies a composite into every use, so the last
/// level would be copied 4^30 times (1.5 KB of schema reached 2.7 GB).
/// Refused by the budget of type nodes, at the ref where it ran out.
#[test]
fn thirty_levels_of_four_refs_each_are_refused_by_the_node_budget() {
    let levels = 30;
    let mut types = vec![format!(
        "<composite name=\"c{levels}\"><type name=\"x\" primitiveType=\"uint8\"/></composite>"
    )];
    for i in (0..levels).rev() {
        let refs: String = (0..4)
            .map(|k| format!("<ref name=\"r{k}\" type=\"c{}\"/>", i + 1))
            .collect();
        types.push(format!("<composite name=\"c{i}\">\n{refs}\n</composite>"));
    }
    let xml = schema(&types.join("\n"), "");
    assert!(xml.len() < 5000, "{} bytes", xml.len());
    let start = Instant::now();
    let err = refused("fan.xml", &xml);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("type nodes"), "names the limit: {err}");
    assert!(
        err.contains("64 per element of the schema"),
        "says the limit: {err}"
    );
    // At one of the refs.
    let (pos, _) = err.split_once(": error:").unwrap_or_default();
    let line: usize = pos
        .split(':')
        .nth(1)
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let text = xml.lines().nth(line.saturating_sub(1)).unwrap_or_default();
    assert!(text.contains("<ref "), "{err}: line {line} is {text}");
}

/// What the limits leave alone: many uses of one composite (the IR grows
/// with the uses, linearly), and composites nested 31 deep (32 levels
/// with the innermost's uint8).
#[test]
fn wide_and_moderately_deep_schemas_still_load() {
    let mut types = String::from(
        "<composite name=\"Price\"><type name=\"mantissa\" primitiveType=\"int64\"/>\
         <type name=\"exponent\" primitiveType=\"int8\" presence=\"constant\">-9</type></composite>\
         <enum name=\"Side\" encodingType=\"uint8\">",
    );
    for v in 0..20 {
        types.push_str(&format!("<validValue name=\"v{v}\">{v}</validValue>"));
    }
    types.push_str("</enum>");
    let fields: String = (0..3000)
        .map(|i| {
            let ty = if i % 2 == 0 { "Price" } else { "Side" };
            format!("<field name=\"f{i}\" id=\"{i}\" type=\"{ty}\"/>\n")
        })
        .collect();
    let xml = schema(
        &types,
        &format!("<message name=\"M\" id=\"1\">{fields}</message>"),
    );
    let s = sbe_ir::ir::load_str("wide.xml", &xml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.messages[0].block.fields.len(), 3000);

    let xml = ref_chain(30, false);
    let s = sbe_ir::ir::load_str("deep30.xml", &xml).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.types.iter().any(|t| t.name == "c0"));
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
                let s = sbe_ir::ir::load_str("one.xml", xml).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(s.messages[0].block.fields.len(), 2000);
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

/// An enum of 40,000 values and a set of 40,000 choices: their duplicate
/// checks were quadratic.
#[test]
fn huge_enums_and_sets_load_in_linear_time() {
    let time = |n: usize| {
        let vals: String = (0..n)
            .map(|i| format!("<validValue name=\"v{i}\">{i}</validValue>"))
            .collect();
        let choices: String = (0..n)
            .map(|i| format!("<choice name=\"c{i}\">{}</choice>", i % 8))
            .collect();
        let xml = schema(
            &format!("<enum name=\"E\" encodingType=\"int32\">{vals}</enum><set name=\"S\" encodingType=\"uint8\">{choices}</set>"),
            "",
        );
        let start = Instant::now();
        let err = refused("wide.xml", &xml);
        let took = start.elapsed();
        // Every choice past the eighth repeats a bit.
        assert_eq!(err.lines().count(), n - 8, "{n}");
        took
    };
    let (small, big) = (time(4000), time(40_000));
    eprintln!("4,000 values: {small:?}, 40,000: {big:?}");
    assert!(
        big < small * 30 + Duration::from_millis(100),
        "10 times the values took {big:?} against {small:?}"
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
/// Includes outside the schema's folder are allowed here: what is tested
/// is what reading them does (tests/includes.rs tests the refusal).
fn load_within(path: &Path, limit: Duration) -> Result<sbe_ir::ir::Schema, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.to_path_buf();
    let policy = sbe_ir::ir::IncludePolicy {
        allow_outside: true,
    };
    std::thread::spawn(move || {
        let _ = tx.send(sbe_ir::ir::load_with(&p, policy).map_err(|e| e.to_string()));
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
