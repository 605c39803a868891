//! The effective options, as the `config` actuator endpoint shows them.

#[cfg(feature = "tls")]
use std::path::PathBuf;

use serde_json::{json, Value};

use restlight_core::App;

use crate::builder::BIZ;
use crate::ops::{AccessLog, Actuator};
use crate::options::ServerOptions;

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The effective server options as JSON (durations in milliseconds), with
/// the defaults resolved, and the actuator, access log, TLS and
/// OpenTelemetry export settings (the export's header values masked).
/// The business executor's sizes are read from `app`, the application that
/// runs (`null` without one, or for a user's own executor).
pub(crate) fn effective(
    options: &ServerOptions,
    app: Option<&App>,
    actuator: Option<&Actuator>,
    access_log: Option<&AccessLog>,
) -> Value {
    let biz = app.and_then(|app| app.executors().into_iter().find(|e| e.name == BIZ));
    let p = &options.protection;
    let l = &options.limits;
    json!({
        "address": options.addr.to_string(),
        "ioThreads": options.io_threads(),
        "bizThreads": biz.as_ref().map(|b| b.threads),
        "bizQueue": biz.as_ref().map(|b| b.queue_capacity),
        "bizMaxActive": biz.as_ref().map(|b| b.max_active),
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
        "minBodyRate": l.min_body_rate,
        "minBodyRateGraceMs": ms(l.min_body_rate_grace),
        "writeTimeoutMs": ms(l.write_timeout),
        "maxConnections": p.max_connections,
        "maxConnectionsPerSecond": p.max_connections_per_second,
        "allowIps": p.allow.as_ref().map(|a| a.iter().map(ToString::to_string).collect::<Vec<_>>()),
        "loadShedding": p.load_shedding.is_some(),
        "requestIds": options.trace.request_ids,
        "requestIdHeader": options.trace.request_id_header.as_str(),
        "traceContext": options.trace.trace_context,
        "tls": effective_tls(options),
        "actuator": actuator.map_or_else(|| json!({ "enabled": false }), effective_actuator),
        "accessLog": effective_access_log(access_log),
        "otel": effective_otel(),
    })
}

/// The OpenTelemetry export's settings (feature `otel`): those of the layer
/// `Otlp::layer` made in this process, header values masked.
#[cfg(feature = "otel")]
fn effective_otel() -> Value {
    crate::ops::otel_effective()
}

#[cfg(not(feature = "otel"))]
fn effective_otel() -> Value {
    json!({ "enabled": false })
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
