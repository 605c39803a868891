//! The hyper service: hands each request to the application.
//!
//! The request's future is hyper's to drive and to drop: hyper drops it when
//! an HTTP/2 stream is reset or an HTTP/1 connection closes, and nothing here
//! detaches it. Executors bound to routes tie their work to it as well.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use restlight_core::__private::Dispatched;
use restlight_core::App;

use crate::activity::{Activity, InFlight};
use crate::limits::{note_body_poll, BodyRead, TimedBody, H2_PIECE};
use crate::ops::{Counted, Finish, Observe, Pending};
use crate::strict::KnownHost;

type CoreBody = restlight_core::Body;

/// One connection's service; `P` is how its response bodies are handed
/// over: whole on HTTP/1 (`()`), in pieces on HTTP/2 ([`H2Pieces`]).
#[derive(Debug, Clone)]
pub(crate) struct AppService<P = ()> {
    app: App,
    remote: SocketAddr,
    activity: Arc<Activity>,
    body_read: BodyRead,
    /// Metrics and access log, when either is on.
    observe: Option<Arc<Observe>>,
    /// The connection's last valid `Host`, for the strict checks.
    known_host: KnownHost,
    _pieces: PhantomData<fn() -> P>,
}

impl<P> AppService<P> {
    pub(crate) fn new(
        app: App,
        remote: SocketAddr,
        activity: Arc<Activity>,
        body_read: BodyRead,
        observe: Option<Arc<Observe>>,
    ) -> Self {
        Self { app, remote, activity, body_read, observe, known_host: KnownHost::default(), _pieces: PhantomData }
    }
}

impl<P: Pieces> hyper::service::Service<http::Request<Incoming>> for AppService<P> {
    type Response = http::Response<ResponseBody<P>>;
    type Error = Infallible;
    type Future = Responding<P>;

    fn call(&self, mut req: http::Request<Incoming>) -> Self::Future {
        let in_flight = self.activity.begin();
        let pending = self.observe.as_ref().map(|o| o.begin(&req, self.remote));
        let version = req.version();
        if let Some(refusal) = crate::strict::check(&mut req, &self.known_host) {
            let dispatch = Dispatched::ready(crate::strict::refuse(&req, &self.app, refusal));
            return Responding { dispatch, version, pending, in_flight: Some(in_flight), _pieces: PhantomData };
        }
        let metrics = self.observe.as_ref().and_then(|o| o.metrics().cloned());
        // The head is handed over as it is: wrapping the body in the
        // request (`Request::map`) would move the head once more.
        let (parts, body) = req.into_parts();
        let body = Counted::new(TimedBody::new(body, self.body_read), metrics);
        // The matched route is read only by the metrics, the access log and
        // the request's span.
        let mark = pending.as_ref().is_some_and(Pending::needs_route);
        let tags = pending.as_ref().and_then(Pending::tags);
        // Routing and the handler's call happen now: in the request's span.
        // Without a span the application's future is built where this
        // future keeps it.
        match pending.as_ref().and_then(Pending::span) {
            Some(span) => {
                let dispatch = span.in_scope(|| self.app.dispatch_server(parts, body, Some(self.remote), mark, tags));
                Responding { dispatch, version, pending, in_flight: Some(in_flight), _pieces: PhantomData }
            }
            None => Responding {
                dispatch: self.app.dispatch_server(parts, body, Some(self.remote), mark, tags),
                version,
                pending,
                in_flight: Some(in_flight),
                _pieces: PhantomData,
            },
        }
    }
}

/// The future of one request: the application's (kept here unboxed when
/// the application has no filters or layers) and what the server adds to
/// its answer.
pub(crate) struct Responding<P> {
    dispatch: Dispatched,
    version: http::Version,
    pending: Option<Pending>,
    in_flight: Option<InFlight>,
    _pieces: PhantomData<fn() -> P>,
}

impl<P: Pieces> Future for Responding<P> {
    type Output = Result<http::Response<ResponseBody<P>>, Infallible>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        // The handler (when it runs here) and its own spans run in the
        // request's span.
        let entered = this.pending.as_ref().and_then(Pending::span).map(tracing::Span::enter);
        let polled = Pin::new(&mut this.dispatch).poll(cx);
        drop(entered);
        let mut response = std::task::ready!(polled);
        if closes_connection(&response, self.version) {
            response.headers_mut().insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
        }
        let in_flight = self.in_flight.take();
        let finish = match (self.pending.take(), &in_flight) {
            (Some(pending), Some(in_flight)) => pending.respond(&mut response, self.version, in_flight.activity()),
            _ => None,
        };
        Poll::Ready(Ok(response.map(|body| ResponseBody {
            inner: body,
            finish,
            _in_flight: in_flight,
            rest: P::default(),
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

/// How a response body is handed over to hyper.
pub(crate) trait Pieces: Default + Send + Sync + Unpin + 'static {
    /// Whether data is cut into pieces and the stream's watcher told about them.
    const H2: bool;
    /// What is left of the last piece, if anything.
    fn take(&mut self) -> Option<Bytes>;
    /// Keeps what is left of a piece.
    fn keep(&mut self, rest: Bytes);
    /// Whether something is left.
    fn left(&self) -> usize;
}

/// HTTP/1: data is handed over as the application made it; hyper writes it
/// to the socket, whose write timeout covers a client that stops reading.
impl Pieces for () {
    const H2: bool = false;
    fn take(&mut self) -> Option<Bytes> {
        None
    }
    fn keep(&mut self, _rest: Bytes) {}
    fn left(&self) -> usize {
        0
    }
}

/// HTTP/2: data is handed over in pieces of at most [`H2_PIECE`] bytes, and
/// the stream's watcher is told what was handed over (see
/// `limits/stall.rs`), for the write timeout of a stream whose client stops
/// taking its response. Holds what is left of a larger piece.
#[derive(Debug, Default)]
pub(crate) struct H2Pieces(Option<Bytes>);

impl Pieces for H2Pieces {
    const H2: bool = true;
    fn take(&mut self) -> Option<Bytes> {
        self.0.take()
    }
    fn keep(&mut self, rest: Bytes) {
        self.0 = Some(rest);
    }
    fn left(&self) -> usize {
        self.0.as_ref().map_or(0, Bytes::len)
    }
}

/// The application's response body, keeping its request in flight until it
/// has been sent or dropped.
pub(crate) struct ResponseBody<P> {
    inner: CoreBody,
    /// Records metrics and the access-log line when dropped.
    finish: Option<Finish>,
    _in_flight: Option<InFlight>,
    /// What is left of a piece (HTTP/2 only; nothing on HTTP/1).
    rest: P,
}

impl<P> fmt::Debug for ResponseBody<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseBody").field("size_hint", &self.inner.size_hint()).finish_non_exhaustive()
    }
}

impl<P: Pieces> Body for ResponseBody<P> {
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
        if P::H2 {
            let mut handed = false;
            if let Poll::Ready(Some(Ok(frame))) = &mut polled {
                if let Some(data) = frame.data_mut() {
                    if data.len() > H2_PIECE {
                        let rest = data.split_off(H2_PIECE);
                        self.rest.keep(rest);
                    }
                    handed = !data.is_empty();
                }
            }
            note_body_poll(handed);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.rest.left() == 0 && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let mut hint = self.inner.size_hint();
        let extra = self.rest.left() as u64;
        if extra > 0 {
            if let Some(upper) = hint.upper() {
                hint.set_upper(upper + extra);
            }
            hint.set_lower(hint.lower() + extra);
        }
        hint
    }
}
