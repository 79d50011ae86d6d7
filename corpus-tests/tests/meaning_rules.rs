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
    let mut d = plain::DepthEncoder::wrap(buf).expect("wrap");
    d.price_exponent(-2).qty_exponent(-8);
    d.keep_alive().time(10_000);
    d.limit().mantissa(None).exponent(Some(9));
    d.server_time(1_700_000_000_123_456).last_qty(150_000_000);
    d.bid().mantissa(None).exponent(-2);
    {
        let mut bids = d.bids(2).expect("bids");
        for (i, price) in [(0i64, 6_500_012i64), (1, 6_499_999)] {
            bids.next_entry().expect("entry");
            bids.price(price);
            bids.qty(if i == 0 { Some(250_000_000) } else { None });
            bids.volume((-(123_456_789_012_345_678_901_234i128)).to_le_bytes());
            let mut fills = bids.fills(2).expect("fills");
            for px in [price, price + 1] {
                fills.next_entry().expect("fill");
                fills.px(px);
            }
        }
    }
    d.finish().expect("finish")
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
    {
        let mut bids = d.bids(1).expect("bids");
        bids.next_entry().expect("entry");
        bids.price_value("65000.12".parse().expect("decimal"), -2)
            .expect("fits");
        bids.qty_value(None, -8).expect("null");
        bids.fills(0).expect("fills");
    }
    let len = d.finish().expect("finish");
    let Ok(plain::Message::Depth(m)) = plain::decode(&buf[..len]) else {
        panic!("a Depth");
    };
    assert_eq!(m.last_qty(), 150_000_000);
    let bid = m.bids().next().expect("a bid");
    assert_eq!(bid.price(), 6_500_012);
    assert_eq!(bid.qty(), None);
    assert_eq!(bid.price_value(m.price_exponent()).to_string(), "65000.12");
}
