//! Return values: the kind of a handler's return type, chosen at compile
//! time by autoref specialisation, and the error for a type with no kind.

use super::*;

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
