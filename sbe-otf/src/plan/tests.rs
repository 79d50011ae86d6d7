//! The plan against the walk on every golden vector of ../shared: the
//! same JSON, lengths and bytes, and the plan does take the vectors.

use crate::json::JsonWriter;
use crate::Codec;

struct Counts {
    vectors: usize,
    decoded: usize,
    encoded: usize,
    prefixes: usize,
}

fn check(codec: &Codec<'_>, bin: &[u8], c: &mut Counts) {
    c.vectors += 1;
    let mut walked = Vec::new();
    let walk = codec.walk(bin, 0, Some("s"), &mut JsonWriter::new(&mut walked));
    let mut planned = Vec::new();
    let plan = codec.planned::<true>(bin, Some("s"), &mut planned);
    if let Some(d) = &plan {
        c.decoded += 1;
        let w = walk
            .as_ref()
            .expect("the plan decodes only what the walk does");
        assert_eq!(d.len, w.len);
        assert_eq!(
            String::from_utf8_lossy(&planned),
            String::from_utf8_lossy(&walked)
        );
        let sized = codec.planned::<false>(bin, None, &mut Vec::new());
        assert_eq!(sized.map(|d| d.len), Some(w.len));
    }
    // Every prefix: the plan gives up, or says what the walk says.
    for cut in 0..bin.len() {
        let part = bin.get(..cut).unwrap_or_default();
        let mut out = Vec::new();
        let walk = codec.walk(part, 0, None, &mut JsonWriter::new(&mut out));
        if let Some(d) = codec.planned::<false>(part, None, &mut Vec::new()) {
            c.prefixes += 1;
            assert_eq!(walk.map(|w| w.len).ok(), Some(d.len), "prefix {cut}");
        }
    }
    if walk.is_err() {
        return;
    }
    let text = String::from_utf8_lossy(&walked).into_owned();
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
    };
    let mut schemas: Vec<(String, sbe_build::ir::Schema)> = Vec::new();
    for v in test_support::vectors(&shared) {
        if !schemas.iter().any(|(p, _)| *p == v.schema) {
            let path = shared.join("corpus").join(&v.schema);
            let Ok(schema) = sbe_build::ir::load(&path) else {
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
        "{} vectors: {} decoded by the plan, {} encoded by it, {} prefixes sized by it",
        c.vectors, c.decoded, c.encoded, c.prefixes
    );
    // Most vectors are of the schema's own version: the plan takes them.
    assert!(c.decoded * 2 > c.vectors, "{} of {}", c.decoded, c.vectors);
    assert!(c.encoded * 2 > c.vectors, "{} of {}", c.encoded, c.vectors);
}
