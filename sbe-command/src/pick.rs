//! Which messages `sbe decode` and `sbe inspect` print: `--template`
//! (ids), `--message` (names, the same ids) and `--count` (how many).

use std::sync::atomic::{AtomicU64, Ordering};

use sbe_otf::multi::Schemas;

/// Which messages `sbe decode` and `sbe inspect` print: `--template`,
/// `--message`, `--count`.
pub struct Pick {
    /// Template ids to show (all when empty).
    templates: Vec<u64>,
    /// Messages to show at most, and shown so far.
    count: Count,
}

/// The template ids of the messages named `names` (`--message`), in any
/// of the schemas; `None` (said) when a name is no message of theirs.
pub fn template_ids(schemas: &Schemas<'_>, names: &[String], cmd: &str) -> Option<Vec<u64>> {
    let mut templates = Vec::new();
    for name in names {
        let ids: Vec<u64> = schemas
            .entries()
            .iter()
            .filter_map(|e| e.codec.message_by_name(name))
            .map(|m| u64::from(m.id))
            .collect();
        if ids.is_empty() {
            let known: Vec<&str> = schemas
                .entries()
                .iter()
                .flat_map(|e| e.codec.schema().messages.iter().map(|m| m.name.as_str()))
                .collect();
            say!(
                "sbe {cmd}: --message {name}: no message of that name; the schemas have {}",
                known.join(", ")
            );
            return None;
        }
        templates.extend(ids);
    }
    Some(templates)
}

/// `--count` reached: the capture run stops here, not for an error.
#[derive(Debug)]
pub struct Enough;

impl std::fmt::Display for Enough {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("--count reached")
    }
}

impl std::error::Error for Enough {}

impl Pick {
    /// The messages `templates` and `names` name (any when both are
    /// empty), `count` of them at most; `None` (said) when a name is no
    /// message of the schemas.
    pub fn new(
        schemas: &Schemas<'_>,
        mut templates: Vec<u64>,
        names: &[String],
        count: Option<u64>,
        cmd: &str,
    ) -> Option<Pick> {
        templates.extend(template_ids(schemas, names, cmd)?);
        Some(Pick {
            templates,
            count: Count::new(count),
        })
    }

    /// Whether the message at the start of `bytes` is left out.
    pub fn left_out(&self, schemas: &Schemas<'_>, bytes: &[u8]) -> bool {
        sbe_capture::decoding::left_out(schemas, &self.templates, bytes)
    }

    /// Counts a message shown: whether `--count` is then reached.
    pub fn shown(&mut self) -> bool {
        self.count.printed()
    }

    /// Whether `--count` was reached before any message (`--count 0`).
    pub fn done(&self) -> bool {
        self.count.reached()
    }
}

/// `--count`: messages printed so far (for `sbe decode`, of every input
/// and from either thread of a capture's run).
pub struct Count {
    most: Option<u64>,
    printed: AtomicU64,
}

impl Count {
    /// At most `most` messages (any number when `None`).
    pub fn new(most: Option<u64>) -> Self {
        Count {
            most,
            printed: AtomicU64::new(0),
        }
    }

    /// Counts a message printed: whether `--count` is then reached.
    pub fn printed(&self) -> bool {
        // Without --count nothing is counted.
        let Some(most) = self.most else {
            return false;
        };
        self.printed.fetch_add(1, Ordering::Relaxed) + 1 >= most
    }

    /// Whether `--count` is reached (at once for `--count 0`).
    pub fn reached(&self) -> bool {
        self.most
            .is_some_and(|most| self.printed.load(Ordering::Relaxed) >= most)
    }
}
