//! [`Actuator`]: health, info, metrics, routes, configuration and executor
//! endpoints, served as ordinary builder routes.
//!
//! They are added to the application at build time (or, with a port of
//! their own, to a second application on a second listener), so the router
//! serves them like any route: the same negotiation, problem details, 405
//! and HEAD handling, a line in the routes listing, and no extra branch on
//! the path of every user request.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use http::header::{HeaderValue, CONTENT_TYPE};
use http::StatusCode;
use restlight_core::{
    get, post, App, Body, ExecutorMetrics, HttpError, IntoResponse, RequestContext, Resize, ResizeError, Response,
    Route,
};
use serde_json::{json, Map, Value};

use super::health::{status, Health};
use super::metrics::Scrape;
use crate::runtime::IoHandles;

/// The default base path of the actuator endpoints.
pub const DEFAULT_BASE_PATH: &str = "/actuator";

/// The media type of the metrics exposition (`prometheus-client` writes
/// OpenMetrics text, which Prometheus scrapes natively).
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// One actuator endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Endpoint {
    /// `GET {base}/health`, `{base}/health/liveness`, `{base}/health/readiness`.
    Health,
    /// `GET {base}/info`: the name and version given to [`Actuator::info`].
    Info,
    /// `GET {base}/metrics`: requests, latencies, bytes, connections and
    /// executors, in the Prometheus (OpenMetrics) text format. With the
    /// trace context on, each latency bucket carries the trace ID of the
    /// latest sampled request it counted as an exemplar, shown to scrapers
    /// that accept `application/openmetrics-text` (Prometheus does).
    Metrics,
    /// `GET {base}/routes`: the compiled route table.
    Routes,
    /// `GET {base}/config`: the effective server options, and (feature
    /// `otel`) the OpenTelemetry export's settings, header values masked.
    Config,
    /// `GET {base}/executors`: the bounded executors' metrics as JSON
    /// (`{"executors": [..]}`), and the IO threads' under `"io"` when a
    /// server runs, summed over their event loops: `workers` (the threads),
    /// `aliveTasks` and `globalQueueDepth` (tasks woken from other threads
    /// and not yet run). Each executor's `resizable` tells whether
    /// `POST {base}/executors/{name}` is served (a separate opt-in:
    /// [`Actuator::allow_executor_resize`]), `threadsResizable` whether its
    /// thread count can change.
    Executors,
}

impl Endpoint {
    /// Every endpoint.
    pub const ALL: [Self; 6] = [Self::Health, Self::Info, Self::Metrics, Self::Routes, Self::Config, Self::Executors];

    /// The endpoint's path segment: `health`, `info`, `metrics`, ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Health => "health",
            Self::Info => "info",
            Self::Metrics => "metrics",
            Self::Routes => "routes",
            Self::Config => "config",
            Self::Executors => "executors",
        }
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not an actuator endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownEndpoint(pub String);

impl fmt::Display for UnknownEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Endpoint::ALL.iter().map(|e| e.as_str()).collect();
        write!(f, "unknown actuator endpoint `{}`; known: {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownEndpoint {}

impl FromStr for Endpoint {
    type Err = UnknownEndpoint;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL.into_iter().find(|e| e.as_str() == s).ok_or_else(|| UnknownEndpoint(s.to_owned()))
    }
}

type Check = Arc<dyn Fn() -> Health + Send + Sync>;

/// Settings of the actuator endpoints, given to
/// [`Restlight::actuator`](crate::Restlight::actuator).
///
/// ```
/// use restlight_server::{Actuator, Endpoint, Health, Restlight};
/// let server = Restlight::new().actuator(
///     Actuator::new()
///         .expose(&[Endpoint::Health, Endpoint::Info, Endpoint::Metrics])
///         .info("orders", "1.4.2")
///         .health_check("db", || Health::up().detail("pool", 8)),
/// );
/// # let _ = server;
/// ```
#[derive(Clone)]
#[must_use]
pub struct Actuator {
    pub(crate) base_path: String,
    pub(crate) port: Option<u16>,
    /// In [`Endpoint::ALL`]'s order, each once (a list, not a `BTreeSet`:
    /// six values need no tree's code linked into every service).
    pub(crate) exposed: Vec<Endpoint>,
    resize: bool,
    pub(crate) name: Option<String>,
    pub(crate) version: Option<String>,
    pub(crate) checks: Vec<(String, Check)>,
}

