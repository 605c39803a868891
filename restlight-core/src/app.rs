//! The application: routes, resources and beans compiled once into a router,
//! and the dispatch of one request through it.

use std::any::TypeId;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};

use crate::codec::{Codec, Codecs, RouteCodecs};
use crate::compress::CompressOptions;
use crate::descriptor::{descriptors, SchedulerName};
use crate::error::{HttpError, StartupError};
use crate::executor::{Exec, Executor, ExecutorMetrics, ExecutorSpec, NamedExecutor, Scheduler};
use crate::filter::{DynFilter, Filter};
use crate::format::{UrlFormat, UrlFormatOptions};
use crate::handler::{Bindings, Handler, Registry};
use crate::intercept::{self, Affinity, Intercept, RouteMeta};
use crate::mapper::{ErasedMapper, ExceptionMapper};
use crate::media::MediaType;
use crate::route::{Route, Source};
use crate::router::{RouteEntry, Router};
use crate::table::{CompiledRoute, Routes, Table};
use arc_swap::ArcSwap;

/// The default largest request entity: 4 MiB.
pub const DEFAULT_MAX_BODY: usize = 4 * 1024 * 1024;

/// Collects routes, resources, beans and executors; [`build`](Self::build)
/// compiles them into an [`App`].
///
/// Routes declared with the macros anywhere in the binary are included
/// automatically.
///
/// ```
/// use restlight_core::{get, AppBuilder};
/// let app = AppBuilder::new()
///     .route(get("/ping").handle(|_ctx| async { "pong" }))
///     .build()
///     .unwrap();
/// assert!(app.routes().iter().any(|r| r.path == "/ping"));
/// ```
#[must_use]
pub struct AppBuilder {
    resources: Registry,
    beans: Registry,
    routes: Vec<Route>,
    executors: Vec<NamedExecutor>,
    default_scheduler: String,
    max_body: usize,
    annotated: bool,
    excluded: BTreeSet<TypeId>,
    interceptors: Vec<Intercept>,
    annotated_interceptors: bool,
    mappers: Vec<ErasedMapper>,
    filters: Vec<Box<dyn DynFilter>>,
    layers: Vec<crate::layer::Wrap>,
    codecs: Codecs,
    url_format: UrlFormatOptions,
    compression: CompressOptions,
}

impl Default for AppBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for AppBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AppBuilder")
            .field("resources", &self.resources)
            .field("beans", &self.beans)
            .field("routes", &self.routes.len())
            .field("executors", &self.executors)
            .field("default_scheduler", &self.default_scheduler)
            .field("max_body", &self.max_body)
            .field("interceptors", &self.interceptors)
            .field("mappers", &self.mappers)
            .field("filters", &self.filters.len())
            .field("layers", &self.layers.len())
            .field("codecs", &self.codecs)
            .field("url_format", &self.url_format)
            .field("compression", &self.compression)
            .finish()
    }
}

