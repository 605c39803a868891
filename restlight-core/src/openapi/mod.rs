//! The OpenAPI document of an application, generated from its routes
//! (feature `openapi`).
//!
//! `App::openapi` reads the routes the application
//! serves at that moment (annotated resources and functions, builder
//! routes, routes added while serving) and returns an `OpenApi`: one
//! model, written as OpenAPI 3.1 (the default) or 3.0.3. Schemas come from
//! `schemars::JsonSchema`, JSON Schema 2020-12 for 3.1 and the OpenAPI 3.0
//! dialect for 3.0.3, and are referenced from `components/schemas`. All of
//! it runs when the document is asked for: nothing per request.
//!
//! [`ErrorStatuses`] exists with the feature off too, so an error type can
//! declare its statuses without a `cfg`.

use http::StatusCode;

#[cfg(feature = "openapi")]
pub(crate) mod doc;
#[cfg(feature = "openapi")]
mod generate;
#[cfg(feature = "openapi")]
mod yaml;

#[cfg(feature = "openapi")]
pub use generate::{OpenApi, OpenApiVersion};

/// The statuses an error type answers with, for the OpenAPI document: a
/// handler returning `Result<T, E>` documents each of them as problem
/// details. Without it, the document says the error may have any status
/// (a `default` response).
///
/// ```
/// use restlight_core::openapi::ErrorStatuses;
/// use http::StatusCode;
///
/// #[derive(Debug)]
/// enum OrderError { Missing, Conflict }
///
/// impl ErrorStatuses for OrderError {
///     const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND, StatusCode::CONFLICT];
/// }
/// ```
pub trait ErrorStatuses {
    /// The statuses, each answered as problem details.
    const STATUSES: &'static [StatusCode];
}

/// What a route descriptor holds of the route's documentation: the macros'
/// record with the `openapi` feature, nothing without it.
#[cfg(feature = "openapi")]
pub type DocRef = &'static doc::RouteDoc;
/// What a route descriptor holds of the route's documentation: the macros'
/// record with the `openapi` feature, nothing without it.
#[cfg(not(feature = "openapi"))]
pub type DocRef = ();

/// Without the `openapi` feature the macros' route documentation is `()`.
#[cfg(not(feature = "openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __rl_route_doc {
    ($($tokens:tt)*) => {
        ()
    };
}
