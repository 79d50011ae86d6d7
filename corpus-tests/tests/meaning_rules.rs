//! The meaning rules of `sbe-build/tests/fixtures/meanings.xml` through
//! the generated code: a time composite whose semanticType is `Int` stays
//! its integers; a null mantissa is a null decimal whatever the exponent
//! holds (owned types hold `Option<Decimal>`); Binance-style decimals read
//! through their exponent field, in the root block while the mantissas
//! sit in groups; and a bare `int64` timestamp type whose meaning the
//! build script declares (`Config::meaning`).

use corpus_tests::s_declared_meanings as declared;
use corpus_tests::s_fixture_meanings as plain;
use sbe_rt::{Decimal, TimeUnit, Timestamp};

/// A Depth: priceExponent -2, qtyExponent -8, keepAlive 10 000 ms, a
/// null limit mantissa beside exponent 9, serverTime 1 700 000 000 123 456
/// µs, lastQty 150000000 (1.5), two bids of two fills each.
fn depth(buf: &mut [u8]) -> usize {
    depth_with(buf, -2)
}

/// [`depth`] with the null `bid`'s exponent `bid_exponent`.
fn depth_with(buf: &mut [u8], bid_exponent: i8) -> usize {
    let mut d = plain::DepthEncoder::wrap(buf).expect("wrap");
    d.price_exponent(-2).qty_exponent(-8);
    d.keep_alive().time(10_000);
    d.limit().mantissa(None).exponent(Some(9));
    d.server_time(1_700_000_000_123_456).last_qty(150_000_000);
    d.bid().mantissa(None).exponent(bid_exponent);
    let mut bids = d.bids(2).expect("bids");
    for (i, price) in [(0i64, 6_500_012i64), (1, 6_499_999)] {
        let mut bid = bids.next_entry().expect("entry");
        bid.price(price);
        bid.qty(if i == 0 { Some(250_000_000) } else { None });
        bid.volume((-(123_456_789_012_345_678_901_234i128)).to_le_bytes());
        let mut fills = bid.fills(2).expect("fills");
        for px in [price, price + 1] {
            fills.next_entry().expect("fill").px(px);
        }
        fills.end().expect("fills end");
    }
    bids.end().expect("bids end").finish().expect("finish")
}

#[test]
fn field_decimals_read_with_the_exponent_the_message_holds() {
    let mut buf = [0u8; 512];
    let len = depth(&mut buf);
    let Ok(plain::Message::Depth(d)) = plain::decode(&buf[..len]) else {
        panic!("a Depth");
    };
    let (pe, qe) = (d.price_exponent(), d.qty_exponent());
    assert_eq!(d.last_qty_value(qe).to_string(), "1.5");
    let mut prices = Vec::new();
    let mut qtys = Vec::new();
    let mut fills = Vec::new();
    let mut volumes = Vec::new();
    for bid in d.bids() {
        prices.push(bid.price_value(pe).to_string());
        qtys.push(bid.qty_value(qe).map(|q| q.to_string()));
        volumes.push(bid.volume_value(qe));
        for fill in bid.fills() {
            fills.push(fill.px_value(pe));
        }
    }
    assert_eq!(prices, ["65000.12", "64999.99"]);
    assert_eq!(qtys, [Some("2.5".to_string()), None]);
    assert_eq!(fills[1], Decimal::new(6_500_013, -2));
    assert_eq!(fills.len(), 4);
    // The 128-bit mantissa, exact past what an i64 holds.
    assert_eq!(volumes[0].to_string(), "-1234567890123456.78901234");
    assert_eq!(
        volumes[0],
        Decimal::new(-123_456_789_012_345_678_901_234, -8)
    );
}

#[test]
fn an_int_time_composite_is_plain_and_a_null_mantissa_is_a_null_decimal() {
    let mut buf = [0u8; 512];
    let len = depth(&mut buf);
    let Ok(plain::Message::Depth(d)) = plain::decode(&buf[..len]) else {
        panic!("a Depth");
    };
    // No typed value: the composite's members are what it holds.
    assert_eq!(d.keep_alive().time(), 10_000);
    // The exponent is on the wire and not null; the decimal is null.
    assert_eq!(d.limit().exponent(), Some(9));
    assert_eq!(d.limit().value(), None);
    assert_eq!(d.bid().exponent(), -2);
    assert_eq!(d.bid().value(), None);
    let owned = d.to_owned().expect("owned");
    // Its exponent required: the owned decimal is an Option<Decimal>.
    assert_eq!(owned.bid, None);
    // Its exponent optional too (iLink 3's Decimal32NULL): the composite,
    // as a mantissa beside a null exponent is no Decimal and is kept.
    assert_eq!(owned.limit.mantissa, None);
    assert_eq!(owned.limit.exponent, Some(9));
    assert_eq!(owned.keep_alive.time, 10_000);
    // Written back: still null.
    let mut again = [0u8; 512];
    let n = owned.encode(&mut again).expect("encode");
    let Ok(plain::Message::Depth(d2)) = plain::decode(&again[..n]) else {
        panic!("a Depth");
    };
    assert_eq!(d2.bid().mantissa(), None);
    assert_eq!(d2.bid().value(), None);
    assert_eq!(d2.limit().value(), None);
    // An owned Some(decimal) writes its mantissa and exponent.
    let mut with = owned.clone();
    with.bid = Some(Decimal::new(-15, -1));
    let n = with.encode(&mut again).expect("encode");
    let Ok(plain::Message::Depth(d3)) = plain::decode(&again[..n]) else {
        panic!("a Depth");
    };
    assert_eq!(d3.bid().value(), Some(Decimal::new(-15, -1)));
    assert_eq!(d3.bid().exponent(), -1);
}

