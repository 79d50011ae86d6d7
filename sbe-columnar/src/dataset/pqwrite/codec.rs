//! Page compression, as the `parquet` crate's codecs do it (raw snappy,
//! a zstd frame), one compressor kept for a part's pages.

use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;

/// A part's page compressor.
pub(crate) enum Codec {
    /// Pages as they are.
    None,
    /// Raw (unframed) snappy, and the buffer it compresses into: kept at
    /// the largest page's bound, so that it is zeroed once, not for every
    /// page.
    Snappy(Box<snap::raw::Encoder>, Vec<u8>),
    /// A zstd frame at a level.
    Zstd(Box<zstd::bulk::Compressor<'static>>, ZstdLevel),
}

impl Codec {
    /// The compressor of `compression`.
    pub(crate) fn new(compression: crate::dataset::Compression) -> Result<Codec, ParquetError> {
        use crate::dataset::Compression as C;
        let failed = |e: std::io::Error| ParquetError::General(format!("zstd: {e}"));
        Ok(match compression {
            C::None => Codec::None,
            C::Snappy => Codec::Snappy(Box::new(snap::raw::Encoder::new()), Vec::new()),
            C::Zstd(level) => {
                let l = ZstdLevel::try_new(level)?;
                let z = zstd::bulk::Compressor::new(level).map_err(failed)?;
                Codec::Zstd(Box::new(z), l)
            }
        })
    }

    /// The codec the chunk metadata names.
    pub(crate) fn parquet(&self) -> Compression {
        match self {
            Codec::None => Compression::UNCOMPRESSED,
            Codec::Snappy(..) => Compression::SNAPPY,
            Codec::Zstd(_, l) => Compression::ZSTD(*l),
        }
    }

    /// `body` compressed, in `out` (emptied first).
    pub(crate) fn compress(&mut self, body: &[u8], out: &mut Vec<u8>) -> Result<(), ParquetError> {
        out.clear();
        match self {
            Codec::None => out.extend_from_slice(body),
            Codec::Snappy(e, buf) => {
                let bound = snap::raw::max_compress_len(body.len());
                if buf.len() < bound {
                    buf.resize(bound, 0);
                }
                let n = e
                    .compress(body, buf)
                    .map_err(|e| ParquetError::General(format!("snappy: {e}")))?;
                out.extend_from_slice(buf.get(..n).unwrap_or_default());
            }
            Codec::Zstd(z, _) => {
                // Into `out`'s room, not a vector of its own per page.
                out.reserve(zstd::zstd_safe::compress_bound(body.len()));
                z.compress_to_buffer(body, out)
                    .map_err(|e| ParquetError::General(format!("zstd: {e}")))?;
            }
        }
        Ok(())
    }
}
