//! The attribute macros of [Restlight](https://docs.rs/restlight):
//! `#[restlight::path]` on an impl block of handlers, and `#[restlight::get]`
//! (`post`, `put`, `delete`, `patch`, `head`, `options`) on a free function.
//!
//! Use them through the `restlight` crate, which re-exports them and the
//! support code they expand to (`::restlight::__private`).
//!
//! # The annotation language
//!
//! On the impl block, below `#[restlight::path("/base")]`:
//! `#[produces("a/b", ..)]`, `#[consumes("a/b", ..)]`, `#[scheduled(io)]`,
//! `#[scheduled(biz)]`, `#[scheduled("name")]`, `#[max_body("16MiB")]` (the
//! largest request entity, in bytes or with a unit: B, KB, KiB, MB, MiB, GB,
//! GiB; default: the application's limit, 4 MiB), `#[timeout("2s")]` (504
//! when the handler has not answered in time, which is then cancelled; in
//! milliseconds or with a unit: ms, s, m; default: no limit).
//!
//! On a method: one of `#[get] #[post] #[put] #[delete] #[patch] #[head]
//! #[options]`, optionally with a sub-path (`#[get("/{id}")]`) or with
//! `#[path("/{id}")]`; then `#[produces]`, `#[consumes]`, `#[scheduled]`, `#[max_body]`, `#[timeout]`,
//! which override the impl block's; `#[serializer("msgpack")]` (a codec's
//! format name or media type, for the entity and the response, over
//! Content-Type and `Accept`), `#[request_serializer("..")]` and
//! `#[response_serializer("..")]` for one side, and `#[compress(false)]`,
//! all of which the impl block may also carry. Methods without a method attribute are
//! left alone. A handler is an `async fn` or a plain `fn` (run on the business
//! executor), taking `&self` or no receiver.
//!
//! On a parameter: `#[path_param]`, `#[query_param]`, `#[header_param]`,
//! `#[cookie_param]`, `#[matrix_param]`, `#[form_param]`, each with an
//! optional name (default: the Rust identifier, for a header with `-` for
//! `_`: `accept_language` reads `accept-language`); `#[default_value("..")]`;
//! `#[context]` for the request (`&RequestContext`, `&HeaderMap`, `&Uri`,
//! `&Method`) or a bean (`&T`, `Arc<T>`, or `T: Clone`). `Option<T>` makes a
//! value optional and `Vec<T>` reads every value. The one parameter without
//! an attribute is the entity, decoded from the body; it may carry
//! `#[request_serializer("..")]`.
//!
//! # Path templates
//!
//! `{name}` matches one segment, `{name: regex}` what the regex matches (it
//! may contain braces, `\d{3}`, and span segments, `{path: .*}`); variables and
//! text mix within a segment (`/v{major}.{minor}`). The impl block's path and
//! the method's are joined with one `/`, and a trailing `/` is dropped.
//!
//! # Compile-time checks
//!
//! Every mistake is reported at once, at the token at fault, with a `help:`
//! line: malformed templates and regexes, duplicate variables, a
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

mod attr;
mod bean;
mod ctxt;
mod entry;
mod expand;
mod interceptor;
mod model;
mod parse;
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
/// ```ignore
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
/// ```
#[proc_macro_attribute]
pub fn path(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::resource(args.into(), item.into()).into()
}

/// Registers an interceptor for every application built in the binary,
/// with a `Default`-built instance, collected at link time like routes.
///
/// Arguments, all optional: `includes = ["/api/**"]` (default: every path;
/// `[]` is no path), `excludes = ["/api/health"]` (excludes win), `order = 10`
/// (lower runs first; default 0).
///
/// ```ignore
/// use restlight::prelude::*;
///
/// #[derive(Default)]
/// struct Auth;
///
/// #[restlight::interceptor(includes = ["/api/**"], order = 10)]
/// impl Interceptor for Auth {
///     async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
///         ControlFlow::Continue(())
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn interceptor(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::interceptor(args.into(), item.into()).into()
}

/// Derives `BeanParam` for a struct whose named fields each say where they
/// are read from, for `#[bean_param]` handler parameters (the `@BeanParam`
/// of JAX-RS).
///
/// ```ignore
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
///     format!("{} items of {} from {:?}", page.limit, page.shop, page.offset)
/// }
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
        bean_param
    )
)]
pub fn derive_bean_param(item: TokenStream) -> TokenStream {
    bean::derive(item.into()).into()
}

macro_rules! method_macros {
    ($($name:ident => $method:ident, $verb:literal;)*) => {$(
        #[doc = concat!("Makes a free function the handler of `", $verb, "` requests to a path.")]
        ///
        /// Inside a `#[restlight::path]` impl block, write the bare attribute on
        /// a method instead; the sub-path is optional there.
        ///
        /// ```ignore
        /// use restlight::prelude::*;
        ///
        #[doc = concat!("#[restlight::", stringify!($name), "(\"/hello/{name}\")]")]
        /// #[produces("text/plain")]
        /// async fn hello(#[path_param] name: String) -> String {
        ///     format!("Hello {name}!")
        /// }
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
    ($($name:ident),*) => {$(
        #[doc = concat!("`#[", stringify!($name), "(..)]` is read by `#[restlight::path]` or `#[restlight::get]` (and the other methods) and must be written below them.")]
        ///
        /// This attribute macro only runs when it is misplaced (above the route
        /// attribute, or on an item without one) and reports where it belongs.
        ///
        /// ```ignore
        /// #[restlight::get("/hello")]
        #[doc = concat!("#[", stringify!($name), "(..)]")]
        /// async fn hello() -> &'static str { "hello" }
        /// ```
        #[proc_macro_attribute]
        pub fn $name(_args: TokenStream, item: TokenStream) -> TokenStream {
            entry::misplaced(stringify!($name), item.into()).into()
        }
    )*};
}

helper_macros!(
    produces,
    consumes,
    scheduled,
    max_body,
    timeout,
    no_interceptors,
    skip_interceptor,
    exception_handler,
    serializer,
    request_serializer,
    response_serializer,
    compress
);
