//! What `cargo run -p example-app` prints: two cars and two trade
//! summaries as JSON, with prices a market could quote, the ledger the
//! owned summaries sent to another thread add up to, and the count.

use std::process::Command;

/// The number after `"key":` in `json` (the first one).
fn number(json: &str, key: &str) -> Option<i64> {
    let at = json.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = json.get(at..)?;
    let end = rest
        .find(|c: char| !(c == '-' || c.is_ascii_digit()))
        .unwrap_or(rest.len());
    rest.get(..end)?.parse().ok()
}

#[test]
fn prints_realistic_trades_and_the_count() {
    let out = Command::new(env!("CARGO_BIN_EXE_example-app"))
        .output()
        .expect("run example-app");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let trades: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(r#"{"message":"MarketDataIncrementalRefreshTrades""#))
        .collect();
    assert_eq!(trades.len(), 2, "{text}");
    let mut prices = Vec::new();
    for t in &trades {
        // Each summary holds two trades: look at both prices.
        for entry in t.split(r#""MdEntryPx":"#).skip(1) {
            let mantissa = number(entry, "mantissa").expect("mantissa");
            let exponent = number(entry, "exponent").expect("exponent");
            assert_eq!(exponent, -7, "{entry}");
            prices.push(mantissa as f64 * 10f64.powi(exponent as i32));
        }
    }
    assert_eq!(prices.len(), 4, "{text}");
    for p in &prices {
        assert!((1.0..100_000.0).contains(p), "price {p} in {text}");
    }
    assert!((prices[0] - 123.45).abs() < 1e-9, "{prices:?}");
    assert!((prices[1] - 123.50).abs() < 1e-9, "{prices:?}");
    for t in &trades {
        assert!(t.contains(r#""MatchEventIndicator":"END_EVENT""#), "{t}");
    }
    // The typed values of the same trades: exact decimals and RFC 3339.
    let values: Vec<&str> = text.lines().filter(|l| l.starts_with("trade ")).collect();
    assert_eq!(
        values.get(..2),
        Some(
            &[
                "trade 2 at 2023-11-14T22:13:20.000000001Z: 10 @ 123.45",
                "trade 3 at 2023-11-14T22:13:20.000000001Z: 10 @ 123.5",
            ][..]
        ),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with(r#"{"message":"Car""#))
            .count(),
        2,
        "{text}"
    );
    // The owned summaries sent to the ledger thread: every one arrived,
    // with its exact sizes (two trades of 10 each) and its last time.
    let ledger: Vec<&str> = text.lines().filter(|l| l.starts_with("ledger: ")).collect();
    assert_eq!(
        ledger,
        [
            "ledger: 6666 summaries, 13332 trades, volume 133320, last 123.5 at 2023-11-14T22:13:20.000009998Z"
        ],
        "{text}"
    );
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("decoded 10000 messages (3334 cars, 6666 trade summaries), checksum "),
        "{last}"
    );
}
