//! Fields never set read back as null (issue 42, point 3), fixture
//! `unset.xml` in Binance's style: the flyweight encoders' `wrap` and
//! `next_entry` start a block with every optional field (and optional
//! composite member) at its null, an owned type's `Default` holds `None`
//! there and encodes the same bytes, and required fields stay zeros.

use corpus_tests::s_fixture_unset as g;

/// A message written with the flyweight encoders: only `serverTime` in
/// the root block, one entry of `symbols` with only `status` and its var
/// data set.
fn flyweight_bytes() -> Vec<u8> {
    let mut buf = vec![0xa5u8; 256];
    let mut e = g::ExchangeInfoResponseEncoder::wrap(&mut buf).unwrap();
    e.server_time(1_700_000_000);
    let mut s = e.symbols(1).unwrap();
    let mut entry = s.next_entry().unwrap();
    entry.status(g::SymbolStatus::Halt);
    entry.symbol("BTCUSDT").unwrap().base_asset("BTC").unwrap();
    let n = s.end().unwrap().finish().unwrap();
    buf.truncate(n);
    buf
}

#[test]
fn flyweight_encoder_leaves_optional_fields_null() {
    let bytes = flyweight_bytes();
    let g::Message::ExchangeInfoResponse(m) = g::decode(&bytes).unwrap();
    assert_eq!(m.server_time(), 1_700_000_000);
    assert_eq!(m.max_orders(), None);
    assert_eq!(m.allowed(), None);
    let entries: Vec<_> = m.symbols().collect();
    let [s] = entries.as_slice() else {
        panic!("one entry: {entries:?}")
    };
    assert_eq!(s.status(), g::SymbolStatus::Halt);
    // Required fields stay zeros, as before.
    assert_eq!(s.base_asset_precision(), 0);
    // Binance's boolEnum, whose null is 255: absent, not `False`.
    assert_eq!(s.peg_instructions_allowed(), None);
    assert_eq!(s.max_price(), None);
    // An optional member of a required composite is null, the required one 0.
    assert_eq!(s.limits().low(), None);
    assert_eq!(s.limits().scale(), 0);
    assert_eq!(s.base_asset_str(), Ok("BTC"));
    let json: serde_json::Value =
        serde_json::from_str(&g::decode(&bytes).unwrap().to_json()).unwrap();
    let entry = &json["body"]["symbols"][0];
    assert_eq!(
        entry["pegInstructionsAllowed"],
        serde_json::Value::Null,
        "{json}"
    );
    assert_eq!(entry["maxPrice"], serde_json::Value::Null, "{json}");
    assert_eq!(entry["limits"]["low"], serde_json::Value::Null, "{json}");
    assert_eq!(json["body"]["allowed"], serde_json::Value::Null, "{json}");
}

#[test]
fn sbe_encode_of_fields_left_out_is_what_the_encoder_leaves() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sbe-build/tests/fixtures/unset.xml"
    );
    let schema = sbe_ir::ir::load(path).unwrap();
    let codec = sbe_otf::Codec::new(&schema).unwrap();
    let json: serde_json::Value = serde_json::from_str(
        r#"{"message":"ExchangeInfoResponse","body":{"serverTime":1700000000,"symbols":[{"status":"Halt","baseAssetPrecision":0,"limits":{"scale":0},"symbol":"BTCUSDT","baseAsset":"BTC"}]}}"#,
    )
    .unwrap();
    let mut out = Vec::new();
    codec.encode_value(&json, &mut out).unwrap();
    assert_eq!(out, flyweight_bytes());
}

