//! Route descriptors: what `#[restlight::path]` and `#[restlight::get]` emit.
//!
//! Every annotated handler becomes one [`RouteDescriptor`] submitted with
//! [`inventory`]. At startup the application collects them, sorts them into a
//! deterministic order, builds each handler from its factory (binding the
//! resource instance and the `#[context]` beans) and compiles the router.

use crate::error::StartupError;
use crate::handler::{Bindings, Handler};

/// Where a value of a handler parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParamSource {
    /// A variable of the path template (`#[path_param]`).
    Path,
    /// The query string (`#[query_param]`).
    Query,
    /// A request header (`#[header_param]`).
    Header,
    /// A cookie of the `Cookie` header (`#[cookie_param]`).
    Cookie,
    /// A `;name=value` matrix parameter of a path segment (`#[matrix_param]`).
    Matrix,
    /// A field of an `application/x-www-form-urlencoded` body (`#[form_param]`).
    Form,
    /// The request entity, decoded by Content-Type (the unannotated parameter).
    Entity,
    /// The request or an application bean (`#[context]`).
    Context,
    /// A struct gathered from several sources (`#[bean_param]`, a type
    /// deriving [`BeanParam`](crate::BeanParam)).
    Bean,
}

impl ParamSource {
    /// The source as it is named in error messages: `query`, `header`, ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Path => "path",
            Self::Query => "query",
            Self::Header => "header",
            Self::Cookie => "cookie",
            Self::Matrix => "matrix",
            Self::Form => "form",
            Self::Entity => "entity",
            Self::Context => "context",
            Self::Bean => "bean",
        }
    }
}

impl std::fmt::Display for ParamSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Metadata of one handler parameter, fixed at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamMeta {
    /// The name looked up in the source (defaults to the Rust identifier).
    pub name: &'static str,
    /// Where the value comes from.
    pub source: ParamSource,
    /// The `#[default_value("..")]`, used when the value is absent.
    pub default: Option<&'static str>,
    /// The Rust type as written, for error messages and route listings.
    pub rust_type: &'static str,
}

/// The executor a route is scheduled on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SchedulerName {
    /// Not stated: the application's default (plain `fn` handlers always run
    /// on the business executor).
    #[default]
    Default,
    /// `#[scheduled(io)]`: inline on the IO runtime that serves the connection.
    Io,
    /// `#[scheduled(biz)]`: the business executor.
    Biz,
    /// `#[scheduled("name")]`: an executor registered under that name.
    Named(&'static str),
}

impl std::fmt::Display for SchedulerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Default => f.write_str("default"),
            Self::Io => f.write_str("io"),
            Self::Biz => f.write_str("biz"),
            Self::Named(name) => f.write_str(name),
        }
    }
}

/// Builds the handler of a route at startup, binding its resource and beans.
pub type HandlerFactory = fn(&mut Bindings<'_>) -> Result<Handler, StartupError>;

/// One route, as emitted by the macros and collected with [`inventory`].
#[derive(Debug)]
pub struct RouteDescriptor {
    /// The HTTP method in upper case (`"GET"`).
    pub method: &'static str,
    /// The full path template: the impl block's `#[path]` joined with the method's.
    pub path: &'static str,
    /// Media types the route produces (empty: anything).
    pub produces: &'static [&'static str],
    /// Media types the route consumes (empty: anything).
    pub consumes: &'static [&'static str],
    /// The executor the handler runs on.
    pub scheduler: SchedulerName,
    /// `#[serializer]` or `#[response_serializer]`: the codec (format name
    /// or media type) that writes the response whatever `Accept` says.
    pub response_serializer: Option<&'static str>,
    /// `#[serializer]` or `#[request_serializer]` (on the method or the
    /// entity): the codec that reads the entity whatever Content-Type says.
    pub request_serializer: Option<&'static str>,
    /// `false` with `#[compress(false)]`: the response is never compressed.
    pub compress: bool,
    /// `true` for a plain `fn` handler: it never runs on an IO thread.
    pub blocking: bool,
    /// `#[max_body(..)]`: the largest request entity in bytes; `None` for
    /// the application's limit.
    pub max_body: Option<usize>,
    /// `#[timeout(..)]`: answer 504 when the handler takes longer; `None`
    /// for no limit.
    pub timeout: Option<std::time::Duration>,
    /// The handler's parameters in declaration order (receiver excluded).
    pub params: &'static [ParamMeta],
    /// A readable name: `UserResource::list` or `hello`.
    pub name: &'static str,
    /// The resource type's name, for free functions `None`.
    pub resource: Option<&'static str>,
    /// The resource type's `TypeId`, for free functions `None`: how
    /// [`App::add_resource`](crate::App::add_resource) finds its routes.
    pub resource_type: Option<fn() -> std::any::TypeId>,
    /// Builds the handler at startup.
    pub factory: HandlerFactory,
    /// The interceptors the route declines (`#[no_interceptors]`,
    /// `#[skip_interceptor(T)]`).
    pub interceptors: crate::intercept::OptOut,
    /// `file!()` of the handler.
    pub file: &'static str,
    /// `line!()` of the handler.
    pub line: u32,
}

inventory::collect!(RouteDescriptor);

/// All descriptors linked into the binary, in a deterministic order
/// (path, method, file, line), whatever order the linker produced.
#[must_use]
pub fn descriptors() -> Vec<&'static RouteDescriptor> {
    let mut all: Vec<&'static RouteDescriptor> = inventory::iter::<RouteDescriptor>.into_iter().collect();
    all.sort_by(|a, b| (a.path, a.method, a.file, a.line, a.name).cmp(&(b.path, b.method, b.file, b.line, b.name)));
    all
}
