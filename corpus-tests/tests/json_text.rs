//! `sbe decode` and the generated `to_json` print the same text, byte for
//! byte, not only the same JSON value: both write through
//! `sbe_rt::JsonWriter` (escapes of control characters and DEL, ISO-8859-1
//! and UTF-8 text, hex, Java's floats).

mod common;

use corpus_tests::s_repo_schemas_car as car;

#[test]
fn run_time_and_generated_json_are_the_same_text() {
    let mut buf = vec![0u8; 512];
    let mut e = car::CarEncoder::wrap(&mut buf).unwrap();
    // A set with a bit no choice names: shown by one rule in both.
    e.serial_number(u64::MAX)
        .extras(car::OptionalExtras(0b1000_0101))
        .vehicle_code(b"\x7f\x08\xe9\x01\x0c\"")
        .unwrap();
    let mut fuel = e.fuel_figures(1).unwrap();
    let mut f = fuel.next_entry().unwrap();
    f.speed(1).mpg(-0.1);
    f.usage_description("tab\there \\ \u{1b}").unwrap();
    let len = fuel
        .end()
        .unwrap()
        .manufacturer("Caf\u{e9} \u{7f}\n")
        .unwrap()
        .model(b"\xff\xfe not UTF-8")
        .unwrap()
        .activation_code(b"\xe9\x00\x1f")
        .unwrap()
        .finish()
        .unwrap();
    buf.truncate(len);

    let run_time = common::run_time_json("schemas/car.xml", &buf);
    let generated = car::decode(&buf).unwrap().to_json();
    assert_eq!(run_time, generated);
    assert!(
        generated.contains(r#""extras":["sunRoof","cruiseControl",7]"#),
        "{generated}"
    );
    // DEL as it is, \b and \f short, other controls \u00XX, Latin-1 é.
    assert!(
        generated.contains("\"vehicleCode\":\"\u{7f}\\b\u{e9}\\u0001\\f\\\"\""),
        "{generated}"
    );
    assert!(
        generated.contains("\"activationCode\":\"\u{e9}\\u0000\\u001f\""),
        "{generated}"
    );
    assert!(
        generated.contains("\"serialNumber\":18446744073709551615,"),
        "{generated}"
    );
    assert!(generated.contains("\"mpg\":-0.1,"), "{generated}");
}
