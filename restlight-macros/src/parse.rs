//! From the user's item to the model. Every helper attribute is read and
//! removed from the item (so the item can be emitted as is), and every
//! syntax mistake is recorded in the context; the semantic checks are
//! `validate`'s.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned as _;
use syn::{Attribute, FnArg, ImplItem, ItemFn, ItemImpl, LitStr, Pat, ReturnType, Signature, Type};

use crate::attr::{self, Helper, METHOD_HELPERS};
use crate::ctxt::{with_help, Ctxt, Spans};
use crate::model::{ExceptionHandler, HttpMethod, Owner, Param, Receiver, Resource, Route, Settings, Source, Spanned};
use crate::template::Template;
use crate::ty;

/// Where a list of attributes stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Impl,
    Method,
    FreeFn,
}

impl Place {
    fn describe(self) -> &'static str {
        match self {
            Self::Impl => "a `#[restlight::path]` impl block",
            Self::Method => "a method",
            Self::FreeFn => "a route function",
        }
    }

    fn valid(self) -> &'static [&'static str] {
        use std::sync::LazyLock;
        // Derived from the method's list: an impl block takes the settings
        // it shares with its methods, a route function all but
        // `#[exception_handler]`, which only stands on a resource's method.
        static IMPL: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
            METHOD_HELPERS
                .iter()
                .copied()
                .filter(|h| HttpMethod::from_attr_name(h).is_none() && !matches!(*h, "path" | "exception_handler"))
                .collect()
        });
        static FREE_FN: LazyLock<Vec<&'static str>> =
            LazyLock::new(|| METHOD_HELPERS.iter().copied().filter(|h| *h != "exception_handler").collect());
        match self {
            Self::Impl => IMPL.as_slice(),
            Self::Method => METHOD_HELPERS,
            Self::FreeFn => FREE_FN.as_slice(),
        }
    }
}

/// The helpers read from the attributes of an impl block, method or function.
#[derive(Default)]
struct ItemAttrs {
    methods: Vec<Spanned<HttpMethod>>,
    paths: Vec<Template>,
    /// Spans of `#[path]` attributes (also those that did not parse).
    path_attrs: Vec<Spans>,
    bad_path: bool,
    settings: Settings,
    /// Where `#[exception_handler]` was written, if it was.
    exception_handler: Option<Spans>,
}

impl ItemAttrs {
    fn has_settings(&self) -> Option<Spans> {
        let s = &self.settings;
        s.produces
            .first()
            .map(|x| x.span)
            .or(s.consumes.first().map(|x| x.span))
            .or(s.scheduled.first().map(|x| x.span))
            .or(s.max_body.first().map(|x| x.span))
            .or(s.timeout.first().map(|x| x.span))
            .or(s.interceptors.none)
            .or(s.interceptors.skip.first().map(Spans::of))
            .or(s.serializer.first().map(|x| x.span))
            .or(s.request_serializer.first().map(|x| x.span))
            .or(s.response_serializer.first().map(|x| x.span))
            .or(s.compress.first().map(|x| x.span))
    }

    fn path(&mut self, cx: &mut Ctxt, lit: &LitStr) {
        match Template::parse(cx, lit) {
            Some(t) => self.paths.push(t),
            None => self.bad_path = true,
        }
    }
}

/// Reads `#[restlight::path(args)] impl ..`.
pub(crate) fn resource(cx: &mut Ctxt, args: TokenStream, item: &mut ItemImpl) -> Resource {
    let base = match syn::parse2::<LitStr>(args.clone()) {
        Ok(lit) => Template::parse(cx, &lit),
        Err(_) => {
            let span = if args.is_empty() { Span::call_site() } else { args.span() };
            cx.error(
                span,
                with_help(
                    "`#[restlight::path]` needs the base path of the resource as a string literal",
                    "write `#[restlight::path(\"/users\")]`; use `\"/\"` for the root",
                ),
            );
            None
        }
    };
    if let Some((_, trait_path, _)) = &item.trait_ {
        cx.error(
            Spans::of(trait_path),
            with_help(
                "`#[restlight::path]` goes on an inherent impl block, not on a trait impl",
                "move the handlers into `impl Type { .. }`",
            ),
        );
    }
    let generics = (!item.generics.params.is_empty()).then(|| Spans::of(&item.generics.params));
    let attrs = item_attrs(cx, &mut item.attrs, Place::Impl, ItemAttrs::default());
    let mut routes = Vec::new();
    let mut handlers = Vec::new();
    for impl_item in &mut item.items {
        if let ImplItem::Fn(f) = impl_item {
            let cfgs = cfgs(&f.attrs);
            match method_route(cx, &mut f.attrs, &mut f.sig) {
                Some(Method::Route(mut route)) => {
                    route.cfgs = cfgs;
                    routes.push(*route);
                }
                Some(Method::Handler(mut handler)) => {
                    handler.cfgs = cfgs;
                    handlers.push(handler);
                }
                None => {}
            }
        }
    }
    Resource {
        self_ty: (*item.self_ty).clone(),
        name: ty::type_string(&item.self_ty),
        generics,
        base,
        settings: attrs.settings,
        routes,
        handlers,
    }
}

