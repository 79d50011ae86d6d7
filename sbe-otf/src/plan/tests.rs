//! The plan against the walk on every golden vector of ../shared: the
//! same JSON, lengths and bytes, and the plan does take the vectors; and
//! on integers of every width, from a schema of its own.
#![cfg(test)]

use crate::json::JsonWriter;
use crate::Codec;

struct Counts {
    vectors: usize,
    decoded: usize,
    encoded: usize,
    prefixes: usize,
    mutants: usize,
}

fn check(codec: &Codec<'_>, bin: &[u8], c: &mut Counts) {
    c.vectors += 1;
    let mut walked = Vec::new();
    let walk = codec.walk(bin, 0, Some("s"), &mut JsonWriter::new(&mut walked));
    let mut planned = crate::JsonBuf::new();
    let plan = codec.planned::<true>(bin, Some("s"), &mut planned);
    if let Some(d) = &plan {
        c.decoded += 1;
        let w = walk
            .as_ref()
            .expect("the plan decodes only what the walk does");
        assert_eq!(d.len, w.len);
        assert_eq!(
            String::from_utf8_lossy(planned.as_bytes()),
            String::from_utf8_lossy(&walked)
        );
        let sized = codec.planned::<false>(bin, None, &mut crate::JsonBuf::new());
        assert_eq!(sized.map(|d| d.len), Some(w.len));
    }
    // Every prefix: the plan gives up, or says what the walk says.
    for cut in 0..bin.len() {
        let part = bin.get(..cut).unwrap_or_default();
        let mut out = Vec::new();
        let walk = codec.walk(part, 0, None, &mut JsonWriter::new(&mut out));
        if let Some(d) = codec.planned::<false>(part, None, &mut crate::JsonBuf::new()) {
            c.prefixes += 1;
            assert_eq!(walk.map(|w| w.len).ok(), Some(d.len), "prefix {cut}");
        }
    }
    if walk.is_err() {
        return;
    }
    let text = String::from_utf8_lossy(&walked).into_owned();
    // A third of the vectors, the first values of each: enough kinds of
    // field, in a test of seconds.
    if c.vectors % 3 == 0 {
        mutants(codec, &text, c);
    }
    let mut fast = Vec::new();
    if codec.encode_text(&text, &mut fast).is_some() {
        c.encoded += 1;
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let mut slow = Vec::new();
        codec
            .encode_value(&value, &mut slow)
            .expect("the walk's JSON encodes");
        assert_eq!(fast, slow);
    }
}

#[test]
fn the_plan_agrees_with_the_walk_on_every_golden_vector() {
    let Some(shared) = test_support::shared_dir("plan_agrees_with_walk") else {
        return;
    };
    let mut c = Counts {
        vectors: 0,
        decoded: 0,
        encoded: 0,
        prefixes: 0,
        mutants: 0,
    };
    let mut schemas: Vec<(String, sbe_ir::ir::Schema)> = Vec::new();
    for v in test_support::vectors(&shared) {
        if !schemas.iter().any(|(p, _)| *p == v.schema) {
            let path = shared.join("corpus").join(&v.schema);
            let Ok(schema) = sbe_ir::ir::load(&path) else {
                continue;
            };
            schemas.push((v.schema.clone(), schema));
        }
        let Some((_, schema)) = schemas.iter().find(|(p, _)| *p == v.schema) else {
            continue;
        };
        let Ok(codec) = Codec::new(schema) else {
            continue;
        };
        check(&codec, &v.bin, &mut c);
    }
    eprintln!(
        "{} vectors: {} decoded by the plan, {} encoded by it, {} prefixes sized by it, \
         {} altered texts encoded by it as by encode_value",
        c.vectors, c.decoded, c.encoded, c.prefixes, c.mutants
    );
    // Most vectors are of the schema's own version: the plan takes them.
    assert!(c.decoded * 2 > c.vectors, "{} of {}", c.decoded, c.vectors);
    assert!(c.encoded * 2 > c.vectors, "{} of {}", c.encoded, c.vectors);
}

