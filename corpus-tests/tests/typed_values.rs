//! The typed accessors and setters the IR's meaning facts give the
//! generated code (`sbe-build/tests/fixtures/values.xml`): decimals,
//! timestamps, dates and MonthYears read as `sbe_rt` values and written
//! from them, exactly or not at all.

use corpus_tests::s_fixture_values as values;
use sbe_rt::{Date, Decimal, Error, MonthYear, TimeUnit, Timestamp};
use values::{Message, QuoteEncoder};

fn ts(text: &str) -> Timestamp {
    text.parse().expect("RFC 3339")
}

/// A quote with every typed value written through its typed setter.
fn encode(buf: &mut [u8]) -> Result<usize, Error> {
    encode_then(buf, |_| {})
}

/// [`encode`], then `more` on the encoder before it finishes.
fn encode_then(buf: &mut [u8], more: impl FnOnce(&mut QuoteEncoder)) -> Result<usize, Error> {
    let mut q = QuoteEncoder::wrap(buf)?;
    q.price().value("123.45".parse().expect("decimal"))?;
    q.limit().value(Decimal::new(-15, -1))?;
    q.size().value(Decimal::new(1200, 0))?;
    q.sent_value(ts("2024-01-02T03:04:05.123456789Z"))?;
    q.sent_ms_value(ts("1969-12-31T23:59:59.999Z"))?;
    q.stamp().value(ts("2024-01-02T03:04:05.123456Z"))?;
    q.stamp_on_wire().time(1_704_164_645).unit(0);
    q.trade_date_value(Some(Date::from_ymd(2024, 6, 14).expect("date")))?;
    q.settle_date_value(Date::from_ymd(1969, 7, 20).expect("date"))?;
    q.maturity()
        .year(Some(2024))
        .month(Some(6))
        .day(None)
        .week(Some(3));
    q.expires_value(None)?;
    more(&mut q);
    Ok(q.finish()?)
}

#[test]
fn typed_values_read_back_what_the_typed_setters_wrote() {
    let mut buf = [0u8; 256];
    let len = encode(&mut buf).expect("encode");
    let Ok(Message::Quote(q)) = values::decode(&buf[..len]) else {
        panic!("a Quote");
    };
    assert_eq!(q.price().mantissa(), 123_450_000_000);
    assert_eq!(q.price().value().to_string(), "123.45");
    assert_eq!(q.limit().value(), Some(Decimal::new(-15, -1)));
    assert_eq!(q.limit().exponent(), -1);
    assert_eq!(q.size().mantissa(), 12);
    assert_eq!(q.size().value(), Decimal::new(1200, 0));
    assert_eq!(q.sent_value().to_string(), "2024-01-02T03:04:05.123456789Z");
    assert_eq!(q.sent(), 1_704_164_645_123_456_789);
    assert_eq!(q.sent_ms(), -1);
    assert_eq!(
        q.sent_ms_value().to_string(),
        "1969-12-31T23:59:59.999000000Z"
    );
    assert_eq!(q.stamp().time(), 1_704_164_645_123_456);
    assert_eq!(q.stamp().value(), ts("2024-01-02T03:04:05.123456Z"));
    assert_eq!(q.stamp_on_wire().value(), Some(ts("2024-01-02T03:04:05Z")));
    assert_eq!(
        q.trade_date_value().map(|d| d.to_string()).as_deref(),
        Some("2024-06-14")
    );
    assert_eq!(q.settle_date_value().to_string(), "1969-07-20");
    assert_eq!(q.maturity().value(), MonthYear::new(2024, 6).with_week(3));
    assert_eq!(q.maturity().value().to_string(), "202406w3");
    assert_eq!(q.expires_value(), None);
}

#[test]
fn nulls_and_units_off_the_spec_read_as_none() {
    let mut buf = [0u8; 256];
    let len = encode(&mut buf).expect("encode");
    let mut q = QuoteEncoder::wrap(&mut buf[..len]).expect("wrap");
    q.limit().mantissa(None);
    q.trade_date(None);
    q.stamp_on_wire().unit(5);
    q.maturity().year(None);
    let Ok(Message::Quote(q)) = values::decode(&buf[..len]) else {
        panic!("a Quote");
    };
    assert_eq!(q.limit().value(), None);
    assert_eq!(q.trade_date_value(), None);
    assert_eq!(q.stamp_on_wire().value(), None, "unit code 5 is no unit");
    assert!(q.maturity().value().is_null());
    assert_eq!(q.maturity().value().to_string(), "");
}

