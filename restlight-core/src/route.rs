//! Routes built in code, without macros.
//!
//! ```
//! use restlight_core::{get, post, Json, RequestContext};
//! let ping = get("/ping").handle(|_ctx| async { "pong" });
//! let echo = post("/echo")
//!     .consumes("text/plain")
//!     .handle(|ctx: RequestContext| async move { ctx.body().clone() });
//! let json = get("/version").produces("application/json").handle(|_| async { Json(serde_json::json!({"v": 1})) });
//! # let _ = (ping, echo, json);
//! ```

use std::any::TypeId;
use std::future::Future;
use std::panic::Location;
use std::time::Duration;

use http::Method;

use crate::descriptor::{RouteDescriptor, SchedulerName};
use crate::executor::{BIZ, IO};
use crate::handler::{BoxFuture, Handler};
use crate::request::RequestContext;
use crate::response::{IntoResponse, Response};

/// Where a route's handler comes from: built already, or from a descriptor's
/// factory at startup.
/// Builds the handler of a route reached through a sub-resource locator.
pub(crate) type LocatedFactory = std::sync::Arc<
    dyn Fn(&mut crate::bind::Bindings<'_>) -> Result<Handler, crate::startup::StartupError> + Send + Sync,
>;

/// The composed factory of a route reached through a locator.
#[derive(Clone)]
pub(crate) struct Located(pub(crate) LocatedFactory);

impl std::fmt::Debug for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Located")
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Source {
    Built(Handler),
    Descriptor(&'static RouteDescriptor),
}

/// The codecs a route declared, by name, and whether it may be compressed.
#[derive(Debug, Clone)]
pub(crate) struct Serializers {
    pub(crate) response: Option<String>,
    pub(crate) request: Option<String>,
    pub(crate) compress: bool,
}

impl Default for Serializers {
    fn default() -> Self {
        Self { response: None, request: None, compress: true }
    }
}

/// A route: method, path template, media types, executor and handler.
#[derive(Debug, Clone)]
pub struct Route {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) produces: Vec<String>,
    pub(crate) consumes: Vec<String>,
    pub(crate) scheduler: SchedulerName,
    pub(crate) scheduler_name: Option<String>,
    pub(crate) blocking: bool,
    /// The route's own body limit; `None` for the application's.
    pub(crate) max_body: Option<usize>,
    /// Whether the handler reads the body as a stream.
    pub(crate) stream_body: bool,
    pub(crate) timeout: Option<Duration>,
    pub(crate) serializers: Serializers,
    pub(crate) name: String,
    /// The source file: `file!()` of the declaration, or the builder's
    /// caller, both `'static`.
    pub(crate) file: &'static str,
    pub(crate) line: u32,
    pub(crate) source: Source,
    /// No interceptor applies.
    pub(crate) skip_all: bool,
    /// Interceptor types that do not apply.
    pub(crate) skip: Vec<TypeId>,
    /// Left out of the OpenAPI document.
    pub(crate) undocumented: bool,
    /// A route reached through a sub-resource locator: its handler comes
    /// from this factory, not the descriptor's.
    pub(crate) located: Option<Located>,
}

impl Route {
    pub(crate) fn from_descriptor(d: &'static RouteDescriptor) -> Self {
        Self {
            method: d.method.clone(),
            path: d.path.to_owned(),
            produces: d.produces.iter().map(ToString::to_string).collect(),
            consumes: d.consumes.iter().map(ToString::to_string).collect(),
            scheduler: d.scheduler,
            scheduler_name: None,
            blocking: d.blocking,
            max_body: d.max_body,
            stream_body: false,
            timeout: d.timeout,
            serializers: Serializers {
                response: d.response_serializer.map(str::to_owned),
                request: d.request_serializer.map(str::to_owned),
                compress: d.compress,
            },
            name: d.name.to_owned(),
            file: d.file,
            line: d.line,
            source: Source::Descriptor(d),
            skip_all: d.interceptors.all,
            skip: d.interceptors.types.iter().map(|f| f()).collect(),
            undocumented: false,
            located: None,
        }
    }

    /// A route reached through a sub-resource locator.
    pub(crate) fn from_located(d: &'static RouteDescriptor, factory: LocatedFactory) -> Self {
        Self { located: Some(Located(factory)), ..Self::from_descriptor(d) }
    }

    /// The resource type's name, for annotated routes of an impl block.
    pub(crate) fn resource(&self) -> Option<&'static str> {
        match &self.source {
            Source::Descriptor(d) => d.resource,
            Source::Built(_) => None,
        }
    }

    /// The resource type, for annotated routes of an impl block.
    pub(crate) fn resource_type(&self) -> Option<TypeId> {
        match &self.source {
            Source::Descriptor(d) => d.resource_type.map(|t| t()),
            Source::Built(_) => None,
        }
    }

    /// The method.
    #[must_use]
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The path template.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// `file:line` where the route was declared.
    #[must_use]
    pub fn location(&self) -> String {
        // Built by hand: startup asks once per route, and `format!` costs
        // five times as many instructions for this.
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        let mut line = self.line;
        loop {
            at -= 1;
            digits[at] = b'0' + (line % 10) as u8;
            line /= 10;
            if line == 0 {
                break;
            }
        }
        let mut location = String::with_capacity(self.file.len() + 1 + digits.len() - at);
        location.push_str(self.file);
        location.push(':');
        location.extend(digits[at..].iter().map(|&d| char::from(d)));
        location
    }

    /// The handler's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Starts a route of any method. See also [`get`], [`post`], ...
#[track_caller]
pub fn route(method: Method, path: impl Into<String>) -> RouteBuilder {
    let at = Location::caller();
    RouteBuilder {
        method,
        path: path.into(),
        produces: Vec::new(),
        consumes: Vec::new(),
        scheduler: SchedulerName::Default,
        scheduler_name: None,
        max_body: None,
        stream_body: false,
        timeout: None,
        serializers: Serializers::default(),
        file: at.file(),
        line: at.line(),
        skip_all: false,
        skip: Vec::new(),
        undocumented: false,
    }
}

macro_rules! method_fns {
    ($($(#[$doc:meta])* $name:ident => $method:ident;)*) => {
        $(
            $(#[$doc])*
            #[track_caller]
            pub fn $name(path: impl Into<String>) -> RouteBuilder {
                route(Method::$method, path)
            }
        )*
    };
}

method_fns! {
    /// A `GET` route.
    get => GET;
    /// A `POST` route.
    post => POST;
    /// A `PUT` route.
    put => PUT;
    /// A `DELETE` route.
    delete => DELETE;
    /// A `PATCH` route.
    patch => PATCH;
    /// A `HEAD` route.
    head => HEAD;
    /// An `OPTIONS` route.
    options => OPTIONS;
}

/// A route under construction; finish it with [`handle`](Self::handle) or
/// [`handle_blocking`](Self::handle_blocking).
#[derive(Debug)]
#[must_use]
pub struct RouteBuilder {
    method: Method,
    path: String,
    produces: Vec<String>,
    consumes: Vec<String>,
    scheduler: SchedulerName,
    scheduler_name: Option<String>,
    max_body: Option<usize>,
    stream_body: bool,
    timeout: Option<Duration>,
    serializers: Serializers,
    file: &'static str,
    line: u32,
    skip_all: bool,
    skip: Vec<TypeId>,
    undocumented: bool,
}

impl RouteBuilder {
    /// Leaves the route out of the OpenAPI document (feature `openapi`),
    /// as the document's own endpoints are. Default: documented.
    pub fn undocumented(mut self) -> Self {
        self.undocumented = true;
        self
    }

    /// The largest request entity this route accepts, in bytes: a larger
    /// `Content-Length` is answered 413 before any of the body is read (so
    /// an `Expect: 100-continue` client never sends it), a chunked body as
    /// soon as it passes the limit.
    ///
    /// Default: the application's limit
    /// ([`AppBuilder::max_body_size`](crate::AppBuilder::max_body_size), 4 MiB).
    pub fn max_body_size(mut self, bytes: usize) -> Self {
        self.max_body = Some(bytes);
        self
    }

    /// Hands the body to the handler as it arrives, through
    /// [`RequestContext::take_body_stream`], instead of reading it in full
    /// first: an upload of any size passes in bounded memory. The body has
    /// no size limit then unless [`max_body_size`](Self::max_body_size) sets one.
    ///
    /// Default: the body is read in full (up to the limit) before the handler runs.
    pub fn stream_body(mut self) -> Self {
        self.stream_body = true;
        self
    }

    /// Opts the route out of every interceptor. Default: interceptors apply
    /// as registered.
    pub fn no_interceptors(mut self) -> Self {
        self.skip_all = true;
        self
    }

    /// Opts the route out of the interceptors of type `I`. Default:
    /// interceptors apply as registered.
    pub fn skip_interceptor<I: 'static>(mut self) -> Self {
        self.skip.push(TypeId::of::<I>());
        self
    }

    /// Reads the entity and writes the response with this codec, named by
    /// its format (`"msgpack"`) or media type (`"application/msgpack"`),
    /// whatever Content-Type and `Accept` say (the Java original's
    /// `@Serializer`). An unknown codec is a startup error. Default: none,
    /// negotiated per request.
    pub fn serializer(self, codec: &str) -> Self {
        self.request_serializer(codec).response_serializer(codec)
    }

    /// Reads the entity with this codec whatever Content-Type says
    /// (`@RequestSerializer`). Default: none, chosen by Content-Type.
    pub fn request_serializer(mut self, codec: &str) -> Self {
        self.serializers.request = Some(codec.to_owned());
        self
    }

    /// Writes the response with this codec whatever `Accept` says
    /// (`@ResponseSerializer`). Default: none, negotiated from `Accept`.
    pub fn response_serializer(mut self, codec: &str) -> Self {
        self.serializers.response = Some(codec.to_owned());
        self
    }

    /// Whether the response may be compressed (feature `compression`, by
    /// `Accept-Encoding`, above the application's threshold). Default: `true`.
    pub fn compress(mut self, allow: bool) -> Self {
        self.serializers.compress = allow;
        self
    }

    /// Adds a media type the route produces. Default: none declared, anything goes.
    pub fn produces(mut self, media: &str) -> Self {
        self.produces.push(media.to_owned());
        self
    }

    /// Adds a media type the route consumes. Default: none declared, anything goes.
    pub fn consumes(mut self, media: &str) -> Self {
        self.consumes.push(media.to_owned());
        self
    }

    /// Runs the handler on the executor `name`: `"io"`, `"biz"` or one
    /// registered on the application. Default: the application's default.
    pub fn scheduled(mut self, name: &str) -> Self {
        match name {
            IO => self.scheduler = SchedulerName::Io,
            BIZ => self.scheduler = SchedulerName::Biz,
            other => {
                self.scheduler = SchedulerName::Default;
                self.scheduler_name = Some(other.to_owned());
            }
        }
        self
    }

    /// Answers `504 Gateway Timeout` when the handler has not answered
    /// within `limit` of the route being entered (the body is read by
    /// then; the time spent queued for the executor counts), and cancels
    /// the handler wherever it runs. A blocking handler's thread cannot be
    /// taken back: it stays busy until the function returns.
    ///
    /// Default is none: a handler may take as long as it likes.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// The name of a route built in code: `"GET /path"`. Built by hand,
    /// one allocation of the right size: `format!` costs several times as
    /// many instructions, once per route at startup.
    fn default_name(&self) -> String {
        let method = self.method.as_str();
        let mut name = String::with_capacity(method.len() + 1 + self.path.len());
        name.push_str(method);
        name.push(' ');
        name.push_str(&self.path);
        name
    }

    fn finish(self, handler: Handler, blocking: bool, name: String) -> Route {
        Route {
            method: self.method,
            path: self.path,
            produces: self.produces,
            consumes: self.consumes,
            scheduler: self.scheduler,
            scheduler_name: self.scheduler_name,
            blocking,
            max_body: self.max_body,
            stream_body: self.stream_body,
            timeout: self.timeout,
            serializers: self.serializers,
            name,
            file: self.file,
            line: self.line,
            source: Source::Built(handler),
            skip_all: self.skip_all,
            skip: self.skip,
            undocumented: self.undocumented,
            located: None,
        }
    }

    /// Finishes the route with an async handler.
    pub fn handle<F, Fut, R>(self, f: F) -> Route
    where
        F: Fn(RequestContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoResponse,
    {
        let name = self.default_name();
        let handler = Handler::new(move |ctx| -> BoxFuture<Response> {
            let fut = f(ctx);
            Box::pin(async move { fut.await.into_response() })
        });
        self.finish(handler, false, name)
    }

    /// Finishes the route with a [`Handler`] built by hand, for example
    /// one made by [`Handler::immediate_no_input`]. It runs on the route's
    /// executor (the default one unless [`scheduled`](Self::scheduled)
    /// names another), as [`handle`](Self::handle)'s would.
    pub fn handler(self, handler: Handler) -> Route {
        let name = self.default_name();
        self.finish(handler, false, name)
    }

    /// Finishes the route with a blocking handler: it runs on the business
    /// executor (or the named one), never on an IO thread.
    pub fn handle_blocking<F, R>(self, f: F) -> Route
    where
        F: Fn(RequestContext) -> R + Send + Sync + 'static,
        R: IntoResponse,
    {
        let name = self.default_name();
        let f = std::sync::Arc::new(f);
        let handler = Handler::new(move |ctx| -> BoxFuture<Response> {
            let f = std::sync::Arc::clone(&f);
            Box::pin(async move { f(ctx).into_response() })
        });
        self.finish(handler, true, name)
    }
}

#[cfg(test)]
mod tests {
    use super::get;

    #[test]
    fn location_is_the_file_and_line_where_the_route_was_built() {
        let line = line!() + 1;
        let mut route = get("/ping").handle(|_| async { "pong" });
        assert_eq!(route.location(), format!("{}:{line}", file!()));
        for line in [0, 9, 10, 1234, u32::MAX] {
            route.line = line;
            route.file = "src/api.rs";
            assert_eq!(route.location(), format!("src/api.rs:{line}"));
        }
    }
}
