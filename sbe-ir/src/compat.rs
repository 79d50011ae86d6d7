//! Compatibility: is a new schema a safe evolution of an old one? Decoders
//! built from either must read what the other writes, following the SBE
//! spec's extension rules: a message keeps every field where it was; new
//! fields, groups and var data come after the old ones with a `sinceVersion`
//! above the old schema's version; enums and sets only gain values.
//!
//! ```
//! # use sbe_ir::{compat, ir};
//! let header = r#"<composite name="messageHeader"><type name="blockLength" primitiveType="uint16"/>
//!   <type name="templateId" primitiveType="uint16"/><type name="schemaId" primitiveType="uint16"/>
//!   <type name="version" primitiveType="uint16"/></composite>"#;
//! let v0 = format!(r#"<messageSchema package="p" id="1" version="0"><types>{header}</types>
//!   <message name="M" id="1"><field name="a" id="1" type="uint32"/></message></messageSchema>"#);
//! let v1 = format!(r#"<messageSchema package="p" id="1" version="1"><types>{header}</types>
//!   <message name="M" id="1"><field name="a" id="1" type="uint32"/>
//!   <field name="b" id="2" type="uint8" sinceVersion="1"/></message></messageSchema>"#);
//! let old = ir::load_str("v0.xml", &v0).unwrap();
//! let new = ir::load_str("v1.xml", &v1).unwrap();
//! assert!(compat::check(&old, &new).is_compatible());
//! assert!(!compat::check(&new, &old).is_compatible()); // a field went away
//! ```

use crate::error::Diagnostic;
use crate::ir::{encoded_length, Data, Field, Group, Message, Schema, Type, TypeKind};
use crate::parse::Pos;