#[test]
fn a_value_that_does_not_fit_exactly_is_an_error_and_writes_nothing() {
    let mut want = [0u8; 256];
    let len = encode(&mut want).expect("encode");
    let mut got = [0u8; 256];
    let refused = |q: &mut QuoteEncoder| {
        let out_of_range = Err(Error::value_out_of_range());
        // 0.0000000001 needs a tenth exponent digit; 1250 is not a whole
        // number of hundreds; a uint32 mantissa holds no negative.
        assert_eq!(
            q.price()
                .value(Decimal::new(1, -10))
                .map(|_| ())
                .map_err(Error::from),
            out_of_range
        );
        assert_eq!(
            q.size()
                .value(Decimal::new(1250, 0))
                .map(|_| ())
                .map_err(Error::from),
            out_of_range
        );
        assert_eq!(
            q.size()
                .value(Decimal::new(-100, 0))
                .map(|_| ())
                .map_err(Error::from),
            out_of_range
        );
        // Before the epoch in an unsigned count; a nanosecond in microseconds.
        assert_eq!(
            q.sent_value(ts("1969-12-31T23:59:59Z"))
                .map(|_| ())
                .map_err(Error::from),
            out_of_range
        );
        // The field's setter names it; the composite's cannot (it is shared).
        let e = q
            .sent_value(ts("1969-12-31T23:59:59Z"))
            .map(|_| ())
            .map_err(Error::from)
            .unwrap_err();
        assert_eq!(values::explain(e).element(), Some("Quote.sent"));
        let e = q
            .price()
            .value(Decimal::new(1, -10))
            .map(|_| ())
            .map_err(Error::from)
            .unwrap_err();
        assert_eq!(e.element(), None);
        let one_ns_more = ts("2024-01-02T03:04:05.000000001Z");
        assert_eq!(
            q.stamp()
                .value(one_ns_more)
                .map(|_| ())
                .map_err(Error::from),
            out_of_range
        );
        let tenth_ms = ts("2024-01-02T03:04:05.0001Z");
        assert_eq!(
            q.sent_ms_value(tenth_ms).map(|_| ()).map_err(Error::from),
            out_of_range
        );
        // Days before 1970 do not fit LocalMktDate's uint16.
        let old = Date::from_ymd(1969, 1, 1);
        assert_eq!(
            q.trade_date_value(old).map(|_| ()).map_err(Error::from),
            out_of_range
        );
    };
    assert_eq!(encode_then(&mut got, refused), Ok(len));
    assert_eq!(got, want, "a refused value writes nothing");
}

#[test]
fn an_older_message_reads_a_newer_typed_field_as_none() {
    let mut buf = [0u8; 256];
    let len = encode(&mut buf).expect("encode");
    let mut q = QuoteEncoder::wrap(&mut buf[..len]).expect("wrap");
    q.expires_value(Some(Timestamp::from_count(7, TimeUnit::Seconds)))
        .expect("fits");
    let Ok(Message::Quote(q)) = values::decode(&buf[..len]) else {
        panic!("a Quote");
    };
    assert_eq!(q.expires_value(), Some(ts("1970-01-01T00:00:07Z")));
    // The same bytes under a version-0 header: the field is not there.
    buf[6] = 0;
    let Ok(Message::Quote(q)) = values::decode(&buf[..len]) else {
        panic!("a Quote");
    };
    assert_eq!(q.expires_value(), None);
}

#[test]
fn month_year_writes_from_its_value() {
    let mut buf = [0u8; 256];
    let len = encode(&mut buf).expect("encode");
    let mut q = QuoteEncoder::wrap(&mut buf[..len]).expect("wrap");
    let june = MonthYear::new(2024, 6).with_day(20);
    q.maturity().value(june).expect("fits");
    let Ok(Message::Quote(q)) = values::decode(&buf[..len]) else {
        panic!("a Quote");
    };
    assert_eq!(q.maturity().value(), june);
    assert_eq!(q.maturity().value().to_string(), "20240620");
    // Every member is optional here: null writes each one's null.
    let mut q = QuoteEncoder::wrap(&mut buf[..len]).expect("wrap");
    q.maturity().value(MonthYear::NULL).expect("fits");
    let Ok(Message::Quote(q)) = values::decode(&buf[..len]) else {
        panic!("a Quote");
    };
    assert!(q.maturity().value().is_null());
    assert_eq!(q.maturity().year(), None);
}

#[test]
fn a_month_year_the_composite_cannot_hold_is_an_error_and_writes_nothing() {
    let march = |q: &mut QuoteEncoder| {
        q.contract().value(MonthYear::new(2025, 3)).expect("fits");
    };
    let mut want = [0u8; 256];
    let len = encode_then(&mut want, march).expect("encode");
    let mut got = [0u8; 256];
    let refused = |q: &mut QuoteEncoder| {
        march(q);
        // No day or week member to hold one; a required year may not be null.
        let refused = [
            MonthYear::new(2026, 1).with_day(5),
            MonthYear::new(2026, 1).with_week(2),
            MonthYear {
                year: None,
                ..MonthYear::new(2026, 1)
            },
        ];
        for v in refused {
            assert_eq!(
                q.contract().value(v).map(|_| ()).map_err(Error::from),
                Err(Error::value_out_of_range()),
                "{v:?}"
            );
        }
    };
    assert_eq!(encode_then(&mut got, refused), Ok(len));
    assert_eq!(got, want, "a refused MonthYear writes nothing");
    let Ok(Message::Quote(q)) = values::decode(&got[..len]) else {
        panic!("a Quote");
    };
    assert_eq!(
        q.contract().map(|c| c.value()),
        Some(MonthYear::new(2025, 3))
    );
}

