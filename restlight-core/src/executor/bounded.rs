//! The bounded executor: admission decided at once (429 when full), a FIFO
//! wait for one of `max_active` worker slots, fail-fast on the way out of
//! the queue, and the handler spawned on the executor's threads (or on the
//! runtime it was given), tied to its request.
//!
//! A request that finds every slot taken waits in the executor's line
//! ([`Limits::waiting`]) with its handler, not in a future of its own
//! thread: the handler that finishes next takes it, slot and all, on the
//! thread it ran on ([`serve`]), and the next after it, as a thread pool's
//! worker takes the next task from its queue. A busy executor's thread
//! then runs request after request without sleeping in between, and the
//! request's thread is not woken to hand its slot on: with one handler a
//! thread (the default), what a request costs the executor no longer grows
//! with how many wait. Each answer goes back by post to a request on one
//! of Restlight's threads, and wakes a request on any other thread (a
//! test's runtime, a user's) directly; a slot is handed on or given back
//! before the answer leaves, so a client that has its answer finds the
//! executor's counts past it.
//!
//! Its sizes change at run time ([`Bounded::resize`]) without a lock on the
//! request path: the limits are atomics, the worker slots a semaphore that
//! grows at once and shrinks as running handlers give their slots back (a
//! "debt" of permits to forget), and the threads an [`ArcSwap`] that each
//! request loads once; a replaced generation of threads is stopped when the
//! last request that spawned on it ends.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{fence, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use super::failfast::FailFast;
use super::metrics::{Counters, ExecutorMetrics};
use super::panicked;
use super::post::{Job, Lost, Ticket};
use super::resize::{Resize, ResizeError};
use super::scheduler::{owned_workers, Scheduler};
use super::workers::{Held, Workers};
use crate::error::HttpError;
use crate::handler::BoxFuture;
use crate::response::{IntoResponse, Response};

/// How long stopping owned threads outside any async context waits for
/// handlers still running (blocking ones cannot be aborted).
pub(crate) const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// A bounded executor built from a [`Scheduler`].
#[derive(Debug)]
pub(crate) struct Bounded {
    /// Where new handlers are spawned; replaced by a thread-count resize.
    pool: ArcSwap<Pool>,
    /// Whether the executor owns its threads, so their count can change.
    owns_runtime: bool,
    /// Numbers the threads of its runtimes, across resizes.
    thread_seq: Arc<AtomicUsize>,
    limits: Arc<Limits>,
    /// Held by resizes only, never by requests.
    resizing: Mutex<ResizeState>,
}

/// One generation of an executor's threads.
#[derive(Debug)]
struct Pool {
    spawner: Spawner,
    threads: usize,
    /// Tells this generation from the others of every executor: a thread
    /// takes a waiting request only when its own generation holds it.
    generation: u64,
}

