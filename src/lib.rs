//! # Restlight
//!
//! A web framework for REST services: JAX-RS-style attribute macros on plain
//! impl blocks, routes collected at link time, a router compiled once at
//! startup, and a hyper server that keeps network IO and business work on
//! separate executors.
//!
//! ```no_run
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Greeter;
//!
//! #[restlight::path("/greet")]
//! impl Greeter {
//!     #[get]
//!     #[path("/{name}")]
//!     async fn greet(&self, #[path_param] name: String,
//!                    #[query_param("punct")] #[default_value("!")] punct: String) -> String {
//!         format!("Hello, {name}{punct}")
//!     }
//! }
//!
//! fn main() -> restlight::Result<()> {
//!     Restlight::new().port(8080).run()
//! }
//! ```
//!
//! The same application runs in-process for tests, without sockets:
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[restlight::get("/hello")]
//! #[produces("text/plain")]
//! async fn hello(#[query_param] name: Option<String>) -> String {
//!     format!("Hello {}!", name.as_deref().unwrap_or("Restlight"))
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! let res = client.get("/hello?name=Rust").send_blocking();
//! assert_eq!(res.status(), 200);
//! assert_eq!(res.text(), "Hello Rust!");
//! assert_eq!(res.header("content-type"), Some("text/plain"));
//! ```
//!
//! ## Annotations
//!
//! | attribute | on | meaning |
//! |---|---|---|
//! | `#[restlight::path("/base")]` | impl block | a resource: its routes live under `/base` |
//! | `#[get]` `#[post]` `#[put]` `#[delete]` `#[patch]` `#[head]` `#[options]` | method (or free fn as `#[restlight::get("/x")]`) | a route for that HTTP method |
//! | `#[path("/sub")]` | method in a resource | the route's path below the resource's; without a method attribute the method is a *sub-resource locator* (see *JAX-RS request matching in Restlight*) |
//! | `#[restlight::sub_resource]` | impl block | a sub-resource: a type a locator returns, mounted only below locators' paths |
//! | `#[produces("a/b", ..)]` `#[consumes("a/b", ..)]` | impl block or method | media types written / read; the method's win |
//! | `#[scheduled(io)]` `#[scheduled(biz)]` `#[scheduled("name")]` | impl block or method | the executor the handler runs on (see *Where handlers run*) |
//! | `#[max_body("16MiB")]` | impl block or method | the largest request entity, in bytes or with a unit (B, KB, KiB, MB, MiB, GB, GiB); 413 past it. Default: the application's limit, 4 MiB |
//! | `#[timeout("2s")]` | impl block or method | the time the handler gets, in milliseconds or with a unit (ms, s, m); 504 past it and the handler is cancelled. Default: no limit |
//! | `#[serializer("msgpack")]` | impl block or method | the codec (format name or media type) for the entity and the response, over Content-Type and `Accept` |
//! | `#[request_serializer("..")]` `#[response_serializer("..")]` | impl block, method (request: also the entity) | the codec for one side |
//! | `#[compress(false)]` | impl block or method | never compress this route's responses |
//! | `#[tag("users", ..)]` | impl block or method | the OpenAPI tags of the routes' operations; the method's replace the impl block's. Default: the resource type's name (none for a route function) |
//! | `#[path_param]` `#[query_param]` `#[header_param]` `#[cookie_param]` `#[matrix_param]` `#[form_param]` | parameter | where the value is read from; the name defaults to the identifier (for a header with `-` for `_`); `#[matrix_param]` reads the path's last segment, as JAX-RS does; a `#[path_param]` of type [`PathSegment`] (or `Vec<PathSegment>`) is the segment its variable matched, with that segment's matrix parameters |
//! | `#[default_value("..")]` | parameter | used when the value is absent |
//! | `#[encoded]` | `#[path_param]` `#[query_param]` `#[matrix_param]` `#[form_param]`, or a method or impl block (all of those parameters) | the value as the request wrote it, not percent-decoded (JAX-RS `@Encoded`) |
//! | `#[bean_param]` | parameter | a struct with `#[derive(BeanParam)]` whose fields carry the source attributes above: several values read as one; its `#[path_param]` fields are checked against the template at startup |
//! | `#[context]` | parameter | the request (`&RequestContext`, `&HeaderMap`, `&Uri`, `&Method`) or a bean registered with `.bean(..)` |
//! | `#[resolve]` `#[resolve("name")]` | parameter | a value of your own type: its [`FromRequest`] (or [`FromRequestWith`]) implementation, bound at compile time, else the first [`ResolverFactory`] that claims it at startup (see *Your own parameter types*) |
//! | `#[request_part("name")]` | parameter | one part of a `multipart/form-data` body (Spring's `@RequestPart`, in both styles): `String`, `Bytes`, `Vec<u8>`, [`MultipartFile`], or a `Deserialize` type decoded by the part's Content-Type (JSON when it has none); `Option<T>` when it may be absent, else a missing part is a 400 naming it. The route reads its body in full (within its body limit) and has no other entity |
//! | `#[request_attribute]` | parameter | the typed value a filter or interceptor stored on the request ([`RequestContext::set_attribute`]): `&T`, `T` (a clone), `Option<&T>` or `Option<T>`; a required one that is absent is a 500 naming the type, logged once per route |
//! | (none) | one parameter | the entity, decoded by Content-Type |
//! | `#[valid]` | the entity | validated with `garde` after decoding; 400 lists every violation |
//! | `#[no_interceptors]` `#[skip_interceptor(Type, ..)]` | impl block or method | the routes decline all interceptors, or those types |
//! | `#[exception_handler]` | method `fn(&self, e: &E) -> impl IntoResponse` | maps the resource's handler errors of type `E` (before global mappers) |
//! | `#[restlight::interceptor(includes = [..], excludes = [..], order = N)]` | `impl Interceptor for T` | registers a `Default`-built interceptor |
//!
//! The entity can also be a [`BodyStream`] (the body as it arrives) or a
//! [`Multipart`] (a `multipart/form-data` body, field by field as it
//! arrives, with [`MultipartLimits`] and uploads spooled to disk as
//! [`SpooledFile`]s); either way the route does not read the body in full
//! first.
//!
//! Framework errors are RFC 9457 problem details; see [`HttpError`].
//!
//! ### Spring MVC attributes
//!
//! The same engine reads Spring's annotations: `#[restlight::rest_controller]`
//! with `#[request_mapping("/base")]` on an impl block, `#[get_mapping]`
//! `#[post_mapping]` `#[put_mapping]` `#[delete_mapping]` `#[patch_mapping]`
//! `#[request_mapping(path = .., method = ..)]` and `#[response_status(..)]`
//! on methods, `#[path_variable]` `#[request_param]` `#[request_header]`
//! `#[cookie_value]` `#[matrix_variable]` `#[request_body]` `#[request_part]`
//! `#[model_attribute]` `#[validated]` on parameters, `#[exception_handler(E, ..)]`
//! and [`rest_controller_advice`] for errors. They expand to the same routes
//! as the JAX-RS attributes, with Spring's meaning where it differs
//! (`#[request_param]` required unless `required = false`, `Option` or a
//! default; a mapping without a method serves every method; `**` and
//! `{*rest}` match zero or more segments, only at the end of a pattern;
//! overlapping patterns rank as Spring's `PathPattern` ranks them; a
//! trailing `/` does not match, as in Spring 6). One impl block
//! uses one style. `docs/migrating-from-spring.md` in the repository has the
//! full table and the differences.
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Greeter;
//!
//! #[restlight::rest_controller]
//! #[request_mapping(path = "/greet", produces = "text/plain")]
//! impl Greeter {
//!     #[get_mapping("/{name}")]
//!     async fn greet(&self, #[path_variable] name: String, #[request_param] salute: String) -> String {
//!         format!("{salute}, {name}!")
//!     }
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! assert_eq!(client.get("/greet/Ada?salute=Hi").send_blocking().text(), "Hi, Ada!");
//! // Required by default: 400 naming the parameter.
//! let missing = client.get("/greet/Ada").send_blocking();
//! assert_eq!(missing.status(), 400);
//! assert!(missing.text().contains("salute"));
//! ```
//!
//! ## Your own parameter types
//!
//! A handler can take values of your own types, read from the request by
//! your code, instead of taking `&RequestContext` and repeating that code
//! in every handler:
//!
//! - **Request attributes** carry what filters and interceptors learn about
//!   a request to the handler: typed values keyed by their type, stored with
//!   [`RequestContext::set_attribute`] (an interceptor's `pre_handle`) or in
//!   the `http::Request`'s extensions (a filter or a tower layer), read with
//!   `#[request_attribute]` or [`RequestContext::attribute`].
//! - **Argument resolvers**: implement [`FromRequest`] for a type and mark
//!   the parameter `#[resolve]`. The macro picks the implementation from the
//!   parameter's type at compile time: the parameter costs what
//!   `from_request` does, no lookup and no dynamic call (measured in
//!   BENCHMARKS.md, *Argument resolvers*). Its error is answered like a
//!   handler's own: an [`HttpError`] as problem details, any other
//!   `std::error::Error` through the `#[exception_handler]`s and
//!   [`ExceptionMapper`]s. A resolver that needs a bean or a setting
//!   implements [`FromRequestWith`], whose state is bound once per route at
//!   startup. Builder routes call [`resolve`].
//! - **Resolver factories** ([`ResolverFactory`], registered with
//!   `.resolver_factory(..)`) claim, once at startup, the `#[resolve]`
//!   parameters whose types implement neither trait, from their
//!   declaration ([`ParamDecl`]: name, type, route). A parameter no factory
//!   claims stops startup with an error naming it and its route.
//!
//! Why an attribute: the parameter without attribute is the request entity,
//! and the macro sees names, not traits; `#[resolve]` keeps every
//! parameter's source readable in the signature and in the route's
//! metadata (a resolved value is never mistaken for a body), and a type
//! with a resolver written without it is a compile error that says so.
//!
//! Authentication, the usual case (`examples/auth.rs` is the same, served):
//! an interceptor stores the principal, a resolver turns it into the
//! signed-in user or a 401, and handlers take `user: CurrentUser`.
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(Clone)]
//! struct Principal(String);
//!
//! struct Authenticate;
//! impl Interceptor for Authenticate {
//!     async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
//!         if ctx.header("authorization") == Some("Bearer s3cret") {
//!             ctx.set_attribute(Principal("ada".into()));
//!         }
//!         ControlFlow::Continue(())
//!     }
//! }
//!
//! struct CurrentUser(Principal);
//! impl FromRequest for CurrentUser {
//!     type Error = HttpError;
//!     async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
//!         req.attribute::<Principal>().cloned().map(CurrentUser).ok_or_else(|| HttpError::unauthorized("sign in"))
//!     }
//! }
//!
//! #[derive(Default)]
//! struct Account;
//!
//! #[restlight::path("/account")]
//! impl Account {
//!     #[get]
//!     #[produces("text/plain")]
//!     async fn me(&self, #[resolve] user: CurrentUser) -> String {
//!         user.0 .0
//!     }
//!
//!     #[get]
//!     #[path("/greeting")]
//!     #[produces("text/plain")]
//!     async fn greeting(&self, #[request_attribute] who: Option<&Principal>) -> String {
//!         format!("hello, {}", who.map_or("stranger", |p| p.0.as_str()))
//!     }
//! }
//!
//! let client = Restlight::new().interceptor(Intercept::new(Authenticate)).mock().unwrap();
//! assert_eq!(client.get("/account").send_blocking().status(), 401);
//! assert_eq!(client.get("/account").header("authorization", "Bearer s3cret").send_blocking().text(), "ada");
//! assert_eq!(client.get("/account/greeting").send_blocking().text(), "hello, stranger");
//! ```
//!
//! ## Your own response types
//!
//! A type that implements [`IntoResponse`] is returned as it is. To keep
//! content negotiation (the route's `#[produces]` and the client's `Accept`
//! choose the codec, 406 when none fits) while setting the status and
//! headers, build the response with [`ResponseBuilder`] and give it the
//! value with [`ResponseBuilder::entity`] (or wrap the value in [`Entity`]
//! and change the response it gives):
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(serde::Serialize)]
//! struct Job { id: u64 }
//!
//! impl IntoResponse for Job {
//!     fn into_response(self) -> Response {
//!         let location = format!("/jobs/{}", self.id);
//!         ResponseBuilder::new(StatusCode::ACCEPTED).location(&location).header("retry-after", "5").entity(self).into_response()
//!     }
//! }
//!
//! #[restlight::post("/jobs")]
//! #[produces("application/json")]
//! async fn submit() -> Job { Job { id: 42 } }
//!
//! let client = Restlight::new().mock().unwrap();
//! let res = client.post("/jobs").send_blocking();
//! assert_eq!((res.status().as_u16(), res.header("location")), (202, Some("/jobs/42")));
//! assert_eq!(res.header("content-type"), Some("application/json"));
//! assert_eq!(res.text(), r#"{"id":42}"#);
//! assert_eq!(client.post("/jobs").header("accept", "text/html").send_blocking().status(), 406);
//! ```
//!
//! ## JAX-RS request matching in Restlight
//!
//! Every route is compiled into one table at startup; a request is matched
//! in three steps, as Jakarta REST 3.1 section 3.7.2 describes:
//!
//! 1. **Template.** Of the templates matching the path, the one with the
//!    most literal characters wins, then the one with more variables, then
//!    with more regex variables. By default the best template *that serves
//!    the request method* is chosen (HEAD is served by GET); when none does,
//!    405 with an `Allow` of every matching template's methods.
//! 2. **Content-Type** against `#[consumes]`: routes that cannot read it
//!    drop out (415 when none is left); the most specific match ranks first:
//!    `text/plain` before `text/*` before `*/*` (a route that states no
//!    `#[consumes]` consumes `*/*`).
//! 3. **Accept** against `#[produces]`: the combined type of each pair is
//!    ranked `n/m` before `n/*` before `*/*`, then by the client's `q`, then
//!    by the server's `qs` (`#[produces("text/html; qs=0.5")]`, default 1),
//!    then by the fewer wildcards (406 when nothing is acceptable).
//!
//! So one template may have one method per representation:
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Notes;
//!
//! #[restlight::path("/notes")]
//! impl Notes {
//!     #[post]
//!     #[consumes("text/plain")]
//!     async fn plain(&self, body: String) -> String { format!("plain: {body}") }
//!
//!     #[post]
//!     #[consumes("text/*")]
//!     async fn text(&self, body: String) -> String { format!("text: {body}") }
//!
//!     #[post]
//!     async fn anything(&self, body: String) -> String { format!("{} bytes", body.len()) }
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! let post = |ct: &str| client.post("/notes").header("content-type", ct).body("hi").send_blocking().text();
//! assert_eq!(post("text/plain"), "plain: hi");
//! assert_eq!(post("text/csv"), "text: hi");
//! assert_eq!(post("application/octet-stream"), "2 bytes");
//! ```
//!
//! Startup fails only for routes no request could tell apart (same method,
//! equivalent template, the same consumes and the same produces), naming
//! both source locations, and warns once for a route that is never chosen
//! (another consumes and produces everything it does and wins every tie).
//!
//! **Where Restlight departs from the letter**, and how to follow it: JAX-RS
//! picks the best template before looking at the method. With
//! `GET /users/{id: \d+}` and `DELETE /users/{id}`, `DELETE /users/1` is 405
//! in JAX-RS and reaches the DELETE route in Restlight.
//! [`Restlight::strict_matching`] (config key `server.strict_matching`)
//! selects to the letter:
//!
//! ```
//! use restlight::prelude::*;
//!
//! let app = || Restlight::new()
//!     .route(get("/users/{id: \\d+}").handle(|_| async { "user" }))
//!     .route(delete("/users/{id}").handle(|_| async { "deleted" }));
//! let default = app().mock().unwrap();
//! assert_eq!(default.delete("/users/1").send_blocking().status(), 200);
//! let strict = app().strict_matching(true).mock().unwrap();
//! let refused = strict.delete("/users/1").send_blocking();
//! assert_eq!((refused.status().as_u16(), refused.header("allow")), (405, Some("GET, HEAD, OPTIONS")));
//! ```
//!
//! **Sub-resource locators.** A method with `#[path("..")]` and no method
//! attribute is a locator: it returns a type whose impl block is
//! `#[restlight::sub_resource]`, and that type's routes are served below the
//! locator's path. The locator reads its own path, query, header, cookie and
//! matrix parameters (its `#[matrix_param]`s come from its own last
//! segment, the sub-resource's from theirs), and may return `T`,
//! `Option<T>` (`None` is 404) or `Result<T, E>` (`E` answered as a
//! handler's error is). The returned type is known at compile time, so its
//! routes are *flattened* into the one table at startup, joined to the
//! locator's template: they take part in precedence, media-type ranking,
//! 405/`Allow` and conflict checks like any other route, and a request pays
//! the locator's call and the method's, with no second routing step. A
//! sub-resource may have locators of its own (nested locators flatten the
//! same way). A locator cannot return a dynamically chosen resource
//! (`Box<dyn ..>`, `impl Trait`): that is a compile error; return a
//! concrete type, or an enum handled inside one sub-resource's methods.
//! A sub-resource type is never mounted by itself and needs no instance:
//! the locator builds one per request.
//!
//! ```
//! use restlight::prelude::*;
//!
//! #[derive(Default)]
//! struct Library;
//!
//! #[restlight::path("/books")]
//! impl Library {
//!     #[get("/latest")]
//!     async fn latest(&self) -> &'static str { "latest" }
//!
//!     #[path("/{isbn}")]
//!     async fn book(&self, #[path_param] isbn: String) -> Option<Book> {
//!         (isbn != "missing").then_some(Book { isbn })
//!     }
//! }
//!
//! struct Book { isbn: String }
//!
//! #[restlight::sub_resource]
//! impl Book {
//!     #[get]
//!     async fn show(&self) -> String { format!("book {}", self.isbn) }
//!
//!     #[get("/chapters/{n}")]
//!     async fn chapter(&self, #[path_param] n: u32) -> String { format!("chapter {n} of {}", self.isbn) }
//! }
//!
//! let client = Restlight::new().mock().unwrap();
//! assert_eq!(client.get("/books/978-3").send_blocking().text(), "book 978-3");
//! assert_eq!(client.get("/books/978-3/chapters/2").send_blocking().text(), "chapter 2 of 978-3");
//! assert_eq!(client.get("/books/latest").send_blocking().text(), "latest");   // the literal template wins
//! assert_eq!(client.get("/books/missing").send_blocking().status(), 404);
//! assert_eq!(client.delete("/books/978-3").send_blocking().header("allow"), Some("GET, HEAD, OPTIONS"));
//! ```
//!
//! `tests/jaxrs_tck.rs` holds request cases derived from these rules
//! (templates, every parameter source, `#[encoded]`, HEAD and OPTIONS,
//! media types, locators), run in both modes.
//!
//! ## OpenAPI
//!
//! With the cargo feature `openapi` (off by default) the routes describe
//! themselves: `App::openapi` returns the OpenAPI document of an
//! application without starting a server, and `Restlight::openapi`
//! serves it (`GET /openapi.json`, `GET /openapi.yaml`) with a Swagger UI
//! (`/swagger-ui`) whose files are compiled into the binary (vendored from
//! npm's `swagger-ui-dist`: no CDN, no download at build time). The paths,
//! the version and the title are set with `openapi::OpenApiDocs`, the
//! `[openapi]` table of the configuration file or `RESTLIGHT_SERVER_OPENAPI_*`
//! variables. The document is generated from the routes served at the
//! moment it is asked for, routes added while serving included; no request
//! to another route pays for it, and without the feature nothing of it is
//! compiled (the macros' record of each route is `()`).
//!
//! | in the code | in the document |
//! |---|---|
//! | route template `/users/{id: \d+}` | path `/users/{id}`, the parameter's schema with `pattern: ^(?:\d+)$` |
//! | `#[get]`, `#[post]`, ... | the operation; `operationId` `UserResource.get` (a builder route: `get_ping`) |
//! | `#[path_param]` `#[query_param]` `#[header_param]` `#[cookie_param]` | parameters `in: path / query / header / cookie`; `Option<T>` or `#[default_value]` not required (the default as `default`), `Vec<T>` an array |
//! | `#[matrix_param]` | named in the operation's description (OpenAPI has no matrix parameters outside path templates) |
//! | `#[form_param]` | an `application/x-www-form-urlencoded` request body, one property each |
//! | `#[request_part]` | a `multipart/form-data` request body, one property each (bytes and `MultipartFile` `format: binary`, decoded parts with `encoding` `application/json`) |
//! | Spring's `params = ..` / `headers = ..` | required query / header parameters (`name=value`: `enum: [value]`); `!name` and `name!=value` are named in the description |
//! | `#[bean_param]` | its fields, each in its own source |
//! | the entity | `requestBody`, one content entry per `#[consumes]` type (else JSON; text for `String`, octet-stream for bytes, multipart for `Multipart`) |
//! | return `T` (`Json<T>`) | 200, one content entry per `#[produces]` type (else JSON; text for `String`) |
//! | `Created<T>` / `NoContent`, `()` | 201 with `T` / 204 |
//! | `WithStatus<202, T>` / `EmptyStatus<202>` | the status named (a 2xx literal) with `T` / without content |
//! | `Option<T>` | adds 404 |
//! | `Result<T, E>` | adds the statuses `E` lists with [`openapi::ErrorStatuses`], else a `default` response |
//! | `StatusCode`, `Response`, `impl IntoResponse`, ... | a `default` response: the status is chosen at run time |
//! | parameters or an entity / `#[produces]` / `#[consumes]` or a decoded entity | 400 / 406 / 415 |
//! | an entity or form parameters / a bounded executor (`fn` handlers, `#[scheduled(biz)]`) / `#[timeout]` | 413 / 429 and 503 / 504 |
//! | every route | 500; every error above is the shared `Problem` schema (RFC 9457, `application/problem+json`) |
//! | doc comment | first paragraph `summary`, the rest `description` |
//! | `#[deprecated]` | `deprecated: true` |
//! | `#[tag("users", ..)]` on the method, else on the impl block, else the impl block's type | the operation's tags |
//! | [`RouteBuilder::undocumented`] | left out (the document's own endpoints are) |
//!
//! Schemas come from [`schemars`](https://docs.rs/schemars): derive
//! `schemars::JsonSchema` on entity and response types (add `schemars = "1"`
//! to your dependencies); they are referenced from `components/schemas`,
//! and garde-style `#[garde(length(..), range(..), pattern(..), email)]`
//! rules that schemars reads show as `minLength`, `minimum`, `pattern`,
//! `format: email`. A type without `JsonSchema` is not an error: its schema
//! is empty (any value). A generic type is one schema per instantiation:
//! name them with schemars' type-parameter form,
//! `#[schemars(rename = "Page_for_{T}")]` (`Page_for_User`,
//! `Page_for_string`); without it schemars numbers the second and later
//! instantiations (`Page`, `Page2`) in the order of the document's sorted
//! routes, so a new route can renumber them. Schemas are JSON Schema 2020-12 in OpenAPI 3.1
//! (the default) and the OpenAPI 3.0 dialect in 3.0.3
//! (`openapi::OpenApiVersion::V3_0`, for tools that cannot read 3.1),
//! both from the same routes.
//!
//! ```
//! use restlight::prelude::*;
//! use restlight::openapi::{ErrorStatuses, OpenApiVersion};
//!
//! #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
//! struct Order { id: u64, item: String }
//!
//! #[derive(Debug)]
//! struct OrderError;
//! impl std::fmt::Display for OrderError {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("conflict") }
//! }
//! impl std::error::Error for OrderError {}
//! impl ErrorStatuses for OrderError {
//!     const STATUSES: &'static [StatusCode] = &[StatusCode::CONFLICT];
//! }
//!
//! #[derive(Default)]
//! struct Orders;
//!
//! #[restlight::path("/orders")]
//! #[produces("application/json")]
//! impl Orders {
//!     /// Places an order.
//!     #[post]
//!     #[consumes("application/json")]
//!     async fn place(&self, order: Order) -> Result<Created<Order>, OrderError> {
//!         Ok(Created(order))
//!     }
//! }
//!
//! let app = Restlight::new().build().unwrap();
//! let doc = app.openapi().title("Orders").version("1.0.0").to_value(OpenApiVersion::V3_1);
//! let place = &doc["paths"]["/orders"]["post"];
//! assert_eq!(place["summary"], "Places an order.");
//! assert_eq!(place["tags"][0], "Orders");
//! assert_eq!(place["responses"]["201"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Order");
//! assert_eq!(place["responses"]["409"]["content"]["application/problem+json"]["schema"]["$ref"], "#/components/schemas/Problem");
//! for status in ["400", "406", "413", "415", "500"] {
//!     assert!(place["responses"][status].is_object(), "{status}");
//! }
//! assert_eq!(app.openapi().to_value(OpenApiVersion::V3_0)["openapi"], "3.0.3");
//! ```
//!
//! The users example serves its document (`cargo run --example users`, then
//! open `localhost:8080/swagger-ui`); the document is checked into
//! `examples/openapi/` and `tests/openapi.rs` fails with a diff when the
//! code and the file disagree: regenerate it with
//! `UPDATE_OPENAPI=1 cargo test --test openapi`. `scripts/openapi-check.sh`
//! (run by CI) validates the documents with `openapi-spec-validator` and
//! runs Schemathesis against the running example.
//!
//! ## Where handlers run
//!
//! | handler | runs on |
//! |---|---|
//! | `async fn`, no `#[scheduled]` | the default scheduler: IO unless [`Restlight::default_scheduler`] says otherwise |
//! | plain `fn`, no `#[scheduled]` | the business executor `"biz"`, never an IO thread |
//! | `#[scheduled(io)]` | inline on the IO thread of the connection (plain `fn`s still go to `"biz"`) |
//! | `#[scheduled(biz)]` | the business executor: bounded threads, queue of 512, 429 when full |
//! | `#[scheduled("reports")]` | the executor registered with `.scheduler("reports", Scheduler::threads(4).queue(100))` |
//!
//! A bounded executor answers 429 at once when its queue is full and 503 to
//! a request that waited past its [`FailFast`] time; a route built with
//! `.timeout(..)` answers 504 when its handler is late and cancels it.
//!
//! ```
//! use std::time::Duration;
//! use restlight::prelude::*;
//! use restlight::Resize;
//!
//! let client = Restlight::new()
//!     .scheduler("reports", Scheduler::threads(2).queue(100).fail_fast(FailFast::queued(Duration::from_secs(1))))
//!     .route(get("/report").scheduled("reports").timeout(Duration::from_secs(5)).handle(|_| async { "done" }))
//!     .mock()
//!     .unwrap();
//! assert_eq!(client.get("/report").send_blocking().text(), "done");
//! let reports = client.app().executors().into_iter().find(|e| e.name == "reports").unwrap();
//! assert_eq!(reports.completed, 1);
//!
//! // Sizes change while serving: more threads (`max_active` follows
//! // them unless set), a longer queue.
//! let reports = client.app().resize_executor("reports", Resize::new().threads(4).queue(500)).unwrap();
//! assert_eq!((reports.threads, reports.max_active, reports.queue_capacity), (4, 4, 500));
//! ```
//!
//! [`App::resize_executor`] (or [`ServerHandle::resize_executor`], or the
//! actuator's `POST {base}/executors/{name}` once
//! [`Actuator::allow_executor_resize`] opts in) resizes a bounded executor
//! at run time: see [`Resize`].
#![warn(missing_docs)]

