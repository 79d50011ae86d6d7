//! Bad input of every kind: the message says what and where, and the exit
//! code says it failed. Bad JSON writes nothing of the bad message.

mod common;

use std::path::PathBuf;

use serde_json::Value;
use test_support::shared_dir;

struct Car {
    schema: String,
    bin: Vec<u8>,
    json: Value,
}

/// The corpus car sample's `Car-000` vector, or `None` (skipping `test`)
/// without ../shared.
fn car(test: &str) -> Option<Car> {
    let shared = shared_dir(test)?;
    let v = shared.join("vectors/sbe__samples__example-schema");
    Some(Car {
        schema: shared
            .join("corpus/sbe/samples/example-schema.xml")
            .to_string_lossy()
            .into_owned(),
        bin: std::fs::read(v.join("Car-000.bin")).expect("bin"),
        json: serde_json::from_slice(&std::fs::read(v.join("Car-000.json")).expect("json"))
            .expect("json"),
    })
}

fn decode(car: &Car, extra: &[&str], input: &[u8]) -> (i32, Vec<u8>, String) {
    let mut args = vec!["decode", "--schema", &car.schema];
    args.extend_from_slice(extra);
    args.push("-");
    common::sbe(&args, input)
}

#[test]
fn truncated_message() {
    let Some(car) = car("truncated_message") else {
        return;
    };
    let (code, out, err) = decode(&car, &[], &car.bin[..190]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains(
            "at byte 182: truncated: var data of Car.activationCode needs 13 bytes, 8 left"
        ),
        "{err}"
    );
    // Cut inside the header.
    let (code, _, err) = decode(&car, &[], &car.bin[..5]);
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 0: truncated: message header"),
        "{err}"
    );
}

#[test]
fn corrupt_group_count() {
    let Some(car) = car("corrupt_group_count") else {
        return;
    };
    let mut bin = car.bin.clone();
    // fuelFigures' numInGroup (uint16 at 55).
    bin[55] = 0xff;
    bin[56] = 0xff;
    let (code, out, err) = decode(&car, &[], &bin);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("at byte 57"), "{err}");
    assert!(
        err.contains("group Car.fuelFigures of 65535 entries"),
        "{err}"
    );
}

#[test]
fn corrupt_var_data_length() {
    let Some(car) = car("corrupt_var_data_length") else {
        return;
    };
    let mut bin = car.bin.clone();
    // manufacturer's uint32 length at 134: within its maxValue
    // (1073741824), beyond the bytes there are.
    bin[136] = 0x7f;
    let (code, _, err) = decode(&car, &[], &bin);
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 138: truncated: var data of Car.manufacturer"),
        "{err}"
    );
    // Above its maxValue: refused as such, as the generated decoder does.
    bin[137] = 0x7f;
    let (code, _, err) = decode(&car, &[], &bin);
    assert_eq!(code, 1);
    assert!(
        err.contains("at byte 134: var data of Car.manufacturer: length 2139029527 is above its maximum 1073741824"),
        "{err}"
    );
}

#[test]
fn unknown_template() {
    let Some(car) = car("unknown_template") else {
        return;
    };
    let mut bin = car.bin.clone();
    bin[2] = 0xe7;
    bin[3] = 0x03;
    let (code, out, err) = decode(&car, &[], &bin);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("at byte 2: unknown template id 999"), "{err}");
}

#[test]
fn keep_going_resumes_at_the_next_sofh_frame() {
    let Some(car) = car("keep_going_resumes_at_the_next_sofh_frame") else {
        return;
    };
    let frame = |b: &[u8]| {
        let mut f = ((b.len() + 6) as u32).to_be_bytes().to_vec();
        f.extend([0xeb, 0x50]);
        f.extend_from_slice(b);
        f
    };
    let mut bad = car.bin.clone();
    bad[2] = 0xe7;
    let mut stream = frame(&car.bin);
    stream.extend(frame(&bad));
    stream.extend(frame(&car.bin));
    let at = car.bin.len() + 6 + 6 + 2;
    // Without --keep-going: stops at the bad frame.
    let (code, out, err) = decode(&car, &["--framing", "sofh"], &stream);
    assert_eq!(code, 1);
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 1);
    assert!(
        err.contains(&format!("at byte {at}: unknown template id")),
        "{err}"
    );
    // With it: the third message is decoded too, and the exit code still says 1.
    let (code, out, err) = decode(&car, &["--framing", "sofh", "--keep-going"], &stream);
    assert_eq!(code, 1, "{err}");
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 2);
    // A SOFH length shorter than its header cannot be framed past.
    let mut broken = frame(&car.bin);
    broken.extend([0, 0, 0, 2, 0xeb, 0x50]);
    broken.extend(frame(&car.bin));
    let (code, out, err) = decode(&car, &["--framing", "sofh", "--keep-going"], &broken);
    assert_eq!(code, 1);
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 1);
    assert!(
        err.contains(&format!(
            "at byte {}: bad framing header",
            car.bin.len() + 6
        )),
        "{err}"
    );
}

#[test]
fn wrong_sofh_encoding_type() {
    let Some(car) = car("wrong_sofh_encoding_type") else {
        return;
    };
    let mut f = ((car.bin.len() + 6) as u32).to_be_bytes().to_vec();
    f.extend([0x5b, 0xe0]);
    f.extend_from_slice(&car.bin);
    let (code, _, err) = decode(&car, &["--framing", "sofh"], &f);
    assert_eq!(code, 1);
    assert!(err.contains("at byte 4"), "{err}");
    assert!(
        err.contains("does not match the schema's byte order"),
        "{err}"
    );
}

