//! One verdict for both decoders: the same bytes, corrupted in every way a
//! decoder checks, go through the generated module's `decode` (and its
//! `message_length`) and through the run-time codec behind `sbe decode`.
//! Both accept with the same JSON, or both refuse with the same kind of
//! error. The schema is the repo's own fixture `verdicts.xml`.

use std::path::PathBuf;

use sbe_otf::Codec;

const SCHEMA: &str = "fixture/verdicts.xml";

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../sbe-build/tests/fixtures/verdicts.xml")
}

/// One entry of group `fills`: its `n` and its `note`.
struct Fill {
    n: u16,
    note: Vec<u8>,
}

/// The parts of an `Order`, each free to be set to a value the schema
/// does not allow.
struct Order {
    block_length: u16,
    template_id: u16,
    schema_id: u16,
    version: u16,
    side: u8,
    legs_block_length: u16,
    legs_count: u16,
    legs: Vec<i32>,
    fills_block_length: u16,
    fills_count: u16,
    fills: Vec<Fill>,
    text: Vec<u8>,
    /// Overrides the text's length prefix.
    text_length: Option<u8>,
}

impl Default for Order {
    fn default() -> Self {
        Order {
            block_length: 7,
            template_id: 1,
            schema_id: 11,
            version: 1,
            side: 2,
            legs_block_length: 4,
            legs_count: 2,
            legs: vec![-5, 7],
            fills_block_length: 2,
            fills_count: 1,
            fills: vec![Fill {
                n: 3,
                note: b"ok".to_vec(),
            }],
            text: b"hello".to_vec(),
            text_length: None,
        }
    }
}

impl Order {
    fn bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        for v in [
            self.block_length,
            self.template_id,
            self.schema_id,
            self.version,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let mut root = Vec::new();
        root.extend_from_slice(&42u32.to_le_bytes());
        root.push(self.side);
        root.extend_from_slice(&9u16.to_le_bytes());
        root.resize(usize::from(self.block_length), 0);
        b.extend_from_slice(&root);
        b.extend_from_slice(&self.legs_block_length.to_le_bytes());
        b.extend_from_slice(&self.legs_count.to_le_bytes());
        for px in &self.legs {
            let mut entry = px.to_le_bytes().to_vec();
            entry.resize(usize::from(self.legs_block_length), 0);
            b.extend_from_slice(&entry);
        }
        b.extend_from_slice(&self.fills_block_length.to_le_bytes());
        b.extend_from_slice(&self.fills_count.to_le_bytes());
        for f in &self.fills {
            let mut entry = f.n.to_le_bytes().to_vec();
            entry.resize(usize::from(self.fills_block_length), 0);
            b.extend_from_slice(&entry);
            b.push(f.note.len() as u8);
            b.extend_from_slice(&f.note);
        }
        b.push(self.text_length.unwrap_or(self.text.len() as u8));
        b.extend_from_slice(&self.text);
        b
    }
}

