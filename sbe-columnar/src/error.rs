//! Why a message could not be exported.

/// A message that could not be decoded (it goes to the `_errors` table),
/// or a batch Arrow refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The bytes end before the message does.
    #[error("at byte {at}: truncated: {what} needs {need} bytes, {have} left")]
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
    #[error("unknown template id {0}")]
    UnknownTemplate(u64),
    /// A rule of `sbe_rt` broken (a block length, count, length or schema
    /// id): the verdict the generated decoders and `sbe decode` give.
    #[error("at byte {at}: {what}: {error}")]
    Rule {
        /// The group, var data or header part.
        what: String,
        /// Where in the message.
        at: usize,
        /// The rule's error.
        error: sbe_rt::Error,
    },
    /// Arrow refused a batch (a bug of this crate, not of the input).
    #[error("arrow: {0}")]
    Arrow(String),
}

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
