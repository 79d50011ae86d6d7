//! Resolve: the element tree of [`crate::schema`] into the IR, checking
//! every rule the reference checks. Problems are collected, not thrown, so
//! one run reports all of them.

use std::collections::{HashMap, HashSet};

use super::layout::{self, Slot};
use super::model::*;
use crate::error::Diagnostic;
use crate::schema::{Document, Element, Pos};

/// Deepest nesting of type definitions resolved: composites inside
/// composites (inline or through `<ref>`), and the chains an enum's
/// `encodingType` or a constant's `valueRef` make. Real schemas nest a
/// handful of levels (4 at most over the corpus); resolution recurses once
/// per level, and so does every later pass over a composite, so the limit
/// keeps a hostile chain of refs from overflowing a build script's stack.
const MAX_TYPE_DEPTH: usize = 32;
/// Type nodes (each type, composite member, valid value and choice, counted
/// every time it is copied into the IR) allowed per element of the
/// document. The IR holds a composite by value wherever it is used, so
/// composites that each use the next several times would otherwise grow
/// exponentially. Over the corpus the most is 4.1 per element
/// (sbe/tests/issue849.xml; 1.9 for the largest, sbe/tests/ilinkbinary.xml,
/// and 2.4 for sbe/tests/FixBinary.xml), so this leaves a margin of 15.
const NODES_PER_ELEMENT: usize = 64;
/// Type nodes allowed whatever the document's size, so that small schemas
/// are never refused.
const NODES_FLOOR: usize = 100_000;

/// Build the IR of a parsed document: `Ok` with warnings inside, or every
/// error found.
pub fn resolve(doc: &Document) -> Result<Schema, Vec<Diagnostic>> {
    let root = &doc.root;
    let mut r = Resolver::new(root);
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
        Some(s) if errors.is_empty() => Ok(Schema {
            warnings: r.diags,
            ..s
        }),
        _ => Err(errors),
    }
}

pub(super) struct Resolver<'e> {
    /// Named type elements by name, and their order.
    named: HashMap<&'e str, &'e Element>,
    order: Vec<&'e Element>,
    cache: HashMap<String, Option<(Type, Size)>>,
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
    version: u32,
    pub(super) diags: Vec<Diagnostic>,
}

/// How much of the IR a resolved type takes: its type nodes, and how many
/// levels deep it is (1 for all but a composite, which is one more than
/// its deepest member).
#[derive(Debug, Clone, Copy)]
struct Size {
    nodes: usize,
    height: usize,
}

/// Elements of the document, counted without recursion.
fn count_elements(root: &Element) -> usize {
    let mut n = 0usize;
    let mut todo = vec![root];
    while let Some(e) = todo.pop() {
        n += 1;
        todo.extend(&e.children);
    }
    n
}

/// The text of a char value (a char `validValue`, constant, `nullValue`,
/// `minValue` or `maxValue`): trimmed, unless it is nothing but
/// whitespace, which is taken as written. The reference never trims such
/// text (`<validValue name="NotApplicable"> </validValue>` is a space,
/// 0x20, there); trimming what has more than whitespace keeps accepting
/// pretty-printed values, as for numbers.
pub(super) fn char_text(raw: &str) -> &str {
    let t = raw.trim();
    if t.is_empty() {
        raw
    } else {
        t
    }
}

/// A single char value's byte (see [`char_text`]).
fn char_scalar(raw: &str) -> Result<i128, String> {
    let t = char_text(raw);
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if u32::from(c) < 256 => Ok(i128::from(u32::from(c))),
        _ => Err(format!("\"{}\" is not a single char", t.escape_debug())),
    }
}

