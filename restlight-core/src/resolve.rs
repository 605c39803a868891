//! Argument resolvers: handler parameters of the user's own types.
//!
//! Three ways to hand a handler a value the framework does not know:
//!
//! - [`FromRequest`], implemented for the parameter's type: the macro picks
//!   the implementation at compile time from the type of a `#[resolve]`
//!   parameter, so a resolved parameter costs what the resolver itself
//!   does and nothing more (no lookup, no box, no dynamic call).
//! - [`FromRequestWith`](crate::FromRequestWith), the same with a state
//!   bound once per route at startup (a bean, a setting).
//! - [`ResolverFactory`], registered on the application, for cross-cutting
//!   kinds of parameters: at startup every `#[resolve]` parameter whose
//!   type implements neither trait is offered to the factories, in the
//!   order they were registered; the first that claims it resolves it on
//!   every request. A parameter nobody claims stops startup with an error
//!   naming the parameter and the route.
//!
//! Request attributes (typed values filters and interceptors store on the
//! request, see [`RequestContext::attribute`]) are read with
//! `#[request_attribute]`, or by a resolver.

use std::any::{Any, TypeId};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::error::HttpError;
use crate::meta::ParamMeta;
use crate::request::RequestContext;

/// What a resolver knows of the parameter it resolves: its metadata (name,
/// source, type as written) and the route. Built by the generated code on
/// the stack, for free; [`detached`](Self::detached) for calls outside an
/// annotated handler (builder routes, tests).
#[derive(Debug, Clone, Copy)]
pub struct ResolveContext {
    param: Option<&'static ParamMeta>,
    route: &'static str,
}

impl ResolveContext {
    /// The context of parameter `param` of route `route` (`Type::method`),
    /// as the generated code makes it.
    #[must_use]
    pub const fn new(param: &'static ParamMeta, route: &'static str) -> Self {
        Self { param: Some(param), route }
    }

    /// No parameter and no route: for resolving outside an annotated
    /// handler, as [`resolve`] does.
    #[must_use]
    pub const fn detached() -> Self {
        Self { param: None, route: "" }
    }

    /// The parameter being resolved; `None` when detached.
    #[must_use]
    pub const fn param(&self) -> Option<&'static ParamMeta> {
        self.param
    }

    /// The parameter's name (the Rust identifier, or the one given in
    /// `#[resolve("name")]`); empty when detached.
    #[must_use]
    pub fn param_name(&self) -> &'static str {
        self.param.map_or("", |p| p.name)
    }

    /// The route's name, `UserResource::me`; empty when detached.
    #[must_use]
    pub const fn route(&self) -> &'static str {
        self.route
    }
}

/// Resolves a handler parameter of the implementing type from the request:
/// its head ([`RequestContext::headers`], [`RequestContext::uri`], ...),
/// path and query values ([`RequestContext::path_param`],
/// [`RequestContext::query_param`]), request attributes
/// ([`RequestContext::attribute`]) and, through `cx`, the parameter and
/// the route. A resolver that needs a bean or a setting implements
/// [`FromRequestWith`](crate::FromRequestWith) instead.
///
/// An annotated handler asks for one with `#[resolve]`:
/// `async fn me(&self, #[resolve] user: CurrentUser)`. The macro binds the
/// implementation statically, so the parameter costs what
/// `from_request` does. A builder route calls [`resolve`].
///
/// **Sync or async**: `from_request` returns a future; a resolver that does
/// not wait for anything writes `async fn` without `.await` (or returns
/// [`std::future::ready`]), and its future, ready at the first poll, is
/// inlined into the handler's: it costs the same as the code written in
/// the handler (measured in BENCHMARKS.md, *Argument resolvers*).
///
/// **Failures** are [`Error`](Self::Error), handled as a handler's own
/// error would be: an [`HttpError`] (or any
/// [`IntoResponse`](crate::IntoResponse)) is the response, a problem
/// details document for an `HttpError`; any other
/// `std::error::Error + Send + Sync + 'static` goes to the resource's
/// `#[exception_handler]`s and the application's exception mappers (a 500
/// naming its type when none maps it).
///
/// ```
/// use restlight_core::{FromRequest, HttpError, RequestContext, ResolveContext};
///
/// /// The `X-Tenant` header, required.
/// struct Tenant(String);
///
/// impl FromRequest for Tenant {
///     type Error = HttpError;
///     async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
///         req.header("x-tenant")
///             .map(|t| Tenant(t.to_owned()))
///             .ok_or_else(|| HttpError::bad_request("missing header `X-Tenant`"))
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no argument resolver",
    label = "this type does not implement `FromRequest`",
    note = "implement `restlight::FromRequest` (or `FromRequestWith`) for `{Self}`"
)]
pub trait FromRequest: Sized + Send {
    /// Why the value could not be resolved: [`HttpError`], another
    /// [`IntoResponse`](crate::IntoResponse), or an error for the exception
    /// mappers.
    type Error;

