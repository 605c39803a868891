//! Exception mapping: a handler's own error type turned into a response.
//!
//! A handler may return `Result<T, E>` for any
//! `E: std::error::Error + Send + Sync + 'static`. On `Err` the error goes
//! through, in this order:
//!
//! 1. the `#[exception_handler]` methods of the route's own resource
//!    (resource-local, checked first),
//! 2. the [`ExceptionMapper`]s registered on the application (global),
//!
//! and in each the **nearest** mapping wins: one for the error's exact type
//! first, then one for its [`source`](std::error::Error::source), then the
//! source's source, and so on; at the same distance, the first registered.
//! An error nobody maps is a 500 problem-details response naming its type
//! (not its message, which may hold internals), logged once with the route.
//! A panicking handler is a 500 too.
//!
//! ```
//! use restlight_core::{get, AppBuilder, HttpError, test::MockClient};
//!
//! #[derive(Debug)]
//! struct NotFound(u64);
//! impl std::fmt::Display for NotFound {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "no item {}", self.0) }
//! }
//! impl std::error::Error for NotFound {}
//!
//! let app = AppBuilder::new()
//!     .route(get("/items/{id}").handle(|_| async { restlight_core::Fallible::<&str, _>(Err(NotFound(7))) }))
//!     .exception_mapper(|e: &NotFound| HttpError::not_found(e.to_string()))
//!     .build()
//!     .unwrap();
//! let res = MockClient::new(app).get("/items/7").send_blocking();
//! assert_eq!(res.status(), 404);
//! ```

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

use crate::error::HttpError;
use crate::response::{IntoResponse, Response};

/// Turns errors of type `E` into responses; register it with
/// [`AppBuilder::exception_mapper`](crate::AppBuilder::exception_mapper).
///
/// Implemented for every `Fn(&E) -> impl IntoResponse`.
pub trait ExceptionMapper<E>: Send + Sync + 'static {
    /// The response for `error`.
    fn to_response(&self, error: &E) -> Response;
}

impl<E, F, R> ExceptionMapper<E> for F
where
    F: Fn(&E) -> R + Send + Sync + 'static,
    R: IntoResponse,
{
    fn to_response(&self, error: &E) -> Response {
        self(error).into_response()
    }
}

type TryMap = dyn Fn(&(dyn StdError + 'static)) -> Option<Response> + Send + Sync;

/// A mapper with its type erased: it answers the errors it can downcast.
#[derive(Clone)]
pub(crate) struct ErasedMapper {
    pub(crate) type_name: &'static str,
    try_map: Arc<TryMap>,
}

impl fmt::Debug for ErasedMapper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ExceptionMapper").field(&self.type_name).finish()
    }
}

impl ErasedMapper {
    /// The handlers of a `#[rest_controller_advice]` type, as one mapper.
    pub(crate) fn advice(descriptor: &AdviceDescriptor) -> Self {
        let try_map: Box<TryMap> = (descriptor.make)();
        Self { type_name: descriptor.name, try_map: Arc::from(try_map) }
    }

