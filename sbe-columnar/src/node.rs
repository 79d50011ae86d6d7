//! Columns of one value of a type: what the IR says the value is
//! ([`plan`]), how its bytes are read into Arrow buffers
//! ([`Node::fill`]), and the arrays they make ([`Node::finish`]). One
//! schema value can make two columns (an enum's names and its raw
//! integers, a set's choices and its integer, a wire-exponent decimal's
//! float and its exact parts).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, StringBuilder};
use arrow_array::types::*;
use arrow_array::{
    ArrayRef, Date32Array, Decimal128Array, DictionaryArray, Float32Array, Float64Array, ListArray,
    PrimitiveArray, StringArray, StructArray, Time64NanosecondArray, TimestampMicrosecondArray,
    TimestampMillisecondArray, TimestampNanosecondArray, TimestampSecondArray, UInt16Array,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};

use crate::nulls::Nulls;
use crate::time::{self, TimestampUnit};
use arrow_schema::{DataType, Field, FieldRef, Fields, TimeUnit as ArrowUnit};
use sbe_ir::ir::{
    ByteOrder, ConstValue, Encoded, Exponent, Meaning, Presence, Primitive, Scalar, TimeUnitSource,
    Type, TypeKind,
};
use sbe_rt::TimeUnit;

/// The time zone of every timestamp column.
pub(crate) const UTC: &str = "UTC";

/// How a value's bytes are read: its slot (offset, width and byte
/// order, as `sbe_rt::wire::Uint` reads header members) and whether it is
/// signed, decided once when the column is planned rather than matched
/// from the primitive and the byte order for each value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Read {
    slot: sbe_rt::wire::Uint,
    /// The bits shifted left and back to sign-extend (0: unsigned or
    /// 64-bit).
    shift: u32,
    signed: bool,
}

impl Read {
    /// A value of primitive `p` at offset `at`, in byte order `order`.
    pub(crate) fn new(order: ByteOrder, p: Primitive, at: usize) -> Read {
        Read {
            slot: p.slot(order, at),
            shift: sign_shift(p),
            signed: p.is_signed(),
        }
    }

    /// The value's bytes at `buf[base + at..]` as an unsigned integer (a
    /// float's bits); `None` when they are not all there.
    #[inline(always)]
    pub(crate) fn bits(self, buf: &[u8], base: usize) -> Option<u64> {
        self.slot.try_get(buf.get(base..)?)
    }

    /// The integer, sign-extended (a `uint64` as its bits).
    #[inline(always)]
    pub(crate) fn i64(self, buf: &[u8], base: usize) -> Option<i64> {
        Some(self.i64_of(self.bits(buf, base)?))
    }

    /// The integer, a `uint64` past `i64::MAX` kept.
    #[inline(always)]
    pub(crate) fn i128(self, buf: &[u8], base: usize) -> Option<i128> {
        Some(self.i128_of(self.bits(buf, base)?))
    }

    /// The integer whose bytes read as `bits`, sign-extended.
    #[inline(always)]
    fn i64_of(self, bits: u64) -> i64 {
        ((bits << self.shift) as i64) >> self.shift
    }

    /// The integer whose bytes read as `bits`, a `uint64` kept.
    #[inline(always)]
    fn i128_of(self, bits: u64) -> i128 {
        if self.signed {
            i128::from(self.i64_of(bits))
        } else {
            i128::from(bits)
        }
    }

    /// Where the value's bytes end (0 for a constant, which has none).
    pub(crate) fn end(self) -> usize {
        self.slot.offset().map_or(0, |at| at + self.slot.len())
    }

    /// The value of each row of `rows` (see [`Read::extend_bits`]), a
    /// `uint64` past `i64::MAX` kept.
    fn i128_rows(self, rows: &[u8], stride: usize) -> Vec<i128> {
        let mut vals = Vec::with_capacity(rows.len() / stride.max(1));
        self.extend_bits(rows, stride, &mut vals, |b| self.i128_of(b));
        vals
    }

    /// Appends to `out` `f` of the value's bits in each row of `rows`
    /// (rows of `stride` bytes, each holding the value), in order: the
    /// slot is matched once for all the rows, not once a value, and the
    /// loop is a read and a store per row.
    #[inline(always)]
    pub(crate) fn extend_bits<T>(
        self,
        rows: &[u8],
        stride: usize,
        out: &mut Vec<T>,
        f: impl Fn(u64) -> T,
    ) {
        #[inline(always)]
        fn each<const N: usize, T>(
            rows: &[u8],
            stride: usize,
            at: usize,
            conv: impl Fn([u8; N]) -> u64,
            out: &mut Vec<T>,
            f: impl Fn(u64) -> T,
        ) {
            // A row too short for the value (none is, by the caller's
            // word) reads as zero rather than losing its place.
            out.extend(rows.chunks_exact(stride.max(1)).map(|row| {
                let bytes = row.get(at..).and_then(|r| r.first_chunk::<N>());
                f(bytes.map_or(0, |b| conv(*b)))
            }));
        }
        use sbe_rt::wire::Uint;
        match self.slot {
            Uint::U8(at) => each(rows, stride, at, |b: [u8; 1]| u64::from(b[0]), out, f),
            Uint::U16Le(at) => each(rows, stride, at, |b| u16::from_le_bytes(b).into(), out, f),
            Uint::U16Be(at) => each(rows, stride, at, |b| u16::from_be_bytes(b).into(), out, f),
            Uint::U32Le(at) => each(rows, stride, at, |b| u32::from_le_bytes(b).into(), out, f),
            Uint::U32Be(at) => each(rows, stride, at, |b| u32::from_be_bytes(b).into(), out, f),
            Uint::U64Le(at) => each(rows, stride, at, u64::from_le_bytes, out, f),
            Uint::U64Be(at) => each(rows, stride, at, u64::from_be_bytes, out, f),
            Uint::Const(v) => out.extend(rows.chunks_exact(stride.max(1)).map(|_| f(v))),
        }
    }
}

/// Arrow's width for an SBE integer primitive (`char` as its byte).
pub(crate) fn int_type(p: Primitive) -> DataType {
    match p {
        Primitive::Int8 => DataType::Int8,
        Primitive::Int16 => DataType::Int16,
        Primitive::Int32 => DataType::Int32,
        Primitive::Int64 => DataType::Int64,
        Primitive::Uint8 | Primitive::Char => DataType::UInt8,
        Primitive::Uint16 => DataType::UInt16,
        Primitive::Uint32 => DataType::UInt32,
        Primitive::Uint64 => DataType::UInt64,
        Primitive::Float => DataType::Float32,
        Primitive::Double => DataType::Float64,
    }
}

/// An integer column's array from values kept as `i64` (a `uint64` as its
/// bits), cut to the primitive's width.
pub(crate) fn int_array(p: Primitive, vals: Vec<i64>, nulls: &mut Nulls) -> ArrayRef {
    int_array_of(p, vals, nulls.finish())
}

/// [`int_array`] with the validity made already.
fn int_array_of(p: Primitive, vals: Vec<i64>, nulls: Option<NullBuffer>) -> ArrayRef {
    macro_rules! arr {
        ($t:ty, $n:ty) => {
            Arc::new(PrimitiveArray::<$t>::new(
                // From a slice, which vectorises (an in-place `into_iter`
                // collect did not).
                ScalarBuffer::from(vals.iter().map(|v| *v as $n).collect::<Vec<$n>>()),
                nulls,
            ))
        };
    }
    match p {
        Primitive::Int8 => arr!(Int8Type, i8),
        Primitive::Int16 => arr!(Int16Type, i16),
        Primitive::Int32 => arr!(Int32Type, i32),
        Primitive::Uint8 | Primitive::Char => arr!(UInt8Type, u8),
        Primitive::Uint16 => arr!(UInt16Type, u16),
        Primitive::Uint32 => arr!(UInt32Type, u32),
        Primitive::Uint64 => arr!(UInt64Type, u64),
        _ => Arc::new(PrimitiveArray::<Int64Type>::new(
            ScalarBuffer::from(vals),
            nulls,
        )),
    }
}

/// Decimal digits of the largest magnitude of an integer primitive.
fn digits(p: Primitive) -> u8 {
    match p {
        Primitive::Int8 | Primitive::Uint8 | Primitive::Char => 3,
        Primitive::Int16 | Primitive::Uint16 => 5,
        Primitive::Int32 | Primitive::Uint32 => 10,
        Primitive::Int64 => 19,
        _ => 20,
    }
}

/// The left shift that sign-extends a signed integer of `p`'s width
/// read into the low bits of a `u64` (0 for unsigned and 64-bit ones).
fn sign_shift(p: Primitive) -> u32 {
    if p.is_signed() {
        64 - 8 * p.size().clamp(1, 8)
    } else {
        0
    }
}