    /// Resolves the value for one request.
    ///
    /// # Errors
    /// When the request does not provide the value.
    fn from_request(
        req: &RequestContext,
        cx: &ResolveContext,
    ) -> impl Future<Output = Result<Self, Self::Error>> + Send;
}

/// Resolves a `T` from a request outside an annotated handler (a builder
/// route, a filter, a test), with a [detached](ResolveContext::detached)
/// context.
///
/// ```
/// use restlight_core::{get, resolve, FromRequest, HttpError, RequestContext, ResolveContext};
/// # struct Tenant(String);
/// # impl FromRequest for Tenant {
/// #     type Error = HttpError;
/// #     async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
/// #         req.header("x-tenant").map(|t| Tenant(t.to_owned())).ok_or_else(|| HttpError::bad_request("no tenant"))
/// #     }
/// # }
/// let route = get("/tenant").handle(|ctx| async move {
///     resolve::<Tenant>(&ctx).await.map(|t| t.0)
/// });
/// ```
///
/// # Errors
/// The resolver's.
pub async fn resolve<T: FromRequest>(req: &RequestContext) -> Result<T, T::Error> {
    T::from_request(req, &ResolveContext::detached()).await
}

/// A boxed future borrowing the request.
pub type ResolveFuture<'r, T> = Pin<Box<dyn Future<Output = Result<T, HttpError>> + Send + 'r>>;

type SyncFn<T> = dyn Fn(&RequestContext, &ResolveContext) -> Result<T, HttpError> + Send + Sync;
type AsyncFn<T> = dyn for<'r> Fn(&'r RequestContext, &'r ResolveContext) -> ResolveFuture<'r, T> + Send + Sync;

enum Resolving<T> {
    Sync(Box<SyncFn<T>>),
    Async(Box<AsyncFn<T>>),
}

/// A resolver a [`ResolverFactory`] gives for a parameter it claims: a
/// function from the request to a value of the parameter's type, its type
/// erased until startup checks it against the parameter's. Failures are
/// [`HttpError`]s (problem details).
pub struct Resolver {
    type_id: TypeId,
    type_name: &'static str,
    inner: Arc<dyn Any + Send + Sync>,
}

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Resolver").field(&self.type_name).finish()
    }
}

impl Resolver {
    /// A resolver that does not wait: `f` is called on every request.
    pub fn new<T, F>(f: F) -> Self
    where
        T: Send + 'static,
        F: Fn(&RequestContext, &ResolveContext) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        Self::erase(Resolving::Sync(Box::new(f)))
    }

    /// A resolver that waits: `f` returns a boxed future borrowing the
    /// request (`Box::pin(async move { .. })`).
    pub fn new_async<T, F>(f: F) -> Self
    where
        T: Send + 'static,
        F: for<'r> Fn(&'r RequestContext, &'r ResolveContext) -> ResolveFuture<'r, T> + Send + Sync + 'static,
    {
        Self::erase(Resolving::Async(Box::new(f)))
    }

    fn erase<T: Send + 'static>(r: Resolving<T>) -> Self {
        Self { type_id: TypeId::of::<T>(), type_name: std::any::type_name::<T>(), inner: Arc::new(r) }
    }

    /// The type of the values it resolves.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The resolver of `T`s, or why not (the type it resolves).
    pub(crate) fn typed<T: Send + 'static>(self) -> Result<Claimed<T>, &'static str> {
        if self.type_id != TypeId::of::<T>() {
            return Err(self.type_name);
        }
        let type_name = self.type_name;
        self.inner.downcast::<Resolving<T>>().map(|inner| Claimed { inner }).map_err(|_| type_name)
    }
}