impl AppBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self {
            resources: Registry::default(),
            beans: Registry::default(),
            routes: Vec::new(),
            executors: Vec::new(),
            default_scheduler: IO.to_owned(),
            max_body: DEFAULT_MAX_BODY,
            annotated: true,
            excluded: BTreeSet::new(),
            interceptors: Vec::new(),
            annotated_interceptors: true,
            mappers: Vec::new(),
            filters: Vec::new(),
            layers: Vec::new(),
            codecs: Codecs::default(),
            url_format: UrlFormatOptions::default(),
            compression: CompressOptions::default(),
        }
    }

    /// Binds the instance that serves the annotated routes of type `T`.
    /// Default: a resource with routes and no bound instance is built with
    /// `Default`.
    pub fn resource<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.resources.insert(Arc::new(value));
        self
    }

    /// Registers a bean for `#[context] name: &T` parameters, looked up by type.
    pub fn bean<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.beans.insert(Arc::new(value));
        self
    }

    /// Adds a route built in code (see [`get`](crate::get) and friends).
    pub fn route(mut self, route: impl Into<Route>) -> Self {
        self.routes.push(route.into());
        self
    }

    /// Registers a bounded executor under `name`, for routes scheduled with
    /// `#[scheduled("name")]` or `.scheduled("name")`; `"biz"` configures
    /// the business executor. The name `"io"` is reserved (startup error).
    /// A later registration under the same name replaces an earlier one.
    ///
    /// Default: only `"biz"`, [`Scheduler::default()`]: `max(4, 2 x cores)`
    /// threads of its own, a queue of 512, no fail-fast.
    pub fn scheduler(self, name: &str, scheduler: Scheduler) -> Self {
        self.register(name, ExecutorSpec::Scheduler(scheduler))
    }

    /// Registers a user's [`Executor`] under `name`; `"biz"` replaces the
    /// business executor. It gets no queue bound, fail-fast or metrics from
    /// Restlight: prefer [`scheduler`](Self::scheduler).
    pub fn executor(self, name: &str, executor: impl Executor) -> Self {
        self.register(name, ExecutorSpec::Custom(Arc::new(executor)))
    }

    fn register(mut self, name: &str, spec: ExecutorSpec) -> Self {
        self.executors.retain(|e| e.name != name);
        self.executors.push(NamedExecutor { name: name.to_owned(), spec });
        self
    }

    /// Where `async` handlers without `#[scheduled(..)]` run: `"io"`
    /// (inline on the IO thread that serves the connection), `"biz"` or a
    /// registered name. Plain `fn` handlers never run on IO: with `"io"`
    /// here they go to `"biz"`.
    ///
    /// Default is `"io"`: inline, a hello-world route served 7-19 % more
    /// requests per second and spent about half the CPU per request than on
    /// `"biz"` (BENCHMARKS.md, "Execution model"); schedule CPU-heavy work
    /// on `"biz"` explicitly, or write it as a plain `fn`.
    pub fn default_scheduler(mut self, name: &str) -> Self {
        name.clone_into(&mut self.default_scheduler);
        self
    }

    /// The largest request entity accepted, in bytes, by routes that do not
    /// set their own ([`RouteBuilder::max_body_size`](crate::RouteBuilder::max_body_size),
    /// `#[max_body(..)]`); larger ones get 413. Default: 4 MiB.
    pub fn max_body_size(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// Registers a codec; one already registered for the same media type is
    /// replaced. Its [`priority`](Codec::priority) places it among the
    /// others. Default: the built-in codecs of the enabled features (see
    /// [`codec`](crate::codec)).
    pub fn codec(mut self, codec: impl Codec) -> Self {
        self.codecs.register(codec);
        self
    }

    /// Lets a query parameter of this name choose the codec by format name
    /// or media type (`?format=msgpack`), for the response and the entity,
    /// over `Accept` and Content-Type. An unknown format is 406. Default:
    /// off (the Java original's parameter name is `format`).
    pub fn format_parameter(mut self, name: &str) -> Self {
        self.url_format.param = Some(name.to_owned());
        self
    }

    /// Lets a suffix of the last path segment naming a codec's format
    /// choose it (`/ping.json`, `/ping.msgpack`); the suffix is stripped
    /// before routing at a constant cost. Default: off.
    pub fn format_suffix(mut self, enabled: bool) -> Self {
        self.url_format.suffix = enabled;
        self
    }

    /// Whether responses are compressed (gzip, br, zstd by
    /// `Accept-Encoding`; needs the `compression` feature; a route can opt
    /// out). Default: on when the feature is enabled.
    pub fn compression(mut self, enabled: bool) -> Self {
        self.compression.enabled = enabled;
        self
    }

    /// The smallest response body compressed, in bytes. Default: 1 KiB
    /// ([`DEFAULT_COMPRESSION_THRESHOLD`](crate::compress::DEFAULT_COMPRESSION_THRESHOLD)).
    pub fn compression_threshold(mut self, bytes: usize) -> Self {
        self.compression.threshold = bytes;
        self
    }

    /// Whether routes declared with the macros are included. Default: `true`.
    pub fn annotated_routes(mut self, include: bool) -> Self {
        self.annotated = include;
        self
    }

    /// Leaves the annotated routes of resource `T` out of the application
    /// at startup, to be added while serving with
    /// [`App::add_resource`] (or a [`RouteChange`](crate::RouteChange)). Default: every
    /// annotated resource linked into the binary is served.
    pub fn exclude_resource<T: 'static>(mut self) -> Self {
        self.excluded.insert(TypeId::of::<T>());
        self
    }

    /// Registers an interceptor: an [`Interceptor`](crate::intercept::Interceptor)
    /// for every route, or an [`Intercept`] saying which routes. Default:
    /// none but those registered with `#[restlight::interceptor]`.
    pub fn interceptor(mut self, interceptor: impl Into<Intercept>) -> Self {
        self.interceptors.push(interceptor.into());
        self
    }

    /// Whether interceptors declared with `#[restlight::interceptor]` are
    /// included. Default: `true`.
    pub fn annotated_interceptors(mut self, include: bool) -> Self {
        self.annotated_interceptors = include;
        self
    }

    /// Adds a filter, run before routing after those added before it.
    /// Default: no filters.
    pub fn filter(mut self, filter: impl Filter) -> Self {
        self.filters.push(Box::new(crate::filter::Boxed(Arc::new(filter))));
        self
    }

    /// Registers a global exception mapper for handler errors of type `E`
    /// (see [`mapper`](crate::mapper) for the precedence). Default: none;
    /// an unmapped error is a 500.
    pub fn exception_mapper<E, M>(mut self, mapper: M) -> Self
    where
        E: std::error::Error + Send + Sync + 'static,
        M: ExceptionMapper<E>,
    {
        self.mappers.push(ErasedMapper::new::<E, M>(mapper));
        self
    }

    /// Wraps the application (filters, routing, handlers) in a tower
    /// layer, such as tower-http's CORS, trace, timeout or request-id
    /// layers; the first added is the outermost. Default: no layers.
    pub fn layer<L, S, ResB>(mut self, layer: L) -> Self
    where
        L: tower_layer::Layer<crate::layer::AppStack, Service = S> + Send + 'static,
        S: tower_service::Service<http::Request<crate::Body>, Response = http::Response<ResB>>
            + Clone
            + Send
            + Sync
            + 'static,
        S::Error: Into<crate::BoxError>,
        S::Future: Send + 'static,
        ResB: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        ResB::Error: Into<crate::BoxError>,
    {
        self.layers.push(crate::layer::wrap(layer));
        self
    }

    fn all_routes(&self) -> Vec<Route> {
        let mut all: Vec<Route> =
            if self.annotated { descriptors().into_iter().map(Route::from_descriptor).collect() } else { Vec::new() };
        all.extend(self.routes.iter().cloned());
        all
    }

    /// Compiles the application.
    ///
    /// # Errors
    /// Every startup problem at once: malformed templates, conflicting routes
    /// (with both locations), resources without instance, missing beans and
    /// executors, bad media types.
    pub fn build(mut self) -> Result<App, StartupError> {
        let mut routes = self.all_routes();
        routes.retain(|r| !r.resource_type().is_some_and(|t| self.excluded.contains(&t)));
        let mut errors = Vec::new();
        let mut regs = std::mem::take(&mut self.interceptors);
        if self.annotated_interceptors {
            regs.extend(intercept::annotated());
        }
        let prepared = intercept::prepare(regs).unwrap_or_else(|bad| {
            errors.extend(bad.into_iter().map(|(interceptor, error)| StartupError::BadPattern { interceptor, error }));
            Vec::new()
        });
        let executors = self.build_executors(&mut errors);
        let mut compiler = Compiler {
            resources: self.resources.clone(),
            beans: std::mem::take(&mut self.beans),
            executors: executors.clone(),
            default_scheduler: self.default_scheduler.clone(),
            max_body: self.max_body,
            prepared,
            mappers: std::mem::take(&mut self.mappers).into(),
            codecs: Arc::new(std::mem::take(&mut self.codecs)),
            next_id: 0,
        };
        let mut resources = compiler.resources.clone();
        let mut missing_resources = BTreeSet::new();
        let compiled: Vec<Arc<CompiledRoute>> = routes
            .iter()
            .map(|route| Arc::new(compiler.compile(route, &mut resources, &mut missing_resources, &mut errors)))
            .collect();
        compiler.resources = resources;

        match Table::new(compiled) {
            Ok((table, warnings)) => {
                for w in warnings {
                    tracing::warn!("{w}");
                }
                if !errors.is_empty() {
                    return Err(collapse(errors));
                }
                let mut executors: Vec<(String, Exec)> = executors.into_iter().collect();
                executors.sort_by(|a, b| a.0.cmp(&b.0));
                let filters = std::mem::take(&mut self.filters).into_boxed_slice();
                let wraps = std::mem::take(&mut self.layers);
                let url_format = UrlFormat::new(&self.url_format, &compiler.codecs);
                let codecs = Arc::clone(&compiler.codecs);
                let compression = self.compression;
                let inner = Arc::new_cyclic(|weak| Inner {
                    table: ArcSwap::from_pointee(table),
                    compiler: Mutex::new(compiler),
                    executors,
                    filters,
                    layers: (!wraps.is_empty()).then(|| crate::layer::stack(weak.clone(), wraps)),
                    codecs,
                    url_format,
                    compression,
                });
                Ok(App { inner })
            }
            Err(e) => {
                errors.insert(0, StartupError::Routes(e));
                Err(collapse(errors))
            }
        }
    }

    /// Runs the route-level startup checks (templates, conflicts, media
    /// types) on every route, binding nothing.
    ///
    /// # Errors
    /// The same route problems [`build`](Self::build) reports.
    pub fn check_routes(&self) -> Result<(), StartupError> {
        let routes = self.all_routes();
        let mut errors = Vec::new();
        let mut entries = Vec::new();
        for route in &routes {
            let (entry, media_errors) = entry_of(route, &route.location());
            errors.extend(media_errors);
            entries.push(entry);
        }
        if let Err(e) = Router::new(&entries) {
            errors.insert(0, StartupError::Routes(e));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(collapse(errors))
        }
    }

    /// Builds every registered executor, and the default business one
    /// unless `"biz"` was registered.
    fn build_executors(&self, errors: &mut Vec<StartupError>) -> HashMap<String, Exec> {
        let mut specs = self.executors.clone();
        if !specs.iter().any(|e| e.name == BIZ) {
            specs.push(NamedExecutor { name: BIZ.to_owned(), spec: ExecutorSpec::Scheduler(Scheduler::default()) });
        }
        let mut built = HashMap::new();
        for spec in specs {
            if spec.name == IO {
                errors.push(StartupError::BadScheduler {
                    name: spec.name,
                    reason: "`io` is reserved for running inline on the IO threads".to_owned(),
                });
                continue;
            }
            match spec.build() {
                Ok(exec) => {
                    built.insert(spec.name, exec);
                }
                Err(e) => errors.push(StartupError::BadScheduler { name: spec.name, reason: e.to_string() }),
            }
        }
        if self.default_scheduler != IO && !built.contains_key(&self.default_scheduler) {
            errors.push(StartupError::MissingScheduler {
                name: self.default_scheduler.clone(),
                route: "the default scheduler".to_owned(),
            });
        }
        built
    }
}