/// The keys of a one-byte enum's values: each byte's key plus one (0: no
/// name), so that a value is looked up rather than searched for.
fn byte_keys(p: Primitive, values: impl Iterator<Item = i128>) -> Vec<u16> {
    if !matches!(p, Primitive::Uint8 | Primitive::Char) {
        return Vec::new();
    }
    let mut keys = vec![0u16; 256];
    for (k, v) in values.enumerate() {
        let slot = usize::try_from(v).ok().and_then(|v| keys.get_mut(v));
        if let (Some(slot), Ok(key)) = (slot, u16::try_from(k + 1)) {
            if *slot == 0 {
                *slot = key;
            }
        }
    }
    keys
}

/// The values so far, the vector left with room for a quarter more: the
/// next batch is about as long (a group's entries vary from batch to
/// batch), and growing it copies each value.
pub(crate) fn take<T>(v: &mut Vec<T>) -> Vec<T> {
    let rows = v.len();
    std::mem::replace(v, Vec::with_capacity(rows + rows / 4))
}

/// Characters as a string: UTF-8 (lossy) or ISO-8859-1, as `sbe decode`
/// shows them; borrowed where the bytes are that string already (valid
/// UTF-8, or ASCII), which is nearly always, so a value costs no
/// allocation.
pub(crate) fn text(bytes: &[u8], utf8: bool) -> std::borrow::Cow<'_, str> {
    if utf8 {
        String::from_utf8_lossy(bytes)
    } else if let Some(ascii) = bytes
        .is_ascii()
        .then(|| std::str::from_utf8(bytes).ok())
        .flatten()
    {
        std::borrow::Cow::Borrowed(ascii)
    } else {
        std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect())
    }
}

/// `characterEncoding` names UTF-8.
pub(crate) fn is_utf8(enc: Option<&str>) -> bool {
    enc.is_some_and(|e| e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"))
}

/// An integer's null when the value is optional.
fn int_null(e: &Encoded, optional: bool) -> Option<i128> {
    match (optional || e.presence == Presence::Optional, e.null()) {
        (true, Scalar::Int(v)) => Some(v),
        _ => None,
    }
}

/// A member's encoded facts, when it is a single encoded value.
fn encoded_member(ty: &Type, index: usize) -> Option<(&Encoded, usize)> {
    let TypeKind::Composite(c) = &ty.kind else {
        return None;
    };
    let m = c.members.get(index)?;
    match &m.ty.kind {
        TypeKind::Encoded(e) => Some((e, m.offset as usize)),
        _ => None,
    }
}

/// A member's name.
fn member_name(ty: &Type, index: usize) -> String {
    match &ty.kind {
        TypeKind::Composite(c) => c.members.get(index).map(|m| m.ty.name.clone()),
        _ => None,
    }
    .unwrap_or_default()
}

/// Where a time's unit comes from, resolved for reading.
enum UnitAt {
    Fixed(TimeUnit),
    Wire(Read),
}

/// An integer's column: the most common value, filled in a loop of its
/// own in a block ([`crate::table`]).
pub(crate) struct IntCol {
    read: Read,
    prim: Primitive,
    /// The null as the column holds it (a `uint64` as its bits).
    null: Option<i64>,
    vals: Vec<i64>,
    nulls: Nulls,
}

impl IntCol {
    /// Reads the value at `base` of `buf` (bytes not there read as null).
    #[inline(always)]
    pub(crate) fn fill(&mut self, buf: &[u8], base: usize) {
        let v = self.read.i64(buf, base);
        self.put(v);
    }

    /// Where the value's bytes end in the block.
    pub(crate) fn end(&self) -> usize {
        self.read.end()
    }

    /// Reads the value of each row of `rows` (see [`Read::extend_bits`]).
    pub(crate) fn fill_rows(&mut self, rows: &[u8], stride: usize) {
        let (read, start) = (self.read, self.vals.len());
        read.extend_bits(rows, stride, &mut self.vals, |b| read.i64_of(b));
        let new = self.vals.get_mut(start..).unwrap_or_default();
        nulls_of_rows(new, self.null, &mut self.nulls);
    }

    /// A row of value `v` (null where it is the null or absent).
    #[inline(always)]
    fn put(&mut self, v: Option<i64>) {
        let v = v.filter(|v| Some(*v) != self.null);
        push_i64(&mut self.vals, &mut self.nulls, v);
    }

    /// A row where the value is absent.
    pub(crate) fn push_null(&mut self) {
        push_i64(&mut self.vals, &mut self.nulls, None);
    }

    /// The column of the rows so far, emptied for the next batch.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        int_array(self.prim, take(&mut self.vals), &mut self.nulls)
    }
}

/// The columns of one value. `at` is the value's offset in the bytes
/// given to [`Node::fill`].
pub(crate) enum Node {
    Int(IntCol),
    Float {
        read: Read,
        double: bool,
        null: Option<f64>,
        vals: Vec<f64>,
        nulls: Nulls,
    },
    Text {
        at: usize,
        len: usize,
        /// `Some(null char)` for an optional single char; arrays: `optional`.
        null_char: Option<u8>,
        optional: bool,
        utf8: bool,
        b: StringBuilder,
    },
    /// A fixed array of a non-char primitive.
    Array {
        at: usize,
        count: usize,
        stride: usize,
        field: FieldRef,
        offsets: Vec<i32>,
        nulls: Nulls,
        elem: Box<Node>,
    },
    Const {
        value: ConstLit,
        rows: usize,
        nulls: Nulls,
    },
    Enum(EnumCol),
    Set {
        read: Read,
        prim: Primitive,
        choices: Vec<(String, u32)>,
        /// The raw values: the choices' list is made from them with the
        /// batch, all rows at once.
        raw: Vec<i64>,
        raw_nulls: Nulls,
    },
    Decimal(DecimalCol),
    WireDecimal {
        read: Read,
        prim: Primitive,
        null: Option<i128>,
        exp: Read,
        exp_prim: Primitive,
        exp_null: Option<i128>,
        parts: Fields,
        floats: Vec<f64>,
        float_nulls: Nulls,
        mantissas: Vec<i64>,
        mantissa_nulls: Nulls,
        exponents: Vec<i64>,
        exponent_nulls: Nulls,
        nulls: Nulls,
    },
    /// A field decimal ([`Exponent::Field`]): as a wire decimal, the
    /// exponent read from its own row or published by an enclosing block.
    FieldDecimal(Box<FieldDecimalCol>),
    Time {
        read: Read,
        prim: Primitive,
        null: Option<i128>,
        unit: UnitAtBox,
        /// The column's unit.
        out: TimeUnit,
        of_day: bool,
        vals: Vec<i64>,
        nulls: Nulls,
        /// The wire value where the time column cannot hold it (a
        /// `uint64` past `i64`, a count past `i64` nanoseconds, a unit
        /// code of no unit): `None` where that cannot happen.
        raw: Option<(Vec<i64>, Nulls)>,
    },
    Date {
        read: Read,
        prim: Primitive,
        null: Option<i128>,
        vals: Vec<i32>,
        nulls: Nulls,
    },
    Struct {
        at: usize,
        fields: Fields,
        children: Vec<Node>,
        nulls: Nulls,
    },
}

/// An enum's columns: the names (keys into the schema's), and the raw
/// value where it is outside the enum.
pub(crate) struct EnumCol {
    read: Read,
    prim: Primitive,
    null: Option<i128>,
    values: Vec<i128>,
    /// For a one-byte unsigned encoding: each byte's key plus one
    /// (0: no name), instead of a search of `values`.
    keys_of: Vec<u16>,
    names: ArrayRef,
    keys: Vec<u16>,
    key_nulls: Nulls,
    /// The rows whose value is outside the enum, with the value: the raw
    /// column is null everywhere else, so it is made with the batch (a
    /// value and a null bit per row were a fifth of the enum's fill).
    outside: Vec<(usize, i64)>,
}

impl EnumCol {
    /// Reads the value at `base` of `buf` (bytes not there read as null).
    #[inline(always)]
    pub(crate) fn fill(&mut self, buf: &[u8], base: usize) {
        let v = self.read.i128(buf, base);
        self.put(v);
    }

    /// Where the value's bytes end in the block.
    pub(crate) fn end(&self) -> usize {
        self.read.end()
    }

