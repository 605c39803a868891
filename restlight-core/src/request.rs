//! The request as a handler sees it.

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use http::{HeaderMap, Method, Uri, Version};

use crate::media::MediaType;
use crate::meta::ParamSource;
use crate::router::{MatrixParams, PathParams};
use crate::stream::BodyStream;
use crate::trace::{RequestId, RequestTags, TraceContext};

type Pairs = Vec<(String, String)>;

/// A matched request: its head, its (aggregated) body, the template variables
/// and everything decoded from them on first use.
///
/// Builder-API handlers receive it by value; annotated handlers can ask for
/// it with `#[context] req: &RequestContext`.
#[derive(Debug)]
pub struct RequestContext {
    /// Owned until an interceptor shares it (see [`Head`]).
    pub(crate) parts: Head,
    pub(crate) body: Bytes,
    pub(crate) path_params: PathParams,
    pub(crate) matrix: MatrixParams,
    pub(crate) remote_addr: Option<SocketAddr>,
    /// The request ID and trace context the server gave the request.
    pub(crate) tags: Option<Arc<RequestTags>>,
    pub(crate) produce: Option<MediaType>,
    /// The codecs the entity reader may use (set by the dispatcher).
    pub(crate) codecs: Option<crate::codec::EntityCodecs>,
    query: OnceLock<Pairs>,
    form: OnceLock<Pairs>,
    cookies: OnceLock<Pairs>,
    /// The body of a streaming route, until the handler takes it; boxed,
    /// and only on such a route, so that every other request's context is
    /// smaller and drops it with one comparison.
    stream: Option<Box<Mutex<Option<BodyStream>>>>,
}

