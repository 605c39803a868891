//! The server thread: owns the runtimes from start to teardown, so they are
//! never built into, nor dropped inside, someone else's async context.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use restlight_core::App;
use restlight_core::{Error, Result, Scheduler};
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};

use crate::builder::{Restlight, BIZ};
use crate::conn::ConnContext;
use crate::handle::ServerHandle;
use crate::protect::Counters;
use crate::runtime::Runtimes;
use crate::serve::serve;
use crate::shutdown;

/// Whether the server stops on SIGINT / SIGTERM as well as on its handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signals {
    Handle,
    Ignore,
}

/// Spawns the server thread and waits until it listens (or failed to).
pub(crate) fn launch(restlight: Restlight, signals: Signals) -> Result<ServerHandle> {
    let (ready_tx, ready_rx) = mpsc::sync_channel(1);
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = oneshot::channel();
    let shutdown_timeout = restlight.options.shutdown_timeout;
    let counters = Arc::new(Counters::default());
    let server_counters = Arc::clone(&counters);
    let thread = std::thread::Builder::new().name("restlight-server".to_owned()).spawn(move || {
        server_thread(restlight, signals, stop_rx, &ready_tx, server_counters);
        let _ = done_tx.send(());
    })?;
    match ready_rx.recv() {
        Ok(Ok((addr, app))) => Ok(ServerHandle::new(addr, app, stop_tx, thread, done_rx, shutdown_timeout, counters)),
        Ok(Err(err)) => {
            let _ = thread.join();
            Err(err)
        }
        Err(mpsc::RecvError) => {
            let _ = thread.join();
            Err(Error::Io(io::Error::other("the restlight server thread panicked while starting")))
        }
    }
}

/// Builds everything, reports readiness, serves until stopped, tears down.
fn server_thread(
    restlight: Restlight,
    signals: Signals,
    stop: watch::Receiver<bool>,
    ready: &mpsc::SyncSender<Result<(SocketAddr, App)>>,
    counters: Arc<Counters>,
) {
    let Restlight { app, options, user_biz } = restlight;
    let runtimes = match Runtimes::build(&options) {
        Ok(runtimes) => runtimes,
        Err(err) => {
            let _ = ready.send(Err(err.into()));
            return;
        }
    };
    let app = if user_biz { app } else { app.scheduler(BIZ, Scheduler::threads(options.biz_threads())) };
    let app = match app.build() {
        Ok(app) => app,
        Err(err) => {
            let _ = ready.send(Err(err.into()));
            runtimes.shutdown();
            return;
        }
    };
    let bound = runtimes.io.block_on(async {
        let listener = TcpListener::bind(options.addr).await?;
        let addr = listener.local_addr()?;
        io::Result::Ok((listener, addr))
    });
    let (listener, addr) = match bound {
        Ok(bound) => bound,
        Err(err) => {
            let _ = ready
                .send(Err(Error::Io(io::Error::new(err.kind(), format!("cannot listen on {}: {err}", options.addr)))));
            runtimes.shutdown();
            return;
        }
    };

    let ctx = match ConnContext::new(app.clone(), &options, counters) {
        Ok(ctx) => Arc::new(ctx),
        Err(err) => {
            let _ = ready.send(Err(conn_error(err)));
            runtimes.shutdown();
            return;
        }
    };
    let scheme = if ctx.is_tls() { "https" } else { "http" };
    tracing::info!(%addr, "restlight listening on {scheme}://{addr}");
    let _ = ready.send(Ok((addr, app.clone())));
    let stop = reject_queued_after(stop_signal(stop, signals), app.clone(), options.shutdown_timeout);
    let timeout = options.shutdown_timeout + QUEUE_FLUSH_GRACE;
    runtimes.io.block_on(serve(listener, ctx, stop, force_signal(signals), timeout));
    runtimes.shutdown();
    // The application's executors are idle now: every request future was
    // dropped with the IO runtime. The handle may still hold the app (for
    // its metrics); their runtimes go with the last reference.
    drop(app);
    tracing::info!(%addr, "restlight stopped");
}

/// How long the connections get, after the shutdown timeout, to write the
/// 503 answers of the requests still queued for an executor.
const QUEUE_FLUSH_GRACE: Duration = Duration::from_millis(100);

/// Completes with `stop`, and then answers 503 to the requests still
/// queued for an executor once the shutdown timeout has passed.
async fn reject_queued_after(stop: impl Future<Output = ()>, app: App, timeout: Duration) {
    stop.await;
    tokio::spawn(async move {
        tokio::time::sleep(timeout).await;
        tracing::info!("shutdown timeout reached: answering 503 to queued requests");
        app.reject_queued();
    });
}

/// Completes when the handle asks to stop, or on a signal when `signals` says so.
async fn stop_signal(mut stop: watch::Receiver<bool>, signals: Signals) {
    let handle = async move {
        // An error means the handle is gone without asking: stop as well.
        let _ = stop.wait_for(|stop| *stop).await;
    };
    match signals {
        Signals::Handle => {
            tokio::select! {
                () = handle => {}
                signal = shutdown::signal() => tracing::info!("{signal} received: shutting down gracefully"),
            }
        }
        Signals::Ignore => handle.await,
    }
}

/// During the drain: completes on a second signal when `signals` says so,
/// to close every connection at once.
async fn force_signal(signals: Signals) {
    match signals {
        Signals::Handle => {
            let signal = shutdown::signal().await;
            tracing::warn!("{signal} received again: closing every connection now");
        }
        Signals::Ignore => std::future::pending().await,
    }
}

#[cfg(feature = "tls")]
fn conn_error(err: crate::conn::ConnError) -> Error {
    err.into()
}

#[cfg(not(feature = "tls"))]
fn conn_error(err: crate::conn::ConnError) -> Error {
    match err {}
}
