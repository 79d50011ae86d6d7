//! Property tests over every message of the repo's schemas and, with
//! ../shared, of the corpus schemas the issue names: a message of random
//! valid values, built from the schema's IR,
//! - decodes with the generated decoder and with `sbe decode`'s run-time
//!   codec to the same JSON, and `message_length` says its length;
//! - encodes back from that JSON to the same bytes (`sbe encode`'s codec),
//!   so the values survive decode and encode.
//!
//! Bounded (a few cases per message) so `cargo test` stays fast.

mod common;

use proptest::prelude::*;
use sbe_ir::ir::{
    ByteOrder, Data, Field, Group, Message, Presence, Primitive, Scalar, Schema, Type, TypeKind,
};
use sbe_otf::Codec;

/// xorshift64*: the test's values come from the seed proptest gives.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

fn put_int(out: &mut [u8], at: usize, p: Primitive, order: ByteOrder, v: i128) {
    let n = p.size() as usize;
    let le = (v as u128).to_le_bytes();
    for i in 0..n {
        let byte = match order {
            ByteOrder::Little => le[i],
            ByteOrder::Big => le[n - 1 - i],
        };
        if let Some(slot) = out.get_mut(at + i) {
            *slot = byte;
        }
    }
}

/// Writes random valid values into a block's bytes.
struct Builder<'s> {
    schema: &'s Schema,
    rng: Rng,
}

impl Builder<'_> {
    fn order(&self) -> ByteOrder {
        self.schema.byte_order
    }

    fn message(&mut self, m: &Message) -> Vec<u8> {
        let layout = self.schema.header();
        let mut out = vec![0u8; layout.len];
        let roles = [
            (layout.block_length, m.block.block_length),
            (layout.template_id, m.id),
            (layout.schema_id, self.schema.id),
            (layout.version, self.schema.version),
        ];
        for (slot, v) in roles {
            if let Some(slot) = slot {
                slot.put(&mut out, u64::from(v))
                    .expect("a header member fits its header");
            }
        }
        self.block(&m.block.fields, m.block.block_length, &mut out);
        self.groups(&m.block.groups, &mut out);
        self.data(&m.block.data, &mut out);
        out
    }

    fn block(&mut self, fields: &[Field], len: u32, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + len as usize, 0);
        for f in fields {
            if f.presence == Presence::Constant {
                continue;
            }
            let at = start + f.offset as usize;
            let optional = f.presence == Presence::Optional;
            self.value(&f.ty, optional, at, out);
        }
    }

    fn groups(&mut self, groups: &[Group], out: &mut Vec<u8>) {
        for g in groups {
            let layout = g.dimension(self.order());
            let count = self.rng.below(3).min(layout.max_count);
            let start = out.len();
            out.resize(start + layout.len, 0);
            let dim = &mut out[start..];
            let fits = "a dimension member fits its dimension";
            layout
                .block_length
                .put(dim, u64::from(g.block.block_length))
                .expect(fits);
            layout.count.put(dim, count).expect(fits);
            for _ in 0..count {
                self.block(&g.block.fields, g.block.block_length, out);
                self.groups(&g.block.groups, out);
                self.data(&g.block.data, out);
            }
        }
    }

    fn data(&mut self, data: &[Data], out: &mut Vec<u8>) {
        for d in data {
            let layout = d.var_data(self.order());
            let len = self.rng.below(layout.max_length.min(12) + 1);
            let start = out.len();
            out.resize(start + layout.data_offset, 0);
            let prefix = &mut out[start..];
            layout
                .length
                .put(prefix, len)
                .expect("the length fits its prefix");
            for _ in 0..len {
                let b = if d.character_encoding.is_some() {
                    b'a' + self.rng.below(26) as u8
                } else {
                    self.rng.next() as u8
                };
                out.push(b);
            }
        }
    }

    fn value(&mut self, ty: &Type, optional: bool, at: usize, out: &mut [u8]) {
        let order = self.order();
        match &ty.kind {
            TypeKind::Encoded(e) if e.presence == Presence::Constant => {}
            TypeKind::Encoded(e) if e.primitive == Primitive::Char => {
                let len = e.length.max(1) as usize;
                let optional = optional || e.presence == Presence::Optional;
                let used = if optional && self.rng.one_in(4) {
                    // Null: a single char holds its nullValue (what the
                    // encoder writes for null), a char array NULs.
                    if let (1, Some(Scalar::Int(null))) = (len, e.null_value) {
                        put_int(out, at, Primitive::Char, order, null);
                    }
                    0
                } else {
                    1 + self.rng.below(len as u64) as usize
                };
                for i in 0..used {
                    if let Some(b) = out.get_mut(at + i) {
                        *b = b'A' + self.rng.below(26) as u8;
                    }
                }
            }
            TypeKind::Encoded(e) => {
                let optional = optional || e.presence == Presence::Optional;
                let size = e.primitive.size() as usize;
                for i in 0..e.length.max(1) as usize {
                    let v = self.scalar(e, optional);
                    put_int(out, at + i * size, e.primitive, order, v);
                }
            }
            TypeKind::Enum(en) => {
                let known: Vec<i128> = en
                    .values
                    .iter()
                    .filter(|v| v.since_version <= self.schema.version)
                    .map(|v| v.value)
                    .collect();
                let v = match known.len() {
                    _ if optional && self.rng.one_in(4) => en.null_value,
                    0 => en.null_value,
                    n => known[self.rng.below(n as u64) as usize],
                };
                put_int(out, at, en.encoding, order, v);
            }
            TypeKind::Set(s) => {
                let mut bits = 0i128;
                for c in &s.choices {
                    if self.rng.one_in(2) {
                        bits |= 1 << c.bit;
                    }
                }
                put_int(out, at, s.encoding, order, bits);
            }
            TypeKind::Composite(c) => {
                for m in &c.members {
                    self.value(&m.ty, false, at + m.offset as usize, out);
                }
            }
        }
    }

    /// A random value of an encoded type (as raw bits for floats): within
    /// its range and not its null value, or its null value when optional.
    fn scalar(&mut self, e: &sbe_ir::ir::Encoded, optional: bool) -> i128 {
        let null = e.null();
        if optional && self.rng.one_in(4) {
            return match null {
                Scalar::Int(v) => v,
                Scalar::Float(f) if e.primitive == Primitive::Float => {
                    i128::from((f as f32).to_bits())
                }
                Scalar::Float(f) => i128::from(f.to_bits()),
            };
        }
        match e.primitive {
            Primitive::Float => {
                let v = (self.rng.below(2000) as f32 - 1000.0) / 8.0;
                i128::from(v.to_bits())
            }
            Primitive::Double => {
                let v = (self.rng.below(2_000_000) as f64 - 1e6) / 16.0;
                i128::from(v.to_bits())
            }
            p => {
                let bound = |s: Option<Scalar>, d: i128| match s {
                    Some(Scalar::Int(v)) => v,
                    _ => d,
                };
                let (lo, hi) = p.int_range();
                let (lo, hi) = (bound(e.min_value, lo), bound(e.max_value, hi));
                loop {
                    let span = (hi - lo + 1) as u128;
                    let v = lo
                        + ((u128::from(self.rng.next()) << 64 | u128::from(self.rng.next())) % span)
                            as i128;
                    if Scalar::Int(v) != null || lo == hi {
                        return v;
                    }
                }
            }
        }
    }
}

