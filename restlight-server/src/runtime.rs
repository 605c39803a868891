//! The runtimes of one server: the server thread's own, which accepts
//! connections, waits for the signals and runs the drain, and the IO event
//! loops, one single-threaded runtime per IO thread. Each accepted
//! connection is handed to one loop, in turn, and stays on it to the end.
//! The business runtime belongs to the application's `"biz"` executor.
//!
//! One loop per thread rather than one multi-thread runtime: a request's
//! tasks wake and run on the thread that reads its connection, without the
//! work-stealing scheduler's shared queues and its search for idle workers
//! at every wake-up (650 to 1,150 instructions a request on the load
//! comparison's endpoints; BENCHMARKS.md). Netty's event loops and
//! actix-web's workers divide connections the same way.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use tokio::runtime::{Builder, Handle, Runtime};
use tokio::sync::oneshot;

use crate::options::ServerOptions;

/// How long tearing down a runtime waits for its leftover tasks (blocking
/// ones included) after the graceful shutdown has already run.
const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// The runtimes one server owns.
#[derive(Debug)]
pub(crate) struct Runtimes {
    /// The server thread's runtime: accept loops, signals, the drain.
    pub(crate) control: Runtime,
    /// The IO event loops, shared with the metrics.
    pub(crate) io: Arc<IoLoops>,
    /// Each loop's stop signal and the news that its thread is done.
    threads: Vec<oneshot::Sender<()>>,
    done: mpsc::Receiver<()>,
}

impl Runtimes {
    /// Builds the server thread's runtime and starts the IO threads.
    pub(crate) fn build(options: &ServerOptions) -> io::Result<Self> {
        let control = Builder::new_current_thread().enable_all().build()?;
        let count = options.io_threads();
        let (done_tx, done) = mpsc::channel();
        let mut handles = Vec::with_capacity(count);
        let mut threads = Vec::with_capacity(count);
        for i in 0..count {
            // Built here and moved to its thread: a build error is reported
            // before anything listens, with no handshake with the thread.
            let rt = Builder::new_current_thread().enable_all().build()?;
            handles.push(rt.handle().clone());
            let (stop_tx, stop_rx) = oneshot::channel::<()>();
            let done_tx = done_tx.clone();
            std::thread::Builder::new().name(format!("restlight-io-{i}")).spawn(move || {
                // Until the server stops, or is dropped without stopping.
                rt.block_on(async move {
                    let _ = stop_rx.await;
                });
                rt.shutdown_timeout(TEARDOWN_GRACE);
                let _ = done_tx.send(());
            })?;
            threads.push(stop_tx);
        }
        let io = Arc::new(IoLoops { handles: handles.into_boxed_slice(), next: AtomicUsize::new(0) });
        Ok(Self { control, io, threads, done })
    }

    /// Stops the IO loops (their threads drop what tasks are left) and
    /// then the server thread's runtime. Must run outside any async
    /// context, which is why only the server thread calls it. A loop that
    /// is not done one grace period after its last task was cancelled (a
    /// handler blocking its thread) is left to finish on its own.
    pub(crate) fn shutdown(self) {
        let Self { control, io, threads, done } = self;
        let count = threads.len();
        drop(threads);
        let deadline = Instant::now() + TEARDOWN_GRACE * 2;
        for _ in 0..count {
            let left = deadline.saturating_duration_since(Instant::now());
            if done.recv_timeout(left).is_err() {
                tracing::warn!("an IO thread did not stop in time; leaving it");
                break;
            }
        }
        drop(io);
        control.shutdown_timeout(TEARDOWN_GRACE);
    }
}

/// The IO event loops: where connections are served.
#[derive(Debug)]
pub(crate) struct IoLoops {
    handles: Box<[Handle]>,
    next: AtomicUsize,
}

/// What the IO loops are doing, summed over the loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IoMetrics {
    /// IO threads, one loop each.
    pub(crate) workers: usize,
    /// Tasks alive on the loops (connections, HTTP/2 streams, what
    /// handlers spawned).
    pub(crate) alive_tasks: usize,
    /// Tasks woken from other threads and not yet run.
    pub(crate) queue_depth: usize,
}

impl IoLoops {
    /// The loop the next connection goes to: each in turn.
    pub(crate) fn next(&self) -> &Handle {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.handles.len();
        &self.handles[i]
    }

    pub(crate) fn metrics(&self) -> IoMetrics {
        let mut sum = IoMetrics { workers: self.handles.len(), alive_tasks: 0, queue_depth: 0 };
        for handle in &*self.handles {
            let m = handle.metrics();
            sum.alive_tasks += m.num_alive_tasks();
            sum.queue_depth += m.global_queue_depth();
        }
        sum
    }
}
