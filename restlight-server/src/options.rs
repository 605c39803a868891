//! Server options and their defaults.
//!
//! The setters live on [`Restlight`](crate::Restlight); this is the plain
//! record they fill in, read by the runtimes, the accept loop and the
//! connection builders.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use restlight_core::Scheduler;

use crate::limits::Limits;
use crate::protect::Protection;

pub(crate) const DEFAULT_PORT: u16 = 8080;
pub(crate) const DEFAULT_SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);
pub(crate) const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
pub(crate) const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
pub(crate) const DEFAULT_MAX_HEADER_SIZE: usize = 8 * 1024;
pub(crate) const DEFAULT_H2_MAX_CONCURRENT_STREAMS: u32 = 250;

/// Everything about the server that is not the application itself.
#[derive(Debug, Clone)]
pub(crate) struct ServerOptions {
    pub(crate) addr: SocketAddr,
    pub(crate) io_threads: Option<usize>,
    pub(crate) biz_threads: Option<usize>,
    /// The business executor's queue; `None` for the scheduler's default.
    pub(crate) biz_queue: Option<usize>,
    /// Handlers the business executor runs at once; `None` for its thread count.
    pub(crate) biz_max_active: Option<usize>,
    pub(crate) shutdown_timeout: Duration,
    pub(crate) header_read_timeout: Duration,
    pub(crate) idle_timeout: Duration,
    pub(crate) max_header_size: usize,
    pub(crate) h2_max_concurrent_streams: u32,
    pub(crate) limits: Limits,
    pub(crate) protection: Protection,
    /// Request IDs and trace context.
    pub(crate) trace: crate::ops::TraceSettings,
    #[cfg(feature = "tls")]
    pub(crate) tls: Option<crate::tls::TlsConfig>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), DEFAULT_PORT),
            io_threads: None,
            biz_threads: None,
            biz_queue: None,
            biz_max_active: None,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_header_size: DEFAULT_MAX_HEADER_SIZE,
            h2_max_concurrent_streams: DEFAULT_H2_MAX_CONCURRENT_STREAMS,
            limits: Limits::default(),
            protection: Protection::default(),
            trace: crate::ops::TraceSettings::default(),
            #[cfg(feature = "tls")]
            tls: None,
        }
    }
}

impl ServerOptions {
    /// IO threads, one event loop each: the configured number, else one
    /// per core.
    pub(crate) fn io_threads(&self) -> usize {
        self.io_threads.unwrap_or_else(restlight_core::__private::cores).max(1)
    }

    /// Whether the server thread is the one IO event loop (one IO thread),
    /// rather than a thread of its own beside the loops.
    pub(crate) fn server_thread_is_the_loop(&self) -> bool {
        self.io_threads() == 1
    }

    /// The business executor that [`biz_threads`](crate::Restlight::biz_threads),
    /// [`biz_queue`](crate::Restlight::biz_queue) and
    /// [`biz_max_active`](crate::Restlight::biz_max_active) ask for, or
    /// `None` when none is set: the application's default business executor
    /// ([`Scheduler::default`]) is then the one that runs.
    pub(crate) fn biz_scheduler(&self) -> Option<Scheduler> {
        if self.biz_threads.is_none() && self.biz_queue.is_none() && self.biz_max_active.is_none() {
            return None;
        }
        let mut biz = self.biz_threads.map_or_else(Scheduler::default, Scheduler::threads);
        if let Some(len) = self.biz_queue {
            biz = biz.queue(len);
        }
        if let Some(handlers) = self.biz_max_active {
            biz = biz.max_active(handlers);
        }
        Some(biz)
    }
}
