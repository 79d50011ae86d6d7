//! A group dimension whose blockLength is a constant (fixture
//! `constdim.xml`): not on the wire, the dimension is numInGroup alone.
//! The generated encoder writes the count only, the generated decoder reads
//! the constant as the block length, and the run-time codec behind
//! `sbe decode` reads the same bytes as the same message.

mod common;

use corpus_tests::s_fixture_constdim as constdim;

fn encoded() -> Vec<u8> {
    let mut buf = vec![0u8; 64];
    let mut e = constdim::TickEncoder::wrap(&mut buf).unwrap();
    e.seq(9);
    let mut legs = e.legs(2).unwrap();
    legs.next_entry().unwrap().px(-5);
    legs.next_entry().unwrap().px(7);
    let mut notes = legs.end().unwrap().notes(1).unwrap();
    let mut note = notes.next_entry().unwrap();
    note.n(3);
    note.text("hi").unwrap();
    let n = notes.end().unwrap().finish().unwrap();
    buf.truncate(n);
    buf
}

#[test]
fn the_dimension_is_the_count_alone() {
    let mut want = vec![4, 0, 1, 0, 12, 0, 0, 0, 9, 0, 0, 0];
    want.push(2); // legs: numInGroup; blockLength is the constant 4
    want.extend_from_slice(&(-5i32).to_le_bytes());
    want.extend_from_slice(&7i32.to_le_bytes());
    want.push(1); // notes
    want.extend_from_slice(&3i32.to_le_bytes());
    want.extend_from_slice(&[2, b'h', b'i']);
    assert_eq!(encoded(), want);
}

#[test]
fn generated_and_run_time_decoders_read_the_constant_block_length() {
    let bytes = encoded();
    let constdim::Message::Tick(d) = constdim::decode(&bytes).unwrap();
    assert_eq!(d.checked_length(), Ok(bytes.len()));
    assert_eq!(constdim::message_length(&bytes), Ok(bytes.len()));
    let legs: Vec<i32> = d.legs().map(|e| e.px()).collect();
    assert_eq!(legs, [-5, 7]);
    let notes: Vec<(i32, &[u8])> = d.notes().map(|e| (e.n(), e.text())).collect();
    assert_eq!(notes, [(3, &b"hi"[..])]);

    let run_time = common::run_time_json("sbe-build/tests/fixtures/constdim.xml", &bytes);
    assert_eq!(constdim::decode(&bytes).unwrap().to_json(), run_time);
    let value: serde_json::Value = serde_json::from_str(&run_time).unwrap();
    assert_eq!(value["body"]["legs"][1]["px"], 7);
}
