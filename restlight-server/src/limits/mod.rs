//! Protocol limits beyond what [`ServerOptions`](crate::options::ServerOptions)
//! always had: header counts, HTTP/2 flow control and keep-alive pings, the
//! reset-stream bounds, and the two timeouts hyper lacks (reading a request
//! body, writing to a client, on the socket and per HTTP/2 stream).
//!
//! The setters live on [`Restlight`](crate::Restlight), in `setters.rs`.

mod body;
mod io;
mod setters;
mod stall;

use std::time::Duration;

pub(crate) use body::{BodyRead, TimedBody};
pub(crate) use io::TimedIo;
pub(crate) use stall::{note_body_poll, StreamExec, H2_PIECE};

pub(crate) const DEFAULT_MAX_HEADERS: usize = 100;
pub(crate) const DEFAULT_H2_STREAM_WINDOW: u32 = 1024 * 1024;
pub(crate) const DEFAULT_H2_CONNECTION_WINDOW: u32 = 1024 * 1024;
pub(crate) const DEFAULT_H2_KEEP_ALIVE_TIMEOUT: Duration = Duration::from_secs(20);
/// Reset streams a client may leave pending before h2 answers GOAWAY
/// (h2's own default, set explicitly so it can never become unbounded).
pub(crate) const DEFAULT_H2_MAX_PENDING_ACCEPT_RESET_STREAMS: usize = 20;
/// Streams the server may reset for protocol errors before GOAWAY (hyper's default).
pub(crate) const DEFAULT_H2_MAX_LOCAL_ERROR_RESET_STREAMS: usize = 1024;
pub(crate) const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
pub(crate) const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// Kestrel's default minimum request-body rate, in bytes per second.
pub(crate) const DEFAULT_MIN_BODY_RATE: u64 = 240;
pub(crate) const DEFAULT_MIN_BODY_RATE_GRACE: Duration = Duration::from_secs(5);

/// The protocol limits of one server.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    pub(crate) max_headers: usize,
    pub(crate) h2_stream_window: u32,
    pub(crate) h2_connection_window: u32,
    pub(crate) h2_keep_alive_interval: Option<Duration>,
    pub(crate) h2_keep_alive_timeout: Duration,
    pub(crate) h2_max_pending_accept_reset_streams: usize,
    pub(crate) h2_max_local_error_reset_streams: usize,
    pub(crate) body_read_timeout: Duration,
    pub(crate) min_body_rate: u64,
    pub(crate) min_body_rate_grace: Duration,
    pub(crate) write_timeout: Duration,
}

impl Limits {
    /// How request bodies are read.
    pub(crate) fn body_read(&self) -> BodyRead {
        BodyRead { timeout: self.body_read_timeout, min_rate: self.min_body_rate, grace: self.min_body_rate_grace }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_headers: DEFAULT_MAX_HEADERS,
            h2_stream_window: DEFAULT_H2_STREAM_WINDOW,
            h2_connection_window: DEFAULT_H2_CONNECTION_WINDOW,
            h2_keep_alive_interval: None,
            h2_keep_alive_timeout: DEFAULT_H2_KEEP_ALIVE_TIMEOUT,
            h2_max_pending_accept_reset_streams: DEFAULT_H2_MAX_PENDING_ACCEPT_RESET_STREAMS,
            h2_max_local_error_reset_streams: DEFAULT_H2_MAX_LOCAL_ERROR_RESET_STREAMS,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            min_body_rate: DEFAULT_MIN_BODY_RATE,
            min_body_rate_grace: DEFAULT_MIN_BODY_RATE_GRACE,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
        }
    }
}
