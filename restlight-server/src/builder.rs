//! [`Restlight`]: the application builder plus the server options.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use restlight_core::filter::Filter;
use restlight_core::intercept::Intercept;
use restlight_core::layer::AppStack;
use restlight_core::test::MockClient;
use restlight_core::{App, AppBuilder, ExceptionMapper, Executor, Result, Route, Scheduler};

use crate::config::ConfigError;
use crate::handle::ServerHandle;
use crate::launch::{launch, serve_here, Signals};
use crate::ops::{AccessLog, Actuator};
use crate::options::ServerOptions;

/// The name of the business executor, as routes name it.
pub(crate) const BIZ: &str = "biz";

/// Builds a Restlight application and serves it over HTTP/1.1 and h2c.
///
/// Application settings (`resource`, `bean`, `route`, `scheduler`,
/// `executor`, `default_scheduler`, `max_body_size`, codecs, interceptors,
/// filters, layers, ...) go to the core's [`AppBuilder`] setter of the same
/// name, which documents them; the rest configure the server. Every setter
/// takes and returns the builder by value.
///
/// ```no_run
/// use std::time::Duration;
/// use restlight_server::Restlight;
///
/// fn main() -> restlight_core::Result<()> {
///     Restlight::new()
///         .route(restlight_core::get("/ping").handle(|_ctx| async { "pong" }))
///         .port(8080)
///         .shutdown_timeout(Duration::from_secs(10))
///         .run()
/// }
/// ```
#[derive(Debug, Default)]
#[must_use = "a Restlight builder does nothing until `run`, `start`, `build` or `mock` is called"]
pub struct Restlight {
    pub(crate) app: AppBuilder,
    pub(crate) options: ServerOptions,
    /// Whether the user registered an executor named `"biz"` themselves.
    pub(crate) user_biz: bool,
    /// The actuator endpoints, when on.
    pub(crate) actuator: Option<Actuator>,
    /// The access log, when on.
    pub(crate) access_log: Option<AccessLog>,
    /// The OpenAPI endpoints, when on.
    #[cfg(feature = "openapi")]
    pub(crate) openapi: Option<crate::OpenApiDocs>,
    /// Settings read from a configuration file, applied over the code's;
    /// boxed, so that a service without one (and every builder call, which
    /// moves the builder) does not carry its space inline.
    #[cfg(feature = "config")]
    pub(crate) file_config: Option<Box<crate::config::FileConfig>>,
    /// Whether `RESTLIGHT_SERVER_*` variables are ignored.
    pub(crate) ignore_env: bool,
}

