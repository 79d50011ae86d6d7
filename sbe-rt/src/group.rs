//! Group iterators: the entries of a repeating group, in order, as the
//! generated entry decoders. A generated decoder's group accessor
//! (`car.fuel_figures()`) returns one of these two, named for the group
//! by a type alias (`pub type CarFuelFiguresDecoder<'a> =
//! sbe_rt::group::Entries<'a, CarFuelFiguresEntry<'a>>`):
//!
//! * [`Blocks`]: a group whose entries are blocks only (no nested groups,
//!   no var data). The dimension and the whole span of entries were
//!   checked when the group was opened; `next` only splits the span.
//! * [`Entries`]: a group whose entries have nested groups or var data.
//!   Each entry is checked when the iteration reaches it; one that does
//!   not fit ends the iteration (and the message's `checked_length()`
//!   reports it).
//!
//! Both are `Copy` [`ExactSizeIterator`]s of the entry decoder (`len()` is
//! the count on the wire, or what is left of it), `Debug` as the list of
//! their entries, and a [`visit::Field`](crate::visit::Field) (a list) of
//! the block holding them. They are made by the generated code only:
//! their checks are the rules `sbe decode` applies too, so that both give
//! the same verdict on the same bytes.
//!
//! ```
//! # use sbe_rt::group::{BlockEntry, Blocks};
//! # use sbe_rt::wire::{Dimension, Uint};
//! # /// An entry of one `uint16` field.
//! # #[derive(Clone, Copy, Debug)]
//! # struct Tick(u16);
//! # impl Tick { fn speed(&self) -> u16 { self.0 } }
//! # impl<'a> BlockEntry<'a> for Tick {
//! #     const DIMENSION: Dimension = Dimension {
//! #         len: 4,
//! #         block_length: Uint::U16Le(0),
//! #         count: Uint::U16Le(2),
//! #         max_count: 100,
//! #     };
//! #     fn required(_version: u32) -> usize { 2 }
//! #     fn from_block(block: &'a [u8], _version: u32) -> Self {
//! #         Tick(sbe_rt::get_u16_le(block, 0))
//! #     }
//! # }
//! # // blockLength 3 (a newer sender's longer block), 2 entries.
//! # let buf = [3, 0, 2, 0, 7, 0, 0xee, 9, 0, 0xee];
//! # let (ticks, _) = Blocks::<Tick, false>::check(&buf, 0, 0)?;
//! // `ticks`: what a generated group accessor returns.
//! assert_eq!(ticks.len(), 2);
//! assert_eq!(ticks.map(|t| t.speed()).collect::<Vec<_>>(), [7, 9]);
//! for tick in ticks {
//!     println!("{}", tick.speed());
//! }
//! assert_eq!(format!("{ticks:?}"), "[Tick(7), Tick(9)]");
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use crate::__private::codec::{
    blocks_end, check_entries, check_group, no_section, to_usize, MAX_EMPTY_ENTRIES,
};
use crate::error::{Error, Result};
use crate::visit::{Field, List, Value};
use crate::wire::Dimension;

