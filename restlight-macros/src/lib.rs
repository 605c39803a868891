//! The attribute macros of [Restlight](https://docs.rs/restlight):
//! `#[restlight::path]` on an impl block of handlers, and `#[restlight::get]`
//! (`post`, `put`, `delete`, `patch`, `head`, `options`) on a free function.
//!
//! Use them through the `restlight` crate, which re-exports them and the
//! support code they expand to (`::restlight::__private`).
//!
//! # The annotation language
//!
//! The table of every attribute, where it may stand and what it means is
//! in the `restlight` crate docs (section *Annotations*); each macro below
//! also documents itself with an example. The macros check the rules at
//! compile time, from one table of helper attributes, so an attribute in
//! the wrong place is an error naming where it may stand.
//!
//! # Path templates
//!
//! `{name}` matches one segment, `{name: regex}` what the regex matches (it
//! may contain braces, `\d{3}`, and span segments, `{path: .*}`; it must
//! compile with the router's engine, `regex-lite`: no look-around, no
//! backreferences, no Unicode classes such as `\p{L}`, and `\d`, `\w`, `\s`
//! are ASCII); variables and text mix within a segment (`/v{major}.{minor}`).
//! The impl block's path and the method's are joined with one `/`, and a
//! trailing `/` is dropped.
//!
//! # Compile-time checks
//!
//! Every mistake is reported at once, at the token at fault, with a `help:`
//! line: malformed templates and regexes, duplicate variables, an attribute
//! written twice on one item (`#[timeout]`, `#[default_value]`, ...), a
//! `#[path_param]` naming no variable, two entities, unknown or misplaced
//! attributes, receivers other than `&self`, `#[scheduled(io)]` on a plain
//! `fn`, and parameter types that cannot be read from text (reported on the
//! type). Unknown attributes on a route parameter are errors; on a method or
//! impl block only near misses of Restlight's names are (`#[paht]`,
//! `#[produce]`), so `#[inline]` or `#[tracing::instrument]` keep working.
//!
//! # Debugging
//!
//! Set `RESTLIGHT_MACROS_DEBUG=1` while building to print every expansion to
//! stderr, or `RESTLIGHT_MACROS_DEBUG=UserResource` for those whose
//! description contains the text.

mod args;
mod bean;
mod ctxt;
mod entry;
mod expand;
mod helpers;
mod interceptor;
mod model;
mod openapi;
mod parse;
mod quantity;
mod settings;
mod slot;
mod spring;
mod suggest;
mod template;
mod ty;
mod validate;

use proc_macro::TokenStream;

use crate::model::HttpMethod;

/// Makes the methods of an impl block the routes of a resource under a base
/// path.
///
/// Methods with a method attribute (`#[get]`, `#[post]`, ...) become routes;
/// the resource is one instance shared by all requests, registered with
/// `.resource(value)` or built with `Default`.
///
/// ```
/// use restlight::prelude::*;
///
/// #[derive(Default)]
/// pub struct Greeter;
///
/// #[restlight::path("/greet")]
/// #[produces("text/plain")]
/// impl Greeter {
///     #[get("/{name}")]
///     async fn greet(&self, #[path_param] name: String,
///                    #[query_param] #[default_value("Hello")] salute: String) -> String {
///         format!("{salute}, {name}!")
///     }
/// }
///
/// let client = Restlight::new().mock().unwrap();
/// assert_eq!(client.get("/greet/Ada").send_blocking().text(), "Hello, Ada!");
/// assert_eq!(client.get("/greet/Ada?salute=Hi").send_blocking().text(), "Hi, Ada!");
/// ```
#[proc_macro_attribute]
pub fn path(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::resource(args.into(), item.into()).into()
}

