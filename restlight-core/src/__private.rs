//! Support for the code `restlight-macros` generates. Not public API: names
//! and signatures here change without notice.
//!
//! The probes use autoref specialisation: the macro writes
//! `(&&&Probe).method()`, and method resolution picks the most specific impl
//! whose bounds the concrete type meets, at compile time, with no runtime cost.

use std::error::Error as StdError;
use std::marker::PhantomData;
use std::sync::Arc;

pub use http::Method;
use http::{HeaderMap, Uri};
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use crate::bean::{check_bean, BeanParam};
pub use crate::bind::Bindings;
pub use crate::descriptor::{HandlerFactory, RouteDescriptor, SchedulerName};
pub use crate::entity::FromBody;
pub use crate::error::HttpError;
pub use crate::handler::{BoxFuture, Handler};
pub use crate::intercept::registry::{InterceptorDescriptor, OptOut};
pub use crate::intercept::Intercept;
pub use crate::mapper::map_local;
pub use crate::meta::{ParamMeta, ParamSource};
pub use crate::param::{optional, repeated, required, FromParam};
pub use crate::request::RequestContext;
pub use crate::response::{Entity, IntoResponse, Response};
pub use crate::startup::StartupError;
pub use crate::validate::validate_entity;
pub use inventory;

/// Compile-time check that a parameter type converts from text; the macro
/// spans the call at the user's type so the error lands there.
pub const fn assert_from_param<T: FromParam>() {}

/// A `#[max_body(..)]` size as a limit: one past the address space is no limit.
#[must_use]
pub const fn body_limit(bytes: u64) -> usize {
    if bytes > usize::MAX as u64 {
        usize::MAX
    } else {
        bytes as usize
    }
}

/// Turns an error into its problem-details response.
#[must_use]
pub fn error_response(error: HttpError) -> Response {
    error.into_response()
}

// ---- return values -------------------------------------------------------

/// Marks the type of a handler's return value for kind selection.
#[derive(Debug)]
pub struct W<T>(PhantomData<T>);

/// Marks the type of `_value` for kind selection.
#[must_use]
pub fn w<T>(_value: &T) -> W<T> {
    W(PhantomData)
}

/// Responds through [`IntoResponse`].
#[derive(Debug)]
pub struct ViaIntoResponse;
/// Responds to `Ok` through the negotiated codec and to `Err` through [`IntoResponse`].
#[derive(Debug)]
pub struct ViaResult;
/// Responds to `Some` through the negotiated codec and to `None` with 404.
#[derive(Debug)]
pub struct ViaOption;
/// Responds through the negotiated codec.
#[derive(Debug)]
pub struct ViaSerialize;

// Kinds, from the highest priority (most `&`s) down: the macro writes
// `(&&&&&w(&value)).__rl_kind()`.

/// Highest priority: the value is a response already.
pub trait KindIntoResponse {
    /// The kind.
    fn __rl_kind(&self) -> ViaIntoResponse {
        ViaIntoResponse
    }
}
impl<T: IntoResponse> KindIntoResponse for &&&&W<T> {}

/// `Result<T: Serialize, E: IntoResponse>`.
pub trait KindResult {
    /// The kind.
    fn __rl_kind(&self) -> ViaResult {
        ViaResult
    }
}
impl<T: Serialize + Send + 'static, E: IntoResponse> KindResult for &&&W<Result<T, E>> {}

/// `Option<T: Serialize>`.
pub trait KindOption {
    /// The kind.
    fn __rl_kind(&self) -> ViaOption {
        ViaOption
    }
}
impl<T: Serialize + Send + 'static> KindOption for &&&W<Option<T>> {}

/// `Result<T: IntoResponse, E: Error>`: `Err` goes through the exception mappers.
pub trait KindResultError {
    /// The kind.
    fn __rl_kind(&self) -> ViaResultError {
        ViaResultError
    }
}
impl<T: IntoResponse, E: StdError + Send + Sync + 'static> KindResultError for &&W<Result<T, E>> {}

/// `Result<T: Serialize, E: Error>`: `Err` goes through the exception mappers.
pub trait KindSerializeError {
    /// The kind.
    fn __rl_kind(&self) -> ViaSerializeError {
        ViaSerializeError
    }
}
impl<T: Serialize + Send + 'static, E: StdError + Send + Sync + 'static> KindSerializeError for &W<Result<T, E>> {}

/// Any `Serialize` value.
pub trait KindSerialize {
    /// The kind.
    fn __rl_kind(&self) -> ViaSerialize {
        ViaSerialize
    }
}
impl<T: Serialize + Send + 'static> KindSerialize for W<T> {}

