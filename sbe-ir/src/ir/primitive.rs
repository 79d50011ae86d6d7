//! Primitive types: names, sizes, the spec's null/min/max defaults, and
//! parsing of values written in a schema.

use super::model::{ByteOrder, Primitive, Scalar};
use sbe_rt::wire::Uint;

impl Primitive {
    /// Every primitive, in the spec's order.
    pub const ALL: [Primitive; 11] = [
        Primitive::Char,
        Primitive::Int8,
        Primitive::Int16,
        Primitive::Int32,
        Primitive::Int64,
        Primitive::Uint8,
        Primitive::Uint16,
        Primitive::Uint32,
        Primitive::Uint64,
        Primitive::Float,
        Primitive::Double,
    ];

    /// The bytes of a value of this primitive at `offset`, in byte order
    /// `order`, as the unsigned slot every reader and writer of the wire
    /// goes through ([`Uint`]); [`Primitive::from_bits`] makes the value.
    ///
    /// ```
    /// use sbe_ir::ir::{ByteOrder, Primitive};
    /// use sbe_rt::wire::Uint;
    /// assert_eq!(Primitive::Int16.slot(ByteOrder::Big, 4), Uint::U16Be(4));
    /// assert_eq!(Primitive::Char.slot(ByteOrder::Big, 0), Uint::U8(0));
    /// ```
    #[must_use]
    #[inline]
    pub fn slot(self, order: ByteOrder, offset: usize) -> Uint {
        Uint::new(self.size() as usize, order == ByteOrder::Big, offset)
    }

    /// The value of an integer primitive (or `char`, its byte) whose
    /// bytes read as `bits`: sign-extended for a signed one. A float's
    /// bits are its bits.
    ///
    /// ```
    /// use sbe_ir::ir::Primitive;
    /// assert_eq!(Primitive::Int8.from_bits(0xff), -1);
    /// assert_eq!(Primitive::Uint8.from_bits(0xff), 255);
    /// assert_eq!(Primitive::Int64.from_bits(u64::MAX), -1);
    /// ```
    #[must_use]
    #[inline]
    pub fn from_bits(self, bits: u64) -> i128 {
        match self {
            Primitive::Int8 => i128::from(bits as u8 as i8),
            Primitive::Int16 => i128::from(bits as u16 as i16),
            Primitive::Int32 => i128::from(bits as u32 as i32),
            Primitive::Int64 => i128::from(bits as i64),
            _ => i128::from(bits),
        }
    }

