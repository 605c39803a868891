//! Server configuration from TOML files and environment variables, and the
//! effective options as the `config` actuator endpoint shows them.
//!
//! # Sources and precedence
//!
//! A setting comes from the code (the [`Restlight`] setters, [`Actuator`],
//! [`AccessLog`], `TlsConfig`), from a TOML file
//! ([`Restlight::config_file`]) or from a `RESTLIGHT_SERVER_*` environment
//! variable, with **code < file < environment**, key by key: a key the
//! file or the environment does not set keeps the code's value, wherever
//! the setter stands relative to `config_file`. A later `config_file`
//! overrides an earlier one the same way. Both are applied at `start`,
//! `run` and `build`.
//!
//! An unknown table or key is an error naming it in full
//! (`actuator.bse_path`), as is a value of the wrong type; an unknown
//! variable with the prefix is an error naming the variable.
//!
//! # Environment variables
//!
//! `RESTLIGHT_SERVER_` followed by the key in upper case for the `[server]`
//! table (`RESTLIGHT_SERVER_IO_THREADS`), and by the table's name, `_`,
//! then the key for the others (`RESTLIGHT_SERVER_ACTUATOR_BASE_PATH`,
//! `RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY`, `RESTLIGHT_SERVER_TLS_CERT_FILE`).
//! Values are read as TOML values (`8080`, `true`), falling back to the raw
//! text for keys that take a string or a path; the lists (`allow_ips`,
//! `expose`) are comma-separated. [`Restlight::ignore_env`] turns them off.
//!
//! # Switching the operations features on and off
//!
//! The `[actuator]`, `[access_log]` and `[tls]` tables each switch their
//! feature: a table that is present (in the file, or through any of its
//! variables) turns it on, with the code's settings for the keys it does
//! not set, unless it says `enabled = false`, which turns it off even when
//! the code turned it on (configuration overrides code). A table that is
//! absent leaves the code's choice alone.
//!
//! # Keys
//!
//! Durations are in milliseconds (keys ending in `_ms`), sizes in bytes.
//!
//! | file key | environment variable | default | meaning |
//! |---|---|---|---|
//! | `server.port` | `RESTLIGHT_SERVER_PORT` | `8080` | listening port (`0`: any free port) |
//! | `server.bind` | `RESTLIGHT_SERVER_BIND` | `"0.0.0.0"` | listening IP address |
//! | `server.io_threads` | `RESTLIGHT_SERVER_IO_THREADS` | cores | IO runtime threads |
//! | `server.biz_threads` | `RESTLIGHT_SERVER_BIZ_THREADS` | max(4, 2 x cores) | business executor threads |
//! | `server.shutdown_timeout_ms` | `RESTLIGHT_SERVER_SHUTDOWN_TIMEOUT_MS` | `30000` | graceful shutdown wait |
//! | `server.header_read_timeout_ms` | `RESTLIGHT_SERVER_HEADER_READ_TIMEOUT_MS` | `30000` | time to send a request head |
//! | `server.idle_timeout_ms` | `RESTLIGHT_SERVER_IDLE_TIMEOUT_MS` | `60000` | idle connection lifetime |
//! | `server.max_header_size` | `RESTLIGHT_SERVER_MAX_HEADER_SIZE` | `8192` | request head limit (431 past it) |
//! | `server.h2_max_concurrent_streams` | `RESTLIGHT_SERVER_H2_MAX_CONCURRENT_STREAMS` | `250` | HTTP/2 streams per connection |
//! | `server.max_headers` | `RESTLIGHT_SERVER_MAX_HEADERS` | `100` | header fields per request |
//! | `server.h2_initial_stream_window_size` | `RESTLIGHT_SERVER_H2_INITIAL_STREAM_WINDOW_SIZE` | `1048576` | HTTP/2 stream window |
//! | `server.h2_initial_connection_window_size` | `RESTLIGHT_SERVER_H2_INITIAL_CONNECTION_WINDOW_SIZE` | `1048576` | HTTP/2 connection window |
//! | `server.h2_keep_alive_interval_ms` | `RESTLIGHT_SERVER_H2_KEEP_ALIVE_INTERVAL_MS` | off | HTTP/2 PING interval (`0`: off) |
//! | `server.h2_keep_alive_timeout_ms` | `RESTLIGHT_SERVER_H2_KEEP_ALIVE_TIMEOUT_MS` | `20000` | HTTP/2 PING answer wait |
//! | `server.h2_max_pending_accept_reset_streams` | `RESTLIGHT_SERVER_H2_MAX_PENDING_ACCEPT_RESET_STREAMS` | `20` | HTTP/2 rapid-reset bound |
//! | `server.h2_max_local_error_reset_streams` | `RESTLIGHT_SERVER_H2_MAX_LOCAL_ERROR_RESET_STREAMS` | `1024` | HTTP/2 error-reset bound |
//! | `server.body_read_timeout_ms` | `RESTLIGHT_SERVER_BODY_READ_TIMEOUT_MS` | `30000` | request body stall (408) |
//! | `server.write_timeout_ms` | `RESTLIGHT_SERVER_WRITE_TIMEOUT_MS` | `30000` | response write stall |
//! | `server.max_connections` | `RESTLIGHT_SERVER_MAX_CONNECTIONS` | no limit | open connections |
//! | `server.max_connections_per_second` | `RESTLIGHT_SERVER_MAX_CONNECTIONS_PER_SECOND` | `20000` | new connections per second (`0`: off) |
//! | `server.allow_ips` | `RESTLIGHT_SERVER_ALLOW_IPS` | everyone | IP allow-list (addresses or CIDR ranges) |
//! | `server.max_body_size` | `RESTLIGHT_SERVER_MAX_BODY_SIZE` | `4194304` | request entity limit (413) |
//! | `server.biz_queue` | `RESTLIGHT_SERVER_BIZ_QUEUE` | `512` | requests waiting for a business worker (429 past it) |
//! | `server.default_scheduler` | `RESTLIGHT_SERVER_DEFAULT_SCHEDULER` | `"io"` | where `async` handlers without `#[scheduled]` run |
//! | `server.compression` | `RESTLIGHT_SERVER_COMPRESSION` | `true` with feature `compression` | compress responses by `Accept-Encoding` |
//! | `server.compression_threshold` | `RESTLIGHT_SERVER_COMPRESSION_THRESHOLD` | `1024` | smallest body compressed |
//! | `server.format_parameter` | `RESTLIGHT_SERVER_FORMAT_PARAMETER` | off | query parameter choosing the codec (`?format=msgpack`) |
//! | `server.format_suffix` | `RESTLIGHT_SERVER_FORMAT_SUFFIX` | `false` | a `.json`-style path suffix chooses the codec |
//! | `actuator.enabled` | `RESTLIGHT_SERVER_ACTUATOR_ENABLED` | off | serve the actuator endpoints |
//! | `actuator.base_path` | `RESTLIGHT_SERVER_ACTUATOR_BASE_PATH` | `"/actuator"` | path the endpoints live under |
//! | `actuator.port` | `RESTLIGHT_SERVER_ACTUATOR_PORT` | the application's | a separate management port |
//! | `actuator.expose` | `RESTLIGHT_SERVER_ACTUATOR_EXPOSE` | `["health", "info"]` | endpoints served: `health`, `info`, `metrics`, `routes`, `config`, `executors` |
//! | `actuator.allow_executor_resize` | `RESTLIGHT_SERVER_ACTUATOR_ALLOW_EXECUTOR_RESIZE` | `false` | serve `POST {base}/executors/{name}` (resize) |
//! | `actuator.app_name` | `RESTLIGHT_SERVER_ACTUATOR_APP_NAME` | none | name shown by `info` (with `app_version`) |
//! | `actuator.app_version` | `RESTLIGHT_SERVER_ACTUATOR_APP_VERSION` | none | version shown by `info` (with `app_name`) |
//! | `access_log.enabled` | `RESTLIGHT_SERVER_ACCESS_LOG_ENABLED` | off | one line per request, `tracing` target `restlight::access` |
//! | `access_log.directory` | `RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY` | no file | also write a daily file there, created if missing (`""`: no file); feature `access-log-file` |
//! | `access_log.file_prefix` | `RESTLIGHT_SERVER_ACCESS_LOG_FILE_PREFIX` | `"access"` | file name before `.YYYY-MM-DD`; feature `access-log-file` |
//! | `tls.enabled` | `RESTLIGHT_SERVER_TLS_ENABLED` | off | serve HTTPS; feature `tls` |
//! | `tls.cert_file` | `RESTLIGHT_SERVER_TLS_CERT_FILE` | none | PEM certificate chain, leaf first; feature `tls` |
//! | `tls.key_file` | `RESTLIGHT_SERVER_TLS_KEY_FILE` | none | PEM private key; feature `tls` |
//! | `tls.client_ca_file` | `RESTLIGHT_SERVER_TLS_CLIENT_CA_FILE` | none | PEM CAs that client certificates are verified against; feature `tls` |
//! | `tls.client_auth` | `RESTLIGHT_SERVER_TLS_CLIENT_AUTH` | `"required"` with a client CA | `"required"`, `"optional"` or `"none"`; feature `tls` |
//! | `tls.handshake_timeout_ms` | `RESTLIGHT_SERVER_TLS_HANDSHAKE_TIMEOUT_MS` | `10000` | TLS handshake deadline; feature `tls` |
//!
//! Set in code only: what is code rather than a value (routes, resources,
//! beans, filters, interceptors, exception mappers, layers, codecs, health
//! checks), named executors and the business executor's fail-fast and
//! `max_active` (a [`Scheduler`](restlight_core::Scheduler) registered as
//! `"biz"`), and load shedding.
//!
//! Further rules:
//!
//! - `actuator.expose` replaces the list; an unknown name is an error that
//!   lists the known ones. `actuator.port` cannot be taken back to the
//!   application's port from a file once code set one.
//! - `access_log.directory` and `access_log.file_prefix` without the
//!   `access-log-file` feature are errors naming the feature; so is any
//!   `[tls]` key (but `enabled = false`) without the `tls` feature.
//! - TLS needs a certificate and a key: both from the configuration, or one
//!   of them replacing the code's. The PEM files are read and checked when
//!   `config_file` is called (when the server starts, for the environment),
//!   unless the table says `enabled = false`;
//!   a file that cannot be read or holds no certificate or key is an error
//!   naming the key and the path. `tls.client_auth` without any client CA
//!   is an error; `"none"` drops the client CA.
//! - The `config` actuator endpoint shows the effective values, with the
//!   PEM files' paths (`null` for PEM given in memory), never their content.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::builder::Restlight;
use crate::ops::{AccessLog, Actuator, Endpoint};
use crate::options::ServerOptions;

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The effective server options as JSON (durations in milliseconds), with
/// the defaults resolved, and the actuator, access log and TLS settings.
pub(crate) fn effective(options: &ServerOptions, actuator: Option<&Actuator>, access_log: Option<&AccessLog>) -> Value {
    let p = &options.protection;
    let l = &options.limits;
    json!({
        "address": options.addr.to_string(),
        "ioThreads": options.io_threads(),
        "bizThreads": options.biz_threads(),
        "bizQueue": options.biz_queue,
        "shutdownTimeoutMs": ms(options.shutdown_timeout),
        "headerReadTimeoutMs": ms(options.header_read_timeout),
        "idleTimeoutMs": ms(options.idle_timeout),
        "maxHeaderSize": options.max_header_size,
        "h2MaxConcurrentStreams": options.h2_max_concurrent_streams,
        "maxHeaders": l.max_headers,
        "h2StreamWindow": l.h2_stream_window,
        "h2ConnectionWindow": l.h2_connection_window,
        "h2KeepAliveIntervalMs": l.h2_keep_alive_interval.map(ms),
        "h2KeepAliveTimeoutMs": ms(l.h2_keep_alive_timeout),
        "h2MaxPendingAcceptResetStreams": l.h2_max_pending_accept_reset_streams,
        "h2MaxLocalErrorResetStreams": l.h2_max_local_error_reset_streams,
        "bodyReadTimeoutMs": ms(l.body_read_timeout),
        "writeTimeoutMs": ms(l.write_timeout),
        "maxConnections": p.max_connections,
        "maxConnectionsPerSecond": p.max_connections_per_second,
        "allowIps": p.allow.as_ref().map(|a| a.iter().map(ToString::to_string).collect::<Vec<_>>()),
        "loadShedding": p.load_shedding.is_some(),
        "tls": effective_tls(options),
        "actuator": actuator.map_or_else(|| json!({ "enabled": false }), effective_actuator),
        "accessLog": effective_access_log(access_log),
    })
}