#[test]
fn a_declared_type_is_a_timestamp_in_the_generated_code() {
    let mut buf = [0u8; 512];
    let len = depth(&mut buf);
    // The same bytes, through the code generated with
    // `.meaning("utcTimestampUs", Meaning::timestamp(TimeUnit::Micros))`.
    let Ok(declared::Message::Depth(d)) = declared::decode(&buf[..len]) else {
        panic!("a Depth");
    };
    let want: Timestamp = "2023-11-14T22:13:20.123456Z".parse().expect("time");
    assert_eq!(d.server_time_value(), want);
    assert_eq!(
        want.to_units::<i64>(TimeUnit::Micros),
        Ok(1_700_000_000_123_456)
    );
    let owned = d.to_owned().expect("owned");
    assert_eq!(owned.server_time, want);
    // Without the declaration the field stays an integer.
    let Ok(plain::Message::Depth(p)) = plain::decode(&buf[..len]) else {
        panic!("a Depth");
    };
    assert_eq!(
        p.to_owned().expect("owned").server_time,
        1_700_000_000_123_456
    );
}

#[test]
fn field_decimals_are_written_at_the_exponent_given() {
    let mut buf = [0u8; 512];
    let mut d = plain::DepthEncoder::wrap(&mut buf).expect("wrap");
    d.price_exponent(-2).qty_exponent(-8);
    d.last_qty_value("1.5".parse().expect("decimal"), -8)
        .expect("fits");
    // A digit the exponent cannot hold is refused, nothing rounded.
    assert!(d
        .last_qty_value("1.123456789".parse().expect("decimal"), -8)
        .is_err());
    let mut bids = d.bids(1).expect("bids");
    let mut bid = bids.next_entry().expect("entry");
    bid.price_value("65000.12".parse().expect("decimal"), -2)
        .expect("fits");
    bid.qty_value(None, -8).expect("null");
    bid.fills(0).expect("fills").end().expect("fills end");
    let len = bids.end().expect("bids end").finish().expect("finish");
    let Ok(plain::Message::Depth(m)) = plain::decode(&buf[..len]) else {
        panic!("a Depth");
    };
    assert_eq!(m.last_qty(), 150_000_000);
    let bid = m.bids().next().expect("a bid");
    assert_eq!(bid.price(), 6_500_012);
    assert_eq!(bid.qty(), None);
    assert_eq!(bid.price_value(m.price_exponent()).to_string(), "65000.12");
}

/// The owned Depth of [`depth`]'s bytes, and those bytes; its null
/// `bid` beside exponent 0, as an owned `None` writes it (the exponent
/// beside a null mantissa is not held), so that the bytes read back.
fn owned_depth() -> (plain::Depth, Vec<u8>) {
    let mut buf = [0u8; 512];
    let len = depth_with(&mut buf, 0);
    let bytes = buf[..len].to_vec();
    let Ok(plain::Message::Depth(d)) = plain::decode(&bytes) else {
        panic!("a Depth");
    };
    (d.to_owned().expect("owned"), bytes)
}

/// `m` encoded.
fn encoded(m: &plain::Depth) -> sbe_rt::Result<Vec<u8>> {
    let mut out = vec![0u8; m.encoded_length()];
    let n = m.encode(&mut out)?;
    out.truncate(n);
    Ok(out)
}

