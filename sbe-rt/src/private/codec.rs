//! Small checked helpers that generated decoders and encoders share:
//! stepping over groups and var data, and carving a message's remaining
//! buffer into sections while encoding. None of them panics.
//!
//! ```
//! use sbe_rt::__private::codec::{put_var_data_n, take_zeroed};
//!
//! let mut buf = [9u8; 8];
//! let mut tail: &mut [u8] = &mut buf;
//! take_zeroed::<2>(&mut tail, 2)?[0] = 1;
//! put_var_data_n::<1>(&mut tail, b"ab", 0, |p| p[0] = 2)?;
//! assert_eq!(tail.len(), 3);
//! assert!(take_zeroed::<4>(&mut tail, 4).is_err());
//! assert_eq!(buf, [1, 0, 2, b'a', b'b', 9, 9, 9]);
//! # Ok::<(), sbe_rt::Error>(())
//! ```

use core::fmt;

use crate::error::{slow, Error, Result};

/// `v` as a `usize`, saturating (on 32-bit targets a huge count or length
/// then fails its range check instead of wrapping).
#[inline(always)]
#[must_use]
pub fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Fails with [`ErrorKind::UnknownTemplateId`](crate::ErrorKind::UnknownTemplateId) when the header's template id
/// is not the decoder's.
///
/// ```
/// use sbe_rt::{__private::codec::check_template_id, Error};
///
/// assert_eq!(check_template_id(2, 2), Ok(()));
/// assert_eq!(check_template_id(3, 2), Err(Error::unknown_template_id(3)));
/// ```
#[inline]
pub fn check_template_id(actual: u64, expected: u64) -> Result<()> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::unknown_template_id(actual))
    }
}

/// The error of a section index past a message's last section: a step
/// the generated `match` does not have (never reached: the section cache
/// asks only for the sections there are), reported as bytes missing.
///
/// ```
/// assert!(matches!(
///     sbe_rt::__private::codec::no_section(&[0; 3]).details(),
///     sbe_rt::ErrorDetails::Truncated { available: 3, .. }
/// ));
/// ```
#[inline(always)]
#[must_use]
pub fn no_section(buf: &[u8]) -> Error {
    slow::truncated(usize::MAX, buf.len())
}

/// Fails with [`ErrorKind::BlockLengthTooShort`](crate::ErrorKind::BlockLengthTooShort) when `block_length < required`.
#[inline]
pub fn check_block_length(block_length: usize, required: usize) -> Result<()> {
    if block_length < required {
        Err(Error::block_length_too_short(
            block_length as u64,
            required as u64,
        ))
    } else {
        Ok(())
    }
}

/// Fails with [`ErrorKind::CountOutOfRange`](crate::ErrorKind::CountOutOfRange) when `count > max`.
#[inline]
pub fn check_count(count: usize, max: u64) -> Result<()> {
    if count as u64 > max {
        Err(Error::count_out_of_range(count as u64, max))
    } else {
        Ok(())
    }
}

/// The rule for a group's dimension, the same in generated decoders and in
/// `sbe decode`: the count is at most `max_count`
/// ([`ErrorKind::CountOutOfRange`](crate::ErrorKind::CountOutOfRange)), and when there is an entry to read, the
/// block length on the wire holds the fields of the acting version
/// (`required`; [`ErrorKind::BlockLengthTooShort`](crate::ErrorKind::BlockLengthTooShort)). An empty group's block
/// length is never used, so it is not checked: the reference
/// implementation does not read it either.
///
/// Returns the block length to step by: the one given, or `required` for
/// an empty group whose block length is shorter (no entry is read), so
/// that the caller always holds a block length of at least `required`.
///
/// ```
/// use sbe_rt::{__private::codec::check_group, Error};
///
/// assert_eq!(check_group(2, 9, 10, 8), Ok(9));
/// assert_eq!(check_group(0, 2, 10, 8), Ok(8));
/// assert_eq!(
///     check_group(1, 2, 10, 8),
///     Err(Error::block_length_too_short(2, 8))
/// );
/// assert_eq!(check_group(11, 8, 10, 8), Err(Error::count_out_of_range(11, 10)));
/// ```
#[inline(always)]
pub fn check_group(
    count: usize,
    block_length: usize,
    max_count: u64,
    required: usize,
) -> Result<usize> {
    check_count(count, max_count)?;
    if block_length >= required {
        Ok(block_length)
    } else if count == 0 {
        Ok(required)
    } else {
        Err(Error::block_length_too_short(
            block_length as u64,
            required as u64,
        ))
    }
}

