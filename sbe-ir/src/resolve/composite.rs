//! Resolve composites: their members, inline or through `<ref>`, laid out
//! by [`super::layout`].

use std::collections::HashSet;

use super::limits::Size;
use super::place::{self, Slot};
use super::Resolver;
use crate::ir::*;
use crate::parse::Element;

impl Resolver<'_> {
    pub(super) fn composite(&mut self, e: &Element, name: &str) -> Option<(Composite, Size)> {
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
                        type_name: None,
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
                length: encoded_length(&member.ty).unwrap_or(0),
            });
            members.push((c, member));
        }
        let placed = place::place(&slots);
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
            type_name: Some(target.to_string()),
        };
        Some((member, size))
    }
}