    /// Reads the value of each row of `rows` (see [`Read::extend_bits`]).
    pub(crate) fn fill_rows(&mut self, rows: &[u8], stride: usize) {
        let (read, start) = (self.read, self.keys.len());
        if !self.keys_of.is_empty() {
            // A one-byte encoding: each byte's key from the table, where
            // every value has a name (`u16::MAX`: one has none, for a
            // table of at most 256 names).
            let keys_of = &self.keys_of;
            let key = |b: u64| {
                let k = usize::try_from(b).ok().and_then(|b| keys_of.get(b));
                k.map_or(u16::MAX, |k| k.wrapping_sub(1))
            };
            read.extend_bits(rows, stride, &mut self.keys, key);
            let new = self.keys.get(start..).unwrap_or_default();
            if !new.contains(&u16::MAX) {
                self.key_nulls.append_n_non_nulls(new.len());
                return;
            }
            self.keys.truncate(start);
        }
        for v in read.i128_rows(rows, stride) {
            self.put(Some(v));
        }
    }

    /// A row of value `v` (`None`: absent).
    #[inline(always)]
    fn put(&mut self, v: Option<i128>) {
        let key = v.and_then(|v| {
            if self.keys_of.is_empty() {
                self.values.iter().position(|x| *x == v)
            } else {
                let k = usize::try_from(v).ok().and_then(|v| self.keys_of.get(v))?;
                usize::from(*k).checked_sub(1)
            }
        });
        if let (None, Some(v)) = (key, v) {
            if Some(v) != self.null {
                self.outside.push((self.keys.len(), v as i64));
            }
        }
        self.keys.push(key.map_or(0, |k| k as u16));
        self.key_nulls.append(key.is_some());
    }

    /// A row where the value is absent.
    pub(crate) fn push_null(&mut self) {
        self.keys.push(0);
        self.key_nulls.append_null();
    }

    /// The names' and the raw values' columns of the rows so far.
    pub(crate) fn finish(&mut self, out: &mut Vec<ArrayRef>) {
        let rows = self.keys.len();
        let keys = UInt16Array::new(
            ScalarBuffer::from(take(&mut self.keys)),
            self.key_nulls.finish(),
        );
        // The keys index `names` by construction.
        let dict = DictionaryArray::<UInt16Type>::try_new(keys, self.names.clone());
        out.push(match dict {
            Ok(d) => Arc::new(d),
            Err(_) => arrow_array::new_null_array(
                &DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8)),
                0,
            ),
        });
        if self.outside.is_empty() {
            // Every value was a name (or null): the common case, a column
            // of nulls made at once.
            out.push(arrow_array::new_null_array(&int_type(self.prim), rows));
            return;
        }
        let mut raw = vec![0; rows];
        let mut raw_nulls = Nulls::new();
        let mut next = 0;
        for (row, v) in self.outside.drain(..) {
            raw_nulls.append_n_nulls(row.saturating_sub(next));
            raw_nulls.append_non_null();
            if let Some(slot) = raw.get_mut(row) {
                *slot = v;
            }
            next = row + 1;
        }
        raw_nulls.append_n_nulls(rows.saturating_sub(next));
        out.push(int_array(self.prim, raw, &mut raw_nulls));
    }
}

/// A decimal's column at a constant exponent.
pub(crate) struct DecimalCol {
    read: Read,
    null: Option<i128>,
    /// 10^exponent for a positive exponent folded into the mantissa.
    factor: i128,
    precision: u8,
    scale: i8,
    vals: Vec<i128>,
    nulls: Nulls,
}

impl DecimalCol {
    /// Reads the value at `base` of `buf` (bytes not there read as null).
    #[inline(always)]
    pub(crate) fn fill(&mut self, buf: &[u8], base: usize) {
        let v = self.read.i128(buf, base);
        self.put(v);
    }

    /// Where the value's bytes end in the block.
    pub(crate) fn end(&self) -> usize {
        self.read.end()
    }

    /// Reads the value of each row of `rows` (see [`Read::extend_bits`]).
    pub(crate) fn fill_rows(&mut self, rows: &[u8], stride: usize) {
        let (read, start) = (self.read, self.vals.len());
        if self.factor != 1 {
            for v in read.i128_rows(rows, stride) {
                self.put(Some(v));
            }
            return;
        }
        read.extend_bits(rows, stride, &mut self.vals, |b| read.i128_of(b));
        let new = self.vals.get_mut(start..).unwrap_or_default();
        nulls_of_rows(new, self.null, &mut self.nulls);
    }

    /// A row of mantissa `v` (`None`: absent).
    #[inline(always)]
    fn put(&mut self, v: Option<i128>) {
        let v = non_null(v, self.null);
        // A factor of 1 (a scale, not a folded exponent) skips the
        // 128-bit multiply's call.
        let v = v.and_then(|m| {
            if self.factor == 1 {
                Some(m)
            } else {
                m.checked_mul(self.factor)
            }
        });
        self.vals.push(v.unwrap_or(0));
        self.nulls.append(v.is_some());
    }

    /// A row where the value is absent.
    pub(crate) fn push_null(&mut self) {
        self.vals.push(0);
        self.nulls.append_null();
    }

    /// The column of the rows so far.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let a = Decimal128Array::new(
            ScalarBuffer::from(take(&mut self.vals)),
            self.nulls.finish(),
        );
        Arc::new(
            a.with_precision_and_scale(self.precision, self.scale)
                .unwrap_or_else(|_| Decimal128Array::from(Vec::<i128>::new())),
        )
    }
}

/// [`UnitAt`] behind a name the enum can hold.
pub(crate) struct UnitAtBox(UnitAt);

/// A constant's value as a column holds it.
#[derive(Clone)]
pub(crate) enum ConstLit {
    Str(String),
    Int(Primitive, i64),
    Float(bool, f64),
}

/// The Arrow field of a column, with the SBE type and meaning in its
/// metadata.
pub(crate) fn field(name: &str, dt: DataType, sbe_type: &str, semantic: &str) -> Field {
    let meta = [
        ("sbe.type".to_string(), sbe_type.to_string()),
        ("sbe.semanticType".to_string(), semantic.to_string()),
    ];
    Field::new(name, dt, true).with_metadata(meta.into_iter().collect())
}

/// A value to plan the columns of: a field or a composite member.
#[derive(Clone, Copy)]
pub(crate) struct Spec<'a> {
    /// The column's name.
    pub name: &'a str,
    /// Its type.
    pub ty: &'a Type,
    /// What it means.
    pub meaning: &'a Meaning,
    /// The type's name in the schema (the field metadata's `sbe.type`).
    pub type_name: &'a str,
    /// The field's `semanticType`, if any.
    pub semantic: Option<&'a str>,
    /// Its offset in the bytes given to [`Node::fill`].
    pub at: usize,
    /// The field is optional.
    pub optional: bool,
    /// The field's constant value, for a constant field.
    pub constant: Option<&'a ConstValue>,
    /// The schema's byte order.
    pub order: ByteOrder,
    /// The finest unit of a timestamp column.
    pub time: TimestampUnit,
}

/// The columns of a value: the node, and its Arrow fields (one or two),
/// nullable only where a value read can be null (a field newer than the
/// acting version is the caller's to mark): Parquet writes no
/// definition levels for a column that is not.
pub(crate) fn plan(v: Spec<'_>) -> (Node, Vec<Field>) {
    let (node, mut fields) = plan_columns(v);
    let never = node.never_null();
    for (f, never) in fields.iter_mut().zip(never) {
        if never {
            *f = f.clone().with_nullable(false);
        }
    }
    (node, fields)
}