/// Makes an impl block a sub-resource: a type that a sub-resource locator
/// returns, whose routes are mounted below the locator's path (JAX-RS
/// sub-resources, which have no `@Path` of their own).
///
/// A locator is a method with `#[path(..)]` and no method attribute; it
/// returns the sub-resource type `T`, `Option<T>` (`None` is 404) or
/// `Result<T, E>` (`E` answered as a handler's error is). The routes are
/// flattened into the router at startup: a request pays the locator's call
/// and the method's, no second routing. The type is not mounted by itself;
/// it needs no instance and no `Default`, the locator builds one per request.
///
/// ```
/// use restlight::prelude::*;
///
/// pub struct Item { shop: String, id: u32 }
///
/// #[restlight::sub_resource]
/// impl Item {
///     #[get]
///     async fn show(&self) -> String {
///         format!("item {} of {}", self.id, self.shop)
///     }
///
///     #[get("/price")]
///     async fn price(&self, #[query_param] #[default_value("EUR")] currency: String) -> String {
///         format!("{} {currency}", self.id * 10)
///     }
/// }
///
/// #[derive(Default)]
/// pub struct Shops;
///
/// #[restlight::path("/shops/{shop}")]
/// impl Shops {
///     #[path("/items/{id}")]
///     fn item(&self, #[path_param] shop: String, #[path_param] id: u32) -> Item {
///         Item { shop, id }
///     }
/// }
///
/// let client = Restlight::new().mock().unwrap();
/// assert_eq!(client.get("/shops/north/items/7").send_blocking().text(), "item 7 of north");
/// assert_eq!(client.get("/shops/north/items/7/price").send_blocking().text(), "70 EUR");
/// ```
#[proc_macro_attribute]
pub fn sub_resource(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::sub_resource(args.into(), item.into()).into()
}

/// Registers an interceptor for every application built in the binary,
/// with a `Default`-built instance, collected at link time like routes.
///
/// Arguments, all optional: `includes = ["/api/**"]` (default: every path;
/// `[]` is no path), `excludes = ["/api/health"]` (excludes win), `order = 10`
/// (lower runs first; default 0).
///
/// ```
/// use restlight::prelude::*;
///
/// #[derive(Default)]
/// struct Auth;
///
/// #[restlight::interceptor(includes = ["/api/**"], order = 10)]
/// impl Interceptor for Auth {
///     async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
///         if ctx.headers().contains_key("authorization") {
///             ControlFlow::Continue(())
///         } else {
///             ControlFlow::Break(ResponseBuilder::new(StatusCode::UNAUTHORIZED).body("sign in first").into_response())
///         }
///     }
/// }
///
/// #[restlight::get("/api/me")]
/// async fn me() -> &'static str {
///     "me"
/// }
///
/// let client = Restlight::new().mock().unwrap();
/// assert_eq!(client.get("/api/me").send_blocking().status(), 401);
/// assert_eq!(client.get("/api/me").header("authorization", "Bearer x").send_blocking().text(), "me");
/// ```
#[proc_macro_attribute]
pub fn interceptor(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::interceptor(args.into(), item.into()).into()
}

/// Derives `BeanParam` for a struct whose named fields each say where they
/// are read from, for `#[bean_param]` handler parameters (the `@BeanParam`
/// of JAX-RS).
///
/// ```
/// use restlight::prelude::*;
///
/// #[derive(BeanParam)]
/// pub struct Paging {
///     #[query_param] #[default_value("20")] limit: usize,
///     #[query_param] offset: Option<usize>,
///     #[header_param("X-Tenant")] tenant: Option<String>,
///     #[path_param] shop: String,
/// }
///
/// #[restlight::get("/shops/{shop}/items")]
/// async fn items(#[bean_param] page: Paging) -> String {
///     format!("{} items of {} from {:?} for {:?}", page.limit, page.shop, page.offset, page.tenant)
/// }
///
/// let client = Restlight::new().mock().unwrap();
/// let res = client.get("/shops/north/items?offset=40").header("X-Tenant", "acme").send_blocking();
/// assert_eq!(res.text(), r#"20 items of north from Some(40) for Some("acme")"#);
/// ```
#[proc_macro_derive(
    BeanParam,
    attributes(
        path_param,
        query_param,
        header_param,
        cookie_param,
        matrix_param,
        form_param,
        default_value,
        context,
        bean_param,
        resolve,
        request_attribute,
        request_part
    )
)]
pub fn derive_bean_param(item: TokenStream) -> TokenStream {
    bean::derive(item.into()).into()
}