/// A group entry whose bytes are its block only: what [`Blocks`] needs of
/// a generated entry decoder (the generated code implements it).
///
/// Hidden from the docs, as what only generated code uses is, but kept
/// beside the iterators that use it: their docs show the bound as
/// `E: BlockEntry<'a>`, a name that says what `E` is.
///
/// ```
/// use sbe_rt::group::{BlockEntry, Blocks};
/// use sbe_rt::wire::{Dimension, Uint};
///
/// /// An entry of one `uint16` field.
/// #[derive(Clone, Copy, Debug)]
/// struct Tick(u16);
///
/// impl<'a> BlockEntry<'a> for Tick {
///     const DIMENSION: Dimension = Dimension {
///         len: 4,
///         block_length: Uint::U16Le(0),
///         count: Uint::U16Le(2),
///         max_count: 100,
///     };
///     fn required(_version: u32) -> usize {
///         2
///     }
///     fn from_block(block: &'a [u8], _version: u32) -> Self {
///         Tick(sbe_rt::get_u16_le(block, 0))
///     }
/// }
///
/// // blockLength 3 (a newer sender's longer block), 2 entries, then 1 more byte.
/// let buf = [3, 0, 2, 0, 7, 0, 0xee, 9, 0, 0xee, 0xff];
/// let (ticks, end) = Blocks::<Tick, false>::check(&buf, 0, 0)?;
/// assert_eq!(end, 10);
/// assert_eq!(ticks.map(|t| t.0).collect::<Vec<_>>(), [7, 9]);
/// // A count its entries cannot fit is refused before any entry is read.
/// assert!(Blocks::<Tick, false>::check(&buf[..9], 0, 0).is_err());
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[doc(hidden)]
pub trait BlockEntry<'a>: Sized {
    /// The group's dimension header.
    const DIMENSION: Dimension;

    /// The group's number among the schema's elements, which its errors
    /// name ([`Error::at`]; 0: none).
    const ELEMENT: u16 = 0;

    /// The block length the fields of acting version `version` need: a
    /// shorter block on the wire is refused.
    fn required(version: u32) -> usize;

    /// The entry whose block is `block`, its length already checked to be
    /// at least `required(version)`.
    fn from_block(block: &'a [u8], version: u32) -> Self;
}

/// A group entry with nested groups or var data after its block: what
/// [`Entries`] needs of a generated entry decoder (the generated code
/// implements it; hidden from the docs as [`BlockEntry`] is).
#[doc(hidden)]
pub trait VarEntry<'a>: Sized {
    /// The group's dimension header.
    const DIMENSION: Dimension;

    /// The group's number among the schema's elements, which its errors
    /// name ([`Error::at`]; 0: none).
    const ELEMENT: u16 = 0;

    /// The block length the fields of acting version `version` need.
    fn required(version: u32) -> usize;

    /// The fewest bytes an entry takes after its block at `version` (its
    /// nested dimensions and var-data length prefixes): with the block
    /// length, what a count is checked against before the whole walk.
    fn min_tail(version: u32) -> usize;

    /// Checks and reads the entry whose block of `block_length` bytes
    /// starts at `buf[start..]`, stepping over its nested groups and var
    /// data.
    fn wrap_at(buf: &'a [u8], start: usize, block_length: usize, version: u32) -> Result<Self>;

    /// Where the entry ends in the buffer it was wrapped in.
    fn end(&self) -> usize;
}

/// Reads the dimension `header` (its bytes): block length and count as
/// `usize`.
#[inline(always)]
fn dimension(dim: Dimension, header: &[u8]) -> (usize, usize) {
    (
        to_usize(dim.block_length.get(header)),
        to_usize(dim.count.get(header)),
    )
}

/// The entries of a group whose entries are blocks only, in order: an
/// iterator of `E`, the group's generated entry decoder (`…Entry`).
///
/// `TOP` is `true` for a group of a message's root block, `false` for one
/// nested in an entry: the two end their iteration on different tests,
/// each the one that measured faster where it is used (a root group's
/// count is tested anyway; a nested group ends on its span, its count
/// tested only for blocks of no bytes).
pub struct Blocks<'a, E, const TOP: bool> {
    entries: &'a [u8],
    block_length: usize,
    remaining: usize,
    version: u32,
    entry: PhantomData<fn() -> E>,
}

