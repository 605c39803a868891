//! The IO runtime: building it with named threads and tearing it down on a
//! plain thread. The business runtime belongs to the application's `"biz"`
//! executor.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::runtime::{Builder, Runtime};

use crate::options::ServerOptions;

/// How long tearing down a runtime waits for its leftover tasks (blocking
/// ones included) after the graceful shutdown has already run.
const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// The runtimes one server owns.
#[derive(Debug)]
pub(crate) struct Runtimes {
    pub(crate) io: Runtime,
}

impl Runtimes {
    /// Builds the IO runtime.
    pub(crate) fn build(options: &ServerOptions) -> io::Result<Self> {
        let io = multi_thread("restlight-io", options.io_threads())?;
        Ok(Self { io })
    }

    /// Shuts the runtime down. Must run outside any async context, which
    /// is why only the server thread calls it.
    pub(crate) fn shutdown(self) {
        self.io.shutdown_timeout(TEARDOWN_GRACE);
    }
}

fn multi_thread(prefix: &'static str, threads: usize) -> io::Result<Runtime> {
    let next = AtomicUsize::new(0);
    Builder::new_multi_thread()
        .worker_threads(threads)
        .thread_name_fn(move || format!("{prefix}-{}", next.fetch_add(1, Ordering::Relaxed)))
        .enable_all()
        .build()
}
