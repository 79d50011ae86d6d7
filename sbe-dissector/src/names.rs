//! The naming rule of the dissector's fields, in one place.
//!
//! Every item gets the abbreviation `<proto>.<path>`: a block field,
//! group or var data its own name (wherever it is: in any message, group
//! or schema, so that `<proto>.<name>` filters across messages), a
//! composite member, a set choice or a group's dimension member
//! `<parent>.<name>`, a group's entries `<group>.entry`, the header's
//! members `header.<member>`, the framing's `frame.*` and `packet.*`.
//! When an abbreviation would carry two kinds of value (another Wireshark
//! type, display name, or enum table), the first in schema order keeps it
//! and each other kind gets `.<type name>` (the schema's name of its type)
//! appended, then `_<schema id>` if that is taken too. The crate docs
//! ("Field names") state the rule for users; keep the two in step.

use std::collections::BTreeMap;

/// `abbrev` with every character Wireshark does not take in a field
/// name (all but letters, digits, `_`, `-` and `.`) made `_`.
fn abbreviation(abbrev: &str) -> String {
    abbrev
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `name` as a Lua identifier: every character but a letter, digit or
/// `_` made `_`.
pub(crate) fn identifier(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The fields declared so far: their Lua constructors, by number.
#[derive(Default)]
pub(crate) struct Fields {
    /// `(abbreviation, constructor arguments after it)`, by field number.
    decls: Vec<(String, String)>,
    /// Abbreviation -> (signature, field number).
    taken: BTreeMap<String, (String, usize)>,
    /// Value-string tables, by content.
    tables: Vec<String>,
}

/// One ProtoField to declare: its Lua constructor and what follows the
/// abbreviation in its call.
pub(crate) struct Decl<'a> {
    /// The path under the protocol (`price`, `header.version`).
    pub(crate) path: &'a str,
    /// The type name appended when the path is taken by another kind.
    pub(crate) type_name: &'a str,
    /// The schema's id, appended when that is taken too.
    pub(crate) schema_id: u32,
    /// `uint32`, `string`, `absolute_time`, ...
    pub(crate) ctor: &'a str,
    /// The display name.
    pub(crate) name: &'a str,
    /// More arguments (`base.DEC, VS[1]`), or empty.
    pub(crate) rest: String,
}

impl Fields {
    /// The number of the field `d` declares, declaring it when no field
    /// of that abbreviation and kind is there yet.
    pub(crate) fn field(&mut self, proto: &str, d: &Decl<'_>) -> usize {
        let signature = format!("{}|{}|{}", d.ctor, d.name, d.rest);
        let first = d.path.to_string();
        let typed = format!("{first}.{}", d.type_name);
        let with_id = format!("{typed}_{}", d.schema_id);
        for candidate in [first, typed, with_id.clone()] {
            let abbrev = abbreviation(&format!("{proto}.{candidate}"));
            match self.taken.get(&abbrev) {
                Some((sig, n)) if *sig == signature => return *n,
                Some(_) => continue,
                None => return self.declare(abbrev, signature, d),
            }
        }
        let mut k = 2;
        loop {
            let abbrev = abbreviation(&format!("{proto}.{with_id}_{k}"));
            match self.taken.get(&abbrev) {
                Some((sig, n)) if *sig == signature => return *n,
                Some(_) => k += 1,
                None => return self.declare(abbrev, signature, d),
            }
        }
    }

    fn declare(&mut self, abbrev: String, signature: String, d: &Decl<'_>) -> usize {
        let n = self.decls.len() + 1;
        let mut args = format!("{:?}", d.name);
        if !d.rest.is_empty() {
            args.push_str(", ");
            args.push_str(&d.rest);
        }
        self.decls
            .push((abbrev.clone(), format!("{}|{args}", d.ctor)));
        self.taken.insert(abbrev, (signature, n));
        n
    }

    /// The Lua expression of the value-string table `entries` (`[1] =
    /// "Buy", ...`), one table per content.
    pub(crate) fn table(&mut self, entries: &str) -> String {
        let n = match self.tables.iter().position(|t| t == entries) {
            Some(i) => i + 1,
            None => {
                self.tables.push(entries.to_string());
                self.tables.len()
            }
        };
        format!("VS[{n}]")
    }

    /// The Lua declarations: the value-string tables, then every field.
    pub(crate) fn lua(&self) -> String {
        let mut out = String::from("local VS = {}\n");
        for (i, t) in self.tables.iter().enumerate() {
            out.push_str(&format!("VS[{}] = {{ {t} }}\n", i + 1));
        }
        out.push_str("local F = {}\n");
        for (i, (abbrev, ctor)) in self.decls.iter().enumerate() {
            let (kind, args) = ctor.split_once('|').unwrap_or((ctor, ""));
            out.push_str(&format!(
                "F[{}] = ProtoField.{kind}({abbrev:?}, {args})\n",
                i + 1
            ));
        }
        // ALL: every field wanted (a visible tree), see the prelude's `W`.
        out.push_str(
            "local all_fields, ALL = {}, {}\nfor i = 1, #F do\n  all_fields[i] = F[i]\n  ALL[i] = true\nend\n",
        );
        out
    }

    /// The path (the abbreviation after `<proto>.`) of field `n`: what
    /// the items beneath it are named under.
    pub(crate) fn path_of(&self, n: usize) -> String {
        let abbrev = self
            .decls
            .get(n.wrapping_sub(1))
            .map_or("", |d| d.0.as_str());
        abbrev
            .split_once('.')
            .map_or(abbrev, |(_, p)| p)
            .to_string()
    }
}
