//! One connection, from sniffing its protocol to closing it.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use hyper::server::conn::{http1, http2};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulConnection;
use restlight_core::__private::Held;
use restlight_core::App;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::activity::Activity;
use crate::gate::SideWake;
use crate::limits::{StreamExec, TimedIo};
use crate::options::ServerOptions;
use crate::protect::{Counters, Guards, Permit};
use crate::service::{AppService, H2Pieces};
use crate::sniff::{sniff, Protocol};

/// Where the server is in its life, as its connections see it (sent to
/// them on a `watch` channel by the accept loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Phase {
    /// Accepting and serving.
    Serving,
    /// Draining: each connection finishes what is in flight and closes
    /// (HTTP/2: GOAWAY); one still waiting for its first bytes or its TLS
    /// handshake closes at once.
    Draining,
    /// The drain's time is up: every connection closes at once, dropping
    /// what is in flight.
    Closing,
}

/// Why the connection settings could not be built.
#[cfg(feature = "tls")]
pub(crate) type ConnError = crate::tls::TlsError;
/// Why the connection settings could not be built.
#[cfg(not(feature = "tls"))]
pub(crate) type ConnError = std::convert::Infallible;

/// What every connection of one server shares.
#[derive(Debug)]
pub(crate) struct ConnContext {
    pub(crate) guards: Guards,
    #[cfg(feature = "tls")]
    tls: Option<crate::tls::Acceptor>,
    app: App,
    h1: http1::Builder,
    h2: http2::Builder<StreamExec>,
    header_read_timeout: Duration,
    idle_timeout: Duration,
    body_read: crate::limits::BodyRead,
    write_timeout: Duration,
    /// Metrics and access log, when either is on.
    pub(crate) observe: Option<Arc<crate::ops::Observe>>,
}

impl ConnContext {
    /// # Errors
    /// A TLS configuration rustls refuses.
    pub(crate) fn new(app: App, options: &ServerOptions, counters: Arc<Counters>) -> Result<Self, ConnError> {
        // No timer and no header read timeout in hyper: it would allocate
        // and register a timer for every request. The connection's own
        // deadline (see `drive`) bounds the wait for a request head instead.
        let mut h1 = http1::Builder::new();
        h1.keep_alive(true).max_header_size(options.max_header_size).max_headers(options.limits.max_headers);

        // Each stream's task is watched for a response the client stops
        // taking (see `limits/stall.rs`).
        let mut h2 = http2::Builder::new(StreamExec { write_timeout: options.limits.write_timeout });
        h2.timer(TokioTimer::new())
            .max_concurrent_streams(options.h2_max_concurrent_streams.max(1))
            .max_pending_accept_reset_streams(options.limits.h2_max_pending_accept_reset_streams)
            .max_local_error_reset_streams(options.limits.h2_max_local_error_reset_streams)
            .max_header_list_size(u32::try_from(options.max_header_size).unwrap_or(u32::MAX))
            .initial_stream_window_size(options.limits.h2_stream_window)
            .initial_connection_window_size(options.limits.h2_connection_window)
            .keep_alive_interval(options.limits.h2_keep_alive_interval)
            .keep_alive_timeout(options.limits.h2_keep_alive_timeout);

        Ok(Self {
            #[cfg(feature = "tls")]
            tls: options.tls.as_ref().map(crate::tls::Acceptor::new).transpose()?,
            guards: Guards::new(&options.protection, counters),
            app,
            h1,
            h2,
            header_read_timeout: options.header_read_timeout,
            idle_timeout: options.idle_timeout,
            body_read: options.limits.body_read(),
            write_timeout: options.limits.write_timeout,
            observe: None,
        })
    }
}

impl ConnContext {
    /// Whether connections speak TLS.
    pub(crate) fn is_tls(&self) -> bool {
        #[cfg(feature = "tls")]
        return self.tls.is_some();
        #[cfg(not(feature = "tls"))]
        false
    }
}

