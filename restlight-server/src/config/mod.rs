//! Server configuration from TOML files and environment variables, and the
//! effective options as the `config` actuator endpoint shows them.
//!
//! Reading a file and the variables needs the cargo feature `config` (on
//! by default): without it, [`Restlight::config_file`] returns
//! [`ConfigError::Read`] naming the feature, and a `RESTLIGHT_SERVER_*`
//! variable is an error at start (unless [`Restlight::ignore_env`]).
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
//! Values are read as TOML scalars (`8080`, `0.5`, `true`, `"text"`), as
//! they would be after `key = ` in a file, falling back to the raw text for
//! keys that take a string or a path; the lists (`allow_ips`,
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
//! | `server.io_threads` | `RESTLIGHT_SERVER_IO_THREADS` | cores | IO threads (event loops) |
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
//! | `server.min_body_rate` | `RESTLIGHT_SERVER_MIN_BODY_RATE` | `240` | slowest request body, bytes/s after the grace (408; `0`: off) |
//! | `server.min_body_rate_grace_ms` | `RESTLIGHT_SERVER_MIN_BODY_RATE_GRACE_MS` | `5000` | time before the minimum body rate applies |
//! | `server.write_timeout_ms` | `RESTLIGHT_SERVER_WRITE_TIMEOUT_MS` | `30000` | response write stall |
//! | `server.max_connections` | `RESTLIGHT_SERVER_MAX_CONNECTIONS` | no limit | open connections |
//! | `server.max_connections_per_second` | `RESTLIGHT_SERVER_MAX_CONNECTIONS_PER_SECOND` | `20000` | new connections per second (`0`: off) |
//! | `server.allow_ips` | `RESTLIGHT_SERVER_ALLOW_IPS` | everyone | IP allow-list (addresses or CIDR ranges) |
//! | `server.max_body_size` | `RESTLIGHT_SERVER_MAX_BODY_SIZE` | `4194304` | request entity limit (413) |
//! | `server.biz_queue` | `RESTLIGHT_SERVER_BIZ_QUEUE` | `512` | requests waiting for a business worker (429 past it) |
//! | `server.biz_max_active` | `RESTLIGHT_SERVER_BIZ_MAX_ACTIVE` | `biz_threads` | business handlers running at once |
//! | `server.default_scheduler` | `RESTLIGHT_SERVER_DEFAULT_SCHEDULER` | `"io"` | where `async` handlers without `#[scheduled]` run |
//! | `server.compression` | `RESTLIGHT_SERVER_COMPRESSION` | `true` with feature `compression` | compress responses by `Accept-Encoding` |
//! | `server.compression_threshold` | `RESTLIGHT_SERVER_COMPRESSION_THRESHOLD` | `1024` | smallest body compressed |
//! | `server.format_parameter` | `RESTLIGHT_SERVER_FORMAT_PARAMETER` | off | query parameter choosing the codec (`?format=msgpack`) |
//! | `server.format_suffix` | `RESTLIGHT_SERVER_FORMAT_SUFFIX` | `false` | a `.json`-style path suffix chooses the codec |
//! | `server.strict_matching` | `RESTLIGHT_SERVER_STRICT_MATCHING` | `false` | JAX-RS method selection to the letter: best template first, then 405 |
//! | `server.request_ids` | `RESTLIGHT_SERVER_REQUEST_IDS` | `false` | keep or make a request ID per request (response header, access log, span) |
//! | `server.request_id_header` | `RESTLIGHT_SERVER_REQUEST_ID_HEADER` | `"x-request-id"` | header the request ID is read from and written to |
//! | `server.trace_context` | `RESTLIGHT_SERVER_TRACE_CONTEXT` | `false` | W3C `traceparent`/`tracestate` and a server span per request |
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
//! | `otel.enabled` | `RESTLIGHT_SERVER_OTEL_ENABLED` | `true` | export spans at all (`false`: the layer records nothing); feature `otel` |
//! | `otel.endpoint` | `RESTLIGHT_SERVER_OTEL_ENDPOINT` | `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, else `"http://localhost:4318/v1/traces"` | OTLP/HTTP URL spans are posted to (`http://` only); feature `otel` |
//! | `otel.service_name` | `RESTLIGHT_SERVER_OTEL_SERVICE_NAME` | `OTEL_SERVICE_NAME`, else `"unknown_service"` | the `service.name` resource attribute; feature `otel` |
//! | `otel.sampler_ratio` | `RESTLIGHT_SERVER_OTEL_SAMPLER_RATIO` | `OTEL_TRACES_SAMPLER`/`_ARG`, else every trace | share of new traces sampled, `0.0` to `1.0`, parent-based; feature `otel` |
//! | `otel.headers` | `RESTLIGHT_SERVER_OTEL_HEADERS` (`name=value,...`) | `OTEL_EXPORTER_OTLP_HEADERS`, else none | headers of every export request (a table: `{ authorization = "..." }`); feature `otel` |
//! | `otel.timeout_ms` | `RESTLIGHT_SERVER_OTEL_TIMEOUT_MS` | `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, `OTEL_EXPORTER_OTLP_TIMEOUT`, else `10000` | one export request's deadline; feature `otel` |
//!
//! Set in code only: what is code rather than a value (routes, resources,
//! beans, filters, interceptors, exception mappers, layers, codecs, health
//! checks), named executors and the business executor's fail-fast (a
//! [`Scheduler`](restlight_core::Scheduler) registered as `"biz"`), and
//! load shedding.
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
//! - The `[otel]` table is read by [`Otlp::config_file`](crate::Otlp) (and
//!   its `RESTLIGHT_SERVER_OTEL_*` variables by `Otlp::layer`), which
//!   builds the `tracing` layer the application installs before the server
//!   starts; the server only checks it (an unknown key, a ratio outside
//!   `0.0..=1.0`, an endpoint that is not an `http://` URL, a header that
//!   cannot be one, a zero timeout are errors naming the key). Without the
//!   `otel` feature, any `[otel]` key (but `enabled = false`) is an error
//!   naming the key and the feature. The precedence is the same, key by key
//!   (code < file < `RESTLIGHT_SERVER_OTEL_*`), and the standard `OTEL_*`
//!   variables fill what none of these sets. `otel.headers` replaces the
//!   headers set in code as a whole; `RESTLIGHT_SERVER_OTEL_HEADERS`
//!   replaces the file's. The `config` endpoint shows, under `otel`, the
//!   settings of the export `Otlp::layer` set up in the process (every
//!   source resolved: endpoint, service name, sampler, timeout, and the
//!   header names with their values masked, as they often hold API keys),
//!   or `{"enabled": false}` when there is none.

