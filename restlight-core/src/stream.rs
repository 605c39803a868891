//! Streaming request bodies: [`BodyStream`], the body as it arrives.
//!
//! A route whose handler takes a `BodyStream` entity (or, built in code,
//! calls [`RouteBuilder::stream_body`](crate::RouteBuilder::stream_body)) is
//! marked at startup; the dispatcher then does not aggregate its body but
//! hands it over as it arrives, so an upload of any size passes through in
//! bounded memory.
//!
//! ```
//! use restlight_core::{post, BodyStream, RequestContext};
//! let upload = post("/upload").stream_body().handle(|ctx: RequestContext| async move {
//!     let mut body: BodyStream = ctx.take_body_stream().unwrap_or_default();
//!     let mut total = 0;
//!     while let Some(chunk) = body.chunk().await {
//!         total += chunk?.len();
//!     }
//!     Ok::<_, restlight_core::HttpError>(total.to_string())
//! });
//! # let _ = upload;
//! ```

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::Stream;
use http::header::CONTENT_LENGTH;
use http_body::Body as _;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;

use crate::error::{BoxError, HttpError};

/// A request body read as it arrives: a [`Stream`] of byte chunks.
///
/// Errors are answers already: 413 when the body passes the route's limit
/// (set with `max_body_size` / `#[max_body]`; a streamed body has none
/// unless one is set), 408 when it stops arriving before the server's body
/// read timeout, 400 when it is malformed. Return them with `?`.
pub struct BodyStream {
    inner: Option<UnsyncBoxBody<Bytes, BoxError>>,
    limit: Option<usize>,
    seen: u64,
}

impl BodyStream {
    /// A stream over `body`, failing with 413 past `limit` bytes.
    pub(crate) fn new<B>(body: B, limit: Option<usize>) -> Self
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Self { inner: Some(body.map_err(Into::into).boxed_unsync()), limit, seen: 0 }
    }

    /// The stream for a request, or 413 at once when its `Content-Length`
    /// passes the limit (before any of the body is read).
    pub(crate) fn for_request<B>(body: B, headers: &http::HeaderMap, limit: Option<usize>) -> Result<Self, HttpError>
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        if let Some(limit) = limit {
            let declared =
                headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > limit as u64) {
                return Err(too_large(limit));
            }
        }
        if body.is_end_stream() {
            return Ok(Self::default());
        }
        Ok(Self::new(body, limit))
    }

    /// The next chunk, `None` at the end of the body.
    pub async fn chunk(&mut self) -> Option<Result<Bytes, HttpError>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// How many bytes have arrived so far.
    #[must_use]
    pub fn bytes_read(&self) -> u64 {
        self.seen
    }
}

impl Default for BodyStream {
    /// An empty body.
    fn default() -> Self {
        Self { inner: None, limit: None, seen: 0 }
    }
}

impl fmt::Debug for BodyStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BodyStream").field("limit", &self.limit).field("bytes_read", &self.seen).finish_non_exhaustive()
    }
}

impl Stream for BodyStream {
    type Item = Result<Bytes, HttpError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let Some(inner) = self.inner.as_mut() else { return Poll::Ready(None) };
            let frame = match std::task::ready!(Pin::new(inner).poll_frame(cx)) {
                None => {
                    self.inner = None;
                    return Poll::Ready(None);
                }
                Some(Err(e)) => {
                    self.inner = None;
                    return Poll::Ready(Some(Err(body_error(&e))));
                }
                Some(Ok(frame)) => frame,
            };
            // Trailers are skipped.
            let Ok(data) = frame.into_data() else { continue };
            self.seen += data.len() as u64;
            if let Some(limit) = self.limit.filter(|limit| self.seen > *limit as u64) {
                self.inner = None;
                return Poll::Ready(Some(Err(too_large(limit))));
            }
            // A body that says it has ended (hyper's, once it has yielded
            // its `Content-Length`) is not polled again: the connection
            // may close it only on its next turn.
            if self.inner.as_ref().is_some_and(|body| body.is_end_stream()) {
                self.inner = None;
            }
            return Poll::Ready(Some(Ok(data)));
        }
    }
}

/// 413 for a body past `limit` bytes.
pub(crate) fn too_large(limit: usize) -> HttpError {
    HttpError::payload_too_large(format!("the request entity is larger than the limit of {limit} bytes"))
        .with("limit", limit)
}

/// A body's read error as the client is answered: 408 for a body that
/// did not arrive in time, else 400 naming the error.
pub(crate) fn body_error(e: &BoxError) -> HttpError {
    if crate::body_timeout::is_body_timeout(&**e) {
        crate::body_timeout::request_timeout(&**e)
    } else {
        HttpError::bad_request(format!("the request body could not be read: {e}"))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    use bytes::Bytes;
    use futures_util::Stream;
    use http_body::Frame;

    use super::BodyStream;
    use crate::error::BoxError;

    /// Yields its pieces, says it has ended after the last, and then, if
    /// polled again, never answers (as a connection that has not yet
    /// closed the body's channel).
    pub(crate) struct EndsEarly(pub(crate) Vec<Bytes>);

    impl http_body::Body for EndsEarly {
        type Data = Bytes;
        type Error = BoxError;

        fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
            let this = self.get_mut();
            if this.0.is_empty() {
                return Poll::Pending;
            }
            Poll::Ready(Some(Ok(Frame::data(this.0.remove(0)))))
        }

        fn is_end_stream(&self) -> bool {
            self.0.is_empty()
        }
    }

    #[test]
    fn the_stream_ends_with_a_body_that_says_it_has_ended() {
        let mut cx = Context::from_waker(Waker::noop());
        let body = EndsEarly(vec![Bytes::from_static(b"hel"), Bytes::from_static(b"lo")]);
        let mut stream = BodyStream::new(body, None);
        let mut got = Vec::new();
        loop {
            match Pin::new(&mut stream).poll_next(&mut cx) {
                Poll::Ready(Some(Ok(piece))) => got.push(piece),
                Poll::Ready(None) => break,
                other => panic!("after {got:?}: {other:?}"),
            }
        }
        assert_eq!(got, ["hel", "lo"]);
        assert_eq!(stream.bytes_read(), 5);
    }
}
