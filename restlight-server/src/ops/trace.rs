//! Request IDs and W3C Trace Context on the server: what a request is
//! tagged with when it arrives, and its `tracing` span.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::sync::Arc;

use http::header::{HeaderName, CONTENT_LENGTH};
use http::Version;
use restlight_core::trace::{RequestTags, SpanId, TRACEPARENT};
use restlight_core::{RequestId, RouteInfo, TraceContext};

/// The `tracing` target of the span each request gets when request IDs or
/// the trace context are on (span name `request`, level `INFO`).
pub const REQUEST_TARGET: &str = "restlight::request";

/// The request ID header read and written by default.
pub(crate) const DEFAULT_REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// Request IDs and trace context, as the builder and the configuration set
/// them.
#[derive(Debug, Clone)]
pub(crate) struct TraceSettings {
    pub(crate) request_ids: bool,
    pub(crate) request_id_header: HeaderName,
    pub(crate) trace_context: bool,
}

impl Default for TraceSettings {
    fn default() -> Self {
        Self { request_ids: false, request_id_header: DEFAULT_REQUEST_ID_HEADER, trace_context: false }
    }
}

impl TraceSettings {
    /// Whether a request gets anything from these settings.
    pub(crate) fn any(&self) -> bool {
        self.request_ids || self.trace_context
    }
}

/// The request's span, when a subscriber wants it (boxed in the pending
/// record, and only made for a span that is recorded).
#[derive(Debug)]
pub(crate) struct RequestSpan {
    pub(crate) span: tracing::Span,
    method: http::Method,
}

/// Tags `req`: its ID and trace context, shared with the application
/// (which hands them to handlers beside the request, not in its extensions),
/// and its span when a subscriber wants it.
pub(crate) fn tag<B>(
    settings: &TraceSettings,
    req: &http::Request<B>,
    remote: SocketAddr,
    tls: bool,
) -> (Arc<RequestTags>, Option<Box<RequestSpan>>) {
    // The request-ID field and whether there is a `traceparent`, in one
    // pass over the fields: comparing names costs less than a hashed lookup
    // of each custom name, and both lookups miss on most requests.
    // The pass is over the distinct names only (`keys`, not every value),
    // and a found ID is fetched by a lookup, which only a request that
    // carries one pays for.
    let mut received = false;
    let mut parent = false;
    // Each name is compared only with what is on.
    for name in req.headers().keys() {
        if settings.request_ids && *name == settings.request_id_header {
            received = true;
        }
        if settings.trace_context && *name == TRACEPARENT {
            parent = true;
        }
    }
    let id = settings.request_ids.then(|| {
        let received = if received { req.headers().get(&settings.request_id_header) } else { None };
        received.and_then(RequestId::parse).unwrap_or_else(RequestId::generate)
    });
    let mut trace = settings.trace_context.then(|| {
        if parent {
            TraceContext::from_headers(req.headers(), SpanId::random())
        } else {
            TraceContext::start_random()
        }
    });
    let span = tracing::info_span!(
        target: REQUEST_TARGET,
        "request",
        otel.name = %req.method(),
        otel.kind = "server",
        request_id = id.as_ref().map(RequestId::as_str),
        trace_id = tracing::field::Empty,
        span_id = tracing::field::Empty,
        parent_id = trace.as_ref().and_then(TraceContext::parent_span_id).map(tracing::field::display),
        http.request.method = %req.method(),
        http.route = tracing::field::Empty,
        http.response.status_code = tracing::field::Empty,
        url.scheme = if tls { "https" } else { "http" },
        url.path = req.uri().path(),
        network.protocol.version = protocol(req.version()),
        client.address = %remote.ip(),
        http.request.body.size = req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok()),
        http.response.body.size = tracing::field::Empty,
        restlight.executor = tracing::field::Empty,
    );
    // Sampled out (nobody wants the span): nothing more to do.
    let span = (!span.is_disabled()).then(|| {
        if let Some(t) = trace.take() {
            #[cfg(feature = "otel")]
            let t = super::otel_span::continue_trace(&span, t);
            span.record("trace_id", tracing::field::display(t.trace_id()));
            span.record("span_id", tracing::field::display(t.span_id()));
            trace = Some(t);
        }
        Box::new(RequestSpan { span, method: req.method().clone() })
    });
    (new_tags(id, trace), span)
}

