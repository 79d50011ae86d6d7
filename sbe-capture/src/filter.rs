//! Filters: which datagrams and segments of a capture are decoded (the
//! `sbe` command's `--filter`).
//!
//! A packet must match every term given:
//!
//! | term | matches |
//! |---|---|
//! | `udp`, `tcp` | that transport |
//! | `port=N[,N...]` | either port is one of them |
//! | `host=IP` | either address is IP |
//! | `IP:PORT`, `[IPv6]:PORT` | either endpoint is it |
//! | `src=IP[:PORT]`, `dst=IP[:PORT]` | the sender / the receiver |

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use super::net::{Segment, Transport};

/// An address, with or without a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addr {
    /// Any port.
    Ip(IpAddr),
    /// This port.
    Socket(SocketAddr),
}

impl Addr {
    fn matches(self, a: SocketAddr) -> bool {
        match self {
            Addr::Ip(ip) => a.ip() == ip,
            Addr::Socket(s) => a == s,
        }
    }
}

impl FromStr for Addr {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        if let Ok(a) = s.parse::<SocketAddr>() {
            return Ok(Addr::Socket(a));
        }
        let ip = s
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .unwrap_or(s);
        ip.parse::<IpAddr>().map(Addr::Ip).map_err(|_| ())
    }
}

/// One filter term, parsed from the text in the table above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// `udp` or `tcp`.
    Transport(Transport),
    /// `port=N,...`: either port.
    Port(Vec<u16>),
    /// `host=IP`, `IP:PORT`: either end.
    Either(Addr),
    /// `src=...`.
    Src(Addr),
    /// `dst=...`.
    Dst(Addr),
}

/// What a filter term may be, in words, for error messages and help.
pub const SYNTAX: &str =
    "udp, tcp, port=N[,N...], host=IP, IP:PORT ([IPv6]:PORT), src=IP[:PORT], dst=IP[:PORT]";

/// Text that is no filter term.
///
/// ```
/// use sbe_capture::Term;
///
/// let e = "sctp".parse::<Term>().unwrap_err();
/// assert_eq!(e.term, "sctp");
/// assert!(e.to_string().starts_with("bad filter term \"sctp\": expected one of udp, tcp"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTerm {
    /// The text as given.
    pub term: String,
}

impl std::fmt::Display for BadTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bad filter term {:?}: expected one of {SYNTAX}",
            self.term
        )
    }
}

impl std::error::Error for BadTerm {}

impl FromStr for Term {
    type Err = BadTerm;
    fn from_str(s: &str) -> Result<Self, BadTerm> {
        let bad = || BadTerm {
            term: s.to_string(),
        };
        let addr = |v: &str| v.parse::<Addr>().map_err(|_| bad());
        let t = s.trim();
        match t.to_ascii_lowercase().as_str() {
            "udp" => return Ok(Term::Transport(Transport::Udp)),
            "tcp" => return Ok(Term::Transport(Transport::Tcp)),
            _ => {}
        }
        if let Some((k, v)) = t.split_once('=') {
            return match k.trim() {
                "port" => v
                    .split(',')
                    .map(|p| p.trim().parse::<u16>().map_err(|_| bad()))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Term::Port),
                "host" => match v.trim().parse::<Addr>() {
                    Ok(a @ Addr::Ip(_)) => Ok(Term::Either(a)),
                    _ => Err(bad()),
                },
                "src" => addr(v.trim()).map(Term::Src),
                "dst" => addr(v.trim()).map(Term::Dst),
                _ => Err(bad()),
            };
        }
        match t.parse::<SocketAddr>() {
            Ok(a) => Ok(Term::Either(Addr::Socket(a))),
            Err(_) => Err(bad()),
        }
    }
}

impl Term {
    /// Whether `s` matches.
    pub fn matches(&self, s: &Segment<'_>) -> bool {
        match self {
            Term::Transport(t) => s.transport == *t,
            Term::Port(ports) => ports
                .iter()
                .any(|&p| s.src.port() == p || s.dst.port() == p),
            Term::Either(a) => a.matches(s.src) || a.matches(s.dst),
            Term::Src(a) => a.matches(s.src),
            Term::Dst(a) => a.matches(s.dst),
        }
    }
}

/// Every term must match.
pub fn matches(terms: &[Term], s: &Segment<'_>) -> bool {
    terms.iter().all(|t| t.matches(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(t: Transport, src: &str, dst: &str) -> Segment<'static> {
        Segment {
            transport: t,
            src: src.parse().expect("src"),
            dst: dst.parse().expect("dst"),
            payload: b"",
            tcp: None,
        }
    }

    fn term(s: &str) -> Term {
        s.parse().expect(s)
    }

    #[test]
    fn terms() {
        let s = seg(Transport::Udp, "10.0.0.1:9000", "224.0.31.1:14310");
        for yes in [
            "udp",
            "UDP",
            "port=14310",
            "port=1,9000",
            "host=10.0.0.1",
            "10.0.0.1:9000",
            "224.0.31.1:14310",
            "src=10.0.0.1",
            "src=10.0.0.1:9000",
            "dst=224.0.31.1:14310",
        ] {
            assert!(term(yes).matches(&s), "{yes}");
        }
        for no in [
            "tcp",
            "port=14311",
            "host=10.0.0.2",
            "10.0.0.1:9001",
            "dst=10.0.0.1",
        ] {
            assert!(!term(no).matches(&s), "{no}");
        }
        let v6 = seg(Transport::Tcp, "[fe80::1]:5000", "[fe80::2]:6000");
        assert!(term("[fe80::1]:5000").matches(&v6));
        assert!(term("host=fe80::2").matches(&v6));
        assert!(term("src=[fe80::1]").matches(&v6));
        for bad in [
            "port=x",
            "sctp",
            "host=10.0.0.1:5",
            "10.0.0.1",
            "via=1.2.3.4",
            "port=70000",
        ] {
            let e = bad.parse::<Term>().expect_err(bad);
            assert!(e.to_string().contains("expected one of udp, tcp"), "{e}");
        }
    }
}
