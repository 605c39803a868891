//! The bounded executor: admission decided at once (429 when full), a FIFO
//! wait for one of `max_active` worker slots, fail-fast on the way out of
//! the queue, and the handler spawned on the executor's threads (or on the
//! runtime it was given), tied to its request.
//!
//! Its sizes change at run time ([`Bounded::resize`]) without a lock on the
//! request path: the limits are atomics, the worker slots a semaphore that
//! grows at once and shrinks as running handlers give their slots back (a
//! "debt" of permits to forget), and the threads an [`ArcSwap`] that each
//! request loads once; a replaced generation of threads is stopped when the
//! last request that spawned on it ends.

use std::io;
use std::sync::atomic::{fence, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use super::failfast::FailFast;
use super::metrics::{Counters, ExecutorMetrics};
use super::post::{Lost, Running};
use super::resize::{Resize, ResizeError};
use super::scheduler::{owned_workers, Scheduler};
use super::workers::{Held, Workers};
use super::{panicked, AbortOnDrop};
use crate::error::HttpError;
use crate::handler::BoxFuture;
use crate::response::{IntoResponse, Response};

/// How long stopping owned threads outside any async context waits for
/// handlers still running (blocking ones cannot be aborted).
pub(crate) const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// A bounded executor built from a [`Scheduler`].
#[derive(Debug)]
pub(crate) struct Bounded {
    name: String,
    /// Where new handlers are spawned; replaced by a thread-count resize.
    pool: ArcSwap<Pool>,
    /// Whether the executor owns its threads, so their count can change.
    owns_runtime: bool,
    /// Numbers the threads of its runtimes, across resizes.
    thread_seq: Arc<AtomicUsize>,
    limits: Arc<Limits>,
    fail_fast: Option<FailFast>,
    counters: Arc<Counters>,
    /// Held by resizes only, never by requests.
    resizing: Mutex<ResizeState>,
}

/// One generation of an executor's threads.
#[derive(Debug)]
struct Pool {
    spawner: Spawner,
    threads: usize,
}

/// Where a bounded executor spawns its handlers.
#[derive(Debug)]
pub(crate) enum Spawner {
    /// Threads of its own, stopped when the last request using them ends.
    Workers(Workers),
    /// A tokio runtime someone else owns.
    Runtime(Handle),
}

impl Spawner {
    /// Spawns the future `make` builds, given the claim on the owned thread
    /// it runs on (none on a runtime someone else owns), which the future
    /// must hold until it ends: one future per handoff, not one wrapped in
    /// another. Dropping what it returns stops the future. The error is an
    /// owned thread that could not start.
    fn spawn_with<M, F>(&self, make: M) -> io::Result<Running<F::Output>>
    where
        M: FnOnce(Option<Held>) -> F,
        F: std::future::Future + Send + 'static,
        F::Output: Send + 'static,
    {
        match self {
            Self::Workers(workers) => workers.spawn_with(|held| make(Some(held))),
            Self::Runtime(handle) => Ok(Running::Task(AbortOnDrop(handle.spawn(make(None))))),
        }
    }
}

/// What a resize remembers.
#[derive(Debug)]
struct ResizeState {
    /// Whether `max_active` was set (by the scheduler or a resize); until
    /// then it follows the thread count.
    max_active_explicit: bool,
}

/// The limits and the worker slots, shared with every admitted request.
#[derive(Debug)]
struct Limits {
    /// Worker slots; closed on shutdown, which answers the queue 503.
    slots: Arc<Semaphore>,
    max_active: AtomicUsize,
    queue: AtomicUsize,
    /// Slots to take out of circulation as running handlers give theirs
    /// back: what a shrink of `max_active` could not take from the free
    /// ones at once. The semaphore holds `max_active + debt` permits.
    debt: AtomicUsize,
    /// Requests running or waiting (at most `max_active + queue` when
    /// admitted).
    admitted: AtomicUsize,
}

impl Limits {
    fn capacity(&self) -> usize {
        self.max_active.load(Ordering::Relaxed).saturating_add(self.queue.load(Ordering::Relaxed))
    }

    /// Gives a worker slot back, or forgets it while a shrink is owed.
    fn release(&self, permit: OwnedSemaphorePermit) {
        if self.debt.fetch_update(Ordering::AcqRel, Ordering::Acquire, |d| d.checked_sub(1)).is_ok() {
            permit.forget();
        } else {
            drop(permit);
            // Pairs with the fence in `set_max_active`: either this thread
            // sees the debt a concurrent shrink added, or the shrink sees
            // the permit given back.
            fence(Ordering::SeqCst);
            self.pay_debt();
        }
    }

    /// Forgets free permits while a shrink is owed.
    fn pay_debt(&self) {
        loop {
            let owed = self.debt.load(Ordering::Acquire);
            if owed == 0 {
                return;
            }
            let took = self.slots.forget_permits(owed);
            if took == 0 {
                return;
            }
            // Someone else may have paid part of it meanwhile: give the
            // excess back.
            let mut excess = 0;
            let _ = self.debt.fetch_update(Ordering::AcqRel, Ordering::Acquire, |d| {
                let paid = d.min(took);
                excess = took - paid;
                Some(d - paid)
            });
            if excess > 0 {
                self.slots.add_permits(excess);
            }
        }
    }

    /// Changes the number of worker slots: growing adds permits at once
    /// (cancelling any debt first), shrinking forgets the free ones and owes
    /// the rest, paid as running handlers finish. Callers serialise it.
    fn set_max_active(&self, new: usize) {
        let old = self.max_active.swap(new, Ordering::AcqRel);
        if new > old {
            let grow = new - old;
            let mut cancelled = 0;
            let _ = self.debt.fetch_update(Ordering::AcqRel, Ordering::Acquire, |d| {
                cancelled = d.min(grow);
                Some(d - cancelled)
            });
            if grow > cancelled {
                self.slots.add_permits(grow - cancelled);
            }
        } else if new < old {
            let shrink = old - new;
            let took = self.slots.forget_permits(shrink);
            if shrink > took {
                self.debt.fetch_add(shrink - took, Ordering::AcqRel);
                fence(Ordering::SeqCst);
                self.pay_debt();
            }
        }
    }

    /// Handlers holding a slot now.
    fn active(&self) -> usize {
        let total = self.max_active.load(Ordering::Acquire).saturating_add(self.debt.load(Ordering::Acquire));
        total.saturating_sub(self.slots.available_permits())
    }
}

impl Bounded {
    pub(crate) fn new(name: &str, scheduler: &Scheduler) -> io::Result<Self> {
        let thread_seq = Arc::new(AtomicUsize::new(0));
        let (spawner, threads) = scheduler.spawner(name, &thread_seq)?;
        let max_active = scheduler.max_active.unwrap_or(threads).max(1);
        Ok(Self {
            name: name.to_owned(),
            owns_runtime: matches!(spawner, Spawner::Workers(_)),
            pool: ArcSwap::from_pointee(Pool { spawner, threads }),
            thread_seq,
            limits: Arc::new(Limits {
                slots: Arc::new(Semaphore::new(max_active)),
                max_active: AtomicUsize::new(max_active),
                queue: AtomicUsize::new(scheduler.queue),
                debt: AtomicUsize::new(0),
                admitted: AtomicUsize::new(0),
            }),
            fail_fast: scheduler.fail_fast,
            counters: Arc::new(Counters::default()),
            resizing: Mutex::new(ResizeState { max_active_explicit: scheduler.max_active.is_some() }),
        })
    }

    /// Runs `task` on a worker slot, or answers 429 (queue full), 503
    /// (past the fail-fast time, or shutting down) or 500 (panic).
    ///
    /// Admission is decided on the first poll, before any await, so a full
    /// queue answers at once. Dropping the returned future leaves the queue
    /// or aborts the running task.
    ///
    /// `received` is when the request arrived, needed only by a
    /// time-to-first-byte fail-fast ([`needs_received_at`](Self::needs_received_at));
    /// now when unknown. The clock is read only when a fail-fast limit
    /// needs it or the request has to wait for a slot: a request that finds
    /// a free slot takes it at once and is counted as not having waited.
    pub(crate) async fn run(&self, task: BoxFuture<Response>, received: Option<Instant>) -> Response {
        let checked_at = match self.fail_fast {
            Some(ff @ FailFast::Ttfb(_)) => {
                let now = Instant::now();
                if ff.expired(received.unwrap_or(now), now, now) {
                    return self.failed_fast(ff);
                }
                Some(now)
            }
            _ => None,
        };
        let Some(admission) = self.admit() else {
            Counters::bump(&self.counters.rejected);
            let max_active = self.limits.max_active.load(Ordering::Relaxed);
            let queue = self.limits.queue.load(Ordering::Relaxed);
            return HttpError::too_many_requests(format!(
                "executor `{}` is full: {max_active} requests running and {queue} queued",
                self.name
            ))
            .with("executor", self.name.as_str())
            .with("maxActive", max_active)
            .with("queue", queue)
            .into_response();
        };
        let mut pending = Pending { counters: &self.counters, done: false };
        let (permit, waited) = match Arc::clone(&self.limits.slots).try_acquire_owned() {
            // A free slot (so nobody waits before this request: released
            // slots go to waiters first): no wait to time or fail fast on,
            // and no future to wait in.
            Ok(permit) => {
                self.counters.record_wait(Duration::ZERO);
                (permit, None)
            }
            Err(TryAcquireError::Closed) => {
                pending.done = true;
                return self.shutting_down();
            }
            Err(TryAcquireError::NoPermits) => {
                let queued_at = checked_at.unwrap_or_else(Instant::now);
                let Ok(permit) = Arc::clone(&self.limits.slots).acquire_owned().await else {
                    pending.done = true;
                    return self.shutting_down();
                };
                let started = Instant::now();
                self.counters.record_wait(started.saturating_duration_since(queued_at));
                (permit, Some((queued_at, started)))
            }
        };
        let slot = Slot { permit: Some(permit), admission };
        if let (Some(ff), Some((queued_at, started))) = (self.fail_fast, waited) {
            if ff.expired(received.unwrap_or(queued_at), queued_at, started) {
                pending.done = true;
                return self.failed_fast(ff);
            }
        }
        let counters = Arc::clone(&self.counters);
        // The threads stay up while this request runs on them, even if a
        // resize replaces them meanwhile; the last request to end stops
        // them (here, on the caller's thread, never on their own).
        let pool = self.pool.load_full();
        // The slot and the admission leave with the task, not with the
        // request: a cancelled blocking handler keeps its thread until it
        // returns, and its slot with it. A handler that answers gives them
        // back with its answer, on this side: a request waiting for the
        // slot is then woken here, not by the thread the handler ran on.
        let spawned = pool.spawner.spawn_with(|held| async move {
            let _held = held;
            let res = task.await;
            Counters::bump(&counters.completed);
            (res, slot)
        });
        let running = match spawned {
            Ok(running) => running,
            Err(err) => {
                pending.done = true;
                tracing::error!(executor = %self.name, error = %err, "cannot start a worker thread");
                return HttpError::service_unavailable(format!(
                    "executor `{}` cannot start a worker thread: {err}",
                    self.name
                ))
                .with("executor", self.name.as_str())
                .into_response();
            }
        };
        let res = match running.await {
            Ok((res, slot)) => {
                drop(slot);
                res
            }
            Err(Lost::Panicked) => {
                Counters::bump(&self.counters.panicked);
                panicked()
            }
            Err(Lost::Cancelled) => HttpError::service_unavailable("the request was cancelled").into_response(),
        };
        pending.done = true;
        drop(pool);
        res
    }

    /// Whether [`run`](Self::run) needs the time the request arrived: only
    /// a time-to-first-byte fail-fast measures from it, so for any other
    /// executor the dispatcher does not read the clock.
    pub(crate) fn needs_received_at(&self) -> bool {
        matches!(self.fail_fast, Some(FailFast::Ttfb(_)))
    }

    fn shutting_down(&self) -> Response {
        HttpError::service_unavailable(format!("executor `{}` is shutting down", self.name))
            .with("executor", self.name.as_str())
            .into_response()
    }

    fn admit(&self) -> Option<Admission> {
        let capacity = self.limits.capacity();
        self.limits
            .admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < capacity).then_some(n + 1))
            .ok()
            .map(|_| Admission(Arc::clone(&self.limits)))
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
        self.limits.slots.close();
    }

    /// Applies `resize` (already validated) and reports the new sizes.
    ///
    /// Validation comes first and the first of the new threads (starting
    /// it is the only step that can fail; the others start as handlers come)
    /// is started before anything changes, so a failed resize changes
    /// nothing.
    pub(crate) fn resize(&self, resize: &Resize) -> Result<ExecutorMetrics, ResizeError> {
        let mut state = self.resizing.lock().unwrap_or_else(PoisonError::into_inner);
        if resize.threads.is_some() && !self.owns_runtime {
            return Err(ResizeError::NotResizable {
                executor: self.name.clone(),
                field: "threads",
                reason: "it runs on a tokio runtime it does not own (`Scheduler::on_runtime`)".to_owned(),
            });
        }
        let threads_now = self.pool.load().threads;
        let new_threads = resize.threads.filter(|&t| t != threads_now);
        let pool = match new_threads {
            Some(threads) => {
                let workers = owned_workers(&self.name, threads, &self.thread_seq);
                workers.start_first().map_err(|source| ResizeError::Runtime { executor: self.name.clone(), source })?;
                Some(workers)
            }
            None => None,
        };
        let max_active = match (resize.max_active, resize.threads) {
            (Some(max_active), _) => {
                state.max_active_explicit = true;
                Some(max_active)
            }
            (None, Some(threads)) if !state.max_active_explicit => Some(threads),
            _ => None,
        };
        if let Some(queue) = resize.queue {
            self.limits.queue.store(queue, Ordering::Release);
        }
        if let Some(max_active) = max_active {
            self.limits.set_max_active(max_active);
        }
        if let (Some(workers), Some(threads)) = (pool, new_threads) {
            let pool = Pool { spawner: Spawner::Workers(workers), threads };
            // Requests that loaded the old pool keep it alive until they end.
            drop(self.pool.swap(Arc::new(pool)));
        }
        tracing::info!(
            executor = %self.name,
            threads = self.pool.load().threads,
            max_active = self.limits.max_active.load(Ordering::Relaxed),
            queue = self.limits.queue.load(Ordering::Relaxed),
            "executor resized"
        );
        drop(state);
        Ok(self.metrics())
    }

    pub(crate) fn metrics(&self) -> ExecutorMetrics {
        let active = self.limits.active();
        let admitted = self.limits.admitted.load(Ordering::Acquire);
        ExecutorMetrics {
            name: self.name.clone(),
            threads: self.pool.load().threads,
            max_active: self.limits.max_active.load(Ordering::Acquire),
            queue_capacity: self.limits.queue.load(Ordering::Acquire),
            active,
            queued: admitted.saturating_sub(active),
            completed: self.counters.completed.load(Ordering::Relaxed),
            rejected: self.counters.rejected.load(Ordering::Relaxed),
            fail_fast: self.counters.fail_fast.load(Ordering::Relaxed),
            panicked: self.counters.panicked.load(Ordering::Relaxed),
            cancelled: self.counters.cancelled.load(Ordering::Relaxed),
            queue_wait: self.counters.queue_wait(),
            resizable_threads: self.owns_runtime,
        }
    }
}