/// A value as written for `primitive`, with [`char_text`]'s rule for char.
fn parse_value(primitive: Primitive, raw: &str) -> Result<Scalar, String> {
    if primitive == Primitive::Char {
        char_scalar(raw).map(Scalar::Int)
    } else {
        primitive.parse_scalar(raw)
    }
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
        let node_limit = count_elements(root)
            .saturating_mul(NODES_PER_ELEMENT)
            .saturating_add(NODES_FLOOR);
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

    pub(super) fn error(&mut self, pos: &Pos, msg: String) {
        self.diags.push(Diagnostic::error(Some(pos.clone()), msg));
    }

    pub(super) fn warning(&mut self, pos: &Pos, msg: String) {
        self.diags.push(Diagnostic::warning(Some(pos.clone()), msg));
    }

    /// Report a limit hit at `pos` and stop resolving.
    fn halt(&mut self, pos: &Pos, msg: String) {
        if !self.halted {
            self.error(pos, msg);
            self.halted = true;
        }
    }

    /// Take `nodes` type nodes from the budget for a copy made at `pos`;
    /// `false` (reported once) when the budget does not hold them.
    fn charge(&mut self, nodes: usize, pos: &Pos) -> bool {
        if self.halted {
            return false;
        }
        match self.nodes_left.checked_sub(nodes) {
            Some(left) => {
                self.nodes_left = left;
                true
            }
            None => {
                let limit = self.node_limit;
                self.halt(
                    pos,
                    format!(
                        "schema refused: its types expand to more than {limit} type nodes \
                         (the limit is {NODES_PER_ELEMENT} per element of the schema, plus \
                         {NODES_FLOOR}); composites that use each other many times are \
                         copied into every use"
                    ),
                );
                false
            }
        }
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
            header: header?,
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

    pub(super) fn uint_attr(&mut self, e: &Element, name: &str) -> Option<u32> {
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
    pub(super) fn since_version(&mut self, e: &Element) -> u32 {
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

    pub(super) fn deprecated(&mut self, e: &Element) -> Option<u32> {
        self.uint_attr(e, "deprecated")
    }

    /// The `name` attribute, checked to be a usable identifier.
    pub(super) fn name(&mut self, e: &Element) -> Option<String> {
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

    // ----- types -----

    /// A named type, resolved once and cached; `None` if it is unknown or
    /// broken (already reported).
    pub(super) fn named_type(&mut self, name: &str, used_at: &Pos) -> Option<Type> {
        self.named_sized(name, used_at).map(|(ty, _)| ty)
    }

    /// A named type, resolved (and cached) but not copied.
    fn resolved(&mut self, name: &str, used_at: &Pos) -> Option<&Type> {
        if !self.cache.contains_key(name) {
            self.resolve_named(name, used_at);
        }
        self.cache
            .get(name)
            .and_then(|t| t.as_ref())
            .map(|(ty, _)| ty)
    }

    /// [`Self::named_type`] with the copy's size, charged to the budget.
    fn named_sized(&mut self, name: &str, used_at: &Pos) -> Option<(Type, Size)> {
        if self.halted {
            return None;
        }
        if !self.cache.contains_key(name) {
            self.resolve_named(name, used_at);
        }
        let size = self.cache.get(name)?.as_ref()?.1;
        if !self.charge(size.nodes, used_at) {
            return None;
        }
        let (ty, _) = self.cache.get(name)?.as_ref()?;
        Some((ty.clone(), size))
    }

    /// Resolve the named type `name` into the cache (`None` there when it
    /// is broken), unless it is unknown or part of a cycle.
    fn resolve_named(&mut self, name: &str, used_at: &Pos) {
        let Some(&elem) = self.named.get(name) else {
            self.error(used_at, format!("type \"{name}\" is not defined"));
            return;
        };
        if self.resolving.iter().any(|n| n == name) {
            self.error(
                &elem.pos,
                format!("ref types cannot create circular dependencies: \"{name}\""),
            );
            return;
        }
        self.resolving.push(name.to_string());
        let ty = self.type_def(elem);
        self.resolving.pop();
        self.cache.insert(name.to_string(), ty);
    }

    /// Any type element: `<type>`, `<composite>`, `<enum>` or `<set>`.
    fn type_def(&mut self, e: &Element) -> Option<(Type, Size)> {
        if self.halted {
            return None;
        }
        if self.depth >= MAX_TYPE_DEPTH {
            self.halt(
                &e.pos,
                format!(
                    "types nested more than {MAX_TYPE_DEPTH} deep (composites in composites, \
                     inline or through <ref>, or chains of encodingType and valueRef)"
                ),
            );
            return None;
        }
        self.depth += 1;
        let ty = self.type_def_inner(e);
        self.depth -= 1;
        ty
    }

    fn type_def_inner(&mut self, e: &Element) -> Option<(Type, Size)> {
        let name = self.name(e)?;
        let (kind, size) = match e.name.as_str() {
            "type" => (
                TypeKind::Encoded(self.encoded(e, &name)?),
                Size {
                    nodes: 1,
                    height: 1,
                },
            ),
            "composite" => {
                let (c, size) = self.composite(e, &name)?;
                if size.height > MAX_TYPE_DEPTH {
                    self.halt(
                        &e.pos,
                        format!(
                            "composite \"{name}\" nests types more than {MAX_TYPE_DEPTH} deep \
                             (composites in composites, inline or through <ref>)"
                        ),
                    );
                    return None;
                }
                (TypeKind::Composite(c), size)
            }
            "enum" => {
                let en = self.enum_type(e)?;
                let nodes = 1 + en.values.len();
                (TypeKind::Enum(en), Size { nodes, height: 1 })
            }
            "set" => {
                let set = self.set_type(e)?;
                let nodes = 1 + set.choices.len();
                (TypeKind::Set(set), Size { nodes, height: 1 })
            }
            other => {
                self.error(&e.pos, format!("<{other}> is not a type"));
                return None;
            }
        };
        // The members of a composite were charged as they were made.
        let own = match kind {
            TypeKind::Composite(_) => 1,
            _ => size.nodes,
        };
        if !self.charge(own, &e.pos) {
            return None;
        }
        let ty = Type {
            name,
            description: e.attr("description").map(str::to_string),
            since_version: self.since_version(e),
            deprecated: self.deprecated(e),
            semantic_type: e.attr("semanticType").map(str::to_string),
            kind,
            pos: e.pos.clone(),
        };
        Some((ty, size))
    }

    fn presence(&mut self, e: &Element) -> Presence {
        match e.attr("presence").unwrap_or("required") {
            "required" => Presence::Required,
            "optional" => Presence::Optional,
            "constant" => Presence::Constant,
            other => {
                self.error(&e.pos, format!("unknown presence \"{other}\""));
                Presence::Required
            }
        }
    }

    fn encoded(&mut self, e: &Element, name: &str) -> Option<Encoded> {
        let Some(prim_name) = e.attr("primitiveType") else {
            self.error(&e.pos, format!("type \"{name}\" has no primitiveType"));
            return None;
        };
        let Some(primitive) = Primitive::from_name(prim_name) else {
            self.error(&e.pos, format!("unknown primitiveType \"{prim_name}\""));
            return None;
        };
        let presence = self.presence(e);
        let length = self.uint_attr(e, "length").unwrap_or(1);
        let value = |attr: &str, r: &mut Self| -> Option<Scalar> {
            let text = e.attr(attr)?;
            match parse_value(primitive, text) {
                Ok(v) => Some(v),
                Err(msg) => {
                    r.error(&e.pos, format!("{attr} of \"{name}\": {msg}"));
                    None
                }
            }
        };
        let null_value = value("nullValue", self);
        let min_value = value("minValue", self);
        let max_value = value("maxValue", self);
        let value_ref = e.attr("valueRef").map(str::to_string);
        let const_value = if presence == Presence::Constant {
            self.const_value(e, name, primitive, value_ref.as_deref())
        } else {
            None
        };
        let character_encoding = e
            .attr("characterEncoding")
            .map(str::to_string)
            .or_else(|| (primitive == Primitive::Char).then(|| "US-ASCII".to_string()));
        Some(Encoded {
            primitive,
            length,
            presence,
            null_value,
            min_value,
            max_value,
            character_encoding,
            const_value,
            value_ref,
            var_len: false,
        })
    }

    fn const_value(
        &mut self,
        e: &Element,
        name: &str,
        primitive: Primitive,
        value_ref: Option<&str>,
    ) -> Option<ConstValue> {
        if let Some(vr) = value_ref {
            return self.value_ref(vr, &e.pos);
        }
        // The FIX 1.0 spec's own Examples.xml writes "-3    ": trim it (a
        // char's text is only trimmed when more than whitespace).
        let text = if primitive == Primitive::Char {
            char_text(&e.text)
        } else {
            e.text.trim()
        };
        if text.is_empty() {
            self.error(
                &e.pos,
                format!("type \"{name}\" has declared presence as \"constant\" but XML node has no data"),
            );
            return None;
        }
        if primitive == Primitive::Char {
            return Some(ConstValue::Text(text.to_string()));
        }
        match primitive.parse_scalar(text) {
            Ok(v) => Some(ConstValue::Number(v)),
            Err(msg) => {
                self.error(&e.pos, format!("constant \"{name}\": {msg}"));
                None
            }
        }
    }

    /// Resolve `Enum.Value` to the value's wire value.
    pub(super) fn value_ref(&mut self, value_ref: &str, pos: &Pos) -> Option<ConstValue> {
        let Some((enum_name, value_name)) = value_ref.split_once('.') else {
            self.error(
                pos,
                format!("valueRef \"{value_ref}\" is not of the form Enum.Value"),
            );
            return None;
        };
        if !self.named.contains_key(enum_name) {
            self.error(
                pos,
                format!("valueRef \"{value_ref}\": no enum \"{enum_name}\""),
            );
            return None;
        }
        // Looked at in the cache, not copied: only one value is needed.
        let found = match &self.resolved(enum_name, pos)?.kind {
            TypeKind::Enum(en) => Some(
                en.values
                    .iter()
                    .find(|v| v.name == value_name)
                    .map(|v| v.value),
            ),
            _ => None,
        };
        let Some(found) = found else {
            self.error(
                pos,
                format!("valueRef \"{value_ref}\": \"{enum_name}\" is not an enum"),
            );
            return None;
        };
        let Some(value) = found else {
            self.error(
                pos,
                format!(
                    "valueRef \"{value_ref}\": enum \"{enum_name}\" has no value \"{value_name}\""
                ),
            );
            return None;
        };
        Some(ConstValue::EnumValue {
            enum_name: enum_name.to_string(),
            value_name: value_name.to_string(),
            value,
        })
    }

    fn composite(&mut self, e: &Element, name: &str) -> Option<(Composite, Size)> {
        let mut members = Vec::new();
        let mut slots = Vec::new();
        let mut names = HashSet::new();
        let mut size = Size {
            nodes: 1,
            height: 1,
        };
        for c in &e.children {
            let member = match c.name.as_str() {
                "type" | "composite" | "enum" | "set" => self.type_def(c).map(|(ty, size)| {
                    let member = Member {
                        offset: 0,
                        ty,
                        ref_type: None,
                    };
                    (member, size)
                }),
                "ref" => self.ref_member(c),
                other => {
                    self.error(
                        &c.pos,
                        format!("<{other}> not valid within composite \"{name}\""),
                    );
                    None
                }
            };
            let Some((mut member, member_size)) = member else {
                continue;
            };
            size.nodes = size.nodes.saturating_add(member_size.nodes);
            size.height = size.height.max(member_size.height + 1);
            if !names.insert(member.ty.name.clone()) {
                self.error(
                    &c.pos,
                    format!(
                        "duplicate member \"{}\" in composite \"{name}\"",
                        member.ty.name
                    ),
                );
            }
            if self.var_data_types.contains(name) && member.ty.name == "varData" {
                if let TypeKind::Encoded(enc) = &mut member.ty.kind {
                    enc.var_len = true;
                }
            }
            slots.push(Slot {
                explicit_offset: self.uint_attr(c, "offset"),
                length: layout::encoded_length(&member.ty).unwrap_or(0),
            });
            members.push((c, member));
        }
        let placed = layout::place(&slots);
        for (i, min) in placed.overlaps {
            if let Some((c, m)) = members.get(i) {
                let msg = format!(
                    "composite element \"{}\" has incorrect offset specified: it overlaps the previous member (earliest offset {min})",
                    m.ty.name
                );
                self.error(&c.pos, msg);
            }
        }
        let composite = Composite {
            members: members
                .into_iter()
                .zip(placed.offsets)
                .map(|((_, m), offset)| Member { offset, ..m })
                .collect(),
        };
        Some((composite, size))
    }

    fn ref_member(&mut self, c: &Element) -> Option<(Member, Size)> {
        let name = self.name(c)?;
        let Some(target) = c.attr("type") else {
            self.error(&c.pos, format!("<ref name=\"{name}\"> has no type"));
            return None;
        };
        let (mut ty, size) = self.named_sized(target, &c.pos)?;
        ty.name = name;
        ty.pos = c.pos.clone();
        if c.attr("sinceVersion").is_some() {
            ty.since_version = self.since_version(c);
        }
        if let Some(d) = self.deprecated(c) {
            ty.deprecated = Some(d);
        }
        let member = Member {
            offset: 0,
            ty,
            ref_type: Some(target.to_string()),
        };
        Some((member, size))
    }

    /// The primitive (and type, if named) of an enum or set `encodingType`.
    fn encoding_type(&mut self, e: &Element) -> Option<(Primitive, Option<Encoded>)> {
        let Some(enc) = e.attr("encodingType") else {
            self.error(&e.pos, format!("<{}> has no encodingType", e.name));
            return None;
        };
        if let Some(p) = Primitive::from_name(enc) {
            return Some((p, None));
        }
        if !self.named.contains_key(enc) {
            self.error(&e.pos, format!("encodingType \"{enc}\" is not defined"));
            return None;
        }
        let ty = self.named_type(enc, &e.pos)?;
        match ty.kind {
            TypeKind::Encoded(t) if t.length == 1 => Some((t.primitive, Some(t))),
            _ => {
                self.error(
                    &e.pos,
                    format!("encodingType \"{enc}\" must be a single primitive <type>"),
                );
                None
            }
        }
    }

    fn enum_type(&mut self, e: &Element) -> Option<EnumType> {
        let (encoding, enc_type) = self.encoding_type(e)?;
        if encoding.is_float() {
            self.error(
                &e.pos,
                format!(
                    "enum encodingType {} must be char or an integer type",
                    encoding.name()
                ),
            );
            return None;
        }
        let null_value = match enc_type.as_ref().and_then(|t| t.null_value) {
            Some(Scalar::Int(v)) => v,
            _ => match encoding.default_null() {
                Scalar::Int(v) => v,
                Scalar::Float(_) => 0,
            },
        };
        let (min, max) = match &enc_type {
            Some(t) => (t.min_value, t.max_value),
            None => (None, None),
        };
        let mut values: Vec<ValidValue> = Vec::new();
        let mut names = HashSet::new();
        let mut seen = HashSet::new();
        for v in e.children_named("validValue") {
            let Some(name) = self.name(v) else { continue };
            let value = match parse_value(encoding, &v.text) {
                Ok(Scalar::Int(x)) => x,
                Ok(Scalar::Float(_)) => continue,
                Err(msg) => {
                    self.error(&v.pos, format!("validValue {name}: {msg}"));
                    continue;
                }
            };
            let out_of = |bound: Option<Scalar>, below: bool| match bound {
                Some(Scalar::Int(b)) => (below && value < b) || (!below && value > b),
                _ => false,
            };
            if out_of(min, true) || out_of(max, false) {
                let show = |s: Option<Scalar>| match s {
                    Some(Scalar::Int(b)) => b.to_string(),
                    _ => "-".into(),
                };
                self.error(
                    &v.pos,
                    format!(
                        "validValue {name} outside of range {} - {}: {value}",
                        show(min),
                        show(max)
                    ),
                );
            }
            if value == null_value {
                // The reference rejects this; real schemas (MEMX) ship it.
                self.warning(
                    &v.pos,
                    format!("validValue {name} is the enum's null value {value}"),
                );
            }
            if !names.insert(name.clone()) {
                self.error(&v.pos, format!("duplicate validValue name \"{name}\""));
            }
            if !seen.insert(value) {
                self.error(
                    &v.pos,
                    format!("duplicate validValue value {value} (\"{name}\")"),
                );
            }
            values.push(ValidValue {
                since_version: self.since_version(v),
                deprecated: self.deprecated(v),
                description: v.attr("description").map(str::to_string),
                name,
                value,
            });
        }
        Some(EnumType {
            encoding,
            // The enum's own presence; its encoding type's does not carry over
            // (the reference reports such an enum as required).
            presence: self.presence(e),
            null_value,
            values,
        })
    }

    fn set_type(&mut self, e: &Element) -> Option<SetType> {
        let (encoding, _) = self.encoding_type(e)?;
        if encoding.is_signed() || encoding.is_float() || encoding == Primitive::Char {
            self.error(
                &e.pos,
                format!(
                    "set encodingType must be an unsigned integer type, not {}",
                    encoding.name()
                ),
            );
            return None;
        }
        let bits = encoding.size() * 8;
        let mut choices: Vec<Choice> = Vec::new();
        let (mut names, mut used_bits) = (HashSet::new(), HashSet::new());
        for c in e.children_named("choice") {
            let Some(name) = self.name(c) else { continue };
            let bit = match c.text.trim().parse::<u32>() {
                Ok(b) if b < bits => b,
                _ => {
                    self.error(
                        &c.pos,
                        format!(
                            "choice {name}: bit \"{}\" is not within 0..{bits}",
                            c.text.trim()
                        ),
                    );
                    continue;
                }
            };
            let new_name = names.insert(name.clone());
            if !used_bits.insert(bit) || !new_name {
                self.error(
                    &c.pos,
                    format!("duplicate choice name or bit: {name} = {bit}"),
                );
            }
            choices.push(Choice {
                since_version: self.since_version(c),
                deprecated: self.deprecated(c),
                description: c.attr("description").map(str::to_string),
                name,
                bit,
            });
        }
        Some(SetType { encoding, choices })
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
