//! [`Routing`]: the bottom of the request path, below the tower layers and
//! the filters. One request goes through it top to bottom, once:
//!
//! 1. the URL's format (`?format=`, `.json`; off by default) and `Accept`,
//!    read as text once;
//! 2. the router of the current [`Table`] (404, 405, 415, 406, OPTIONS);
//! 3. the body, read in full up to the route's limit (413) or handed over
//!    as a stream;
//! 4. the route's handler (its interceptors and exception mappers are
//!    compiled into it) on the route's executor (429, 503, 504);
//! 5. [`write`]: the deferred entity encoded by the negotiated codec, the
//!    `Content-Type`, problem details as text for text-only clients, HEAD;
//! 6. compression, when the route allows it.
//!
//! Nothing here calls back up into the application.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use arc_swap::ArcSwap;
use bytes::{Bytes, BytesMut};
use http::header::{HeaderValue, ACCEPT, ACCEPT_ENCODING, ALLOW, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use http::{Request, StatusCode, Version};

use super::{CompiledRoute, MatchedRoute, Table};
use crate::body::Body;
use crate::codec::url_format::{FromUrl, UrlFormat};
use crate::codec::{self, Codec, Codecs, EntityCodecs};
use crate::compress::{self, CompressOptions};
use crate::error::{BoxError, HttpError};
use crate::executor::{Exec, ReceivedAt};
use crate::handler::{BoxFuture, Immediate};
use crate::media::{best_of, Accept, MediaType};
use crate::request::RequestContext;
use crate::response::{IntoResponse, Response, TEXT_PLAIN};
use crate::router::{Facts, Lookup, RouteError};
use crate::stream::BodyStream;
use crate::trace::RequestTags;

/// The routes served now and what answering a request needs besides them.
/// Cheap to clone; clones share the table.
#[derive(Clone)]
pub(crate) struct Routing(Arc<Shared>);

struct Shared {
    /// The routes and their router, swapped whole when routes change: a
    /// request loads it once, without a lock.
    table: ArcSwap<Table>,
    codecs: Arc<Codecs>,
    url_format: UrlFormat,
    compression: CompressOptions,
}

impl Routing {
    pub(crate) fn new(table: Table, codecs: Arc<Codecs>, url_format: UrlFormat, compression: CompressOptions) -> Self {
        Self(Arc::new(Shared { table: ArcSwap::from_pointee(table), codecs, url_format, compression }))
    }

    /// The table served now.
    pub(crate) fn table(&self) -> Arc<Table> {
        self.0.table.load_full()
    }

    /// Serves `table` from now on; requests in flight keep theirs.
    pub(crate) fn publish(&self, table: Table) {
        self.0.table.store(Arc::new(table));
    }

    /// The application's codecs.
    pub(crate) fn codecs(&self) -> &Codecs {
        &self.0.codecs
    }

    /// Serves one request, from routing to compression. `mark` puts
    /// [`MatchedRoute`] in the response's extensions (an allocation, so only
    /// when someone reads it); `tags` are the request ID and trace context
    /// the server gave the request, for its [`RequestContext`].
    ///
    /// Routing, reading the head and calling the handler happen now, when
    /// this is called; the future returned ([`Serving`], a named type, so a
    /// server keeps it where it lies instead of boxing it) only waits for
    /// the handler and writes its answer. Reading a body and running off
    /// the IO executor or within a time limit are boxed futures of their
    /// own.
    pub(crate) fn serve<B>(
        &self,
        req: Request<B>,
        remote: Option<SocketAddr>,
        mark: bool,
        tags: Option<Arc<RequestTags>>,
    ) -> Serving
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let (parts, body) = req.into_parts();
        self.serve_parts(parts, body, remote, mark, tags)
    }

    /// [`serve`](Self::serve) for a request given as its head and its body:
    /// everything up to the handler's call, or the answer when there is
    /// nothing to call.
    pub(crate) fn serve_parts<B>(
        &self,
        parts: http::request::Parts,
        body: B,
        remote: Option<SocketAddr>,
        mark: bool,
        tags: Option<Arc<RequestTags>>,
    ) -> Serving
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let shared = &*self.0;
        let heads = Heads::of(&parts.headers);
        let header_text = text(heads.accept);
        let mut url = match shared.url_format.resolve(&parts.uri, &shared.codecs) {
            Ok(url) => url,
            Err(e) => return Serving::Answered(Some(error(e, &Accept::new(header_text)))),
        };
        // The URL's format stands for `Accept`. Either is read as text once,
        // and its ranges parsed at most once: by the router when it has
        // types to choose from, and then the writer uses its choice.
        let url_accept = url.accept();
        let first = Accept::new(text(url_accept.as_ref()).or(header_text));
        if parts.version == Version::HTTP_11 && !heads.host && parts.uri.authority().is_none() {
            return Serving::Answered(Some(error(
                HttpError::bad_request("HTTP/1.1 request without a Host header"),
                &first,
            )));
        }
        let content_type = heads.content_type.map(|v| v.to_str().unwrap_or("\u{0}"));
        let path = parts.uri.path();
        // The table of this moment; the matched route is kept for the rest
        // of the request, whatever changes meanwhile.
        let table = shared.table.load();
        let facts = Facts::new(parts.uri.query(), Some(&parts.headers));
        let mut lookup =
            table.router.lookup_accepting(&parts.method, &path[..url.path_len], content_type, &first, &facts);
        let fallback;
        let mut accept = &first;
        let mut accept_value = url_accept.as_ref().or(heads.accept);
        if url.stripped && matches!(lookup, Err(RouteError::NotFound)) {
            // No route without the suffix: route the path as sent.
            url = FromUrl { path_len: path.len(), codec: None, stripped: false };
            fallback = Accept::new(header_text);
            accept = &fallback;
            accept_value = heads.accept;
            lookup = table.router.lookup_accepting(&parts.method, path, content_type, accept, &facts);
        }
        let found = match lookup {
            Ok(Lookup::Matched(m)) => m,
            Ok(Lookup::Options { allow }) => {
                let mut res = Response::new(Body::empty());
                res.headers_mut().insert(ALLOW, allow);
                res.headers_mut().insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
                return Serving::Answered(Some(res));
            }
            Err(e) => {
                let e = route_error(e, &parts.method, parts.uri.path(), &shared.codecs);
                return Serving::Answered(Some(error(e, accept)));
            }
        };
        // Borrowed from the table, which is held until the handler has
        // answered or a future is left to run: the route is cloned only
        // for that future.
        let route = &table.routes[found.index];
        let compress = route.compress && shared.compression.enabled;
        let accept_encoding = if compress { heads.accept_encoding } else { None };
        // A handler that reads nothing of the request, on a route run
        // inline without a time limit, with no body to read: it answers
        // now, and no request context is built for it (the head, the
        // captures and the tags are dropped with this call). Its answer is
        // written with what routing read, borrowed where it lies: the
        // `Accept` (its ranges parsed at most once), the negotiated type.
        if let Some(Immediate::NoInput(handler)) = route.immediate_inline() {
            if !route.stream_body && body.is_end_stream() {
                let how = Finish {
                    accept,
                    url_codec: url.codec.as_ref(),
                    produce: found.produce,
                    accept_encoding,
                    head: found.head_from_get,
                    compress,
                    mark,
                };
                return answer_now(handler, |res| how.finish(shared, route, res));
            }
        }
        let answer = Answer {
            accept: accept_value.cloned(),
            url_codec: url.codec,
            produce: found.produce.cloned(),
            head: found.head_from_get,
            accept_encoding: accept_encoding.cloned(),
            compress,
            mark,
        };
        // Read before the body: a bounded executor's time-to-first-byte
        // counts from here at the latest. The clock is read only for an
        // executor with that limit.
        let received = match parts.extensions.get::<ReceivedAt>() {
            Some(at) => Some(at.0),
            None => route.exec.needs_received_at().then(Instant::now),
        };
        if route.stream_body {
            return match BodyStream::for_request(body, &parts.headers, route.stream_limit) {
                Ok(stream) => {
                    let codecs = answer.codecs(shared, route);
                    let produce = answer.produce.clone();
                    let ctx = RequestContext::new(
                        parts,
                        Bytes::new(),
                        found.params,
                        found.matrix,
                        remote,
                        tags,
                        produce,
                        codecs,
                    );
                    self.call(route, answer, received, ctx.with_body_stream(stream))
                }
                Err(e) => Serving::Answered(Some(error(e, accept))),
            };
        }
        if body.is_end_stream() {
            // A handler that reads nothing of the request on another
            // executor or within a time limit (inline without one, it has
            // answered above): no context is built for it either.
            if let Some(task) = route.handler.call_without_input() {
                return Respond { routing: self.clone(), route: Arc::clone(route), received, answer }.run(task);
            }
            // The context is built where the handler takes it, not moved
            // there (it is some hundred bytes).
            let (produce, codecs) = (answer.produce.clone(), answer.codecs(shared, route));
            return self.call(
                route,
                answer,
                received,
                RequestContext::new(parts, Bytes::new(), found.params, found.matrix, remote, tags, produce, codecs),
            );
        }
        // What reading the body needs of the head, taken from the pass
        // above instead of two hashed lookups.
        let declared = declared_length(heads.content_length);
        let encoded = heads.content_encoding.is_some();
        let (params, matrix) = (found.params, found.matrix);
        let respond = Respond { routing: self.clone(), route: Arc::clone(route), received, answer };
        drop(table);
        Serving::Read(Box::pin(async move {
            let limit = respond.route.info.max_body;
            let read = read_body(std::pin::pin!(body), declared, limit).await;
            let read = if encoded { read.and_then(|b| compress::request(&parts.headers, b, limit)) } else { read };
            match read {
                Ok(body) => {
                    // A handler that reads nothing needs no context (its
                    // body was read, and its limit checked, all the same).
                    let immediate = respond.route.immediate_inline();
                    if let Some(Immediate::NoInput(handler)) = immediate {
                        return respond.answered((), |()| handler());
                    }
                    let shared = &*respond.routing.0;
                    let (produce, codecs) =
                        (respond.answer.produce.clone(), respond.answer.codecs(shared, &respond.route));
                    // The context is built where the call takes it: as a
                    // local of this future it was built and then moved (it
                    // is some hundred bytes).
                    let ctx =
                        |parts, body| RequestContext::new(parts, body, params, matrix, remote, tags, produce, codecs);
                    // An immediate handler answers here, in this future: no
                    // second future to build, await and move the answer out of.
                    if let Some(Immediate::Reads(handler)) = immediate {
                        return respond.answered(ctx(parts, body), handler);
                    }
                    let task = respond.route.handler.call(ctx(parts, body));
                    respond.run(task).await
                }
                Err(e) => error(e, &Accept::new(text(respond.answer.accept.as_ref()))),
            }
        }))
    }

    /// Calls `route`'s handler with `ctx`. An [immediate](crate::Handler::immediate)
    /// handler on a route run inline without a time limit answers now (a
    /// panic caught and answered 500, as [`Serving`] does for an inline
    /// future), and its answer is written at once: no future to box, poll
    /// or move, and nothing of the routing or the route cloned for it. Any
    /// other handler's future goes to [`Respond::run`], which keeps what
    /// writing its answer needs.
    fn call(
        &self,
        route: &Arc<CompiledRoute>,
        answer: Answer,
        received: Option<Instant>,
        ctx: RequestContext,
    ) -> Serving {
        match route.immediate_inline() {
            Some(Immediate::Reads(handler)) => {
                return answer_now(|| handler(&ctx), |res| answer.finish(&self.0, route, res));
            }
            // Reached with a streamed body, which it does not read.
            Some(Immediate::NoInput(handler)) => {
                return answer_now(handler, |res| answer.finish(&self.0, route, res));
            }
            None => {}
        }
        let task = route.handler.call(ctx);
        Respond { routing: self.clone(), route: Arc::clone(route), received, answer }.run(task)
    }
}

