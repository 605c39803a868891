//! [`Handler`]: what a route runs, and [`BoxFuture`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use crate::request::RequestContext;
use crate::response::Response;

/// A boxed, sendable future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type HandlerFn = dyn Fn(RequestContext) -> BoxFuture<Response> + Send + Sync;
pub(crate) type ImmediateFn = dyn Fn(&RequestContext) -> Response + Send + Sync;
pub(crate) type NoInputFn = dyn Fn() -> Response + Send + Sync;

/// A route's handler: takes the request, yields the response.
///
/// Parameter resolution, the call and the conversion of the return value all
/// happen inside; errors are already responses (problem details).
#[derive(Clone)]
pub struct Handler(Call);

#[derive(Clone)]
enum Call {
    /// Returns a future.
    Later(Arc<HandlerFn>),
    /// Answers when called: nothing in it waits (see [`Handler::immediate`]).
    Now(Arc<ImmediateFn>),
    /// Answers when called and reads nothing of the request (see
    /// [`Handler::immediate_no_input`]).
    NoInput(Arc<NoInputFn>),
}

/// The future of a handler that reads nothing of the request.
fn no_input(f: &Arc<NoInputFn>) -> BoxFuture<Response> {
    let f = Arc::clone(f);
    Box::pin(async move { f() })
}

/// The function of an immediate handler, as the dispatcher calls it.
#[derive(Clone, Copy)]
pub(crate) enum Immediate<'a> {
    /// Reads the request where it lies.
    Reads(&'a ImmediateFn),
    /// Reads nothing of the request: no context is built for it.
    NoInput(&'a NoInputFn),
}

impl Handler {
    /// Wraps a function returning a boxed future.
    pub fn new<F>(f: F) -> Self
    where
        F: Fn(RequestContext) -> BoxFuture<Response> + Send + Sync + 'static,
    {
        Self(Call::Later(Arc::new(f)))
    }

    /// Wraps a function that answers without waiting for anything, reading
    /// the request where it lies. A route run inline on the IO executor
    /// without a time limit calls it where the request is dispatched, so
    /// its answer needs no boxed future and the request is not moved; on
    /// any other executor, or within a time limit, it runs there as
    /// [`new`](Self::new)'s future would. (The annotated routes whose
    /// `async fn` body has no `.await` and that read a parameter are built
    /// this way; those that read none, with
    /// [`immediate_no_input`](Self::immediate_no_input).)
    pub fn immediate<F>(f: F) -> Self
    where
        F: Fn(&RequestContext) -> Response + Send + Sync + 'static,
    {
        Self(Call::Now(Arc::new(f)))
    }

    /// Wraps a function that answers without waiting for anything and
    /// without reading the request: its answer depends on nothing the
    /// client sent. The response is written as any handler's is (the
    /// negotiated `Content-Type`, HEAD, compression), and a panic is
    /// answered 500 with problem details.
    ///
    /// By default it behaves as [`immediate`](Self::immediate) would: a
    /// route run inline on the IO executor without a time limit calls it
    /// where the request is dispatched. On any other executor, or within a
    /// time limit, it runs as a future. Either way, when the request has no
    /// body to read, no request context is built for it at all. Behind
    /// interceptors it runs as any handler does, and [`call`](Self::call)
    /// works as for any handler.
    /// (The annotated routes whose `async fn` has no `.await` and no
    /// parameter besides `&self` are built this way.)
    ///
    /// ```
    /// use restlight_core::{get, test::MockClient, AppBuilder, Handler, IntoResponse};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let hello = Handler::immediate_no_input(|| "hello".into_response());
    /// let app = AppBuilder::new().route(get("/hello").handler(hello)).build().unwrap();
    /// let client = MockClient::new(app);
    /// let res = client.get("/hello").send().await;
    /// assert_eq!(res.status(), 200);
    /// assert_eq!(res.text(), "hello");
    /// assert_eq!(res.header("content-type"), Some("text/plain; charset=utf-8"));
    /// // HEAD is answered by the GET route, with the same headers and no body.
    /// let head = client.request(http::Method::HEAD, "/hello").send().await;
    /// assert_eq!(head.status(), 200);
    /// assert_eq!(head.text(), "");
    /// # }
    /// ```
    pub fn immediate_no_input<F>(f: F) -> Self
    where
        F: Fn() -> Response + Send + Sync + 'static,
    {
        Self(Call::NoInput(Arc::new(f)))
    }

    /// Runs the handler. A handler made by [`immediate`](Self::immediate)
    /// or [`immediate_no_input`](Self::immediate_no_input) runs when the
    /// future is first polled, not now.
    #[must_use]
    pub fn call(&self, ctx: RequestContext) -> BoxFuture<Response> {
        match &self.0 {
            Call::Later(f) => f(ctx),
            Call::Now(f) => {
                let f = Arc::clone(f);
                Box::pin(async move { f(&ctx) })
            }
            Call::NoInput(f) => {
                drop(ctx);
                no_input(f)
            }
        }
    }

    /// The future of a handler made by
    /// [`immediate_no_input`](Self::immediate_no_input), which needs no
    /// request context to be built for it; `None` for any other handler.
    pub(crate) fn call_without_input(&self) -> Option<BoxFuture<Response>> {
        match &self.0 {
            Call::NoInput(f) => Some(no_input(f)),
            Call::Later(_) | Call::Now(_) => None,
        }
    }

    /// The function of a handler made by [`immediate`](Self::immediate) or
    /// [`immediate_no_input`](Self::immediate_no_input).
    pub(crate) fn as_immediate(&self) -> Option<Immediate<'_>> {
        match &self.0 {
            Call::Now(f) => Some(Immediate::Reads(&**f)),
            Call::NoInput(f) => Some(Immediate::NoInput(&**f)),
            Call::Later(_) => None,
        }
    }
}

impl fmt::Debug for Handler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Handler")
    }
}

/// The output of a future that has nothing to wait for: an annotated
/// handler's `async fn` whose body has no `.await` (and no macro that could
/// hide one), polled once. Such a future is ready on its first poll; one
/// that is not is a bug in the macro's reading of the body, reported as a
/// panic (answered 500 where the handler's panics are caught).
///
/// # Panics
/// When `fut` is not ready on its first poll.
pub fn ready_now<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("an `async fn` handler without `.await` was not ready on its first poll"),
    }
}