    pub(crate) fn new<E, M>(mapper: M) -> Self
    where
        E: StdError + 'static,
        M: ExceptionMapper<E>,
    {
        Self {
            type_name: std::any::type_name::<E>(),
            try_map: Arc::new(move |e: &(dyn StdError + 'static)| e.downcast_ref::<E>().map(|e| mapper.to_response(e))),
        }
    }
}

/// The exception handlers of a `#[restlight::rest_controller_advice]` type,
/// built once at startup: one function trying each handler on one error of
/// the chain (`None` when none takes it).
pub type AdviceMapper = Box<TryMap>;

/// What `#[restlight::rest_controller_advice]` emits, collected with
/// [`inventory`]: global exception handlers, tried after the mappers
/// registered with
/// [`AppBuilder::exception_mapper`](crate::AppBuilder::exception_mapper),
/// with the same nearest-first rule.
#[derive(Debug)]
pub struct AdviceDescriptor {
    /// The advice type's name.
    pub name: &'static str,
    /// Builds the advice (its `Default` instance) and its handlers.
    pub make: fn() -> AdviceMapper,
    /// `file!()` of the impl.
    pub file: &'static str,
    /// `line!()` of the impl.
    pub line: u32,
}

inventory::collect!(AdviceDescriptor);

/// The advice linked into the binary as mappers, in a deterministic order.
pub(crate) fn annotated_advice() -> Vec<ErasedMapper> {
    let mut all: Vec<&AdviceDescriptor> = inventory::iter::<AdviceDescriptor>.into_iter().collect();
    crate::sort::sort_by(&mut all, &|a, b| (a.file, a.line, a.name).cmp(&(b.file, b.line, b.name)));
    all.into_iter().map(ErasedMapper::advice).collect()
}

/// Maps `error` with the nearest of `mappers`: the exact type first, then
/// each source in turn.
pub(crate) fn map_nearest(mappers: &[ErasedMapper], error: &(dyn StdError + 'static)) -> Option<Response> {
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(res) = mappers.iter().find_map(|m| (m.try_map)(e)) {
            return Some(res);
        }
        current = e.source();
    }
    None
}

/// Why a request failed, as `after_completion` sees it: the handler's
/// error (mapped to a response or not), an [`HttpError`] it returned, or a
/// panic.
#[derive(Clone)]
pub struct Failure(Kind);

#[derive(Clone)]
enum Kind {
    Error { error: Arc<dyn StdError + Send + Sync>, type_name: &'static str },
    Http(HttpError),
    Panic(Arc<str>),
}

impl Failure {
    pub(crate) fn error<E: StdError + Send + Sync + 'static>(error: E) -> Self {
        Self(Kind::Error { error: Arc::new(error), type_name: std::any::type_name::<E>() })
    }

    pub(crate) fn http(error: HttpError) -> Self {
        Self(Kind::Http(error))
    }

    pub(crate) fn panic(message: &str) -> Self {
        Self(Kind::Panic(message.into()))
    }

    /// The error, unless the handler panicked.
    #[must_use]
    pub fn as_error(&self) -> Option<&(dyn StdError + Send + Sync + 'static)> {
        match &self.0 {
            Kind::Error { error, .. } => Some(&**error),
            Kind::Http(e) => Some(e),
            Kind::Panic(_) => None,
        }
    }

    /// The error as `E`, if it is one.
    #[must_use]
    pub fn downcast_ref<E: StdError + 'static>(&self) -> Option<&E> {
        self.as_error().and_then(|e| (e as &(dyn StdError + 'static)).downcast_ref::<E>())
    }

    /// The Rust type of the error (`"my_app::DbError"`), or `"panic"`.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match &self.0 {
            Kind::Error { type_name, .. } => type_name,
            Kind::Http(_) => std::any::type_name::<HttpError>(),
            Kind::Panic(_) => "panic",
        }
    }

    /// Whether the handler panicked.
    #[must_use]
    pub fn is_panic(&self) -> bool {
        matches!(self.0, Kind::Panic(_))
    }

    /// The panic message, when the handler panicked with text.
    #[must_use]
    pub fn panic_message(&self) -> Option<&str> {
        match &self.0 {
            Kind::Panic(m) => Some(m),
            _ => None,
        }
    }
}

impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Error { error, type_name } => {
                f.debug_struct("Failure").field("type", type_name).field("error", error).finish()
            }
            Kind::Http(e) => f.debug_tuple("Failure").field(e).finish(),
            Kind::Panic(m) => f.debug_tuple("Failure::Panic").field(m).finish(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Error { error, type_name } => write!(f, "{type_name}: {error}"),
            Kind::Http(e) => write!(f, "{e}"),
            Kind::Panic(m) => write!(f, "panic: {m}"),
        }
    }
}

/// The response for a handler error no resource-local handler mapped: a
/// 500 problem naming the type, carrying the error for the global mappers
/// and for `after_completion`.
pub(crate) fn unmapped<E: StdError + Send + Sync + 'static>(error: E) -> Response {
    let failure = Failure::error(error);
    let mut res = HttpError::internal(format!("the handler failed with an unmapped error `{}`", failure.type_name()))
        .with("errorType", failure.type_name())
        .into_response();
    res.extensions_mut().insert(failure);
    res
}

/// The unmapped error a response carries, if any.
pub(crate) fn carried(res: &Response) -> Option<&Failure> {
    res.extensions().get::<Failure>().filter(|f| matches!(f.0, Kind::Error { .. }))
}

/// Maps the error a response carries with resource-local handlers, given
/// as one function that tries every handler on one error of the chain.
#[doc(hidden)]
pub fn map_local(res: Response, try_one: impl Fn(&(dyn StdError + 'static)) -> Option<Response>) -> Response {
    let Some(failure) = carried(&res) else { return res };
    let Some(error) = failure.as_error() else { return res };
    let mut current: Option<&(dyn StdError + 'static)> = Some(error);
    while let Some(e) = current {
        if let Some(mapped) = try_one(e) {
            return mapped;
        }
        current = e.source();
    }
    res
}

/// Maps the error a response carries with the application's mappers,
/// returning the response and the failure to report.
pub(crate) fn map_global(res: Response, mappers: &[ErasedMapper]) -> (Response, Option<Failure>) {
    let failure = match carried(&res) {
        Some(f) => f.clone(),
        None => return (res, None),
    };
    let mapped = failure.as_error().and_then(|e| map_nearest(mappers, e as &(dyn StdError + 'static)));
    (mapped.unwrap_or(res), Some(failure))
}

/// `Result<T, E>` for builder routes whose `E` is any error type: `Ok`
/// through [`IntoResponse`], `Err` through the exception mappers.
#[derive(Debug)]
pub struct Fallible<T, E>(pub Result<T, E>);

impl<T: IntoResponse, E: StdError + Send + Sync + 'static> IntoResponse for Fallible<T, E> {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(v) => v.into_response(),
            Err(e) => unmapped(e),
        }
    }
}
