//! Executors: where a route's handler runs.
//!
//! A route runs inline on the IO runtime that serves its connection, on a
//! bounded executor built from a [`Scheduler`] (the business executor
//! `"biz"` is one), or on a user's [`Executor`]. Every one ties the work to
//! the request: dropping the request's future cancels the work, queued or
//! running.

mod bounded;
mod failfast;
pub(crate) mod handoff;
mod metrics;
pub(crate) mod post;
mod resize;
pub(crate) mod scheduler;
pub(crate) mod workers;

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use tokio::runtime::Handle;
use tokio::task::JoinHandle;

pub(crate) use bounded::{Bounded, Handed};
pub use failfast::{FailFast, ReceivedAt};
pub use metrics::{ExecutorMetrics, QueueWait};
pub use resize::{Resize, ResizeError, MAX_RESIZE_THREADS};
pub use scheduler::{Scheduler, DEFAULT_QUEUE};

use crate::error::HttpError;
use crate::handler::BoxFuture;

/// The name of the inline "executor": handlers run on the IO thread that
/// serves the connection.
pub(crate) const IO: &str = "io";
/// The name of the business executor, built with [`Scheduler::default()`]
/// unless one is registered under this name.
pub(crate) const BIZ: &str = "biz";
use crate::response::{IntoResponse, Response};

/// Runs handler futures somewhere other than the IO thread that accepted the
/// request.
///
/// The returned future must tie the work to the request: when it is dropped
/// (the client went away, the stream was reset), the work is cancelled.
pub trait Executor: Send + Sync + 'static {
    /// Runs `task` and yields its response.
    fn execute(&self, task: BoxFuture<Response>) -> BoxFuture<Response>;
}

/// An unbounded [`Executor`] on a tokio runtime: spawns each task there and
/// aborts it when the request is dropped. A panicking handler gives 500 and
/// the runtime keeps its threads. Prefer [`Scheduler::on_runtime`], which
/// bounds the queue and reports metrics.
#[derive(Debug, Clone)]
pub struct RuntimeExecutor {
    handle: Handle,
}

impl RuntimeExecutor {
    /// Spawns on the runtime behind `handle`.
    #[must_use]
    pub fn new(handle: Handle) -> Self {
        Self { handle }
    }
}

impl Executor for RuntimeExecutor {
    fn execute(&self, task: BoxFuture<Response>) -> BoxFuture<Response> {
        let join = AbortOnDrop(self.handle.spawn(task));
        Box::pin(async move {
            match join.await {
                Ok(res) => res,
                Err(e) if e.is_panic() => panicked(),
                Err(_) => HttpError::service_unavailable("the request was cancelled").into_response(),
            }
        })
    }
}

pub(crate) fn panicked() -> Response {
    HttpError::internal("the handler panicked").into_response()
}

pub(crate) struct AbortOnDrop<T>(pub(crate) JoinHandle<T>);

impl<T> Future for AbortOnDrop<T> {
    type Output = Result<T, tokio::task::JoinError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx)
    }
}

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Where one compiled route runs its handler.
#[derive(Clone)]
pub(crate) enum Exec {
    /// Inline, on the IO thread that polls the request.
    Inline,
    /// On a bounded executor.
    Bounded(Arc<Bounded>),
    /// On a user's executor.
    Custom(Arc<dyn Executor>),
}

impl fmt::Debug for Exec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Inline => f.write_str("Inline"),
            Self::Bounded(b) => b.fmt(f),
            Self::Custom(_) => f.write_str("Custom"),
        }
    }
}

impl Exec {
    /// Whether handlers run inline on the IO thread.
    pub(crate) fn is_inline(&self) -> bool {
        matches!(self, Self::Inline)
    }

    /// Whether this is a bounded executor (read by the OpenAPI document).
    #[cfg(feature = "openapi")]
    pub(crate) fn is_bounded(&self) -> bool {
        matches!(self, Self::Bounded(_))
    }

    /// Whether [`run`](Self::run) needs the time the request arrived: only
    /// a bounded executor with a time-to-first-byte fail-fast does, so the
    /// dispatcher reads the clock for no other.
    pub(crate) fn needs_received_at(&self) -> bool {
        match self {
            Self::Bounded(bounded) => bounded.needs_received_at(),
            Self::Inline | Self::Custom(_) => false,
        }
    }

    /// Runs `task` here, within `timeout` when one is set (then 504 and the
    /// task is dropped, wherever it runs).
    /// `received` is when the request arrived (a bounded executor's
    /// time-to-first-byte limit counts from it; now when unknown; see
    /// [`needs_received_at`](Self::needs_received_at)).
    pub(crate) async fn run(
        &self,
        task: BoxFuture<Response>,
        received: Option<Instant>,
        timeout: Option<Duration>,
    ) -> Response {
        let run = async move {
            match self {
                Self::Inline => run_inline(task).await,
                Self::Bounded(bounded) => bounded.run(task, received).await,
                Self::Custom(exec) => exec.execute(task).await,
            }
        };
        match timeout {
            None => run.await,
            Some(limit) => tokio::time::timeout(limit, run).await.unwrap_or_else(|_| timed_out(limit)),
        }
    }
}

/// Runs `task` where it is polled; a panic becomes a 500.
pub(crate) async fn run_inline(task: BoxFuture<Response>) -> Response {
    AssertUnwindSafe(task).catch_unwind().await.unwrap_or_else(|_| panicked())
}

fn timed_out(limit: Duration) -> Response {
    let ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
    HttpError::new(
        http::StatusCode::GATEWAY_TIMEOUT,
        format!("the handler did not answer within the route's timeout of {ms} ms"),
    )
    .with("timeoutMs", ms)
    .into_response()
}

/// An executor registered on the application builder, not built yet.
#[derive(Clone)]
pub(crate) enum ExecutorSpec {
    /// A bounded executor to build at startup.
    Scheduler(Scheduler),
    /// A user's executor, used as it is.
    Custom(Arc<dyn Executor>),
}

/// A named executor as the application builder holds it.
#[derive(Clone)]
pub(crate) struct NamedExecutor {
    pub(crate) name: String,
    pub(crate) spec: ExecutorSpec,
}

impl fmt::Debug for NamedExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.spec {
            ExecutorSpec::Scheduler(s) => format!("{s:?}"),
            ExecutorSpec::Custom(_) => "Custom".to_owned(),
        };
        f.debug_struct("NamedExecutor").field("name", &self.name).field("spec", &kind).finish()
    }
}

impl NamedExecutor {
    /// Builds the executor.
    pub(crate) fn build(&self) -> std::io::Result<Exec> {
        Ok(match &self.spec {
            ExecutorSpec::Scheduler(s) => Exec::Bounded(Arc::new(Bounded::new(&self.name, s)?)),
            ExecutorSpec::Custom(e) => Exec::Custom(Arc::clone(e)),
        })
    }
}
