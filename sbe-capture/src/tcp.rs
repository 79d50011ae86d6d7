//! TCP reassembly, one direction of a connection at a time: payloads in
//! sequence order become a byte stream; a gap, an overlap or a
//! retransmission is said, never glued over.

use super::net::TcpInfo;

/// Bytes of a direction's stream kept to compare retransmissions with.
const TAIL: usize = 64 * 1024;

/// One direction of a TCP connection (src → dst).
#[derive(Debug, Default)]
pub struct Direction {
    /// Sequence number of the next byte expected.
    next: Option<u32>,
    /// Stream offset of the next byte expected (bytes since the first
    /// payload byte seen, gaps counted).
    offset: u64,
    /// The last bytes of the stream (at most 2 × TAIL, at least TAIL when
    /// the stream is that long), ending at `next`.
    tail: Vec<u8>,
    /// FIN or RST seen.
    closed: bool,
}

/// Bytes of a segment that the stream had before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Old {
    /// How many.
    pub len: usize,
    /// Stream offset of the first.
    pub at: u64,
    /// Whether they equal the first copy (`None`: too old to compare).
    pub same: Option<bool>,
}

/// What one segment does to its direction's stream.
#[derive(Debug, Default)]
pub struct Outcome<'a> {
    /// A SYN opened a new connection on a direction that had one: the
    /// stream starts over.
    pub restart: bool,
    /// Bytes missing before `data` (the stream resumes at `data`).
    pub gap: Option<u64>,
    /// Bytes seen before, dropped (a retransmission, or the overlapping
    /// start of a segment).
    pub old: Option<Old>,
    /// New bytes, in stream order.
    pub data: &'a [u8],
    /// Stream offset of `data`.
    pub at: u64,
    /// The direction was closed (FIN or RST) by this segment.
    pub closed: bool,
}

impl Direction {
    /// Take one segment (its TCP fields and payload).
    pub fn segment<'a>(&mut self, t: TcpInfo, payload: &'a [u8]) -> Outcome<'a> {
        let mut out = Outcome {
            at: self.offset,
            ..Outcome::default()
        };
        let mut seq = t.seq;
        if t.syn {
            seq = seq.wrapping_add(1);
            // A SYN again for the connection seen (bytes sent since its
            // sequence number: a retransmitted SYN) changes nothing.
            let again = self.next.is_some_and(|n| {
                !self.closed && (0..1 << 30).contains(&(n.wrapping_sub(seq) as i32))
            });
            if !again {
                out.restart = self.next.is_some();
                self.next = Some(seq);
                self.offset = 0;
                self.tail.clear();
                self.closed = false;
                out.at = 0;
            }
        }
        let next = *self.next.get_or_insert(seq);
        let d = seq.wrapping_sub(next) as i32;
        let mut data = payload;
        if !payload.is_empty() {
            if d > 0 {
                let gap = d as u64;
                out.gap = Some(gap);
                self.offset += gap;
                self.tail.clear();
            } else if d < 0 {
                let back = d.unsigned_abs() as usize;
                // A keep-alive: one byte (or none) just before the next.
                if back == 1 && payload.len() <= 1 {
                    return out;
                }
                let len = back.min(payload.len());
                let same = self.tail.len().checked_sub(back).and_then(|start| {
                    let first = self.tail.get(start..start + len)?;
                    Some(payload.get(..len) == Some(first))
                });
                out.old = Some(Old {
                    len,
                    at: self.offset.saturating_sub(back as u64),
                    same,
                });
                data = payload.get(len..).unwrap_or_default();
            }
        }
        out.at = self.offset;
        out.data = data;
        if !data.is_empty() {
            self.offset += data.len() as u64;
            self.next = Some(
                next.wrapping_add(d.max(0) as u32)
                    .wrapping_add(data.len() as u32),
            );
            self.tail.extend_from_slice(data);
            if self.tail.len() > 2 * TAIL {
                let cut = self.tail.len() - TAIL;
                self.tail.drain(..cut);
            }
        }
        let end = seq.wrapping_add(payload.len() as u32);
        if !self.closed && (t.rst || (t.fin && self.next == Some(end))) {
            if t.fin {
                self.next = Some(end.wrapping_add(1));
            }
            self.closed = true;
            self.tail = Vec::new();
            out.closed = true;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(seq: u32) -> TcpInfo {
        TcpInfo {
            seq,
            syn: false,
            fin: false,
            rst: false,
        }
    }

    #[test]
    fn in_order_gap_and_retransmission() {
        let mut d = Direction::default();
        let syn = TcpInfo {
            syn: true,
            ..seg(u32::MAX - 2)
        };
        let o = d.segment(syn, b"");
        assert!(!o.restart && o.data.is_empty());
        // Wraps around zero.
        let o = d.segment(seg(u32::MAX - 1), b"abcd");
        assert_eq!((o.data, o.at, o.gap), (&b"abcd"[..], 0, None));
        let o = d.segment(seg(2), b"efgh");
        assert_eq!((o.data, o.at), (&b"efgh"[..], 4));
        // The same bytes again: dropped, said to be the same.
        let o = d.segment(seg(2), b"efgh");
        assert_eq!(o.data, b"");
        assert_eq!(
            o.old,
            Some(Old {
                len: 4,
                at: 4,
                same: Some(true)
            })
        );
        // Overlap with other bytes, then new ones.
        let o = d.segment(seg(4), b"XXij");
        assert_eq!((o.data, o.at), (&b"ij"[..], 8));
        assert_eq!(o.old.map(|o| (o.len, o.same)), Some((2, Some(false))));
        // Three bytes missing.
        let o = d.segment(seg(11), b"nop");
        assert_eq!((o.data, o.at, o.gap), (&b"nop"[..], 13, Some(3)));
        let o = d.segment(seg(14), b"q");
        assert_eq!((o.data, o.at), (&b"q"[..], 16));
        // Keep-alive: ignored.
        let o = d.segment(seg(14), b"\0");
        assert!(o.old.is_none() && o.data.is_empty());
        let fin = TcpInfo {
            fin: true,
            ..seg(15)
        };
        let o = d.segment(fin, b"r");
        assert_eq!(o.data, b"r");
        assert!(o.closed);
        let o = d.segment(fin, b"r");
        assert!(!o.closed && o.data.is_empty());
        assert_eq!(o.old.map(|o| o.same), Some(None));
    }

    #[test]
    fn a_new_syn_restarts() {
        let mut d = Direction::default();
        let o = d.segment(seg(100), b"abc");
        assert_eq!((o.data, o.at), (&b"abc"[..], 0));
        let syn = TcpInfo {
            syn: true,
            ..seg(5000)
        };
        let o = d.segment(syn, b"");
        assert!(o.restart);
        let o = d.segment(seg(5001), b"x");
        assert_eq!((o.data, o.at), (&b"x"[..], 0));
    }
}
