//! [`Actuator`]: health, info, metrics, routes, configuration and executor
//! endpoints, served as ordinary builder routes.
//!
//! They are added to the application at build time (or, with a port of
//! their own, to a second application on a second listener), so the router
//! serves them like any route: the same negotiation, problem details, 405
//! and HEAD handling, a line in the routes listing, and no extra branch on
//! the path of every user request.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use http::header::{HeaderValue, CONTENT_TYPE};
use http::StatusCode;
use restlight_core::{get, App, Body, IntoResponse, Response, Route};
use serde_json::{json, Map, Value};

use super::health::{status, Health};
use super::metrics::Scrape;

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
    /// executors, in the Prometheus (OpenMetrics) text format.
    Metrics,
    /// `GET {base}/routes`: the compiled route table.
    Routes,
    /// `GET {base}/config`: the effective server options.
    Config,
    /// `GET {base}/executors`: the executors' metrics as JSON.
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
    pub(crate) exposed: BTreeSet<Endpoint>,
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
            exposed: [Endpoint::Health, Endpoint::Info].into_iter().collect(),
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
        self.exposed = endpoints.iter().copied().collect();
        self
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
    pub(crate) shutting_down: AtomicBool,
}

impl OpsShared {
    pub(crate) fn new(settings: Actuator) -> Arc<Self> {
        Arc::new(Self {
            settings,
            app: OnceLock::new(),
            scrape: OnceLock::new(),
            config: OnceLock::new(),
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
                Endpoint::Metrics => add(&mut routes, at("metrics"), metrics),
                Endpoint::Routes => add(&mut routes, at("routes"), route_table),
                Endpoint::Config => add(&mut routes, at("config"), |s| {
                    json_response(StatusCode::OK, s.config.get().unwrap_or(&Value::Null))
                }),
                Endpoint::Executors => add(&mut routes, at("executors"), executors),
            }
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
    let mut res = Response::new(Body::from(value.to_string()));
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

fn metrics(shared: &OpsShared) -> Response {
    let Some(scrape) = shared.scrape.get() else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let mut res = Response::new(Body::from(scrape.encode()));
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(OPENMETRICS));
    res
}

fn route_table(shared: &OpsShared) -> Response {
    let routes: Vec<Value> = shared
        .app
        .get()
        .map(|app| {
            app.routes()
                .map(|r| {
                    json!({
                        "method": r.method,
                        "path": r.path,
                        "produces": r.produces,
                        "consumes": r.consumes,
                        "scheduler": r.scheduler,
                        "maxBody": r.max_body,
                        "name": r.name,
                        "location": r.location,
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
        .map(|app| {
            app.executors()
                .iter()
                .map(|m| {
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
                        "resizable": false,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json_response(StatusCode::OK, &json!({ "executors": list }))
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
        let _ = self.config.set(crate::config::effective(options, Some(&self.settings), access_log));
    }
}
