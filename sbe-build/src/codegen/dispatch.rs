//! The top level of a generated file: schema constants, the message
//! header's reading and writing, `decode`, `message_length`, `Message` and
//! `Message::to_json`.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::accessors::MemberView;
use super::names::{self, Scope};
use super::types::members;
use super::values::{int_lit, Val};
use super::Ctx;
use crate::ir::{HeaderRole, TypeKind};

/// The message header's members, as its decoder and encoder name them,
/// with the role each plays.
struct HeaderMembers<'s>(Vec<(MemberView<'s>, Option<HeaderRole>)>);

impl<'s> HeaderMembers<'s> {
    /// `None` when the header is not a composite (it has no members).
    fn of(ctx: &Ctx<'s>) -> Option<Self> {
        let s = ctx.schema;
        let TypeKind::Composite(c) = &s.header_type.kind else {
            return None;
        };
        let roles = s.header_members().into_iter().map(|(_, role)| role);
        Some(HeaderMembers(
            members(ctx, c).into_iter().zip(roles).collect(),
        ))
    }

    /// The member playing `role`, if any.
    fn get(&self, role: HeaderRole) -> Option<&MemberView<'s>> {
        self.0
            .iter()
            .find_map(|(view, r)| (*r == Some(role)).then_some(view))
    }
}