/// A worker slot held by a running handler, with its admission.
struct Slot {
    permit: Option<OwnedSemaphorePermit>,
    admission: Admission,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(permit) = self.permit.take() {
            self.admission.0.release(permit);
        }
    }
}

/// One admitted request; gives its place back when dropped.
struct Admission(Arc<Limits>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::AcqRel);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_active: usize) -> Arc<Limits> {
        Arc::new(Limits {
            slots: Arc::new(Semaphore::new(max_active)),
            max_active: AtomicUsize::new(max_active),
            queue: AtomicUsize::new(0),
            debt: AtomicUsize::new(0),
            admitted: AtomicUsize::new(0),
        })
    }

    #[test]
    fn a_shrink_takes_free_slots_at_once_and_the_rest_as_they_come_back() {
        let l = limits(4);
        let mut held: Vec<_> = (0..3).map(|_| Arc::clone(&l.slots).try_acquire_owned().unwrap()).collect();
        l.set_max_active(1);
        // The free slot went at once; two are owed.
        assert_eq!((l.slots.available_permits(), l.debt.load(Ordering::SeqCst), l.active()), (0, 2, 3));
        l.release(held.pop().unwrap());
        assert_eq!((l.slots.available_permits(), l.debt.load(Ordering::SeqCst), l.active()), (0, 1, 2));
        // Growing cancels what is still owed before adding slots.
        l.set_max_active(3);
        assert_eq!((l.slots.available_permits(), l.debt.load(Ordering::SeqCst), l.active()), (1, 0, 2));
        for permit in held {
            l.release(permit);
        }
        assert_eq!((l.slots.available_permits(), l.active()), (3, 0));
    }

    #[test]
    fn slots_converge_to_max_active_under_concurrent_releases_and_resizes() {
        let l = limits(8);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let workers: Vec<_> = (0..4)
            .map(|_| {
                let l = Arc::clone(&l);
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        if let Ok(permit) = Arc::clone(&l.slots).try_acquire_owned() {
                            std::thread::yield_now();
                            l.release(permit);
                        }
                    }
                })
            })
            .collect();
        for i in 0..2000 {
            l.set_max_active([1, 7, 3, 12, 2, 5][i % 6]);
        }
        l.set_max_active(4);
        stop.store(true, Ordering::Relaxed);
        for worker in workers {
            worker.join().unwrap();
        }
        // Every slot is back: exactly `max_active` remain, nothing owed.
        assert_eq!((l.slots.available_permits(), l.debt.load(Ordering::SeqCst), l.active()), (4, 0, 0));
    }
}
