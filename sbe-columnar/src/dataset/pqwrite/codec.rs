//! Page compression, as the `parquet` crate's codecs do it (raw snappy,
//! a zstd frame), one compressor kept for a part's pages.

use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;

/// A part's page compressor.
pub(crate) enum Codec {
    /// Pages as they are.
    None,
    /// Raw (unframed) snappy.
    Snappy(Box<snap::raw::Encoder>),
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
            C::Snappy => Codec::Snappy(Box::new(snap::raw::Encoder::new())),
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
            Codec::Snappy(_) => Compression::SNAPPY,
            Codec::Zstd(_, l) => Compression::ZSTD(*l),
        }
    }

    /// Appends `body` compressed to `out`.
    pub(crate) fn compress(&mut self, body: &[u8], out: &mut Vec<u8>) -> Result<(), ParquetError> {
        match self {
            Codec::None => out.extend_from_slice(body),
            Codec::Snappy(e) => {
                let at = out.len();
                out.resize(at + snap::raw::max_compress_len(body.len()), 0);
                let slot = out.get_mut(at..).unwrap_or_default();
                let n = e
                    .compress(body, slot)
                    .map_err(|e| ParquetError::General(format!("snappy: {e}")))?;
                out.truncate(at + n);
            }
            Codec::Zstd(z, _) => {
                let packed = z
                    .compress(body)
                    .map_err(|e| ParquetError::General(format!("zstd: {e}")))?;
                out.extend_from_slice(&packed);
            }
        }
        Ok(())
    }
}
