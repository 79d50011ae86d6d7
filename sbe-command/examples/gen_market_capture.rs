//! Write N market-data messages (benches/market-data.xml, `BookUpdate`,
//! 1 to 4 entries each) twice: back to back to a raw file, and as UDP
//! datagrams (Ethernet, IPv4) of a pcap capture, for comparing `sbe
//! decode`'s rate on the same messages:
//!
//! ```text
//! gen_market_capture N md.bin md.pcap [PER_PACKET] [raw|mdp3]
//! ```
//!
//! PER_PACKET (default 4) is the most messages a datagram holds (1 to
//! PER_PACKET, varying); `raw` (default) puts them back to back in the
//! datagram, `mdp3` writes CME MDP3 packets (12-byte header: MsgSeqNum,
//! SendingTime; each message behind its u16 MsgSize).

use std::fs::File;
use std::io::{BufWriter, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let raw_path = args.get(2).map_or("md.bin", String::as_str);
    let pcap_path = args.get(3).map_or("md.pcap", String::as_str);
    let per_packet: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(4).max(1);
    let mdp3 = args.get(5).is_some_and(|a| a == "mdp3");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/market-data.xml");
    let schema = sbe_ir::ir::load(path)?;
    let codec = sbe_otf::Codec::new(&schema)?;
    let mut raw = BufWriter::new(File::create(raw_path)?);
    let mut pcap = BufWriter::new(File::create(pcap_path)?);
    // pcap, little-endian, ns timestamps, Ethernet.
    pcap.write_all(&0xa1b2_3c4du32.to_le_bytes())?;
    pcap.write_all(&2u16.to_le_bytes())?;
    pcap.write_all(&4u16.to_le_bytes())?;
    pcap.write_all(&[0; 8])?;
    pcap.write_all(&65535u32.to_le_bytes())?;
    pcap.write_all(&1u32.to_le_bytes())?;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut buf = Vec::new();
    let mut payload = Vec::new();
    let mut frame = Vec::new();
    let (mut i, mut seq) = (0u64, 1u32);
    let t0 = 1_709_649_001_000_000_000u64;
    while i < n {
        let count = (1 + rnd() % per_packet).min(n - i);
        payload.clear();
        let time = t0 + i * 1000;
        if mdp3 {
            payload.extend_from_slice(&seq.to_le_bytes());
            payload.extend_from_slice(&time.to_le_bytes());
        }
        for _ in 0..count {
            let entries: Vec<_> = (0..1 + rnd() % 4)
                .map(|k| {
                    let action = ["New", "Change", "Delete"][(rnd() % 3) as usize];
                    let entry_type = ["Bid", "Offer", "Trade"][(rnd() % 3) as usize];
                    serde_json::json!({
                        "price": {"mantissa": 4_500_000_000_000i64 + (rnd() % 100_000) as i64 * 250_000},
                        "size": if rnd() % 8 == 0 { serde_json::Value::Null } else { (rnd() % 500).into() },
                        "securityId": 1000 + (rnd() % 50) as i32,
                        "rptSeq": i * 4 + k,
                        "level": 1 + rnd() % 10,
                        "action": action,
                        "entryType": entry_type,
                    })
                })
                .collect();
            let msg = serde_json::json!({
                "message": "BookUpdate",
                "body": {
                    "transactTime": 1_700_000_000_000_000_000u64 + i * 1000,
                    "flags": if i % 2 == 0 { vec!["EndOfEvent"] } else { vec!["LastQuote", "EndOfEvent"] },
                    "entries": entries,
                }
            });
            buf.clear();
            codec.encode_value(&msg, &mut buf)?;
            raw.write_all(&buf)?;
            if mdp3 {
                payload.extend_from_slice(&u16::try_from(buf.len() + 2)?.to_le_bytes());
            }
            payload.extend_from_slice(&buf);
            i += 1;
        }
        frame.clear();
        etherparse::PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [1, 0, 0x5e, 0, 31, 1])
            .ipv4([10, 0, 0, 1], [224, 0, 31, 1], 64)
            .udp(9000, 14310)
            .write(&mut frame, &payload)?;
        pcap.write_all(&((time / 1_000_000_000) as u32).to_le_bytes())?;
        pcap.write_all(&((time % 1_000_000_000) as u32).to_le_bytes())?;
        pcap.write_all(&u32::try_from(frame.len())?.to_le_bytes())?;
        pcap.write_all(&u32::try_from(frame.len())?.to_le_bytes())?;
        pcap.write_all(&frame)?;
        seq = seq.wrapping_add(1);
    }
    raw.flush()?;
    pcap.flush()?;
    eprintln!("{n} messages in {} packets", seq - 1);
    Ok(())
}
