//! Errors that stop an application from starting or a route change from
//! applying ([`StartupError`]), and the crate's [`Error`] and [`Result`].

use std::fmt;

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
    /// A `#[resolve]` parameter whose type has no [`FromRequest`](crate::FromRequest)
    /// or [`FromRequestWith`](crate::FromRequestWith) implementation was
    /// claimed by no registered [`ResolverFactory`](crate::ResolverFactory),
    /// or the resolver a factory gave produces another type.
    UnresolvedParam {
        /// The parameter's name.
        param: &'static str,
        /// Its Rust type as written.
        rust_type: &'static str,
        /// The route.
        route: String,
        /// Why: no factory claimed it, or the claiming factory's resolver type.
        reason: String,
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
            Self::UnresolvedParam { param, rust_type, route, reason } => write!(
                f,
                "route {route}: the `#[resolve]` parameter `{param}: {rust_type}` {reason}; implement \
                 `FromRequest` for `{rust_type}`, or register a `ResolverFactory` that claims it with \
                 `.resolver_factory(..)`"
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
///
/// Its `Debug` is its message, as its `Display` writes it: a `main` that
/// returns [`Result`] prints `Error: startup failed: ...` and the problems
/// in words, not the error's structure (as `anyhow`'s errors do).
///
/// ```
/// use restlight_core::{Error, StartupError};
///
/// let err = Error::from(StartupError::MissingScheduler { name: "reports".into(), route: "GET /r".into() });
/// assert_eq!(format!("{err:?}"), err.to_string());
/// assert!(err.to_string().starts_with("startup failed: "), "{err}");
/// ```
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

/// The message: what `main` prints when it returns the error. (The
/// variants' structure, derived, would also link the `Debug` of every type
/// inside a startup error into every service: 18 KB of the
/// load-comparison service's binary.)
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
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
