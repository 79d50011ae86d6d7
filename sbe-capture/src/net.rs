//! From a captured frame to its UDP datagram or TCP segment, with
//! etherparse: Ethernet (802.1Q / QinQ VLAN tags), Linux cooked capture
//! (SLL and SLL2), raw IP and BSD loopback; IPv4 and IPv6. The frame of
//! nearly every market data feed, IPv4 UDP in untagged Ethernet, is read
//! here directly, as etherparse reads it.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use etherparse::{EtherType, NetSlice, SlicedPacket, TransportSlice};

/// LINKTYPE_ values of the link layers read.
pub mod link {
    /// BSD loopback: a 4-byte address family in the host's byte order.
    pub const NULL: u32 = 0;
    /// Ethernet II.
    pub const ETHERNET: u32 = 1;
    /// Raw IP (v4 or v6).
    pub const RAW: u32 = 101;
    /// OpenBSD loopback: the family in network byte order.
    pub const LOOP: u32 = 108;
    /// Linux cooked capture v1.
    pub const LINUX_SLL: u32 = 113;
    /// Raw IPv4.
    pub const IPV4: u32 = 228;
    /// Raw IPv6.
    pub const IPV6: u32 = 229;
    /// Linux cooked capture v2.
    pub const LINUX_SLL2: u32 = 276;
}

/// UDP or TCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transport {
    /// UDP: each datagram is a packet.
    Udp,
    /// TCP: a byte stream per direction.
    Tcp,
}

impl Transport {
    /// `udp` or `tcp`.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Udp => "udp",
            Transport::Tcp => "tcp",
        }
    }
}

/// What a TCP segment says besides its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcpInfo {
    /// Sequence number of its first byte (of the SYN when `syn`).
    pub seq: u32,
    /// Opens the connection.
    pub syn: bool,
    /// Closes this direction.
    pub fin: bool,
    /// Resets the connection.
    pub rst: bool,
}

/// A UDP datagram or TCP segment.
#[derive(Debug, Clone, Copy)]
pub struct Segment<'a> {
    /// UDP or TCP.
    pub transport: Transport,
    /// Sender.
    pub src: SocketAddr,
    /// Receiver.
    pub dst: SocketAddr,
    /// The transport payload.
    pub payload: &'a [u8],
    /// TCP's sequence number and flags.
    pub tcp: Option<TcpInfo>,
}

/// Why a frame gives no datagram or segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// A link type not read (its LINKTYPE_ value).
    Link(u32),
    /// Not IP (ARP, LLDP, ...), or IP carrying neither UDP nor TCP.
    Other,
    /// An IP fragment: not reassembled.
    Fragment {
        /// IPv4's identification (0 for IPv6).
        id: u32,
    },
    /// Headers that cannot be read (cut by the snap length, or bad).
    Malformed(String),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Link(l) => write!(
                f,
                "link type {l} is not read (Ethernet, Linux cooked, raw IP and loopback are)"
            ),
            Skip::Other => write!(f, "neither UDP nor TCP over IP"),
            Skip::Fragment { id } => write!(
                f,
                "an IP fragment (identification {id}): fragments are not reassembled, skipped"
            ),
            Skip::Malformed(what) => write!(f, "cannot read its headers: {what}"),
        }
    }
}

/// Ethernet II, then IPv4 with no options and not a fragment, then
/// UDP: the frame of a market data feed. Its datagram, read here where
/// its lengths agree (IPv4's total length covers exactly the UDP length,
/// within the frame), as etherparse reads it; `None` sends every other
/// frame to etherparse, whose general walk of the headers was most of
/// the capture's cost per packet.
fn ethernet_ipv4_udp(data: &[u8]) -> Option<Segment<'_>> {
    let (eth, rest) = data.split_first_chunk::<14>()?;
    let (ip, rest) = rest.split_first_chunk::<20>()?;
    let (udp, _) = rest.split_first_chunk::<8>()?;
    let [.., t0, t1] = *eth;
    let [v, _, l0, l1, _, _, f0, f1, _, proto, _, _, s0, s1, s2, s3, d0, d1, d2, d3] = *ip;
    let [sp0, sp1, dp0, dp1, u0, u1, _, _] = *udp;
    // Ether type IPv4, version 4 with a 20-byte header, not a fragment
    // (more-fragments clear, offset 0), UDP.
    let not_fragment = u16::from_be_bytes([f0, f1]) & 0x3fff == 0;
    if [t0, t1] != [0x08, 0x00] || v != 0x45 || !not_fragment || proto != 17 {
        return None;
    }
    let total = usize::from(u16::from_be_bytes([l0, l1]));
    let len = usize::from(u16::from_be_bytes([u0, u1]));
    if len < udp.len() || total != ip.len() + len {
        return None;
    }
    let payload = data.get(eth.len() + ip.len() + udp.len()..eth.len() + total)?;
    let addr = |a, b, c, d, port| SocketAddr::new(IpAddr::V4(Ipv4Addr::new(a, b, c, d)), port);
    Some(Segment {
        transport: Transport::Udp,
        src: addr(s0, s1, s2, s3, u16::from_be_bytes([sp0, sp1])),
        dst: addr(d0, d1, d2, d3, u16::from_be_bytes([dp0, dp1])),
        payload,
        tcp: None,
    })
}

/// The datagram or segment in a frame of link type `link`.
pub fn segment(link: u32, data: &[u8]) -> Result<Segment<'_>, Skip> {
    if link == link::ETHERNET {
        if let Some(seg) = ethernet_ipv4_udp(data) {
            return Ok(seg);
        }
    }
    sliced(link, data)
}

