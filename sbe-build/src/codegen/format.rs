//! Printing the generated tokens as Rust source text.
//!
//! Build scripts run this for every schema on every clean build, so it is
//! one pass over the token stream that picks spaces and line breaks from
//! the tokens on either side, rather than parsing into a syntax tree and
//! printing that (`syn` + `prettyplease`): those were most of the code
//! generation time, and compiling them was most of the cost of having
//! `sbe-build` as a build-dependency.
//!
//! The layout follows rustfmt for the shapes the generator emits: 4-space
//! indents; a brace block breaks after each `;`, each `,` (fields, arms,
//! variants) and each `}` that ends a statement or item; parentheses and
//! brackets stay on one line (long lines are not wrapped); `#[doc]`
//! attributes become `///` / `//!` comments when their text allows.
//!
//! Only whitespace is chosen here: the text lexes back to the same tokens
//! (the corpus round-trip test checks it), including where two punctuation
//! marks must not be glued into one (`& &x`, `< -1`).

use std::fmt::Write as _;
use std::iter::Peekable;

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, TokenStream, TokenTree};

/// The tokens as Rust source text, ending with a newline.
pub(crate) fn format(tokens: TokenStream) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
        line_start: true,
        prev: Prev::Open,
        decl_next: false,
        last_punct: None,
        scratch: String::new(),
    };
    // Most generated files are tens to hundreds of kilobytes.
    p.out.reserve(1 << 16);
    p.tokens(tokens.into_iter(), Mode::Root);
    p.newline();
    while p.out.ends_with("\n\n") {
        p.out.pop();
    }
    p.out
}

/// How a token stream is laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The file: a block with a blank line after each item.
    Root,
    /// Inside a multi-line `{}`: statements, items, fields or arms, one a line.
    Block,
    /// Inside `()`, `[]`, an attribute or a one-line `{}`: no line breaks.
    Inline,
}

/// Keywords that change how what follows them is spaced.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kw {
    /// `fn`: `fn(u8)` is a type, no space.
    Fn,
    /// `pub`: `pub(crate)`.
    Pub,
    /// `impl` and `for`: `impl<'a>`, `for<'a>`.
    Generic,
    /// Any other keyword: a space after it.
    Other,
}

/// What was printed last, as far as spacing the next token goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// The start of a line, or just inside `(` or `[`.
    Open,
    /// Just inside a one-line `{`.
    OpenBrace,
    /// A keyword.
    Keyword(Kw),
    /// An identifier that names a value (`self`, `buf`, `MAX`): `<` after
    /// it compares.
    Value,
    /// An identifier that names a type or is being declared (`Option`,
    /// `Self`, `fn wrap`): `<` after it opens generics.
    Type,
    /// A lifetime (`'a`).
    Lifetime,
    /// A literal; `int` for an unsuffixed integer (the `0` of `self.0`).
    Literal { int: bool },
    /// The end of an operand: `)`, `]`, `}` or `?`.
    Close,
    /// The `>` that closes generics; `path` unless they were an `impl`'s
    /// or a `for`'s (`impl<'a> ::core::…`: no path goes on from there).
    GenericClose { path: bool },
    /// `::`.
    Path,
    /// A prefix: `#`, unary `&` `*` `-` `!`, a macro's `!`, `<` opening
    /// generics, the `|` opening closure parameters.
    Glue,
    /// `.`; `after_int` when it follows an unsuffixed integer.
    Dot { after_int: bool },
    /// `..`, `..=`.
    Range,
    /// A binary operator, `,`, `;`, `:`, `=`, `=>`, `->`: a space follows.
    Spaced,
}

impl Prev {
    /// Whether the next token is glued to this one.
    fn glues_next(self) -> bool {
        matches!(
            self,
            Prev::Open | Prev::Glue | Prev::Path | Prev::Dot { .. } | Prev::Range
        )
    }

    /// Whether an operator here is a prefix (`&x`, `-1`, `!x`, `*p`), not
    /// binary: nothing that ends an operand comes before it.
    fn prefix_position(self) -> bool {
        matches!(
            self,
            Prev::Open
                | Prev::OpenBrace
                | Prev::Keyword(_)
                | Prev::Glue
                | Prev::Path
                | Prev::Dot { .. }
                | Prev::Range
                | Prev::Spaced
        )
    }
}