/// What compiling a route needs, kept after startup so that routes added
/// while serving get the same checks and bindings as those of startup.
pub(crate) struct Compiler {
    /// Resource instances by type: registered, or built with `Default`.
    pub(crate) resources: Registry,
    beans: Registry,
    executors: HashMap<String, Exec>,
    default_scheduler: String,
    max_body: usize,
    prepared: Vec<intercept::Prepared>,
    mappers: Arc<[ErasedMapper]>,
    pub(crate) codecs: Arc<Codecs>,
    /// The id of the next compiled route: ids are never reused.
    next_id: u64,
}

impl Compiler {
    /// Compiles one route, binding its resource from `resources` (which
    /// receives instances built with `Default`). Problems go to `errors`;
    /// a resource type missing an instance is reported once per batch.
    pub(crate) fn compile(
        &mut self,
        route: &Route,
        resources: &mut Registry,
        missing_resources: &mut BTreeSet<&'static str>,
        errors: &mut Vec<StartupError>,
    ) -> CompiledRoute {
        let location = route.location();
        let (entry, media_errors) = entry_of(route, &location);
        errors.extend(media_errors);
        let codecs = route_codecs(route, &self.codecs, &entry.produces, &location, errors);
        let mut stream_body = route.stream_body;
        let handler = match &route.source {
            Source::Built(h) => Some(h.clone()),
            Source::Descriptor(d) => {
                let label = format!("{} ({location})", route.name);
                let mut bindings = Bindings::new(resources, &self.beans, &label);
                let built = (d.factory)(&mut bindings);
                stream_body |= bindings.stream_body;
                match built {
                    Ok(h) => Some(h),
                    Err(StartupError::MissingResource { type_name, .. }) if !missing_resources.insert(type_name) => {
                        None
                    }
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                }
            }
        };
        let scheduler = self.scheduler_of(route).to_owned();
        let scheduler = scheduler.as_str();
        let exec = match self.executors.get(scheduler) {
            Some(exec) => exec.clone(),
            None if scheduler == IO => Exec::Inline,
            // A missing default scheduler is reported once, at startup.
            None if scheduler == self.default_scheduler => Exec::Inline,
            None => {
                errors.push(StartupError::MissingScheduler {
                    name: scheduler.to_owned(),
                    route: format!("{} ({location})", route.name),
                });
                Exec::Inline
            }
        };
        let max_body = route.max_body.unwrap_or(self.max_body);
        let meta = RouteMeta {
            method: &route.method,
            path: &route.path,
            produces: &route.produces,
            consumes: &route.consumes,
            name: &route.name,
            resource: route.resource(),
        };
        let bound = intercept::bind(&self.prepared, &meta, route.skip_all, &route.skip_types());
        let interceptors = bound.iter().map(|b| (b.name, b.affinity)).collect();
        let handler = intercept::Pipeline::wrap(handler.unwrap_or_else(unbound_handler), bound, &self.mappers);
        let id = self.next_id;
        self.next_id += 1;
        CompiledRoute {
            id,
            handler,
            exec,
            stream_limit: if stream_body { route.max_body } else { None },
            stream_body,
            codecs,
            compress: route.serializers.compress,
            resource_type: route.resource_type(),
            info: RouteInfo {
                id,
                method: route.method.to_string(),
                path: route.path.clone(),
                produces: route.produces.clone(),
                consumes: route.consumes.clone(),
                scheduler: scheduler.to_owned(),
                max_body,
                timeout: route.timeout,
                name: route.name.clone(),
                location,
                interceptors,
            },
            entry,
        }
    }