fn plan_columns(v: Spec<'_>) -> (Node, Vec<Field>) {
    let Spec {
        name,
        ty,
        meaning,
        type_name,
        semantic,
        at,
        optional,
        constant,
        order,
        time,
    } = v;
    let sem = semantic
        .or(ty.semantic_type.as_deref())
        .unwrap_or(meaning.kind());
    let f = |dt: DataType| field(name, dt, type_name, sem);
    if let Some(c) = constant.or(match &ty.kind {
        TypeKind::Encoded(e) if e.presence == Presence::Constant => e.const_value.as_ref(),
        _ => None,
    }) {
        let prim = match &ty.kind {
            TypeKind::Encoded(e) => Some(e.primitive),
            _ => None,
        };
        let value = match c {
            ConstValue::Text(s) => ConstLit::Str(s.clone()),
            ConstValue::EnumValue { value_name, .. } => ConstLit::Str(value_name.clone()),
            ConstValue::Number(Scalar::Int(v)) if prim == Some(Primitive::Char) => {
                ConstLit::Str(text(&[u8::try_from(*v).unwrap_or(0)], false).into_owned())
            }
            ConstValue::Number(Scalar::Int(v)) => {
                ConstLit::Int(prim.unwrap_or(Primitive::Int64), *v as i64)
            }
            ConstValue::Number(Scalar::Float(v)) => {
                ConstLit::Float(prim != Some(Primitive::Float), *v)
            }
        };
        let dt = match &value {
            ConstLit::Str(_) => DataType::Utf8,
            ConstLit::Int(p, _) => int_type(*p),
            ConstLit::Float(true, _) => DataType::Float64,
            ConstLit::Float(false, _) => DataType::Float32,
        };
        let node = Node::Const {
            value,
            rows: 0,
            nulls: Nulls::new(),
        };
        return (node, vec![f(dt)]);
    }
    if let Some(planned) = plan_meaning(v, sem) {
        return planned;
    }
    match &ty.kind {
        TypeKind::Encoded(e) => plan_encoded(e, order, at, optional, f),
        TypeKind::Enum(en) => {
            let names: Vec<&str> = en.values.iter().map(|v| v.name.as_str()).collect();
            let optional = optional || en.presence == Presence::Optional;
            let node = Node::Enum(EnumCol {
                read: Read::new(order, en.encoding, at),
                prim: en.encoding,
                null: optional.then_some(en.null_value),
                values: en.values.iter().map(|v| v.value).collect(),
                keys_of: byte_keys(en.encoding, en.values.iter().map(|v| v.value)),
                names: Arc::new(StringArray::from(names)),
                keys: Vec::new(),
                key_nulls: Nulls::new(),
                outside: Vec::new(),
            });
            let dict = DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8));
            let raw = field(
                &format!("{name}_raw"),
                int_type(en.encoding),
                type_name,
                sem,
            );
            (node, vec![f(dict), raw])
        }
        TypeKind::Set(s) => {
            let node = Node::Set {
                read: Read::new(order, s.encoding, at),
                prim: s.encoding,
                choices: s.choices.iter().map(|c| (c.name.clone(), c.bit)).collect(),
                raw: Vec::new(),
                raw_nulls: Nulls::new(),
            };
            let list = DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)));
            let raw = field(&format!("{name}_raw"), int_type(s.encoding), type_name, sem);
            (node, vec![f(list), raw])
        }
        TypeKind::Composite(c) => {
            let mut fields = Vec::new();
            let mut children = Vec::new();
            for m in &c.members {
                let tn = m.type_name.as_deref().unwrap_or(&m.ty.name);
                let (node, fs) = plan(Spec {
                    name: &m.ty.name,
                    ty: &m.ty,
                    meaning: &m.ty.meaning,
                    type_name: tn,
                    semantic: None,
                    at: m.offset as usize,
                    optional: false,
                    constant: None,
                    order,
                    time,
                });
                children.push(node);
                fields.extend(fs);
            }
            let fields = Fields::from(fields);
            let dt = DataType::Struct(fields.clone());
            let node = Node::Struct {
                at,
                fields,
                children,
                nulls: Nulls::new(),
            };
            (node, vec![f(dt)])
        }
    }
}

fn plan_encoded(
    e: &Encoded,
    order: ByteOrder,
    at: usize,
    optional: bool,
    f: impl Fn(DataType) -> Field,
) -> (Node, Vec<Field>) {
    let optional = optional || e.presence == Presence::Optional;
    if e.primitive == Primitive::Char {
        let null_char = u8::try_from(int_null(e, true).unwrap_or(0)).unwrap_or(0);
        let node = Node::Text {
            at,
            len: e.length.max(1) as usize,
            null_char: (e.length <= 1).then_some(null_char),
            optional,
            utf8: is_utf8(e.character_encoding.as_deref()),
            b: StringBuilder::new(),
        };
        return (node, vec![f(DataType::Utf8)]);
    }
    let scalar = |read: Read| -> Node {
        if e.primitive.is_float() {
            Node::Float {
                read,
                double: e.primitive == Primitive::Double,
                null: optional.then(|| e.null().as_f64()),
                vals: Vec::new(),
                nulls: Nulls::new(),
            }
        } else {
            Node::Int(IntCol {
                read,
                prim: e.primitive,
                null: int_null(e, optional).map(|n| n as i64),
                vals: Vec::new(),
                nulls: Nulls::new(),
            })
        }
    };
    if e.length == 1 {
        return (
            scalar(Read::new(order, e.primitive, at)),
            vec![f(int_type(e.primitive))],
        );
    }
    let item = Arc::new(Field::new("item", int_type(e.primitive), true));
    let node = Node::Array {
        at,
        count: e.length as usize,
        stride: e.primitive.size() as usize,
        field: item.clone(),
        offsets: vec![0],
        nulls: Nulls::new(),
        elem: Box::new(scalar(Read::new(order, e.primitive, 0))),
    };
    (node, vec![f(DataType::List(item))])
}

/// Where a field decimal's exponent is: in the same row, or published by
/// an enclosing block as it is read ([`ExponentCell`]).
pub(crate) enum ExponentAt {
    /// The exponent field of the mantissa's own block.
    Row { read: Read, null: Option<i128> },
    /// An enclosing block's exponent field, as that block last published it.
    Outer(ExponentCell),
}

/// The value of an enclosing block's exponent field, published by that
/// block's columns as each of its rows is read and read by the field
/// decimals of its groups' entries, which are read after it. Shared
/// between the two columns of one exporter (which may move to another
/// thread whole), so atomic; `NONE` is a null or absent exponent.
#[derive(Clone, Default)]
pub(crate) struct ExponentCell(Arc<std::sync::atomic::AtomicI16>);

impl ExponentCell {
    const NONE: i16 = i16::MIN;

    pub(crate) fn new() -> ExponentCell {
        ExponentCell(Arc::new(std::sync::atomic::AtomicI16::new(Self::NONE)))
    }

    /// Publishes `v` (`None`: null).
    pub(crate) fn set(&self, v: Option<i8>) {
        let raw = v.map_or(Self::NONE, i16::from);
        self.0.store(raw, std::sync::atomic::Ordering::Relaxed);
    }

    fn get(&self) -> Option<i8> {
        i8::try_from(self.0.load(std::sync::atomic::Ordering::Relaxed)).ok()
    }
}

/// A block's exponent field that field decimals of its groups' entries
/// read: published as each row is read.
pub(crate) struct Publish {
    pub(crate) read: Read,
    pub(crate) null: Option<i128>,
    pub(crate) cell: ExponentCell,
}

impl Publish {
    /// The block's exponent field `f` (an `int8` on the wire), publishing
    /// to `cell`.
    pub(crate) fn new(
        f: &sbe_ir::ir::Field,
        order: ByteOrder,
        cell: ExponentCell,
    ) -> Option<Publish> {
        let TypeKind::Encoded(e) = &f.ty.kind else {
            return None;
        };
        Some(Publish {
            read: Read::new(order, e.primitive, f.offset as usize),
            null: int_null(e, f.presence == Presence::Optional),
            cell,
        })
    }

    pub(crate) fn publish(&self, row: &[u8]) {
        let v = non_null(self.read.i128(row, 0), self.null);
        self.cell.set(v.and_then(|v| i8::try_from(v).ok()));
    }
}

/// The finest exponent a field decimal's column holds where its exponent
/// field declares no `minValue` ([`field_decimal_scale`]): 18 fractional
/// digits, which hold every `int64` mantissa at exponents from -18 to +1
/// in `Decimal128(38, 18)`, Binance's exponents among them.
pub(crate) const FIELD_DECIMAL_DEFAULT_SCALE: i8 = 18;

/// The scale of a field decimal's `Decimal128(38, scale)` column, from its
/// exponent field `exponent` (an `int8` on the wire): the exponent varies
/// per message and a column's scale is one, so the finest exponent the
/// field may hold sets it: `-minValue` where the exponent field's type
/// declares a `minValue` (0 for a `minValue` of 0 or more, at most 38, what
/// a `Decimal128` holds), else [`FIELD_DECIMAL_DEFAULT_SCALE`]. The one
/// place the choice is made: the column's type and the values written in
/// it both take it from here.
pub(crate) fn field_decimal_scale(exponent: &sbe_ir::ir::Field) -> i8 {
    let min = match &exponent.ty.kind {
        TypeKind::Encoded(e) => match e.min_value {
            Some(Scalar::Int(v)) => Some(v),
            _ => None,
        },
        _ => None,
    };
    match min {
        Some(v) => i8::try_from(v.saturating_neg().clamp(0, 38)).unwrap_or(0),
        None => FIELD_DECIMAL_DEFAULT_SCALE,
    }
}

