//! Lines for stderr that never panic, and the summary of errors said
//! again and again.
//!
//! `eprintln!` panics when stderr is a closed pipe (`sbe decode … 2>&1 |
//! head -1`); `say!` writes the same line and drops it when
//! stderr is gone: what is lost is a message nobody reads, and the run
//! goes on to end with its usual status.
//!
//! A capture read with the wrong schema or framing fails the same way in
//! every packet: [`Repeats`] lets the first few of each kind through and
//! counts the rest, said in one line each at the end.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};

/// Writes a line to stderr, as `eprintln!` does, without panicking when
/// stderr is closed.
macro_rules! say {
    ($($arg:tt)*) => {
        crate::say::line(format_args!($($arg)*))
    };
}

/// One line to stderr; a write that fails (a closed pipe) is dropped.
pub fn line(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    // Nobody reads a closed stderr: the line has nowhere to go, and the
    // run's status still says whether it went well.
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Errors of one kind said in full before the rest are only counted.
pub const SAID_IN_FULL: u64 = 5;

/// Counts the lines of each kind said, to say the first
/// [`SAID_IN_FULL`] of a kind and summarise the rest.
///
/// Two lines are of one kind when they differ only in their digits:
/// `packet 7, udp 10.0.0.1:9000 -> …, byte 4 of the payload: wrong
/// schema id 59808 (expected 7)` is the same mistake in every packet.
#[derive(Default)]
pub struct Repeats {
    /// Per kind: lines seen, lines not said, what they are (`error`,
    /// `notice`), and its first line's text after its place.
    kinds: HashMap<String, (u64, u64, &'static str, String)>,
    /// Kinds in the order first seen, for the summary.
    order: Vec<String>,
}

impl Repeats {
    /// Whether `text`, an `error` or a `notice` (`word`), is to be said:
    /// `false` once its kind was seen [`SAID_IN_FULL`] times (it is then
    /// counted for [`summary`](Self::summary)), unless `anyway` (a line
    /// that says more than the others of its kind).
    pub fn say(&mut self, word: &'static str, text: &str, anyway: bool) -> bool {
        let kind: String = text.chars().filter(|c| !c.is_ascii_digit()).collect();
        match self.kinds.get_mut(&kind) {
            Some((n, unsaid, _, _)) => {
                *n += 1;
                let said = *n <= SAID_IN_FULL || anyway;
                if !said {
                    *unsaid += 1;
                }
                said
            }
            None => {
                // What the lines say, after where (`packet 1, …, byte 4 of
                // the payload: `, `at byte 12: `).
                let what = text.split_once(": ").map_or(text, |(_, what)| what);
                self.kinds
                    .insert(kind.clone(), (1, 0, word, what.to_string()));
                self.order.push(kind);
                true
            }
        }
    }

    /// One line per kind that was cut short: `... and 995 more errors
    /// like this: wrong schema id 59808 (expected 7): …`.
    pub fn summary(&self) -> Vec<String> {
        self.order
            .iter()
            .filter_map(|k| self.kinds.get(k))
            .filter(|(_, unsaid, _, _)| *unsaid > 0)
            .map(|(_, more, word, what)| {
                let s = if *more == 1 { "" } else { "s" };
                format!("... and {more} more {word}{s} like this: {what}")
            })
            .collect()
    }
}

/// Says a run's reports on one input (`sbe decode: md.pcap: …`), the
/// first few of each kind in full and the rest summed up at its end.
pub struct Reporter<'a> {
    /// `sbe decode`, `sbe inspect`.
    cmd: &'static str,
    input: &'a str,
    repeats: Repeats,
}

impl<'a> Reporter<'a> {
    /// Reports of `cmd` (`decode`) on `input`.
    pub fn new(cmd: &'static str, input: &'a str) -> Self {
        Reporter {
            cmd,
            input,
            repeats: Repeats::default(),
        }
    }

    /// Says `text` (an error, or a notice when `notice`) with `hint`
    /// after it, unless its kind was said often enough already.
    pub fn report(&mut self, notice: bool, text: &str, hint: Option<&str>) {
        let word = if notice { "notice" } else { "error" };
        if self.repeats.say(word, text, hint.is_some()) {
            say!(
                "sbe {}: {}: {text}{}",
                self.cmd,
                self.input,
                hint.unwrap_or_default()
            );
        }
    }

    /// Says how many of each kind went unsaid.
    pub fn end(&mut self) {
        for line in self.repeats.summary() {
            say!("sbe {}: {}: {line}", self.cmd, self.input);
        }
        self.repeats = Repeats::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_differ_in_digits_are_one_kind() {
        let mut r = Repeats::default();
        let said: Vec<bool> = (0..8)
            .map(|i| {
                r.say(
                    "error",
                    &format!(
                        "packet {i}, byte 4: wrong schema id {} (expected 7)",
                        i * 1000
                    ),
                    false,
                )
            })
            .collect();
        assert_eq!(said, [true, true, true, true, true, false, false, false]);
        assert!(r.say("error", "packet 9, byte 4: truncated", false));
        // A line with more to say is said, and not counted as unsaid.
        assert!(r.say(
            "error",
            "packet 10, byte 4: wrong schema id 1 (expected 7)",
            true
        ));
        assert_eq!(
            r.summary(),
            ["... and 3 more errors like this: wrong schema id 0 (expected 7)"]
        );
    }
}