/// What a method of a resource impl block is to the macro.
enum Method {
    Route(Box<Route>),
    Handler(ExceptionHandler),
}

/// Reads a method of a `#[restlight::path]` impl block: a route when it has
/// a method attribute.
fn method_route(cx: &mut Ctxt, attrs: &mut Vec<Attribute>, sig: &mut Signature) -> Option<Method> {
    let read = item_attrs(cx, attrs, Place::Method, ItemAttrs::default());
    if read.exception_handler.is_some() {
        return Some(Method::Handler(exception_handler(&read, sig)));
    }
    if read.methods.is_empty() {
        if let Some(&span) = read.path_attrs.first() {
            cx.error(
                span,
                with_help(
                    "`#[path]` without a method attribute: sub-resource locators are not supported",
                    "add `#[get]`, `#[post]`, `#[put]`, `#[delete]`, `#[patch]`, `#[head]` or `#[options]` to make this method a route",
                ),
            );
        } else if let Some(span) = read.has_settings() {
            cx.error(
                span,
                with_help(
                    "this method has no method attribute, so it is not a route",
                    "add `#[get]`, `#[post]`, ... to make it a route, or remove the attribute",
                ),
            );
        }
        not_a_route_params(cx, sig);
        return None;
    }
    Some(Method::Route(Box::new(route(cx, Owner::Resource, read, sig))))
}

/// Reads an `#[exception_handler]` method; `validate` judges it.
fn exception_handler(read: &ItemAttrs, sig: &Signature) -> ExceptionHandler {
    let mut receiver = Receiver::None;
    let mut params = Vec::new();
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => receiver = receiver_kind(r),
            FnArg::Typed(pt) => {
                let error_ty = match &*pt.ty {
                    Type::Reference(r) if r.mutability.is_none() => Some((*r.elem).clone()),
                    _ => None,
                };
                params.push((error_ty, Spans::of(pt)));
            }
        }
    }
    let mut route_attrs: Vec<Spans> = read.methods.iter().map(|m| m.span).collect();
    route_attrs.extend(read.path_attrs.iter().copied());
    ExceptionHandler {
        ident: sig.ident.clone(),
        receiver,
        is_async: sig.asyncness.is_some(),
        fn_span: sig.fn_token.span,
        params,
        route_attrs,
        cfgs: Vec::new(),
    }
}

/// Reads `#[restlight::get(args)] fn ..` (or another method).
pub(crate) fn free_route(cx: &mut Ctxt, method: HttpMethod, args: TokenStream, item: &mut ItemFn) -> Route {
    let mut first = ItemAttrs::default();
    first.methods.push(Spanned::new(method, Span::call_site()));
    if !args.is_empty() {
        match syn::parse2::<LitStr>(args.clone()) {
            Ok(lit) => first.path(cx, &lit),
            Err(_) => {
                let name = method.attr_name();
                cx.error(
                    args.span(),
                    with_help(
                        format!("`#[restlight::{name}]` takes the path as one string literal"),
                        format!("write `#[restlight::{name}(\"/hello\")]`"),
                    ),
                );
                first.bad_path = true;
            }
        }
    }
    let cfgs = cfgs(&item.attrs);
    let read = item_attrs(cx, &mut item.attrs, Place::FreeFn, first);
    let mut route = route(cx, Owner::Free, read, &mut item.sig);
    route.cfgs = cfgs;
    route
}

/// The `#[cfg(..)]` attributes among `attrs`.
fn cfgs(attrs: &[Attribute]) -> Vec<Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("cfg")).cloned().collect()
}

