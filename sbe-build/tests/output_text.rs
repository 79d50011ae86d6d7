//! The generated text is valid Rust and holds the generated tokens: for
//! every schema in ../shared/corpus that loads (and the fixtures, with user
//! attributes), `syn::parse_file` accepts the text, the text lexed again is
//! `generate_tokens` but for what prettyplease lays out its own way, and
//! the doc comments are the generated doc attributes, text for text.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use sbe_build::codegen::{generate, generate_tokens, Options};
use sbe_ir::ir::Schema;

/// The tokens as the compiler sees them, flattened, less what prettyplease
/// chooses: no spacing (it prints `&&x` for `& &x`, which lexes as two
/// `&` in an expression), no commas (it adds a trailing one where it
/// breaks a list over lines, and drops the one after a block-bodied match
/// arm), and a match arm's or closure's body without the braces around a
/// lone expression (it takes them off, or puts them on where the body
/// takes more than one line; `()` is written `{}`). Strings are by value (a
/// `///` comment lexes as `"…"` where the attribute may have had `r"…"`),
/// a negative literal as `-` and the number (how the lexer reads it back).
fn shape(ts: TokenStream, out: &mut Vec<String>) {
    let tokens: Vec<TokenTree> = ts.into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        // A match arm's body follows `=>`, a closure's its last `|`.
        let punct = |back: usize| match i.checked_sub(back).map(|j| &tokens[j]) {
            Some(TokenTree::Punct(p)) => Some(p.as_char()),
            _ => None,
        };
        let body = punct(1) == Some('|') || (punct(2), punct(1)) == (Some('='), Some('>'));
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                if body {
                    if let Some(body) = lone_expression(g) {
                        shape(body, out);
                        continue;
                    }
                }
                if !open.is_empty() {
                    out.push(open.into());
                }
                shape(g.stream(), out);
                if !close.is_empty() {
                    out.push(close.into());
                }
            }
            TokenTree::Ident(id) => out.push(id.to_string()),
            TokenTree::Punct(p) if p.as_char() == ',' => {}
            TokenTree::Punct(p) => out.push(p.as_char().to_string()),
            TokenTree::Literal(l) => {
                let s = l.to_string();
                if let Ok(v) = syn::parse_str::<syn::LitStr>(&s) {
                    out.push(format!("str {:?}", v.value()));
                } else if let Some(n) = s.strip_prefix('-') {
                    out.push("-".into());
                    out.push(n.into());
                } else {
                    out.push(s);
                }
            }
        }
    }
}

/// The lone expression of a match arm's or closure's body `g` (`{ x }`,
/// `{ x; }` where `x` is `return …`, which prettyplease prints for
/// `return …,`), or nothing for `()`; `None` for a block prettyplease
/// keeps as one.
fn lone_expression(g: &proc_macro2::Group) -> Option<TokenStream> {
    let mut tokens: Vec<TokenTree> = g.stream().into_iter().collect();
    match g.delimiter() {
        Delimiter::Parenthesis if tokens.is_empty() => return Some(TokenStream::new()),
        Delimiter::Brace => {}
        _ => return None,
    }
    let semi = |t: &TokenTree| matches!(t, TokenTree::Punct(p) if p.as_char() == ';');
    if tokens.last().is_some_and(semi)
        && matches!(tokens.first(), Some(TokenTree::Ident(i)) if i == "return")
    {
        tokens.pop();
    }
    (!tokens.iter().any(semi)).then(|| tokens.into_iter().collect())
}

fn flat(ts: TokenStream) -> Vec<String> {
    let mut v = Vec::new();
    shape(ts, &mut v);
    v
}