/// The most entries a group whose entries take no bytes at all (no
/// fields, nested groups or var data) may claim: such a count is not
/// bounded by the bytes of the message, so it is bounded here.
pub const MAX_EMPTY_ENTRIES: usize = 1 << 20;

/// The rule for a group's count against the bytes left, the same in
/// generated decoders and in `sbe decode`: `count` entries of at least
/// `min_entry` bytes each must fit in `buf[start..]`
/// ([`ErrorKind::Truncated`](crate::ErrorKind::Truncated)), checked before any entry is read; and entries
/// of no bytes are at most [`MAX_EMPTY_ENTRIES`]
/// ([`ErrorKind::CountOutOfRange`](crate::ErrorKind::CountOutOfRange)).
///
/// ```
/// use sbe_rt::{__private::codec::check_entries, Error};
///
/// assert_eq!(check_entries(&[0; 10], 2, 2, 4), Ok(()));
/// assert_eq!(
///     check_entries(&[0; 10], 2, 3, 4),
///     Err(Error::truncated(14, 10))
/// );
/// assert!(check_entries(&[], 0, 1 << 21, 0).is_err());
/// ```
#[inline]
pub fn check_entries(buf: &[u8], start: usize, count: usize, min_entry: usize) -> Result<()> {
    let need = start.saturating_add(count.saturating_mul(min_entry));
    if need > buf.len() {
        return Err(slow::truncated(need, buf.len()));
    }
    if min_entry == 0 && count > MAX_EMPTY_ENTRIES {
        return Err(Error::count_out_of_range(
            count as u64,
            MAX_EMPTY_ENTRIES as u64,
        ));
    }
    Ok(())
}

/// The rule for a message header's schema id, the same in generated
/// decoders and in `sbe decode`: it must be the schema's
/// ([`ErrorKind::WrongSchemaId`](crate::ErrorKind::WrongSchemaId)).
///
/// ```
/// use sbe_rt::{__private::codec::check_schema_id, Error};
///
/// assert_eq!(check_schema_id(7, 7), Ok(()));
/// assert_eq!(check_schema_id(8, 7), Err(Error::wrong_schema_id(7, 8)));
/// ```
#[inline]
pub fn check_schema_id(actual: u64, expected: u64) -> Result<()> {
    if actual == expected {
        Ok(())
    } else {
        Err(Error::wrong_schema_id(expected, actual))
    }
}

/// `len` as a `u64` when it is at most `max`, else
/// [`ErrorKind::LengthOutOfRange`](crate::ErrorKind::LengthOutOfRange).
#[inline]
pub fn check_length(len: usize, max: u64) -> Result<u64> {
    let n = len as u64;
    if n > max {
        Err(Error::length_out_of_range(n, max))
    } else {
        Ok(n)
    }
}

/// `&buf[offset..offset + N]` as an array, checked.
///
/// ```
/// assert_eq!(sbe_rt::__private::codec::array_at::<2>(&[1, 2, 3], 1), Ok(&[2, 3]));
/// assert!(sbe_rt::__private::codec::array_at::<2>(&[1, 2, 3], 2).is_err());
/// ```
#[inline]
pub fn array_at<const N: usize>(buf: &[u8], offset: usize) -> Result<&[u8; N]> {
    match buf.get(offset..).and_then(<[u8]>::first_chunk::<N>) {
        Some(a) => Ok(a),
        None => Err(slow::truncated(offset.saturating_add(N), buf.len())),
    }
}

/// `&buf[offset..offset + N]` as an array, or `N` zeros when they are not
/// all there: a composite's decoder over its bytes in a block whose
/// length is checked already (the zeros are never read then).
///
/// ```
/// assert_eq!(sbe_rt::__private::codec::array_or_zeros::<2>(&[1, 2, 3], 1), &[2, 3]);
/// assert_eq!(sbe_rt::__private::codec::array_or_zeros::<2>(&[1, 2, 3], 2), &[0, 0]);
/// ```
#[inline(always)]
#[must_use]
pub fn array_or_zeros<const N: usize>(buf: &[u8], offset: usize) -> &[u8; N] {
    match buf.get(offset..).and_then(<[u8]>::first_chunk::<N>) {
        Some(a) => a,
        None => const { &[0; N] },
    }
}