impl fmt::Debug for Actuator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Actuator")
            .field("base_path", &self.base_path)
            .field("port", &self.port)
            .field("exposed", &self.exposed)
            .field("resize", &self.resize)
            .field("name", &self.name)
            .field("version", &self.version)
            .field("checks", &self.checks.iter().map(|(n, _)| n).collect::<Vec<_>>())
            .finish()
    }
}

impl Default for Actuator {
    fn default() -> Self {
        Self {
            base_path: DEFAULT_BASE_PATH.to_owned(),
            port: None,
            exposed: vec![Endpoint::Health, Endpoint::Info],
            resize: false,
            name: None,
            version: None,
            checks: Vec::new(),
        }
    }
}

impl Actuator {
    /// The defaults: base path `/actuator`, on the application's port,
    /// exposing `health` and `info` only.
    pub fn new() -> Self {
        Self::default()
    }

    /// The path the endpoints live under; a trailing `/` is dropped, a
    /// missing leading one added.
    ///
    /// Default is `/actuator`.
    pub fn base_path(mut self, path: &str) -> Self {
        let trimmed = path.trim_matches('/');
        self.base_path = if trimmed.is_empty() { String::new() } else { format!("/{trimmed}") };
        self
    }

    /// Serves the endpoints on a listener of their own, on this port (same
    /// address and TLS settings as the application; `0` picks a free port,
    /// read back with [`ServerHandle::actuator_addr`](crate::ServerHandle::actuator_addr)).
    /// That listener keeps answering during a graceful shutdown until the
    /// application's connections are drained, so probes see readiness turn
    /// 503. Its requests are not counted in the metrics nor logged.
    ///
    /// Default: the application's own port.
    pub fn port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
    }

    /// The endpoints to serve (replacing the list); others answer 404.
    ///
    /// Default is `health` and `info` only: `metrics`, `routes`, `config`
    /// and `executors` reveal internals and must be asked for.
    pub fn expose(mut self, endpoints: &[Endpoint]) -> Self {
        self.exposed = Endpoint::ALL.into_iter().filter(|e| endpoints.contains(e)).collect();
        self
    }

    /// Serves `POST {base}/executors/{name}`, which resizes a bounded
    /// executor while it serves (see [`App::resize_executor`] and
    /// [`Resize`]). The body is a JSON object with any of `threads`,
    /// `maxActive` and `queue`:
    ///
    /// ```text
    /// POST /actuator/executors/biz
    /// {"threads": 16, "maxActive": 32, "queue": 1024}
    /// ```
    ///
    /// It answers 200 with the executor's metrics after the change, 400
    /// (problem details naming the `field` and the `value`) for an unknown
    /// field, a value that is not a whole number, or zero `threads` or
    /// `maxActive`, 404 for an unknown executor, and 409 for a size the
    /// executor cannot change (`io`, a user's `Executor`, the threads of
    /// a runtime it does not own). Each resize is logged at `info`.
    ///
    /// This is a write: anyone who reaches it can change how much work the
    /// server accepts, so it is a separate opt-in from reading
    /// [`Endpoint::Executors`] (which it does not need), and is best served
    /// on a [`port`](Self::port) of its own that only operators reach.
    ///
    /// Default is `false`: the route does not exist and a POST is answered
    /// 404.
    pub fn allow_executor_resize(mut self, allow: bool) -> Self {
        self.resize = allow;
        self
    }

    /// Whether `POST {base}/executors/{name}` is served (see
    /// [`allow_executor_resize`](Self::allow_executor_resize)).
    #[must_use]
    pub fn allows_executor_resize(&self) -> bool {
        self.resize
    }

    /// The application's name and version, shown by `info`.
    ///
    /// Default: none (`info` answers `{}`).
    pub fn info(mut self, name: &str, version: &str) -> Self {
        self.name = Some(name.to_owned());
        self.version = Some(version.to_owned());
        self
    }

    /// Adds a health check, run on an IO thread at each `health` or
    /// `readiness` request: keep it quick and non-blocking (read a state
    /// kept up to date elsewhere). A check reporting down makes both answer
    /// 503.
    ///
    /// Default: no checks.
    pub fn health_check(mut self, name: &str, check: impl Fn() -> Health + Send + Sync + 'static) -> Self {
        self.checks.push((name.to_owned(), Arc::new(check)));
        self
    }

    /// Whether `endpoint` is served.
    #[must_use]
    pub fn exposes(&self, endpoint: Endpoint) -> bool {
        self.exposed.contains(&endpoint)
    }
}

