//! The accessor and setter of one value at a fixed offset, in the shapes
//! nearly every field and composite member takes: generated code names
//! the shape, the method, its type and where the value is
//! (`::sbe_rt::getter!(read #[doc = "..."] order_qty: u32 = get_u32_le(base, 8));`),
//! and gives its doc and other attributes first. A method written out
//! was some forty tokens for the generator to parse and print, and
//! thousands of them in a venue's schema; the call is a dozen.

/// A decoder's `#[inline]` accessor of one value read from its array
/// `self.$buf` at offset `$at`, with the attributes given (its docs);
/// `'a` is the decoder's lifetime, the bytes' it reads:
///
/// * `read`: the value as `$get` reads it (`::sbe_rt::get_u32_le`);
/// * `opt`: `None` where it is `$null`, the type's null value;
/// * `enum` / `opt_enum`: an enum, through its `from_raw` (`None` where
///   the raw value is `$null`);
/// * `set`: a set, the newtype over the raw value;
/// * `chars`: the bytes `$at..$end`, a char array;
/// * `comp`: the decoder `$dec` of a composite, over the bytes from `$at`;
/// * `str`: the `_str` twin of char-array accessor `$bytes`, its bytes up
///   to the first NUL as UTF-8, an error naming schema element `$element`
///   (none without it).
///
/// ```
/// pub struct Decoder<'a> {
///     base: &'a [u8; 4],
/// }
/// impl<'a> Decoder<'a> {
///     sbe_rt::getter!(read
///         /// The first byte.
///         first: u8 = get_u8_le(base, 0));
///     sbe_rt::getter!(opt second: u8 = get_u8_le(base, 1), u8::MAX);
///     sbe_rt::getter!(chars name = base[2..4]);
///     sbe_rt::getter!(str name_str = name);
/// }
/// let d = Decoder { base: &[7, 0xff, b'a', 0] };
/// assert_eq!((d.first(), d.second(), d.name_str()), (7, None, Ok("a")));
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! getter {
    (read $(#[$m:meta])* $name:ident: $t:ty = $get:ident($buf:ident, $at:literal)) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> $t {
            $crate::$get(self.$buf, $at)
        }
    };
    (opt $(#[$m:meta])* $name:ident: $t:ty = $get:ident($buf:ident, $at:literal), $null:expr) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> ::core::option::Option<$t> {
            $crate::non_null($crate::$get(self.$buf, $at), $null)
        }
    };
    (enum $(#[$m:meta])* $name:ident: $t:ident = $get:ident($buf:ident, $at:literal)) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> $t {
            $t::from_raw($crate::$get(self.$buf, $at))
        }
    };
    (opt_enum $(#[$m:meta])* $name:ident: $t:ident = $get:ident($buf:ident, $at:literal), $null:expr) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> ::core::option::Option<$t> {
            $crate::non_null($crate::$get(self.$buf, $at), $null).map($t::from_raw)
        }
    };
    (set $(#[$m:meta])* $name:ident: $t:ident = $get:ident($buf:ident, $at:literal)) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> $t {
            $t($crate::$get(self.$buf, $at))
        }
    };
    (chars $(#[$m:meta])* $name:ident = $buf:ident[$at:literal..$end:literal]) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> &'a [u8] {
            self.$buf.get($at..$end).unwrap_or_default()
        }
    };
    (comp $(#[$m:meta])* $name:ident: $dec:ident = $buf:ident[$at:literal..]) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> $dec<'a> {
            $dec {
                buf: $crate::__private::codec::array_or_zeros(self.$buf, $at),
            }
        }
    };
    (str $(#[$m:meta])* $name:ident = $bytes:ident $(, $element:literal)?) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&self) -> $crate::Result<&'a str> {
            let text = $crate::text::as_str($crate::text::trim_nul(self.$bytes()));
            $(let text = $crate::__private::At::at_element(text, $element);)?
            text
        }
    };
}