/// The first `N` bytes of the block of `len` bytes at `buf[start..]`, with
/// one check that the whole block (and at least `N` bytes) lies in `buf`.
///
/// ```
/// assert_eq!(sbe_rt::__private::codec::block_at::<2>(&[1, 2, 3, 4], 1, 3), Ok(&[2, 3]));
/// assert!(sbe_rt::__private::codec::block_at::<2>(&[1, 2, 3, 4], 1, 4).is_err());
/// assert!(sbe_rt::__private::codec::block_at::<2>(&[1, 2, 3, 4], 3, 0).is_err());
/// ```
#[inline(always)]
pub fn block_at<const N: usize>(buf: &[u8], start: usize, len: usize) -> Result<&[u8; N]> {
    let need = if len > N { len } else { N };
    match buf.get(start..) {
        Some(b) if b.len() >= need => match b.first_chunk::<N>() {
            Some(a) => Ok(a),
            None => Err(truncated(start, need, buf.len())),
        },
        _ => Err(truncated(start, need, buf.len())),
    }
}

// `extern "C"`, so that a call cannot unwind (see `crate::error`'s cold
// builders): the callers' values stay in registers.
#[cold]
#[inline(never)]
extern "C" fn truncated(start: usize, need: usize, available: usize) -> Error {
    slow::truncated(start.saturating_add(need), available)
}

/// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall), out
/// of line as [`truncated`]: an encoder's output buffer has `available`
/// bytes left where it needs `need`.
#[cold]
#[inline(never)]
extern "C" fn too_small(need: usize, available: usize) -> Error {
    slow::buffer_too_small(need, available)
}

/// An encoder's check that `buf` holds the `need` bytes it writes from its
/// start (a message's `wrap`: the header, the root block and the groups and
/// var data written empty; a composite's): [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall)
/// with the bytes needed, where [`check_len`](crate::check_len) of a
/// decoder's input gives `Truncated`.
///
/// ```
/// use sbe_rt::{Error, ErrorKind};
///
/// assert_eq!(sbe_rt::__private::codec::check_room(&[0; 8], 8), Ok(()));
/// let e = sbe_rt::__private::codec::check_room(&[0; 23], 40).unwrap_err();
/// assert_eq!(e, Error::buffer_too_small(40, 23));
/// assert_eq!(e.error_kind(), ErrorKind::BufferTooSmall);
/// ```
#[inline(always)]
pub fn check_room(buf: &[u8], need: usize) -> Result<()> {
    if need > buf.len() {
        return Err(too_small(need, buf.len()));
    }
    Ok(())
}

/// The end of var data of `len` bytes starting at `start`: checks
/// `len <= max` ([`ErrorKind::LengthOutOfRange`](crate::ErrorKind::LengthOutOfRange)) and that it fits in `buf`
/// ([`ErrorKind::Truncated`](crate::ErrorKind::Truncated)).
#[inline]
pub fn data_end(buf: &[u8], start: usize, len: u64, max: u64) -> Result<usize> {
    if len > max {
        return Err(Error::length_out_of_range(len, max));
    }
    match start.checked_add(to_usize(len)) {
        Some(end) if end <= buf.len() => Ok(end),
        end => Err(slow::truncated(end.unwrap_or(usize::MAX), buf.len())),
    }
}

/// The end of `count` blocks of `block_length` bytes from `start`, checked
/// against `buf`.
#[inline]
pub fn blocks_end(buf: &[u8], start: usize, count: usize, block_length: usize) -> Result<usize> {
    let end = count
        .checked_mul(block_length)
        .and_then(|n| n.checked_add(start))
        .unwrap_or(usize::MAX);
    if end > buf.len() {
        return Err(Error::truncated(end, buf.len()));
    }
    Ok(end)
}

/// Splits `buf` into its first `N` bytes, as an array, and the rest.
#[inline]
pub fn split_array_mut<const N: usize>(buf: &mut [u8]) -> Result<(&mut [u8; N], &mut [u8])> {
    let available = buf.len();
    buf.split_first_chunk_mut::<N>()
        .ok_or_else(|| slow::buffer_too_small(N, available))
}

