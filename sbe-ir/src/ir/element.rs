//! Numbers for the schema's elements, which the generated code's errors
//! carry (`sbe_rt::Error::at`) and its `ELEMENTS` table names by path.
//!
//! Element 1 is the message header; then each message, followed by its
//! fields, its groups (each followed by its own fields, groups and var
//! data) and its var data, in schema order. An error's word holds up to
//! [`sbe_rt::Error::ELEMENT_MAX`] of them; a schema with more leaves the
//! rest at 0, unnamed.

use super::{Block, Schema};

/// The number of the message header among the elements.
pub const HEADER_ELEMENT: u16 = 1;

impl Schema {
    /// The path of each numbered element, element `n` at index `n - 1`:
    /// the header type's name, then `Message`, `Message.field`,
    /// `Message.group`, `Message.group.field`, ... (the schema's names).
    ///
    /// ```
    /// let xml = r#"<messageSchema package="demo" id="1">
    ///   <types>
    ///     <composite name="messageHeader">
    ///       <type name="blockLength" primitiveType="uint16"/>
    ///       <type name="templateId" primitiveType="uint16"/>
    ///       <type name="schemaId" primitiveType="uint16"/>
    ///       <type name="version" primitiveType="uint16"/>
    ///     </composite>
    ///   </types>
    ///   <message name="Ping" id="1">
    ///     <field name="seq" id="1" type="uint64"/>
    ///   </message>
    /// </messageSchema>"#;
    /// let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
    /// assert_eq!(schema.element_paths(), ["messageHeader", "Ping", "Ping.seq"]);
    /// assert_eq!(schema.messages[0].block.fields[0].element, 3);
    /// ```
    #[must_use]
    pub fn element_paths(&self) -> Vec<String> {
        let mut numbered = vec![(HEADER_ELEMENT, self.header_type.name.clone())];
        for m in &self.messages {
            numbered.push((m.element, m.name.clone()));
            block_paths(&m.block, &m.name, &mut numbered);
        }
        let mut paths = Vec::new();
        for (n, path) in numbered {
            let Some(i) = usize::from(n).checked_sub(1) else {
                continue;
            };
            if paths.len() <= i {
                paths.resize(i + 1, String::new());
            }
            paths[i] = path;
        }
        paths
    }
}

fn block_paths(b: &Block, owner: &str, out: &mut Vec<(u16, String)>) {
    for f in &b.fields {
        out.push((f.element, format!("{owner}.{}", f.name)));
    }
    for g in &b.groups {
        let path = format!("{owner}.{}", g.name);
        out.push((g.element, path.clone()));
        block_paths(&g.block, &path, out);
    }
    for d in &b.data {
        out.push((d.element, format!("{owner}.{}", d.name)));
    }
}

/// Numbers every element of `schema` (see the module's docs).
pub(crate) fn number(schema: &mut Schema) {
    let mut next = HEADER_ELEMENT;
    for m in &mut schema.messages {
        m.element = take(&mut next);
        number_block(&mut m.block, &mut next);
    }
}

fn number_block(b: &mut Block, next: &mut u16) {
    for f in &mut b.fields {
        f.element = take(next);
    }
    for g in &mut b.groups {
        g.element = take(next);
        number_block(&mut g.block, next);
    }
    for d in &mut b.data {
        d.element = take(next);
    }
}

/// The number after the last one given, or 0 past the most an error names.
fn take(last: &mut u16) -> u16 {
    if *last >= sbe_rt::Error::ELEMENT_MAX {
        return 0;
    }
    *last += 1;
    *last
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_element_has_its_path_and_past_the_most_none() {
        let mut fields = String::new();
        for i in 0..5000 {
            fields.push_str(&format!(
                r#"<field name="f{i}" id="{}" type="uint8"/>"#,
                i + 1
            ));
        }
        let xml = format!(
            r#"<messageSchema package="big" id="1">
              <types>
                <composite name="messageHeader">
                  <type name="blockLength" primitiveType="uint16"/>
                  <type name="templateId" primitiveType="uint16"/>
                  <type name="schemaId" primitiveType="uint16"/>
                  <type name="version" primitiveType="uint16"/>
                </composite>
                <composite name="groupSizeEncoding">
                  <type name="blockLength" primitiveType="uint16"/>
                  <type name="numInGroup" primitiveType="uint16"/>
                </composite>
                <composite name="varData">
                  <type name="length" primitiveType="uint8"/>
                  <type name="varData" primitiveType="uint8" length="0"/>
                </composite>
              </types>
              <message name="A" id="1">
                <field name="x" id="1" type="uint8"/>
                <group name="g" id="2" dimensionType="groupSizeEncoding">
                  <field name="y" id="3" type="uint8"/>
                  <data name="d" id="4" type="varData"/>
                </group>
                <data name="e" id="5" type="varData"/>
              </message>
              <message name="B" id="2">{fields}</message>
            </messageSchema>"#
        );
        let schema = crate::ir::load_str("big.xml", &xml).unwrap();
        let paths = schema.element_paths();
        assert_eq!(
            paths[..7],
            ["messageHeader", "A", "A.x", "A.g", "A.g.y", "A.g.d", "A.e"]
        );
        let a = &schema.messages[0];
        assert_eq!((a.element, a.block.groups[0].block.data[0].element), (2, 6));
        assert_eq!(paths.len(), usize::from(sbe_rt::Error::ELEMENT_MAX));
        let b = &schema.messages[1].block.fields;
        assert_eq!(b[0].element, 9);
        assert_eq!(paths[8], "B.f0");
        assert_eq!(b[4086].element, sbe_rt::Error::ELEMENT_MAX);
        assert_eq!(b[4087].element, 0);
    }
}