/// The columns of a field decimal (Binance's `mbx:exponent`): `<name>`, the
/// value as `Decimal128(38, scale)`, the scale the column's
/// ([`field_decimal_scale`]) as the exponent varies per message; and
/// `<name>_raw`, a struct of the mantissa (`Int64`, or `Decimal128(38, 0)`
/// for a `mantissa128`) and the exponent (`Int8`), named as the two fields,
/// holding the exact pair where the value does not fit the column (a digit
/// finer than its scale, more than 38 digits at it, or a null exponent)
/// and null elsewhere, as a timestamp's `_raw` holds what its column
/// cannot. A null mantissa is a null decimal: both null.
pub(crate) struct FieldDecimalCol {
    read: Read,
    /// The mantissa's offset in its row and its primitive.
    at: usize,
    prim: Primitive,
    wide: bool,
    null: Option<i128>,
    exp: ExponentAt,
    scale: i8,
    parts: Fields,
    values: Vec<i128>,
    value_nulls: Nulls,
    mantissas: Vec<i128>,
    mantissa_nulls: Nulls,
    exponents: Vec<i64>,
    exponent_nulls: Nulls,
    nulls: Nulls,
}

/// A field decimal's node and columns: field `name` (type `ty`, at `at`
/// in its block) meaning `d`, its exponent field `exponent`, read at `exp`.
pub(crate) fn plan_field_decimal(
    (name, exponent): (&str, &sbe_ir::ir::Field),
    ty: &Type,
    d: &sbe_ir::ir::DecimalParts,
    (type_name, at, order): (&str, usize, ByteOrder),
    exp: ExponentAt,
) -> Option<(Node, Vec<Field>)> {
    let TypeKind::Encoded(e) = &ty.kind else {
        return None;
    };
    let (prim, null) = if d.mantissa128 {
        (
            Primitive::Int64,
            d.optional.then_some(sbe_rt::Decimal::MANTISSA128_NULL),
        )
    } else {
        (e.primitive, int_null(e, d.optional))
    };
    let mantissa_type = if d.mantissa128 {
        DataType::Decimal128(38, 0)
    } else {
        int_type(e.primitive)
    };
    // The pair's parts are named as the schema names the two fields.
    let parts = Fields::from(vec![
        Field::new(name, mantissa_type, true),
        Field::new(&exponent.name, DataType::Int8, true),
    ]);
    let scale = field_decimal_scale(exponent);
    let col = FieldDecimalCol {
        read: Read::new(order, prim, at),
        at,
        prim,
        wide: d.mantissa128,
        null,
        exp,
        scale,
        parts: parts.clone(),
        values: Vec::new(),
        value_nulls: Nulls::new(),
        mantissas: Vec::new(),
        mantissa_nulls: Nulls::new(),
        exponents: Vec::new(),
        exponent_nulls: Nulls::new(),
        nulls: Nulls::new(),
    };
    let f = |n: &str, dt: DataType| field(n, dt, type_name, "decimal");
    let raw = f(&format!("{name}_raw"), DataType::Struct(parts));
    Some((
        Node::FieldDecimal(Box::new(col)),
        vec![f(name, DataType::Decimal128(38, scale)), raw],
    ))
}

/// 10^38: a `Decimal128(38, _)` holds values below it in magnitude.
const DECIMAL128_LIMIT: u128 = 10u128.pow(38);

impl FieldDecimalCol {
    fn fill(&mut self, buf: &[u8], base: usize) {
        let at = base.saturating_add(self.at);
        let m = if self.wide {
            let raw = at
                .checked_add(16)
                .and_then(|end| buf.get(at..end))
                .and_then(|b| <[u8; 16]>::try_from(b).ok())
                .map(sbe_rt::Decimal::mantissa128);
            non_null(raw, self.null)
        } else {
            non_null(self.read.i128(buf, base), self.null)
        };
        let e = match &self.exp {
            ExponentAt::Row { read, null } => {
                non_null(read.i128(buf, base), *null).and_then(|e| i8::try_from(e).ok())
            }
            ExponentAt::Outer(cell) => cell.get(),
        };
        // The value at the column's scale, exactly, or not at all.
        let value = m.zip(e).and_then(|(m, e)| {
            let v = sbe_rt::Decimal::new(m, e).rescale(-self.scale).ok()?;
            (v.unsigned_abs() < DECIMAL128_LIMIT).then_some(v)
        });
        self.values.push(value.unwrap_or(0));
        self.value_nulls.append(value.is_some());
        // The exact pair where the column could not hold the value.
        let lost = m.filter(|_| value.is_none());
        self.mantissas.push(lost.unwrap_or(0));
        self.mantissa_nulls.append(lost.is_some());
        push_i64(
            &mut self.exponents,
            &mut self.exponent_nulls,
            e.filter(|_| lost.is_some()).map(i64::from),
        );
        self.nulls.append(lost.is_some());
    }

    fn push_null(&mut self) {
        self.values.push(0);
        self.value_nulls.append_null();
        self.mantissas.push(0);
        self.mantissa_nulls.append_null();
        push_i64(&mut self.exponents, &mut self.exponent_nulls, None);
        self.nulls.append_null();
    }

    fn finish(&mut self, out: &mut Vec<ArrayRef>) {
        let values = Decimal128Array::new(
            ScalarBuffer::from(std::mem::take(&mut self.values)),
            self.value_nulls.finish(),
        );
        out.push(Arc::new(
            values
                .with_precision_and_scale(38, self.scale)
                .unwrap_or_else(|_| Decimal128Array::from(Vec::<i128>::new())),
        ));
        let mantissas = std::mem::take(&mut self.mantissas);
        let m: ArrayRef = if self.wide {
            let a =
                Decimal128Array::new(ScalarBuffer::from(mantissas), self.mantissa_nulls.finish());
            Arc::new(
                a.with_precision_and_scale(38, 0)
                    .unwrap_or_else(|_| Decimal128Array::from(Vec::<i128>::new())),
            )
        } else {
            let vals = mantissas.into_iter().map(|v| v as i64).collect();
            int_array(self.prim, vals, &mut self.mantissa_nulls)
        };
        let e = int_array(
            Primitive::Int8,
            std::mem::take(&mut self.exponents),
            &mut self.exponent_nulls,
        );
        out.push(struct_array(&self.parts, vec![m, e], &mut self.nulls));
    }
}

/// The columns of a decimal, a time or a date, from the meaning facts;
/// `None` for the other meanings (and for a decimal no Arrow decimal
/// holds, which stays its composite).
fn plan_meaning(v: Spec<'_>, sem: &str) -> Option<(Node, Vec<Field>)> {
    let Spec {
        name,
        ty,
        meaning,
        type_name,
        at,
        order,
        time,
        ..
    } = v;
    let f = |n: &str, dt: DataType| field(n, dt, type_name, sem);
    match meaning {
        Meaning::Decimal(d) => {
            let (m, m_at) = encoded_member(ty, d.mantissa)?;
            let null = match (d.optional, m.null()) {
                (true, Scalar::Int(v)) => Some(v),
                _ => None,
            };
            if let Exponent::Constant(exp) = d.exponent {
                let digits = digits(m.primitive);
                let (factor, precision, scale) = if exp > 0 {
                    let p = digits.checked_add(exp as u8).filter(|p| *p <= 38)?;
                    (10i128.pow(exp as u32), p, 0)
                } else {
                    let scale = exp.checked_neg().filter(|s| *s <= 38)?;
                    (1, digits.max(scale as u8).min(38), scale)
                };
                let node = Node::Decimal(DecimalCol {
                    read: Read::new(order, m.primitive, at + m_at),
                    null,
                    factor,
                    precision,
                    scale,
                    vals: Vec::new(),
                    nulls: Nulls::new(),
                });
                return Some((node, vec![f(name, DataType::Decimal128(precision, scale))]));
            }
            let Exponent::Member(ei) = d.exponent else {
                return None;
            };
            let (e, e_at) = encoded_member(ty, ei)?;
            let parts = Fields::from(vec![
                Field::new(member_name(ty, d.mantissa), int_type(m.primitive), true),
                Field::new(member_name(ty, ei), int_type(e.primitive), true),
            ]);
            let node = Node::WireDecimal {
                read: Read::new(order, m.primitive, at + m_at),
                prim: m.primitive,
                null,
                exp: Read::new(order, e.primitive, at + e_at),
                exp_prim: e.primitive,
                exp_null: int_null(e, false),
                parts: parts.clone(),
                floats: Vec::new(),
                float_nulls: Nulls::new(),
                mantissas: Vec::new(),
                mantissa_nulls: Nulls::new(),
                exponents: Vec::new(),
                exponent_nulls: Nulls::new(),
                nulls: Nulls::new(),
            };
            let exact = f(&format!("{name}_exact"), DataType::Struct(parts));
            Some((node, vec![f(name, DataType::Float64), exact]))
        }
        Meaning::Timestamp(t) if t.zone.is_none() => {
            let (prim, t_at, null) = match t.time {
                Some(i) => {
                    let (e, off) = encoded_member(ty, i)?;
                    (e.primitive, at + off, int_null(e, t.optional))
                }
                None => match &ty.kind {
                    TypeKind::Encoded(e) => (e.primitive, at, int_null(e, t.optional)),
                    _ => return None,
                },
            };
            let unit = match t.unit {
                TimeUnitSource::Constant(u) => UnitAt::Fixed(u),
                TimeUnitSource::Unstated => UnitAt::Fixed(TimeUnit::Nanos),
                TimeUnitSource::Member(i) => {
                    let (e, off) = encoded_member(ty, i)?;
                    UnitAt::Wire(Read::new(order, e.primitive, at + off))
                }
                // A source this crate does not know: the composite stays.
                #[allow(unreachable_patterns)]
                _ => return None,
            };
            let wire = match &unit {
                UnitAt::Fixed(u) => Some(*u),
                UnitAt::Wire(_) => None,
            };
            // A time of day keeps nanoseconds: no unit option reaches a
            // reader that refuses them (Spark reads no TIME at all).
            let out = if t.of_day {
                TimeUnit::Nanos
            } else {
                time::column_unit(wire, time)
            };
            let dt = if t.of_day {
                DataType::Time64(ArrowUnit::Nanosecond)
            } else {
                DataType::Timestamp(time::arrow_unit(out), Some(UTC.into()))
            };
            let lossy = time::can_lose(prim, wire, out);
            let node = Node::Time {
                read: Read::new(order, prim, t_at),
                prim,
                null,
                unit: UnitAtBox(unit),
                out,
                of_day: t.of_day,
                vals: Vec::new(),
                nulls: Nulls::new(),
                raw: lossy.then(|| (Vec::new(), Nulls::new())),
            };
            let mut fields = vec![f(name, dt)];
            if lossy {
                fields.push(f(&format!("{name}_raw"), int_type(prim)));
            }
            Some((node, fields))
        }
        Meaning::Date(d) => {
            let TypeKind::Encoded(e) = &ty.kind else {
                return None;
            };
            let node = Node::Date {
                read: Read::new(order, e.primitive, at),
                prim: e.primitive,
                null: int_null(e, d.optional),
                vals: Vec::new(),
                nulls: Nulls::new(),
            };
            Some((node, vec![f(name, DataType::Date32)]))
        }
        _ => None,
    }
}

