//! Interceptors: code around a route's handler, bound to routes at startup.
//!
//! An [`Interceptor`] has three async hooks, all optional:
//! [`pre_handle`](Interceptor::pre_handle) before the handler (it may answer
//! instead of it), [`post_handle`](Interceptor::post_handle) after a handler
//! that ran (it may change the response) and
//! [`after_completion`](Interceptor::after_completion), which always runs for
//! an interceptor whose `pre_handle` let the request through, and sees the
//! error if there was one. Interceptors run by ascending
//! [`order`](Intercept::order) (ties: registration order) before the
//! handler and in reverse order after it. They run on the route's executor.
//!
//! Which routes an interceptor applies to is decided when the application
//! is built, from its [`Intercept`] registration:
//!
//! - **handler interceptors** with Ant-style [`include`](Intercept::include)
//!   and [`exclude`](Intercept::exclude) patterns: every (interceptor, route)
//!   pair is classified as always, never or maybe by pattern intersection
//!   (see [`affinity`]), and only "maybe" pairs test the request path, against
//!   only the patterns that can meet the route;
//! - **route interceptors** decide once per route from its [`RouteMeta`]
//!   ([`when_route`](Intercept::when_route));
//! - **mapping interceptors** test each request
//!   ([`when_request`](Intercept::when_request)).
//!
//! The three combine. A route can opt out of all interceptors or of one type
//! (`#[no_interceptors]`, `#[skip_interceptor(Type)]`, or
//! [`RouteBuilder::no_interceptors`](crate::RouteBuilder::no_interceptors)).
//!
//! ```
//! use std::ops::ControlFlow;
//! use restlight_core::intercept::{Intercept, Interceptor};
//! use restlight_core::{get, AppBuilder, HttpError, IntoResponse, RequestContext, Response, test::MockClient};
//!
//! struct Auth;
//! impl Interceptor for Auth {
//!     async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
//!         match ctx.header("authorization") {
//!             Some(_) => ControlFlow::Continue(()),
//!             None => ControlFlow::Break(HttpError::unauthorized("log in first").into_response()),
//!         }
//!     }
//! }
//!
//! let app = AppBuilder::new()
//!     .route(get("/api/me").handle(|_| async { "me" }))
//!     .route(get("/health").handle(|_| async { "ok" }))
//!     .interceptor(Intercept::new(Auth).include("/api/**"))
//!     .build()
//!     .unwrap();
//! let client = MockClient::new(app);
//! assert_eq!(client.get("/api/me").send_blocking().status(), 401);
//! assert_eq!(client.get("/health").send_blocking().status(), 200);
//! ```

mod ant;
mod chain;
mod classify;
pub(crate) mod registry;

use std::any::TypeId;
use std::fmt;
use std::future::Future;
use std::ops::ControlFlow;
use std::pin::Pin;
use std::sync::Arc;

use http::{Method, StatusCode};

use crate::mapper::Failure;
use crate::request::{RequestContext, RequestHead};
use crate::response::Response;

pub use ant::{AntPattern, AntPatternError};
pub(crate) use chain::{bind, prepare, Pipeline, Prepared};
pub use classify::{affinity, Affinity};
pub(crate) use registry::{annotated, OptOut};

type BoxFut<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Code around a route's handler (see the [module docs](self)).
///
/// Every hook has a default that does nothing, so an interceptor implements
/// only those it needs, with `async fn`.
pub trait Interceptor: Send + Sync + 'static {
    /// Runs before the handler; may read and change the request.
    /// `ControlFlow::Break(response)` stops the request: neither the
    /// handler nor the later interceptors run, and `response` is the answer.
    /// Default: continue.
    fn pre_handle(&self, ctx: &mut RequestContext) -> impl Future<Output = ControlFlow<Response>> + Send {
        let _ = ctx;
        async { ControlFlow::Continue(()) }
    }

    /// Runs after a handler that ran (not after a `pre_handle` stopped the
    /// request, nor after a panic); may change the response. Default: nothing.
    fn post_handle(&self, req: &RequestHead, res: &mut Response) -> impl Future<Output = ()> + Send {
        let _ = (req, res);
        async {}
    }

    /// Runs last, whatever happened, for every interceptor whose
    /// `pre_handle` continued; `status` is the status answered and
    /// `failure` the handler's error (mapped or not), an
    /// [`HttpError`](crate::HttpError) answered, or the handler's panic.
    /// Default: nothing.
    fn after_completion(
        &self,
        req: &RequestHead,
        status: StatusCode,
        failure: Option<&Failure>,
    ) -> impl Future<Output = ()> + Send {
        let _ = (req, status, failure);
        async {}
    }
}

/// [`Interceptor`] with its futures boxed, to be held as a trait object.
pub(crate) trait DynInterceptor: Send + Sync {
    fn pre<'a>(&'a self, ctx: &'a mut RequestContext) -> BoxFut<'a, ControlFlow<Response>>;
    fn post<'a>(&'a self, req: &'a RequestHead, res: &'a mut Response) -> BoxFut<'a, ()>;
    fn after<'a>(&'a self, req: &'a RequestHead, status: StatusCode, failure: Option<&'a Failure>) -> BoxFut<'a, ()>;
}

