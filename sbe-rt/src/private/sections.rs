//! The section cache of a lazy message decoder: where each of the
//! sections after its root block (groups first, then var data, in schema
//! order) starts, found once and remembered.
//!
//! A message decoder checks only its header and root block when it is
//! made. Section 0 starts right after the block; any later one is found
//! by stepping over the ones before it, from the nearest one already
//! known, and its start is stored then. Reading the sections in order
//! (the usual case) finds each where the one before it ended: a group's
//! iterator stores its end ([`slot`](Sections::slot)) when it is opened
//! (entries that are blocks only) or when its last entry is reached
//! (entries with groups or var data), a var-data read stores its own.
//!
//! The generated decoder supplies the one thing that differs per message:
//! `step(buf, version, j, pos)`, where section `j` starting at `pos` ends
//! in the message body `buf` at acting version `version`, checked.
//!
//! ```
//! use sbe_rt::__private::codec::{data_end, var_data};
//! use sbe_rt::__private::sections::Sections;
//!
//! // A message body: a 1-byte block, then two var data of a uint8 length.
//! fn step(body: &[u8], _version: u32, _j: usize, pos: usize) -> sbe_rt::Result<usize> {
//!     data_end(body, pos + 1, u64::from(sbe_rt::get_u8_le(sbe_rt::slice(body, pos, 1)?, 0)), 254)
//! }
//! // `pos` is checked (by reading the length) before it is added to: a
//! // start not known yet is `usize::MAX`.
//! fn read(body: &[u8], pos: usize) -> sbe_rt::Result<(&[u8], usize)> {
//!     let len = u64::from(sbe_rt::get_u8_le(sbe_rt::slice(body, pos, 1)?, 0));
//!     var_data(body, pos + 1, len, 254)
//! }
//! let body = [0xaa, 2, b'h', b'i', 3, b'y', b'o', b'u'];
//!
//! let sec = Sections::<3>::new(1);
//! // The second var data first: the first is stepped over to find it.
//! assert_eq!(sec.data(1, &body, 0, step, |pos| read(&body, pos)), b"you");
//! assert_eq!(sec.data(0, &body, 0, step, |pos| read(&body, pos)), b"hi");
//! assert_eq!(sec.end(&body, 0, step)?, 8);
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use core::cell::Cell;

use crate::error::Result;

/// Not known yet.
const UNKNOWN: usize = usize::MAX;

/// A message's step over one of its sections: `step(buf, version, j,
/// pos)` is where section `j`, starting at `pos` in the message body
/// `buf`, ends at acting version `version`, checked. The generated decoder
/// passes its own function (a zero-sized fn item, so that the walk is
/// compiled for each message and its arguments stay in registers).
pub trait Step: Fn(&[u8], u32, usize, usize) -> Result<usize> {}

impl<F: Fn(&[u8], u32, usize, usize) -> Result<usize>> Step for F {}

/// Where each of `N - 1` sections starts, and (slot `N - 1`) where the
/// message ends, once known.
#[derive(Clone, Debug)]
pub struct Sections<const N: usize> {
    slots: [Cell<usize>; N],
}

impl<const N: usize> Sections<N> {
    /// The cache of a block whose first section starts at `first`.
    #[inline]
    #[must_use]
    pub fn new(first: usize) -> Self {
        let slots = [const { Cell::new(UNKNOWN) }; N];
        if let Some(c) = slots.first() {
            c.set(first);
        }
        Sections { slots }
    }

    /// Slot `i`: where section `i` starts (`N - 1`: the end), for a group
    /// iterator to store its end in when it reaches it.
    #[inline]
    #[must_use]
    pub fn slot(&self, i: usize) -> Option<&Cell<usize>> {
        self.slots.get(i)
    }

    /// Where section `i` starts (`N - 1`: the end), checked: the cached
    /// value, else found by stepping from the nearest known section before
    /// it, and remembered.
    #[inline]
    pub fn at<S: Step>(&self, i: usize, buf: &[u8], version: u32, step: S) -> Result<usize> {
        match self.slots.get(i) {
            Some(c) if c.get() != UNKNOWN => Ok(c.get()),
            _ => {
                // Only section `i` is remembered here: storing every
                // position found made the hot path keep them all.
                let (pos, _) = walk(self.known(), i, buf, version, step)?;
                if let Some(c) = self.slots.get(i) {
                    c.set(pos);
                }
                Ok(pos)
            }
        }
    }

    /// Where the message ends, every section's start remembered on the
    /// way, so that reading sections after the whole walk (`checked_length`)
    /// steps over nothing again.
    #[inline]
    pub fn end<S: Step>(&self, buf: &[u8], version: u32, step: S) -> Result<usize> {
        let last = N.saturating_sub(1);
        match self.slots.get(last) {
            Some(c) if c.get() != UNKNOWN => Ok(c.get()),
            _ => {
                let (end, found) = walk(self.known(), last, buf, version, step)?;
                for (c, p) in self.slots.iter().zip(found) {
                    c.set(p);
                }
                Ok(end)
            }
        }
    }

