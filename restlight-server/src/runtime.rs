//! The runtimes of one server: the server thread's own, which accepts
//! connections, waits for the signals and runs the drain, and the IO event
//! loops, one single-threaded runtime per IO thread. Each accepted
//! connection is handed to the loop serving the fewest connections and
//! stays on it to the end. A server of one IO thread has one runtime: its
//! loop is the server thread's, which then serves the connections it
//! accepts (a thread, a runtime and a handoff to another thread fewer).
//! The business runtime belongs to the application's `"biz"` executor.
//!
//! One loop per thread rather than one multi-thread runtime: a request's
//! tasks wake and run on the thread that reads its connection, without the
//! work-stealing scheduler's shared queues and its search for idle workers
//! at every wake-up (640 to 1,140 instructions a request on the load
//! comparison's endpoints; BENCHMARKS.md). Netty's event loops and
//! actix-web's workers keep each connection on one thread the same way.

use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use restlight_core::__private::{Adopted, Held, Workers};
use tokio::runtime::{Builder, Handle, Runtime};

use crate::options::ServerOptions;

/// How long tearing down a runtime waits for its leftover tasks (blocking
/// ones included) after the graceful shutdown has already run.
const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// The runtimes one server owns.
#[derive(Debug)]
pub(crate) struct Runtimes {
    /// The server thread's runtime: accept loops, signals, the drain.
    control: Control,
    /// The IO event loops; the accept loops borrow them.
    pub(crate) io: Arc<IoLoops>,
}

/// The server thread's runtime: its own, or its one IO loop's.
#[derive(Debug)]
enum Control {
    Own(Runtime),
    Loop(Adopted),
}

impl Runtimes {
    /// Builds the server thread's runtime and starts the IO threads; with
    /// one IO thread, the calling thread is it.
    pub(crate) fn build(options: &ServerOptions) -> io::Result<Self> {
        let threads = options.io_threads();
        let seq = AtomicUsize::new(0);
        let name = move || format!("restlight-io-{}", seq.fetch_add(1, Ordering::Relaxed));
        // A thread pool of the kind the business executor has, every
        // thread started now: each a single-threaded runtime, all stopped
        // when dropped.
        let loops = Workers::new(threads, TEARDOWN_GRACE, name);
        let control = if options.server_thread_is_the_loop() {
            Control::Loop(loops.adopt_first()?)
        } else {
            let control = Builder::new_current_thread().enable_all().build()?;
            loops.start_all()?;
            Control::Own(control)
        };
        Ok(Self { control, io: Arc::new(IoLoops(loops)) })
    }

    /// Runs `future` on the server thread's runtime.
    pub(crate) fn block_on<F: Future>(&self, future: F) -> F::Output {
        match &self.control {
            Control::Own(rt) => rt.block_on(future),
            Control::Loop(rt) => rt.block_on(future),
        }
    }

    /// Stops the IO loops (their threads drop what tasks are left, and are
    /// waited for up to the grace time: a thread a handler blocks is left
    /// to finish on its own), then the server thread's runtime (the one
    /// loop's tasks with it, when it is the loop). Must run outside any
    /// async context, which is why only the server thread calls it, once
    /// the accept loops (and their references) are done.
    pub(crate) fn shutdown(self) {
        drop(self.io);
        match self.control {
            Control::Own(rt) => rt.shutdown_timeout(TEARDOWN_GRACE),
            Control::Loop(rt) => drop(rt),
        }
    }
}

/// The IO event loops: where connections are served.
#[derive(Debug)]
pub(crate) struct IoLoops(Workers);

impl IoLoops {
    /// The loop the next connection goes to, and its claim on it, which
    /// the connection holds to its end: the first loop serving no
    /// connection, else the one serving the fewest (the business
    /// executor's threads are picked the same way).
    pub(crate) fn claim(&self) -> io::Result<(&Handle, Held)> {
        self.0.claim()
    }

    /// The loops' runtimes, for their metrics: what the metrics keep does
    /// not keep the threads.
    pub(crate) fn handles(&self) -> IoHandles {
        IoHandles(self.0.handles().into_boxed_slice())
    }
}

/// The IO loops' runtimes, read by the metrics.
#[derive(Debug, Clone)]
pub(crate) struct IoHandles(Box<[Handle]>);

/// What the IO loops are doing, summed over the loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IoMetrics {
    /// IO threads, one loop each.
    pub(crate) workers: usize,
    /// Tasks alive on the loops (connections, HTTP/2 streams, what
    /// handlers spawned; with one IO thread, also the few the server
    /// thread spawns, such as the actuator's accept loop on a port of
    /// its own).
    pub(crate) alive_tasks: usize,
    /// Tasks woken from other threads and not yet run.
    pub(crate) queue_depth: usize,
}

impl IoHandles {
    pub(crate) fn metrics(&self) -> IoMetrics {
        let mut sum = IoMetrics { workers: self.0.len(), alive_tasks: 0, queue_depth: 0 };
        for handle in &*self.0 {
            let m = handle.metrics();
            sum.alive_tasks += m.num_alive_tasks();
            sum.queue_depth += m.global_queue_depth();
        }
        sum
    }
}
