//! The framings of sbe-framing on any bytes: any valid `FrameFormat` (and the
//! presets) splitting a stream, with `split` and with the `BytesMut`
//! `Framer` (by format, and by the `Framing` of it), and packets of any
//! header length. Every frame lies inside the input and is where the
//! previous one ended; a lying length is an `Err`, never a panic. The
//! bytes read as text are a `--framing`: parsed without a panic, an error
//! pointing inside the text, a framing that prints back to itself.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sbe_framing::{
    Counts, EncodingField, Endian, Expect, FrameFormat, Framing, LengthField, PacketFormat, Width,
};

#[derive(Arbitrary, Debug)]
struct Shape {
    preset: u8,
    prefix_len: u8,
    length_offset: u8,
    wide: bool,
    big: bool,
    counts_message: bool,
    encoding: Option<(u8, bool, Option<u16>)>,
    align: u8,
    packet_header: u8,
    bytes: Vec<u8>,
}

fn format(s: &Shape) -> FrameFormat {
    match s.preset % 4 {
        0 => FrameFormat::SOFH,
        1 => FrameFormat::SOFH_LE,
        2 => FrameFormat::MDP3_MESSAGE,
        _ => {
            let order = if s.big { Endian::Big } else { Endian::Little };
            let width = if s.wide { Width::U32 } else { Width::U16 };
            let mut f = FrameFormat::new(
                usize::from(s.prefix_len % 12),
                LengthField::new(usize::from(s.length_offset % 12), width, order),
            )
            .with_align(usize::from(s.align % 17));
            if s.counts_message {
                f = f.with_counts(Counts::Message);
            }
            if let Some((offset, big, value)) = s.encoding {
                let order = if big { Endian::Big } else { Endian::Little };
                let expect = value.map_or(Expect::Any, Expect::Value);
                f = f.with_encoding(EncodingField::new(usize::from(offset % 12), order, expect));
            }
            f
        }
    }
}

fn split_all(f: &FrameFormat, mut rest: &[u8]) {
    while let Ok(Some(frame)) = f.split(rest) {
        assert!(
            frame.len > 0 && frame.len <= rest.len(),
            "frame outside the input"
        );
        assert!(frame.message.len() <= frame.len);
        rest = &rest[frame.len..];
    }
}

fn framer_all(f: &FrameFormat, bytes: &[u8]) {
    let mut framer = sbe_framing::Framer::new();
    framer.push(bytes);
    let mut taken = 0usize;
    while let Ok(Some(frame)) = framer.next_format_frame(f) {
        taken += frame.message.len();
        assert!(
            taken <= bytes.len(),
            "the framer handed out more than it was given"
        );
    }
}

/// `f` as a `Framing`: the `Framer` it makes splits as `f` does, and its
/// text parses back to it (`align=0` reads as 1).
fn framing_all(f: &FrameFormat, bytes: &[u8]) {
    let framing = Framing::Custom {
        packet: None,
        frame: *f,
    };
    let mut framer = sbe_framing::Framer::for_framing(framing).expect("a stream framing");
    framer.push(bytes);
    let mut taken = 0usize;
    while let Ok(Some(frame)) = framer.next_framed(|_| Ok::<_, sbe_framing::Error>(None)) {
        taken += frame.message.len();
        assert!(
            taken <= bytes.len(),
            "the framer handed out more than it was given"
        );
    }
    let text = framing.to_string();
    let mut want = *f;
    want.align = want.align.max(1);
    assert_eq!(
        text.parse::<Framing>(),
        Ok(Framing::Custom {
            packet: None,
            frame: want
        }),
        "{text}"
    );
}

/// `text` as a `--framing`.
fn parse_text(text: &str) {
    match text.parse::<Framing>() {
        Ok(framing) => assert_eq!(framing.to_string().parse::<Framing>(), Ok(framing)),
        Err(e) => {
            assert!(text.get(e.span()).is_some(), "{text:?}: {:?}", e.span());
            let _ = e.in_input(text).to_string();
            let _ = e.to_string();
        }
    }
}

fuzz_target!(|s: Shape| {
    if let Ok(text) = core::str::from_utf8(&s.bytes) {
        parse_text(text);
    }
    let f = format(&s);
    if f.validate().is_err() {
        return;
    }
    split_all(&f, &s.bytes);
    framer_all(&f, &s.bytes);
    framing_all(&f, &s.bytes);
    let packets = [
        PacketFormat::MDP3,
        PacketFormat::new(usize::from(s.packet_header % 32), f),
    ];
    for p in packets {
        if let Ok(packet) = p.packet(&s.bytes) {
            let _ = packet.mdp3_header();
            for m in packet.messages().flatten() {
                assert!(m.offset + m.message.len() <= s.bytes.len());
            }
        }
    }
});