    /// The bytes of var data section `i`, read by `read(start)` (which
    /// returns them and where they end); where the next section starts is
    /// remembered. Data that does not check reads as empty.
    ///
    /// `read` is first called with the cached start as it is: a start not
    /// known yet is `usize::MAX`, which fails any read that checks `start`
    /// against `buf` before adding to it, so the cache is walked only when
    /// that read fails. (Testing for the unknown start first cost every
    /// read of a message's var data a compare.)
    #[inline(always)]
    pub fn data<'a, S, R>(&self, i: usize, buf: &[u8], version: u32, step: S, read: R) -> &'a [u8]
    where
        S: Step,
        R: Fn(usize) -> Result<(&'a [u8], usize)>,
    {
        let Some(slot) = self.slots.get(i) else {
            return &[];
        };
        let found = match read(slot.get()) {
            Err(_) if slot.get() == UNKNOWN => self.at(i, buf, version, step).and_then(&read),
            found => found,
        };
        match found {
            Ok((data, end)) => {
                if let Some(c) = self.slots.get(i + 1) {
                    c.set(end);
                }
                data
            }
            Err(_) => &[],
        }
    }

    /// A copy of the slots.
    #[inline]
    fn known(&self) -> [usize; N] {
        self.slots.each_ref().map(Cell::get)
    }
}

/// Where section `i` starts, and the positions `known` (with
/// [`UNKNOWN`] where not known yet; section 0 always is) with those up
/// to it filled in, stepping from the nearest known one before it.
///
/// Out of line and on copies, not on the cache: the decoder's address
/// never escapes to it, so the decoder can live in registers.
#[inline(never)]
fn walk<const N: usize, S: Step>(
    mut known: [usize; N],
    i: usize,
    buf: &[u8],
    version: u32,
    step: S,
) -> Result<(usize, [usize; N])> {
    let mut j = i.min(N.saturating_sub(1));
    while j > 0 && !matches!(known.get(j), Some(&p) if p != UNKNOWN) {
        j -= 1;
    }
    let mut pos = known.get(j).copied().unwrap_or(0);
    while j < i {
        pos = step(buf, version, j, pos)?;
        j += 1;
        if let Some(p) = known.get_mut(j) {
            *p = pos;
        }
    }
    Ok((pos, known))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    const B100: &[u8] = &[0; 100];
    const B4: &[u8] = &[0; 4];

    /// Sections of 2, 3 and 4 bytes, in a body of `buf.len()` bytes.
    fn step(buf: &[u8], _: u32, j: usize, pos: usize) -> Result<usize> {
        let end = pos + j + 2;
        if end > buf.len() {
            Err(Error::truncated(end, buf.len()))
        } else {
            Ok(end)
        }
    }

    #[test]
    fn finds_a_section_by_stepping_from_the_nearest_known() {
        let sec = Sections::<4>::new(10);
        assert_eq!(sec.at(0, B100, 0, step), Ok(10));
        assert_eq!(sec.at(2, B100, 0, step), Ok(15));
        // Only the section asked for is remembered.
        assert_eq!(sec.slot(1).map(Cell::get), Some(UNKNOWN));
        assert_eq!(sec.slot(2).map(Cell::get), Some(15));
        // From 15 on: one step.
        let calls = Cell::new(0);
        let counting = |buf: &[u8], version, j, pos| {
            calls.set(calls.get() + 1);
            step(buf, version, j, pos)
        };
        assert_eq!(sec.end(B100, 0, counting), Ok(19));
        assert_eq!(calls.get(), 1);
        // The walk remembers what it passed, not what it did not need.
        assert_eq!(sec.slot(3).map(Cell::get), Some(19));
        assert_eq!(sec.slot(1).map(Cell::get), Some(UNKNOWN));
        assert_eq!(
            sec.at(3, B100, 0, |_: &[u8], _, _, _| unreachable!()),
            Ok(19)
        );
        let fresh = Sections::<4>::new(10);
        assert_eq!(fresh.end(B100, 0, step), Ok(19));
        assert_eq!(
            fresh.at(1, B100, 0, |_: &[u8], _, _, _| unreachable!()),
            Ok(12)
        );
    }

    #[test]
    fn a_section_that_does_not_fit_is_an_error_and_reads_empty() {
        let sec = Sections::<3>::new(0);
        assert!(sec.end(B4, 0, step).is_err());
        assert_eq!(sec.at(1, B4, 0, step), Ok(2));
        let read =
            |pos: usize| -> Result<(&'static [u8], usize)> { Err(Error::truncated(pos + 9, 4)) };
        assert_eq!(sec.data(1, B4, 0, step, read), b"");
        assert_eq!(sec.slot(2).map(Cell::get), Some(UNKNOWN));
        assert!(sec.at(7, B4, 0, step).is_err());
    }
}
