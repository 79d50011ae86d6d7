//! Behaviour of the generated code on the repo's own schemas (no ../shared
//! needed): errors instead of panics, schema order, acting versions.

use corpus_tests::s_fixture_evolve as evolve;
use corpus_tests::s_fixture_tiny as tiny;
use corpus_tests::s_fixture_types_only as types_only;
use corpus_tests::s_repo_schemas_car as car;
use sbe_rt::{Error, ErrorKind};

fn car_bytes() -> Vec<u8> {
    let mut buf = vec![0u8; 256];
    let mut e = car::CarEncoder::wrap(&mut buf).unwrap();
    e.serial_number(7).code(car::Model::B);
    e.vehicle_code("xyz").unwrap();
    let mut g = e.fuel_figures(1).unwrap();
    let mut entry = g.next_entry().unwrap();
    entry.speed(10).mpg(1.5);
    entry.usage_description("city").unwrap();
    let e = g.end().unwrap();
    // `performanceFigures` and `manufacturer` are skipped: written empty.
    let n = e.model("M").unwrap().finish().unwrap();
    buf.truncate(n);
    buf
}

#[test]
fn decodes_what_it_encodes_and_shows_json() {
    let bytes = car_bytes();
    let m = car::decode(&bytes).unwrap();
    assert_eq!(m.checked_length(), Ok(bytes.len()));
    let json = m.to_json();
    assert!(json.starts_with(r#"{"message":"Car","header":{"blockLength":45,"templateId":1,"schemaId":1,"version":0},"body":{"serialNumber":7,"#), "{json}");
    assert!(json.contains(r#""fuelFigures":[{"speed":10,"mpg":1.5,"usageDescription":"city"}],"performanceFigures":[],"manufacturer":"","model":"M","activationCode":""}"#), "{json}");
    let car::Message::Car(d) = m;
    assert_eq!(d.vehicle_code_str(), Ok("xyz"));
    assert_eq!(d.code(), car::Model::B);
    assert_eq!(d.discounted_model(), car::Model::C);
    assert_eq!(d.engine().fuel(), "Petrol");
    let dbg = format!("{d:?}");
    assert!(
        dbg.contains("serialNumber: 7") && dbg.contains("\"city\""),
        "{dbg}"
    );
}

#[test]
fn message_length_checks_as_decode_does_without_decoding() {
    let one = car_bytes();
    assert_eq!(car::message_length(&one), Ok(one.len()));
    // Trailing bytes (the next message of a stream) are not counted.
    let mut two = one.clone();
    two.extend_from_slice(&one);
    assert_eq!(car::message_length(&two), Ok(one.len()));
    // Any prefix: more bytes are needed.
    for n in 0..one.len() {
        assert!(
            matches!(
                car::message_length(&one[..n]).map_err(|e| e.error_kind()),
                Err(ErrorKind::Truncated)
            ),
            "{n}"
        );
    }
    let mut wrong = one.clone();
    wrong[2] = 9;
    assert_eq!(
        car::message_length(&wrong),
        Err(Error::unknown_template_id(9))
    );
    wrong = one.clone();
    wrong[0] = 10;
    assert!(matches!(
        car::message_length(&wrong).map_err(|e| e.error_kind()),
        Err(ErrorKind::BlockLengthTooShort)
    ));
    // A message without groups or var data, in a schema with a version.
    let mut buf = [0u8; 64];
    let n = tiny::PingEncoder::wrap(&mut buf).unwrap().finish().unwrap();
    assert_eq!(tiny::message_length(&buf), Ok(n));
}

#[test]
fn a_nested_group_newer_than_the_message_reads_as_absent() {
    // Version 1: two legs with one fill each.
    let mut buf = [0u8; 64];
    let mut e = evolve::QuoteEncoder::wrap(&mut buf).unwrap();
    e.seq(7);
    let mut legs = e.legs(2).unwrap();
    for leg in [1u16, 2] {
        let mut entry = legs.next_entry().unwrap();
        entry.leg(leg);
        let mut fills = entry.fills(1).unwrap();
        fills.next_entry().unwrap().px(u32::from(leg) * 10);
        fills.end().unwrap();
    }
    let n = legs.end().unwrap().finish().unwrap();
    let v1 = &buf[..n];
    let evolve::Message::Quote(d) = evolve::decode(v1).unwrap();
    let fills: Vec<Vec<u32>> = d
        .legs()
        .map(|l| {
            l.fills()
                .map(|f| f.map(|x| x.px()).collect())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(fills, [[10], [20]]);
    assert_eq!(evolve::message_length(v1), Ok(n));
    // Version 0 of the message, by hand: header, `seq`, two legs, no fills.
    let v0 = [4, 0, 1, 0, 9, 0, 0, 0, 7, 0, 0, 0, 2, 0, 2, 0, 1, 0, 2, 0];
    let m = evolve::decode(&v0).unwrap();
    let evolve::Message::Quote(d) = &m;
    assert_eq!(d.acting_version(), 0);
    let legs: Vec<(u16, bool)> = d.legs().map(|l| (l.leg(), l.fills().is_none())).collect();
    assert_eq!(legs, [(1, true), (2, true)]);
    assert_eq!(evolve::message_length(&v0), Ok(v0.len()));
    assert!(
        m.to_json()
            .ends_with(r#""body":{"seq":7,"legs":[{"leg":1},{"leg":2}]}}"#),
        "{}",
        m.to_json()
    );
    assert!(format!("{d:?}").contains("leg: 2"), "{d:?}");
}

#[test]
fn a_composite_newer_than_the_message_reads_as_null_not_as_none() {
    // Version 1: the price is there.
    let mut buf = [0u8; 64];
    let mut e = evolve::QuoteEncoder::wrap(&mut buf).unwrap();
    e.seq(7);
    e.px().mantissa(Some(12_068_000_000_000));
    let n = e.finish().unwrap();
    let d = evolve::QuoteDecoder::decode(&buf[..n]).unwrap();
    // One Option: the member's own (no Option<Option<i64>>).
    let mantissa: Option<i64> = d.px().mantissa();
    assert_eq!(mantissa, Some(12_068_000_000_000));
    assert_eq!(d.px().exponent(), -9);
    // Version 0, by hand: header, `seq`, no legs. The price reads as null
    // and is left out of the JSON (FORMAT.md rule 12).
    let v0 = [4, 0, 1, 0, 9, 0, 0, 0, 7, 0, 0, 0, 2, 0, 0, 0];
    let m = evolve::decode(&v0).unwrap();
    let evolve::Message::Quote(d) = &m;
    assert_eq!(d.px().mantissa(), None);
    assert!(
        m.to_json().ends_with(r#""body":{"seq":7,"legs":[]}}"#),
        "{}",
        m.to_json()
    );
    assert!(!format!("{d:?}").contains("px"), "{d:?}");
}

#[test]
fn a_schema_without_messages_decodes_nothing() {
    let header = [0, 0, 1, 0, 10, 0, 0, 0];
    let unknown = Error::unknown_template_id(1);
    assert_eq!(types_only::message_length(&header), Err(unknown));
    assert!(matches!(types_only::decode(&header), Err(e) if e == unknown));
    assert!(matches!(
        types_only::message_length(&header[..4]).map_err(|e| e.error_kind()),
        Err(ErrorKind::Truncated)
    ));
}

#[test]
fn enums_match_on_their_constants() {
    let name = |m: car::Model| match m {
        car::Model::A => "A",
        car::Model::B => "B",
        car::Model::C => "C",
        _ => "other",
    };
    assert_eq!(name(car::Model::B), "B");
    assert_eq!(name(car::Model::from_raw(b'Q')), "other");
    assert_eq!(car::Model::C.name(), Some("C"));
    assert!(car::Model::A.is_known());
    assert_eq!(format!("{:?}", car::Model::A), "A");
}

#[test]
fn lossless_enums_and_sets() {
    let mut bytes = car_bytes();
    // code is at header 8 + offset 11, extras at offset 34.
    bytes[8 + 11] = b'Z';
    bytes[8 + 34] = 0b1000_0001; // extras: sunRoof and an unknown bit 7
    let car::Message::Car(d) = car::decode(&bytes).unwrap();
    assert_eq!(d.code(), car::Model(b'Z'));
    assert!(!d.code().is_known());
    assert_eq!(format!("{:?}", d.code()), "Unknown(90)");
    assert_eq!(d.code().raw(), b'Z');
    assert!(d.extras().sun_roof());
    assert_eq!(d.extras().0, 0x81);
    assert_eq!(d.extras().raw(), 0x81);
    let json = car::decode(&bytes).unwrap().to_json();
    assert!(
        json.contains(r#""code":90"#) && json.contains(r#""extras":["sunRoof",7]"#),
        "{json}"
    );
}

/// A set's masks are sets: combined with `|`, tested with `contains`, and
/// the same as the `with_` builders and getters.
#[test]
fn set_masks_are_sets() {
    use car::OptionalExtras as X;
    let two = X::SUN_ROOF | X::CRUISE_CONTROL;
    assert_eq!(
        two,
        X::default().with_sun_roof(true).with_cruise_control(true)
    );
    assert_eq!(two, X::SUN_ROOF.union(X::CRUISE_CONTROL));
    assert!(two.contains(X::SUN_ROOF) && two.contains(two) && two.contains(X::default()));
    assert!(!two.contains(X::SUN_ROOF | X::SPORTS_PACK));
    assert!(two.sun_roof() && !two.sports_pack() && two.cruise_control());
    assert_eq!(two & X::CRUISE_CONTROL, X::CRUISE_CONTROL);
    assert_eq!(two.intersection(X::SPORTS_PACK), X::default());
    assert_eq!(two.difference(X::SUN_ROOF), X::CRUISE_CONTROL);
    assert!(X::default().is_empty() && !two.is_empty());
    let mut x = X::from_raw(0x80);
    x |= X::SPORTS_PACK;
    assert_eq!(x.raw(), 0x82);
    x &= X::SPORTS_PACK;
    assert_eq!(x, X::SPORTS_PACK);
    // A mask is usable where a constant is needed.
    const URBAN: X = X::SUN_ROOF.union(X::SPORTS_PACK);
    assert_eq!(URBAN.raw(), 0b011);
}

#[test]
fn errors_never_panics() {
    let bytes = car_bytes();
    assert!(matches!(
        car::decode(&bytes[..5]).map_err(|e| e.error_kind()),
        Err(ErrorKind::Truncated)
    ));
    let mut wrong = bytes.clone();
    wrong[2] = 9;
    assert_eq!(
        car::decode(&wrong).unwrap_err(),
        Error::unknown_template_id(9)
    );
    wrong = bytes.clone();
    wrong[4] = 2;
    assert_eq!(
        car::decode(&wrong).unwrap_err(),
        Error::wrong_schema_id(1, 2)
    );
    wrong = bytes.clone();
    wrong[0] = 10;
    assert!(matches!(
        car::decode(&wrong).map_err(|e| e.error_kind()),
        Err(ErrorKind::BlockLengthTooShort)
    ));
    // A lying group count.
    wrong = bytes.clone();
    wrong[8 + 45 + 2] = 0xff;
    assert!(car::decode(&wrong).is_err());
    // Encoder: too small a buffer, too many entries, too long a value.
    let mut small = [0u8; 20];
    assert!(matches!(
        car::CarEncoder::wrap(&mut small).map_err(|e| e.error_kind()),
        Err(ErrorKind::BufferTooSmall)
    ));
    // An entry past the count: the group's `end()` refuses it, naming
    // the group, so no message is finished with it.
    let mut buf = [0u8; 100];
    let mut g = car::CarEncoder::wrap(&mut buf)
        .unwrap()
        .fuel_figures(1)
        .unwrap();
    g.next_entry().unwrap();
    g.next_entry().unwrap();
    let err = g.end().map(|_| ()).unwrap_err();
    assert_eq!(err.error_kind(), ErrorKind::CountOutOfRange);
    assert_eq!(
        car::explain(err).to_string(),
        "group count 2 out of range (max 1), in `Car.fuelFigures`"
    );
    // The same for a group of one-size entries, counted without a branch.
    let mut buf = [0u8; 100];
    let mut pf = car::CarEncoder::wrap(&mut buf)
        .unwrap()
        .performance_figures(1)
        .unwrap();
    let mut a = pf.next_entry().unwrap().acceleration(1).unwrap();
    for _ in 0..3 {
        a.next_entry().unwrap();
    }
    let err = a.end().map(|_| ()).unwrap_err();
    assert_eq!(
        car::explain(err).to_string(),
        "group count 2 out of range (max 1), in `Car.performanceFigures.acceleration`"
    );
    // Up to `model`: the stage standing before `activationCode`.
    fn up_to_model(buf: &mut [u8]) -> car::CarEncoderAtActivationCode<'_> {
        let mut e = car::CarEncoder::wrap(buf).unwrap();
        assert!(e.vehicle_code("toolong").is_err());
        let mut g = e.fuel_figures(1).unwrap();
        g.next_entry().unwrap();
        g.end().unwrap().model("x").unwrap()
    }
    // Writing `manufacturer` or `fuelFigures` after `model` (once
    // `Err(WrongOrder)`) is now a compile error: the stage after `model`
    // has no method for them.
    let mut buf = [0u8; 100];
    let n = up_to_model(&mut buf).finish().unwrap();
    assert!(car::decode(&buf[..n]).is_ok());
    // A var data value longer than the buffer: refused, no panic. The
    // refusal consumes the stage, which is why the decodable message is
    // checked above, finished without this value.
    let mut buf = [0u8; 100];
    assert!(matches!(
        up_to_model(&mut buf)
            .activation_code([0u8; 200])
            .map(|_| ())
            .map_err(|e| e.error_kind()),
        Err(ErrorKind::BufferTooSmall)
    ));
    // Count beyond the dimension type.
    let mut buf = [0u8; 100];
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    assert!(matches!(
        e.fuel_figures(70_000)
            .map(|_| ())
            .map_err(|e| e.error_kind()),
        Err(ErrorKind::CountOutOfRange)
    ));
}

#[test]
fn a_var_data_field_that_does_not_fit_leaves_a_valid_message() {
    // Room for the header, the root block and every section empty (the
    // two group dimensions and three var-data lengths), nothing more:
    // `wrap` checks that much, so skipped sections always fit.
    const LEN: usize = 8 + 45 + 4 + 4 + 4 + 4 + 4;
    let mut buf = [0xaau8; LEN];
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    // Both groups and `manufacturer` are written empty; `model`'s byte
    // does not fit, and nothing of `model` is written. The refusal
    // consumes the encoder (a stage is taken by value), so what it leaves
    // is read from the buffer: the sections skipped, then untouched bytes.
    assert!(matches!(
        e.model("x").map(|_| ()).map_err(|e| e.error_kind()),
        Err(ErrorKind::BufferTooSmall)
    ));
    let written = 8 + 45 + 4 + 4 + 4;
    // Each group's dimension (its block length, no entries), then
    // `manufacturer`'s length, zero.
    assert_eq!(buf[8 + 45..written], [6, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    assert!(buf[written..].iter().all(|&b| b == 0xaa), "{buf:?}");
    // Writing `manufacturer` after `model` (once `Err(WrongOrder)`) is now
    // a compile error: the stage after `model` has no method for it.
    // Written again with an empty `model`, the same buffer holds the whole
    // message.
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    let n = e.model("").unwrap().finish().unwrap();
    assert_eq!(n, buf.len());
    let car::Message::Car(d) = car::decode(&buf).unwrap();
    assert_eq!(d.fuel_figures().count(), 0);
    assert_eq!(d.performance_figures().count(), 0);
    assert_eq!((d.manufacturer(), d.model()), (&b""[..], &b""[..]));
}

#[test]
fn acting_version_hides_newer_fields_and_skips_unknown_ones() {
    let mut buf = [0u8; 256];
    let mut e = tiny::OrderEncoder::wrap(&mut buf).unwrap();
    e.id(5).ratio(Some(0.5)).qty(None);
    e.symbol("ABC").unwrap();
    let mut legs = e.legs(2).unwrap();
    let mut entry = legs.next_entry().unwrap();
    entry.leg(1);
    let mut f = entry.fills(1).unwrap();
    f.next_entry().unwrap().px(2.5);
    f.end().unwrap().note("n1").unwrap();
    legs.next_entry().unwrap().leg(2); // fills and note left empty
    let e = legs.end().unwrap();
    // `text` is skipped: `blob` writes it empty first.
    let n = e.blob([1u8, 2, 3]).unwrap().finish().unwrap();
    let tiny::Message::Order(d) = tiny::decode(&buf[..n]).unwrap() else {
        panic!("not an order")
    };
    assert_eq!(d.ratio(), Some(0.5));
    assert_eq!(d.qty(), None);
    assert_eq!(d.blob(), Some(&[1u8, 2, 3][..]));
    let legs: Vec<_> = d.legs().collect();
    assert_eq!(legs.len(), 2);
    assert_eq!(legs[0].note_str(), Ok("n1"));
    assert_eq!(legs[1].fills().len(), 0);
    assert_eq!(d.text(), b"");
    // The same bytes claimed as version 0: ratio and blob are absent.
    let mut v0 = buf[..n].to_vec();
    v0[6] = 0;
    let tiny::Message::Order(d0) = tiny::decode(&v0).unwrap() else {
        panic!()
    };
    assert_eq!(d0.ratio(), None);
    assert_eq!(d0.blob(), None);
    assert!(!tiny::decode(&v0).unwrap().to_json().contains("ratio"));
}

#[test]
fn lazy_sections_any_order_never_panic() {
    let bytes = car_bytes();
    // Whole message: every accessor in any order gives the encoded values.
    let d = car::CarDecoder::decode(&bytes).unwrap();
    assert_eq!(d.model(), b"M");
    assert_eq!(d.manufacturer(), b"");
    assert_eq!(d.fuel_figures().count(), 1);
    assert_eq!(d.performance_figures().count(), 0);
    assert_eq!(
        d.fuel_figures().next().unwrap().usage_description(),
        b"city"
    );
    assert_eq!(d.checked_length(), Ok(bytes.len()));
    // Every prefix and corruption: decode checks the header and root block
    // only; later sections read empty (never out of bounds) and
    // `checked_length` reports the error that `decode` (the module's) gives.
    let mut buf = bytes.clone();
    for i in 0..buf.len() {
        let orig = buf[i];
        for x in [0xff, 0x00, 0x80, orig ^ 0x01] {
            buf[i] = x;
            for n in [buf.len(), i + 1] {
                let b = &buf[..n];
                if let Ok(d) = car::CarDecoder::decode(b) {
                    let _ = (d.activation_code(), d.model(), d.checked_length());
                    let _ = d.performance_figures().map(|p| p.acceleration().count());
                    let _ = d.fuel_figures().map(|f| f.usage_description().len());
                    let _ = format!("{d:?}");
                    assert_eq!(d.checked_length().is_ok(), car::decode(b).is_ok());
                    if let Ok(n) = d.checked_length() {
                        assert!(n <= b.len());
                    }
                }
            }
        }
        buf[i] = orig;
    }
}

/// Every order of reading the five sections (two groups, three var data)
/// gives the encoded values: a section found by stepping over the ones
/// before it, or remembered from an earlier read.
#[test]
fn lazy_sections_read_in_every_order_give_the_encoded_values() {
    let mut buf = vec![0u8; 256];
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    let mut g = e.fuel_figures(2).unwrap();
    for (speed, usage) in [(1, "one"), (2, "two")] {
        let mut entry = g.next_entry().unwrap();
        entry.speed(speed);
        entry.usage_description(usage).unwrap();
    }
    let mut g = g.end().unwrap().performance_figures(2).unwrap();
    for octane in [90, 95] {
        let mut entry = g.next_entry().unwrap();
        entry.octane_rating(octane);
        let mut a = entry.acceleration(1).unwrap();
        a.next_entry().unwrap().mph(octane.into());
        a.end().unwrap();
    }
    let n = g
        .end()
        .unwrap()
        .manufacturer("maker")
        .unwrap()
        .model("model")
        .unwrap()
        .activation_code("code")
        .unwrap()
        .finish()
        .unwrap();
    let bytes = &buf[..n];
    let check = |d: &car::CarDecoder<'_>, section: usize| match section {
        0 => assert_eq!(
            d.fuel_figures()
                .map(|f| (f.speed(), f.usage_description().to_vec()))
                .collect::<Vec<_>>(),
            [(1, b"one".to_vec()), (2, b"two".to_vec())]
        ),
        1 => assert_eq!(
            d.performance_figures()
                .map(|p| (
                    p.octane_rating(),
                    p.acceleration().map(|a| a.mph()).sum::<u16>()
                ))
                .collect::<Vec<_>>(),
            [(90, 90), (95, 95)]
        ),
        2 => assert_eq!(d.manufacturer(), b"maker"),
        3 => assert_eq!(d.model(), b"model"),
        _ => assert_eq!(d.activation_code(), b"code"),
    };
    let mut orders = 0;
    permute(&mut [0, 1, 2, 3, 4], 0, &mut |order| {
        let d = car::CarDecoder::decode(bytes).unwrap();
        for &section in order {
            check(&d, section);
        }
        // Again, now that every position is known.
        for &section in order {
            check(&d, section);
        }
        assert_eq!(d.checked_length(), Ok(n));
        // After `checked_length` has stepped over (and remembered) them all.
        let d = car::CarDecoder::decode(bytes).unwrap();
        assert_eq!(d.checked_length(), Ok(n));
        for &section in order {
            check(&d, section);
        }
        orders += 1;
    });
    assert_eq!(orders, 120);
}

/// Calls `f` with every permutation of `v[k..]` (after `v[..k]`).
fn permute(v: &mut [usize], k: usize, f: &mut impl FnMut(&[usize])) {
    if k == v.len() {
        return f(v);
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, f);
        v.swap(k, i);
    }
}

/// A group of blocks only is checked whole when it is opened: all its
/// entries, or none of them; the root decoder learns where it ends at
/// once, and a short group shows in `checked_length`.
#[test]
fn fixed_size_groups_are_checked_whole() {
    use corpus_tests::s_repo_schemas_market_data as md;
    let mut buf = [0u8; 128];
    let mut e = md::MarketDataIncrementalRefreshTradesEncoder::wrap(&mut buf).unwrap();
    e.transact_time(1);
    let mut g = e.md_inc_grp(2).unwrap();
    for k in 0..2u64 {
        g.next_entry().unwrap().trade_id(10 + k).security_id(42);
    }
    let n = g.end().unwrap().finish().unwrap();

    let d = md::MarketDataIncrementalRefreshTradesDecoder::decode(&buf[..n]).unwrap();
    let group = d.md_inc_grp();
    assert_eq!(group.len(), 2);
    let ids: Vec<u64> = group.map(|x| x.trade_id()).collect();
    assert_eq!(ids, [10, 11]);
    assert_eq!(d.checked_length(), Ok(n));

    // One byte short of the second entry: the root block still reads, the
    // group yields nothing, and the whole-message check says why.
    let short = md::MarketDataIncrementalRefreshTradesDecoder::decode(&buf[..n - 1]).unwrap();
    assert_eq!(short.transact_time(), 1);
    assert_eq!(short.md_inc_grp().count(), 0);
    assert!(matches!(
        short.checked_length().map_err(|e| e.error_kind()),
        Err(ErrorKind::Truncated)
    ));
    assert!(md::decode(&buf[..n - 1]).is_err());
}

/// A nested group of blocks only is checked with its entry: an entry whose
/// nested group is cut short ends the iteration, and the message does not
/// check.
#[test]
fn nested_fixed_size_groups_are_checked_with_their_entry() {
    let mut buf = vec![0u8; 256];
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    // `fuelFigures` is skipped: written empty.
    let mut p = e.performance_figures(1).unwrap();
    let mut entry = p.next_entry().unwrap();
    entry.octane_rating(95);
    let mut a = entry.acceleration(3).unwrap();
    for mph in [30, 60, 100] {
        a.next_entry().unwrap().mph(mph).seconds(1.0);
    }
    a.end().unwrap();
    let n = p.end().unwrap().finish().unwrap();
    let d = car::CarDecoder::decode(&buf[..n]).unwrap();
    let mph: Vec<u16> = d
        .performance_figures()
        .flat_map(|p| p.acceleration().map(|a| a.mph()))
        .collect();
    assert_eq!(mph, [30, 60, 100]);

    // Claim 200 acceleration entries: more than the buffer holds.
    let count_at = 8 + 45 + 4 + 4 + 1 + 2; // header, block, fuel dims, perf dims, octane, blockLength
    assert_eq!(buf[count_at], 3);
    buf[count_at] = 200;
    let d = car::CarDecoder::decode(&buf[..n]).unwrap();
    assert_eq!(d.performance_figures().count(), 0);
    assert!(d.checked_length().is_err());
}

#[test]
fn a_group_holds_the_entries_written_not_the_count_it_was_started_for() {
    // Started for three entries, two written, nested groups too: the
    // counts are written by each group's `end()`.
    let mut buf = vec![0u8; 256];
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    let mut perf = e.performance_figures(3).unwrap();
    for octane in [95, 98] {
        let mut entry = perf.next_entry().unwrap();
        entry.octane_rating(octane);
        let mut accel = entry.acceleration(5).unwrap();
        accel.next_entry().unwrap().mph(30).seconds(4.0);
        accel.end().unwrap();
    }
    let n = perf.end().unwrap().finish().unwrap();
    let car::Message::Car(d) = car::decode(&buf[..n]).unwrap();
    let entries: Vec<(u8, usize)> = d
        .performance_figures()
        .map(|p| (p.octane_rating(), p.acceleration().count()))
        .collect();
    assert_eq!(entries, [(95, 1), (98, 1)]);
    assert_eq!(d.checked_length(), Ok(n));
}

#[test]
fn a_buffer_that_runs_out_mid_group_leaves_the_entries_that_fit() {
    // Room for the message with every section empty and one `acceleration`
    // entry of a `performanceFigures` entry: the second entry does not fit.
    let mut buf = [0xaau8; 8 + 45 + 4 + (4 + 1 + 4 + 6) + 4 + 4 + 4];
    let e = car::CarEncoder::wrap(&mut buf).unwrap();
    let mut perf = e.performance_figures(1).unwrap();
    let mut entry = perf.next_entry().unwrap();
    entry.octane_rating(91);
    let mut accel = entry.acceleration(2).unwrap();
    accel.next_entry().unwrap().mph(60).seconds(7.5);
    // Refused, and the group goes on: its count is what fit.
    assert!(matches!(
        accel.next_entry().map(|_| ()).map_err(|e| e.error_kind()),
        Err(ErrorKind::BufferTooSmall)
    ));
    accel.end().unwrap();
    let n = perf.end().unwrap().finish().unwrap();
    assert_eq!(n, buf.len());
    let car::Message::Car(d) = car::decode(&buf).unwrap();
    let p = d.performance_figures().next().unwrap();
    let accel: Vec<u16> = p.acceleration().map(|a| a.mph()).collect();
    assert_eq!(accel, [60]);
    assert_eq!(d.checked_length(), Ok(n));
}
