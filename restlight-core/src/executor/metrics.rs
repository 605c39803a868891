//! Executor metrics: relaxed atomic counters on the hot path, a snapshot
//! for readers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Buckets of the queue-wait histogram: bucket `i` counts waits below
/// `2^i` microseconds (bucket 0: below 1 µs), the last one everything above.
const BUCKETS: usize = 40;

/// The counters one bounded executor updates.
#[derive(Debug)]
pub(crate) struct Counters {
    pub(crate) completed: AtomicU64,
    pub(crate) rejected: AtomicU64,
    pub(crate) fail_fast: AtomicU64,
    pub(crate) panicked: AtomicU64,
    pub(crate) cancelled: AtomicU64,
    waits: [AtomicU64; BUCKETS],
}

impl Default for Counters {
    fn default() -> Self {
        Self {
            completed: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
            fail_fast: AtomicU64::new(0),
            panicked: AtomicU64::new(0),
            cancelled: AtomicU64::new(0),
            waits: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl Counters {
    /// Adds one to `counter`.
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Records how long a job waited in the queue.
    pub(crate) fn record_wait(&self, wait: Duration) {
        self.waits[bucket_of(wait)].fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn queue_wait(&self) -> QueueWait {
        QueueWait { buckets: std::array::from_fn(|i| self.waits[i].load(Ordering::Relaxed)) }
    }
}

fn bucket_of(wait: Duration) -> usize {
    let micros = u64::try_from(wait.as_micros()).unwrap_or(u64::MAX);
    // The number of significant bits: 0 µs -> 0, 1 µs -> 1, 2..3 µs -> 2, ...
    let bits = (u64::BITS - micros.leading_zeros()) as usize;
    bits.min(BUCKETS - 1)
}

/// What one executor has done so far: a snapshot read with
/// [`App::executors`](crate::App::executors).
///
/// Counters only grow; `active` and `queued` are the state at the time of
/// reading.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecutorMetrics {
    /// The executor's name: `"biz"` or the name it was registered under.
    pub name: String,
    /// Its worker threads (after a resize, those new handlers start on; on
    /// a runtime it does not own, that runtime's workers).
    pub threads: usize,
    /// How many handlers may run at once. Right after a shrink,
    /// [`active`](Self::active) may stay above it until enough running
    /// handlers finish.
    pub max_active: usize,
    /// How many requests may wait for a worker. Right after a shrink,
    /// [`queued`](Self::queued) may stay above it until the queue drains.
    pub queue_capacity: usize,
    /// Handlers running now.
    pub active: usize,
    /// Requests waiting for a worker now.
    pub queued: usize,
    /// Handlers that ran to the end (with any status, panics excluded).
    pub completed: u64,
    /// Requests refused at once with 429 because the queue was full.
    pub rejected: u64,
    /// Requests answered 503 because they waited past the fail-fast time.
    pub fail_fast: u64,
    /// Handlers that panicked (answered 500).
    pub panicked: u64,
    /// Requests dropped while queued or running: the client went away, the
    /// route timed out, or the server shut down.
    pub cancelled: u64,
    /// How long requests waited for a worker.
    pub queue_wait: QueueWait,
    /// Whether [`App::resize_executor`](crate::App::resize_executor) can
    /// change [`threads`](Self::threads): the executor owns its threads
    /// ([`Scheduler::threads`](crate::Scheduler::threads)), not one given
    /// with [`Scheduler::on_runtime`](crate::Scheduler::on_runtime).
    /// `max_active` and `queue_capacity` can always change.
    pub resizable_threads: bool,
}

/// A histogram of queue waits in power-of-two buckets of microseconds:
/// cheap to record, percentiles accurate to a factor of two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueWait {
    buckets: [u64; BUCKETS],
}

impl QueueWait {
    /// How many waits were recorded.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.buckets.iter().sum()
    }

    /// The wait below which the fraction `q` (0.0 to 1.0) of the recorded
    /// waits fall, as the upper bound of its bucket; zero when nothing was
    /// recorded.
    #[must_use]
    pub fn percentile(&self, q: f64) -> Duration {
        let count = self.count();
        if count == 0 {
            return Duration::ZERO;
        }
        // The rank of the wanted sample, 1-based; `q` is clamped to 0..=1.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let rank = ((q.clamp(0.0, 1.0) * count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Duration::from_micros(1_u64 << i);
            }
        }
        Duration::from_micros(1_u64 << (BUCKETS - 1))
    }

    /// The median wait (see [`percentile`](Self::percentile)).
    #[must_use]
    pub fn p50(&self) -> Duration {
        self.percentile(0.5)
    }

    /// The 99th percentile wait (see [`percentile`](Self::percentile)).
    #[must_use]
    pub fn p99(&self) -> Duration {
        self.percentile(0.99)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_powers_of_two_microseconds() {
        assert_eq!(bucket_of(Duration::ZERO), 0);
        assert_eq!(bucket_of(Duration::from_micros(1)), 1);
        assert_eq!(bucket_of(Duration::from_micros(3)), 2);
        assert_eq!(bucket_of(Duration::from_micros(1000)), 10);
        assert_eq!(bucket_of(Duration::from_secs(1_000_000)), BUCKETS - 1);
    }

    #[test]
    fn percentiles_are_bucket_upper_bounds() {
        let counters = Counters::default();
        assert_eq!(counters.queue_wait().p99(), Duration::ZERO);
        for _ in 0..99 {
            counters.record_wait(Duration::from_micros(100));
        }
        counters.record_wait(Duration::from_millis(50));
        let wait = counters.queue_wait();
        assert_eq!(wait.count(), 100);
        assert_eq!(wait.p50(), Duration::from_micros(128));
        assert_eq!(wait.p99(), Duration::from_micros(128));
        assert_eq!(wait.percentile(1.0), Duration::from_micros(65_536));
    }
}
