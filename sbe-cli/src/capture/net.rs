//! From a captured frame to its UDP datagram or TCP segment, with
//! etherparse: Ethernet (802.1Q / QinQ VLAN tags), Linux cooked capture
//! (SLL and SLL2), raw IP and BSD loopback; IPv4 and IPv6.

use std::fmt;
use std::net::{IpAddr, SocketAddr};

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

/// The datagram or segment in a frame of link type `link`.
pub fn segment(link: u32, data: &[u8]) -> Result<Segment<'_>, Skip> {
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