/// The future of one request once routed, and where the request stands:
/// it waits for the handler (when one was called) and writes its answer. A
/// named type, so the server keeps it in its own future instead of boxing
/// it; an enum of its own rather than a wrapper of one, so that each step
/// is built where the server keeps it, not built and moved into a wrapper.
pub(crate) enum Serving {
    /// Answered without a handler (404, 400, OPTIONS ...); taken when polled.
    Answered(Option<Response>),
    /// The handler has been called. `task` is its future when it runs
    /// inline without a time limit (`inline`: polled here, a panic caught
    /// and answered 500), else its executor's; `respond` is taken when it
    /// is ready.
    Run { respond: Option<Respond>, task: BoxFuture<Response>, inline: bool },
    /// The handler has been handed to a bounded executor without a time
    /// limit: `handed` is the request's end of it, held here (no future
    /// of the executor's is boxed); `respond` as for `Run`.
    Handed { respond: Option<Respond>, handed: crate::executor::Handed },
    /// The body is to be read first.
    Read(BoxFuture<Response>),
}

impl Serving {
    /// An answer already made.
    pub(crate) fn ready(res: Response) -> Self {
        Self::Answered(Some(res))
    }
}

impl Future for Serving {
    type Output = Response;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        match &mut *self {
            Serving::Answered(res) => Poll::Ready(res.take().unwrap_or_else(polled_again)),
            Serving::Read(reading) => reading.as_mut().poll(cx),
            Serving::Run { respond, task, inline } => {
                let res = if *inline {
                    match panic::catch_unwind(AssertUnwindSafe(|| task.as_mut().poll(cx))) {
                        Ok(Poll::Pending) => return Poll::Pending,
                        Ok(Poll::Ready(res)) => res,
                        Err(_) => crate::executor::panicked(),
                    }
                } else {
                    std::task::ready!(task.as_mut().poll(cx))
                };
                Poll::Ready(finish(respond, res))
            }
            Serving::Handed { respond, handed } => {
                let res = std::task::ready!(Pin::new(handed).poll(cx));
                Poll::Ready(finish(respond, res))
            }
        }
    }
}

