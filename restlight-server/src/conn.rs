//! One connection, from sniffing its protocol to closing it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulConnection;
use restlight_core::App;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::activity::Activity;
use crate::options::{ServerOptions, H2_MAX_LOCAL_ERROR_RESET_STREAMS, H2_MAX_PENDING_ACCEPT_RESET_STREAMS};
use crate::service::AppService;
use crate::sniff::{sniff, Protocol};

/// What every connection of one server shares.
#[derive(Debug)]
pub(crate) struct ConnContext {
    app: App,
    h1: http1::Builder,
    h2: http2::Builder<TokioExecutor>,
    header_read_timeout: Duration,
    idle_timeout: Duration,
}

impl ConnContext {
    pub(crate) fn new(app: App, options: &ServerOptions) -> Self {
        let mut h1 = http1::Builder::new();
        h1.timer(TokioTimer::new())
            .keep_alive(true)
            .header_read_timeout(options.header_read_timeout)
            .max_header_size(options.max_header_size);

        let mut h2 = http2::Builder::new(TokioExecutor::new());
        h2.timer(TokioTimer::new())
            .max_concurrent_streams(options.h2_max_concurrent_streams.max(1))
            .max_pending_accept_reset_streams(H2_MAX_PENDING_ACCEPT_RESET_STREAMS)
            .max_local_error_reset_streams(H2_MAX_LOCAL_ERROR_RESET_STREAMS)
            .max_header_list_size(u32::try_from(options.max_header_size).unwrap_or(u32::MAX));

        Self { app, h1, h2, header_read_timeout: options.header_read_timeout, idle_timeout: options.idle_timeout }
    }
}

/// Serves one accepted connection until it closes, times out or is drained.
pub(crate) async fn serve_connection(
    stream: TcpStream,
    remote: SocketAddr,
    ctx: Arc<ConnContext>,
    mut drain: watch::Receiver<bool>,
) {
    if let Err(err) = stream.set_nodelay(true) {
        tracing::debug!(%remote, %err, "cannot set TCP_NODELAY");
    }
    let deadline = Instant::now() + ctx.header_read_timeout;
    let protocol = tokio::select! {
        sniffed = sniff(&stream, deadline) => sniffed,
        _ = drain.wait_for(|drain| *drain) => return,
    };
    let protocol = match protocol {
        Ok(protocol) => protocol,
        Err(err) => {
            tracing::debug!(%remote, %err, "closing connection");
            return;
        }
    };

    let activity = Activity::new();
    let service = AppService::new(ctx.app.clone(), remote, Arc::clone(&activity));
    let io = TokioIo::new(stream);
    match protocol {
        Protocol::Http1 => {
            let conn = ctx.h1.serve_connection(io, service);
            drive(conn, &activity, ctx.idle_timeout, drain, remote).await;
        }
        Protocol::H2 => {
            let conn = ctx.h2.serve_connection(io, service);
            drive(conn, &activity, ctx.idle_timeout, drain, remote).await;
        }
    }
}

/// Polls a hyper connection to the end, starting its graceful shutdown when
/// the server drains or the connection has been idle for `idle`, and dropping
/// it when it is still idle one period after that (an HTTP/2 client that
/// never answers the GOAWAY ping would otherwise keep it).
async fn drive<C>(conn: C, activity: &Activity, idle: Duration, mut drain: watch::Receiver<bool>, remote: SocketAddr)
where
    C: GracefulConnection<Error = hyper::Error>,
{
    let mut conn = std::pin::pin!(conn);
    let mut closing = false;
    let mut draining = false;
    loop {
        let idle_deadline = activity.idle_deadline(idle);
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(err) = result {
                    tracing::debug!(%remote, %err, "connection ended with an error");
                }
                return;
            }
            _ = drain.wait_for(|drain| *drain), if !draining => {
                draining = true;
                if !closing {
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
            () = tokio::time::sleep_until(idle_deadline) => {
                if activity.is_idle_for(idle) {
                    if closing {
                        tracing::debug!(%remote, "closing connection still idle after a graceful close");
                        return;
                    }
                    tracing::debug!(%remote, ?idle, "closing idle connection");
                    closing = true;
                    activity.touch();
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}
