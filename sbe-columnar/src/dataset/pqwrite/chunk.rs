//! One leaf's column chunk of a row group, encoded here: its pages (a
//! dictionary page first for enum names and text), written with their
//! headers by the `parquet` crate's page writer; the chunk's metadata,
//! statistics, column and offset index, ready for
//! `SerializedRowGroupWriter::append_column`.

use arrow_array::ArrayRef;
use arrow_schema::DataType;
use bytes::Bytes;
use parquet::basic::{Encoding, PageType, SortOrder, Type as PhysicalType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::{ByteArray, FixedLenByteArray};
use parquet::errors::ParquetError;
use parquet::file::metadata::{ColumnChunkMetaData, LevelHistogram, PageEncodingStats};
use parquet::file::page_index::offset_index::{OffsetIndexMetaData, PageLocation};
use parquet::file::properties::WriterProperties;
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use super::codec::Codec;
use super::index::{Bounds, PageIndex, PageLevels};
use super::levels::{Cut, Histograms, LevelVec, Levels, Path};
use super::rle::hybrid;
use super::text::{Ranks, TextDict};
use super::values::{self, Dictionary, MinMax};

/// Bytes of a text value past which its chunk is left to the crate's
/// writer: its default truncation length of statistics and column index
/// (a longer min or max is cut and, for the max, raised), which it alone
/// implements.
const TRUNCATE: usize = 64;

/// How a leaf's values are encoded here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `Dictionary(UInt16, Utf8)`: the Arrow dictionary as the dictionary
    /// page, the keys as RLE_DICTIONARY.
    Dict,
    /// `Utf8` or `Binary`: a dictionary made here, the keys as
    /// RLE_DICTIONARY.
    Text,
    /// INT32, DELTA_BINARY_PACKED.
    Int32,
    /// INT64, DELTA_BINARY_PACKED.
    Int64,
    /// A decimal as FIXED_LEN_BYTE_ARRAY of `len` bytes: DELTA_BYTE_ARRAY
    /// when `prefixed`, else PLAIN.
    Decimal { len: usize, prefixed: bool },
}

impl Kind {
    /// The encoding of `leaf` into `descr`'s column, when it is one of
    /// ours and the one `props` asks for that column (a dictionary or
    /// DELTA_BINARY_PACKED); `None` leaves it to the `parquet` crate.
    /// Floats are the crate's: its PLAIN encoder is as fast, and it
    /// keeps their statistics (NaN and signed zero) by its own rules.
    /// Fixed-length decimals are ours where not a dictionary: the
    /// crate's writer makes a shared buffer of each value, which was a
    /// fifth of the writer's time on MDP3 prices.
    pub(crate) fn of(
        descr: &ColumnDescPtr,
        leaf: &DataType,
        props: &WriterProperties,
    ) -> Option<Kind> {
        use DataType as D;
        let path = descr.path();
        let dictionary = props.dictionary_enabled(path);
        let delta = props.encoding(path) == Some(Encoding::DELTA_BINARY_PACKED);
        let prefixed = props.encoding(path) == Some(Encoding::DELTA_BYTE_ARRAY) && !dictionary;
        let plain = matches!(props.encoding(path), None | Some(Encoding::PLAIN)) && !dictionary;
        match (descr.physical_type(), leaf) {
            (PhysicalType::BYTE_ARRAY, D::Dictionary(k, v))
                if dictionary && **k == D::UInt16 && **v == D::Utf8 =>
            {
                Some(Kind::Dict)
            }
            (PhysicalType::BYTE_ARRAY, D::Utf8 | D::Binary) if dictionary => Some(Kind::Text),
            (
                PhysicalType::INT32,
                D::Int8
                | D::Int16
                | D::Int32
                | D::UInt8
                | D::UInt16
                | D::UInt32
                | D::Date32
                | D::Time32(_)
                | D::Decimal128(..),
            ) if delta => Some(Kind::Int32),
            (
                PhysicalType::INT64,
                D::Int64 | D::UInt64 | D::Timestamp(..) | D::Time64(_) | D::Decimal128(..),
            ) if delta => Some(Kind::Int64),
            (PhysicalType::FIXED_LEN_BYTE_ARRAY, D::Decimal128(..)) if prefixed || plain => {
                let len = usize::try_from(descr.type_length()).ok()?;
                (1..=16)
                    .contains(&len)
                    .then_some(Kind::Decimal { len, prefixed })
            }
            _ => None,
        }
    }