/// Takes `n` entries of `N` bytes each off `tail` at once, counted as
/// written, provided `tail` holds them and `reserve` bytes after them and
/// the group's `count` has room for them: one check for all of a group's
/// entries where they are of one size (no nested group or var data), as
/// an owned message writes them. Each entry comes zeroed, as
/// [`next_block`] gives it; on an error nothing is taken.
///
/// ```
/// let mut buf = [7u8; 7];
/// let mut tail: &mut [u8] = &mut buf;
/// let mut written = 0;
/// let codec = sbe_rt::__private::codec::next_entries::<3>;
/// assert!(codec(&mut tail, &mut written, 2, 2, 2).is_err()); // 2 × 3 + 2 > 7
/// assert!(codec(&mut tail, &mut written, 1, 2, 0).is_err()); // count 1
/// let entries: Vec<_> = codec(&mut tail, &mut written, 2, 2, 1)
///     .unwrap()
///     .map(|e| e.to_vec())
///     .collect();
/// assert_eq!(entries, [[0, 0, 0], [0, 0, 0]]);
/// assert_eq!((tail.len(), written), (1, 2));
/// ```
#[inline(always)]
pub fn next_entries<'a, const N: usize>(
    tail: &mut &'a mut [u8],
    written: &mut usize,
    count: usize,
    n: usize,
    reserve: usize,
) -> Result<impl Iterator<Item = &'a mut [u8]>> {
    let total = written.saturating_add(n);
    if total > count {
        return Err(Error::count_out_of_range(total as u64, count as u64));
    }
    let available = tail.len();
    let len = n.saturating_mul(N);
    if len.saturating_add(reserve) > available {
        return Err(too_small(len.saturating_add(reserve), available));
    }
    // `len <= available`, checked above: the split always succeeds.
    let Some((entries, rest)) = core::mem::take(tail).split_at_mut_checked(len) else {
        return Err(too_small(len, available));
    };
    *tail = rest;
    *written = total;
    Ok(entries.chunks_exact_mut(N).map(zeroed))
}

/// `block`, zeroed.
#[inline(always)]
fn zeroed(block: &mut [u8]) -> &mut [u8] {
    block.fill(0);
    block
}

/// A group encoder's next entry, where the entries are blocks of `N`
/// bytes (no nested group or var data): the zeroed block taken off `tail`
/// (which holds at least `need` bytes, as [`take_zeroed`] checks) and
/// counted in `written`, which becomes [`OVER_COUNT`] for an entry past
/// `count`. The group's `end()` refuses that ([`check_written`]) before
/// it writes the count and hands on what follows the group, so a message
/// can only be finished with a group whose count holds. One compare per
/// entry, of the room, the count kept without a branch: refusing the
/// entry past the count here, or counting it plainly and checking only at
/// `end()`, made LLVM turn the room into a count of entries by dividing
/// by the entry's size before the loop (`sbe-bench/HISTORY.md`).
///
/// ```
/// use sbe_rt::__private::codec::{next_block, OVER_COUNT};
/// use sbe_rt::Error;
///
/// let mut buf = [7u8; 7];
/// let mut tail: &mut [u8] = &mut buf;
/// let mut written = 0;
/// assert_eq!(next_block::<2>(&mut tail, &mut written, 1, 2), Ok(&mut [0, 0]));
/// assert_eq!(written, 1);
/// assert_eq!(next_block::<2>(&mut tail, &mut written, 1, 2), Ok(&mut [0, 0]));
/// assert_eq!(written, OVER_COUNT);
/// assert_eq!(next_block::<2>(&mut tail, &mut written, 1, 4), Err(Error::buffer_too_small(4, 3)));
/// ```
#[inline(always)]
pub fn next_block<'a, const N: usize>(
    tail: &mut &'a mut [u8],
    written: &mut usize,
    count: usize,
    need: usize,
) -> Result<&'a mut [u8; N]> {
    let block = take_zeroed::<N>(tail, need)?;
    *written = if *written < count {
        *written + 1
    } else {
        OVER_COUNT
    };
    Ok(block)
}

/// What [`next_block`] counts an entry past the group's count as:
/// [`check_written`] refuses it, whatever the count.
pub const OVER_COUNT: usize = usize::MAX;

