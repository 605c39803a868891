//! The server thread: owns the runtimes from start to teardown, so they are
//! never built into, nor dropped inside, someone else's async context.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use restlight_core::__private::{handoff, Giver};
use restlight_core::{App, AppBuilder};
use restlight_core::{Error, Result};
use tokio::sync::{oneshot, watch};

use crate::builder::{Restlight, BIZ};
use crate::conn::ConnContext;
use crate::handle::ServerHandle;
use crate::ops::{Endpoint, Observe, OpsShared, RequestMetrics, Scrape};
use crate::protect::Counters;
use crate::runtime::{IoLoops, Runtimes};
use crate::serve::{serve, Listener};
use crate::shutdown;

/// Whether the server stops on SIGINT / SIGTERM as well as on its handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signals {
    Handle,
    Ignore,
}

/// What the server thread reports once it listens.
pub(crate) struct Ready {
    addr: SocketAddr,
    actuator_addr: Option<SocketAddr>,
    app: App,
}

/// Spawns the server thread and waits until it listens (or failed to).
pub(crate) fn launch(restlight: Restlight, signals: Signals) -> Result<ServerHandle> {
    let restlight = restlight.resolve_config(std::env::vars()).map_err(crate::builder::config_error)?;
    let (ready_tx, ready_rx) = handoff();
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = oneshot::channel();
    let shutdown_timeout = restlight.options.shutdown_timeout;
    let counters = Arc::new(Counters::default());
    let server_counters = Arc::clone(&counters);
    // With one IO thread, this thread is its event loop, and named for it.
    let name = if restlight.options.server_thread_is_the_loop() { "restlight-io-0" } else { "restlight-server" };
    let thread = std::thread::Builder::new().name(name.to_owned()).spawn(move || {
        server_thread(restlight, signals, stop_rx, &ready_tx, server_counters);
        let _ = done_tx.send(());
    })?;
    // `None`: the thread ended (it panicked) without a report.
    match ready_rx.take() {
        Some(Ok(Ready { addr, actuator_addr, app })) => {
            Ok(ServerHandle::new(addr, app, stop_tx, thread, done_rx, shutdown_timeout, counters)
                .with_actuator_addr(actuator_addr))
        }
        Some(Err(err)) => {
            let _ = thread.join();
            Err(err)
        }
        None => {
            let _ = thread.join();
            Err(Error::Io(io::Error::other("the restlight server thread panicked while starting")))
        }
    }
}

/// Serves on the calling thread until a signal stops the server, for
/// [`Restlight::run`] outside any async runtime: no server thread, so the
/// idle process has one thread (and one malloc arena) fewer, and startup
/// allocates in the calling thread's arena. A panic is reported as
/// [`launch`]'s server thread's would be: an error before the server
/// listens, a logged error after.
pub(crate) fn serve_here(restlight: Restlight, signals: Signals) -> Result<()> {
    let restlight = restlight.resolve_config(std::env::vars()).map_err(crate::builder::config_error)?;
    let (ready_tx, ready_rx) = handoff();
    // Kept until the server stops: a dropped sender would stop it.
    let (_stop_tx, stop_rx) = watch::channel(false);
    let counters = Arc::new(Counters::default());
    let served = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        server_thread(restlight, signals, stop_rx, &ready_tx, counters);
    }));
    match (ready_rx.try_take(), served) {
        (Some(Err(err)), _) => Err(err),
        (Some(Ok(_)), Ok(())) => Ok(()),
        (Some(Ok(_)), Err(_)) => {
            tracing::error!("the restlight server panicked");
            Ok(())
        }
        (None, _) => Err(Error::Io(io::Error::other("the restlight server panicked while starting"))),
    }
}

/// Builds everything, reports readiness, serves until stopped, tears down.
/// Out of line: called from [`launch`] and [`serve_here`], and once for a
/// server's life.
#[inline(never)]
fn server_thread(
    restlight: Restlight,
    signals: Signals,
    stop: watch::Receiver<bool>,
    ready: &Giver<Result<Ready>>,
    counters: Arc<Counters>,
) {
    let Some(Started { runtimes, app, listener, addr, ctx, mgmt, ops, shutdown_timeout }) =
        start(restlight, ready, counters)
    else {
        return;
    };
    let stop = mark_shutting_down(stop_signal(stop, signals), ops);
    let stop = reject_queued_after(stop, app.clone(), shutdown_timeout);
    let timeout = shutdown_timeout + QUEUE_FLUSH_GRACE;
    let io = Arc::clone(&runtimes.io);
    runtimes.block_on(accept_loops(listener, ctx, mgmt, io, stop, signals, timeout));
    runtimes.shutdown();
    // The application's executors are idle now: every request future was
    // dropped with the IO loops. The handle may still hold the app (for
    // its metrics); their runtimes go with the last reference.
    drop(app);
    tracing::info!(%addr, "restlight stopped");
}

