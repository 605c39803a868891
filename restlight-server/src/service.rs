//! The hyper service: hands each request to the application.
//!
//! The request's future is hyper's to drive and to drop: hyper drops it when
//! an HTTP/2 stream is reset or an HTTP/1 connection closes, and nothing here
//! detaches it. Executors bound to routes tie their work to it as well.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use restlight_core::{App, ReceivedAt};

use crate::activity::{Activity, InFlight};
use crate::limits::TimedBody;

type CoreBody = restlight_core::Body;
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// One connection's service.
#[derive(Debug, Clone)]
pub(crate) struct AppService {
    app: App,
    remote: SocketAddr,
    activity: Arc<Activity>,
    body_read_timeout: Duration,
}

impl AppService {
    pub(crate) fn new(app: App, remote: SocketAddr, activity: Arc<Activity>, body_read_timeout: Duration) -> Self {
        Self { app, remote, activity, body_read_timeout }
    }
}

impl hyper::service::Service<http::Request<Incoming>> for AppService {
    type Response = http::Response<ResponseBody>;
    type Error = Infallible;
    type Future = BoxFuture<Result<Self::Response, Infallible>>;

    fn call(&self, mut req: http::Request<Incoming>) -> Self::Future {
        req.extensions_mut().insert(ReceivedAt(std::time::Instant::now()));
        let app = self.app.clone();
        let remote = self.remote;
        let in_flight = self.activity.begin();
        let req = req.map(|body| TimedBody::new(body, self.body_read_timeout));
        Box::pin(async move {
            let response = app.dispatch(req, Some(remote)).await;
            Ok(response.map(|body| ResponseBody { inner: body, _in_flight: in_flight }))
        })
    }
}

/// The application's response body, keeping its request in flight until it
/// has been sent or dropped.
pub(crate) struct ResponseBody {
    inner: CoreBody,
    _in_flight: InFlight,
}

impl fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseBody").field("size_hint", &self.inner.size_hint()).finish_non_exhaustive()
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = <CoreBody as Body>::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
