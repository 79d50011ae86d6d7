//! The part of a generated enum type that is the same for every enum:
//! its conversions from and to the wire value, and its `Field` and `Debug`
//! impls. Generated code names the type and its wire integer
//! (`::sbe_rt::enum_api!(Side, u8);`); the constants and `name` (the
//! schema's names of the values) are generated per enum.

/// The conversions of the generated enum type `$enum`, a newtype over
/// the wire integer `$raw` with a `const fn name(self) ->
/// Option<&'static str>`: `from_raw`, `raw`, `is_known`, and its
/// `sbe_rt::visit::Field` and `Debug` impls (the schema name, or
/// `Unknown(raw)`).
///
/// ```
/// #[derive(Clone, Copy, PartialEq, Eq)]
/// pub struct Side(pub u8);
/// impl Side {
///     pub const BUY: Self = Self(1);
///     pub const fn name(self) -> Option<&'static str> {
///         match self.0 {
///             1 => Some("Buy"),
///             _ => None,
///         }
///     }
/// }
/// sbe_rt::enum_api!(Side, u8);
///
/// assert_eq!(Side::from_raw(1), Side::BUY);
/// assert!(Side::BUY.is_known() && !Side::from_raw(2).is_known());
/// assert_eq!(format!("{:?} {:?}", Side::BUY, Side::from_raw(2)), "Buy Unknown(2)");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! enum_api {
    ($enum:ident, $raw:ty) => {
        impl $enum {
            /// The value for wire value `v` (lossless: any `v` is kept).
            #[inline]
            pub const fn from_raw(v: $raw) -> Self {
                Self(v)
            }

            /// The wire value.
            #[inline]
            pub const fn raw(self) -> $raw {
                self.0
            }

            /// Whether the schema names the value.
            #[inline]
            pub const fn is_known(self) -> bool {
                self.name().is_some()
            }
        }

        impl $crate::visit::Field for $enum {
            fn value(&self) -> $crate::visit::Value<'_> {
                $crate::visit::Value::Enum {
                    name: self.name(),
                    raw: &self.0,
                }
            }
        }

        /// The value's schema name, or `Unknown(raw)`.
        impl ::core::fmt::Debug for $enum {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::visit::debug_value(self, f)
            }
        }
    };
}
