//! The framing hint: a message that fails as `raw` at the start of a
//! datagram or stream may be framed after all; when the bytes
//! fit a preset framing (`sbe_framing::guess`), with messages of the
//! schemas given inside, the error says which, once a run.

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

use sbe_framing::guess::{fitting_preset, preset_words, Carrier};
use sbe_framing::Framing;
use sbe_otf::multi::Schemas;

/// Failures looked into at most: the guess is cheap, but a capture of
/// other traffic fails at every packet and gives nothing.
const TRIES: u32 = 16;

/// Looks for the framing of the bytes when a message fails at their
/// start, and gives the words for the error once.
pub struct Hint {
    framing: Framing,
    tries: u32,
    found: Option<Framing>,
    said: bool,
}

impl Hint {
    /// For a run with `--framing framing`.
    pub fn new(framing: Framing) -> Self {
        Hint {
            framing,
            tries: 0,
            found: None,
            said: false,
        }
    }

    /// A message failed at the start of `bytes` (a whole datagram, or what
    /// is at hand of a stream from its start): look for a framing that
    /// fits them, unless one was found or the tries are spent.
    pub fn failed_at_start(&mut self, schemas: &Schemas<'_>, bytes: &[u8], carrier: Carrier) {
        // Only `raw` hands over every byte from the start; a framing's
        // message is already past its own header.
        if self.framing != Framing::Raw || self.found.is_some() || self.tries >= TRIES {
            return;
        }
        self.tries += 1;
        self.found = fitting_preset(bytes, carrier, &self.framing, |m| {
            schemas.message_length(m, 0).is_ok_and(|d| d.len <= m.len())
        });
    }

    /// `; these look like MDP3 packets: try --framing mdp3`, the first
    /// time after a framing was found; then `None`.
    pub fn take(&mut self) -> Option<String> {
        if self.said {
            return None;
        }
        let found = self.found?;
        self.said = true;
        let what = preset_words(&found).unwrap_or("frames of it");
        Some(format!("; these look like {what}: try --framing {found}"))
    }
}

/// Bytes of a stream's start kept for the hint: enough for a few frames.
const HEAD: usize = 64 * 1024;

/// A reader that keeps the first bytes it hands on ([`Head::kept`]), so
/// that a message failing at the start of a stream read by a library loop
/// can still be looked into.
pub struct Head<R> {
    inner: R,
    kept: Rc<RefCell<Vec<u8>>>,
}

impl<R: Read> Head<R> {
    pub fn new(inner: R) -> Self {
        Head {
            inner,
            kept: Rc::default(),
        }
    }

    /// The bytes read so far, up to the first 64 KiB.
    pub fn kept(&self) -> Rc<RefCell<Vec<u8>>> {
        Rc::clone(&self.kept)
    }
}

impl<R: Read> Read for Head<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut kept = self.kept.borrow_mut();
        let room = HEAD.saturating_sub(kept.len());
        kept.extend_from_slice(buf.get(..n.min(room)).unwrap_or_default());
        Ok(n)
    }
}

impl Hint {
    /// The first message of a stream failed (`skip` bytes in): look into
    /// what `kept` holds of it.
    pub fn failed_at_stream_start(
        &mut self,
        schemas: &Schemas<'_>,
        kept: &RefCell<Vec<u8>>,
        skip: u64,
    ) {
        let kept = kept.borrow();
        let from = usize::try_from(skip).unwrap_or(usize::MAX);
        if let Some(bytes) = kept.get(from..) {
            self.failed_at_start(schemas, bytes, Carrier::Stream);
        }
    }
}