/// Ends a list column's row of `len` values (a null list when not
/// `valid`).
#[inline]
pub(crate) fn end_list(offsets: &mut Vec<i32>, nulls: &mut Nulls, len: usize, valid: bool) {
    let last = offsets.last().copied().unwrap_or(0);
    offsets.push(last + len as i32);
    nulls.append(valid);
}

/// `v`, unless it is the null.
#[inline]
fn non_null(v: Option<i128>, null: Option<i128>) -> Option<i128> {
    v.filter(|v| Some(*v) != null)
}

/// The list of each row's choices (of `choices`, the set `width` bits
/// wide) by the rule `sbe decode` shows them by, from the rows' raw
/// values (`nulls`: the rows where the set is absent); bits no choice
/// names are in the raw column only.
fn set_choices(
    choices: &[(String, u32)],
    width: u32,
    raw: &[i64],
    nulls: Option<NullBuffer>,
) -> ArrayRef {
    let mut lists = Vec::with_capacity(raw.len() + 1);
    let mut ends = Vec::with_capacity(raw.len() * 2 + 1);
    // Room for each row's padded copy (see below): the bytes are not
    // grown row by row.
    let mut bytes = Vec::with_capacity(raw.len() * SHORT_NAMES + SHORT_NAMES);
    ends.push(0i32);
    lists.push(0i32);
    let mut seen = ChoiceLists::new(width);
    for (row, &v) in raw.iter().enumerate() {
        if nulls.as_ref().is_none_or(|n| n.is_valid(row)) {
            let names = seen.of(v as u64, choices, width);
            let base = bytes.len();
            match &names.short {
                // A copy of a length known when compiled, cut back: not a
                // call to `memcpy` per row.
                Some(padded) => {
                    bytes.extend_from_slice(padded);
                    bytes.truncate(base + names.bytes.len());
                }
                None => bytes.extend_from_slice(&names.bytes),
            }
            for e in &names.ends {
                ends.push(base as i32 + e);
            }
        }
        lists.push(ends.len() as i32 - 1);
    }
    let item = Arc::new(Field::new("item", DataType::Utf8, true));
    // Offsets that only rise, over the names' UTF-8: the arrays are
    // valid, and `try_new` checks it.
    let names = StringArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(ends)),
        Buffer::from_vec(bytes),
        None,
    );
    let list = names.and_then(|names| {
        ListArray::try_new(
            item.clone(),
            OffsetBuffer::new(ScalarBuffer::from(lists)),
            Arc::new(names),
            nulls,
        )
    });
    match list {
        Ok(l) => Arc::new(l),
        Err(_) => arrow_array::new_empty_array(&DataType::List(item)),
    }
}

/// The names of a set value's choices, one after another, and where each
/// ends.
#[derive(Default)]
struct ChoiceList {
    bytes: Vec<u8>,
    ends: Vec<i32>,
    /// `bytes` padded with zeros, where they fit.
    short: Option<[u8; SHORT_NAMES]>,
}

/// The bytes of a value's names copied at once where they fit.
const SHORT_NAMES: usize = 32;

/// Each raw value's [`ChoiceList`], made once: a set's values repeat
/// (a few combinations of flags), and the rule goes through every choice.
enum ChoiceLists {
    /// A set of 8 bits or fewer: by value.
    Byte(Vec<Option<ChoiceList>>),
    Wide(HashMap<u64, ChoiceList>),
}

impl ChoiceLists {
    fn new(width: u32) -> ChoiceLists {
        if width <= 8 {
            ChoiceLists::Byte((0..256).map(|_| None).collect())
        } else {
            ChoiceLists::Wide(HashMap::new())
        }
    }

    fn of(&mut self, v: u64, choices: &[(String, u32)], width: u32) -> &ChoiceList {
        let make = || {
            let mut list = ChoiceList::default();
            let names = choices.iter().map(|(n, b)| (n.as_str(), *b));
            sbe_rt::visit::for_each_bit(v, width, names, |bit| {
                if let sbe_rt::visit::Bit::Choice(name) = bit {
                    list.bytes.extend_from_slice(name.as_bytes());
                    list.ends.push(list.bytes.len() as i32);
                }
            });
            let mut padded = [0u8; SHORT_NAMES];
            if let Some(slot) = padded.get_mut(..list.bytes.len()) {
                slot.copy_from_slice(&list.bytes);
                list.short = Some(padded);
            }
            list
        };
        static NONE: ChoiceList = ChoiceList {
            bytes: Vec::new(),
            ends: Vec::new(),
            short: None,
        };
        match self {
            ChoiceLists::Byte(by_value) => match by_value.get_mut(v as usize) {
                Some(slot) => slot.get_or_insert_with(make),
                None => &NONE,
            },
            ChoiceLists::Wide(map) => map.entry(v).or_insert_with(make),
        }
    }
}

/// The validity of rows `new` just read: where a value is `null`, a null
/// row (its value zeroed, as a null row's is everywhere).
fn nulls_of_rows<T: PartialEq + Default>(new: &mut [T], null: Option<T>, nulls: &mut Nulls) {
    match null {
        Some(null) if new.contains(&null) => {
            for v in new {
                let valid = *v != null;
                if !valid {
                    *v = T::default();
                }
                nulls.append(valid);
            }
        }
        _ => nulls.append_n_non_nulls(new.len()),
    }
}

#[inline(always)]
fn push_i64(vals: &mut Vec<i64>, nulls: &mut Nulls, v: Option<i64>) {
    vals.push(v.unwrap_or(0));
    nulls.append(v.is_some());
}

impl Node {
    /// Whether each of the node's columns can never be null when its
    /// value is read (its first column and its second, if any).
    fn never_null(&self) -> [bool; 2] {
        match self {
            Node::Int(c) => [c.null.is_none(), false],
            // NaN is a null too.
            Node::Float { .. } => [false, true],
            // The exact pair is null where the mantissa is.
            Node::WireDecimal { null, .. } => [false, null.is_none()],
            Node::FieldDecimal(_) => [false, false],
            Node::Text { optional, .. } => [!*optional, false],
            Node::Array { .. } | Node::Const { .. } | Node::Struct { .. } => [true, false],
            // Names: null outside the enum; the raw value: null inside it.
            Node::Enum(_) => [false, false],
            Node::Set { .. } => [true, true],
            Node::Decimal(c) => [c.null.is_none() && c.factor == 1, false],
            Node::Time { null, raw, .. } => [null.is_none() && raw.is_none(), false],
            Node::Date { null, prim, .. } => [
                null.is_none()
                    && matches!(
                        prim,
                        Primitive::Int8
                            | Primitive::Int16
                            | Primitive::Int32
                            | Primitive::Uint8
                            | Primitive::Uint16
                            | Primitive::Char
                    ),
                false,
            ],
        }
    }