    /// The executor a route runs on: its own `#[scheduled]`, else the
    /// default; a plain `fn` is moved from IO to `"biz"`.
    fn scheduler_of<'a>(&'a self, route: &'a Route) -> &'a str {
        let name = match (&route.scheduler_name, route.scheduler) {
            (Some(name), _) => name.as_str(),
            (None, SchedulerName::Named(name)) => name,
            (None, SchedulerName::Io) => IO,
            (None, SchedulerName::Biz) => BIZ,
            (None, SchedulerName::Default) => self.default_scheduler.as_str(),
        };
        if name == IO && route.blocking {
            BIZ
        } else {
            name
        }
    }
}

/// The name of the IO "executor": inline on the connection's thread.
const IO: &str = "io";
/// The name of the business executor.
const BIZ: &str = "biz";

fn entry_of(route: &Route, location: &str) -> (RouteEntry, Vec<StartupError>) {
    let mut errors = Vec::new();
    let mut parse = |list: &[String]| -> Vec<MediaType> {
        list.iter()
            .filter_map(|m| match MediaType::parse(m) {
                Ok(t) => Some(t),
                Err(_) => {
                    errors.push(StartupError::BadMediaType {
                        value: m.clone(),
                        route: format!("{} ({location})", route.name),
                    });
                    None
                }
            })
            .collect()
    };
    let consumes = parse(&route.consumes);
    let produces = parse(&route.produces);
    let entry = RouteEntry {
        method: route.method.clone(),
        template: route.path.clone(),
        consumes,
        produces,
        location: location.to_owned(),
        name: route.name.clone(),
    };
    (entry, errors)
}

