//! Errors: HTTP errors answered as RFC 9457 problem details, startup errors,
//! and the crate's `Result`.

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

/// What can stop an application from starting, or a change of its routes
/// while serving ([`RouteChange`](crate::RouteChange)) from applying.
#[derive(Debug)]
#[non_exhaustive]
pub enum StartupError {
    /// Route problems: malformed templates, conflicting routes (every pair, with both locations).
    Routes(crate::router::RouterError),
    /// A resource has routes but no instance was bound and it has no `Default`.
    MissingResource {
        /// The resource type.
        type_name: &'static str,
        /// The first route that needs it.
        route: String,
    },
    /// A `#[context]` bean was not registered with `.bean(..)`.
    MissingBean {
        /// The bean type.
        type_name: &'static str,
        /// The route that asks for it.
        route: String,
    },
    /// A route names an executor that was not registered.
    MissingScheduler {
        /// The executor name.
        name: String,
        /// The route that names it.
        route: String,
    },
    /// An executor could not be registered or built: a reserved name, or
    /// its runtime could not start.
    BadScheduler {
        /// The executor name.
        name: String,
        /// What went wrong.
        reason: String,
    },
    /// A route's `produces` or `consumes` is not a media type.
    BadMediaType {
        /// The value as written.
        value: String,
        /// The route.
        route: String,
    },
    /// An interceptor's include or exclude pattern does not parse.
    BadPattern {
        /// The interceptor's type.
        interceptor: &'static str,
        /// The pattern and what is wrong with it.
        error: crate::intercept::AntPatternError,
    },
    /// A route names a codec (`#[serializer("..")]`) that is not registered.
    MissingCodec {
        /// The name as written.
        name: String,
        /// The route.
        route: String,
        /// The registered formats.
        known: String,
    },
    /// A `#[path_param]` field of a `#[bean_param]` names no variable of
    /// the route's template.
    UnknownPathVariable {
        /// The field's parameter name.
        name: String,
        /// The bean type.
        bean: &'static str,
        /// The route.
        route: String,
        /// The template's variables.
        variables: Vec<String>,
    },
    /// A route to remove is not served.
    NoSuchRoute {
        /// The method.
        method: String,
        /// The path template as given.
        path: String,
    },
    /// A resource to remove has no route served.
    NoSuchResource {
        /// The resource type.
        type_name: &'static str,
    },
    /// A resource to add has routes served already (or is added twice).
    ResourceServed {
        /// The resource type.
        type_name: &'static str,
    },
    /// A resource to add has no annotated routes linked into the binary.
    NoAnnotatedRoutes {
        /// The type.
        type_name: &'static str,
    },
    /// Several problems at once.
    Many(Vec<StartupError>),
}

impl fmt::Display for StartupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Routes(e) => write!(f, "{e}"),
            Self::MissingResource { type_name, route } => write!(
                f,
                "resource `{type_name}` has routes (first: {route}) but no instance: \
                 bind one with `.resource(..)` or implement `Default` for it"
            ),
            Self::MissingBean { type_name, route } => {
                write!(f, "no bean of type `{type_name}` (asked for by {route}): register it with `.bean(..)`")
            }
            Self::MissingScheduler { name, route } => write!(
                f,
                "route {route} is scheduled on `{name}`, which is not registered: add `.scheduler(\"{name}\", ..)`"
            ),
            Self::BadScheduler { name, reason } => write!(f, "executor `{name}`: {reason}"),
            Self::BadMediaType { value, route } => write!(f, "route {route}: `{value}` is not a media type"),
            Self::BadPattern { interceptor, error } => write!(f, "interceptor `{interceptor}`: {error}"),
            Self::MissingCodec { name, route, known } => write!(
                f,
                "route {route} asks for the codec `{name}`, which is not registered (known: {known}); \
                 enable its cargo feature or register it with `.codec(..)`"
            ),
            Self::UnknownPathVariable { name, bean, route, variables } => write!(
                f,
                "route {route}: the `#[path_param]` field `{name}` of `{bean}` names no variable of the path \
                 template (its variables: {}); add `{{{name}}}` to the path or read the field from elsewhere",
                if variables.is_empty() { "none".to_owned() } else { variables.join(", ") }
            ),
            Self::NoSuchRoute { method, path } => {
                write!(f, "no route `{method} {path}` is served: give the path template as it was declared")
            }
            Self::NoSuchResource { type_name } => write!(f, "resource `{type_name}` has no route served"),
            Self::ResourceServed { type_name } => write!(
                f,
                "resource `{type_name}` is served already: remove it first, or replace it in one change with \
                 `.remove_resource::<T>().add_resource(value)`"
            ),
            Self::NoAnnotatedRoutes { type_name } => write!(
                f,
                "`{type_name}` has no annotated routes: only types with a `#[restlight::path]` impl block can be \
                 added as resources"
            ),
            Self::Many(all) => {
                writeln!(f, "{} startup problems:", all.len())?;
                for e in all {
                    writeln!(f, "- {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for StartupError {}

impl From<crate::router::RouterError> for StartupError {
    fn from(e: crate::router::RouterError) -> Self {
        Self::Routes(e)
    }
}

/// Any error that stops Restlight from starting or serving.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The application could not be built.
    Startup(StartupError),
    /// Binding or serving failed.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Startup(e) => write!(f, "startup failed: {e}"),
            Self::Io(e) => write!(f, "io error: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Startup(e) => Some(e),
            Self::Io(e) => Some(e),
        }
    }
}

impl From<StartupError> for Error {
    fn from(e: StartupError) -> Self {
        Self::Startup(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// `Result` with Restlight's [`Error`] by default.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A boxed error, as bodies carry.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