/// The outcome of [`check`].
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Changes that break a decoder of one version reading the other.
    pub errors: Vec<Diagnostic>,
    /// Changes that decode but may surprise (renames, presence changes).
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    /// No breaking change was found.
    pub fn is_compatible(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Compare `old` and `new`; positions point into `new` (or `old` for what
/// was removed).
pub fn check(old: &Schema, new: &Schema) -> Report {
    let mut c = Checker {
        report: Report::default(),
        old_version: old.version,
    };
    c.schema(old, new);
    c.report
}

struct Checker {
    report: Report,
    old_version: u32,
}

impl Checker {
    fn error(&mut self, pos: &Pos, msg: String) {
        self.report
            .errors
            .push(Diagnostic::error(Some(pos.clone()), msg));
    }

    fn warning(&mut self, pos: &Pos, msg: String) {
        self.report
            .warnings
            .push(Diagnostic::warning(Some(pos.clone()), msg));
    }

    fn schema(&mut self, old: &Schema, new: &Schema) {
        let at = &new.header_type.pos;
        if old.id != new.id {
            self.error(
                at,
                format!("schema id changed from {} to {}", old.id, new.id),
            );
        }
        if old.byte_order != new.byte_order {
            self.error(at, "byteOrder changed".to_string());
        }
        if new.version < old.version {
            self.error(
                at,
                format!("version went down from {} to {}", old.version, new.version),
            );
        }
        if shape(&old.header_type) != shape(&new.header_type) {
            self.error(
                at,
                format!(
                    "message header \"{}\" changed its layout",
                    new.header_type.name
                ),
            );
        }
        for om in &old.messages {
            match new.messages.iter().find(|m| m.id == om.id) {
                Some(nm) => self.message(om, nm),
                None => self.error(
                    &om.pos,
                    format!("message \"{}\" (id {}) was removed", om.name, om.id),
                ),
            }
        }
        for nm in &new.messages {
            if !old.messages.iter().any(|m| m.id == nm.id)
                && nm.block.since_version <= old.version
                && new.version > old.version
            {
                self.warning(
                    &nm.pos,
                    format!(
                        "new message \"{}\" has sinceVersion {} (not above {})",
                        nm.name, nm.block.since_version, old.version
                    ),
                );
            }
        }
    }

    fn message(&mut self, old: &Message, new: &Message) {
        if old.name != new.name {
            self.warning(
                &new.pos,
                format!(
                    "message id {} renamed from \"{}\" to \"{}\"",
                    new.id, old.name, new.name
                ),
            );
        }
        self.block(
            &new.name,
            &new.pos,
            (old.block.block_length, &old.block.fields),
            (new.block.block_length, &new.block.fields),
        );
        self.groups(&new.name, &old.block.groups, &new.block.groups, &new.pos);
        self.data(&new.name, &old.block.data, &new.block.data, &new.pos);
    }

    fn block(&mut self, owner: &str, pos: &Pos, old: (u32, &[Field]), new: (u32, &[Field])) {
        let (old_len, old_fields) = old;
        let (new_len, new_fields) = new;
        if new_len < old_len {
            self.error(
                pos,
                format!("\"{owner}\": blockLength shrank from {old_len} to {new_len}"),
            );
        }
        for of in old_fields {
            let Some(nf) = new_fields.iter().find(|f| f.name == of.name) else {
                self.error(&of.pos, format!("\"{owner}.{}\" was removed", of.name));
                continue;
            };
            self.field(owner, of, nf);
        }
        for nf in new_fields
            .iter()
            .filter(|f| !old_fields.iter().any(|o| o.name == f.name))
        {
            if nf.since_version <= self.old_version {
                self.error(
                    &nf.pos,
                    format!(
                        "\"{owner}.{}\" is new but its sinceVersion {} is not above {}",
                        nf.name, nf.since_version, self.old_version
                    ),
                );
            }
            if nf.encoded_length > 0 && nf.offset < old_len {
                self.error(&nf.pos, format!("\"{owner}.{}\" is new but sits at offset {} inside the old block of {old_len} bytes", nf.name, nf.offset));
            }
        }
    }

    fn field(&mut self, owner: &str, old: &Field, new: &Field) {
        let name = format!("{owner}.{}", new.name);
        if old.offset != new.offset {
            self.error(
                &new.pos,
                format!(
                    "\"{name}\" moved from offset {} to {}",
                    old.offset, new.offset
                ),
            );
        }
        if shape(&old.ty) != shape(&new.ty) || old.encoded_length != new.encoded_length {
            self.error(
                &new.pos,
                format!(
                    "\"{name}\" changed its type from {} to {}",
                    old.type_name, new.type_name
                ),
            );
        }
        if old.presence != new.presence {
            self.warning(
                &new.pos,
                format!(
                    "\"{name}\" changed presence from {:?} to {:?}",
                    old.presence, new.presence
                ),
            );
        }
        if old.since_version != new.since_version {
            self.error(
                &new.pos,
                format!(
                    "\"{name}\" changed sinceVersion from {} to {}",
                    old.since_version, new.since_version
                ),
            );
        }
        self.values(&name, &old.ty, &new.ty, &new.pos);
    }

    /// Enums and sets may gain values, never lose or change them.
    fn values(&mut self, name: &str, old: &Type, new: &Type, pos: &Pos) {
        match (&old.kind, &new.kind) {
            (TypeKind::Enum(o), TypeKind::Enum(n)) => {
                for v in &o.values {
                    match n.values.iter().find(|x| x.name == v.name) {
                        Some(x) if x.value == v.value => {}
                        Some(x) => self.error(
                            pos,
                            format!(
                                "\"{name}\": enum value {} changed from {} to {}",
                                v.name, v.value, x.value
                            ),
                        ),
                        None => self.error(
                            pos,
                            format!("\"{name}\": enum value {} was removed", v.name),
                        ),
                    }
                }
            }
            (TypeKind::Set(o), TypeKind::Set(n)) => {
                for c in &o.choices {
                    match n.choices.iter().find(|x| x.name == c.name) {
                        Some(x) if x.bit == c.bit => {}
                        Some(x) => self.error(
                            pos,
                            format!(
                                "\"{name}\": set choice {} moved from bit {} to {}",
                                c.name, c.bit, x.bit
                            ),
                        ),
                        None => self.error(
                            pos,
                            format!("\"{name}\": set choice {} was removed", c.name),
                        ),
                    }
                }
            }
            (TypeKind::Composite(o), TypeKind::Composite(n)) => {
                for (om, nm) in o.members.iter().zip(&n.members) {
                    self.values(&format!("{name}.{}", nm.ty.name), &om.ty, &nm.ty, pos);
                }
            }
            _ => {}
        }
    }

    fn groups(&mut self, owner: &str, old: &[Group], new: &[Group], pos: &Pos) {
        for (i, og) in old.iter().enumerate() {
            match new.get(i) {
                Some(ng) if ng.name == og.name => self.group(owner, og, ng),
                _ => self.error(
                    pos,
                    format!(
                        "\"{owner}\": group \"{}\" is no longer group #{}",
                        og.name,
                        i + 1
                    ),
                ),
            }
        }
        for ng in new.iter().skip(old.len()) {
            if ng.block.since_version <= self.old_version {
                self.error(
                    &ng.pos,
                    format!(
                        "\"{owner}.{}\" is a new group but its sinceVersion {} is not above {}",
                        ng.name, ng.block.since_version, self.old_version
                    ),
                );
            }
        }
    }

    fn group(&mut self, owner: &str, old: &Group, new: &Group) {
        let name = format!("{owner}.{}", new.name);
        if shape(&old.dimension_type) != shape(&new.dimension_type) {
            self.error(&new.pos, format!("\"{name}\": dimension encoding changed"));
        }
        self.block(
            &name,
            &new.pos,
            (old.block.block_length, &old.block.fields),
            (new.block.block_length, &new.block.fields),
        );
        self.groups(&name, &old.block.groups, &new.block.groups, &new.pos);
        self.data(&name, &old.block.data, &new.block.data, &new.pos);
    }

    fn data(&mut self, owner: &str, old: &[Data], new: &[Data], pos: &Pos) {
        for (i, od) in old.iter().enumerate() {
            match new.get(i) {
                Some(nd) if nd.name == od.name => {
                    if od.length_primitive != nd.length_primitive {
                        self.error(
                            &nd.pos,
                            format!("\"{owner}.{}\": length type changed", nd.name),
                        );
                    }
                }
                _ => self.error(
                    pos,
                    format!(
                        "\"{owner}\": var data \"{}\" is no longer #{}",
                        od.name,
                        i + 1
                    ),
                ),
            }
        }
        for nd in new.iter().skip(old.len()) {
            if nd.since_version <= self.old_version {
                self.error(
                    &nd.pos,
                    format!(
                        "\"{owner}.{}\" is new var data but its sinceVersion {} is not above {}",
                        nd.name, nd.since_version, self.old_version
                    ),
                );
            }
        }
    }
}

/// The wire shape of a type: what a decoder depends on (primitives,
/// lengths, offsets), not names or documentation.
fn shape(ty: &Type) -> String {
    match &ty.kind {
        TypeKind::Encoded(e) => format!(
            "{}x{}{:?}",
            e.primitive.name(),
            e.length,
            encoded_length(ty)
        ),
        TypeKind::Enum(e) => format!("enum:{}", e.encoding.name()),
        TypeKind::Set(s) => format!("set:{}", s.encoding.name()),
        TypeKind::Composite(c) => {
            let members: Vec<String> = c
                .members
                .iter()
                .map(|m| format!("{}@{}={}", m.ty.name, m.offset, shape(&m.ty)))
                .collect();
            format!("{{{}}}", members.join(","))
        }
    }
}
