//! The limits that keep hostile schemas from exhausting the resolver: how
//! deep type definitions may nest, and how many type nodes the IR may take.

use super::Resolver;
use crate::parse::{Element, Pos};

/// Deepest nesting of type definitions resolved: composites inside
/// composites (inline or through `<ref>`), and the chains an enum's
/// `encodingType` or a constant's `valueRef` make. Real schemas nest a
/// handful of levels (4 at most over the corpus); resolution recurses once
/// per level, and so does every later pass over a composite, so the limit
/// keeps a hostile chain of refs from overflowing a build script's stack.
const MAX_TYPE_DEPTH: usize = 32;
/// Type nodes (each type, composite member, valid value and choice, counted
/// every time it is copied into the IR) allowed per element of the
/// document. The IR holds a composite by value wherever it is used, so
/// composites that each use the next several times would otherwise grow
/// exponentially. Over the corpus the most is 4.1 per element
/// (sbe/tests/issue849.xml; 1.9 for the largest, sbe/tests/ilinkbinary.xml,
/// and 2.4 for sbe/tests/FixBinary.xml), so this leaves a margin of 15.
const NODES_PER_ELEMENT: usize = 64;
/// Type nodes allowed whatever the document's size, so that small schemas
/// are never refused.
const NODES_FLOOR: usize = 100_000;

/// How much of the IR a resolved type takes: its type nodes, and how many
/// levels deep it is (1 for all but a composite, which is one more than
/// its deepest member).
#[derive(Debug, Clone, Copy)]
pub(super) struct Size {
    pub(super) nodes: usize,
    pub(super) height: usize,
}

/// Elements of the document, counted without recursion.
fn count_elements(root: &Element) -> usize {
    let mut n = 0usize;
    let mut todo = vec![root];
    while let Some(e) = todo.pop() {
        n += 1;
        todo.extend(&e.children);
    }
    n
}

/// Type nodes allowed for the document under `root`: [`NODES_PER_ELEMENT`]
/// for each of its elements, plus [`NODES_FLOOR`].
pub(super) fn node_limit(root: &Element) -> usize {
    count_elements(root)
        .saturating_mul(NODES_PER_ELEMENT)
        .saturating_add(NODES_FLOOR)
}

impl Resolver<'_> {
    /// Report a limit hit at `pos` and stop resolving.
    pub(super) fn halt(&mut self, pos: &Pos, msg: String) {
        if !self.halted {
            self.error(pos, msg);
            self.halted = true;
        }
    }

    /// Take `nodes` type nodes from the budget for a copy made at `pos`;
    /// `false` (reported once) when the budget does not hold them.
    pub(super) fn charge(&mut self, nodes: usize, pos: &Pos) -> bool {
        if self.halted {
            return false;
        }
        match self.nodes_left.checked_sub(nodes) {
            Some(left) => {
                self.nodes_left = left;
                true
            }
            None => {
                let limit = self.node_limit;
                self.halt(
                    pos,
                    format!(
                        "schema refused: its types expand to more than {limit} type nodes \
                         (the limit is {NODES_PER_ELEMENT} per element of the schema, plus \
                         {NODES_FLOOR}); composites that use each other many times are \
                         copied into every use"
                    ),
                );
                false
            }
        }
    }

    /// Run `resolve` one type definition deeper: `None` without running it
    /// once resolving has halted, or (reported, and halting) when that
    /// would nest more than [`MAX_TYPE_DEPTH`] deep.
    pub(super) fn nested<T>(
        &mut self,
        pos: &Pos,
        resolve: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        if self.halted {
            return None;
        }
        if self.depth >= MAX_TYPE_DEPTH {
            self.halt(
                pos,
                format!(
                    "types nested more than {MAX_TYPE_DEPTH} deep (composites in composites, \
                     inline or through <ref>, or chains of encodingType and valueRef)"
                ),
            );
            return None;
        }
        self.depth += 1;
        let out = resolve(self);
        self.depth -= 1;
        out
    }

    /// Whether composite `name`, of `size`, is within [`MAX_TYPE_DEPTH`];
    /// when not, report it at `pos` and halt.
    pub(super) fn within_height(&mut self, name: &str, size: Size, pos: &Pos) -> bool {
        if size.height <= MAX_TYPE_DEPTH {
            return true;
        }
        self.halt(
            pos,
            format!(
                "composite \"{name}\" nests types more than {MAX_TYPE_DEPTH} deep \
                 (composites in composites, inline or through <ref>)"
            ),
        );
        false
    }
}
