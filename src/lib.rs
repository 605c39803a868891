//! # Restlight
//!
//! A web framework for REST services: JAX-RS-style attribute macros on plain
//! impl blocks, routes collected at link time, a router compiled once at
//! startup, and a hyper server that keeps network IO and business work on
//! separate executors.
//!
//! ```no_run
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Greeter;
//!
//! #[restlight::path("/greet")]
//! impl Greeter {
//!     #[get]
//!     #[path("/{name}")]
//!     async fn greet(&self, #[path_param] name: String,
//!                    #[query_param("punct")] #[default_value("!")] punct: String) -> String {
//!         format!("Hello, {name}{punct}")
//!     }
//! }
//!
//! fn main() -> restlight::Result<()> {
//!     Restlight::new().port(8080).run()
//! }
//! ```
//!
//! The same application runs in-process for tests, without sockets:
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[restlight::get("/hello")]
//! #[produces("text/plain")]
//! async fn hello(#[query_param] name: Option<String>) -> String {
//!     format!("Hello {}!", name.as_deref().unwrap_or("Restlight"))
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! let res = client.get("/hello?name=Rust").send_blocking();
//! assert_eq!(res.status(), 200);
//! assert_eq!(res.text(), "Hello Rust!");
//! assert_eq!(res.header("content-type"), Some("text/plain"));
//! ```
//!
//! ## Annotations
//!
//! | attribute | on | meaning |
//! |---|---|---|
//! | `#[restlight::path("/base")]` | impl block | a resource: its routes live under `/base` |
//! | `#[get]` `#[post]` `#[put]` `#[delete]` `#[patch]` `#[head]` `#[options]` | method (or free fn as `#[restlight::get("/x")]`) | a route for that HTTP method |
//! | `#[path("/sub")]` | method in a resource | the route's path below the resource's |
//! | `#[produces("a/b", ..)]` `#[consumes("a/b", ..)]` | impl block or method | media types written / read; the method's win |
//! | `#[scheduled(io)]` `#[scheduled(biz)]` `#[scheduled("name")]` | impl block or method | the executor the handler runs on (see *Where handlers run*) |
//! | `#[max_body("16MiB")]` | impl block or method | the largest request entity, in bytes or with a unit (B, KB, KiB, MB, MiB, GB, GiB); 413 past it. Default: the application's limit, 4 MiB |
//! | `#[timeout("2s")]` | impl block or method | the time the handler gets, in milliseconds or with a unit (ms, s, m); 504 past it and the handler is cancelled. Default: no limit |
//! | `#[serializer("msgpack")]` | impl block or method | the codec (format name or media type) for the entity and the response, over Content-Type and `Accept` |
//! | `#[request_serializer("..")]` `#[response_serializer("..")]` | impl block, method (request: also the entity) | the codec for one side |
//! | `#[compress(false)]` | impl block or method | never compress this route's responses |
//! | `#[path_param]` `#[query_param]` `#[header_param]` `#[cookie_param]` `#[matrix_param]` `#[form_param]` | parameter | where the value is read from; the name defaults to the identifier (for a header with `-` for `_`); `#[matrix_param]` reads the path's last segment, as JAX-RS does; a `#[path_param]` of type [`PathSegment`] (or `Vec<PathSegment>`) is the segment its variable matched, with that segment's matrix parameters |
//! | `#[default_value("..")]` | parameter | used when the value is absent |
//! | `#[bean_param]` | parameter | a struct with `#[derive(BeanParam)]` whose fields carry the source attributes above: several values read as one; its `#[path_param]` fields are checked against the template at startup |
//! | `#[context]` | parameter | the request (`&RequestContext`, `&HeaderMap`, `&Uri`, `&Method`) or a bean registered with `.bean(..)` |
//! | (none) | one parameter | the entity, decoded by Content-Type |
//! | `#[valid]` | the entity | validated with `garde` after decoding; 400 lists every violation |
//! | `#[no_interceptors]` `#[skip_interceptor(Type, ..)]` | impl block or method | the routes decline all interceptors, or those types |
//! | `#[exception_handler]` | method `fn(&self, e: &E) -> impl IntoResponse` | maps the resource's handler errors of type `E` (before global mappers) |
//! | `#[restlight::interceptor(includes = [..], excludes = [..], order = N)]` | `impl Interceptor for T` | registers a `Default`-built interceptor |
//!
//! The entity can also be a [`BodyStream`] (the body as it arrives) or a
//! [`Multipart`] (a `multipart/form-data` body, field by field as it
//! arrives, with [`MultipartLimits`] and uploads spooled to disk as
//! [`SpooledFile`]s); either way the route does not read the body in full
//! first.
//!
//! Framework errors are RFC 9457 problem details; see [`HttpError`].
//!
//! ### Spring MVC attributes
//!
//! The same engine reads Spring's annotations: `#[restlight::rest_controller]`
//! with `#[request_mapping("/base")]` on an impl block, `#[get_mapping]`
//! `#[post_mapping]` `#[put_mapping]` `#[delete_mapping]` `#[patch_mapping]`
//! `#[request_mapping(path = .., method = ..)]` and `#[response_status(..)]`
//! on methods, `#[path_variable]` `#[request_param]` `#[request_header]`
//! `#[cookie_value]` `#[matrix_variable]` `#[request_body]`
//! `#[model_attribute]` `#[validated]` on parameters, `#[exception_handler(E, ..)]`
//! and [`rest_controller_advice`] for errors. They expand to the same routes
//! as the JAX-RS attributes, with Spring's meaning where it differs
//! (`#[request_param]` required unless `required = false`, `Option` or a
//! default; a mapping without a method serves every method). One impl block
//! uses one style. `docs/migrating-from-spring.md` in the repository has the
//! full table and the differences.
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Greeter;
//!
//! #[restlight::rest_controller]
//! #[request_mapping(path = "/greet", produces = "text/plain")]
//! impl Greeter {
//!     #[get_mapping("/{name}")]
//!     async fn greet(&self, #[path_variable] name: String, #[request_param] salute: String) -> String {
//!         format!("{salute}, {name}!")
//!     }
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! assert_eq!(client.get("/greet/Ada?salute=Hi").send_blocking().text(), "Hi, Ada!");
//! // Required by default: 400 naming the parameter.
//! let missing = client.get("/greet/Ada").send_blocking();
//! assert_eq!(missing.status(), 400);
//! assert!(missing.text().contains("salute"));
//! ```
//!
//! ## JAX-RS request matching in Restlight
//!
//! Every route is compiled into one table at startup; a request is matched
//! in three steps, as Jakarta REST 3.1 section 3.7.2 describes:
//!
//! 1. **Template.** Of the templates matching the path, the one with the
//!    most literal characters wins, then the one with more variables, then
//!    with more regex variables. By default the best template *that serves
//!    the request method* is chosen (HEAD is served by GET); when none does,
//!    405 with an `Allow` of every matching template's methods.
//! 2. **Content-Type** against `#[consumes]`: routes that cannot read it
//!    drop out (415 when none is left); the most specific match ranks first:
//!    `text/plain` before `text/*` before `*/*` (a route that states no
//!    `#[consumes]` consumes `*/*`).
//! 3. **Accept** against `#[produces]`: the combined type of each pair is
//!    ranked `n/m` before `n/*` before `*/*`, then by the client's `q`, then
//!    by the server's `qs` (`#[produces("text/html; qs=0.5")]`, default 1),
//!    then by the fewer wildcards (406 when nothing is acceptable).
//!
//! So one template may have one method per representation:
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Notes;
//!
//! #[restlight::path("/notes")]
//! impl Notes {
//!     #[post]
//!     #[consumes("text/plain")]
//!     async fn plain(&self, body: String) -> String { format!("plain: {body}") }
//!
//!     #[post]
//!     #[consumes("text/*")]
//!     async fn text(&self, body: String) -> String { format!("text: {body}") }
//!
//!     #[post]
//!     async fn anything(&self, body: String) -> String { format!("{} bytes", body.len()) }
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! let post = |ct: &str| client.post("/notes").header("content-type", ct).body("hi").send_blocking().text();
//! assert_eq!(post("text/plain"), "plain: hi");
//! assert_eq!(post("text/csv"), "text: hi");
//! assert_eq!(post("application/octet-stream"), "2 bytes");
//! ```
//!
//! Startup fails only for routes no request could tell apart (same method,
//! equivalent template, the same consumes and the same produces), naming
//! both source locations, and warns once for a route that is never chosen
//! (another consumes and produces everything it does and wins every tie).
//!
//! **Where Restlight departs from the letter**, and how to follow it: JAX-RS
//! picks the best template before looking at the method. With
//! `GET /users/{id: \d+}` and `DELETE /users/{id}`, `DELETE /users/1` is 405
//! in JAX-RS and reaches the DELETE route in Restlight.
//! [`Restlight::strict_matching`] (config key `server.strict_matching`)
//! selects to the letter:
//!
//! ```
//! use restlight::prelude::*;
//!
//! let app = || Restlight::new()
//!     .route(get("/users/{id: \\d+}").handle(|_| async { "user" }))
//!     .route(delete("/users/{id}").handle(|_| async { "deleted" }));
//! let default = app().mock().unwrap();
//! assert_eq!(default.delete("/users/1").send_blocking().status(), 200);
//! let strict = app().strict_matching(true).mock().unwrap();
//! let refused = strict.delete("/users/1").send_blocking();
//! assert_eq!((refused.status().as_u16(), refused.header("allow")), (405, Some("GET, HEAD, OPTIONS")));
//! ```
//!
//! ## Where handlers run
//!
//! | handler | runs on |
//! |---|---|
//! | `async fn`, no `#[scheduled]` | the default scheduler: IO unless [`Restlight::default_scheduler`] says otherwise |
//! | plain `fn`, no `#[scheduled]` | the business executor `"biz"`, never an IO thread |
//! | `#[scheduled(io)]` | inline on the IO thread of the connection (plain `fn`s still go to `"biz"`) |
//! | `#[scheduled(biz)]` | the business executor: bounded threads, queue of 512, 429 when full |
//! | `#[scheduled("reports")]` | the executor registered with `.scheduler("reports", Scheduler::threads(4).queue(100))` |
//!
//! A bounded executor answers 429 at once when its queue is full and 503 to
//! a request that waited past its [`FailFast`] time; a route built with
//! `.timeout(..)` answers 504 when its handler is late and cancels it.
//!
//! ```
//! use std::time::Duration;
//! use restlight::prelude::*;
//! use restlight::Resize;
//!
//! let client = Restlight::new()
//!     .scheduler("reports", Scheduler::threads(2).queue(100).fail_fast(FailFast::queued(Duration::from_secs(1))))
//!     .route(get("/report").scheduled("reports").timeout(Duration::from_secs(5)).handle(|_| async { "done" }))
//!     .mock()
//!     .unwrap();
//! assert_eq!(client.get("/report").send_blocking().text(), "done");
//! let reports = client.app().executors().into_iter().find(|e| e.name == "reports").unwrap();
//! assert_eq!(reports.completed, 1);
//!
//! // Sizes change while serving: more threads (`max_active` follows
//! // them unless set), a longer queue.
//! let reports = client.app().resize_executor("reports", Resize::new().threads(4).queue(500)).unwrap();
//! assert_eq!((reports.threads, reports.max_active, reports.queue_capacity), (4, 4, 500));
//! ```
//!
//! [`App::resize_executor`] (or [`ServerHandle::resize_executor`], or the
//! actuator's `POST {base}/executors/{name}` once
//! [`Actuator::allow_executor_resize`] opts in) resizes a bounded executor
//! at run time: see [`Resize`].
#![warn(missing_docs)]