/// Serves one accepted connection until it closes, times out or is drained,
/// on the IO loop it is spawned on: the socket is registered with that
/// loop's reactor here. The permit (connection limit) and the claim on the
/// loop are given back when it ends.
///
/// The HTTP part (`serve_io`: hyper's connection and the service, some
/// KB) is boxed when it starts, on the IO thread: this future, which the
/// accepting thread builds on its stack and copies into the task, stays
/// small.
pub(crate) async fn serve_connection(
    stream: std::net::TcpStream,
    remote: SocketAddr,
    ctx: Arc<ConnContext>,
    mut phase: watch::Receiver<Phase>,
    held: (Permit, Held),
) {
    let _held = held;
    let stream = match TcpStream::from_std(stream) {
        Ok(stream) => stream,
        Err(err) => {
            tracing::debug!(%remote, %err, "cannot register the connection with its IO thread");
            return;
        }
    };
    if let Err(err) = stream.set_nodelay(true) {
        tracing::debug!(%remote, %err, "cannot set TCP_NODELAY");
    }
    #[cfg(feature = "tls")]
    if let Some(tls) = &ctx.tls {
        let accepted = tokio::select! {
            accepted = tls.accept(stream) => accepted,
            _ = phase.wait_for(|phase| *phase != Phase::Serving) => return,
        };
        match accepted {
            Ok((stream, protocol)) => serve_io_boxed(stream, protocol, remote, &ctx, phase).await,
            Err(err) => tracing::debug!(%remote, %err, "closing connection"),
        }
        return;
    }
    let deadline = Instant::now() + ctx.header_read_timeout;
    let protocol = tokio::select! {
        sniffed = sniff(&stream, deadline) => sniffed,
        _ = phase.wait_for(|phase| *phase != Phase::Serving) => return,
    };
    match protocol {
        Ok(protocol) => serve_io_boxed(stream, protocol, remote, &ctx, phase).await,
        Err(err) => tracing::debug!(%remote, %err, "closing connection"),
    }
}

/// [`serve_io`]'s future, boxed. Out of line: the future (some 4 KB) is
/// built on the stack before it is moved into its box, and built here it
/// takes no room in the frame of [`serve_connection`], which every poll of
/// the connection runs below (a thread's stack is as deep as its deepest
/// call, and each page of it is a page fault and stays resident).
#[inline(never)]
fn serve_io_boxed<'a, S>(
    stream: S,
    protocol: Protocol,
    remote: SocketAddr,
    ctx: &'a ConnContext,
    phase: watch::Receiver<Phase>,
) -> Pin<Box<impl Future<Output = ()> + Send + 'a>>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    Box::pin(serve_io(stream, protocol, remote, ctx, phase))
}

/// Serves one HTTP/1 connection over `io` as the server serves an accepted
/// TCP connection it has sniffed as HTTP/1: hyper's HTTP/1 settings, the
/// request checks, the default limits and timeouts; no TLS, no drain. The
/// peer address is `127.0.0.1:0`.
///
/// Not part of the API: the entry point of the `http1` fuzz target, which
/// cannot reach the connection code otherwise.
#[doc(hidden)]
pub async fn serve_http1<S>(app: App, io: S)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let options = ServerOptions::default();
    let ctx = ConnContext::new(app, &options, Arc::default()).expect("settings without TLS are always valid");
    let (_phase, phase) = watch::channel(Phase::Serving);
    serve_io(io, Protocol::Http1, SocketAddr::from(([127, 0, 0, 1], 0)), &ctx, phase).await;
}

/// Serves HTTP over `stream`, plain or TLS, with the write timeout.
async fn serve_io<S>(
    stream: S,
    protocol: Protocol,
    remote: SocketAddr,
    ctx: &ConnContext,
    phase: watch::Receiver<Phase>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let activity = Activity::new();
    let app = ctx.app.clone();
    let (timeout, observe) = (ctx.body_read, ctx.observe.clone());
    let io = TokioIo::new(TimedIo::new(stream, ctx.write_timeout));
    match protocol {
        Protocol::Http1 => {
            let service = AppService::<()>::new(app, remote, Arc::clone(&activity), timeout, observe);
            let conn = ctx.h1.serve_connection(io, service);
            let limits = Idle { idle: ctx.idle_timeout, head: Some(ctx.header_read_timeout) };
            drive(conn, &activity, limits, phase, remote).await;
        }
        Protocol::H2 => {
            let service = AppService::<H2Pieces>::new(app, remote, Arc::clone(&activity), timeout, observe);
            let conn = ctx.h2.serve_connection(io, service);
            drive(conn, &activity, Idle { idle: ctx.idle_timeout, head: None }, phase, remote).await;
        }
    }
}

