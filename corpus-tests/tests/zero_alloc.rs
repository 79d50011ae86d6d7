//! A counting global allocator shows that decoding and encoding the car and
//! market-data messages allocate nothing. Runs on the repo's own schemas,
//! so it needs no ../shared.

use corpus_tests::s_repo_schemas_car as car;
use corpus_tests::s_repo_schemas_market_data as md;
use test_support::alloc::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn encode_car(buf: &mut [u8]) -> usize {
    let mut e = car::CarEncoder::wrap(buf).unwrap();
    e.serial_number(1234)
        .model_year(2013)
        .available(car::BooleanType::T)
        .code(car::Model::A)
        .some_numbers([1, 2, 3, 4])
        .extras(car::OptionalExtras::default().with_cruise_control(true));
    e.vehicle_code("abcdef").unwrap();
    e.engine().capacity(2000).num_cylinders(4);
    let mut g = e.fuel_figures(2).unwrap();
    for (speed, mpg, usage) in [(30, 35.9, "Urban Cycle"), (55, 49.0, "Combined Cycle")] {
        let mut f = g.next_entry().unwrap();
        f.speed(speed).mpg(mpg);
        f.usage_description(usage).unwrap();
    }
    let mut g = g.end().unwrap().performance_figures(1).unwrap();
    let mut p = g.next_entry().unwrap();
    p.octane_rating(95);
    let mut a = p.acceleration(2).unwrap();
    a.next_entry().unwrap().mph(30).seconds(4.0);
    a.next_entry().unwrap().mph(60).seconds(7.5);
    a.end().unwrap();
    g.end()
        .unwrap()
        .manufacturer("Honda")
        .unwrap()
        .model("Civic VTi")
        .unwrap()
        .activation_code("abcdef")
        .unwrap()
        .finish()
        .unwrap()
}

fn walk_car(buf: &[u8]) -> u64 {
    let d = car::CarDecoder::decode(buf).unwrap();
    let mut sum = d.serial_number() + u64::from(d.model_year()) + u64::from(d.engine().capacity());
    sum += d.some_numbers().iter().map(|&x| u64::from(x)).sum::<u64>();
    sum += d.vehicle_code_str().unwrap().len() as u64;
    for f in d.fuel_figures() {
        sum += u64::from(f.speed()) + f.usage_description().len() as u64;
    }
    for p in d.performance_figures() {
        for a in p.acceleration() {
            sum += u64::from(a.mph());
        }
    }
    sum + d.manufacturer().len() as u64 + d.model().len() as u64
}

fn encode_trades(buf: &mut [u8]) -> usize {
    let mut e = md::MarketDataIncrementalRefreshTradesEncoder::wrap(buf).unwrap();
    e.transact_time(1_700_000_000_000_000_000)
        .event_time_delta(5);
    let mut g = e.md_inc_grp(3).unwrap();
    for i in 0..3u64 {
        let entry = g.next_entry().unwrap();
        entry
            .trade_id(i)
            .security_id(42)
            .number_of_orders(1)
            .rpt_seq(i as u8);
        entry.md_entry_px().mantissa(1_000_000 + i as i64);
        entry.md_entry_size().mantissa(10);
    }
    g.end().unwrap().finish().unwrap()
}

fn walk_trades(buf: &[u8]) -> u64 {
    let md::Message::MarketDataIncrementalRefreshTrades(d) = md::decode(buf).unwrap();
    d.md_inc_grp()
        .map(|x| x.trade_id() + x.md_entry_px().mantissa() as u64)
        .sum()
}

#[test]
fn decoding_and_encoding_allocate_nothing() {
    let mut car_buf = [0u8; 512];
    let mut md_buf = [0u8; 512];
    // Warm up anything lazily initialised by the test harness.
    let _ = encode_car(&mut car_buf);
    let (allocated, check) = allocations(|| {
        let mut check = 0u64;
        for _ in 0..100 {
            let n = encode_car(&mut car_buf);
            check = check.wrapping_add(walk_car(&car_buf[..n]));
            let m = encode_trades(&mut md_buf);
            check = check.wrapping_add(walk_trades(&md_buf[..m]));
        }
        check
    });
    assert!(check > 0);
    assert_eq!(allocated, 0, "allocations while decoding and encoding");
    // The counter is live: an allocation on this thread shows.
    assert_eq!(allocations(|| std::hint::black_box(vec![0u8; 8])).0, 1);
}
