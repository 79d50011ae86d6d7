//! Parse: SBE schema XML (and its `xi:include` parts) into an owned element
//! tree where every element keeps its file, line and column.
//!
//! Namespaces are matched by local name so that SBE 1.0, SBE 2.0 RC3, the
//! older CME namespaces and namespace-less schemas all read the same way;
//! attributes in a foreign namespace (Binance's `mbx:*`) are dropped here.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Diagnostic, Error};

const XINCLUDE_NS: &str = "http://www.w3.org/2001/XInclude";
/// Deepest include nesting followed before we call it a cycle we missed.
const MAX_INCLUDE_DEPTH: usize = 32;
/// Deepest element nesting accepted: real schemas stay far below it, and it
/// keeps hostile input from exhausting the stack of the recursive passes.
const MAX_ELEMENT_DEPTH: usize = 100;
/// Most attributes on one element. Real schemas use a dozen at most;
/// roxmltree checks each new attribute against the element's others, so
/// an element with tens of thousands of them takes seconds to parse.
const MAX_ATTRIBUTES: usize = 256;
/// Most namespace declarations in one file. Real schemas declare a few;
/// roxmltree copies the namespaces in scope into every element that
/// declares one more, quadratic in their number.
const MAX_NAMESPACES: usize = 1024;
/// Most schema text read for one document, the schema and every included
/// part counted each time it is included. The largest real schema we know
/// (CME iLink 3) is under 300 KB; the cap keeps a device such as
/// `/dev/zero`, or a part included over and over, from filling memory.
const MAX_TOTAL_BYTES: u64 = 32 << 20;
/// Most `xi:include`s followed for one document. Real schemas include a
/// handful of parts; without a cap, parts that include a small part many
/// times each nest into an exponential number of reads.
const MAX_INCLUDES: usize = 1000;

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

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What one document has read so far, against [`MAX_TOTAL_BYTES`] and
/// [`MAX_INCLUDES`], and where its includes may lead.
struct Budget {
    bytes: u64,
    includes: usize,
    policy: IncludePolicy,
    /// The schema's folder, resolved: includes must stay inside it.
    root_dir: PathBuf,
}

impl Budget {
    fn new(schema: &Path, policy: IncludePolicy) -> Self {
        let dir = schema.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        Budget {
            bytes: 0,
            includes: 0,
            policy,
            root_dir: canonical(&dir),
        }
    }

