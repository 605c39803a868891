//! Return values: what a handler can return and how it becomes a response.

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, CONTENT_TYPE, LOCATION};
use http::StatusCode;
use serde::Serialize;

use crate::body::{Body, Deferred};
use crate::error::HttpError;

/// The response type: `http::Response` with Restlight's [`Body`].
pub type Response = http::Response<Body>;

pub(crate) const TEXT_PLAIN_UTF8: &str = "text/plain; charset=utf-8";
/// Checked once, at compile time: `HeaderValue::from_static` at run time
/// validates every byte of the string each call.
pub(crate) static TEXT_PLAIN: HeaderValue = HeaderValue::from_static(TEXT_PLAIN_UTF8);
static OCTET_STREAM: HeaderValue = HeaderValue::from_static("application/octet-stream");

/// Turns a handler's return value into a response.
///
/// Implemented for text, bytes, status codes, [`HttpError`], the status
/// wrappers, [`Json`], full responses and `Result`s of those. Annotated
/// handlers may also return any `serde::Serialize` type (written by the
/// negotiated codec); builder routes wrap such values in [`Entity`] or [`Json`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a Restlight handler",
    note = "return text, a `Serialize` value (wrapped in `Entity` or `Json` in builder routes), `StatusCode`, `Created<T>`, `NoContent`, `HttpError`, a `Response` or a `Result` of these"
)]
pub trait IntoResponse {
    /// Builds the response.
    fn into_response(self) -> Response;
}

fn with_default_type(body: Body, default: &'static HeaderValue) -> Response {
    Response::new(body.with_default_type(default))
}

impl IntoResponse for Response {
    fn into_response(self) -> Response {
        self
    }
}

impl IntoResponse for &'static str {
    fn into_response(self) -> Response {
        with_default_type(Body::from(self), &TEXT_PLAIN)
    }
}

impl IntoResponse for String {
    fn into_response(self) -> Response {
        with_default_type(Body::from(self), &TEXT_PLAIN)
    }
}

impl IntoResponse for std::borrow::Cow<'static, str> {
    fn into_response(self) -> Response {
        match self {
            std::borrow::Cow::Borrowed(s) => s.into_response(),
            std::borrow::Cow::Owned(s) => s.into_response(),
        }
    }
}

impl IntoResponse for Bytes {
    fn into_response(self) -> Response {
        with_default_type(Body::from(self), &OCTET_STREAM)
    }
}

impl IntoResponse for Vec<u8> {
    fn into_response(self) -> Response {
        with_default_type(Body::from(self), &OCTET_STREAM)
    }
}

impl IntoResponse for () {
    /// `()` is 204 No Content, as a JAX-RS `void` method.
    fn into_response(self) -> Response {
        NoContent.into_response()
    }
}

impl IntoResponse for StatusCode {
    fn into_response(self) -> Response {
        let mut res = Response::new(Body::empty());
        *res.status_mut() = self;
        res
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        problem_response(self)
    }
}

impl<T: IntoResponse, E: IntoResponse> IntoResponse for Result<T, E> {
    fn into_response(self) -> Response {
        match self {
            Ok(v) => v.into_response(),
            Err(e) => e.into_response(),
        }
    }
}

impl<T: IntoResponse> IntoResponse for (StatusCode, T) {
    fn into_response(self) -> Response {
        let mut res = self.1.into_response();
        *res.status_mut() = self.0;
        res
    }
}

/// 204 No Content.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoContent;

impl IntoResponse for NoContent {
    fn into_response(self) -> Response {
        StatusCode::NO_CONTENT.into_response()
    }
}

/// 201 Created with the value as the body, written by the negotiated codec.
#[derive(Debug, Clone)]
pub struct Created<T>(pub T);

impl<T: Serialize + Send + 'static> IntoResponse for Created<T> {
    fn into_response(self) -> Response {
        (StatusCode::CREATED, Entity(self.0)).into_response()
    }
}

/// A success status other than 200 and 201, with the value as the body
/// (written by the negotiated codec): the status is in the type, so that
/// the OpenAPI document states it, as it does for [`Created`].
///
/// ```
/// use restlight_core::{IntoResponse, WithStatus};
/// # #[derive(serde::Serialize)] struct Job { id: u32 }
/// // 202 Accepted, the job the request started.
/// let res: WithStatus<202, Job> = WithStatus(Job { id: 7 });
/// assert_eq!(res.into_response().status(), 202);
/// ```
///
/// `CODE` must be a 2xx status: `WithStatus<404, T>` does not compile (an
/// error is an `Err` of the handler's `Result`):
///
/// ```compile_fail
/// use restlight_core::{IntoResponse, WithStatus};
/// let _ = WithStatus::<404, u8>(1).into_response();
/// ```
///
/// For a success without a body, [`EmptyStatus`].
#[derive(Debug, Clone)]
pub struct WithStatus<const CODE: u16, T>(pub T);

impl<const CODE: u16, T: Serialize + Send + 'static> IntoResponse for WithStatus<CODE, T> {
    fn into_response(self) -> Response {
        (success_status::<CODE>(), Entity(self.0)).into_response()
    }
}

