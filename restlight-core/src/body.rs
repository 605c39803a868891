//! The response body type.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;

use crate::error::BoxError;

/// A value whose encoding waits for content negotiation: the dispatcher
/// writes it with the codec negotiated for it (see `codec::write_entity`).
pub(crate) trait Deferred: Send {
    fn value(&self) -> &dyn erased_serde::Serialize;

    /// The value as JSON, serialized with its own type (no erasure): what
    /// the built-in JSON codec would write, faster.
    fn json(&self) -> Result<Bytes, serde_json::Error>;
}

enum Kind {
    Full(Option<Bytes>),
    Deferred(Box<dyn Deferred>),
    Stream(UnsyncBoxBody<Bytes, BoxError>),
}

/// A response body: bytes in full, a stream, or an entity still to be
/// encoded by the negotiated codec.
pub struct Body {
    kind: Kind,
    /// The `Content-Type` this body gets when the response has none and the
    /// route negotiated none (text for `String` and `&str` returns): carried
    /// here rather than in the response's extensions, which would allocate.
    default_type: Option<&'static http::HeaderValue>,
}

impl Body {
    fn of(kind: Kind) -> Self {
        Self { kind, default_type: None }
    }

    /// This body, given `media` as its `Content-Type` unless the response
    /// or the route's negotiation says otherwise.
    pub(crate) fn with_default_type(mut self, media: &'static http::HeaderValue) -> Self {
        self.default_type = Some(media);
        self
    }

    /// See [`with_default_type`](Self::with_default_type).
    pub(crate) fn default_type(&self) -> Option<&'static http::HeaderValue> {
        self.default_type
    }

    /// Sets the default `Content-Type` unless one is set.
    pub(crate) fn or_default_type(&mut self, media: &'static http::HeaderValue) {
        self.default_type.get_or_insert(media);
    }

    /// An empty body.
    #[must_use]
    pub fn empty() -> Self {
        Self::of(Kind::Full(None))
    }

    /// A body of these bytes.
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        if bytes.is_empty() {
            Self::empty()
        } else {
            Self::of(Kind::Full(Some(bytes)))
        }
    }

    /// A body streamed from any `http_body::Body`.
    pub fn from_stream<B>(body: B) -> Self
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Self::of(Kind::Stream(body.map_err(Into::into).boxed_unsync()))
    }

    /// A body streamed from chunks of bytes, each sent as it comes (chunked
    /// on HTTP/1.1, DATA frames on h2); an error ends the response early.
    pub fn from_byte_stream<S, E>(chunks: S) -> Self
    where
        S: futures_util::Stream<Item = Result<Bytes, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        use futures_util::TryStreamExt;
        Self::from_stream(http_body_util::StreamBody::new(chunks.map_ok(Frame::data)))
    }

    pub(crate) fn deferred(value: Box<dyn Deferred>) -> Self {
        Self::of(Kind::Deferred(value))
    }

    /// Whether the body is an entity not encoded yet.
    pub(crate) fn is_deferred(&self) -> bool {
        matches!(self.kind, Kind::Deferred(_))
    }

    pub(crate) fn take_deferred(&mut self) -> Option<Box<dyn Deferred>> {
        if matches!(self.kind, Kind::Deferred(_)) {
            match std::mem::replace(&mut self.kind, Kind::Full(None)) {
                Kind::Deferred(d) => Some(d),
                _ => None,
            }
        } else {
            None
        }
    }

    /// The bytes of a body held in full (`None` for a stream or an entity).
    pub(crate) fn full_bytes(&self) -> Option<&Bytes> {
        match &self.kind {
            Kind::Full(Some(b)) => Some(b),
            _ => None,
        }
    }

    /// The length when known in full.
    #[must_use]
    pub fn exact_len(&self) -> Option<u64> {
        match &self.kind {
            Kind::Full(b) => Some(b.as_ref().map_or(0, |b| b.len() as u64)),
            Kind::Deferred(_) => None,
            Kind::Stream(s) => http_body::Body::size_hint(s).exact(),
        }
    }

    /// Collects the whole body (for tests and the mock client).
    ///
    /// # Errors
    /// The stream's error.
    pub async fn collect_bytes(self) -> Result<Bytes, BoxError> {
        Ok(BodyExt::collect(self).await?.to_bytes())
    }
}

impl Default for Body {
    fn default() -> Self {
        Self::empty()
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Full(b) => f.debug_tuple("Body::Full").field(&b.as_ref().map_or(0, Bytes::len)).finish(),
            Kind::Deferred(_) => f.write_str("Body::Deferred"),
            Kind::Stream(_) => f.write_str("Body::Stream"),
        }
    }
}

impl From<Bytes> for Body {
    fn from(b: Bytes) -> Self {
        Self::from_bytes(b)
    }
}

impl From<String> for Body {
    fn from(s: String) -> Self {
        Self::from_bytes(s)
    }
}

impl From<&'static str> for Body {
    fn from(s: &'static str) -> Self {
        Self::from_bytes(Bytes::from_static(s.as_bytes()))
    }
}

impl From<Vec<u8>> for Body {
    fn from(v: Vec<u8>) -> Self {
        Self::from_bytes(v)
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match &mut self.kind {
            Kind::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Kind::Deferred(_) => Poll::Ready(Some(Err("entity was not encoded before sending".into()))),
            Kind::Stream(s) => Pin::new(s).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Full(b) => b.is_none(),
            Kind::Deferred(_) => false,
            Kind::Stream(s) => s.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
            Kind::Deferred(_) => SizeHint::default(),
            Kind::Stream(s) => s.size_hint(),
        }
    }
}
