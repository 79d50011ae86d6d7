//! Which framing bytes are in, when the one given does not fit them.
//!
//! A capture of MDP3 packets read as `raw` fails at every packet, and the
//! error (`wrong schema id 55808`) says nothing of the cause: the 12-byte
//! packet header was read as a message header. [`fitting_preset`] tells
//! which of the preset framings ([`PRESETS`]) frames the bytes instead,
//! each frame's message accepted by the caller (one whose header names a
//! schema it has, and that decodes), so that the error can say what to
//! try.

use crate::{Framing, PacketFormat};

/// The preset framings [`fitting_preset`] tries, in this order: a packet
/// framing first, whose 12-byte header a stream framing would otherwise
/// misread.
pub const PRESETS: [Framing; 3] = [Framing::Mdp3, Framing::Sofh, Framing::SofhLe];

/// What bytes of a preset framing are, in words for a hint (`these look
/// like MDP3 packets`); `None` for `raw` and custom framings.
///
/// ```
/// use sbe_framing::{guess::preset_words, Framing};
///
/// assert_eq!(preset_words(&Framing::Mdp3), Some("MDP3 packets"));
/// assert_eq!(preset_words(&Framing::Raw), None);
/// ```
#[must_use]
pub const fn preset_words(framing: &Framing) -> Option<&'static str> {
    match framing {
        Framing::Mdp3 => Some("MDP3 packets"),
        Framing::Sofh => Some("SOFH frames (Simple Open Framing Header)"),
        Framing::SofhLe => Some("sofh-le frames (iLink 3, B3 EntryPoint)"),
        Framing::Raw | Framing::Custom { .. } => None,
    }
}

/// Frames read from the start of a stream, at most: enough to tell, and
/// the cost stays flat however much is buffered.
const STREAM_FRAMES: usize = 8;

/// What the bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carrier {
    /// One whole datagram (a UDP payload): a packet framing may fit, and
    /// the frames must end where it ends.
    Datagram,
    /// The start of a stream (a file, a TCP direction): only stream
    /// framings fit; the last frame may be cut by the end of the bytes.
    Stream,
}

/// The first framing of [`PRESETS`], other than `current`, that frames
/// `bytes` (a [`Carrier`]) into one or more whole frames, every message
/// in them accepted by `is_message`.
///
/// `None` when none does: the bytes may be of another schema, or of a
/// custom framing (which no guess finds).
///
/// ```
/// use sbe_framing::guess::{fitting_preset, Carrier};
/// use sbe_framing::{Framing, Mdp3PacketHeader};
///
/// // An MDP3 packet of one 4-byte "message" starting with 0x2a.
/// let mut datagram = Mdp3PacketHeader { msg_seq_num: 1, sending_time: 9 }.to_bytes().to_vec();
/// datagram.extend([6, 0, 0x2a, 1, 2, 3]);
/// let is_message = |m: &[u8]| m.first() == Some(&0x2a);
/// assert_eq!(
///     fitting_preset(&datagram, Carrier::Datagram, &Framing::Raw, is_message),
///     Some(Framing::Mdp3)
/// );
/// // The framing given is not suggested again; as a stream nothing fits.
/// assert_eq!(fitting_preset(&datagram, Carrier::Datagram, &Framing::Mdp3, is_message), None);
/// assert_eq!(fitting_preset(&datagram, Carrier::Stream, &Framing::Raw, is_message), None);
/// ```
pub fn fitting_preset(
    bytes: &[u8],
    carrier: Carrier,
    current: &Framing,
    mut is_message: impl FnMut(&[u8]) -> bool,
) -> Option<Framing> {
    PRESETS
        .into_iter()
        .filter(|f| f != current)
        .find(|f| fits(bytes, carrier, f, &mut is_message))
}

/// Whether `framing` frames `bytes` into whole frames of messages.
fn fits(
    bytes: &[u8],
    carrier: Carrier,
    framing: &Framing,
    is_message: &mut impl FnMut(&[u8]) -> bool,
) -> bool {
    let (packet, frame) = match (carrier, framing.packet_format(), framing.frame_format()) {
        (_, _, None) | (Carrier::Stream, Some(_), _) => return false,
        (Carrier::Datagram, Some(PacketFormat { header_len, frame }), _) => (header_len, frame),
        (_, None, Some(frame)) => (0, frame),
    };
    let mut rest = bytes.get(packet..).unwrap_or_default();
    let mut frames = 0;
    while !rest.is_empty() && (carrier == Carrier::Datagram || frames < STREAM_FRAMES) {
        match frame.whole(rest, usize::MAX) {
            Ok(Some((header, message))) => {
                let Some(m) = rest.get(message) else {
                    return false;
                };
                if !is_message(m) {
                    return false;
                }
                frames += 1;
                rest = rest.get(header.padded_len..).unwrap_or_default();
            }
            // Cut short: a datagram's frames must end with it; a stream's
            // last frame may lie beyond the bytes at hand.
            Ok(None) => return carrier == Carrier::Stream && frames > 0,
            Err(_) => return false,
        }
    }
    frames > 0
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use super::*;
    use crate::Mdp3PacketHeader;
    use alloc::vec::Vec;

    /// Messages here: 4 bytes, the first 0x2a.
    fn is_message(m: &[u8]) -> bool {
        m.len() == 4 && m.first() == Some(&0x2a)
    }

    const MESSAGE: [u8; 4] = [0x2a, 1, 2, 3];

    fn sofh(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|_| [0, 0, 0, 10, 0xeb, 0x50].into_iter().chain(MESSAGE))
            .collect()
    }

    #[test]
    fn each_preset_is_found_where_it_fits() {
        let mut mdp3 = Mdp3PacketHeader {
            msg_seq_num: 3,
            sending_time: 1_700_000_000_000_000_000,
        }
        .to_bytes()
        .to_vec();
        for _ in 0..3 {
            mdp3.extend([6, 0]);
            mdp3.extend(MESSAGE);
        }
        let sofh_le: Vec<u8> = [8, 0, 0x50, 0xeb].into_iter().chain(MESSAGE).collect();
        for (bytes, carrier, want) in [
            (&mdp3[..], Carrier::Datagram, Some(Framing::Mdp3)),
            (&mdp3[..], Carrier::Stream, None),
            (&sofh(3)[..], Carrier::Datagram, Some(Framing::Sofh)),
            (&sofh(3)[..], Carrier::Stream, Some(Framing::Sofh)),
            // A stream's last frame may be cut; a datagram's may not.
            (&sofh(3)[..25], Carrier::Stream, Some(Framing::Sofh)),
            (&sofh(3)[..25], Carrier::Datagram, None),
            (&sofh(3)[..5], Carrier::Stream, None),
            (&sofh_le[..], Carrier::Stream, Some(Framing::SofhLe)),
            (&MESSAGE[..], Carrier::Stream, None),
            (&[][..], Carrier::Datagram, None),
        ] {
            assert_eq!(
                fitting_preset(bytes, carrier, &Framing::Raw, is_message),
                want,
                "{bytes:?} {carrier:?}"
            );
        }
        // Frames of messages the caller does not know are not a fit.
        assert_eq!(
            fitting_preset(&mdp3, Carrier::Datagram, &Framing::Raw, |_| false),
            None
        );
        // A long stream is judged by its first frames.
        let mut calls = 0;
        let long = sofh(1000);
        let found = fitting_preset(&long, Carrier::Stream, &Framing::Raw, |m| {
            calls += 1;
            is_message(m)
        });
        assert_eq!((found, calls), (Some(Framing::Sofh), STREAM_FRAMES));
    }
}
