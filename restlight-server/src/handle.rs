//! [`ServerHandle`]: the address of a started server and the way to stop it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use restlight_core::{App, ExecutorMetrics, Resize, ResizeError};
use tokio::sync::{oneshot, watch};

use crate::protect::{Counters, ServerStats};

/// Extra time `Drop` grants beyond the shutdown timeout for the runtimes to
/// be torn down.
const DROP_GRACE: Duration = Duration::from_secs(3);

/// A server started with [`Restlight::start`](crate::Restlight::start).
///
/// Dropping the handle shuts the server down gracefully too, but waits at
/// most the shutdown timeout plus a few seconds before leaving the server
/// thread to finish on its own.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    app: App,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
    done: Option<oneshot::Receiver<()>>,
    shutdown_timeout: Duration,
    counters: Arc<Counters>,
    actuator_addr: Option<SocketAddr>,
}

impl ServerHandle {
    pub(crate) fn new(
        addr: SocketAddr,
        app: App,
        stop: watch::Sender<bool>,
        thread: JoinHandle<()>,
        done: oneshot::Receiver<()>,
        shutdown_timeout: Duration,
        counters: Arc<Counters>,
    ) -> Self {
        Self {
            addr,
            app,
            stop,
            thread: Some(thread),
            done: Some(done),
            shutdown_timeout,
            counters,
            actuator_addr: None,
        }
    }

    pub(crate) fn with_actuator_addr(mut self, addr: Option<SocketAddr>) -> Self {
        self.actuator_addr = addr;
        self
    }

    /// The address of the actuator's own listener, when
    /// [`Actuator::port`](crate::Actuator::port) gave it one (with the real
    /// port when port 0 was asked for).
    #[must_use]
    pub fn actuator_addr(&self) -> Option<SocketAddr> {
        self.actuator_addr
    }

    /// The connection counters now: open connections, accepted ones, and
    /// refused ones by cause (allow-list, connection limit, rate limit,
    /// overload).
    #[must_use]
    pub fn stats(&self) -> ServerStats {
        self.counters.snapshot()
    }

    /// The address the server listens on, with the real port when port 0
    /// was asked for.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Metrics of the business executor and the named ones: threads,
    /// running and queued requests, completions, 429 rejections, fail-fast
    /// 503s, queue-wait percentiles. See [`App::executors`].
    #[must_use]
    pub fn executors(&self) -> Vec<ExecutorMetrics> {
        self.app.executors()
    }

    /// The application being served: list its routes, or add and remove
    /// routes and resources while serving ([`App::change_routes`],
    /// [`App::add_route`], [`App::add_resource`], ...). The actuator's
    /// routes, when it has a port of its own, are not among them.
    #[must_use]
    pub fn app(&self) -> &App {
        &self.app
    }

    /// Resizes the business executor `"biz"` or a named bounded executor
    /// while the server runs, and returns its metrics with the new sizes:
    /// see [`App::resize_executor`] and [`Resize`] for what each size means
    /// and when it takes effect (nothing running is aborted, no queued
    /// request is lost). Callable from any thread; in async code it does
    /// not block beyond starting the first of the new threads when
    /// [`Resize::threads`] changes (the others start as handlers need them).
    ///
    /// ```no_run
    /// use restlight_core::Resize;
    /// use restlight_server::Restlight;
    ///
    /// let server = Restlight::new().port(0).start().unwrap();
    /// let biz = server.resize_executor("biz", Resize::new().threads(32).queue(2048)).unwrap();
    /// assert_eq!((biz.threads, biz.max_active, biz.queue_capacity), (32, 32, 2048));
    /// server.shutdown();
    /// ```
    ///
    /// # Errors
    /// A [`ResizeError`] (unknown executor, zero or too large a value, a
    /// size the executor cannot change, a runtime that cannot be built);
    /// nothing changes then.
    pub fn resize_executor(&self, name: &str, resize: Resize) -> Result<ExecutorMetrics, ResizeError> {
        self.app.resize_executor(name, resize)
    }

    /// Shuts the server down gracefully and blocks until it is done: it
    /// stops accepting, lets in-flight requests finish for up to the shutdown
    /// timeout, closes idle HTTP/1 connections and sends GOAWAY on HTTP/2
    /// ones, then tears the runtimes down.
    ///
    /// Safe to call from async code, even on a current-thread runtime: the
    /// server runs on its own runtimes, so blocking the caller cannot
    /// deadlock it. It does block that thread for as long as the shutdown
    /// takes; prefer [`shutdown_async`](Self::shutdown_async) there.
    pub fn shutdown(mut self) {
        self.request_stop();
        if let Some(thread) = self.thread.take() {
            join(thread);
        }
    }

    /// Like [`shutdown`](Self::shutdown), but waits without blocking the
    /// thread. Works on any executor.
    pub async fn shutdown_async(mut self) {
        self.request_stop();
        if let Some(done) = self.done.take() {
            // An error means the server thread ended without saying so
            // (it panicked); joining below reports that.
            let _ = done.await;
        }
        if let Some(thread) = self.thread.take() {
            // The thread has finished or is returning right now.
            join(thread);
        }
    }

    /// Blocks until the server stops by itself (on a signal).
    pub(crate) fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            join(thread);
        }
    }

    fn request_stop(&self) {
        self.stop.send_replace(true);
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        let Some(thread) = self.thread.take() else { return };
        self.request_stop();
        let deadline = Instant::now() + self.shutdown_timeout + DROP_GRACE;
        while !thread.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        if thread.is_finished() {
            join(thread);
        } else {
            tracing::warn!(addr = %self.addr, "restlight server still shutting down; not waiting for it");
        }
    }
}

fn join(thread: JoinHandle<()>) {
    if thread.join().is_err() {
        tracing::error!("the restlight server thread panicked");
    }
}