    /// Reads the value at `base` of `buf` (bytes checked by the walk;
    /// bytes not there read as null). An integer, the most common value,
    /// is read here, inlined into the walk; the rest in a function of
    /// their own (one function for all, inlined, spilled the registers
    /// of every kind at every value).
    #[inline(always)]
    pub(crate) fn fill(&mut self, buf: &[u8], base: usize) {
        if let Node::Int(c) = self {
            c.fill(buf, base);
        } else {
            self.fill_other(buf, base);
        }
    }

    /// [`Node::fill`] of a value other than an integer.
    #[inline(never)]
    pub(crate) fn fill_other(&mut self, buf: &[u8], base: usize) {
        match self {
            Node::Int(c) => c.fill(buf, base),
            Node::Float {
                read,
                double,
                null,
                vals,
                nulls,
            } => {
                let v = if *double {
                    read.bits(buf, base).map(|b| {
                        let v = f64::from_bits(b);
                        (
                            v,
                            null.is_some_and(|n| sbe_rt::null::NullValue::is_null(v, n)),
                        )
                    })
                } else {
                    read.bits(buf, base).map(|b| {
                        let v = f32::from_bits(b as u32);
                        let is_null =
                            null.is_some_and(|n| sbe_rt::null::NullValue::is_null(v, n as f32));
                        (f64::from(v), is_null)
                    })
                };
                let v = v.and_then(|(v, is_null)| (!is_null && !v.is_nan()).then_some(v));
                vals.push(v.unwrap_or(0.0));
                nulls.append(v.is_some());
            }
            Node::Text {
                at,
                len,
                null_char,
                optional,
                utf8,
                b,
            } => {
                let start = base + *at;
                let Some(bytes) = buf.get(start..start + *len) else {
                    b.append_null();
                    return;
                };
                let absent = match null_char {
                    Some(n) => sbe_rt::null::non_null_char(bytes.first().copied().unwrap_or(0), *n)
                        .is_none(),
                    None => sbe_rt::null::non_empty_chars(bytes).is_none(),
                };
                if *optional && absent {
                    b.append_null();
                } else {
                    b.append_value(text(sbe_rt::text::trim_nul(bytes), *utf8));
                }
            }
            Node::Array {
                at,
                count,
                stride,
                offsets,
                nulls,
                elem,
                ..
            } => {
                for i in 0..*count {
                    elem.fill(buf, base + *at + i * *stride);
                }
                end_list(offsets, nulls, *count, true);
            }
            Node::Const { rows, nulls, .. } => {
                *rows += 1;
                nulls.append_non_null();
            }
            Node::Enum(c) => c.fill(buf, base),
            Node::Set {
                read,
                raw,
                raw_nulls,
                ..
            } => {
                let v = read.bits(buf, base).unwrap_or(0);
                push_i64(raw, raw_nulls, Some(v as i64));
            }
            Node::Decimal(c) => c.fill(buf, base),
            Node::FieldDecimal(c) => c.fill(buf, base),
            Node::WireDecimal {
                read,
                null,
                exp,
                exp_null,
                floats,
                float_nulls,
                mantissas,
                mantissa_nulls,
                exponents,
                exponent_nulls,
                nulls,
                ..
            } => {
                let m = non_null(read.i128(buf, base), *null);
                let e = non_null(exp.i128(buf, base), *exp_null);
                let value = match (m, e) {
                    (Some(m), Some(e)) => i8::try_from(e)
                        .ok()
                        .map(|e| sbe_rt::Decimal::new(m, e).to_f64()),
                    _ => None,
                };
                floats.push(value.unwrap_or(0.0));
                float_nulls.append(value.is_some());
                push_i64(mantissas, mantissa_nulls, m.map(|m| m as i64));
                push_i64(exponents, exponent_nulls, e.map(|e| e as i64));
                // A null mantissa is a null decimal, whatever the exponent
                // holds: the exact pair is null too, as the value is.
                nulls.append(m.is_some());
            }
            Node::Time {
                read,
                null,
                unit,
                out,
                vals,
                nulls,
                raw,
                ..
            } => {
                let wire = non_null(read.i128(buf, base), *null);
                let (v, exact) = match wire {
                    None => (None, true),
                    Some(w) => {
                        let from = match &unit.0 {
                            UnitAt::Fixed(u) => Some(*u),
                            UnitAt::Wire(unit_read) => unit_read
                                .i128(buf, base)
                                .and_then(|c| u8::try_from(c).ok())
                                .and_then(TimeUnit::from_code),
                        };
                        match from {
                            Some(from) => time::convert(w, from, *out),
                            None => (None, false),
                        }
                    }
                };
                push_i64(vals, nulls, v);
                if let Some((raw, raw_nulls)) = raw {
                    // The wire integer wherever the column does not hold
                    // it exactly: past its range, or digits rounded off.
                    let lost = wire.filter(|_| !exact);
                    push_i64(raw, raw_nulls, lost.map(|w| w as i64));
                }
            }
            Node::Date {
                read,
                null,
                vals,
                nulls,
                ..
            } => {
                let v = non_null(read.i128(buf, base), *null);
                let v = v.and_then(|v| i32::try_from(v).ok());
                vals.push(v.unwrap_or(0));
                nulls.append(v.is_some());
            }
            Node::Struct {
                at,
                children,
                nulls,
                ..
            } => {
                for c in children {
                    c.fill(buf, base + *at);
                }
                nulls.append_non_null();
            }
        }
    }

    /// A row where the value is absent (a field newer than the acting
    /// version).
    pub(crate) fn push_null(&mut self) {
        match self {
            Node::Int(c) => c.push_null(),
            Node::Float { vals, nulls, .. } => {
                vals.push(0.0);
                nulls.append_null();
            }
            Node::Text { b, .. } => b.append_null(),
            Node::Array { offsets, nulls, .. } => end_list(offsets, nulls, 0, false),
            Node::Const { rows, nulls, .. } => {
                *rows += 1;
                nulls.append_null();
            }
            Node::Enum(c) => c.push_null(),
            Node::Set { raw, raw_nulls, .. } => push_i64(raw, raw_nulls, None),
            Node::Decimal(c) => c.push_null(),
            Node::FieldDecimal(c) => c.push_null(),
            Node::WireDecimal {
                floats,
                float_nulls,
                mantissas,
                mantissa_nulls,
                exponents,
                exponent_nulls,
                nulls,
                ..
            } => {
                floats.push(0.0);
                float_nulls.append_null();
                push_i64(mantissas, mantissa_nulls, None);
                push_i64(exponents, exponent_nulls, None);
                nulls.append_null();
            }
            Node::Time {
                vals, nulls, raw, ..
            } => {
                push_i64(vals, nulls, None);
                if let Some((raw, raw_nulls)) = raw {
                    push_i64(raw, raw_nulls, None);
                }
            }
            Node::Date { vals, nulls, .. } => {
                vals.push(0);
                nulls.append_null();
            }
            Node::Struct {
                children, nulls, ..
            } => {
                for c in children {
                    c.push_null();
                }
                nulls.append_null();
            }
        }
    }