impl RequestContext {
    /// `tags` are the request ID and trace context the server gave the
    /// request; taken here rather than set afterwards, since setting a field
    /// of a context already built moved the whole context once more.
    // Each argument is a piece routing produced, moved in once.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        parts: http::request::Parts,
        body: Bytes,
        path_params: PathParams,
        matrix: MatrixParams,
        remote_addr: Option<SocketAddr>,
        tags: Option<Arc<RequestTags>>,
        produce: Option<MediaType>,
        codecs: crate::codec::EntityCodecs,
    ) -> Self {
        Self {
            parts: Head::Own(parts),
            body,
            path_params,
            matrix,
            remote_addr,
            tags,
            produce,
            codecs: Some(codecs),
            query: OnceLock::new(),
            form: OnceLock::new(),
            cookies: OnceLock::new(),
            stream: None,
        }
    }

    /// Hands the body over as a stream instead of bytes (streaming routes).
    pub(crate) fn with_body_stream(mut self, stream: BodyStream) -> Self {
        self.stream = Some(Box::new(Mutex::new(Some(stream))));
        self
    }

    /// The body as it arrives, on a route that streams its body
    /// ([`RouteBuilder::stream_body`](crate::RouteBuilder::stream_body), or
    /// an annotated handler taking a [`BodyStream`] entity); `None` on other
    /// routes (their body is in [`body`](Self::body)) and once taken.
    #[must_use]
    pub fn take_body_stream(&self) -> Option<BodyStream> {
        self.stream.as_ref()?.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// The request method.
    #[must_use]
    pub fn method(&self) -> &Method {
        &self.parts.method
    }

    /// The request URI as received (not decoded).
    #[must_use]
    pub fn uri(&self) -> &Uri {
        &self.parts.uri
    }

    /// The HTTP version.
    #[must_use]
    pub fn version(&self) -> Version {
        self.parts.version
    }

    /// The request headers.
    #[must_use]
    pub fn headers(&self) -> &HeaderMap {
        &self.parts.headers
    }

    /// Request extensions (set by filters, interceptors or the server).
    #[must_use]
    pub fn extensions(&self) -> &http::Extensions {
        &self.parts.extensions
    }

    /// The request extensions, to change: an interceptor's `pre_handle`
    /// can leave values here for the handler and for its own
    /// `post_handle` and `after_completion` (which see them through
    /// [`RequestHead::extensions`]).
    pub fn extensions_mut(&mut self) -> &mut http::Extensions {
        &mut self.parts.get_mut().extensions
    }

    /// The request attribute of type `T`: a value a filter, a tower layer
    /// or an interceptor's `pre_handle` stored for the handler. Attributes
    /// are keyed by their type (wrap a value in a newtype to store two of
    /// one type) and live in the request's [`extensions`](Self::extensions),
    /// so a value a filter or layer inserted into the `http::Request`'s
    /// extensions is an attribute too. Handlers read them with
    /// `#[request_attribute]`. The [`RequestId`] and [`TraceContext`] the
    /// server gave the request are attributes as well (see
    /// [`request_id`](Self::request_id) and
    /// [`trace_context`](Self::trace_context)).
    #[must_use]
    pub fn attribute<T: Send + Sync + 'static>(&self) -> Option<&T> {
        match self.parts.extensions.get::<T>() {
            Some(value) => Some(value),
            None => self.tags.as_deref().and_then(RequestTags::get::<T>),
        }
    }

    /// The request's ID: the caller's or one the server made, when the
    /// server's request IDs are on; empty otherwise (and in the mock
    /// client, unless the test put one in the request's extensions).
    #[must_use]
    pub fn request_id(&self) -> &RequestId {
        static EMPTY: RequestId = RequestId::EMPTY;
        self.attribute::<RequestId>().unwrap_or(&EMPTY)
    }

    /// The request's W3C trace context, when the server's trace context is
    /// on; an invalid, empty context otherwise (whose
    /// [`inject`](TraceContext::inject) adds nothing).
    #[must_use]
    pub fn trace_context(&self) -> &TraceContext {
        self.attribute::<TraceContext>().unwrap_or(&TraceContext::EMPTY)
    }

    /// Stores `value` as the request attribute of its type, returning the
    /// one it replaces (from an interceptor's `pre_handle`; a filter
    /// inserts into `req.extensions_mut()`).
    pub fn set_attribute<T: Clone + Send + Sync + 'static>(&mut self, value: T) -> Option<T> {
        self.extensions_mut().insert(value)
    }

    /// The request headers, to change (from an interceptor's `pre_handle`).
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        &mut self.parts.get_mut().headers
    }

    /// The request head (method, URI, headers, extensions) as it stands
    /// now: what `post_handle` and `after_completion` see once the handler
    /// has taken the context. Changes made to the context afterwards do not
    /// show in it. Shared without copying once the route's interceptors
    /// have taken it (they do before the handler runs); otherwise this
    /// copies the head.
    #[must_use]
    pub fn head(&self) -> RequestHead {
        match &self.parts {
            Head::Shared(parts) => RequestHead(Arc::clone(parts)),
            Head::Own(parts) => RequestHead(Arc::new(parts.clone())),
        }
    }

    /// [`head`](Self::head) without copying: the context's head becomes
    /// shared (an allocation, once), so only routes with interceptors,
    /// which call this, pay for it.
    pub(crate) fn share_head(&mut self) -> RequestHead {
        RequestHead(self.parts.share())
    }

    /// The peer's address, when served over a socket.
    #[must_use]
    pub fn remote_addr(&self) -> Option<SocketAddr> {
        self.remote_addr
    }

    /// The request body, read in full before the handler runs (empty on a
    /// streaming route: see [`take_body_stream`](Self::take_body_stream)).
    #[must_use]
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// The response media type negotiated from `Accept` and the route's
    /// `produces`, when the route declares any.
    #[must_use]
    pub fn produce(&self) -> Option<&MediaType> {
        self.produce.as_ref()
    }

    /// The parsed `Content-Type`, if the request has one.
    ///
    /// # Errors
    /// 415 when the header is not a media type.
    pub fn content_type(&self) -> Result<Option<MediaType>, crate::error::HttpError> {
        let Some(raw) = self.parts.headers.get(http::header::CONTENT_TYPE) else {
            return Ok(None);
        };
        let text = raw.to_str().unwrap_or("");
        MediaType::parse(text).map(Some).map_err(|e| {
            crate::error::HttpError::unsupported_media_type(format!("Content-Type `{text}` is not a media type: {e}"))
                .with("contentType", text)
        })
    }

    /// A decoded path template variable.
    #[must_use]
    pub fn path_param(&self, name: &str) -> Option<&str> {
        self.path_params.get(name)
    }

    /// The first value of a query parameter, decoded.
    #[must_use]
    pub fn query_param(&self, name: &str) -> Option<&str> {
        first(self.query(), name)
    }

    /// The first value of a header, if it is visible text.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.parts.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The value of a cookie.
    #[must_use]
    pub fn cookie(&self, name: &str) -> Option<&str> {
        first(self.cookies(), name)
    }

    /// The first value of a matrix parameter (`;name=value`) of the path's
    /// last segment: the one the route's template matched last, as JAX-RS's
    /// `@MatrixParam` reads. Other segments' parameters are read through
    /// [`PathSegment::of`](crate::PathSegment::of) or [`matrix`](Self::matrix).
    #[must_use]
    pub fn matrix_param(&self, name: &str) -> Option<&str> {
        let last = self.matrix.last_segment()?;
        self.matrix.of_segment(last).find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The matrix parameters of every path segment.
    #[must_use]
    pub fn matrix(&self) -> &MatrixParams {
        &self.matrix
    }

    /// The first value of a field of an `application/x-www-form-urlencoded` body.
    #[must_use]
    pub fn form_param(&self, name: &str) -> Option<&str> {
        first(self.form(), name)
    }

    /// The first value of `name` in `source`.
    pub(crate) fn first_value(&self, source: ParamSource, name: &str) -> Option<Cow<'_, str>> {
        match source {
            ParamSource::Path => self.path_param(name).map(Cow::Borrowed),
            ParamSource::Query => self.query_param(name).map(Cow::Borrowed),
            ParamSource::Header => self.parts.headers.get(name).map(|v| String::from_utf8_lossy(v.as_bytes())),
            ParamSource::Cookie => self.cookie(name).map(Cow::Borrowed),
            ParamSource::Matrix => self.matrix_param(name).map(Cow::Borrowed),
            ParamSource::Form => self.form_param(name).map(Cow::Borrowed),
            ParamSource::Entity
            | ParamSource::Part
            | ParamSource::Context
            | ParamSource::Bean
            | ParamSource::Resolved
            | ParamSource::Attribute => None,
        }
    }

    /// Every value of `name` in `source`, in request order.
    pub(crate) fn all_values<'a>(&'a self, source: ParamSource, name: &'a str) -> Vec<Cow<'a, str>> {
        match source {
            ParamSource::Path => self.path_param(name).map(Cow::Borrowed).into_iter().collect(),
            ParamSource::Query => all(self.query(), name),
            ParamSource::Header => {
                self.parts.headers.get_all(name).iter().map(|v| String::from_utf8_lossy(v.as_bytes())).collect()
            }
            ParamSource::Cookie => all(self.cookies(), name),
            ParamSource::Matrix => match self.matrix.last_segment() {
                Some(last) => {
                    self.matrix.of_segment(last).filter(|(n, _)| *n == name).map(|(_, v)| Cow::Borrowed(v)).collect()
                }
                None => Vec::new(),
            },
            ParamSource::Form => all(self.form(), name),
            ParamSource::Entity
            | ParamSource::Part
            | ParamSource::Context
            | ParamSource::Bean
            | ParamSource::Resolved
            | ParamSource::Attribute => Vec::new(),
        }
    }

    /// Every value of `name` in `source` as the request wrote it, without
    /// percent-decoding (`#[encoded]`, JAX-RS's `@Encoded`): the query, the
    /// form body and the matrix parameters of the last segment split on
    /// their separators only (names still compared decoded); a path variable
    /// that matched whole segments as their raw text. A path variable
    /// sharing its segment with other text, and the other sources, are
    /// given as [`all_values`](Self::all_values) gives them.
    pub(crate) fn raw_values<'a>(&'a self, source: ParamSource, name: &'a str) -> Vec<Cow<'a, str>> {
        match source {
            ParamSource::Query => raw_pairs(self.parts.uri.query().unwrap_or(""), '&', name),
            ParamSource::Form => match std::str::from_utf8(&self.body) {
                Ok(body) => raw_pairs(body, '&', name),
                Err(_) => self.all_values(source, name),
            },
            ParamSource::Matrix => {
                let segments = raw_segments(self.parts.uri.path());
                match self.matrix.last_segment().and_then(|last| segments.get(last)) {
                    Some(segment) => match segment.split_once(';') {
                        Some((_, params)) => raw_pairs(params, ';', name),
                        None => Vec::new(),
                    },
                    None => Vec::new(),
                }
            }
            ParamSource::Path => {
                let decoded = self.path_params.get(name);
                let raw = self.path_params.segments(name).and_then(|range| {
                    let segments = raw_segments(self.parts.uri.path());
                    let texts: Option<Vec<&str>> = range
                        .map(|i| segments.get(i).map(|s| s.split_once(';').map_or(*s, |(text, _)| text)))
                        .collect();
                    let raw = texts?.join("/");
                    // The variable is the whole of its segments: their raw text is its value.
                    let whole =
                        percent_encoding::percent_decode_str(&raw).decode_utf8().is_ok_and(|d| Some(&*d) == decoded);
                    whole.then_some(raw)
                });
                match raw {
                    Some(raw) => vec![Cow::Owned(raw)],
                    None => decoded.map(Cow::Borrowed).into_iter().collect(),
                }
            }
            _ => self.all_values(source, name),
        }
    }

    fn query(&self) -> &Pairs {
        self.query.get_or_init(|| parse_urlencoded(self.parts.uri.query().unwrap_or("").as_bytes()))
    }

    fn form(&self) -> &Pairs {
        self.form.get_or_init(|| {
            let is_form = self
                .header(http::header::CONTENT_TYPE.as_str())
                .and_then(|ct| MediaType::parse(ct).ok())
                .is_some_and(|m| m.essence() == "application/x-www-form-urlencoded");
            if is_form {
                parse_urlencoded(&self.body)
            } else {
                Vec::new()
            }
        })
    }

    fn cookies(&self) -> &Pairs {
        self.cookies.get_or_init(|| {
            self.parts
                .headers
                .get_all(http::header::COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(';'))
                .filter_map(|pair| {
                    let (k, v) = pair.split_once('=')?;
                    let v = v.trim();
                    let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v);
                    Some((k.trim().to_owned(), v.to_owned()))
                })
                .collect()
        })
    }
}