fn effective_actuator(a: &Actuator) -> Value {
    json!({
        "enabled": true,
        "basePath": a.base_path,
        "port": a.port,
        "expose": a.exposed.iter().map(|e| e.as_str()).collect::<Vec<_>>(),
        "allowExecutorResize": a.allows_executor_resize(),
        "appName": a.name,
        "appVersion": a.version,
        "healthChecks": a.checks.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(),
    })
}

fn effective_access_log(log: Option<&AccessLog>) -> Value {
    let Some(log) = log else { return json!({ "enabled": false }) };
    #[cfg(feature = "access-log-file")]
    let (directory, prefix) =
        log.file.as_ref().map(|(dir, prefix)| (dir.display().to_string(), prefix.clone())).unzip();
    #[cfg(not(feature = "access-log-file"))]
    let (directory, prefix, _) = (None::<String>, None::<String>, log);
    json!({ "enabled": true, "directory": directory, "filePrefix": prefix })
}

#[cfg(feature = "tls")]
fn effective_tls(options: &ServerOptions) -> Value {
    let Some(tls) = &options.tls else { return json!({ "enabled": false }) };
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let sources = tls.sources();
    let client_auth = match tls.client_auth_mode() {
        None => "none",
        Some(crate::tls::ClientAuth::Required) => "required",
        Some(crate::tls::ClientAuth::Optional) => "optional",
    };
    json!({
        "enabled": true,
        "certFile": path(&sources.cert),
        "keyFile": path(&sources.key),
        "clientCaFile": path(&sources.client_ca),
        "clientAuth": client_auth,
        "handshakeTimeoutMs": ms(tls.timeout()),
    })
}

#[cfg(not(feature = "tls"))]
fn effective_tls(_: &ServerOptions) -> Value {
    json!({ "enabled": false })
}

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
        /// What `toml` said, with the line and the key.
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

fn invalid(key: &str, message: impl fmt::Display) -> ConfigError {
    ConfigError::Invalid { key: key.to_owned(), message: message.to_string() }
}

/// Fields set in `over` replace those of `base`; the struct literal makes
/// the compiler check that every field is listed.
macro_rules! overlay {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl $ty {
            fn overlay(self, over: Self) -> Self {
                Self { $($field: over.$field.or(self.$field)),* }
            }
        }
    };
}

/// A configuration file: a `[server]` table and the optional `[actuator]`,
/// `[access_log]` and `[tls]` tables (a present table turns its feature on
/// unless it says `enabled = false`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileConfig {
    #[serde(default)]
    pub(crate) server: ServerSection,
    pub(crate) actuator: Option<ActuatorSection>,
    pub(crate) access_log: Option<AccessLogSection>,
    pub(crate) tls: Option<TlsSection>,
}

