//! `sbe dissector` (issue 21): the generated Lua dissector run by tshark
//! on captures written here. Every value tshark shows equals `sbe
//! decode`'s JSON of the same bytes; bad input gives expert items and
//! never a Lua error. Skipped with a notice without tshark (failing with
//! CI=true).

mod common;
mod wireshark;

use wireshark::*;

fn car_json(serial: u64) -> String {
    format!(
        r#"{{"message":"Car","body":{{"serialNumber":{serial},"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":["sportsPack","cruiseControl"],"engine":{{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{{"BoostType":"NITROUS","horsePower":200}}}},"fuelFigures":[{{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"}},{{"speed":55,"mpg":49.0,"usageDescription":"Combined Cycle"}}],"performanceFigures":[{{"octaneRating":95,"acceleration":[{{"mph":30,"seconds":4.0}},{{"mph":60,"seconds":7.5}}]}}],"manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}}}"#
    )
}

fn sofh(msg: &[u8]) -> Vec<u8> {
    let mut v = ((msg.len() + 6) as u32).to_be_bytes().to_vec();
    v.extend_from_slice(&0xEB50u16.to_be_bytes());
    v.extend_from_slice(msg);
    v
}

/// Every message tshark shows equals sbe decode's JSON of it.
fn same_as_decode(
    schemas: &[&str],
    framing: &str,
    lua: &std::path::Path,
    cap: &std::path::Path,
    proto: &str,
) -> usize {
    let packets = pdml(lua, cap, &[]);
    let shown = messages(&packets, proto);
    let json = decoded(schemas, framing, cap);
    let what = cap.display();
    assert_eq!(shown.len(), json.len(), "{what}: messages shown vs decoded");
    for (j, m) in json.iter().zip(&shown) {
        if let Some(d) = differs(j, m) {
            panic!("{what}: {d}\njson: {j}\nitem: {m:#?}");
        }
    }
    shown.len()
}

#[test]
fn udp_sofh_cars_show_what_decode_shows() {
    if !tshark_present("udp_sofh_cars_show_what_decode_shows") {
        return;
    }
    let dir = common::scratch("dissector-udp-sofh");
    let car = repo_schema("schemas/car.xml");
    let lua = dissector(&dir, &[&car], &["--framing", "sofh", "--udp-port", "5000"]);
    let msgs = encode(&car, &[car_json(1), car_json(2), car_json(3)]);
    let frames = vec![
        udp(5000, &sofh(&msgs[0])),
        udp(5000, &[sofh(&msgs[1]), sofh(&msgs[2])].concat()),
    ];
    let cap = dir.join("cars.pcap");
    std::fs::write(&cap, pcap(&frames)).unwrap();
    assert_eq!(same_as_decode(&[&car], "sofh", &lua, &cap, "sbe"), 3);
}

/// Every golden vector of ../shared (one per datagram, raw framing, a
/// capture per schema): tshark shows what sbe decode decodes. Each
/// generated file passes `luac -p` (5.2 and 5.4 where installed).
#[test]
fn golden_vectors_show_what_decode_shows() {
    let Some(shared) = test_support::shared_dir("golden_vectors_show_what_decode_shows") else {
        return;
    };
    if !tshark_present("golden_vectors_show_what_decode_shows") {
        return;
    }
    let mut by_schema: std::collections::BTreeMap<String, Vec<Vec<u8>>> = Default::default();
    for v in test_support::vectors(&shared) {
        if !v.cross_version {
            by_schema
                .entry(v.schema.clone())
                .or_default()
                .push(v.bin.clone());
        }
    }
    let dir = common::scratch("dissector-golden");
    let mut total = 0;
    for (k, (schema, bins)) in by_schema.iter().enumerate() {
        let path = shared
            .join("corpus")
            .join(schema)
            .to_string_lossy()
            .into_owned();
        let sub = dir.join(k.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        let lua = dissector(&sub, &[&path], &["--framing", "raw", "--udp-port", "5000"]);
        luac(&lua);
        let frames: Vec<Vec<u8>> = bins.iter().map(|b| udp(5000, b)).collect();
        let cap = sub.join("vectors.pcap");
        std::fs::write(&cap, pcap(&frames)).unwrap();
        let n = same_as_decode(&[&path], "raw", &lua, &cap, "sbe");
        assert_eq!(n, bins.len(), "{schema}: every vector decoded");
        total += n;
    }
    assert!(total > 1000, "{total} vectors");
}