/// Makes the methods of an impl block the routes of a Spring-style
/// controller: the Spring MVC front end, on the same engine as
/// `#[restlight::path]`.
///
/// Below it, `#[request_mapping("/base")]` gives the base path (and
/// `produces`, `consumes`, `method` inherited by the methods); methods
/// with `#[get_mapping]`, `#[post_mapping]`, `#[put_mapping]`,
/// `#[delete_mapping]`, `#[patch_mapping]` or `#[request_mapping]` are
/// routes; parameters say where they come from with `#[path_variable]`,
/// `#[request_param]`, `#[request_header]`, `#[cookie_value]`,
/// `#[matrix_variable]`, `#[request_body]` or `#[model_attribute]`. The
/// migration guide, `docs/migrating-from-spring.md`, has the full table.
///
/// ```
/// use restlight::prelude::*;
///
/// #[derive(Default)]
/// pub struct Greeter;
///
/// #[restlight::rest_controller]
/// #[request_mapping("/greet")]
/// impl Greeter {
///     #[get_mapping("/{name}")]
///     async fn greet(&self, #[path_variable] name: String,
///                    #[request_param(default_value = "Hello")] salute: String) -> String {
///         format!("{salute}, {name}!")
///     }
/// }
///
/// let client = Restlight::new().mock().unwrap();
/// assert_eq!(client.get("/greet/Ada").send_blocking().text(), "Hello, Ada!");
/// assert_eq!(client.get("/greet/Ada?salute=Hi").send_blocking().text(), "Hi, Ada!");
/// ```
#[proc_macro_attribute]
pub fn rest_controller(args: TokenStream, item: TokenStream) -> TokenStream {
    spring::entry(spring::Entry::RestController, args.into(), item.into()).into()
}

/// Registers the `#[exception_handler]` methods of an impl block as global
/// exception handlers (Spring's `@RestControllerAdvice`), tried after the
/// mappers registered on the application; the type is built with `Default`.
///
/// ```
/// use restlight::prelude::*;
///
/// #[derive(Debug)]
/// struct Gone;
/// impl std::fmt::Display for Gone {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("gone") }
/// }
/// impl std::error::Error for Gone {}
///
/// #[derive(Default)]
/// struct Errors;
///
/// #[restlight::rest_controller_advice]
/// impl Errors {
///     #[exception_handler(Gone)]
///     fn on_gone(&self) -> (StatusCode, &'static str) {
///         (StatusCode::GONE, "no more")
///     }
/// }
///
/// #[restlight::get_mapping("/old")]
/// async fn old() -> Result<String, Gone> { Err(Gone) }
///
/// let client = Restlight::new().mock().unwrap();
/// assert_eq!(client.get("/old").send_blocking().status(), 410);
/// ```
#[proc_macro_attribute]
pub fn rest_controller_advice(args: TokenStream, item: TokenStream) -> TokenStream {
    spring::advice(args.into(), item.into()).into()
}

macro_rules! mapping_macros {
    ($($name:ident => $verb:literal;)*) => {$(
        #[doc = concat!("Spring's `@", $verb, "`: a route of a `#[restlight::rest_controller]` impl block, or on a free function a route by itself.")]
        ///
        /// Inside a controller, write the bare attribute on a method; on a
        /// free function the path is required. Arguments: the path first or
        /// as `path =` / `value =`, then `produces = ..`, `consumes = ..`
        /// (`#[request_mapping]` also `method = GET` or `method = [GET, POST]`;
        /// without a method it serves every method).
        ///
        /// ```
        /// use restlight::prelude::*;
        ///
        #[doc = concat!("#[restlight::", stringify!($name), "(\"/hello/{name}\", produces = \"text/plain\")]")]
        /// async fn hello(#[path_variable] name: String) -> String {
        ///     format!("Hello {name}!")
        /// }
        ///
        /// let client = Restlight::new().mock().unwrap();
        /// assert_eq!(client.get("/hello/Ada").send_blocking().status(), 200);
        /// ```
        #[proc_macro_attribute]
        pub fn $name(args: TokenStream, item: TokenStream) -> TokenStream {
            spring::entry(spring::Entry::Mapping(stringify!($name)), args.into(), item.into()).into()
        }
    )*};
}