/// State of one token stream (one group's contents).
#[derive(Default)]
struct Level {
    /// Generic `<` not closed yet: commas inside do not break lines.
    angle: u32,
    /// The depth of `angle` inside the generics of an `impl` or `for`.
    decl_angle: Option<u32>,
    /// Between the `|`s of closure parameters.
    closure: bool,
    /// A keyword (`if`, `match`, `fn`, `impl`, `else`…) was seen, so the
    /// next `{` opens a block, not a struct literal.
    block_kw: bool,
}

struct Printer {
    out: String,
    /// Indent of the current line, in levels of 4 spaces.
    indent: usize,
    /// Nothing written on the current line yet (its indent comes lazily,
    /// so blank lines carry no spaces).
    line_start: bool,
    prev: Prev,
    /// The next identifier is a declared name (after `fn`, `struct`…).
    decl_next: bool,
    /// The last character of the previous token, when it was punctuation
    /// (to keep apart marks that would lex as one, like `&` `&`).
    last_punct: Option<char>,
    /// Reused buffer for a doc literal's text.
    scratch: String,
}

impl Printer {
    /// Starts a token: the line's indent, or a space when asked.
    fn lead(&mut self, space: bool) {
        self.decl_next = false;
        if self.line_start {
            for _ in 0..self.indent {
                self.out.push_str("    ");
            }
            self.line_start = false;
        } else if space {
            self.out.push(' ');
        }
    }

    fn newline(&mut self) {
        if !self.line_start {
            self.out.push('\n');
            self.line_start = true;
        }
        self.prev = Prev::Open;
        self.last_punct = None;
    }

