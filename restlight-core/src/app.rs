//! The application: routes, resources and beans compiled once into a router,
//! and the dispatch of one request through it.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use crate::codec::{Codec, Codecs, RouteCodecs};
use crate::compress::CompressOptions;
use crate::descriptor::{descriptors, SchedulerName};
use crate::error::{HttpError, StartupError};
use crate::executor::{fallback_biz, Executor, NamedExecutor};
use crate::format::{UrlFormat, UrlFormatOptions};
use crate::handler::{Bindings, Handler, Registry};
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
            .field("max_body", &self.max_body)
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
            max_body: DEFAULT_MAX_BODY,
            annotated: true,
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
    pub fn build(self) -> Result<App, StartupError> {
        let routes = self.all_routes();
        let mut errors = Vec::new();
        let mut resources = self.resources.clone();
        let mut missing_resources = BTreeSet::new();
        let mut compiled = Vec::with_capacity(routes.len());
        let mut entries = Vec::with_capacity(routes.len());
        let biz = self.find_executor("biz").unwrap_or_else(fallback_biz);

        for route in &routes {
            let location = route.location();
            let (entry, media_errors) = entry_of(route, &location);
            errors.extend(media_errors);
            let codecs = route_codecs(route, &self.codecs, &entry.produces, &location, &mut errors);
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
            compiled.push(CompiledRoute {
                handler: handler.unwrap_or_else(unbound_handler),
                exec,
                codecs,
                compress: route.serializers.compress,
                info: RouteInfo {
                    method: route.method.to_string(),
                    path: route.path.clone(),
                    produces: route.produces.clone(),
                    consumes: route.consumes.clone(),
                    scheduler: scheduler_label(route),
                    name: route.name.clone(),
                    location,
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
                let url_format = UrlFormat::new(&self.url_format, &self.codecs);
                Ok(App {
                    inner: Arc::new(Inner {
                        router,
                        routes: compiled,
                        max_body: self.max_body,
                        codecs: Arc::new(self.codecs),
                        url_format,
                        compression: self.compression,
                    }),
                })
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
}

pub(crate) struct CompiledRoute {
    pub(crate) handler: Handler,
    pub(crate) exec: Option<Arc<dyn Executor>>,
    pub(crate) codecs: RouteCodecs,
    pub(crate) compress: bool,
    pub(crate) info: RouteInfo,
}

pub(crate) struct Inner {
    pub(crate) router: Router,
    pub(crate) routes: Vec<CompiledRoute>,
    pub(crate) max_body: usize,
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
        f.debug_struct("App").field("routes", &self.inner.routes.len()).finish_non_exhaustive()
    }
}

impl App {
    /// The compiled routes in their deterministic order.
    pub fn routes(&self) -> impl ExactSizeIterator<Item = &RouteInfo> {
        self.inner.routes.iter().map(|r| &r.info)
    }
}