    /// The value of this primitive (integer, `char` as its byte, a float
    /// as its bits) at `buf[at..]` in byte order `order`; `None` when its
    /// bytes are not all there.
    ///
    /// ```
    /// use sbe_ir::ir::{ByteOrder, Primitive};
    /// assert_eq!(Primitive::Int16.get(ByteOrder::Big, &[0, 0xff, 0xfe], 1), Some(-2));
    /// assert_eq!(Primitive::Int16.get(ByteOrder::Big, &[0, 0xff], 1), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn get(self, order: ByteOrder, buf: &[u8], at: usize) -> Option<i128> {
        self.slot(order, at)
            .try_get(buf)
            .map(|bits| self.from_bits(bits))
    }

    /// Writes the low bytes of `v` (two's complement) as this primitive at
    /// `buf[at..]` in byte order `order`, checked.
    ///
    /// ```
    /// use sbe_ir::ir::{ByteOrder, Primitive};
    /// let mut buf = [0u8; 3];
    /// Primitive::Int16.put(ByteOrder::Little, &mut buf, 1, -2)?;
    /// assert_eq!(buf, [0, 0xfe, 0xff]);
    /// assert!(Primitive::Int32.put(ByteOrder::Little, &mut buf, 1, 0).is_err());
    /// # Ok::<(), sbe_rt::Error>(())
    /// ```
    pub fn put(self, order: ByteOrder, buf: &mut [u8], at: usize, v: i128) -> sbe_rt::Result<()> {
        self.slot(order, at).put(buf, v as u64)
    }

    /// The primitive named `name` in a schema (`uint16`, `char`, ...).
    pub fn from_name(name: &str) -> Option<Primitive> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The schema name of the primitive.
    pub fn name(self) -> &'static str {
        match self {
            Primitive::Char => "char",
            Primitive::Int8 => "int8",
            Primitive::Int16 => "int16",
            Primitive::Int32 => "int32",
            Primitive::Int64 => "int64",
            Primitive::Uint8 => "uint8",
            Primitive::Uint16 => "uint16",
            Primitive::Uint32 => "uint32",
            Primitive::Uint64 => "uint64",
            Primitive::Float => "float",
            Primitive::Double => "double",
        }
    }

    /// The Rust type generated code holds a value of this primitive in
    /// (`char` is its byte, `u8`).
    ///
    /// ```
    /// use sbe_ir::ir::Primitive;
    /// assert_eq!(Primitive::Uint16.rust_type(), "u16");
    /// assert_eq!(Primitive::Char.rust_type(), "u8");
    /// ```
    pub fn rust_type(self) -> &'static str {
        match self {
            Primitive::Char | Primitive::Uint8 => "u8",
            Primitive::Int8 => "i8",
            Primitive::Int16 => "i16",
            Primitive::Uint16 => "u16",
            Primitive::Int32 => "i32",
            Primitive::Uint32 => "u32",
            Primitive::Int64 => "i64",
            Primitive::Uint64 => "u64",
            Primitive::Float => "f32",
            Primitive::Double => "f64",
        }
    }

    /// Size in bytes.
    #[inline]
    pub fn size(self) -> u32 {
        match self {
            Primitive::Char | Primitive::Int8 | Primitive::Uint8 => 1,
            Primitive::Int16 | Primitive::Uint16 => 2,
            Primitive::Int32 | Primitive::Uint32 | Primitive::Float => 4,
            Primitive::Int64 | Primitive::Uint64 | Primitive::Double => 8,
        }
    }

    /// float or double.
    #[inline]
    pub fn is_float(self) -> bool {
        matches!(self, Primitive::Float | Primitive::Double)
    }

    /// A signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Primitive::Int8 | Primitive::Int16 | Primitive::Int32 | Primitive::Int64
        )
    }

    /// Smallest and largest integer the wire type holds (char as 0..=255).
    pub fn int_range(self) -> (i128, i128) {
        match self {
            Primitive::Char | Primitive::Uint8 => (0, u8::MAX.into()),
            Primitive::Int8 => (i8::MIN.into(), i8::MAX.into()),
            Primitive::Int16 => (i16::MIN.into(), i16::MAX.into()),
            Primitive::Uint16 => (0, u16::MAX.into()),
            Primitive::Int32 => (i32::MIN.into(), i32::MAX.into()),
            Primitive::Uint32 => (0, u32::MAX.into()),
            Primitive::Int64 => (i64::MIN.into(), i64::MAX.into()),
            Primitive::Uint64 | Primitive::Float | Primitive::Double => (0, u64::MAX.into()),
        }
    }

    /// The spec's default null value.
    pub fn default_null(self) -> Scalar {
        match self {
            Primitive::Char => Scalar::Int(0),
            Primitive::Float | Primitive::Double => Scalar::Float(f64::NAN),
            p if p.is_signed() => Scalar::Int(p.int_range().0),
            p => Scalar::Int(p.int_range().1),
        }
    }

    /// The spec's default minimum value.
    pub fn default_min(self) -> Scalar {
        match self {
            Primitive::Char => Scalar::Int(0x20),
            Primitive::Float => Scalar::Float(-f64::from(f32::MAX)),
            Primitive::Double => Scalar::Float(-f64::MAX),
            p if p.is_signed() => Scalar::Int(p.int_range().0 + 1),
            _ => Scalar::Int(0),
        }
    }

    /// The spec's default maximum value.
    pub fn default_max(self) -> Scalar {
        match self {
            Primitive::Char => Scalar::Int(0x7e),
            Primitive::Float => Scalar::Float(f64::from(f32::MAX)),
            Primitive::Double => Scalar::Float(f64::MAX),
            p if p.is_signed() => Scalar::Int(p.int_range().1),
            p => Scalar::Int(p.int_range().1 - 1),
        }
    }

    /// Parse a value as written in a schema for this primitive: a char's
    /// text is its byte, numbers are decimal (surrounding space trimmed).
    pub fn parse_scalar(self, text: &str) -> Result<Scalar, String> {
        let t = text.trim();
        match self {
            Primitive::Char => {
                let mut chars = t.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if (c as u32) < 256 => Ok(Scalar::Int(c as u32 as i128)),
                    _ => Err(format!("\"{t}\" is not a single char")),
                }
            }
            Primitive::Float | Primitive::Double => t
                .parse::<f64>()
                .map(Scalar::Float)
                .map_err(|_| format!("\"{t}\" is not a {} value", self.name())),
            _ => {
                let v = t
                    .parse::<i128>()
                    .map_err(|_| format!("\"{t}\" is not a {} value", self.name()))?;
                let (lo, hi) = self.int_range();
                if v < lo || v > hi {
                    return Err(format!("{v} is out of range for {}", self.name()));
                }
                Ok(Scalar::Int(v))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        assert_eq!(Primitive::Uint8.default_null(), Scalar::Int(255));
        assert_eq!(
            Primitive::Int32.default_null(),
            Scalar::Int(i32::MIN.into())
        );
        assert_eq!(
            Primitive::Int32.default_min(),
            Scalar::Int(i32::MIN as i128 + 1)
        );
        assert_eq!(
            Primitive::Uint64.default_max(),
            Scalar::Int(u64::MAX as i128 - 1)
        );
        assert_eq!(Primitive::Char.default_null(), Scalar::Int(0));
        assert!(matches!(Primitive::Double.default_null(), Scalar::Float(f) if f.is_nan()));
    }

    #[test]
    fn parses_values_by_primitive() {
        assert_eq!(Primitive::Int8.parse_scalar("-3    "), Ok(Scalar::Int(-3)));
        assert_eq!(Primitive::Char.parse_scalar("A"), Ok(Scalar::Int(65)));
        assert!(Primitive::Uint8.parse_scalar("256").is_err());
        assert!(Primitive::Char.parse_scalar("AB").is_err());
        assert_eq!(
            Primitive::Uint64.parse_scalar("18446744073709551615"),
            Ok(Scalar::Int(u64::MAX.into()))
        );
        assert_eq!(Primitive::from_name("uint32"), Some(Primitive::Uint32));
        assert_eq!(Primitive::from_name("uint128"), None);
    }
}
