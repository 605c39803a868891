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

use std::future::Future;
use std::panic::Location;

use http::Method;

use crate::descriptor::{RouteDescriptor, SchedulerName};
use crate::handler::{BoxFuture, Handler};
use crate::request::RequestContext;
use crate::response::{IntoResponse, Response};

/// Where a route's handler comes from: built already, or from a descriptor's
/// factory at startup.
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
    pub(crate) serializers: Serializers,
    pub(crate) name: String,
    pub(crate) file: String,
    pub(crate) line: u32,
    pub(crate) source: Source,
}

impl Route {
    pub(crate) fn from_descriptor(d: &'static RouteDescriptor) -> Self {
        Self {
            method: Method::from_bytes(d.method.as_bytes()).unwrap_or(Method::GET),
            path: d.path.to_owned(),
            produces: d.produces.iter().map(|s| (*s).to_owned()).collect(),
            consumes: d.consumes.iter().map(|s| (*s).to_owned()).collect(),
            scheduler: d.scheduler,
            scheduler_name: None,
            blocking: d.blocking,
            serializers: Serializers {
                response: d.response_serializer.map(str::to_owned),
                request: d.request_serializer.map(str::to_owned),
                compress: d.compress,
            },
            name: d.name.to_owned(),
            file: d.file.to_owned(),
            line: d.line,
            source: Source::Descriptor(d),
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
        format!("{}:{}", self.file, self.line)
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
        serializers: Serializers::default(),
        file: at.file().to_owned(),
        line: at.line(),
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
    serializers: Serializers,
    file: String,
    line: u32,
}

impl RouteBuilder {
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
            "io" => self.scheduler = SchedulerName::Io,
            "biz" => self.scheduler = SchedulerName::Biz,
            other => {
                self.scheduler = SchedulerName::Default;
                self.scheduler_name = Some(other.to_owned());
            }
        }
        self
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
            serializers: self.serializers,
            name,
            file: self.file,
            line: self.line,
            source: Source::Built(handler),
        }
    }

    /// Finishes the route with an async handler.
    pub fn handle<F, Fut, R>(self, f: F) -> Route
    where
        F: Fn(RequestContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoResponse,
    {
        let name = format!("{} {}", self.method, self.path);
        let handler = Handler::new(move |ctx| -> BoxFuture<Response> {
            let fut = f(ctx);
            Box::pin(async move { fut.await.into_response() })
        });
        self.finish(handler, false, name)
    }

    /// Finishes the route with a blocking handler: it runs on the business
    /// executor (or the named one), never on an IO thread.
    pub fn handle_blocking<F, R>(self, f: F) -> Route
    where
        F: Fn(RequestContext) -> R + Send + Sync + 'static,
        R: IntoResponse,
    {
        let name = format!("{} {}", self.method, self.path);
        let f = std::sync::Arc::new(f);
        let handler = Handler::new(move |ctx| -> BoxFuture<Response> {
            let f = std::sync::Arc::clone(&f);
            Box::pin(async move { f(ctx).into_response() })
        });
        self.finish(handler, true, name)
    }
}
