//! The Restlight server: serves a Restlight application over HTTP/1.1 and
//! HTTP/2 (h2c, by prior knowledge) on hyper 1.x, with network IO and
//! business work on separate runtimes.
//!
//! [`Restlight`] is the builder: it takes the application (routes, resources,
//! beans, executors) and the server options, then either serves until
//! SIGINT/SIGTERM ([`Restlight::run`]) or starts in the background and hands
//! back a [`ServerHandle`] ([`Restlight::start`]). The crate works without the
//! macros, through the builder routes of `restlight_core`:
//!
//! ```no_run
//! use std::net::Ipv4Addr;
//! use std::time::Duration;
//!
//! use restlight_core::get;
//! use restlight_server::Restlight;
//!
//! fn main() -> restlight_core::Result<()> {
//!     Restlight::new()
//!         .route(get("/ping").handle(|_ctx| async { "pong" }))
//!         .bind(Ipv4Addr::LOCALHOST)
//!         .port(8080)
//!         .header_read_timeout(Duration::from_secs(10))
//!         .run()
//! }
//! ```
//!
//! # Threads
//!
//! `start` builds the runtimes on a dedicated thread (`restlight-server`),
//! which accepts the connections and at the end tears the runtimes down;
//! `run` does the same on the calling thread (outside an async runtime;
//! inside one it starts the dedicated thread too), so a service started
//! with `run` from `main` has no thread of its own for the server. With
//! one IO thread (the default on one core) the server thread is also the
//! event loop, and the process has no IO thread either. The application
//! owns its executors:
//!
//! - the IO threads (`restlight-io-N`, one per core by default), each an
//!   event loop of its own (a single-threaded tokio runtime): every accepted
//!   connection is handed to the one serving the fewest and stays there;
//!   they speak HTTP and run routes scheduled on IO (by default, every
//!   `async fn` handler: see [`Restlight::default_scheduler`]), so a
//!   handler that blocks holds up the other connections of its thread (and
//!   `tokio::task::block_in_place` is not available there);
//! - the business executor `"biz"` (`restlight-biz-N`, `max(4, 2 x cores)`
//!   threads by default, [`Restlight::biz_threads`], each started when a
//!   handler first needs it: a service that never uses it starts none) runs plain `fn`
//!   handlers and routes scheduled on `biz`, at most one per thread at a
//!   time (more with [`Restlight::biz_max_active`], for `async` handlers
//!   that mostly await: they then share threads, and a round of them
//!   crosses between the IO thread and each business thread in one
//!   wake-up each way), with 512 more queued; past that a request is
//!   answered 429 at once;
//! - named executors registered with [`Restlight::scheduler`] (threads of
//!   their own or an existing runtime, a queue bound, a fail-fast time)
//!   run the routes scheduled on them.
//!
//! Work handed to an executor stays tied to its request: a closed
//! connection, a reset stream or a route timeout removes it from the queue
//! or aborts it. [`ServerHandle::executors`] reads each executor's metrics;
//! [`ServerHandle::resize_executor`] (or the actuator's opt-in
//! `POST {base}/executors/{name}`, see [`Actuator::allow_executor_resize`])
//! changes a bounded executor's threads, `max_active` and queue while it
//! serves, aborting nothing and losing no queued request.
//!
//! # Connections
//!
//! Each connection gets `TCP_NODELAY`. Its first bytes are peeked to tell the
//! HTTP/2 prior-knowledge preface (`PRI * HTTP/2.0…`) from HTTP/1; a
//! connection that sends nothing decisive within the header read timeout is
//! closed. The `Upgrade: h2c` header of HTTP/1.1 is not supported: such
//! requests are served as HTTP/1.1.
//!
//! - HTTP/1.1: keep-alive, a header read timeout (also bounding the wait for
//!   the next request on a kept-alive connection) and a header size limit
//!   answered with 431.
//! - HTTP/2: bounded concurrent streams and bounded reset-stream counts
//!   (h2's rapid-reset defences stay on); a reset stream drops its request's
//!   future, and with it the handler's work.
//! - Both: a connection with no request in flight for the idle timeout is
//!   closed (HTTP/1) or sent GOAWAY (HTTP/2); a request body that stops
//!   arriving for the body read timeout, or that once past its grace period
//!   ([`Restlight::min_body_rate_grace`]) has arrived more slowly than
//!   [`Restlight::min_body_rate`] (240 bytes/s by default), is answered 408; a write that makes
//!   no progress for the write timeout closes the connection.
//! - HTTP/2 flow control: a client that stops taking a response without
//!   stopping the socket (it never opens the stream's window again) does not
//!   keep it: a stream whose response has a piece waiting for the client,
//!   none taken for the write timeout, is reset (`RST_STREAM` `CANCEL`) and
//!   its response dropped; a connection left without streams then ends at
//!   the idle timeout. A response waiting for the application (a slow
//!   producer, server-sent events) is not timed. A client that keeps
//!   opening its window, however slowly, is not cut off: there is no
//!   minimum rate.
//!
//! # Strict requests
//!
//! Before the application sees a request, on HTTP/1.1 and HTTP/2 alike, the
//! server answers 400 (problem details; on HTTP/1 the connection is then
//! closed) to:
//!
//! - more than one `Host` header, or a `Host` value that is not
//!   `host[:port]` (RFC 9112 §3.2; an HTTP/1.1 request without `Host` is
//!   answered 400 by the application's routing);
//! - the asterisk-form target `*` with any method but OPTIONS
//!   (RFC 9112 §3.2.4); `OPTIONS *` is answered 200 with an `Allow` of every
//!   method the routes answer;
//! - a path with a `.` or `..` segment, its dots raw or percent-encoded
//!   (`%2e`), an encoded slash (`%2F`) or a backslash (`\`, `%5C`) counting
//!   as a segment boundary: such paths are refused, never normalised, so a
//!   `..` never reaches a path parameter. Names with dots (`a.txt`,
//!   `.hidden`, `...`) are served. An encoded slash elsewhere stays inside
//!   its segment, as the router has always read it. Query and matrix
//!   parameter values are data, not segments, and are not checked;
//! - over HTTP/2, a `host` field naming another authority than
//!   `:authority` (RFC 9113 §8.3.1).
//!
//! It also answers 417 to an `Expect` other than `100-continue` (HTTP/1.1
//! and HTTP/2; RFC 9110 §10.1.1) and 501 to a CONNECT (an origin server
//! opens no tunnel), and gives an HTTP/1.1 absolute-form request the
//! target's authority as its `Host` (RFC 9112 §3.2.2), then checks it as
//! a request that had sent that `Host`.
//!
//! These checks are the server's: `MockClient` drives the application
//! without them.
//!
//! # Protection
//!
//! Right after `accept`, before any byte is read, a connection passes the
//! IP allow-list ([`Restlight::allow_ips`]), the connection limit
//! ([`Restlight::max_connections`]), the new-connection rate limit
//! ([`Restlight::max_connections_per_second`], 20,000/s by default) and,
//! when on, load shedding under CPU overload ([`Restlight::load_shedding`]).
//! A refused connection is closed at once and counted by cause in
//! [`ServerHandle::stats`].
//!
//! # HTTPS
//!
//! With the `tls` feature (off by default: `features = ["tls"]`),
//! `Restlight::tls` serves HTTPS with rustls: `h2` or `http/1.1` by ALPN,
//! TLS 1.2 and 1.3, optional client certificates, a handshake timeout. See
//! `TlsConfig`. Without the feature, a `[tls]` key in the configuration
//! file or a `RESTLIGHT_SERVER_TLS_*` variable stops the service with an
//! error naming the key and the feature.
//!
//! # Configuration
//!
//! Every server option, the actuator, the access log and TLS can also be
//! set from a TOML file ([`Restlight::config_file`]) and from
//! `RESTLIGHT_SERVER_*` environment variables ([`Restlight::ignore_env`]),
//! with **code < file < environment**, key by key; an unknown key or
//! variable, or a value of the wrong type, is an error naming it.
//!
//! # Shutdown
//!
//! A graceful shutdown closes the listener (new connections are refused),
//! closes idle HTTP/1 connections, sends GOAWAY on HTTP/2 ones, lets
//! in-flight requests finish for up to the shutdown timeout, answers 503 to
//! the requests still queued for an executor (giving them 100 ms to be
//! written), aborts what is left, and tears the runtimes down.

mod activity;
mod builder;
mod config;
mod conn;
mod gate;
mod handle;
mod launch;
mod limits;
mod ops;
mod options;
mod protect;
mod runtime;
mod serve;
mod service;
mod shutdown;
mod sniff;
mod strict;
#[cfg(feature = "tls")]
mod tls;

pub use builder::Restlight;
pub use config::{ConfigError, ENV_PREFIX};
#[doc(hidden)]
pub use conn::serve_http1 as __serve_http1;
pub use handle::ServerHandle;
pub use ops::{
    AccessLog, Actuator, Endpoint, Health, UnknownEndpoint, ACCESS_TARGET, DEFAULT_BASE_PATH, REQUEST_TARGET,
};
#[cfg(feature = "openapi")]
pub use ops::{OpenApiDocs, DEFAULT_JSON_PATH, DEFAULT_UI_PATH, DEFAULT_YAML_PATH};
#[cfg(feature = "otel")]
pub use ops::{OtelGuard, Otlp, OtlpError};
pub use protect::{IpRange, IpRangeError, LoadShedding, Refusal, ServerStats};
#[cfg(feature = "tls")]
pub use tls::{ClientAuth, TlsConfig, TlsError};