/// The verdict of both decoders on `bytes`: `Ok(json)` when both accept
/// with the same JSON and length, `Err(kind)` when both refuse alike.
fn verdict(codec: &Codec<'_>, bytes: &[u8]) -> Result<serde_json::Value, &'static str> {
    let (decode, message_length) = corpus_tests::schema(SCHEMA).expect("fixture compiled");
    let generated = decode(bytes);
    let runtime = codec.decode_value(bytes, None);
    let length = message_length(bytes);
    match (generated, runtime) {
        (Ok((json, len)), Ok((value, decoded))) => {
            let json: serde_json::Value =
                serde_json::from_str(&json).expect("generated JSON parses");
            assert_eq!(json, value, "the two decoders' JSON differs");
            assert_eq!(len, decoded.len, "the two decoders' lengths differ");
            assert_eq!(length, Ok(len), "message_length differs from decode");
            Ok(value)
        }
        (Err(g), Err(r)) => {
            let kind = g.kind();
            assert_eq!(
                Some(kind),
                r.kind.rt_kind(),
                "generated {g:?}, run-time {r}"
            );
            assert_eq!(length.map_err(|e| e.kind()), Err(kind));
            Err(kind)
        }
        (g, r) => panic!("the decoders disagree: generated {g:?}, run-time {r:?}"),
    }
}

#[test]
fn both_decoders_give_one_verdict() {
    let schema = sbe_ir::ir::load(schema_path()).expect("fixture loads");
    let codec = Codec::new(&schema).expect("codec");
    let good = Order::default();
    let body = verdict(&codec, &good.bytes()).expect("the valid message decodes");
    assert_eq!(body["body"]["text"], "hello");
    assert_eq!(body["body"]["side"], "Sell");

    type Case = (
        &'static str,
        Box<dyn Fn(&mut Order)>,
        Result<(), &'static str>,
    );
    let cases: Vec<Case> = vec![
        (
            "wrong schema id",
            Box::new(|o| o.schema_id = 12),
            Err("WrongSchemaId"),
        ),
        (
            "wrong template",
            Box::new(|o| o.template_id = 9),
            Err("UnknownTemplateId"),
        ),
        (
            "short block",
            Box::new(|o| o.block_length = 6),
            Err("BlockLengthTooShort"),
        ),
        (
            "short block for version 0",
            Box::new(|o| {
                o.version = 0;
                o.block_length = 4;
            }),
            Err("BlockLengthTooShort"),
        ),
        (
            "count over max",
            Box::new(|o| o.legs_count = 11),
            Err("CountOutOfRange"),
        ),
        (
            "count over max in a group with var data",
            Box::new(|o| o.fills_count = 11),
            Err("CountOutOfRange"),
        ),
        (
            "length over max",
            Box::new(|o| o.text_length = Some(21)),
            Err("LengthOutOfRange"),
        ),
        (
            "note length over max",
            Box::new(|o| o.fills[0].note = vec![b'x'; 21]),
            Err("LengthOutOfRange"),
        ),
        (
            "lying count",
            Box::new(|o| o.legs_count = 9),
            Err("Truncated"),
        ),
        (
            "lying count in a group with var data",
            Box::new(|o| o.fills_count = 9),
            Err("Truncated"),
        ),
        (
            "lying length",
            Box::new(|o| o.text_length = Some(19)),
            Err("Truncated"),
        ),
        (
            "entry block shorter than its fields",
            Box::new(|o| o.legs_block_length = 3),
            Err("BlockLengthTooShort"),
        ),
        (
            "entry with var data shorter than its fields",
            Box::new(|o| o.fills_block_length = 1),
            Err("BlockLengthTooShort"),
        ),
        (
            "empty group with a short block length",
            Box::new(|o| {
                o.legs_count = 0;
                o.legs.clear();
                o.legs_block_length = 1;
            }),
            Ok(()),
        ),
        (
            "empty group with var data and a zero block length",
            Box::new(|o| {
                o.fills_count = 0;
                o.fills.clear();
                o.fills_block_length = 0;
            }),
            Ok(()),
        ),
        (
            "version newer than the schema",
            Box::new(|o| o.version = 2),
            Ok(()),
        ),
        (
            "version older than the schema",
            Box::new(|o| {
                o.version = 0;
                o.block_length = 5;
            }),
            Ok(()),
        ),
        (
            "longer block than the schema's",
            Box::new(|o| o.block_length = 12),
            Ok(()),
        ),
        (
            "entries longer than the schema's",
            Box::new(|o| o.legs_block_length = 6),
            Ok(()),
        ),
        ("unknown enum value", Box::new(|o| o.side = 7), Ok(())),
        ("null enum value", Box::new(|o| o.side = 255), Ok(())),
    ];
    for (name, corrupt, want) in &cases {
        let mut order = Order::default();
        corrupt(&mut order);
        let got = verdict(&codec, &order.bytes()).map(|_| ());
        assert_eq!(&got, want, "{name}");
    }

    // What the accepted ones read.
    let read = |f: &dyn Fn(&mut Order)| {
        let mut o = Order::default();
        f(&mut o);
        verdict(&codec, &o.bytes()).expect("decodes")["body"].clone()
    };
    assert_eq!(
        read(&|o| o.side = 7)["side"],
        7,
        "an unknown value is its raw value"
    );
    assert!(
        read(&|o| o.side = 255)["side"].is_null(),
        "the null value is null"
    );
    let v0 = read(&|o| {
        o.version = 0;
        o.block_length = 5;
    });
    assert!(
        v0.get("qty").is_none(),
        "a field newer than the acting version is left out"
    );
    assert_eq!(read(&|o| o.version = 2)["qty"], 9);
}

#[test]
fn both_decoders_refuse_every_cut_alike() {
    let schema = sbe_ir::ir::load(schema_path()).expect("fixture loads");
    let codec = Codec::new(&schema).expect("codec");
    let bytes = Order::default().bytes();
    for cut in 0..bytes.len() {
        let prefix = bytes.get(..cut).expect("in range");
        assert_eq!(verdict(&codec, prefix), Err("Truncated"), "cut at {cut}");
    }
}

#[test]
fn the_schema_id_check_can_be_turned_off() {
    let schema = sbe_ir::ir::load(schema_path()).expect("fixture loads");
    let lenient = Codec::new(&schema)
        .expect("codec")
        .with_schema_id_check(false);
    let other = Order {
        schema_id: 12,
        ..Order::default()
    };
    let (json, _) = lenient.decode_value(&other.bytes(), None).expect("decodes");
    assert_eq!(json["header"]["schemaId"], 12);
}

/// The generated decoder's errors name the schema element they happened
/// at, and the module's `explain` shows its path.
#[test]
fn errors_name_the_element_they_happened_at() {
    use corpus_tests::s_fixture_verdicts as verdicts;
    let refused = |corrupt: &dyn Fn(&mut Order)| {
        let mut o = Order::default();
        corrupt(&mut o);
        let e = verdicts::decode(&o.bytes())
            .and_then(|m| m.checked_length())
            .expect_err("refused");
        verdicts::explain(e)
    };
    type Case = (&'static str, Box<dyn Fn(&mut Order)>, Option<&'static str>);
    let cases: Vec<Case> = vec![
        (
            "short root block",
            Box::new(|o| o.block_length = 6),
            Some("Order"),
        ),
        (
            "lying count",
            Box::new(|o| o.legs_count = 9),
            Some("Order.legs"),
        ),
        (
            "count over max",
            Box::new(|o| o.fills_count = 11),
            Some("Order.fills"),
        ),
        (
            "short entry block",
            Box::new(|o| o.fills_block_length = 1),
            Some("Order.fills"),
        ),
        (
            "nested var data too long",
            Box::new(|o| o.fills[0].note = vec![b'x'; 21]),
            Some("Order.fills.note"),
        ),
        (
            "lying length",
            Box::new(|o| o.text_length = Some(19)),
            Some("Order.text"),
        ),
        ("wrong schema", Box::new(|o| o.schema_id = 12), None),
    ];
    for (name, corrupt, element) in &cases {
        let x = refused(corrupt);
        assert_eq!(x.element(), *element, "{name}: {x}");
        if let Some(path) = element {
            assert!(
                x.to_string().ends_with(&format!(", in `{path}`")),
                "{name}: {x}"
            );
        }
    }
    let header = verdicts::decode(&Order::default().bytes()[..5]).map(|_| ());
    let e = header.expect_err("a cut header");
    assert_eq!(verdicts::explain(e).element(), Some("messageHeader"));
    assert_eq!(
        verdicts::explain(e).to_string(),
        "truncated buffer: 8 bytes needed from its start, only 5 available, in `messageHeader`"
    );

    // Text that is not UTF-8, read as text.
    let bytes = Order {
        text: vec![b'o', 0xFF],
        ..Order::default()
    }
    .bytes();
    let m = verdicts::OrderDecoder::decode(&bytes).expect("decodes");
    let e = m.text_str().expect_err("not UTF-8");
    assert_eq!(verdicts::explain(e).element(), Some("Order.text"));

    // An encoder's value that does not fit.
    let mut buf = [0u8; 64];
    let enc = verdicts::OrderEncoder::wrap(&mut buf).expect("room");
    let e = enc.text([b'x'; 21]).map(|_| ()).expect_err("too long");
    assert_eq!(verdicts::explain(e).element(), Some("Order.text"));
    assert_eq!(
        verdicts::explain(e).to_string(),
        "length 21 out of range (max 20), in `Order.text`"
    );
}