pub use restlight_core::BeanParam;
pub use restlight_core::{
    check_routes, codec, media, router, App, AppBuilder, Body, BoxError, BoxFuture, Created, EmptyStatus, Entity,
    Error, Executor, ExecutorMetrics, FailFast, FromParam, Handler, HttpError, IntoResponse, Json, NoContent,
    QueueWait, ReceivedAt, RequestContext, Resize, ResizeError, Response, ResponseBuilder, Result, Route, RouteBuilder,
    RouteInfo, RuntimeExecutor, Scheduler, StartupError, WithStatus, MAX_RESIZE_THREADS,
};
pub use restlight_core::{delete, get, head, options, patch, post, put, route};
pub use restlight_core::{filter, integer, intercept, layer, mapper};
pub use restlight_core::{
    resolve, Bindings, Claimed, FromRequest, FromRequestWith, ParamDecl, ParamMeta, ParamSource, ResolveContext,
    ResolveFuture, Resolver, ResolverFactory,
};
pub use restlight_core::{AppliedChange, MatchedRoute, RouteChange, Routes, RoutesIter};
pub use restlight_core::{BodyStream, BodyTimeout, BodyTooSlow, Event, Sse};
pub use restlight_core::{ExceptionMapper, Failure, Fallible, PathSegment, RequestHead};
pub use restlight_core::{Field, Multipart, MultipartFile, MultipartLimits, SpooledFile};
pub use restlight_core::{RequestId, TraceContext};
/// Request IDs and W3C Trace Context: the types, the header names and the
/// ID generation (see [`Restlight::request_ids`](crate::Restlight::request_ids) and
/// [`Restlight::trace_context`](crate::Restlight::trace_context)). The guide:
///
#[doc = include_str!("../docs/observability.md")]
pub mod trace {
    pub use restlight_core::trace::*;
    pub use restlight_server::REQUEST_TARGET;
}
pub use restlight_macros::sub_resource;
pub use restlight_macros::BeanParam;
pub use restlight_macros::{
    compress, consumes, delete, encoded, exception_handler, get, head, interceptor, max_body, no_interceptors, options,
    patch, path, post, produces, put, request_serializer, response_serializer, scheduled, serializer, skip_interceptor,
    tag, timeout,
};
pub use restlight_macros::{
    delete_mapping, get_mapping, patch_mapping, post_mapping, put_mapping, request_mapping, response_status,
    rest_controller, rest_controller_advice,
};
pub use restlight_server::{AccessLog, Actuator, ConfigError, Endpoint, Health, UnknownEndpoint};
#[cfg(feature = "tls")]
pub use restlight_server::{ClientAuth, TlsConfig, TlsError};
pub use restlight_server::{IpRange, IpRangeError, LoadShedding, Refusal, Restlight, ServerHandle, ServerStats};
#[cfg(feature = "otel")]
pub use restlight_server::{OtelGuard, Otlp, OtlpError};

