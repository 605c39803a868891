//! Resizing a bounded executor at run time: [`Resize`], [`ResizeError`] and
//! [`App::resize_executor`](crate::App::resize_executor).

use std::fmt;
use std::io;

use tokio::sync::Semaphore;

/// The most worker threads a resize may ask for: a guard against a typo
/// starting tens of thousands of threads. [`Scheduler::threads`](crate::Scheduler::threads)
/// has no such limit.
pub const MAX_RESIZE_THREADS: usize = 4096;

/// New sizes for a bounded executor, given to [`App::resize_executor`](crate::App::resize_executor);
/// what is left unset keeps its value.
///
/// - [`threads`](Self::threads): the executor's own worker threads. That
///   many new threads receive every handler started from then on (the
///   first is started by the resize, the others as handlers need them); handlers already running finish on the old ones, which are
///   stopped when the last of them ends (tasks a handler detached there
///   with `tokio::spawn` are dropped then, as at application shutdown). The
///   new threads keep the `restlight-<name>-<n>` names, numbered on from the
///   old ones. Only
///   executors built with [`Scheduler::threads`](crate::Scheduler::threads)
///   (the business executor among them) own their threads; one built with
///   [`Scheduler::on_runtime`](crate::Scheduler::on_runtime) refuses it. The
///   same count as now changes nothing. Between 1 and
///   [`MAX_RESIZE_THREADS`].
/// - [`max_active`](Self::max_active): how many handlers may run at once.
///   Growing lets queued requests start at once; shrinking never aborts a
///   running handler: it takes effect as running handlers finish, their
///   slots being withdrawn until the new limit holds. At least 1. When
///   `max_active` was never set (not on the [`Scheduler`](crate::Scheduler),
///   not by an earlier resize), it follows a change of `threads`, as it
///   follows the thread count at startup; once set, it stays as set.
/// - [`queue`](Self::queue): how many requests may wait for a worker slot.
///   It applies to the next admissions: requests already queued stay queued
///   and run, even when the queue is made shorter than their number. Zero is
///   allowed: a request that finds every slot busy is refused with 429.
///
/// ```
/// use restlight_core::{AppBuilder, Resize, Scheduler};
///
/// let app = AppBuilder::new().scheduler("reports", Scheduler::threads(2).queue(10)).build().unwrap();
/// let now = app.resize_executor("reports", Resize::new().threads(4).queue(100)).unwrap();
/// assert_eq!((now.threads, now.max_active, now.queue_capacity), (4, 4, 100));
///
/// let now = app.resize_executor("reports", Resize::new().max_active(16)).unwrap();
/// assert_eq!((now.threads, now.max_active), (4, 16));
/// # drop(app);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
#[must_use]
pub struct Resize {
    /// New count of the executor's own worker threads; `None` keeps it.
    pub threads: Option<usize>,
    /// New limit of handlers running at once; `None` keeps it (or follows
    /// `threads`, see above).
    pub max_active: Option<usize>,
    /// New queue length; `None` keeps it.
    pub queue: Option<usize>,
}

impl Resize {
    /// A resize that changes nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the worker thread count (see [`Resize`]).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Sets how many handlers may run at once (see [`Resize`]).
    pub fn max_active(mut self, handlers: usize) -> Self {
        self.max_active = Some(handlers);
        self
    }

    /// Sets how many requests may wait for a worker slot (see [`Resize`]).
    pub fn queue(mut self, len: usize) -> Self {
        self.queue = Some(len);
        self
    }

    /// Whether nothing is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.threads.is_none() && self.max_active.is_none() && self.queue.is_none()
    }

    /// The first field set, named in errors about the whole resize.
    pub(crate) fn first_field(&self) -> &'static str {
        if self.threads.is_some() {
            "threads"
        } else if self.max_active.is_some() {
            "max_active"
        } else {
            "queue"
        }
    }

    /// Checks the values on their own, before any executor is looked at.
    pub(crate) fn validate(&self) -> Result<(), ResizeError> {
        let invalid = |field, value, reason: &str| ResizeError::Invalid { field, value, reason: reason.to_owned() };
        match self.threads {
            Some(0) => return Err(invalid("threads", 0, "must be at least 1")),
            Some(n) if n > MAX_RESIZE_THREADS => {
                return Err(invalid("threads", n, &format!("must be at most {MAX_RESIZE_THREADS}")))
            }
            _ => {}
        }
        match self.max_active {
            Some(0) => return Err(invalid("max_active", 0, "must be at least 1")),
            Some(n) if n > Semaphore::MAX_PERMITS => {
                return Err(invalid("max_active", n, &format!("must be at most {}", Semaphore::MAX_PERMITS)))
            }
            _ => {}
        }
        match self.queue {
            Some(n) if n > Semaphore::MAX_PERMITS => {
                Err(invalid("queue", n, &format!("must be at most {}", Semaphore::MAX_PERMITS)))
            }
            _ => Ok(()),
        }
    }
}

/// Why [`App::resize_executor`](crate::App::resize_executor) changed nothing.
#[derive(Debug)]
#[non_exhaustive]
pub enum ResizeError {
    /// No executor has this name.
    UnknownExecutor {
        /// The name asked for.
        executor: String,
        /// The names of the resizable executors.
        known: Vec<String>,
    },
    /// The executor cannot change this size: `"io"` (handlers inline on the
    /// IO runtime, sized at startup) or a user's
    /// [`Executor`](crate::Executor), for any field; the thread count of an
    /// executor on a runtime it does not own.
    NotResizable {
        /// The executor.
        executor: String,
        /// The field that cannot change: `threads`, `max_active` or
        /// `queue` (the first one set, for a user's executor).
        field: &'static str,
        /// Why, for people.
        reason: String,
    },
    /// A value out of range: zero threads or `max_active`, or too large.
    Invalid {
        /// The field: `threads`, `max_active` or `queue`.
        field: &'static str,
        /// The value given.
        value: usize,
        /// What it must be, for people.
        reason: String,
    },
    /// The first of the new threads could not be started (or its runtime built).
    Runtime {
        /// The executor.
        executor: String,
        /// What the thread or runtime builder said.
        source: io::Error,
    },
}

impl fmt::Display for ResizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownExecutor { executor, known } => {
                write!(f, "no executor `{executor}`; resizable executors: {}", known.join(", "))
            }
            Self::NotResizable { executor, field, reason } => {
                write!(f, "the `{field}` of executor `{executor}` cannot change: {reason}")
            }
            Self::Invalid { field, value, reason } => write!(f, "`{field}` {reason}, got {value}"),
            Self::Runtime { executor, source } => {
                write!(f, "cannot start the new threads of executor `{executor}`: {source}")
            }
        }
    }
}

impl std::error::Error for ResizeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Runtime { source, .. } => Some(source),
            _ => None,
        }
    }
}
