//! What a route records for its OpenAPI documentation: the macros' per-route
//! record (`records`, feature `openapi`), the [`ErrorStatuses`] an error type
//! declares (with the feature off too, so that no `cfg` is needed), and the
//! `()` the record is without the feature. The generator that reads them is
//! `app::openapi`, above the application; the public face is the
//! `openapi` module of `lib.rs`.

use http::StatusCode;

#[cfg(feature = "openapi")]
pub(crate) mod records;

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
pub type DocRef = &'static records::RouteDoc;
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
