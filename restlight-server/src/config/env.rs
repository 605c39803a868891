//! Reading the `RESTLIGHT_SERVER_*` environment variables.

use std::collections::HashMap;

use super::read::parse_table;
use super::sections::TABLES;
use super::{ConfigError, FileConfig, ENV_PREFIX};

/// `{table: {key: value}}`: one variable, checked on its own.
fn one(table: &str, key: &str, value: toml::Value) -> toml::Table {
    let mut inner = toml::Table::new();
    inner.insert(key.to_owned(), value);
    let mut outer = toml::Table::new();
    outer.insert(table.to_owned(), inner.into());
    outer
}

/// The keys whose environment variable is a comma-separated list.
const LIST_KEYS: [&str; 2] = ["server.allow_ips", "actuator.expose"];

/// The keys whose environment variable is a comma-separated list of
/// `name=value` pairs (as `OTEL_EXPORTER_OTLP_HEADERS` is written).
const MAP_KEYS: [&str; 1] = ["otel.headers"];

/// The value of one variable: a TOML value when it parses as one, else the
/// raw text; a list split on commas for the list keys, a table of
/// `name=value` pairs for the map keys.
fn env_value(key: &str, raw: &str) -> toml::Value {
    if MAP_KEYS.contains(&key) {
        let mut table = toml::Table::new();
        for pair in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            // A pair without `=` is kept whole as a name with no value,
            // which the check refuses, naming it.
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            table.insert(name.trim().to_owned(), value.trim().to_owned().into());
        }
        return table.into();
    }
    if LIST_KEYS.contains(&key) {
        return toml::Value::Array(
            raw.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.to_owned().into()).collect(),
        );
    }
    match parse_table(&format!("v = {raw}")) {
        Ok(mut t) if !raw.trim().is_empty() => t.remove("v").unwrap_or_else(|| raw.into()),
        _ => raw.into(),
    }
}

impl FileConfig {
    /// The `RESTLIGHT_SERVER_*` variables among `vars`, one key each,
    /// checked as [`check`](Self::check) does (an error names the variable).
    pub(crate) fn from_env(vars: impl IntoIterator<Item = (String, String)>) -> Result<Self, ConfigError> {
        let mut root = toml::Table::new();
        let mut names = HashMap::new();
        for (name, raw) in vars {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else { continue };
            let rest = rest.to_ascii_lowercase();
            // The tables besides `[server]` have variables named
            // `RESTLIGHT_SERVER_<TABLE>_<KEY>`.
            let (table, key) = TABLES[1..]
                .iter()
                .find_map(|t| Some((*t, rest.strip_prefix(t)?.strip_prefix('_')?)))
                .unwrap_or(("server", rest.as_str()));
            let full = format!("{table}.{key}");
            let typed = env_value(&full, &raw);
            // One variable at a time, so an error names its variable; a
            // value that reads as a number or a boolean where text is
            // expected (a path, a name) is taken as text.
            let value = match Self::from_root(&one(table, key, typed.clone())) {
                Ok(_) => typed,
                Err(e) => {
                    let text = toml::Value::String(raw.clone());
                    if !typed.is_str() && Self::from_root(&one(table, key, text.clone())).is_ok() {
                        text
                    } else {
                        return Err(ConfigError::Env { key: name, message: format!("`{full}`: {}", e.message) });
                    }
                }
            };
            if let toml::Value::Table(t) = root.entry(table).or_insert_with(|| toml::Table::new().into()) {
                t.insert(key.to_owned(), value);
            }
            names.insert(full, name);
        }
        let config = Self::from_root(&root).map_err(|e| ConfigError::Env {
            key: names.get(&e.key).cloned().unwrap_or_else(|| ENV_PREFIX.to_owned() + "*"),
            message: format!("`{}`: {}", e.key, e.message),
        })?;
        config.check().map_err(|err| match err {
            ConfigError::Invalid { key, message } => {
                let var = names.get(&key).cloned().unwrap_or_else(|| ENV_PREFIX.to_owned() + "*");
                ConfigError::Env { key: var, message: format!("`{key}`: {message}") }
            }
            other => other,
        })?;
        Ok(config)
    }
}
