//! Drivers of the typed generated encoders (feature `drive`): [`gen`]
//! writes, from a schema's IR and the generator's own names
//! (`sbe_build::codegen::api`), Rust that encodes every message with
//! values pulled from an [`arbitrary::Unstructured`] ([`Src`]) through the
//! generated setters, group starters, `next_entry` and var-data writers,
//! recording what it wrote as a [`V`]; and that reads a message back
//! through the generated getters into a [`V`] to compare.
//!
//! The fuzz target `typed_roundtrip` and corpus-tests' `typed_properties`
//! run them.

pub mod gen;

use arbitrary::{Arbitrary, Unstructured};

/// A value as the drivers compare it: what was written, or what a getter
/// read. Floats are kept as bits (NaN included); a char array is its bytes;
/// an optional value that reads as its null, or an absent item, is `Null`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum V {
    /// An optional value holding its null.
    Null,
    /// An integer, char, enum or set (its wire value).
    I(i128),
    /// A float's bits.
    F32(u32),
    /// A double's bits.
    F64(u64),
    /// A char array or var data.
    Bytes(Vec<u8>),
    /// A composite's members, a block's items, a group's entries or an array.
    List(Vec<V>),
}

/// A primitive the drivers write and read.
pub trait Num: Copy + Default + PartialOrd + for<'a> Arbitrary<'a> {
    /// As compared.
    fn to_v(self) -> V;
    /// Whether the value reads as the null value `null` (a NaN null: any
    /// NaN; another float: the same bits).
    fn is_null(self, null: Self) -> bool;
    /// A value in `lo..=hi` (for floats: finite) drawn from `u`.
    fn in_range(u: &mut Unstructured, lo: Self, hi: Self) -> Self;
}

macro_rules! ints {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn to_v(self) -> V {
                V::I(self as i128)
            }
            fn is_null(self, null: Self) -> bool {
                self == null
            }
            fn in_range(u: &mut Unstructured, lo: Self, hi: Self) -> Self {
                if lo > hi {
                    return lo;
                }
                u.int_in_range(lo..=hi).unwrap_or(lo)
            }
        }
    )*};
}
ints!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! floats {
    ($($t:ty => $v:ident),*) => {$(
        impl Num for $t {
            fn to_v(self) -> V {
                V::$v(self.to_bits())
            }
            fn is_null(self, null: Self) -> bool {
                if null.is_nan() {
                    self.is_nan()
                } else {
                    self.to_bits() == null.to_bits()
                }
            }
            fn in_range(u: &mut Unstructured, lo: Self, hi: Self) -> Self {
                let v = <$t>::arbitrary(u).unwrap_or_default();
                if v.is_finite() && v >= lo && v <= hi {
                    v
                } else {
                    // A small exact value, in range.
                    let small = (u8::arbitrary(u).unwrap_or_default() as $t - 128.0) / 4.0;
                    small.clamp(lo, hi)
                }
            }
        }
    )*};
}
floats!(f32 => F32, f64 => F64);

/// The most entries a driver writes into one group, and into one message.
const MAX_ENTRIES: usize = 4;
const MAX_MESSAGE_ENTRIES: usize = 48;

/// Where a driver's values come from.
///
/// `canonical`: only values the JSON mapping of `vectors/FORMAT.md` gives
/// back exactly, so that `sbe encode` of the decoded JSON is the same
/// bytes (numbers in `minValue..=maxValue` and not a required field's
/// null, finite floats, known enum values and set choices, printable
/// ASCII text without NULs inside, nothing the schema cannot hold).
/// Otherwise anything: NaNs, unknown enum values and bits, text with NULs
/// and high bytes, and now and then a value the schema cannot hold (a
/// char array or var data too long, a group count above its maximum), for
/// which the driver checks the clean `Err` and sets `rejected`.
pub struct Src<'a> {
    u: Unstructured<'a>,
    /// Only JSON-exact values.
    pub canonical: bool,
    /// Set by a driver when it gave a value the schema cannot hold and got
    /// the `Err` it expected.
    pub rejected: bool,
    entries: usize,
}

