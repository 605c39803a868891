//! The application: what is served and how a request gets there.
//!
//! | file | job |
//! |---|---|
//! | `builder.rs` | [`AppBuilder`]: collects routes, resources, beans, executors, interceptors, filters, layers, codecs |
//! | `compile.rs` | turns a [`Route`](crate::Route) into a [`CompiledRoute`]: handler bound, executor, codecs, interceptors; decides the executors |
//! | `stack.rs` | the one request path assembled at startup: tower layers, then filters, then [`Routing`] |
//! | `dispatch.rs` | [`Routing`]: router, body, handler on its executor, codec, compression |
//! | `live.rs` | the route [`Table`] published through `ArcSwap`, and changing it while serving |
//! | `matched.rs` | [`MatchedRoute`](crate::MatchedRoute), the route that answered, on the response |
//!
//! Every `impl App` lives in this module; each file calls only into lower
//! layers of the crate, never back into [`App`].

use std::fmt;
use std::sync::Mutex;

use crate::executor::{Exec, ExecutorMetrics, Resize, ResizeError, IO};
use crate::intercept::Affinity;

mod builder;
mod compile;
mod dispatch;
mod live;
mod matched;
#[cfg(feature = "openapi")]
pub(crate) mod openapi;
mod stack;

pub use builder::{AppBuilder, DEFAULT_MAX_BODY};
pub(crate) use compile::{collapse, CompiledRoute, Compiler};
pub(crate) use dispatch::Routing;
pub(crate) use live::Table;
pub use live::{AppliedChange, RouteChange, Routes, RoutesIter};
pub use matched::MatchedRoute;
pub(crate) use stack::Entry;

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
    /// The routing conditions: Spring's `params = ..` and `headers = ..`
    /// and whether a trailing `/` matches (not in a Spring controller).
    /// Its `Display` is `params: version=2, !debug; headers: x-api=1`,
    /// empty without parameter and header conditions.
    pub conditions: crate::router::Conditions,
}

/// What an [`App`] shares between its clones.
pub(crate) struct Inner {
    /// How a request enters: straight into the routing, or through the
    /// filters and tower layers, assembled once at startup.
    entry: Entry,
    /// The bottom of the request path; it holds the route table.
    routing: Routing,
    /// Serializes route changes and keeps what compiling a route needs.
    compiler: Mutex<Compiler>,
    /// Every executor but IO, by name.
    executors: Vec<(String, Exec)>,
}

/// A compiled application: serve it with `restlight-server`, drive it
/// in-process with [`MockClient`](crate::test::MockClient), or call
/// [`dispatch`](Self::dispatch) from any server (it is also a
/// `tower::Service`).
#[derive(Clone)]
pub struct App {
    inner: std::sync::Arc<Inner>,
}

impl fmt::Debug for App {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("App").field("routes", &self.inner.routing.table().routes.len()).finish_non_exhaustive()
    }
}

impl App {
    fn new(entry: Entry, routing: Routing, compiler: Compiler, executors: Vec<(String, Exec)>) -> Self {
        Self { inner: std::sync::Arc::new(Inner { entry, routing, compiler: Mutex::new(compiler), executors }) }
    }

    /// Serves one request: the tower layers and filters, then routing (404,
    /// 405, 415, 406), reading the body (413 past the limit), the
    /// interceptors and the handler on its executor, the encoding of the
    /// returned value and compression. Every failure becomes a
    /// problem-details response; a panicking handler gives 500.
    pub async fn dispatch<B>(&self, req: http::Request<B>, remote: Option<std::net::SocketAddr>) -> crate::Response
    where
        B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: Into<crate::BoxError>,
    {
        self.inner.entry.call(&self.inner.routing, req, remote, true).await
    }

    /// [`dispatch`](Self::dispatch) for a server: the request's future, a
    /// named type the server keeps in its own future (no box, when there
    /// are no filters or layers), with [`MatchedRoute`] on the response
    /// only when `mark` asks for it or filters or layers may read it, since
    /// inserting it allocates. `tags` (the request ID and trace context)
    /// reach the handler beside the request; filters and layers find them
    /// in its extensions. The request comes as its head and its body, so
    /// that a server wrapping the body does not move the head to rebuild the
    /// request.
    #[doc(hidden)]
    #[inline]
    pub fn dispatch_server<B>(
        &self,
        parts: http::request::Parts,
        body: B,
        remote: Option<std::net::SocketAddr>,
        mark: bool,
        tags: Option<std::sync::Arc<crate::trace::RequestTags>>,
    ) -> Dispatched
    where
        B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: Into<crate::BoxError>,
    {
        // Small enough to be inlined into the server's call (a call less
        // per request); the boxed path is out of line.
        match &self.inner.entry {
            Entry::Direct => {
                Dispatched(Dispatching::Direct(self.inner.routing.serve_parts(parts, body, remote, mark, tags)))
            }
            Entry::Filtered(_) | Entry::Layered(_) => self.dispatch_boxed(parts, body, remote, mark, tags),
        }
    }

