//! Rust names for schema names: case conversion (heck), sanitising of
//! names that are not identifiers, keyword escaping and clash resolution.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};
use std::collections::HashSet;

/// Rust keywords (strict and reserved, all editions).
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// Replaces every character that cannot be in an identifier with `_` and
/// makes sure the result does not start with a digit and is not empty.
fn sanitise(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `serialNumber` → `serial_number` (a valid identifier, not escaped).
pub fn snake(s: &str) -> String {
    let pre = sanitise(s);
    let out = pre.to_snake_case();
    if out.is_empty() {
        pre
    } else {
        sanitise(&out)
    }
}

/// `fuelFigures` → `FuelFigures`.
pub fn camel(s: &str) -> String {
    let pre = sanitise(s);
    let out = pre.to_upper_camel_case();
    if out.is_empty() {
        format!("T{}", pre.trim_matches('_'))
    } else {
        sanitise(&out)
    }
}

/// `sunRoof` → `SUN_ROOF`.
pub fn shouty(s: &str) -> String {
    let pre = sanitise(s);
    let out = pre.to_shouty_snake_case();
    if out.is_empty() {
        pre
    } else {
        sanitise(&out)
    }
}

/// An identifier token for `name`, escaped when it is a keyword
/// (`type` → `r#type`, `self` → `self_`).
pub fn ident(name: &str) -> Ident {
    if NOT_RAW.contains(&name) {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else if KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// Hands out names unique within one scope (a type's methods, the file's
/// types, an enum's variants): a name already taken gets `_2`, `_3`, ...
#[derive(Default)]
pub struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// A scope where `reserved` are already taken.
    pub fn with(reserved: &[&str]) -> Self {
        Scope {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// `base`, or `base_2`, `base_3`... if taken; the result is taken.
    pub fn claim(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = if base.ends_with(|c: char| c.is_ascii_digit()) {
                format!("{base}_{n}")
            } else {
                format!("{base}{n}")
            };
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    /// Whether `name` is taken.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }
}

/// The file name for a package: lower snake case, every character that is
/// not alphanumeric becomes `_` (`uk.co.real_logic.sbe.benchmarks.fix` →
/// `uk_co_real_logic_sbe_benchmarks_fix`).
pub fn package_file_stem(package: &str) -> String {
    let s: String = package
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "schema".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_and_escapes() {
        assert_eq!(snake("serialNumber"), "serial_number");
        assert_eq!(snake("Tag40001"), "tag40001");
        assert_eq!(snake("bad-name"), "bad_name");
        assert_eq!(snake("9lives"), "_9lives");
        assert_eq!(camel("fuelFigures"), "FuelFigures");
        assert_eq!(camel("issue1007"), "Issue1007");
        assert_eq!(shouty("sunRoof"), "SUN_ROOF");
        assert_eq!(ident("yield").to_string(), "r#yield");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("speed").to_string(), "speed");
        assert_eq!(
            package_file_stem("uk.co.real_logic.sbe.benchmarks.fix"),
            "uk_co_real_logic_sbe_benchmarks_fix"
        );
        assert_eq!(package_file_stem("Baseline-2"), "baseline_2");
    }

    #[test]
    fn scope_resolves_clashes() {
        let mut s = Scope::with(&["decode"]);
        assert_eq!(s.claim("decode"), "decode2");
        assert_eq!(s.claim("a"), "a");
        assert_eq!(s.claim("a"), "a2");
        assert_eq!(s.claim("v1"), "v1");
        assert_eq!(s.claim("v1"), "v1_2");
    }
}
