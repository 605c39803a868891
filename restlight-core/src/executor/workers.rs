//! The threads of an executor built with [`Scheduler::threads`](super::Scheduler::threads):
//! one single-threaded tokio runtime per thread, and a handler handed to
//! one thread directly, an idle one when there is one.
//!
//! Why not one multi-thread runtime: its workers look for work on each
//! other's queues, and a worker that finds some wakes another to go on
//! looking. A handler handed over from an IO thread then wakes two or more
//! threads, and on a busy core every extra wake-up is a context switch the
//! IO thread pays for. Here a handoff wakes exactly the thread that runs
//! the handler, and a thread with nothing to do sleeps in its runtime's
//! driver without searching.
//!
//! A thread runs every task given to it, so a handler that blocks holds its
//! thread and whatever else was given to that thread. Handlers are given to
//! an idle thread first, so while fewer handlers run than there are threads
//! (the default `max_active`), each has a thread of its own.
//!
//! A handler handed over from one of these threads (an IO event loop, or
//! another executor's thread) goes by post with the others of its round,
//! and its answer comes back with the others its thread finished in the
//! same round: see [`post`](super::post).
//!
//! A thread (and its runtime) is started the first time a handler is given
//! to it, not when the pool is built: a service whose business routes are
//! never called, or called one at a time, starts none or one. Since an idle
//! thread is taken first and the first idle one in order, the threads are
//! started in order, and only as many as ever ran handlers at once.

#[cfg(test)]
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use tokio::runtime::{Handle, Runtime};
use tokio::sync::oneshot;

use super::post::Post;
#[cfg(test)]
use super::post::Running;

/// The worker threads of one generation of an executor, or the server's IO
/// event loops (which start every thread at once with [`start_all`](Self::start_all),
/// or, when there is one, make the server thread it with
/// [`adopt_first`](Self::adopt_first)).
#[derive(Debug)]
pub struct Workers {
    workers: Vec<Worker>,
    /// What the threads started so far need to stop (their senders are
    /// dropped to stop them) and to be waited for; only starting a thread
    /// and dropping the pool lock it.
    started: Mutex<Started>,
    /// How long dropping outside an async context waits for the threads.
    grace: Duration,
    name: ThreadName,
}

#[derive(Debug)]
struct Started {
    stop: Vec<oneshot::Sender<()>>,
    ended: Arc<Ended>,
}

/// How many of the threads have ended, counted by each as it ends.
#[derive(Debug, Default)]
struct Ended {
    count: Mutex<usize>,
    changed: Condvar,
}

/// One thread: its post once started (which holds the thread's runtime
/// and hands it tasks), and how many tasks it holds.
#[derive(Debug)]
struct Worker {
    thread: OnceLock<Arc<Post>>,
    running: Arc<AtomicUsize>,
}

/// Names a thread as it starts.
struct ThreadName(Box<dyn Fn() -> String + Send + Sync>);

impl std::fmt::Debug for ThreadName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ThreadName")
    }
}

impl Workers {
    /// A pool of `threads` threads (at least one) named by `name` (called
    /// once per thread, as it starts). No thread starts here: each starts
    /// on its first task.
    pub fn new(threads: usize, grace: Duration, name: impl Fn() -> String + Send + Sync + 'static) -> Self {
        let workers = (0..threads.max(1))
            .map(|_| Worker { thread: OnceLock::new(), running: Arc::new(AtomicUsize::new(0)) })
            .collect();
        Self {
            workers,
            started: Mutex::new(Started { stop: Vec::new(), ended: Arc::default() }),
            grace,
            name: ThreadName(Box::new(name)),
        }
    }

    /// How many of the threads have started.
    #[cfg(test)]
    pub(crate) fn started(&self) -> usize {
        self.workers.iter().filter(|w| w.thread.get().is_some()).count()
    }

    /// How many tasks each thread holds.
    #[cfg(test)]
    pub(crate) fn running(&self) -> Vec<usize> {
        self.workers.iter().map(|w| w.running.load(Ordering::SeqCst)).collect()
    }

    /// Starts the first thread now, if it has not started: what a resize
    /// does, so that a pool whose threads cannot start is refused before it
    /// replaces the running one.
    pub(crate) fn start_first(&self) -> io::Result<()> {
        self.thread(&self.workers[0]).map(drop)
    }

    /// Starts every thread now, in order.
    pub fn start_all(&self) -> io::Result<()> {
        self.workers.iter().try_for_each(|worker| self.thread(worker).map(drop))
    }

