//! The semantic checks: everything that parsed but cannot work. Each rule
//! reports at the user's token with a `help:` line, and every rule runs, so
//! one compilation shows every mistake.

use std::collections::HashMap;

use crate::ctxt::{with_help, Ctxt, Spans};
use crate::model::{ExceptionHandler, Locator, Owner, Param, Receiver, Resource, Route, Scheduler, Source};
use crate::settings::Origin;
use crate::template::{self, Template, Var};
use crate::ty::{self, ContextShape};

/// Checks an impl block and its routes.
pub(crate) fn resource(cx: &mut Ctxt, res: &Resource) {
    if let Some(span) = res.generics {
        cx.error(
            span,
            with_help(
                "a `#[restlight::path]` impl block cannot be generic",
                "a resource is one shared instance: implement the handlers on a concrete type",
            ),
        );
    }
    if let Some(base) = &res.base {
        regexes(cx, base);
        duplicates(cx, &[base]);
    }
    for route in &res.routes {
        self::route(cx, route, Some(res));
    }
    for handler in &res.handlers {
        exception_handler(cx, handler);
    }
    for loc in &res.locators {
        self::route(cx, &loc.route, Some(res));
        locator(cx, loc);
    }
}

/// A sub-resource locator: returns a sub-resource type, and reads its
/// parameters from the path, query, headers, cookies, matrix or context
/// only (the entity belongs to the sub-resource's method).
fn locator(cx: &mut Ctxt, loc: &Locator) {
    let route = &loc.route;
    match &loc.returns {
        None => cx.error(
            Spans { start: route.fn_span, end: route.ident.span() },
            with_help(
                format!("the sub-resource locator `{}` returns nothing", route.ident),
                "a method with `#[path]` and no method attribute is a locator: return the sub-resource, `-> ItemResource` (a type whose impl block is `#[restlight::sub_resource]`), or add `#[get]`, `#[post]`, ... to make it a route",
            ),
        ),
        Some(ret) => {
            if let Some(span) = dynamic(&ret.target) {
                cx.error(
                    span,
                    with_help(
                        "a sub-resource locator cannot return a dynamically chosen resource",
                        "the locator's routes are flattened into the router at startup, so the type must be known at compile time: return a concrete type whose impl block is `#[restlight::sub_resource]` (one locator per type)",
                    ),
                );
            }
        }
    }
    for p in &route.params {
        let refused = match p.source() {
            None => Some("an entity"),
            Some(Source::Form) => Some("`#[form_param]`"),
            Some(Source::Resolve) => Some("`#[resolve]`"),
            Some(Source::Attribute) => Some("`#[request_attribute]`"),
            Some(Source::Part) => Some("`#[request_part]`"),
            Some(_) => None,
        };
        if let Some(what) = refused {
            cx.error(
                p.span,
                with_help(
                    format!("{what} is not supported on a sub-resource locator"),
                    "a locator reads `#[path_param]`, `#[query_param]`, `#[header_param]`, `#[cookie_param]`, `#[matrix_param]`, `#[bean_param]` or `#[context]`; read the body in the sub-resource's method",
                ),
            );
        }
    }
}

/// The span of a `Box<dyn ..>`, `dyn ..` or `impl ..` type.
fn dynamic(ty: &syn::Type) -> Option<Spans> {
    match ty {
        syn::Type::TraitObject(_) | syn::Type::ImplTrait(_) => Some(Spans::of(ty)),
        syn::Type::Paren(p) => dynamic(&p.elem),
        syn::Type::Group(g) => dynamic(&g.elem),
        _ => ty::box_of(ty).and_then(dynamic).map(|_| Spans::of(ty)),
    }
}

