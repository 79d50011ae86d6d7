//! `sbe decode` on hostile files of hundreds of megabytes: a lying SOFH
//! length and a file of zeros stop at the first frame, without reading
//! the rest into memory; frames whose group count (65,535) has no entries
//! behind it are each refused and skipped, one error per frame. (Sparse
//! files: the test writes almost nothing to disk.)

mod common;

use std::io::Write;

const SIZE: u64 = 300 << 20;

fn car_schema() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/car.xml").to_string()
}

fn sparse(name: &str, head: &[u8]) -> String {
    let path = common::scratch(name).join("hostile.bin");
    let mut f = std::fs::File::create(&path).expect("create");
    f.write_all(head).expect("write");
    f.set_len(SIZE).expect("set_len");
    path.display().to_string()
}

fn decode(args: &[&str]) -> (i32, Vec<u8>, String) {
    let schema = car_schema();
    let mut all = vec!["decode", "--schema", schema.as_str()];
    all.extend_from_slice(args);
    common::sbe(&all, b"")
}

#[test]
fn a_lying_sofh_length_is_refused_at_the_first_frame() {
    let mut head = 0xFFFF_FFF0u32.to_be_bytes().to_vec();
    head.extend_from_slice(&0xEB50u16.to_be_bytes());
    let file = sparse("lying-sofh", &head);
    let (code, out, err) = decode(&["--framing", "sofh", "--keep-going", &file]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("at byte 0: message would need 4294967280 bytes"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn hundreds_of_megabytes_of_zeros_stop_at_the_first_message() {
    let file = sparse("zeros", &[]);
    let (code, out, err) = decode(&[&file]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("at byte 4: wrong schema id 0 (expected 1)"),
        "{err}"
    );
}

#[test]
fn a_count_with_no_entries_is_refused_frame_by_frame() {
    // A car cut after its fuelFigures dimension, whose count says 65,535.
    let json = r#"{"message":"Car","body":{"serialNumber":1,"modelYear":2013,"available":"T","code":"A","someNumbers":[1,2,3,4],"vehicleCode":"abcdef","extras":[],"engine":{"capacity":2000,"numCylinders":4,"manufacturerCode":"123","efficiency":35,"boosterEnabled":"T","booster":{"BoostType":"NITROUS","horsePower":200}},"fuelFigures":[],"performanceFigures":[],"manufacturer":"","model":"","activationCode":""}}"#;
    let (code, car, err) =
        common::sbe(&["encode", "--schema", &car_schema(), "-"], json.as_bytes());
    assert_eq!(code, 0, "{err}");
    let mut message = car[..57].to_vec();
    message[55..57].copy_from_slice(&65535u16.to_le_bytes());
    let mut frame = (6 + message.len() as u32).to_be_bytes().to_vec();
    frame.extend_from_slice(&0xEB50u16.to_be_bytes());
    frame.extend_from_slice(&message);
    let frames = 2000;
    let path = common::scratch("count").join("frames.sofh");
    std::fs::write(&path, frame.repeat(frames)).expect("write");
    let (code, out, err) = decode(&[
        "--framing",
        "sofh",
        "--keep-going",
        &path.display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    // Said in full five times, then summed up in one line (issue 42).
    assert_eq!(err.lines().count(), 6, "{err}");
    assert!(
        err.lines()
            .last()
            .is_some_and(|l| l.contains(&format!("... and {} more errors like this: ", frames - 5))),
        "{err}"
    );
    assert!(
        err.lines().all(|l| l.contains(
            "truncated: group Car.fuelFigures of 65535 entries needs 655350 bytes, 0 left"
        )),
        "{}",
        err.lines().next().unwrap_or_default()
    );
}
