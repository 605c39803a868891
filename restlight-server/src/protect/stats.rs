//! Connection counters, readable through [`ServerHandle::stats`](crate::ServerHandle::stats).

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

/// Why a new connection was refused (closed right after accept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Refusal {
    /// The peer's address is not on the allow-list.
    AllowList,
    /// The server already had its maximum of open connections.
    ConnectionLimit,
    /// More new connections arrived this second than the rate limit allows.
    RateLimit,
    /// The CPU was overloaded and load shedding picked this connection.
    Overload,
}

impl Refusal {
    /// The cause as a short name: `allow-list`, `connection-limit`, ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AllowList => "allow-list",
            Self::ConnectionLimit => "connection-limit",
            Self::RateLimit => "rate-limit",
            Self::Overload => "overload",
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A snapshot of a server's connection counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerStats {
    /// Connections open now.
    pub open_connections: usize,
    /// Connections accepted and served since the start.
    pub accepted: u64,
    /// Connections refused because the peer was not on the allow-list.
    pub refused_allow_list: u64,
    /// Connections refused because the connection limit was reached.
    pub refused_connection_limit: u64,
    /// Connections refused by the new-connection rate limit.
    pub refused_rate_limit: u64,
    /// Connections refused by load shedding under CPU overload.
    pub refused_overload: u64,
    /// The CPU load last sampled, in percent, when load shedding is on.
    pub cpu_load_percent: Option<u8>,
}

impl ServerStats {
    /// Every refused connection, whatever the cause.
    #[must_use]
    pub fn refused(&self) -> u64 {
        self.refused_allow_list + self.refused_connection_limit + self.refused_rate_limit + self.refused_overload
    }

    /// The connections refused for `cause`.
    #[must_use]
    pub fn refused_by(&self, cause: Refusal) -> u64 {
        match cause {
            Refusal::AllowList => self.refused_allow_list,
            Refusal::ConnectionLimit => self.refused_connection_limit,
            Refusal::RateLimit => self.refused_rate_limit,
            Refusal::Overload => self.refused_overload,
        }
    }
}

/// The live counters behind [`ServerStats`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) open: AtomicUsize,
    /// Notified each time the last open connection closes (the drain
    /// waits on it).
    pub(crate) all_closed: tokio::sync::Notify,
    accepted: AtomicU64,
    refused: [AtomicU64; 4],
    /// Percent plus one; zero while nothing was sampled.
    cpu_load: Arc<AtomicU8>,
}

impl Counters {
    /// The sampled CPU load, shared with the shedder and the sampler.
    pub(crate) fn cpu_load(&self) -> Arc<AtomicU8> {
        Arc::clone(&self.cpu_load)
    }

    pub(crate) fn accepted(&self) {
        self.accepted.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn refused(&self, cause: Refusal) {
        self.refused[slot(cause)].fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> ServerStats {
        let refused = |cause| self.refused[slot(cause)].load(Ordering::Relaxed);
        let load = self.cpu_load.load(Ordering::Relaxed);
        ServerStats {
            open_connections: self.open.load(Ordering::Relaxed),
            accepted: self.accepted.load(Ordering::Relaxed),
            refused_allow_list: refused(Refusal::AllowList),
            refused_connection_limit: refused(Refusal::ConnectionLimit),
            refused_rate_limit: refused(Refusal::RateLimit),
            refused_overload: refused(Refusal::Overload),
            cpu_load_percent: load.checked_sub(1),
        }
    }
}

fn slot(cause: Refusal) -> usize {
    match cause {
        Refusal::AllowList => 0,
        Refusal::ConnectionLimit => 1,
        Refusal::RateLimit => 2,
        Refusal::Overload => 3,
    }
}