    /// The encoding of the data pages' values.
    fn page_encoding(self) -> Encoding {
        match self {
            Kind::Dict | Kind::Text => Encoding::RLE_DICTIONARY,
            Kind::Int32 | Kind::Int64 => Encoding::DELTA_BINARY_PACKED,
            Kind::Decimal { prefixed: true, .. } => Encoding::DELTA_BYTE_ARRAY,
            Kind::Decimal {
                prefixed: false, ..
            } => Encoding::PLAIN,
        }
    }

    fn text(self) -> bool {
        matches!(self, Kind::Dict | Kind::Text)
    }
}

/// A leaf over one batch of the row group: its path and levels.
pub(crate) struct Part<'a> {
    /// The way to the leaf.
    pub path: &'a Path,
    /// Its levels over the batch.
    pub levels: Levels,
}

/// A part file's compressor and the page buffers its chunks reuse.
pub(crate) struct Scratch {
    codec: Codec,
    body: Vec<u8>,
    packed: Vec<u8>,
    /// Per leaf, the row groups left whose chunks are stored uncompressed
    /// without trying: its chunk's first page did not pay lately.
    untried: Vec<u8>,
}

/// Row groups after one whose first page did not shrink by a tenth that
/// are not tried again: a column's values keep their kind from row group
/// to row group (prices that do not repeat, bit-packed keys), and the try
/// compressed a page for nothing.
const UNTRIED: u8 = 7;

impl Scratch {
    /// Buffers for pages compressed by `codec`.
    pub(crate) fn new(codec: Codec) -> Scratch {
        Scratch {
            codec,
            body: Vec::new(),
            packed: Vec::new(),
            untried: Vec::new(),
        }
    }

    /// Whether the chunk of leaf `leaf` is to be stored uncompressed
    /// without trying (counting the row group off).
    fn skip_try(&mut self, leaf: usize) -> bool {
        match self.untried.get_mut(leaf) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    /// Records whether the chunk of leaf `leaf` paid to be compressed.
    fn tried(&mut self, leaf: usize, paid: bool) {
        if self.untried.len() <= leaf {
            self.untried.resize(leaf + 1, 0);
        }
        if let Some(n) = self.untried.get_mut(leaf) {
            *n = if paid { 0 } else { UNTRIED };
        }
    }
}

/// The chunk being written: its bytes and what the metadata records.
struct Chunk<'a> {
    kind: Kind,
    /// Its leaf's number in the schema.
    leaf: usize,
    scratch: &'a mut Scratch,
    /// The chunk's bytes, as the crate's page writer writes them.
    sink: TrackedWrite<Vec<u8>>,
    uncompressed: usize,
    levels: usize,
    pages: Vec<PageLocation>,
    /// Each data page's text bytes, unencoded (text only).
    page_bytes: Vec<i64>,
    /// Pages by type and encoding, in file order.
    encoding_stats: Vec<PageEncodingStats>,
    min_max: MinMax,
    /// The text's min and max so far (text with statistics only).
    text_bounds: Option<Bounds>,
    /// Values (levels that are not null) so far.
    values: usize,
    /// Rows of the parts so far.
    rows: usize,
    /// The column index and level histograms, where statistics are kept.
    index: Option<PageIndex>,
    /// Whether the chunk's pages are compressed: decided by its first
    /// data page (`None` until then).
    compressed: Option<bool>,
    /// The dictionary page's body and values, held until that decision.
    dict_page: Option<(Vec<u8>, u32)>,
    /// Where the data pages start.
    data_offset: usize,
}

/// A chunk's dictionary: an Arrow one (enum names) or one made here.
enum Dict<'a> {
    None,
    Arrow(Dictionary),
    Text(TextDict<'a>),
}

impl Dict<'_> {
    fn width(&self) -> u8 {
        match self {
            Dict::None => 0,
            Dict::Arrow(d) => d.width,
            Dict::Text(t) => t.width,
        }
    }

    /// The entries, by key (none for numbers).
    fn entries(&self) -> Vec<&[u8]> {
        match self {
            Dict::None => Vec::new(),
            Dict::Arrow(d) => d.entries(),
            Dict::Text(t) => t.entries().to_vec(),
        }
    }
}

