//! Restlight core: routes and their compilation, path templates and the
//! router, content negotiation, codecs, parameter conversion, request and
//! response types, interceptors, executors, the application with its
//! request path, and the in-process mock client.
//!
//! Most users depend on the `restlight` facade instead; this crate serves
//! those who embed the application in another server or test it without
//! sockets.
//!
//! # The request path
//!
//! [`App::dispatch`] runs one request down a stack assembled once at
//! startup: tower [`layer`]s, then [`filter`]s, then the router, the body,
//! the route's interceptors and handler on its executor, the codec and
//! compression. An application without layers or filters pays nothing for
//! them.
//!
//! # Route types
//!
//! | type | what it is |
//! |---|---|
//! | [`Route`], [`RouteBuilder`] | a route built in code (`get("/x").handle(..)`), before compilation |
//! | [`RouteInfo`] | a compiled route as listings show it: method, template, media types, executor, limits, location |
//! | [`MatchedRoute`] | the route that answered, in a response's extensions |
//! | [`Routes`], [`RouteChange`] | a snapshot of the routes served; a change of them while serving |
//! | [`router::RouteEntry`], [`router::RouteMatch`] | the router's input and output, for those who embed the router alone |
//! | [`intercept::RouteMeta`] | what an interceptor's route predicate sees at startup |
//!
//! Annotated routes reach the application through descriptors the macros
//! emit; those, and everything else only generated code uses, are not part
//! of the public API.
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
pub mod integer;
pub mod intercept;
pub mod layer;
mod locator;
pub mod mapper;
pub mod media;
mod meta;
mod multipart;
mod route_doc;

/// The OpenAPI document of an application, generated from its routes
/// (feature `openapi`).
///
/// `App::openapi` reads the routes the application serves at that moment
/// (annotated resources and functions, builder routes, routes added while
/// serving) and returns an `OpenApi`: one model, written as OpenAPI 3.1
/// (the default) or 3.0.3. Schemas come from `schemars::JsonSchema`, JSON
/// Schema 2020-12 for 3.1 and the OpenAPI 3.0 dialect for 3.0.3, and are
/// referenced from `components/schemas`. All of it runs when the document
/// is asked for: nothing per request.
///
/// [`ErrorStatuses`](openapi::ErrorStatuses) exists with the feature off
/// too, so an error type can declare its statuses without a `cfg`.
pub mod openapi {
    #[cfg(feature = "openapi")]
    pub use crate::app::openapi::{OpenApi, OpenApiVersion};
    pub use crate::route_doc::{DocRef, ErrorStatuses};
}
mod param;
mod request;
mod resolve;
mod response;
mod route;
pub mod router;
mod segment;
mod sort;
mod sse;
mod startup;
mod stream;
pub mod test;
pub mod trace;
mod validate;

// What only the code `restlight-macros` generates uses; not public API.
#[doc(hidden)]
pub mod __private;

pub use app::{
    App, AppBuilder, AppliedChange, MatchedRoute, RouteChange, RouteInfo, Routes, RoutesIter, DEFAULT_MAX_BODY,
};
pub use bean::BeanParam;
pub use bind::{Bindings, FromRequestWith};
pub use body::Body;
pub use body_timeout::{BodyTimeout, BodyTooSlow};
pub use error::{BoxError, HttpError};
pub use executor::{
    Executor, ExecutorMetrics, FailFast, QueueWait, ReceivedAt, Resize, ResizeError, RuntimeExecutor, Scheduler,
    DEFAULT_QUEUE, MAX_RESIZE_THREADS,
};
pub use handler::{BoxFuture, Handler};
pub use mapper::{ExceptionMapper, Failure, Fallible};
pub use meta::{ParamMeta, ParamSource};
pub use multipart::{Field, Multipart, MultipartFile, MultipartLimits, SpooledFile};
pub use param::FromParam;
pub use request::{RequestContext, RequestHead};
pub use resolve::{resolve, Claimed, FromRequest, ParamDecl, ResolveContext, ResolveFuture, Resolver, ResolverFactory};
pub use response::{
    Created, EmptyStatus, Entity, IntoResponse, Json, NoContent, Response, ResponseBuilder, WithStatus,
};
pub use route::{delete, get, head, options, patch, post, put, route, Route, RouteBuilder};
pub use segment::PathSegment;
pub use sse::{Event, Sse};
pub use startup::{Error, Result, StartupError};
pub use stream::BodyStream;
pub use trace::{RequestId, TraceContext};

/// Runs the route-level startup checks (malformed templates, conflicting
/// routes with both locations, bad media types) on every route linked into
/// the binary: call it from a test so CI catches what startup would.
///
/// # Errors
/// The problems found, all at once.
pub fn check_routes() -> std::result::Result<(), StartupError> {
    AppBuilder::new().check_routes()
}
