//! The keys a configuration file and the environment may set: one struct
//! per table, each key optional, and how a later source overrides an
//! earlier one key by key.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::PathBuf;

use super::read::{self, KeyError, Setting};

/// Defines a table once: the struct (every key an `Option`), its `read`
/// (unknown keys refused) and its `overlay`, which list every key, so a
/// key added to the table is read and overlaid too.
macro_rules! section {
    ($(#[$meta:meta])* $name:ident { $($field:ident: $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default)]
        pub(crate) struct $name {
            $(pub(crate) $field: Option<$ty>,)*
        }

        impl $name {
            /// The keys of `[at]`, each converted by its field's type.
            pub(crate) fn read(table: &toml::Table, at: &str) -> Result<Self, KeyError> {
                let mut this = Self::default();
                for (key, value) in table {
                    match key.as_str() {
                        $(stringify!($field) => this.$field = Some(read::field(at, key, value)?),)*
                        _ => return Err(read::unknown(at, key, &[$(stringify!($field)),*])),
                    }
                }
                Ok(this)
            }

            /// The keys set in `over` replace these.
            pub(crate) fn overlay(self, over: Self) -> Self {
                Self { $($field: over.$field.or(self.$field)),* }
            }
        }
    };
}

/// A configuration file: a `[server]` table and the optional `[actuator]`,
/// `[access_log]`, `[tls]` and `[openapi]` tables (a present table turns
/// its feature on unless it says `enabled = false`), and the `[otel]` table
/// that [`Otlp`](crate::Otlp) reads (feature `otel`).
#[derive(Debug, Clone, Default)]
pub(crate) struct FileConfig {
    pub(crate) server: ServerSection,
    pub(crate) actuator: Option<ActuatorSection>,
    pub(crate) access_log: Option<AccessLogSection>,
    pub(crate) tls: Option<TlsSection>,
    pub(crate) openapi: Option<OpenApiSection>,
    pub(crate) otel: Option<OtelSection>,
}

/// The tables a file may have, `[server]` first.
pub(crate) const TABLES: [&str; 6] = ["server", "actuator", "access_log", "tls", "openapi", "otel"];

impl FileConfig {
    /// The tables of a parsed file (or of the environment's variables).
    pub(crate) fn from_root(root: &toml::Table) -> Result<Self, KeyError> {
        let mut config = Self::default();
        for (name, value) in root {
            match name.as_str() {
                "server" => config.server = ServerSection::read(read::table(name, value)?, name)?,
                "actuator" => config.actuator = Some(ActuatorSection::read(read::table(name, value)?, name)?),
                "access_log" => config.access_log = Some(AccessLogSection::read(read::table(name, value)?, name)?),
                "tls" => config.tls = Some(TlsSection::read(read::table(name, value)?, name)?),
                "openapi" => config.openapi = Some(OpenApiSection::read(read::table(name, value)?, name)?),
                "otel" => config.otel = Some(OtelSection::read(read::table(name, value)?, name)?),
                _ => {
                    let message = format!("unknown table, the tables are: {}", TABLES.join(", "));
                    return Err(KeyError { key: name.clone(), message });
                }
            }
        }
        Ok(config)
    }

    /// `over`'s keys replace these.
    pub(crate) fn overlay(self, over: Self) -> Self {
        Self {
            server: self.server.overlay(over.server),
            actuator: overlay_table(self.actuator, over.actuator, ActuatorSection::overlay),
            access_log: overlay_table(self.access_log, over.access_log, AccessLogSection::overlay),
            tls: overlay_table(self.tls, over.tls, TlsSection::overlay),
            openapi: overlay_table(self.openapi, over.openapi, OpenApiSection::overlay),
            otel: overlay_table(self.otel, over.otel, OtelSection::overlay),
        }
    }
}

fn overlay_table<T>(base: Option<T>, over: Option<T>, f: fn(T, T) -> T) -> Option<T> {
    match (base, over) {
        (Some(base), Some(over)) => Some(f(base, over)),
        (base, over) => over.or(base),
    }
}

section! {
    /// Every server option, each optional; the names are the builder's setters
    /// (durations in milliseconds, with an `_ms` suffix).
    ServerSection {
        port: u16,
        bind: IpAddr,
        io_threads: usize,
        biz_threads: usize,
        shutdown_timeout_ms: u64,
        header_read_timeout_ms: u64,
        idle_timeout_ms: u64,
        max_header_size: usize,
        h2_max_concurrent_streams: u32,
        max_headers: usize,
        h2_initial_stream_window_size: u32,
        h2_initial_connection_window_size: u32,
        h2_keep_alive_interval_ms: u64,
        h2_keep_alive_timeout_ms: u64,
        h2_max_pending_accept_reset_streams: usize,
        h2_max_local_error_reset_streams: usize,
        body_read_timeout_ms: u64,
        min_body_rate: u64,
        min_body_rate_grace_ms: u64,
        write_timeout_ms: u64,
        max_connections: usize,
        max_connections_per_second: u32,
        allow_ips: Vec<String>,
        max_body_size: usize,
        biz_queue: usize,
        biz_max_active: usize,
        default_scheduler: String,
        compression: bool,
        compression_threshold: usize,
        format_parameter: String,
        format_suffix: bool,
        strict_matching: bool,
        request_ids: bool,
        request_id_header: String,
        trace_context: bool,
    }
}

section! {
    /// The `[actuator]` table: the [`Actuator`](crate::Actuator) builder's
    /// settings but the health checks.
    ActuatorSection {
        enabled: bool,
        base_path: String,
        port: u16,
        expose: Vec<String>,
        allow_executor_resize: bool,
        app_name: String,
        app_version: String,
    }
}

section! {
    /// The `[access_log]` table: on or off, and the daily file (feature
    /// `access-log-file`).
    AccessLogSection {
        enabled: bool,
        directory: PathBuf,
        file_prefix: String,
    }
}

section! {
    /// The `[openapi]` table (feature `openapi`): the
    /// [`OpenApiDocs`](crate::OpenApiDocs) settings; an empty path turns
    /// its endpoint off, `version` is `"3.1"` or `"3.0"`.
    OpenApiSection {
        enabled: bool,
        json_path: String,
        yaml_path: String,
        ui_path: String,
        version: String,
        title: String,
        api_version: String,
    }
}

section! {
    /// The `[tls]` table (feature `tls`): PEM files and options.
    TlsSection {
        enabled: bool,
        cert_file: PathBuf,
        key_file: PathBuf,
        client_ca_file: PathBuf,
        client_auth: ClientAuthSetting,
        handshake_timeout_ms: u64,
    }
}

section! {
    /// The `[otel]` table (feature `otel`): the [`Otlp`](crate::Otlp)
    /// export settings, read by `Otlp::config_file` and from the
    /// `RESTLIGHT_SERVER_OTEL_*` variables; the server only checks it.
    OtelSection {
        enabled: bool,
        endpoint: String,
        service_name: String,
        sampler_ratio: f64,
        headers: BTreeMap<String, String>,
        timeout_ms: u64,
    }
}

/// `tls.client_auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClientAuthSetting {
    Required,
    Optional,
    None,
}

impl Setting for ClientAuthSetting {
    fn read(value: &toml::Value) -> Result<Self, String> {
        match value.as_str() {
            Some("required") => Ok(Self::Required),
            Some("optional") => Ok(Self::Optional),
            Some("none") => Ok(Self::None),
            _ => Err(read::expected("`required`, `optional` or `none`", value)),
        }
    }
}
