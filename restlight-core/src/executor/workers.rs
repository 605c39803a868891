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

use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The worker threads of one generation of an executor.
#[derive(Debug)]
pub(crate) struct Workers {
    workers: Vec<Worker>,
    /// Dropped to stop every thread.
    stop: Vec<oneshot::Sender<()>>,
    /// One message per thread that has ended (in a mutex for `Sync`; only
    /// the drop reads it).
    ended: Mutex<mpsc::Receiver<()>>,
    /// How long dropping outside an async context waits for the threads.
    grace: Duration,
}

/// One thread: its runtime's handle and how many tasks it holds.
#[derive(Debug)]
struct Worker {
    handle: Handle,
    running: Arc<AtomicUsize>,
}

impl Workers {
    /// Starts `threads` threads named by `name` (called once per thread).
    pub(crate) fn start(threads: usize, grace: Duration, mut name: impl FnMut() -> String) -> io::Result<Self> {
        let (ended_tx, ended) = mpsc::channel();
        let mut pool = Self {
            workers: Vec::with_capacity(threads),
            stop: Vec::with_capacity(threads),
            ended: Mutex::new(ended),
            grace,
        };
        for _ in 0..threads.max(1) {
            let (stop_tx, stop_rx) = oneshot::channel::<()>();
            let (ready_tx, ready_rx) = mpsc::sync_channel::<io::Result<Handle>>(1);
            let ended_tx = ended_tx.clone();
            // The runtime is built and dropped on its own thread, never in
            // the caller's (possibly async) context. On an error the threads
            // started so far are stopped when `pool` drops.
            std::thread::Builder::new().name(name()).spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(rt.handle().clone()));
                rt.block_on(async move {
                    let _ = stop_rx.await;
                });
                rt.shutdown_timeout(grace);
                let _ = ended_tx.send(());
            })?;
            let handle = ready_rx.recv().map_err(|_| io::Error::other("a worker thread ended while starting"))??;
            pool.workers.push(Worker { handle, running: Arc::new(AtomicUsize::new(0)) });
            pool.stop.push(stop_tx);
        }
        Ok(pool)
    }

    /// Runs `task` on the first idle thread, or on the one holding the
    /// fewest tasks when none is idle.
    pub(crate) fn spawn<F>(&self, task: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let worker = self.pick();
        let held = Held(Arc::clone(&worker.running));
        worker.handle.spawn(async move {
            let _held = held;
            task.await
        })
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

/// A task's claim on its thread, given back when the task ends (answered,
/// panicked or aborted).
struct Held(Arc<AtomicUsize>);

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
        let started = self.stop.len();
        self.stop.clear();
        if Handle::try_current().is_ok() {
            return;
        }
        let ended = self.ended.get_mut().unwrap_or_else(PoisonError::into_inner);
        let deadline = Instant::now() + self.grace;
        for _ in 0..started {
            let left = deadline.saturating_duration_since(Instant::now());
            if ended.recv_timeout(left).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> Workers {
        let mut n = 0;
        Workers::start(threads, Duration::from_secs(1), move || {
            n += 1;
            format!("test-worker-{n}")
        })
        .unwrap()
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
                pool.spawn(async move {
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
        assert_eq!(rt.block_on(pool.spawn(async { name() })).unwrap(), "test-worker-1");
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
            pool.spawn(async move { rx.await.map(|()| name()) })
        };
        let a = waiting();
        let b = waiting();
        assert_eq!(loads(&pool), [1, 1], "one idle thread each");
        let c = waiting();
        assert_eq!(loads(&pool), [2, 1], "a tie goes to the first");
        assert_eq!(rt.block_on(pool.spawn(async { name() })).unwrap(), "test-worker-2", "the less loaded thread");
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
        let pending = pool.spawn(std::future::pending::<()>());
        pending.abort();
        assert!(rt.block_on(pending).unwrap_err().is_cancelled());
        let panicked = pool.spawn(async { panic!("boom") });
        assert!(rt.block_on(panicked).unwrap_err().is_panic());
        assert_eq!(pool.workers[0].running.load(Ordering::SeqCst), 0);
        assert_eq!(rt.block_on(pool.spawn(async { name() })).unwrap(), "test-worker-1");
    }

    #[test]
    fn dropping_the_pool_ends_its_threads_and_drops_their_tasks() {
        let pool = pool(2);
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        // A task that never ends on its own; dropping it drops `tx`.
        let never = pool.spawn(async move {
            let _tx = tx;
            std::future::pending::<()>().await;
        });
        drop(pool);
        assert!(rt.block_on(rx).is_err(), "the task was dropped with its thread");
        assert!(rt.block_on(never).unwrap_err().is_cancelled());
    }
}
