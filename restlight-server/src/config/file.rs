//! Reading a TOML configuration file, with errors naming the key to blame.

use std::path::Path;

use super::read::{locate, parse_document, table_of};
use super::{ConfigError, FileConfig};

impl FileConfig {
    pub(crate) fn read(path: &Path) -> Result<Self, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
        Self::parse(&text).map_err(|message| ConfigError::Parse { path: path.to_owned(), message })
    }

    /// Parses a file: a syntax error as `toml` words it (with its line), a
    /// number out of range with its line and column, else the first key
    /// that cannot be read, named in full with its line.
    fn parse(text: &str) -> Result<Self, String> {
        let document = parse_document(text)?;
        let root = table_of(text, document.get_ref())?;
        Self::from_root(&root).map_err(|e| match locate(text, document.get_ref(), &e.key) {
            Some((line, column)) => format!("`{}` (line {line}, column {column}): {}", e.key, e.message),
            None => format!("`{}`: {}", e.key, e.message),
        })
    }
}