    /// The arrays of the rows so far (one per field [`plan`] gave), and
    /// the node emptied for the next batch.
    pub(crate) fn finish(&mut self, out: &mut Vec<ArrayRef>) {
        match self {
            Node::Int(c) => out.push(c.finish()),
            Node::Float {
                double,
                vals,
                nulls,
                ..
            } => {
                let vals = take(vals);
                let nulls = nulls.finish();
                out.push(if *double {
                    Arc::new(Float64Array::new(ScalarBuffer::from(vals), nulls))
                } else {
                    let v: Vec<f32> = vals.into_iter().map(|v| v as f32).collect();
                    Arc::new(Float32Array::new(ScalarBuffer::from(v), nulls))
                });
            }
            Node::Text { b, .. } => out.push(Arc::new(b.finish())),
            Node::Array {
                field,
                offsets,
                nulls,
                elem,
                ..
            } => {
                let mut values = Vec::new();
                elem.finish(&mut values);
                let offsets = std::mem::replace(offsets, vec![0]);
                let values = values
                    .pop()
                    .unwrap_or_else(|| arrow_array::new_empty_array(field.data_type()));
                out.push(Arc::new(ListArray::new(
                    field.clone(),
                    OffsetBuffer::new(ScalarBuffer::from(offsets)),
                    values,
                    nulls.finish(),
                )));
            }
            Node::Const { value, rows, nulls } => {
                let n = std::mem::take(rows);
                let nulls = nulls.finish();
                out.push(match value {
                    ConstLit::Str(s) => {
                        let a: StringArray = (0..n)
                            .map(|i| {
                                nulls
                                    .as_ref()
                                    .is_none_or(|b| b.is_valid(i))
                                    .then_some(s.as_str())
                            })
                            .collect();
                        Arc::new(a)
                    }
                    ConstLit::Int(p, v) => {
                        let mut nb = Nulls::new();
                        match &nulls {
                            Some(b) => (0..n).for_each(|i| nb.append(b.is_valid(i))),
                            None => nb.append_n_non_nulls(n),
                        }
                        int_array(*p, vec![*v; n], &mut nb)
                    }
                    ConstLit::Float(true, v) => {
                        Arc::new(Float64Array::new(ScalarBuffer::from(vec![*v; n]), nulls))
                    }
                    ConstLit::Float(false, v) => Arc::new(Float32Array::new(
                        ScalarBuffer::from(vec![*v as f32; n]),
                        nulls,
                    )),
                });
            }
            Node::Enum(c) => c.finish(out),
            Node::Set {
                prim,
                choices,
                raw,
                raw_nulls,
                ..
            } => {
                let raw = take(raw);
                let nulls = raw_nulls.finish();
                out.push(set_choices(choices, prim.size() * 8, &raw, nulls.clone()));
                out.push(int_array_of(*prim, raw, nulls));
            }
            Node::Decimal(c) => out.push(c.finish()),
            Node::FieldDecimal(c) => c.finish(out),
            Node::WireDecimal {
                prim,
                exp_prim,
                parts,
                floats,
                float_nulls,
                mantissas,
                mantissa_nulls,
                exponents,
                exponent_nulls,
                nulls,
                ..
            } => {
                out.push(Arc::new(Float64Array::new(
                    ScalarBuffer::from(take(floats)),
                    float_nulls.finish(),
                )));
                let m = int_array(*prim, take(mantissas), mantissa_nulls);
                let e = int_array(*exp_prim, take(exponents), exponent_nulls);
                out.push(struct_array(parts, vec![m, e], nulls));
            }
            Node::Time {
                out: unit,
                of_day,
                vals,
                nulls,
                raw,
                prim,
                ..
            } => {
                let v = ScalarBuffer::from(take(vals));
                let n = nulls.finish();
                out.push(match (*of_day, unit) {
                    (true, _) => Arc::new(Time64NanosecondArray::new(v, n)),
                    (_, TimeUnit::Seconds) => {
                        Arc::new(TimestampSecondArray::new(v, n).with_timezone(UTC))
                    }
                    (_, TimeUnit::Millis) => {
                        Arc::new(TimestampMillisecondArray::new(v, n).with_timezone(UTC))
                    }
                    (_, TimeUnit::Micros) => {
                        Arc::new(TimestampMicrosecondArray::new(v, n).with_timezone(UTC))
                    }
                    (_, TimeUnit::Nanos) => {
                        Arc::new(TimestampNanosecondArray::new(v, n).with_timezone(UTC))
                    }
                });
                if let Some((raw, raw_nulls)) = raw {
                    out.push(int_array(*prim, take(raw), raw_nulls));
                }
            }
            Node::Date { vals, nulls, .. } => out.push(Arc::new(Date32Array::new(
                ScalarBuffer::from(take(vals)),
                nulls.finish(),
            ))),
            Node::Struct {
                fields,
                children,
                nulls,
                ..
            } => {
                let mut arrays = Vec::new();
                for c in children.iter_mut() {
                    c.finish(&mut arrays);
                }
                out.push(struct_array(fields, arrays, nulls));
            }
        }
    }
}

/// A struct array of `arrays` (which match `fields`), or nulls when they
/// do not.
pub(crate) fn struct_array(fields: &Fields, arrays: Vec<ArrayRef>, nulls: &mut Nulls) -> ArrayRef {
    let len = nulls.len();
    let valid = nulls.finish();
    match StructArray::try_new(fields.clone(), arrays, valid) {
        Ok(s) => Arc::new(s),
        Err(_) => arrow_array::new_null_array(&DataType::Struct(fields.clone()), len),
    }
}

/// A var data's column.
pub(crate) enum DataCol {
    Text { utf8: bool, b: StringBuilder },
    Bin(BinaryBuilder),
}

impl DataCol {
    pub(crate) fn new(meaning: &Meaning, encoding: Option<&str>) -> DataCol {
        match meaning {
            Meaning::Text => DataCol::Text {
                utf8: is_utf8(encoding),
                b: StringBuilder::new(),
            },
            _ => DataCol::Bin(BinaryBuilder::new()),
        }
    }

    pub(crate) fn data_type(&self) -> DataType {
        match self {
            DataCol::Text { .. } => DataType::Utf8,
            DataCol::Bin(_) => DataType::Binary,
        }
    }

    pub(crate) fn push(&mut self, bytes: Option<&[u8]>) {
        match (self, bytes) {
            (DataCol::Text { utf8, b }, Some(v)) => b.append_value(text(v, *utf8)),
            (DataCol::Text { b, .. }, None) => b.append_null(),
            (DataCol::Bin(b), Some(v)) => b.append_value(v),
            (DataCol::Bin(b), None) => b.append_null(),
        }
    }

    pub(crate) fn finish(&mut self) -> ArrayRef {
        match self {
            DataCol::Text { b, .. } => Arc::new(b.finish()),
            DataCol::Bin(b) => Arc::new(b.finish()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_keys_give_the_first_name_of_a_value_and_none_outside() {
        let keys = byte_keys(Primitive::Char, [48, 49, 49, 200].into_iter());
        assert_eq!(keys.len(), 256);
        assert_eq!((keys[48], keys[49], keys[200], keys[50]), (1, 2, 4, 0));
        assert!(byte_keys(Primitive::Int8, [0, -1].into_iter()).is_empty());
        assert!(byte_keys(Primitive::Uint16, [0].into_iter()).is_empty());
    }

    #[test]
    fn text_is_borrowed_where_the_bytes_are_the_string_already() {
        use std::borrow::Cow;
        assert!(matches!(text(b"ESZ4", false), Cow::Borrowed("ESZ4")));
        assert!(matches!(
            text("caf\u{e9}".as_bytes(), true),
            Cow::Borrowed("caf\u{e9}")
        ));
        // ISO-8859-1 past ASCII, and UTF-8 that is not, are converted.
        assert_eq!(text(b"caf\xe9", false), "caf\u{e9}");
        assert_eq!(text(b"caf\xe9", true), "caf\u{fffd}");
    }

    #[test]
    fn a_signed_integer_is_sign_extended_and_an_unsigned_kept() {
        let le = ByteOrder::Little;
        let buf = [0xfe, 0xff, 0xff, 0xff];
        let i16v = Read::new(le, Primitive::Int16, 0).i64(&buf, 0);
        let u16v = Read::new(le, Primitive::Uint16, 0).i64(&buf, 0);
        let i8v = Read::new(le, Primitive::Int8, 3).i64(&buf, 0);
        assert_eq!((i16v, u16v, i8v), (Some(-2), Some(0xfffe), Some(-1)));
        // `base` counts too; bytes not all there read as `None`.
        assert_eq!(Read::new(le, Primitive::Int8, 1).i64(&buf, 2), Some(-1));
        assert_eq!(Read::new(le, Primitive::Int32, 1).i64(&buf, 0), None);
        assert_eq!(
            Read::new(le, Primitive::Int8, 1).i64(&buf, usize::MAX),
            None
        );
    }

    #[test]
    fn a_read_follows_the_byte_order_and_keeps_a_uint64_past_i64() {
        let buf = [0x80, 0, 0, 0, 0, 0, 0, 0x01];
        let big = ByteOrder::Big;
        assert_eq!(
            Read::new(big, Primitive::Uint64, 0).i128(&buf, 0),
            Some(0x8000_0000_0000_0001)
        );
        assert_eq!(
            Read::new(big, Primitive::Int64, 0).i128(&buf, 0),
            Some(i128::from(i64::MIN + 1))
        );
        assert_eq!(
            Read::new(big, Primitive::Int16, 0).i64(&buf, 0),
            Some(-32768)
        );
        assert_eq!(Read::new(big, Primitive::Uint32, 4).i64(&buf, 0), Some(1));
        assert_eq!(
            Read::new(ByteOrder::Little, Primitive::Uint32, 4).i64(&buf, 0),
            Some(0x0100_0000)
        );
    }
}