impl<'a, E: BlockEntry<'a>, const TOP: bool> Blocks<'a, E, TOP> {
    /// A group of no entries: what a group newer than its message, or one
    /// that did not check, reads as.
    #[doc(hidden)]
    #[inline]
    #[must_use]
    pub fn empty(version: u32) -> Self {
        Blocks {
            entries: &[],
            block_length: 0,
            remaining: 0,
            version,
            entry: PhantomData,
        }
    }

    /// Checks the dimension at `buf[pos..]` (the count against its
    /// maximum, the block length against the acting version's fields)
    /// and that every entry fits in `buf`: the group, and where it ends.
    #[doc(hidden)]
    #[inline]
    pub fn check(buf: &'a [u8], pos: usize, version: u32) -> Result<(Self, usize)> {
        match Self::rule(buf, pos, version) {
            Ok(checked) => Ok(checked),
            Err(_) => Err(Self::why(buf, pos, version)),
        }
    }

    /// Why [`Self::rule`] refuses the group: it is run again, out of line,
    /// so that the hot path carries only the branch (the error's numbers,
    /// built inline, would be computed before the branches or hoisted out
    /// of an enclosing loop).
    #[cold]
    #[inline(never)]
    fn why(buf: &'a [u8], pos: usize, version: u32) -> Error {
        match Self::rule(buf, pos, version) {
            Err(e) => e.at(E::ELEMENT),
            // Not reached: the rule is a function of its arguments.
            Ok(_) => no_section(buf),
        }
    }

    /// The rule [`Self::check`] and [`Self::open`] apply.
    #[inline(always)]
    fn rule(buf: &'a [u8], pos: usize, version: u32) -> Result<(Self, usize)> {
        let dim = E::DIMENSION;
        // `crate::slice`'s check, with its error built inline: `open`
        // drops it unbuilt, `check` builds it out of line.
        let Some(header) = buf.get(pos..).and_then(|b| b.get(..dim.len)) else {
            return Err(Error::truncated(pos.saturating_add(dim.len), buf.len()));
        };
        let (block_length, remaining) = dimension(dim, header);
        let block_length =
            check_group(remaining, block_length, dim.max_count, E::required(version))?;
        let start = pos + dim.len;
        // `blocks_end` checks that the entries fit; what `check_entries`
        // adds is the bound on entries of no bytes, which below
        // `MAX_EMPTY_ENTRIES` the count's maximum gives already.
        if block_length == 0 && dim.max_count > MAX_EMPTY_ENTRIES as u64 {
            check_entries(buf, start, remaining, 0)?;
        }
        let end = blocks_end(buf, start, remaining, block_length)?;
        let entries = buf.get(start..end).unwrap_or_default();
        Ok((
            Blocks {
                entries,
                block_length,
                remaining,
                version,
                entry: PhantomData,
            },
            end,
        ))
    }

    /// The group at `pos` when it is known: checked here, and where it
    /// ends stored in `done` (the next section's slot of a root decoder's
    /// cache). Empty when it does not check.
    #[doc(hidden)]
    #[inline]
    pub fn open(
        buf: &'a [u8],
        pos: Result<usize>,
        version: u32,
        done: Option<&Cell<usize>>,
    ) -> Self {
        // Why it does not check is not needed: the rule's errors, built
        // inline, are dropped unbuilt.
        match pos.and_then(|pos| Self::rule(buf, pos, version)) {
            Ok((group, end)) => {
                if let Some(c) = done {
                    c.set(end);
                }
                group
            }
            Err(_) => Self::empty(version),
        }
    }

    /// Checks the group at `buf[pos..]` and returns where it ends.
    #[doc(hidden)]
    #[inline]
    pub fn skip(buf: &'a [u8], pos: usize, version: u32) -> Result<usize> {
        Ok(Self::check(buf, pos, version)?.1)
    }
}