#[test]
fn owned_default_is_what_the_encoder_leaves() {
    let d = g::ExchangeInfoResponseSymbols::default();
    assert_eq!(d.peg_instructions_allowed, None);
    assert_eq!(d.max_price, None);
    assert_eq!(d.limits.low, None);
    assert_eq!(d.limits.scale, 0);
    assert_eq!(d.base_asset_precision, 0);
    let m = g::ExchangeInfoResponse {
        server_time: 1_700_000_000,
        symbols: vec![g::ExchangeInfoResponseSymbols {
            status: g::SymbolStatus::Halt,
            symbol: "BTCUSDT".into(),
            base_asset: "BTC".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    assert_eq!(m.max_orders, None);
    assert_eq!(m.allowed, None);
    let mut buf = vec![0u8; m.encoded_length()];
    let n = m.encode(&mut buf).unwrap();
    // The same bytes as the flyweight encoders leave for the fields not set.
    assert_eq!(buf[..n], flyweight_bytes()[..]);
    let back = g::OwnedMessage::decode(&buf[..n]).unwrap();
    assert_eq!(back, g::OwnedMessage::ExchangeInfoResponse(m));
}

#[test]
fn an_empty_message_is_the_default() {
    let mut buf = vec![0xa5u8; 64];
    let n = g::ExchangeInfoResponseEncoder::wrap(&mut buf)
        .unwrap()
        .finish()
        .unwrap();
    let g::OwnedMessage::ExchangeInfoResponse(m) = g::OwnedMessage::decode(&buf[..n]).unwrap();
    assert_eq!(m, g::ExchangeInfoResponse::default());
}

/// Serde on the owned types refuses what `sbe encode` refuses (issue 42,
/// point 6): a key the schema does not have, named, and an enum name it
/// does not have, with the names it has.
mod serde_errors {
    use super::g;

    const ENTRY: &str = r#"{"status":"Halt","baseAssetPrecision":8,"pegInstructionsAllowed":null,"maxPrice":null,"limits":{"low":null,"scale":0},"symbol":"BTCUSDT","baseAsset":"BTC"}"#;

    #[test]
    fn a_well_formed_entry_reads() {
        let e: g::ExchangeInfoResponseSymbols = serde_json::from_str(ENTRY).unwrap();
        assert_eq!(e.status, g::SymbolStatus::Halt);
        assert_eq!(e.peg_instructions_allowed, None);
    }

    #[test]
    fn an_unknown_field_is_refused_by_name() {
        let misspelt = ENTRY.replace("\"baseAssetPrecision\"", "\"baseAssetPrecison\"");
        let e = serde_json::from_str::<g::ExchangeInfoResponseSymbols>(&misspelt).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("unknown field `baseAssetPrecison`"), "{text}");
        assert!(text.contains("`baseAssetPrecision`"), "{text}");
        // In a composite, and in a group of a message, too.
        let extra = ENTRY.replace(r#""scale":0"#, r#""scale":0,"high":1"#);
        let text = serde_json::from_str::<g::ExchangeInfoResponseSymbols>(&extra)
            .unwrap_err()
            .to_string();
        assert!(text.contains("unknown field `high`"), "{text}");
        let message = format!(
            r#"{{"serverTime":1,"maxOrders":null,"allowed":null,"symbols":[{}]}}"#,
            misspelt
        );
        let text = serde_json::from_str::<g::ExchangeInfoResponse>(&message)
            .unwrap_err()
            .to_string();
        assert!(text.contains("unknown field `baseAssetPrecison`"), "{text}");
        // The envelope of an owned message still skips `sbe decode`'s keys.
        let line = format!(
            r#"{{"schema":"x.xml","message":"ExchangeInfoResponse","header":{{}},"body":{{"serverTime":1,"maxOrders":null,"allowed":null,"symbols":[{ENTRY}]}}}}"#
        );
        let m: g::OwnedMessage = serde_json::from_str(&line).unwrap();
        let g::OwnedMessage::ExchangeInfoResponse(m) = m;
        assert_eq!(m.server_time, 1);
    }

    #[test]
    fn an_unknown_enum_name_lists_the_names() {
        let wrong = ENTRY.replace("\"Halt\"", "\"TRADING\"");
        let text = serde_json::from_str::<g::ExchangeInfoResponseSymbols>(&wrong)
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("unknown variant `TRADING`, expected one of `Trading`, `EndOfDay`, `Halt`, `Break`, `AuctionMatch`, `NonRepresentable`"),
            "{text}"
        );
        let text = serde_json::from_str::<g::BoolEnum>("\"Maybe\"")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains(
                "unknown variant `Maybe`, expected one of `False`, `True`, `NonRepresentable`"
            ),
            "{text}"
        );
    }
}

/// An encoder's buffer too small (issue 42, point 5): its own kind,
/// `BufferTooSmall`, not a decoder's `Truncated`, with the bytes needed
/// from where the encoder writes: at `wrap` the whole message with its
/// group and var data empty.
mod too_small {
    use super::g;
    use sbe_rt::{Error, ErrorKind};

    #[test]
    fn wrap_says_the_message_length_needed() {
        let mut buf = [0u8; 23];
        let e = g::ExchangeInfoResponseEncoder::wrap(&mut buf)
            .err()
            .unwrap();
        // Header 8, root block 13, the group `symbols` empty 4.
        assert_eq!(e, Error::buffer_too_small(25, 23));
        assert_eq!(e.error_kind(), ErrorKind::BufferTooSmall);
        assert_eq!(
            e.to_string(),
            "output buffer too small: 25 bytes needed from where the encoder writes, only 23 left"
        );
    }

    #[test]
    fn an_entry_and_its_var_data_say_what_they_need() {
        let mut buf = [0u8; 30];
        let e = g::ExchangeInfoResponseEncoder::wrap(&mut buf).unwrap();
        let mut s = e.symbols(2).unwrap();
        // 5 bytes left; the entry's block 16 and its two var data empty 2.
        let err = s.next_entry().err().unwrap();
        assert_eq!(err, Error::buffer_too_small(18, 5));
        let mut buf = [0u8; 50];
        let e = g::ExchangeInfoResponseEncoder::wrap(&mut buf).unwrap();
        let mut s = e.symbols(1).unwrap();
        let entry = s.next_entry().unwrap().symbol("BTCUSDT").unwrap();
        // 50 - 21 - 4 - 16 - 8 = 1 byte left (kept for `baseAsset` empty)
        // for `baseAsset`'s 1 + 3; the var data writer names itself.
        let err = entry.base_asset("BTC").err().unwrap();
        assert_eq!(err.error_kind(), ErrorKind::BufferTooSmall);
        assert_eq!(err, Error::buffer_too_small(4, 1));
        // The encoder's error names the section by itself (issue 42,
        // point 5), as `explain` does; the runtime error it holds is the
        // same word, which names it by number.
        let named = "output buffer too small: 4 bytes needed from where the encoder writes, only 1 left, in `ExchangeInfoResponse.symbols.baseAsset`";
        assert_eq!(err.to_string(), named);
        assert_eq!(g::explain(err).to_string(), named);
        assert_eq!(
            format!("{err:?}"),
            "EncodeError(BufferTooSmall { needed: 4, available: 1 } at element 13, \"ExchangeInfoResponse.symbols.baseAsset\")"
        );
        let plain: Error = err.into();
        assert_eq!(plain.element().map(|n| n.get()), Some(13));
        assert!(
            plain.to_string().ends_with(", in schema element 13"),
            "{plain}"
        );
        // `?` turns it into an `sbe_rt::Error` where a function returns one.
        fn wrap_small(buf: &mut [u8]) -> sbe_rt::Result<()> {
            g::ExchangeInfoResponseEncoder::wrap(buf)?;
            Ok(())
        }
        assert_eq!(
            wrap_small(&mut [0u8; 3]),
            Err(Error::buffer_too_small(25, 3))
        );
    }

    /// An owned message's `encode` names the section too: it writes
    /// through the same encoders.
    #[test]
    fn an_owned_message_names_the_section_that_did_not_fit() {
        let m = g::ExchangeInfoResponse {
            symbols: vec![g::ExchangeInfoResponseSymbols {
                symbol: "BTCUSDT".into(),
                base_asset: "BTC".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let err = m.encode(&mut [0u8; 50]).unwrap_err();
        assert_eq!(err, Error::buffer_too_small(4, 1));
        assert_eq!(
            err.to_string(),
            "output buffer too small: 4 bytes needed from where the encoder writes, only 1 left, in `ExchangeInfoResponse.symbols.baseAsset`"
        );
        let n = m.encode(&mut [0u8; 64]).expect("fits");
        assert_eq!(n, m.encoded_length());
    }

    /// The encoder's error is the runtime's word, no wider: the name is
    /// looked up only when it is shown.
    #[test]
    fn an_encoder_error_is_one_word() {
        assert_eq!(size_of::<g::EncodeError>(), size_of::<Error>());
        assert_eq!(
            size_of::<g::EncodeResult<usize>>(),
            size_of::<sbe_rt::Result<usize>>()
        );
    }
}