    /// [`dispatch_server`](Self::dispatch_server) through the filters or
    /// the tower layers, which take the request whole, with its tags in its
    /// extensions.
    #[cold]
    #[inline(never)]
    fn dispatch_boxed<B>(
        &self,
        parts: http::request::Parts,
        body: B,
        remote: Option<std::net::SocketAddr>,
        mark: bool,
        tags: Option<std::sync::Arc<crate::trace::RequestTags>>,
    ) -> Dispatched
    where
        B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: Into<crate::BoxError>,
    {
        let mut req = http::Request::from_parts(parts, body);
        if let Some(tags) = tags {
            if let Some(id) = &tags.id {
                req.extensions_mut().insert(id.clone());
            }
            if let Some(trace) = &tags.trace {
                req.extensions_mut().insert(trace.clone());
            }
        }
        let app = self.clone();
        Dispatched(Dispatching::Boxed(Box::pin(async move {
            app.inner.entry.call(&app.inner.routing, req, remote, mark).await
        })))
    }

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
        Routes(self.inner.routing.table())
    }

    /// The OpenAPI document of the routes served now (feature `openapi`):
    /// annotated resources and functions, builder routes and routes added
    /// while serving, without starting a server. Routes built with
    /// [`RouteBuilder::undocumented`](crate::RouteBuilder::undocumented)
    /// are left out.
    ///
    /// ```
    /// use restlight_core::{get, AppBuilder};
    /// use restlight_core::openapi::OpenApiVersion;
    /// let app = AppBuilder::new().route(get("/ping").handle(|_| async { "pong" })).build().unwrap();
    /// let doc = app.openapi().title("Ping").version("1.0.0").to_value(OpenApiVersion::V3_1);
    /// assert_eq!(doc["openapi"], "3.1.0");
    /// assert!(doc["paths"]["/ping"]["get"].is_object());
    /// ```
    #[cfg(feature = "openapi")]
    #[must_use]
    pub fn openapi(&self) -> openapi::OpenApi {
        let table = self.inner.routing.table();
        openapi::OpenApi::new(table.routes.iter().filter(|r| !r.undocumented).cloned().collect())
    }

    /// Starts a change of the routes served: add and remove routes and
    /// whole resources while serving, applied at once with
    /// [`RouteChange::apply`]. Requests in flight finish on the routes they
    /// were matched to; the request path takes no lock.
    ///
    /// ```
    /// use http::Method;
    /// use restlight_core::{get, AppBuilder};
    /// use restlight_core::test::MockClient;
    ///
    /// let app = AppBuilder::new().annotated_routes(false).build().unwrap();
    /// let client = MockClient::new(app.clone());
    /// assert_eq!(client.get("/hello").send_blocking().status(), 404);
    ///
    /// app.add_route(get("/hello").handle(|_| async { "hi" })).unwrap();
    /// assert_eq!(client.get("/hello").send_blocking().text(), "hi");
    ///
    /// // The same checks as at startup: a second `GET /hello` is refused.
    /// let err = app.add_route(get("/hello").handle(|_| async { "again" })).unwrap_err();
    /// assert!(err.to_string().contains("/hello"), "{err}");
    ///
    /// app.remove_route(Method::GET, "/hello").unwrap();
    /// assert_eq!(client.get("/hello").send_blocking().status(), 404);
    /// ```
    pub fn change_routes(&self) -> RouteChange<'_> {
        RouteChange::new(&self.inner.routing, &self.inner.compiler)
    }

    /// Adds one route while serving: `change_routes().add_route(route).apply()`.
    ///
    /// # Errors
    /// As [`RouteChange::apply`]: a conflict with a served route, a bad
    /// template or media type, an unknown executor or codec.
    pub fn add_route(&self, route: impl Into<crate::Route>) -> Result<AppliedChange, crate::StartupError> {
        self.change_routes().add_route(route).apply()
    }

    /// Removes the route declared with this method and path template.
    ///
    /// # Errors
    /// [`StartupError::NoSuchRoute`](crate::StartupError::NoSuchRoute) when no such route is served.
    pub fn remove_route(&self, method: http::Method, path: &str) -> Result<AppliedChange, crate::StartupError> {
        self.change_routes().remove_route(method, path).apply()
    }

    /// Adds the annotated routes of resource `T`, bound to `value`.
    ///
    /// # Errors
    /// As [`RouteChange::apply`];
    /// [`StartupError::ResourceServed`](crate::StartupError::ResourceServed) when its
    /// routes are served already.
    pub fn add_resource<T: Send + Sync + 'static>(&self, value: T) -> Result<AppliedChange, crate::StartupError> {
        self.change_routes().add_resource(value).apply()
    }

    /// Removes the annotated routes of resource `T`.
    ///
    /// # Errors
    /// [`StartupError::NoSuchResource`](crate::StartupError::NoSuchResource) when none of its routes is served.
    pub fn remove_resource<T: 'static>(&self) -> Result<AppliedChange, crate::StartupError> {
        self.change_routes().remove_resource::<T>().apply()
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

    /// Changes the sizes of the bounded executor `name` (the business
    /// executor `"biz"` or one registered with
    /// [`AppBuilder::scheduler`]) while it
    /// serves, and returns its metrics with the new sizes. See [`Resize`]
    /// for what each size means and when it takes effect: nothing running
    /// is aborted and no queued request is lost.
    ///
    /// Requests never wait for a resize: they read the limits from atomics
    /// and the threads through an `ArcSwap`. Concurrent resizes of one
    /// executor are applied one after the other. The first of the new
    /// threads is started from the calling thread (the others start as
    /// handlers need them); old ones are stopped without blocking when
    /// that happens in an async context.
    ///
    /// An empty [`Resize`] changes nothing and returns the current metrics.
    ///
    /// # Errors
    /// [`ResizeError::UnknownExecutor`] for a name that is no executor
    /// (checked first),
    /// [`ResizeError::Invalid`] for zero threads or `max_active` (or too
    /// large a value), [`ResizeError::NotResizable`] for a user's
    /// [`Executor`](crate::Executor) or the thread count of an executor on
    /// a runtime it does not own, [`ResizeError::Runtime`] when the first
    /// of the new threads cannot be started. Nothing changes on error.
    pub fn resize_executor(&self, name: &str, resize: Resize) -> Result<ExecutorMetrics, ResizeError> {
        if name == IO {
            return Err(ResizeError::NotResizable {
                executor: name.to_owned(),
                field: resize.first_field(),
                reason: "`io` runs handlers inline on the IO runtime, which is sized at startup".to_owned(),
            });
        }
        let found = self.inner.executors.iter().find(|(n, _)| n == name).map(|(_, exec)| exec);
        let Some(exec) = found else {
            let known = self
                .inner
                .executors
                .iter()
                .filter(|(_, exec)| matches!(exec, Exec::Bounded(_)))
                .map(|(n, _)| n.clone())
                .collect();
            return Err(ResizeError::UnknownExecutor { executor: name.to_owned(), known });
        };
        resize.validate()?;
        match exec {
            Exec::Bounded(bounded) => bounded.resize(&resize),
            Exec::Custom(_) | Exec::Inline => Err(ResizeError::NotResizable {
                executor: name.to_owned(),
                field: resize.first_field(),
                reason: "it is a user's `Executor`, which Restlight does not size".to_owned(),
            }),
        }
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

/// The future of one request from [`App::dispatch_server`]: what a server
/// awaits for the answer. Not public API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Dispatched(Dispatching);

enum Dispatching {
    /// No filters or layers: the request's own future, unboxed.
    Direct(dispatch::Serving),
    /// Through the filters or the tower layers.
    Boxed(crate::handler::BoxFuture<crate::Response>),
}

impl fmt::Debug for Dispatching {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Direct(serving) => serving.fmt(f),
            Self::Boxed(_) => f.write_str("Boxed"),
        }
    }
}

impl Dispatched {
    /// An answer made before dispatch (by the server's own checks).
    #[must_use]
    pub fn ready(res: crate::Response) -> Self {
        Self(Dispatching::Direct(dispatch::Serving::ready(res)))
    }
}

impl std::future::Future for Dispatched {
    type Output = crate::Response;

    #[inline]
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<crate::Response> {
        match &mut self.0 {
            Dispatching::Direct(serving) => std::pin::Pin::new(serving).poll(cx),
            Dispatching::Boxed(fut) => fut.as_mut().poll(cx),
        }
    }
}

/// Adds `value` to `seen` unless it is there already; `true` when it was
/// not. For the few resource types and names of one startup: a list, not a
/// `BTreeSet`, whose code would be linked into every service for them.
fn first_seen<T: PartialEq>(seen: &mut Vec<T>, value: T) -> bool {
    let new = !seen.contains(&value);
    if new {
        seen.push(value);
    }
    new
}
