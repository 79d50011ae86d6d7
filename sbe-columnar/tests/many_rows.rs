//! Many rows of every integer width, enums and decimals, in both byte
//! orders: the values of rows at the schema's version (read a column at a
//! time, many rows at once), of rows from a newer version with a longer
//! block, and of rows at an older version (read a row at a time) come out
//! in their order, with their nulls, whatever the mix; a message cut short
//! among them adds nothing.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Decimal128Type, Int16Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, RecordBatch};
use sbe_columnar::{Exporter, Frame, Options};

fn schema(order: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="rows" id="3" version="1" byteOrder="{order}">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <composite name="Price">
      <type name="mantissa" primitiveType="int64" presence="optional"/>
      <type name="exponent" primitiveType="int8" presence="constant">-2</type>
    </composite>
    <composite name="Lots">
      <type name="mantissa" primitiveType="int32"/>
      <type name="exponent" primitiveType="int8" presence="constant">3</type>
    </composite>
    <enum name="Side" encodingType="uint8">
      <validValue name="Buy">1</validValue>
      <validValue name="Sell">2</validValue>
    </enum>
    <enum name="Kind" encodingType="uint16">
      <validValue name="Small">1000</validValue>
      <validValue name="Large">2000</validValue>
    </enum>
    <type name="OptI64" primitiveType="int64" presence="optional"/>
    <set name="Small" encodingType="uint8">
      <choice name="A">0</choice>
      <choice name="C">2</choice>
    </set>
    <set name="Wide" encodingType="uint16">
      <choice name="Late">9</choice>
      <choice name="Early">1</choice>
      <choice name="Top">15</choice>
      <choice name="AChoiceWhoseNameIsLongerThanThirtyTwoBytes">4</choice>
    </set>
  </types>
  <sbe:message name="Row" id="1">
    <field name="a" id="1" type="uint8"/>
    <field name="b" id="2" type="int8"/>
    <field name="c" id="3" type="uint16"/>
    <field name="d" id="4" type="int16"/>
    <field name="e" id="5" type="uint32"/>
    <field name="f" id="6" type="int32"/>
    <field name="g" id="7" type="uint64"/>
    <field name="h" id="8" type="OptI64"/>
    <field name="side" id="9" type="Side"/>
    <field name="kind" id="10" type="Kind"/>
    <field name="price" id="11" type="Price"/>
    <field name="lots" id="12" type="Lots"/>
    <field name="newer" id="13" type="uint32" sinceVersion="1"/>
    <field name="small" id="14" type="Small" sinceVersion="1"/>
    <field name="wide" id="15" type="Wide" sinceVersion="1"/>
    <group name="legs" id="16" dimensionType="groupSizeEncoding">
      <field name="legQty" id="17" type="int32"/>
      <field name="legSide" id="18" type="Side"/>
    </group>
  </sbe:message>
</sbe:messageSchema>
"#
    )
}

/// The block of every field, and where `newer` (the first field of
/// version 1) starts.
const BLOCK: usize = 52;
const NEWER_AT: usize = 45;

/// How row `i` is sent.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// At version 1, every field.
    Full,
    /// At version 0: no `newer`.
    Old,
    /// At version 2, with a longer block (a field this schema does not
    /// know after `newer`).
    Newer,
}

fn shape(i: u64) -> Shape {
    if i % 97 == 5 || (1000..1030).contains(&i) {
        Shape::Old
    } else if i % 89 == 7 {
        Shape::Newer
    } else {
        Shape::Full
    }
}

const NEWER_BLOCK: usize = BLOCK + 4;

struct Row {
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: Option<i64>,
    side: u8,
    kind: u16,
    price: Option<i64>,
    lots: i32,
    newer: u32,
    small: u8,
    wide: u16,
}

fn row(i: u64) -> Row {
    let m = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    Row {
        a: m as u8,
        b: (m >> 8) as i8,
        c: (m >> 16) as u16,
        d: (m >> 24) as i16,
        e: (m >> 32) as u32,
        f: (m >> 20) as i32,
        g: m,
        h: (i % 5 != 0).then_some(m as i64 >> 3),
        side: [1, 2, 7, 1, 2][(i % 5) as usize],
        kind: [1000, 2000, 2000, 3][(i % 4) as usize],
        price: (i % 13 != 0).then_some(i as i64 * 101 - 50_000),
        lots: (i % 1000) as i32 - 500,
        newer: i as u32,
        small: (m >> 40) as u8,
        wide: (m >> 44) as u16,
    }
}