/// The owned Quote holds the typed values (`Fixed`, `Timestamp`, `Date`,
/// `MonthYear`) where the meaning has them both ways, writes the bytes it
/// was read from, and goes through serde in the wire form: the body of
/// `to_json`.
#[test]
fn an_owned_message_holds_typed_values_and_writes_its_bytes_back() {
    let mut buf = [0u8; 256];
    let len = encode(&mut buf).expect("encode");
    let bytes = &buf[..len];
    let message = values::decode(bytes).expect("decodes");
    let Message::Quote(q) = &message;
    let owned: values::Quote = q.to_owned().expect("to_owned");
    assert_eq!(
        owned.price.value(),
        "123.45".parse::<Decimal>().expect("decimal")
    );
    assert_eq!(owned.price, "123.45".parse().expect("exact at -9"));
    assert_eq!(owned.size.value(), Decimal::new(1200, 0));
    assert_eq!(owned.size.mantissa(), 12);
    assert_eq!(owned.sent, ts("2024-01-02T03:04:05.123456789Z"));
    assert_eq!(owned.sent_ms, ts("1969-12-31T23:59:59.999Z"));
    assert_eq!(owned.stamp, ts("2024-01-02T03:04:05.123456Z"));
    assert_eq!(owned.trade_date, Date::from_ymd(2024, 6, 14));
    assert_eq!(
        owned.settle_date,
        Date::from_ymd(1969, 7, 20).expect("date")
    );
    assert_eq!(owned.maturity, MonthYear::new(2024, 6).with_week(3));
    assert_eq!(owned.expires, Some(None));
    let mut again = vec![0u8; owned.encoded_length()];
    let n = owned.encode(&mut again).expect("encode");
    assert_eq!(&again[..n], bytes);

    let json = serde_json::to_string(&owned).expect("serializes");
    let whole: serde_json::Value = serde_json::from_str(&message.to_json()).expect("JSON");
    let ours: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(Some(&ours), whole.get("body"), "{json}");
    let back: values::Quote = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, owned);

    // A value the wire cannot hold is an error, not a rounded value.
    let mut late = owned.clone();
    late.sent = ts("1969-12-31T23:59:59Z");
    assert_eq!(
        late.encode(&mut again).map_err(Error::from),
        Err(Error::value_out_of_range())
    );
    assert!(serde_json::to_string(&late).is_err());
}

#[test]
fn a_zoned_time_reads_the_specs_example_and_writes_from_its_value() {
    // The spec's TZTimestamp: 8:30 on 17 September 2013 in Chicago
    // (-6:00), in nanoseconds.
    let spec = [
        0x00, 0x50, 0xd4, 0x89, 0xfe, 0xa2, 0x24, 0x13, 0x09, 0xfa, 0x00,
    ];
    let chicago = values::TzTimestampDecoder::wrap(&spec)
        .expect("11 bytes")
        .value()
        .expect("a zoned time");
    assert_eq!(chicago.to_string(), "2013-09-17T08:30:00.000000000-06:00");
    assert_eq!(chicago.instant(), ts("2013-09-17T14:30:00Z"));
    let mut bad_unit = spec;
    bad_unit[8] = 5;
    let decoder = values::TzTimestampDecoder::wrap(&bad_unit).expect("11 bytes");
    assert_eq!(decoder.value(), None, "unit code 5 is no unit");

    let write = |q: &mut QuoteEncoder| {
        q.local_ms().value(chicago).expect("whole milliseconds");
    };
    let mut want = [0u8; 256];
    let len = encode_then(&mut want, write).expect("encode");
    let Ok(Message::Quote(q)) = values::decode(&want[..len]) else {
        panic!("a Quote");
    };
    let local_ms = q.local_ms().expect("version 1");
    assert_eq!(local_ms.value(), Some(chicago));
    assert_eq!(local_ms.time(), 1_379_406_600_000);
    assert_eq!(
        (local_ms.timezone_hour(), local_ms.timezone_minute()),
        (-6, 0)
    );

    // A nanosecond the unit cannot hold; -00:30, whose sign the hour
    // cannot carry: refused, and nothing written.
    let mut got = [0u8; 256];
    let refused = |q: &mut QuoteEncoder| {
        write(q);
        let late = sbe_rt::ZonedTimestamp::from_parts(ts("2013-09-17T08:30:00.000000001Z"), -6, 0)
            .expect("zoned");
        assert_eq!(
            q.local_ms().value(late).map(|_| ()).map_err(Error::from),
            Err(Error::value_out_of_range())
        );
        let west = sbe_rt::ZonedTimestamp::new(chicago.local(), -30).expect("zoned");
        assert_eq!(
            q.local_ms().value(west).map(|_| ()).map_err(Error::from),
            Err(Error::value_out_of_range())
        );
    };
    assert_eq!(encode_then(&mut got, refused), Ok(len));
    assert_eq!(got, want, "a refused zoned time writes nothing");
}
