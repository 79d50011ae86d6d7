//! The Thrift compact-protocol encoding of Parquet page headers, the one
//! piece of the format our column chunks need that the `parquet` crate
//! keeps private.

/// Compact-protocol field type of an `i32` (and of an enum).
const I32: u8 = 5;
/// Compact-protocol field type of a struct.
const STRUCT: u8 = 12;

/// `PageType::DATA_PAGE`.
pub(crate) const DATA_PAGE: i32 = 0;
/// `PageType::DICTIONARY_PAGE`.
pub(crate) const DICTIONARY_PAGE: i32 = 2;

/// `Encoding::PLAIN`.
pub(crate) const PLAIN: i32 = 0;
/// `Encoding::RLE` (the levels' hybrid).
pub(crate) const RLE: i32 = 3;
/// `Encoding::DELTA_BINARY_PACKED`.
pub(crate) const DELTA_BINARY_PACKED: i32 = 5;
/// `Encoding::RLE_DICTIONARY`.
pub(crate) const RLE_DICTIONARY: i32 = 8;

/// What a page header says about its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PageKind {
    /// A v1 data page of `num_values` levels in `encoding`, levels RLE.
    Data { num_values: i32, encoding: i32 },
    /// A dictionary page of `num_values` entries, PLAIN.
    Dictionary { num_values: i32 },
}

/// Appends a `PageHeader` to `out`.
pub(crate) fn page_header(out: &mut Vec<u8>, kind: PageKind, uncompressed: i32, compressed: i32) {
    let mut w = Fields::new(out);
    let page_type = match kind {
        PageKind::Data { .. } => DATA_PAGE,
        PageKind::Dictionary { .. } => DICTIONARY_PAGE,
    };
    w.i32(1, page_type);
    w.i32(2, uncompressed);
    w.i32(3, compressed);
    match kind {
        PageKind::Data {
            num_values,
            encoding,
        } => {
            // DataPageHeader: values, encoding, def and rep level encodings.
            w.begin_struct(5);
            let mut d = Fields::new(w.out);
            d.i32(1, num_values);
            d.i32(2, encoding);
            d.i32(3, RLE);
            d.i32(4, RLE);
            d.stop();
        }
        PageKind::Dictionary { num_values } => {
            // DictionaryPageHeader: entries, encoding.
            w.begin_struct(7);
            let mut d = Fields::new(w.out);
            d.i32(1, num_values);
            d.i32(2, PLAIN);
            d.stop();
        }
    }
    w.stop();
}

/// The fields of one struct being written: the compact protocol encodes
/// each field id as the difference from the one before.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
    last: i16,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut Vec<u8>) -> Fields<'a> {
        Fields { out, last: 0 }
    }

    fn header(&mut self, id: i16, ty: u8) {
        let delta = id - self.last;
        if (1..=15).contains(&delta) {
            self.out.push(((delta as u8) << 4) | ty);
        } else {
            self.out.push(ty);
            varint(self.out, zigzag(i64::from(id)));
        }
        self.last = id;
    }

    fn i32(&mut self, id: i16, v: i32) {
        self.header(id, I32);
        varint(self.out, zigzag(i64::from(v)));
    }

    fn begin_struct(&mut self, id: i16) {
        self.header(id, STRUCT);
    }

    fn stop(self) {
        self.out.push(0);
    }
}

/// The zigzag mapping of signed onto unsigned that varints take.
pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Appends `v` as a ULEB128 varint.
pub(crate) fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_and_varint() {
        assert_eq!([zigzag(0), zigzag(-1), zigzag(1), zigzag(-2)], [0, 1, 2, 3]);
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
    }

    #[test]
    fn a_data_page_header() {
        let mut out = Vec::new();
        let kind = PageKind::Data {
            num_values: 3,
            encoding: RLE_DICTIONARY,
        };
        page_header(&mut out, kind, 10, 7);
        // type 0, sizes 10 and 7, then the data page header struct.
        assert_eq!(
            out,
            [0x15, 0, 0x15, 20, 0x15, 14, 0x2c, 0x15, 6, 0x15, 16, 0x15, 6, 0x15, 6, 0, 0]
        );
    }
}