/// A success status without a body, in the type, so that the OpenAPI
/// document states it: `EmptyStatus<202>` is 202 Accepted, `EmptyStatus<200>`
/// a 200 without content. [`NoContent`] is `EmptyStatus<204>`.
///
/// ```
/// use restlight_core::{EmptyStatus, IntoResponse};
/// assert_eq!(EmptyStatus::<202>.into_response().status(), 202);
/// ```
///
/// `CODE` must be a 2xx status, as for [`WithStatus`].
#[derive(Debug, Clone, Copy, Default)]
pub struct EmptyStatus<const CODE: u16>;

impl<const CODE: u16> IntoResponse for EmptyStatus<CODE> {
    fn into_response(self) -> Response {
        success_status::<CODE>().into_response()
    }
}

/// `CODE` as a status, checked at compile time to be a success (2xx).
fn success_status<const CODE: u16>() -> StatusCode {
    const { assert!(CODE >= 200 && CODE < 300, "`WithStatus` and `EmptyStatus` take a success status (2xx)") };
    StatusCode::from_u16(CODE).unwrap_or(StatusCode::OK)
}

/// A `Serialize` value written by the codec negotiated from `Accept` and the
/// route's `produces` (JSON when nothing else is asked for).
#[derive(Debug, Clone)]
pub struct Entity<T>(pub T);

struct DeferredValue<T>(T);

impl<T: Serialize + Send> Deferred for DeferredValue<T> {
    fn value(&self) -> &dyn erased_serde::Serialize {
        &self.0
    }

    fn json(&self) -> Result<Bytes, serde_json::Error> {
        crate::codec::json::to_bytes(&self.0)
    }
}

impl<T: Serialize + Send + 'static> IntoResponse for Entity<T> {
    fn into_response(self) -> Response {
        Response::new(Body::deferred(Box::new(DeferredValue(self.0))))
    }
}

/// A value written as JSON whatever `Accept` says.
#[derive(Debug, Clone)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match crate::codec::json::to_bytes(&self.0) {
            Ok(bytes) => {
                let mut res = Response::new(Body::from(bytes));
                res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                res
            }
            Err(e) => HttpError::internal(format!("the response could not be written as JSON: {e}")).into_response(),
        }
    }
}

/// A response built step by step.
///
/// ```
/// use restlight_core::{IntoResponse, ResponseBuilder};
/// use http::StatusCode;
/// let res = ResponseBuilder::new(StatusCode::ACCEPTED)
///     .header("x-job", "42")
///     .location("/jobs/42")
///     .body("queued")
///     .into_response();
/// assert_eq!(res.status(), StatusCode::ACCEPTED);
/// assert_eq!(res.headers()["location"], "/jobs/42");
/// ```
#[derive(Debug)]
#[must_use]
pub struct ResponseBuilder {
    res: Response,
    error: Option<String>,
}

impl ResponseBuilder {
    /// Starts a response with this status.
    pub fn new(status: StatusCode) -> Self {
        let mut res = Response::new(Body::empty());
        *res.status_mut() = status;
        Self { res, error: None }
    }

    /// 200 OK.
    pub fn ok() -> Self {
        Self::new(StatusCode::OK)
    }

    /// Appends a header. An invalid name or value turns the response into a 500
    /// naming it.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        match (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            (Ok(n), Ok(v)) => {
                self.res.headers_mut().append(n, v);
            }
            _ => self.error = Some(format!("invalid response header `{name}: {value}`")),
        }
        self
    }

    /// Sets `Location`.
    pub fn location(self, uri: &str) -> Self {
        self.header(LOCATION.as_str(), uri)
    }

    /// Sets `Content-Type`.
    pub fn content_type(self, media: &str) -> Self {
        self.header(CONTENT_TYPE.as_str(), media)
    }

    /// Sets the body: bytes or text, sent as they are.
    pub fn body(mut self, body: impl Into<Body>) -> Self {
        *self.res.body_mut() = body.into();
        self
    }

    /// Sets the body to a value written by the negotiated codec.
    pub fn entity<T: Serialize + Send + 'static>(mut self, value: T) -> Self {
        *self.res.body_mut() = Body::deferred(Box::new(DeferredValue(value)));
        self
    }
}

impl IntoResponse for ResponseBuilder {
    fn into_response(self) -> Response {
        match self.error {
            Some(e) => HttpError::internal(e).into_response(),
            None => {
                let mut res = self.res;
                res.body_mut().or_default_type(&TEXT_PLAIN);
                res
            }
        }
    }
}

/// 200 with this body (a stream is sent as it is produced).
impl IntoResponse for Body {
    fn into_response(self) -> Response {
        Response::new(self)
    }
}

/// The problem-details response of an error: JSON by default; the dispatcher
/// rewrites it as text for a client that accepts only text.
pub(crate) fn problem_response(error: HttpError) -> Response {
    let body = serde_json::to_vec(&error.to_problem()).unwrap_or_default();
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = error.status();
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(crate::codec::PROBLEM_JSON));
    for (name, value) in error.headers() {
        res.headers_mut().append(name.clone(), value.clone());
    }
    res.extensions_mut().insert(error);
    res
}

/// The problem as plain text, for clients that do not accept JSON.
pub(crate) fn problem_text(error: &HttpError) -> Body {
    Body::from(format!(
        "{} {}: {}\n",
        error.status().as_u16(),
        error.status().canonical_reason().unwrap_or("Error"),
        error.detail()
    ))
}
