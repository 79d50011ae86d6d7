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
        pub fn wrap_exact(buf: &$lt mut [u8], length: usize) -> $crate::Result<Self> {
            use $crate::__private::At as _;
            Self::wrap($crate::__private::codec::exact(buf, length).at_element($element)?)
        }
    };
}