fn message(i: u64, big: bool) -> Vec<u8> {
    let r = row(i);
    macro_rules! put {
        ($out:expr, $v:expr) => {
            $out.extend(if big {
                $v.to_be_bytes()
            } else {
                $v.to_le_bytes()
            })
        };
    }
    let mut block = Vec::new();
    put!(block, r.a);
    put!(block, r.b);
    put!(block, r.c);
    put!(block, r.d);
    put!(block, r.e);
    put!(block, r.f);
    put!(block, r.g);
    put!(block, r.h.unwrap_or(i64::MIN));
    put!(block, r.side);
    put!(block, r.kind);
    put!(block, r.price.unwrap_or(i64::MIN));
    put!(block, r.lots);
    put!(block, r.newer);
    put!(block, r.small);
    put!(block, r.wide);
    put!(block, u32::MAX);
    let (len, version) = match shape(i) {
        Shape::Full => (BLOCK, 1u16),
        Shape::Old => (NEWER_AT, 0),
        Shape::Newer => (NEWER_BLOCK, 2),
    };
    block.truncate(len);
    let mut out = Vec::new();
    for v in [len as u16, 1, 3, version] {
        put!(out, v);
    }
    out.extend(block);
    // The legs: a newer version's entries are longer.
    let entry = if shape(i) == Shape::Newer { 8u16 } else { 5 };
    put!(out, entry);
    put!(out, legs(i).len() as u16);
    for (qty, side) in legs(i) {
        put!(out, qty);
        put!(out, side);
        out.extend(std::iter::repeat_n(0xEE, usize::from(entry) - 5));
    }
    out
}

/// Row `i`'s legs: quantity and side.
fn legs(i: u64) -> Vec<(i32, u8)> {
    (0..i % 4)
        .map(|k| {
            (
                (i * 10 + k) as i32 - 7000,
                [1, 2, 9][((i + k) % 3) as usize],
            )
        })
        .collect()
}

const ROWS: u64 = 3000;

fn export(big: bool) -> RecordBatch {
    let xml = schema(if big { "bigEndian" } else { "littleEndian" });
    let schema = sbe_ir::ir::load_str("rows.xml", &xml).unwrap();
    let mut ex = Exporter::new(&schema, Options::default()).unwrap();
    for i in 0..ROWS {
        let bytes = message(i, big);
        if i % 37 == 3 {
            // The same message cut short (in the legs, or in their
            // dimension): an error, and no row of it in any column.
            let root = match shape(i) {
                Shape::Full => BLOCK,
                Shape::Old => NEWER_AT,
                Shape::Newer => NEWER_BLOCK,
            };
            for cut in [3, bytes.len() - 8 - root - 2] {
                let short = &bytes[..bytes.len() - cut];
                assert!(
                    ex.append(short, &Frame::at(0)).is_err(),
                    "row {i} cut by {cut}"
                );
            }
        }
        assert_eq!(ex.append(&bytes, &Frame::at(0)).unwrap(), bytes.len());
    }
    let mut batches = ex.finish().expect("batches");
    assert_eq!(batches.len(), 1);
    batches.remove(0).1
}

