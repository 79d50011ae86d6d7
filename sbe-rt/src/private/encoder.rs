//! The methods of a generated message encoder that are the same for every
//! one (`::sbe_rt::encoder_api!(encoded_length);`, `wrap_exact`).

/// Methods of the generated message encoder whose impl it is called in:
/// `encoded_length`, the bytes written so far (the encoder's `total`
/// less its `tail`).
///
/// ```
/// pub struct Encoder<'a> {
///     tail: &'a mut [u8],
///     total: usize,
/// }
/// impl Encoder<'_> {
///     sbe_rt::encoder_api!(encoded_length);
/// }
/// let mut buf = [0u8; 8];
/// let e = Encoder { tail: &mut buf[3..], total: 8 };
/// assert_eq!(e.encoded_length(), 3);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! encoder_api {
    (encoded_length) => {
        /// Bytes written so far, header included.
        #[inline]
        pub fn encoded_length(&self) -> usize {
            self.total - self.tail.len()
        }
    };
    (wrap_exact $lt:lifetime, $element:expr) => {
        /// Starts a message of exactly `length` bytes, its
        /// `exact_length`, in the first `length` bytes of `buf` (a
        /// claimed slot of a ring buffer, say), as [`wrap`](Self::wrap)
        /// does. A `buf` shorter than `length` is refused here, before
        /// anything is written, with `ErrorKind::BufferTooSmall` and
        /// `length` as the bytes needed; `finish` returns `length` once
        /// the sections measured are written.
        #[inline]
        pub fn wrap_exact(buf: &$lt mut [u8], length: usize) -> EncodeResult<Self> {
            use $crate::__private::At as _;
            Self::wrap($crate::__private::codec::exact(buf, length).at_element($element)?)
        }
    };
}

/// The error type of a generated schema's encoders, `EncodeError`, and
/// `EncodeResult`, in the generated file's module: an [`Error`](crate::Error)
/// whose `Display` names the schema element it happened at, looked up in
/// the file's `ELEMENTS` (as its `explain` does), so that
/// `e.to_string()` says ``..., in `Car.fuelFigures.usageDescription` ``
/// with no second call. The same word as the `Error` (`repr(transparent)`,
/// returned in the same registers): the lookup happens only when it is
/// displayed. It converts to and from `Error` (so `?` goes either way),
/// dereferences to it and compares equal to it.
///
/// ```
/// const ELEMENTS: &[&str] = &["Car", "Car.model"];
/// sbe_rt::encode_error!();
///
/// let e = EncodeError::from(sbe_rt::Error::buffer_too_small(9, 4).at(2));
/// assert_eq!(
///     e.to_string(),
///     "output buffer too small: 9 bytes needed from where the encoder writes, only 4 left, in `Car.model`"
/// );
/// assert_eq!(e, sbe_rt::Error::buffer_too_small(9, 4));
/// assert_eq!(e.error_kind(), sbe_rt::ErrorKind::BufferTooSmall);
/// let back: sbe_rt::Error = e.into();
/// assert_eq!(back.element().map(|n| n.get()), Some(2));
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! encode_error {
    () => {
        /// An error of this schema's encoders: an `sbe_rt::Error` whose
        /// `Display` names the schema element it happened at (the path in
        /// `ELEMENTS`, as `explain` shows it). It converts to and from
        /// `sbe_rt::Error` (`?` converts it), dereferences to it and
        /// compares equal to it.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(transparent)]
        pub struct EncodeError(pub $crate::Error);

        /// What this schema's encoders return.
        pub type EncodeResult<T> = ::core::result::Result<T, EncodeError>;

        impl ::core::convert::From<$crate::Error> for EncodeError {
            #[inline(always)]
            fn from(e: $crate::Error) -> Self {
                EncodeError(e)
            }
        }

        impl ::core::convert::From<$crate::RangeError> for EncodeError {
            #[inline]
            fn from(e: $crate::RangeError) -> Self {
                EncodeError(e.into())
            }
        }

        impl ::core::convert::From<EncodeError> for $crate::Error {
            #[inline(always)]
            fn from(e: EncodeError) -> Self {
                e.0
            }
        }

        impl ::core::ops::Deref for EncodeError {
            type Target = $crate::Error;
            fn deref(&self) -> &$crate::Error {
                &self.0
            }
        }

        impl ::core::cmp::PartialEq<$crate::Error> for EncodeError {
            fn eq(&self, other: &$crate::Error) -> bool {
                self.0 == *other
            }
        }

        impl ::core::cmp::PartialEq<EncodeError> for $crate::Error {
            fn eq(&self, other: &EncodeError) -> bool {
                *self == other.0
            }
        }

        impl ::core::fmt::Display for EncodeError {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Display::fmt(&$crate::Explained::new(self.0, ELEMENTS), f)
            }
        }

        impl ::core::fmt::Debug for EncodeError {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let explained = $crate::Explained::new(self.0, ELEMENTS);
                let mut t = f.debug_tuple("EncodeError");
                t.field(&self.0);
                if let ::core::option::Option::Some(path) = explained.element() {
                    t.field(&path);
                }
                t.finish()
            }
        }

        impl ::core::error::Error for EncodeError {}
    };
}
