//! The messages every contender encodes and decodes, as plain values.
//!
//! The car is the reference implementation's canonical Car example (the
//! values of `sbe/golden/car_example_baseline_data.sbe`); the market-data
//! message is a MarketDataIncrementalRefreshTrades with two entries.

/// One entry of the car's `fuelFigures` group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FuelFigure {
    /// `speed` (uint16).
    pub speed: u16,
    /// `mpg` (float).
    pub mpg: f32,
    /// `usageDescription` (var data, ASCII).
    pub usage_description: &'static str,
}

/// One entry of the nested `acceleration` group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Acceleration {
    /// `mph` (uint16).
    pub mph: u16,
    /// `seconds` (float).
    pub seconds: f32,
}

/// One entry of the car's `performanceFigures` group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerformanceFigure {
    /// `octaneRating` (uint8, 90..=110).
    pub octane_rating: u8,
    /// The nested `acceleration` group.
    pub acceleration: &'static [Acceleration],
}

/// The car's `engine` composite (constants `maxRpm` and `fuel` left out:
/// they are not on the wire).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Engine {
    /// `capacity` (uint16).
    pub capacity: u16,
    /// `numCylinders` (uint8).
    pub num_cylinders: u8,
    /// `manufacturerCode` (`char[3]`).
    pub manufacturer_code: [u8; 3],
    /// `efficiency` (int8, 0..=100).
    pub efficiency: i8,
    /// `boosterEnabled` (BooleanType, uint8).
    pub booster_enabled: bool,
    /// `booster.boostType` (char enum: `T`, `S`, `N`, `K`).
    pub boost_type: u8,
    /// `booster.horsePower` (uint8).
    pub horse_power: u8,
}

/// The `Car` message of `schemas/car.xml` (template 1, schema 1, version 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Car {
    /// `serialNumber` (uint64).
    pub serial_number: u64,
    /// `modelYear` (uint16).
    pub model_year: u16,
    /// `available` (BooleanType, uint8).
    pub available: bool,
    /// `code` (char enum Model: `A`, `B`, `C`).
    pub code: u8,
    /// `someNumbers` (`uint32[4]`).
    pub some_numbers: [u32; 4],
    /// `vehicleCode` (`char[6]`).
    pub vehicle_code: [u8; 6],
    /// `extras` (set OptionalExtras: bit 0 sunRoof, 1 sportsPack, 2 cruiseControl).
    pub extras: u8,
    /// `engine`.
    pub engine: Engine,
    /// `fuelFigures` group.
    pub fuel_figures: &'static [FuelFigure],
    /// `performanceFigures` group.
    pub performance_figures: &'static [PerformanceFigure],
    /// `manufacturer` (var data, UTF-8).
    pub manufacturer: &'static str,
    /// `model` (var data, UTF-8).
    pub model: &'static str,
    /// `activationCode` (var data, ASCII).
    pub activation_code: &'static str,
}

/// The car of the reference's golden vector.
pub const CAR: Car = Car {
    serial_number: 1234,
    model_year: 2013,
    available: true,
    code: b'A',
    some_numbers: [1, 2, 3, 4],
    vehicle_code: *b"abcdef",
    extras: 0b110,
    engine: Engine {
        capacity: 2000,
        num_cylinders: 4,
        manufacturer_code: *b"123",
        efficiency: 35,
        booster_enabled: true,
        boost_type: b'N',
        horse_power: 200,
    },
    fuel_figures: &[
        FuelFigure {
            speed: 30,
            mpg: 35.9,
            usage_description: "Urban Cycle",
        },
        FuelFigure {
            speed: 55,
            mpg: 49.0,
            usage_description: "Combined Cycle",
        },
        FuelFigure {
            speed: 75,
            mpg: 40.0,
            usage_description: "Highway Cycle",
        },
    ],
    performance_figures: &[
        PerformanceFigure {
            octane_rating: 95,
            acceleration: &[
                Acceleration {
                    mph: 30,
                    seconds: 4.0,
                },
                Acceleration {
                    mph: 60,
                    seconds: 7.5,
                },
                Acceleration {
                    mph: 100,
                    seconds: 12.2,
                },
            ],
        },
        PerformanceFigure {
            octane_rating: 99,
            acceleration: &[
                Acceleration {
                    mph: 30,
                    seconds: 3.8,
                },
                Acceleration {
                    mph: 60,
                    seconds: 7.1,
                },
                Acceleration {
                    mph: 100,
                    seconds: 11.8,
                },
            ],
        },
    ],
    manufacturer: "Honda",
    model: "Civic VTi",
    activation_code: "abcdef",
};

/// Encoded length of [`CAR`] with its message header.
pub const CAR_LEN: usize = 207;

/// One entry of MarketDataIncrementalRefreshTrades' `MdIncGrp` group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MdEntry {
    /// `TradeId` (uint64).
    pub trade_id: u64,
    /// `SecurityId` (uint64).
    pub security_id: u64,
    /// `MdEntryPx.mantissa` (int64; exponent constant 7).
    pub px_mantissa: i64,
    /// `MdEntrySize.mantissa` (int32; exponent constant 0).
    pub size_mantissa: i32,
    /// `NumberOfOrders` (uint16).
    pub number_of_orders: u16,
    /// `MdUpdateAction` (uint8 enum: 0, 1, 2, 5).
    pub update_action: u8,
    /// `RptSeq` (uint8).
    pub rpt_seq: u8,
    /// `AggressorSide` (char enum: `1` buy, `2` sell).
    pub aggressor_side: u8,
}

/// MarketDataIncrementalRefreshTrades of `schemas/market-data.xml`
/// (template 2, schema 1, version 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MdTrades {
    /// `TransactTime` (uint64 nanoseconds).
    pub transact_time: u64,
    /// `EventTimeDelta` (uint16).
    pub event_time_delta: u16,
    /// `MatchEventIndicator` (char enum `0`..`3`).
    pub match_event_indicator: u8,
    /// The `MdIncGrp` group.
    pub entries: &'static [MdEntry],
}

/// The market-data message the benches use: two trades.
pub const MD: MdTrades = MdTrades {
    transact_time: 1_700_000_000_123_456_789,
    event_time_delta: 7,
    match_event_indicator: b'2',
    entries: &[
        MdEntry {
            trade_id: 1_234_567,
            security_id: 56_789,
            px_mantissa: 5_012_500_000,
            size_mantissa: 10,
            number_of_orders: 3,
            update_action: 0,
            rpt_seq: 17,
            aggressor_side: b'1',
        },
        MdEntry {
            trade_id: 1_234_568,
            security_id: 56_789,
            px_mantissa: 5_012_750_000,
            size_mantissa: 25,
            number_of_orders: 1,
            update_action: 1,
            rpt_seq: 18,
            aggressor_side: b'2',
        },
    ],
};

/// Encoded length of [`MD`] with its message header: 8 + 11 + 4 + 2 × 33.
pub const MD_LEN: usize = 89;
