//! The car's generated encoder driven by `arbitrary` values, into a buffer
//! of arbitrary size, then decoded: the same values back, or a clean `Err`
//! (a buffer too small, a count or a length the schema cannot hold).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sbe_fuzz::car::*;

#[derive(Arbitrary, Debug)]
struct Fuel {
    speed: u16,
    mpg: f32,
    usage: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Perf {
    octane: u8,
    accel: Vec<(u16, f32)>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    buf_len: u16,
    serial: u64,
    year: u16,
    numbers: [u32; 4],
    vehicle: Vec<u8>,
    extras: u8,
    capacity: u16,
    cylinders: u8,
    fuel: Vec<Fuel>,
    perf: Vec<Perf>,
    manufacturer: Vec<u8>,
    model: Vec<u8>,
}

fn encode(i: &Input, buf: &mut [u8]) -> Result<usize, sbe_rt::Error> {
    let mut e = CarEncoder::wrap(buf)?;
    e.serial_number(i.serial)
        .model_year(i.year)
        .some_numbers(i.numbers)
        .vehicle_code(&i.vehicle)?
        .extras(OptionalExtras(i.extras));
    e.engine().capacity(i.capacity).num_cylinders(i.cylinders);
    let mut g = e.fuel_figures(i.fuel.len())?;
    for f in &i.fuel {
        let mut entry = g.next_entry()?;
        entry.speed(f.speed).mpg(f.mpg);
        entry.usage_description(&f.usage)?;
    }
    let mut g = g.end()?.performance_figures(i.perf.len())?;
    for p in &i.perf {
        let mut entry = g.next_entry()?;
        entry.octane_rating(p.octane);
        let mut a = entry.acceleration(p.accel.len())?;
        for (mph, seconds) in &p.accel {
            a.next_entry()?.mph(*mph).seconds(*seconds);
        }
        a.end()?;
    }
    Ok(g.end()?
        .manufacturer(&i.manufacturer)?
        .model(&i.model)?
        .finish()?)
}

fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

fuzz_target!(|i: Input| {
    let mut buf = vec![0u8; usize::from(i.buf_len)];
    let Ok(len) = encode(&i, &mut buf) else {
        return;
    };
    let bytes = &buf[..len];
    let d = CarDecoder::decode(bytes).expect("what was encoded decodes");
    assert_eq!(d.checked_length(), Ok(len));
    assert_eq!(
        (d.serial_number(), d.model_year(), d.some_numbers()),
        (i.serial, i.year, i.numbers)
    );
    let mut vehicle = i.vehicle.clone();
    vehicle.resize(6, 0);
    assert_eq!(d.vehicle_code(), &vehicle[..]);
    assert_eq!(d.extras().0, i.extras);
    assert_eq!(
        (d.engine().capacity(), d.engine().num_cylinders()),
        (i.capacity, i.cylinders)
    );
    let fuel: Vec<_> = d.fuel_figures().collect();
    assert_eq!(fuel.len(), i.fuel.len());
    for (got, want) in fuel.iter().zip(&i.fuel) {
        assert_eq!(got.speed(), want.speed);
        assert!(same_f32(got.mpg(), want.mpg));
        assert_eq!(got.usage_description(), &want.usage[..]);
    }
    let perf: Vec<_> = d.performance_figures().collect();
    assert_eq!(perf.len(), i.perf.len());
    for (got, want) in perf.iter().zip(&i.perf) {
        assert_eq!(got.octane_rating(), want.octane);
        let accel: Vec<_> = got.acceleration().collect();
        assert_eq!(accel.len(), want.accel.len());
        for (a, (mph, seconds)) in accel.iter().zip(&want.accel) {
            assert_eq!(a.mph(), *mph);
            assert!(same_f32(a.seconds(), *seconds));
        }
    }
    assert_eq!(d.manufacturer(), &i.manufacturer[..]);
    assert_eq!(d.model(), &i.model[..]);
    // The module's decode and the run-time codec read it too.
    let json = sbe_fuzz::car::decode(bytes)
        .expect("module decode")
        .to_json();
    assert!(json.starts_with("{\"message\":\"Car\""));
});