    /// Makes the calling thread the pool's first thread, for a pool that
    /// shares its thread with its owner's work (the server's one IO loop,
    /// which also accepts the connections): the thread's runtime is built
    /// and returned, for the caller to run with [`Adopted::block_on`], and
    /// what this thread hands over from now on goes by post (see
    /// [`post`](super::post)), as from a thread the pool started. No
    /// thread starts for it, here or later. Call it before the first task
    /// is given to the pool; the error is the operating system's refusal
    /// to build the runtime, or [`io::ErrorKind::AlreadyExists`] when the
    /// first thread has started already.
    pub fn adopt_first(&self) -> io::Result<Adopted> {
        let worker = &self.workers[0];
        let _started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        if worker.thread.get().is_some() {
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, "the pool's first thread has started"));
        }
        let (rt, post) = worker.runtime()?;
        post.open_here();
        // Runs whenever the caller's `block_on` does.
        drop(rt.spawn(Arc::clone(&post).postman()));
        let _ = worker.thread.set(Arc::clone(&post));
        Ok(Adopted { rt: Some(rt), post, grace: self.grace })
    }

    /// The runtimes of the threads started so far, in order.
    pub fn handles(&self) -> Vec<Handle> {
        self.workers.iter().filter_map(|w| w.thread.get().map(|post| post.handle().clone())).collect()
    }

    /// Claims the first idle thread, or the one holding the fewest tasks
    /// when none is idle, starting it if it has not started: its runtime,
    /// to spawn on, and the claim, which the task spawned there must hold
    /// until it ends. The error is the operating system's refusal to start
    /// the thread or its runtime.
    pub fn claim(&self) -> io::Result<(&Handle, Held)> {
        let (post, held) = self.claim_post()?;
        Ok((post.handle(), held))
    }

    /// Runs the future `make` builds on the first idle thread, or on the
    /// one holding the fewest tasks when none is idle, starting that
    /// thread if it has not started yet. `make` is given the claim on the
    /// thread, which the future must hold until it ends (so a caller with
    /// state of its own spawns one future, not one inside another). The
    /// error is the operating system's refusal to start the thread or its
    /// runtime (the future is not built then).
    ///
    /// From a thread Restlight started, the future goes by post (see
    /// [`post`](super::post)): with the others handed over in the same
    /// round, and its outcome back with the others its thread finished in
    /// the same round.
    #[cfg(test)]
    pub(crate) fn spawn_with<M, F>(&self, make: M) -> io::Result<Running<F::Output>>
    where
        M: FnOnce(Held) -> F,
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (post, held) = self.claim_post()?;
        Ok(post.run(make(held)))
    }

    /// Runs the job `make` builds on the first idle thread, or on the one
    /// holding the fewest tasks when none is idle, starting that thread if
    /// it has not started yet. `make` is given the claim on the thread,
    /// which the job must hold until it ends; the job answers its requests
    /// itself (see [`Ticket`](super::post::Ticket)). From a thread
    /// Restlight started, the job goes by post (see [`post`](super::post)),
    /// with the others handed over in the same round. The error is the
    /// operating system's refusal to start the thread or its runtime (the
    /// job is not built then).
    pub(crate) fn start<M>(&self, make: M) -> io::Result<()>
    where
        M: FnOnce(Held) -> super::post::Job,
    {
        let (post, held) = self.claim_post()?;
        post.run_job(make(held));
        Ok(())
    }

    /// Claims a thread as [`claim`](Self::claim) does: its post, and the claim.
    fn claim_post(&self) -> io::Result<(&Arc<Post>, Held)> {
        let worker = self.pick();
        let held = Held(Arc::clone(&worker.running));
        Ok((self.thread(worker)?, held))
    }

    /// The post of `worker`'s thread, started on first use.
    fn thread<'w>(&self, worker: &'w Worker) -> io::Result<&'w Arc<Post>> {
        if let Some(thread) = worker.thread.get() {
            return Ok(thread);
        }
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(thread) = worker.thread.get() {
            return Ok(thread);
        }
        // The runtime is built here (building one does not enter it, so
        // any context will do) and handed to its thread, which runs it and
        // drops it: never dropped in the caller's (possibly async) context,
        // except through `shutdown_background` when the thread cannot start.
        let (rt, post) = worker.runtime()?;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let (give_rt, take_rt) = super::handoff::handoff::<Runtime>();
        let ended = Arc::clone(&started.ended);
        let grace = self.grace;
        let own = Arc::clone(&post);
        let spawned = std::thread::Builder::new().name((self.name.0)()).spawn(move || {
            let Some(rt) = take_rt.take() else { return };
            own.open_here();
            rt.block_on(async {
                tokio::spawn(Arc::clone(&own).postman());
                let _ = stop_rx.await;
            });
            rt.shutdown_timeout(grace);
            own.close_here();
            *ended.count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
            ended.changed.notify_all();
        });
        if let Err(err) = spawned {
            rt.shutdown_background();
            return Err(err);
        }
        give_rt.give(rt);
        started.stop.push(stop_tx);
        Ok(worker.thread.get_or_init(|| post))
    }

    /// Claims a thread for one more task.
    fn pick(&self) -> &Worker {
        // The first idle thread: under light load the same few threads
        // serve every request, their stacks and caches warm.
        for worker in &self.workers {
            if worker.running.compare_exchange(0, 1, Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                return worker;
            }
        }
        let least = self
            .workers
            .iter()
            .min_by_key(|w| w.running.load(Ordering::Relaxed))
            .unwrap_or_else(|| unreachable!("a pool has at least one thread"));
        least.running.fetch_add(1, Ordering::AcqRel);
        least
    }
}