fn parse_urlencoded(input: &[u8]) -> Pairs {
    form_urlencoded::parse(input).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

/// The values of `name` among `sep`-separated `name=value` pairs, values
/// as written (names compared decoded).
fn raw_pairs<'a>(input: &'a str, sep: char, name: &str) -> Vec<Cow<'a, str>> {
    input
        .split(sep)
        .filter(|pair| !pair.is_empty())
        .filter_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key_decoded: String = form_urlencoded::parse(key.as_bytes()).map(|(k, _)| k.into_owned()).collect();
            (key == name || key_decoded == name).then_some(Cow::Borrowed(value))
        })
        .collect()
}

/// The raw segments of a path, after its leading `/`, matrix parameters kept.
fn raw_segments(path: &str) -> Vec<&str> {
    let path = path.strip_prefix('/').unwrap_or(path);
    if path.is_empty() {
        return Vec::new();
    }
    path.split('/').collect()
}

fn first<'a>(pairs: &'a Pairs, name: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn all<'a>(pairs: &'a Pairs, name: &str) -> Vec<Cow<'a, str>> {
    pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| Cow::Borrowed(v.as_str())).collect()
}

/// The request head as a [`RequestContext`] keeps it: owned, as it came
/// from the request (no allocation per request), until the route's
/// interceptors share it with [`RequestContext::share_head`] for what they
/// run after the handler; changed afterwards, it is copied first.
#[derive(Debug)]
// The owned head is the common case: boxing it would be the allocation per
// request this enum is here to avoid.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Head {
    Own(http::request::Parts),
    Shared(Arc<http::request::Parts>),
}

