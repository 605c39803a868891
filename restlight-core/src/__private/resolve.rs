//! `#[resolve]` parameters (a resolver chosen by the parameter's type) and
//! `#[request_attribute]` parameters (a typed value stored on the request).

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

use super::*;
use crate::bind::FromRequestWith;
use crate::resolve::{Claimed, FromRequest, ResolveContext};

/// Selects how a `#[resolve]` parameter of type `T` is resolved: its
/// [`FromRequest`], else its [`FromRequestWith`], else a factory's resolver.
#[derive(Debug)]
pub struct ResolveProbe<T>(PhantomData<T>);

impl<T> ResolveProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for ResolveProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// `T: FromRequest`: nothing to bind, the resolver is called directly.
pub trait ResolveStatic<T: FromRequest> {
    /// Binds at startup (nothing).
    ///
    /// # Errors
    /// Never.
    fn __rl_bind(&self, b: &mut Bindings<'_>, meta: &'static ParamMeta) -> Result<(), StartupError>;
    /// Resolves for one request.
    fn __rl_resolve<'a>(
        &self,
        req: &'a RequestContext,
        slot: &'a (),
        cx: &'a ResolveContext,
    ) -> impl Future<Output = Result<T, T::Error>> + Send;
}
impl<T: FromRequest> ResolveStatic<T> for &&ResolveProbe<T> {
    fn __rl_bind(&self, _: &mut Bindings<'_>, _: &'static ParamMeta) -> Result<(), StartupError> {
        Ok(())
    }
    #[inline]
    fn __rl_resolve<'a>(
        &self,
        req: &'a RequestContext,
        _: &'a (),
        cx: &'a ResolveContext,
    ) -> impl Future<Output = Result<T, T::Error>> + Send {
        T::from_request(req, cx)
    }
}

/// `T: FromRequestWith`: the state is bound at startup.
pub trait ResolveWithState<T: FromRequestWith> {
    /// Binds the state at startup.
    ///
    /// # Errors
    /// The resolver's.
    fn __rl_bind(&self, b: &mut Bindings<'_>, meta: &'static ParamMeta) -> Result<Arc<T::State>, StartupError>;
    /// Resolves for one request.
    fn __rl_resolve<'a>(
        &self,
        req: &'a RequestContext,
        slot: &'a Arc<T::State>,
        cx: &'a ResolveContext,
    ) -> impl Future<Output = Result<T, T::Error>> + Send;
}
impl<T: FromRequestWith> ResolveWithState<T> for &ResolveProbe<T> {
    fn __rl_bind(&self, b: &mut Bindings<'_>, meta: &'static ParamMeta) -> Result<Arc<T::State>, StartupError> {
        T::bind(b, meta).map(Arc::new)
    }
    #[inline]
    fn __rl_resolve<'a>(
        &self,
        req: &'a RequestContext,
        slot: &'a Arc<T::State>,
        _: &'a ResolveContext,
    ) -> impl Future<Output = Result<T, T::Error>> + Send {
        T::from_request(req, slot)
    }
}

/// Anything else: claimed by a registered factory at startup.
pub trait ResolveClaimed<T> {
    /// Asks the factories at startup.
    ///
    /// # Errors
    /// When no factory claims the parameter.
    fn __rl_bind(&self, b: &mut Bindings<'_>, meta: &'static ParamMeta) -> Result<Claimed<T>, StartupError>;
    /// Resolves for one request.
    fn __rl_resolve<'a>(
        &self,
        req: &'a RequestContext,
        slot: &'a Claimed<T>,
        cx: &'a ResolveContext,
    ) -> impl Future<Output = Result<T, HttpError>> + Send;
}
impl<T: Send + 'static> ResolveClaimed<T> for ResolveProbe<T> {
    fn __rl_bind(&self, b: &mut Bindings<'_>, meta: &'static ParamMeta) -> Result<Claimed<T>, StartupError> {
        b.claim::<T>(meta)
    }
    fn __rl_resolve<'a>(
        &self,
        req: &'a RequestContext,
        slot: &'a Claimed<T>,
        cx: &'a ResolveContext,
    ) -> impl Future<Output = Result<T, HttpError>> + Send {
        slot.resolve(req, cx)
    }
}

/// Compile-time check that a `#[request_attribute]` type can be stored on
/// a request; the macro spans the call at the user's type.
pub const fn assert_attribute<T: RequestAttribute>() {}

/// Types a request attribute can have.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a request attribute",
    label = "request attributes are `Send + Sync + 'static` values",
    note = "request attributes live in the request's extensions: store and read an owned, thread-safe type (wrap it in a newtype, or in `Arc`)"
)]
pub trait RequestAttribute: Send + Sync + 'static {}
impl<T: Send + Sync + 'static> RequestAttribute for T {}

/// The request attribute of type `T`, if set.
#[inline]
#[must_use]
pub fn attribute<T: RequestAttribute>(req: &RequestContext) -> Option<&T> {
    req.attribute::<T>()
}

/// The 500 for a required request attribute nobody stored: a programming
/// error, logged once per route and parameter (`logged` is the generated
/// code's flag for it) and not again by the dispatcher.
#[cold]
#[must_use]
pub fn missing_attribute(meta: &ParamMeta, route: &str, type_name: &str, logged: &AtomicBool) -> Response {
    let detail = format!(
        "the request attribute `{type_name}` of parameter `{}` is not set: no filter or interceptor stored it",
        meta.name
    );
    if !logged.swap(true, Ordering::Relaxed) {
        tracing::error!(
            route,
            parameter = meta.name,
            "{detail} (take `Option<{type_name}>` if it may be absent; logged once per route)"
        );
    }
    let mut res = HttpError::internal(detail).with("parameter", meta.name).with("attribute", type_name).into_response();
    res.extensions_mut().insert(crate::resolve::Logged);
    res
}