/// An encoder's `#[inline]` setter of one value written to its array
/// `self.buf` at offset `$at` by `$put` (`::sbe_rt::put_u32_le`), with
/// the attributes given (its docs), returning the encoder:
///
/// * `put`: the value as it is;
/// * `opt`: an `Option`, `None` written as `$null`;
/// * `enum` / `opt_enum`: an enum, its `raw` value (`None` as `$null`);
/// * `set`: a set, its raw value;
/// * `chars`: a char array of `$len` bytes, NUL-padded, too long an
///   error naming schema element `$element` (none without it), an
///   `EncodeResult` of the generated module ([`encode_error!`](crate::encode_error));
/// * `comp`: the encoder `$enc` of a composite, over the bytes from `$at`.
///
/// ```
/// const ELEMENTS: &[&str] = &[];
/// sbe_rt::encode_error!();
/// pub struct Encoder<'a> {
///     buf: &'a mut [u8; 4],
/// }
/// pub struct Two<'a> {
///     buf: &'a mut [u8],
/// }
/// impl Encoder<'_> {
///     sbe_rt::setter!(put
///         /// The first byte.
///         first: u8 = put_u8_le(0));
///     sbe_rt::setter!(opt second: u8 = put_u8_le(1), u8::MAX);
///     sbe_rt::setter!(chars name = (2, 2));
///     sbe_rt::setter!(comp tail: Two = 2);
/// }
/// let mut buf = [0; 4];
/// let mut e = Encoder { buf: &mut buf };
/// e.first(7).second(None).name("ab").unwrap();
/// assert_eq!(e.tail().buf.len(), 2);
/// assert_eq!(buf, [7, 0xff, b'a', b'b']);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! setter {
    (put $(#[$m:meta])* $name:ident: $t:ty = $put:ident($at:literal)) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&mut self, v: $t) -> &mut Self {
            $crate::$put(self.buf, $at, v);
            self
        }
    };
    (opt $(#[$m:meta])* $name:ident: $t:ty = $put:ident($at:literal), $null:expr) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&mut self, v: ::core::option::Option<$t>) -> &mut Self {
            $crate::$put(self.buf, $at, v.unwrap_or($null));
            self
        }
    };
    (enum $(#[$m:meta])* $name:ident: $t:ident = $put:ident($at:literal)) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&mut self, v: $t) -> &mut Self {
            $crate::$put(self.buf, $at, v.raw());
            self
        }
    };
    (opt_enum $(#[$m:meta])* $name:ident: $t:ident = $put:ident($at:literal), $null:expr) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&mut self, v: ::core::option::Option<$t>) -> &mut Self {
            $crate::$put(self.buf, $at, v.map_or($null, $t::raw));
            self
        }
    };
    (set $(#[$m:meta])* $name:ident: $t:ident = $put:ident($at:literal)) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&mut self, v: $t) -> &mut Self {
            $crate::$put(self.buf, $at, v.0);
            self
        }
    };
    (chars $(#[$m:meta])* $name:ident = ($at:literal, $len:literal) $(, $element:literal)?) => {
        $(#[$m])*
        /// Fails when `v` is longer than the array; a shorter value is padded with NUL.
        #[inline]
        pub fn $name(
            &mut self,
            v: impl ::core::convert::AsRef<[u8]>,
        ) -> EncodeResult<&mut Self> {
            let put = $crate::text::put_char_array(self.buf, $at, $len, v.as_ref());
            $(let put = $crate::__private::At::at_element(put, $element);)?
            put?;
            $crate::__private::Ok(self)
        }
    };
    (comp $(#[$m:meta])* $name:ident: $enc:ident = $at:literal) => {
        $(#[$m])*
        #[inline]
        pub fn $name(&mut self) -> $enc<'_> {
            $enc {
                buf: self.buf.get_mut($at..).unwrap_or_default(),
            }
        }
    };
}