/// The most spare tag records a thread keeps.
const SPARE_TAGS: usize = 64;

thread_local! {
    /// Tag records whose requests have ended on this thread, for its next
    /// requests: once a thread has served a few, tagging a request
    /// allocates nothing (the record is shared with the application, so it
    /// cannot live in the request's own state).
    static SPARE: RefCell<Vec<Arc<RequestTags>>> = const { RefCell::new(Vec::new()) };
}

/// A shared record of `id` and `trace`: a spare one of this thread's, or a
/// new one.
fn new_tags(id: Option<RequestId>, trace: Option<TraceContext>) -> Arc<RequestTags> {
    if let Ok(Some(mut tags)) = SPARE.try_with(|spare| spare.borrow_mut().pop()) {
        // Only records nobody else holds are kept.
        if let Some(t) = Arc::get_mut(&mut tags) {
            // Given back empty: nothing to drop.
            t.id = id;
            t.trace = trace;
            return tags;
        }
    }
    Arc::new(RequestTags { id, trace })
}

/// The request of `tags` has ended: the record is kept for the thread's
/// next request, when nothing else holds it (a handler may have kept its
/// [`RequestContext`](restlight_core::RequestContext), and the record in
/// it, past the response) and the thread has room; a record kept here
/// drops its ID and trace context now.
pub(crate) fn give_back(mut tags: Arc<RequestTags>) {
    let Some(t) = Arc::get_mut(&mut tags) else { return };
    *t = RequestTags::default();
    let _ = SPARE.try_with(|spare| {
        let mut spare = spare.borrow_mut();
        if spare.len() < SPARE_TAGS {
            spare.push(tags);
        }
    });
}

impl RequestSpan {
    /// Records what the response says on the span: the route template
    /// (its name becomes `METHOD /template`), the executor, the status and
    /// the body size.
    pub(crate) fn finish(&self, route: Option<&RouteInfo>, status: u16, bytes: u64) {
        if let Some(route) = route {
            #[cfg(feature = "otel")]
            super::otel_span::rename(&self.span, format!("{} {}", self.method, route.path));
            self.span.record("otel.name", tracing::field::display(format_args!("{} {}", self.method, route.path)));
            self.span.record("http.route", route.path.as_str());
            self.span.record("restlight.executor", route.scheduler.as_str());
        }
        self.span.record("http.response.status_code", status);
        self.span.record("http.response.body.size", bytes);
    }
}

/// `network.protocol.version` of the semantic conventions.
fn protocol(v: Version) -> &'static str {
    match v {
        Version::HTTP_09 => "0.9",
        Version::HTTP_10 => "1.0",
        Version::HTTP_11 => "1.1",
        Version::HTTP_2 => "2",
        Version::HTTP_3 => "3",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_still_held_is_neither_cleared_nor_reused() {
        let id = RequestId::generate();
        let tags = new_tags(Some(id.clone()), None);
        // A handler that keeps its context past the response.
        let kept = Arc::clone(&tags);
        give_back(tags);
        let next = new_tags(Some(RequestId::generate()), None);
        assert_eq!(kept.id.as_ref(), Some(&id), "the kept record keeps its own ID");
        assert!(!Arc::ptr_eq(&kept, &next), "and is not handed to another request");

        // A record nobody holds is reused, with the new request's tags only.
        let ptr = Arc::as_ptr(&next);
        give_back(next);
        let other = RequestId::generate();
        let reused = new_tags(Some(other.clone()), None);
        assert_eq!(Arc::as_ptr(&reused), ptr, "the spare record is reused");
        assert_eq!(reused.id.as_ref(), Some(&other));
        assert!(reused.trace.is_none());
    }
}
