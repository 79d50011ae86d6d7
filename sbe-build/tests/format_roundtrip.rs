//! The generated text is valid Rust and holds exactly the generated tokens:
//! for every schema in ../shared/corpus that loads (and the fixtures, with
//! user attributes), `syn::parse_file` accepts the text, and both the text
//! lexed again and syn's tree printed again equal `generate_tokens`.
//! (`generate` no longer parses its output at run time; this is the check.)

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use sbe_build::codegen::{generate, generate_tokens, Options};
use sbe_build::ir::Schema;

/// Whether `a` right before `b` lexes as one operator: the only places a
/// joint mark means something.
fn would_join(a: char, b: char) -> bool {
    match b {
        '=' => "=!<>+-*/%^&|.".contains(a),
        '>' => "-=>".contains(a),
        '<' | '&' | '|' | ':' | '.' => a == b,
        '-' => a == '<',
        '/' | '*' => a == '/',
        _ => false,
    }
}

/// The tokens as the compiler sees them, flattened: spacing only where it
/// forms an operator, strings by value (a `///` comment lexes as `"…"`
/// where the attribute may have had `r"…"`), a negative literal as `-` and
/// the number (how the lexer reads it back). Without `spacing`, no
/// spacing at all (syn prints its own: `Cell<usize> >` for `Cell<usize>>`).
fn shape(ts: TokenStream, spacing: bool, out: &mut Vec<String>) {
    let tokens: Vec<TokenTree> = ts.into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    out.push(open.into());
                }
                shape(g.stream(), spacing, out);
                if !close.is_empty() {
                    out.push(close.into());
                }
            }
            TokenTree::Ident(id) => out.push(id.to_string()),
            TokenTree::Punct(p) => {
                let joint = spacing
                    && p.spacing() == Spacing::Joint
                    && matches!(tokens.get(i + 1), Some(TokenTree::Punct(q)) if would_join(p.as_char(), q.as_char()));
                out.push(format!(
                    "{}{}",
                    p.as_char(),
                    if joint { " joint" } else { "" }
                ));
            }
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

fn flat(ts: TokenStream, spacing: bool) -> Vec<String> {
    let mut v = Vec::new();
    shape(ts, spacing, &mut v);
    v
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
    let want = flat(tokens.clone(), true);
    let file = match syn::parse_file(&text) {
        Ok(f) => f,
        Err(e) => return Some(format!("{name}: not valid Rust: {e}")),
    };
    let lexed: TokenStream = match text.parse() {
        Ok(t) => t,
        Err(e) => return Some(format!("{name}: does not lex: {e}")),
    };
    if let Some(d) = first_difference(&flat(lexed, true), &want) {
        return Some(format!("{name}: the text lexes to other tokens, {d}"));
    }
    if let Some(d) = first_difference(&flat(file.into_token_stream(), false), &flat(tokens, false))
    {
        return Some(format!("{name}: syn reads the text as other tokens, {d}"));
    }
    None
}

fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            xml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "xml") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_output_parses_and_holds_the_generated_tokens() {
    let Some(shared) =
        test_support::shared_dir("corpus_output_parses_and_holds_the_generated_tokens")
    else {
        return;
    };
    let mut files = Vec::new();
    xml_files(&shared.join("corpus"), &mut files);
    files.sort();
    // syn is slow unoptimized: the schemas are shared out among threads.
    let next = AtomicUsize::new(0);
    let loaded = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                while let Some(f) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Ok(schema) = sbe_build::ir::load(f) else {
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
    let mut files = Vec::new();
    xml_files(&fixtures, &mut files);
    files.sort();
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
        let Ok(schema) = sbe_build::ir::load(f) else {
            continue;
        };
        for opts in [&Options::default(), &attrs, &plain] {
            failures.extend(check(f, &schema, opts));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
