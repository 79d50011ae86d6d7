//! Reading pcap and pcapng files one packet at a time, with pcap-parser's
//! streaming readers: one buffer, so memory stays flat on any size.

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

use pcap_parser::pcapng::Block;
use pcap_parser::traits::PcapReaderIterator;
use pcap_parser::{LegacyPcapReader, PcapBlockOwned, PcapError, PcapNGReader};

use super::time::Timestamp;

/// A capture file format, told by its magic number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// libpcap: µs or ns timestamps, either byte order.
    Pcap,
    /// pcapng.
    PcapNg,
}

/// The capture format of an input starting with `prefix`, or `None` when
/// it is no capture (the first four bytes decide).
pub fn sniff(prefix: &[u8]) -> Option<Format> {
    match prefix.get(..4)? {
        // µs, ns, and the "modified" (Kuznetzov) format, both byte orders.
        [0xd4, 0xc3, 0xb2, 0xa1]
        | [0xa1, 0xb2, 0xc3, 0xd4]
        | [0x4d, 0x3c, 0xb2, 0xa1]
        | [0xa1, 0xb2, 0x3c, 0x4d]
        | [0x34, 0xcd, 0xb2, 0xa1]
        | [0xa1, 0xb2, 0xcd, 0x34] => Some(Format::Pcap),
        [0x0a, 0x0d, 0x0d, 0x0a] => Some(Format::PcapNg),
        _ => None,
    }
}

/// Reads the start of `input` to tell whether it is a capture: the input
/// with those bytes given back in front, and its capture format when its
/// magic says it is one. For a capture the whole file header is read
/// (pcap-parser wants it in one read).
///
/// # Errors
/// Reading `input` failed.
///
/// ```
/// let pcapng = [0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a];
/// let (mut r, format) = sbe_capture::sniff_read(&pcapng[..])?;
/// assert_eq!(format, Some(sbe_capture::Format::PcapNg));
/// let mut back = Vec::new();
/// std::io::Read::read_to_end(&mut r, &mut back)?;
/// assert_eq!(back, pcapng);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn sniff_read<'r, R: Read + 'r>(
    mut input: R,
) -> io::Result<(Box<dyn Read + 'r>, Option<Format>)> {
    let mut head = Vec::new();
    read_to(&mut input, &mut head, 4)?;
    let format = sniff(&head);
    match format {
        Some(Format::Pcap) => read_to(&mut input, &mut head, 24)?,
        Some(Format::PcapNg) => {
            // The section header block's length: bytes 4..8, in the byte
            // order its magic at 8..12 gives.
            read_to(&mut input, &mut head, 12)?;
            let len = match (head.get(4..8), head.get(8..12)) {
                (Some(&[a, b, c, d]), Some([0x4d, 0x3c, 0x2b, 0x1a])) => {
                    u32::from_le_bytes([a, b, c, d])
                }
                (Some(&[a, b, c, d]), _) => u32::from_be_bytes([a, b, c, d]),
                _ => 0,
            };
            read_to(&mut input, &mut head, (len as usize).min(1 << 20))?;
        }
        None => {}
    }
    Ok((Box::new(io::Cursor::new(head).chain(input)), format))
}