/// Writes the handler's answer `res` with the `Respond` where it lies (it
/// is some hundred bytes), then drops it there.
fn finish(respond: &mut Option<Respond>, mut res: Response) -> Response {
    match respond {
        Some(respond) => respond.finish(&mut res),
        None => return polled_again(),
    }
    *respond = None;
    res
}

impl fmt::Debug for Serving {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let step = match self {
            Serving::Answered(_) => "answered",
            Serving::Run { .. } => "run",
            Serving::Handed { .. } => "handed",
            Serving::Read(_) => "read",
        };
        f.debug_tuple("Serving").field(&step).finish()
    }
}

/// A [`Serving`] polled after it gave its answer: a bug in the caller.
fn polled_again() -> Response {
    panic!("a request's future was polled after it completed")
}

/// What writing the handler's answer needs besides the route.
struct Answer {
    /// The `Accept` routing used (the URL's format or the header).
    accept: Option<HeaderValue>,
    url_codec: Option<Arc<dyn Codec>>,
    /// The type the router negotiated from the route's `produces`.
    produce: Option<MediaType>,
    accept_encoding: Option<HeaderValue>,
    /// HEAD answered by a GET route.
    head: bool,
    compress: bool,
    mark: bool,
}

impl Answer {
    /// The codecs the handler's entity reader may use.
    fn codecs(&self, shared: &Shared, route: &CompiledRoute) -> EntityCodecs {
        let registry = Arc::clone(&shared.codecs);
        let forced = route.request_codec.as_ref().or(self.url_codec.as_ref()).cloned();
        EntityCodecs { registry, forced }
    }