#[cfg(feature = "config")]
mod apply;
mod effective;
#[cfg(feature = "config")]
mod env;
mod error;
#[cfg(feature = "config")]
mod file;
#[cfg(feature = "config")]
mod read;
#[cfg(feature = "config")]
mod sections;
#[cfg(all(test, feature = "config"))]
mod tests;

pub(crate) use effective::effective;
pub use error::ConfigError;
#[cfg(feature = "config")]
pub(crate) use sections::FileConfig;
#[cfg(feature = "otel")]
pub(crate) use sections::OtelSection;

/// The prefix of the environment variables read at start.
pub const ENV_PREFIX: &str = "RESTLIGHT_SERVER_";

/// Without the `config` feature: a `RESTLIGHT_SERVER_*` variable among
/// `vars` is an error naming it and the feature, rather than a setting
/// silently not applied.
#[cfg(not(feature = "config"))]
pub(crate) fn refuse_env(vars: impl IntoIterator<Item = (String, String)>) -> Result<(), ConfigError> {
    match vars.into_iter().find(|(name, _)| name.starts_with(ENV_PREFIX)) {
        Some((key, _)) => Err(ConfigError::Env {
            key,
            message: "the environment variables are read with the cargo feature `config`, which is off".to_owned(),
        }),
        None => Ok(()),
    }
}
