//! The [`Restlight`] setters of the protocol limits.

use std::time::Duration;

use crate::builder::Restlight;

impl Restlight {
    /// The most header fields an HTTP/1 request may carry; more are answered
    /// with 431.
    ///
    /// Default is 100.
    pub fn max_headers(mut self, count: usize) -> Self {
        self.options.limits.max_headers = count;
        self
    }

    /// The HTTP/2 flow-control window each stream starts with: how much of
    /// a request body a client may send before the handler reads it.
    ///
    /// Default is 1 MiB.
    pub fn h2_initial_stream_window_size(mut self, bytes: u32) -> Self {
        self.options.limits.h2_stream_window = bytes;
        self
    }

    /// The HTTP/2 flow-control window of a whole connection, shared by its
    /// streams.
    ///
    /// Default is 1 MiB.
    pub fn h2_initial_connection_window_size(mut self, bytes: u32) -> Self {
        self.options.limits.h2_connection_window = bytes;
        self
    }

    /// How often an HTTP/2 connection is sent a PING to check the client is
    /// still there; `None` sends none.
    ///
    /// Default is `None`: dead clients are found by the idle and write
    /// timeouts instead.
    pub fn h2_keep_alive_interval(mut self, interval: Option<Duration>) -> Self {
        self.options.limits.h2_keep_alive_interval = interval;
        self
    }

    /// How long a keep-alive PING may go unanswered before the connection
    /// is closed. Does nothing without
    /// [`h2_keep_alive_interval`](Self::h2_keep_alive_interval).
    ///
    /// Default is 20 seconds.
    pub fn h2_keep_alive_timeout(mut self, timeout: Duration) -> Self {
        self.options.limits.h2_keep_alive_timeout = timeout;
        self
    }

    /// How many streams a client may reset before the server has accepted
    /// them, before the connection is sent GOAWAY (part of the rapid-reset
    /// defence; always bounded).
    ///
    /// Default is 20.
    pub fn h2_max_pending_accept_reset_streams(mut self, streams: usize) -> Self {
        self.options.limits.h2_max_pending_accept_reset_streams = streams;
        self
    }

    /// How many streams the server may reset for protocol errors on one
    /// connection before sending GOAWAY (always bounded).
    ///
    /// Default is 1024.
    pub fn h2_max_local_error_reset_streams(mut self, streams: usize) -> Self {
        self.options.limits.h2_max_local_error_reset_streams = streams;
        self
    }

    /// How long a request body may go without a new piece arriving (also
    /// before the first one); a body that stops is answered with 408, or
    /// ends a streaming handler's body with an error. hyper has no such
    /// timeout of its own.
    ///
    /// Default is 30 seconds.
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.options.limits.body_read_timeout = timeout;
        self
    }

    /// The slowest a request body may arrive, in bytes per second, once its
    /// grace period ([`min_body_rate_grace`](Self::min_body_rate_grace)) has
    /// passed: a body that has brought fewer bytes than this rate times the
    /// time since the server first had to wait for it is answered with 408 ([`BodyTooSlow`](restlight_core::BodyTooSlow)).
    /// The [`body_read_timeout`](Self::body_read_timeout) alone does not
    /// stop a client that sends a byte every few seconds (the slow-body
    /// attack). `0` turns the check off.
    ///
    /// Default is 240 bytes per second (Kestrel's).
    pub fn min_body_rate(mut self, bytes_per_second: u64) -> Self {
        self.options.limits.min_body_rate = bytes_per_second;
        self
    }

    /// How long a request body may arrive at any rate before
    /// [`min_body_rate`](Self::min_body_rate) applies.
    ///
    /// Default is 5 seconds.
    pub fn min_body_rate_grace(mut self, grace: Duration) -> Self {
        self.options.limits.min_body_rate_grace = grace;
        self
    }

    /// How long a write to a client may make no progress before the
    /// connection is closed: a client that stops reading its response (or
    /// its TCP window) cannot hold the connection forever.
    ///
    /// Default is 30 seconds.
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.options.limits.write_timeout = timeout;
        self
    }
}
