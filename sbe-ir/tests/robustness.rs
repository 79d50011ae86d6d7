//! No input panics the front end: truncated and mutated versions of every
//! corpus schema give a schema or an error.

use std::path::Path;

use test_support::shared_dir;

/// xorshift: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces a mutation splices in: the syntax the resolver cares about.
const SPLICES: &[&str] = &[
    "\"",
    "<",
    ">",
    "/>",
    "0",
    "-1",
    "99999999999999999999",
    "uint64",
    "char",
    "constant",
    "optional",
    " offset=\"1\"",
    " sinceVersion=\"9\"",
    " type=\"messageHeader\"",
    "</types>",
    "<ref name=\"x\" type=\"messageHeader\"/>",
    "&amp;",
    "é",
    "",
];

fn exercise(path: &Path, text: &str) {
    // Ok or Err are both fine; a panic fails the test.
    if let Ok(schema) = sbe_ir::ir::load_str(path, text) {
        let _ = sbe_ir::report::layout_json(&schema, "x");
    }
}

#[test]
fn truncated_and_mutated_corpus_schemas_never_panic() {
    let Some(shared) = shared_dir("truncated_and_mutated_corpus_schemas_never_panic") else {
        return;
    };
    let mut rng = Rng(0x5be_5be_5be);
    let mut count = 0;
    for (path, status) in test_support::report(&shared) {
        if status.starts_with("skipped") {
            continue;
        }
        let file = shared.join("corpus").join(&path);
        let text = std::fs::read_to_string(&file).expect("read schema");
        let bytes = text.as_bytes();
        let steps = 24;
        for i in 1..steps {
            let cut = bytes.len() * i / steps;
            exercise(&file, &String::from_utf8_lossy(&bytes[..cut]));
            count += 1;
        }
        for _ in 0..40 {
            let mut m = text.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(m.len());
                let at = (0..=at).rev().find(|&i| m.is_char_boundary(i)).unwrap_or(0);
                let len = rng.below(12).min(m.len() - at);
                let end = (at + len..=m.len())
                    .find(|&i| m.is_char_boundary(i))
                    .unwrap_or(m.len());
                m.replace_range(at..end, SPLICES[rng.below(SPLICES.len())]);
            }
            exercise(&file, &m);
            count += 1;
        }
    }
    assert!(count > 5000, "only {count} variants exercised");
}

/// Deeply nested groups or composites are rejected or resolved, never a
/// stack overflow.
#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let header = r#"<composite name="messageHeader"><type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/><type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/></composite>
      <composite name="groupSizeEncoding"><type name="blockLength" primitiveType="uint16"/><type name="numInGroup" primitiveType="uint16"/></composite>"#;
    let depth = 5000;
    let groups = format!(
        "{}{}",
        (0..depth)
            .map(|i| format!(r#"<group name="g{i}" id="{i}">"#))
            .collect::<String>(),
        "</group>".repeat(depth)
    );
    let composites = format!(
        "{}<type name=\"x\" primitiveType=\"uint8\"/>{}",
        (0..depth)
            .map(|i| format!(r#"<composite name="c{i}">"#))
            .collect::<String>(),
        "</composite>".repeat(depth)
    );
    for body in [
        format!(r#"<types>{header}</types><message name="M" id="1">{groups}</message>"#),
        format!(r#"<types>{header}{composites}</types>"#),
    ] {
        let xml = format!(r#"<messageSchema package="p" id="1">{body}</messageSchema>"#);
        let _ = sbe_ir::ir::load_str("deep.xml", &xml);
    }
}