/// The schemas the properties run on: the repo's always, the corpus's
/// named ones with ../shared.
fn schemas() -> Vec<(String, std::path::PathBuf)> {
    let repo = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = vec![
        (
            "repo/schemas/car.xml".to_string(),
            repo.join("schemas/car.xml"),
        ),
        (
            "repo/schemas/market-data.xml".to_string(),
            repo.join("schemas/market-data.xml"),
        ),
        (
            "fixture/verdicts.xml".to_string(),
            repo.join("sbe-build/tests/fixtures/verdicts.xml"),
        ),
        (
            "fixture/tiny.xml".to_string(),
            repo.join("sbe-build/tests/fixtures/tiny.xml"),
        ),
    ];
    if let Some(shared) = common::shared_dir("properties_of_every_message") {
        for rel in [
            "sbe/samples/example-schema.xml",
            "sbe/samples/example-extension-schema.xml",
            "sbe/tests/example-bigendian-test-schema.xml",
            "aeron/aeron-cluster-mark-codecs.xml",
            "aeron/aeron-archive-codecs.xml",
            "sbe/benchmarks/fix-message-samples.xml",
            "sbe/tests/FixBinary.xml",
            "sbe/tests/ilinkbinary.xml",
            "aeron/aeron-cluster-codecs.xml",
        ] {
            out.push((rel.to_string(), shared.join("corpus").join(rel)));
        }
    }
    out
}

/// Every property for every message of every schema, from one seed.
fn check_all(seed: u64) -> Result<(), TestCaseError> {
    for (key, path) in schemas() {
        let schema =
            sbe_ir::ir::load(&path).map_err(|e| TestCaseError::fail(format!("{key}: {e}")))?;
        let codec = Codec::new(&schema).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (decode, message_length) = corpus_tests::schema(&key)
            .ok_or_else(|| TestCaseError::fail(format!("{key} not compiled")))?;
        let mut b = Builder {
            schema: &schema,
            rng: Rng(seed | 1),
        };
        for m in &schema.messages {
            let bytes = b.message(m);
            let what = format!("{key} {} (seed {seed})", m.name);
            let (json, len) = decode(&bytes)
                .map_err(|e| TestCaseError::fail(format!("{what}: generated: {e}")))?;
            let (value, decoded) = codec
                .decode_value(&bytes, None)
                .map_err(|e| TestCaseError::fail(format!("{what}: run-time: {e}")))?;
            let generated: serde_json::Value =
                serde_json::from_str(&json).expect("generated JSON parses");
            if let Some(d) = test_support::diff_exact(&value, &generated, "$") {
                return Err(TestCaseError::fail(format!(
                    "{what}: the decoders differ: {d}"
                )));
            }
            prop_assert_eq!(len, bytes.len(), "{}", what);
            prop_assert_eq!(decoded.len, bytes.len(), "{}", what);
            prop_assert_eq!(message_length(&bytes), Ok(bytes.len()), "{}", what);
            let mut again = Vec::new();
            codec
                .encode_value(&value, &mut again)
                .map_err(|e| TestCaseError::fail(format!("{what}: encode: {e}")))?;
            if let Some(at) = again.iter().zip(&bytes).position(|(a, b)| a != b) {
                return Err(TestCaseError::fail(format!(
                    "{what}: encode(decode(bytes)) differs at byte {at} of {}: {value}",
                    bytes.len()
                )));
            }
            prop_assert_eq!(again.len(), bytes.len(), "{}", what);
        }
    }
    Ok(())
}