/// The codecs a route declared, looked up by name; an unknown one is a
/// startup error naming the route and the known formats.
fn route_codecs(
    route: &Route,
    codecs: &Codecs,
    produces: &[MediaType],
    location: &str,
    errors: &mut Vec<StartupError>,
) -> RouteCodecs {
    let mut find = |name: &Option<String>| {
        let name = name.as_deref()?;
        let found = codecs.by_name(name).cloned();
        if found.is_none() {
            errors.push(StartupError::MissingCodec {
                name: name.to_owned(),
                route: format!("{} ({location})", route.name),
                known: codecs.formats().join(", "),
            });
        }
        found
    };
    let response = find(&route.serializers.response);
    let request = find(&route.serializers.request);
    RouteCodecs { response, request, produces: produces.to_vec() }
}

pub(crate) fn collapse(mut errors: Vec<StartupError>) -> StartupError {
    if errors.len() == 1 {
        errors.remove(0)
    } else {
        StartupError::Many(errors)
    }
}

fn unbound_handler() -> Handler {
    Handler::new(|_| Box::pin(async { crate::IntoResponse::into_response(HttpError::internal("route not bound")) }))
}

/// A compiled route as the routes listing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RouteInfo {
    /// Identifies the compiled route for the application's life: routes
    /// compiled at startup are numbered from 0 in listing order, routes
    /// added while serving get the next numbers; a removed route's id is
    /// never given to another.
    pub id: u64,
    /// The method.
    pub method: String,
    /// The path template.
    pub path: String,
    /// Declared produces.
    pub produces: Vec<String>,
    /// Declared consumes.
    pub consumes: Vec<String>,
    /// The executor: `io`, `biz` or a name.
    pub scheduler: String,
    /// The largest request entity accepted, in bytes: the route's own limit
    /// or the application's.
    pub max_body: usize,
    /// The route's time limit (`#[timeout]`, `.timeout(..)`): 504 past it.
    pub timeout: Option<std::time::Duration>,
    /// The handler's name.
    pub name: String,
    /// `file:line` of the declaration.
    pub location: String,
    /// The interceptors bound to the route at startup, in the order they
    /// run, each with its classification (never-applying ones are left out).
    pub interceptors: Vec<(&'static str, Affinity)>,
}