/// [`segment`], by etherparse.
fn sliced(link: u32, data: &[u8]) -> Result<Segment<'_>, Skip> {
    let sliced = match link {
        link::ETHERNET => SlicedPacket::from_ethernet(data),
        link::LINUX_SLL => SlicedPacket::from_linux_sll(data),
        link::RAW | link::IPV4 | link::IPV6 => SlicedPacket::from_ip(data),
        link::LINUX_SLL2 => {
            // 20 bytes: protocol type (big-endian ether type) first.
            let (Some(&[a, b]), Some(rest)) = (data.get(..2), data.get(20..)) else {
                return Err(Skip::Malformed(format!(
                    "{} bytes, shorter than the 20-byte Linux cooked v2 header",
                    data.len()
                )));
            };
            SlicedPacket::from_ether_type(EtherType(u16::from_be_bytes([a, b])), rest)
        }
        link::NULL | link::LOOP => {
            let (Some(&[a, b, c, d]), Some(rest)) = (data.get(..4), data.get(4..)) else {
                return Err(Skip::Malformed(format!(
                    "{} bytes, shorter than the 4-byte loopback header",
                    data.len()
                )));
            };
            // AF_INET is 2 everywhere; AF_INET6 is 24, 28 or 30. The
            // family is in the capturing host's byte order (NULL).
            let le = u32::from_le_bytes([a, b, c, d]);
            let be = u32::from_be_bytes([a, b, c, d]);
            if ![le, be].iter().any(|f| matches!(f, 2 | 24 | 28 | 30)) {
                return Err(Skip::Other);
            }
            SlicedPacket::from_ip(rest)
        }
        other => return Err(Skip::Link(other)),
    };
    let p = sliced.map_err(|e| Skip::Malformed(e.to_string()))?;
    let (src_ip, dst_ip, fragmented, id) = match &p.net {
        Some(NetSlice::Ipv4(v4)) => {
            let h = v4.header();
            (
                IpAddr::V4(h.source_addr()),
                IpAddr::V4(h.destination_addr()),
                v4.is_payload_fragmented(),
                u32::from(h.identification()),
            )
        }
        Some(NetSlice::Ipv6(v6)) => {
            let h = v6.header();
            (
                IpAddr::V6(h.source_addr()),
                IpAddr::V6(h.destination_addr()),
                v6.is_payload_fragmented(),
                0,
            )
        }
        _ => return Err(Skip::Other),
    };
    if fragmented {
        return Err(Skip::Fragment { id });
    }
    match p.transport {
        Some(TransportSlice::Udp(u)) => Ok(Segment {
            transport: Transport::Udp,
            src: SocketAddr::new(src_ip, u.source_port()),
            dst: SocketAddr::new(dst_ip, u.destination_port()),
            payload: u.payload(),
            tcp: None,
        }),
        Some(TransportSlice::Tcp(t)) => Ok(Segment {
            transport: Transport::Tcp,
            src: SocketAddr::new(src_ip, t.source_port()),
            dst: SocketAddr::new(dst_ip, t.destination_port()),
            payload: t.payload(),
            tcp: Some(TcpInfo {
                seq: t.sequence_number(),
                syn: t.syn(),
                fin: t.fin(),
                rst: t.rst(),
            }),
        }),
        _ => Err(Skip::Other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An Ethernet frame of an IPv4 UDP datagram of `payload`.
    fn frame(payload: &[u8]) -> Vec<u8> {
        let mut f = Vec::new();
        etherparse::PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
            .ipv4([10, 0, 0, 1], [224, 0, 31, 1], 64)
            .udp(9000, 14310)
            .write(&mut f, payload)
            .unwrap();
        f
    }

    fn same(a: &Result<Segment<'_>, Skip>, b: &Result<Segment<'_>, Skip>) -> bool {
        match (a, b) {
            (Ok(a), Ok(b)) => {
                (a.transport, a.src, a.dst, a.payload, a.tcp)
                    == (b.transport, b.src, b.dst, b.payload, b.tcp)
            }
            (Err(a), Err(b)) => a == b,
            _ => false,
        }
    }

    #[test]
    fn the_fast_path_reads_a_datagram_as_etherparse_does() {
        let good = frame(b"sixteen bytes!!!");
        let seg = ethernet_ipv4_udp(&good).expect("the fast path");
        assert_eq!(seg.payload, b"sixteen bytes!!!");
        assert_eq!(seg.src.to_string(), "10.0.0.1:9000");
        assert_eq!(seg.dst.to_string(), "224.0.31.1:14310");
        // Every header byte changed to several values, Ethernet padding,
        // and every cut: what the fast path takes, etherparse reads the
        // same; what it leaves, etherparse alone decides.
        let mut frames = vec![good.clone()];
        for at in 0..42 {
            for v in [0u8, 1, 0x05, 0x11, 0x20, 0x3f, 0x40, 0x45, 0x46, 0x80, 0xff] {
                let mut f = good.clone();
                f[at] = v;
                frames.push(f);
            }
        }
        let mut padded = good.clone();
        padded.extend([0; 6]);
        frames.push(padded);
        frames.extend((0..good.len()).map(|n| good[..n].to_vec()));
        let mut fast = 0;
        for f in &frames {
            let ours = segment(link::ETHERNET, f);
            let theirs = sliced(link::ETHERNET, f);
            assert!(
                same(&ours, &theirs),
                "{f:02x?}: {ours:?} against {theirs:?}"
            );
            fast += usize::from(ethernet_ipv4_udp(f).is_some());
        }
        assert!(fast > 100, "the fast path took {fast} frames");
    }
}
