//! The owned messages of the `owned.xml` fixture (every kind of value an
//! owned struct holds): one written by hand encodes to the bytes the
//! flyweight encoder writes for the same values, reads back as itself, and
//! goes through serde as FORMAT.md's JSON; JSON that does not fit is a
//! serde error naming the field, never a panic.

use corpus_tests::s_fixture_owned as o;

/// A message of every kind of value, held.
fn trade() -> o::Trade {
    o::Trade {
        id: 7,
        side: o::Side::Buy,
        level: Some(o::Level::High),
        flags: o::Flags::URGENT | o::Flags::HIDDEN,
        price: sbe_rt::Fixed::new(-12345),
        name: "Grüß".into(),
        code: Some("ab".into()),
        letter: Some(b'x'),
        initial: b'I',
        pair: [Some(1), None],
        ratios: [0.5, f32::NAN],
        other: o::OwnedMessage2 { a: 3 },
        qty: Some(10),
        limit: Some(Some(-5)),
        legs: vec![
            o::TradeLegs {
                px: 1.25,
                fills: vec![o::TradeLegsFills { n: 1 }, o::TradeLegsFills { n: 2 }],
                note: "café".into(),
            },
            o::TradeLegs {
                px: -0.0,
                fills: vec![],
                note: String::new(),
            },
        ],
        memo: "héllo ✓".into(),
        raw: vec![0xde, 0xad, 0x00],
        late: Some("x".into()),
    }
}

/// The same values, written with the flyweight encoder.
fn trade_by_flyweight(buf: &mut [u8]) -> sbe_rt::Result<usize> {
    let mut e = o::TradeEncoder::wrap(buf)?;
    e.id(7)
        .side(o::Side::Buy)
        .level(Some(o::Level::High))
        .flags(o::Flags::URGENT | o::Flags::HIDDEN);
    e.price().mantissa(-12345);
    e.name(b"Gr\xfc\xdf")?;
    e.code("ab")?;
    e.letter(Some(b'x'))
        .initial(b'I')
        .pair([1, i16::MIN])
        .ratios([0.5, f32::NAN]);
    e.other().a(3);
    e.qty(10).limit(Some(-5));
    let mut legs = e.legs(2)?;
    let mut leg = legs.next_entry()?;
    leg.px(1.25);
    let mut fills = leg.fills(2)?;
    fills.next_entry()?.n(1);
    fills.next_entry()?.n(2);
    fills.end()?.note(b"caf\xe9")?;
    legs.next_entry()?.px(-0.0);
    let e = legs.end()?;
    Ok(e.memo("héllo ✓")?
        .raw([0xde, 0xad, 0x00])?
        .late("x")?
        .finish()?)
}

/// `m` written by its `encode`, checked against `encoded_length`.
fn encode(m: &o::Trade) -> sbe_rt::Result<Vec<u8>> {
    let mut buf = vec![0u8; m.encoded_length()];
    let n = m.encode(&mut buf)?;
    assert_eq!(n, m.encoded_length());
    Ok(buf)
}

