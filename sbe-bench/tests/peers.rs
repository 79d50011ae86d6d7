//! serde_json and prost decode the same car values as the SBE decoders.

use sbe_bench::data::CAR;
use sbe_bench::raw;
use sbe_bench::streams::car_message;

#[path = "../benches/common/peers.rs"]
mod peers;

#[test]
fn peers_fold_the_same_checksum() {
    let sum = raw::car_decode(&car_message()).unwrap();

    let json_car = peers::json::JsonCar::from(&CAR);
    let mut json = Vec::new();
    peers::json::encode(&json_car, &mut json).unwrap();
    assert_eq!(peers::json::decode(&json).unwrap(), sum);
    assert_eq!(
        serde_json::from_slice::<peers::json::JsonCar>(&json).unwrap(),
        json_car
    );

    let proto_car = peers::proto::ProtoCar::from(&CAR);
    let mut proto = Vec::new();
    peers::proto::encode(&proto_car, &mut proto).unwrap();
    assert_eq!(peers::proto::decode(&proto).unwrap(), sum);
}
