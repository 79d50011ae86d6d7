//! Encodes a stream of car and market-data messages into a ring buffer
//! (sbe-rt's `bytes` adapter), splits it back into messages without
//! copying, decodes them, prints a few as JSON and ends with a count and a
//! checksum. Each trade summary also goes, as an owned message (exact
//! `Decimal` prices, `Timestamp` times), through a channel to a thread that
//! keeps a ledger of the volume traded.

// `pub`: the program uses a part of the generated API; in a private
// module the rest would warn as dead code.
/// Code generated from `schemas/car.xml`.
pub mod car {
    sbe_rt::include_schema!("baseline");
}

/// Code generated from `schemas/market-data.xml`.
pub mod md {
    sbe_rt::include_schema!("market_data");
}

use sbe_framing::bytes::{Bytes, BytesMut};
use sbe_framing::framer::{append_with, share};
use sbe_framing::Framer;
use sbe_rt::{Decimal, Error, ErrorKind, Timestamp};
use std::sync::mpsc;
use std::thread;

const MESSAGES: u64 = 10_000;

/// The car's fuel figures (speed, mpg, usage) and its var data: what
/// [`length`] measures and [`encode`] writes.
const FUEL: [(u16, f32, &str); 2] = [(30, 35.9, "Urban Cycle"), (75, 40.0, "Highway Cycle")];
const MAKER: (&str, &str, &str) = ("Honda", "Civic VTi", "abcdef");

/// The exact length of message `i`, before writing it: from its groups'
/// counts (and each entry's var data) and its var data's lengths.
fn length(i: u64) -> usize {
    if i % 3 < 1 {
        car::CarEncoder::exact_length(
            FUEL.iter()
                .map(|(_, _, usage)| car::CarFuelFiguresEncoder::entry_length(usage.len())),
            // One performance figure with two accelerations.
            [car::CarPerformanceFiguresEncoder::entry_length(2)],
            MAKER.0.len(),
            MAKER.1.len(),
            MAKER.2.len(),
        )
    } else {
        md::MarketDataIncrementalRefreshTradesEncoder::exact_length(2)
    }
}

/// Writes message `i` (a car or a trade summary) into `buf`, claimed at
/// its exact `length`; returns that length.
fn encode(i: u64, buf: &mut [u8], length: usize) -> Result<usize, Error> {
    if i % 3 < 1 {
        let mut e = car::CarEncoder::wrap_exact(buf, length)?;
        e.serial_number(1000 + i)
            .model_year(2000 + (i % 25) as u16)
            .available(if i & 1 == 0 {
                car::BooleanType::T
            } else {
                car::BooleanType::F
            })
            .code(car::Model::A)
            .some_numbers([1, 2, 3, i as u32])
            .extras(
                car::OptionalExtras::default()
                    .with_sun_roof(i & 1 == 0)
                    .with_cruise_control(true),
            );
        e.vehicle_code("abcdef")?;
        {
            let mut engine = e.engine();
            engine.capacity(2000).num_cylinders(4).efficiency(35);
            engine.manufacturer_code("123")?;
            engine
                .booster()
                .boost_type(car::BoostType::Turbo)
                .horse_power(200);
        }
        // Then groups and var data in schema order: each call takes the
        // encoder and returns the one for what may follow, so that writing
        // them out of order does not compile. A group's `end()` writes its
        // count and returns the encoder of what follows it.
        let mut ff = e.fuel_figures(FUEL.len())?;
        for (speed, mpg, usage) in FUEL {
            let mut entry = ff.next_entry()?;
            entry.speed(speed).mpg(mpg);
            entry.usage_description(usage)?;
        }
        let mut pf = ff.end()?.performance_figures(1)?;
        let mut entry = pf.next_entry()?;
        entry.octane_rating(95);
        let mut acc = entry.acceleration(2)?;
        acc.next_entry()?.mph(30).seconds(4.0);
        acc.next_entry()?.mph(60).seconds(7.5);
        acc.end()?;
        // `?`: each schema's `EncodeError` becomes an `sbe_rt::Error`.
        Ok(pf
            .end()?
            .manufacturer(MAKER.0)?
            .model(MAKER.1)?
            .activation_code(MAKER.2)?
            .finish()?)
    } else {
        let mut e = md::MarketDataIncrementalRefreshTradesEncoder::wrap_exact(buf, length)?;
        // The time as a value: the schema says nanoseconds since the epoch.
        let sent = Timestamp::from_nanos(1_700_000_000_000_000_000 + i128::from(i));
        e.transact_time_value(sent)?
            .event_time_delta((i % 100) as u16)
            .match_event_indicator(md::MatchEventIndicator::EndEvent);
        let mut g = e.md_inc_grp(2)?;
        for k in 0..2u64 {
            let entry = g.next_entry()?;
            entry
                .trade_id(i * 2 + k)
                .security_id(42)
                .number_of_orders(1)
                .rpt_seq((i % 256) as u8)
                .aggressor_side(md::Side::Buy);
            // 123.45 and 123.50, written exactly at the schema's
            // exponent (-7); a price with more digits would be an Err.
            let px = Decimal::new(12_345 + 5 * i128::from(k), -2);
            entry.md_entry_px().value(px)?;
            entry.md_entry_size().value(Decimal::from_u8(10, 0))?;
        }
        Ok(g.end()?.finish()?)
    }
}