/// A group encoder's next entry, where entries have nested groups or var
/// data: its zeroed block of `N` bytes (none, for no fields) taken off
/// `tail` (which holds at least `need` bytes) and counted in `written`.
/// The count is checked by the group's `end()` ([`check_written`]), as
/// [`next_block`]'s; counted plainly here, which costs these entries less
/// than `next_block`'s count. `written` cannot wrap: each entry takes a
/// byte at least, its sections' lengths.
///
/// ```
/// use sbe_rt::__private::codec::take_entry;
///
/// let mut buf = [7u8; 3];
/// let mut tail: &mut [u8] = &mut buf;
/// let mut written = 0;
/// assert_eq!(take_entry::<1>(&mut tail, &mut written, 2), Ok(&mut [0]));
/// assert!(take_entry::<1>(&mut tail, &mut written, 3).is_err());
/// assert_eq!((written, tail.len()), (1, 2));
/// ```
#[inline(always)]
pub fn take_entry<'a, const N: usize>(
    tail: &mut &'a mut [u8],
    written: &mut usize,
    need: usize,
) -> Result<&'a mut [u8; N]> {
    let block = take_zeroed::<N>(tail, need)?;
    *written += 1;
    Ok(block)
}

/// A group encoder's `end()`: the entries written are at most the `count`
/// the group was started with, else
/// [`ErrorKind::CountOutOfRange`](crate::ErrorKind::CountOutOfRange) with the
/// entries written (`count + 1` for [`OVER_COUNT`]) and the count.
///
/// ```
/// use sbe_rt::__private::codec::{check_written, OVER_COUNT};
/// use sbe_rt::Error;
///
/// assert_eq!(check_written(2, 2), Ok(()));
/// assert_eq!(check_written(4, 2), Err(Error::count_out_of_range(4, 2)));
/// assert_eq!(check_written(OVER_COUNT, 2), Err(Error::count_out_of_range(3, 2)));
/// ```
#[inline(always)]
pub fn check_written(written: usize, count: usize) -> Result<()> {
    if written > count {
        return Err(over_count(written, count));
    }
    Ok(())
}

/// [`check_written`]'s refusal, out of line.
#[cold]
#[inline(never)]
extern "C" fn over_count(written: usize, count: usize) -> Error {
    let written = if written == OVER_COUNT {
        count.saturating_add(1)
    } else {
        written
    };
    Error::count_out_of_range(written as u64, count as u64)
}

/// Takes the first `N` bytes off `tail` as a zeroed array, provided
/// `tail` holds at least `need` bytes (`need` counts the `N` bytes plus
/// whatever must stay free after them): one capacity check for an entry.
///
/// ```
/// let mut buf = [7u8; 5];
/// let mut tail: &mut [u8] = &mut buf;
/// assert!(sbe_rt::__private::codec::take_zeroed::<2>(&mut tail, 6).is_err());
/// assert_eq!(sbe_rt::__private::codec::take_zeroed::<2>(&mut tail, 5), Ok(&mut [0, 0]));
/// assert_eq!(tail, &mut [7, 7, 7]);
/// ```
#[inline(always)]
pub fn take_zeroed<'a, const N: usize>(
    tail: &mut &'a mut [u8],
    need: usize,
) -> Result<&'a mut [u8; N]> {
    let head = take::<N>(tail, need)?;
    *head = [0; N];
    Ok(head)
}

/// Takes the first `N` bytes off `tail`, as they are, provided `tail`
/// holds at least `need` bytes: [`take_zeroed`] then writes the whole
/// array.
#[inline(always)]
fn take<'a, const N: usize>(tail: &mut &'a mut [u8], need: usize) -> Result<&'a mut [u8; N]> {
    let available = tail.len();
    if need > available || N > available {
        return Err(too_small(if need > N { need } else { N }, available));
    }
    let t = core::mem::take(tail);
    match t.split_first_chunk_mut::<N>() {
        Some((head, rest)) => {
            *tail = rest;
            Ok(head)
        }
        None => Err(too_small(N, available)),
    }
}

/// Copies `bytes` into `buf` at `at`; returns where they end.
///
/// ```
/// let mut buf = [7u8; 4];
/// assert_eq!(sbe_rt::__private::codec::write_at(&mut buf, 1, &[1, 2]), Ok(3));
/// assert!(sbe_rt::__private::codec::write_at(&mut buf, 3, &[1, 2]).is_err());
/// assert_eq!(buf, [7, 1, 2, 7]);
/// ```
#[inline]
pub fn write_at(buf: &mut [u8], at: usize, bytes: &[u8]) -> Result<usize> {
    let available = buf.len();
    let end = at.saturating_add(bytes.len());
    match buf.get_mut(at..end) {
        Some(dst) => {
            dst.copy_from_slice(bytes);
            Ok(end)
        }
        None => Err(too_small(end, available)),
    }
}

