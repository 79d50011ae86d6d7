//! Why a message could not be exported.

/// A message that could not be decoded (it goes to the `_errors` table),
/// or a batch Arrow refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// The bytes end before the message does.
    Truncated {
        /// What was being read.
        what: String,
        /// Its offset in the message.
        at: usize,
        /// Bytes it needs from there.
        need: usize,
        /// Bytes there are from there.
        have: usize,
    },
    /// The header names a template the schema does not have.
    UnknownTemplate(u64),
    /// A rule of `sbe_rt` broken (a block length, count, length or schema
    /// id): the verdict the generated decoders and `sbe decode` give.
    Rule {
        /// The group, var data or header part.
        what: String,
        /// Where in the message.
        at: usize,
        /// The rule's error.
        error: sbe_rt::Error,
    },
    /// Arrow refused a batch (a bug of this crate, not of the input).
    Arrow(String),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Truncated {
                what,
                at,
                need,
                have,
            } => write!(
                f,
                "at byte {at}: truncated: {what} needs {need} bytes, {have} left"
            ),
            ExportError::UnknownTemplate(id) => write!(f, "unknown template id {id}"),
            ExportError::Rule { what, at, error } => write!(f, "at byte {at}: {what}: {error}"),
            ExportError::Arrow(e) => write!(f, "arrow: {e}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl ExportError {
    pub(crate) fn truncated(what: &str, at: usize, need: usize, len: usize) -> ExportError {
        ExportError::Truncated {
            what: what.to_string(),
            at,
            need,
            have: len.saturating_sub(at),
        }
    }

    pub(crate) fn rule(what: &str, at: usize, error: sbe_rt::Error) -> ExportError {
        ExportError::Rule {
            what: what.to_string(),
            at,
            error,
        }
    }

    /// The name of the verdict, as [`sbe_rt::Error::kind`] names it
    /// (`Truncated`, `UnknownTemplateId`, `BlockLengthTooShort`, ...), so
    /// that it compares with the generated decoders' and `sbe decode`'s.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ExportError::Truncated { .. } => "Truncated",
            ExportError::UnknownTemplate(_) => "UnknownTemplateId",
            ExportError::Rule { error, .. } => error.kind(),
            ExportError::Arrow(_) => "Arrow",
        }
    }
}