    fn blank_line(&mut self) {
        self.newline();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// Ends a statement or item in `mode`: a new line, and at the top level
    /// a blank one.
    fn end_line(&mut self, mode: Mode) {
        match mode {
            Mode::Root => self.blank_line(),
            Mode::Block => self.newline(),
            Mode::Inline => {}
        }
    }

    fn tokens<I: Iterator<Item = TokenTree>>(&mut self, iter: I, mode: Mode) {
        let mut iter = iter.peekable();
        let mut lv = Level::default();
        while let Some(tt) = iter.next() {
            match tt {
                TokenTree::Ident(i) => self.ident(&i, &mut lv),
                TokenTree::Literal(l) => self.literal(&l),
                TokenTree::Punct(p) => self.punct(&p, &mut iter, &mut lv, mode),
                TokenTree::Group(g) => self.group(g, &mut iter, &mut lv, mode),
            }
        }
    }

    fn ident(&mut self, ident: &Ident, lv: &mut Level) {
        let decl = self.decl_next;
        self.lead(!self.prev.glues_next());
        let start = self.out.len();
        // Straight into the output: `Ident::to_string` would allocate.
        let _ = write!(self.out, "{ident}");
        let text = self.out.get(start..).unwrap_or_default();
        let (prev, decl_next, block_kw) = classify(text, decl);
        self.prev = prev;
        self.decl_next = decl_next;
        lv.block_kw |= block_kw;
        self.last_punct = None;
    }

    fn literal(&mut self, lit: &Literal) {
        let prev = self.prev;
        let glued = prev.glues_next();
        self.lead(!glued);
        let start = self.out.len();
        let _ = write!(self.out, "{lit}");
        let text = self.out.get(start..).unwrap_or_default();
        let first = text.chars().next();
        let int = text.bytes().all(|b| b.is_ascii_digit() || b == b'_');
        if first == Some('-') && glued && self.last_punct.is_some() {
            // `- -1`, `< -1`: glued, the signs would read as one operator.
            self.out.insert(start, ' ');
        } else if prev == (Prev::Dot { after_int: true })
            && first.is_some_and(|c| c.is_ascii_digit())
        {
            // `x.0 .1`: glued, `0.1` would lex as one float.
            if let Some(dot) = start.checked_sub(1) {
                if self.out.is_char_boundary(dot) {
                    self.out.insert(dot, ' ');
                }
            }
        }
        self.prev = Prev::Literal { int };
        self.last_punct = None;
    }

    fn punct<I: Iterator<Item = TokenTree>>(
        &mut self,
        p: &Punct,
        iter: &mut Peekable<I>,
        lv: &mut Level,
        mode: Mode,
    ) {
        let c = p.as_char();
        if c == '\'' {
            if let Some(TokenTree::Ident(name)) = iter.next_if(|t| matches!(t, TokenTree::Ident(_)))
            {
                self.lead(!self.prev.glues_next());
                self.out.push('\'');
                let _ = write!(self.out, "{name}");
                self.prev = Prev::Lifetime;
                self.last_punct = None;
                return;
            }
        }
        if c == '#' {
            if let Some(TokenTree::Group(g)) = iter.next_if(is_bracket) {
                self.attribute(false, g, mode);
                return;
            }
            if let Some(TokenTree::Punct(bang)) =
                iter.next_if(|t| matches!(t, TokenTree::Punct(b) if b.as_char() == '!'))
            {
                if let Some(TokenTree::Group(g)) = iter.next_if(is_bracket) {
                    self.attribute(true, g, mode);
                    return;
                }
                self.operator(&['#'], p.spacing() == Spacing::Joint, false, lv, mode);
                self.punct(&bang, iter, lv, mode);
                return;
            }
        }
        // The marks of one operator (`::`, `=>`, `..=`) come joint.
        let mut op = [c, ' ', ' '];
        let mut n = 1;
        let mut joint = p.spacing() == Spacing::Joint;
        while joint && n < op.len() {
            let Some(TokenTree::Punct(q)) =
                iter.next_if(|t| matches!(t, TokenTree::Punct(q) if q.as_char() != '\''))
            else {
                break;
            };
            if let Some(slot) = op.get_mut(n) {
                *slot = q.as_char();
            }
            n += 1;
            joint = q.spacing() == Spacing::Joint;
        }
        let next_is_group = matches!(iter.peek(), Some(TokenTree::Group(_)));
        let joint_on = joint && matches!(iter.peek(), Some(TokenTree::Punct(_)));
        self.operator(
            op.get(..n).unwrap_or_default(),
            joint_on,
            next_is_group,
            lv,
            mode,
        );
    }

    /// Prints one operator (its marks `op`); `joint_on` when the next mark
    /// continues it; `next_is_group` tells a macro's `!` from a `!x`.
    fn operator(
        &mut self,
        op: &[char],
        joint_on: bool,
        next_is_group: bool,
        lv: &mut Level,
        mode: Mode,
    ) {
        let prev = self.prev;
        let glued = prev.glues_next();
        let (space, next) = match op {
            [','] => {
                lv.block_kw = false;
                (false, Prev::Spaced)
            }
            [';'] | [':'] => (false, Prev::Spaced),
            ['.'] => (
                false,
                Prev::Dot {
                    after_int: prev == Prev::Literal { int: true },
                },
            ),
            ['?'] => (false, Prev::Close),
            [':', ':'] => (
                !(glued
                    || matches!(
                        prev,
                        Prev::Value | Prev::Type | Prev::GenericClose { path: true }
                    )),
                Prev::Path,
            ),
            ['.', '.'] | ['.', '.', '='] | ['.', '.', '.'] => (
                matches!(prev, Prev::Spaced | Prev::OpenBrace | Prev::Keyword(_)),
                Prev::Range,
            ),
            ['!'] if matches!(prev, Prev::Value | Prev::Type) && next_is_group => {
                (false, Prev::Glue)
            }
            ['!'] | ['#'] => (!glued, Prev::Glue),
            ['&'] | ['&', '&'] | ['*'] | ['-'] if prev.prefix_position() => (!glued, Prev::Glue),
            ['|'] if lv.closure => {
                lv.closure = false;
                (false, Prev::Spaced)
            }
            ['|'] if prev.prefix_position() => {
                lv.closure = true;
                (!glued, Prev::Glue)
            }
            ['|', '|'] if prev.prefix_position() => (!glued, Prev::Spaced),
            ['<'] | ['<', '<']
                if !matches!(
                    prev,
                    Prev::Value
                        | Prev::Literal { .. }
                        | Prev::Close
                        | Prev::Lifetime
                        | Prev::GenericClose { .. }
                ) =>
            {
                if prev == Prev::Keyword(Kw::Generic) && lv.decl_angle.is_none() {
                    lv.decl_angle = Some(lv.angle + 1);
                }
                lv.angle += op.len() as u32;
                (
                    !(glued || matches!(prev, Prev::Type | Prev::Keyword(Kw::Generic))),
                    Prev::Glue,
                )
            }
            ['>'] | ['>', '>'] if lv.angle > 0 => {
                lv.angle = lv.angle.saturating_sub(op.len() as u32);
                let path = lv.decl_angle.is_none_or(|d| lv.angle >= d);
                if !path {
                    lv.decl_angle = None;
                }
                (false, Prev::GenericClose { path })
            }
            _ => (true, Prev::Spaced),
        };
        let first = op.first().copied().unwrap_or(' ');
        let space =
            space || (!self.line_start && self.last_punct.is_some_and(|a| would_join(a, first)));
        self.lead(space);
        for &c in op {
            self.out.push(c);
        }
        self.prev = next;
        self.last_punct = op.last().copied();
        if joint_on {
            // A longer run of joint marks than any operator: keep it glued.
            self.prev = Prev::Glue;
            self.last_punct = None;
            return;
        }
        if mode != Mode::Inline {
            match op {
                [';'] => {
                    *lv = Level::default();
                    self.end_line(mode);
                }
                [','] if lv.angle == 0 && !lv.closure => self.newline(),
                _ => {}
            }
        }
    }

    /// `#[...]` / `#![...]`: on a line of its own in a block, as a `///` /
    /// `//!` comment for a doc string that allows it.
    fn attribute(&mut self, inner: bool, g: Group, mode: Mode) {
        let stream = g.stream();
        // Dropped first, the stream is not shared and iterates without copying.
        drop(g);
        let block = mode != Mode::Inline;
        let mut it = stream.into_iter();
        let (a, b, c, d) = (it.next(), it.next(), it.next(), it.next());
        if block {
            self.newline();
            if let (
                Some(TokenTree::Ident(a)),
                Some(TokenTree::Punct(b)),
                Some(TokenTree::Literal(c)),
                None,
            ) = (&a, &b, &c, &d)
            {
                if a == "doc" && b.as_char() == '=' && self.doc_comment(inner, c) {
                    self.newline();
                    return;
                }
            }
        }
        self.lead(!self.prev.glues_next());
        self.out.push_str(if inner { "#![" } else { "#[" });
        self.prev = Prev::Open;
        self.last_punct = None;
        let tokens = a.into_iter().chain(b).chain(c).chain(d).chain(it);
        self.tokens(tokens, Mode::Inline);
        self.lead(false);
        self.out.push(']');
        if block {
            self.newline();
        } else {
            self.prev = Prev::Spaced;
            self.last_punct = None;
        }
    }

    /// Writes `///` (or `//!`) and the text of `lit`; false, writing
    /// nothing, when the comment would not lex back to the same literal.
    fn doc_comment(&mut self, inner: bool, lit: &Literal) -> bool {
        self.scratch.clear();
        let _ = write!(self.scratch, "{lit}");
        self.lead(false);
        let mark = self.out.len();
        self.out.push_str(if inner { "//!" } else { "///" });
        if doc_text(&self.scratch, !inner, &mut self.out) {
            true
        } else {
            self.out.truncate(mark);
            false
        }
    }

    fn group<I: Iterator<Item = TokenTree>>(
        &mut self,
        g: Group,
        iter: &mut Peekable<I>,
        lv: &mut Level,
        mode: Mode,
    ) {
        let delim = g.delimiter();
        let stream = g.stream();
        // Dropped first, the stream is not shared and iterates without copying.
        drop(g);
        let prev = self.prev;
        let (open, close) = match delim {
            Delimiter::Parenthesis => ('(', ')'),
            Delimiter::Bracket => ('[', ']'),
            Delimiter::Brace => ('{', '}'),
            Delimiter::None => {
                self.tokens(stream.into_iter(), mode);
                return;
            }
        };
        self.last_punct = None;
        if delim != Delimiter::Brace {
            let space = match prev {
                Prev::Open | Prev::Glue | Prev::Path | Prev::Dot { .. } | Prev::Range => false,
                // Calls, indexing, tuple structs.
                Prev::Value | Prev::Type | Prev::Close | Prev::GenericClose { .. } => false,
                Prev::Keyword(Kw::Fn | Kw::Pub) => delim == Delimiter::Bracket,
                Prev::Keyword(_)
                | Prev::Lifetime
                | Prev::Literal { .. }
                | Prev::Spaced
                | Prev::OpenBrace => true,
            };
            self.lead(space);
            self.out.push(open);
            self.prev = Prev::Open;
            self.tokens(stream.into_iter(), Mode::Inline);
            self.lead(false);
            self.out.push(close);
            self.prev = Prev::Close;
            self.last_punct = None;
            return;
        }
        let struct_literal =
            !lv.block_kw && matches!(prev, Prev::Value | Prev::Type | Prev::GenericClose { .. });
        lv.block_kw = false;
        // In a block every `{}` is a statement, item, body or struct
        // literal on lines of its own, except in generics or a `use` tree.
        let statement = mode != Mode::Inline && lv.angle == 0 && prev != Prev::Path;
        let multi_line =
            !stream.is_empty() && (statement || (mode == Mode::Inline && !struct_literal));
        self.lead(!matches!(
            prev,
            Prev::Open | Prev::Glue | Prev::Path | Prev::Dot { .. }
        ));
        self.out.push(open);
        if multi_line {
            self.indent += 1;
            self.newline();
            self.tokens(stream.into_iter(), Mode::Block);
            self.newline();
            self.indent = self.indent.saturating_sub(1);
            self.lead(false);
        } else if !stream.is_empty() {
            self.prev = Prev::OpenBrace;
            self.tokens(stream.into_iter(), Mode::Inline);
            self.lead(true);
        }
        self.out.push(close);
        self.prev = Prev::Close;
        self.last_punct = None;
        if statement && !continues_after_brace(iter.peek()) {
            self.end_line(mode);
        }
    }
}

fn is_bracket(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket)
}