/// The next [`Pool::generation`].
fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
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
    /// Runs the job `make` builds, which answers its requests itself,
    /// given the claim on the owned thread it runs on (none on a runtime
    /// someone else owns), which the job holds until it ends. The error is
    /// an owned thread that could not start (`make` is not called then).
    fn start<M>(&self, make: M) -> io::Result<()>
    where
        M: FnOnce(Option<Held>) -> Job,
    {
        match self {
            Self::Workers(workers) => workers.start(|held| make(Some(held))),
            Self::Runtime(handle) => {
                drop(handle.spawn(make(None).into_future()));
                Ok(())
            }
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
    /// Requests waiting for a slot, first come first served: each is
    /// taken by the handler that gives a slot back, on its own thread (see
    /// [`serve`]). A request is put here, and a slot given back, only
    /// under this lock, so none waits while a slot is free.
    waiting: Mutex<VecDeque<Waiting>>,
    /// The executor's fail-fast limit, counters and name, kept here only:
    /// answering a waiting request without running it needs them too.
    fail_fast: Option<FailFast>,
    counters: Arc<Counters>,
    name: Box<str>,
}

/// A request waiting for a slot: its handler, not yet run, and the ticket
/// it is answered by.
struct Waiting {
    task: BoxFuture<Response>,
    ticket: Ticket<Response>,
    admission: Admission,
    /// The threads the request loaded, which it keeps up until answered.
    pool: Arc<Pool>,
    queued_at: Instant,
    received: Option<Instant>,
}

impl std::fmt::Debug for Waiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiting").field("queued_at", &self.queued_at).finish_non_exhaustive()
    }
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

    /// The waiting requests, however a thread holding the lock ended.
    fn waiting(&self) -> std::sync::MutexGuard<'_, VecDeque<Waiting>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives `permit` to the first waiting request whose client is still
    /// there and whose fail-fast time has not passed, or back when none
    /// waits (or a shrink is owed it). Requests past their fail-fast time
    /// are answered 503 on the way.
    fn next(&self, permit: OwnedSemaphorePermit) -> Option<(Waiting, OwnedSemaphorePermit)> {
        loop {
            let mut gone = Vec::new();
            let mut line = self.waiting();
            let popped = if self.debt.load(Ordering::Acquire) > 0 {
                None
            } else {
                loop {
                    match line.pop_front() {
                        Some(w) if w.ticket.request_gone() => gone.push(w),
                        popped => break popped,
                    }
                }
            };
            let Some(w) = popped else {
                // Under the lock: a request put in line after this looked
                // finds the slot free.
                self.release(permit);
                drop(line);
                drop(gone);
                return None;
            };
            drop(line);
            // Dropped outside the lock: a handler's captures run user code.
            drop(gone);
            let started = Instant::now();
            let queued_at = w.queued_at;
            self.counters.record_wait(started.saturating_duration_since(queued_at));
            match self.fail_fast {
                Some(ff) if ff.expired(w.received.unwrap_or(queued_at), queued_at, started) => {
                    let Waiting { task, ticket, admission, .. } = w;
                    // Its place is given back before the answer leaves.
                    drop((task, admission));
                    ticket.answer(failed_fast(&self.counters, &self.name, ff));
                }
                _ => return Some((w, permit)),
            }
        }
    }

    /// Gives `permit` back: to the first waiting request, started on its
    /// threads, or to the slots.
    ///
    /// Starting a request can give a slot back at once (its handler is
    /// dropped unrun when its threads have ended), which calls this again:
    /// such slots are handed on by the outermost call, one after the
    /// other, so that a long line meeting ended threads is answered in a
    /// loop rather than in as many nested calls.
    fn give_back(self: &Arc<Self>, permit: OwnedSemaphorePermit) {
        let outermost = GIVING_BACK.with(|g| match g.borrow_mut().as_mut() {
            Some(later) => {
                later.push((Arc::clone(self), permit));
                None
            }
            None => Some(permit),
        });
        let Some(permit) = outermost else { return };
        GIVING_BACK.with(|g| *g.borrow_mut() = Some(Vec::new()));
        // Unwinding (a handler's drop that panics) leaves no list behind:
        // the slots in it go back to the semaphore.
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                drop(GIVING_BACK.with(|g| g.borrow_mut().take()));
            }
        }
        let _done = Done;
        let mut next = Some((Arc::clone(self), permit));
        while let Some((limits, permit)) = next {
            if let Some((waiting, permit)) = limits.next(permit) {
                limits.start(waiting, permit);
            }
            next = GIVING_BACK.with(|g| {
                let mut g = g.borrow_mut();
                let later = g.as_mut().and_then(Vec::pop);
                if later.is_none() {
                    *g = None;
                }
                later
            });
        }
    }

    /// Starts waiting requests while slots are free (after a grow).
    fn start_waiting(self: &Arc<Self>) {
        while let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            let Some((waiting, permit)) = self.next(permit) else { return };
            self.start(waiting, permit);
        }
    }

    /// Runs `waiting`'s handler with `permit` on a thread of its
    /// generation, which then takes the next waiting request itself.
    fn start(self: &Arc<Self>, waiting: Waiting, permit: OwnedSemaphorePermit) {
        let Waiting { task, ticket, admission, pool, .. } = waiting;
        self.run_on(&pool, task, ticket, Slot { permit: Some(permit), admission });
    }

    /// Runs `task` holding `slot` on a thread of `pool`, which then takes
    /// the next waiting request itself; answers by `ticket`.
    fn run_on(self: &Arc<Self>, pool: &Pool, task: BoxFuture<Response>, ticket: Ticket<Response>, slot: Slot) {
        let generation = pool.generation;
        let mut parts = Some((task, ticket, slot));
        let started = pool.spawner.start(|held| {
            let (task, ticket, slot) = parts.take().unwrap_or_else(|| unreachable!("built once"));
            Job::Serve(Serve { task, ticket, slot, held, generation })
        });
        if let (Err(err), Some((task, ticket, mut slot))) = (started, parts.take()) {
            // Back to the slots, not to the next waiting request, whose
            // thread would not start either.
            if let Some(permit) = slot.permit.take() {
                self.release(permit);
            }
            drop((task, slot));
            ticket.answer(cannot_start(&self.name, &err));
        }
    }

    /// Answers every waiting request whose client is still there with
    /// `answer`, and closes the slots: from now on no request waits.
    fn close(&self, answer: impl Fn() -> Response) {
        let waiting = {
            let mut waiting = self.waiting();
            self.slots.close();
            std::mem::take(&mut *waiting)
        };
        for w in waiting {
            let Waiting { task, ticket, admission, .. } = w;
            drop((task, admission));
            if !ticket.request_gone() {
                ticket.answer(answer());
            }
        }
    }
}