/// Reads into `buf` until it holds `want` bytes or the input ends.
fn read_to(r: &mut impl Read, buf: &mut Vec<u8>, want: usize) -> io::Result<()> {
    let mut chunk = [0u8; 4096];
    while buf.len() < want {
        let n = want.saturating_sub(buf.len()).min(chunk.len());
        let Some(dst) = chunk.get_mut(..n) else {
            break;
        };
        match r.read(dst) {
            Ok(0) => break,
            Ok(k) => buf.extend_from_slice(dst.get(..k).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// One captured packet.
#[derive(Debug, Clone, Copy)]
pub struct Packet<'a> {
    /// 1-based, counting every packet of the file (as Wireshark does).
    pub number: u64,
    /// When it was captured (`None`: a pcapng simple packet block).
    pub time: Option<Timestamp>,
    /// Its link type (LINKTYPE_ETHERNET = 1, ...).
    pub link: u32,
    /// The bytes captured.
    pub data: &'a [u8],
    /// Its length on the wire (more than `data` when the capture cut it).
    pub orig_len: u32,
    /// Offset of its record in the file.
    pub offset: u64,
}

/// A capture file that cannot be read on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// The file ends inside a record.
    #[error("at byte {offset}: the capture ends inside the record of packet {packet} (the file is cut short)")]
    Truncated {
        /// Offset of the record.
        offset: u64,
        /// Number the packet would have had.
        packet: u64,
    },
    /// A record or block that cannot be parsed.
    #[error("at byte {offset}: bad capture record after packet {after}: {what}")]
    Corrupt {
        /// Offset of the record.
        offset: u64,
        /// The last packet read.
        after: u64,
        /// What pcap-parser says.
        what: String,
    },
    /// A record larger than allowed (most likely a corrupt length).
    #[error("at byte {offset}: a capture record of more than {max} bytes (corrupt length?)")]
    TooLarge {
        /// Offset of the record.
        offset: u64,
        /// The limit.
        max: usize,
    },
    /// Reading failed.
    #[error("read error: {0}")]
    Io(#[from] io::Error),
}

/// [`Packet::link`] of a pcapng packet whose interface was not described.
pub const NO_INTERFACE: u32 = u32::MAX;

/// A pcapng interface: what its packets need to be read.
#[derive(Debug, Clone, Copy)]
struct Interface {
    link: u32,
    per_second: u64,
    offset_secs: i64,
}

/// Keeps the last I/O error of the reader pcap-parser reads from (it only
/// says `ReadError`).
struct Tap<R> {
    inner: R,
    error: Rc<RefCell<Option<io::Error>>>,
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let kind = e.kind();
                    *self.error.borrow_mut() = Some(e);
                    return Err(io::Error::from(kind));
                }
                ok => return ok,
            }
        }
    }
}

/// Buffer of the streaming reader at first, and the most it grows to for
/// one record.
const CAPACITY: usize = 1 << 20;
const MAX_RECORD: usize = 64 << 20;

/// Reads the packets of a pcap or pcapng stream in order.
pub struct CaptureReader<'r> {
    inner: Box<dyn PcapReaderIterator + 'r>,
    io_error: Rc<RefCell<Option<io::Error>>>,
    format: Format,
    /// pcap: the file's link type and whether timestamps are ns.
    legacy_link: u32,
    legacy_nanos: bool,
    /// pcapng: the current section's interfaces.
    interfaces: Vec<Interface>,
    packets: u64,
    capacity: usize,
    done: bool,
}

