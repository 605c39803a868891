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
    /// HTTP/2: when the request-ID header is next sent indexable, on the
    /// same clock (see [`Activity::id_name_due`]).
    id_name_due_ms: AtomicU64,
}

/// How often an HTTP/2 connection's request-ID header is sent indexable
/// again, so that its name stays in the connection's HPACK table while
/// other fields enter it and push older ones out.
const ID_NAME_REFRESH_MS: u64 = 30_000;

impl Activity {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(0),
            id_name_due_ms: AtomicU64::new(0),
        })
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

    /// HTTP/2: whether the request ID of the response being made goes out
    /// indexable. HPACK (RFC 7541) writes a field's name as a small index
    /// once the name is in the connection's table, and a field enters the
    /// table only when its value may be indexed; an ID is new on every
    /// response, so the server marks it never to be indexed (it would fill
    /// the table otherwise) except on the connection's first response and
    /// then once every 30 seconds: the table then holds the name (with one
    /// old ID or two), and every other response writes the name as its
    /// index instead of the name's Huffman-coded bytes. Timed by the idle
    /// clock's last reading: no clock read of its own.
    pub(crate) fn id_name_due(&self) -> bool {
        let now = self.idle_since_ms.load(Ordering::Relaxed);
        if now < self.id_name_due_ms.load(Ordering::Relaxed) {
            return false;
        }
        self.id_name_due_ms.store(now.saturating_add(ID_NAME_REFRESH_MS), Ordering::Relaxed);
        true
    }

    fn idle_since(&self) -> Instant {
        self.opened + Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire))
    }
}

/// A request in flight; dropping it ends the request.
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Activity>);

impl InFlight {
    /// The connection's bookkeeping.
    pub(crate) fn activity(&self) -> &Activity {
        &self.0
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        // Restart the clock before the count can reach zero.
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_name_is_due_on_the_first_response_then_every_thirty_seconds() {
        let activity = Activity::new();
        assert!(activity.id_name_due(), "the connection's first response");
        assert!(!activity.id_name_due(), "the next one, at once");
        activity.idle_since_ms.store(ID_NAME_REFRESH_MS - 1, Ordering::Relaxed);
        assert!(!activity.id_name_due(), "just short of the period");
        activity.idle_since_ms.store(ID_NAME_REFRESH_MS, Ordering::Relaxed);
        assert!(activity.id_name_due(), "a period after the first");
        assert!(!activity.id_name_due(), "and not again in that period");
        activity.idle_since_ms.store(5 * ID_NAME_REFRESH_MS, Ordering::Relaxed);
        assert!(activity.id_name_due(), "after a long quiet spell, once");
        assert!(!activity.id_name_due());
    }
}