    /// Writes the handler's answer, where it lies, through [`Finish`]
    /// borrowing what this keeps.
    fn finish(&self, shared: &Shared, route: &Arc<CompiledRoute>, res: &mut Response) {
        let accept = Accept::new(text(self.accept.as_ref()));
        let how = Finish {
            accept: &accept,
            url_codec: self.url_codec.as_ref(),
            produce: self.produce.as_ref(),
            accept_encoding: self.accept_encoding.as_ref(),
            head: self.head,
            compress: self.compress,
            mark: self.mark,
        };
        how.finish(shared, route, res);
    }
}

/// What writing a handler's answer needs, borrowed: from what routing read,
/// where it lies, for a handler that reads nothing; from an [`Answer`],
/// which owns the same for a handler whose answer comes later.
struct Finish<'a, 'b> {
    accept: &'a Accept<'b>,
    url_codec: Option<&'a Arc<dyn Codec>>,
    produce: Option<&'a MediaType>,
    accept_encoding: Option<&'a HeaderValue>,
    head: bool,
    compress: bool,
    mark: bool,
}

impl Finish<'_, '_> {
    /// Writes the handler's answer, where it lies; inlined into its two
    /// callers (a call less per request).
    #[inline(always)]
    fn finish(&self, shared: &Shared, route: &Arc<CompiledRoute>, res: &mut Response) {
        log_internal_error(route, res);
        let forced = route.response_codec.as_ref().or(self.url_codec);
        let written =
            Written { codecs: &shared.codecs, produces: &route.matching.produces, forced, produce: self.produce };
        write_in_place(res, &written, self.accept, self.head);
        if self.compress {
            let plain = std::mem::replace(res, Response::new(Body::empty()));
            *res = compress::response(plain, self.accept_encoding, shared.compression);
        }
        if self.mark {
            res.extensions_mut().insert(MatchedRoute(Arc::clone(route)));
        }
    }
}

