//! Request identity across services: [`RequestId`] and the W3C Trace
//! Context of a request ([`TraceContext`]).
//!
//! The server decides them when a request arrives (see the server's
//! `request_ids` and `trace_context` settings) and hands them to the
//! application with the request (filters and tower layers find them in
//! the request's extensions); handlers read them as `#[context]`
//! parameters, or with [`RequestContext::request_id`](crate::RequestContext::request_id)
//! and [`RequestContext::trace_context`](crate::RequestContext::trace_context):
//!
//! ```
//! use restlight_core::{RequestId, TraceContext};
//!
//! async fn call_downstream(id: &RequestId, trace: &TraceContext) -> http::Request<()> {
//!     let mut out = http::Request::get("http://orders.internal/orders").body(()).unwrap();
//!     trace.inject(&mut out); // `traceparent` (and `tracestate`) for the next service
//!     id.inject(&mut out, "x-request-id");
//!     out
//! }
//! ```
//!
//! Identifiers are made without a lock or a system call: each thread
//! seeds a small generator once (from the standard library's per-process
//! random keys, the thread and the clock) and steps it per identifier.
//! They are unique enough to tell requests and traces apart; they are not
//! secrets.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::hash::{BuildHasher, Hasher};

use bytes::Bytes;
use http::header::{HeaderMap, HeaderName, HeaderValue};

/// The `traceparent` header (W3C Trace Context).
pub const TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");
/// The `tracestate` header (W3C Trace Context).
pub const TRACESTATE: HeaderName = HeaderName::from_static("tracestate");

/// The longest incoming request ID kept, in bytes.
pub const MAX_REQUEST_ID_LEN: usize = 128;
/// The longest `tracestate` kept, in bytes (the W3C limit is 32 members;
/// longer values are dropped rather than cut).
const MAX_TRACESTATE_LEN: usize = 512;
/// Length of a generated request ID: 24 lowercase hex digits.
const GENERATED_LEN: usize = 24;

thread_local! {
    /// This thread's generator state (splitmix64), seeded on first use
    /// (zero: not seeded yet). Initialised as a constant, so reading it is
    /// a plain thread-local access, with no check of a lazy initialiser.
    static STATE: Cell<u64> = const { Cell::new(0) };
}

fn seed() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
    std::hash::Hash::hash(&std::thread::current().id(), &mut h);
    h.finish()
}

/// The next `N` pseudo-random numbers of this thread (splitmix64), with
/// one access to its state.
fn next_n<const N: usize>() -> [u64; N] {
    STATE.with(|s| {
        let mut x = s.get();
        if x == 0 {
            // Not seeded yet (or, once in 2^64 steps, stepped onto zero:
            // seeding again then does no harm).
            x = seed();
        }
        let out = std::array::from_fn(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        });
        s.set(x);
        out
    })
}