mapping_macros! {
    request_mapping => "RequestMapping";
    get_mapping => "GetMapping";
}

/// Spring's `@PostMapping`: a POST route of a `#[restlight::rest_controller]`
/// impl block, or on a free function a route by itself (see `get_mapping`).
#[proc_macro_attribute]
pub fn post_mapping(args: TokenStream, item: TokenStream) -> TokenStream {
    spring::entry(spring::Entry::Mapping("post_mapping"), args.into(), item.into()).into()
}

/// Spring's `@PutMapping`: a PUT route (see `get_mapping`).
#[proc_macro_attribute]
pub fn put_mapping(args: TokenStream, item: TokenStream) -> TokenStream {
    spring::entry(spring::Entry::Mapping("put_mapping"), args.into(), item.into()).into()
}

/// Spring's `@DeleteMapping`: a DELETE route (see `get_mapping`).
#[proc_macro_attribute]
pub fn delete_mapping(args: TokenStream, item: TokenStream) -> TokenStream {
    spring::entry(spring::Entry::Mapping("delete_mapping"), args.into(), item.into()).into()
}

/// Spring's `@PatchMapping`: a PATCH route (see `get_mapping`).
#[proc_macro_attribute]
pub fn patch_mapping(args: TokenStream, item: TokenStream) -> TokenStream {
    spring::entry(spring::Entry::Mapping("patch_mapping"), args.into(), item.into()).into()
}

/// `#[response_status(CREATED)]` is read by the Spring mappings and must be
/// written below them, on a controller method or a mapped function; this
/// macro only runs when it is misplaced and says so.
#[proc_macro_attribute]
pub fn response_status(_args: TokenStream, item: TokenStream) -> TokenStream {
    spring::misplaced("response_status", item.into()).into()
}

macro_rules! method_macros {
    ($($name:ident => $method:ident, $verb:literal;)*) => {$(
        #[doc = concat!("Makes a free function the handler of `", $verb, "` requests to a path.")]
        ///
        /// Inside a `#[restlight::path]` impl block, write the bare attribute on
        /// a method instead; the sub-path is optional there.
        ///
        /// ```
        /// use restlight::prelude::*;
        ///
        #[doc = concat!("#[restlight::", stringify!($name), "(\"/hello/{name}\")]")]
        /// #[produces("text/plain")]
        /// async fn hello(#[path_param] name: String) -> String {
        ///     format!("Hello {name}!")
        /// }
        ///
        /// let client = Restlight::new().mock().unwrap();
        #[doc = concat!("let res = client.request(restlight::http::Method::", $verb, ", \"/hello/Ada\").send_blocking();")]
        /// assert_eq!(res.status(), 200);
        /// ```
        #[proc_macro_attribute]
        pub fn $name(args: TokenStream, item: TokenStream) -> TokenStream {
            entry::route(HttpMethod::$method, args.into(), item.into()).into()
        }
    )*};
}

method_macros! {
    get => Get, "GET";
    post => Post, "POST";
    put => Put, "PUT";
    delete => Delete, "DELETE";
    patch => Patch, "PATCH";
    head => Head, "HEAD";
    options => Options, "OPTIONS";
}

macro_rules! helper_macros {
    ($($name:ident => $example:literal;)*) => {$(
        #[doc = concat!("`#[", stringify!($name), "(..)]` is read by `#[restlight::path]` or `#[restlight::get]` (and the other methods) and must be written below them.")]
        ///
        /// This attribute macro only runs when it is misplaced (above the route
        /// attribute, or on an item without one) and reports where it belongs.
        ///
        /// ```
        /// use restlight::prelude::*;
        ///
        #[doc = $example]
        /// ```
        #[proc_macro_attribute]
        pub fn $name(_args: TokenStream, item: TokenStream) -> TokenStream {
            entry::misplaced(stringify!($name), item.into()).into()
        }
    )*};
}