impl Restlight {
    /// A builder with no routes and the default options.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Generates setters that hand their arguments to the [`AppBuilder`] setter
/// of the same name. The meaning and the default of each option are
/// documented once, on that setter; the generated doc links to it.
///
/// Generic parameters are listed by name and bounded in a `where [..]`
/// clause, so the forwarding call can name them (`exclude_resource::<T>()`).
macro_rules! app_setters {
    ($(
        $(#[$attr:meta])*
        fn $name:ident $(<$($generic:ident),+>)? ($($arg:ident: $ty:ty),* $(,)?) $(where [$($bound:tt)+])?;
    )+) => {
        impl Restlight {
            $(
                #[doc = concat!(
                    "The application's [`AppBuilder::", stringify!($name), "`] setting: the same arguments, ",
                    "meaning and default.",
                )]
                $(#[$attr])*
                pub fn $name $(<$($generic),+>)? (mut self, $($arg: $ty),*) -> Self $(where $($bound)+)? {
                    self.app = self.app.$name $(::<$($generic),+>)? ($($arg),*);
                    self
                }
            )+
        }
    };
}

app_setters! {
    fn resource<T>(value: T) where [T: Send + Sync + 'static];
    ///
    /// Resources left out this way are added while serving with
    /// [`App::add_resource`] (through [`ServerHandle::app`]).
    fn exclude_resource<T>() where [T: 'static];
    fn bean<T>(value: T) where [T: Send + Sync + 'static];
    fn resolver_factory(factory: impl restlight_core::ResolverFactory);
    ///
    /// For example `restlight_core::get("/ping").handle(|_ctx| async { "pong" })`.
    fn route(route: impl Into<Route>);
    fn default_scheduler(name: &str);
    fn annotated_routes(include: bool);
    fn interceptor(interceptor: impl Into<Intercept>);
    fn filter(filter: impl Filter);
    fn exception_mapper<E, M>(mapper: M) where [
        E: std::error::Error + Send + Sync + 'static,
        M: ExceptionMapper<E>,
    ];
    fn layer<L, S, ResB>(layer: L) where [
        L: tower_layer::Layer<AppStack, Service = S> + Send + 'static,
        S: tower_service::Service<http::Request<restlight_core::Body>, Response = http::Response<ResB>>
            + Clone
            + Send
            + Sync
            + 'static,
        S::Error: Into<restlight_core::BoxError>,
        S::Future: Send + 'static,
        ResB: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        ResB::Error: Into<restlight_core::BoxError>,
    ];
    fn max_body_size(bytes: usize);
    fn codec(codec: impl restlight_core::codec::Codec);
    fn format_parameter(name: &str);
    fn format_suffix(enabled: bool);
    fn strict_matching(enabled: bool);
    fn compression(enabled: bool);
    fn compression_threshold(bytes: usize);
}

impl Restlight {
    /// Registers a bounded executor under `name` for routes scheduled on
    /// it. Naming one `"biz"` configures the business executor;
    /// [`biz_threads`](Self::biz_threads), [`biz_queue`](Self::biz_queue)
    /// and [`biz_max_active`](Self::biz_max_active) are then ignored. See [`AppBuilder::scheduler`].
    ///
    /// ```no_run
    /// use restlight_core::Scheduler;
    /// use restlight_server::Restlight;
    /// Restlight::new().scheduler("reports", Scheduler::threads(4).queue(100));
    /// ```
    pub fn scheduler(mut self, name: &str, scheduler: Scheduler) -> Self {
        self.user_biz |= name == BIZ;
        self.app = self.app.scheduler(name, scheduler);
        self
    }

    /// Registers a user's [`Executor`] for routes scheduled on it. Naming
    /// one `"biz"` replaces the business executor;
    /// [`biz_threads`](Self::biz_threads), [`biz_queue`](Self::biz_queue)
    /// and [`biz_max_active`](Self::biz_max_active) are then ignored. See [`AppBuilder::executor`].
    pub fn executor(mut self, name: &str, executor: impl Executor) -> Self {
        self.user_biz |= name == BIZ;
        self.app = self.app.executor(name, executor);
        self
    }

    /// The TCP port to listen on; `0` lets the system pick one (read it back
    /// with [`ServerHandle::local_addr`]).
    ///
    /// Default is 8080.
    pub fn port(mut self, port: u16) -> Self {
        self.options.addr.set_port(port);
        self
    }

    /// The IP address to listen on, e.g. `Ipv4Addr::LOCALHOST` or
    /// `[127, 0, 0, 1]`; the port is kept.
    ///
    /// Default is `0.0.0.0` (every IPv4 interface).
    pub fn bind(mut self, ip: impl Into<IpAddr>) -> Self {
        self.options.addr.set_ip(ip.into());
        self
    }

    /// The address and port to listen on, in one call; replaces both
    /// [`bind`](Self::bind) and [`port`](Self::port).
    ///
    /// Default is `0.0.0.0:8080`.
    pub fn address(mut self, addr: SocketAddr) -> Self {
        self.options.addr = addr;
        self
    }

    /// IO threads (named `restlight-io-N`), each an event loop of its own:
    /// the server thread accepts connections and hands each to the one
    /// serving the fewest (the first, on a tie), where it is served to the
    /// end (HTTP, every stream of an HTTP/2 connection, and the routes
    /// scheduled on IO, so a client on one connection uses one IO thread;
    /// CPU-heavy handlers belong on `biz`). Tasks a handler there starts
    /// with `tokio::spawn` run on the same thread, and
    /// `tokio::task::block_in_place` is not available (use `spawn_blocking`,
    /// or schedule the route on `biz`). Zero is treated as one.
    ///
    /// With one IO thread (set here, or the default on one core), the
    /// server thread is the event loop: it accepts the connections and
    /// serves them itself, so the process has a thread, a runtime and a
    /// handoff a connection fewer. That thread is the one
    /// [`run`](Self::run) was called on, or the one [`start`](Self::start)
    /// starts, then named `restlight-io-0`; a handler that blocks it holds
    /// up the accept loop and the signals too.
    ///
    /// Default is the number of cores.
    pub fn io_threads(mut self, threads: usize) -> Self {
        self.options.io_threads = Some(threads);
        self
    }

    /// Worker threads of the business executor (named `restlight-biz-N`),
    /// which runs plain `fn` handlers and routes scheduled on `biz`; at most
    /// this many handlers run there at once (unless
    /// [`biz_max_active`](Self::biz_max_active) says otherwise) and
    /// [`biz_queue`](Self::biz_queue) more may queue. Each thread starts the first time a handler needs it
    /// (none at startup). Ignored when an executor or scheduler named `"biz"`
    /// is registered. Zero is treated as one.
    ///
    /// Default: the threads of [`Scheduler::default`], the application's
    /// business executor.
    pub fn biz_threads(mut self, threads: usize) -> Self {
        self.options.biz_threads = Some(threads);
        self
    }

    /// Requests that may wait for a worker of the business executor; past
    /// them a request is answered 429 at once. Ignored when an executor or
    /// scheduler named `"biz"` is registered (set its
    /// [`Scheduler::queue`] instead).
    ///
    /// Default: [`DEFAULT_QUEUE`](restlight_core::DEFAULT_QUEUE), the queue
    /// of [`Scheduler::default`].
    pub fn biz_queue(mut self, len: usize) -> Self {
        self.options.biz_queue = Some(len);
        self
    }

    /// Handlers the business executor runs at once, on its
    /// [`biz_threads`](Self::biz_threads) threads. Raise it above the
    /// thread count when business handlers are `async` and mostly await:
    /// handlers then share threads, and a round of them is handed over and
    /// answered with one wake-up of each thread (see
    /// [`Scheduler::max_active`]). Keep it at the thread count when they
    /// block (plain `fn` handlers, blocking calls), so that each has a
    /// thread of its own. Ignored when an executor or scheduler named
    /// `"biz"` is registered. Zero is treated as one.
    ///
    /// Default: the thread count.
    pub fn biz_max_active(mut self, handlers: usize) -> Self {
        self.options.biz_max_active = Some(handlers);
        self
    }

    /// How long a graceful shutdown waits for in-flight requests before it
    /// closes the remaining connections.
    ///
    /// Default is 30 seconds.
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.options.shutdown_timeout = timeout;
        self
    }

    /// How long a client has to send something recognisable and then a
    /// complete request header section; a slower connection is closed
    /// (the slowloris defence).
    ///
    /// The deadline applies twice on a new connection: first while the
    /// protocol is sniffed (HTTP/1 or the h2 preface), then to the HTTP/1
    /// header section. For HTTP/1 it also bounds the wait for the next
    /// request on a kept-alive connection, so an idle HTTP/1 connection is
    /// closed after the smaller of this and [`idle_timeout`](Self::idle_timeout).
    ///
    /// Default is 30 seconds.
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.options.header_read_timeout = timeout;
        self
    }

    /// How long a connection may stay open with no request in flight before
    /// it is closed (HTTP/1) or sent GOAWAY (HTTP/2). A connection that is
    /// still idle one more period after that is dropped.
    ///
    /// Default is 60 seconds.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.options.idle_timeout = timeout;
        self
    }

    /// The largest request line plus header section accepted, in bytes;
    /// larger ones are answered with 431. For HTTP/2 this is the advertised
    /// `SETTINGS_MAX_HEADER_LIST_SIZE`.
    ///
    /// Default is 8 KiB.
    pub fn max_header_size(mut self, bytes: usize) -> Self {
        self.options.max_header_size = bytes;
        self
    }

    /// The most concurrent streams one HTTP/2 connection may open. Always
    /// bounded: zero is treated as one.
    ///
    /// Default is 250.
    pub fn h2_max_concurrent_streams(mut self, streams: u32) -> Self {
        self.options.h2_max_concurrent_streams = streams.max(1);
        self
    }

    /// Serves the actuator endpoints (health, info and, when exposed,
    /// metrics, routes, config, executors) under its base path, on the
    /// application's port or one of their own. See [`Actuator`].
    ///
    /// Default: off.
    pub fn actuator(mut self, actuator: Actuator) -> Self {
        self.actuator = Some(actuator);
        self
    }

    /// Serves the OpenAPI document of the application (`GET /openapi.json`,
    /// `GET /openapi.yaml`) and the Swagger UI (`/swagger-ui`), generated
    /// from the routes when asked for (feature `openapi`; see
    /// [`OpenApiDocs`](crate::OpenApiDocs) for the paths and the version).
    /// The `[openapi]` table of the configuration file and the
    /// `RESTLIGHT_SERVER_OPENAPI_*` variables set the same. Default: off.
    #[cfg(feature = "openapi")]
    pub fn openapi(mut self, docs: crate::OpenApiDocs) -> Self {
        self.openapi = Some(docs);
        self
    }

    /// Writes one access-log line per request through `tracing` (target
    /// `restlight::access`) and optionally to a daily file. See
    /// [`AccessLog`].
    ///
    /// Default: off.
    pub fn access_log(mut self, log: AccessLog) -> Self {
        self.access_log = Some(log);
        self
    }

    /// Request IDs: each request keeps the ID its caller sent in
    /// [`request_id_header`](Self::request_id_header) when it is
    /// well-formed (1 to 128 ASCII letters, digits and `-_.:/+=`), and
    /// gets a new one otherwise (24 hex digits; made without a lock or a
    /// system call). The ID is sent back in the same header (over HTTP/2
    /// never indexed by header compression, since it is new on every
    /// response, but for one response of each connection every 30 seconds,
    /// which keeps the header's name in the connection's table so that the
    /// others name it by its index there instead of writing it out),
    /// appended to the access-log line (` id=...`), a field
    /// (`request_id`) of the request's `tracing` span (target
    /// [`REQUEST_TARGET`](crate::REQUEST_TARGET), so every event made while
    /// handling the request carries it), and read by handlers as
    /// `#[context] id: &RequestId`.
    ///
    /// Default: off (responses are left as the application makes them).
    pub fn request_ids(mut self, enabled: bool) -> Self {
        self.options.trace.request_ids = enabled;
        self
    }

    /// The header [`request_ids`](Self::request_ids) reads and writes.
    ///
    /// Default is `x-request-id`.
    pub fn request_id_header(mut self, name: http::HeaderName) -> Self {
        self.options.trace.request_id_header = name;
        self
    }

    /// W3C Trace Context: a well-formed `traceparent` (with its
    /// `tracestate`) is continued, a missing or malformed one (never an
    /// error) starts a new trace. Each request gets a `tracing` span
    /// (target [`REQUEST_TARGET`](crate::REQUEST_TARGET), name `request`,
    /// `otel.name` set to `METHOD /route/template` once routed) with the
    /// HTTP semantic-convention attributes (`http.request.method`,
    /// `http.route`, `http.response.status_code`, `url.scheme`,
    /// `url.path`, `network.protocol.version`, `client.address`, the body
    /// sizes), `restlight.executor` and the `trace_id`, `span_id` and
    /// `parent_id`; the handler's own spans nest under it, on whichever
    /// executor it runs. Handlers read the context as
    /// `#[context] trace: &TraceContext` and pass it on with
    /// [`TraceContext::inject`](restlight_core::TraceContext::inject). The
    /// access-log line gets ` trace=<trace id>`.
    ///
    /// Default: off. The span costs next to nothing when no `tracing`
    /// subscriber is interested in target `restlight::request` at `INFO`.
    pub fn trace_context(mut self, enabled: bool) -> Self {
        self.options.trace.trace_context = enabled;
        self
    }

    /// A builder with the settings of a TOML file (see
    /// [`config_file`](Self::config_file)).
    ///
    /// # Errors
    /// As [`config_file`](Self::config_file).
    pub fn from_config_file(path: impl AsRef<std::path::Path>) -> std::result::Result<Self, ConfigError> {
        Self::new().config_file(path)
    }

    /// Reads server settings from a TOML file now; they are applied at
    /// `start`, `run` or `build`, over the values set in code (wherever
    /// this call stands), and under the `RESTLIGHT_SERVER_*` environment
    /// variables. Precedence: **code < file < environment**, key by key.
    /// A second file overrides the first the same way.
    ///
    /// The `[server]` table's keys are the setters' names, durations in
    /// milliseconds with an `_ms` suffix; `[actuator]`, `[access_log]` and
    /// `[tls]` configure [`Actuator`], [`AccessLog`] and HTTPS (feature
    /// `tls`):
    ///
    /// ```toml
    /// [server]
    /// port = 9090
    /// bind = "127.0.0.1"
    /// io_threads = 4
    /// biz_threads = 16
    /// shutdown_timeout_ms = 10000
    /// max_body_size = 1048576
    /// allow_ips = ["10.0.0.0/8"]
    ///
    /// [actuator]                  # present: on (unless `enabled = false`)
    /// base_path = "/manage"
    /// port = 9091                 # a management port of its own
    /// expose = ["health", "info", "metrics"]
    /// app_name = "orders"
    /// app_version = "1.4.2"
    ///
    /// [access_log]
    /// enabled = true
    /// directory = "/var/log/orders"   # feature `access-log-file`
    /// file_prefix = "access"
    ///
    /// [tls]
    /// cert_file = "/etc/orders/cert.pem"
    /// key_file = "/etc/orders/key.pem"
    /// client_ca_file = "/etc/orders/clients-ca.pem"
    /// client_auth = "optional"    # "required" (default), "optional", "none"
    /// handshake_timeout_ms = 5000
    ///
    /// [openapi]                   # feature `openapi`; present: on
    /// json_path = "/openapi.json" # "" turns an endpoint off
    /// yaml_path = "/openapi.yaml"
    /// ui_path = "/swagger-ui"
    /// version = "3.1"             # or "3.0" (3.0.3)
    /// title = "Orders"
    /// api_version = "1.4.2"
    /// ```
    ///
    /// Also, in `[server]`: `header_read_timeout_ms`, `idle_timeout_ms`,
    /// `max_header_size`, `h2_max_concurrent_streams`, `max_headers`,
    /// `h2_initial_stream_window_size`, `h2_initial_connection_window_size`,
    /// `h2_keep_alive_interval_ms` (0 = off), `h2_keep_alive_timeout_ms`,
    /// `h2_max_pending_accept_reset_streams`,
    /// `h2_max_local_error_reset_streams`, `body_read_timeout_ms`, `min_body_rate`, `min_body_rate_grace_ms`,
    /// `write_timeout_ms`, `max_connections`, `max_connections_per_second`
    /// (0 = off). Load shedding, executors and health checks are set in
    /// code only.
    ///
    /// An `[actuator]`, `[access_log]`, `[tls]` or `[openapi]` table turns its feature
    /// on, keeping the code's settings for the keys it does not set;
    /// `enabled = false` turns it off even when the code turned it on.
    /// A table that is absent leaves the code's choice alone. The `[otel]`
    /// table is checked here and read by `Otlp::config_file` (feature
    /// `otel`; without it, any `[otel]` key is an error naming the key and
    /// the feature).
    ///
    /// # Errors
    /// [`ConfigError::Read`] when the file cannot be read,
    /// [`ConfigError::Parse`] on a syntax error, a wrong type or an unknown
    /// key (named in full with its line: `` `actuator.bse_path` (line 2,
    /// column 1): unknown key, [actuator] has: enabled, base_path, ... ``),
    /// [`ConfigError::Invalid`]
    /// for a malformed IP range, an unknown actuator endpoint, a PEM file
    /// that cannot be read or parsed (naming the key and the path), an
    /// unacceptable `[otel]` value, or a key whose cargo feature (`tls`,
    /// `access-log-file`, `openapi`, `otel`) is off.
    ///
    /// Reading the file needs the cargo feature `config` (on by default):
    /// without it, this returns [`ConfigError::Read`] for the path, of kind
    /// [`Unsupported`](std::io::ErrorKind::Unsupported), naming the feature.
    #[cfg(feature = "config")]
    pub fn config_file(mut self, path: impl AsRef<std::path::Path>) -> std::result::Result<Self, ConfigError> {
        let file = crate::config::FileConfig::read(path.as_ref())?;
        file.check()?;
        self.file_config = Some(Box::new(match self.file_config.take() {
            Some(earlier) => earlier.overlay(file),
            None => file,
        }));
        Ok(self)
    }

    /// Reads nothing: configuration files need the cargo feature `config`.
    ///
    /// # Errors
    /// Always [`ConfigError::Read`] for the path, of kind
    /// [`Unsupported`](std::io::ErrorKind::Unsupported), naming the feature.
    #[cfg(not(feature = "config"))]
    pub fn config_file(self, path: impl AsRef<std::path::Path>) -> std::result::Result<Self, ConfigError> {
        Err(ConfigError::Read {
            path: path.as_ref().to_owned(),
            source: std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "configuration files are read with the cargo feature `config`, which is off",
            ),
        })
    }