/// The next pseudo-random number of this thread.
fn next() -> u64 {
    let [n] = next_n::<1>();
    n
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn push_hex(out: &mut [u8], bytes: &[u8]) {
    for (i, b) in bytes.iter().enumerate() {
        out[2 * i] = HEX[usize::from(b >> 4)];
        out[2 * i + 1] = HEX[usize::from(b & 0xf)];
    }
}

fn parse_hex<const N: usize>(text: &[u8]) -> Option<[u8; N]> {
    if text.len() != 2 * N {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0; N];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

/// The ID of one request: the caller's (a well-formed `x-request-id`, or
/// the header the server was told to read) or one the server made.
///
/// As a `#[context]` parameter (`#[context] id: &RequestId`) it is the
/// current request's, or empty when the server's request IDs are off (and
/// in the mock client, which makes none).
///
/// It is kept as a header value: a received ID is the request's own header
/// value (shared, not copied), and a generated one is cut from a buffer
/// its thread shares among the IDs it makes, so putting the ID on the
/// response copies neither.
#[derive(Clone, PartialEq, Eq)]
pub struct RequestId(HeaderValue);

/// Bytes of the buffer a thread cuts its generated IDs from (42 IDs, made
/// together when the previous buffer is used up); the buffer is freed when
/// the last ID cut from it is dropped.
const ID_SLAB: usize = 42 * GENERATED_LEN;

/// A thread's request IDs: the text of the last one made (the thread's
/// prefix, then its counter in hex digits, stepped in place) and the IDs
/// made ahead, each cut off in turn.
struct IdSlab {
    last: [u8; GENERATED_LEN],
    ahead: Bytes,
}

impl IdSlab {
    fn new() -> Self {
        let mut last = [b'0'; GENERATED_LEN];
        push_hex(&mut last[..12], &next().to_be_bytes()[2..]);
        Self { last, ahead: Bytes::new() }
    }

    /// The next ID's bytes.
    fn cut(&mut self) -> Bytes {
        if self.ahead.is_empty() {
            self.refill();
        }
        self.ahead.split_to(GENERATED_LEN)
    }

    /// Makes the next 42 IDs into one new buffer.
    #[cold]
    fn refill(&mut self) {
        let mut slab = Vec::with_capacity(ID_SLAB);
        for _ in 0..ID_SLAB / GENERATED_LEN {
            step_hex(&mut self.last[12..]);
            slab.extend_from_slice(&self.last);
        }
        self.ahead = Bytes::from(slab);
    }
}

/// Adds one to a number written in lowercase hex digits, wrapping to zeros
/// past all `f`s.
fn step_hex(digits: &mut [u8]) {
    for d in digits.iter_mut().rev() {
        match *d {
            b'f' => *d = b'0',
            b'9' => {
                *d = b'a';
                return;
            }
            _ => {
                *d += 1;
                return;
            }
        }
    }
}

impl RequestId {
    pub(crate) const EMPTY: RequestId = RequestId(HeaderValue::from_static(""));

    /// A new ID: 24 lowercase hex digits, the first 12 this thread's
    /// (random, chosen once), the last 12 a per-thread counter. No lock,
    /// no system call; the digits are made 42 IDs at a time.
    #[must_use]
    pub fn generate() -> Self {
        thread_local! {
            static IDS: RefCell<Option<IdSlab>> = const { RefCell::new(None) };
        }
        let bytes = IDS.with_borrow_mut(|ids| ids.get_or_insert_with(IdSlab::new).cut());
        // Hex digits only: always a valid header value.
        Self(HeaderValue::from_maybe_shared(bytes).unwrap_or(HeaderValue::from_static("")))
    }

    /// `value` as an ID when it is well-formed: 1 to 128 bytes of ASCII
    /// letters, digits and `-_.:/+=` (UUIDs, ULIDs, base64 and most
    /// tracing systems' IDs). Anything else (empty, too long, spaces,
    /// quotes, control characters) gives `None`, so an ID can go into a log
    /// line or a header as it is.
    #[must_use]
    pub fn parse(value: &HeaderValue) -> Option<Self> {
        let bytes = value.as_bytes();
        let ok = !bytes.is_empty()
            && bytes.len() <= MAX_REQUEST_ID_LEN
            && bytes.iter().all(|&c| c.is_ascii_alphanumeric() || b"-_.:/+=".contains(&c));
        ok.then(|| Self(value.clone()))
    }

    /// The ID as text; empty when there is none.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only hex digits and checked header bytes get here.
        self.0.to_str().unwrap_or_default()
    }

    /// Whether there is no ID (request IDs are off).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The ID as a header value (shared, not copied).
    #[must_use]
    pub fn to_header_value(&self) -> HeaderValue {
        self.0.clone()
    }

    /// Sets header `name` of an outgoing request to this ID, to carry it
    /// to the next service; nothing when the ID is empty or `name` is not a
    /// header name.
    pub fn inject<B>(&self, req: &mut http::Request<B>, name: &str) {
        if self.is_empty() {
            return;
        }
        if let Ok(name) = HeaderName::from_bytes(name.as_bytes()) {
            req.headers_mut().insert(name, self.to_header_value());
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RequestId").field(&self.as_str()).finish()
    }
}

/// A W3C trace ID: 16 bytes, shown as 32 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TraceId(pub [u8; 16]);

impl TraceId {
    /// A new random trace ID (never all zeros).
    #[must_use]
    pub fn random() -> Self {
        let [high, low] = next_n::<2>();
        Self((u128::from(high) << 64 | u128::from(low | 1)).to_be_bytes())
    }

    /// Whether this is a valid ID (not all zeros).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.0 != [0; 16]
    }
}

impl fmt::Display for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0; 32];
        push_hex(&mut text, &self.0);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TraceId({self})")
    }
}