/// The answer of an immediate handler, a panic caught and answered 500,
/// written as `route`'s answer where the server keeps it. The handler reads
/// the context where it lies, and its answer is stored from inside the
/// catch, not returned through it (which moved it twice more).
#[inline]
fn answer_now(handler: impl FnOnce() -> Response, finish: impl FnOnce(&mut Response)) -> Serving {
    let mut serving = Serving::Answered(None);
    if let Serving::Answered(slot) = &mut serving {
        if panic::catch_unwind(AssertUnwindSafe(|| *slot = Some(handler()))).is_err() {
            *slot = Some(crate::executor::panicked());
        }
        finish(slot.get_or_insert_with(crate::executor::panicked));
    }
    serving
}

/// What a handler's future needs kept while it runs (or its body is read):
/// the routing and the route, which the table no longer lends then.
pub(crate) struct Respond {
    routing: Routing,
    route: Arc<CompiledRoute>,
    received: Option<Instant>,
    answer: Answer,
}

impl Respond {
    /// What is left once the handler has been called and returned `task`:
    /// inline, the handler's future is polled by [`Serving`] itself; on
    /// another executor or within a time limit, by the executor's future.
    fn run(self, task: BoxFuture<Response>) -> Serving {
        let route = &self.route;
        if route.exec.is_inline() && route.info.timeout.is_none() {
            return Serving::Run { respond: Some(self), task, inline: true };
        }
        // The handler runs on another thread: it keeps the request's span
        // (the server's, when tracing is on) as its parent.
        let span = tracing::Span::current();
        let task = if span.is_none() { task } else { Box::pin(tracing::Instrument::instrument(task, span)) };
        if let (Exec::Bounded(bounded), None) = (&route.exec, route.info.timeout) {
            let handed = bounded.start(task, self.received);
            return Serving::Handed { respond: Some(self), handed };
        }
        let (route, received) = (Arc::clone(route), self.received);
        let task: BoxFuture<Response> =
            Box::pin(async move { route.exec.run(task, received, route.info.timeout).await });
        Serving::Run { respond: Some(self), task, inline: false }
    }

    /// Writes the handler's answer, where it lies.
    fn finish(&self, res: &mut Response) {
        self.answer.finish(&self.routing.0, &self.route, res);
    }

    /// The written answer of an immediate handler to `input` (the request
    /// context, or nothing), a panic caught and answered 500. Not async:
    /// the context is built where this call takes it.
    fn answered<I>(&self, input: I, handler: impl FnOnce(&I) -> Response) -> Response {
        let mut res =
            panic::catch_unwind(AssertUnwindSafe(|| handler(&input))).unwrap_or_else(|_| crate::executor::panicked());
        self.finish(&mut res);
        res
    }
}

/// The request headers routing and reading the body read, found in one
/// pass over the headers instead of one hashed lookup each; the first value
/// of each, as `HeaderMap::get` gives.
#[derive(Default)]
struct Heads<'a> {
    accept: Option<&'a HeaderValue>,
    content_type: Option<&'a HeaderValue>,
    accept_encoding: Option<&'a HeaderValue>,
    content_length: Option<&'a HeaderValue>,
    content_encoding: Option<&'a HeaderValue>,
    host: bool,
}