/// One decoded message of either schema.
enum Decoded<'a> {
    Car(car::Message<'a>),
    Md(md::Message<'a>),
}

/// Decodes the message at the start of `buf` with the schema its template
/// id belongs to.
fn decode(buf: &[u8]) -> Result<Decoded<'_>, Error> {
    match car::decode(buf) {
        Ok(m) => Ok(Decoded::Car(m)),
        Err(e) if e.error_kind() == ErrorKind::UnknownTemplateId => {
            md::decode(buf).map(Decoded::Md)
        }
        Err(e) => Err(e),
    }
}

/// The length of the message at the start of `buf`, checked but not
/// decoded, with the schema its template id belongs to: what the framer
/// needs to split a stream.
fn message_length(buf: &[u8]) -> Result<usize, Error> {
    match car::message_length(buf) {
        Err(e) if e.error_kind() == ErrorKind::UnknownTemplateId => md::message_length(buf),
        other => other,
    }
}

/// What the ledger thread adds up from the owned trade summaries it is sent.
#[derive(Debug, Default)]
struct Ledger {
    summaries: u64,
    trades: u64,
    /// The sum of every trade's size, exact.
    volume: Decimal,
    /// The price and time of the last trade.
    last: Option<(Decimal, Timestamp)>,
}

/// Receives owned trade summaries until the channel closes: an owned
/// message needs no buffer, so it can outlive the frame it was read from.
fn ledger(rx: mpsc::Receiver<md::MarketDataIncrementalRefreshTrades>) -> Ledger {
    let mut ledger = Ledger::default();
    for summary in rx {
        ledger.summaries += 1;
        for trade in &summary.md_inc_grp {
            ledger.trades += 1;
            ledger.volume = ledger
                .volume
                .checked_add(trade.md_entry_size.value())
                .unwrap_or(ledger.volume);
            ledger.last = Some((trade.md_entry_px.value(), summary.transact_time));
        }
    }
    ledger
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Producer: encode the stream into a buffer, as if read from a socket.
    // Each message's exact length is claimed at the end of the buffer
    // first, then the message written into that slot in place (as Aeron's
    // `try_claim` wants it): a slot too short is refused before writing.
    let mut stream = BytesMut::with_capacity(64 * 1024);
    for i in 0..MESSAGES {
        let len = length(i);
        append_with(&mut stream, len, |slot| encode(i, slot, len))?;
    }

    // Consumer: feed the ring buffer in 4 KiB chunks and split off each
    // whole message (raw framing: each sized by its own header, groups and
    // var data) without copying it.
    let (to_ledger, from_consumer) = mpsc::sync_channel(1024);
    let ledger = thread::spawn(move || ledger(from_consumer));
    let mut framer = Framer::with_capacity(64 * 1024);
    let (mut count, mut cars, mut checksum) = (0u64, 0u64, 0u64);
    for chunk in stream.chunks(4096) {
        framer.push(chunk);
        while let Some(frame) = framer.next_frame(|b| message_length(b).map(Some))? {
            match decode(&frame)? {
                Decoded::Car(m) => {
                    let car::Message::Car(c) = &m;
                    checksum = checksum.wrapping_mul(31).wrapping_add(c.serial_number());
                    for f in c.fuel_figures() {
                        checksum = checksum.wrapping_add(u64::from(f.speed()));
                    }
                    // Var data as a `Bytes` sharing the frame's memory: no copy.
                    let maker: Option<Bytes> = share(&frame, c.manufacturer());
                    checksum = checksum.wrapping_add(maker.map_or(0, |m| m.len()) as u64);
                    if cars < 2 {
                        println!("{}", m.to_json());
                    }
                    cars += 1;
                }
                Decoded::Md(m) => {
                    let md::Message::MarketDataIncrementalRefreshTrades(t) = &m;
                    // Owned, it writes back the frame's bytes, and can be sent away.
                    let owned = t.to_owned()?;
                    let mut again = vec![0u8; owned.encoded_length()];
                    let written = owned.encode(&mut again)?;
                    assert_eq!(again.get(..written), Some(&frame[..]));
                    to_ledger
                        .send(owned)
                        .expect("the ledger thread runs until the channel closes");
                    for e in t.md_inc_grp() {
                        checksum = checksum
                            .wrapping_mul(31)
                            .wrapping_add(e.trade_id() ^ e.md_entry_px().mantissa() as u64);
                    }
                    if count - cars < 2 {
                        println!("{}", m.to_json());
                        // The same trades as values: exact prices, times.
                        for e in t.md_inc_grp() {
                            let (px, qty) = (e.md_entry_px().value(), e.md_entry_size().value());
                            println!(
                                "trade {} at {}: {qty} @ {px}",
                                e.trade_id(),
                                t.transact_time_value()
                            );
                        }
                    }
                }
            }
            count += 1;
        }
    }
    assert_eq!(framer.buffered(), 0, "a partial message was left over");
    drop(to_ledger);
    let ledger = ledger.join().expect("the ledger thread does not panic");
    if let Some((px, at)) = ledger.last {
        println!(
            "ledger: {} summaries, {} trades, volume {}, last {px} at {at}",
            ledger.summaries, ledger.trades, ledger.volume
        );
    }
    println!(
        "decoded {count} messages ({cars} cars, {} trade summaries), checksum {checksum:016x}",
        count - cars
    );
    Ok(())
}
