//! The top level of a generated file: schema constants, the message
//! header, `decode`, `Message` and `Message::to_json`.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::accessors::MemberView;
use super::types::members;
use super::values::{int_lit, Val};
use super::Ctx;
use crate::ir::{HeaderRole, TypeKind};

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
    let hlen = crate::ir::encoded_length(&s.header).unwrap_or(0) as usize;
    let hdec = ctx.header_type("Decoder");
    let mut reads = Vec::new();
    let mut schema_id_on_wire = true;
    let roles = s.header_members();
    let ms = match &s.header.kind {
        TypeKind::Composite(c) => members(ctx, c),
        _ => Vec::new(),
    };
    for want in [
        HeaderRole::BlockLength,
        HeaderRole::TemplateId,
        HeaderRole::SchemaId,
        HeaderRole::Version,
    ] {
        let found = ms
            .iter()
            .zip(&roles)
            .find_map(|(m, (_, role))| (*role == Some(want)).then_some(m));
        match found {
            Some(MemberView { val, name, .. }) => {
                if want == HeaderRole::SchemaId && matches!(val, Val::Const { .. }) {
                    schema_id_on_wire = false;
                }
                reads.push(header_read(val, name))
            }
            None => reads.push(quote!(0u64)),
        }
    }
    let (rb, rt, rs, rv) = (
        reads.first().cloned().unwrap_or_default(),
        reads.get(1).cloned().unwrap_or_default(),
        reads.get(2).cloned().unwrap_or_default(),
        reads.get(3).cloned().unwrap_or_default(),
    );
    // A constant schemaId member is not on the wire: nothing to check.
    let check = if schema_id_on_wire {
        quote! {
            ::sbe_rt::codec::check_schema_id(#rs, SCHEMA_ID)?;
        }
    } else {
        TokenStream::new()
    };
    let sdoc = format!(" The schema's `id` (package `{}`).", s.package);
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
    quote! {
        #[doc = #sdoc]
        pub const SCHEMA_ID: u64 = #id;
        #description
        /// Version of the schema this code was generated from.
        pub const SCHEMA_VERSION: u32 = #version;
        /// Bytes of the message header.
        pub const HEADER_LENGTH: usize = #hlen;

        /// Reads and checks the message header: (header, the bytes after
        /// it, blockLength, templateId, version), the block length and
        /// version as the decoders take them.
        #[inline]
        fn read_header(buf: &[u8]) -> ::core::result::Result<(#hdec<'_>, &[u8], usize, u64, u32), ::sbe_rt::Error> {
            let h = #hdec::wrap(buf)?;
            #check
            let body = buf.get(HEADER_LENGTH..).unwrap_or_default();
            ::core::result::Result::Ok((h, body, ::sbe_rt::codec::to_usize(#rb), #rt, u32::try_from(#rv).unwrap_or(u32::MAX)))
        }
    }
}

/// Statements writing the header with encoder `h`.
pub(crate) fn header_writes(ctx: &Ctx, block_length: u64, template_id: u64) -> TokenStream {
    let s = ctx.schema;
    let TypeKind::Composite(c) = &s.header.kind else {
        return TokenStream::new();
    };
    let ms = members(ctx, c);
    let roles = s.header_members();
    let mut out = TokenStream::new();
    for (want, value) in [
        (HeaderRole::BlockLength, block_length),
        (HeaderRole::TemplateId, template_id),
        (HeaderRole::SchemaId, u64::from(s.id)),
        (HeaderRole::Version, u64::from(s.version)),
    ] {
        let found = ms
            .iter()
            .zip(&roles)
            .find_map(|(m, (_, role))| (*role == Some(want)).then_some(m));
        let Some(MemberView { val, name, .. }) = found else {
            continue;
        };
        match val {
            Val::Prim {
                prim,
                optional: false,
                ..
            } => {
                let l = int_lit(*prim, i128::from(value));
                out.extend(quote!(h.#name(#l);));
            }
            Val::Prim {
                prim,
                optional: true,
                ..
            } => {
                let l = int_lit(*prim, i128::from(value));
                out.extend(quote!(h.#name(::core::option::Option::Some(#l));));
            }
            _ => {}
        }
    }
    if out.is_empty() {
        out.extend(quote!(let _ = &mut h;));
    }
    out
}

/// `decode`, `Message` and `to_json`.
pub(crate) fn dispatch(ctx: &Ctx, decoders: &[(usize, Ident)]) -> TokenStream {
    let s = ctx.schema;
    let mut variants = TokenStream::new();
    let mut arms = TokenStream::new();
    let mut json_arms = TokenStream::new();
    let mut len_arms = TokenStream::new();
    let mut end_arms = TokenStream::new();
    let mut name_arms = TokenStream::new();
    let mut vscope = super::names::Scope::default();
    for (i, dec) in decoders {
        let Some(m) = s.messages.get(*i) else {
            continue;
        };
        let v = super::names::ident(&vscope.claim(&super::names::camel(&m.name)));
        let id = u64::from(m.id);
        let name = &m.name;
        let doc = format!(" Message `{name}` (template id {id}).");
        variants.extend(quote! {
            #[doc = #doc]
            #v(#dec<'a>),
        });
        arms.extend(quote! {
            #id => #dec::wrap_at(header, body, 0, block_length, version)
                .and_then(|m| m.checked_length().map(|_| Message::#v(m))),
        });
        json_arms.extend(quote! {
            Message::#v(m) => {
                w.key("message").str(#name);
                w.key("header");
                m.header().write_json(&mut w);
                w.key("body");
                m.write_json(&mut w);
            }
        });
        len_arms.extend(quote!(Message::#v(m) => m.encoded_length(),));
        end_arms.extend(quote! {
            #id => ::core::result::Result::Ok(HEADER_LENGTH + #dec::sbe_end(body, block_length, version)?),
        });
        name_arms.extend(quote!(Message::#v(_) => #name,));
    }
    let lifetime_use = if decoders.is_empty() {
        quote! {
            /// No messages in this schema.
            #[doc(hidden)]
            _None(::core::marker::PhantomData<&'a ()>, ::core::convert::Infallible),
        }
    } else {
        TokenStream::new()
    };
    let empty_arms = if decoders.is_empty() {
        quote!(Message::_None(_, n) => match *n {},)
    } else {
        TokenStream::new()
    };
    let to_json = if ctx.opts.json && decoders.is_empty() {
        quote! {
            /// The message as JSON (this schema has no messages).
            pub fn to_json(&self) -> ::sbe_rt::codec::String {
                match self {
                    #empty_arms
                }
            }
        }
    } else if ctx.opts.json {
        quote! {
            /// The message as JSON: `{"message": NAME, "header": {...}, "body": {...}}`.
            pub fn to_json(&self) -> ::sbe_rt::codec::String {
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
    } else {
        TokenStream::new()
    };
    let derive_debug = if ctx.opts.debug {
        quote!(#[derive(Debug)])
    } else {
        TokenStream::new()
    };
    let (unused, end_unused) = if decoders.is_empty() {
        (
            quote!(let _ = (header, body, block_length, version);),
            quote!(let _ = (body, block_length, version);),
        )
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    // A `match` on the template id, or with no messages just its error.
    let unknown = quote!(::core::result::Result::Err(
        ::sbe_rt::Error::UnknownTemplateId { template_id }
    ));
    let by_template = |arms: &TokenStream| {
        if decoders.is_empty() {
            unknown.clone()
        } else {
            quote!(match template_id {
                #arms
                _ => #unknown,
            })
        }
    };
    let (by_template, end_by_template) = (by_template(&arms), by_template(&end_arms));
    quote! {
        /// A decoded message of this schema, by template id.
        #[derive(Clone)]
        #derive_debug
        pub enum Message<'a> {
            #variants
            #lifetime_use
        }

        /// Reads the message at the start of `buf`: its header (the schema id
        /// must be this schema's), then the message its template id names,
        /// checked once, whole.
        #[allow(deprecated)]
        pub fn decode(buf: &[u8]) -> ::core::result::Result<Message<'_>, ::sbe_rt::Error> {
            let (header, body, block_length, template_id, version) = read_header(buf)?;
            #unused
            #by_template
        }

        /// The length of the message at the start of `buf`, header
        /// included, checked as [`decode`] checks it but without decoding
        /// it: for splitting a stream into messages, as in
        /// `framer.next_frame(|b| message_length(b).map(Some))`
        /// (`sbe_rt::Framer`).
        /// `Err(Truncated)` when `buf` holds only part of the message.
        #[allow(deprecated)]
        pub fn message_length(buf: &[u8]) -> ::core::result::Result<usize, ::sbe_rt::Error> {
            let (_, body, block_length, template_id, version) = read_header(buf)?;
            #end_unused
            #end_by_template
        }

        impl Message<'_> {
            /// Bytes of the whole message, header included.
            pub fn encoded_length(&self) -> usize {
                match self {
                    #len_arms
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
    }
}
