//! Parse: SBE schema XML (and its `xi:include` parts) into an owned element
//! tree where every element keeps its file, line and column.
//!
//! Namespaces are matched by local name so that SBE 1.0, SBE 2.0 RC3, the
//! older CME namespaces and namespace-less schemas all read the same way;
//! attributes in a foreign namespace (Binance's `mbx:*`) are kept apart
//! by their local name (`Element::foreign`), read only where a meaning
//! needs one (`exponent`).

mod include;
mod scan;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Diagnostic, Error};
use include::{canonical, load, Budget};
use scan::{line_col, line_starts, prescan, Cursor, MAX_ELEMENT_DEPTH};

const XINCLUDE_NS: &str = "http://www.w3.org/2001/XInclude";

/// A position in a schema file, 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pos {
    /// The file the element was read from.
    pub file: Arc<PathBuf>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.col)
    }
}

/// One XML element, namespaces stripped, includes expanded.
#[derive(Debug, Clone)]
pub struct Element {
    /// Local name (`message`, `field`, ...).
    pub name: String,
    /// Attributes without a namespace, in document order.
    pub attrs: Vec<(String, String)>,
    /// Attributes in another namespace (Binance's `mbx:exponent`), by
    /// their local name, in document order.
    pub foreign: Vec<(String, String)>,
    /// The element's own text (concatenated text children), untrimmed.
    pub text: String,
    /// Child elements in document order.
    pub children: Vec<Element>,
    /// Where the element starts.
    pub pos: Pos,
}

impl Element {
    /// An attribute's value, if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// An attribute in any namespace but none, by its local name (the
    /// first, where several namespaces give one).
    pub fn foreign_attr(&self, local: &str) -> Option<&str> {
        self.foreign
            .iter()
            .find(|(k, _)| k == local)
            .map(|(_, v)| v.as_str())
    }

    /// Child elements with the given local name.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }
}

/// A parsed schema document: the root element and every file read.
#[derive(Debug, Clone)]
pub struct Document {
    /// The root (`messageSchema`) element, includes expanded in place.
    pub root: Element,
    /// The schema file and each included part, in the order read.
    pub files: Vec<PathBuf>,
}

/// How a schema may reach other files through `xi:include`.
///
/// By default an include must name a file in the schema's folder or below
/// it: an absolute path, a path that climbs out of the folder (`..`, or a
/// symbolic link that leads out) and a URL are refused with the include's
/// position, so that a schema from elsewhere reads nothing but itself and
/// its parts. `allow_outside` lifts that for schemas the user trusts
/// (`file:` URLs are then read as paths; other URLs never are).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IncludePolicy {
    /// Follow includes outside the schema's folder too.
    pub allow_outside: bool,
}

/// Read and parse a schema file, expanding XInclude.
pub fn parse_file(path: &Path, policy: IncludePolicy) -> Result<Document, Error> {
    let mut files = Vec::new();
    let mut stack = Vec::new();
    let mut read = Budget::new(path, policy);
    let root = load(path, None, &mut files, &mut stack, &mut read)?;
    Ok(Document { root, files })
}

/// Parse a schema held in memory; includes are resolved against `path`'s folder.
pub fn parse_str(path: &Path, text: &str, policy: IncludePolicy) -> Result<Document, Error> {
    let mut files = vec![path.to_path_buf()];
    let mut stack = vec![canonical(path)];
    let mut read = Budget::new(path, policy);
    read.bytes = u64::try_from(text.len()).unwrap_or(u64::MAX);
    let root = parse_text(path, text, &mut files, &mut stack, &mut read)?;
    Ok(Document { root, files })
}

fn parse_text(
    path: &Path,
    text: &str,
    files: &mut Vec<PathBuf>,
    stack: &mut Vec<PathBuf>,
    read: &mut Budget,
) -> Result<Element, Error> {
    let file = Arc::new(path.to_path_buf());
    let line_starts = line_starts(text);
    if let Some((at, msg)) = prescan(text) {
        let (line, col) = line_col(text, &line_starts, at);
        return Err(Error::Schema(vec![Diagnostic::error(
            Some(Pos { file, line, col }),
            msg,
        )]));
    }
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, opts).map_err(|e| {
        let p = e.pos();
        Error::Schema(vec![Diagnostic::error(
            Some(Pos {
                file: file.clone(),
                line: p.row,
                col: p.col,
            }),
            format!("malformed XML: {e}"),
        )])
    })?;
    let mut ctx = Ctx {
        text,
        line_starts,
        cursor: Cursor::default(),
        file,
        dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
        files,
        stack,
        read,
    };
    ctx.element(doc.root_element(), 0)
}

struct Ctx<'t, 'f> {
    text: &'t str,
    line_starts: Vec<usize>,
    cursor: Cursor,
    file: Arc<PathBuf>,
    dir: PathBuf,
    files: &'f mut Vec<PathBuf>,
    stack: &'f mut Vec<PathBuf>,
    read: &'f mut Budget,
}