/// What the endpoints read, filled in once the application is built.
#[derive(Debug)]
pub(crate) struct OpsShared {
    pub(crate) settings: Actuator,
    pub(crate) app: OnceLock<App>,
    pub(crate) scrape: OnceLock<Arc<Scrape>>,
    pub(crate) config: OnceLock<Value>,
    /// The IO event loops, when a server runs (not for `build` nor `mock`).
    pub(crate) io: OnceLock<IoHandles>,
    pub(crate) shutting_down: AtomicBool,
}

impl OpsShared {
    pub(crate) fn new(settings: Actuator) -> Arc<Self> {
        Arc::new(Self {
            settings,
            app: OnceLock::new(),
            scrape: OnceLock::new(),
            config: OnceLock::new(),
            io: OnceLock::new(),
            shutting_down: AtomicBool::new(false),
        })
    }

    /// The routes of the exposed endpoints, scheduled on IO so a saturated
    /// business pool does not fail the probes.
    pub(crate) fn routes(self: &Arc<Self>) -> Vec<Route> {
        let base = self.settings.base_path.clone();
        let mut routes = Vec::new();
        let at = |suffix: &str| format!("{base}/{suffix}");
        let add = |routes: &mut Vec<Route>, path: String, f: fn(&OpsShared) -> Response| {
            let shared = Arc::clone(self);
            routes.push(get(path).scheduled("io").handle(move |_ctx| {
                let shared = Arc::clone(&shared);
                async move { f(&shared) }
            }));
        };
        for endpoint in &self.settings.exposed {
            match endpoint {
                Endpoint::Health => {
                    add(&mut routes, at("health"), health);
                    add(&mut routes, at("health/liveness"), |_| {
                        json_response(StatusCode::OK, &json!({"status": "UP"}))
                    });
                    add(&mut routes, at("health/readiness"), readiness);
                }
                Endpoint::Info => add(&mut routes, at("info"), info),
                Endpoint::Metrics => {
                    let shared = Arc::clone(self);
                    routes.push(get(at("metrics")).scheduled("io").handle(move |ctx| {
                        let shared = Arc::clone(&shared);
                        async move { metrics(&shared, ctx.headers()) }
                    }));
                }
                Endpoint::Routes => add(&mut routes, at("routes"), route_table),
                Endpoint::Config => add(&mut routes, at("config"), |s| {
                    json_response(StatusCode::OK, s.config.get().unwrap_or(&Value::Null))
                }),
                Endpoint::Executors => add(&mut routes, at("executors"), executors),
            }
        }
        if self.settings.resize {
            let shared = Arc::clone(self);
            routes.push(post(at("executors/{name}")).scheduled("io").max_body_size(RESIZE_MAX_BODY).handle(
                move |ctx| {
                    let shared = Arc::clone(&shared);
                    async move { resize(&shared, &ctx) }
                },
            ));
        }
        routes
    }

    fn checks(&self) -> (bool, Map<String, Value>) {
        let mut up = true;
        let mut components = Map::new();
        for (name, check) in &self.settings.checks {
            let health = check();
            up &= health.is_up();
            components.insert(name.clone(), health.to_json());
        }
        (up, components)
    }

