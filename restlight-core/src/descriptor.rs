//! Route descriptors: what `#[restlight::path]` and `#[restlight::get]` emit.
//!
//! Every annotated handler becomes one [`RouteDescriptor`] submitted with
//! [`inventory`]. At startup the application collects them, sorts them into a
//! deterministic order, builds each handler from its factory (binding the
//! resource instance and the `#[context]` beans) and compiles the router.

use restlight_grammar::media::MediaRange;
use restlight_grammar::template::Template;

use crate::bind::Bindings;
use crate::handler::Handler;
use crate::meta::ParamMeta;
use crate::startup::StartupError;

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
            Self::Io => f.write_str(crate::executor::IO),
            Self::Biz => f.write_str(crate::executor::BIZ),
            Self::Named(name) => f.write_str(name),
        }
    }
}

/// Builds the handler of a route at startup, binding its resource and beans.
pub type HandlerFactory = fn(&mut Bindings<'_>) -> Result<Handler, StartupError>;

/// One route, as emitted by the macros and collected with [`inventory`].
#[derive(Debug)]
pub struct RouteDescriptor {
    /// The HTTP method, checked by the macro.
    pub method: http::Method,
    /// The full path template: the impl block's `#[path]` joined with the
    /// method's, written canonically.
    pub path: &'static str,
    /// The same template as the macro parsed and checked it at compile time:
    /// the router compiles these pieces without parsing `path` again.
    pub template: Template<'static>,
    /// Media types the route produces (empty: anything), checked by the macro.
    pub produces: &'static [MediaRange<'static>],
    /// Media types the route consumes (empty: anything), checked by the macro.
    pub consumes: &'static [MediaRange<'static>],
    /// Spring's `params = ..` conditions on query parameters (`"version=2"`,
    /// `"!debug"`), checked by the macro; all must hold.
    pub param_conditions: &'static [&'static str],
    /// Spring's `headers = ..` conditions, as `param_conditions`.
    pub header_conditions: &'static [&'static str],
    /// Whether a request path with one trailing `/` matches: `true` for
    /// JAX-RS resources and route functions, `false` for Spring controllers
    /// (Spring 6's rule).
    pub trailing_slash: bool,
    /// How the template ranks against the others: Spring's rule for the
    /// routes of Spring controllers, JAX-RS's for the rest.
    pub precedence: crate::router::Precedence,
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
    /// What the OpenAPI document says of the route (doc comment, schemas,
    /// responses); `()` without the `openapi` feature.
    pub doc: crate::route_doc::DocRef,
}

inventory::collect!(RouteDescriptor);

/// All descriptors linked into the binary, in a deterministic order
/// (path, method, file, line), whatever order the linker produced.
#[must_use]
pub fn descriptors() -> Vec<&'static RouteDescriptor> {
    let mut all: Vec<&'static RouteDescriptor> = inventory::iter::<RouteDescriptor>.into_iter().collect();
    crate::sort::sort_by(&mut all, &|a, b| {
        (a.path, a.method.as_str(), a.file, a.line, a.name).cmp(&(b.path, b.method.as_str(), b.file, b.line, b.name))
    });
    all
}