/// What [`start`] leaves to the server thread once it listens.
struct Started {
    runtimes: Runtimes,
    app: App,
    listener: Listener,
    addr: SocketAddr,
    ctx: Arc<ConnContext>,
    mgmt: Option<(Listener, SocketAddr, ConnContext)>,
    ops: Option<Arc<OpsShared>>,
    shutdown_timeout: Duration,
}

/// [`server_thread`] up to readiness: the runtimes, the application, the
/// listeners and the connections' context built, readiness (or the
/// failure) reported. `None` once a failure is reported. Out of line: what
/// it builds and moves is some kilobytes of stack, which the server
/// thread's frame would otherwise keep while every accept (and, with one
/// IO thread, every connection) runs below it.
#[inline(never)]
#[allow(clippy::too_many_lines)]
fn start(restlight: Restlight, ready: &Giver<Result<Ready>>, counters: Arc<Counters>) -> Option<Started> {
    #[cfg(feature = "openapi")]
    let openapi = restlight.openapi.clone();
    let Restlight { app, options, user_biz, actuator, access_log, .. } = restlight;
    let runtimes = match Runtimes::build(&options) {
        Ok(runtimes) => runtimes,
        Err(err) => {
            ready.give(Err(err.into()));
            return None;
        }
    };
    let app = match options.biz_scheduler() {
        Some(biz) if !user_biz => app.scheduler(BIZ, biz),
        _ => app,
    };
    let ops = actuator.map(OpsShared::new);
    let (app, mgmt) = attach_actuator(app, ops.as_ref());
    #[cfg(feature = "openapi")]
    let (app, docs) = attach_openapi(app, openapi.as_ref());
    let built = app.build().and_then(|app| mgmt.map(AppBuilder::build).transpose().map(|mgmt| (app, mgmt)));
    let (app, mgmt_app) = match built {
        Ok(built) => built,
        Err(err) => {
            ready.give(Err(err.into()));
            runtimes.shutdown();
            return None;
        }
    };
    #[cfg(feature = "openapi")]
    if let Some(docs) = docs {
        let _ = docs.set(app.clone());
    }
    let metrics = ops.as_ref().and_then(|ops| {
        ops.fill(&app, &options, access_log.as_ref());
        let _ = ops.io.set(runtimes.io.handles());
        let metrics = ops.settings.exposes(Endpoint::Metrics).then(|| Arc::new(RequestMetrics::new(&app)))?;
        let _ = ops.scrape.set(Arc::new(Scrape {
            requests: Arc::clone(&metrics),
            counters: Arc::clone(&counters),
            app: app.clone(),
            io: Some(runtimes.io.handles()),
        }));
        Some(metrics)
    });
    #[cfg(feature = "tls")]
    let tls = options.tls.is_some();
    #[cfg(not(feature = "tls"))]
    let tls = false;
    let observe = Observe::new(metrics, access_log.as_ref(), &options.trace, tls);

    let mgmt_port = ops.as_ref().and_then(|ops| ops.settings.port);
    let bound = runtimes.block_on(async {
        let listener = Listener::bind(options.addr).map_err(|e| bind_error(e, options.addr))?;
        let addr = listener.local_addr()?;
        let mgmt = match mgmt_port {
            Some(port) => {
                let at = SocketAddr::new(options.addr.ip(), port);
                let listener = Listener::bind(at).map_err(|e| bind_error(e, at))?;
                let addr = listener.local_addr()?;
                Some((listener, addr))
            }
            None => None,
        };
        io::Result::Ok((listener, addr, mgmt))
    });
    let (listener, addr, mgmt_listener) = match bound {
        Ok(bound) => bound,
        Err(err) => {
            ready.give(Err(Error::Io(err)));
            runtimes.shutdown();
            return None;
        }
    };

    let contexts = ConnContext::new(app.clone(), &options, counters).and_then(|ctx| {
        let mgmt = match (mgmt_app, mgmt_listener) {
            (Some(mgmt_app), Some((listener, addr))) => {
                Some((listener, addr, ConnContext::new(mgmt_app, &options, Arc::new(Counters::default()))?))
            }
            _ => None,
        };
        Ok((ctx, mgmt))
    });
    let (ctx, mgmt) = match contexts {
        Ok((mut ctx, mgmt)) => {
            ctx.observe = observe;
            (Arc::new(ctx), mgmt)
        }
        Err(err) => {
            ready.give(Err(conn_error(err)));
            runtimes.shutdown();
            return None;
        }
    };
    let scheme = if ctx.is_tls() { "https" } else { "http" };
    tracing::info!(%addr, "restlight listening on {scheme}://{addr}");
    let actuator_addr = mgmt.as_ref().map(|(_, addr, _)| *addr);
    if let Some(at) = actuator_addr {
        tracing::info!(%at, "restlight actuator listening on {scheme}://{at}");
    }
    ready.give(Ok(Ready { addr, actuator_addr, app: app.clone() }));
    Some(Started { runtimes, app, listener, addr, ctx, mgmt, ops, shutdown_timeout: options.shutdown_timeout })
}