/// `fn on_x(&self, e: &E) -> impl IntoResponse`, a plain `fn`, no route attribute.
fn exception_handler(cx: &mut Ctxt, h: &ExceptionHandler) {
    const SHAPE: &str = "an exception handler is `fn name(&self, error: &MyError) -> impl IntoResponse`";
    for span in &h.route_attrs {
        cx.error(
            *span,
            with_help(
                format!("`{}` is an `#[exception_handler]`, so it cannot be a route too", h.ident),
                "write the route and the exception handler as two methods",
            ),
        );
    }
    if let Receiver::Invalid { span, what } = &h.receiver {
        cx.error(*span, with_help(format!("an exception handler takes `&self` or no receiver, not {what}"), SHAPE));
    }
    if h.is_async {
        cx.error(
            h.fn_span,
            with_help(
                "an exception handler cannot be `async`",
                format!("{SHAPE}; it builds the response, it does not wait"),
            ),
        );
    }
    match h.params.as_slice() {
        [(Some(_), _)] => {}
        // Spring's `#[exception_handler(A, B)]` names the types itself.
        [] | [(None, _)] if !h.types.is_empty() => {}
        [(None, span)] => cx.error(
            *span,
            with_help("the exception handler's parameter must be a shared reference to the error type", SHAPE),
        ),
        [] => cx.error(
            Spans { start: h.fn_span, end: h.ident.span() },
            with_help(format!("`{}` names no error type: it needs one parameter `&MyError`", h.ident), SHAPE),
        ),
        [_, rest @ ..] => {
            for (_, span) in rest {
                cx.error(*span, with_help("an exception handler takes exactly one parameter, the error", SHAPE));
            }
        }
    }
}

/// Checks one route; `res` is its impl block, `None` for a free function.
pub(crate) fn route(cx: &mut Ctxt, route: &Route, res: Option<&Resource>) {
    if route.owner == Owner::Free && route.path.is_none() && !route.bad_path {
        let name = route.method.value.attr_name();
        cx.error(
            route.method.span,
            with_help(
                format!("`#[restlight::{name}]` on a function needs the route's path"),
                format!("write `#[restlight::{name}(\"/hello\")]`"),
            ),
        );
    }
    receiver(cx, route);
    if let Some(span) = route.generics {
        cx.error(
            span,
            with_help(
                "a route handler cannot be generic",
                "the framework calls it with concrete types: remove the type parameters",
            ),
        );
    }
    scheduled_io(cx, route);
    if let Some(path) = &route.path {
        regexes(cx, path);
    }

    let full: Option<Vec<&Template>> = match res {
        Some(r) if r.base.is_none() => None,
        _ if route.bad_path => None,
        Some(r) => Some(r.base.iter().chain(&route.path).collect()),
        None => Some(route.path.iter().collect()),
    };
    if let Some(full) = &full {
        if full.len() > 1 {
            duplicates(cx, full);
        }
    }
    let mut entity: Option<&Param> = None;
    for p in &route.params {
        param(cx, p, full.as_deref());
        if !p.source.is_set() {
            match entity {
                None => entity = Some(p),
                Some(first) => cx.error(
                    p.span,
                    with_help(
                        format!(
                            "a second entity parameter: `{}` is already the entity of `{}`",
                            describe(first),
                            route.ident
                        ),
                        "only one parameter is read from the body; give the others a source: `#[query_param]`, `#[header_param]`, `#[path_param]`, `#[form_param]`, ... or `#[context]`",
                    ),
                ),
            }
        }
    }
    parts_and_body(cx, route);
}

/// `#[request_part]`s read the body as a multipart form: no entity and no
/// `#[form_param]` can read it too.
fn parts_and_body(cx: &mut Ctxt, route: &Route) {
    let Some(part) = route.params.iter().find(|p| p.source() == Some(Source::Part)) else { return };
    for p in &route.params {
        let what = match p.source() {
            None => format!("the entity `{}`", describe(p)),
            Some(Source::Form) => format!("the `#[form_param]` `{}`", describe(p)),
            Some(_) => continue,
        };
        cx.error(
            p.span,
            with_help(
                format!(
                    "{what} reads the body, which the `#[request_part]` `{}` reads as a multipart form",
                    describe(part)
                ),
                "read every value of a multipart body with `#[request_part(\"name\")]`, or take the whole body as one `Multipart` entity",
            ),
        );
    }
}

