//! The IO and business runtimes: building them with named threads and
//! tearing them down on a plain thread.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::runtime::{Builder, Handle, Runtime};

use crate::options::ServerOptions;

/// How long tearing down a runtime waits for its leftover tasks (blocking
/// ones included) after the graceful shutdown has already run.
const TEARDOWN_GRACE: Duration = Duration::from_secs(1);

/// The runtimes one server owns.
#[derive(Debug)]
pub(crate) struct Runtimes {
    pub(crate) io: Runtime,
    biz: Option<Runtime>,
}

impl Runtimes {
    /// Builds the IO runtime and, when `with_biz`, the business runtime.
    pub(crate) fn build(options: &ServerOptions, with_biz: bool) -> io::Result<Self> {
        let io = multi_thread("restlight-io", options.io_threads())?;
        let biz = if with_biz { Some(multi_thread("restlight-biz", options.biz_threads())?) } else { None };
        Ok(Self { io, biz })
    }

    /// A handle on the business runtime, if this server built one.
    pub(crate) fn biz_handle(&self) -> Option<Handle> {
        self.biz.as_ref().map(|rt| rt.handle().clone())
    }

    /// Shuts both runtimes down. Must run outside any async context, which
    /// is why only the server thread calls it.
    pub(crate) fn shutdown(self) {
        self.io.shutdown_timeout(TEARDOWN_GRACE);
        if let Some(biz) = self.biz {
            biz.shutdown_timeout(TEARDOWN_GRACE);
        }
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