/// The accept loops of the application's listener and of the management
/// one, if any, until the drain is done. Boxed: their state is kept on the
/// heap rather than in the server thread's frames. Out of line: the future
/// (some 3 KB) is built on the stack before it is moved into its box, and
/// built here it takes no room in the frame of [`server_thread`], which
/// every accept and, with one IO thread, every connection runs below (a
/// thread's stack is as deep as its deepest call, and each page of it is a
/// page fault and stays resident).
#[inline(never)]
fn accept_loops(
    listener: Listener,
    ctx: Arc<ConnContext>,
    mgmt: Option<(Listener, SocketAddr, ConnContext)>,
    io: Arc<IoLoops>,
    stop: impl Future<Output = ()>,
    signals: Signals,
    timeout: Duration,
) -> std::pin::Pin<Box<impl Future<Output = ()>>> {
    Box::pin(async move {
        let (mgmt_stop_tx, mut mgmt_stop_rx) = watch::channel(false);
        let mgmt_task = mgmt.map(|(listener, _, ctx)| {
            let stop = async move {
                let _ = mgmt_stop_rx.wait_for(|stop| *stop).await;
            };
            let io = Arc::clone(&io);
            tokio::spawn(
                async move { serve(listener, Arc::new(ctx), &io, stop, std::future::pending(), MGMT_DRAIN).await },
            )
        });
        serve(listener, ctx, &io, stop, force_signal(signals), timeout).await;
        // The management listener outlives the application's drain, so
        // probes see readiness DOWN until the very end.
        mgmt_stop_tx.send_replace(true);
        if let Some(task) = mgmt_task {
            let _ = task.await;
        }
    })
}

/// How long the management listener's connections get to finish once the
/// application is drained.
const MGMT_DRAIN: Duration = Duration::from_secs(1);

/// Adds the actuator routes to the application, or returns the builder of
/// the management application when they have a port of their own.
pub(crate) fn attach_actuator(app: AppBuilder, ops: Option<&Arc<OpsShared>>) -> (AppBuilder, Option<AppBuilder>) {
    let Some(ops) = ops else { return (app, None) };
    let routes = ops.routes();
    if ops.settings.port.is_some() {
        let mgmt = routes.into_iter().fold(AppBuilder::new().annotated_routes(false), AppBuilder::route);
        (app, Some(mgmt))
    } else {
        (routes.into_iter().fold(app, AppBuilder::route), None)
    }
}

/// Adds the OpenAPI routes to the application; the cell returned is to
/// receive the application once built.
#[cfg(feature = "openapi")]
pub(crate) fn attach_openapi(
    app: AppBuilder,
    docs: Option<&crate::OpenApiDocs>,
) -> (AppBuilder, Option<Arc<std::sync::OnceLock<App>>>) {
    let Some(docs) = docs else { return (app, None) };
    let cell = Arc::new(std::sync::OnceLock::new());
    (docs.routes(&cell).into_iter().fold(app, AppBuilder::route), Some(cell))
}

fn bind_error(err: io::Error, at: SocketAddr) -> io::Error {
    io::Error::new(err.kind(), format!("cannot listen on {at}: {err}"))
}

/// Completes with `stop`, after turning readiness DOWN.
async fn mark_shutting_down(stop: impl Future<Output = ()>, ops: Option<Arc<OpsShared>>) {
    stop.await;
    if let Some(ops) = ops {
        ops.shutting_down.store(true, std::sync::atomic::Ordering::Release);
    }
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
