//! The typed error of a codec.

use std::fmt;

/// Why a codec could not read or write.
#[derive(Debug, Clone)]
pub struct CodecError {
    kind: Kind,
    message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Malformed,
    Unsupported,
    Write,
}

impl CodecError {
    /// The input is not valid in the format (answered 400).
    pub fn malformed(error: impl fmt::Display) -> Self {
        Self { kind: Kind::Malformed, message: error.to_string() }
    }

    /// The format cannot represent this value (text for a struct); the
    /// writer then tries the next acceptable codec.
    pub fn unsupported(error: impl fmt::Display) -> Self {
        Self { kind: Kind::Unsupported, message: error.to_string() }
    }

    /// Writing failed for another reason (answered 500).
    pub fn write(error: impl fmt::Display) -> Self {
        Self { kind: Kind::Write, message: error.to_string() }
    }

    /// Whether the input was malformed.
    #[must_use]
    pub fn is_malformed(&self) -> bool {
        self.kind == Kind::Malformed
    }

    /// Whether the format cannot represent the value.
    #[must_use]
    pub fn is_unsupported(&self) -> bool {
        self.kind == Kind::Unsupported
    }

    /// The message.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodecError {}