helper_macros! {
    produces => r#"#[restlight::get("/hello")]
#[produces("text/plain")]
async fn hello() -> &'static str { "hello" }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/hello").send_blocking().header("content-type"), Some("text/plain"));"#;
    consumes => r#"#[restlight::post("/echo")]
#[consumes("text/plain")]
async fn echo(body: String) -> String { body }

let client = Restlight::new().mock().unwrap();
let res = client.post("/echo").header("content-type", "application/json").body("{}").send_blocking();
assert_eq!(res.status(), 415);"#;
    scheduled => r#"#[restlight::get("/report")]
#[scheduled(biz)]
fn report() -> &'static str { "done" }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/report").send_blocking().text(), "done");"#;
    max_body => r#"#[restlight::post("/upload")]
#[max_body("4B")]
async fn upload(body: String) -> String { body }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.post("/upload").body("abc").send_blocking().text(), "abc");
assert_eq!(client.post("/upload").body("abcdef").send_blocking().status(), 413);"#;
    timeout => r#"#[restlight::get("/slow")]
#[timeout("2s")]
async fn slow() -> &'static str { "done" }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/slow").send_blocking().text(), "done");"#;
    no_interceptors => r#"#[restlight::get("/health")]
#[no_interceptors]
async fn health() -> &'static str { "up" }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/health").send_blocking().text(), "up");"#;
    skip_interceptor => r#"#[derive(Default)]
struct Audit;
impl Interceptor for Audit {}

#[restlight::get("/health")]
#[skip_interceptor(Audit)]
async fn health() -> &'static str { "up" }

let client = Restlight::new().interceptor(Audit).mock().unwrap();
assert_eq!(client.get("/health").send_blocking().text(), "up");"#;
    exception_handler => r#"#[derive(Debug)]
struct Missing;
impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("missing") }
}
impl std::error::Error for Missing {}

#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[get]
    async fn list(&self) -> Result<String, Missing> { Err(Missing) }

    #[exception_handler]
    fn on_missing(&self, _e: &Missing) -> (StatusCode, &'static str) {
        (StatusCode::NOT_FOUND, "no notes")
    }
}

let client = Restlight::new().mock().unwrap();
let res = client.get("/notes").send_blocking();
assert_eq!((res.status(), res.text()), (StatusCode::NOT_FOUND, "no notes".to_owned()));"#;
    serializer => r#"#[restlight::get("/hello")]
#[serializer("json")]
async fn hello() -> Vec<u32> { vec![1, 2] }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/hello").send_blocking().text(), "[1,2]");"#;
    request_serializer => r#"#[restlight::post("/sum")]
#[request_serializer("json")]
async fn sum(numbers: Vec<u32>) -> String { numbers.iter().sum::<u32>().to_string() }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.post("/sum").body("[1,2]").send_blocking().text(), "3");"#;
    response_serializer => r#"#[restlight::get("/hello")]
#[response_serializer("json")]
async fn hello() -> Vec<u32> { vec![1, 2] }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/hello").send_blocking().text(), "[1,2]");"#;
    compress => r#"#[restlight::get("/hello")]
#[compress(false)]
async fn hello() -> &'static str { "hello" }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/hello").send_blocking().text(), "hello");"#;
    encoded => r#"#[restlight::get("/files/{name}")]
#[encoded]
async fn file(#[path_param] name: String) -> String { name }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/files/a%20b").send_blocking().text(), "a%20b");"#;
    tag => r#"#[restlight::get("/hello")]
#[tag("greetings")]
async fn hello() -> &'static str { "hello" }

let client = Restlight::new().mock().unwrap();
assert_eq!(client.get("/hello").send_blocking().text(), "hello");"#;
}