/// Every server option, each optional; the names are the builder's setters
/// (durations in milliseconds, with an `_ms` suffix).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerSection {
    port: Option<u16>,
    bind: Option<IpAddr>,
    io_threads: Option<usize>,
    biz_threads: Option<usize>,
    shutdown_timeout_ms: Option<u64>,
    header_read_timeout_ms: Option<u64>,
    idle_timeout_ms: Option<u64>,
    max_header_size: Option<usize>,
    h2_max_concurrent_streams: Option<u32>,
    max_headers: Option<usize>,
    h2_initial_stream_window_size: Option<u32>,
    h2_initial_connection_window_size: Option<u32>,
    h2_keep_alive_interval_ms: Option<u64>,
    h2_keep_alive_timeout_ms: Option<u64>,
    h2_max_pending_accept_reset_streams: Option<usize>,
    h2_max_local_error_reset_streams: Option<usize>,
    body_read_timeout_ms: Option<u64>,
    write_timeout_ms: Option<u64>,
    max_connections: Option<usize>,
    max_connections_per_second: Option<u32>,
    allow_ips: Option<Vec<String>>,
    max_body_size: Option<usize>,
    biz_queue: Option<usize>,
    default_scheduler: Option<String>,
    compression: Option<bool>,
    compression_threshold: Option<usize>,
    format_parameter: Option<String>,
    format_suffix: Option<bool>,
}

overlay!(ServerSection {
    port,
    bind,
    io_threads,
    biz_threads,
    shutdown_timeout_ms,
    header_read_timeout_ms,
    idle_timeout_ms,
    max_header_size,
    h2_max_concurrent_streams,
    max_headers,
    h2_initial_stream_window_size,
    h2_initial_connection_window_size,
    h2_keep_alive_interval_ms,
    h2_keep_alive_timeout_ms,
    h2_max_pending_accept_reset_streams,
    h2_max_local_error_reset_streams,
    body_read_timeout_ms,
    write_timeout_ms,
    max_connections,
    max_connections_per_second,
    allow_ips,
    max_body_size,
    biz_queue,
    default_scheduler,
    compression,
    compression_threshold,
    format_parameter,
    format_suffix,
});

/// The `[actuator]` table: the [`Actuator`] builder's settings but the
/// health checks.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ActuatorSection {
    enabled: Option<bool>,
    base_path: Option<String>,
    port: Option<u16>,
    expose: Option<Vec<String>>,
    allow_executor_resize: Option<bool>,
    app_name: Option<String>,
    app_version: Option<String>,
}

overlay!(ActuatorSection { enabled, base_path, port, expose, allow_executor_resize, app_name, app_version });

/// The `[access_log]` table: on or off, and the daily file (feature
/// `access-log-file`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AccessLogSection {
    enabled: Option<bool>,
    directory: Option<PathBuf>,
    file_prefix: Option<String>,
}

overlay!(AccessLogSection { enabled, directory, file_prefix });

/// The `[tls]` table (feature `tls`): PEM files and options.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TlsSection {
    enabled: Option<bool>,
    cert_file: Option<PathBuf>,
    key_file: Option<PathBuf>,
    client_ca_file: Option<PathBuf>,
    client_auth: Option<ClientAuthSetting>,
    handshake_timeout_ms: Option<u64>,
}

overlay!(TlsSection { enabled, cert_file, key_file, client_ca_file, client_auth, handshake_timeout_ms });

/// `tls.client_auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ClientAuthSetting {
    Required,
    Optional,
    None,
}

/// The prefix of the environment variables read at start.
pub const ENV_PREFIX: &str = "RESTLIGHT_SERVER_";

/// The tables besides `[server]`, whose variables are
/// `RESTLIGHT_SERVER_<TABLE>_<KEY>`.
const TABLES: [&str; 3] = ["actuator", "access_log", "tls"];

/// The keys whose environment variable is a comma-separated list.
const LIST_KEYS: [&str; 2] = ["server.allow_ips", "actuator.expose"];

fn overlay_table<T>(base: Option<T>, over: Option<T>, f: fn(T, T) -> T) -> Option<T> {
    match (base, over) {
        (Some(base), Some(over)) => Some(f(base, over)),
        (base, over) => over.or(base),
    }
}

/// The value of one variable: a TOML value when it parses as one, else the
/// raw text; a list split on commas for the list keys.
fn env_value(key: &str, raw: &str) -> toml::Value {
    if LIST_KEYS.contains(&key) {
        return toml::Value::Array(
            raw.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.to_owned().into()).collect(),
        );
    }
    match format!("v = {raw}").parse::<toml::Table>() {
        Ok(mut t) if !raw.trim().is_empty() => t.remove("v").unwrap_or_else(|| raw.into()),
        _ => raw.into(),
    }
}

/// `{table: {key: value}}`.
fn one(table: &str, key: &str, value: toml::Value) -> toml::Table {
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

    /// The `RESTLIGHT_SERVER_*` variables among `vars`, one key each,
    /// checked as [`check`](Self::check) does (an error names the variable).
    pub(crate) fn from_env(vars: impl IntoIterator<Item = (String, String)>) -> Result<Self, ConfigError> {
        let mut root = toml::Table::new();
        let mut names = HashMap::new();
        for (name, raw) in vars {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else { continue };
            let rest = rest.to_ascii_lowercase();
            let (table, key) = TABLES
                .iter()
                .find_map(|t| Some((*t, rest.strip_prefix(t)?.strip_prefix('_')?)))
                .unwrap_or(("server", rest.as_str()));
            let full = format!("{table}.{key}");
            let typed = env_value(&full, &raw);
            // One variable at a time, so an error names its variable; a
            // value that reads as a number or a boolean where text is
            // expected (a path, a name) is taken as text.
            let value = match Self::deserialize(one(table, key, typed.clone())) {
                Ok(_) => typed,
                Err(e) => {
                    let text = toml::Value::String(raw.clone());
                    if !typed.is_str() && Self::deserialize(one(table, key, text.clone())).is_ok() {
                        text
                    } else {
                        return Err(ConfigError::Env { key: name, message: format!("`{full}`: {}", e.message()) });
                    }
                }
            };
            if let toml::Value::Table(t) = root.entry(table).or_insert_with(|| toml::Table::new().into()) {
                t.insert(key.to_owned(), value);
            }
            names.insert(full, name);
        }
        let config = Self::deserialize(root)
            .map_err(|e| ConfigError::Env { key: ENV_PREFIX.to_owned() + "*", message: e.to_string() })?;
        config.check().map_err(|err| match err {
            ConfigError::Invalid { key, message } => {
                let var = names.get(&key).cloned().unwrap_or_else(|| ENV_PREFIX.to_owned() + "*");
                ConfigError::Env { key: var, message: format!("`{key}`: {message}") }
            }
            other => other,
        })?;
        Ok(config)
    }

    /// Checks what can be checked without the code's settings: IP ranges,
    /// endpoint names, features, PEM files.
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        self.server.check()?;
        if let Some(actuator) = &self.actuator {
            actuator.endpoints()?;
        }
        if let Some(log) = &self.access_log {
            log.check()?;
        }
        if let Some(tls) = &self.tls {
            tls.check()?;
        }
        Ok(())
    }

    /// `over`'s keys replace these.
    pub(crate) fn overlay(self, over: Self) -> Self {
        Self {
            server: self.server.overlay(over.server),
            actuator: overlay_table(self.actuator, over.actuator, ActuatorSection::overlay),
            access_log: overlay_table(self.access_log, over.access_log, AccessLogSection::overlay),
            tls: overlay_table(self.tls, over.tls, TlsSection::overlay),
        }
    }

    /// Applies the values present over the builder's.
    pub(crate) fn apply(self, r: Restlight) -> Result<Restlight, ConfigError> {
        let mut r = self.server.apply(r)?;
        if let Some(actuator) = self.actuator {
            actuator.apply(&mut r)?;
        }
        if let Some(log) = self.access_log {
            log.apply(&mut r)?;
        }
        if let Some(tls) = self.tls {
            tls.apply(&mut r)?;
        }
        Ok(r)
    }
}