/// A parameter's declaration, as a [`ResolverFactory`] sees it at startup.
#[derive(Debug, Clone, Copy)]
pub struct ParamDecl<'a> {
    pub(crate) meta: &'static ParamMeta,
    pub(crate) type_id: TypeId,
    pub(crate) route: &'a str,
}

impl ParamDecl<'_> {
    /// The parameter's name: the one given in `#[resolve("name")]`, else
    /// the Rust identifier.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.meta.name
    }

    /// The Rust type as written in the handler (`Locale`, `my::Tenant`).
    #[must_use]
    pub fn rust_type(&self) -> &'static str {
        self.meta.rust_type
    }

    /// Whether the parameter's type is `T`.
    #[must_use]
    pub fn is<T: 'static>(&self) -> bool {
        self.type_id == TypeId::of::<T>()
    }

    /// The parameter's `TypeId`.
    #[must_use]
    pub fn type_id(&self) -> TypeId {
        self.type_id
    }

    /// Everything the macro recorded: name, source, `#[default_value]`, type.
    #[must_use]
    pub fn meta(&self) -> &'static ParamMeta {
        self.meta
    }

    /// The route, as startup errors name it: `UserResource::me (src/users.rs:12)`.
    #[must_use]
    pub fn route(&self) -> &str {
        self.route
    }
}

/// Claims `#[resolve]` parameters at startup: register it with
/// [`AppBuilder::resolver_factory`](crate::AppBuilder::resolver_factory).
///
/// Every `#[resolve]` parameter whose type implements neither
/// [`FromRequest`] nor [`FromRequestWith`](crate::FromRequestWith) is
/// offered, once at startup, to the registered factories in registration
/// order; the first that returns a [`Resolver`] of the parameter's type
/// resolves it on every request (one dynamic call: the choice itself costs
/// nothing per request). Implemented for every
/// `Fn(&ParamDecl) -> Option<Resolver>`.
///
/// ```
/// use restlight_core::{HttpError, ParamDecl, Resolver};
///
/// /// Any `#[resolve] x: Locale` reads `Accept-Language`, "en" by default.
/// struct Locale(String);
///
/// let factory = |p: &ParamDecl<'_>| {
///     p.is::<Locale>().then(|| {
///         Resolver::new(|req, _| {
///             let lang = req.header("accept-language").and_then(|v| v.split(',').next()).unwrap_or("en");
///             Ok::<_, HttpError>(Locale(lang.trim().to_owned()))
///         })
///     })
/// };
/// let app = restlight_core::AppBuilder::new().resolver_factory(factory);
/// ```
pub trait ResolverFactory: Send + Sync + 'static {
    /// A resolver for `param`, or `None` to leave it to the next factory.
    fn claim(&self, param: &ParamDecl<'_>) -> Option<Resolver>;
}

impl<F> ResolverFactory for F
where
    F: Fn(&ParamDecl<'_>) -> Option<Resolver> + Send + Sync + 'static,
{
    fn claim(&self, param: &ParamDecl<'_>) -> Option<Resolver> {
        self(param)
    }
}

/// The resolver a factory gave for one parameter, checked against its type.
pub struct Claimed<T> {
    inner: Arc<Resolving<T>>,
}

impl<T> Clone for Claimed<T> {
    fn clone(&self) -> Self {
        Self { inner: Arc::clone(&self.inner) }
    }
}

impl<T> fmt::Debug for Claimed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Claimed")
    }
}

impl<T> Claimed<T> {
    /// Resolves the value for one request.
    ///
    /// # Errors
    /// The resolver's.
    pub async fn resolve(&self, req: &RequestContext, cx: &ResolveContext) -> Result<T, HttpError> {
        match &*self.inner {
            Resolving::Sync(f) => f(req, cx),
            Resolving::Async(f) => f(req, cx).await,
        }
    }
}

/// Marks a 500 response whose cause was logged already (once per route),
/// so the dispatcher does not log it again.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Logged;
