//! The owned-message contenders: this project's owned messages
//! (`Config::owned`: `decoder.to_owned()`, `owned.encode(buf)`) and
//! ergo-sbe's domain objects (`with_domain_objects(DomainVarData::Strings)`:
//! `CarDomain::try_from_decoder`, `dto.encode(buf)`), on the same messages.
//!
//! A decode makes the owned value from the bytes and folds the values it
//! holds into the checksum the flyweight decoders fold (the same values, in
//! the same order), then drops it: what a caller that keeps messages pays
//! per message, allocations included. An encode writes a value made
//! beforehand ([`car`], [`ergo_car`], ...) to bytes.

use crate::ergo::{car as ergo_car_mod, md as ergo_md_mod, DecodeError};
use crate::fold::{fold, fold_bytes};
use crate::streams::{car_message, md_message};
use crate::this::{baseline, market_data};

/// [`crate::data::CAR`] as this project's owned `Car`.
#[must_use]
pub fn car() -> baseline::Car {
    baseline::CarDecoder::decode(&car_message())
        .and_then(|d| d.to_owned())
        .expect("the car decodes")
}

/// [`crate::data::MD`] as this project's owned message.
#[must_use]
pub fn md() -> market_data::MarketDataIncrementalRefreshTrades {
    market_data::MarketDataIncrementalRefreshTradesDecoder::decode(&md_message())
        .and_then(|d| d.to_owned())
        .expect("the message decodes")
}

/// [`crate::data::CAR`] as ergo-sbe's `CarDomain`.
#[must_use]
pub fn ergo_car() -> ergo_car_mod::CarDomain {
    ergo_car_mod::CarDecoder::try_decode(&car_message(), 0)
        .and_then(ergo_car_mod::CarDomain::try_from_decoder)
        .expect("the car decodes")
}

/// [`crate::data::MD`] as ergo-sbe's domain object.
#[must_use]
pub fn ergo_md() -> ergo_md_mod::MarketDataIncrementalRefreshTradesDomain {
    use ergo_md_mod::*;
    MarketDataIncrementalRefreshTradesDecoder::try_decode(&md_message(), 0)
        .and_then(MarketDataIncrementalRefreshTradesDomain::try_from_decoder)
        .expect("the message decodes")
}

/// Decodes a car into the owned `Car` (`to_owned`) and folds its values.
pub fn car_decode(buf: &[u8]) -> sbe_rt::Result<u64> {
    let c = baseline::CarDecoder::decode(buf)?.to_owned()?;
    let mut acc = 0u64;
    acc = fold(acc, c.serial_number);
    acc = fold(acc, u64::from(c.model_year));
    acc = fold(acc, u64::from(c.available.raw()));
    acc = fold(acc, u64::from(c.code.raw()));
    for n in c.some_numbers {
        acc = fold(acc, u64::from(n));
    }
    acc = fold_bytes(acc, c.vehicle_code.as_bytes());
    acc = fold(acc, u64::from(c.extras.0));
    let e = &c.engine;
    acc = fold(acc, u64::from(e.capacity));
    acc = fold(acc, u64::from(e.num_cylinders));
    acc = fold_bytes(acc, e.manufacturer_code.as_bytes());
    acc = fold(acc, e.efficiency as u64);
    acc = fold(acc, u64::from(e.booster_enabled.raw()));
    acc = fold(acc, u64::from(e.booster.boost_type.raw()));
    acc = fold(acc, u64::from(e.booster.horse_power));
    for f in &c.fuel_figures {
        acc = fold(acc, u64::from(f.speed));
        acc = fold(acc, u64::from(f.mpg.to_bits()));
        acc = fold_bytes(acc, f.usage_description.as_bytes());
    }
    for p in &c.performance_figures {
        acc = fold(acc, u64::from(p.octane_rating));
        for a in &p.acceleration {
            acc = fold(acc, u64::from(a.mph));
            acc = fold(acc, u64::from(a.seconds.to_bits()));
        }
    }
    acc = fold_bytes(acc, c.manufacturer.as_bytes());
    acc = fold_bytes(acc, c.model.as_bytes());
    acc = fold_bytes(acc, c.activation_code.as_bytes());
    Ok(acc)
}

/// Writes the owned `car` with its header into `buf` (`Car::encode`).
#[inline]
pub fn car_encode(car: &baseline::Car, buf: &mut [u8]) -> sbe_rt::Result<usize> {
    Ok(car.encode(buf)?)
}