/// The runtime of a pool's first thread run by the thread that made the
/// pool ([`Workers::adopt_first`]). Dropping it (on that thread, outside
/// any async context) stops the runtime, waiting up to the pool's grace
/// time for its blocking tasks, and closes the thread's post: mail sent to
/// it later is dropped, as for a thread of the pool's own that has ended.
#[derive(Debug)]
pub struct Adopted {
    rt: Option<Runtime>,
    post: Arc<Post>,
    grace: Duration,
}

impl Adopted {
    /// Runs `future` to its end on this runtime, with the tasks handed to
    /// the thread (and its post's) running beside it.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.rt.as_ref().unwrap_or_else(|| unreachable!("taken only when dropped")).block_on(future)
    }
}

impl Drop for Adopted {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_timeout(self.grace);
        }
        self.post.close_here();
    }
}

impl Worker {
    /// A runtime for this worker's thread, and the thread's post, which
    /// counts its tasks in the worker's count.
    fn runtime(&self) -> io::Result<(Runtime, Arc<Post>)> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let post = Arc::new(Post::new(rt.handle().clone(), Arc::clone(&self.running)));
        Ok((rt, post))
    }
}

/// A task's claim on its thread, given back when the task ends (answered,
/// panicked or aborted).
#[derive(Debug)]
pub struct Held(Arc<AtomicUsize>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Drop for Workers {
    /// Stops the threads: tasks still running are dropped. Outside an async
    /// context it waits up to the grace time for the threads to end
    /// (a handler that blocks cannot be interrupted); inside one it does not
    /// wait.
    fn drop(&mut self) {
        let started = self.started.get_mut().unwrap_or_else(PoisonError::into_inner);
        let threads = started.stop.len();
        started.stop.clear();
        if threads == 0 || Handle::try_current().is_ok() {
            return;
        }
        let ended = &started.ended;
        let count = ended.count.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = ended.changed.wait_timeout_while(count, self.grace, |ended| *ended < threads);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::post::Lost;
    use std::time::Instant;

    fn pool(threads: usize) -> Workers {
        let n = AtomicUsize::new(0);
        Workers::new(threads, Duration::from_secs(1), move || {
            format!("test-worker-{}", n.fetch_add(1, Ordering::Relaxed) + 1)
        })
    }

    impl Workers {
        /// Runs `task` on the pool, holding its claim on the thread.
        pub(crate) fn spawn_ok<F>(&self, task: F) -> Running<F::Output>
        where
            F: Future + Send + 'static,
            F::Output: Send + 'static,
        {
            self.spawn_with(|held| async move {
                let _held = held;
                task.await
            })
            .unwrap()
        }
    }

    /// The names of this process's threads that start with `prefix`, as
    /// the operating system lists them.
    #[cfg(target_os = "linux")]
    fn os_threads(prefix: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
            .map(|comm| comm.trim_end().to_owned())
            .filter(|comm| comm.starts_with(prefix))
            .collect();
        names.sort();
        names
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn threads_start_on_first_use_in_order_and_only_as_many_as_run_at_once() {
        // Thread names are at most 15 bytes on Linux: a short, unique prefix.
        let n = AtomicUsize::new(0);
        let pool =
            Workers::new(4, Duration::from_secs(1), move || format!("lazy-w-{}", n.fetch_add(1, Ordering::Relaxed)));
        assert!(os_threads("lazy-w-").is_empty(), "no thread before the first task");
        assert_eq!(pool.started(), 0);
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        // One task at a time: always the first thread.
        for _ in 0..3 {
            assert_eq!(rt.block_on(pool.spawn_ok(async { name() })).unwrap(), "lazy-w-0");
        }
        assert_eq!(os_threads("lazy-w-"), ["lazy-w-0"]);
        // Two at once: a second thread starts, and no more.
        let (tx, rx) = oneshot::channel::<()>();
        let waiting = pool.spawn_ok(async move { rx.await.map(|()| name()) });
        assert_eq!(rt.block_on(pool.spawn_ok(async { name() })).unwrap(), "lazy-w-1");
        tx.send(()).unwrap();
        assert_eq!(rt.block_on(waiting).unwrap().unwrap(), "lazy-w-0");
        assert_eq!(os_threads("lazy-w-"), ["lazy-w-0", "lazy-w-1"]);
        assert_eq!(pool.started(), 2);
        // Dropping the pool stops them (a thread leaves the list just
        // after it reports its end; a busy machine may take a while to run
        // it to its end, so the wait is long and left as soon as it ends).
        drop(pool);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !os_threads("lazy-w-").is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(os_threads("lazy-w-"), Vec::<String>::new(), "the started threads ended with the pool");
    }

    fn name() -> String {
        std::thread::current().name().unwrap_or_default().to_owned()
    }

    #[test]
    fn an_idle_thread_is_taken_first_so_concurrent_handlers_get_threads_of_their_own() {
        let pool = pool(3);
        let gate = Arc::new(std::sync::Barrier::new(4));
        // Three blocking tasks at once: each can only pass the barrier if
        // it has a thread of its own.
        let tasks: Vec<_> = (0..3)
            .map(|_| {
                let gate = Arc::clone(&gate);
                pool.spawn_ok(async move {
                    gate.wait();
                    name()
                })
            })
            .collect();
        gate.wait();
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let mut names: Vec<String> = tasks.into_iter().map(|t| rt.block_on(t).unwrap()).collect();
        names.sort();
        assert_eq!(names, ["test-worker-1", "test-worker-2", "test-worker-3"]);
        // Every thread is idle again: the next task goes to the first.
        assert_eq!(rt.block_on(pool.spawn_ok(async { name() })).unwrap(), "test-worker-1");
    }

    #[test]
    fn with_every_thread_busy_the_least_loaded_takes_the_task() {
        let pool = pool(2);
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let loads = |pool: &Workers| pool.workers.iter().map(|w| w.running.load(Ordering::SeqCst)).collect::<Vec<_>>();
        // Tasks that await: they hold their thread's count, not the thread.
        let (txs, rxs): (Vec<_>, Vec<_>) = (0..3).map(|_| oneshot::channel::<()>()).unzip();
        let mut rxs = rxs.into_iter();
        let mut waiting = || {
            let rx = rxs.next().unwrap();
            pool.spawn_ok(async move { rx.await.map(|()| name()) })
        };
        let a = waiting();
        let b = waiting();
        assert_eq!(loads(&pool), [1, 1], "one idle thread each");
        let c = waiting();
        assert_eq!(loads(&pool), [2, 1], "a tie goes to the first");
        assert_eq!(rt.block_on(pool.spawn_ok(async { name() })).unwrap(), "test-worker-2", "the less loaded thread");
        for tx in txs {
            tx.send(()).unwrap();
        }
        let names: Vec<String> = [a, b, c].into_iter().map(|t| rt.block_on(t).unwrap().unwrap()).collect();
        assert_eq!(names, ["test-worker-1", "test-worker-2", "test-worker-1"]);
        assert_eq!(loads(&pool), [0, 0]);
    }

    #[test]
    fn an_aborted_or_panicking_task_gives_its_thread_back() {
        let pool = pool(1);
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let pending = pool.spawn_ok(async move {
            let _tx = tx;
            std::future::pending::<()>().await;
        });
        drop(pending);
        assert!(rt.block_on(rx).is_err(), "the aborted task was dropped");
        let panicked = pool.spawn_ok(async { panic!("boom") });
        assert_eq!(rt.block_on(panicked).unwrap_err(), Lost::Panicked);
        assert_eq!(pool.workers[0].running.load(Ordering::SeqCst), 0);
        assert_eq!(rt.block_on(pool.spawn_ok(async { name() })).unwrap(), "test-worker-1");
    }

    #[test]
    fn dropping_the_pool_ends_its_threads_and_drops_their_tasks() {
        let pool = pool(2);
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        // A task that never ends on its own; dropping it drops `tx`.
        let never = pool.spawn_ok(async move {
            let _tx = tx;
            std::future::pending::<()>().await;
        });
        drop(pool);
        assert!(rt.block_on(rx).is_err(), "the task was dropped with its thread");
        assert_eq!(rt.block_on(never).unwrap_err(), Lost::Cancelled);
    }
}