impl<'r> CaptureReader<'r> {
    /// A reader of `input`, which starts with a capture of `format`'s magic
    /// (the whole file header should be at hand in its first read).
    pub fn new<R: Read + 'r>(format: Format, input: R) -> Result<Self, CaptureError> {
        let io_error = Rc::new(RefCell::new(None));
        let tap = Tap {
            inner: input,
            error: Rc::clone(&io_error),
        };
        let inner: Result<Box<dyn PcapReaderIterator + 'r>, _> = match format {
            Format::Pcap => LegacyPcapReader::new(CAPACITY, tap).map(|r| Box::new(r) as _),
            Format::PcapNg => PcapNGReader::new(CAPACITY, tap).map(|r| Box::new(r) as _),
        };
        let inner = inner.map_err(|e| match io_error.borrow_mut().take() {
            Some(io) => CaptureError::Io(io),
            None => CaptureError::Corrupt {
                offset: 0,
                after: 0,
                what: match e {
                    PcapError::Incomplete(_) | PcapError::UnexpectedEof | PcapError::Eof => {
                        "the file header is cut short".to_string()
                    }
                    e => e.to_string(),
                },
            },
        })?;
        Ok(CaptureReader {
            inner,
            io_error,
            format,
            legacy_link: 1,
            legacy_nanos: false,
            interfaces: Vec::new(),
            packets: 0,
            capacity: CAPACITY,
            done: false,
        })
    }

    /// The format read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Packets read so far.
    pub fn packets(&self) -> u64 {
        self.packets
    }

    /// Read on to the next packet and give it to `f`: `Ok(None)` at the end
    /// of the capture. After an error there are no more packets.
    pub fn next_packet<T>(
        &mut self,
        mut f: impl FnMut(Packet<'_>) -> T,
    ) -> Result<Option<T>, CaptureError> {
        if self.done {
            return Ok(None);
        }
        let r = self.step(&mut f);
        if r.is_err() {
            self.done = true;
        }
        r
    }

    fn step<T>(&mut self, f: &mut impl FnMut(Packet<'_>) -> T) -> Result<Option<T>, CaptureError> {
        let mut stalled = 0;
        loop {
            let offset = self.inner.consumed() as u64;
            let before = self.inner.data().len();
            match self.inner.next() {
                Ok((n, block)) => {
                    let mut out = None;
                    match block {
                        PcapBlockOwned::LegacyHeader(h) => {
                            self.legacy_link = h.network.0 as u32;
                            self.legacy_nanos = h.is_nanosecond_precision();
                        }
                        PcapBlockOwned::Legacy(b) => {
                            self.packets += 1;
                            let per_second = if self.legacy_nanos {
                                1_000_000_000
                            } else {
                                1_000_000
                            };
                            let time = Timestamp {
                                secs: i64::from(b.ts_sec),
                                nanos: 0,
                            };
                            let sub = Timestamp::from_units(u64::from(b.ts_usec), per_second, 0);
                            let time = Timestamp {
                                secs: time.secs + sub.secs,
                                nanos: sub.nanos,
                            };
                            out = Some(f(Packet {
                                number: self.packets,
                                time: Some(time),
                                link: self.legacy_link,
                                data: b.data,
                                orig_len: b.origlen,
                                offset,
                            }));
                        }
                        PcapBlockOwned::NG(Block::SectionHeader(_)) => self.interfaces.clear(),
                        PcapBlockOwned::NG(Block::InterfaceDescription(idb)) => {
                            self.interfaces.push(Interface {
                                link: idb.linktype.0 as u32,
                                per_second: idb.ts_resolution().unwrap_or(1_000_000),
                                offset_secs: idb.ts_offset(),
                            });
                        }
                        PcapBlockOwned::NG(Block::EnhancedPacket(epb)) => {
                            self.packets += 1;
                            let iface = self.interfaces.get(epb.if_id as usize).copied();
                            let units = (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low);
                            let time = iface
                                .map(|i| Timestamp::from_units(units, i.per_second, i.offset_secs));
                            let caplen = epb.caplen as usize;
                            let data = epb.data.get(..caplen).unwrap_or(epb.data);
                            out = Some(f(Packet {
                                number: self.packets,
                                time,
                                link: iface.map_or(NO_INTERFACE, |i| i.link),
                                data,
                                orig_len: epb.origlen,
                                offset,
                            }));
                        }
                        PcapBlockOwned::NG(Block::SimplePacket(spb)) => {
                            self.packets += 1;
                            let iface = self.interfaces.first().copied();
                            let len = spb.origlen as usize;
                            let data = spb.data.get(..len).unwrap_or(spb.data);
                            out = Some(f(Packet {
                                number: self.packets,
                                time: None,
                                link: iface.map_or(NO_INTERFACE, |i| i.link),
                                data,
                                orig_len: spb.origlen,
                                offset,
                            }));
                        }
                        PcapBlockOwned::NG(_) => {}
                    }
                    // Not shifted here: `consume` moves the unread bytes
                    // to the front once half the buffer is read, every byte
                    // of the capture copied once more. The refill shifts
                    // only the cut record at the end.
                    self.inner.consume_noshift(n);
                    if out.is_some() {
                        return Ok(out);
                    }
                }
                Err(PcapError::Eof) => return Ok(None),
                Err(PcapError::UnexpectedEof) => {
                    return Err(self.io_or(CaptureError::Truncated {
                        offset,
                        packet: self.packets + 1,
                    }))
                }
                Err(PcapError::Incomplete(_)) => {
                    self.refill(offset)?;
                    // No new bytes and not at the end: the buffer is full.
                    if self.inner.data().len() == before && !self.inner.reader_exhausted() {
                        stalled += 1;
                        if stalled > 1 {
                            self.grow(offset)?;
                        }
                    }
                }
                Err(PcapError::BufferTooSmall) => {
                    self.refill(offset)?;
                    self.grow(offset)?;
                }
                Err(PcapError::ReadError) => {
                    return Err(self.io_or(CaptureError::Io(io::Error::other("read failed"))))
                }
                Err(e) => {
                    let what = e.to_string();
                    return Err(self.io_or(CaptureError::Corrupt {
                        offset,
                        after: self.packets,
                        what,
                    }));
                }
            }
        }
    }

    fn io_or(&self, e: CaptureError) -> CaptureError {
        match self.io_error.borrow_mut().take() {
            Some(io) => CaptureError::Io(io),
            None => e,
        }
    }

    fn refill(&mut self, offset: u64) -> Result<(), CaptureError> {
        if self.inner.refill().is_err() {
            return Err(self.io_or(CaptureError::Corrupt {
                offset,
                after: self.packets,
                what: "read failed".to_string(),
            }));
        }
        Ok(())
    }

    fn grow(&mut self, offset: u64) -> Result<(), CaptureError> {
        let new = self.capacity.saturating_mul(2);
        if new > MAX_RECORD || !self.inner.grow(new) {
            return Err(CaptureError::TooLarge {
                offset,
                max: MAX_RECORD,
            });
        }
        self.capacity = new;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A little-endian µs pcap of packets of the sizes `sizes`, packet `i`
    /// holding the byte `i` (and its length in its first four bytes).
    fn pcap(sizes: &[usize]) -> Vec<u8> {
        let mut f = Vec::new();
        for v in [0xa1b2_c3d4u32, 0x0004_0002, 0, 0, 0x7fff_ffff, 1] {
            f.extend(v.to_le_bytes());
        }
        for (i, &n) in sizes.iter().enumerate() {
            for v in [i as u32, 0, n as u32, n as u32] {
                f.extend(v.to_le_bytes());
            }
            let mut data = vec![i as u8; n];
            data[..4].copy_from_slice(&(n as u32).to_le_bytes());
            f.extend(data);
        }
        f
    }

    /// Reads through a reader that gives at most `chunk` bytes a call, as
    /// a pipe does.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn records_across_the_buffer_and_larger_than_it_read_whole() {
        // Sizes that do not divide the buffer, records cut at its end at
        // every place over a few megabytes, and one of 1.5 MiB (the buffer
        // grows for it).
        let mut sizes: Vec<usize> = (0..5000).map(|i| 60 + i * 37 % 1400).collect();
        sizes.insert(2500, 3 << 19);
        let file = pcap(&sizes);
        for chunk in [usize::MAX, 100_000, 4096] {
            let mut r = CaptureReader::new(Format::Pcap, Trickle(&file, chunk)).unwrap();
            let mut at = 24u64;
            for (i, &n) in sizes.iter().enumerate() {
                let (number, offset, data) = r
                    .next_packet(|p| (p.number, p.offset, p.data.to_vec()))
                    .unwrap()
                    .unwrap();
                assert_eq!((number, offset, data.len()), (i as u64 + 1, at, n));
                assert_eq!(&data[..4], &(n as u32).to_le_bytes());
                assert!(data[4..].iter().all(|&b| b == i as u8), "packet {i}");
                at += 16 + n as u64;
            }
            assert!(r.next_packet(|_| ()).unwrap().is_none());
        }
    }
}