impl<'a> Src<'a> {
    /// Values from `data`.
    pub fn new(data: &'a [u8], canonical: bool) -> Self {
        Src {
            u: Unstructured::new(data),
            canonical,
            rejected: false,
            entries: 0,
        }
    }

    fn byte(&mut self) -> u8 {
        u8::arbitrary(&mut self.u).unwrap_or_default()
    }

    /// `true` about one time in `n`.
    fn one_in(&mut self, n: u8) -> bool {
        !self.u.is_empty() && self.byte() % n == 0
    }

    /// Whether to leave a value's setter uncalled (the block then holds
    /// zeros there); never when canonical, as zeros may not be a value.
    pub fn skip_value(&mut self) -> bool {
        !self.canonical && self.one_in(8)
    }

    /// Whether to leave a group or var data unwritten (the encoder then
    /// writes it empty).
    pub fn skip_section(&mut self) -> bool {
        self.one_in(8)
    }

    /// Whether to leave the sections from this one on to the encoder's
    /// `finish`, which writes them empty.
    pub fn finish_early(&mut self) -> bool {
        self.one_in(16)
    }

    /// A number: any when not canonical, else in `lo..=hi`.
    pub fn num<T: Num>(&mut self, lo: T, hi: T) -> T {
        if self.canonical {
            T::in_range(&mut self.u, lo, hi)
        } else {
            T::arbitrary(&mut self.u).unwrap_or_default()
        }
    }

    /// An optional number: `None`, `Some(null)` (reads as null too) or a
    /// number.
    pub fn opt_num<T: Num>(&mut self, lo: T, hi: T, null: T) -> Option<T> {
        match self.byte() % 8 {
            0 => None,
            1 if !self.canonical => Some(null),
            _ => {
                let v = self.num(lo, hi);
                if self.canonical && v.is_null(null) {
                    None
                } else {
                    Some(v)
                }
            }
        }
    }

    /// An array of numbers.
    pub fn arr<T: Num, const N: usize>(&mut self, lo: T, hi: T) -> [T; N] {
        std::array::from_fn(|_| self.num(lo, hi))
    }

    /// A single char: printable ASCII when canonical.
    pub fn char1(&mut self) -> u8 {
        let b = self.byte();
        if self.canonical {
            b' ' + 1 + b % 94
        } else {
            b
        }
    }

    /// An optional single char (`None`, its null, NUL or a char).
    pub fn opt_char(&mut self, null: u8) -> Option<u8> {
        match self.byte() % 8 {
            0 => None,
            1 if !self.canonical => Some(null),
            2 if !self.canonical => Some(0),
            _ => Some(self.char1()),
        }
    }

    /// Bytes for a char array of `n`: at most `n` (printable ASCII when
    /// canonical), else now and then longer than `n`.
    pub fn chars(&mut self, n: usize) -> Vec<u8> {
        if !self.canonical && self.one_in(32) {
            return vec![b'x'; n + 1 + usize::from(self.byte() % 4)];
        }
        let len = usize::from(self.byte()) % (n + 1);
        (0..len).map(|_| self.char1()).collect()
    }

    /// An enum's wire value: one of `known` (any value, now and then, when
    /// not canonical).
    pub fn enum_raw<T: Num>(&mut self, known: &[T]) -> T {
        if known.is_empty() || !self.canonical && self.one_in(16) {
            return T::arbitrary(&mut self.u).unwrap_or_default();
        }
        known[usize::from(self.byte()) % known.len()]
    }

    /// An optional enum's wire value: `None`, its null or a value.
    pub fn opt_enum<T: Num>(&mut self, known: &[T], null: T) -> Option<T> {
        match self.byte() % 8 {
            0 => None,
            1 if !self.canonical => Some(null),
            _ => Some(self.enum_raw(known)).filter(|v| !(self.canonical && v.is_null(null))),
        }
    }

    /// A set's raw value: only the choices' bits (`known`) when canonical.
    pub fn set_raw<T: Num + std::ops::BitAnd<Output = T>>(&mut self, known: T) -> T {
        let v = T::arbitrary(&mut self.u).unwrap_or_default();
        if self.canonical {
            v & known
        } else {
            v
        }
    }

