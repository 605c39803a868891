//! Filters: async code around every request, before routing.
//!
//! A [`Filter`] gets the request and a [`Next`]: it can answer by itself
//! (short-circuit), or call [`Next::run`] to pass the request on (changed
//! or not) to the next filter and finally to the router, and then change
//! the response. Filters run in registration order; an application without
//! filters pays nothing for them.
//!
//! Any `Fn(Request<Body>, Next) -> impl Future<Output = Response>` is a
//! filter:
//!
//! ```
//! use restlight_core::{get, AppBuilder, test::MockClient};
//! use restlight_core::filter::Next;
//!
//! let app = AppBuilder::new()
//!     .route(get("/ping").handle(|_| async { "pong" }))
//!     .filter(|req: http::Request<restlight_core::Body>, next: Next| async move {
//!         let mut res = next.run(req).await;
//!         res.headers_mut().insert("x-served-by", http::HeaderValue::from_static("restlight"));
//!         res
//!     })
//!     .build()
//!     .unwrap();
//! let res = MockClient::new(app).get("/ping").send_blocking();
//! assert_eq!(res.header("x-served-by"), Some("restlight"));
//! ```

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use crate::body::Body;
use crate::handler::BoxFuture;
use crate::response::Response;

/// The request as filters see it: the head as received and the body not
/// yet read.
pub type FilterRequest = http::Request<Body>;

/// Async code around every request, before routing (see the [module docs](self)).
pub trait Filter: Send + Sync + 'static {
    /// Handles the request: answer it, or pass it on with `next.run(req).await`.
    fn filter(&self, req: FilterRequest, next: Next) -> impl Future<Output = Response> + Send;
}

impl<F, Fut> Filter for F
where
    F: Fn(FilterRequest, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    fn filter(&self, req: FilterRequest, next: Next) -> impl Future<Output = Response> + Send {
        self(req, next)
    }
}

/// [`Filter`] with its future boxed.
pub(crate) trait DynFilter: Send + Sync {
    fn call(&self, req: FilterRequest, next: Next) -> BoxFuture<Response>;
}

/// A filter held by the application.
pub(crate) struct Boxed<F>(pub(crate) Arc<F>);

impl<F: Filter> DynFilter for Boxed<F> {
    fn call(&self, req: FilterRequest, next: Next) -> BoxFuture<Response> {
        let f = Arc::clone(&self.0);
        Box::pin(async move { f.filter(req, next).await })
    }
}

/// The filters of an application, in order, then the routing.
pub(crate) struct Chain {
    filters: Box<[Box<dyn DynFilter>]>,
    end: Arc<dyn Endpoint>,
}

/// What the filter chain ends in: the routing.
pub(crate) trait Endpoint: Send + Sync {
    /// Serves a request that went through every filter.
    fn call(&self, req: FilterRequest, remote: Option<SocketAddr>) -> BoxFuture<Response>;
}

impl Chain {
    pub(crate) fn new(filters: Box<[Box<dyn DynFilter>]>, end: Arc<dyn Endpoint>) -> Self {
        Self { filters, end }
    }

    /// One request through the filters, from the first.
    pub(crate) async fn run(self: &Arc<Self>, req: FilterRequest, remote: Option<SocketAddr>) -> Response {
        Next { chain: Arc::clone(self), remote, index: 0 }.run(req).await
    }
}

/// The rest of the filter chain, then the router.
pub struct Next {
    chain: Arc<Chain>,
    remote: Option<SocketAddr>,
    index: usize,
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next").field("index", &self.index).finish_non_exhaustive()
    }
}

impl Next {
    /// The peer's address, when served over a socket.
    #[must_use]
    pub fn remote_addr(&self) -> Option<SocketAddr> {
        self.remote
    }

    /// Passes the request to the next filter, or to the router after the last.
    pub async fn run(self, req: FilterRequest) -> Response {
        let Self { chain, remote, index } = self;
        match chain.filters.get(index) {
            Some(f) => f.call(req, Self { chain: Arc::clone(&chain), remote, index: index + 1 }).await,
            None => chain.end.call(req, remote).await,
        }
    }
}
