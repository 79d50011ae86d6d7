//! Encoders: a message's (its header and root block written at `wrap`)
//! and a group's (its dimension written when started, an entry per
//! `next_entry`), with their setters and the writers of groups and var
//! data. Those keep the sections in schema order: a section skipped is
//! written empty, going back is `Err(WrongOrder)`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::blocks::{Accessor, GroupIdents, NamedBlock};
use super::typed;
use super::values::{plus, typed_lit, uint_put, ulit, Val};
use super::{deprecated, docs, moved, Ctx};
use crate::ir::{Group, Message};

/// The encoder of message `m`, whose root block is `b`.
pub(super) fn message_encoder(
    ctx: &Ctx,
    b: &NamedBlock,
    (ident, decoder): (&Ident, &Ident),
    m: &Message,
    groups: &[GroupIdents],
) -> TokenStream {
    let sections = ulit(b.sections());
    let block_length = ulit(b.block_len());
    let items = encoder_items(ctx, b, groups, Tail::Root);
    let (step_field, step_init, finish_body) = if b.sections() > 0 {
        (
            quote!(step: usize,),
            quote!(step: 0,),
            quote!(self.advance(#sections)?;),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    let doc = format!(
        " Encoder of message `{}`: header and root block first, then groups and var data in schema order. \
         The fields' descriptions are on [`{decoder}`].",
        b.name
    );
    // The block is kept only where a setter writes to it.
    let (buf_field, buf_init) = if b.has_setters() {
        (
            quote!(buf: &'a mut [u8; #block_length],),
            quote!(buf: block,),
        )
    } else {
        (quote!(), quote!())
    };
    let wrap_fn = message_wrap_fn(ctx, b, m, buf_init, step_init);
    let reserves = reserve_consts(ctx, b, Tail::Root);
    let length_fn = length_fn(b, Tail::Root);
    let element = proc_macro2::Literal::u16_unsuffixed(b.element);
    let (items, wrap_fn, reserves) = (moved(items), moved(wrap_fn), moved(reserves));
    let length_fn = moved(length_fn);
    // `finish` takes `&mut self`, not `self`: moving the encoder into it
    // made the compiler copy it through memory with wide loads right after
    // a setter's narrow stores, a store-forwarding stall on every message
    // (see sbe-bench/HISTORY.md).
    quote! {
        #[doc = #doc]
        pub struct #ident<'a> {
            #buf_field
            tail: &'a mut [u8],
            total: usize,
            #step_field
        }

        #[allow(deprecated)]
        impl<'a> #ident<'a> {
            #reserves

            #wrap_fn

            ::sbe_rt::encoder_api!(wrap_exact 'a, #element);

            #length_fn

            ::sbe_rt::encoder_api!(encoded_length);

            /// Writes the groups and var data not written yet, empty, and
            /// returns the message's length.
            #[inline(always)]
            pub fn finish(&mut self) -> ::sbe_rt::Result<usize> {
                #finish_body
                __sbe::Ok(self.encoded_length())
            }

            #items
        }
    }
}

/// The statements that make block `block` (a `&mut [u8; N]` of `b`'s
/// block) hold no field set (`Block::unset_bytes`, the IR's): zeros, then
/// the nulls' bytes, a run of non-zero bytes at a time, in stores of 8, 4,
/// 2 and 1 bytes (`zero`: whether to zero the block first; `next_entry`'s
/// comes zeroed). Copying the whole block from a constant cost more
/// (loads and stores of every byte, where zeroing stores one register):
/// these stores of constants are one instruction each, and a block without
/// nulls is the zeroing it was.
fn unset_block(ctx: &Ctx, b: &NamedBlock, block: &TokenStream, zero: bool) -> TokenStream {
    let block_length = ulit(b.block_len());
    let mut out = if zero {
        quote!(*#block = [0; #block_length];)
    } else {
        TokenStream::new()
    };
    for (at, width, value) in b.block.unset_stores(ctx.byte_order()) {
        let (put, lit) = match width {
            8 => (
                quote!(put_u64_le),
                proc_macro2::Literal::u64_suffixed(value),
            ),
            4 => (
                quote!(put_u32_le),
                proc_macro2::Literal::u32_suffixed(value as u32),
            ),
            2 => (
                quote!(put_u16_le),
                proc_macro2::Literal::u16_suffixed(value as u16),
            ),
            _ => (
                quote!(put_u8_le),
                proc_macro2::Literal::u8_suffixed(value as u8),
            ),
        };
        let at = ulit(at);
        out.extend(quote!(::sbe_rt::#put(#block, #at, #lit);));
    }
    out
}

/// `wrap` of a message encoder: checks the buffer holds the message with
/// its sections empty, writes the header and the root block unset.
/// `buf_init`, `step_init`: the encoder's fields beside the tail.
fn message_wrap_fn(
    ctx: &Ctx,
    b: &NamedBlock,
    m: &Message,
    buf_init: TokenStream,
    step_init: TokenStream,
) -> TokenStream {
    let header_encoder = ctx.header_type("Encoder");
    let header_writes = super::dispatch::header_writes(ctx, b.block_len() as u64, u64::from(m.id));
    let dep = deprecated(b.deprecated);
    let need = plus(quote!(HEADER_LENGTH), b.block_len());
    let block_length = ulit(b.block_len());
    let need = if b.sections() > 0 {
        quote!(#need + Self::SECTIONS_RESERVE)
    } else {
        need
    };
    let unset = unset_block(ctx, b, &quote!(block), true);
    quote! {
        /// Starts a message at the start of `buf`: writes the header and
        /// the root block with no field set (an optional field holds its
        /// null, any other field zeros). Fails when `buf` cannot hold the
        /// message with its groups and var data empty.
        #dep
        pub fn wrap(buf: &'a mut [u8]) -> ::sbe_rt::Result<Self> {
            let total = buf.len();
            __sbe::codec::check_room(buf, #need)?;
            let (hdr, rest) = __sbe::codec::split_array_mut::<HEADER_LENGTH>(buf)?;
            let (block, tail) = __sbe::codec::split_array_mut::<#block_length>(rest)?;
            *hdr = [0; HEADER_LENGTH];
            #unset
            let mut h = #header_encoder { buf: hdr };
            #header_writes
            __sbe::Ok(Self { #buf_init tail, total, #step_init })
        }
    }
}

/// The encoder of group `g`, whose entry block is `b`.
pub(super) fn group_encoder(
    ctx: &Ctx,
    g: &Group,
    b: &NamedBlock,
    idents: &GroupIdents,
    nested: &[GroupIdents],
) -> TokenStream {
    let enc = &idents.enc;
    let sections = ulit(b.sections());
    let dim_len = ulit(g.dimension(ctx.byte_order()).len);
    let items = encoder_items(ctx, b, nested, Tail::Group);
    // The entry's block is kept only where a setter writes to it.
    let (buf_field, buf_init, buf_set) = if b.has_setters() {
        (
            quote!(buf: &'a mut [u8],),
            quote!(buf: &mut [],),
            quote!(self.buf =),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    // An entry's sections not written are written empty before the next
    // entry, and after the last one when the encoder is dropped; the count
    // is written then too: written at every `next_entry`, it was a store
    // more per entry than a hand-written encoder makes. The encoder borrows
    // its message's, so the message cannot be written further before the
    // drop.
    let (step_field, step_init, finish_sections) = if b.sections() > 0 {
        (
            quote!(step: usize,),
            quote!(step: #sections,),
            quote!(let _ = self.advance(#sections);),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    let put_count = put_count(ctx, g);
    let drop_impl = if put_count.is_empty() && finish_sections.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            impl ::core::ops::Drop for #enc<'_, '_> {
                #[inline(always)]
                fn drop(&mut self) {
                    #finish_sections
                    #put_count
                }
            }
        }
    };
    let new_fn = group_new_fn(ctx, g, b, buf_init, step_init);
    let each_entry_fn = each_entry_fn(ctx, b);
    let next_entry_fn = next_entry_fn(ctx, b, buf_set);
    let reserves = reserve_consts(ctx, b, Tail::Group);
    let length_fn = moved(if b.sections() > 0 {
        length_fn(b, Tail::Group)
    } else {
        TokenStream::new()
    });
    let doc = format!(
        " Encoder of group `{}`: call `next_entry()` before writing each entry; \
         the count of entries written is written when the encoder is dropped. \
         The fields' descriptions are on [`{}`].",
        g.name, idents.entry
    );
    let (items, reserves, new_fn) = (moved(items), moved(reserves), moved(new_fn));
    let (next_entry_fn, drop_impl) = (moved(next_entry_fn), moved(drop_impl));
    quote! {
        #[doc = #doc]
        pub struct #enc<'p, 'a> {
            tail: &'p mut &'a mut [u8],
            dim: &'a mut [u8; #dim_len],
            #buf_field
            count: usize,
            written: usize,
            reserve: usize,
            #step_field
        }

        #[allow(deprecated)]
        impl<'p, 'a> #enc<'p, 'a> {
            #reserves

            #new_fn

            #length_fn

            #next_entry_fn

            #each_entry_fn

            #items
        }

        #drop_impl
    }
}

/// `new` of a group encoder: checks the count and writes the dimension
/// (its count is written when the encoder is dropped). `buf_init`,
/// `step_init`: the encoder's fields beside the dimension.
fn group_new_fn(
    ctx: &Ctx,
    g: &Group,
    b: &NamedBlock,
    buf_init: TokenStream,
    step_init: TokenStream,
) -> TokenStream {
    let dim = g.dimension(ctx.byte_order());
    let dim_len = ulit(dim.len);
    let max_count = dim.max_count;
    // A constant block length is not on the wire.
    let put_block_length = match uint_put(dim.block_length) {
        Some((put, offset, ty)) => {
            let block_length = typed_lit(u64::from(b.block.block_length), &ty);
            quote!(#put(dim, #offset, #block_length);)
        }
        None => TokenStream::new(),
    };
    let dim_need = plus(quote!(reserve), dim.len);
    quote! {
        #[inline]
        fn new(tail: &'p mut &'a mut [u8], count: usize, reserve: usize) -> ::sbe_rt::Result<Self> {
            __sbe::codec::check_count(count, #max_count)?;
            let dim = __sbe::codec::take_zeroed::<#dim_len>(tail, #dim_need)?;
            #put_block_length
            __sbe::Ok(Self { tail, dim, #buf_init count, written: 0, reserve, #step_init })
        }
    }
}

/// The dimension's count written as the entries written (`self.written`),
/// when the count is on the wire.
fn put_count(ctx: &Ctx, g: &Group) -> TokenStream {
    match uint_put(g.dimension(ctx.byte_order()).count) {
        Some((put, offset, count_type)) => {
            quote!(#put(self.dim, #offset, self.written as #count_type);)
        }
        None => TokenStream::new(),
    }
}

/// `next_entry` of a group encoder: writes the previous entry's sections
/// not written yet, takes a block with no field set (see `unset_block`)
/// and counts it. `buf_set`: keeps the block for the setters
/// (`self.buf =`), or empty.
fn next_entry_fn(ctx: &Ctx, b: &NamedBlock, buf_set: TokenStream) -> TokenStream {
    let sections = ulit(b.sections());
    let need = plus(quote!(self.reserve), b.block_len());
    let block_length = ulit(b.block_len());
    let need = if b.sections() > 0 {
        quote!(#need + Self::SECTIONS_RESERVE)
    } else {
        need
    };
    let (advance_all, step_reset) = if b.sections() > 0 {
        (quote!(self.advance(#sections)?;), quote!(self.step = 0;))
    } else {
        (quote!(), quote!())
    };
    let take = quote!(__sbe::codec::next_entry::<#block_length>(self.tail, &mut self.written, self.count, #need)?);
    let take = if !b.block.unset_stores(ctx.byte_order()).is_empty() {
        // `next_entry` zeroes the block; the nulls follow.
        let unset = unset_block(ctx, b, &quote!(block), false);
        quote!({ let block = #take; #unset block })
    } else {
        take
    };
    quote! {
        /// Starts the next entry, no field set (an optional field holds
        /// its null, any other field zeros); its fields, nested groups and
        /// var data follow. Fails when `count` entries are written already
        /// or the buffer is too small.
        #[inline]
        pub fn next_entry(&mut self) -> ::sbe_rt::Result<&mut Self> {
            #advance_all
            #buf_set #take;
            #step_reset
            __sbe::Ok(self)
        }
    }
}

/// `sbe_each` of a group encoder whose entries are of one size (a block
/// of fields, no nested group or var data), for the owned messages
/// (`sbe_rt::owned_each_entry!`).
fn each_entry_fn(ctx: &Ctx, b: &NamedBlock) -> TokenStream {
    // `entries_of_one_size` implies setters, so the encoder keeps `buf`.
    if !ctx.opts.owned || !super::blocks::entries_of_one_size(b.block) {
        return TokenStream::new();
    }
    let block_length = ulit(b.block_len());
    quote!(::sbe_rt::owned_each_entry!(#block_length);)
}

/// Which encoder the section writers are in: where its tail (the buffer
/// after what is written) is, and what it must leave room for.
#[derive(Clone, Copy, PartialEq)]
enum Tail {
    /// A message encoder: owns the tail.
    Root,
    /// A group encoder: borrows its message's tail, and leaves room for
    /// the sections after the group (`self.reserve`).
    Group,
}

impl Tail {
    /// The tail as a `&mut [u8]` to write to.
    fn reference(self) -> TokenStream {
        match self {
            Tail::Root => quote!(&mut self.tail),
            Tail::Group => quote!(&mut *self.tail),
        }
    }

    /// The tail as a place, to take it and put it back.
    fn place(self) -> TokenStream {
        match self {
            Tail::Root => quote!(self.tail),
            Tail::Group => quote!(*self.tail),
        }
    }

    /// The bytes to leave after a section: those of the sections after
    /// it, written empty (the constant `after`), and in a group those
    /// after the group.
    fn reserve(self, after: &Ident) -> TokenStream {
        match self {
            Tail::Root => quote!(Self::#after),
            Tail::Group => quote!(self.reserve + Self::#after),
        }
    }
}

/// Setters and section writers shared by the root and group encoders.
fn encoder_items(ctx: &Ctx, b: &NamedBlock, groups: &[GroupIdents], tail: Tail) -> TokenStream {
    let mut out = field_setters(ctx, b);
    out.extend(group_starters(b, groups, tail));
    out.extend(data_writers(ctx, b, tail));
    if b.sections() > 0 {
        out.extend(advance_fns(ctx, b, tail));
    }
    out
}

/// A setter per field on the wire (constants have none).
fn field_setters(ctx: &Ctx, b: &NamedBlock) -> TokenStream {
    let mut out = TokenStream::new();
    for (f, Accessor { name, value, .. }) in b.fields.iter().zip(&b.names.fields) {
        let val = Val::of(ctx, &f.type_name, &f.ty, f.presence, f.const_value.as_ref());
        // The description is on the decoder's accessor (linked from the
        // encoder's own doc): written twice it was a tenth of a venue's file.
        let doc = docs(
            None,
            format!("Sets `{}` (id {}, offset {}).", f.name, f.id, f.offset),
        );
        let dep = deprecated(f.deprecated);
        if let Some(setter) = val.setter(
            ctx,
            name,
            (f.offset as usize, f.element),
            &quote!(#doc #dep),
        ) {
            out.extend(setter);
        }
        if let Some(value) = value {
            let unstated = ctx.opts.timestamp_unit;
            out.extend(typed::field_setter(
                &f.meaning,
                &val,
                (value, name),
                unstated,
                f.element,
            ));
        }
    }
    out
}

/// A method per group starting its encoder, after writing the sections
/// before it that are not written yet.
fn group_starters(b: &NamedBlock, groups: &[GroupIdents], tail: Tail) -> TokenStream {
    let tail_ref = tail.reference();
    let mut out = TokenStream::new();
    for (section, ((g, name), idents)) in
        b.groups.iter().zip(&b.names.groups).zip(groups).enumerate()
    {
        let enc = &idents.enc;
        let next = ulit(section + 1);
        let reserve = tail.reserve(&reserve_after(b, section));
        let doc = docs(
            None,
            format!(
                "Starts group `{}` (id {}) for at most `count` entries; write each entry after `next_entry()`. Earlier groups and var data not written yet are written empty; a later one already written gives `Err(WrongOrder)`.",
                g.name, g.id
            ),
        );
        let dep = deprecated(g.deprecated);
        let section_lit = ulit(section);
        out.extend(quote! {
            #doc
            #dep
            pub fn #name(&mut self, count: usize) -> ::sbe_rt::Result<#enc<'_, 'a>> {
                self.advance(#section_lit)?;
                self.step = #next;
                #enc::new(#tail_ref, count, #reserve)
            }
        });
    }
    out
}

/// A method per var data writing its length and bytes, after writing the
/// sections before it that are not written yet.
fn data_writers(ctx: &Ctx, b: &NamedBlock, tail: Tail) -> TokenStream {
    let tail_ref = tail.reference();
    let mut out = TokenStream::new();
    for (j, (d, Accessor { name, .. })) in b.data.iter().zip(&b.names.data).enumerate() {
        let section = b.groups.len() + j;
        let next = ulit(section + 1);
        let var_data = d.var_data(ctx.byte_order());
        let data_offset = ulit(var_data.data_offset);
        let reserve = tail.reserve(&reserve_after(b, section));
        let max_length = var_data.max_length;
        let section_lit = ulit(section);
        // A var data's length is always on the wire.
        let put_length = match uint_put(var_data.length) {
            Some((put, offset, ty)) => quote!(#put(prefix, #offset, n as #ty);),
            None => TokenStream::new(),
        };
        let doc = docs(
            None,
            format!(
                "Writes var data `{}` (id {}). Earlier groups and var data not written yet are written empty; a later one already written gives `Err(WrongOrder)`.",
                d.name, d.id
            ),
        );
        let dep = deprecated(d.deprecated);
        let at = super::at(d.element);
        out.extend(quote! {
            #doc
            #dep
            #[inline(always)]
            pub fn #name(&mut self, v: impl ::core::convert::AsRef<[u8]>) -> ::sbe_rt::Result<&mut Self> {
                let v = v.as_ref();
                let n = __sbe::codec::check_length(v.len(), #max_length)#at?;
                self.advance(#section_lit)#at?;
                let prefix = __sbe::codec::put_var_data_n::<#data_offset>(#tail_ref, v, #reserve)#at?;
                #put_length
                self.step = #next;
                __sbe::Ok(self)
            }
        });
    }
    out
}

/// `advance`: the sections before `k` written, empty where not written
/// yet (`sbe_rt::__private::codec::advance`, given each section's empty bytes).
fn advance_fns(ctx: &Ctx, b: &NamedBlock, tail: Tail) -> TokenStream {
    let tail_place = tail.place();
    let empty_sections = (0..b.sections()).map(|section| {
        let bytes = empty_section(ctx, b, section)
            .into_iter()
            .map(proc_macro2::Literal::u8_unsuffixed);
        quote!(&[#(#bytes),*])
    });
    quote! {
        /// Writes the sections before `k` that are not written yet, empty.
        #[inline(always)]
        fn advance(&mut self, k: usize) -> ::sbe_rt::Result<()> {
            __sbe::codec::advance(&mut self.step, k, &mut #tail_place, &[#(#empty_sections),*])
        }
    }
}

/// The name of the constant that holds the bytes left free after section
/// `section` of `b`: its accessor's, shouted, with `_RESERVE`.
fn reserve_after(b: &NamedBlock, section: usize) -> Ident {
    let name = match b.names.groups.get(section) {
        Some(name) => name.to_string(),
        None => b
            .names
            .data
            .get(section - b.groups.len())
            .map(|a| a.name.to_string())
            .unwrap_or_default(),
    };
    let name = name.trim_start_matches("r#").to_uppercase();
    format_ident!("{name}_RESERVE")
}

/// The schema names of sections `range` of `b`, for a doc: `` `a`, `b` ``.
fn section_names(b: &NamedBlock, range: std::ops::Range<usize>) -> String {
    range
        .map(|section| match b.groups.get(section) {
            Some(g) => format!("`{}`", g.name),
            None => b
                .data
                .get(section - b.groups.len())
                .map(|d| format!("`{}`", d.name))
                .unwrap_or_default(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The encoder's constants of the bytes it leaves free for the sections
/// still to come, written empty: `SECTIONS_RESERVE`, those of all of
/// them, which `wrap` or `next_entry` leaves after the block; and per
/// section, those after it, which its writer leaves.
fn reserve_consts(ctx: &Ctx, b: &NamedBlock, tail: Tail) -> TokenStream {
    let sections = b.sections();
    if sections == 0 {
        return TokenStream::new();
    }
    let (maker, whose, beside) = match tail {
        Tail::Root => ("wrap", "message's", ""),
        Tail::Group => ("next_entry", "entry's", ", beside `reserve`"),
    };
    let all = ulit(empty_from(ctx, b, 0));
    let doc = format!(
        " Bytes `{maker}` leaves free after the block{beside}: the {whose} groups and \
         var data ({}), written empty.",
        section_names(b, 0..sections)
    );
    let mut out = quote! {
        #[doc = #doc]
        const SECTIONS_RESERVE: usize = #all;
    };
    for section in 0..sections {
        let name = reserve_after(b, section);
        let after = ulit(empty_from(ctx, b, section + 1));
        let what = match b.groups.get(section) {
            Some(g) => format!("group `{}`", g.name),
            None => format!("var data {}", section_names(b, section..section + 1)),
        };
        let doc = if section + 1 < sections {
            format!(
                " Bytes left free after {what}{beside}: the {whose} sections after it ({}), \
                 written empty.",
                section_names(b, section + 1..sections)
            )
        } else {
            format!(" Bytes left free after {what}{beside}: none, it is the {whose} last section.")
        };
        out.extend(quote! {
            #[doc = #doc]
            const #name: usize = #after;
        });
    }
    out
}

/// The bytes of section `section` written empty (the IR's
/// `Group::empty_bytes` and `Data::empty_bytes`).
fn empty_section(ctx: &Ctx, b: &NamedBlock, section: usize) -> Vec<u8> {
    match b.groups.get(section) {
        Some(g) => g.empty_bytes(ctx.schema.byte_order),
        None => match b.data.get(section - b.groups.len()) {
            Some(d) => d.empty_bytes(),
            None => Vec::new(),
        },
    }
}

/// Bytes of the sections from `first` on, written empty.
fn empty_from(ctx: &Ctx, b: &NamedBlock, first: usize) -> usize {
    (first..b.sections())
        .map(|section| empty_section(ctx, b, section).len())
        .sum()
}

/// Whether a group's entries are all of one size: no nested group or var
/// data (the length rule then takes the group's count, not its entries'
/// lengths).
fn fixed_entries(g: &Group) -> bool {
    g.block.groups.is_empty() && g.block.data.is_empty()
}

/// The length rule of `b`: a message encoder's `exact_length` (header
/// included) or a group encoder's `entry_length` (one entry), from what
/// its sections will hold: per group, the count of its entries (entries
/// of one size) or each entry's `entry_length`; per var data, its bytes.
/// The owned types' `encoded_length` calls it too, so that the two agree.
fn length_fn(b: &NamedBlock, tail: Tail) -> TokenStream {
    let mut params = Vec::new();
    let mut parts = Vec::new();
    let mut docs_of = Vec::new();
    for (g, name) in b.groups.iter().zip(&b.names.groups) {
        if fixed_entries(g) {
            let block = ulit(g.block.block_length as usize);
            params.push(quote!(#name: usize));
            parts.push(quote!(__sbe::codec::blocks_length(#name, #block)));
            docs_of.push(format!(
                "`{}`: the count of entries of group `{}`",
                name.to_string().trim_start_matches("r#"),
                g.name
            ));
        } else {
            params.push(quote!(#name: impl ::core::iter::IntoIterator<Item = usize>));
            parts.push(quote!(__sbe::codec::entries_length(#name)));
            docs_of.push(format!(
                "`{}`: each entry's length, from `entry_length`, of group `{}`",
                name.to_string().trim_start_matches("r#"),
                g.name
            ));
        }
    }
    for (d, a) in b.data.iter().zip(&b.names.data) {
        let name = &a.name;
        params.push(quote!(#name: usize));
        parts.push(quote!(#name));
        docs_of.push(format!(
            "`{}`: the bytes of var data `{}`",
            name.to_string().trim_start_matches("r#"),
            d.name
        ));
    }
    let block = b.block_len();
    let (fn_name, base, what) = match tail {
        Tail::Root => (
            quote!(exact_length),
            {
                let base = plus(quote!(HEADER_LENGTH), block);
                if b.sections() > 0 {
                    quote!(#base + Self::SECTIONS_RESERVE)
                } else {
                    base
                }
            },
            "The exact length of the message, header included, before writing it (for `wrap_exact`)",
        ),
        Tail::Group => (
            quote!(entry_length),
            if block == 0 {
                quote!(Self::SECTIONS_RESERVE)
            } else {
                let block = ulit(block);
                quote!(#block + Self::SECTIONS_RESERVE)
            },
            "The exact length of one entry, for the group's length in its message's `exact_length`",
        ),
    };
    let doc = if docs_of.is_empty() {
        format!(" {what}.")
    } else {
        format!(" {what}: {}.", docs_of.join("; "))
    };
    let body = if parts.is_empty() {
        base
    } else {
        quote!(__sbe::codec::sum_lengths(#base, &[#(#parts),*]))
    };
    let allow = if params.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        TokenStream::new()
    };
    let constness = if params.is_empty() {
        quote!(const)
    } else {
        TokenStream::new()
    };
    quote! {
        #[doc = #doc]
        #allow
        #[inline]
        pub #constness fn #fn_name(#(#params),*) -> usize {
            #body
        }
    }
}