    /// For a group whose count is at most `max`: the count to start it
    /// with (now and then above `max` when not canonical), the entries to
    /// write (at most the count) and whether to write one more entry (not
    /// when canonical), which the group's `end()` must refuse.
    pub fn count(&mut self, max: u64) -> (usize, usize, bool) {
        let max = usize::try_from(max).unwrap_or(usize::MAX);
        if !self.canonical && self.one_in(32) {
            return (max.saturating_add(1), 0, false);
        }
        let room = (MAX_MESSAGE_ENTRIES - self.entries).min(MAX_ENTRIES);
        let n = (usize::from(self.byte()) % (room + 1)).min(max);
        self.entries += n;
        let count = if self.one_in(4) {
            n + usize::from(self.byte() % 4)
        } else {
            n
        };
        let count = count.min(max);
        let over = n == count && self.one_in(8);
        (count, n.min(count), over && !self.canonical)
    }

    /// Var data of at most `max` bytes (printable ASCII for `text` when
    /// canonical), now and then `max + 1` when not canonical.
    pub fn data(&mut self, max: u64, text: bool) -> Vec<u8> {
        if !self.canonical && max < 1 << 17 && self.one_in(32) {
            return vec![b'y'; max as usize + 1];
        }
        let len = self.u.arbitrary_len::<u8>().unwrap_or(0) % 64;
        let len = len.min(usize::try_from(max).unwrap_or(usize::MAX));
        (0..len)
            .map(|_| {
                if text && self.canonical {
                    self.char1()
                } else {
                    self.byte()
                }
            })
            .collect()
    }
}

/// What an optional number given as `v` reads as.
pub fn opt_v<T: Num>(v: Option<T>, null: T) -> V {
    match v {
        Some(x) if !x.is_null(null) => x.to_v(),
        _ => V::Null,
    }
}

/// What an optional single char given as `v` reads as (`None` at NUL or
/// its null).
pub fn opt_char_v(v: Option<u8>, null: u8) -> V {
    match v {
        Some(x) if x != 0 && x != null => V::I(i128::from(x)),
        _ => V::Null,
    }
}

/// What a char array of `n` given `v` (at most `n` bytes) reads as: `v`
/// padded with NULs; optional and starting with NUL, `Null`.
pub fn char_v(v: &[u8], n: usize, optional: bool) -> V {
    if optional && v.first().is_none_or(|&b| b == 0) {
        return V::Null;
    }
    let mut out = v.to_vec();
    out.resize(n, 0);
    V::Bytes(out)
}

/// Asserts that `r`, the result of giving a value the schema cannot hold,
/// is the `Err` for it, and marks `s` rejected.
pub fn rejected<T, E: Into<sbe_rt::Error>>(
    s: &mut Src,
    r: Result<T, E>,
    what: &str,
) -> sbe_rt::Error {
    match r.map_err(Into::into) {
        Err(e)
            if matches!(
                e.error_kind(),
                sbe_rt::ErrorKind::LengthOutOfRange | sbe_rt::ErrorKind::CountOutOfRange
            ) =>
        {
            s.rejected = true;
            e
        }
        Err(e) => e,
        Ok(_) => panic!("{what}: a value the schema cannot hold was accepted"),
    }
}

/// Checks `r`, the result of `end()` on a group given an entry more than
/// the count it was started with: `Err(CountOutOfRange)`, which is
/// returned (the message goes no further) and marks `s` rejected.
pub fn past_count<E: Into<sbe_rt::Error>>(
    s: &mut Src,
    r: Result<(), E>,
    what: &str,
) -> sbe_rt::Error {
    match r.map_err(Into::into) {
        Err(e) if e.error_kind() == sbe_rt::ErrorKind::CountOutOfRange => {
            s.rejected = true;
            e
        }
        Err(e) => panic!("{what}: an entry beyond the group's count gave {e:?}"),
        Ok(()) => panic!("{what}: a group with an entry beyond its count was ended"),
    }
}

