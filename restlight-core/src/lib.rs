//! Restlight core: route descriptors, path templates and the compiled
//! router, content negotiation, codecs, parameter conversion, request and
//! response types, the application builder and the in-process mock client.
//!
//! Most users depend on the `restlight` facade instead; this crate serves
//! those who embed the application in another server or test it without
//! sockets.
#![warn(missing_docs)]

mod app;
mod bean;
mod bind;
mod body;
mod body_timeout;
pub mod codec;
pub mod compress;
mod descriptor;
mod entity;
mod error;
mod executor;
pub mod filter;
mod handler;
pub mod intercept;
pub mod layer;
pub mod mapper;
pub mod media;
mod meta;
mod multipart;
mod param;
mod request;
mod response;
mod route;
pub mod router;
mod sse;
mod startup;
mod stream;
pub mod test;
mod validate;

// What only the code `restlight-macros` generates uses; not public API.
#[doc(hidden)]
pub mod __private;

pub use app::{
    App, AppBuilder, AppliedChange, MatchedRoute, RouteChange, RouteInfo, Routes, RoutesIter, DEFAULT_MAX_BODY,
};
pub use bean::BeanParam;
pub use body::Body;
pub use body_timeout::BodyTimeout;
pub use error::{BoxError, HttpError};
pub use executor::{
    Executor, ExecutorMetrics, FailFast, QueueWait, ReceivedAt, Resize, ResizeError, RuntimeExecutor, Scheduler,
    DEFAULT_QUEUE, MAX_RESIZE_THREADS,
};
pub use handler::BoxFuture;
pub use mapper::{ExceptionMapper, Failure, Fallible};
pub use multipart::{Field, Multipart, MultipartLimits, SpooledFile};
pub use param::FromParam;
pub use request::{RequestContext, RequestHead};
pub use response::{Created, Entity, IntoResponse, Json, NoContent, Response, ResponseBuilder};
pub use route::{delete, get, head, options, patch, post, put, route, Route, RouteBuilder};
pub use sse::{Event, Sse};
pub use startup::{Error, Result, StartupError};
pub use stream::BodyStream;

/// Runs the route-level startup checks (malformed templates, conflicting
/// routes with both locations, bad media types) on every route linked into
/// the binary: call it from a test so CI catches what startup would.
///
/// # Errors
/// The problems found, all at once.
pub fn check_routes() -> std::result::Result<(), StartupError> {
    AppBuilder::new().check_routes()
}