impl ServerSection {
    /// Checks the values that parse but may be invalid (IP ranges).
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        self.clone().apply(Restlight::new().ignore_env()).map(drop)
    }

    /// Applies the values present, through the builder's setters.
    pub(crate) fn apply(self, mut r: Restlight) -> Result<Restlight, ConfigError> {
        let d = Duration::from_millis;
        macro_rules! set {
            ($($field:ident => $setter:ident $(($map:expr))?),* $(,)?) => {
                $(if let Some(v) = self.$field { r = r.$setter($( $map )?(v)); })*
            };
        }
        set! {
            port => port,
            bind => bind,
            io_threads => io_threads,
            biz_threads => biz_threads,
            shutdown_timeout_ms => shutdown_timeout(d),
            header_read_timeout_ms => header_read_timeout(d),
            idle_timeout_ms => idle_timeout(d),
            max_header_size => max_header_size,
            h2_max_concurrent_streams => h2_max_concurrent_streams,
            max_headers => max_headers,
            h2_initial_stream_window_size => h2_initial_stream_window_size,
            h2_initial_connection_window_size => h2_initial_connection_window_size,
            h2_keep_alive_timeout_ms => h2_keep_alive_timeout(d),
            h2_max_pending_accept_reset_streams => h2_max_pending_accept_reset_streams,
            h2_max_local_error_reset_streams => h2_max_local_error_reset_streams,
            body_read_timeout_ms => body_read_timeout(d),
            write_timeout_ms => write_timeout(d),
            max_connections => max_connections,
            max_body_size => max_body_size,
            biz_queue => biz_queue,
            compression => compression,
            compression_threshold => compression_threshold,
            format_suffix => format_suffix,
        }
        if let Some(name) = self.default_scheduler {
            r = r.default_scheduler(&name);
        }
        if let Some(name) = self.format_parameter {
            r = r.format_parameter(&name);
        }
        if let Some(ms) = self.h2_keep_alive_interval_ms {
            r = r.h2_keep_alive_interval((ms > 0).then(|| d(ms)));
        }
        if let Some(n) = self.max_connections_per_second {
            r = r.max_connections_per_second((n > 0).then_some(n));
        }
        if let Some(list) = self.allow_ips {
            let ranges = list
                .iter()
                .map(|s| s.parse::<crate::IpRange>().map_err(|e| invalid("server.allow_ips", e)))
                .collect::<Result<Vec<_>, _>>()?;
            r = r.allow_ips(ranges);
        }
        Ok(r)
    }
}

impl ActuatorSection {
    /// `expose`, as endpoints.
    fn endpoints(&self) -> Result<Option<Vec<Endpoint>>, ConfigError> {
        self.expose
            .as_ref()
            .map(|names| {
                names.iter().map(|n| n.parse::<Endpoint>().map_err(|e| invalid("actuator.expose", e))).collect()
            })
            .transpose()
    }

    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        let expose = self.endpoints()?;
        if self.enabled == Some(false) {
            r.actuator = None;
            return Ok(());
        }
        let mut a = r.actuator.take().unwrap_or_default();
        if let Some(path) = self.base_path {
            a = a.base_path(&path);
        }
        if let Some(port) = self.port {
            a = a.port(port);
        }
        if let Some(expose) = expose {
            a = a.expose(&expose);
        }
        if let Some(allow) = self.allow_executor_resize {
            a = a.allow_executor_resize(allow);
        }
        a.name = self.app_name.or(a.name);
        a.version = self.app_version.or(a.version);
        match (&a.name, &a.version) {
            (Some(_), None) => return Err(invalid("actuator.app_version", "must be set with `actuator.app_name`")),
            (None, Some(_)) => return Err(invalid("actuator.app_name", "must be set with `actuator.app_version`")),
            _ => {}
        }
        r.actuator = Some(a);
        Ok(())
    }
}

impl AccessLogSection {
    /// The file settings need the `access-log-file` feature.
    fn check(&self) -> Result<(), ConfigError> {
        if cfg!(feature = "access-log-file") {
            return Ok(());
        }
        let key = if self.directory.is_some() {
            "access_log.directory"
        } else if self.file_prefix.is_some() {
            "access_log.file_prefix"
        } else {
            return Ok(());
        };
        Err(invalid(
            key,
            "the access-log file needs the cargo feature `access-log-file` (of restlight or restlight-server)",
        ))
    }

    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        self.check()?;
        if self.enabled == Some(false) {
            r.access_log = None;
            return Ok(());
        }
        #[cfg_attr(not(feature = "access-log-file"), allow(unused_mut))]
        let mut log = r.access_log.take().unwrap_or_default();
        #[cfg(feature = "access-log-file")]
        match (self.directory, self.file_prefix) {
            (None, None) => {}
            (Some(dir), _) if dir.as_os_str().is_empty() => log.file = None,
            (Some(dir), prefix) => {
                if let Err(e) = std::fs::create_dir_all(&dir) {
                    return Err(invalid(
                        "access_log.directory",
                        format_args!("cannot create `{}`: {e}", dir.display()),
                    ));
                }
                let prefix = prefix.or_else(|| log.file.take().map(|(_, p)| p)).unwrap_or_else(|| "access".to_owned());
                log.file = Some((dir, prefix));
            }
            (None, Some(prefix)) => match &mut log.file {
                Some((_, p)) => *p = prefix,
                None => {
                    return Err(invalid(
                        "access_log.file_prefix",
                        "there is no access-log file: set `access_log.directory` too",
                    ))
                }
            },
        }
        r.access_log = Some(log);
        Ok(())
    }
}