    /// Ignores the `RESTLIGHT_SERVER_*` environment variables.
    ///
    /// Default: they are read at `start`, `run` and `build`, and override
    /// both the code and the configuration file, key by key. Each is named
    /// after a configuration key in upper case: `RESTLIGHT_SERVER_PORT`,
    /// `RESTLIGHT_SERVER_IO_THREADS`, `RESTLIGHT_SERVER_ALLOW_IPS`
    /// (comma-separated), ..., and for the other tables
    /// `RESTLIGHT_SERVER_<TABLE>_<KEY>`: `RESTLIGHT_SERVER_ACTUATOR_ENABLED`,
    /// `RESTLIGHT_SERVER_ACTUATOR_EXPOSE` (comma-separated),
    /// `RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY`,
    /// `RESTLIGHT_SERVER_TLS_CERT_FILE`, ...; an unknown one, or one with
    /// a value of the wrong type, is an error naming it. The
    /// `RESTLIGHT_SERVER_OTEL_*` variables are checked here and read by
    /// `Otlp` (feature `otel`), which has an `ignore_env` of its own.
    ///
    /// The variables are read with the cargo feature `config` (on by
    /// default); without it, any `RESTLIGHT_SERVER_*` variable is an error at
    /// start naming it and the feature, unless this is called.
    pub fn ignore_env(mut self) -> Self {
        self.ignore_env = true;
        self
    }