/// The text of every `#[doc = "…"]` attribute in the tokens, in order.
fn docs(ts: TokenStream, out: &mut Vec<String>) {
    let tokens: Vec<TokenTree> = ts.into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        let TokenTree::Group(g) = t else { continue };
        let attribute = g.delimiter() == Delimiter::Bracket
            && i > 0
            && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '#');
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        match inner.as_slice() {
            [TokenTree::Ident(doc), TokenTree::Punct(eq), TokenTree::Literal(text)]
                if attribute && doc == "doc" && eq.as_char() == '=' =>
            {
                let text = syn::parse_str::<syn::LitStr>(&text.to_string())
                    .map_or_else(|_| text.to_string(), |l| l.value());
                out.push(text);
            }
            _ => docs(g.stream(), out),
        }
    }
}

/// Where `got` first differs from `want`, with some context.
fn first_difference(got: &[String], want: &[String]) -> Option<String> {
    let i = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .or_else(|| (got.len() != want.len()).then(|| got.len().min(want.len())))?;
    let around = |v: &[String]| v[i.saturating_sub(12)..(i + 6).min(v.len())].join(" ");
    Some(format!(
        "token {i}:\n  got:  {}\n  want: {}",
        around(got),
        around(want)
    ))
}

/// Checks one schema, loaded from `path`; a failure message, if any.
fn check(path: &Path, schema: &Schema, opts: &Options) -> Option<String> {
    let name = path.display();
    let text = match generate(schema, opts) {
        Ok(t) => t,
        Err(e) => return Some(format!("{name}: generate failed: {e}")),
    };
    let tokens = generate_tokens(schema, opts);
    if let Err(e) = syn::parse_file(&text) {
        return Some(format!("{name}: not valid Rust: {e}"));
    }
    let lexed: TokenStream = match text.parse() {
        Ok(t) => t,
        Err(e) => return Some(format!("{name}: does not lex: {e}")),
    };
    let (mut got, mut want) = (Vec::new(), Vec::new());
    docs(lexed.clone(), &mut got);
    docs(tokens.clone(), &mut want);
    if let Some(d) = first_difference(&got, &want) {
        return Some(format!("{name}: the doc comments are other docs, {d}"));
    }
    if let Some(d) = first_difference(&flat(lexed), &flat(tokens)) {
        return Some(format!("{name}: the text lexes to other tokens, {d}"));
    }
    None
}

#[test]
fn corpus_output_parses_and_holds_the_generated_tokens() {
    let Some(shared) =
        test_support::shared_dir("corpus_output_parses_and_holds_the_generated_tokens")
    else {
        return;
    };
    let files = test_support::files_under(&shared.join("corpus"), "xml");
    // syn is slow unoptimized: the schemas are shared out among threads
    // (each of which `generate` shares out further).
    let next = AtomicUsize::new(0);
    let loaded = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                while let Some(f) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Ok(schema) = sbe_ir::ir::load(f) else {
                        continue;
                    };
                    loaded.fetch_add(1, Ordering::Relaxed);
                    if let Some(e) = check(f, &schema, &Options::default()) {
                        failures.lock().unwrap().push(e);
                    }
                }
            });
        }
    });
    let loaded = loaded.into_inner();
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(loaded >= 50, "only {loaded} corpus schemas loaded");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Without ../shared too; user attributes come lexed from text, with the
/// lexer's spacing, and every option turned off and on.
#[test]
fn fixture_output_parses_and_holds_the_generated_tokens() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let files = test_support::files_under(&fixtures, "xml");
    assert!(!files.is_empty());
    let attrs = Options {
        type_attributes: vec![
            (".".into(), "#[derive(PartialOrd)]".into()),
            (
                ".".into(),
                "#[cfg_attr(all(), doc = \"it's a \\\"type\\\"\")] #[allow(clippy::all, unused)]"
                    .into(),
            ),
        ],
        ..Options::default()
    };
    let plain = Options {
        json: false,
        debug: false,
        ..Options::default()
    };
    let mut failures = Vec::new();
    for f in &files {
        let Ok(schema) = sbe_ir::ir::load(f) else {
            continue;
        };
        for opts in [&Options::default(), &attrs, &plain] {
            failures.extend(check(f, &schema, opts));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