impl TlsSection {
    /// The first key set, for the error without the `tls` feature; `None`
    /// when the table only turns TLS off.
    #[cfg_attr(feature = "tls", allow(dead_code))]
    fn wants_tls(&self) -> Option<&'static str> {
        if self.enabled == Some(false) {
            return None;
        }
        let keys = [
            ("tls.cert_file", self.cert_file.is_some()),
            ("tls.key_file", self.key_file.is_some()),
            ("tls.client_ca_file", self.client_ca_file.is_some()),
            ("tls.client_auth", self.client_auth.is_some()),
            ("tls.handshake_timeout_ms", self.handshake_timeout_ms.is_some()),
            ("tls.enabled", self.enabled.is_some()),
        ];
        Some(keys.iter().find(|(_, set)| *set).map_or("tls", |(key, _)| key))
    }

    #[cfg(not(feature = "tls"))]
    fn check(&self) -> Result<(), ConfigError> {
        match self.wants_tls() {
            None => Ok(()),
            Some(key) => Err(invalid(key, "TLS needs the cargo feature `tls` (of restlight or restlight-server)")),
        }
    }

    #[cfg(not(feature = "tls"))]
    fn apply(self, _: &mut Restlight) -> Result<(), ConfigError> {
        self.check()
    }

    /// Reads the PEM files set, unless the table turns TLS off.
    #[cfg(feature = "tls")]
    fn check(&self) -> Result<(), ConfigError> {
        if self.enabled == Some(false) {
            return Ok(());
        }
        self.chain()?;
        self.key()?;
        self.client_ca()?;
        Ok(())
    }

    #[cfg(feature = "tls")]
    fn chain(&self) -> Result<Option<(crate::tls::Chain, &Path)>, ConfigError> {
        let read = |p: &Path| crate::tls::read_certificates(p, "certificate");
        pem("tls.cert_file", self.cert_file.as_deref(), read)
    }

    #[cfg(feature = "tls")]
    fn key(&self) -> Result<Option<(crate::tls::Key, &Path)>, ConfigError> {
        pem("tls.key_file", self.key_file.as_deref(), crate::tls::read_key)
    }

    #[cfg(feature = "tls")]
    fn client_ca(&self) -> Result<Option<(crate::tls::Chain, &Path)>, ConfigError> {
        let read = |p: &Path| crate::tls::read_certificates(p, "client CA");
        pem("tls.client_ca_file", self.client_ca_file.as_deref(), read)
    }

    #[cfg(feature = "tls")]
    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        use crate::tls::{ClientAuth, TlsConfig};
        if self.enabled == Some(false) {
            r.options.tls = None;
            return Ok(());
        }
        let (chain, key, client_ca) = (self.chain()?, self.key()?, self.client_ca()?);
        let mut tls = match (r.options.tls.take(), chain, key) {
            (Some(mut tls), chain, key) => {
                if let Some((chain, path)) = chain {
                    tls = tls.with_chain(chain, path);
                }
                if let Some((key, path)) = key {
                    tls = tls.with_key(key, path);
                }
                tls
            }
            (None, Some((chain, cert_path)), Some((key, key_path))) => {
                let sources = crate::tls::Sources {
                    cert: Some(cert_path.to_owned()),
                    key: Some(key_path.to_owned()),
                    client_ca: None,
                };
                TlsConfig::from_parts(chain, key, sources)
            }
            (None, None, _) => {
                return Err(invalid(
                    "tls.cert_file",
                    "TLS is on but has no certificate: set `tls.cert_file` and `tls.key_file`",
                ))
            }
            (None, Some(_), None) => {
                return Err(invalid("tls.key_file", "TLS is on but has no private key: set `tls.key_file`"))
            }
        };
        if let Some((roots, path)) = client_ca {
            tls = tls.with_client_ca(roots, path);
        }
        let mode = match self.client_auth {
            None => None,
            Some(ClientAuthSetting::None) => Some(None),
            Some(ClientAuthSetting::Required) => Some(Some(ClientAuth::Required)),
            Some(ClientAuthSetting::Optional) => Some(Some(ClientAuth::Optional)),
        };
        if let Some(mode) = mode {
            if !tls.set_client_auth_mode(mode) {
                return Err(invalid("tls.client_auth", "there is no client CA: set `tls.client_ca_file` too"));
            }
        }
        if let Some(ms) = self.handshake_timeout_ms {
            tls = tls.handshake_timeout(Duration::from_millis(ms));
        }
        r.options.tls = Some(tls);
        Ok(())
    }
}

