//! Resolve: the element tree of [`crate::parse`] into the IR, checking
//! every rule the reference checks. Problems are collected, not thrown, so
//! one run reports all of them.

use std::collections::{HashMap, HashSet};

mod choices;
mod composite;
mod limits;
mod meaning;
mod message;
mod place;
mod types;

use crate::error::Diagnostic;
use crate::ir::*;
use crate::parse::{Document, Element, Pos};
use limits::Size;

/// Build the IR of a parsed document: `Ok` with warnings inside, or every
/// error found.
pub fn resolve(doc: &Document, declared: &DeclaredMeanings) -> Result<Schema, Vec<Diagnostic>> {
    let root = &doc.root;
    let mut r = Resolver::new(root);
    r.declared = declared.clone();
    for (name, _) in declared.iter() {
        if !r.named.contains_key(name) {
            r.diags.push(Diagnostic::warning(
                Some(root.pos.clone()),
                format!(
                    "a meaning is declared for type \"{name}\", which the schema does not define"
                ),
            ));
        }
    }
    if root.name != "messageSchema" {
        r.error(
            &root.pos,
            format!("root element is <{}>, expected <messageSchema>", root.name),
        );
        return Err(r.diags);
    }
    let schema = r.schema(root, doc);
    let errors: Vec<_> = r
        .diags
        .iter()
        .filter(|d| d.severity == crate::error::Severity::Error)
        .cloned()
        .collect();
    match schema {
        Some(s) if errors.is_empty() => {
            let mut schema = Schema {
                warnings: r.diags,
                ..s
            };
            crate::ir::element::number(&mut schema);
            Ok(schema)
        }
        _ => Err(errors),
    }
}

/// The state of one resolution. Its methods are spread over the modules
/// of [`super`] by what they resolve: the schema, its header and the
/// attributes here, types in `types`, composites in `composite`, enums and
/// sets in `choices`, messages in `message`, and the limits in `limits`.
struct Resolver<'e> {
    /// Named type elements by name, and their order.
    named: HashMap<&'e str, &'e Element>,
    order: Vec<&'e Element>,
    /// Named types resolved so far, with their size (`None`: broken, and
    /// already reported).
    cache: HashMap<String, Option<(Type, Size)>>,
    /// Named types being resolved, one inside the other, to catch cycles.
    resolving: Vec<String>,
    /// Type definitions being resolved, one inside the other.
    depth: usize,
    /// Type nodes the IR may still take, and the total it started with.
    nodes_left: usize,
    node_limit: usize,
    /// A limit was hit (and reported): resolve nothing more.
    halted: bool,
    /// Composites that a `<data>` uses: their `varData` is variable length.
    var_data_types: HashSet<String>,
    /// The schema's `version`, against which `sinceVersion`s are checked.
    version: u32,
    diags: Vec<Diagnostic>,
    /// What the user declares types mean ([`DeclaredMeanings`]).
    declared: DeclaredMeanings,
    /// The fields of the blocks being resolved, outermost first: where a
    /// field's `exponent` attribute looks for the field it names.
    exponent_scopes: Vec<Vec<message::ExponentCandidate>>,
}

fn is_type_element(e: &Element) -> bool {
    matches!(e.name.as_str(), "type" | "composite" | "enum" | "set")
}

/// Message elements: direct children and those of an SBE 2.0 `<messages>`.
fn message_elements(root: &Element) -> Vec<&Element> {
    let mut out = Vec::new();
    for c in &root.children {
        match c.name.as_str() {
            "message" => out.push(c),
            "messages" => out.extend(c.children_named("message")),
            _ => {}
        }
    }
    out
}

impl<'e> Resolver<'e> {
    fn new(root: &'e Element) -> Self {
        let node_limit = limits::node_limit(root);
        let mut r = Resolver {
            named: HashMap::new(),
            order: Vec::new(),
            cache: HashMap::new(),
            resolving: Vec::new(),
            depth: 0,
            nodes_left: node_limit,
            node_limit,
            halted: false,
            var_data_types: HashSet::new(),
            version: 0,
            diags: Vec::new(),
            declared: DeclaredMeanings::new(),
            exponent_scopes: Vec::new(),
        };
        for types in root.children_named("types") {
            for t in types.children.iter().filter(|c| is_type_element(c)) {
                let Some(name) = t.attr("name") else {
                    r.error(&t.pos, format!("<{}> without a name", t.name));
                    continue;
                };
                if r.named.insert(name, t).is_some() {
                    r.error(&t.pos, format!("duplicate type name \"{name}\""));
                    continue;
                }
                r.order.push(t);
            }
        }
        for m in message_elements(root) {
            collect_data_types(m, &mut r.var_data_types);
        }
        r
    }

    fn error(&mut self, pos: &Pos, msg: String) {
        self.diags.push(Diagnostic::error(Some(pos.clone()), msg));
    }

    fn warning(&mut self, pos: &Pos, msg: String) {
        self.diags.push(Diagnostic::warning(Some(pos.clone()), msg));
    }

