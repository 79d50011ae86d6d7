//! The exact length of a message before writing it (issue 40, point 2):
//! each message encoder's `exact_length`, from its groups' counts (or
//! their entries' `entry_length`, nested groups included) and its var
//! data's lengths, equals the bytes the encoder then writes; `wrap_exact`
//! takes a buffer of exactly that length and refuses one byte less before
//! writing anything, saying the whole length needed (issue 42, point 5).
//! Every golden vector is checked the same way through its owned message
//! (`golden_vectors.rs`).

use corpus_tests::s_fixture_tiny as tiny;
use corpus_tests::s_repo_schemas_car as car;
use proptest::prelude::*;
use sbe_rt::{ErrorDetails, ErrorKind};

/// What a `tiny` `Order` holds: per `legs` entry its `fills` count and
/// `note`; then `text` and `blob`.
#[derive(Clone, Debug)]
struct Shape {
    legs: Vec<(usize, Vec<u8>)>,
    text: Vec<u8>,
    blob: Vec<u8>,
}

fn shape() -> impl Strategy<Value = Shape> {
    let leg = (0usize..6, proptest::collection::vec(b'a'..=b'z', 0..40));
    (
        proptest::collection::vec(leg, 0..5),
        proptest::collection::vec(b'a'..=b'z', 0..255),
        proptest::collection::vec(any::<u8>(), 0..=100),
    )
        .prop_map(|(legs, text, blob)| Shape { legs, text, blob })
}

/// The length `Order` of `s` takes, from its counts and lengths only.
fn measure(s: &Shape) -> usize {
    tiny::OrderEncoder::exact_length(
        s.legs
            .iter()
            .map(|(fills, note)| tiny::OrderLegsEncoder::entry_length(*fills, note.len())),
        s.text.len(),
        s.blob.len(),
    )
}

/// `s` written into `buf` with `wrap_exact(buf, length)`.
fn write(s: &Shape, buf: &mut [u8], length: usize) -> sbe_rt::Result<usize> {
    let mut e = tiny::OrderEncoder::wrap_exact(buf, length)?;
    e.id(7);
    let mut legs = e.legs(s.legs.len())?;
    for (i, (fills, note)) in s.legs.iter().enumerate() {
        let mut entry = legs.next_entry()?;
        entry.leg(i as u16);
        let mut f = entry.fills(*fills)?;
        for k in 0..*fills {
            f.next_entry()?.px(k as f32);
        }
        f.end()?.note(note)?;
    }
    Ok(legs.end()?.text(&s.text)?.blob(&s.blob)?.finish()?)
}

