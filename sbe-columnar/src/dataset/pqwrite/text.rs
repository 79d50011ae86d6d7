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

    /// The dictionary page's body: each entry PLAIN (length, bytes).
    pub(crate) fn plain(&self, out: &mut Vec<u8>) {
        for e in &self.entries {
            out.extend_from_slice(&(e.len() as u32).to_le_bytes());
            out.extend_from_slice(e);
        }
    }
}