/// Whether the token after a statement's `}` continues that line
/// (`} else {`, `};`, `}?`, `}.map(..)`, `},`, `} => x`, `}: T`); a `::`,
/// `*`, `&`, `-`, `!` or `#` there starts the next statement.
fn continues_after_brace(next: Option<&TokenTree>) -> bool {
    match next {
        Some(TokenTree::Punct(p)) => match p.as_char() {
            ':' => p.spacing() == Spacing::Alone,
            c => matches!(
                c,
                '.' | '?' | ';' | ',' | '=' | '>' | '+' | '/' | '%' | '^' | '|' | '@'
            ),
        },
        Some(TokenTree::Ident(i)) => i == "else" || i == "as",
        _ => false,
    }
}

/// How an identifier spaces what follows: (what it is, whether the next
/// identifier is a declared name, whether the next `{` is a block).
fn classify(text: &str, decl: bool) -> (Prev, bool, bool) {
    let kw = |k| Prev::Keyword(k);
    match text {
        "fn" => (kw(Kw::Fn), true, true),
        "pub" => (kw(Kw::Pub), false, false),
        "impl" | "for" => (kw(Kw::Generic), false, true),
        "struct" | "enum" | "trait" | "mod" => (kw(Kw::Other), true, true),
        "type" => (kw(Kw::Other), true, false),
        "if" | "match" | "while" | "loop" | "unsafe" | "else" | "async" | "extern" => {
            (kw(Kw::Other), false, true)
        }
        "as" | "break" | "const" | "continue" | "dyn" | "in" | "let" | "move" | "mut" | "ref"
        | "return" | "static" | "use" | "where" | "yield" => (kw(Kw::Other), false, false),
        "Self" => (Prev::Type, false, false),
        "self" | "super" | "crate" | "true" | "false" => (Prev::Value, false, false),
        _ if decl || type_like(text) => (Prev::Type, false, false),
        _ => (Prev::Value, false, false),
    }
}

