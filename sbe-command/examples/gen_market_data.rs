//! Write N market-data messages (benches/market-data.xml, `BookUpdate`,
//! 1 to 4 entries each) back to back to standard output, through the
//! run-time encoder: `gen_market_data N > md.bin`.

use std::io::{BufWriter, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/market-data.xml");
    let schema = sbe_ir::ir::load(path)?;
    let codec = sbe_otf::Codec::new(&schema)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut buf = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for i in 0..n {
        let entries: Vec<_> = (0..1 + rnd() % 4)
            .map(|k| {
                let action = ["New", "Change", "Delete"][(rnd() % 3) as usize];
                let entry_type = ["Bid", "Offer", "Trade"][(rnd() % 3) as usize];
                serde_json::json!({
                    "price": {"mantissa": 4_500_000_000_000i64 + (rnd() % 100_000) as i64 * 250_000, "exponent": -9},
                    "size": if rnd() % 8 == 0 { serde_json::Value::Null } else { (rnd() % 500).into() },
                    "securityId": 1000 + (rnd() % 50) as i32,
                    "rptSeq": i * 4 + k,
                    "level": 1 + rnd() % 10,
                    "action": action,
                    "entryType": entry_type,
                })
            })
            .collect();
        let msg = serde_json::json!({
            "message": "BookUpdate",
            "body": {
                "transactTime": 1_700_000_000_000_000_000u64 + i * 1000,
                "flags": if i % 2 == 0 { vec!["EndOfEvent"] } else { vec!["LastQuote", "EndOfEvent"] },
                "entries": entries,
            }
        });
        buf.clear();
        codec.encode_value(&msg, &mut buf)?;
        out.write_all(&buf)?;
    }
    out.flush()?;
    Ok(())
}
