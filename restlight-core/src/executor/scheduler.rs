//! [`Scheduler`]: the configuration of a bounded executor.

use std::io;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::runtime::Handle;

use super::bounded::{Spawner, TEARDOWN_GRACE};
use super::failfast::FailFast;
use super::workers::Workers;

/// The default length of a bounded executor's queue: 512 waiting requests.
pub const DEFAULT_QUEUE: usize = 512;

/// A bounded executor to build: where its handlers run, how many at once,
/// how many requests may wait, and for how long.
///
/// Register it with `AppBuilder::scheduler` (or `Restlight::scheduler`)
/// under a name that routes use in `#[scheduled("name")]`; the name `"biz"`
/// configures the business executor.
///
/// A request scheduled on it is admitted at once or refused with 429 when
/// `max_active + queue` requests are already running or waiting; admitted
/// requests wait in FIFO order for one of the `max_active` worker slots. A
/// handler holds its slot until it finishes, awaits included, like a thread
/// of a thread pool; and like one, a handler that finishes while requests
/// wait takes the first of them on its own thread, so a busy executor's
/// threads run request after request without a wake-up each. Dropping the
/// request (client gone, stream reset, route timeout) removes it from the
/// queue or aborts its running task.
///
/// ```
/// use std::time::Duration;
/// use restlight_core::{AppBuilder, FailFast, Scheduler};
///
/// let app = AppBuilder::new()
///     .scheduler("reports", Scheduler::threads(4).queue(100))
///     .scheduler("biz", Scheduler::threads(16).fail_fast(FailFast::queued(Duration::from_secs(1))))
///     .build()
///     .unwrap();
/// assert!(app.executors().iter().any(|e| e.name == "reports" && e.queue_capacity == 100));
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Scheduler {
    pub(crate) runtime: RuntimeSource,
    pub(crate) max_active: Option<usize>,
    pub(crate) queue: usize,
    pub(crate) fail_fast: Option<FailFast>,
}

/// Where a bounded executor's handlers run.
#[derive(Debug, Clone)]
pub(crate) enum RuntimeSource {
    /// Threads of its own, this many, each running a single-threaded runtime.
    Threads(usize),
    /// A runtime someone else owns.
    Handle(Handle),
}

impl Default for Scheduler {
    /// The business executor's defaults: `max(4, 2 x cores)` threads of its
    /// own, a queue of 512, no fail-fast.
    fn default() -> Self {
        Self::threads((2 * cores()).max(4))
    }
}

impl Scheduler {
    /// `threads` worker threads of its own, named `restlight-<name>-<n>`,
    /// each started the first time a handler is given to it (none at
    /// startup; the first thread for the first handler, a second one when
    /// two run at once, and so on) and stopped with the application. Zero is treated
    /// as one. At most `threads` handlers run at once unless
    /// [`max_active`](Self::max_active) says otherwise.
    ///
    /// Each thread runs a single-threaded tokio runtime (timers and IO
    /// enabled) and a handler is handed to one thread, an idle one first:
    /// while no more handlers run than there are threads, each has a thread
    /// of its own; above that (a `max_active` above the thread count), the
    /// thread holding the fewest handlers takes the next. From the
    /// server's IO threads (and from these threads), handlers are handed
    /// over a round at a time: those handed over while the IO thread had
    /// other tasks ready leave together when it has run them, and a
    /// thread's answers go back together once the tasks ready on it have
    /// each run. Tasks a handler starts with `tokio::spawn` run on its
    /// thread, and
    /// `tokio::task::block_in_place` is not available there (use
    /// `spawn_blocking`, or write a plain `fn` handler, which has a thread
    /// to block).
    pub fn threads(threads: usize) -> Self {
        Self {
            runtime: RuntimeSource::Threads(threads.max(1)),
            max_active: None,
            queue: DEFAULT_QUEUE,
            fail_fast: None,
        }
    }

    /// Spawns on an existing tokio runtime, which stays its owner's to
    /// shut down. At most as many handlers as the runtime has worker
    /// threads run at once unless [`max_active`](Self::max_active) says
    /// otherwise.
    pub fn on_runtime(handle: Handle) -> Self {
        Self { runtime: RuntimeSource::Handle(handle), max_active: None, queue: DEFAULT_QUEUE, fail_fast: None }
    }

    /// How many requests may wait for a worker slot; one more is answered
    /// 429 at once. Zero refuses every request that finds all slots busy.
    ///
    /// Default is 512.
    pub fn queue(mut self, len: usize) -> Self {
        self.queue = len;
        self
    }

    /// How many handlers may run at once. Raise it above the thread count
    /// for async handlers that mostly await: handlers then share threads,
    /// and from the server's IO threads a round of them is handed over,
    /// and their answers come back, with one wake-up of each thread rather
    /// than one a request. (At the thread count, a busy executor's threads
    /// take waiting requests one after another without a wake-up each
    /// too; sharing matters when handlers await, which holds a slot.) Keep
    /// it at the thread count for handlers that block, which hold up every
    /// handler sharing their thread, answered ones included. Zero is
    /// treated as one.
    ///
    /// Default is the number of worker threads; left unset, it follows the
    /// thread count when [`App::resize_executor`](crate::App::resize_executor)
    /// changes it.
    pub fn max_active(mut self, handlers: usize) -> Self {
        self.max_active = Some(handlers.max(1));
        self
    }

    /// Answers 503 to requests that waited past a time limit instead of
    /// running their handlers (see [`FailFast`]).
    ///
    /// Default is off: a request waits as long as it takes.
    pub fn fail_fast(mut self, fail_fast: FailFast) -> Self {
        self.fail_fast = Some(fail_fast);
        self
    }

    /// Builds the threads (when it owns them) for the executor `name`;
    /// `seq` numbers its threads (and those of later generations of the
    /// same executor, after a resize). Returns where to spawn and the
    /// thread count.
    pub(crate) fn spawner(&self, name: &str, seq: &Arc<AtomicUsize>) -> io::Result<(Spawner, usize)> {
        match &self.runtime {
            RuntimeSource::Threads(threads) => Ok((Spawner::Workers(owned_workers(name, *threads, seq)), *threads)),
            RuntimeSource::Handle(handle) => Ok((Spawner::Runtime(handle.clone()), handle.metrics().num_workers())),
        }
    }
}

/// `threads` worker threads named `restlight-<name>-<n>`, `n` taken from
/// `seq` as each starts (on its first handler).
pub(crate) fn owned_workers(name: &str, threads: usize, seq: &Arc<AtomicUsize>) -> Workers {
    let name = name.to_owned();
    let seq = Arc::clone(seq);
    Workers::new(threads, TEARDOWN_GRACE, move || format!("restlight-{name}-{}", seq.fetch_add(1, Ordering::Relaxed)))
}

/// The cores this process may run on, read once: the standard library
/// asks the kernel for the affinity mask and reads the cgroup quota files
/// on every call (some fifteen system calls), and both the server's IO threads
/// and the business executor's default size ask for it at startup.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::{cores, RuntimeSource, Scheduler};

    #[test]
    fn default_size_is_twice_the_cores_and_at_least_four() {
        let cpus = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        assert_eq!(cores(), cpus);
        // Read once: a second call gives the same figure.
        assert_eq!(cores(), cores());
        match Scheduler::default().runtime {
            RuntimeSource::Threads(threads) => assert_eq!(threads, (2 * cpus).max(4)),
            RuntimeSource::Handle(_) => panic!("the default business executor has threads of its own"),
        }
    }
}
