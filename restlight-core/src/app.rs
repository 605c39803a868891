//! The application: routes, resources and beans compiled once into a router,
//! and the dispatch of one request through it.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use crate::descriptor::{descriptors, SchedulerName};
use crate::error::{HttpError, StartupError};
use crate::executor::{fallback_biz, Executor, NamedExecutor};
use crate::filter::{DynFilter, Filter};
use crate::handler::{Bindings, Handler, Registry};
use crate::intercept::{self, Affinity, Intercept, RouteMeta};
use crate::mapper::{ErasedMapper, ExceptionMapper};
use crate::media::MediaType;
use crate::route::{Route, Source};
use crate::router::{RouteEntry, Router};

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
/// assert!(app.routes().any(|r| r.path == "/ping"));
/// ```
#[must_use]
pub struct AppBuilder {
    resources: Registry,
    beans: Registry,
    routes: Vec<Route>,
    executors: Vec<NamedExecutor>,
    max_body: usize,
    annotated: bool,
    interceptors: Vec<Intercept>,
    annotated_interceptors: bool,
    mappers: Vec<ErasedMapper>,
    filters: Vec<Box<dyn DynFilter>>,
    layers: Vec<crate::layer::Wrap>,
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
            .field("max_body", &self.max_body)
            .field("interceptors", &self.interceptors)
            .field("mappers", &self.mappers)
            .field("filters", &self.filters.len())
            .field("layers", &self.layers.len())
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
            max_body: DEFAULT_MAX_BODY,
            annotated: true,
            interceptors: Vec::new(),
            annotated_interceptors: true,
            mappers: Vec::new(),
            filters: Vec::new(),
            layers: Vec::new(),
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

    /// Registers an executor under `name`; `"biz"` replaces the business
    /// executor. Default: the business executor is a runtime of its own with
    /// one thread per core, started on first use; no named executors.
    pub fn executor(mut self, name: &str, executor: impl Executor) -> Self {
        self.executors.retain(|e| e.name != name);
        self.executors.push(NamedExecutor { name: name.to_owned(), executor: Arc::new(executor) });
        self
    }