/// `tail` without its first `n` bytes; `tail` itself, with an error, when
/// it is shorter. Takes and gives back the tail by value, so an encoder's
/// out-of-line slow path never needs the tail's address.
///
/// ```
/// let mut buf = [1u8, 2, 3];
/// let (rest, done) = sbe_rt::__private::codec::skip_front(&mut buf, 2);
/// assert_eq!((&*rest, done), (&[3][..], Ok(())));
/// let (rest, done) = sbe_rt::__private::codec::skip_front(rest, 2);
/// assert_eq!(rest, &mut [3][..]);
/// assert!(done.is_err());
/// ```
#[inline]
pub fn skip_front(tail: &mut [u8], n: usize) -> (&mut [u8], Result<()>) {
    let available = tail.len();
    if n > available {
        return (tail, Err(too_small(n, available)));
    }
    match tail.split_at_mut_checked(n) {
        Some((_, rest)) => (rest, Ok(())),
        None => (&mut [], Err(too_small(n, available))),
    }
}

/// The exact length of a message or group entry (`exact_length`,
/// `entry_length`): `base`, its header, block and sections written empty,
/// plus what each section adds to that (`parts`: a group's entries, a var
/// data's bytes). Saturating, as the lengths come from the caller: a
/// length past `usize::MAX` is one no buffer holds, which `wrap_exact`
/// then refuses.
///
/// ```
/// use sbe_rt::__private::codec::{blocks_length, entries_length, sum_lengths};
///
/// // Header 8, block 10, one group and one var data written empty (4 + 1):
/// // two entries of 6 bytes, then 5 bytes of text.
/// assert_eq!(sum_lengths(23, &[blocks_length(2, 6), 5]), 40);
/// assert_eq!(entries_length([7, 9]), 16);
/// assert_eq!(sum_lengths(usize::MAX, &[1]), usize::MAX);
/// ```
#[inline]
pub fn sum_lengths(base: usize, parts: &[usize]) -> usize {
    parts.iter().fold(base, |n, &p| n.saturating_add(p))
}

/// What a group of `count` entries of one size (`block` bytes, no nested
/// group or var data) adds to its length written empty ([`sum_lengths`]).
#[inline]
pub const fn blocks_length(count: usize, block: usize) -> usize {
    count.saturating_mul(block)
}

/// What a group whose entries have groups or var data adds to its length
/// written empty ([`sum_lengths`]): the sum of its entries' lengths, each
/// from the group encoder's `entry_length`.
#[inline]
pub fn entries_length(entries: impl IntoIterator<Item = usize>) -> usize {
    entries.into_iter().fold(0, usize::saturating_add)
}

/// `wrap_exact` of a generated message encoder: the first `length` bytes
/// of `buf` (the message's `exact_length`), or
/// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall) with
/// the whole message's length as the bytes needed when `buf` is shorter.
///
/// ```
/// use sbe_rt::{__private::codec::exact, Error};
///
/// let mut buf = [0u8; 40];
/// assert_eq!(exact(&mut buf, 32)?.len(), 32);
/// assert_eq!(exact(&mut buf, 41).unwrap_err(), Error::buffer_too_small(41, 40));
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn exact(buf: &mut [u8], length: usize) -> Result<&mut [u8]> {
    let available = buf.len();
    match buf.get_mut(..length) {
        Some(b) => Ok(b),
        None => Err(too_small(length, available)),
    }
}

/// Writes `bytes` (sections written empty, a stage's skipped ones) at the
/// front of `tail`, which is left after them. The encoders reserve room
/// for every section written empty, so this fails only on a buffer
/// shorter than they reserved.
///
/// ```
/// let mut buf = [9u8; 6];
/// let mut tail: &mut [u8] = &mut buf;
/// sbe_rt::__private::codec::put_empty(&mut tail, &[4, 0, 0, 0, 0])?;
/// assert_eq!(tail.len(), 1);
/// assert!(sbe_rt::__private::codec::put_empty(&mut tail, &[0, 0]).is_err());
/// assert_eq!(buf, [4, 0, 0, 0, 0, 9]);
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline(always)]
pub fn put_empty(tail: &mut &mut [u8], bytes: &[u8]) -> Result<()> {
    let available = tail.len();
    match core::mem::take(tail).split_at_mut_checked(bytes.len()) {
        Some((head, rest)) => {
            head.copy_from_slice(bytes);
            *tail = rest;
            Ok(())
        }
        None => Err(too_small(bytes.len(), available)),
    }
}