    /// The file an include's `href` names, relative to `dir` (the including
    /// file's folder), or why the policy refuses it.
    fn resolve(&self, dir: &Path, href: &str) -> Result<PathBuf, String> {
        let url = href.split_once(':').filter(|(scheme, _)| {
            scheme.len() > 1
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
        if let Some((scheme, rest)) = url {
            if !self.policy.allow_outside {
                return Err(format!("xi:include of a URL ({href}) is not followed; allow includes outside the schema's folder to read file: URLs"));
            }
            if !scheme.eq_ignore_ascii_case("file") {
                return Err(format!(
                    "xi:include of a {scheme}: URL ({href}): only files are read"
                ));
            }
            return Ok(PathBuf::from(rest.trim_start_matches("//")));
        }
        let path = dir.join(href);
        if self.policy.allow_outside {
            return Ok(path);
        }
        if Path::new(href).is_absolute() {
            return Err(format!("xi:include of an absolute path ({href}) is not followed: includes must stay in the schema's folder unless allowed"));
        }
        // A part that does not exist is reported when it is read.
        let resolved = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if resolved.exists() && !resolved.starts_with(&self.root_dir) {
            return Err(format!("xi:include of {href} leads out of the schema's folder ({}): not followed unless allowed", self.root_dir.display()));
        }
        Ok(path)
    }
}

fn load(
    path: &Path,
    from: Option<&Pos>,
    files: &mut Vec<PathBuf>,
    stack: &mut Vec<PathBuf>,
    read: &mut Budget,
) -> Result<Element, Error> {
    let key = canonical(path);
    if stack.contains(&key) {
        return Err(Error::Schema(vec![Diagnostic::error(
            from.cloned(),
            format!("xi:include cycle: {} includes itself", path.display()),
        )]));
    }
    if stack.len() >= MAX_INCLUDE_DEPTH {
        return Err(Error::Schema(vec![Diagnostic::error(
            from.cloned(),
            "xi:include nested too deeply".to_string(),
        )]));
    }
    let text = read_text(path, from, read)?;
    files.push(path.to_path_buf());
    stack.push(key);
    let root = parse_text(path, &text, files, stack, read);
    stack.pop();
    root
}

/// Read a schema file or an included part (`from` is the include's
/// position). An included part must be a regular file, checked before it
/// is opened, since opening a FIFO blocks and a device reads forever; the
/// schema itself may be a pipe (`--schema <(...)`). Either way at most
/// what is left of [`MAX_TOTAL_BYTES`] is read.
fn read_text(path: &Path, from: Option<&Pos>, read: &mut Budget) -> Result<String, Error> {
    use std::io::Read;
    let fail = |source: std::io::Error| match from {
        Some(pos) => Error::Schema(vec![Diagnostic::error(
            Some(pos.clone()),
            format!("cannot read included file {}: {source}", path.display()),
        )]),
        None => Error::Io {
            path: path.to_path_buf(),
            source,
        },
    };
    let refuse = |msg: String| match from {
        Some(pos) => Error::Schema(vec![Diagnostic::error(Some(pos.clone()), msg)]),
        None => Error::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, msg),
        },
    };
    let not_regular = || {
        refuse(format!(
            "included file {} is not a regular file",
            path.display()
        ))
    };
    if from.is_some() {
        read.includes += 1;
        if read.includes > MAX_INCLUDES {
            return Err(refuse(format!(
                "more than {MAX_INCLUDES} xi:includes in one schema"
            )));
        }
        if !std::fs::metadata(path).map_err(fail)?.is_file() {
            return Err(not_regular());
        }
    }
    let file = std::fs::File::open(path).map_err(fail)?;
    if from.is_some() && !file.metadata().map_err(fail)?.is_file() {
        return Err(not_regular());
    }
    let left = MAX_TOTAL_BYTES.saturating_sub(read.bytes);
    let mut bytes = Vec::new();
    file.take(left.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(fail)?;
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if len > left {
        let what = match from {
            Some(_) => format!("included file {}", path.display()),
            None => "schema".to_string(),
        };
        return Err(refuse(format!(
            "{what} refused: more than {} MiB of schema text, includes counted",
            MAX_TOTAL_BYTES >> 20
        )));
    }
    read.bytes += len;
    String::from_utf8(bytes)
        .map_err(|e| fail(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
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

/// Byte offset where each line starts, to turn offsets into line:col
/// without rescanning the text for every element.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// 1-based line and column (in characters) of byte offset `at`.
fn line_col(text: &str, line_starts: &[usize], at: usize) -> (u32, u32) {
    let mut cursor = Cursor::default();
    cursor.line_col(text, line_starts, at)
}

/// The last position turned into line:col, so that the next one, further
/// on in document order, counts only the characters in between: counting
/// from the line start every time is quadratic on a schema written on one
/// line.
#[derive(Default)]
struct Cursor {
    /// Byte offset of the last position (a char boundary).
    at: usize,
    /// Its 0-based line.
    line: usize,
    /// Its 0-based column, in characters.
    col: usize,
}

impl Cursor {
    fn line_col(&mut self, text: &str, line_starts: &[usize], at: usize) -> (u32, u32) {
        let line = line_starts.partition_point(|&s| s <= at).saturating_sub(1);
        if line != self.line || at < self.at {
            // A new line, or (never in document order) a step back.
            self.line = line;
            self.at = line_starts.get(line).copied().unwrap_or(0);
            self.col = 0;
        }
        self.col += text.get(self.at..at).map_or(0, |t| t.chars().count());
        self.at = at;
        (
            u32::try_from(line + 1).unwrap_or(u32::MAX),
            u32::try_from(self.col + 1).unwrap_or(u32::MAX),
        )
    }
}

/// Where (and how) the text first exceeds [`MAX_ELEMENT_DEPTH`],
/// [`MAX_ATTRIBUTES`] or [`MAX_NAMESPACES`], found by a light scan before
/// parsing: roxmltree's tokenizer recurses once per level, so hostile
/// nesting would otherwise overflow the stack there, and it is quadratic
/// in the attributes of an element and the namespaces in scope.
fn prescan(text: &str) -> Option<(usize, String)> {
    let b = text.as_bytes();
    let (mut i, mut depth, mut namespaces) = (0usize, 0usize, 0usize);
    while let Some(off) = b.get(i..).and_then(|r| r.iter().position(|&c| c == b'<')) {
        let at = i + off;
        let rest = b.get(at..).unwrap_or_default();
        let skip_to = |end: &[u8]| {
            rest.windows(end.len())
                .position(|w| w == end)
                .map(|p| at + p + end.len())
        };
        i = match rest.get(1) {
            Some(b'/') => {
                depth = depth.saturating_sub(1);
                skip_to(b">")?
            }
            Some(b'!') if rest.starts_with(b"<!--") => skip_to(b"-->")?,
            Some(b'!') if rest.starts_with(b"<![CDATA[") => skip_to(b"]]>")?,
            Some(b'!') | Some(b'?') => skip_to(b">")?,
            _ => {
                let tag = start_tag(rest)?;
                if tag.attributes > MAX_ATTRIBUTES {
                    return Some((
                        at,
                        format!("element with more than {MAX_ATTRIBUTES} attributes"),
                    ));
                }
                namespaces += tag.namespaces;
                if namespaces > MAX_NAMESPACES {
                    return Some((
                        at,
                        format!("more than {MAX_NAMESPACES} namespace declarations in one file"),
                    ));
                }
                if rest.get(tag.end.saturating_sub(1)) != Some(&b'/') {
                    depth += 1;
                    if depth > MAX_ELEMENT_DEPTH {
                        return Some((
                            at,
                            format!("elements nested more than {MAX_ELEMENT_DEPTH} deep"),
                        ));
                    }
                }
                at + tag.end + 1
            }
        };
    }
    None
}

/// A start tag as [`prescan`] sees it.
struct StartTag {
    /// Index of its closing `>`.
    end: usize,
    /// `=` outside quoted values: its attributes, namespace ones included.
    attributes: usize,
    /// Attributes whose name starts with `xmlns`.
    namespaces: usize,
}

/// The start tag at the beginning of `tag`, skipping quoted attribute
/// values; `None` when it does not end.
fn start_tag(tag: &[u8]) -> Option<StartTag> {
    let mut quote = None;
    let (mut attributes, mut namespaces) = (0, 0);
    for (i, &c) in tag.iter().enumerate() {
        match (quote, c) {
            (None, b'"' | b'\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, b'>') => {
                return Some(StartTag {
                    end: i,
                    attributes,
                    namespaces,
                })
            }
            (None, b'=') => attributes += 1,
            (None, b'x')
                if i > 0
                    && tag.get(i - 1).is_some_and(u8::is_ascii_whitespace)
                    && tag.get(i..).is_some_and(|t| t.starts_with(b"xmlns")) =>
            {
                namespaces += 1
            }
            _ => {}
        }
    }
    None
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
        let dir =
            std::env::temp_dir().join(format!("sbe-schema-test-{}-{name}", std::process::id()));
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
