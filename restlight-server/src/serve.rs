//! The accept loop and the graceful drain that follows it.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::conn::{serve_connection, ConnContext};
use crate::runtime::IoLoops;

/// Pause after an accept error that is not about one connection (such as
/// running out of file descriptors), so the loop does not spin.
const ACCEPT_ERROR_BACKOFF: Duration = Duration::from_millis(100);

/// How often the accept loop takes the results of ended connections when
/// no new connection comes (it also does after each accept): what an ended
/// connection's task keeps allocated waits at most this long.
const REAP_PERIOD: Duration = Duration::from_secs(1);

/// A listening socket whose connections are accepted without joining the
/// accepting thread's reactor. Each is served on an IO thread and joins that
/// thread's reactor there; tokio's `TcpListener::accept` would register it
/// here first and then take it off again as it leaves (`into_std`), two
/// `epoll_ctl` calls and a registration a connection for nothing.
pub(crate) struct Listener {
    #[cfg(unix)]
    inner: tokio::io::unix::AsyncFd<mio::net::TcpListener>,
    #[cfg(not(unix))]
    inner: tokio::net::TcpListener,
}

impl Listener {
    /// Binds `addr` as tokio's listener does (`SO_REUSEADDR` on Unix, the
    /// standard library's backlog). Called within a runtime, whose reactor
    /// tells when a connection is waiting.
    pub(crate) fn bind(addr: SocketAddr) -> io::Result<Self> {
        // The safe constructor, deprecated because a `T` may name a
        // descriptor it does not own, which could be closed or reused while
        // registered; a `mio` listener owns its socket for as long as it
        // lives, the case the deprecation leaves sound (its unsafe
        // replacement is ruled out here: `unsafe_code = "forbid"`).
        #[cfg(unix)]
        #[allow(deprecated)]
        let inner =
            tokio::io::unix::AsyncFd::with_interest(mio::net::TcpListener::bind(addr)?, tokio::io::Interest::READABLE)?;
        #[cfg(not(unix))]
        let inner = {
            let listener = std::net::TcpListener::bind(addr)?;
            listener.set_nonblocking(true)?;
            tokio::net::TcpListener::from_std(listener)?
        };
        Ok(Self { inner })
    }

    /// The address it listens on.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        #[cfg(unix)]
        let listener = self.inner.get_ref();
        #[cfg(not(unix))]
        let listener = &self.inner;
        listener.local_addr()
    }

    /// The next connection, non-blocking and registered with no reactor.
    /// Cancel-safe: nothing is accepted across an await.
    async fn accept(&self) -> io::Result<(std::net::TcpStream, SocketAddr)> {
        #[cfg(unix)]
        loop {
            let mut ready = self.inner.readable().await?;
            // `WouldBlock` clears the readiness, and the loop waits again.
            if let Ok(accepted) = ready.try_io(|listener| listener.get_ref().accept()) {
                return accepted.map(|(stream, remote)| (stream.into(), remote));
            }
        }
        #[cfg(not(unix))]
        {
            let (stream, remote) = self.inner.accept().await?;
            Ok((stream.into_std()?, remote))
        }
    }
}

/// Accepts connections until `stop` completes, each served on the IO loop
/// serving the fewest, then drains them: the listener is closed first (new
/// connections are refused), every connection is told to finish
/// gracefully, and whatever is still open after `shutdown_timeout`, or
/// when `force` completes, is aborted.
pub(crate) async fn serve(
    listener: Listener,
    ctx: Arc<ConnContext>,
    io: &IoLoops,
    stop: impl Future<Output = ()>,
    force: impl Future<Output = ()>,
    shutdown_timeout: Duration,
) {
    let (drain_tx, drain_rx) = watch::channel(false);
    let mut conns = JoinSet::new();
    let mut stop = std::pin::pin!(stop);
    let sampler = ctx.guards.sampler().map(tokio::spawn);
    // Ended connections are collected after each accept and at each tick,
    // not as they end: waiting on the set here would have every connection
    // that ends wake this thread (a write to its reactor's wake-up file from
    // the IO thread, and this thread scheduled) only to take its result.
    let mut reap = tokio::time::interval_at(tokio::time::Instant::now() + REAP_PERIOD, REAP_PERIOD);
    reap.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            biased;
            () = &mut stop => break,
            _ = reap.tick(), if !conns.is_empty() => reap_ended(&mut conns),
            accepted = listener.accept() => match accepted {
                Ok((stream, remote)) => match ctx.guards.admit(remote.ip()) {
                    // Registered with the loop's reactor only, by the loop.
                    Ok(permit) => match io.claim() {
                        Ok((io, claim)) => {
                            let served =
                                serve_connection(stream, remote, Arc::clone(&ctx), drain_rx.clone(), (permit, claim));
                            conns.spawn_on(served, io);
                            reap_ended(&mut conns);
                        }
                        Err(err) => {
                            tracing::debug!(%remote, %err, "cannot hand the connection to an IO thread");
                        }
                    },
                    Err(cause) => {
                        tracing::debug!(%remote, %cause, "connection refused");
                        drop(stream);
                    }
                },
                Err(err) if is_per_connection(&err) => {
                    tracing::debug!(%err, "accept failed for one connection");
                }
                Err(err) => {
                    tracing::error!(%err, "accept failed; retrying shortly");
                    tokio::time::sleep(ACCEPT_ERROR_BACKOFF).await;
                }
            },
        }
    }

    drop(listener);
    if let Some(sampler) = sampler {
        sampler.abort();
    }
    // Those that ended since the last collection are not drained.
    reap_ended(&mut conns);
    tracing::info!(connections = conns.len(), "stopped accepting; draining connections");
    drain_tx.send_replace(true);
    let drain = async {
        while let Some(done) = conns.join_next().await {
            log_task_end(done);
        }
    };
    let drained = tokio::select! {
        drained = tokio::time::timeout(shutdown_timeout, drain) => drained.is_ok(),
        () = force => false,
    };
    if !drained {
        tracing::warn!(connections = conns.len(), ?shutdown_timeout, "closing the remaining connections");
        conns.shutdown().await;
    }
}

/// Takes the results of the connections that have ended, without waiting.
fn reap_ended(conns: &mut JoinSet<()>) {
    while let Some(done) = conns.try_join_next() {
        log_task_end(done);
    }
}

fn log_task_end(done: Result<(), tokio::task::JoinError>) {
    if let Err(err) = done {
        if err.is_panic() {
            tracing::error!(%err, "a connection task panicked");
        }
    }
}

/// Errors that concern only the connection being accepted.
fn is_per_connection(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}