/// The step of an entry's encoder while its nested group `element` (its
/// number in the module's `ELEMENTS`) is being written: set when the
/// group's encoder starts, replaced by the step after the group at its
/// `end()`. Left there (the group's encoder dropped before `end()`), it
/// makes [`complete`] refuse the entry, so that a group whose count was
/// never written cannot end up in a finished message.
///
/// ```
/// use sbe_rt::__private::codec::group_open;
///
/// assert_eq!(group_open(0), usize::MAX);
/// assert!(group_open(u16::MAX) > 1 << 16);
/// ```
#[inline(always)]
#[must_use]
pub const fn group_open(element: u16) -> usize {
    usize::MAX - element as usize
}

/// A group entry's sections (its groups and var data, numbered in schema
/// order) from `*step` up to `k`, its last, written `empty` (`empty[s]`:
/// section `s`'s bytes when written empty) at the front of `tail`, which
/// is left after them: what an entry's encoder did not write, when the
/// next entry starts or the group ends.
///
/// With every section written (`*step == k`, the usual case) this is one
/// comparison; the rest is out of line. A step of [`group_open`] (a nested
/// group's encoder dropped before its `end()`) is refused with
/// [`ErrorKind::GroupNotEnded`](crate::ErrorKind::GroupNotEnded), naming the group,
/// and `tail` is left as it is: the group's count was never written.
///
/// ```
/// use sbe_rt::__private::codec::complete;
///
/// // Two sections: a group written empty as its dimension, a var data as its length.
/// const EMPTY: &[&[u8]] = &[&[4, 0, 0, 0], &[0]];
/// let mut buf = [9u8; 6];
/// let mut tail: &mut [u8] = &mut buf;
/// let mut step = 0;
/// complete(&mut step, 2, &mut tail, EMPTY)?; // both written empty
/// assert_eq!((step, tail.len()), (2, 1));
/// complete(&mut step, 2, &mut tail, EMPTY)?; // nothing left
/// // A nested group (element 7) dropped before its `end()`: refused.
/// let mut step = sbe_rt::__private::codec::group_open(7);
/// let e = complete(&mut step, 2, &mut tail, EMPTY).unwrap_err();
/// assert_eq!(e, sbe_rt::Error::group_not_ended().at(7));
/// assert_eq!(tail.len(), 1);
/// assert_eq!(buf, [4, 0, 0, 0, 0, 9]);
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline(always)]
pub fn complete(step: &mut usize, k: usize, tail: &mut &mut [u8], empty: &[&[u8]]) -> Result<()> {
    if *step == k {
        return Ok(());
    }
    let (rest, done) = complete_slow(*step, k, core::mem::take(tail), empty);
    *tail = rest;
    done?;
    *step = k;
    Ok(())
}

/// [`complete`] when sections are left. Takes and returns the tail by
/// value, so that the caller's tail never has its address taken and
/// stays in registers.
#[cold]
#[inline(never)]
fn complete_slow<'a>(
    step: usize,
    k: usize,
    tail: &'a mut [u8],
    empty: &[&[u8]],
) -> (&'a mut [u8], Result<()>) {
    if step > k {
        // `group_open(element)`: the element is what the step falls short of `usize::MAX` by.
        let element = u16::try_from(usize::MAX - step).unwrap_or(0);
        return (tail, Err(Error::group_not_ended().at(element)));
    }
    let mut n = 0;
    for bytes in empty.get(step..k).unwrap_or_default() {
        n = match write_at(tail, n, bytes) {
            Ok(n) => n,
            Err(e) => return (tail, Err(e)),
        };
    }
    skip_front(tail, n)
}

