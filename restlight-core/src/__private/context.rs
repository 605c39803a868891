//! `#[context]` parameters: a part of the request or an application bean.

use super::*;

/// Parts of the request a `#[context]` parameter can borrow.
pub trait FromRequestRef {
    /// Borrows the part.
    fn from_request_ref(ctx: &RequestContext) -> &Self;
}

impl FromRequestRef for RequestContext {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx
    }
}

impl FromRequestRef for HeaderMap {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.headers()
    }
}

impl FromRequestRef for Uri {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.uri()
    }
}

impl FromRequestRef for Method {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.method()
    }
}

impl FromRequestRef for crate::RequestId {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.request_id()
    }
}

impl FromRequestRef for crate::TraceContext {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.trace_context()
    }
}

/// What a `#[context]` parameter was bound to at startup: nothing for a part
/// of the request, the bean for anything else.
pub type ContextSlot<T> = Option<Arc<T>>;

/// Selects how a `#[context]` parameter of type `T` is bound.
#[derive(Debug)]
pub struct ContextProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> ContextProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T: ?Sized> Default for ContextProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// `#[context]` on a part of the request.
pub trait ContextRequest<T> {
    /// Binds at startup (nothing to bind).
    ///
    /// # Errors
    /// Never.
    fn __rl_bind(&self, b: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError>;
    /// Borrows the value for one request.
    fn __rl_get<'a>(&self, ctx: &'a RequestContext, slot: &'a ContextSlot<T>) -> &'a T;
}
impl<T: FromRequestRef> ContextRequest<T> for &&ContextProbe<T> {
    fn __rl_bind(&self, _: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError> {
        Ok(None)
    }
    fn __rl_get<'a>(&self, ctx: &'a RequestContext, _: &'a ContextSlot<T>) -> &'a T {
        T::from_request_ref(ctx)
    }
}

/// `#[context]` on an application bean.
pub trait ContextBean<T> {
    /// Binds the bean at startup.
    ///
    /// # Errors
    /// When no bean of type `T` is registered.
    fn __rl_bind(&self, b: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError>;
    /// Borrows the bean for one request.
    fn __rl_get<'a>(&self, ctx: &'a RequestContext, slot: &'a ContextSlot<T>) -> &'a T;
}
impl<T: Send + Sync + 'static> ContextBean<T> for &ContextProbe<T> {
    fn __rl_bind(&self, b: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError> {
        b.bean::<T>().map(Some)
    }
    fn __rl_get<'a>(&self, _: &'a RequestContext, slot: &'a ContextSlot<T>) -> &'a T {
        slot.as_deref().expect("bean bound at startup")
    }
}