/// Tokens put in place of a value: wrong types, edges of ranges, forms
/// the plan leaves to `encode_value`.
const SWAPS: &[&str] = &[
    "null",
    "0",
    "-1",
    "-0",
    "01",
    "255",
    "256",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1.5",
    "1e3",
    "true",
    "[]",
    "{}",
    "\"New\"",
    "\"x\\u0041\"",
    "nul",
];

/// The walk's JSON with one value swapped: whatever the plan encodes,
/// `encode_value` encodes alike; what it refuses, the plan does not take.
fn mutants(codec: &Codec<'_>, text: &str, c: &mut Counts) {
    let b = text.as_bytes();
    let token = |i: usize| {
        b[i..]
            .iter()
            .position(|&x| !(x.is_ascii_alphanumeric() || x == b'-' || x == b'.' || x == b'"'))
            .map_or(b.len(), |n| i + n)
    };
    let mut starts = Vec::new();
    for i in 1..b.len() {
        if matches!(b[i - 1], b':' | b'[' | b',') && b[i] != b'{' && b[i] != b'[' {
            starts.push(i);
        }
    }
    for &i in starts.iter().take(12) {
        let end = token(i);
        for swap in SWAPS {
            let t = format!("{}{swap}{}", &text[..i], &text[end..]);
            let mut fast = Vec::new();
            let planned = codec.encode_text(&t, &mut fast);
            let slow = serde_json::from_str::<serde_json::Value>(&t).ok().map(|v| {
                let mut out = Vec::new();
                codec.encode_value(&v, &mut out).map(|_| out)
            });
            if planned.is_some() {
                c.mutants += 1;
                match slow {
                    Some(Ok(bytes)) => assert_eq!(fast, bytes, "{t}"),
                    other => panic!("the plan encodes what encode_value does not: {t}: {other:?}"),
                }
            }
        }
    }
}

/// Every integer width, signed and not, optional and required, at its
/// limits, at its null value and about zero, in both byte orders: the
/// plan writes what the walk writes (no ../shared needed).
#[test]
fn integers_of_every_width_agree_with_the_walk() {
    let prims = [
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    ];
    for order in ["littleEndian", "bigEndian"] {
        let fields: String = prims
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    r#"<field name="r{i}" id="{}" type="{p}"/><field name="o{i}" id="{}" type="{p}" presence="optional"/>"#,
                    2 * i + 1,
                    2 * i + 2
                )
            })
            .collect();
        let xml = format!(
            r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="p" id="1" version="0" byteOrder="{order}"><types><composite name="messageHeader"><type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/><type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/></composite></types><sbe:message name="M" id="1">{fields}</sbe:message></sbe:messageSchema>"#
        );
        let schema = sbe_ir::ir::load_str(std::path::Path::new("ints.xml"), &xml).expect("schema");
        let codec = Codec::new(&schema).expect("codec");
        let block: usize = [1, 2, 4, 8, 1, 2, 4, 8].iter().map(|n| 2 * n).sum();
        let le = order == "littleEndian";
        let u16b = |v: u16| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        let mut head = Vec::new();
        for v in [block as u16, 1, 1, 0] {
            head.extend_from_slice(&u16b(v));
        }
        // Every byte of the block the same: 0x00, 0x01, 0x7f, 0x80, 0xfe,
        // 0xff give zero, small values, each width's limits and nulls.
        for byte in [0x00u8, 0x01, 0x7f, 0x80, 0xfe, 0xff] {
            let mut bin = head.clone();
            bin.extend(std::iter::repeat_n(byte, block));
            let mut walked = Vec::new();
            codec
                .walk(&bin, 0, None, &mut JsonWriter::new(&mut walked))
                .expect("walk");
            let mut planned = crate::JsonBuf::new();
            assert!(codec.planned::<true>(&bin, None, &mut planned).is_some());
            assert_eq!(
                String::from_utf8_lossy(planned.as_bytes()),
                String::from_utf8_lossy(&walked),
                "{order}, bytes {byte:#04x}"
            );
        }
    }
}