    /// The largest request entity accepted, in bytes; larger ones get 413.
    /// Default: 4 MiB.
    pub fn max_body_size(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// Whether routes declared with the macros are included. Default: `true`.
    pub fn annotated_routes(mut self, include: bool) -> Self {
        self.annotated = include;
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
        let routes = self.all_routes();
        let mut errors = Vec::new();
        let mut regs = std::mem::take(&mut self.interceptors);
        if self.annotated_interceptors {
            regs.extend(intercept::annotated());
        }
        let prepared = intercept::prepare(regs).unwrap_or_else(|bad| {
            errors.extend(bad.into_iter().map(|(interceptor, error)| StartupError::BadPattern { interceptor, error }));
            Vec::new()
        });
        let mappers: Arc<[ErasedMapper]> = std::mem::take(&mut self.mappers).into();
        let mut resources = self.resources.clone();
        let mut missing_resources = BTreeSet::new();
        let mut compiled = Vec::with_capacity(routes.len());
        let mut entries = Vec::with_capacity(routes.len());
        let biz = self.find_executor("biz").unwrap_or_else(fallback_biz);

        for route in &routes {
            let location = route.location();
            let (entry, media_errors) = entry_of(route, &location);
            errors.extend(media_errors);
            entries.push(entry);
            let handler = match &route.source {
                Source::Built(h) => Some(h.clone()),
                Source::Descriptor(d) => {
                    let label = format!("{} ({location})", route.name);
                    match (d.factory)(&mut Bindings::new(&mut resources, &self.beans, &label)) {
                        Ok(h) => Some(h),
                        Err(StartupError::MissingResource { type_name, .. })
                            if !missing_resources.insert(type_name) =>
                        {
                            None
                        }
                        Err(e) => {
                            errors.push(e);
                            None
                        }
                    }
                }
            };
            let exec = match self.executor_of(route, &biz) {
                Ok(exec) => exec,
                Err(e) => {
                    errors.push(e);
                    None
                }
            };
            let meta = RouteMeta {
                method: &route.method,
                path: &route.path,
                produces: &route.produces,
                consumes: &route.consumes,
                name: &route.name,
                resource: route.resource(),
            };
            let bound = intercept::bind(&prepared, &meta, route.skip_all, &route.skip_types());
            let interceptors = bound.iter().map(|b| (b.name, b.affinity)).collect();
            let handler = intercept::Pipeline::wrap(handler.unwrap_or_else(unbound_handler), bound, &mappers);
            compiled.push(CompiledRoute {
                handler,
                exec,
                info: RouteInfo {
                    method: route.method.to_string(),
                    path: route.path.clone(),
                    produces: route.produces.clone(),
                    consumes: route.consumes.clone(),
                    scheduler: scheduler_label(route),
                    name: route.name.clone(),
                    location,
                    interceptors,
                },
            });
        }

        match Router::new(&entries) {
            Ok((router, warnings)) => {
                for w in warnings {
                    tracing::warn!("{w}");
                }
                if !errors.is_empty() {
                    return Err(collapse(errors));
                }
                let filters = std::mem::take(&mut self.filters).into_boxed_slice();
                let wraps = std::mem::take(&mut self.layers);
                let inner = Arc::new_cyclic(|weak| Inner {
                    router,
                    routes: compiled,
                    max_body: self.max_body,
                    filters,
                    layers: (!wraps.is_empty()).then(|| crate::layer::stack(weak.clone(), wraps)),
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

    fn find_executor(&self, name: &str) -> Option<Arc<dyn Executor>> {
        self.executors.iter().find(|e| e.name == name).map(|e| Arc::clone(&e.executor))
    }

    fn executor_of(&self, route: &Route, biz: &Arc<dyn Executor>) -> Result<Option<Arc<dyn Executor>>, StartupError> {
        let named = match (&route.scheduler_name, route.scheduler) {
            (Some(name), _) => Some(name.as_str()),
            (None, SchedulerName::Named(name)) => Some(name),
            _ => None,
        };
        if let Some(name) = named {
            return self.find_executor(name).map(Some).ok_or_else(|| StartupError::MissingScheduler {
                name: name.to_owned(),
                route: format!("{} ({})", route.name, route.location()),
            });
        }
        Ok(match route.scheduler {
            SchedulerName::Io if !route.blocking => None,
            SchedulerName::Default if !route.blocking => None,
            _ => Some(Arc::clone(biz)),
        })
    }
}

fn scheduler_label(route: &Route) -> String {
    if let Some(name) = &route.scheduler_name {
        return name.clone();
    }
    match route.scheduler {
        SchedulerName::Default | SchedulerName::Io if !route.blocking => "io".to_owned(),
        SchedulerName::Default | SchedulerName::Io | SchedulerName::Biz => "biz".to_owned(),
        SchedulerName::Named(n) => n.to_owned(),
    }
}

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

fn collapse(mut errors: Vec<StartupError>) -> StartupError {
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
    /// The handler's name.
    pub name: String,
    /// `file:line` of the declaration.
    pub location: String,
    /// The interceptors bound to the route at startup, in the order they
    /// run, each with its classification (never-applying ones are left out).
    pub interceptors: Vec<(&'static str, Affinity)>,
}

pub(crate) struct CompiledRoute {
    pub(crate) handler: Handler,
    pub(crate) exec: Option<Arc<dyn Executor>>,
    pub(crate) info: RouteInfo,
}

pub(crate) struct Inner {
    pub(crate) router: Router,
    pub(crate) routes: Vec<CompiledRoute>,
    pub(crate) max_body: usize,
    pub(crate) filters: Box<[Box<dyn DynFilter>]>,
    pub(crate) layers: Option<crate::layer::AppStack>,
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
        f.debug_struct("App").field("routes", &self.inner.routes.len()).finish_non_exhaustive()
    }
}

impl App {
    /// The compiled routes in their deterministic order.
    pub fn routes(&self) -> impl ExactSizeIterator<Item = &RouteInfo> {
        self.inner.routes.iter().map(|r| &r.info)
    }
}
