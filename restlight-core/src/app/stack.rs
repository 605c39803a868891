//! The request path above [`Routing`], assembled once at startup:
//!
//! ```text
//! tower layers (first added outermost) → filters (in order) → Routing
//! ```
//!
//! An application without layers or filters enters [`Routing`] directly,
//! with the server's body type and no allocation; one with filters only
//! boxes the body once; tower layers see `http::Request<Body>`. Each stage
//! holds the stage below it, never the application: nothing calls back up.
//!
//! The application is also a `tower::Service`, for other servers.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::ACCEPT;
use http::Request;
use tower::util::BoxCloneSyncService;
use tower::{Service, ServiceExt};

use super::dispatch::{write, Written};
use super::{App, Routing};
use crate::body::Body;
use crate::error::BoxError;
use crate::executor::ReceivedAt;
use crate::filter::{Chain, DynFilter, Endpoint};
use crate::handler::BoxFuture;
use crate::layer::{AppStack, RemoteAddr, Wrap};
use crate::media::Accept;
use crate::response::Response;

/// How a request enters the application.
pub(crate) enum Entry {
    /// Straight into the routing.
    Direct,
    /// Through the filters.
    Filtered(Arc<Chain>),
    /// Through the tower layers (and the filters below them, if any).
    Layered(AppStack),
}

impl Entry {
    /// Assembles the stack over `routing`.
    pub(crate) fn new(routing: &Routing, filters: Vec<Box<dyn DynFilter>>, layers: Vec<Wrap>) -> Self {
        let chain = (!filters.is_empty()).then(|| {
            let end: Arc<dyn Endpoint> = Arc::new(routing.clone());
            Arc::new(Chain::new(filters.into_boxed_slice(), end))
        });
        if layers.is_empty() {
            return chain.map_or(Self::Direct, Self::Filtered);
        }
        let bottom = match chain {
            Some(chain) => bottom(move |req, remote| {
                let chain = Arc::clone(&chain);
                Box::pin(async move { chain.run(req, remote).await })
            }),
            None => {
                let routing = routing.clone();
                bottom(move |req, remote| Box::pin(routing.serve(req, remote, true, None)))
            }
        };
        Self::Layered(layers.into_iter().rev().fold(bottom, |svc, wrap| wrap(svc)))
    }

    /// One request through the stack. `mark` asks for
    /// [`MatchedRoute`](crate::MatchedRoute) on the response; below
    /// filters and layers it is always set, since they may read it.
    pub(crate) async fn call<B>(
        &self,
        routing: &Routing,
        req: Request<B>,
        remote: Option<SocketAddr>,
        mark: bool,
    ) -> Response
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        match self {
            Self::Direct => routing.serve(req, remote, mark, None).await,
            Self::Filtered(chain) => {
                let accept = req.headers().get(ACCEPT).cloned();
                let mut req = req.map(Body::from_stream);
                arrived(&mut req);
                let res = chain.run(req, remote).await;
                encode_left(res, routing, accept.as_ref())
            }
            Self::Layered(stack) => {
                let accept = req.headers().get(ACCEPT).cloned();
                let mut req = req.map(Body::from_stream);
                arrived(&mut req);
                if let Some(addr) = remote {
                    req.extensions_mut().insert(RemoteAddr(addr));
                }
                let res = match stack.clone().oneshot(req).await {
                    Ok(res) => res,
                    Err(never) => match never {},
                };
                encode_left(res, routing, accept.as_ref())
            }
        }
    }
}

/// Time-to-first-byte counts from before the filters and layers.
fn arrived(req: &mut Request<Body>) {
    if req.extensions().get::<ReceivedAt>().is_none() {
        req.extensions_mut().insert(ReceivedAt(std::time::Instant::now()));
    }
}

/// A response a filter or layer made itself may carry an entity not
/// encoded yet (`Entity(..)`): it is written here, with any codec.
fn encode_left(res: Response, routing: &Routing, accept: Option<&http::HeaderValue>) -> Response {
    if !res.body().is_deferred() {
        return res;
    }
    let accept = Accept::new(accept.and_then(|v| v.to_str().ok()));
    write(res, &Written::none(routing.codecs()), &accept, false)
}

/// The bottom of the layered stack: the filters or the routing, reading
/// the peer's address from the [`RemoteAddr`] extension.
fn bottom<F>(serve: F) -> AppStack
where
    F: Fn(Request<Body>, Option<SocketAddr>) -> BoxFuture<Response> + Clone + Send + Sync + 'static,
{
    BoxCloneSyncService::new(tower::service_fn(move |req: Request<Body>| {
        let remote = req.extensions().get::<RemoteAddr>().map(|r| r.0);
        let fut = serve(req, remote);
        async move { Ok::<_, Infallible>(fut.await) }
    }))
}

impl Endpoint for Routing {
    fn call(&self, req: Request<Body>, remote: Option<SocketAddr>) -> BoxFuture<Response> {
        Box::pin(self.serve(req, remote, true, None))
    }
}

impl<B> Service<Request<B>> for App
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<Result<Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let app = self.clone();
        let remote = req.extensions().get::<RemoteAddr>().map(|r| r.0);
        Box::pin(async move { Ok(app.dispatch(req, remote).await) })
    }
}

impl App {
    /// The application as a `tower::Service` (it is one already; this
    /// names the intent at call sites that need a service value).
    #[must_use]
    pub fn into_service(self) -> Self {
        self
    }
}
