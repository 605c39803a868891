//! [`HttpError`]: errors answered as RFC 9457 problem details, and
//! [`BoxError`].

use std::fmt;

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use serde_json::{Map, Value};

/// An error answered to the client as problem details
/// (`application/problem+json`, RFC 9457).
///
/// ```
/// use restlight_core::HttpError;
/// let e = HttpError::not_found("no user 7");
/// assert_eq!(e.status(), http::StatusCode::NOT_FOUND);
/// assert_eq!(e.detail(), "no user 7");
/// ```
#[derive(Debug, Clone)]
pub struct HttpError(Box<Problem>);

#[derive(Debug, Clone)]
struct Problem {
    status: StatusCode,
    detail: String,
    extensions: Map<String, Value>,
    headers: HeaderMap,
}

macro_rules! shorthands {
    ($($(#[$doc:meta])* $name:ident => $status:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(detail: impl Into<String>) -> Self {
                Self::new(StatusCode::$status, detail)
            }
        )*
    };
}

impl HttpError {
    /// An error with this status and a human-readable detail.
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        Self(Box::new(Problem { status, detail: detail.into(), extensions: Map::new(), headers: HeaderMap::new() }))
    }

    shorthands! {
        /// 400 Bad Request.
        bad_request => BAD_REQUEST;
        /// 401 Unauthorized.
        unauthorized => UNAUTHORIZED;
        /// 403 Forbidden.
        forbidden => FORBIDDEN;
        /// 404 Not Found.
        not_found => NOT_FOUND;
        /// 405 Method Not Allowed.
        method_not_allowed => METHOD_NOT_ALLOWED;
        /// 406 Not Acceptable.
        not_acceptable => NOT_ACCEPTABLE;
        /// 408 Request Timeout.
        request_timeout => REQUEST_TIMEOUT;
        /// 409 Conflict.
        conflict => CONFLICT;
        /// 413 Content Too Large.
        payload_too_large => PAYLOAD_TOO_LARGE;
        /// 415 Unsupported Media Type.
        unsupported_media_type => UNSUPPORTED_MEDIA_TYPE;
        /// 422 Unprocessable Content.
        unprocessable => UNPROCESSABLE_ENTITY;
        /// 429 Too Many Requests.
        too_many_requests => TOO_MANY_REQUESTS;
        /// 500 Internal Server Error.
        internal => INTERNAL_SERVER_ERROR;
        /// 503 Service Unavailable.
        service_unavailable => SERVICE_UNAVAILABLE;
    }

    /// Adds a member to the problem-details object (`"parameter": "limit"`).
    #[must_use]
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.extensions.insert(key.to_owned(), value.into());
        self
    }

    /// Adds a response header (such as `Allow` on 405).
    #[must_use]
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.0.headers.append(name, value);
        self
    }

    /// The status answered.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.0.status
    }

    /// The detail message.
    #[must_use]
    pub fn detail(&self) -> &str {
        &self.0.detail
    }

    /// Extra problem-details members.
    #[must_use]
    pub fn extensions(&self) -> &Map<String, Value> {
        &self.0.extensions
    }

    /// Extra response headers.
    #[must_use]
    pub fn headers(&self) -> &HeaderMap {
        &self.0.headers
    }

    /// The problem-details document.
    #[must_use]
    pub fn to_problem(&self) -> Value {
        let mut doc = Map::new();
        doc.insert("type".into(), Value::from("about:blank"));
        doc.insert("title".into(), Value::from(self.0.status.canonical_reason().unwrap_or("Error")));
        doc.insert("status".into(), Value::from(self.0.status.as_u16()));
        doc.insert("detail".into(), Value::from(self.0.detail.clone()));
        for (k, v) in &self.0.extensions {
            doc.insert(k.clone(), v.clone());
        }
        Value::Object(doc)
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.status, self.0.detail)
    }
}

impl std::error::Error for HttpError {}

/// A boxed error, as bodies carry.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