#[test]
fn owned_field_decimals_hold_exact_decimals_and_write_the_same_bytes() {
    let (owned, bytes) = owned_depth();
    // Read at the exponents the message holds: the root's own field and
    // the group entries', whose exponent fields are the message's.
    assert_eq!(owned.last_qty, Decimal::new(15, -1));
    assert_eq!(owned.last_qty.exponent(), -8);
    let prices: Vec<String> = owned.bids.iter().map(|b| b.price.to_string()).collect();
    assert_eq!(prices, ["65000.12", "64999.99"]);
    assert_eq!(owned.bids[0].qty, Some(Decimal::new(25, -1)));
    // A null mantissa is no decimal.
    assert_eq!(owned.bids[1].qty, None);
    // The 128-bit mantissa, past what an i64 holds.
    assert_eq!(
        owned.bids[0].volume.to_string(),
        "-1234567890123456.78901234"
    );
    // A nested group's entries read the message's exponent too.
    assert_eq!(owned.bids[0].fills[1].px.to_string(), "65000.13");
    // Written back: the bytes read.
    assert_eq!(encoded(&owned).expect("encodes"), bytes);
    // An entry on its own takes the exponents from its caller.
    let Ok(plain::Message::Depth(d)) = plain::decode(&bytes) else {
        panic!("a Depth");
    };
    let bid = d.bids().next().expect("a bid");
    let entry = bid
        .to_owned(d.price_exponent(), d.qty_exponent())
        .expect("owned entry");
    assert_eq!(entry, owned.bids[0]);
}

#[test]
fn owned_field_decimals_are_written_at_the_exponent_field_or_refused() {
    let (mut owned, _) = owned_depth();
    // A value at another scale than its exponent field: written at the
    // exponent field's, exactly.
    owned.bids[0].price = "65000.1".parse().expect("decimal");
    owned.bids[0].qty = Some("3".parse().expect("decimal"));
    owned.bids[0].volume = Decimal::new(7, 2);
    // The exponent field is the truth: a finer exponent rescales every
    // value that reads it, here the prices of entries and their fills.
    owned.price_exponent = -4;
    let bytes = encoded(&owned).expect("encodes");
    let Ok(plain::Message::Depth(d)) = plain::decode(&bytes) else {
        panic!("a Depth");
    };
    assert_eq!(d.price_exponent(), -4);
    let bid = d.bids().next().expect("a bid");
    assert_eq!(bid.price(), 650_001_000);
    assert_eq!(bid.qty(), Some(300_000_000));
    assert_eq!(bid.volume(), (700i128 * 100_000_000).to_le_bytes());
    assert_eq!(bid.fills().next().expect("a fill").px(), 650_001_200);
    let back = d.to_owned().expect("owned");
    assert_eq!(back.bids[0].price, owned.bids[0].price);
    assert_eq!(back.bids[0].fills, owned.bids[0].fills);

    // A digit the exponent field cannot hold: an error naming the field
    // (the schema's `explain`), nothing rounded.
    let mut lossy = owned.clone();
    lossy.bids[1].price = "64999.99001".parse().expect("decimal");
    let err = plain::explain(encoded(&lossy).expect_err("a digit lost")).to_string();
    assert!(err.contains("Depth.bids.price"), "{err}");
    let mut lossy = owned.clone();
    lossy.last_qty = "0.000000001".parse().expect("decimal");
    let err = plain::explain(encoded(&lossy).expect_err("a digit lost")).to_string();
    assert!(err.contains("Depth.lastQty"), "{err}");
    // A mantissa past its type: an error too, for the 128-bit one as well.
    let mut big = owned.clone();
    big.bids[0].fills[0].px = Decimal::new(i128::from(i64::MAX) + 1, -4);
    let err = plain::explain(encoded(&big).expect_err("too large for an int64")).to_string();
    assert!(err.contains("Depth.bids.fills.px"), "{err}");
    let mut big = owned.clone();
    big.bids[0].volume = Decimal::new(i128::MAX, 0);
    let err = plain::explain(encoded(&big).expect_err("too large for 128 bits at -8")).to_string();
    assert!(err.contains("Depth.bids.volume"), "{err}");
}

#[test]
fn serde_writes_field_decimals_as_exact_decimal_strings() {
    let (owned, bytes) = owned_depth();
    let json = serde_json::to_value(&owned).expect("serializes");
    assert_eq!(json["lastQty"], "1.5");
    assert_eq!(json["bids"][0]["price"], "65000.12");
    assert_eq!(json["bids"][0]["qty"], "2.5");
    assert_eq!(json["bids"][1]["qty"], serde_json::Value::Null);
    assert_eq!(json["bids"][0]["volume"], "-1234567890123456.78901234");
    assert_eq!(json["bids"][0]["fills"][1]["px"], "65000.13");
    // Read back and written: the bytes read, byte for byte.
    let back: plain::Depth = serde_json::from_value(json.clone()).expect("deserializes");
    assert_eq!(back, owned);
    assert_eq!(encoded(&back).expect("encodes"), bytes);
    // A number is refused (an integer could be the mantissa or the
    // value), naming the field.
    let mut number = json.clone();
    number["bids"][0]["price"] = serde_json::json!(6_500_012);
    let err = serde_json::from_value::<plain::Depth>(number).expect_err("a number");
    assert!(err.to_string().contains("price"), "{err}");
    let mut text = json;
    text["lastQty"] = serde_json::json!("1.5.0");
    let err = serde_json::from_value::<plain::Depth>(text).expect_err("not a decimal");
    assert!(err.to_string().contains("lastQty"), "{err}");
}
