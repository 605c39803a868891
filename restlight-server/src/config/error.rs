//! [`ConfigError`]: why a file or a variable was refused.

use std::fmt;
use std::path::PathBuf;

/// Why a configuration file or environment variable was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML for the server settings: a syntax error,
    /// a value of the wrong type, or an unknown key (named in full, as
    /// `actuator.bse_path`, in the message).
    Parse {
        /// The file.
        path: PathBuf,
        /// A syntax error as `toml` words it, with its line; else the key
        /// in full with its line and column, what was expected and what
        /// was found (`` `server.port` (line 3, column 1): expected a whole
        /// number from 0 to 65535, found string "eighty" ``).
        message: String,
    },
    /// A value that has the right type but is not acceptable: a malformed
    /// IP range, an unknown actuator endpoint, a PEM file that cannot be
    /// read, a key that needs a cargo feature that is off, ...
    Invalid {
        /// The key, in full (`tls.cert_file`).
        key: String,
        /// What is wrong.
        message: String,
    },
    /// A `RESTLIGHT_SERVER_*` environment variable is unknown or has a
    /// value of the wrong type or an unacceptable one.
    Env {
        /// The variable.
        key: String,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Self::Parse { path, message } => write!(f, "invalid configuration in {}: {message}", path.display()),
            Self::Env { key, message } => write!(f, "invalid environment variable {key}: {message}"),
            Self::Invalid { key, message } => write!(f, "invalid value for `{key}`: {message}"),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(feature = "config")]
pub(super) fn invalid(key: &str, message: impl fmt::Display) -> ConfigError {
    ConfigError::Invalid { key: key.to_owned(), message: message.to_string() }
}