/// Encodes the chunk of `descr`'s leaf (number `leaf` in the schema)
/// over `parts` (the row group's batches, in order), with statistics, a
/// column index and level histograms when `stats`; `None` for a
/// dictionary that would be too large or a text value too long, which
/// the crate's writer then takes.
pub(crate) fn encode<'a>(
    descr: &ColumnDescPtr,
    leaf: usize,
    kind: Kind,
    parts: &'a [Part<'a>],
    stats: bool,
    scratch: &mut Scratch,
) -> Result<Option<(Bytes, ColumnCloseResult)>, ParquetError> {
    let unsigned = descr.sort_order() == SortOrder::UNSIGNED;
    let mut chunk = Chunk {
        kind,
        leaf,
        scratch,
        sink: TrackedWrite::new(Vec::new()),
        uncompressed: 0,
        levels: 0,
        pages: Vec::new(),
        page_bytes: Vec::new(),
        encoding_stats: Vec::new(),
        min_max: MinMax::new(unsigned, stats),
        text_bounds: None,
        values: 0,
        rows: 0,
        index: stats.then(|| PageIndex::new(descr.physical_type())),
        compressed: None,
        dict_page: None,
        data_offset: 0,
    };
    let Some(dict) = chunk.dictionary(parts)? else {
        return Ok(None);
    };
    let ranks = Ranks::new(dict.entries());
    if ranks.longest() > TRUNCATE {
        return Ok(None);
    }
    for (n, part) in parts.iter().enumerate() {
        chunk.part(part, n, &dict, &ranks)?;
    }
    let has_dict = !matches!(dict, Dict::None);
    chunk.finish(descr, has_dict).map(Some)
}

/// The levels and values of one data page.
struct PageSpan<'a> {
    part: &'a Part<'a>,
    /// Its number in the part.
    page: usize,
    cut: Cut,
    next: Cut,
    base: u32,
    width: u8,
    /// The page's keys, for text.
    keys: Option<&'a [u32]>,
    /// The chunk's dictionary entries in order, for text.
    ranks: &'a Ranks<'a>,
}

/// What a page is, for its header.
#[derive(Debug, Clone, Copy)]
enum PageKind {
    /// A data page of this many levels.
    Data(u32),
    /// A dictionary page of this many entries.
    Dictionary(u32),
}

