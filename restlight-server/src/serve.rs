//! The accept loop and the graceful drain that follows it.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::conn::{serve_connection, ConnContext};
use crate::runtime::IoLoops;

/// Pause after an accept error that is not about one connection (such as
/// running out of file descriptors), so the loop does not spin.
const ACCEPT_ERROR_BACKOFF: Duration = Duration::from_millis(100);

/// Accepts connections until `stop` completes, each served on the IO loop
/// serving the fewest, then drains them: the listener is closed first (new
/// connections are refused), every connection is told to finish
/// gracefully, and whatever is still open after `shutdown_timeout`, or
/// when `force` completes, is aborted.
pub(crate) async fn serve(
    listener: TcpListener,
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
    loop {
        tokio::select! {
            biased;
            () = &mut stop => break,
            Some(done) = conns.join_next(), if !conns.is_empty() => log_task_end(done),
            accepted = listener.accept() => match accepted {
                Ok((stream, remote)) => match ctx.guards.admit(remote.ip()) {
                    // Taken off this thread's reactor, to be registered with
                    // the loop's.
                    Ok(permit) => match (stream.into_std(), io.claim()) {
                        (Ok(stream), Ok((io, claim))) => {
                            let served =
                                serve_connection(stream, remote, Arc::clone(&ctx), drain_rx.clone(), (permit, claim));
                            conns.spawn_on(served, io);
                        }
                        (Err(err), _) | (_, Err(err)) => {
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