impl<'a> Heads<'a> {
    fn of(headers: &'a http::HeaderMap) -> Self {
        let mut heads = Self::default();
        for (name, value) in headers {
            if *name == ACCEPT {
                heads.accept.get_or_insert(value);
            } else if *name == CONTENT_TYPE {
                heads.content_type.get_or_insert(value);
            } else if *name == HOST {
                heads.host = true;
            } else if *name == ACCEPT_ENCODING {
                heads.accept_encoding.get_or_insert(value);
            } else if *name == CONTENT_LENGTH {
                heads.content_length.get_or_insert(value);
            } else if *name == CONTENT_ENCODING {
                heads.content_encoding.get_or_insert(value);
            }
        }
        heads
    }
}

/// `Accept` (or any header value) as text, when it is text.
fn text(value: Option<&HeaderValue>) -> Option<&str> {
    value.and_then(|v| v.to_str().ok())
}

/// A 500 is logged with the route that answered it.
fn log_internal_error(route: &CompiledRoute, res: &Response) {
    if res.status() == StatusCode::INTERNAL_SERVER_ERROR && res.extensions().get::<crate::resolve::Logged>().is_none() {
        if let Some(e) = res.extensions().get::<HttpError>() {
            tracing::error!(route = %route.info.name, location = %route.info.location, "{}", e.detail());
        }
    }
}

/// The length a request's `Content-Length` declares, when it is a number.
fn declared_length(value: Option<&HeaderValue>) -> Option<u64> {
    value.and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok())
}

/// Reads a request body in full, up to `limit` bytes (413 past it, or at
/// once when `declared`, the `Content-Length`, says so). A body that arrives in one piece
/// (most small bodies) is handed over as that piece, neither copied nor
/// gathered in a list first; several pieces are copied into one buffer,
/// sized by `Content-Length` when it is sent. Trailers are not kept.
/// Reading stops as soon as the body says it has ended
/// ([`is_end_stream`](http_body::Body::is_end_stream), as hyper's does once
/// it has yielded its `Content-Length`), without waiting to be told so by
/// one more poll: the connection may say it only later.
///
/// The body is read where the caller pinned it, and the state of the read
/// is one closure's: an `async fn` taking the body would keep a copy of it
/// in its own future and another where it pins it, which made the future
/// that reads a request (boxed per request) larger than the allocator
/// serves from its per-thread cache.
fn read_body<B>(
    mut body: Pin<&mut B>,
    declared: Option<u64>,
    limit: usize,
) -> impl Future<Output = Result<Bytes, HttpError>> + Send + '_
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let mut first: Option<Bytes> = None;
    let mut gathered: Option<BytesMut> = None;
    let mut len = 0usize;
    std::future::poll_fn(move |cx| {
        if declared.is_some_and(|n| n > limit as u64) {
            return Poll::Ready(Err(crate::stream::too_large(limit)));
        }
        while let Some(frame) = std::task::ready!(body.as_mut().poll_frame(cx)) {
            let frame = frame.map_err(|e| crate::stream::body_error(&e.into()))?;
            let Ok(data) = frame.into_data() else { continue };
            len = len.saturating_add(data.len());
            if len > limit {
                return Poll::Ready(Err(crate::stream::too_large(limit)));
            }
            if !data.is_empty() {
                if let Some(all) = &mut gathered {
                    all.extend_from_slice(&data);
                } else if let Some(one) = first.take() {
                    // `declared` is at most `limit` here.
                    let size = declared.map_or(len, |n| usize::try_from(n).unwrap_or(len).max(len));
                    let mut all = BytesMut::with_capacity(size);
                    all.extend_from_slice(&one);
                    all.extend_from_slice(&data);
                    gathered = Some(all);
                } else {
                    first = Some(data);
                }
            }
            if body.is_end_stream() {
                break;
            }
        }
        Poll::Ready(Ok(match (gathered.take(), first.take()) {
            (Some(all), _) => all.freeze(),
            (None, Some(one)) => one,
            (None, None) => Bytes::new(),
        }))
    })
}