impl Ctx<'_, '_> {
    /// Where `node` starts; called in document order.
    fn pos(&mut self, node: roxmltree::Node<'_, '_>) -> Pos {
        let (line, col) = self
            .cursor
            .line_col(self.text, &self.line_starts, node.range().start);
        Pos {
            file: self.file.clone(),
            line,
            col,
        }
    }

    fn element(&mut self, node: roxmltree::Node<'_, '_>, depth: usize) -> Result<Element, Error> {
        let pos = self.pos(node);
        if depth > MAX_ELEMENT_DEPTH {
            return Err(Error::Schema(vec![Diagnostic::error(
                Some(pos),
                format!("elements nested more than {MAX_ELEMENT_DEPTH} deep"),
            )]));
        }
        let attrs = node
            .attributes()
            .filter(|a| a.namespace().is_none())
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect();
        let foreign = node
            .attributes()
            .filter(|a| a.namespace().is_some())
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect();
        let mut text = String::new();
        let mut children = Vec::new();
        for child in node.children() {
            if child.is_text() {
                text.push_str(child.text().unwrap_or(""));
            } else if child.is_element() {
                if child.tag_name().namespace() == Some(XINCLUDE_NS) {
                    if child.tag_name().name() == "include" {
                        children.push(self.include(child)?);
                    }
                    continue;
                }
                children.push(self.element(child, depth + 1)?);
            }
        }
        Ok(Element {
            name: node.tag_name().name().to_string(),
            attrs,
            foreign,
            text,
            children,
            pos,
        })
    }

    fn include(&mut self, node: roxmltree::Node<'_, '_>) -> Result<Element, Error> {
        let pos = self.pos(node);
        let Some(href) = node.attribute("href") else {
            return Err(Error::Schema(vec![Diagnostic::error(
                Some(pos),
                "xi:include without href".to_string(),
            )]));
        };
        let path = self
            .read
            .resolve(&self.dir, href)
            .map_err(|msg| Error::Schema(vec![Diagnostic::error(Some(pos.clone()), msg)]))?;
        load(&path, Some(&pos), self.files, self.stack, self.read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sbe-ir-test-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir
    }

    #[test]
    fn keeps_positions_and_strips_namespaces() {
        let xml = "<sbe:messageSchema xmlns:sbe=\"http://fixprotocol.io/2016/sbe\" xmlns:mbx=\"x\" package=\"p\" mbx:foo=\"1\">\n  <types/>\n</sbe:messageSchema>";
        let doc = parse_str(Path::new("a.xml"), xml, IncludePolicy::default()).unwrap();
        assert_eq!(doc.root.name, "messageSchema");
        assert_eq!(doc.root.attrs, vec![("package".into(), "p".into())]);
        assert_eq!(doc.root.children[0].pos.line, 2);
        assert_eq!(doc.root.children[0].pos.col, 3);
    }

    #[test]
    fn expands_nested_includes_relative_to_the_including_file() {
        let dir = tmp("nested");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(
            dir.join("main.xml"),
            r#"<messageSchema xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="sub/a.xml"/></messageSchema>"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("sub/a.xml"),
            r#"<types xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="b.xml"/></types>"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("sub/b.xml"),
            r#"<type name="t" primitiveType="int8"/>"#,
        )
        .unwrap();
        let doc = parse_file(&dir.join("main.xml"), IncludePolicy::default()).unwrap();
        assert_eq!(doc.files.len(), 3);
        let types = &doc.root.children[0];
        assert_eq!(types.name, "types");
        assert_eq!(types.children[0].attr("name"), Some("t"));
    }

    #[test]
    fn reports_missing_include_and_cycles() {
        let dir = tmp("cycle");
        std::fs::write(
            dir.join("a.xml"),
            r#"<messageSchema xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="b.xml"/></messageSchema>"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("b.xml"),
            r#"<types xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="a.xml"/></types>"#,
        )
        .unwrap();
        let err = parse_file(&dir.join("a.xml"), IncludePolicy::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("cycle"), "{err}");
        assert!(err.contains("b.xml:1:"), "{err}");

        std::fs::write(
            dir.join("c.xml"),
            r#"<messageSchema xmlns:xi="http://www.w3.org/2001/XInclude">
<xi:include href="missing.xml"/></messageSchema>"#,
        )
        .unwrap();
        let err = parse_file(&dir.join("c.xml"), IncludePolicy::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("c.xml:2:1"), "{err}");
        assert!(err.contains("missing.xml"), "{err}");
    }

    #[test]
    fn malformed_xml_has_a_position() {
        let err = parse_str(
            Path::new("bad.xml"),
            "<a>\n<b></a>",
            IncludePolicy::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("bad.xml:2:"), "{err}");
    }
}
