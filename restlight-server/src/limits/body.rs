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
/// than the minimum rate asks for the time since the body was first
/// waited for (the first poll that found no frame ready).
///
/// Frames that are ready when polled cost no clock read: a body that has
/// arrived by the time the application reads it (nearly every small one)
/// is never timed, since no client time passed while it was read.
#[derive(Debug)]
pub(crate) struct TimedBody {
    inner: Incoming,
    read: BodyRead,
    /// Armed while a frame is awaited.
    deadline: Option<Pin<Box<Sleep>>>,
    /// The first poll that found no frame ready (when a minimum rate is
    /// asked for).
    started: Option<Instant>,
    received: u64,
}

impl TimedBody {
    pub(crate) fn new(inner: Incoming, read: BodyRead) -> Self {
        Self { inner, read, deadline: None, started: None, received: 0 }
    }

    /// The rate check, made as each piece arrives: a client that trickles
    /// never lets the piece deadline pass, so the check rides on its pieces.
    fn too_slow(&self, started: Instant, now: Instant) -> Option<BodyTooSlow> {
        let elapsed = now.duration_since(started);
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

    /// No frame is ready: the piece's deadline, armed on the first such poll.
    #[inline(never)]
    fn wait(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if self.deadline.is_none() {
            // The body is waited for: one clock read arms the piece's
            // deadline and, the first time, starts the rate's clock.
            let now = Instant::now();
            if self.read.min_rate > 0 && self.started.is_none() {
                self.started = Some(now);
            }
            self.deadline = Some(Box::pin(tokio::time::sleep_until(now + self.read.timeout)));
        }
        let timeout = self.read.timeout;
        if let Some(deadline) = &mut self.deadline {
            ready!(deadline.as_mut().poll(cx));
        }
        self.deadline = None;
        Poll::Ready(Some(Err(Box::new(BodyTimeout { timeout }))))
    }
}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = BoxError;

    #[inline]
    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            self.deadline = None;
            if let Some(Ok(frame)) = &frame {
                if let Some(data) = frame.data_ref() {
                    self.received += data.remaining() as u64;
                    // No clock until the body has once not been there: a
                    // body that arrives whole is not timed at all.
                    if let Some(started) = self.started {
                        if let Some(slow) = self.too_slow(started, Instant::now()) {
                            return Poll::Ready(Some(Err(Box::new(slow))));
                        }
                    }
                }
            }
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        self.wait(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