/// A W3C span ID (the `parent-id` of `traceparent`): 8 bytes, shown as 16
/// lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SpanId(pub [u8; 8]);

impl SpanId {
    /// A new random span ID (never all zeros).
    #[must_use]
    pub fn random() -> Self {
        Self((next() | 1).to_be_bytes())
    }

    /// Whether this is a valid ID (not all zeros).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.0 != [0; 8]
    }
}

impl fmt::Display for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0; 16];
        push_hex(&mut text, &self.0);
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpanId({self})")
    }
}

/// The W3C Trace Context of a request's server span: the trace it belongs
/// to, its own span ID (the parent of the calls it makes), the caller's
/// span ID when the request carried a well-formed `traceparent`, the
/// sampled flag and the caller's `tracestate`.
///
/// As a `#[context]` parameter (`#[context] trace: &TraceContext`) it is the
/// current request's; when the server's trace context is off (and in the
/// mock client) it is an invalid, empty context whose
/// [`inject`](Self::inject) adds nothing.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct TraceContext {
    trace_id: TraceId,
    span_id: SpanId,
    parent: Option<SpanId>,
    flags: u8,
    state: Option<HeaderValue>,
}

/// The sampled bit of the trace flags.
const SAMPLED: u8 = 1;

impl TraceContext {
    pub(crate) const EMPTY: TraceContext =
        TraceContext { trace_id: TraceId([0; 16]), span_id: SpanId([0; 8]), parent: None, flags: 0, state: None };

    /// The context of a new server span `span_id` for a request with
    /// `headers`: it continues the caller's trace when `traceparent` is
    /// well-formed (keeping its flags and `tracestate`), and otherwise
    /// starts a new, sampled trace with a random ID. A malformed
    /// `traceparent` (or more than one) is ignored, never an error.
    #[must_use]
    pub fn from_headers(headers: &HeaderMap, span_id: SpanId) -> Self {
        match Self::parse_parent(headers) {
            Some((trace_id, parent, flags)) => {
                let state = Self::parse_state(headers);
                Self { trace_id, span_id, parent: Some(parent), flags, state }
            }
            None => Self::start(span_id),
        }
    }

    /// The context of a new server span `span_id` that starts a new,
    /// sampled trace with a random ID: what [`from_headers`](Self::from_headers)
    /// gives a request without a `traceparent`, for a caller that already
    /// knows there is none.
    #[must_use]
    pub fn start(span_id: SpanId) -> Self {
        Self::start_with(TraceId::random(), span_id)
    }

    /// [`start`](Self::start) with a random span ID: the trace ID and the
    /// span ID from one draw of the thread's generator (what the server
    /// does for a request without a `traceparent`).
    #[doc(hidden)]
    #[must_use]
    pub fn start_random() -> Self {
        let [high, low, span] = next_n::<3>();
        let trace_id = TraceId((u128::from(high) << 64 | u128::from(low | 1)).to_be_bytes());
        Self::start_with(trace_id, SpanId((span | 1).to_be_bytes()))
    }

    fn start_with(trace_id: TraceId, span_id: SpanId) -> Self {
        Self { trace_id, span_id, parent: None, flags: SAMPLED, state: None }
    }