/// `a` and `b` are the same message, NaN for NaN.
fn same(a: &o::Trade, b: &o::Trade) {
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

#[test]
fn an_owned_message_writes_what_the_flyweight_encoder_writes() {
    let mut by_hand = vec![0u8; 512];
    let n = trade_by_flyweight(&mut by_hand).expect("flyweight encodes");
    by_hand.truncate(n);
    assert_eq!(encode(&trade()).expect("owned encodes"), by_hand);
}

#[test]
fn an_owned_message_reads_back_as_itself() {
    let bytes = encode(&trade()).expect("encodes");
    let o::Message::Trade(d) = o::decode(&bytes).expect("decodes");
    same(&d.to_owned().expect("to_owned"), &trade());
    let owned = o::OwnedMessage::decode(&bytes).expect("decodes owned");
    assert_eq!(owned.name(), "Trade");
    assert_eq!(owned.encoded_length(), bytes.len());
    let mut again = vec![0u8; bytes.len()];
    assert_eq!(owned.encode(&mut again), Ok(bytes.len()));
    assert_eq!(again, bytes);
    // The group entry and the composite decoders have their own.
    let leg = d
        .legs()
        .next()
        .expect("a leg")
        .to_owned()
        .expect("entry to_owned");
    assert_eq!(leg, trade().legs[0]);
    assert_eq!(d.price().to_owned(), Ok(o::Price { mantissa: -12345 }));
}

/// An item the message does not hold (as one of an older version) is
/// written null, or empty: it reads back as null, not as the item absent
/// (the bytes are of this version).
#[test]
fn items_not_held_are_written_null_or_empty() {
    let mut m = trade();
    m.qty = None;
    m.limit = None;
    m.late = None;
    let bytes = encode(&m).expect("encodes");
    let o::Message::Trade(d) = o::decode(&bytes).expect("decodes");
    let back = d.to_owned().expect("to_owned");
    assert_eq!(back.qty, Some(u32::MAX));
    assert_eq!(back.limit, Some(None));
    assert_eq!(back.late.as_deref(), Some(""));
}

/// `encode` writes ISO-8859-1 text that is ASCII in a first pass and text
/// that needs converting in a second: both give the same bytes for the
/// same lengths, and the same error for every buffer too short.
#[test]
fn text_needing_conversion_or_not_is_written_and_refused_alike() {
    let mut ascii = trade();
    ascii.name = "Grus".into();
    ascii.legs[0].note = "cafe".into();
    let (plain, converted) = (
        encode(&ascii).expect("ascii"),
        encode(&trade()).expect("latin1"),
    );
    assert_eq!(plain.len(), converted.len());
    let differ: Vec<usize> = (0..plain.len())
        .filter(|&i| plain[i] != converted[i])
        .collect();
    assert_eq!(differ.len(), 3, "ü, ß and é, one byte each: {differ:?}");
    let o::Message::Trade(d) = o::decode(&plain).expect("decodes");
    same(&d.to_owned().expect("to_owned"), &ascii);
    for n in 0..plain.len() {
        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
        assert_eq!(ascii.encode(&mut a), trade().encode(&mut b), "{n} bytes");
        assert!(ascii.encode(&mut a).is_err(), "{n} bytes");
    }
}

#[test]
fn values_that_do_not_fit_are_errors_not_panics() {
    let mut m = trade();
    m.name = "€uro".into();
    assert_eq!(encode(&m).map(|_| ()), Err(sbe_rt::Error::invalid_text(0)));
    let mut m = trade();
    m.name = "toolong".into();
    assert!(matches!(
        encode(&m),
        Err(e) if e.error_kind() == sbe_rt::ErrorKind::LengthOutOfRange
    ));
    let mut m = trade();
    m.legs = vec![m.legs[0].clone(); 300];
    assert!(matches!(
        m.encode(&mut vec![0u8; 1 << 16]),
        Err(e) if e.error_kind() == sbe_rt::ErrorKind::CountOutOfRange
    ));
    // A decimal with more digits than the schema's exponent holds is
    // refused where the owned value is made from it: the field holds the
    // schema's exponent by its type.
    let price = sbe_rt::Fixed::<i64, -4>::try_from(sbe_rt::Decimal::new(1, -5));
    assert_eq!(price, Err(sbe_rt::RangeError::Inexact));
    let mut m = trade();
    m.price = sbe_rt::Decimal::new(25, -1).try_into().expect("2.5 at -4");
    let back = o::TradeDecoder::decode(&encode(&m).expect("encodes")).and_then(|d| d.to_owned());
    assert_eq!(back.map(|t| t.price.to_string()).as_deref(), Ok("2.5"));
    let m = trade();
    for n in 0..m.encoded_length() {
        assert!(m.encode(&mut vec![0u8; n]).is_err(), "{n} bytes");
    }
    // Not UTF-8 where the schema says UTF-8.
    let mut bytes = encode(&trade()).expect("encodes");
    let at = bytes
        .windows(2)
        .position(|w| w == "é".as_bytes())
        .expect("memo's é");
    bytes[at + 1] = 0xff;
    assert!(matches!(
        o::OwnedMessage::decode(&bytes),
        Err(e) if e.error_kind() == sbe_rt::ErrorKind::InvalidText
    ));
    let e = o::OwnedMessage::decode(&bytes).expect_err("not UTF-8");
    assert_eq!(o::explain(e).element(), Some("Trade.memo"));
}

#[test]
fn serde_writes_the_body_of_to_json_and_reads_it_back() {
    let bytes = encode(&trade()).expect("encodes");
    let message = o::decode(&bytes).expect("decodes");
    let json = serde_json::to_string(&trade()).expect("serializes");
    let whole: serde_json::Value = serde_json::from_str(&message.to_json()).expect("JSON");
    assert_eq!(json, whole["body"].to_string());
    let back: o::Trade = serde_json::from_str(&json).expect("deserializes");
    same(&back, &trade());
    assert_eq!(encode(&back), Ok(bytes));
    // Constants are written, and read over.
    assert!(json.contains(r#""venue":"Sell""#), "{json}");
    assert!(
        json.contains(r#""price":{"mantissa":-12345,"exponent":-4}"#),
        "{json}"
    );
    assert!(json.contains(r#""flags":["urgent","hidden"]"#), "{json}");
    assert!(json.contains(r#""pair":[1,null]"#), "{json}");
    assert!(json.contains(r#""raw":"dead00""#), "{json}");
}

/// An enum value or set bit the schema does not name is kept as a number.
#[test]
fn unknown_enum_values_and_set_bits_are_numbers() {
    let mut m = trade();
    m.level = Some(o::Level(9));
    m.flags = o::Flags(0b0000_0101);
    let json = serde_json::to_string(&m).expect("serializes");
    assert!(json.contains(r#""level":9"#), "{json}");
    assert!(json.contains(r#""flags":["urgent",2]"#), "{json}");
    let back: o::Trade = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back.level, Some(o::Level(9)));
    assert_eq!(back.flags, o::Flags(0b0000_0101));
}

/// `json` with the value of `key` replaced by `value`.
fn with(json: &serde_json::Value, key: &str, value: serde_json::Value) -> String {
    let mut json = json.clone();
    json[key] = value;
    json.to_string()
}

#[test]
fn json_that_does_not_fit_is_an_error_naming_the_field() {
    use serde_json::json;
    let good: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&trade()).expect("serializes")).expect("JSON");
    let cases = [
        ("side", json!("Hold"), "Hold"),
        ("side", json!(300), "side"),
        ("level", json!(-1), "level"),
        ("id", json!("seven"), "id"),
        ("id", json!(-7), "id"),
        ("flags", json!(["urgent", "loud"]), "loud"),
        ("flags", json!([8]), "flags"),
        ("flags", json!("urgent"), "flags"),
        ("pair", json!([1, 2, 3]), "pair"),
        ("letter", json!("xy"), "letter"),
        ("initial", json!(null), "initial"),
        ("raw", json!("abc"), "raw"),
        ("raw", json!("zz"), "raw"),
        ("name", json!(5), "name"),
        ("price", json!({"exponent": -4}), "mantissa"),
        (
            "legs",
            json!([{"px": 1.0, "fills": [{"n": 70000}], "note": ""}]),
            "n",
        ),
    ];
    for (key, value, named) in cases {
        let text = with(&good, key, value.clone());
        match serde_json::from_str::<o::Trade>(&text) {
            Ok(_) => panic!("{key} = {value} was read"),
            Err(e) => assert!(e.to_string().contains(named), "{key} = {value}: {e}"),
        }
    }
    let mut missing = good.clone();
    missing.as_object_mut().expect("object").remove("id");
    let e = serde_json::from_str::<o::Trade>(&missing.to_string()).expect_err("id is required");
    assert!(e.to_string().contains("missing field `id`"), "{e}");
    // Items newer than their block may be left out: not held.
    let mut old = good.clone();
    for key in ["qty", "limit", "late"] {
        old.as_object_mut().expect("object").remove(key);
    }
    let back: o::Trade = serde_json::from_str(&old.to_string()).expect("reads");
    assert_eq!((back.qty, back.limit, back.late), (None, None, None));
    // Every prefix of the text is an error, never a panic.
    let text = good.to_string();
    for n in 0..text.len() {
        if text.is_char_boundary(n) {
            assert!(serde_json::from_str::<o::Trade>(&text[..n]).is_err());
        }
    }
}

/// The owned message enum through serde: `{"message", "body"}`, the
/// generated `to_json` without its header, and any line of `sbe decode`
/// (with `schema` and `header`) reads back as the message.
#[test]
fn the_owned_message_enum_goes_through_serde_by_name() {
    let bytes = encode(&trade()).expect("encodes");
    let owned = o::OwnedMessage::decode(&bytes).expect("decodes");
    let json = serde_json::to_string(&owned).expect("serializes");
    let whole: serde_json::Value =
        serde_json::from_str(&o::decode(&bytes).expect("decodes").to_json()).expect("JSON");
    let want = serde_json::json!({"message": whole["message"], "body": whole["body"]});
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&json).expect("JSON"),
        want
    );
    for text in [json.clone(), whole.to_string()] {
        let back: o::OwnedMessage = serde_json::from_str(&text).expect("deserializes");
        // Debug, as a NaN ratio is not equal to itself.
        assert_eq!(format!("{back:?}"), format!("{owned:?}"));
        let mut out = vec![0u8; back.encoded_length()];
        let n = back.encode(&mut out).expect("encodes");
        assert_eq!(out.get(..n), Some(&bytes[..]));
    }
    let refused = [
        (
            r#"{"message":"Quote","body":{}}"#,
            "unknown variant `Quote`",
        ),
        (
            r#"{"body":{},"message":"Trade"}"#,
            "`message` must come before `body`",
        ),
        (r#"{"message":"Trade"}"#, "missing field `body`"),
        (r#"{"message":"Trade","body":{"id":1}}"#, "missing field"),
        (r#"{"message":7,"body":{}}"#, "invalid type"),
    ];
    for (text, says) in refused {
        let e = serde_json::from_str::<o::OwnedMessage>(text).expect_err(text);
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
}