impl Head {
    fn get_mut(&mut self) -> &mut http::request::Parts {
        match self {
            Self::Own(parts) => parts,
            Self::Shared(parts) => Arc::make_mut(parts),
        }
    }

    fn share(&mut self) -> Arc<http::request::Parts> {
        let parts = match std::mem::replace(self, Self::Own(http::Request::new(()).into_parts().0)) {
            Self::Own(parts) => Arc::new(parts),
            Self::Shared(parts) => parts,
        };
        *self = Self::Shared(Arc::clone(&parts));
        parts
    }
}

impl std::ops::Deref for Head {
    type Target = http::request::Parts;

    fn deref(&self) -> &http::request::Parts {
        match self {
            Self::Own(parts) => parts,
            Self::Shared(parts) => parts,
        }
    }
}

/// The head of a request (method, URI, version, headers, extensions),
/// shared with the [`RequestContext`] it came from: what interceptors see
/// after the handler has run. Cloning it is cheap.
#[derive(Debug, Clone)]
pub struct RequestHead(Arc<http::request::Parts>);

impl RequestHead {
    /// The request method.
    #[must_use]
    pub fn method(&self) -> &Method {
        &self.0.method
    }

    /// The request URI as received.
    #[must_use]
    pub fn uri(&self) -> &Uri {
        &self.0.uri
    }

