//! The capture reader (pcap and pcapng, told by their magic) and the
//! packet parser behind it on any bytes: every packet or a clean error.
//! The first byte picks the format's magic put in front.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbe_capture::file::{sniff, CaptureReader};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let magic: &[u8] = match which % 4 {
        0 => &[0xd4, 0xc3, 0xb2, 0xa1],
        1 => &[0xa1, 0xb2, 0xc3, 0xd4],
        2 => &[0x4d, 0x3c, 0xb2, 0xa1],
        _ => &[0x0a, 0x0d, 0x0d, 0x0a],
    };
    let mut input = magic.to_vec();
    input.extend_from_slice(rest);
    let Some(format) = sniff(&input) else { return };
    let Ok(mut reader) = CaptureReader::new(format, &input[..]) else {
        return;
    };
    let mut packets = 0;
    while let Ok(Some(_)) = reader.next_packet(|p| {
        let _ = sbe_capture::net::segment(p.link, p.data);
    }) {
        packets += 1;
        assert!(packets <= input.len(), "more packets than bytes");
    }
});
