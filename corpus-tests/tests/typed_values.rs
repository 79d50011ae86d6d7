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
    q.finish()
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
            q.price().value(Decimal::new(1, -10)).map(|_| ()),
            out_of_range
        );
        assert_eq!(
            q.size().value(Decimal::new(1250, 0)).map(|_| ()),
            out_of_range
        );
        assert_eq!(
            q.size().value(Decimal::new(-100, 0)).map(|_| ()),
            out_of_range
        );
        // Before the epoch in an unsigned count; a nanosecond in microseconds.
        assert_eq!(
            q.sent_value(ts("1969-12-31T23:59:59Z")).map(|_| ()),
            out_of_range
        );
        let one_ns_more = ts("2024-01-02T03:04:05.000000001Z");
        assert_eq!(q.stamp().value(one_ns_more).map(|_| ()), out_of_range);
        let tenth_ms = ts("2024-01-02T03:04:05.0001Z");
        assert_eq!(q.sent_ms_value(tenth_ms).map(|_| ()), out_of_range);
        // Days before 1970 do not fit LocalMktDate's uint16.
        let old = Date::from_ymd(1969, 1, 1);
        assert_eq!(q.trade_date_value(old).map(|_| ()), out_of_range);
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