/// Slots given back while a thread gives one back, each with its limits.
type GivenBack = Vec<(Arc<Limits>, OwnedSemaphorePermit)>;

thread_local! {
    /// Slots given back while this thread gives one back (see
    /// [`Limits::give_back`]).
    static GIVING_BACK: std::cell::RefCell<Option<GivenBack>> = const { std::cell::RefCell::new(None) };
}

/// What [`Bounded::start`] gives the request: its answer made at once,
/// or the wait for the handler's.
#[derive(Debug)]
pub(crate) enum Handed {
    /// Taken when polled (boxed: the rare answer made at once keeps the
    /// future the size of the wait).
    Answered(Option<Box<Response>>),
    Waiting(Answering),
}

impl std::future::Future for Handed {
    type Output = Response;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Response> {
        match &mut *self {
            Self::Answered(res) => {
                std::task::Poll::Ready(*res.take().expect("a request's executor future was polled after it completed"))
            }
            Self::Waiting(answering) => std::pin::Pin::new(answering).poll(cx),
        }
    }
}

/// An admitted request's wait for its handler's answer. Dropped before
/// the answer, it takes the request out of the line (its place given
/// back) or stops its handler, and counts the request as cancelled.
pub(crate) struct Answering {
    answer: super::post::Awaited<Response>,
    limits: Arc<Limits>,
    /// The request's ticket's id when it was put in the line (a handler
    /// may have taken it since); 0 when it found a free slot, or once
    /// answered.
    in_line: usize,
    /// The threads the request loaded; `None` once answered.
    pool: Option<Arc<Pool>>,
}

impl std::fmt::Debug for Answering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answering").field("in_line", &(self.in_line != 0)).finish_non_exhaustive()
    }
}

impl std::future::Future for Answering {
    type Output = Response;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Response> {
        let res = std::task::ready!(std::pin::Pin::new(&mut self.answer).poll(cx));
        self.in_line = 0;
        drop(self.pool.take());
        std::task::Poll::Ready(match res {
            Ok(res) => res,
            Err(Lost::Panicked) => {
                Counters::bump(&self.limits.counters.panicked);
                panicked()
            }
            Err(Lost::Cancelled) => HttpError::service_unavailable("the request was cancelled").into_response(),
        })
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        if self.pool.is_none() {
            return;
        }
        Counters::bump(&self.limits.counters.cancelled);
        if self.in_line == 0 {
            return;
        }
        // A request dropped while it waits leaves the line at once (its
        // place is given back); one dropped later stops its handler.
        let left = {
            let mut line = self.limits.waiting();
            let at = line.iter().position(|w| w.ticket.id() == self.in_line);
            at.and_then(|at| line.remove(at))
        };
        drop(left);
    }
}

