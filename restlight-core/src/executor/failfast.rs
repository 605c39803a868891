//! Fail-fast: how long a request may wait for its executor before it is
//! answered 503 without running the handler.

use std::time::{Duration, Instant};

/// When a request has waited too long for a bounded executor.
///
/// Past the limit the request is answered `503 Service Unavailable` with
/// problem details naming the limit, and its handler never runs: the client
/// has probably given up already, and running it would only lengthen the
/// queue for the requests behind it. Off by default.
///
/// ```
/// use std::time::Duration;
/// use restlight_core::{FailFast, Scheduler};
/// let reports = Scheduler::threads(2).queue(50).fail_fast(FailFast::queued(Duration::from_millis(200)));
/// # let _ = reports;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailFast {
    /// The time from being queued on the executor to being picked up by a
    /// worker (the Java original's `QUEUED`).
    Queued(Duration),
    /// The time from the request's arrival (its route chosen, or its entry
    /// into the filters and layers, see [`ReceivedAt`]) to being picked up
    /// by a worker, so the time spent reading the body counts too (the Java
    /// original's `TTFB`).
    /// Checked when the request is queued as well.
    Ttfb(Duration),
}

impl FailFast {
    /// Fail fast after `limit` in the queue.
    #[must_use]
    pub const fn queued(limit: Duration) -> Self {
        Self::Queued(limit)
    }

    /// Fail fast `limit` after the request's first byte.
    #[must_use]
    pub const fn ttfb(limit: Duration) -> Self {
        Self::Ttfb(limit)
    }

    /// The time limit.
    #[must_use]
    pub const fn limit(self) -> Duration {
        match self {
            Self::Queued(limit) | Self::Ttfb(limit) => limit,
        }
    }

    /// What the limit is measured from, as problem details name it.
    pub(crate) const fn kind(self) -> &'static str {
        match self {
            Self::Queued(_) => "queued",
            Self::Ttfb(_) => "ttfb",
        }
    }

    /// Whether a request received at `received` and queued at `queued`
    /// has waited too long by `now`.
    pub(crate) fn expired(self, received: Instant, queued: Instant, now: Instant) -> bool {
        match self {
            Self::Queued(limit) => now.saturating_duration_since(queued) > limit,
            Self::Ttfb(limit) => now.saturating_duration_since(received) > limit,
        }
    }
}

/// When the request arrived: a request extension, which
/// [`FailFast::Ttfb`] measures from.
///
/// [`App::dispatch`](crate::App::dispatch) sets it when the request enters
/// the application's filters or tower layers, if it has any and the
/// extension is absent (they may take time of their own). Without them, a
/// request on an executor with a [`FailFast::Ttfb`] limit counts from the
/// moment its route is chosen, before its body is read, and no other
/// request reads the clock for it. A server that knows an earlier moment
/// may insert it itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceivedAt(pub Instant);