/// Responds to `Ok` through [`IntoResponse`] and to `Err` through the exception mappers.
#[derive(Debug)]
pub struct ViaResultError;
/// Responds to `Ok` through the negotiated codec and to `Err` through the exception mappers.
#[derive(Debug)]
pub struct ViaSerializeError;

impl ViaResultError {
    /// Builds the response.
    pub fn respond<T: IntoResponse, E: StdError + Send + Sync + 'static>(self, value: Result<T, E>) -> Response {
        match value {
            Ok(v) => v.into_response(),
            Err(e) => crate::mapper::unmapped(e),
        }
    }
}

impl ViaSerializeError {
    /// Builds the response.
    pub fn respond<T: Serialize + Send + 'static, E: StdError + Send + Sync + 'static>(
        self,
        value: Result<T, E>,
    ) -> Response {
        match value {
            Ok(v) => Entity(v).into_response(),
            Err(e) => crate::mapper::unmapped(e),
        }
    }
}

impl ViaIntoResponse {
    /// Builds the response.
    pub fn respond<T: IntoResponse>(self, value: T) -> Response {
        value.into_response()
    }
}

impl ViaResult {
    /// Builds the response.
    pub fn respond<T: Serialize + Send + 'static, E: IntoResponse>(self, value: Result<T, E>) -> Response {
        match value {
            Ok(v) => Entity(v).into_response(),
            Err(e) => e.into_response(),
        }
    }
}

impl ViaOption {
    /// Builds the response.
    pub fn respond<T: Serialize + Send + 'static>(self, value: Option<T>) -> Response {
        match value {
            Some(v) => Entity(v).into_response(),
            None => HttpError::not_found("the resource has no value to return").into_response(),
        }
    }
}

impl ViaSerialize {
    /// Builds the response.
    pub fn respond<T: Serialize + Send + 'static>(self, value: T) -> Response {
        Entity(value).into_response()
    }
}

// ---- the entity ------------------------------------------------------------

/// Selects how the entity of type `T` is read.
#[derive(Debug)]
pub struct EntityProbe<T>(PhantomData<T>);

impl<T> EntityProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for EntityProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Raw entities: bytes and text.
pub trait EntityRaw<T> {
    /// Reads the entity.
    ///
    /// # Errors
    /// 400 when the body does not fit the type.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>;
}
impl<T: FromBody> EntityRaw<T> for &&EntityProbe<T> {
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
        T::from_request(ctx, meta)
    }
}

impl EntityRaw<crate::BodyStream> for &&EntityProbe<crate::BodyStream> {
    fn __rl_read(&self, ctx: &RequestContext, _: &ParamMeta) -> Result<crate::BodyStream, HttpError> {
        Ok(ctx.take_body_stream().unwrap_or_default())
    }
}

impl EntityRaw<crate::Multipart> for &&EntityProbe<crate::Multipart> {
    fn __rl_read(&self, ctx: &RequestContext, _: &ParamMeta) -> Result<crate::Multipart, HttpError> {
        crate::Multipart::from_request(ctx)
    }
}

/// Entity types read as a stream: the route does not aggregate its body.
pub trait StreamsBody {
    /// `true`.
    fn __rl_streams(&self) -> bool {
        true
    }
}
impl StreamsBody for &&EntityProbe<crate::BodyStream> {}
impl StreamsBody for &&EntityProbe<crate::Multipart> {}

/// Every other entity type: the body is read in full first.
pub trait BuffersBody {
    /// `false`.
    fn __rl_streams(&self) -> bool {
        false
    }
}
impl<T> BuffersBody for &EntityProbe<T> {}

/// Entities decoded by the codec matching Content-Type.
pub trait EntityDecoded<T> {
    /// Reads the entity.
    ///
    /// # Errors
    /// 400 for malformed input, 415 for an unreadable Content-Type.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>;
}
impl<T: DeserializeOwned> EntityDecoded<T> for &EntityProbe<T> {
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
        crate::entity::decode_with(ctx, meta)
    }
}

// ---- #[context] ------------------------------------------------------------

/// Parts of the request a `#[context]` parameter can borrow.
pub trait FromRequestRef {
    /// Borrows the part.
    fn from_request_ref(ctx: &RequestContext) -> &Self;
}

impl FromRequestRef for RequestContext {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx
    }
}

impl FromRequestRef for HeaderMap {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.headers()
    }
}

impl FromRequestRef for Uri {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.uri()
    }
}

impl FromRequestRef for Method {
    fn from_request_ref(ctx: &RequestContext) -> &Self {
        ctx.method()
    }
}

/// What a `#[context]` parameter was bound to at startup: nothing for a part
/// of the request, the bean for anything else.
pub type ContextSlot<T> = Option<Arc<T>>;

