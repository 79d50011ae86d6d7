//! The part of a generated set type that is the same for every set: its
//! raw value, set algebra and operators. Generated code names the type and
//! its raw integer (`::sbe_rt::set_api!(Flags, u8);`); the choices'
//! getters, builders and masks are generated per set.

/// The set algebra of the generated set type `$set`, a newtype over the
/// raw integer `$raw`: `from_raw`, `raw`, `contains`, `is_empty`,
/// `union`, `intersection`, `difference`, and `|`, `|=`, `&`, `&=`.
///
/// ```
/// #[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// pub struct Flags(pub u8);
/// sbe_rt::set_api!(Flags, u8);
///
/// let (a, b) = (Flags(0b01), Flags(0b10));
/// assert_eq!(a | b, Flags::from_raw(0b11));
/// assert!((a | b).contains(a) && !a.contains(b));
/// assert_eq!((a | b).difference(a).raw(), 0b10);
/// assert!(a.intersection(b).is_empty());
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! set_api {
    ($set:ident, $raw:ty) => {
        impl $set {
            /// The set whose raw value is `v` (every bit kept, named or not).
            #[inline]
            #[must_use]
            pub const fn from_raw(v: $raw) -> Self {
                Self(v)
            }

            /// The raw value.
            #[inline]
            pub const fn raw(self) -> $raw {
                self.0
            }

            /// Whether every choice of `other` is set in this set (`true`
            /// for an empty `other`).
            #[inline]
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// Whether no bit is set.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// The choices of either set (`self | other`).
            #[inline]
            #[must_use]
            pub const fn union(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }

            /// The choices of both sets (`self & other`).
            #[inline]
            #[must_use]
            pub const fn intersection(self, other: Self) -> Self {
                Self(self.0 & other.0)
            }

            /// The choices of this set that are not in `other`.
            #[inline]
            #[must_use]
            pub const fn difference(self, other: Self) -> Self {
                Self(self.0 & !other.0)
            }
        }

        /// The choices of either set.
        impl ::core::ops::BitOr for $set {
            type Output = Self;
            #[inline]
            fn bitor(self, other: Self) -> Self {
                self.union(other)
            }
        }

        impl ::core::ops::BitOrAssign for $set {
            #[inline]
            fn bitor_assign(&mut self, other: Self) {
                *self = self.union(other);
            }
        }

        /// The choices of both sets.
        impl ::core::ops::BitAnd for $set {
            type Output = Self;
            #[inline]
            fn bitand(self, other: Self) -> Self {
                self.intersection(other)
            }
        }

        impl ::core::ops::BitAndAssign for $set {
            #[inline]
            fn bitand_assign(&mut self, other: Self) {
                *self = self.intersection(other);
            }
        }
    };
}
