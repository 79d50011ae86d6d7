//! Errors and diagnostics: every problem in a schema names its file, line
//! and column.

use std::fmt;
use std::path::PathBuf;

use crate::parse::Pos;

/// How bad a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The schema is rejected.
    Error,
    /// The schema is accepted; the reference implementation would have
    /// warned (or rejected it for a strictness of its own).
    Warning,
}

/// One problem found in a schema, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where in which file; `None` only when no file is involved.
    pub pos: Option<Pos>,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// An error at `pos`.
    pub fn error(pos: Option<Pos>, message: String) -> Self {
        Diagnostic {
            severity: Severity::Error,
            pos,
            message,
        }
    }

    /// A warning at `pos`.
    pub fn warning(pos: Option<Pos>, message: String) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            pos,
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &self.pos {
            Some(pos) => write!(f, "{pos}: {sev}: {}", self.message),
            None => write!(f, "{sev}: {}", self.message),
        }
    }
}

/// Everything that can go wrong reading a schema: a file that cannot be
/// read, or a schema that is invalid.
///
/// (Display and `std::error::Error` are written out rather than derived so
/// that a consumer's `build.rs` does not compile a proc-macro for them.)
/// `Debug` prints what `Display` prints: a build script's `.unwrap()`
/// then shows `schema.xml:750:9: error: ...`, not the fields.
#[non_exhaustive]
pub enum Error {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The schema is invalid: one diagnostic per problem (errors only).
    Schema(Vec<Diagnostic>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Schema(d) => Diagnostics(d).fmt(f),
        }
    }
}

/// What `Display` prints: `.unwrap()` and `{:?}` show the readable text.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Schema(_) => None,
        }
    }
}

impl Error {
    /// The schema diagnostics carried by this error, if any.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Schema(d) => d,
            Error::Io { .. } => &[],
        }
    }
}

/// Diagnostics displayed one a line.
pub struct Diagnostics<'a>(pub &'a [Diagnostic]);

impl fmt::Display for Diagnostics<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}