/// CamelCase (or a single capital, like `T`): a type, not a constant.
fn type_like(text: &str) -> bool {
    let t = text.strip_prefix("r#").unwrap_or(text);
    let mut chars = t.chars();
    match chars.next() {
        Some(c) if c.is_uppercase() => {
            let mut rest = chars.peekable();
            rest.peek().is_none() || rest.any(char::is_lowercase)
        }
        _ => false,
    }
}

/// Whether `a` written right before `b` would lex as one operator (`&&`,
/// `->`, `..`, `<-`) or open a comment (`//`, `/*`).
fn would_join(a: char, b: char) -> bool {
    match b {
        '=' => matches!(
            a,
            '=' | '!' | '<' | '>' | '+' | '-' | '*' | '/' | '%' | '^' | '&' | '|' | '.'
        ),
        '>' => matches!(a, '-' | '=' | '>'),
        '<' => a == '<',
        '&' => a == '&',
        '|' => a == '|',
        ':' => a == ':',
        '.' => a == '.',
        '-' => a == '<',
        '/' | '*' => a == '/',
        _ => false,
    }
}

/// Appends the text of the string literal `repr` (as proc-macro2 writes
/// it) for a `///` (`outer`) or `//!` comment; false, with `out` as it was,
/// when the comment could not hold it. A comment lexes back to a literal
/// of the same value but escaped (`\"`, not `r"`): the doc string stays
/// the same, its spelling may not. Kept as attributes: raw strings with a
/// line break or a character `char::escape_debug` escapes (controls,
/// direction marks the compiler lints against in comments), quoted ones
/// with any escape but `\"`, `\\`, `\'` and `\t`, and `////`, which is
/// not a doc comment.
fn doc_text(repr: &str, outer: bool, out: &mut String) -> bool {
    let start = out.len();
    let ok = if let Some(body) = raw_body(repr) {
        !(outer && body.starts_with('/'))
            && body.chars().all(|c| {
                let fits = c == '\t' || shown_as_is(c);
                if fits {
                    out.push(c);
                }
                fits
            })
    } else if let Some(body) = repr.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        !(outer && body.starts_with('/')) && unescape(body, out)
    } else {
        false
    };
    if !ok {
        out.truncate(start);
    }
    ok
}

