//! A dictionary of a text or binary leaf's values, built here as the
//! crate's writer builds one (each distinct value once, in the order
//! first seen), with the last few distinct values remembered: text in
//! messages mostly repeats a few values, which costs comparisons, not a
//! hash.

use std::collections::HashMap;

use arrow_array::cast::AsArray;
use arrow_array::ArrayRef;
use arrow_schema::DataType;
use parquet::errors::ParquetError;

use super::chunk::Part;
use super::index::Bounds;
use super::rle::bits_for;

/// Bytes of dictionary past which the chunk is left to the crate's
/// writer (which then falls back to PLAIN pages): its default limit.
const DICTIONARY_BYTES: usize = 1024 * 1024;

/// How many of the last distinct values are compared before a lookup.
const RECENT: usize = 4;

/// The offsets and bytes of a `Utf8` or `Binary` leaf.
fn bytes_of(leaf: &ArrayRef) -> Option<(&[i32], &[u8])> {
    match leaf.data_type() {
        DataType::Utf8 => {
            let a = leaf.as_string_opt::<i32>()?;
            Some((a.value_offsets(), a.value_data()))
        }
        DataType::Binary => {
            let a = leaf.as_binary_opt::<i32>()?;
            Some((a.value_offsets(), a.value_data()))
        }
        _ => None,
    }
}

/// A chunk's dictionary of text and each part's keys into it.
pub(crate) struct TextDict<'a> {
    entries: Vec<&'a [u8]>,
    /// Per part, the key of each value present, in order.
    pub keys: Vec<Vec<u32>>,
    /// The bits of a key.
    pub width: u8,
}

impl<'a> TextDict<'a> {
    /// The dictionary of `parts`' values, or `None` when it grows past
    /// the crate's limit.
    pub(crate) fn of(parts: &'a [Part<'a>]) -> Result<Option<TextDict<'a>>, ParquetError> {
        let mut seen: HashMap<&[u8], u32, foldhash::fast::FixedState> = HashMap::default();
        let mut entries: Vec<&[u8]> = Vec::new();
        let mut bytes = 0;
        let mut all_keys = Vec::with_capacity(parts.len());
        let wrong = || ParquetError::General("text leaf".to_string());
        for part in parts {
            let (offsets, data) = bytes_of(&part.path.leaf).ok_or_else(wrong)?;
            let mut keys = Vec::with_capacity(part.levels.values.len());
            // The last few distinct values, compared before a hash: a
            // column of few names (a set's choices, symbols) repeats them
            // in turn, not only one after another.
            let mut recent: [(&[u8], u32); RECENT] = [(&[], u32::MAX); RECENT];
            let mut next_slot = 0;
            for &i in part.levels.values.iter() {
                let (Some(&s), Some(&e)) = (offsets.get(i), offsets.get(i + 1)) else {
                    return Err(wrong());
                };
                let v = data.get(s as usize..e as usize).ok_or_else(wrong)?;
                let hit = recent.iter().find(|(r, k)| *k != u32::MAX && *r == v);
                let key = match hit {
                    Some(&(_, k)) => k,
                    None => {
                        let next = entries.len() as u32;
                        let k = *seen.entry(v).or_insert(next);
                        if k == next {
                            entries.push(v);
                            bytes += v.len() + 4;
                            if bytes > DICTIONARY_BYTES {
                                return Ok(None);
                            }
                        }
                        if let Some(slot) = recent.get_mut(next_slot) {
                            *slot = (v, k);
                        }
                        next_slot = (next_slot + 1) % RECENT;
                        k
                    }
                };
                keys.push(key);
            }
            all_keys.push(keys);
        }
        let width = bits_for(entries.len().saturating_sub(1) as u64);
        Ok(Some(TextDict {
            entries,
            keys: all_keys,
            width,
        }))
    }

    /// Entries.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries, by key.
    pub(crate) fn entries(&self) -> &[&'a [u8]] {
        &self.entries
    }

    /// The dictionary page's body: each entry PLAIN (length, bytes).
    pub(crate) fn plain(&self, out: &mut Vec<u8>) {
        for e in &self.entries {
            out.extend_from_slice(&(e.len() as u32).to_le_bytes());
            out.extend_from_slice(e);
        }
    }
}

/// A chunk's dictionary entries ranked in byte order (the order of a
/// BYTE_ARRAY column's statistics): a page's min and max are then those
/// of its keys' ranks, compared as numbers, not as bytes.
pub(crate) struct Ranks<'a> {
    entries: Vec<&'a [u8]>,
    /// Each entry's rank.
    rank: Vec<u32>,
    /// The entry of each rank.
    by_rank: Vec<u32>,
}

impl<'a> Ranks<'a> {
    /// The ranks of `entries` (by key).
    pub(crate) fn new(entries: Vec<&'a [u8]>) -> Ranks<'a> {
        let mut by_rank: Vec<u32> = (0..entries.len() as u32).collect();
        by_rank.sort_by_key(|&k| entries.get(k as usize).copied().unwrap_or_default());
        let mut rank = vec![0; entries.len()];
        for (r, &k) in by_rank.iter().enumerate() {
            if let Some(slot) = rank.get_mut(k as usize) {
                *slot = r as u32;
            }
        }
        Ranks {
            entries,
            rank,
            by_rank,
        }
    }

    /// The length of the longest entry.
    pub(crate) fn longest(&self) -> usize {
        self.entries.iter().map(|e| e.len()).max().unwrap_or(0)
    }

    /// The bounds of a page of `keys` (none when it has none) and its
    /// values' bytes, unencoded.
    pub(crate) fn page(&self, keys: &[u32]) -> Result<(Option<Bounds>, i64), ParquetError> {
        let wrong = || ParquetError::General("key past the dictionary".to_string());
        let (mut lo, mut hi, mut bytes) = (u32::MAX, 0u32, 0usize);
        for &k in keys {
            let r = *self.rank.get(k as usize).ok_or_else(wrong)?;
            (lo, hi) = (lo.min(r), hi.max(r));
            bytes += self.entries.get(k as usize).map_or(0, |e| e.len());
        }
        if keys.is_empty() {
            return Ok((None, bytes as i64));
        }
        let entry = |r: u32| -> Result<Vec<u8>, ParquetError> {
            let k = *self.by_rank.get(r as usize).ok_or_else(wrong)?;
            Ok(self.entries.get(k as usize).ok_or_else(wrong)?.to_vec())
        };
        let bounds = Bounds {
            min: (i128::from(lo), entry(lo)?),
            max: (i128::from(hi), entry(hi)?),
        };
        Ok((Some(bounds), bytes as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_bounded_by_its_keys_in_byte_order() {
        let entries: Vec<&[u8]> = vec![b"m", b"b", b"zz", b"", b"ba"];
        let r = Ranks::new(entries);
        let (b, bytes) = r.page(&[0, 1, 4, 1]).unwrap();
        let b = b.unwrap();
        assert_eq!(
            (b.min.1.as_slice(), b.max.1.as_slice()),
            (&b"b"[..], &b"m"[..])
        );
        assert_eq!(bytes, 5);
        let (b, _) = r.page(&[3, 2]).unwrap();
        let b = b.unwrap();
        assert_eq!(
            (b.min.1.as_slice(), b.max.1.as_slice()),
            (&b""[..], &b"zz"[..])
        );
        assert_eq!(r.page(&[]).unwrap(), (None, 0));
        assert!(r.page(&[5]).is_err());
        assert_eq!(r.longest(), 2);
    }
}
