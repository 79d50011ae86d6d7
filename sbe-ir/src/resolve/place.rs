//! Where every byte goes: the one place that places fields and members
//! (offsets, gaps, overlaps). Everything else reads the results from the IR.

/// One item to place in a block or composite.
pub(crate) struct Slot {
    /// `offset` attribute, if the schema gives one.
    pub explicit_offset: Option<u32>,
    /// Bytes the item takes on the wire (0 for constants).
    pub length: u32,
}

/// Result of laying out a sequence of items.
pub(crate) struct Placed {
    /// Offset of each item, in order.
    pub offsets: Vec<u32>,
    /// One past the last byte used.
    pub end: u32,
    /// Items whose explicit offset overlaps the one before (index, earliest valid offset).
    pub overlaps: Vec<(usize, u32)>,
}

/// Place items one after another; an explicit offset moves an item (and
/// those after it) forward, leaving a gap. SBE 1.0 has no implicit
/// alignment, so there is no padding beyond what the schema asks for.
pub(crate) fn place(slots: &[Slot]) -> Placed {
    let mut offsets = Vec::with_capacity(slots.len());
    let mut overlaps = Vec::new();
    let mut next = 0u32;
    for (i, slot) in slots.iter().enumerate() {
        let offset = match slot.explicit_offset {
            Some(o) if o < next && slot.length > 0 => {
                overlaps.push((i, next));
                o
            }
            Some(o) if slot.length > 0 => o,
            _ => next,
        };
        offsets.push(offset);
        next = next.max(offset.saturating_add(slot.length));
    }
    Placed {
        offsets,
        end: next,
        overlaps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(explicit_offset: Option<u32>, length: u32) -> Slot {
        Slot {
            explicit_offset,
            length,
        }
    }

    #[test]
    fn packs_and_honours_explicit_offsets() {
        let p = place(&[
            slot(None, 8),
            slot(None, 0),
            slot(Some(12), 2),
            slot(None, 1),
        ]);
        assert_eq!(p.offsets, vec![0, 8, 12, 14]);
        assert_eq!(p.end, 15);
        assert!(p.overlaps.is_empty());
    }

    #[test]
    fn reports_overlaps() {
        let p = place(&[slot(None, 4), slot(Some(2), 4)]);
        assert_eq!(p.overlaps, vec![(1, 4)]);
    }
}