/// Reads the PEM file of `key`, if set; an error names the key and the path.
#[cfg(feature = "tls")]
fn pem<'a, T>(
    key: &str,
    path: Option<&'a Path>,
    read: impl Fn(&Path) -> Result<T, crate::tls::TlsError>,
) -> Result<Option<(T, &'a Path)>, ConfigError> {
    let Some(path) = path else { return Ok(None) };
    match read(path) {
        Ok(value) => Ok(Some((value, path))),
        Err(e @ crate::tls::TlsError::Read { .. }) => Err(invalid(key, e)),
        Err(e) => Err(invalid(key, format_args!("`{}`: {e}", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> tempfile_path::TempFile {
        tempfile_path::TempFile::new(text)
    }

    /// A file removed on drop, named per test.
    mod tempfile_path {
        use std::path::PathBuf;
        use std::sync::atomic::{AtomicUsize, Ordering};

        pub(super) struct TempFile(pub(super) PathBuf);

        impl TempFile {
            pub(super) fn new(text: &str) -> Self {
                static N: AtomicUsize = AtomicUsize::new(0);
                let n = N.fetch_add(1, Ordering::Relaxed);
                let path = std::env::temp_dir().join(format!("restlight-config-{}-{n}.toml", std::process::id()));
                std::fs::write(&path, text).unwrap();
                Self(path)
            }
        }

        impl Drop for TempFile {
            fn drop(&mut self) {
                let _ = std::fs::remove_file(&self.0);
            }
        }
    }

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    use crate::ops::{AccessLog, Actuator};

    #[test]
    fn code_then_file_then_env() {
        let f =
            file("[server]\nport = 9000\nio_threads = 3\nshutdown_timeout_ms = 1500\nallow_ips = [\"10.0.0.0/8\"]\n");
        let r = Restlight::new()
            .port(1000)
            .io_threads(1)
            .biz_threads(7)
            .config_file(&f.0)
            .unwrap()
            // Set in code after the file: the file still wins.
            .io_threads(2)
            .resolve_config(env(&[("RESTLIGHT_SERVER_PORT", "9100"), ("OTHER", "x")]))
            .unwrap();
        assert_eq!(r.options.addr.port(), 9100, "env over file");
        assert_eq!(r.options.io_threads, Some(3), "file over code");
        assert_eq!(r.options.biz_threads, Some(7), "code where nothing else says");
        assert_eq!(r.options.shutdown_timeout, Duration::from_millis(1500));
        assert_eq!(r.options.protection.allow.as_ref().map(Vec::len), Some(1));
    }

    #[test]
    fn env_values_are_typed_and_lists_split_on_commas() {
        let r = Restlight::new()
            .resolve_config(env(&[
                ("RESTLIGHT_SERVER_IO_THREADS", "6"),
                ("RESTLIGHT_SERVER_BIND", "127.0.0.1"),
                ("RESTLIGHT_SERVER_ALLOW_IPS", "127.0.0.1, 10.0.0.0/8"),
                ("RESTLIGHT_SERVER_MAX_CONNECTIONS_PER_SECOND", "0"),
            ]))
            .unwrap();
        assert_eq!(r.options.io_threads, Some(6));
        assert_eq!(r.options.addr.ip().to_string(), "127.0.0.1");
        assert_eq!(r.options.protection.allow.as_ref().map(Vec::len), Some(2));
        assert_eq!(r.options.protection.max_connections_per_second, None);
    }

    #[test]
    fn ignore_env_skips_the_variables() {
        let r = Restlight::new().port(1).ignore_env().resolve_config(env(&[("RESTLIGHT_SERVER_PORT", "2")])).unwrap();
        assert_eq!(r.options.addr.port(), 1);
    }

    #[test]
    fn unknown_file_key_is_an_error_naming_it() {
        let f = file("[server]\nport = 9000\nio_thread = 3\n");
        let err = Restlight::new().config_file(&f.0).unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
        assert!(err.to_string().contains("io_thread"), "{err}");
        let f = file("[sever]\nport = 1\n");
        assert!(Restlight::new().config_file(&f.0).unwrap_err().to_string().contains("sever"));
    }

    #[test]
    fn wrong_types_and_bad_ranges_are_errors() {
        let f = file("[server]\nport = \"eighty\"\n");
        assert!(Restlight::new().config_file(&f.0).unwrap_err().to_string().contains("port"));
        let f = file("[server]\nallow_ips = [\"10.0.0.0/99\"]\n");
        assert!(matches!(Restlight::new().config_file(&f.0).unwrap_err(), ConfigError::Invalid { .. }));
        let missing = Restlight::new().config_file("/nonexistent/restlight.toml").unwrap_err();
        assert!(matches!(missing, ConfigError::Read { .. }));
    }

    #[test]
    fn unknown_or_mistyped_env_variable_is_an_error_naming_it() {
        let err = Restlight::new().resolve_config(env(&[("RESTLIGHT_SERVER_PROT", "80")])).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_PROT"), "{err:?}");
        assert!(err.to_string().contains("prot"), "{err}");
        let err = Restlight::new().resolve_config(env(&[("RESTLIGHT_SERVER_PORT", "http")])).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_PORT"), "{err:?}");
    }

    #[test]
    fn effective_options_show_resolved_defaults() {
        let v = effective(&Restlight::new().io_threads(3).options, None, None);
        assert_eq!(v["ioThreads"], 3);
        assert_eq!(v["address"], "0.0.0.0:8080");
        assert_eq!(v["maxConnectionsPerSecond"], 20_000);
        assert_eq!(v["actuator"]["enabled"], false);
        assert_eq!(v["accessLog"]["enabled"], false);
        assert_eq!(v["tls"]["enabled"], false);
    }

    fn resolve(r: Restlight, vars: &[(&str, &str)]) -> Result<Restlight, ConfigError> {
        r.resolve_config(env(vars))
    }

    fn with_file(r: Restlight, text: &str) -> Result<Restlight, ConfigError> {
        let f = file(text);
        r.config_file(&f.0)
    }

    #[test]
    fn actuator_code_then_file_then_env() {
        let code =
            Actuator::new().base_path("/code").port(0).info("orders", "1.0").health_check("db", crate::Health::up);
        let r = with_file(
            Restlight::new().actuator(code),
            "[actuator]\nbase_path = \"/file\"\nexpose = [\"health\", \"metrics\"]\napp_version = \"2.0\"\n",
        )
        .unwrap();
        let r = resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_BASE_PATH", "/env")]).unwrap();
        let a = r.actuator.expect("still on");
        assert_eq!(a.base_path, "/env", "env over file");
        assert_eq!(a.exposed.iter().copied().collect::<Vec<_>>(), [Endpoint::Health, Endpoint::Metrics], "file");
        assert_eq!(a.version.as_deref(), Some("2.0"), "file over code");
        assert_eq!(a.name.as_deref(), Some("orders"), "code where nothing else says");
        assert_eq!(a.port, Some(0), "code where nothing else says");
        assert_eq!(a.checks.len(), 1, "health checks are code-only and kept");
    }

    #[test]
    fn application_options_come_from_the_file_and_the_env_too() {
        let code = Restlight::new().route(restlight_core::get("/ping").handle(|_| async { "pong" }));
        let r = with_file(code, "[server]\nformat_suffix = true\nbiz_queue = 7\ndefault_scheduler = \"nowhere\"\n")
            .unwrap();
        let r =
            resolve(r, &[("RESTLIGHT_SERVER_DEFAULT_SCHEDULER", "biz"), ("RESTLIGHT_SERVER_FORMAT_PARAMETER", "fmt")])
                .unwrap();
        assert_eq!(r.options.biz_queue, Some(7));
        let client = r.ignore_env().mock().expect("env's `biz` replaced the file's unknown scheduler");
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let res = rt.block_on(client.get("/ping.json").send());
        assert_eq!(res.status(), 200, "format_suffix from the file");
        let res = rt.block_on(client.get("/ping?fmt=nope").send());
        assert_eq!(res.status(), 406, "format_parameter from the env: {}", res.text());
        let biz = client.app().routes().iter().find(|r| r.path == "/ping").unwrap().scheduler.clone();
        assert_eq!(biz, "biz", "default_scheduler from the env");
    }

    #[test]
    fn executor_resize_is_opted_in_by_file_or_env() {
        let r =
            resolve(with_file(Restlight::new(), "[actuator]\nallow_executor_resize = true\n").unwrap(), &[]).unwrap();
        assert!(r.actuator.expect("on").allows_executor_resize(), "file");
        let code = Restlight::new().actuator(Actuator::new().allow_executor_resize(true));
        let r = resolve(code, &[("RESTLIGHT_SERVER_ACTUATOR_ALLOW_EXECUTOR_RESIZE", "false")]).unwrap();
        assert!(!r.actuator.expect("on").allows_executor_resize(), "env over code");
        let r = resolve(Restlight::new().actuator(Actuator::new()), &[]).unwrap();
        assert!(!r.actuator.expect("on").allows_executor_resize(), "off by default");
    }

    #[test]
    fn actuator_table_turns_it_on_and_enabled_false_turns_it_off() {
        let r = resolve(with_file(Restlight::new(), "[actuator]\nport = 9091\n").unwrap(), &[]).unwrap();
        let a = r.actuator.expect("a present table turns the actuator on");
        assert_eq!((a.base_path.as_str(), a.port), (DEFAULT_BASE_PATH_FOR_TESTS, Some(9091)));
        assert!(a.exposes(Endpoint::Health) && a.exposes(Endpoint::Info) && !a.exposes(Endpoint::Metrics));

        let on_in_code = || Restlight::new().actuator(Actuator::new());
        let r = with_file(on_in_code(), "[actuator]\nenabled = false\nbase_path = \"/x\"\n").unwrap();
        assert!(resolve(r, &[]).unwrap().actuator.is_none(), "the file turns the code's actuator off");
        let r = with_file(on_in_code(), "[actuator]\nenabled = false\n").unwrap();
        let r = resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "true")]).unwrap();
        assert_eq!(r.actuator.expect("env turns it back on").base_path, DEFAULT_BASE_PATH_FOR_TESTS);
        // The environment alone, and the file's keys kept when the env turns it on.
        let r = with_file(Restlight::new(), "[server]\nport = 1\n").unwrap();
        assert!(resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "true")]).unwrap().actuator.is_some());
        let r = with_file(Restlight::new(), "[actuator]\nenabled = false\nbase_path = \"/ops\"\n").unwrap();
        let r = resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "true")]).unwrap();
        assert_eq!(r.actuator.unwrap().base_path, "/ops");
        // No table: the code's choice stands.
        assert!(resolve(Restlight::new(), &[]).unwrap().actuator.is_none());
        assert!(resolve(on_in_code(), &[]).unwrap().actuator.is_some());
    }

    const DEFAULT_BASE_PATH_FOR_TESTS: &str = crate::DEFAULT_BASE_PATH;

    #[test]
    fn actuator_env_list_and_text_values() {
        let r = resolve(
            Restlight::new(),
            &[
                ("RESTLIGHT_SERVER_ACTUATOR_EXPOSE", "health, routes,config"),
                ("RESTLIGHT_SERVER_ACTUATOR_PORT", "9091"),
                ("RESTLIGHT_SERVER_ACTUATOR_APP_NAME", "true"),
                ("RESTLIGHT_SERVER_ACTUATOR_APP_VERSION", "1.5"),
            ],
        )
        .unwrap();
        let a = r.actuator.unwrap();
        assert_eq!(
            a.exposed.iter().copied().collect::<Vec<_>>(),
            [Endpoint::Health, Endpoint::Routes, Endpoint::Config]
        );
        assert_eq!(a.port, Some(9091));
        assert_eq!((a.name.as_deref(), a.version.as_deref()), (Some("true"), Some("1.5")), "text keys stay text");
    }

    #[test]
    fn unknown_endpoint_is_an_error_listing_the_known_ones() {
        let err = with_file(Restlight::new(), "[actuator]\nexpose = [\"health\", \"helth\"]\n").unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "actuator.expose"), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains("`helth`") && text.contains("health, info, metrics, routes, config, executors"),
            "{text}"
        );
        let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_ACTUATOR_EXPOSE", "health,bogus")]).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_ACTUATOR_EXPOSE"), "{err:?}");
        assert!(err.to_string().contains("`bogus`"), "{err}");
    }

    #[test]
    fn app_name_and_version_go_together() {
        let err = resolve(with_file(Restlight::new(), "[actuator]\napp_name = \"orders\"\n").unwrap(), &[]);
        assert!(matches!(err, Err(ConfigError::Invalid { key, .. }) if key == "actuator.app_version"));
    }

    #[test]
    fn unknown_keys_in_the_new_tables_are_named_in_full() {
        for (text, key) in [
            ("[actuator]\nbse_path = \"/x\"\n", "actuator.bse_path"),
            ("[access_log]\nenable = true\n", "access_log.enable"),
            ("[tls]\ncert = \"cert.pem\"\n", "tls.cert"),
            ("[server]\nport = 1\nio_thread = 3\n", "server.io_thread"),
            ("[acuator]\nenabled = true\n", "acuator"),
        ] {
            let err = with_file(Restlight::new(), text).unwrap_err();
            assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
            assert!(err.to_string().contains(&format!("`{key}`")), "{key}: {err}");
        }
        for (var, key) in [
            ("RESTLIGHT_SERVER_ACTUATOR_BSE_PATH", "actuator.bse_path"),
            ("RESTLIGHT_SERVER_ACCESS_LOG_ENABLE", "access_log.enable"),
            ("RESTLIGHT_SERVER_TLS_CERT", "tls.cert"),
        ] {
            let err = resolve(Restlight::new(), &[(var, "x")]).unwrap_err();
            assert!(matches!(&err, ConfigError::Env { key, .. } if key == var), "{err:?}");
            assert!(err.to_string().contains(key), "{err}");
        }
    }

    #[test]
    fn wrong_types_in_the_new_tables_are_errors_naming_the_key() {
        for (text, key) in [
            ("[actuator]\nport = \"mgmt\"\n", "actuator.port"),
            ("[actuator]\nenabled = \"yes\"\n", "actuator.enabled"),
            ("[actuator]\nexpose = \"health\"\n", "actuator.expose"),
            ("[access_log]\nenabled = 1\n", "access_log.enabled"),
            ("[tls]\nhandshake_timeout_ms = \"5s\"\n", "tls.handshake_timeout_ms"),
            ("[tls]\nclient_auth = \"maybe\"\n", "tls.client_auth"),
            ("actuator = true\n", "actuator"),
        ] {
            let err = with_file(Restlight::new(), text).unwrap_err();
            assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
            assert!(err.to_string().contains(&format!("`{key}`")), "{key}: {err}");
        }
        for (var, value) in [
            ("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "yes"),
            ("RESTLIGHT_SERVER_ACTUATOR_PORT", "70000"),
            ("RESTLIGHT_SERVER_TLS_HANDSHAKE_TIMEOUT_MS", "soon"),
        ] {
            let err = resolve(Restlight::new(), &[(var, value)]).unwrap_err();
            assert!(matches!(&err, ConfigError::Env { key, .. } if key == var), "{err:?}");
        }
    }

    #[test]
    fn access_log_code_then_file_then_env() {
        let on = || Restlight::new().access_log(AccessLog::new());
        let r = with_file(on(), "[access_log]\nenabled = false\n").unwrap();
        assert!(resolve(r, &[]).unwrap().access_log.is_none(), "file turns the code's log off");
        let r = with_file(on(), "[access_log]\nenabled = false\n").unwrap();
        assert!(resolve(r, &[("RESTLIGHT_SERVER_ACCESS_LOG_ENABLED", "true")]).unwrap().access_log.is_some());
        let r = with_file(Restlight::new(), "[access_log]\n").unwrap();
        assert!(resolve(r, &[]).unwrap().access_log.is_some(), "a present table turns it on");
        assert!(resolve(on(), &[]).unwrap().access_log.is_some(), "no table: the code's choice stands");
    }

    /// A directory under the temp dir, removed on drop.
    #[cfg(feature = "access-log-file")]
    struct TempDir(PathBuf);

    #[cfg(feature = "access-log-file")]
    impl TempDir {
        fn new(name: &str) -> Self {
            Self(std::env::temp_dir().join(format!("restlight-config-{}-{name}", std::process::id())))
        }
    }

    #[cfg(feature = "access-log-file")]
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[cfg(feature = "access-log-file")]
    #[test]
    fn access_log_file_keys_override_the_code_one_by_one() {
        let (one, two) = (TempDir::new("log-one"), TempDir::new("log-two"));
        let code = || Restlight::new().access_log(AccessLog::new().daily_file(&one.0, "code"));
        let text = format!("[access_log]\ndirectory = {:?}\n", two.0.display().to_string());
        let r = resolve(with_file(code(), &text).unwrap(), &[]).unwrap();
        assert_eq!(r.access_log.unwrap().file, Some((two.0.clone(), "code".to_owned())), "the code's prefix kept");
        assert!(two.0.is_dir(), "the directory is created");
        let r =
            resolve(with_file(code(), &text).unwrap(), &[("RESTLIGHT_SERVER_ACCESS_LOG_FILE_PREFIX", "env")]).unwrap();
        assert_eq!(r.access_log.unwrap().file, Some((two.0.clone(), "env".to_owned())));
        let r = resolve(code(), &[("RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY", "")]).unwrap();
        assert_eq!(r.access_log.unwrap().file, None, "an empty directory drops the file");
        let r = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY", &two.0.display().to_string())]);
        assert_eq!(r.unwrap().access_log.unwrap().file, Some((two.0.clone(), "access".to_owned())), "default prefix");
        let err = resolve(with_file(Restlight::new(), "[access_log]\nfile_prefix = \"a\"\n").unwrap(), &[]);
        assert!(matches!(err, Err(ConfigError::Invalid { key, .. }) if key == "access_log.file_prefix"));
        // A directory that cannot be created names the key and the path.
        let blocker = file("not a directory");
        let text = format!("[access_log]\ndirectory = {:?}\n", blocker.0.join("logs").display().to_string());
        let err = resolve(with_file(Restlight::new(), &text).unwrap(), &[]).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "access_log.directory"), "{err:?}");
        assert!(err.to_string().contains(&blocker.0.display().to_string()), "{err}");
    }

    #[cfg(not(feature = "access-log-file"))]
    #[test]
    fn access_log_file_keys_need_the_feature() {
        for (text, key) in [
            ("[access_log]\ndirectory = \"/var/log/x\"\n", "access_log.directory"),
            ("[access_log]\nfile_prefix = \"a\"\n", "access_log.file_prefix"),
        ] {
            let err = with_file(Restlight::new(), text).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key: k, .. } if k == key), "{err:?}");
            assert!(err.to_string().contains("`access-log-file`"), "{err}");
        }
        let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY", "/tmp/x")]).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY"));
        assert!(err.to_string().contains("`access-log-file`"), "{err}");
        assert!(with_file(Restlight::new(), "[access_log]\nenabled = true\n").is_ok());
    }

    #[cfg(not(feature = "tls"))]
    #[test]
    fn tls_keys_need_the_feature() {
        for (text, key) in [
            ("[tls]\ncert_file = \"c.pem\"\nkey_file = \"k.pem\"\n", "tls.cert_file"),
            ("[tls]\nhandshake_timeout_ms = 10\n", "tls.handshake_timeout_ms"),
            ("[tls]\nenabled = true\n", "tls.enabled"),
            ("[tls]\n", "tls"),
        ] {
            let err = with_file(Restlight::new(), text).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key: k, .. } if k == key), "{err:?}");
            assert!(err.to_string().contains("feature `tls`"), "{err}");
        }
        let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_TLS_CERT_FILE", "c.pem")]).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_TLS_CERT_FILE"), "{err:?}");
        assert!(with_file(Restlight::new(), "[tls]\nenabled = false\n").is_ok(), "turning it off needs nothing");
    }

    #[test]
    fn a_later_file_overrides_an_earlier_one_key_by_key() {
        let a = file("[server]\nport = 1\nio_threads = 2\n[actuator]\nbase_path = \"/a\"\nport = 7\n");
        let b = file("[server]\nport = 3\n[actuator]\nbase_path = \"/b\"\n");
        let r = Restlight::new().config_file(&a.0).unwrap().config_file(&b.0).unwrap();
        let r = resolve(r, &[]).unwrap();
        assert_eq!((r.options.addr.port(), r.options.io_threads), (3, Some(2)));
        let a = r.actuator.unwrap();
        assert_eq!((a.base_path.as_str(), a.port), ("/b", Some(7)));
    }

    #[test]
    fn effective_shows_the_actuator_and_the_access_log() {
        let r = with_file(
            Restlight::new().access_log(AccessLog::new()),
            "[actuator]\nbase_path = \"/ops\"\nport = 9091\nexpose = [\"config\"]\napp_name = \"o\"\napp_version = \"1\"\n",
        )
        .unwrap();
        let r = resolve(r, &[]).unwrap();
        let v = effective(&r.options, r.actuator.as_ref(), r.access_log.as_ref());
        assert_eq!(
            v["actuator"],
            json!({"enabled": true, "basePath": "/ops", "port": 9091, "expose": ["config"], "allowExecutorResize": false,
                   "appName": "o", "appVersion": "1", "healthChecks": []})
        );
        assert_eq!(v["accessLog"], json!({"enabled": true, "directory": null, "filePrefix": null}));
    }

    #[cfg(feature = "tls")]
    mod tls {
        use super::*;
        use crate::tls::{ClientAuth, TlsConfig};

        /// A self-signed certificate and its key, as PEM files.
        struct Pem {
            cert: tempfile_path::TempFile,
            key: tempfile_path::TempFile,
            cert_pem: String,
            key_pem: String,
        }

        fn pem() -> Pem {
            let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
            let (cert_pem, key_pem) = (made.cert.pem(), made.signing_key.serialize_pem());
            Pem { cert: file(&cert_pem), key: file(&key_pem), cert_pem, key_pem }
        }

        fn quoted(path: &Path) -> String {
            format!("{:?}", path.display().to_string())
        }

        #[test]
        fn tls_from_the_file_with_env_over_it() {
            let p = pem();
            let text = format!(
                "[tls]\ncert_file = {}\nkey_file = {}\nclient_ca_file = {}\nhandshake_timeout_ms = 2000\n",
                quoted(&p.cert.0),
                quoted(&p.key.0),
                quoted(&p.cert.0)
            );
            let r = with_file(Restlight::new(), &text).unwrap();
            let r = resolve(r, &[("RESTLIGHT_SERVER_TLS_CLIENT_AUTH", "optional")]).unwrap();
            let tls = r.options.tls.as_ref().expect("on");
            assert_eq!(tls.timeout(), Duration::from_millis(2000));
            assert_eq!(tls.client_auth_mode(), Some(ClientAuth::Optional), "env over the file's default");
            assert_eq!(tls.sources().cert.as_deref(), Some(p.cert.0.as_path()));
            tls.server_config().expect("a usable rustls configuration");

            let v = effective(&r.options, None, None);
            assert_eq!(v["tls"]["certFile"], p.cert.0.display().to_string());
            assert_eq!(v["tls"]["keyFile"], p.key.0.display().to_string());
            assert_eq!(v["tls"]["clientAuth"], "optional");
            assert_eq!(v["tls"]["handshakeTimeoutMs"], 2000);
            assert!(!v.to_string().contains("BEGIN"), "no PEM in the effective options: {v}");
        }

        #[test]
        fn file_keys_override_the_code_tls_one_by_one() {
            let p = pem();
            let code = || {
                Restlight::new().tls(
                    TlsConfig::from_pem(p.cert_pem.as_bytes(), p.key_pem.as_bytes())
                        .unwrap()
                        .client_auth_pem(p.cert_pem.as_bytes(), ClientAuth::Optional)
                        .unwrap(),
                )
            };
            let r = with_file(code(), "[tls]\nhandshake_timeout_ms = 1500\n").unwrap();
            let r = resolve(r, &[("RESTLIGHT_SERVER_TLS_HANDSHAKE_TIMEOUT_MS", "2500")]).unwrap();
            let tls = r.options.tls.as_ref().unwrap();
            assert_eq!(tls.timeout(), Duration::from_millis(2500), "env over file over code");
            assert_eq!(tls.client_auth_mode(), Some(ClientAuth::Optional), "the code's client auth kept");
            assert_eq!(tls.sources().cert, None, "the code's in-memory certificate kept");
            let v = effective(&r.options, None, None);
            assert_eq!(v["tls"]["certFile"], Value::Null);

            // Only the key file: the code's certificate stays.
            let r = resolve(with_file(code(), &format!("[tls]\nkey_file = {}\n", quoted(&p.key.0))).unwrap(), &[]);
            let r = r.unwrap();
            let tls = r.options.tls.as_ref().unwrap();
            assert_eq!((tls.sources().cert.as_deref(), tls.sources().key.as_deref()), (None, Some(p.key.0.as_path())));
            tls.server_config().unwrap();

            let r = resolve(with_file(code(), "[tls]\nclient_auth = \"none\"\n").unwrap(), &[]).unwrap();
            assert_eq!(r.options.tls.unwrap().client_auth_mode(), None);
            let off = "[tls]\nenabled = false\ncert_file = \"/nonexistent/cert.pem\"\n";
            let r = resolve(with_file(code(), off).unwrap(), &[]).unwrap();
            assert!(r.options.tls.is_none(), "the file turns the code's TLS off, its paths unread");
            assert!(resolve(code(), &[]).unwrap().options.tls.is_some(), "no table: the code's TLS stands");
        }

        #[test]
        fn bad_pem_paths_are_errors_naming_the_key_and_the_path() {
            let p = pem();
            let text = format!("[tls]\ncert_file = \"/nonexistent/cert.pem\"\nkey_file = {}\n", quoted(&p.key.0));
            let err = with_file(Restlight::new(), &text).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.cert_file"), "{err:?}");
            assert!(err.to_string().contains("/nonexistent/cert.pem"), "{err}");
            // A file that holds no key (here a certificate).
            let text = format!("[tls]\ncert_file = {}\nkey_file = {}\n", quoted(&p.cert.0), quoted(&p.cert.0));
            let err = with_file(Restlight::new(), &text).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.key_file"), "{err:?}");
            assert!(err.to_string().contains(&p.cert.0.display().to_string()), "{err}");
            let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_TLS_CLIENT_CA_FILE", "/nonexistent/ca.pem")]);
            let err = err.unwrap_err();
            assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_TLS_CLIENT_CA_FILE"));
            assert!(err.to_string().contains("tls.client_ca_file") && err.to_string().contains("/nonexistent/ca.pem"));
        }

        #[test]
        fn tls_needs_a_certificate_and_a_key_and_client_auth_a_ca() {
            let p = pem();
            let err = resolve(with_file(Restlight::new(), "[tls]\nenabled = true\n").unwrap(), &[]).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.cert_file"), "{err:?}");
            let text = format!("[tls]\ncert_file = {}\n", quoted(&p.cert.0));
            let err = resolve(with_file(Restlight::new(), &text).unwrap(), &[]).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.key_file"), "{err:?}");
            let text = format!(
                "[tls]\ncert_file = {}\nkey_file = {}\nclient_auth = \"required\"\n",
                quoted(&p.cert.0),
                quoted(&p.key.0)
            );
            let err = resolve(with_file(Restlight::new(), &text).unwrap(), &[]).unwrap_err();
            assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.client_auth"), "{err:?}");
        }
    }
}
