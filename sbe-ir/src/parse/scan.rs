//! Scans of the schema text outside the XML parser: the light pre-parse
//! scan for nesting depth, attribute and namespace counts, and turning
//! byte offsets into line and column.

/// Deepest element nesting accepted: real schemas stay far below it, and it
/// keeps hostile input from exhausting the stack of the recursive passes.
pub(super) const MAX_ELEMENT_DEPTH: usize = 100;
/// Most attributes on one element. Real schemas use a dozen at most;
/// roxmltree checks each new attribute against the element's others, so
/// an element with tens of thousands of them takes seconds to parse.
const MAX_ATTRIBUTES: usize = 256;
/// Most namespace declarations in one file. Real schemas declare a few;
/// roxmltree copies the namespaces in scope into every element that
/// declares one more, quadratic in their number.
const MAX_NAMESPACES: usize = 1024;

/// Byte offset where each line starts, to turn offsets into line:col
/// without rescanning the text for every element.
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// 1-based line and column (in characters) of byte offset `at`.
pub(super) fn line_col(text: &str, line_starts: &[usize], at: usize) -> (u32, u32) {
    let mut cursor = Cursor::default();
    cursor.line_col(text, line_starts, at)
}

/// The last position turned into line:col, so that the next one, further
/// on in document order, counts only the characters in between: counting
/// from the line start every time is quadratic on a schema written on one
/// line.
#[derive(Default)]
pub(super) struct Cursor {
    /// Byte offset of the last position (a char boundary).
    at: usize,
    /// Its 0-based line.
    line: usize,
    /// Its 0-based column, in characters.
    col: usize,
}

impl Cursor {
    pub(super) fn line_col(&mut self, text: &str, line_starts: &[usize], at: usize) -> (u32, u32) {
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
pub(super) fn prescan(text: &str) -> Option<(usize, String)> {
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