/// The handler of a request run by an executor, counted as completed when
/// it answers.
async fn counted(task: BoxFuture<Response>, counters: Arc<Counters>) -> Response {
    let res = task.await;
    Counters::bump(&counters.completed);
    res
}

/// An executor's loop ([`serve`]) on its way to the thread that runs it,
/// which builds its future (see [`Job`]).
pub(crate) struct Serve {
    task: BoxFuture<Response>,
    ticket: Ticket<Response>,
    slot: Slot,
    held: Option<Held>,
    generation: u64,
}

impl Serve {
    /// The loop, run wherever it is polled.
    pub(crate) fn run(self) -> impl std::future::Future<Output = ()> + Send {
        let Self { task, ticket, slot, held, generation } = self;
        serve(task, ticket, slot, held, generation)
    }
}

/// Runs `task` on the thread it was given to, then, holding `slot`, the
/// request that waits longest for a slot of this executor, and the next,
/// until none waits: a handler that finishes while requests wait hands its
/// slot on where it is, so a busy executor's thread takes request after
/// request without going back to sleep or waking the request's thread for
/// the slot, and still runs one at a time. A waiting request whose threads
/// are another generation (the executor was resized) is started on them.
/// Every answer goes back by its ticket as soon as its handler has it.
async fn serve(
    task: BoxFuture<Response>,
    ticket: Ticket<Response>,
    mut slot: Slot,
    held: Option<Held>,
    generation: u64,
) {
    /// Handlers run in one go before the thread's other tasks get a turn.
    const TURN: u32 = 32;
    let _held = held;
    let mut job = (task, ticket);
    let mut ran = 0;
    loop {
        let (task, ticket) = job;
        let counters = Arc::clone(&slot.admission.0.counters);
        let answer = ticket.answering(counted(task, counters)).await;
        ran += 1;
        // The slot is handed on, or given back, before the answer leaves:
        // a client that has its answer finds the executor's counts past it.
        let Some(permit) = slot.permit.take() else { return };
        let Some((next, permit)) = slot.admission.0.next(permit) else {
            drop(slot);
            drop(answer);
            return;
        };
        if next.pool.generation != generation {
            let limits = Arc::clone(&slot.admission.0);
            drop(slot);
            drop(answer);
            limits.start(next, permit);
            return;
        }
        let Waiting { task, ticket, admission, .. } = next;
        // The previous request's place is given back here.
        slot = Slot { permit: Some(permit), admission };
        drop(answer);
        job = (task, ticket);
        if ran % TURN == 0 {
            tokio::task::yield_now().await;
        }
    }
}

/// 503: the request waited past its fail-fast time.
fn failed_fast(counters: &Counters, name: &str, ff: FailFast) -> Response {
    Counters::bump(&counters.fail_fast);
    let limit = u64::try_from(ff.limit().as_millis()).unwrap_or(u64::MAX);
    let since = match ff {
        FailFast::Queued(_) => "in the queue",
        _ => "since its first byte",
    };
    HttpError::service_unavailable(format!(
        "the request waited more than the fail-fast time of {limit} ms {since} of executor `{name}`"
    ))
    .with("executor", name)
    .with("failFast", ff.kind())
    .with("limitMs", limit)
    .into_response()
}

/// 503: the executor could not start a thread for the request.
fn cannot_start(name: &str, err: &io::Error) -> Response {
    tracing::error!(executor = %name, error = %err, "cannot start a worker thread");
    HttpError::service_unavailable(format!("executor `{name}` cannot start a worker thread: {err}"))
        .with("executor", name)
        .into_response()
}