/// Whether `char::escape_debug` leaves `c` as it is (`"`, `'` and `\\`
/// aside): no control, no invisible or direction mark.
fn shown_as_is(c: char) -> bool {
    if c.is_ascii() {
        c == ' ' || c.is_ascii_graphic()
    } else {
        c.escape_debug().len() == 1
    }
}

/// The text between the quotes of a raw string literal (`r"…"`, `r#"…"#`).
fn raw_body(repr: &str) -> Option<&str> {
    let rest = repr.strip_prefix('r')?;
    let quoted = rest.trim_start_matches('#');
    let hashes = rest.len() - quoted.len();
    let closed = quoted.strip_prefix('"')?;
    let body = closed.trim_end_matches('#');
    if closed.len() - body.len() != hashes {
        return None;
    }
    body.strip_suffix('"')
}

/// Appends the value of a quoted literal's text, if it only has the simple
/// escapes (see [`doc_text`]).
fn unescape(body: &str, out: &mut String) -> bool {
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        let c = match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\' | '\'')) => e,
                Some('t') => '\t',
                _ => return false,
            },
            '\'' => c,
            _ if shown_as_is(c) => c,
            _ => return false,
        };
        out.push(c);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    /// The tokens as the compiler sees them: spacing kept only where it
    /// matters (joint marks that form one operator), strings by value.
    fn shape(ts: TokenStream, out: &mut Vec<String>) {
        let tokens: Vec<TokenTree> = ts.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Group(g) => {
                    let (o, c) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::None => ("", ""),
                    };
                    out.push(o.into());
                    shape(g.stream(), out);
                    out.push(c.into());
                }
                TokenTree::Ident(id) => out.push(id.to_string()),
                TokenTree::Punct(p) => {
                    let joint = p.spacing() == Spacing::Joint
                        && matches!(tokens.get(i + 1), Some(TokenTree::Punct(q)) if would_join(p.as_char(), q.as_char()));
                    out.push(format!("{}{}", p.as_char(), if joint { "+" } else { "" }));
                }
                TokenTree::Literal(l) => {
                    let s = l.to_string();
                    if let Ok(v) = syn::parse_str::<syn::LitStr>(&s) {
                        // A doc comment lexes as `"…"`, whatever the attribute had.
                        out.push(format!("str {:?}", v.value()));
                        continue;
                    }
                    match s.strip_prefix('-') {
                        Some(rest) => {
                            out.push("-".into());
                            out.push(rest.into());
                        }
                        None => out.push(s),
                    }
                }
            }
        }
    }

    /// Formats `ts`, checks the text lexes back to the same tokens, and
    /// returns it.
    fn fmt(ts: TokenStream) -> String {
        let mut want = Vec::new();
        shape(ts.clone(), &mut want);
        let text = format(ts);
        let back: TokenStream = text.parse().expect("output lexes");
        let mut got = Vec::new();
        shape(back, &mut got);
        assert_eq!(got, want, "tokens changed:\n{text}");
        text
    }

    #[test]
    fn items_blocks_and_blank_lines() {
        let text = fmt(quote! {
            pub const A: u64 = 7u64;
            pub struct S<'a> { buf: &'a [u8], n: usize }
            impl<'a> S<'a> {
                pub fn get(&self) -> Option<&'a [u8]> { let x = 1; self.buf.get(0..x) }
            }
        });
        assert_eq!(
            text,
            "pub const A: u64 = 7u64;\n\n\
             pub struct S<'a> {\n    buf: &'a [u8],\n    n: usize\n}\n\n\
             impl<'a> S<'a> {\n    pub fn get(&self) -> Option<&'a [u8]> {\n        let x = 1;\n        self.buf.get(0..x)\n    }\n}\n"
        );
    }

    #[test]
    fn doc_attributes_become_comments() {
        let text = fmt(quote! {
            #![doc = " Inner."]
            /// Written as a comment: `r" …"`, "quotes" \ too.
            #[doc = " Says \"hi\" and C:\\dir, it's\ttabbed."]
            #[doc = ""]
            #[doc = "/ not a doc comment as ////"]
            #[doc = " two\nlines"]
            #[doc = concat!("a", "b")]
            #[inline]
            #[allow(deprecated, unused_braces)]
            fn f() {}
        });
        assert_eq!(
            text,
            "//! Inner.\n\
             /// Written as a comment: `r\" …\"`, \"quotes\" \\ too.\n\
             /// Says \"hi\" and C:\\dir, it's\ttabbed.\n\
             ///\n\
             #[doc = \"/ not a doc comment as ////\"]\n\
             #[doc = \" two\\nlines\"]\n\
             #[doc = concat!(\"a\", \"b\")]\n\
             #[inline]\n\
             #[allow(deprecated, unused_braces)]\n\
             fn f() {}\n"
        );
    }

    #[test]
    fn doc_text_keeps_what_a_comment_can_hold() {
        for (repr, text) in [
            (r#"" a \"b\" \\ c, it's \'q\'""#, " a \"b\" \\ c, it's 'q'"),
            (r#"r" raw \ "q""#, " raw \\ \"q"),
            (r###"r##" a "# b"##"###, " a \"# b"),
            ("\" tab\\t\"", " tab\t"),
        ] {
            let mut s = String::from("x");
            assert!(doc_text(repr, true, &mut s), "{repr}");
            assert_eq!(s, format!("x{text}"));
        }
        for bad in [
            r#"" \n""#,
            r#"" \u{202e}""#,
            r#"" \x41""#,
            "\" \u{7}\"",
            "r\" \u{202e}\"",
            "r\" two\nlines\"",
            r#"b" x""#,
            r#"" x"s"#,
            r#""/ x""#,
            r#"r"/ x""#,
            r#"r#" x""#,
        ] {
            let mut s = String::from("kept");
            assert!(!doc_text(bad, true, &mut s), "{bad}");
            assert_eq!(s, "kept");
        }
        let mut s = String::new();
        assert!(doc_text(r#""/ inner is fine""#, false, &mut s));
    }

    #[test]
    fn match_arms_and_else() {
        let text = fmt(quote! {
            fn f(v: u8) -> Side {
                match v {
                    66u8 => Self::Buy,
                    -1i8 | 0..=9 => { g(); Self::Sell }
                    v => Self::Unknown(v),
                }
            }
            fn g(on: bool) -> Self {
                if on { Self(self.0 | Self::A) } else if x < y { Self(self.0 & !Self::A) } else { x.0 .1 }
            }
        });
        assert_eq!(
            text,
            "fn f(v: u8) -> Side {\n    match v {\n        66u8 => Self::Buy,\n        -1i8 | 0..=9 => {\n            g();\n            Self::Sell\n        }\n        v => Self::Unknown(v),\n    }\n}\n\n\
             fn g(on: bool) -> Self {\n    if on {\n        Self(self.0 | Self::A)\n    } else if x < y {\n        Self(self.0 & !Self::A)\n    } else {\n        x.0 .1\n    }\n}\n"
        );
    }

    #[test]
    fn paths_generics_and_prefix_operators() {
        let text = fmt(quote! {
            fn f(buf: &mut [u8], v: impl ::core::convert::AsRef<[u8]>) -> ::core::result::Result<&mut Self, ::sbe_rt::Error> {
                let (a, b) = ::sbe_rt::codec::split_array_mut::<8usize>(buf)?;
                let c: Option<&'a ::core::cell::Cell<usize>> = x.get(..).and_then(<[u8]>::first_chunk::<4usize>);
                *a = [0; 8usize];
                let d = &*x - -1 + -y * *z;
                let e = a && !b || & &c;
                let g = |t, u| t.map(|w| w.len()).unwrap_or(0);
                r#type(n as u16, 'x', "s", u64::MAX >> 2)
            }
        });
        assert_eq!(
            text,
            "fn f(buf: &mut [u8], v: impl ::core::convert::AsRef<[u8]>) -> ::core::result::Result<&mut Self, ::sbe_rt::Error> {\n    \
             let (a, b) = ::sbe_rt::codec::split_array_mut::<8usize>(buf)?;\n    \
             let c: Option<&'a ::core::cell::Cell<usize>> = x.get(..).and_then(<[u8]>::first_chunk::<4usize>);\n    \
             *a = [0; 8usize];\n    \
             let d = &*x - -1 + -y * *z;\n    \
             let e = a && !b || & &c;\n    \
             let g = |t, u| t.map(|w| w.len()).unwrap_or(0);\n    \
             r#type(n as u16, 'x', \"s\", u64::MAX >> 2)\n}\n"
        );
    }

    #[test]
    fn negative_literals_keep_apart_from_operators() {
        let mut ts = TokenStream::new();
        ts.extend(quote!(const X: i8 = 0 -));
        ts.extend([TokenTree::Literal(Literal::i8_suffixed(-1))]);
        ts.extend(quote!(; const Y: Foo<));
        ts.extend([TokenTree::Literal(Literal::i32_unsuffixed(-2))]);
        ts.extend(quote!(> = Foo;));
        assert_eq!(
            fmt(ts),
            "const X: i8 = 0 - -1i8;\n\nconst Y: Foo< -2> = Foo;\n"
        );
    }

    #[test]
    fn struct_literals_and_blocks_inside_calls() {
        let text = fmt(quote! {
            fn f() {
                let Header { buf, .. }: Header = h;
                if x { y(); }
                ::sbe_rt::put(buf);
                let h = Header { buf: hdr, n: 1 };
                s.field("A", &{ let v = g(); v });
                Ok(Self { buf, tail })
            }
        });
        assert_eq!(
            text,
            "fn f() {\n    let Header {\n        buf,\n        ..\n    }: Header = h;\n    \
             if x {\n        y();\n    }\n    \
             ::sbe_rt::put(buf);\n    \
             let h = Header {\n        buf: hdr,\n        n: 1\n    };\n    \
             s.field(\"A\", &{\n        let v = g();\n        v\n    });\n    \
             Ok(Self { buf, tail })\n}\n"
        );
    }

    #[test]
    fn enums_with_attributes_and_raw_idents() {
        let text = fmt(quote! {
            #[derive(Clone, Copy)]
            pub enum E {
                #[doc = " A."]
                A,
                #[deprecated(note = "old")]
                B(u8),
            }
            impl ::core::fmt::Debug for E<'_> {}
            // `>>>` comes as a joint `>>` and a separate `>`, which stays
            // apart: glued, it would lex back joint to the others.
            impl<'a, T: Into<Vec<u8>>> ::core::iter::Iterator for S<'a> {}
            impl<'a> S<'a>::X {}
            pub fn r#type(&self) -> &'static str { "x" }
        });
        assert_eq!(
            text,
            "#[derive(Clone, Copy)]\npub enum E {\n    /// A.\n    A,\n    #[deprecated(note = \"old\")]\n    B(u8),\n}\n\n\
             impl ::core::fmt::Debug for E<'_> {}\n\n\
             impl<'a, T: Into<Vec<u8>> > ::core::iter::Iterator for S<'a> {}\n\n\
             impl<'a> S<'a>::X {}\n\n\
             pub fn r#type(&self) -> &'static str {\n    \"x\"\n}\n"
        );
    }
}
