//! A request body with a deadline per piece: hyper has no body-read timeout,
//! so a client that stops sending would hold its request forever.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use restlight_core::{BodyTimeout, BoxError};
use tokio::time::{Instant, Sleep};

/// `Incoming`, failing with [`BodyTimeout`] when no frame arrives within
/// `timeout` of the previous one (or of the first poll).
#[derive(Debug)]
pub(crate) struct TimedBody {
    inner: Incoming,
    timeout: Duration,
    /// Armed while a frame is awaited.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl TimedBody {
    pub(crate) fn new(inner: Incoming, timeout: Duration) -> Self {
        Self { inner, timeout, deadline: None }
    }
}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            self.deadline = None;
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let timeout = self.timeout;
        let deadline =
            self.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(Instant::now() + timeout)));
        ready!(deadline.as_mut().poll(cx));
        self.deadline = None;
        Poll::Ready(Some(Err(Box::new(BodyTimeout { timeout }))))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
