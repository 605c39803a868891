//! [`Handler`]: what a route runs, and [`BoxFuture`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::request::RequestContext;
use crate::response::Response;

/// A boxed, sendable future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type HandlerFn = dyn Fn(RequestContext) -> BoxFuture<Response> + Send + Sync;

/// A route's handler: takes the request, yields the response.
///
/// Parameter resolution, the call and the conversion of the return value all
/// happen inside; errors are already responses (problem details).
#[derive(Clone)]
pub struct Handler(Arc<HandlerFn>);

impl Handler {
    /// Wraps a function returning a boxed future.
    pub fn new<F>(f: F) -> Self
    where
        F: Fn(RequestContext) -> BoxFuture<Response> + Send + Sync + 'static,
    {
        Self(Arc::new(f))
    }

    /// Runs the handler.
    #[must_use]
    pub fn call(&self, ctx: RequestContext) -> BoxFuture<Response> {
        (self.0)(ctx)
    }
}

impl fmt::Debug for Handler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Handler")
    }
}
