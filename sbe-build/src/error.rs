//! Errors and diagnostics: every problem in a schema names its file, line
//! and column.

use std::fmt;
use std::path::PathBuf;

use sbe_ir::Diagnostics;
pub use sbe_ir::{Diagnostic, Severity};

/// Everything that can go wrong reading a schema or writing code for it.
///
/// (Display and `std::error::Error` are written out rather than derived so
/// that a consumer's `build.rs` does not compile a proc-macro for them.)
/// `Debug` prints what `Display` prints: a build script's `.unwrap()`
/// then shows `schema.xml:750:9: error: ...`, not the fields.
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The schema is invalid: one diagnostic per problem (errors only).
    Schema(Vec<Diagnostic>),
    /// The configuration given to [`crate::Config`] is unusable.
    Config(String),
    /// An attribute given to [`crate::Config::type_attribute`] is not one
    /// or more outer attributes (`#[...]`): it would not compile, or would
    /// be something else than an attribute in the generated code.
    TypeAttribute {
        /// The type it was given for (`.` for all).
        type_name: String,
        /// The attribute as given.
        attribute: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Two schemas given to one [`crate::Config::compile`] would be
    /// written to the same file (the same `package`, packages with the
    /// same file stem such as `a.b` and `a_b`, or the same name given by
    /// [`crate::Config::file_name`] or [`crate::Config::schema_file_name`]):
    /// one would overwrite the other. Nothing is written.
    SameOutputFile {
        /// The file both would be written to.
        file: PathBuf,
        /// The schema file given first, and its `package`.
        first: (PathBuf, String),
        /// The schema file given later, and its `package`.
        second: (PathBuf, String),
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Schema(d) => Diagnostics(d).fmt(f),
            Error::Config(msg) => write!(f, "configuration: {msg}"),
            Error::TypeAttribute {
                type_name,
                attribute,
                reason,
            } => write!(
                f,
                "configuration: type_attribute({type_name:?}, {attribute:?}): {reason}"
            ),
            Error::SameOutputFile {
                file,
                first: (first, first_package),
                second: (second, second_package),
            } => {
                write!(
                    f,
                    "{} and {} would both be written to {} (",
                    first.display(),
                    second.display(),
                    file.display()
                )?;
                if first_package == second_package {
                    write!(f, "both are package `{first_package}`")?;
                } else {
                    write!(f, "packages `{first_package}` and `{second_package}`")?;
                }
                write!(
                    f,
                    "): name one of the files with Config::schema_file_name(schema, name)"
                )
            }
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
            _ => None,
        }
    }
}

impl Error {
    /// The schema diagnostics carried by this error, if any.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Schema(d) => d,
            _ => &[],
        }
    }
}

impl From<sbe_ir::Error> for Error {
    fn from(e: sbe_ir::Error) -> Self {
        match e {
            sbe_ir::Error::Io { path, source } => Error::Io { path, source },
            sbe_ir::Error::Schema(d) => Error::Schema(d),
            // `sbe_ir::Error` is non-exhaustive: a kind it may gain is
            // shown as its text.
            other => Error::Config(other.to_string()),
        }
    }
}