impl<T: Interceptor> DynInterceptor for T {
    fn pre<'a>(&'a self, ctx: &'a mut RequestContext) -> BoxFut<'a, ControlFlow<Response>> {
        Box::pin(self.pre_handle(ctx))
    }
    fn post<'a>(&'a self, req: &'a RequestHead, res: &'a mut Response) -> BoxFut<'a, ()> {
        Box::pin(self.post_handle(req, res))
    }
    fn after<'a>(&'a self, req: &'a RequestHead, status: StatusCode, failure: Option<&'a Failure>) -> BoxFut<'a, ()> {
        Box::pin(self.after_completion(req, status, failure))
    }
}

/// What a route interceptor sees of a route at startup.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct RouteMeta<'a> {
    /// The method.
    pub method: &'a Method,
    /// The path template.
    pub path: &'a str,
    /// Declared produces.
    pub produces: &'a [String],
    /// Declared consumes.
    pub consumes: &'a [String],
    /// The handler's name (`UserResource::list`, or `GET /ping` for builder routes).
    pub name: &'a str,
    /// The resource type's name, for routes of a `#[restlight::path]` impl block.
    pub resource: Option<&'a str>,
}

type RoutePredicate = dyn Fn(&RouteMeta<'_>) -> bool + Send + Sync;
type RequestPredicate = dyn Fn(&RequestContext) -> bool + Send + Sync;

/// An interceptor and the routes it applies to; register it with
/// [`AppBuilder::interceptor`](crate::AppBuilder::interceptor). Any
/// [`Interceptor`] converts into one that applies to every route.
///
/// ```
/// use restlight_core::intercept::{Intercept, Interceptor};
/// struct Audit;
/// impl Interceptor for Audit {}
/// let reg = Intercept::new(Audit)
///     .include("/api/**")
///     .exclude("/api/health")
///     .when_route(|r| r.method != "GET")
///     .order(-10);
/// # let _ = reg;
/// ```
#[must_use]
pub struct Intercept {
    pub(crate) interceptor: Arc<dyn DynInterceptor>,
    pub(crate) type_id: TypeId,
    pub(crate) name: &'static str,
    pub(crate) order: i32,
    pub(crate) includes: Option<Vec<String>>,
    pub(crate) excludes: Vec<String>,
    pub(crate) route: Option<Arc<RoutePredicate>>,
    pub(crate) request: Option<Arc<RequestPredicate>>,
}

impl fmt::Debug for Intercept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Intercept")
            .field("name", &self.name)
            .field("order", &self.order)
            .field("includes", &self.includes)
            .field("excludes", &self.excludes)
            .field("when_route", &self.route.is_some())
            .field("when_request", &self.request.is_some())
            .finish()
    }
}

impl<I: Interceptor> From<I> for Intercept {
    fn from(interceptor: I) -> Self {
        Self::new(interceptor)
    }
}

impl Intercept {
    /// Registers `interceptor` for every route, with order 0.
    pub fn new<I: Interceptor>(interceptor: I) -> Self {
        Self {
            interceptor: Arc::new(interceptor),
            type_id: TypeId::of::<I>(),
            name: std::any::type_name::<I>(),
            order: 0,
            includes: None,
            excludes: Vec::new(),
            route: None,
            request: None,
        }
    }

    /// Where it runs among the route's interceptors: lower first before the
    /// handler, last after it; ties keep registration order (builder
    /// registrations before attribute ones). Default: 0.
    pub fn order(mut self, order: i32) -> Self {
        self.order = order;
        self
    }

    /// Adds an Ant-style pattern of request paths to apply to. Default: no
    /// include list, which means every path.
    pub fn include(mut self, pattern: &str) -> Self {
        self.includes.get_or_insert_with(Vec::new).push(pattern.to_owned());
        self
    }

    /// Sets the include list; an empty list means no path at all.
    /// Default: no include list, which means every path.
    pub fn includes<S: AsRef<str>>(mut self, patterns: impl IntoIterator<Item = S>) -> Self {
        self.includes = Some(patterns.into_iter().map(|p| p.as_ref().to_owned()).collect());
        self
    }

    /// Adds an Ant-style pattern of request paths not to apply to; excludes
    /// win over includes. Default: none.
    pub fn exclude(mut self, pattern: &str) -> Self {
        self.excludes.push(pattern.to_owned());
        self
    }

    /// Adds excludes. Default: none.
    pub fn excludes<S: AsRef<str>>(mut self, patterns: impl IntoIterator<Item = S>) -> Self {
        self.excludes.extend(patterns.into_iter().map(|p| p.as_ref().to_owned()));
        self
    }

    /// Applies only to routes for which `pred` is true, asked once per
    /// route at startup (a route interceptor). Default: every route.
    pub fn when_route(mut self, pred: impl Fn(&RouteMeta<'_>) -> bool + Send + Sync + 'static) -> Self {
        self.route = Some(Arc::new(pred));
        self
    }

    /// Applies only to requests for which `pred` is true, asked on every
    /// request of the routes it is bound to (a mapping interceptor).
    /// Default: every request.
    pub fn when_request(mut self, pred: impl Fn(&RequestContext) -> bool + Send + Sync + 'static) -> Self {
        self.request = Some(Arc::new(pred));
        self
    }
}
