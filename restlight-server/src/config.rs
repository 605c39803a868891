//! Server configuration from TOML files and environment variables, and the
//! effective options as the `config` actuator endpoint shows them.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::builder::Restlight;
use crate::options::ServerOptions;

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The effective server options as JSON (durations in milliseconds), with
/// the defaults resolved.
pub(crate) fn effective(options: &ServerOptions) -> Value {
    let p = &options.protection;
    let l = &options.limits;
    #[cfg(feature = "tls")]
    let tls = options.tls.is_some();
    #[cfg(not(feature = "tls"))]
    let tls = false;
    json!({
        "address": options.addr.to_string(),
        "ioThreads": options.io_threads(),
        "bizThreads": options.biz_threads(),
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
        "tls": tls,
    })
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
    /// a value of the wrong type, or an unknown key (named in the message).
    Parse {
        /// The file.
        path: PathBuf,
        /// What `toml` said, with the line and the key.
        message: String,
    },
    /// A value that has the right type but is not acceptable.
    Invalid {
        /// The key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// A `RESTLIGHT_SERVER_*` environment variable is unknown or has a
    /// value of the wrong type.
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

/// A configuration file: a `[server]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileConfig {
    #[serde(default)]
    pub(crate) server: ServerSection,
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
}

/// The prefix of the environment variables read at start.
pub const ENV_PREFIX: &str = "RESTLIGHT_SERVER_";

impl FileConfig {
    pub(crate) fn read(path: &Path) -> Result<Self, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
        toml::from_str(&text).map_err(|e| ConfigError::Parse { path: path.to_owned(), message: e.to_string() })
    }
}

impl ServerSection {
    /// The `RESTLIGHT_SERVER_*` variables among `vars`, one key each.
    pub(crate) fn from_env(vars: impl IntoIterator<Item = (String, String)>) -> Result<Self, ConfigError> {
        let mut table = toml::Table::new();
        let mut names = std::collections::HashMap::new();
        for (name, raw) in vars {
            let Some(key) = name.strip_prefix(ENV_PREFIX) else { continue };
            let key = key.to_ascii_lowercase();
            let value = if key == "allow_ips" {
                toml::Value::Array(
                    raw.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.to_owned().into()).collect(),
                )
            } else {
                match format!("v = {raw}").parse::<toml::Table>() {
                    Ok(mut t) if !raw.trim().is_empty() => t.remove("v").unwrap_or_else(|| raw.clone().into()),
                    _ => raw.clone().into(),
                }
            };
            names.insert(key.clone(), name);
            table.insert(key, value);
        }
        // One variable at a time, so an error names its variable.
        for (key, value) in &table {
            let mut one = toml::Table::new();
            one.insert(key.clone(), value.clone());
            if let Err(e) = Self::deserialize(one) {
                let name = names.get(key).cloned().unwrap_or_else(|| key.clone());
                return Err(ConfigError::Env { key: name, message: e.to_string() });
            }
        }
        Self::deserialize(table)
            .map_err(|e| ConfigError::Env { key: ENV_PREFIX.to_owned() + "*", message: e.to_string() })
    }

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
                .map(|s| {
                    s.parse::<crate::IpRange>()
                        .map_err(|e| ConfigError::Invalid { key: "allow_ips".into(), message: e.to_string() })
                })
                .collect::<Result<Vec<_>, _>>()?;
            r = r.allow_ips(ranges);
        }
        Ok(r)
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
        let v = effective(&Restlight::new().io_threads(3).options);
        assert_eq!(v["ioThreads"], 3);
        assert_eq!(v["address"], "0.0.0.0:8080");
        assert_eq!(v["maxConnectionsPerSecond"], 20_000);
    }
}
