//! What the command's readers of files and pipes share: the run-time
//! codec's adapters to the readers, from `sbe_capture::decoding` (the
//! Python package reads through the same ones).

pub(crate) use sbe_capture::decoding::{endian, fail, Fail, Undecodable, Undecoded};
