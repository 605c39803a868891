//! Connection protection, decided right after `accept`: the IP allow-list,
//! the connection limit, the new-connection rate limit and load shedding
//! under CPU overload. A refused connection is closed at once and counted
//! by cause ([`ServerStats`]).

mod allow;
mod overload;
mod rate;
mod setters;
mod stats;

use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub use allow::{IpRange, IpRangeError};
pub use overload::LoadShedding;
pub use stats::{Refusal, ServerStats};

pub(crate) use stats::Counters;

use allow::AllowList;
use overload::Shedder;
use rate::RateLimit;

/// The default new-connection rate limit (the Java original's).
pub(crate) const DEFAULT_MAX_CONNECTIONS_PER_SECOND: u32 = 20_000;

/// What the builder collected.
#[derive(Debug, Clone)]
pub(crate) struct Protection {
    pub(crate) max_connections: Option<usize>,
    pub(crate) max_connections_per_second: Option<u32>,
    pub(crate) allow: Option<Vec<IpRange>>,
    pub(crate) load_shedding: Option<LoadShedding>,
}

impl Default for Protection {
    fn default() -> Self {
        Self {
            max_connections: None,
            max_connections_per_second: Some(DEFAULT_MAX_CONNECTIONS_PER_SECOND),
            allow: None,
            load_shedding: None,
        }
    }
}

/// The guards of one server, shared by the accept loop and the handle.
#[derive(Debug)]
pub(crate) struct Guards {
    counters: Arc<Counters>,
    max_connections: Option<usize>,
    rate: Option<RateLimit>,
    allow: Option<AllowList>,
    shedder: Option<Shedder>,
}

impl Guards {
    pub(crate) fn new(protection: &Protection, counters: Arc<Counters>) -> Self {
        let shedder = protection.load_shedding.map(|settings| Shedder::new(settings, counters.cpu_load()));
        Self {
            max_connections: protection.max_connections,
            rate: protection.max_connections_per_second.map(RateLimit::new),
            allow: protection.allow.clone().map(AllowList::new),
            shedder,
            counters,
        }
    }

    /// The CPU sampler to run beside the accept loop, when shedding is on.
    pub(crate) fn sampler(&self) -> Option<impl std::future::Future<Output = ()> + Send + 'static> {
        self.shedder.as_ref().map(|_| Shedder::sample(self.counters.cpu_load()))
    }

    /// Admits a new connection from `ip`, or says why not (and counts it).
    pub(crate) fn admit(&self, ip: IpAddr) -> Result<Permit, Refusal> {
        let verdict = self.judge(ip);
        match verdict {
            Ok(()) => {
                self.counters.accepted();
                Ok(Permit(Arc::clone(&self.counters)))
            }
            Err(cause) => {
                // Undo the slot `judge` may have taken.
                if cause != Refusal::AllowList && cause != Refusal::ConnectionLimit {
                    self.counters.open.fetch_sub(1, Ordering::AcqRel);
                }
                self.counters.refused(cause);
                Err(cause)
            }
        }
    }

    /// Connections admitted and not closed yet.
    pub(crate) fn open(&self) -> usize {
        self.counters.open.load(Ordering::Acquire)
    }

    /// Completes once no admitted connection is open.
    pub(crate) async fn all_closed(&self) {
        loop {
            let closed = self.counters.all_closed.notified();
            let mut closed = std::pin::pin!(closed);
            // Registered before the count is read: a connection that closes
            // in between notifies this waiter.
            closed.as_mut().enable();
            if self.open() == 0 {
                return;
            }
            closed.await;
        }
    }

    fn judge(&self, ip: IpAddr) -> Result<(), Refusal> {
        if self.allow.as_ref().is_some_and(|allow| !allow.allows(ip)) {
            return Err(Refusal::AllowList);
        }
        let open = self.counters.open.fetch_add(1, Ordering::AcqRel);
        if self.max_connections.is_some_and(|max| open >= max) {
            self.counters.open.fetch_sub(1, Ordering::AcqRel);
            return Err(Refusal::ConnectionLimit);
        }
        if self.rate.as_ref().is_some_and(|rate| !rate.admit()) {
            return Err(Refusal::RateLimit);
        }
        if self.shedder.as_ref().is_some_and(Shedder::shed) {
            return Err(Refusal::Overload);
        }
        Ok(())
    }
}

/// An admitted connection; dropping it frees its slot.
#[derive(Debug)]
pub(crate) struct Permit(Arc<Counters>);

impl Drop for Permit {
    fn drop(&mut self) {
        if self.0.open.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.all_closed.notify_waiters();
        }
    }
}