    /// The request path as received (not decoded).
    #[must_use]
    pub fn path(&self) -> &str {
        self.0.uri.path()
    }

    /// The HTTP version.
    #[must_use]
    pub fn version(&self) -> Version {
        self.0.version
    }

    /// The request headers.
    #[must_use]
    pub fn headers(&self) -> &HeaderMap {
        &self.0.headers
    }

    /// The request extensions, as `pre_handle` left them.
    #[must_use]
    pub fn extensions(&self) -> &http::Extensions {
        &self.0.extensions
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use bytes::Bytes;

    use super::RequestContext;
    use crate::codec::{Codecs, EntityCodecs};

    fn context() -> RequestContext {
        let req = http::Request::get("/a?b=1").header("x-one", "1").body(()).unwrap();
        let codecs = EntityCodecs { registry: Arc::new(Codecs::default()), forced: None };
        let (parts, ()) = req.into_parts();
        RequestContext::new(parts, Bytes::new(), Default::default(), Default::default(), None, None, None, codecs)
    }

    #[test]
    fn a_head_is_the_request_as_it_stood_when_taken() {
        for shared in [false, true] {
            let mut ctx = context();
            ctx.set_attribute(7_u32);
            let head = if shared { ctx.share_head() } else { ctx.head() };
            ctx.headers_mut().insert("x-two", http::HeaderValue::from_static("2"));
            ctx.set_attribute(8_u32);
            assert_eq!(head.path(), "/a");
            assert_eq!(head.headers().get("x-one").unwrap(), "1");
            assert!(head.headers().get("x-two").is_none(), "later changes are not in the head (shared: {shared})");
            assert_eq!(head.extensions().get::<u32>(), Some(&7));
            assert_eq!(ctx.headers().get("x-two").unwrap(), "2");
            assert_eq!(ctx.attribute::<u32>(), Some(&8));
            assert_eq!(ctx.query_param("b"), Some("1"));
        }
    }

    #[test]
    fn a_shared_head_is_shared_again_without_a_copy() {
        let mut ctx = context();
        let first = ctx.share_head();
        let second = ctx.head();
        assert!(std::ptr::eq(first.headers(), second.headers()));
    }
}
