//! The framing hint: a message that fails as `raw` at the start of a
//! datagram or stream may be framed after all; when the bytes
//! fit a preset framing (`sbe_framing::guess`), with messages of the
//! schemas given inside, the error says which, once a run.

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