fn describe(p: &Param) -> String {
    match &p.ident {
        Some(i) => i.to_string(),
        None => format!("parameter {}", p.index + 1),
    }
}

fn receiver(cx: &mut Ctxt, route: &Route) {
    match (&route.receiver, route.owner) {
        (Receiver::None, _) | (Receiver::Ref, Owner::Resource) => {}
        (_, Owner::Free) => {
            let name = route.method.value.attr_name();
            cx.error(
                route.method.span,
                with_help(
                    format!("`#[restlight::{name}]` on a method: put `#[restlight::path(..)]` on the impl block"),
                    format!(
                        "write `#[restlight::path(\"/base\")]` on the impl block and plain `#[{name}]` on its route methods"
                    ),
                ),
            );
        }
        (Receiver::Invalid { span, what }, Owner::Resource) => {
            let help = if what.starts_with("`self: ") {
                "the framework holds the resource in an `Arc` already and lends it to each request: take `&self`"
            } else {
                "a resource is one instance shared by all requests: take `&self`, and keep mutable state behind a `Mutex` or an atomic"
            };
            cx.error(*span, with_help(format!("a route handler takes `&self`, not {what}"), help));
        }
    }
}

/// A plain `fn` on the IO executor, its own setting or its impl block's.
fn scheduled_io(cx: &mut Ctxt, route: &Route) {
    const MESSAGE: &str = "a plain fn never runs on an IO thread; make it async or schedule it on biz";
    let Some(scheduled) = &route.settings.scheduled else { return };
    if route.is_async || scheduled.value != Scheduler::Io {
        return;
    }
    match scheduled.origin {
        Origin::Impl => cx.error(
            Spans { start: route.fn_span, end: route.ident.span() },
            with_help(
                format!("`{}` inherits `#[scheduled(io)]` from the impl block: {MESSAGE}", route.ident),
                "write `async fn`, or put `#[scheduled(biz)]` on this method",
            ),
        ),
        Origin::Route | Origin::Entity => {
            cx.error(scheduled.span, with_help(MESSAGE, "write `async fn`, or `#[scheduled(biz)]`"));
        }
    }
}

/// Every regex of a template compiles with the router's engine
/// (`regex-lite`), as the router compiles it: `^(?:regex)$`.
fn regexes(cx: &mut Ctxt, t: &Template) {
    for var in t.vars() {
        let (Some(re), Some(at)) = (&var.regex, &var.regex_at) else {
            continue;
        };
        // Alone first, so that the reason is about the user's regex; then
        // as the router compiles it.
        let compiled = regex_lite::Regex::new(re).and_then(|_| regex_lite::Regex::new(&format!("^(?:{re})$")));
        if let Err(e) = compiled {
            cx.push(template::error_at(
                &t.lit,
                at.clone(),
                &format!("invalid regex in the variable `{}`: {e}", var.name),
                &regex_help(re),
            ));
        }
    }
}

/// What the router's regex engine lacks, and what to write instead.
fn regex_help(re: &str) -> String {
    const ENGINE: &str = "route regexes compile with `regex-lite`: no look-around, no backreferences, \
                          no Unicode classes, and `\\d`, `\\w`, `\\s` are ASCII";
    if re.contains("\\p") || re.contains("\\P") {
        format!(
            "{ENGINE}; the router matches the raw (percent-encoded) path, so write an ASCII class such as \
             `[a-zA-Z]+`, or take any segment (`{{name}}`) and check the decoded value in the handler"
        )
    } else {
        ENGINE.to_owned()
    }
}

