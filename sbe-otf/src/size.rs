//! Where a message ends: its header, root block, groups and var data,
//! walked without producing any output (for raw back-to-back framing).

use crate::decode::{DecodeError, Decoded};
use crate::json::NullSink;
use crate::Codec;

impl<'s> Codec<'s> {
    /// The length of the message at the start of `buf` (and its header),
    /// without decoding its values.
    pub fn message_length(&self, buf: &[u8], base: u64) -> Result<Decoded<'s>, DecodeError> {
        if let Some(d) = self.planned::<false>(buf, None, &mut crate::JsonBuf::new()) {
            return Ok(d);
        }
        self.walk(buf, base, None, &mut NullSink)
    }
}
