//! Generates the decoders and encoders of the two example schemas into
//! `$OUT_DIR` (`baseline.rs` and `market_data.rs`, named after their
//! packages).

fn main() {
    sbe_build::compile("../schemas/car.xml").unwrap();
    sbe_build::Config::new()
        .out_dir(std::env::var("OUT_DIR").unwrap())
        .compile(&["../schemas/market-data.xml"])
        .unwrap();
}
