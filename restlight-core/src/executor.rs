//! Executors: where a route's handler runs.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use tokio::runtime::{Handle, Runtime};
use tokio::task::JoinHandle;

use crate::error::HttpError;
use crate::handler::BoxFuture;
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

/// An [`Executor`] on a tokio runtime: spawns each task there and aborts it
/// when the request is dropped. A panicking handler gives 500 and the
/// runtime keeps its threads.
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

struct AbortOnDrop(JoinHandle<Response>);

impl Future for AbortOnDrop {
    type Output = Result<Response, tokio::task::JoinError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx)
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The business executor used when none was registered (the mock client, or
/// an application served by another server): a small runtime of its own,
/// started on first use with one thread per core.
pub(crate) fn fallback_biz() -> Arc<dyn Executor> {
    static RT: OnceLock<Runtime> = OnceLock::new();
    let rt = RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .thread_name("restlight-biz")
            .enable_all()
            .build()
            .expect("the fallback business runtime could not start")
    });
    Arc::new(RuntimeExecutor::new(rt.handle().clone()))
}

/// A named executor as the application holds it.
#[derive(Clone)]
pub(crate) struct NamedExecutor {
    pub(crate) name: String,
    pub(crate) executor: Arc<dyn Executor>,
}

impl fmt::Debug for NamedExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NamedExecutor").field("name", &self.name).finish_non_exhaustive()
    }
}
