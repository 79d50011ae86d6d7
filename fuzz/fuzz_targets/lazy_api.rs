//! The typed lazy API without the module's `decode` first: `XDecoder::decode`
//! checks the header and root block only, so every field, group, nested
//! group and var data is read on bytes nobody checked whole: the car and
//! market data field by field, in schema order and (by the first byte) in
//! reverse; every message of every schema (MDP3 and iLink 3 included)
//! through its `Debug`, JSON and `checked_length`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbe_fuzz::{car, market_data};

fn car_in_order(d: &car::CarDecoder<'_>) {
    let _ = (d.serial_number(), d.model_year(), d.available(), d.code());
    let _ = (
        d.some_numbers(),
        d.vehicle_code(),
        d.extras(),
        d.discounted_model(),
    );
    let e = d.engine();
    let _ = (
        e.capacity(),
        e.num_cylinders(),
        e.max_rpm(),
        e.manufacturer_code(),
        e.fuel(),
    );
    let _ = (
        e.efficiency(),
        e.booster_enabled(),
        e.booster().boost_type(),
        e.booster().horse_power(),
    );
    for f in d.fuel_figures() {
        let _ = (
            f.speed(),
            f.mpg(),
            f.usage_description(),
            f.usage_description_str(),
        );
    }
    for p in d.performance_figures() {
        let _ = p.octane_rating();
        for a in p.acceleration() {
            let _ = (a.mph(), a.seconds());
        }
    }
    let _ = (d.manufacturer(), d.model(), d.activation_code());
    let _ = d.checked_length();
}

fn car_reversed(d: &car::CarDecoder<'_>) {
    let _ = (
        d.checked_length(),
        d.activation_code(),
        d.model(),
        d.manufacturer(),
    );
    for p in d.performance_figures() {
        for a in p.acceleration() {
            let _ = (a.seconds(), a.mph());
        }
        let _ = p.octane_rating();
    }
    for f in d.fuel_figures() {
        let _ = (f.usage_description_str(), f.mpg(), f.speed());
    }
    let _ = (d.checked_length(), d.serial_number());
}

fn market_data(bytes: &[u8]) {
    if let Ok(d) = market_data::MarketDataIncrementalRefreshTradesDecoder::decode(bytes) {
        let _ = (
            d.transact_time(),
            d.event_time_delta(),
            d.match_event_indicator(),
        );
        for e in d.md_inc_grp() {
            let _ = (
                e.trade_id(),
                e.security_id(),
                e.md_entry_px().mantissa(),
                e.md_entry_size().mantissa(),
            );
            let _ = (
                e.number_of_orders(),
                e.md_update_action(),
                e.rpt_seq(),
                e.aggressor_side(),
            );
        }
        let _ = (d.checked_length(), format!("{d:?}"));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&how, bytes)) = data.split_first() else {
        return;
    };
    if let Ok(d) = car::CarDecoder::decode(bytes) {
        if how & 1 == 0 {
            car_in_order(&d);
        } else {
            car_reversed(&d);
        }
        let _ = format!("{d:?}");
    }
    market_data(bytes);
    // Every message of every schema, lazily (MDP3 and iLink 3 with ../shared).
    sbe_fuzz::read_lazily(bytes);
});