pub use restlight_core::BeanParam;
pub use restlight_core::{
    check_routes, codec, media, router, App, AppBuilder, Body, BoxError, BoxFuture, Created, Entity, Error, Executor,
    ExecutorMetrics, FailFast, FromParam, HttpError, IntoResponse, Json, NoContent, QueueWait, ReceivedAt,
    RequestContext, Resize, ResizeError, Response, ResponseBuilder, Result, Route, RouteBuilder, RouteInfo,
    RuntimeExecutor, Scheduler, StartupError, MAX_RESIZE_THREADS,
};
pub use restlight_core::{delete, get, head, options, patch, post, put, route};
pub use restlight_core::{filter, intercept, layer, mapper};
pub use restlight_core::{AppliedChange, MatchedRoute, RouteChange, Routes, RoutesIter};
pub use restlight_core::{BodyStream, BodyTimeout, Event, Sse};
pub use restlight_core::{ExceptionMapper, Failure, Fallible, PathSegment, RequestHead};
pub use restlight_core::{Field, Multipart, MultipartLimits, SpooledFile};
pub use restlight_macros::BeanParam;
pub use restlight_macros::{
    compress, consumes, delete, exception_handler, get, head, interceptor, max_body, no_interceptors, options, patch,
    path, post, produces, put, request_serializer, response_serializer, scheduled, serializer, skip_interceptor,
    timeout,
};
pub use restlight_macros::{
    delete_mapping, get_mapping, patch_mapping, post_mapping, put_mapping, request_mapping, response_status,
    rest_controller, rest_controller_advice,
};
pub use restlight_server::{AccessLog, Actuator, ConfigError, Endpoint, Health, UnknownEndpoint};
#[cfg(feature = "tls")]
pub use restlight_server::{ClientAuth, TlsConfig, TlsError};
pub use restlight_server::{IpRange, IpRangeError, LoadShedding, Refusal, Restlight, ServerHandle, ServerStats};

