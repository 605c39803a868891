//! Per-connection bookkeeping of requests in flight, for the idle timeout.
//!
//! A request counts from the moment hyper hands it over until its response
//! body is finished or dropped, so a long download is not "idle".

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

/// What one connection is doing.
#[derive(Debug)]
pub(crate) struct Activity {
    opened: Instant,
    in_flight: AtomicUsize,
    /// When the connection last became idle, in milliseconds since `opened`.
    idle_since_ms: AtomicU64,
}

impl Activity {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self { opened: Instant::now(), in_flight: AtomicUsize::new(0), idle_since_ms: AtomicU64::new(0) })
    }

    /// Marks a request as in flight until the returned guard is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(Arc::clone(self))
    }

    /// When the connection will have been idle for `idle`, as far as is
    /// known now; one period ahead while requests are in flight.
    pub(crate) fn idle_deadline(&self, idle: Duration) -> Instant {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            Instant::now() + idle
        } else {
            self.idle_since() + idle
        }
    }

    /// Whether no request is in flight and none has been for `idle`.
    pub(crate) fn is_idle_for(&self, idle: Duration) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0 && Instant::now() >= self.idle_since() + idle
    }

    /// Restarts the idle clock.
    pub(crate) fn touch(&self) {
        let elapsed = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.idle_since_ms.store(elapsed, Ordering::Release);
    }

    fn idle_since(&self) -> Instant {
        self.opened + Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire))
    }
}

/// A request in flight; dropping it ends the request.
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        // Restart the clock before the count can reach zero.
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}
