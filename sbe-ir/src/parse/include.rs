//! Reading schema files and included parts: where an `xi:include` may
//! lead ([`IncludePolicy`]), and how much one document may read.

use std::path::{Path, PathBuf};

use super::{parse_text, Element, IncludePolicy, Pos};
use crate::error::{Diagnostic, Error};

/// Deepest include nesting followed before we call it a cycle we missed.
const MAX_INCLUDE_DEPTH: usize = 32;
/// Most schema text read for one document, the schema and every included
/// part counted each time it is included. The largest real schema we know
/// (CME iLink 3) is under 300 KB; the cap keeps a device such as
/// `/dev/zero`, or a part included over and over, from filling memory.
const MAX_TOTAL_BYTES: u64 = 32 << 20;
/// Most `xi:include`s followed for one document. Real schemas include a
/// handful of parts; without a cap, parts that include a small part many
/// times each nest into an exponential number of reads.
const MAX_INCLUDES: usize = 1000;

/// `path` resolved, to compare files (include cycles, the schema's
/// folder); as given when it cannot be, since reading it then reports why.
pub(super) fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What one document has read so far, against [`MAX_TOTAL_BYTES`] and
/// [`MAX_INCLUDES`], and where its includes may lead.
pub(super) struct Budget {
    pub(super) bytes: u64,
    includes: usize,
    policy: IncludePolicy,
    /// The schema's folder, resolved: includes must stay inside it.
    root_dir: PathBuf,
}

impl Budget {
    pub(super) fn new(schema: &Path, policy: IncludePolicy) -> Self {
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
    pub(super) fn resolve(&self, dir: &Path, href: &str) -> Result<PathBuf, String> {
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

/// Read and parse the file at `path` (an included part when `from`, the
/// include's position, is set), refusing cycles and deep nesting.
pub(super) fn load(
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