impl Bounded {
    pub(crate) fn new(name: &str, scheduler: &Scheduler) -> io::Result<Self> {
        let thread_seq = Arc::new(AtomicUsize::new(0));
        let (spawner, threads) = scheduler.spawner(name, &thread_seq)?;
        let max_active = scheduler.max_active.unwrap_or(threads).max(1);
        Ok(Self {
            owns_runtime: matches!(spawner, Spawner::Workers(_)),
            pool: ArcSwap::from_pointee(Pool { spawner, threads, generation: next_generation() }),
            thread_seq,
            limits: Arc::new(Limits {
                slots: Arc::new(Semaphore::new(max_active)),
                max_active: AtomicUsize::new(max_active),
                queue: AtomicUsize::new(scheduler.queue),
                debt: AtomicUsize::new(0),
                admitted: AtomicUsize::new(0),
                waiting: Mutex::default(),
                fail_fast: scheduler.fail_fast,
                counters: Arc::default(),
                name: name.into(),
            }),
            resizing: Mutex::new(ResizeState { max_active_explicit: scheduler.max_active.is_some() }),
        })
    }

    /// The executor's name.
    fn name(&self) -> &str {
        &self.limits.name
    }

    /// Runs `task` on a worker slot, or answers 429 (queue full), 503
    /// (past the fail-fast time, or shutting down) or 500 (panic).
    ///
    /// Dropping the returned future leaves the queue or aborts the
    /// running task. See [`start`](Self::start).
    pub(crate) async fn run(&self, task: BoxFuture<Response>, received: Option<Instant>) -> Response {
        self.start(task, received).await
    }

    /// Hands `task` over at once: admission is decided here (429 when
    /// full), and the handler runs on a free slot or waits in
    /// [`Limits::waiting`], where the next handler to finish takes it.
    /// What is returned is the request's end of it, a future of its own
    /// kind (no future of the executor's to box): the answer, or the
    /// wait for it. Dropping it leaves the queue or aborts the running
    /// task.
    ///
    /// `received` is when the request arrived, needed only by a
    /// time-to-first-byte fail-fast ([`needs_received_at`](Self::needs_received_at));
    /// now when unknown. The clock is read only when a fail-fast limit
    /// needs it or the request has to wait for a slot: a request that finds
    /// a free slot takes it at once and is counted as not having waited.
    pub(crate) fn start(&self, task: BoxFuture<Response>, received: Option<Instant>) -> Handed {
        let checked_at = match self.limits.fail_fast {
            Some(ff @ FailFast::Ttfb(_)) => {
                let now = Instant::now();
                if ff.expired(received.unwrap_or(now), now, now) {
                    return Handed::Answered(Some(Box::new(self.failed_fast(ff))));
                }
                Some(now)
            }
            _ => None,
        };
        let Some(admission) = self.admit() else {
            Counters::bump(&self.limits.counters.rejected);
            let max_active = self.limits.max_active.load(Ordering::Relaxed);
            let queue = self.limits.queue.load(Ordering::Relaxed);
            return Handed::Answered(Some(Box::new(
                HttpError::too_many_requests(format!(
                    "executor `{}` is full: {max_active} requests running and {queue} queued",
                    self.name()
                ))
                .with("executor", self.name())
                .with("maxActive", max_active)
                .with("queue", queue)
                .into_response(),
            )));
        };
        // The threads stay up while this request runs on them, even if a
        // resize replaces them meanwhile; the last request to end stops
        // them (here, on the caller's thread, never on their own).
        let pool = self.pool.load_full();
        let (ticket, answer) = Ticket::new();
        let id = ticket.id();
        let mut parts = Some((task, ticket, admission));
        let slots = &self.limits.slots;
        // A free slot (so nobody waits before this request: a slot given
        // back goes to a waiting request first) is taken without the lock.
        let permit = match Arc::clone(slots).try_acquire_owned() {
            Ok(permit) => Ok(permit),
            Err(TryAcquireError::NoPermits) => {
                let mut line = self.limits.waiting();
                match Arc::clone(slots).try_acquire_owned() {
                    Err(TryAcquireError::NoPermits) => {
                        if let Some((task, ticket, admission)) = parts.take() {
                            line.push_back(Waiting {
                                task,
                                ticket,
                                admission,
                                pool: Arc::clone(&pool),
                                // The clock is read only for a request that waits.
                                queued_at: checked_at.unwrap_or_else(Instant::now),
                                received,
                            });
                        }
                        Err(TryAcquireError::NoPermits)
                    }
                    other => other,
                }
            }
            Err(closed) => Err(closed),
        };
        let in_line = match (permit, parts) {
            (Ok(permit), Some((task, ticket, admission))) => {
                self.limits.counters.record_wait(Duration::ZERO);
                self.limits.run_on(&pool, task, ticket, Slot { permit: Some(permit), admission });
                0
            }
            (Err(TryAcquireError::Closed), _) => return Handed::Answered(Some(Box::new(self.shutting_down()))),
            _ => id,
        };
        Handed::Waiting(Answering { answer, limits: Arc::clone(&self.limits), in_line, pool: Some(pool) })
    }