pub(crate) struct Inner {
    /// The routes and their router, swapped whole when routes change: a
    /// request loads it once, without a lock.
    pub(crate) table: ArcSwap<Table>,
    /// Serializes route changes and keeps what compiling a route needs.
    pub(crate) compiler: Mutex<Compiler>,
    /// Every executor but IO, by name.
    pub(crate) executors: Vec<(String, Exec)>,
    pub(crate) filters: Box<[Box<dyn DynFilter>]>,
    pub(crate) layers: Option<crate::layer::AppStack>,
    pub(crate) codecs: Arc<Codecs>,
    pub(crate) url_format: UrlFormat,
    pub(crate) compression: CompressOptions,
}

/// A compiled application: serve it with `restlight-server`, drive it
/// in-process with [`MockClient`](crate::test::MockClient), or call
/// [`dispatch`](Self::dispatch) from any server.
#[derive(Clone)]
pub struct App {
    pub(crate) inner: Arc<Inner>,
}

impl fmt::Debug for App {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("App").field("routes", &self.inner.table.load().routes.len()).finish_non_exhaustive()
    }
}

impl App {
    /// A snapshot of the routes served now, in their deterministic order.
    /// Routes added or removed later (see [`change_routes`](Self::change_routes))
    /// do not change a snapshot already taken.
    ///
    /// ```
    /// use restlight_core::{get, AppBuilder};
    /// let app = AppBuilder::new().route(get("/ping").handle(|_| async { "pong" })).build().unwrap();
    /// let routes = app.routes();
    /// assert_eq!(routes.len(), 1);
    /// assert_eq!(routes.iter().next().unwrap().path, "/ping");
    /// ```
    #[must_use]
    pub fn routes(&self) -> Routes {
        Routes(self.inner.table.load_full())
    }

    /// Metrics of the bounded executors (the business one and those
    /// registered with [`AppBuilder::scheduler`]), by name. Reading them
    /// costs a few atomic loads per executor.
    #[must_use]
    pub fn executors(&self) -> Vec<ExecutorMetrics> {
        self.inner
            .executors
            .iter()
            .filter_map(|(_, exec)| match exec {
                Exec::Bounded(b) => Some(b.metrics()),
                _ => None,
            })
            .collect()
    }

    /// Answers 503 to every request still queued on a bounded executor,
    /// and to every one queued from now on; running handlers finish. The
    /// server calls this when a graceful shutdown's drain time is up.
    pub fn reject_queued(&self) {
        for (_, exec) in &self.inner.executors {
            if let Exec::Bounded(b) = exec {
                b.close();
            }
        }
    }
}