impl Chunk<'_> {
    /// The chunk's dictionary, its page held; `None` when it would be
    /// too large.
    fn dictionary<'p>(&mut self, parts: &'p [Part<'p>]) -> Result<Option<Dict<'p>>, ParquetError> {
        let dict = match self.kind {
            Kind::Dict => {
                let leaves: Vec<&ArrayRef> = parts.iter().map(|p| &p.path.leaf).collect();
                let Some(dict) = Dictionary::of(&leaves)? else {
                    return Ok(None);
                };
                let mut body = Vec::new();
                dict.plain(&mut body);
                self.dict_page = Some((body, to_u32(dict.len)?));
                Dict::Arrow(dict)
            }
            Kind::Text => {
                let Some(t) = TextDict::of(parts)? else {
                    return Ok(None);
                };
                let mut body = Vec::new();
                t.plain(&mut body);
                self.dict_page = Some((body, to_u32(t.len())?));
                Dict::Text(t)
            }
            Kind::Int32 | Kind::Int64 | Kind::Decimal { .. } => Dict::None,
        };
        Ok(Some(dict))
    }

    /// The data pages of part `n`.
    fn part(
        &mut self,
        part: &Part<'_>,
        n: usize,
        dict: &Dict<'_>,
        ranks: &Ranks<'_>,
    ) -> Result<(), ParquetError> {
        let base = match dict {
            Dict::Arrow(d) => d.bases.get(n).copied().unwrap_or(0),
            _ => 0,
        };
        let keys = match dict {
            Dict::Text(t) => t.keys.get(n),
            _ => None,
        };
        let cuts = &part.levels.cuts;
        let end = Cut {
            row: part.path.rows(),
            level: part.levels.len,
            value: part.levels.values.len(),
        };
        for (i, &cut) in cuts.iter().enumerate() {
            let next = cuts.get(i + 1).copied().unwrap_or(end);
            let page = PageSpan {
                part,
                page: i,
                cut,
                next,
                base,
                width: dict.width(),
                keys: keys.and_then(|k| k.get(cut.value..next.value)),
                ranks,
            };
            self.data_page(&page)?;
        }
        self.rows += end.row;
        Ok(())
    }

    fn data_page(&mut self, page: &PageSpan<'_>) -> Result<(), ParquetError> {
        let levels = &page.part.levels;
        let path = page.part.path;
        let (from, to) = (page.cut.level, page.next.level);
        self.scratch.body.clear();
        let cuts = levels.cuts.as_slice();
        if path.max_rep > 0 {
            let blocks = levels.rep.blocks(cuts, levels.len, path.max_rep);
            let block = blocks.get(page.page).map_or(&[][..], Vec::as_slice);
            self.scratch.body.extend_from_slice(block);
        }
        if path.max_def > 0 {
            let blocks = levels.def.blocks(cuts, levels.len, path.max_def);
            let block = blocks.get(page.page).map_or(&[][..], Vec::as_slice);
            self.scratch.body.extend_from_slice(block);
        }
        let idx = levels
            .values
            .get(page.cut.value..page.next.value)
            .unwrap_or_default();
        let leaf = &path.leaf;
        self.values += idx.len();
        let stats = self.index.is_some();
        let bounds = match self.kind {
            Kind::Dict | Kind::Text => {
                let own;
                let keys = match self.kind {
                    Kind::Dict => {
                        own = values::keys(leaf, idx, page.base)?;
                        own.as_slice()
                    }
                    _ => page.keys.unwrap_or_default(),
                };
                self.scratch.body.push(page.width);
                hybrid(&mut self.scratch.body, keys, page.width);
                let (bounds, bytes) = page.ranks.page(keys)?;
                self.page_bytes.push(bytes);
                bounds
            }
            Kind::Int32 | Kind::Int64 => {
                let m = &mut self.min_max;
                match self.kind {
                    Kind::Int32 => values::int32(leaf, idx, &mut self.scratch.body, m)?,
                    _ => values::int64(leaf, idx, &mut self.scratch.body, m)?,
                }
                let physical = path_physical(self.kind);
                m.last.filter(|_| stats).map(|b| Bounds::int(physical, b))
            }
            Kind::Decimal { len, prefixed } => {
                let m = &mut self.min_max;
                values::decimal(leaf, idx, (len, prefixed), &mut self.scratch.body, m)?;
                m.last.filter(|_| stats).map(|b| Bounds::decimal(len, b))
            }
        };
        if let Some(index) = self.index.as_mut() {
            // Counted once per page for the leaves that share levels.
            let count =
                |v: &LevelVec, max: u16| (max > 0).then(|| v.histograms(cuts, levels.len, max));
            let (def, rep) = (
                count(&levels.def, path.max_def),
                count(&levels.rep, path.max_rep),
            );
            fn page_of(h: &Option<Histograms>, page: usize) -> Option<&[i64]> {
                h.as_ref().and_then(|h| h.get(page)).map(Vec::as_slice)
            }
            let page_levels = PageLevels {
                def: page_of(&def, page.page),
                rep: page_of(&rep, page.page),
            };
            index.page(to - from - idx.len(), bounds.as_ref(), &page_levels);
            if self.kind.text() {
                if let Some(b) = &bounds {
                    match self.text_bounds.as_mut() {
                        Some(t) => t.merge(b),
                        None => self.text_bounds = Some(b.clone()),
                    }
                }
            }
        }
        self.decide()?;
        let spec = self.page(PageKind::Data(to_u32(to - from)?))?;
        self.levels += to - from;
        self.pages.push(PageLocation {
            offset: spec.0 as i64,
            compressed_page_size: to_i32(spec.1)?,
            first_row_index: (self.rows + page.cut.row) as i64,
        });
        Ok(())
    }

    /// Whether the chunk's pages are compressed, decided by the first
    /// data page (its body in `scratch.body`, compressed into
    /// `scratch.packed` here): only where the codec takes a tenth off it.
    /// Bit-packed keys, levels and deltas of values that do not repeat
    /// hardly shrink, and compressing them was most of the codec's time.
    /// A leaf whose chunk did not pay is stored uncompressed, untried, for
    /// the next [`UNTRIED`] row groups. The dictionary page, held until
    /// now, goes first.
    fn decide(&mut self) -> Result<(), ParquetError> {
        if self.compressed.is_some() {
            return Ok(());
        }
        let none = matches!(self.scratch.codec, Codec::None);
        let compressed = if none || self.scratch.skip_try(self.leaf) {
            false
        } else {
            self.scratch
                .codec
                .compress(&self.scratch.body, &mut self.scratch.packed)?;
            let paid = self.scratch.packed.len() * 10 <= self.scratch.body.len() * 9;
            self.scratch.tried(self.leaf, paid);
            paid
        };
        self.compressed = Some(compressed);
        self.start_data()
    }

    /// Writes the dictionary page held (the chunk's compression decided)
    /// and marks where the data pages start; the page buffers, which may
    /// hold the first data page, are kept.
    fn start_data(&mut self) -> Result<(), ParquetError> {
        if let Some((body, num_values)) = self.dict_page.take() {
            let data = std::mem::replace(&mut self.scratch.body, body);
            let packed = std::mem::take(&mut self.scratch.packed);
            self.page(PageKind::Dictionary(num_values))?;
            (self.scratch.body, self.scratch.packed) = (data, packed);
        }
        self.data_offset = self.sink.bytes_written();
        Ok(())
    }

    /// Writes the page in `scratch.body` through the crate's page
    /// writer, compressed where the chunk's pages are; gives where it
    /// starts in the chunk and its size, header included.
    fn page(&mut self, kind: PageKind) -> Result<(u64, usize), ParquetError> {
        let compressed = self.compressed.unwrap_or(false);
        // The first data page's was compressed when deciding.
        let first_data = matches!(kind, PageKind::Data(_)) && self.pages.is_empty();
        if compressed && !first_data {
            self.scratch
                .codec
                .compress(&self.scratch.body, &mut self.scratch.packed)?;
        }
        let body = if compressed {
            &self.scratch.packed
        } else {
            &self.scratch.body
        };
        let buf = Bytes::copy_from_slice(body);
        let (page, page_type, encoding) = match kind {
            PageKind::Data(num_values) => {
                let encoding = self.kind.page_encoding();
                let page = Page::DataPage {
                    buf,
                    num_values,
                    encoding,
                    def_level_encoding: Encoding::RLE,
                    rep_level_encoding: Encoding::RLE,
                    statistics: None,
                };
                (page, PageType::DATA_PAGE, encoding)
            }
            PageKind::Dictionary(num_values) => {
                let page = Page::DictionaryPage {
                    buf,
                    num_values,
                    encoding: Encoding::PLAIN,
                    is_sorted: false,
                };
                (page, PageType::DICTIONARY_PAGE, Encoding::PLAIN)
            }
        };
        let page = CompressedPage::new(page, self.scratch.body.len());
        let spec = SerializedPageWriter::new(&mut self.sink).write_page(page)?;
        self.uncompressed += spec.uncompressed_size;
        match self.encoding_stats.last_mut() {
            Some(s) if s.page_type == page_type && s.encoding == encoding => s.count += 1,
            _ => self.encoding_stats.push(PageEncodingStats {
                page_type,
                encoding,
                count: 1,
            }),
        }
        Ok((spec.offset, spec.compressed_size))
    }

    fn finish(
        mut self,
        descr: &ColumnDescPtr,
        has_dict: bool,
    ) -> Result<(Bytes, ColumnCloseResult), ParquetError> {
        if self.compressed.is_none() {
            // No data page came to decide: the dictionary as it is.
            self.compressed = Some(false);
            self.start_data()?;
        }
        let data_offset = self.data_offset;
        let nulls = (self.levels - self.values) as u64;
        let compression = match self.compressed {
            Some(true) => self.scratch.codec.parquet(),
            _ => parquet::basic::Compression::UNCOMPRESSED,
        };
        let out = self.sink.into_inner()?;
        // The levels' encoding is always named, as the crate does.
        let mut encodings = vec![Encoding::RLE, self.kind.page_encoding()];
        if has_dict {
            encodings.push(Encoding::PLAIN);
        }
        let text = self.kind.text();
        let mut meta = ColumnChunkMetaData::builder(descr.clone())
            .set_compression(compression)
            .set_encodings(encodings)
            .set_page_encoding_stats(self.encoding_stats)
            .set_total_compressed_size(out.len() as i64)
            .set_total_uncompressed_size(self.uncompressed as i64)
            .set_num_values(self.levels as i64)
            .set_data_page_offset(data_offset as i64)
            .set_dictionary_page_offset(has_dict.then_some(0));
        let column_index = match self.index.as_mut() {
            Some(index) => {
                let stats = match self.kind {
                    Kind::Dict | Kind::Text => text_statistics(self.text_bounds.take(), nulls),
                    Kind::Int32 | Kind::Int64 => statistics(descr, &self.min_max, nulls),
                    Kind::Decimal { len, .. } => {
                        decimal_statistics(descr, len, &self.min_max, nulls)
                    }
                };
                let bytes = text.then(|| self.page_bytes.iter().sum());
                meta = meta
                    .set_statistics(stats)
                    .set_unencoded_byte_array_data_bytes(bytes)
                    .set_repetition_level_histogram(index.rep.take().map(LevelHistogram::from))
                    .set_definition_level_histogram(index.def.take().map(LevelHistogram::from));
                Some(index.finish()?)
            }
            None => None,
        };
        let close = ColumnCloseResult {
            bytes_written: out.len() as u64,
            rows_written: self.rows as u64,
            metadata: meta.build()?,
            bloom_filter: None,
            column_index,
            offset_index: Some(OffsetIndexMetaData {
                page_locations: self.pages,
                unencoded_byte_array_data_bytes: text.then_some(self.page_bytes),
            }),
        };
        Ok((Bytes::from(out), close))
    }
}