pub use http;
pub use http::StatusCode;

/// The OpenAPI document generated from the routes (feature `openapi`; see
/// the guide's *OpenAPI* section): `App::openapi` returns it for an
/// application without starting a server, `Restlight::openapi` serves it
/// with the Swagger UI. [`ErrorStatuses`](openapi::ErrorStatuses) is there
/// with the feature off too.
pub mod openapi {
    pub use restlight_core::openapi::*;
    #[cfg(feature = "openapi")]
    pub use restlight_server::{OpenApiDocs, DEFAULT_JSON_PATH, DEFAULT_UI_PATH, DEFAULT_YAML_PATH};
}

/// Testing support: the in-process client and the startup checks.
///
/// ```
/// use restlight::prelude::*;
/// let client = Restlight::new()
///     .route(get("/ping").handle(|_| async { "pong" }))
///     .mock()
///     .unwrap();
/// assert_eq!(client.get("/ping").send_blocking().text(), "pong");
/// restlight::test::check_routes().unwrap();
/// ```
pub mod test {
    pub use restlight_core::check_routes;
    pub use restlight_core::test::{MockClient, MockRequest, MockResponse};
}

/// Everything a service usually needs: `use restlight::prelude::*;`.
pub mod prelude {
    pub use crate::encoded;
    pub use crate::intercept::{Intercept, Interceptor};
    pub use crate::{
        compress, consumes, exception_handler, max_body, no_interceptors, produces, request_serializer,
        response_serializer, scheduled, serializer, skip_interceptor, tag, timeout,
    };
    pub use crate::{
        delete, get, head, options, patch, post, put, BodyStream, Created, Entity, Event, FailFast, HttpError,
        IntoResponse, Json, Multipart, MultipartFile, MultipartLimits, NoContent, RequestContext, RequestId,
        ResponseBuilder, Restlight, Scheduler, Sse, StatusCode, TraceContext,
    };
    pub use crate::{
        delete_mapping, get_mapping, patch_mapping, post_mapping, put_mapping, request_mapping, response_status,
    };
    pub use crate::{BeanParam, ExceptionMapper, Failure, RequestHead, Response};
    pub use crate::{EmptyStatus, WithStatus};
    pub use crate::{FromRequest, ResolveContext};
    pub use std::ops::ControlFlow;
}

#[doc(hidden)]
pub use restlight_core::__private;

// The README's examples compile as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