/// Reads and removes the helpers of an impl block, method or function.
fn item_attrs(cx: &mut Ctxt, attrs: &mut Vec<Attribute>, place: Place, mut out: ItemAttrs) -> ItemAttrs {
    attrs.retain(|a| {
        let Some(helper) = attr::helper(a) else {
            if let Some(e) = attr::near_miss_on_item(a, place.valid(), place.describe()) {
                cx.push(e);
                return false;
            }
            return true;
        };
        match helper {
            Helper::Method(m) if place != Place::Impl => {
                out.methods.push(Spanned::new(m, Spans::of(a)));
                if let Some(lit) = cx.ok(attr::optional_lit(a, "the route's path")).flatten() {
                    out.path(cx, &lit);
                }
            }
            Helper::Path if place != Place::Impl => {
                out.path_attrs.push(Spans::of(a));
                match cx.ok(attr::required_lit(a, "the route's path", "#[path(\"/{id}\")]")) {
                    Some(lit) => out.path(cx, &lit),
                    None => out.bad_path = true,
                }
            }
            Helper::Produces => out.settings.produces.extend(cx.ok(attr::media_list(a))),
            Helper::Consumes => out.settings.consumes.extend(cx.ok(attr::media_list(a))),
            Helper::Scheduled => out.settings.scheduled.extend(cx.ok(attr::scheduler(a))),
            Helper::MaxBody => out.settings.max_body.extend(cx.ok(attr::max_body(a))),
            Helper::Timeout => out.settings.timeout.extend(cx.ok(attr::timeout(a))),
            Helper::NoInterceptors => {
                cx.ok(attr::no_args(a));
                out.settings.interceptors.none.get_or_insert(Spans::of(a));
            }
            Helper::SkipInterceptor => {
                out.settings.interceptors.skip.extend(cx.ok(attr::type_list(a)).into_iter().flatten());
            }
            Helper::ExceptionHandler if place == Place::Method => {
                cx.ok(attr::no_args(a));
                out.exception_handler.get_or_insert(Spans::of(a));
            }
            Helper::ExceptionHandler => cx.error(
                Spans::of(a),
                with_help(
                    format!("`#[exception_handler]` goes on a method of a `#[restlight::path]` impl block, not on {}", place.describe()),
                    "write it on a method `fn on_error(&self, e: &MyError) -> impl IntoResponse` inside the resource's impl block, or register an `ExceptionMapper` on the application",
                ),
            ),
            Helper::Serializer => out.settings.serializer.extend(cx.ok(attr::codec_name(a))),
            Helper::RequestSerializer => out.settings.request_serializer.extend(cx.ok(attr::codec_name(a))),
            Helper::ResponseSerializer => out.settings.response_serializer.extend(cx.ok(attr::codec_name(a))),
            Helper::Compress => out.settings.compress.extend(cx.ok(attr::compress(a))),
            Helper::Method(m) => cx.error(
                Spans::of(a),
                with_help(
                    format!("`#[{}]` belongs on a method inside the impl block", m.attr_name()),
                    "the impl block takes `#[produces]`, `#[consumes]` and `#[scheduled]`; put the method attribute on each route method",
                ),
            ),
            Helper::Path => cx.error(
                Spans::of(a),
                with_help(
                    "the impl block already has `#[restlight::path]`",
                    "give the impl block one base path; sub-paths go on the methods",
                ),
            ),
            param => cx.error(
                Spans::of(a),
                with_help(
                    format!("`#[{}]` belongs on a parameter, not on {}", param.name(), place.describe()),
                    format!("write it before the parameter: `#[{}] name: Type`", param.name()),
                ),
            ),
        }
        false
    });
    out
}

/// A method that is not a route keeps its parameters, but ours on them are
/// a mistake: it probably lacks its method attribute.
fn not_a_route_params(cx: &mut Ctxt, sig: &mut Signature) {
    for arg in &mut sig.inputs {
        if let FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| match attr::helper(a) {
                Some(h) if h.is_param_level() => {
                    cx.error(
                        Spans::of(a),
                        with_help(
                            format!("`#[{}]` on a parameter of a method that is not a route", h.name()),
                            "add `#[get]`, `#[post]`, ... to the method to make it a route",
                        ),
                    );
                    false
                }
                _ => true,
            });
        }
    }
}