/// The physical type of a number kind's column.
fn path_physical(kind: Kind) -> PhysicalType {
    match kind {
        Kind::Int32 => PhysicalType::INT32,
        _ => PhysicalType::INT64,
    }
}

/// The chunk's min and max as the crate records them: in the column's
/// sort order, min/max backwards compatible only when signed.
fn statistics(descr: &ColumnDescPtr, m: &MinMax, nulls: u64) -> Statistics {
    let signed = descr.sort_order().is_signed();
    match descr.physical_type() {
        PhysicalType::INT32 => {
            let (min, max) = m.int32();
            ValueStatistics::<i32>::new(min, max, None, Some(nulls), false)
                .with_backwards_compatible_min_max(signed)
                .into()
        }
        _ => {
            let (min, max) = m.int64();
            ValueStatistics::<i64>::new(min, max, None, Some(nulls), false)
                .with_backwards_compatible_min_max(signed)
                .into()
        }
    }
}

/// A decimal chunk's min and max as the crate records them: its values'
/// order (signed), their FIXED_LEN_BYTE_ARRAY bytes.
fn decimal_statistics(descr: &ColumnDescPtr, len: usize, m: &MinMax, nulls: u64) -> Statistics {
    let signed = descr.sort_order().is_signed();
    let (min, max) = m.int128();
    let bytes =
        |v: Option<i128>| v.map(|v| FixedLenByteArray::from(Bounds::decimal(len, (v, v)).min.1));
    ValueStatistics::<FixedLenByteArray>::new(bytes(min), bytes(max), None, Some(nulls), false)
        .with_backwards_compatible_min_max(signed)
        .into()
}

/// A text chunk's min and max as the crate records them (byte order, so
/// not backwards compatible).
fn text_statistics(bounds: Option<Bounds>, nulls: u64) -> Statistics {
    let (min, max) = match bounds {
        Some(b) => (
            Some(ByteArray::from(b.min.1)),
            Some(ByteArray::from(b.max.1)),
        ),
        None => (None, None),
    };
    ValueStatistics::<ByteArray>::new(min, max, None, Some(nulls), false)
        .with_backwards_compatible_min_max(false)
        .into()
}

fn to_i32(n: usize) -> Result<i32, ParquetError> {
    i32::try_from(n).map_err(|_| ParquetError::General(format!("page of {n} bytes")))
}

fn to_u32(n: usize) -> Result<u32, ParquetError> {
    u32::try_from(n).map_err(|_| ParquetError::General(format!("page of {n} values")))
}