    /// Whether [`run`](Self::run) needs the time the request arrived: only
    /// a time-to-first-byte fail-fast measures from it, so for any other
    /// executor the dispatcher does not read the clock.
    pub(crate) fn needs_received_at(&self) -> bool {
        matches!(self.limits.fail_fast, Some(FailFast::Ttfb(_)))
    }

    fn shutting_down(&self) -> Response {
        HttpError::service_unavailable(format!("executor `{}` is shutting down", self.name()))
            .with("executor", self.name())
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
        failed_fast(&self.limits.counters, self.name(), ff)
    }

    /// Answers 503 to every queued request, now and from now on; running
    /// handlers finish.
    pub(crate) fn close(&self) {
        self.limits.close(|| self.shutting_down());
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
                executor: self.name().to_owned(),
                field: "threads",
                reason: "it runs on a tokio runtime it does not own (`Scheduler::on_runtime`)".to_owned(),
            });
        }
        let threads_now = self.pool.load().threads;
        let new_threads = resize.threads.filter(|&t| t != threads_now);
        let pool = match new_threads {
            Some(threads) => {
                let workers = owned_workers(self.name(), threads, &self.thread_seq);
                workers
                    .start_first()
                    .map_err(|source| ResizeError::Runtime { executor: self.name().to_owned(), source })?;
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
        // Slots a grow added go to the waiting requests first.
        self.limits.start_waiting();
        if let (Some(workers), Some(threads)) = (pool, new_threads) {
            let pool = Pool { spawner: Spawner::Workers(workers), threads, generation: next_generation() };
            // Requests that loaded the old pool keep it alive until they end.
            drop(self.pool.swap(Arc::new(pool)));
        }
        tracing::info!(
            executor = %self.name(),
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
            name: self.name().to_owned(),
            threads: self.pool.load().threads,
            max_active: self.limits.max_active.load(Ordering::Acquire),
            queue_capacity: self.limits.queue.load(Ordering::Acquire),
            active,
            queued: admitted.saturating_sub(active),
            completed: self.limits.counters.completed.load(Ordering::Relaxed),
            rejected: self.limits.counters.rejected.load(Ordering::Relaxed),
            fail_fast: self.limits.counters.fail_fast.load(Ordering::Relaxed),
            panicked: self.limits.counters.panicked.load(Ordering::Relaxed),
            cancelled: self.limits.counters.cancelled.load(Ordering::Relaxed),
            queue_wait: self.limits.counters.queue_wait(),
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
    /// Gives the slot to the request waiting longest, or back.
    fn drop(&mut self) {
        if let Some(permit) = self.permit.take() {
            self.admission.0.give_back(permit);
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
            waiting: Mutex::default(),
            fail_fast: None,
            counters: Arc::default(),
            name: "test".into(),
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