fn route(cx: &mut Ctxt, owner: Owner, read: ItemAttrs, sig: &mut Signature) -> Route {
    let generics = sig.generics.params.iter().find(|p| !matches!(p, syn::GenericParam::Lifetime(_))).map(Spans::of);
    if let Some(unsafety) = &sig.unsafety {
        cx.error(
            unsafety.span,
            with_help(
                "a route handler cannot be an `unsafe fn`",
                "make the function safe and put the `unsafe` block inside it",
            ),
        );
    }
    let mut receiver = Receiver::None;
    let mut params = Vec::new();
    for arg in &mut sig.inputs {
        match arg {
            FnArg::Receiver(r) => {
                receiver = receiver_kind(r);
                r.attrs.retain(|a| {
                    let ours = attr::helper(a).is_some();
                    if ours {
                        cx.error(Spans::of(a), with_help("the receiver takes no Restlight attribute", "remove it"));
                    }
                    !ours
                });
            }
            FnArg::Typed(pt) => {
                let index = params.len();
                params.push(param(cx, index, pt));
            }
        }
    }
    Route {
        owner,
        methods: read.methods,
        paths: read.paths,
        bad_path: read.bad_path,
        settings: read.settings,
        cfgs: Vec::new(),
        ident: sig.ident.clone(),
        is_async: sig.asyncness.is_some(),
        fn_span: sig.fn_token.span,
        receiver,
        generics,
        params,
        output: match &sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, t) => Some((**t).clone()),
        },
    }
}

fn receiver_kind(r: &syn::Receiver) -> Receiver {
    let what = if r.reference.is_some() {
        if r.mutability.is_none() {
            return Receiver::Ref;
        }
        "`&mut self`".to_owned()
    } else if r.colon_token.is_none() {
        "`self` by value".to_owned()
    } else {
        match &*r.ty {
            Type::Reference(t) if t.mutability.is_none() && is_self(&t.elem) => return Receiver::Ref,
            Type::Reference(t) if is_self(&t.elem) => "`&mut self`".to_owned(),
            ty if is_self(ty) => "`self` by value".to_owned(),
            ty => format!("`self: {}`", ty::type_string(ty)),
        }
    };
    Receiver::Invalid { span: Spans::of(r), what }
}

fn is_self(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self"))
}

fn param(cx: &mut Ctxt, index: usize, pt: &mut syn::PatType) -> Param {
    let mut out = Param {
        index,
        ident: match &*pt.pat {
            Pat::Ident(pi) if pi.subpat.is_none() => Some(pi.ident.clone()),
            _ => None,
        },
        sources: Vec::new(),
        explicit_name: None,
        defaults: Vec::new(),
        valid: Vec::new(),
        request_serializer: Vec::new(),
        ty: (*pt.ty).clone(),
        span: Spans::of(pt),
    };
    pt.attrs.retain(|a| {
        let Some(helper) = attr::helper(a) else {
            if let Some(e) = attr::unknown_on_param(a) {
                cx.push(e);
                return false;
            }
            return true;
        };
        match helper {
            Helper::Source(Source::Context) => {
                out.sources.push(Spanned::new(Source::Context, Spans::of(a)));
                cx.ok(attr::no_args(a));
            }
            Helper::Source(source) => {
                out.sources.push(Spanned::new(source, Spans::of(a)));
                if let Some(lit) = explicit_name(cx, a, source, "the Rust identifier") {
                    out.explicit_name.get_or_insert(lit);
                }
            }
            Helper::DefaultValue => {
                out.defaults.extend(cx.ok(attr::required_lit(
                    a,
                    "the value used when absent",
                    "#[default_value(\"20\")]",
                )));
            }
            Helper::Valid => {
                cx.ok(attr::no_args(a));
                out.valid.push(Spans::of(a));
            }
            Helper::RequestSerializer => out.request_serializer.extend(cx.ok(attr::codec_name(a))),
            Helper::BeanParam => {
                out.sources.push(Spanned::new(Source::Bean, Spans::of(a)));
                cx.ok(attr::no_args(a));
            }
            other => cx.error(
                Spans::of(a),
                with_help(
                    format!("`#[{}]` belongs on the method, not on a parameter", other.name()),
                    format!("the attributes valid on a parameter are {}", attr::list(attr::PARAM_HELPERS)),
                ),
            ),
        }
        false
    });
    out
}

/// The name given in a source attribute (`#[query_param("limit")]`), if
/// any; an empty one is an error saying how to use `fallback` instead.
pub(crate) fn explicit_name(cx: &mut Ctxt, a: &syn::Attribute, source: Source, fallback: &str) -> Option<LitStr> {
    let lit = cx.ok(attr::optional_lit(a, "the parameter's name")).flatten()?;
    if lit.value().is_empty() {
        cx.error(
            lit.span(),
            with_help(
                "a parameter name cannot be empty",
                format!("write `#[{}]` to use {fallback}", source.attr_name()),
            ),
        );
    }
    Some(lit)
}