    fn ready(&self) -> bool {
        !self.shutting_down.load(Ordering::Acquire)
    }
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    // Through `to_vec`, not `Value`'s `Display`: the JSON writer the codecs
    // use already, rather than a second copy of it (about 17 KiB).
    let mut res = Response::new(Body::from(serde_json::to_vec(value).unwrap_or_default()));
    *res.status_mut() = status;
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

fn code(up: bool) -> StatusCode {
    if up {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    }
}

fn health(shared: &OpsShared) -> Response {
    let (checks_up, mut components) = shared.checks();
    let ready = shared.ready();
    components.insert("readiness".into(), json!({ "status": status(ready) }));
    let up = checks_up && ready;
    json_response(code(up), &json!({ "status": status(up), "components": components }))
}

fn readiness(shared: &OpsShared) -> Response {
    let ready = shared.ready();
    let (checks_up, _) = shared.checks();
    let up = ready && checks_up;
    let mut body = json!({ "status": status(up) });
    if !ready {
        body["reason"] = "shutting down".into();
    }
    json_response(code(up), &body)
}

fn info(shared: &OpsShared) -> Response {
    let s = &shared.settings;
    let body = match (&s.name, &s.version) {
        (Some(name), Some(version)) => json!({ "app": { "name": name, "version": version } }),
        _ => json!({}),
    };
    json_response(StatusCode::OK, &body)
}

/// The exposition; with the latency buckets' exemplars when the scraper
/// accepts OpenMetrics (`Accept: application/openmetrics-text`, as
/// Prometheus sends), since the Prometheus text format has no place for
/// them.
fn metrics(shared: &OpsShared, headers: &http::HeaderMap) -> Response {
    let Some(scrape) = shared.scrape.get() else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let mut res = Response::new(Body::from(scrape.encode(accepts_openmetrics(headers))));
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(OPENMETRICS));
    res
}