/// `e` is the refusal of a buffer of `needed - 1` bytes, needing `needed`.
fn refused(e: sbe_rt::Error, needed: usize) {
    assert_eq!(e.error_kind(), ErrorKind::BufferTooSmall);
    assert_eq!(
        e.details(),
        ErrorDetails::BufferTooSmall {
            needed: needed as u64,
            available: needed as u64 - 1
        }
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random counts and lengths across a group whose entries hold a
    /// nested group and var data: the length measured is the length
    /// written, the message decodes to it, and one byte less is refused
    /// at `wrap_exact` with nothing written.
    #[test]
    fn the_length_measured_is_the_length_written(s in shape()) {
        let length = measure(&s);
        let mut buf = vec![0u8; length];
        prop_assert_eq!(write(&s, &mut buf, length), Ok(length));
        let d = tiny::OrderDecoder::decode(&buf).unwrap();
        prop_assert_eq!(d.checked_length(), Ok(length));
        prop_assert_eq!(d.legs().len(), s.legs.len());
        let mut short = vec![0xA5u8; length - 1];
        let err = write(&s, &mut short, length).unwrap_err();
        refused(err, length);
        prop_assert!(short.iter().all(|&b| b == 0xA5));
    }
}

/// A message written with fewer sections than measured (the blob left
/// out) finishes short of the length: `finish` says what was written, and
/// the rest of the claimed slot is not part of the message.
#[test]
fn finish_returns_what_was_written() {
    let s = Shape {
        legs: vec![(2, b"ab".to_vec())],
        text: b"xyz".to_vec(),
        blob: b"12345".to_vec(),
    };
    let length = measure(&s);
    let mut buf = vec![0u8; length];
    let e = tiny::OrderEncoder::wrap_exact(&mut buf, length).unwrap();
    // `legs` is skipped (written empty) by going to `text` directly.
    let e = e.text(&s.text).unwrap();
    // Not written: the entry (block 2, its sections empty 5, two fills
    // of 4, the note's 2 bytes) and the blob's 5 bytes.
    assert_eq!(e.finish(), Ok(length - (2 + 5 + 2 * 4 + 2) - 5));
}

/// A slot longer than the length is used only up to the length.
#[test]
fn a_longer_buffer_is_cut_to_the_length() {
    let length = tiny::PingEncoder::exact_length();
    assert_eq!(length, 8 + 4);
    let mut buf = [0u8; 64];
    let mut e = tiny::PingEncoder::wrap_exact(&mut buf, length).unwrap();
    e.seq(9);
    assert_eq!(e.finish(), Ok(length));
}

/// The car: the README's claim-then-write, with `exact_length` from the
/// counts and lengths, and the error's text giving the whole length.
#[test]
fn the_car_is_measured_then_written() {
    let fuel: [(u16, f32, &str); 3] = [
        (30, 35.9, "Urban Cycle"),
        (55, 49.0, "Combined Cycle"),
        (75, 40.0, "Highway Cycle"),
    ];
    let accel = [3usize, 3];
    let length = car::CarEncoder::exact_length(
        fuel.iter()
            .map(|(_, _, u)| car::CarFuelFiguresEncoder::entry_length(u.len())),
        accel
            .iter()
            .map(|&n| car::CarPerformanceFiguresEncoder::entry_length(n)),
        "Honda".len(),
        "Civic VTi".len(),
        "abcdef".len(),
    );
    let write = |buf: &mut [u8]| -> sbe_rt::Result<usize> {
        let mut e = car::CarEncoder::wrap_exact(buf, length)?;
        e.serial_number(1234).model_year(2013);
        let mut ff = e.fuel_figures(fuel.len())?;
        for (speed, mpg, usage) in fuel {
            let mut entry = ff.next_entry()?;
            entry.speed(speed).mpg(mpg);
            entry.usage_description(usage)?;
        }
        let mut pf = ff.end()?.performance_figures(accel.len())?;
        for n in accel {
            let mut entry = pf.next_entry()?;
            entry.octane_rating(95);
            let mut a = entry.acceleration(n)?;
            for k in 0..n {
                a.next_entry()?.mph(30 + k as u16).seconds(4.0);
            }
            a.end()?;
        }
        Ok(pf
            .end()?
            .manufacturer("Honda")?
            .model("Civic VTi")?
            .activation_code("abcdef")?
            .finish()?)
    };
    let mut buf = vec![0u8; length];
    assert_eq!(write(&mut buf), Ok(length));
    assert_eq!(car::decode(&buf).unwrap().checked_length(), Ok(length));
    let mut short = vec![0u8; length - 1];
    let err = write(&mut short).unwrap_err();
    refused(err, length);
    assert_eq!(
        car::explain(err).to_string(),
        format!(
            "output buffer too small: {length} bytes needed from where the encoder writes, only {} left, in `Car`",
            length - 1
        )
    );
}

/// A length below the message with its sections empty is refused by the
/// wrap it passes to, and a length no buffer holds (`exact_length`
/// saturates) by `wrap_exact` itself: errors, never a panic.
#[test]
fn lengths_that_cannot_be_are_refused() {
    let mut buf = [0u8; 128];
    let e = tiny::OrderEncoder::wrap_exact(&mut buf, 20).err().unwrap();
    assert_eq!(e.error_kind(), ErrorKind::BufferTooSmall);
    assert_eq!(
        e.details(),
        ErrorDetails::BufferTooSmall {
            needed: 8 + 40 + 7,
            available: 20
        }
    );
    let huge = tiny::OrderEncoder::exact_length([usize::MAX, 1], 0, 0);
    assert_eq!(huge, usize::MAX);
    let e = tiny::OrderEncoder::wrap_exact(&mut buf, huge)
        .err()
        .unwrap();
    assert_eq!(e.error_kind(), ErrorKind::BufferTooSmall);
}