    /// The trace ID, flags and parent of a well-formed `traceparent`
    /// (version `00`, or a later one read as `00` as the specification
    /// asks).
    fn parse_parent(headers: &HeaderMap) -> Option<(TraceId, SpanId, u8)> {
        let mut values = headers.get_all(TRACEPARENT).iter();
        let value = values.next()?;
        if values.next().is_some() {
            return None;
        }
        let text = value.as_bytes();
        // version "-" trace-id "-" parent-id "-" flags
        if text.len() < 55 || text[2] != b'-' || text[35] != b'-' || text[52] != b'-' {
            return None;
        }
        let version = parse_hex::<1>(&text[..2])?[0];
        if version == 0xff || (version == 0 && text.len() != 55) || (text.len() > 55 && text[55] != b'-') {
            return None;
        }
        let trace_id = TraceId(parse_hex::<16>(&text[3..35])?);
        let parent = SpanId(parse_hex::<8>(&text[36..52])?);
        let flags = parse_hex::<1>(&text[53..55])?[0];
        (trace_id.is_valid() && parent.is_valid()).then_some((trace_id, parent, flags))
    }

    /// `tracestate`, kept as sent when it is short and printable; several
    /// fields are joined with commas.
    fn parse_state(headers: &HeaderMap) -> Option<HeaderValue> {
        let mut values = headers.get_all(TRACESTATE).iter();
        let first = values.next()?;
        let value = match values.next() {
            None => first.clone(),
            Some(second) => {
                let mut joined = first.as_bytes().to_vec();
                for v in std::iter::once(second).chain(values) {
                    joined.push(b',');
                    joined.extend_from_slice(v.as_bytes());
                }
                HeaderValue::from_bytes(&joined).ok()?
            }
        };
        let bytes = value.as_bytes();
        let ok =
            !bytes.is_empty() && bytes.len() <= MAX_TRACESTATE_LEN && bytes.iter().all(|&c| (0x20..0x7f).contains(&c));
        ok.then_some(value)
    }

    /// The same context with the trace ID, span ID and sampled flag a
    /// tracing backend assigned to the server span (the server's
    /// OpenTelemetry export does this, so calls carry the exported span
    /// as their parent).
    #[must_use]
    pub fn with_span(mut self, trace_id: TraceId, span_id: SpanId, sampled: bool) -> Self {
        self.trace_id = trace_id;
        self.span_id = span_id;
        self.flags = if sampled { self.flags | SAMPLED } else { self.flags & !SAMPLED };
        self
    }

    /// The trace this request belongs to.
    #[must_use]
    pub fn trace_id(&self) -> TraceId {
        self.trace_id
    }

    /// The server span's own ID: the `parent-id` of the calls it makes.
    #[must_use]
    pub fn span_id(&self) -> SpanId {
        self.span_id
    }

    /// The caller's span ID, when the request carried a well-formed
    /// `traceparent`.
    #[must_use]
    pub fn parent_span_id(&self) -> Option<SpanId> {
        self.parent
    }

    /// Whether the trace is sampled (the caller's flag, or set for a trace
    /// started here).
    #[must_use]
    pub fn is_sampled(&self) -> bool {
        self.flags & SAMPLED != 0
    }

    /// The caller's `tracestate`, passed on unchanged.
    #[must_use]
    pub fn trace_state(&self) -> Option<&HeaderValue> {
        self.state.as_ref()
    }