/// Encode `json` (one message per line): (exit code, bytes, stderr).
fn encode(car: &Car, lines: &[Value], extra: &[&str]) -> (i32, Vec<u8>, String) {
    let mut input = Vec::new();
    for l in lines {
        input.extend(serde_json::to_vec(l).expect("json"));
        input.push(b'\n');
    }
    let mut args = vec!["encode", "--schema", &car.schema];
    args.extend_from_slice(extra);
    args.push("-");
    common::sbe(&args, &input)
}

/// The Car JSON changed by `f`, between two good messages: the error names
/// line 2 and the path, and only the first message is written.
fn bad_json(test: &str, f: impl FnOnce(&mut Value), expected: &str) {
    let Some(car) = car(test) else { return };
    let mut bad = car.json.clone();
    f(&mut bad);
    let (code, out, err) = encode(
        &car,
        &[car.json.clone(), bad.clone(), car.json.clone()],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("-:2: {expected}")),
        "want {expected:?}, got {err}"
    );
    assert_eq!(
        out, car.bin,
        "only the message before the bad one is written"
    );
    // --keep-going writes both good messages and none of the bad one.
    let (code, out, _) = encode(
        &car,
        &[car.json.clone(), bad, car.json.clone()],
        &["--keep-going"],
    );
    assert_eq!(code, 1);
    assert_eq!(out, [car.bin.clone(), car.bin.clone()].concat());
}

fn body(v: &mut Value) -> &mut serde_json::Map<String, Value> {
    v["body"].as_object_mut().expect("body")
}

#[test]
fn unknown_field() {
    bad_json(
        "unknown_field",
        |v| {
            body(v).insert("bogus".into(), 1.into());
        },
        "$.body.bogus: unknown field",
    );
}

#[test]
fn wrong_type() {
    bad_json(
        "wrong_type",
        |v| v["body"]["fuelFigures"][2]["mpg"] = "fast".into(),
        "$.body.fuelFigures[2].mpg: wrong type: expected number, found string",
    );
    bad_json(
        "wrong_type",
        |v| v["body"]["modelYear"] = 1.5.into(),
        "$.body.modelYear: wrong type: expected integer, found fraction",
    );
}

#[test]
fn out_of_range() {
    bad_json(
        "out_of_range",
        |v| v["body"]["modelYear"] = 70000.into(),
        "$.body.modelYear: out of range: 70000 does not fit uint16",
    );
    bad_json(
        "out_of_range",
        |v| v["body"]["engine"]["capacity"] = (-1).into(),
        "$.body.engine.capacity: out of range: -1 does not fit uint16",
    );
}

#[test]
fn string_too_long() {
    bad_json(
        "string_too_long",
        |v| v["body"]["vehicleCode"] = "ABCDEFGH".into(),
        "$.body.vehicleCode: string too long: 8 bytes, at most 6 allowed",
    );
}

#[test]
fn unknown_enum_or_set_name() {
    bad_json(
        "unknown_enum_or_set_name",
        |v| v["body"]["engine"]["booster"]["BoostType"] = "JET".into(),
        "$.body.engine.booster.BoostType: unknown enum value \"JET\" of BoostType",
    );
    bad_json(
        "unknown_enum_or_set_name",
        |v| v["body"]["extras"][1] = "wings".into(),
        "$.body.extras[1]: unknown set choice \"wings\" of OptionalExtras",
    );
}

#[test]
fn missing_field() {
    bad_json(
        "missing_field",
        |v| {
            body(v).shift_remove("serialNumber");
        },
        "$.body.serialNumber: missing required field",
    );
    bad_json(
        "missing_field",
        |v| {
            v["body"]["fuelFigures"][0]
                .as_object_mut()
                .expect("entry")
                .shift_remove("speed");
        },
        "$.body.fuelFigures[0].speed: missing required field",
    );
}

#[test]
fn unknown_message_and_bad_json_syntax() {
    bad_json(
        "unknown_message_and_bad_json_syntax",
        |v| v["message"] = "Boat".into(),
        "$.message: unknown message \"Boat\"",
    );
    let Some(car) = car("unknown_message_and_bad_json_syntax") else {
        return;
    };
    let (code, out, err) = common::sbe(
        &["encode", "--schema", &car.schema, "-"],
        b"\n{\"message\": \"Car\", \"body\": {]\n",
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("-:2: invalid JSON"), "{err}");
}

#[test]
fn header_may_be_left_out() {
    let Some(car) = car("header_may_be_left_out") else {
        return;
    };
    let mut v = car.json.clone();
    v.as_object_mut().expect("obj").shift_remove("header");
    v.as_object_mut().expect("obj").shift_remove("schema");
    let (code, out, err) = encode(&car, &[v], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, car.bin);
}

#[test]
fn missing_schema_file() {
    let Some(car) = car("missing_schema_file") else {
        return;
    };
    let missing = PathBuf::from(&car.schema).with_file_name("no-such-schema.xml");
    let (code, _, err) = common::sbe(
        &["decode", "--schema", &missing.to_string_lossy(), "-"],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("no-such-schema.xml"), "{err}");
}