fn route_error(e: RouteError, method: &http::Method, path: &str, codecs: &Codecs) -> HttpError {
    match e {
        RouteError::NotFound => HttpError::not_found(format!("no route for `{path}`")).with("path", path),
        RouteError::MethodNotAllowed { allow } => {
            let allowed = allow.to_str().unwrap_or("").to_owned();
            HttpError::method_not_allowed(format!("method {method} is not allowed on `{path}`; allowed: {allowed}"))
                .with("path", path)
                .with("allow", allowed)
                .with_header(ALLOW, allow)
        }
        RouteError::UnsupportedMediaType { content_type, consumable } => {
            let list: Vec<String> = consumable.iter().map(ToString::to_string).collect();
            HttpError::unsupported_media_type(format!(
                "Content-Type `{content_type}` is not consumed by `{path}`; consumable: {}",
                list.join(", ")
            ))
            .with("contentType", content_type)
            .with("consumable", list)
        }
        RouteError::NotAcceptable { accept, producible } => {
            // Routes without `produces` write with any codec.
            let producible = if producible.is_empty() { codecs.writable() } else { &producible };
            let list: Vec<String> = producible.iter().map(ToString::to_string).collect();
            HttpError::not_acceptable(format!(
                "nothing `{path}` produces is acceptable to `{accept}`; producible: {}",
                list.join(", ")
            ))
            .with("accept", accept)
            .with("producible", list)
        }
        RouteError::BadPath { reason } => HttpError::bad_request(format!("malformed request path: {reason}")),
        RouteError::UnsatisfiedParams { conditions } => {
            let detail = RouteError::UnsatisfiedParams { conditions: conditions.clone() }.to_string();
            HttpError::bad_request(detail).with("path", path).with("conditions", conditions)
        }
        #[allow(unreachable_patterns)]
        other => HttpError::bad_request(other.to_string()),
    }
}

/// An error answered before a route was chosen (or before its handler ran).
fn error(e: HttpError, accept: &Accept<'_>) -> Response {
    write(e.into_response(), &Written::none(codec::Codecs::shared()), accept, false)
}

/// How a response's deferred entity is written.
pub(crate) struct Written<'a> {
    pub(crate) codecs: &'a Codecs,
    /// The route's `produces` (empty: any codec).
    pub(crate) produces: &'a [MediaType],
    /// The codec the route or the URL names, over `Accept`.
    pub(crate) forced: Option<&'a Arc<dyn Codec>>,
    /// The type the router negotiated, for `Content-Type`.
    pub(crate) produce: Option<&'a MediaType>,
}

impl<'a> Written<'a> {
    /// No route: any of `codecs`.
    pub(crate) fn none(codecs: &'a Codecs) -> Self {
        Self { codecs, produces: &[], forced: None, produce: None }
    }
}

/// Writes a response once: encodes a deferred entity, fills in
/// `Content-Type`, adapts problem details to a text-only client, and
/// empties the body of a HEAD answer.
pub(crate) fn write(res: Response, how: &Written<'_>, accept: &Accept<'_>, head: bool) -> Response {
    let mut res = res;
    write_in_place(&mut res, how, accept, head);
    res
}

/// [`write`] on a response where it lies, so the response (some hundred
/// bytes) is not moved in and out once more per request.
pub(crate) fn write_in_place(res: &mut Response, how: &Written<'_>, accept: &Accept<'_>, head: bool) {
    // Whether `Content-Type` is known to be set, which spares a lookup.
    let mut typed = false;
    if let Some(value) = res.body_mut().take_deferred() {
        match codec::write_entity(
            value.value(),
            &|| value.json(),
            how.codecs,
            how.produces,
            how.forced,
            how.produce,
            accept,
        ) {
            Ok((bytes, media)) => {
                *res.body_mut() = Body::from(bytes);
                res.headers_mut().insert(CONTENT_TYPE, media.header_value().clone());
                typed = true;
            }
            Err(e) => *res = e.into_response(),
        }
    }
    if let Some(error) = res.extensions().get::<HttpError>() {
        if wants_text(accept) {
            let text = crate::response::problem_text(error);
            *res.body_mut() = text;
            res.headers_mut().insert(CONTENT_TYPE, TEXT_PLAIN.clone());
            typed = true;
        }
    }
    // A handler's answer often has no header at all: then no lookup; nor
    // when the type was just set above.
    let has_type = typed || (!res.headers().is_empty() && res.headers().contains_key(CONTENT_TYPE));
    if !has_type && res.body().exact_len() != Some(0) {
        let value = match (how.produce, res.body().default_type()) {
            (Some(p), _) if !p.is_wildcard() => Some(p.header_value().clone()),
            (_, Some(d)) => Some(d.clone()),
            _ => None,
        };
        if let Some(v) = value {
            res.headers_mut().insert(CONTENT_TYPE, v);
        }
    }
    if head {
        if let Some(len) = res.body().exact_len() {
            res.headers_mut().insert(CONTENT_LENGTH, HeaderValue::from(len));
        }
        *res.body_mut() = Body::empty();
    }
}