pub use http;
pub use http::StatusCode;

/// Testing support: the in-process client and the startup checks.
///
/// ```
/// use restlight::prelude::*;
/// let client = Restlight::new()
///     .route(get("/ping").handle(|_| async { "pong" }))
///     .mock()
///     .unwrap();
/// assert_eq!(client.get("/ping").send_blocking().text(), "pong");
/// restlight::test::check_routes().unwrap();
/// ```
pub mod test {
    pub use restlight_core::check_routes;
    pub use restlight_core::test::{MockClient, MockRequest, MockResponse};
}

/// Everything a service usually needs: `use restlight::prelude::*;`.
pub mod prelude {
    pub use crate::intercept::{Intercept, Interceptor};
    pub use crate::{
        compress, consumes, exception_handler, max_body, no_interceptors, produces, request_serializer,
        response_serializer, scheduled, serializer, skip_interceptor, timeout,
    };
    pub use crate::{
        delete, get, head, options, patch, post, put, BodyStream, Created, Entity, Event, FailFast, HttpError,
        IntoResponse, Json, Multipart, MultipartLimits, NoContent, RequestContext, ResponseBuilder, Restlight,
        Scheduler, Sse, StatusCode,
    };
    pub use crate::{
        delete_mapping, get_mapping, patch_mapping, post_mapping, put_mapping, request_mapping, response_status,
    };
    pub use crate::{BeanParam, ExceptionMapper, Failure, RequestHead, Response};
    pub use std::ops::ControlFlow;
}

#[doc(hidden)]
pub use restlight_core::__private;

// The README's examples compile as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