/// `encode` of a drivers module: message `i` into `buf` with values from
/// `src`, what it wrote pushed onto the `Vec`.
pub type EncodeFn = fn(usize, &mut Src, &mut [u8], &mut Vec<V>) -> Result<usize, sbe_rt::Error>;

/// `read` of a drivers module: message `i` decoded, its values as its
/// getters read them, and its `checked_length`.
pub type ReadFn = fn(usize, &[u8]) -> Result<(V, Result<usize, sbe_rt::Error>), sbe_rt::Error>;

/// A schema's drivers.
pub struct Drivers {
    /// Which schema (a corpus path, or `repo/...`).
    pub key: &'static str,
    /// Its messages' schema names, in schema order.
    pub messages: &'static [&'static str],
    /// Encodes a message.
    pub encode: EncodeFn,
    /// Reads a message back.
    pub read: ReadFn,
}

/// Where `a` and `b` first differ, as a path of indices (`$[3][0]`).
pub fn first_diff(a: &V, b: &V, path: &str) -> Option<String> {
    match (a, b) {
        (V::List(x), V::List(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_diff(p, q, &format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| format!("{path}: {} items, then {}", x.len(), y.len()))
        }
        _ if a == b => None,
        _ => Some(format!("{path}: {a:?}, then {b:?}")),
    }
}

/// Message `i` of `d` encoded with the values `data` gives, through the
/// typed encoder, twice: into `big` (which holds any message the drivers
/// write) and into a buffer full of garbage of `buf_len(len)` bytes
/// (`len`: the message's length, `None` when it was rejected). Checks:
///
/// - into `big`: `Ok`, or a value the schema cannot hold gave its clean
///   `Err` (and so does the second);
/// - the generated decoder reads back every value written, through the
///   typed getters, and `checked_length` is the length encoded;
/// - the second is `Ok` with the same bytes exactly when `buf_len` holds
///   them, else an `Err` (`BufferTooSmall`), never a panic.
///
/// Returns the message's length in `big`, when encoded.
pub fn roundtrip(
    d: &Drivers,
    i: usize,
    data: &[u8],
    canonical: bool,
    buf_len: impl FnOnce(Option<usize>) -> usize,
    big: &mut [u8],
) -> Option<usize> {
    let what = format!("{} {}", d.key, d.messages[i]);
    let mut s = Src::new(data, canonical);
    let mut written = Vec::new();
    let r = (d.encode)(i, &mut s, big, &mut written);
    let buf_len = buf_len(r.as_ref().ok().copied());
    let mut small = vec![0xa5u8; buf_len];
    let mut s2 = Src::new(data, canonical);
    let r2 = (d.encode)(i, &mut s2, &mut small, &mut Vec::new());
    let len = match r {
        Err(e) => {
            assert!(
                s.rejected,
                "{what}: encoding into {} bytes failed: {e:?}",
                big.len()
            );
            assert!(r2.is_err(), "{what}: a value rejected once was accepted");
            return None;
        }
        Ok(len) => len,
    };
    assert!(
        !canonical || !s.rejected,
        "{what}: canonical values rejected"
    );
    let bytes = &big[..len];
    let (got, checked) = (d.read)(i, bytes).unwrap_or_else(|e| {
        panic!("{what}: what was encoded does not decode: {e:?}");
    });
    assert_eq!(checked, Ok(len), "{what}: checked_length");
    let expected = V::List(written);
    if let Some(diff) = first_diff(&expected, &got, "$") {
        panic!("{what}: written, then read: {diff}");
    }
    match r2 {
        Ok(n) => {
            assert_eq!(n, len, "{what}: the length depends on the buffer");
            assert!(
                small[..n] == *bytes,
                "{what}: the bytes depend on the buffer"
            );
        }
        Err(e) => {
            assert!(
                buf_len < len,
                "{what}: {buf_len} bytes hold the message's {len}, yet {e:?}"
            );
            assert!(
                e.error_kind() == sbe_rt::ErrorKind::BufferTooSmall,
                "{what}: {buf_len} bytes for {len}: {e:?}, not BufferTooSmall"
            );
        }
    }
    Some(len)
}
