//! The accept loop and the graceful drain that follows it.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::conn::{serve_connection, ConnContext, Phase};
use crate::gate::Gated;
use crate::runtime::IoLoops;

/// Pause after an accept error that is not about one connection (such as
/// running out of file descriptors), so the loop does not spin.
const ACCEPT_ERROR_BACKOFF: Duration = Duration::from_millis(100);

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
    ///
    /// The readiness is polled as tokio's own listener polls it, with the
    /// listener's one waker for reading, not awaited through a future
    /// (`readable`), which enters a list of waiters under the reactor's lock
    /// and leaves it again for every connection.
    async fn accept(&self) -> io::Result<(std::net::TcpStream, SocketAddr)> {
        #[cfg(unix)]
        return std::future::poll_fn(|cx| loop {
            let mut ready = std::task::ready!(self.inner.poll_read_ready(cx))?;
            // `WouldBlock` clears the readiness, and the loop polls again.
            if let Ok(accepted) = ready.try_io(|listener| listener.get_ref().accept()) {
                return std::task::Poll::Ready(accepted.map(|(stream, remote)| (stream.into(), remote)));
            }
        })
        .await;
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
/// when `force` completes, is closed at once.
///
/// A connection's task is not joined: the server thread neither keeps a
/// handle to it nor hears when it ends (each would cost it work at every
/// connection's start and end). The drain counts the open connections
/// instead, by the admission permits they hold to their end, and closes
/// the ones left through the same channel that tells them to drain. (A
/// panic in a connection's own code, which no handler's panic reaches, is
/// reported by the panic hook alone: the runtime catches it and drops the
/// task, and with it the connection.)
pub(crate) async fn serve(
    listener: Listener,
    ctx: Arc<ConnContext>,
    io: &IoLoops,
    stop: impl Future<Output = ()>,
    force: impl Future<Output = ()>,
    shutdown_timeout: Duration,
) {
    let (phase_tx, phase_rx) = watch::channel(Phase::Serving);
    // Polled only once it woke the loop, not again after every accepted
    // connection: a poll of the handle's channel and the signal watchers
    // is several hundred instructions.
    let mut stop = std::pin::pin!(Gated::new(stop));
    let sampler = ctx.guards.sampler().map(tokio::spawn);
    loop {
        tokio::select! {
            biased;
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, remote)) => match ctx.guards.admit(remote.ip()) {
                    // Registered with the loop's reactor only, by the loop.
                    Ok(permit) => match io.claim() {
                        Ok((io, claim)) => {
                            let served =
                                serve_connection(stream, remote, Arc::clone(&ctx), phase_rx.clone(), (permit, claim));
                            drop(io.spawn(served));
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
    tracing::info!(connections = ctx.guards.open(), "stopped accepting; draining connections");
    phase_tx.send_replace(Phase::Draining);
    let drained = tokio::select! {
        drained = tokio::time::timeout(shutdown_timeout, ctx.guards.all_closed()) => drained.is_ok(),
        () = force => false,
    };
    if !drained {
        tracing::warn!(connections = ctx.guards.open(), ?shutdown_timeout, "closing the remaining connections");
        // Each one closes when its task next runs, which the change wakes.
        phase_tx.send_replace(Phase::Closing);
        ctx.guards.all_closed().await;
    }
}

/// Errors that concern only the connection being accepted.
fn is_per_connection(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}
