//! Tower: any `tower::Layer` around the application, and the application
//! as a `tower::Service` for other servers.
//!
//! Layers added with [`AppBuilder::layer`](crate::AppBuilder::layer) wrap
//! everything else (filters, routing, interceptors): the first added is the
//! outermost, as with `tower::ServiceBuilder`. Their response bodies and
//! errors are adapted: a body that is not a [`Body`] becomes a streamed one,
//! an error a 500 problem.
//!
//! ```
//! use restlight_core::{get, AppBuilder, test::MockClient};
//! use tower::util::MapResponseLayer;
//!
//! let app = AppBuilder::new()
//!     .route(get("/ping").handle(|_| async { "pong" }))
//!     .layer(MapResponseLayer::new(|mut res: http::Response<restlight_core::Body>| {
//!         res.headers_mut().insert("x-layer", http::HeaderValue::from_static("1"));
//!         res
//!     }))
//!     .build()
//!     .unwrap();
//! assert_eq!(MockClient::new(app).get("/ping").send_blocking().header("x-layer"), Some("1"));
//! ```
//!
//! The other way round, [`App`](crate::App) is a `tower::Service<http::Request<B>>`
//! for any body, so hyper-util, axum (`Router::fallback_service`) or any
//! tower-based server can serve it; it reads the peer's address from a
//! [`RemoteAddr`] request extension if there is one.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::Request;
use tower::util::BoxCloneSyncService;
use tower::{Layer, Service, ServiceExt};

use crate::body::Body;
use crate::error::{BoxError, HttpError};
use crate::handler::BoxFuture;
use crate::response::{IntoResponse, Response};

/// The service a layer added to the application wraps: the application
/// behind the layers added before it.
pub type AppStack = BoxCloneSyncService<Request<Body>, Response, Infallible>;

/// The peer's address, as a request extension: set it when serving an
/// [`App`](crate::App) through its `tower::Service` impl to make
/// [`RequestContext::remote_addr`](crate::RequestContext::remote_addr) work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RemoteAddr(pub SocketAddr);

/// Wraps a stack in one layer, adapting body and error.
pub(crate) type Wrap = Box<dyn FnOnce(AppStack) -> AppStack + Send>;

pub(crate) fn wrap<L, S, ResB>(layer: L) -> Wrap
where
    L: Layer<AppStack, Service = S> + Send + 'static,
    S: Service<Request<Body>, Response = http::Response<ResB>> + Clone + Send + Sync + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
    ResB: http_body::Body<Data = Bytes> + Send + 'static,
    ResB::Error: Into<BoxError>,
{
    Box::new(move |inner: AppStack| BoxCloneSyncService::new(Adapt(layer.layer(inner))))
}

/// A layered service whose errors are answered and whose body is boxed.
#[derive(Clone)]
struct Adapt<S>(S);

impl<S, ResB> Service<Request<Body>> for Adapt<S>
where
    S: Service<Request<Body>, Response = http::Response<ResB>> + Clone + Send + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
    ResB: http_body::Body<Data = Bytes> + Send + 'static,
    ResB::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<Result<Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // Readiness is awaited per call, where an error can become a response.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let svc = self.0.clone();
        Box::pin(async move {
            Ok(match svc.oneshot(req).await {
                Ok(res) => res.map(into_body),
                Err(e) => error_response(&e.into()),
            })
        })
    }
}

/// A layer's response body as Restlight's: kept as it is when it is one
/// already (an entity not encoded yet stays one, for the codecs), else
/// streamed.
fn into_body<B>(body: B) -> Body
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let mut slot = Some(body);
    if let Some(own) = (&mut slot as &mut dyn std::any::Any).downcast_mut::<Option<Body>>().and_then(Option::take) {
        return own;
    }
    slot.map_or_else(Body::empty, Body::from_stream)
}

fn error_response(e: &BoxError) -> Response {
    HttpError::internal(format!("a layer failed: {e}")).into_response()
}
