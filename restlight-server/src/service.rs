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
use restlight_core::App;

use crate::activity::{Activity, InFlight};
use crate::limits::{note_body_poll, TimedBody, H2_PIECE};
use crate::ops::{Counted, Finish, Observe, Pending};

type CoreBody = restlight_core::Body;
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// One connection's service.
#[derive(Debug, Clone)]
pub(crate) struct AppService {
    app: App,
    remote: SocketAddr,
    activity: Arc<Activity>,
    body_read_timeout: Duration,
    /// Metrics and access log, when either is on.
    observe: Option<Arc<Observe>>,
}

impl AppService {
    pub(crate) fn new(
        app: App,
        remote: SocketAddr,
        activity: Arc<Activity>,
        body_read_timeout: Duration,
        observe: Option<Arc<Observe>>,
    ) -> Self {
        Self { app, remote, activity, body_read_timeout, observe }
    }
}

impl hyper::service::Service<http::Request<Incoming>> for AppService {
    type Response = http::Response<ResponseBody>;
    type Error = Infallible;
    type Future = Responding;

    fn call(&self, req: http::Request<Incoming>) -> Self::Future {
        let in_flight = self.activity.begin();
        let pending = self.observe.as_ref().map(|o| o.begin(&req, self.remote));
        let version = req.version();
        let dispatch = match crate::strict::screen(&req, &self.app) {
            None => {
                let metrics = self.observe.as_ref().and_then(|o| o.metrics().cloned());
                let req = req.map(|body| Counted::new(TimedBody::new(body, self.body_read_timeout), metrics));
                // The matched route is read only by the metrics and access log.
                let mark = pending.is_some();
                self.app.dispatch_boxed(req, Some(self.remote), mark)
            }
            Some(refused) => Box::pin(std::future::ready(refused)),
        };
        Responding { dispatch, version, pending, in_flight: Some(in_flight) }
    }
}

/// The future of one request: the application's (boxed once, by the
/// application) and what the server adds to its answer.
pub(crate) struct Responding {
    dispatch: BoxFuture<restlight_core::Response>,
    version: http::Version,
    pending: Option<Pending>,
    in_flight: Option<InFlight>,
}

impl Future for Responding {
    type Output = Result<http::Response<ResponseBody>, Infallible>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut response = std::task::ready!(self.dispatch.as_mut().poll(cx));
        if closes_connection(&response, self.version) {
            response.headers_mut().insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
        }
        let finish = self.pending.take().map(|p| p.respond(&mut response));
        let in_flight = self.in_flight.take();
        let h2 = self.version == http::Version::HTTP_2;
        Poll::Ready(Ok(response.map(|body| ResponseBody {
            inner: body,
            finish,
            _in_flight: in_flight,
            h2,
            rest: None,
        })))
    }
}

/// Whether an HTTP/1 answer ends its connection: a 413 or 408 leaves the
/// rest of the request body unread, so the connection cannot carry another
/// request. Saying so lets the client open a new one instead of sending its
/// next request into a connection the server is closing.
fn closes_connection(res: &restlight_core::Response, version: http::Version) -> bool {
    matches!(res.status(), http::StatusCode::PAYLOAD_TOO_LARGE | http::StatusCode::REQUEST_TIMEOUT)
        && version < http::Version::HTTP_2
}

/// The application's response body, keeping its request in flight until it
/// has been sent or dropped.
///
/// On HTTP/2 it hands data over in pieces of at most [`H2_PIECE`] bytes and
/// tells the stream's watcher what it handed over (see `limits/stall.rs`),
/// for the write timeout of a stream whose client stops reading.
pub(crate) struct ResponseBody {
    inner: CoreBody,
    /// Records metrics and the access-log line when dropped.
    finish: Option<Finish>,
    _in_flight: Option<InFlight>,
    /// Served over HTTP/2.
    h2: bool,
    /// HTTP/2: what is left of a piece of the body larger than [`H2_PIECE`].
    rest: Option<Bytes>,
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
        let mut polled = match self.rest.take() {
            Some(rest) => Poll::Ready(Some(Ok(Frame::data(rest)))),
            None => {
                let polled = Pin::new(&mut self.inner).poll_frame(cx);
                if let (Some(finish), Poll::Ready(Some(Ok(frame)))) = (&mut self.finish, &polled) {
                    if let Some(data) = frame.data_ref() {
                        finish.sent(data.len());
                    }
                }
                polled
            }
        };
        if self.h2 {
            let mut handed = false;
            if let Poll::Ready(Some(Ok(frame))) = &mut polled {
                if let Some(data) = frame.data_mut() {
                    if data.len() > H2_PIECE {
                        self.rest = Some(data.split_off(H2_PIECE));
                    }
                    handed = !data.is_empty();
                }
            }
            note_body_poll(handed);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_none() && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let mut hint = self.inner.size_hint();
        if let Some(rest) = &self.rest {
            let extra = rest.len() as u64;
            if let Some(upper) = hint.upper() {
                hint.set_upper(upper + extra);
            }
            hint.set_lower(hint.lower() + extra);
        }
        hint
    }
}