/// `u64` of a header member read with accessor `name` from `h`.
fn header_read(val: &Val, name: &Ident) -> TokenStream {
    match val {
        Val::Prim { optional: true, .. } => quote!(h.#name().map_or(0, u64::from)),
        _ => quote!(u64::from(h.#name())),
    }
}

/// Schema constants, the header reader.
pub(crate) fn constants(ctx: &Ctx) -> TokenStream {
    let s = ctx.schema;
    let id = u64::from(s.id);
    let version = s.version;
    let header_length =
        super::values::ulit(crate::ir::encoded_length(&s.header_type).unwrap_or(0) as usize);
    let read_header = read_header_fn(ctx);
    let id_doc = format!(" The schema's `id` (package `{}`).", s.package);
    // The description is its own item: glued to the id's doc it read as
    // part of it (CME's is a date).
    let description = match &s.description {
        Some(d) => {
            let d = d.trim();
            quote! {
                /// The schema's `description`.
                pub const SCHEMA_DESCRIPTION: &str = #d;
            }
        }
        None => TokenStream::new(),
    };
    let elements = s.element_paths();
    // Bodies name `sbe_rt::__private` (and `Ok`, `Some`, …) through this
    // private alias: `::core::result::Result::Ok` is twelve tokens where
    // `__sbe::Ok` is four, each parsed and printed here and compiled
    // again by the schema's crate. Signatures keep the full paths.
    quote! {
        #[allow(unused_imports)]
        use ::sbe_rt::__private as __sbe;
        #[allow(unused_imports)]
        use ::sbe_rt::__private::At as _;

        #[doc = #id_doc]
        pub const SCHEMA_ID: u64 = #id;
        #description
        /// Version of the schema this code was generated from.
        pub const SCHEMA_VERSION: u32 = #version;
        /// Bytes of the message header.
        pub const HEADER_LENGTH: usize = #header_length;

        /// The paths of the schema's elements (`Message.group.field`), by
        /// the number an error made inside a message names
        /// (`sbe_rt::Error::element`): element `n` is `ELEMENTS[n - 1]`.
        pub const ELEMENTS: &[&str] = &[#(#elements),*];

        /// `e` with the path of the schema element it happened at, for
        /// display: its text, then ``, in `Message.group` ``. (An
        /// encoder's `EncodeError` displays so by itself.)
        pub fn explain(e: impl ::core::convert::Into<::sbe_rt::Error>) -> ::sbe_rt::Explained {
            ::sbe_rt::Explained::new(e.into(), ELEMENTS)
        }

        ::sbe_rt::encode_error!();

        #read_header
    }
}

/// `read_header`: the header's decoder and the values the message decoders
/// take from it, its schema id checked (a member absent reads as 0).
fn read_header_fn(ctx: &Ctx) -> TokenStream {
    let header = HeaderMembers::of(ctx);
    let member = |role| header.as_ref().and_then(|h| h.get(role));
    let read = |role| member(role).map_or(quote!(0u64), |m| header_read(&m.val, &m.name));
    let (block_length, template_id, schema_id, version) = (
        read(HeaderRole::BlockLength),
        read(HeaderRole::TemplateId),
        read(HeaderRole::SchemaId),
        read(HeaderRole::Version),
    );
    // A constant schemaId member is not on the wire: nothing to check.
    let schema_id_is_const =
        member(HeaderRole::SchemaId).is_some_and(|m| matches!(m.val, Val::Const { .. }));
    let check = if schema_id_is_const {
        TokenStream::new()
    } else {
        quote! {
            __sbe::codec::check_schema_id(#schema_id, SCHEMA_ID)?;
        }
    };
    let header_decoder = ctx.header_type("Decoder");
    let header_at = super::at(crate::ir::HEADER_ELEMENT);
    quote! {
        /// Reads and checks the message header: its decoder, the bytes
        /// after it, and its blockLength, templateId and version as the
        /// decoders take them.
        #[inline]
        fn read_header(buf: &[u8]) -> ::sbe_rt::Result<__sbe::Header<'_, #header_decoder<'_>>> {
            let h = #header_decoder::wrap(buf)#header_at?;
            #check
            __sbe::Ok(__sbe::Header {
                decoder: h,
                body: buf.get(HEADER_LENGTH..).unwrap_or_default(),
                block_length: __sbe::codec::to_usize(#block_length),
                template_id: #template_id,
                version: u32::try_from(#version).unwrap_or(u32::MAX),
            })
        }
    }
}

/// Statements writing the header with encoder `h`.
pub(crate) fn header_writes(ctx: &Ctx, block_length: u64, template_id: u64) -> TokenStream {
    let Some(header) = HeaderMembers::of(ctx) else {
        return TokenStream::new();
    };
    let s = ctx.schema;
    let mut out = TokenStream::new();
    for (role, value) in [
        (HeaderRole::BlockLength, block_length),
        (HeaderRole::TemplateId, template_id),
        (HeaderRole::SchemaId, u64::from(s.id)),
        (HeaderRole::Version, u64::from(s.version)),
    ] {
        let Some(MemberView { val, name, .. }) = header.get(role) else {
            continue;
        };
        // A constant member has no setter; the others are numbers.
        if let Val::Prim { prim, optional, .. } = val {
            let value = int_lit(*prim, i128::from(value));
            out.extend(if *optional {
                quote!(h.#name(__sbe::Some(#value));)
            } else {
                quote!(h.#name(#value);)
            });
        }
    }
    if out.is_empty() {
        out.extend(quote!(let _ = &mut h;));
    }
    out
}

/// The arms of the top-level `match`es, one per message.
#[derive(Default)]
struct MessageArms {
    /// `Message`'s variants.
    variants: TokenStream,
    /// `decode`'s, by template id.
    decode: TokenStream,
    /// `message_length`'s, by template id.
    end: TokenStream,
    /// `Message::to_json`'s.
    json: TokenStream,
    /// `Message::checked_length`'s.
    length: TokenStream,
    /// `Message::name`'s.
    name: TokenStream,
    /// `OwnedMessage`'s variants.
    owned_variants: TokenStream,
    /// `Message::to_owned`'s.
    to_owned: TokenStream,
    /// `OwnedMessage::encode`'s.
    encode: TokenStream,
    /// `OwnedMessage::encoded_length`'s.
    encoded_length: TokenStream,
    /// `OwnedMessage::name`'s.
    owned_name: TokenStream,
    /// `OwnedMessage`'s `Serialize` arms, and the schema names and the
    /// body reads of its `MessageBody` (serde), by variant.
    owned_ser: TokenStream,
    owned_names: Vec<String>,
    owned_body: TokenStream,
}

fn message_arms(ctx: &Ctx, decoders: &[(usize, Ident)]) -> MessageArms {
    let mut arms = MessageArms::default();
    // The variants have a scope of their own, apart from the file's types.
    let mut variant_scope = Scope::default();
    for (index, dec) in decoders {
        let Some(m) = ctx.schema.messages.get(*index) else {
            continue;
        };
        let variant = names::ident(&variant_scope.claim(&names::camel(&m.name)));
        let id = u64::from(m.id);
        let name = &m.name;
        let doc = format!(" Message `{name}` (template id {id}).");
        arms.variants.extend(quote! {
            #[doc = #doc]
            #variant(#dec<'a>),
        });
        arms.decode.extend(quote! {
            #id => #dec::wrap_at(h.decoder, h.body, 0, h.block_length, h.version)
                .and_then(|m| m.checked_length().map(|_| Message::#variant(m))),
        });
        arms.json.extend(quote! {
            Message::#variant(m) => {
                w.key("message").str(#name);
                w.key("header").object(&m.header());
                w.key("body").object(m);
            }
        });
        arms.length
            .extend(quote!(Message::#variant(m) => m.checked_length(),));
        arms.end.extend(quote! {
            #id => __sbe::Ok(HEADER_LENGTH + #dec::sbe_end(h.body, h.block_length, h.version)?),
        });
        arms.name.extend(quote!(Message::#variant(_) => #name,));
        let owned = super::owned::owned_of(dec);
        arms.owned_variants.extend(quote! {
            #[doc = #doc]
            #variant(#owned),
        });
        arms.to_owned
            .extend(quote!(Message::#variant(m) => m.to_owned().map(OwnedMessage::#variant),));
        arms.encode
            .extend(quote!(OwnedMessage::#variant(m) => m.encode(buf),));
        arms.encoded_length
            .extend(quote!(OwnedMessage::#variant(m) => m.encoded_length(),));
        arms.owned_name
            .extend(quote!(OwnedMessage::#variant(_) => #name,));
        arms.owned_ser.extend(
            quote!(OwnedMessage::#variant(m) => __sbe::serde_owned::message_ser(s, #name, m),),
        );
        let index = super::values::ulit(arms.owned_names.len());
        arms.owned_body
            .extend(quote!(#index => map.next_value().map(OwnedMessage::#variant),));
        arms.owned_names.push(name.clone());
    }
    arms
}

/// `Message::to_json`; `empty_arms`: the arm a schema of no messages
/// matches its uninhabited variant with.
fn to_json_fn(
    ctx: &Ctx,
    no_messages: bool,
    json_arms: &TokenStream,
    empty_arms: &TokenStream,
) -> TokenStream {
    if !ctx.opts.json {
        TokenStream::new()
    } else if no_messages {
        quote! {
            /// The message as JSON (this schema has no messages).
            pub fn to_json(&self) -> ::sbe_rt::__private::alloc::string::String {
                match self {
                    #empty_arms
                }
            }
        }
    } else {
        quote! {
            /// The message as JSON: `{"message": NAME, "header": {...}, "body": {...}}`.
            pub fn to_json(&self) -> ::sbe_rt::__private::alloc::string::String {
                let mut w = ::sbe_rt::JsonWriter::with_capacity(256);
                w.begin_object();
                match self {
                    #json_arms
                    #empty_arms
                }
                w.end_object();
                w.finish()
            }
        }
    }
}

/// `decode` and `message_length`: the header read, then a `match` on the
/// template id.
fn decode_fns(arms: &MessageArms, no_messages: bool) -> TokenStream {
    // A `match` on the template id, or with no messages just its error.
    let unknown = quote!(__sbe::Err(::sbe_rt::Error::unknown_template_id(
        h.template_id
    )));
    let by_template = |arms: &TokenStream| {
        if no_messages {
            unknown.clone()
        } else {
            quote!(match h.template_id {
                #arms
                _ => #unknown,
            })
        }
    };
    let (decode_match, end_match) = (by_template(&arms.decode), by_template(&arms.end));
    quote! {
        /// Reads the message at the start of `buf`: its header (the schema id
        /// must be this schema's), then the message its template id names,
        /// checked once, whole.
        #[allow(deprecated)]
        pub fn decode(buf: &[u8]) -> ::sbe_rt::Result<Message<'_>> {
            let h = read_header(buf)?;
            #decode_match
        }

        /// The length of the message at the start of `buf`, header
        /// included, checked as [`decode`] checks it but without decoding
        /// it: for splitting a stream into messages, as in
        /// `framer.next_frame(|b| message_length(b).map(Some))`
        /// (`sbe_framing::Framer`).
        /// `Err(Truncated)` when `buf` holds only part of the message.
        // Inlinable where the generated module is another crate's (a
        // framer's length function is a few compares per message).
        #[inline]
        #[allow(deprecated)]
        pub fn message_length(buf: &[u8]) -> ::sbe_rt::Result<usize> {
            let h = read_header(buf)?;
            #end_match
        }
    }
}

/// `decode`, `message_length`, `Message` and its methods.
pub(crate) fn dispatch(ctx: &Ctx, decoders: &[(usize, Ident)]) -> TokenStream {
    let arms = message_arms(ctx, decoders);
    let no_messages = decoders.is_empty();
    // With no messages, `Message` still needs its lifetime, and its
    // `match`es an arm for the variant that cannot be made.
    let (lifetime_use, empty_arms) = if no_messages {
        (
            quote! {
                /// No messages in this schema.
                #[doc(hidden)]
                _None(::core::marker::PhantomData<&'a ()>, ::core::convert::Infallible),
            },
            quote!(Message::_None(_, n) => match *n {},),
        )
    } else {
        Default::default()
    };
    let to_json = to_json_fn(ctx, no_messages, &arms.json, &empty_arms);
    let derives = if ctx.opts.debug {
        quote!(#[derive(Clone, Debug)])
    } else {
        quote!(#[derive(Clone)])
    };
    let decode_fns = decode_fns(&arms, no_messages);
    let owned = if ctx.opts.owned {
        let serde = super::owned_serde::on(ctx).then(|| owned_message_serde(&arms, no_messages));
        let owned = owned_message(&arms, no_messages);
        quote!(#owned #serde)
    } else {
        TokenStream::new()
    };
    let MessageArms {
        variants,
        length: length_arms,
        name: name_arms,
        ..
    } = &arms;
    quote! {
        /// A decoded message of this schema, by template id.
        #derives
        pub enum Message<'a> {
            #variants
            #lifetime_use
        }

        #decode_fns

        impl Message<'_> {
            /// Bytes of the whole message, header included, its groups and
            /// var data checked: always `Ok` for a message from
            /// [`decode`], which checked them all and remembered where the
            /// message ends; for a `Message` made of a message decoder's
            /// own `decode`, that decoder's `checked_length`.
            pub fn checked_length(&self) -> ::sbe_rt::Result<usize> {
                match self {
                    #length_arms
                    #empty_arms
                }
            }

            /// The message's name in the schema.
            pub fn name(&self) -> &'static str {
                match self {
                    #name_arms
                    #empty_arms
                }
            }

            #to_json
        }

        #owned
    }
}

/// `OwnedMessage`'s serde impls: `{"message": name, "body": {...}}`, read
/// and written by `sbe_rt`'s `message_ser` and `message_de` (a line of
/// `sbe decode` reads as it is: its `schema` and `header` are skipped).
fn owned_message_serde(arms: &MessageArms, no_messages: bool) -> TokenStream {
    let serde = quote!(__sbe::serde);
    let p = quote!(__sbe::serde_owned);
    let MessageArms {
        owned_ser,
        owned_names,
        owned_body,
        ..
    } = arms;
    let empty_ser =
        no_messages.then(|| quote!(OwnedMessage::_None(n) => { let _ = s; match *n {} }));
    let none = quote!(__sbe::Err(#serde::de::Error::custom("no such message")));
    let body = if no_messages {
        quote! {
            let _ = (index, map);
            #none
        }
    } else {
        quote! {
            match index {
                #owned_body
                _ => #none,
            }
        }
    };
    quote! {
        impl #serde::Serialize for OwnedMessage {
            fn serialize<S: #serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    #owned_ser
                    #empty_ser
                }
            }
        }

        impl #p::MessageBody for OwnedMessage {
            const NAMES: &'static [&'static str] = &[#(#owned_names),*];
            fn body<'de, A: #serde::de::MapAccess<'de>>(index: usize, map: &mut A) -> ::core::result::Result<Self, A::Error> {
                #body
            }
        }

        impl<'de> #serde::Deserialize<'de> for OwnedMessage {
            fn deserialize<D: #serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                #p::message_de(d)
            }
        }
    }
}

/// `OwnedMessage`, the owned twin of `Message`, with `Message::to_owned`.
fn owned_message(arms: &MessageArms, no_messages: bool) -> TokenStream {
    let (empty_variant, empty_arm, owned_empty_arm) = if no_messages {
        (
            quote! {
                /// No messages in this schema.
                #[doc(hidden)]
                _None(::core::convert::Infallible),
            },
            quote!(Message::_None(_, n) => match *n {},),
            quote!(OwnedMessage::_None(n) => match *n {},),
        )
    } else {
        Default::default()
    };
    let unused_buf = no_messages.then(|| quote!(let _ = buf;));
    let MessageArms {
        owned_variants,
        to_owned,
        encode,
        encoded_length,
        owned_name,
        ..
    } = arms;
    quote! {
        impl Message<'_> {
            /// The message's values, owned ([`OwnedMessage`]).
            pub fn to_owned(&self) -> ::sbe_rt::Result<OwnedMessage> {
                match self {
                    #to_owned
                    #empty_arm
                }
            }
        }

        /// A message of this schema, owned: its values, by template id.
        /// [`OwnedMessage::decode`] reads one, [`OwnedMessage::encode`]
        /// writes it as its encoder does.
        // The messages by value, as `Message` holds its decoders: boxing
        // them would cost an allocation more per message.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq)]
        pub enum OwnedMessage {
            #owned_variants
            #empty_variant
        }

        impl OwnedMessage {
            /// Reads the message at the start of `buf` ([`decode`]) and
            /// takes its values.
            pub fn decode(buf: &[u8]) -> ::sbe_rt::Result<Self> {
                decode(buf)?.to_owned()
            }

            /// Writes the message at the start of `buf`, header included;
            /// returns its length.
            pub fn encode(&self, buf: &mut [u8]) -> EncodeResult<usize> {
                #unused_buf
                match self {
                    #encode
                    #owned_empty_arm
                }
            }

            /// Bytes [`encode`](Self::encode) writes, header included.
            pub fn encoded_length(&self) -> usize {
                match self {
                    #encoded_length
                    #owned_empty_arm
                }
            }

            /// The message's name in the schema.
            pub fn name(&self) -> &'static str {
                match self {
                    #owned_name
                    #owned_empty_arm
                }
            }
        }
    }
}