    /// Whether this is a real context (the server's trace context is on).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.trace_id.is_valid() && self.span_id.is_valid()
    }

    /// The `traceparent` of a call made from this span:
    /// `00-{trace_id}-{span_id}-{flags}`; `None` for an invalid context.
    #[must_use]
    pub fn traceparent(&self) -> Option<HeaderValue> {
        if !self.is_valid() {
            return None;
        }
        let mut text = *b"00-00000000000000000000000000000000-0000000000000000-00";
        push_hex(&mut text[3..35], &self.trace_id.0);
        push_hex(&mut text[36..52], &self.span_id.0);
        push_hex(&mut text[53..55], &[self.flags & SAMPLED]);
        HeaderValue::from_bytes(&text).ok()
    }

    /// Sets `traceparent` (and `tracestate`, when the caller sent one) on
    /// an outgoing request, so the service it calls continues this trace
    /// with this span as the parent. Nothing for an invalid context.
    pub fn inject<B>(&self, req: &mut http::Request<B>) {
        self.inject_headers(req.headers_mut());
    }

    /// [`inject`](Self::inject) into a header map.
    pub fn inject_headers(&self, headers: &mut HeaderMap) {
        let Some(parent) = self.traceparent() else { return };
        headers.insert(TRACEPARENT, parent);
        match &self.state {
            Some(state) => {
                headers.insert(TRACESTATE, state.clone());
            }
            None => {
                headers.remove(TRACESTATE);
            }
        }
    }
}

impl fmt::Debug for TraceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TraceContext")
            .field("trace_id", &self.trace_id)
            .field("span_id", &self.span_id)
            .field("parent", &self.parent)
            .field("sampled", &self.is_sampled())
            .field("state", &self.state)
            .finish()
    }
}

/// The request ID and trace context a server gave one request, handed to
/// the application beside the request rather than in its extensions (whose
/// first insertion allocates a map), and shared with the server, which puts
/// the ID on the response and in the access log. Handlers read them as
/// `#[context]` parameters or [`RequestContext`](crate::RequestContext)
/// attributes.
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct RequestTags {
    /// The request's ID, when request IDs are on.
    pub id: Option<RequestId>,
    /// The request's trace context, when trace context is on.
    pub trace: Option<TraceContext>,
}