/// Whether an `Accept` header names `application/openmetrics-text` (with a
/// weight above zero).
fn accepts_openmetrics(headers: &http::HeaderMap) -> bool {
    headers.get_all(http::header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(
        |range| {
            let mut parts = range.split(';').map(str::trim);
            let media = parts.next().unwrap_or_default();
            media.eq_ignore_ascii_case("application/openmetrics-text")
                && parts.all(|p| {
                    let Some((name, value)) = p.split_once('=') else { return true };
                    !name.trim().eq_ignore_ascii_case("q") || value.trim().parse::<f32>().is_ok_and(|q| q > 0.0)
                })
        },
    )
}

fn route_table(shared: &OpsShared) -> Response {
    let routes: Vec<Value> = shared
        .app
        .get()
        .map(|app| {
            app.routes()
                .iter()
                .map(|r| {
                    json!({
                        "id": r.id,
                        "method": r.method,
                        "path": r.path,
                        "produces": r.produces,
                        "consumes": r.consumes,
                        "scheduler": r.scheduler,
                        "maxBody": r.max_body,
                        "timeoutMs": r.timeout.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
                        "name": r.name,
                        "location": r.location,
                        "params": r.conditions.params().iter().map(ToString::to_string).collect::<Vec<_>>(),
                        "headers": r.conditions.headers().iter().map(ToString::to_string).collect::<Vec<_>>(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json_response(StatusCode::OK, &json!({ "routes": routes }))
}

fn executors(shared: &OpsShared) -> Response {
    let list: Vec<Value> = shared
        .app
        .get()
        .map(|app| app.executors().iter().map(|m| executor_json(m, shared.settings.resize)).collect())
        .unwrap_or_default();
    let mut body = json!({ "executors": list });
    if let Some(io) = shared.io.get() {
        let m = io.metrics();
        body["io"] = json!({
            "workers": m.workers,
            "aliveTasks": m.alive_tasks,
            "globalQueueDepth": m.queue_depth,
        });
    }
    json_response(StatusCode::OK, &body)
}

/// One executor as `executors` and the resize answer show it.
fn executor_json(m: &ExecutorMetrics, resize: bool) -> Value {
    json!({
        "name": m.name,
        "threads": m.threads,
        "maxActive": m.max_active,
        "queueCapacity": m.queue_capacity,
        "active": m.active,
        "queued": m.queued,
        "completed": m.completed,
        "rejected": m.rejected,
        "failFast": m.fail_fast,
        "panicked": m.panicked,
        "cancelled": m.cancelled,
        "queueWait": {
            "count": m.queue_wait.count(),
            "p50Micros": micros(m.queue_wait.percentile(0.5)),
            "p99Micros": micros(m.queue_wait.percentile(0.99)),
        },
        "resizable": resize,
        "threadsResizable": m.resizable_threads,
    })
}

/// The largest body of a resize request.
const RESIZE_MAX_BODY: usize = 4096;

/// The fields of a resize body, by their JSON names.
const RESIZE_FIELDS: [&str; 3] = ["threads", "maxActive", "queue"];

/// `POST {base}/executors/{name}`.
fn resize(shared: &OpsShared, ctx: &RequestContext) -> Response {
    let name = ctx.path_param("name").unwrap_or_default();
    let Some(app) = shared.app.get() else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let resize = match parse_resize(ctx.body()) {
        Ok(resize) => resize,
        Err(e) => return e.with("executor", name).into_response(),
    };
    match app.resize_executor(name, resize) {
        Ok(m) => {
            tracing::info!(executor = name, remote = ?ctx.remote_addr(), "executor resized through the actuator");
            json_response(StatusCode::OK, &executor_json(&m, true))
        }
        Err(e) => resize_error(&e).with("executor", name).into_response(),
    }
}

/// Reads a resize body: a JSON object of whole numbers under known names.
fn parse_resize(body: &[u8]) -> Result<Resize, HttpError> {
    let expected = || format!("expected a JSON object with any of {}", RESIZE_FIELDS.join(", "));
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| HttpError::bad_request(format!("the body is not JSON ({e}); {}", expected())))?;
    let Value::Object(fields) = value else {
        return Err(HttpError::bad_request(format!("the body is not a JSON object; {}", expected())));
    };
    let mut resize = Resize::new();
    for (field, value) in fields {
        let bad =
            |detail: String| HttpError::bad_request(detail).with("field", field.as_str()).with("value", value.clone());
        let slot = match field.as_str() {
            "threads" => &mut resize.threads,
            "maxActive" => &mut resize.max_active,
            "queue" => &mut resize.queue,
            _ => return Err(bad(format!("unknown field `{field}`; {}", expected()))),
        };
        let n = value
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            // As `json_response` writes values, not through `Display`.
            .ok_or_else(|| {
                let got = serde_json::to_string(&value).unwrap_or_default();
                bad(format!("`{field}` must be a whole number, got {got}"))
            })?;
        *slot = Some(n);
    }
    Ok(resize)
}

/// The JSON name of a [`Resize`] field.
fn json_field(field: &str) -> &str {
    match field {
        "max_active" => "maxActive",
        other => other,
    }
}

fn resize_error(e: &ResizeError) -> HttpError {
    match e {
        ResizeError::UnknownExecutor { known, .. } => HttpError::not_found(e.to_string()).with("known", known.clone()),
        ResizeError::NotResizable { executor, field, reason } => {
            let name = json_field(field);
            HttpError::conflict(format!("the `{name}` of executor `{executor}` cannot change: {reason}"))
                .with("field", name)
        }
        ResizeError::Invalid { field, value, reason } => {
            let name = json_field(field);
            HttpError::bad_request(format!("`{name}` {reason}, got {value}")).with("field", name).with("value", *value)
        }
        _ => HttpError::internal(e.to_string()),
    }
}

fn micros(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

impl OpsShared {
    /// Hands the endpoints the built application and the effective options.
    pub(crate) fn fill(
        &self,
        app: &App,
        options: &crate::options::ServerOptions,
        access_log: Option<&super::AccessLog>,
    ) {
        let _ = self.app.set(app.clone());
        let _ = self.config.set(crate::config::effective(options, Some(app), Some(&self.settings), access_log));
    }
}