/// Writes var data: a `P`-byte length prefix (zeroed, then filled in by
/// `prefix`) then `data`, taken off the front of `tail`, provided
/// `reserve` bytes stay free after it: one capacity check for all three.
/// The prefix is written before the bytes are copied, so that the
/// compiler drops the zeroing where `prefix` writes every byte (a copy in
/// between kept both stores).
///
/// ```
/// let mut buf = [7u8; 6];
/// let mut tail: &mut [u8] = &mut buf;
/// sbe_rt::__private::codec::put_var_data_n::<2>(&mut tail, b"ab", 1, |p| p[0] = 2)?;
/// assert!(sbe_rt::__private::codec::put_var_data_n::<2>(&mut tail, b"", 1, |_| ()).is_err());
/// assert_eq!(buf, [2, 0, b'a', b'b', 7, 7]);
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn put_var_data_n<const P: usize>(
    tail: &mut &mut [u8],
    data: &[u8],
    reserve: usize,
    prefix: impl FnOnce(&mut [u8; P]),
) -> Result<()> {
    let need = P.saturating_add(data.len()).saturating_add(reserve);
    let available = tail.len();
    if need > available {
        return Err(too_small(need, available));
    }
    let t = core::mem::take(tail);
    let Some((head, rest)) = t.split_first_chunk_mut::<P>() else {
        return Err(too_small(need, available));
    };
    let Some((body, rest)) = rest.split_at_mut_checked(data.len()) else {
        return Err(too_small(need, available));
    };
    *head = [0; P];
    prefix(head);
    body.copy_from_slice(data);
    *tail = rest;
    Ok(())
}

/// The `len` bytes of var data at `buf[start..]` and where they end,
/// checked: `len` at most `max`, every byte in `buf`.
///
/// ```
/// use sbe_rt::__private::codec::var_data;
/// assert_eq!(var_data(b"..abc", 2, 3, 100)?, (&b"abc"[..], 5));
/// assert!(var_data(b"..abc", 2, 4, 100).is_err()); // past the end
/// assert!(var_data(b"..abc", 2, 3, 2).is_err()); // longer than max
/// # Ok::<(), sbe_rt::Error>(())
/// ```
#[inline]
pub fn var_data(buf: &[u8], start: usize, len: u64, max: u64) -> Result<(&[u8], usize)> {
    let end = data_end(buf, start, len, max)?;
    match buf.get(start..end) {
        Some(data) => Ok((data, end)),
        None => Err(truncated(start, end.saturating_sub(start), buf.len())),
    }
}

/// Shows character data in `Debug` output as a quoted string (invalid
/// UTF-8 bytes as `\xNN`), without allocating.
///
/// ```
/// let t = sbe_rt::__private::codec::Text(b"ab\xffc");
/// assert_eq!(format!("{t:?}"), "\"ab\\xffc\"");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Text<'a>(pub &'a [u8]);

impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        f.write_char('"')?;
        for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                for e in c.escape_debug() {
                    f.write_char(e)?;
                }
            }
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        assert!(check_block_length(4, 5).is_err());
        assert!(check_block_length(5, 5).is_ok());
        assert_eq!(check_count(7, 6), Err(Error::count_out_of_range(7, 6)));
        assert_eq!(check_length(3, 3), Ok(3));
        assert!(check_length(4, 3).is_err());
        assert_eq!(data_end(&[0; 10], 2, 8, 100), Ok(10));
        assert!(data_end(&[0; 10], 2, 9, 100).is_err());
        assert!(data_end(&[0; 10], 2, 2, 1).is_err());
        assert!(data_end(&[0; 10], usize::MAX, u64::MAX, u64::MAX).is_err());
        assert_eq!(blocks_end(&[0; 10], 2, 4, 2), Ok(10));
        assert!(blocks_end(&[0; 10], 2, usize::MAX, 2).is_err());
        assert_eq!(to_usize(5), 5);
    }

    #[test]
    fn carving() {
        let mut buf = [7u8; 8];
        let (a, rest) = split_array_mut::<3>(&mut buf).unwrap();
        a.fill(1);
        let mut tail: &mut [u8] = rest;
        let arr = take_zeroed::<2>(&mut tail, 2).unwrap();
        arr.fill(2);
        put_var_data_n::<1>(&mut tail, &[5, 5], 0, |p| p[0] = 2).unwrap();
        assert!(put_var_data_n::<1>(&mut tail, &[], 0, |_| ()).is_err());
        assert!(take_zeroed::<1>(&mut tail, 1).is_err());
        assert!(split_array_mut::<9>(&mut [0u8; 8]).is_err());
        assert_eq!(buf, [1, 1, 1, 2, 2, 2, 5, 5]);
    }
}