/// The wire values each valid value name stands for, over every enum of
/// a schema.
type EnumNames = std::collections::HashMap<String, std::collections::HashSet<i128>>;

fn enum_names(schema: &Schema) -> EnumNames {
    let mut out = EnumNames::new();
    for t in &schema.types {
        if let TypeKind::Enum(en) = &t.kind {
            for v in &en.values {
                out.entry(v.name.clone()).or_default().insert(v.value);
            }
        }
    }
    out
}

/// `a` and `b` hold the same values wherever both have a key (objects),
/// and the same entries (arrays): a decoder of another version of the
/// schema reads what both versions know alike. Two enum value names agree
/// when they stand for the same wire value (a version may rename one, as
/// Aeron's mark codecs renamed `NULL` to `UNKNOWN`).
fn agree_where_both_know(
    a: &serde_json::Value,
    b: &serde_json::Value,
    names: (&EnumNames, &EnumNames),
    path: &str,
) -> Result<(), String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                if let Some(w) = y.get(k) {
                    agree_where_both_know(v, w, names, &format!("{path}.{k}"))?;
                }
            }
            Ok(())
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                agree_where_both_know(v, w, names, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (Value::String(x), Value::String(y))
            if names
                .0
                .get(x)
                .zip(names.1.get(y))
                .is_some_and(|(p, q)| !p.is_disjoint(q)) =>
        {
            Ok(())
        }
        // A value newer than the reading version: its raw value.
        (Value::String(x), Value::Number(y))
            if names
                .0
                .get(x)
                .zip(y.as_i64())
                .is_some_and(|(p, y)| p.contains(&i128::from(y))) =>
        {
            Ok(())
        }
        _ => match test_support::diff(a, b, path) {
            None => Ok(()),
            Some(d) => Err(d),
        },
    }
}

/// Messages written with the schema at `from` read by the other version
/// at `to`: the generated decoder and the run-time codec of `to` agree
/// with each other, and with `from`'s reading wherever both versions know
/// a field.
fn check_across_versions(from: &str, to: &str, seed: u64) -> Result<(), TestCaseError> {
    let Some(shared) = common::shared_dir("versions_read_each_other") else {
        return Ok(());
    };
    let load =
        |rel: &str| sbe_ir::ir::load(shared.join("corpus").join(rel)).expect("corpus schema loads");
    let (writer, reader) = (load(from), load(to));
    let (write_codec, read_codec) = (
        Codec::new(&writer).expect("codec"),
        Codec::new(&reader).expect("codec"),
    );
    let (decode, _) = corpus_tests::schema(to).expect("compiled");
    let mut b = Builder {
        schema: &writer,
        rng: Rng(seed | 1),
    };
    for m in &writer.messages {
        if read_codec.message_by_id(u64::from(m.id)).is_none() {
            continue;
        }
        let bytes = b.message(m);
        let what = format!("{} written by {from}, read by {to} (seed {seed})", m.name);
        let (written, _) = write_codec
            .decode_value(&bytes, None)
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        let (read, _) = read_codec
            .decode_value(&bytes, None)
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        let (json, _) =
            decode(&bytes).map_err(|e| TestCaseError::fail(format!("{what}: generated: {e}")))?;
        let generated: serde_json::Value =
            serde_json::from_str(&json).expect("generated JSON parses");
        if let Some(d) = test_support::diff_exact(&read, &generated, "$") {
            return Err(TestCaseError::fail(format!(
                "{what}: the decoders differ: {d}"
            )));
        }
        let names = (&enum_names(&writer), &enum_names(&reader));
        agree_where_both_know(&written["body"], &read["body"], names, "$.body")
            .map_err(|d| TestCaseError::fail(format!("{what}: {d}")))?;
    }
    Ok(())
}

proptest! {
    // No failure file: a failing seed is in the message, and the test
    // runs in place from a checkout that may be read-only (CI). 24 cases
    // unless PROPTEST_CASES asks for more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn properties_of_every_message(seed in any::<u64>()) {
        check_all(seed)?;
    }

    #[test]
    fn versions_read_each_other(seed in any::<u64>()) {
        for (old, new) in [
            ("sbe/samples/example-schema.xml", "sbe/samples/example-extension-schema.xml"),
            ("aeron/aeron-cluster-mark-codecs-v0.xml", "aeron/aeron-cluster-mark-codecs.xml"),
        ] {
            check_across_versions(old, new, seed)?;
            check_across_versions(new, old, seed)?;
        }
    }
}