/// Selects how a `#[context]` parameter of type `T` is bound.
#[derive(Debug)]
pub struct ContextProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> ContextProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T: ?Sized> Default for ContextProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// `#[context]` on a part of the request.
pub trait ContextRequest<T> {
    /// Binds at startup (nothing to bind).
    ///
    /// # Errors
    /// Never.
    fn __rl_bind(&self, b: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError>;
    /// Borrows the value for one request.
    fn __rl_get<'a>(&self, ctx: &'a RequestContext, slot: &'a ContextSlot<T>) -> &'a T;
}
impl<T: FromRequestRef> ContextRequest<T> for &&ContextProbe<T> {
    fn __rl_bind(&self, _: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError> {
        Ok(None)
    }
    fn __rl_get<'a>(&self, ctx: &'a RequestContext, _: &'a ContextSlot<T>) -> &'a T {
        T::from_request_ref(ctx)
    }
}

/// `#[context]` on an application bean.
pub trait ContextBean<T> {
    /// Binds the bean at startup.
    ///
    /// # Errors
    /// When no bean of type `T` is registered.
    fn __rl_bind(&self, b: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError>;
    /// Borrows the bean for one request.
    fn __rl_get<'a>(&self, ctx: &'a RequestContext, slot: &'a ContextSlot<T>) -> &'a T;
}
impl<T: Send + Sync + 'static> ContextBean<T> for &ContextProbe<T> {
    fn __rl_bind(&self, b: &mut Bindings<'_>) -> Result<ContextSlot<T>, StartupError> {
        b.bean::<T>().map(Some)
    }
    fn __rl_get<'a>(&self, _: &'a RequestContext, slot: &'a ContextSlot<T>) -> &'a T {
        slot.as_deref().expect("bean bound at startup")
    }
}

// ---- resources ---------------------------------------------------------------

/// Selects whether a resource type can be built with `Default`.
#[derive(Debug)]
pub struct DefaultProbe<T>(PhantomData<T>);

impl<T> DefaultProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for DefaultProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Resource types with `Default`.
pub trait WithDefault<T> {
    /// `Some(T::default)`.
    fn __rl_ctor(&self) -> Option<fn() -> T>;
}
impl<T: Default> WithDefault<T> for &&DefaultProbe<T> {
    fn __rl_ctor(&self) -> Option<fn() -> T> {
        Some(T::default)
    }
}

/// Resource types without `Default`.
pub trait WithoutDefault<T> {
    /// `None`.
    fn __rl_ctor(&self) -> Option<fn() -> T>;
}
impl<T> WithoutDefault<T> for &DefaultProbe<T> {
    fn __rl_ctor(&self) -> Option<fn() -> T> {
        None
    }
}
// ---- better errors ----------------------------------------------

/// Never implemented: names the problem when a type is neither [`FromBody`] nor `DeserializeOwned`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from the request body",
    label = "the parameter without attribute is the entity, decoded from the body",
    note = "derive `serde::Deserialize` for `{Self}`, or take `String`, `Bytes`, `Vec<u8>`, `BodyStream` or `Multipart`; a value read from elsewhere needs its attribute (`#[query_param]`, `#[header_param]`, `#[context]`, ...)"
)]
pub trait EntityType {}

/// Lowest priority: neither raw nor decodable; the bound reports it.
pub trait EntityUnsupported<T> {
    /// Never runs.
    ///
    /// # Errors
    /// Never.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>
    where
        T: EntityType;
}
impl<T> EntityUnsupported<T> for EntityProbe<T> {
    fn __rl_read(&self, _: &RequestContext, _: &ParamMeta) -> Result<T, HttpError>
    where
        T: EntityType,
    {
        unreachable!("EntityType is never implemented")
    }
}

/// Never implemented: names the problem when a return type has no kind.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a Restlight handler",
    label = "this return type is neither a response nor serializable",
    note = "return text, a `serde::Serialize` value, `StatusCode`, `Created<T>`, `NoContent`, `HttpError`, a `Response`, an `Option` of these, or a `Result` of these whose error is `HttpError` or any `std::error::Error + Send + Sync + 'static`"
)]
pub trait ReturnType {}

/// Lowest priority: no kind applies; the bound reports it.
pub trait KindUnsupported<T> {
    /// The kind.
    fn __rl_kind(self) -> ViaUnsupported
    where
        T: ReturnType;
}
impl<T> KindUnsupported<T> for W<T> {
    fn __rl_kind(self) -> ViaUnsupported
    where
        T: ReturnType,
    {
        ViaUnsupported
    }
}

/// Never built.
#[derive(Debug)]
pub struct ViaUnsupported;

impl ViaUnsupported {
    /// Never runs.
    pub fn respond<T>(self, _: T) -> Response {
        unreachable!("ReturnType is never implemented")
    }
}