impl<'a, E: BlockEntry<'a>, const TOP: bool> Iterator for Blocks<'a, E, TOP> {
    type Item = E;

    #[inline]
    fn next(&mut self) -> Option<E> {
        // The span holds exactly `remaining` entries: when they are at
        // least a byte long it runs out when the count does, and
        // splitting it is the only check. An empty group of blocks of no
        // bytes (a version-gated one) ends on its count.
        let done = if TOP {
            self.remaining == 0
        } else {
            self.block_length == 0 && self.remaining == 0
        };
        if done {
            return None;
        }
        let (block, rest) = self.entries.split_at_checked(self.block_length)?;
        self.entries = rest;
        self.remaining = self.remaining.saturating_sub(1);
        Some(E::from_block(block, self.version))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<'a, E: BlockEntry<'a>, const TOP: bool> ExactSizeIterator for Blocks<'a, E, TOP> {}

impl<E, const TOP: bool> Clone for Blocks<'_, E, TOP> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, const TOP: bool> Copy for Blocks<'_, E, TOP> {}

impl<'a, E: BlockEntry<'a> + fmt::Debug, const TOP: bool> fmt::Debug for Blocks<'a, E, TOP> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

impl<'a, E: BlockEntry<'a> + Field, const TOP: bool> List for Blocks<'a, E, TOP> {
    fn each(&self, f: &mut dyn FnMut(&dyn Field)) {
        for entry in *self {
            f(&entry);
        }
    }
}

/// A group is a field of the block holding it: the list of its entries.
impl<'a, E: BlockEntry<'a> + Field, const TOP: bool> Field for Blocks<'a, E, TOP> {
    fn value(&self) -> Value<'_> {
        Value::List(self)
    }
}

/// The entries of a group whose entries have nested groups or var data,
/// in order: an iterator of `E`, the group's generated entry decoder
/// (`…Entry`), each checked when the iteration reaches it.
pub struct Entries<'a, E> {
    buf: &'a [u8],
    pos: usize,
    block_length: usize,
    remaining: usize,
    version: u32,
    done: Option<&'a Cell<usize>>,
    entry: PhantomData<fn() -> E>,
}

impl<'a, E: VarEntry<'a>> Entries<'a, E> {
    /// The group whose dimension is at `buf[pos..]`, already checked (by
    /// [`skip`](Self::skip), when the entry holding it was wrapped).
    #[doc(hidden)]
    #[inline]
    #[must_use]
    pub fn at(buf: &'a [u8], pos: usize, version: u32) -> Self {
        let dim = E::DIMENSION;
        let (block_length, remaining) = dimension(dim, buf.get(pos..).unwrap_or_default());
        Entries {
            buf,
            pos: pos + dim.len,
            block_length,
            remaining,
            version,
            done: None,
            entry: PhantomData,
        }
    }

    /// The group at `buf[pos..]`, its dimension checked.
    #[doc(hidden)]
    #[inline]
    pub fn head(buf: &'a [u8], pos: usize, version: u32) -> Result<Self> {
        let dim = E::DIMENSION;
        crate::slice(buf, pos, dim.len)?;
        let mut group = Self::at(buf, pos, version);
        group.block_length = check_group(
            group.remaining,
            group.block_length,
            dim.max_count,
            E::required(version),
        )?;
        Ok(group)
    }

    /// The group at `pos` when it is known, its dimension checked here;
    /// empty when it does not check. When the last entry is reached,
    /// where the group ends is stored in `done` (the next section's slot
    /// of a root decoder's cache).
    #[doc(hidden)]
    #[inline]
    pub fn open(
        buf: &'a [u8],
        pos: Result<usize>,
        version: u32,
        done: Option<&'a Cell<usize>>,
    ) -> Self {
        match pos.and_then(|pos| Self::head(buf, pos, version)) {
            Ok(mut group) => {
                if group.remaining == 0 {
                    if let Some(c) = done {
                        c.set(group.pos);
                    }
                } else {
                    group.done = done;
                }
                group
            }
            Err(_) => Entries {
                buf,
                pos: 0,
                block_length: 0,
                remaining: 0,
                version,
                done: None,
                entry: PhantomData,
            },
        }
    }

    /// Checks the group at `buf[pos..]`, every entry of it, and returns
    /// where it ends. A count its entries cannot fit is refused before
    /// any entry is read, as `sbe decode` refuses it.
    #[doc(hidden)]
    #[inline]
    pub fn skip(buf: &'a [u8], pos: usize, version: u32) -> Result<usize> {
        Self::walk(buf, pos, version).map_err(|e| e.at(E::ELEMENT))
    }

    /// [`skip`](Self::skip)'s rule, its errors not yet naming the group
    /// (an entry's nested group or var data names itself first).
    #[inline(always)]
    fn walk(buf: &'a [u8], pos: usize, version: u32) -> Result<usize> {
        let group = Self::head(buf, pos, version)?;
        let min_entry = group.block_length.saturating_add(E::min_tail(version));
        check_entries(buf, group.pos, group.remaining, min_entry)?;
        let mut p = group.pos;
        for _ in 0..group.remaining {
            p = E::wrap_at(buf, p, group.block_length, version)?.end();
        }
        Ok(p)
    }
}