impl RequestTags {
    /// The tag of type `T`, if `T` is [`RequestId`] or [`TraceContext`]
    /// and that tag is set.
    pub(crate) fn get<T: 'static>(&self) -> Option<&T> {
        let id = self.id.as_ref().and_then(|id| (id as &dyn Any).downcast_ref::<T>());
        id.or_else(|| self.trace.as_ref().and_then(|t| (t as &dyn Any).downcast_ref::<T>()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    #[test]
    fn a_well_formed_traceparent_is_continued() {
        let span = SpanId([1, 2, 3, 4, 5, 6, 7, 8]);
        let ctx =
            TraceContext::from_headers(&headers(&[(&TRACEPARENT, PARENT), (&TRACESTATE, "congo=t61rcWkgMzE")]), span);
        assert_eq!(ctx.trace_id().to_string(), "0af7651916cd43dd8448eb211c80319c");
        assert_eq!(ctx.parent_span_id().unwrap().to_string(), "b7ad6b7169203331");
        assert!(ctx.is_sampled());
        assert_eq!(ctx.traceparent().unwrap(), "00-0af7651916cd43dd8448eb211c80319c-0102030405060708-01");
        let mut out = http::Request::new(());
        ctx.inject(&mut out);
        assert_eq!(out.headers()[TRACESTATE], "congo=t61rcWkgMzE");
        assert_eq!(out.headers()[TRACEPARENT], ctx.traceparent().unwrap());
    }

    #[test]
    fn malformed_traceparents_start_a_new_trace() {
        let bad = [
            "",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
            "0x-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        ];
        for text in bad {
            let ctx =
                TraceContext::from_headers(&headers(&[(&TRACEPARENT, text), (&TRACESTATE, "a=b")]), SpanId::random());
            assert!(ctx.parent_span_id().is_none(), "{text:?} was accepted");
            assert!(ctx.is_valid() && ctx.is_sampled() && ctx.trace_state().is_none(), "{text:?}");
        }
        // Two traceparent fields: ignored.
        let ctx =
            TraceContext::from_headers(&headers(&[(&TRACEPARENT, PARENT), (&TRACEPARENT, PARENT)]), SpanId::random());
        assert!(ctx.parent_span_id().is_none());
        // A later version with more fields is read as version 00.
        let later = "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-what-comes-next";
        let ctx = TraceContext::from_headers(&headers(&[(&TRACEPARENT, later)]), SpanId::random());
        assert_eq!(ctx.trace_id().to_string(), "0af7651916cd43dd8448eb211c80319c");
        assert!(!ctx.is_sampled());
    }

    #[test]
    fn started_traces_are_new_valid_and_sampled() {
        let (a, b) = (TraceContext::start_random(), TraceContext::start_random());
        for ctx in [&a, &b] {
            assert!(ctx.is_valid() && ctx.is_sampled());
            assert!(ctx.parent_span_id().is_none() && ctx.trace_state().is_none());
        }
        assert_ne!(a.trace_id(), b.trace_id());
        assert_ne!(a.span_id(), b.span_id());
        assert_ne!(a.trace_id().0[..8], a.span_id().0, "the span ID is its own draw");
    }

    #[test]
    fn the_empty_context_injects_nothing() {
        let mut out = http::Request::new(());
        TraceContext::EMPTY.inject(&mut out);
        assert!(out.headers().is_empty());
        assert!(TraceContext::EMPTY.traceparent().is_none());
    }

    #[test]
    fn request_ids_are_checked_and_generated() {
        for good in ["abc", "0f8fad5b-d9cb-469f-a165-70867728950e", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "a+b/c=_.:"] {
            assert_eq!(RequestId::parse(&HeaderValue::from_static(good)).unwrap().as_str(), good);
        }
        let long = "a".repeat(MAX_REQUEST_ID_LEN + 1);
        for bad in ["", "has space", "quote\"", "tab\t", "semi;colon", long.as_str()] {
            assert!(RequestId::parse(&HeaderValue::from_str(bad).unwrap()).is_none(), "{bad:?}");
        }
        let (a, b) = (RequestId::generate(), RequestId::generate());
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 24);
        assert_eq!(a.as_str()[..12], b.as_str()[..12], "one prefix per thread");
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        let other = std::thread::spawn(|| RequestId::generate().as_str().to_owned()).join().unwrap();
        assert_ne!(other[..12], a.as_str()[..12], "another thread, another prefix");
        assert!(RequestId::EMPTY.is_empty());
        assert_eq!(a.to_header_value(), a.as_str());
    }

    #[test]
    fn generated_ids_outlive_the_buffer_they_were_cut_from() {
        // More IDs than one buffer holds, some kept past its refill.
        let ids: Vec<RequestId> = (0..3 * ID_SLAB / GENERATED_LEN + 5).map(|_| RequestId::generate()).collect();
        let texts: std::collections::HashSet<&str> = ids.iter().map(RequestId::as_str).collect();
        assert_eq!(texts.len(), ids.len(), "all distinct");
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(id.as_str().len(), GENERATED_LEN);
            assert_eq!(id.to_header_value().as_bytes(), id.as_str().as_bytes());
            let count = u64::from_str_radix(&id.as_str()[12..], 16).unwrap();
            assert_eq!(count, u64::from_str_radix(&ids[0].as_str()[12..], 16).unwrap() + i as u64);
        }
    }

    #[test]
    fn the_generated_counter_steps_in_hex_with_carry_and_wraps() {
        for (before, after) in [
            (b"000000000000", b"000000000001"),
            (b"000000000009", b"00000000000a"),
            (b"00000000000f", b"000000000010"),
            (b"0000000009ff", b"000000000a00"),
            (b"ffffffffffff", b"000000000000"),
        ] {
            let mut digits = *before;
            step_hex(&mut digits);
            assert_eq!(&digits, after, "{}", std::str::from_utf8(before).unwrap());
        }
    }

    #[test]
    fn tags_are_attributes_of_their_type() {
        let id = RequestId::generate();
        let tags = RequestTags { id: Some(id.clone()), trace: None };
        assert_eq!(tags.get::<RequestId>(), Some(&id));
        assert!(tags.get::<TraceContext>().is_none());
        assert!(tags.get::<String>().is_none());
    }
}
