//! Server configuration from TOML files and environment variables, and the
//! effective options as the `config` actuator endpoint shows them.

use serde_json::{json, Value};

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