/// A client that accepts text but neither JSON nor problem+json.
fn wants_text(accept: &Accept<'_>) -> bool {
    use std::sync::OnceLock;
    static CHOICES: OnceLock<Vec<MediaType>> = OnceLock::new();
    if accept.header().is_none() {
        return false;
    }
    let choices = CHOICES.get_or_init(|| {
        ["application/problem+json", "application/json", "text/plain"]
            .iter()
            .filter_map(|m| MediaType::parse(m).ok())
            .collect()
    });
    best_of(accept.ranges(), choices).is_some_and(|(_, m)| m.essence() == "text/plain")
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use http::header::CONTENT_LENGTH;
    use http::{HeaderMap, HeaderValue, StatusCode};
    use http_body::Frame;
    use http_body_util::StreamBody;

    use super::read_body;
    use crate::error::BoxError;
    use crate::stream::tests::EndsEarly;

    fn read(pieces: &[&'static [u8]], declared: Option<usize>, limit: usize) -> Result<Bytes, StatusCode> {
        let frames: Vec<Result<Frame<Bytes>, BoxError>> =
            pieces.iter().map(|p| Ok(Frame::data(Bytes::from_static(p)))).collect();
        let body = StreamBody::new(futures_util::stream::iter(frames));
        let mut headers = HeaderMap::new();
        if let Some(n) = declared {
            headers.insert(CONTENT_LENGTH, HeaderValue::from(n));
        }
        let declared = super::declared_length(headers.get(CONTENT_LENGTH));
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(read_body(std::pin::pin!(body), declared, limit)).map_err(|e| e.status())
    }

    #[test]
    fn one_piece_is_handed_over_without_a_copy() {
        static PIECE: &[u8] = b"hello, world";
        let body = read(&[PIECE], Some(PIECE.len()), 64).unwrap();
        assert_eq!(body.as_ptr(), PIECE.as_ptr(), "the piece itself, not a copy");
    }

    #[test]
    fn pieces_are_joined_in_order_with_or_without_a_length() {
        for declared in [None, Some(11)] {
            assert_eq!(read(&[b"abc", b"", b"defg", b"hijk"], declared, 64).unwrap(), "abcdefghijk");
        }
        assert_eq!(read(&[b"", b"abc", b""], None, 64).unwrap(), "abc");
        assert_eq!(read(&[], None, 64).unwrap(), "");
    }

    #[test]
    fn a_body_past_the_limit_is_413_declared_or_not() {
        assert_eq!(read(&[b"abcd", b"efgh"], None, 7), Err(StatusCode::PAYLOAD_TOO_LARGE));
        assert_eq!(read(&[b"abcdefgh"], None, 7), Err(StatusCode::PAYLOAD_TOO_LARGE));
        assert_eq!(read(&[b"abc"], Some(8), 7), Err(StatusCode::PAYLOAD_TOO_LARGE));
        assert_eq!(read(&[b"abcd", b"efg"], None, 7).unwrap(), "abcdefg", "exactly the limit is allowed");
    }

    #[test]
    fn a_body_that_says_it_has_ended_is_not_polled_again() {
        use std::future::Future;
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        for pieces in [vec![&b"hello"[..]], vec![&b"hel"[..], &b"lo"[..]]] {
            let mut body = EndsEarly(pieces.into_iter().map(Bytes::from_static).collect());
            let read = read_body(std::pin::Pin::new(&mut body), Some(5), 64);
            let got = std::pin::pin!(read).poll(&mut cx);
            assert!(matches!(got, std::task::Poll::Ready(Ok(ref b)) if b == "hello"), "{got:?}");
        }
    }
}
