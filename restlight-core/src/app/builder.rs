//! [`AppBuilder`]: what an application is made of, collected before it is
//! compiled.

use std::any::TypeId;
use std::fmt;
use std::sync::Arc;

use super::compile::{self, collapse, entry_of, CompiledRoute, Compiler};
use super::{App, Entry, Routing, Table};
use crate::bind::Registry;
use crate::codec::url_format::{UrlFormat, UrlFormatOptions};
use crate::codec::{Codec, Codecs};
use crate::compress::CompressOptions;
use crate::descriptor::descriptors;
use crate::executor::{Exec, Executor, ExecutorSpec, NamedExecutor, Scheduler, IO};
use crate::filter::{DynFilter, Filter};
use crate::intercept::{self, Intercept};
use crate::mapper::{ErasedMapper, ExceptionMapper};
use crate::route::Route;
use crate::router::Router;
use crate::startup::StartupError;

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
    excluded: Vec<TypeId>,
    interceptors: Vec<Intercept>,
    annotated_interceptors: bool,
    mappers: Vec<ErasedMapper>,
    filters: Vec<Box<dyn DynFilter>>,
    layers: Vec<crate::layer::Wrap>,
    codecs: Codecs,
    url_format: UrlFormatOptions,
    strict_matching: bool,
    compression: CompressOptions,
    resolver_factories: Vec<Arc<dyn crate::resolve::ResolverFactory>>,
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
            .field("strict_matching", &self.strict_matching)
            .field("compression", &self.compression)
            .field("resolver_factories", &self.resolver_factories.len())
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
            excluded: Vec::new(),
            interceptors: Vec::new(),
            annotated_interceptors: true,
            mappers: Vec::new(),
            filters: Vec::new(),
            layers: Vec::new(),
            codecs: Codecs::default(),
            url_format: UrlFormatOptions::default(),
            strict_matching: false,
            compression: CompressOptions::default(),
            resolver_factories: Vec::new(),
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

    /// Registers a [`ResolverFactory`](crate::ResolverFactory): at startup,
    /// every `#[resolve]` parameter whose type implements neither
    /// [`FromRequest`](crate::FromRequest) nor
    /// [`FromRequestWith`](crate::FromRequestWith) is offered to the
    /// factories in registration order, and the first that claims it
    /// resolves it. Default: none, and such a parameter stops startup.
    pub fn resolver_factory(mut self, factory: impl crate::resolve::ResolverFactory) -> Self {
        self.resolver_factories.push(Arc::new(factory));
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

    /// JAX-RS request matching to the letter: the best template matching
    /// the path is chosen before the method is looked at, so a method that
    /// template lacks is 405 even when a less specific template has it.
    /// With `GET /users/{id: \d+}` and `DELETE /users/{id}`, `DELETE
    /// /users/1` is 405 in strict mode and reaches the DELETE route by
    /// default. Default: off (the best template *serving the method* wins).
    pub fn strict_matching(mut self, enabled: bool) -> Self {
        self.strict_matching = enabled;
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
        super::first_seen(&mut self.excluded, TypeId::of::<T>());
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

    /// The annotated routes (when included), with room for `more`.
    fn annotated_routes_list(&self, more: usize) -> Vec<Route> {
        if !self.annotated {
            return Vec::with_capacity(more);
        }
        let descriptors = descriptors();
        let mut all = Vec::with_capacity(descriptors.len() + more);
        all.extend(descriptors.into_iter().map(Route::from_descriptor));
        all.extend(crate::locator::routes());
        all
    }

    /// Every route: the annotated ones first, then the registered ones.
    fn all_routes(&self) -> Vec<Route> {
        let mut all = self.annotated_routes_list(self.routes.len());
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
        // As `all_routes`, but the registered routes are moved, not cloned:
        // the builder's copy would otherwise live as long as the build, and
        // the memory a build touches stays resident. They keep their own
        // buffer too (the annotated routes go in front of them): a second
        // buffer for all of them would be a copy live beside the first.
        let mut routes = std::mem::take(&mut self.routes);
        let annotated = self.annotated_routes_list(0);
        if routes.is_empty() {
            routes = annotated;
        } else {
            routes.splice(0..0, annotated);
        }
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
        let executors = compile::build_executors(&self.executors, &self.default_scheduler, &mut errors);
        let codecs = Arc::new(std::mem::take(&mut self.codecs));
        let mut compiler = Compiler {
            resources: self.resources.clone(),
            beans: std::mem::take(&mut self.beans),
            executors: executors.clone(),
            default_scheduler: self.default_scheduler.clone(),
            max_body: self.max_body,
            prepared,
            mappers: {
                let mut mappers = std::mem::take(&mut self.mappers);
                if self.annotated {
                    mappers.extend(crate::mapper::annotated_advice());
                }
                mappers.into()
            },
            codecs: Arc::clone(&codecs),
            next_id: 0,
            strict: self.strict_matching,
            resolver_factories: std::mem::take(&mut self.resolver_factories).into(),
        };
        let mut resources = compiler.resources.clone();
        let mut missing_resources = Vec::new();
        // Each route is consumed by its compilation (its strings move into
        // the route listing), so none outlives the build: the build's peak
        // of memory (which stays resident) is lower. Pushed into a vector
        // of its own: collected from `routes.into_iter()`, the compiled
        // routes would reuse the routes' far larger buffer for good.
        let mut compiled: Vec<Arc<CompiledRoute>> = Vec::with_capacity(routes.len());
        for route in routes {
            compiled.push(Arc::new(compiler.compile(route, &mut resources, &mut missing_resources, &mut errors)));
        }
        compiler.resources = resources;

        let table = match Table::new(compiled, self.strict_matching) {
            Ok((table, warnings)) => {
                for w in warnings {
                    tracing::warn!("{w}");
                }
                table
            }
            Err(e) => {
                errors.insert(0, StartupError::Routes(e));
                return Err(collapse(errors));
            }
        };
        if !errors.is_empty() {
            return Err(collapse(errors));
        }
        let mut executors: Vec<(String, Exec)> = executors.into_iter().collect();
        crate::sort::sort_by(&mut executors, &|a, b| a.0.cmp(&b.0));
        let url_format = UrlFormat::new(&self.url_format, &codecs);
        let routing = Routing::new(table, codecs, url_format, self.compression);
        let entry = Entry::new(&routing, std::mem::take(&mut self.filters), std::mem::take(&mut self.layers));
        Ok(App::new(entry, routing, compiler, executors))
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
}
