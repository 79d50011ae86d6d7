//! The columnar export on any bytes: messages one after another, each
//! appended or refused (and then recorded as an error), in small batches
//! that flatten groups or not. Nothing panics, and the message tables
//! have exactly the rows of the messages taken.
#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use sbe_columnar::{Exporter, Frame, Options};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let ir = sbe_fuzz::ir_of(sbe_fuzz::pick(selector));
    let options = Options::default()
        .flatten(selector & 0x80 != 0)
        .frames(selector & 0x40 != 0)
        .batch_rows(usize::from(selector % 7) + 1);
    let Ok(mut ex) = Exporter::new(ir, options) else {
        return;
    };
    let mut taken = 0;
    let mut rows: HashMap<String, usize> = HashMap::new();
    let mut count = |batches: Vec<(String, arrow_array::RecordBatch)>| {
        for (table, b) in batches {
            *rows.entry(table).or_default() += b.num_rows();
        }
    };
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        match ex.append(rest, &Frame::at(at as u64)) {
            Ok(len) => {
                assert!(len > 0 && len <= rest.len(), "took {len} of {}", rest.len());
                taken += 1;
                at += len;
            }
            Err(e) => {
                ex.append_error(rest, &Frame::at(at as u64), "Fuzz", &e.to_string());
                at += 1;
            }
        }
        count(ex.take_ready().expect("the exporter fills what Arrow takes"));
    }
    count(ex.finish().expect("the exporter fills what Arrow takes"));
    // A message table's rows are the messages taken: none of a refused
    // message, none lost at a batch's cut.
    let messages: usize = (ir.messages.iter())
        .map(|m| rows.get(&m.name).copied().unwrap_or(0))
        .sum();
    assert_eq!(messages, taken);
});