impl<'a, E: VarEntry<'a>> Iterator for Entries<'a, E> {
    type Item = E;

    #[inline]
    fn next(&mut self) -> Option<E> {
        if self.remaining == 0 {
            return None;
        }
        match E::wrap_at(self.buf, self.pos, self.block_length, self.version) {
            Ok(e) => {
                self.pos = e.end();
                self.remaining -= 1;
                if self.remaining == 0 {
                    if let Some(c) = self.done {
                        c.set(self.pos);
                    }
                }
                Some(e)
            }
            Err(_) => {
                self.remaining = 0;
                None
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<'a, E: VarEntry<'a>> ExactSizeIterator for Entries<'a, E> {}

impl<E> Clone for Entries<'_, E> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Entries<'_, E> {}

impl<'a, E: VarEntry<'a> + fmt::Debug> fmt::Debug for Entries<'a, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

impl<'a, E: VarEntry<'a> + Field> List for Entries<'a, E> {
    fn each(&self, f: &mut dyn FnMut(&dyn Field)) {
        for entry in *self {
            f(&entry);
        }
    }
}

/// A group is a field of the block holding it: the list of its entries.
impl<'a, E: VarEntry<'a> + Field> Field for Entries<'a, E> {
    fn value(&self) -> Value<'_> {
        Value::List(self)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::{format, vec::Vec};

    use super::*;
    use crate::wire::Uint;
    use crate::Error;

    const DIM: Dimension = Dimension {
        len: 4,
        block_length: Uint::U16Le(0),
        count: Uint::U16Le(2),
        max_count: 10,
    };

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Fixed(u8);

    impl<'a> BlockEntry<'a> for Fixed {
        const DIMENSION: Dimension = DIM;
        fn required(version: u32) -> usize {
            if version >= 1 {
                2
            } else {
                1
            }
        }
        fn from_block(block: &'a [u8], _: u32) -> Self {
            Fixed(block.first().copied().unwrap_or(0))
        }
    }

    /// An entry of one `uint8` field then var data of a `uint8` length.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Named<'a> {
        id: u8,
        name: &'a [u8],
        end: usize,
    }

    impl<'a> VarEntry<'a> for Named<'a> {
        const DIMENSION: Dimension = DIM;
        fn required(_: u32) -> usize {
            1
        }
        fn min_tail(_: u32) -> usize {
            1
        }
        fn wrap_at(buf: &'a [u8], start: usize, block_length: usize, _: u32) -> Result<Self> {
            let block = crate::slice(buf, start, block_length)?;
            // Var data of a uint8 length, at most 4 bytes.
            let at = start + block_length;
            let len = u64::from(crate::get_u8_le(crate::slice(buf, at, 1)?, 0));
            let (name, end) = crate::__private::codec::var_data(buf, at + 1, len, 4)?;
            Ok(Named {
                id: block.first().copied().unwrap_or(0),
                name,
                end,
            })
        }
        fn end(&self) -> usize {
            self.end
        }
    }

    #[test]
    fn blocks_step_by_the_wire_block_length() {
        let buf = [2, 0, 3, 0, 1, 0xa, 2, 0xb, 3, 0xc, 0xff];
        let (g, end) = Blocks::<Fixed, true>::check(&buf, 0, 0).unwrap();
        assert_eq!(end, 10);
        assert_eq!(g.len(), 3);
        assert_eq!(g.collect::<Vec<_>>(), [Fixed(1), Fixed(2), Fixed(3)]);
        assert_eq!(Blocks::<Fixed, false>::skip(&buf, 0, 0), Ok(10));
    }

    #[test]
    fn blocks_refuse_what_the_rules_refuse() {
        // Count above its maximum.
        let buf = [1, 0, 11, 0];
        assert_eq!(
            Blocks::<Fixed, true>::check(&buf, 0, 0).map(|r| r.1),
            Err(Error::count_out_of_range(11, 10))
        );
        // Block too short for version 1's fields, with an entry to read.
        let buf = [1, 0, 1, 0, 5];
        assert_eq!(
            Blocks::<Fixed, true>::check(&buf, 0, 1).map(|r| r.1),
            Err(Error::block_length_too_short(1, 2))
        );
        // An empty group's short block length is not used, so not refused.
        assert_eq!(Blocks::<Fixed, true>::skip(&[0, 0, 0, 0], 0, 1), Ok(4));
        // Entries that do not fit; a dimension cut off.
        assert!(Blocks::<Fixed, true>::check(&[1, 0, 2, 0, 5], 0, 0).is_err());
        assert!(Blocks::<Fixed, false>::check(&[1, 0, 2], 0, 0).is_err());
    }

    #[test]
    fn open_stores_the_end_or_reads_empty() {
        let buf = [1, 0, 2, 0, 7, 8];
        let done = Cell::new(usize::MAX);
        let g = Blocks::<Fixed, true>::open(&buf, Ok(0), 0, Some(&done));
        assert_eq!((g.count(), done.get()), (2, 6));
        let g = Blocks::<Fixed, true>::open(&buf[..5], Ok(0), 0, Some(&done));
        assert_eq!(g.count(), 0);
        let e = Error::truncated(1, 0);
        assert_eq!(
            Blocks::<Fixed, false>::open(&buf, Err(e), 0, None).count(),
            0
        );
    }

    #[test]
    fn entries_are_checked_as_reached() {
        // Two entries: id 1 "ab", id 2 "" ; then a third claimed.
        let buf = [1, 0, 2, 0, 1, 2, b'a', b'b', 2, 0];
        assert_eq!(Entries::<Named>::skip(&buf, 0, 0), Ok(10));
        let done = Cell::new(usize::MAX);
        let g = Entries::<Named>::open(&buf, Ok(0), 0, Some(&done));
        let names: Vec<_> = g.map(|e| (e.id, e.name)).collect();
        assert_eq!(names, [(1, &b"ab"[..]), (2, &b""[..])]);
        assert_eq!(done.get(), 10);
        assert_eq!(
            format!("{:?}", Entries::<Named>::at(&buf, 0, 0))
                .matches("Named")
                .count(),
            2
        );

        // A var-data length past the end: skip refuses, iteration stops there.
        let cut = &buf[..7];
        assert!(Entries::<Named>::skip(cut, 0, 0).is_err());
        assert_eq!(Entries::<Named>::head(cut, 0, 0).unwrap().count(), 0);
        // The first entry fits, the second does not.
        assert_eq!(Entries::<Named>::head(&buf[..9], 0, 0).unwrap().count(), 1);
        // A count the bytes cannot hold is refused before any entry.
        let lying = [1, 0, 9, 0, 1, 0];
        assert_eq!(
            Entries::<Named>::skip(&lying, 0, 0),
            Err(Error::truncated(22, 6))
        );
    }
}
