//! A request body with a deadline per piece and a minimum data rate: hyper
//! has no body-read timeout, so a client that stops sending, or trickles a
//! byte now and then, would hold its request forever.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use bytes::{Buf, Bytes};
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use restlight_core::{BodyTimeout, BodyTooSlow, BoxError};
use tokio::time::{Instant, Sleep};

/// How a server reads request bodies: the longest wait for a piece, and
/// the minimum rate a body must keep once its grace period has passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BodyRead {
    pub(crate) timeout: Duration,
    /// Bytes per second; `0` for no minimum.
    pub(crate) min_rate: u64,
    pub(crate) grace: Duration,
}

/// `Incoming`, failing with [`BodyTimeout`] when no frame arrives within
/// `timeout` of the previous one (or of the first poll), and with
/// [`BodyTooSlow`] when, after the grace period, fewer bytes have arrived
/// than the minimum rate asks for the time since the first poll.
#[derive(Debug)]
pub(crate) struct TimedBody {
    inner: Incoming,
    read: BodyRead,
    /// Armed while a frame is awaited.
    deadline: Option<Pin<Box<Sleep>>>,
    /// The first poll, once polled.
    started: Option<Instant>,
    received: u64,
}

impl TimedBody {
    pub(crate) fn new(inner: Incoming, read: BodyRead) -> Self {
        Self { inner, read, deadline: None, started: None, received: 0 }
    }

    /// The rate check, made as each piece arrives: a client that trickles
    /// never lets the piece deadline pass, so the check rides on its pieces.
    fn too_slow(&self, now: Instant) -> Option<BodyTooSlow> {
        let elapsed = now.duration_since(self.started?);
        if self.read.min_rate == 0 || elapsed <= self.read.grace {
            return None;
        }
        let expected = u128::from(self.read.min_rate) * elapsed.as_millis() / 1000;
        (u128::from(self.received) < expected).then_some(BodyTooSlow {
            min_bytes_per_second: self.read.min_rate,
            received: self.received,
            elapsed,
        })
    }
}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        // The clock is read only when a minimum rate is asked for.
        if self.read.min_rate > 0 && self.started.is_none() {
            self.started = Some(Instant::now());
        }
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            self.deadline = None;
            if let Some(Ok(data)) = frame.as_ref().map(|f| f.as_ref().map(Frame::data_ref)) {
                self.received += data.map_or(0, |d| d.remaining() as u64);
                if let Some(slow) = self.started.and_then(|_| self.too_slow(Instant::now())) {
                    return Poll::Ready(Some(Err(Box::new(slow))));
                }
            }
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let timeout = self.read.timeout;
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
