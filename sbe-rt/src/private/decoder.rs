//! The methods of a generated block decoder that are the same for every
//! one: generated code names the decoder's lifetime and, for a message's,
//! its header decoder (`::sbe_rt::decoder_api!(root 'a, HeaderDecoder);`).

/// Methods of the generated decoder whose impl it is called in: `root
/// $a, $header` gives a message decoder's `decode` (through the schema's
/// `read_header` and the decoder's `wrap_at`, `TEMPLATE_ID`) and
/// `header`; `lazy_length` a message decoder's `checked_length` that
/// finds its end in its section cache (`sec`, `sbe_step`), `fixed_length`
/// its `encoded_length` and `checked_length` where it knows its `end`;
/// `entry_length` and `var_entry_length` a group entry's
/// `encoded_length` (its `len`; from its `start` to its `end`);
/// `acting_version` what every block decoder has, its acting version
/// (the decoder's `version`).
///
/// ```
/// pub struct EntryDecoder {
///     version: u32,
/// }
/// impl EntryDecoder {
///     sbe_rt::decoder_api!(acting_version);
/// }
/// assert_eq!(EntryDecoder { version: 3 }.acting_version(), 3);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! decoder_api {
    (root $a:lifetime, $header:ident) => {
        /// Reads the message at the start of `buf`: header, template
        /// and schema ids and root block are checked here; groups are
        /// checked entry by entry as they are reached, var data when
        /// read (`checked_length` checks them all).
        #[inline]
        pub fn decode(buf: &$a [u8]) -> $crate::Result<Self> {
            let h = read_header(buf)?;
            $crate::__private::codec::check_template_id(h.template_id, Self::TEMPLATE_ID)?;
            Self::wrap_at(h.decoder, h.body, 0, h.block_length, h.version)
        }

        /// The message header.
        #[inline]
        pub fn header(&self) -> $header<$a> {
            self.header
        }
    };
    (lazy_length) => {
        /// Checks the groups and var data (`decode` checks the header
        /// and the root block only) and returns the bytes of the whole
        /// message: header, root block, groups and var data. Where
        /// it ends is found once (stepping over what no read has
        /// reached yet) and remembered.
        pub fn checked_length(&self) -> $crate::Result<usize> {
            $crate::__private::Ok(HEADER_LENGTH + self.sec.end(self.buf, self.version, Self::sbe_step)?)
        }
    };
    (fixed_length) => {
        /// Bytes of the whole message: header, root block, groups and var data.
        #[inline]
        pub fn encoded_length(&self) -> usize {
            HEADER_LENGTH + self.end
        }

        /// The bytes of the whole message (all checked by `decode`).
        #[inline]
        pub fn checked_length(&self) -> $crate::Result<usize> {
            $crate::__private::Ok(self.encoded_length())
        }
    };
    (entry_length) => {
        /// Bytes of the entry: its block.
        #[inline]
        pub fn encoded_length(&self) -> usize {
            self.len
        }
    };
    (var_entry_length) => {
        /// Bytes of the entry: block, nested groups and var data.
        #[inline]
        pub fn encoded_length(&self) -> usize {
            self.end - self.start
        }
    };
    (acting_version) => {
        /// The acting version: the schema version the sender used.
        #[inline]
        pub fn acting_version(&self) -> u32 {
            self.version
        }
    };
}
