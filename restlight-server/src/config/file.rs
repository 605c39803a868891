//! Reading a TOML configuration file, with errors naming the key to blame.

use std::path::Path;

use serde::Deserialize;

use super::{ConfigError, FileConfig};

/// `{table: {key: value}}`.
pub(super) fn one(table: &str, key: &str, value: toml::Value) -> toml::Table {
    let mut inner = toml::Table::new();
    inner.insert(key.to_owned(), value);
    let mut outer = toml::Table::new();
    outer.insert(table.to_owned(), inner.into());
    outer
}

impl FileConfig {
    pub(crate) fn read(path: &Path) -> Result<Self, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
        Self::parse(&text).map_err(|message| ConfigError::Parse { path: path.to_owned(), message })
    }

    /// Parses a file; an error names the key in full when one is to blame.
    fn parse(text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| match Self::culprit(text) {
            Some(key) => format!("`{key}`: {e}"),
            None => e.to_string(),
        })
    }

    /// The first key (`table.key`, or a table) that does not deserialize
    /// on its own.
    fn culprit(text: &str) -> Option<String> {
        let root: toml::Table = text.parse().ok()?;
        for (name, value) in root {
            let mut alone = toml::Table::new();
            alone.insert(name.clone(), value.clone());
            if Self::deserialize(alone).is_ok() {
                continue;
            }
            if let toml::Value::Table(table) = value {
                for (key, v) in table {
                    if Self::deserialize(one(&name, &key, v)).is_err() {
                        return Some(format!("{name}.{key}"));
                    }
                }
            }
            return Some(name);
        }
        None
    }
}
