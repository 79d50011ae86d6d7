//! The formats users weigh SBE against, for the car: a serde-derived Car
//! as JSON (serde_json) and a hand-derived `prost::Message` Car (protobuf,
//! no protoc). Both hold the same fields as `schemas/car.xml`'s Car; both
//! decode into owned values (`String`, `Vec`), as they are normally used.
//! Shared by the car bench and the tests (`#[path]`-included).

#![allow(dead_code)]

use sbe_bench::data::Car;
use sbe_bench::fold::{fold, fold_bytes};

/// The car for serde.
pub mod json {
    use super::*;
    use serde::{Deserialize, Serialize};

    /// `fuelFigures` entry.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct FuelFigure {
        pub speed: u16,
        pub mpg: f32,
        pub usage_description: String,
    }

    /// `acceleration` entry.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Acceleration {
        pub mph: u16,
        pub seconds: f32,
    }

    /// `performanceFigures` entry.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct PerformanceFigure {
        pub octane_rating: u8,
        pub acceleration: Vec<Acceleration>,
    }

    /// `engine`.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct Engine {
        pub capacity: u16,
        pub num_cylinders: u8,
        pub manufacturer_code: String,
        pub efficiency: i8,
        pub booster_enabled: bool,
        pub boost_type: char,
        pub horse_power: u8,
    }

    /// The car.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    pub struct JsonCar {
        pub serial_number: u64,
        pub model_year: u16,
        pub available: bool,
        pub code: char,
        pub some_numbers: [u32; 4],
        pub vehicle_code: String,
        pub extras: u8,
        pub engine: Engine,
        pub fuel_figures: Vec<FuelFigure>,
        pub performance_figures: Vec<PerformanceFigure>,
        pub manufacturer: String,
        pub model: String,
        pub activation_code: String,
    }

    fn text(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    impl From<&Car> for JsonCar {
        fn from(c: &Car) -> Self {
            let e = &c.engine;
            JsonCar {
                serial_number: c.serial_number,
                model_year: c.model_year,
                available: c.available,
                code: char::from(c.code),
                some_numbers: c.some_numbers,
                vehicle_code: text(&c.vehicle_code),
                extras: c.extras,
                engine: Engine {
                    capacity: e.capacity,
                    num_cylinders: e.num_cylinders,
                    manufacturer_code: text(&e.manufacturer_code),
                    efficiency: e.efficiency,
                    booster_enabled: e.booster_enabled,
                    boost_type: char::from(e.boost_type),
                    horse_power: e.horse_power,
                },
                fuel_figures: c
                    .fuel_figures
                    .iter()
                    .map(|f| FuelFigure {
                        speed: f.speed,
                        mpg: f.mpg,
                        usage_description: f.usage_description.into(),
                    })
                    .collect(),
                performance_figures: c
                    .performance_figures
                    .iter()
                    .map(|p| PerformanceFigure {
                        octane_rating: p.octane_rating,
                        acceleration: p
                            .acceleration
                            .iter()
                            .map(|a| Acceleration {
                                mph: a.mph,
                                seconds: a.seconds,
                            })
                            .collect(),
                    })
                    .collect(),
                manufacturer: c.manufacturer.into(),
                model: c.model.into(),
                activation_code: c.activation_code.into(),
            }
        }
    }

    /// Parses the JSON into a car and folds every value into a checksum
    /// (the same values, in the same order, as the SBE decoders).
    pub fn decode(json: &[u8]) -> serde_json::Result<u64> {
        let c: JsonCar = serde_json::from_slice(json)?;
        let mut acc = 0u64;
        acc = fold(acc, c.serial_number);
        acc = fold(acc, u64::from(c.model_year));
        acc = fold(acc, u64::from(c.available));
        acc = fold(acc, u64::from(c.code));
        for n in c.some_numbers {
            acc = fold(acc, u64::from(n));
        }
        acc = fold_bytes(acc, c.vehicle_code.as_bytes());
        acc = fold(acc, u64::from(c.extras));
        let e = &c.engine;
        acc = fold(acc, u64::from(e.capacity));
        acc = fold(acc, u64::from(e.num_cylinders));
        acc = fold_bytes(acc, e.manufacturer_code.as_bytes());
        acc = fold(acc, e.efficiency as u64);
        acc = fold(acc, u64::from(e.booster_enabled));
        acc = fold(acc, u64::from(e.boost_type));
        acc = fold(acc, u64::from(e.horse_power));
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

    /// Writes the car as JSON into `out` (cleared first; its allocation is
    /// reused from one call to the next).
    pub fn encode(car: &JsonCar, out: &mut Vec<u8>) -> serde_json::Result<usize> {
        out.clear();
        serde_json::to_writer(&mut *out, car)?;
        Ok(out.len())
    }
}

/// The car for prost (protobuf), derived by hand: no .proto, no protoc.
pub mod proto {
    use super::*;
    use prost::Message;

    /// `fuelFigures` entry.
    #[derive(Clone, PartialEq, Message)]
    pub struct FuelFigure {
        #[prost(uint32, tag = "1")]
        pub speed: u32,
        #[prost(float, tag = "2")]
        pub mpg: f32,
        #[prost(string, tag = "3")]
        pub usage_description: String,
    }

    /// `acceleration` entry.
    #[derive(Clone, PartialEq, Message)]
    pub struct Acceleration {
        #[prost(uint32, tag = "1")]
        pub mph: u32,
        #[prost(float, tag = "2")]
        pub seconds: f32,
    }

    /// `performanceFigures` entry.
    #[derive(Clone, PartialEq, Message)]
    pub struct PerformanceFigure {
        #[prost(uint32, tag = "1")]
        pub octane_rating: u32,
        #[prost(message, repeated, tag = "2")]
        pub acceleration: Vec<Acceleration>,
    }

    /// `engine`.
    #[derive(Clone, PartialEq, Message)]
    pub struct Engine {
        #[prost(uint32, tag = "1")]
        pub capacity: u32,
        #[prost(uint32, tag = "2")]
        pub num_cylinders: u32,
        #[prost(bytes = "vec", tag = "3")]
        pub manufacturer_code: Vec<u8>,
        #[prost(sint32, tag = "4")]
        pub efficiency: i32,
        #[prost(bool, tag = "5")]
        pub booster_enabled: bool,
        #[prost(uint32, tag = "6")]
        pub boost_type: u32,
        #[prost(uint32, tag = "7")]
        pub horse_power: u32,
    }

    /// The car.
    #[derive(Clone, PartialEq, Message)]
    pub struct ProtoCar {
        #[prost(uint64, tag = "1")]
        pub serial_number: u64,
        #[prost(uint32, tag = "2")]
        pub model_year: u32,
        #[prost(bool, tag = "3")]
        pub available: bool,
        #[prost(uint32, tag = "4")]
        pub code: u32,
        #[prost(uint32, repeated, tag = "5")]
        pub some_numbers: Vec<u32>,
        #[prost(bytes = "vec", tag = "6")]
        pub vehicle_code: Vec<u8>,
        #[prost(uint32, tag = "7")]
        pub extras: u32,
        #[prost(message, optional, tag = "9")]
        pub engine: Option<Engine>,
        #[prost(message, repeated, tag = "10")]
        pub fuel_figures: Vec<FuelFigure>,
        #[prost(message, repeated, tag = "13")]
        pub performance_figures: Vec<PerformanceFigure>,
        #[prost(string, tag = "18")]
        pub manufacturer: String,
        #[prost(string, tag = "19")]
        pub model: String,
        #[prost(string, tag = "20")]
        pub activation_code: String,
    }

    impl From<&Car> for ProtoCar {
        fn from(c: &Car) -> Self {
            let e = &c.engine;
            ProtoCar {
                serial_number: c.serial_number,
                model_year: c.model_year.into(),
                available: c.available,
                code: c.code.into(),
                some_numbers: c.some_numbers.to_vec(),
                vehicle_code: c.vehicle_code.to_vec(),
                extras: c.extras.into(),
                engine: Some(Engine {
                    capacity: e.capacity.into(),
                    num_cylinders: e.num_cylinders.into(),
                    manufacturer_code: e.manufacturer_code.to_vec(),
                    efficiency: e.efficiency.into(),
                    booster_enabled: e.booster_enabled,
                    boost_type: e.boost_type.into(),
                    horse_power: e.horse_power.into(),
                }),
                fuel_figures: c
                    .fuel_figures
                    .iter()
                    .map(|f| FuelFigure {
                        speed: f.speed.into(),
                        mpg: f.mpg,
                        usage_description: f.usage_description.into(),
                    })
                    .collect(),
                performance_figures: c
                    .performance_figures
                    .iter()
                    .map(|p| PerformanceFigure {
                        octane_rating: p.octane_rating.into(),
                        acceleration: p
                            .acceleration
                            .iter()
                            .map(|a| Acceleration {
                                mph: a.mph.into(),
                                seconds: a.seconds,
                            })
                            .collect(),
                    })
                    .collect(),
                manufacturer: c.manufacturer.into(),
                model: c.model.into(),
                activation_code: c.activation_code.into(),
            }
        }
    }

    /// Decodes the protobuf bytes into a car and folds every value into a
    /// checksum (the same values, in the same order, as the SBE decoders).
    pub fn decode(bytes: &[u8]) -> Result<u64, prost::DecodeError> {
        let c = ProtoCar::decode(bytes)?;
        let mut acc = 0u64;
        acc = fold(acc, c.serial_number);
        acc = fold(acc, u64::from(c.model_year));
        acc = fold(acc, u64::from(c.available));
        acc = fold(acc, u64::from(c.code));
        for &n in &c.some_numbers {
            acc = fold(acc, u64::from(n));
        }
        acc = fold_bytes(acc, &c.vehicle_code);
        acc = fold(acc, u64::from(c.extras));
        let e = c.engine.unwrap_or_default();
        acc = fold(acc, u64::from(e.capacity));
        acc = fold(acc, u64::from(e.num_cylinders));
        acc = fold_bytes(acc, &e.manufacturer_code);
        acc = fold(acc, e.efficiency as u64);
        acc = fold(acc, u64::from(e.booster_enabled));
        acc = fold(acc, u64::from(e.boost_type));
        acc = fold(acc, u64::from(e.horse_power));
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

    /// Writes the car as protobuf into `out` (cleared first; its allocation
    /// is reused from one call to the next).
    pub fn encode(car: &ProtoCar, out: &mut Vec<u8>) -> Result<usize, prost::EncodeError> {
        out.clear();
        car.encode(out)?;
        Ok(out.len())
    }
}
