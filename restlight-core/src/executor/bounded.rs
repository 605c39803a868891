//! The bounded executor: admission decided at once (429 when full), a FIFO
//! wait for one of `max_active` worker slots, fail-fast on the way out of
//! the queue, and the handler spawned on the runtime tied to its request.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::runtime::{Handle, Runtime};
use tokio::sync::Semaphore;

use super::failfast::FailFast;
use super::metrics::{Counters, ExecutorMetrics};
use super::scheduler::Scheduler;
use super::{panicked, AbortOnDrop};
use crate::error::HttpError;
use crate::handler::BoxFuture;
use crate::response::{IntoResponse, Response};

/// How long dropping an owned runtime outside any async context waits for
/// handlers still running (blocking ones cannot be aborted).
const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// A bounded executor built from a [`Scheduler`].
#[derive(Debug)]
pub(crate) struct Bounded {
    name: String,
    handle: Handle,
    _owned: Option<OwnedRuntime>,
    threads: usize,
    max_active: usize,
    queue: usize,
    /// Worker slots; closed on shutdown, which answers the queue 503.
    slots: Arc<Semaphore>,
    /// Requests running or waiting (at most `max_active + queue`).
    admitted: Arc<AtomicUsize>,
    fail_fast: Option<FailFast>,
    counters: Arc<Counters>,
}

impl Bounded {
    pub(crate) fn new(name: &str, scheduler: &Scheduler) -> io::Result<Self> {
        let (handle, owned, threads) = scheduler.runtime(name)?;
        let max_active = scheduler.max_active.unwrap_or(threads).max(1);
        Ok(Self {
            name: name.to_owned(),
            handle,
            _owned: owned.map(|rt| OwnedRuntime(Some(rt))),
            threads,
            max_active,
            queue: scheduler.queue,
            slots: Arc::new(Semaphore::new(max_active)),
            admitted: Arc::new(AtomicUsize::new(0)),
            fail_fast: scheduler.fail_fast,
            counters: Arc::new(Counters::default()),
        })
    }

    /// Runs `task` on a worker slot, or answers 429 (queue full), 503
    /// (past the fail-fast time, or shutting down) or 500 (panic).
    ///
    /// Admission is decided on the first poll, before any await, so a full
    /// queue answers at once. Dropping the returned future leaves the queue
    /// or aborts the running task.
    pub(crate) async fn run(&self, task: BoxFuture<Response>, received: Instant) -> Response {
        let queued_at = Instant::now();
        if let Some(ff @ FailFast::Ttfb(_)) = self.fail_fast {
            if ff.expired(received, queued_at, queued_at) {
                return self.failed_fast(ff);
            }
        }
        let Some(admission) = self.admit() else {
            Counters::bump(&self.counters.rejected);
            return HttpError::too_many_requests(format!(
                "executor `{}` is full: {} requests running and {} queued",
                self.name, self.max_active, self.queue
            ))
            .with("executor", self.name.as_str())
            .with("maxActive", self.max_active)
            .with("queue", self.queue)
            .into_response();
        };
        let mut pending = Pending { counters: &self.counters, done: false };
        let Ok(slot) = Arc::clone(&self.slots).acquire_owned().await else {
            pending.done = true;
            return HttpError::service_unavailable(format!("executor `{}` is shutting down", self.name))
                .with("executor", self.name.as_str())
                .into_response();
        };
        let started = Instant::now();
        self.counters.record_wait(started.saturating_duration_since(queued_at));
        if let Some(ff) = self.fail_fast {
            if ff.expired(received, queued_at, started) {
                pending.done = true;
                return self.failed_fast(ff);
            }
        }
        let counters = Arc::clone(&self.counters);
        // The slot and the admission leave with the task, not with the
        // request: a cancelled blocking handler keeps its thread until it
        // returns, and its slot with it.
        let join = AbortOnDrop(self.handle.spawn(async move {
            let _held = (slot, admission);
            let res = task.await;
            Counters::bump(&counters.completed);
            res
        }));
        let res = match join.await {
            Ok(res) => res,
            Err(e) if e.is_panic() => {
                Counters::bump(&self.counters.panicked);
                panicked()
            }
            Err(_) => HttpError::service_unavailable("the request was cancelled").into_response(),
        };
        pending.done = true;
        res
    }

    fn admit(&self) -> Option<Admission> {
        let capacity = self.max_active.saturating_add(self.queue);
        self.admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < capacity).then_some(n + 1))
            .ok()
            .map(|_| Admission(Arc::clone(&self.admitted)))
    }

    fn failed_fast(&self, ff: FailFast) -> Response {
        Counters::bump(&self.counters.fail_fast);
        let limit = u64::try_from(ff.limit().as_millis()).unwrap_or(u64::MAX);
        let since = match ff {
            FailFast::Queued(_) => "in the queue",
            _ => "since its first byte",
        };
        HttpError::service_unavailable(format!(
            "the request waited more than the fail-fast time of {limit} ms {since} of executor `{}`",
            self.name
        ))
        .with("executor", self.name.as_str())
        .with("failFast", ff.kind())
        .with("limitMs", limit)
        .into_response()
    }

    /// Answers 503 to every queued request, now and from now on; running
    /// handlers finish.
    pub(crate) fn close(&self) {
        self.slots.close();
    }

    pub(crate) fn metrics(&self) -> ExecutorMetrics {
        let active = self.max_active.saturating_sub(self.slots.available_permits());
        let admitted = self.admitted.load(Ordering::Acquire);
        ExecutorMetrics {
            name: self.name.clone(),
            threads: self.threads,
            max_active: self.max_active,
            queue_capacity: self.queue,
            active,
            queued: admitted.saturating_sub(active),
            completed: self.counters.completed.load(Ordering::Relaxed),
            rejected: self.counters.rejected.load(Ordering::Relaxed),
            fail_fast: self.counters.fail_fast.load(Ordering::Relaxed),
            panicked: self.counters.panicked.load(Ordering::Relaxed),
            cancelled: self.counters.cancelled.load(Ordering::Relaxed),
            queue_wait: self.counters.queue_wait(),
        }
    }
}

/// One admitted request; gives its place back when dropped.
struct Admission(Arc<AtomicUsize>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Counts a request as cancelled when it is dropped before its answer.
struct Pending<'a> {
    counters: &'a Counters,
    done: bool,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if !self.done {
            Counters::bump(&self.counters.cancelled);
        }
    }
}

/// A runtime the executor owns: shut down without blocking inside an async
/// context, with a short grace outside one.
#[derive(Debug)]
struct OwnedRuntime(Option<Runtime>);

impl Drop for OwnedRuntime {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            if Handle::try_current().is_ok() {
                rt.shutdown_background();
            } else {
                rt.shutdown_timeout(TEARDOWN_GRACE);
            }
        }
    }
}