/// How long a connection may go without a request in flight.
#[derive(Debug, Clone, Copy)]
struct Idle {
    /// Then it is closed gracefully (HTTP/1) or sent GOAWAY (HTTP/2).
    idle: Duration,
    /// HTTP/1's header read timeout: a connection with no request in flight
    /// is waiting for a request head, which must be complete this long
    /// after the connection opened or its last response ended; else it is
    /// closed at once. `None` for HTTP/2, whose streams hyper bounds.
    head: Option<Duration>,
}

impl Idle {
    /// The shorter of the two periods, and whether it is the header one.
    fn first(self) -> (Duration, bool) {
        match self.head {
            Some(head) if head <= self.idle => (head, true),
            _ => (self.idle, false),
        }
    }
}

/// Polls a hyper connection to the end, starting its graceful shutdown when
/// the server drains or the connection has been idle for `idle`, and dropping
/// it when it is still idle one period after that (an HTTP/2 client that
/// never answers the GOAWAY ping would otherwise keep it), or at once when
/// the drain's time is up ([`Phase::Closing`]). An HTTP/1
/// connection that has not completed a request head within the header read
/// timeout is dropped at once, whether it sent nothing or part of a head.
///
/// One timer per connection, re-armed only when it fires: requests cost no
/// timer of their own. The connection is polled first, so a head that is
/// complete when the timer fires is served rather than cut off; the timer
/// and the drain signal are polled only when they have woken the task (see
/// [`SideWake`]), not on every wake-up the connection's traffic causes.
async fn drive<C>(conn: C, activity: &Activity, limits: Idle, mut phase: watch::Receiver<Phase>, remote: SocketAddr)
where
    C: GracefulConnection<Error = hyper::Error>,
{
    let mut conn = std::pin::pin!(conn);
    let mut closing = false;
    // The server's phase this connection has acted on.
    let mut seen = Phase::Serving;
    let (period, is_head) = limits.first();
    let side = Arc::new(SideWake::default());
    let side_waker = Waker::from(Arc::clone(&side));
    // The task's waker as last registered with `side` (see
    // `SideWake::take_fired`).
    let mut registered: Option<Waker> = None;
    loop {
        let mut sleep = std::pin::pin!(tokio::time::sleep_until(activity.idle_deadline(period)));
        let acted = seen;
        let mut changed = std::pin::pin!(phase.wait_for(move |phase| *phase > acted));
        // New futures: poll them once, so they can wake the task.
        side.arm();
        let event = std::future::poll_fn(|cx| {
            if let Poll::Ready(result) = conn.as_mut().poll(cx) {
                return Poll::Ready(Event::Ended(result));
            }
            let fired = side.take_fired(&mut registered, cx);
            if fired {
                let mut side_cx = Context::from_waker(&side_waker);
                if let Poll::Ready(now) = changed.as_mut().poll(&mut side_cx) {
                    // A closed channel (the accept loop dropped before its
                    // drain ended) closes the connection: no drain is left
                    // to wait for it.
                    return Poll::Ready(Event::Phase(now.map_or(Phase::Closing, |now| *now)));
                }
                if sleep.as_mut().poll(&mut side_cx).is_ready() {
                    return Poll::Ready(Event::Timer);
                }
            }
            Poll::Pending
        })
        .await;
        match event {
            Event::Ended(result) => {
                if let Err(err) = result {
                    tracing::debug!(%remote, %err, "connection ended with an error");
                }
                return;
            }
            Event::Phase(Phase::Closing) => {
                tracing::debug!(%remote, "closing connection: the drain's time is up");
                return;
            }
            Event::Phase(now) => {
                seen = now;
                if !closing {
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
            Event::Timer => {
                if activity.is_idle_for(period) {
                    if is_head {
                        tracing::debug!(%remote, timeout = ?period, "closing connection: no complete request head in time");
                        return;
                    }
                    if closing {
                        tracing::debug!(%remote, "closing connection still idle after a graceful close");
                        return;
                    }
                    tracing::debug!(%remote, idle = ?period, "closing idle connection");
                    closing = true;
                    activity.touch();
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// What ended one wait of [`drive`].
enum Event {
    Ended(Result<(), hyper::Error>),
    /// The server's phase moved on.
    Phase(Phase),
    Timer,
}