/// Decodes a market-data message into its owned type and folds its values.
pub fn md_decode(buf: &[u8]) -> sbe_rt::Result<u64> {
    let m = market_data::MarketDataIncrementalRefreshTradesDecoder::decode(buf)?.to_owned()?;
    let mut acc = 0u64;
    // The typed values at the schema's units: the wire's integers again.
    acc = fold(acc, m.transact_time.as_nanos() as u64);
    acc = fold(acc, u64::from(m.event_time_delta));
    acc = fold(acc, u64::from(m.match_event_indicator.raw()));
    for e in &m.md_inc_grp {
        acc = fold(acc, e.trade_id);
        acc = fold(acc, e.security_id);
        acc = fold(acc, e.md_entry_px.mantissa() as u64);
        acc = fold(acc, e.md_entry_size.mantissa() as u64);
        acc = fold(acc, u64::from(e.number_of_orders));
        acc = fold(acc, u64::from(e.md_update_action.raw()));
        acc = fold(acc, u64::from(e.rpt_seq));
        acc = fold(acc, u64::from(e.aggressor_side.raw()));
    }
    Ok(acc)
}

/// Writes the owned market-data message with its header into `buf`.
#[inline]
pub fn md_encode(
    m: &market_data::MarketDataIncrementalRefreshTrades,
    buf: &mut [u8],
) -> sbe_rt::Result<usize> {
    Ok(m.encode(buf)?)
}

/// Decodes a car into ergo-sbe's `CarDomain` (checked `try_decode`, then
/// `try_from_decoder`) and folds its values.
pub fn ergo_car_decode(buf: &[u8]) -> Result<u64, DecodeError> {
    use ergo_car_mod::*;
    let c = CarDomain::try_from_decoder(CarDecoder::try_decode(buf, 0)?)?;
    let mut acc = 0u64;
    acc = fold(acc, c.serial_number);
    acc = fold(acc, u64::from(c.model_year));
    acc = fold(acc, u64::from(c.available));
    acc = fold(acc, u64::from(u8::from(c.code)));
    for n in c.some_numbers {
        acc = fold(acc, u64::from(n));
    }
    acc = fold_bytes(acc, &c.vehicle_code);
    acc = fold(acc, u64::from(c.extras.raw()));
    let e = &c.engine;
    acc = fold(acc, u64::from(e.capacity()));
    acc = fold(acc, u64::from(e.num_cylinders()));
    acc = fold_bytes(acc, &e.manufacturer_code());
    acc = fold(acc, e.efficiency() as u64);
    acc = fold(acc, u64::from(u8::from(e.booster_enabled())));
    let booster = e.booster();
    acc = fold(acc, u64::from(u8::from(booster.boost_type())));
    acc = fold(acc, u64::from(booster.horse_power()));
    for f in &c.fuel_figures {
        acc = fold(acc, u64::from(f.speed));
        acc = fold(acc, u64::from(f.mpg.to_bits()));
        acc = fold_bytes(acc, f.usage_description.as_bytes());
    }
    for p in &c.performance_figures {
        acc = fold(acc, u64::from(p.octane_rating));
        for a in &p.acceleration {
            acc = fold(acc, u64::from(a.mph));
            acc = fold(acc, u64::from(a.seconds.to_bits()));
        }
    }
    acc = fold_bytes(acc, c.manufacturer.as_bytes());
    acc = fold_bytes(acc, c.model.as_bytes());
    acc = fold_bytes(acc, c.activation_code.as_bytes());
    Ok(acc)
}

/// Writes ergo-sbe's `CarDomain` with its header into `buf`.
#[inline]
pub fn ergo_car_encode(
    car: &ergo_car_mod::CarDomain,
    buf: &mut [u8],
) -> Result<usize, ergo_car_mod::sbe_rt::EncodeError> {
    car.encode(buf)
}

/// Decodes a market-data message into ergo-sbe's domain object and folds
/// its values.
pub fn ergo_md_decode(buf: &[u8]) -> Result<u64, ergo_md_mod::sbe_rt::DecodeError> {
    use ergo_md_mod::*;
    let m = MarketDataIncrementalRefreshTradesDomain::try_from_decoder(
        MarketDataIncrementalRefreshTradesDecoder::try_decode(buf, 0)?,
    )?;
    let mut acc = 0u64;
    acc = fold(acc, m.transact_time);
    acc = fold(acc, u64::from(m.event_time_delta));
    acc = fold(acc, u64::from(u8::from(m.match_event_indicator)));
    for e in &m.md_inc_grp {
        acc = fold(acc, e.trade_id);
        acc = fold(acc, e.security_id);
        acc = fold(acc, e.md_entry_px.mantissa() as u64);
        acc = fold(acc, e.md_entry_size.mantissa() as u64);
        acc = fold(acc, u64::from(e.number_of_orders));
        acc = fold(acc, u64::from(u8::from(e.md_update_action)));
        acc = fold(acc, u64::from(e.rpt_seq));
        acc = fold(acc, u64::from(u8::from(e.aggressor_side)));
    }
    Ok(acc)
}

/// Writes ergo-sbe's market-data domain object with its header into `buf`.
#[inline]
pub fn ergo_md_encode(
    m: &ergo_md_mod::MarketDataIncrementalRefreshTradesDomain,
    buf: &mut [u8],
) -> Result<usize, ergo_md_mod::sbe_rt::EncodeError> {
    m.encode(buf)
}