fn check(big: bool) {
    let b = export(big);
    assert_eq!(b.num_rows() as u64, ROWS);
    let col = |name: &str| b.column_by_name(name).unwrap().clone();
    let (a, bb, c, d) = (col("a"), col("b"), col("c"), col("d"));
    let (e, f, g, h) = (col("e"), col("f"), col("g"), col("h"));
    let (side, kind, price, lots) = (col("side"), col("kind"), col("price"), col("lots"));
    let (side_raw, kind_raw, newer) = (col("side_raw"), col("kind_raw"), col("newer"));
    let side = side.as_dictionary::<UInt16Type>();
    let kind = kind.as_dictionary::<UInt16Type>();
    let side_names = side.values().as_string::<i32>();
    let kind_names = kind.values().as_string::<i32>();
    let name = |keys: &arrow_array::UInt16Array, names: &arrow_array::StringArray, i: usize| {
        keys.is_valid(i)
            .then(|| names.value(usize::from(keys.value(i))).to_string())
    };
    for i in 0..ROWS {
        let (r, s, at) = (row(i), shape(i), i as usize);
        let what = format!("row {i} (big endian: {big})");
        assert_eq!(a.as_primitive::<UInt8Type>().value(at), r.a, "{what}");
        assert_eq!(bb.as_primitive::<Int8Type>().value(at), r.b, "{what}");
        assert_eq!(c.as_primitive::<UInt16Type>().value(at), r.c, "{what}");
        assert_eq!(d.as_primitive::<Int16Type>().value(at), r.d, "{what}");
        assert_eq!(e.as_primitive::<UInt32Type>().value(at), r.e, "{what}");
        let f = f.as_primitive::<arrow_array::types::Int32Type>();
        assert_eq!(f.value(at), r.f, "{what}");
        assert_eq!(g.as_primitive::<UInt64Type>().value(at), r.g, "{what}");
        let h = h.as_primitive::<Int64Type>();
        assert_eq!(h.is_valid(at).then(|| h.value(at)), r.h, "{what}");

        let want_side = match r.side {
            1 => Some("Buy"),
            2 => Some("Sell"),
            _ => None,
        };
        let got_side = name(side.keys(), side_names, at);
        assert_eq!(got_side.as_deref(), want_side, "{what}");
        let side_raw = side_raw.as_primitive::<UInt8Type>();
        let outside = want_side.is_none().then_some(r.side);
        assert_eq!(side_raw.is_valid(at).then(|| side_raw.value(at)), outside);

        let want_kind = match r.kind {
            1000 => Some("Small"),
            2000 => Some("Large"),
            _ => None,
        };
        let got_kind = name(kind.keys(), kind_names, at);
        assert_eq!(got_kind.as_deref(), want_kind, "{what}");
        let kind_raw = kind_raw.as_primitive::<UInt16Type>();
        let outside = want_kind.is_none().then_some(r.kind);
        assert_eq!(kind_raw.is_valid(at).then(|| kind_raw.value(at)), outside);

        let price = price.as_primitive::<Decimal128Type>();
        let want = r.price.map(i128::from);
        assert_eq!(price.is_valid(at).then(|| price.value(at)), want, "{what}");
        // A positive exponent is folded into the value (scale 0).
        let lots = lots.as_primitive::<Decimal128Type>();
        let want = Some(i128::from(r.lots) * 1000);
        assert_eq!(lots.is_valid(at).then(|| lots.value(at)), want, "{what}");

        // A set's choices in schema order; the bits no choice names are
        // in the raw value only.
        let choices = |col: &str, bits: u16, names: &[(&str, u16)]| {
            let list = b.column_by_name(col).unwrap().as_list::<i32>().clone();
            let want: Vec<String> = names
                .iter()
                .filter(|(_, bit)| bits >> bit & 1 == 1)
                .map(|(n, _)| n.to_string())
                .collect();
            let got = list.is_valid(at).then(|| {
                let v = list.value(at);
                let v = v.as_string::<i32>();
                v.iter().map(|s| s.unwrap().to_string()).collect::<Vec<_>>()
            });
            assert_eq!(got, (s != Shape::Old).then_some(want), "{what}: {col}");
        };
        choices("small", r.small.into(), &[("A", 0), ("C", 2)]);
        let long = "AChoiceWhoseNameIsLongerThanThirtyTwoBytes";
        choices(
            "wide",
            r.wide,
            &[("Late", 9), ("Early", 1), ("Top", 15), (long, 4)],
        );
        let wide_raw = col("wide_raw");
        let wide_raw = wide_raw.as_primitive::<UInt16Type>();
        let want = (s != Shape::Old).then_some(r.wide);
        assert_eq!(wide_raw.is_valid(at).then(|| wide_raw.value(at)), want);

        let legs_col = col("legs");
        let legs_col = legs_col.as_list::<i32>();
        let entries = legs_col.value(at);
        let entries = entries.as_struct();
        let qty = entries.column_by_name("legQty").unwrap();
        let qty = qty.as_primitive::<arrow_array::types::Int32Type>();
        let sides = entries.column_by_name("legSide").unwrap();
        let sides = sides.as_dictionary::<UInt16Type>();
        let side_names = sides.values().as_string::<i32>();
        let got: Vec<(i32, Option<String>)> = (0..entries.len())
            .map(|k| (qty.value(k), name(sides.keys(), side_names, k)))
            .collect();
        let want: Vec<(i32, Option<String>)> = legs(i)
            .into_iter()
            .map(|(q, s)| {
                (
                    q,
                    [None, Some("Buy"), Some("Sell")]
                        .get(s as usize)
                        .copied()
                        .flatten()
                        .map(String::from),
                )
            })
            .collect();
        assert_eq!(got, want, "{what}: legs");

        let newer = newer.as_primitive::<UInt32Type>();
        let want = (s != Shape::Old).then_some(r.newer);
        assert_eq!(newer.is_valid(at).then(|| newer.value(at)), want, "{what}");
    }
}

#[test]
fn rows_of_every_width_keep_their_values_and_nulls_little_endian() {
    check(false);
}

#[test]
fn rows_of_every_width_keep_their_values_and_nulls_big_endian() {
    check(true);
}

#[test]
fn batches_made_from_tables_taken_out_and_given_back_are_those_made_at_once() {
    for big in [false, true] {
        let whole = export(big);
        let xml = schema(if big { "bigEndian" } else { "littleEndian" });
        let schema = sbe_ir::ir::load_str("rows.xml", &xml).unwrap();
        let mut ex = Exporter::new(&schema, Options::default().batch_rows(128)).unwrap();
        let (mut made, mut spares) = (Vec::new(), Vec::new());
        for i in 0..ROWS {
            let bytes = message(i, big);
            assert_eq!(ex.append(&bytes, &Frame::at(0)).unwrap(), bytes.len());
            for u in ex.take_unfinished() {
                assert_eq!(u.table(), "Row");
                let (batch, spare) = u.finish_keeping();
                made.push(batch.unwrap().1);
                spares.push(spare);
            }
            // Given back a batch late, as from a writer on its own
            // thread: the tables are filled again, and their rows are
            // only the new ones.
            if spares.len() > 1 {
                ex.give_back(spares.remove(0));
            }
        }
        made.extend(ex.finish().expect("batches").into_iter().map(|(_, b)| b));
        assert!(made.len() > 20);
        let mut at = 0;
        for b in &made {
            assert_eq!(b, &whole.slice(at, b.num_rows()), "rows from {at}");
            at += b.num_rows();
        }
        assert_eq!(at as u64, ROWS);
    }
}