    /// Applies the configuration file and the environment over the code.
    #[cfg(feature = "config")]
    pub(crate) fn resolve_config(
        mut self,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> std::result::Result<Self, ConfigError> {
        let mut ours = env.into_iter().filter(|(name, _)| name.starts_with(crate::config::ENV_PREFIX)).peekable();
        let env_sets = !self.ignore_env && ours.peek().is_some();
        // Nothing to apply (the usual service: no file, no variable): the
        // empty configuration is not built, checked and applied.
        if self.file_config.is_none() && !env_sets {
            return Ok(self);
        }
        let mut config = self.file_config.take().map(|c| *c).unwrap_or_default();
        if env_sets {
            config = config.overlay(crate::config::FileConfig::from_env(ours)?);
        }
        config.apply(self)
    }

    /// Without the `config` feature there is no file, and a
    /// `RESTLIGHT_SERVER_*` variable is refused rather than ignored.
    #[cfg(not(feature = "config"))]
    pub(crate) fn resolve_config(
        self,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> std::result::Result<Self, ConfigError> {
        if !self.ignore_env {
            crate::config::refuse_env(env)?;
        }
        Ok(self)
    }

    /// Compiles the application without serving it. The actuator routes
    /// are included when they share the application's port; `metrics`
    /// answers 503 there, as nothing is recorded without a server.
    ///
    /// The business executor is the [`App`]'s default one (see
    /// [`Scheduler::default`]) unless one named `"biz"` was registered;
    /// `biz_threads`, `biz_queue` and `biz_max_active` apply to `run` and `start` only.
    ///
    /// # Errors
    /// [`restlight_core::Error::Startup`] when the routes do not compile
    /// (conflicts, missing beans or executors).
    pub fn build(self) -> Result<App> {
        let this = self.resolve_config(std::env::vars()).map_err(config_error)?;
        this.build_resolved()
    }

    fn build_resolved(self) -> Result<App> {
        let ops = self.actuator.map(crate::ops::OpsShared::new);
        let (app, _) = crate::launch::attach_actuator(self.app, ops.as_ref());
        #[cfg(feature = "openapi")]
        let (app, docs) = crate::launch::attach_openapi(app, self.openapi.as_ref());
        let app = app.build()?;
        #[cfg(feature = "openapi")]
        if let Some(docs) = docs {
            let _ = docs.set(app.clone());
        }
        if let Some(ops) = ops {
            ops.fill(&app, &self.options, self.access_log.as_ref());
        }
        Ok(app)
    }

    /// Compiles the application and wraps it in the in-process mock client.
    ///
    /// # Errors
    /// As [`build`](Self::build).
    pub fn mock(self) -> Result<MockClient> {
        Ok(MockClient::new(self.build()?))
    }

    /// Serves the application until SIGINT or SIGTERM, then shuts down
    /// gracefully and returns. Blocks the calling thread.
    ///
    /// Outside an async runtime (the usual `fn main`), the calling thread
    /// is the server thread: it builds the application and the runtimes
    /// and drives the listener, so the process has no thread of its own
    /// for the server (and, with one IO thread, none for IO either: see
    /// [`io_threads`](Self::io_threads)). Inside an async runtime it starts a dedicated
    /// thread for them, so it also works (but blocks a worker); there,
    /// prefer [`start`](Self::start).
    ///
    /// With the environment variable `RESTLIGHT_PRINT_ROUTES` set (to
    /// anything but `0` or `false`) it serves nothing: it compiles the
    /// application, prints its route table ([`Routes`]'s `Display`: method,
    /// path, produces, consumes, executor, source location) to stdout and
    /// returns. `cargo restlight routes` runs a service this way.
    ///
    /// [`Routes`]: restlight_core::Routes
    ///
    /// # Errors
    /// [`restlight_core::Error::Startup`] when the application does not
    /// compile, [`restlight_core::Error::Io`] when the runtimes cannot be
    /// built or the address cannot be bound.
    pub fn run(self) -> Result<()> {
        if print_routes_requested(std::env::var("RESTLIGHT_PRINT_ROUTES").ok().as_deref()) {
            let app = self.build()?;
            print!("{}", app.routes());
            return Ok(());
        }
        if tokio::runtime::Handle::try_current().is_err() {
            return serve_here(self, Signals::Handle);
        }
        launch(self, Signals::Handle)?.wait();
        Ok(())
    }

    /// Starts serving on a dedicated thread and returns once the listener is
    /// bound. Works inside or outside an async runtime. The server does not
    /// react to signals: stop it with [`ServerHandle::shutdown`] (or by
    /// dropping the handle).
    ///
    /// ```
    /// use std::net::Ipv4Addr;
    /// use restlight_server::Restlight;
    ///
    /// let server = Restlight::new()
    ///     .route(restlight_core::get("/ping").handle(|_ctx| async { "pong" }))
    ///     .bind(Ipv4Addr::LOCALHOST)
    ///     .port(0)
    ///     .io_threads(1)
    ///     .biz_threads(1)
    ///     .start()?;
    /// assert_ne!(server.local_addr().port(), 0);
    /// server.shutdown();
    /// # Ok::<(), restlight_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`run`](Self::run); a bind failure is [`restlight_core::Error::Io`].
    pub fn start(self) -> Result<ServerHandle> {
        launch(self, Signals::Ignore)
    }
}

/// A configuration error as the server's error type: `Io` of kind
/// `InvalidInput`, with the [`ConfigError`] inside (`get_ref`/`downcast`).
pub(crate) fn config_error(err: ConfigError) -> restlight_core::Error {
    restlight_core::Error::Io(std::io::Error::new(std::io::ErrorKind::InvalidInput, err))
}

/// Whether `RESTLIGHT_PRINT_ROUTES` asks [`Restlight::run`] for the route
/// table instead of serving.
fn print_routes_requested(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

#[cfg(test)]
mod print_routes_tests {
    use super::print_routes_requested;

    #[test]
    fn the_variable_asks_for_the_table_unless_it_says_no() {
        for (value, asked) in [(None, false), (Some(""), false), (Some("0"), false), (Some("False"), false)] {
            assert_eq!(print_routes_requested(value), asked, "{value:?}");
        }
        for value in ["1", "true", "yes"] {
            assert!(print_routes_requested(Some(value)), "{value}");
        }
    }
}