    fn schema(&mut self, root: &'e Element, doc: &Document) -> Option<Schema> {
        let pos = &root.pos;
        let id = self.uint_attr(root, "id").unwrap_or(0);
        self.version = self.uint_attr(root, "version").unwrap_or(0);
        let byte_order = match root.attr("byteOrder").unwrap_or("littleEndian") {
            "littleEndian" => ByteOrder::Little,
            "bigEndian" => ByteOrder::Big,
            other => {
                self.error(
                    pos,
                    format!("byteOrder \"{other}\" is neither littleEndian nor bigEndian"),
                );
                ByteOrder::Little
            }
        };
        let types: Vec<Type> = self
            .order
            .clone()
            .into_iter()
            .filter_map(|e| self.named_type(e.attr("name").unwrap_or(""), pos))
            .collect();
        let header_name = root.attr("headerType").unwrap_or("messageHeader");
        let header = self.header(header_name, pos);
        let mut messages = Vec::new();
        let mut ids = HashMap::new();
        let mut names = HashSet::new();
        for m in message_elements(root) {
            let Some(msg) = self.message(m) else { continue };
            if let Some(prev) = ids.insert(msg.id, msg.name.clone()) {
                self.error(
                    &m.pos,
                    format!(
                        "message template id already exists: {} (used by {prev})",
                        msg.id
                    ),
                );
            }
            if !names.insert(msg.name.clone()) {
                self.error(&m.pos, format!("duplicate message name \"{}\"", msg.name));
            }
            messages.push(msg);
        }
        Some(Schema {
            package: root.attr("package").unwrap_or("").to_string(),
            id,
            version: self.version,
            semantic_version: root.attr("semanticVersion").map(str::to_string),
            description: root.attr("description").map(str::to_string),
            byte_order,
            header_type: header?,
            types,
            messages,
            warnings: Vec::new(),
            files: doc.files.clone(),
        })
    }

    fn header(&mut self, name: &str, pos: &Pos) -> Option<Type> {
        if !self.named.contains_key(name) {
            self.error(pos, format!("message header type \"{name}\" not found"));
            return None;
        }
        let ty = self.named_type(name, pos)?;
        let TypeKind::Composite(c) = &ty.kind else {
            self.error(
                &ty.pos,
                format!("message header \"{name}\" must be a composite"),
            );
            return None;
        };
        for member in ["blockLength", "templateId", "schemaId", "version"] {
            match c.members.iter().find(|m| m.ty.name == member) {
                Some(m) if !is_unsigned_int(&m.ty) => self.error(
                    &m.ty.pos,
                    format!("message header member \"{member}\" must be an unsigned integer"),
                ),
                Some(_) => {}
                None => self.error(
                    &ty.pos,
                    format!("message header \"{name}\" has no \"{member}\" member"),
                ),
            }
        }
        Some(ty)
    }

    // ----- attributes -----

    fn uint_attr(&mut self, e: &Element, name: &str) -> Option<u32> {
        let text = e.attr(name)?;
        match text.trim().parse::<u32>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.error(
                    &e.pos,
                    format!("attribute {name}=\"{text}\" is not a non-negative integer"),
                );
                None
            }
        }
    }

    /// `sinceVersion`, checked against the schema's version.
    fn since_version(&mut self, e: &Element) -> u32 {
        let v = self.uint_attr(e, "sinceVersion").unwrap_or(0);
        if v > self.version {
            let name = e.attr("name").unwrap_or(&e.name);
            self.error(
                &e.pos,
                format!(
                    "{name}.sinceVersion={v} > messageSchema.version={}",
                    self.version
                ),
            );
        }
        v
    }

    fn deprecated(&mut self, e: &Element) -> Option<u32> {
        self.uint_attr(e, "deprecated")
    }

    /// The `name` attribute, checked to be a usable identifier.
    fn name(&mut self, e: &Element) -> Option<String> {
        let Some(name) = e.attr("name") else {
            self.error(&e.pos, format!("<{}> without a name", e.name));
            return None;
        };
        if !is_identifier(name) {
            // The reference only warns; codegen makes such names usable.
            self.warning(&e.pos, format!("name \"{name}\" is not a valid identifier"));
        }
        Some(name.to_string())
    }
}

fn collect_data_types(e: &Element, out: &mut HashSet<String>) {
    for c in &e.children {
        match c.name.as_str() {
            "data" => {
                if let Some(t) = c.attr("type") {
                    out.insert(t.to_string());
                }
            }
            "group" => collect_data_types(c, out),
            _ => {}
        }
    }
}

fn is_unsigned_int(ty: &Type) -> bool {
    match &ty.kind {
        TypeKind::Encoded(e) => {
            matches!(
                e.primitive,
                Primitive::Uint8 | Primitive::Uint16 | Primitive::Uint32 | Primitive::Uint64
            ) && e.length == 1
        }
        _ => false,
    }
}

/// A name usable as an identifier in generated code (ASCII letters, digits,
/// `_`, not starting with a digit), as the reference requires.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