/// No variable appears twice in the full template made of `parts`.
fn duplicates(cx: &mut Ctxt, parts: &[&Template]) {
    let mut seen: HashMap<&str, &Template> = HashMap::new();
    let full = full_string(parts);
    for t in parts {
        for var in t.vars() {
            match seen.get(var.name.as_str()) {
                Some(first) => {
                    let message = if std::ptr::eq(*first, *t) {
                        format!("the variable `{}` appears twice in the path template", var.name)
                    } else {
                        format!(
                            "the variable `{}` is already in the impl block's path `{}`",
                            var.name,
                            first.lit.value()
                        )
                    };
                    cx.push(template::error_at(
                        &t.lit,
                        var.at.clone(),
                        &message,
                        &format!("the route's full template is `{full}`; rename one of them"),
                    ));
                }
                None => {
                    seen.insert(&var.name, t);
                }
            }
        }
    }
}

fn full_string(parts: &[&Template]) -> String {
    template::join(parts.iter().map(|t| t.pieces.as_slice()))
}

fn param(cx: &mut Ctxt, p: &Param, full: Option<&[&Template]>) {
    if let Some(span) = p.encoded.span() {
        match p.source() {
            Some(Source::Path | Source::Query | Source::Matrix | Source::Form) => {}
            None => cx.error(
                span,
                with_help(
                    "`#[encoded]` on the entity: the body is read by its codec, it is not percent-decoded",
                    "put `#[encoded]` on a `#[path_param]`, `#[query_param]`, `#[matrix_param]` or `#[form_param]` parameter to read its value as the request wrote it",
                ),
            ),
            Some(source) => cx.error(
                span,
                with_help(
                    format!("`#[encoded]` on a `#[{}]` parameter, which is never percent-decoded", source.attr_name()),
                    "`#[encoded]` applies to `#[path_param]`, `#[query_param]`, `#[matrix_param]` and `#[form_param]` parameters",
                ),
            ),
        }
    }
    if let (Some(valid), Some(source)) = (p.valid.span(), p.source()) {
        cx.error(
            valid,
            with_help(
                format!("`#[valid]` applies to the entity, not to a `#[{}]` parameter", source.attr_name()),
                "put `#[valid]` on the parameter without source attribute (the body), whose type derives `garde::Validate`",
            ),
        );
    }
    if let (Some(codec), Some(source)) = (p.request_serializer.get(), p.source()) {
        cx.error(
            codec.span,
            with_help(
                format!(
                    "`#[request_serializer]` on a `#[{}]` parameter: only the entity is decoded by a codec",
                    source.attr_name()
                ),
                "put it on the parameter without source attribute (the entity), or on the method",
            ),
        );
    }
    if let Some(span) = ty::impl_trait(&p.ty) {
        cx.error(
            span,
            with_help(
                "a route handler cannot be generic",
                "the framework reads parameters into concrete types: replace `impl Trait` with a type",
            ),
        );
    }
    if let Some(default) = p.default.get() {
        let wrong = match p.source() {
            Some(Source::Path) => Some(PATH_DEFAULT),
            Some(Source::Context) => Some((
                "`#[default_value]` cannot apply to a `#[context]` parameter",
                "a context value is the request or a bean; remove the default",
            )),
            Some(Source::Attribute) => Some((
                "`#[default_value]` cannot apply to a `#[request_attribute]` parameter",
                "a request attribute is a typed value, not text: take `Option<T>` and choose the default in the handler",
            )),
            Some(Source::Resolve) => Some((
                "`#[default_value]` cannot apply to a `#[resolve]` parameter",
                "the resolver decides the value: give the default in its `from_request`",
            )),
            Some(Source::Part) => Some((
                "`#[default_value]` cannot apply to a `#[request_part]` parameter",
                "a part is bytes, text or a decoded value, not one text: take `Option<T>` and choose the default in the handler",
            )),
            Some(Source::Bean) => Some((
                "`#[default_value]` cannot apply to a `#[bean_param]` parameter",
                "put the default on the field of the bean: `#[query_param] #[default_value(\"20\")] limit: usize`",
            )),
            None => Some((
                "`#[default_value]` on the entity parameter, which has no source attribute",
                "give it a source, `#[query_param]`, `#[header_param]`, ..., or remove the default: the entity is the body",
            )),
            Some(_) => None,
        };
        if let Some((message, help)) = wrong {
            cx.error(default.span, with_help(message, help));
        }
    }
    if p.source() != Some(Source::Path) && is_path_segment(ty::value_shape(&p.ty).inner()) {
        let attr =
            p.source().map_or_else(|| "the entity".to_owned(), |s| format!("a `#[{}]` parameter", s.attr_name()));
        cx.error(
            Spans::of(&p.ty),
            with_help(
                format!("`PathSegment` is a segment of the request path, so it cannot be {attr}"),
                "mark it `#[path_param]` naming a template variable (the segment it matched), or take `String`",
            ),
        );
        return;
    }
    let Some(source) = p.source() else {
        return;
    };
    if source == Source::Bean {
        // Its fields are checked by `#[derive(BeanParam)]`, its path
        // variables against the template at startup.
        return;
    }
    if source == Source::Resolve {
        return;
    }
    if source == Source::Attribute {
        if let ContextShape::MutRef(span) = ty::context_shape(ty::value_shape(&p.ty).inner()) {
            cx.error(
                span,
                with_help(
                    "a `#[request_attribute]` parameter cannot be `&mut`: the request is shared",
                    "take `&T`, `T` (a clone), `Option<&T>` or `Option<T>`",
                ),
            );
        }
        return;
    }
    if source == Source::Context {
        if let ContextShape::MutRef(span) = ty::context_shape(&p.ty) {
            cx.error(
                span,
                with_help(
                    "a `#[context]` parameter cannot be `&mut`: the request and beans are shared",
                    "take `&T` (or `Arc<T>` for a bean), and put mutable state behind a `Mutex`",
                ),
            );
        }
        return;
    }
    let Some(name) = p.name() else {
        cx.error(
            p.span,
            with_help(
                "this parameter is a pattern, so it has no name to look up",
                format!("name it in the attribute: `#[{}(\"name\")]`", source.attr_name()),
            ),
        );
        return;
    };
    let name_span = match (&p.explicit_name, &p.ident) {
        (Some(lit), _) => lit.span().into(),
        (None, Some(ident)) => ident.span().into(),
        (None, None) => p.source.span().unwrap_or(p.span),
    };
    if source == Source::Header {
        if let Some(e) = bad_header_name(&name) {
            cx.error(name_span, e);
        }
    }
    if source == Source::Path {
        if let Some(full) = full {
            let vars: Vec<&Var> = full.iter().flat_map(|t| t.vars()).collect();
            if !vars.iter().any(|v| v.name == name) {
                let template = full_string(full);
                let help = if vars.is_empty() {
                    format!("the template `{template}` has no variables; add `{{{name}}}` to the path")
                } else {
                    let names: Vec<String> = vars.iter().map(|v| format!("`{}`", v.name)).collect();
                    format!("the variables of `{template}` are {}", names.join(", "))
                };
                cx.error(
                    name_span,
                    with_help(
                        format!("`#[path_param]` names `{name}`, which is no variable of the path template"),
                        help,
                    ),
                );
            }
        }
    }
}

/// A `#[default_value]` on a `#[path_param]`: message and help.
pub(crate) const PATH_DEFAULT: (&str, &str) = (
    "a path variable always has a value: `#[default_value]` cannot apply to a `#[path_param]`",
    "remove it, or read the value with `#[query_param]`",
);

/// The error for a header parameter name that is no header name.
pub(crate) fn bad_header_name(name: &str) -> Option<String> {
    let valid = name.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c));
    (!valid).then(|| {
        with_help(
            format!("`{name}` is not a valid header name"),
            "a header name is letters, digits and `!#$%&'*+-.^_`|~`, e.g. `X-Tenant`",
        )
    })
}

/// Whether a parameter's type is `PathSegment` (by its last path segment:
/// `restlight::PathSegment` or an imported `PathSegment`).
fn is_path_segment(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "PathSegment"))
}
