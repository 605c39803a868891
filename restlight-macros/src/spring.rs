//! The Spring MVC front end: `#[restlight::rest_controller]`,
//! `#[request_mapping]`, `#[get_mapping]` (and the other methods),
//! `#[path_variable]`, `#[request_param]`, ... translated into the model the
//! JAX-RS front end builds, so that both expand to the same route
//! descriptors on one engine.
//!
//! The translation works on the attributes: each Spring attribute is read
//! here (its keys checked, its mistakes reported at its tokens) and replaced
//! by the JAX-RS helpers that mean the same (`#[get_mapping("/x")]` by
//! `#[get] #[path("/x")]`, `#[request_param(name = "n", default_value =
//! "1")]` by `#[query_param("n")] #[default_value("1")]`); the JAX-RS parser
//! then reads the item as usual. What JAX-RS has no attribute for
//! (`#[response_status]`, a mapping of several methods, the types of
//! `#[exception_handler(A, B)]`, an optional `#[request_body]`) is recorded
//! here and set on the model after parsing.
//!
//! One impl block uses one style: a JAX-RS attribute in a controller, or a
//! Spring attribute in a `#[restlight::path]` block, is an error.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{parse_quote_spanned, Attribute, Expr, ExprLit, FnArg, ImplItem, Item, Lit, LitStr, Meta, Token, Type};

use crate::ctxt::{with_help, Ctxt, Spans};
use crate::model::{HttpMethod, Spanned};
use crate::{entry, expand, parse, ty, validate};

/// The Spring attributes, as written (bare or `restlight::`-qualified).
const SPRING: &[&str] = &[
    "rest_controller",
    "rest_controller_advice",
    "request_mapping",
    "get_mapping",
    "post_mapping",
    "put_mapping",
    "delete_mapping",
    "patch_mapping",
    "response_status",
    "path_variable",
    "request_param",
    "request_header",
    "cookie_value",
    "matrix_variable",
    "request_body",
    "model_attribute",
    "validated",
];

/// The JAX-RS attributes that have a Spring counterpart.
const JAXRS: &[(&str, &str)] = &[
    ("path", "`#[request_mapping(\"/x\")]`, or the path in `#[get_mapping(\"/x\")]`"),
    ("get", "`#[get_mapping]`"),
    ("post", "`#[post_mapping]`"),
    ("put", "`#[put_mapping]`"),
    ("delete", "`#[delete_mapping]`"),
    ("patch", "`#[patch_mapping]`"),
    ("head", "`#[request_mapping(method = HEAD)]`"),
    ("options", "`#[request_mapping(method = OPTIONS)]`"),
    ("produces", "`produces = \"..\"` in the mapping"),
    ("consumes", "`consumes = \"..\"` in the mapping"),
    ("path_param", "`#[path_variable]`"),
    ("query_param", "`#[request_param]`"),
    ("header_param", "`#[request_header]`"),
    ("cookie_param", "`#[cookie_value]`"),
    ("matrix_param", "`#[matrix_variable]`"),
    ("form_param", "`#[request_param]` on a `#[model_attribute]` struct's field, or `#[model_attribute]`"),
    ("bean_param", "`#[model_attribute]`"),
    ("default_value", "`default_value = \"..\"` in `#[request_param]` (or the other parameter attributes)"),
];

const ONE_STYLE: &str = "one impl block uses one style: Spring (`#[restlight::rest_controller]`, `#[get_mapping]`, `#[request_param]`, ..) or JAX-RS (`#[restlight::path]`, `#[get]`, `#[query_param]`, ..)";

/// The name of an attribute written `#[name]` or `#[restlight::name]`.
fn name_of(attr: &Attribute) -> Option<String> {
    let path = attr.path();
    if path.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    match segments.as_slice() {
        [name] if path.leading_colon.is_none() => Some(name.clone()),
        [krate, name] if krate == "restlight" => Some(name.clone()),
        _ => None,
    }
}

/// The error for a Spring attribute inside a JAX-RS resource (or on a
/// JAX-RS route function), if `attr` is one.
pub(crate) fn in_jaxrs(attr: &Attribute) -> Option<syn::Error> {
    let name = name_of(attr)?;
    if !SPRING.contains(&name.as_str()) {
        return None;
    }
    Some(syn::Error::new_spanned(
        attr,
        with_help(
            format!("`#[{name}]` is a Spring attribute, in a JAX-RS resource: Spring and JAX-RS attributes do not mix"),
            ONE_STYLE,
        ),
    ))
}

/// The error for a JAX-RS attribute in a Spring controller, if `attr` is one.
fn in_spring(attr: &Attribute) -> Option<syn::Error> {
    let name = name_of(attr)?;
    let (_, instead) = JAXRS.iter().find(|(n, _)| *n == name)?;
    Some(syn::Error::new_spanned(
        attr,
        with_help(
            format!(
                "`#[{name}]` is a JAX-RS attribute, in a Spring controller: Spring and JAX-RS attributes do not mix"
            ),
            format!("write {instead} instead; {ONE_STYLE}"),
        ),
    ))
}

/// Spring's `#[response_status(CREATED)]`, `(HttpStatus::CREATED)`,
/// `(201)`, `(code = NOT_FOUND, reason = "..")`.
#[derive(Debug, Clone)]
pub(crate) struct Status {
    /// An expression of the code as `u16`.
    code: TokenStream,
    reason: Option<LitStr>,
}

impl Status {
    /// The statement applying the status to `__res`.
    pub(crate) fn apply(&self, p: &TokenStream) -> TokenStream {
        let code = &self.code;
        let reason = match &self.reason {
            Some(r) => quote!(::core::option::Option::Some(#r)),
            None => quote!(::core::option::Option::None),
        };
        quote!(let __res = #p::response_status(__res, #code, #reason);)
    }
}

/// Reads an `#[request_body(required = false)]` entity of type `Option<T>`.
pub(crate) fn optional_entity(p: &TokenStream, _param_ty: &Type, meta: &TokenStream) -> TokenStream {
    quote! {
        match #p::optional_entity(&__req, #meta) {
            ::core::result::Result::Ok(__v) => __v,
            ::core::result::Result::Err(__e) => return #p::error_response(__e),
        }
    }
}

// ---- arguments ---------------------------------------------------------------

/// The arguments of a Spring attribute: positional values, then `key = value`s.
struct Args {
    positional: Vec<Expr>,
    named: Vec<(syn::Ident, Expr)>,
}

fn args(attr: &Attribute) -> syn::Result<Args> {
    let mut out = Args { positional: Vec::new(), named: Vec::new() };
    let tokens = match &attr.meta {
        Meta::Path(_) => return Ok(out),
        Meta::List(list) => list.tokens.clone(),
        Meta::NameValue(nv) => {
            let name = name_of(attr).unwrap_or_default();
            return Err(syn::Error::new(
                nv.eq_token.span,
                with_help(
                    format!("`#[{name} = ..]` is not a Restlight attribute form"),
                    format!("write the arguments in parentheses: `#[{name}(\"..\")]`"),
                ),
            ));
        }
    };
    let list = syn::parse::Parser::parse2(Punctuated::<Expr, Token![,]>::parse_terminated, tokens)?;
    for expr in list {
        match expr {
            Expr::Assign(a) => match &*a.left {
                Expr::Path(p) if p.path.get_ident().is_some() => {
                    let key = p.path.get_ident().cloned().unwrap_or_else(|| syn::Ident::new("_", Span::call_site()));
                    out.named.push((key, *a.right));
                }
                other => return Err(syn::Error::new_spanned(other, "expected a key: `name = ..`")),
            },
            other if out.named.is_empty() => out.positional.push(other),
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "a value without a key after `key = value` arguments: write the positional value first",
                ))
            }
        }
    }
    Ok(out)
}

fn unknown_key(cx: &mut Ctxt, attr: &str, key: &syn::Ident, keys: &str) {
    cx.error(
        key.span(),
        with_help(format!("unknown key `{key}` in `#[{attr}]`"), format!("the keys of `#[{attr}]` are {keys}")),
    );
}

/// `"x"` or `["x", "y"]`.
fn strings(cx: &mut Ctxt, e: &Expr, what: &str) -> Vec<LitStr> {
    match e {
        Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => vec![s.clone()],
        Expr::Array(a) => a.elems.iter().flat_map(|e| strings(cx, e, what)).collect(),
        other => {
            cx.error(
                Spans::of(other),
                with_help(format!("{what} is a string literal"), "write `\"..\"` or `[\"..\", \"..\"]`"),
            );
            Vec::new()
        }
    }
}

fn boolean(cx: &mut Ctxt, e: &Expr) -> Option<bool> {
    match e {
        Expr::Lit(ExprLit { lit: Lit::Bool(b), .. }) => Some(b.value),
        other => {
            cx.error(Spans::of(other), with_help("expected `true` or `false`", "write `required = false`"));
            None
        }
    }
}

/// `GET`, `RequestMethod::GET`, or a list of them.
fn methods(cx: &mut Ctxt, e: &Expr) -> Vec<Spanned<HttpMethod>> {
    match e {
        Expr::Array(a) => a.elems.iter().flat_map(|e| methods(cx, e)).collect(),
        Expr::Path(p) => {
            let Some(last) = p.path.segments.last() else { return Vec::new() };
            let method = match last.ident.to_string().to_ascii_uppercase().as_str() {
                "GET" => HttpMethod::Get,
                "POST" => HttpMethod::Post,
                "PUT" => HttpMethod::Put,
                "DELETE" => HttpMethod::Delete,
                "PATCH" => HttpMethod::Patch,
                "HEAD" => HttpMethod::Head,
                "OPTIONS" => HttpMethod::Options,
                other => {
                    cx.error(
                        last.ident.span(),
                        with_help(
                            format!("unsupported request method `{other}`"),
                            "write GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS (or `RequestMethod::GET`)",
                        ),
                    );
                    return Vec::new();
                }
            };
            vec![Spanned::new(method, Spans::of(p))]
        }
        other => {
            cx.error(
                Spans::of(other),
                with_help("expected a request method", "write `method = GET` or `method = [GET, POST]`"),
            );
            Vec::new()
        }
    }
}

// ---- paths -------------------------------------------------------------------

/// Spring's path syntax as a template: `{id}` and `{id:\d+}` are the same,
/// a `*` segment is one unnamed segment (`star1`, ..). At the end of the
/// pattern, `**` and `{*name}` match zero or more segments, as Spring's
/// `PathPattern` does: `/files/**` matches `/files`, `/files/` and
/// `/files/a/b`, and `{*path}` captures the rest with its leading `/`
/// (`/a/b`, or empty for `/files`), through a variable that shares the
/// last literal segment and may match nothing (`/files{path: (?:/.*)?}`).
/// Elsewhere they are an error (reported by `mapping`, as `PathPattern`
/// refuses them); the translation still gives a template, so that the
/// other errors of the item are reported too.
fn template(lit: &LitStr) -> LitStr {
    let value = lit.value();
    if !value.split('/').any(|s| s == "*" || s == "**" || s.starts_with("{*")) {
        return lit.clone();
    }
    let mut stars = 0;
    let mut segments: Vec<&str> = value.split('/').collect();
    let tail = match segments.last().copied() {
        Some("**") => Some("rest".to_owned()),
        Some(s) if s.starts_with("{*") && s.ends_with('}') => Some(s[2..s.len() - 1].trim().to_owned()),
        _ => None,
    };
    if tail.is_some() {
        segments.pop();
    }
    let out: Vec<String> = segments
        .into_iter()
        .map(|s| match s {
            "*" => {
                stars += 1;
                format!("{{star{stars}}}")
            }
            "**" => "{rest: .*}".to_owned(),
            s if s.starts_with("{*") && s.ends_with('}') => format!("{{{}: .*}}", &s[2..s.len() - 1]),
            s => s.to_owned(),
        })
        .collect();
    let mut text = out.join("/");
    if let Some(name) = tail {
        text.push_str(&format!("{{{name}: {CATCH_ALL}}}"));
    }
    LitStr::new(&text, lit.span())
}

/// The regex of a catch-all at the end of a Spring pattern: nothing, or a
/// `/` and the rest of the path.
const CATCH_ALL: &str = "(?:/.*)?";

/// Whether a route's template ends with a catch-all (`**`, `{*rest}`): it
/// matches a trailing `/` too, as in Spring.
pub(crate) fn ends_with_catch_all(template: &str) -> bool {
    template.ends_with(&format!("{CATCH_ALL}}}"))
}

// ---- mappings ----------------------------------------------------------------

/// `#[request_mapping(..)]` or `#[get_mapping(..)]` (and the other methods).
#[derive(Default)]
struct Mapping {
    path: Option<LitStr>,
    methods: Vec<Spanned<HttpMethod>>,
    produces: Vec<LitStr>,
    consumes: Vec<LitStr>,
    conditions: Conditions,
    /// The `*` segments of the path.
    wildcards: u16,
    /// Whether the path ends with `**` or `{*name}`.
    catch_all: bool,
}

/// A route's `params = ..` and `headers = ..` conditions (`"version=2"`,
/// `"!debug"`), checked here with the grammar the router parses them with;
/// the impl block's are added to each method's, as Spring combines them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Conditions {
    pub(crate) params: Vec<String>,
    pub(crate) headers: Vec<String>,
    /// A request path with a trailing `/` does not match (Spring 6): set
    /// on every route of the Spring front end.
    pub(crate) exact_slash: bool,
    /// Spring's precedence, on every route of the Spring front end: how
    /// many `*` segments its full pattern has (`None`: a JAX-RS route).
    pub(crate) spring_wildcards: Option<u16>,
}

impl Conditions {
    fn extend(&mut self, other: &Conditions) {
        self.params.extend(other.params.iter().cloned());
        self.headers.extend(other.headers.iter().cloned());
    }
}

/// The conditions of `params = ..` (`headers`: of `headers = ..`), each
/// checked: a malformed one, or a header condition on `Content-Type` or
/// `Accept` (which `consumes` and `produces` state), is an error at its string.
fn conditions(cx: &mut Ctxt, e: &Expr, headers: bool) -> Vec<String> {
    const FORMS: &str = "write `\"name\"` (present), `\"!name\"` (absent), `\"name=value\"` or `\"name!=value\"`";
    let mut out = Vec::new();
    for lit in strings(cx, e, "a condition") {
        let text = lit.value();
        match restlight_grammar::condition::Condition::parse(&text) {
            Err(err) => cx.error(lit.span(), with_help(format!("`{text}`: {err}"), FORMS)),
            Ok(c) if headers && c.name().eq_ignore_ascii_case("content-type") => cx.error(
                lit.span(),
                with_help(
                    "a `Content-Type` condition in `headers`",
                    "state the types the route reads with `consumes = \"..\"`",
                ),
            ),
            Ok(c) if headers && c.name().eq_ignore_ascii_case("accept") => cx.error(
                lit.span(),
                with_help(
                    "an `Accept` condition in `headers`",
                    "state the types the route writes with `produces = \"..\"`",
                ),
            ),
            Ok(_) => out.push(text),
        }
    }
    out
}

fn mapping_method(name: &str) -> Option<Option<HttpMethod>> {
    Some(match name {
        "request_mapping" => None,
        "get_mapping" => Some(HttpMethod::Get),
        "post_mapping" => Some(HttpMethod::Post),
        "put_mapping" => Some(HttpMethod::Put),
        "delete_mapping" => Some(HttpMethod::Delete),
        "patch_mapping" => Some(HttpMethod::Patch),
        _ => return None,
    })
}

/// Reads a mapping's arguments (`tokens` of the attribute or of the macro).
fn mapping(cx: &mut Ctxt, name: &str, attr: &Attribute, fixed: Option<HttpMethod>) -> Mapping {
    let mut out = Mapping::default();
    if let Some(m) = fixed {
        out.methods.push(Spanned::new(m, Spans::of(attr)));
    }
    let Some(args) = cx.ok(args(attr)) else { return out };
    let mut paths = Vec::new();
    for e in &args.positional {
        paths.extend(strings(cx, e, "the path"));
    }
    let keys = if fixed.is_none() {
        "`path` (or `value`), `method`, `produces`, `consumes`, `params`, `headers`, `name`"
    } else {
        "`path` (or `value`), `produces`, `consumes`, `params`, `headers`, `name`"
    };
    for (key, value) in &args.named {
        match key.to_string().as_str() {
            "path" | "value" => paths.extend(strings(cx, value, "the path")),
            "method" if fixed.is_none() => out.methods.extend(methods(cx, value)),
            "produces" => out.produces.extend(strings(cx, value, "a media type")),
            "consumes" => out.consumes.extend(strings(cx, value, "a media type")),
            "name" => {}
            "params" => {
                let found = conditions(cx, value, false);
                out.conditions.params.extend(found);
            }
            "headers" => {
                let found = conditions(cx, value, true);
                out.conditions.headers.extend(found);
            }
            _ => unknown_key(cx, name, key, keys),
        }
    }
    if paths.len() > 1 {
        cx.error(
            paths[1].span(),
            with_help(format!("`#[{name}]` with several paths"), "a route has one path: write one function per path"),
        );
    }
    if let Some(p) = paths.first() {
        let text = p.value();
        out.wildcards = text.split('/').filter(|s| *s == "*").count().try_into().unwrap_or(u16::MAX);
        out.catch_all = is_catch_all(text.rsplit('/').next().unwrap_or_default());
        if let Some(seg) = text.split('/').rev().skip(1).find(|s| is_catch_all(s)) {
            cx.error(
                p.span(),
                with_help(
                    format!("`{seg}` in the middle of the path `{text}`"),
                    "Spring's `PathPattern` takes `**` and `{*rest}` only at the end of a pattern: end it there (`/files/**`), or match one segment with `*` or `{name}`",
                ),
            );
        }
    }
    out.path = paths.into_iter().next().map(|p| template(&p));
    out
}

/// Whether a segment of a Spring pattern is a catch-all: `**` or `{*name}`.
fn is_catch_all(segment: &str) -> bool {
    segment == "**" || (segment.starts_with("{*") && segment.ends_with('}'))
}

/// The attributes that say what a mapping says, spanned at it.
fn mapping_attrs(span: Span, m: &Mapping, with_path: bool) -> Vec<Attribute> {
    let mut out: Vec<Attribute> = Vec::new();
    if with_path {
        if let Some(path) = &m.path {
            out.push(parse_quote_spanned!(span=> #[path(#path)]));
        }
    }
    if !m.produces.is_empty() {
        let list = &m.produces;
        out.push(parse_quote_spanned!(span=> #[produces(#(#list),*)]));
    }
    if !m.consumes.is_empty() {
        let list = &m.consumes;
        out.push(parse_quote_spanned!(span=> #[consumes(#(#list),*)]));
    }
    out
}

fn method_attr(m: &Spanned<HttpMethod>) -> Attribute {
    let ident = syn::Ident::new(m.value.attr_name(), m.span.start);
    parse_quote_spanned!(m.span.start=> #[#ident])
}

/// What only this front end knows of a method, set on the model after parsing.
#[derive(Default)]
struct Extras {
    /// The route's other methods (`#[request_mapping]` without a method is
    /// every method but HEAD, served by GET, and OPTIONS, answered by the
    /// router).
    more_methods: Vec<Spanned<HttpMethod>>,
    status: Option<Status>,
    conditions: Conditions,
    handler_types: Vec<Type>,
    optional_entities: Vec<usize>,
    /// The `*` segments of the method's path.
    wildcards: u16,
}

/// The class-level mapping, as inherited by the methods.
#[derive(Default)]
struct Class {
    has_path: bool,
    /// The `*` segments of the impl block's path.
    wildcards: u16,
    /// Whether the impl block's path ends with a catch-all.
    catch_all: bool,
    methods: Vec<Spanned<HttpMethod>>,
    conditions: Conditions,
}

/// The method without a method attribute of a `#[request_mapping]`: every one.
const ANY: [HttpMethod; 5] =
    [HttpMethod::Get, HttpMethod::Post, HttpMethod::Put, HttpMethod::Delete, HttpMethod::Patch];

/// Translates a method's attributes and its parameters'. `free`: a route
/// function, whose mapping is given to the entry instead (`fn_mapping`).
fn translate_fn(
    cx: &mut Ctxt,
    attrs: &mut Vec<Attribute>,
    sig: &mut syn::Signature,
    class: &Class,
    fn_mapping: Option<(&str, Mapping, Spans)>,
) -> (Extras, Option<Spanned<HttpMethod>>) {
    let mut extras = Extras::default();
    let mut found: Option<(String, Mapping, Spans)> = fn_mapping.map(|(n, m, s)| (n.to_owned(), m, s));
    let free = found.is_some();
    let mut out = Vec::new();
    for a in std::mem::take(attrs) {
        let Some(name) = name_of(&a) else {
            out.push(a);
            continue;
        };
        if let Some(e) = in_spring(&a) {
            cx.push(e);
            continue;
        }
        if let Some(fixed) = mapping_method(&name) {
            let m = mapping(cx, &name, &a, fixed);
            if let Some((first, _, _)) = &found {
                cx.error(
                    Spans::of(&a),
                    with_help(
                        format!("a second mapping on one method: it has `#[{first}]` already"),
                        "a method has one mapping; list several methods in `#[request_mapping(method = [GET, POST])]`",
                    ),
                );
                continue;
            }
            found = Some((name, m, Spans::of(&a)));
            continue;
        }
        match name.as_str() {
            "response_status" => {
                if extras.status.is_some() {
                    cx.error(Spans::of(&a), with_help("a second `#[response_status]`", "keep one"));
                } else {
                    extras.status = status(cx, &a);
                }
            }
            "exception_handler" => {
                let types = match &a.meta {
                    Meta::List(list) => cx
                        .ok(syn::parse::Parser::parse2(Punctuated::<Type, Token![,]>::parse_terminated, list.tokens.clone()))
                        .map(|l| l.into_iter().collect())
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                extras.handler_types = types;
                out.push(parse_quote_spanned!(a.span()=> #[exception_handler]));
            }
            n if SPRING.contains(&n) => out_of_place(
                cx,
                &a,
                "a method",
                "a method takes a mapping (`#[get_mapping]`, `#[request_mapping]`, ..), `#[response_status]` or `#[exception_handler]`; the parameter attributes go before each parameter",
            ),
            _ => out.push(a),
        }
    }
    let mut method = None;
    if let Some((name, m, span)) = found {
        let mut list = m.methods.clone();
        if list.is_empty() {
            list.clone_from(&class.methods);
        }
        if list.is_empty() {
            if m.path.is_none() && !class.has_path && !free {
                cx.error(
                    span,
                    with_help(
                        format!("`#[{name}]` with no path and no method, and none inherited from the impl block"),
                        "give it a path, `#[request_mapping(\"/x\")]`, or a method, `#[request_mapping(method = GET)]`, or both: `#[get_mapping(\"/x\")]`",
                    ),
                );
            }
            list = ANY.iter().map(|&m| Spanned::new(m, span)).collect();
        }
        let first = list.remove(0);
        extras.more_methods = list;
        extras.wildcards = m.wildcards;
        if let (true, Some(path)) = (class.catch_all, &m.path) {
            cx.error(
                path.span(),
                with_help(
                    "a path after the impl block's catch-all (`**` or `{*rest}`)",
                    "Spring's `PathPattern` takes a catch-all only at the end of a pattern: move it to the method's path, or drop this path",
                ),
            );
        }
        extras.conditions = class.conditions.clone();
        extras.conditions.extend(&m.conditions);
        if !free {
            out.push(method_attr(&first));
        }
        out.extend(mapping_attrs(span.start, &m, !free));
        method = Some(first);
    }
    *attrs = out;
    let mut index = 0;
    for arg in &mut sig.inputs {
        if let FnArg::Typed(pt) = arg {
            if param(cx, pt) {
                extras.optional_entities.push(index);
            }
            index += 1;
        }
    }
    (extras, method)
}

/// `#[response_status(..)]`.
fn status(cx: &mut Ctxt, a: &Attribute) -> Option<Status> {
    const USAGE: &str = "write `#[response_status(CREATED)]`, `#[response_status(201)]` or `#[response_status(code = NOT_FOUND, reason = \"..\")]`";
    let args = cx.ok(args(a))?;
    let mut code: Option<&Expr> = args.positional.first();
    let mut reason = None;
    for (key, value) in &args.named {
        match key.to_string().as_str() {
            "code" | "value" => code = Some(value),
            "reason" => reason = strings(cx, value, "the reason").into_iter().next(),
            _ => unknown_key(cx, "response_status", key, "`code` (or `value`) and `reason`"),
        }
    }
    let Some(code) = code else {
        cx.error(Spans::of(a), with_help("`#[response_status]` needs the status", USAGE));
        return None;
    };
    let code = match code {
        Expr::Path(p) => {
            let last = p.path.segments.last()?;
            let ident = &last.ident;
            quote_spanned!(ident.span()=> ::restlight::__private::StatusCode::#ident.as_u16())
        }
        Expr::Lit(ExprLit { lit: Lit::Int(i), .. }) => match i.base10_parse::<u16>() {
            Ok(n) if (100..=999).contains(&n) => quote!(#n),
            _ => {
                cx.error(i.span(), with_help("a status code is a number from 100 to 999", USAGE));
                return None;
            }
        },
        other => {
            cx.error(Spans::of(other), with_help("expected a status", USAGE));
            return None;
        }
    };
    Some(Status { code, reason })
}

/// Translates a parameter's attributes; `true` for an optional entity.
fn param(cx: &mut Ctxt, pt: &mut syn::PatType) -> bool {
    let mut optional_entity = false;
    let mut out = Vec::new();
    for a in std::mem::take(&mut pt.attrs) {
        let Some(name) = name_of(&a) else {
            out.push(a);
            continue;
        };
        if let Some(e) = in_spring(&a) {
            cx.push(e);
            continue;
        }
        let span = a.span();
        let source = match name.as_str() {
            "path_variable" => Some("path_param"),
            "request_param" => Some("query_param"),
            "request_header" => Some("header_param"),
            "cookie_value" => Some("cookie_param"),
            "matrix_variable" => Some("matrix_param"),
            _ => None,
        };
        if let Some(source) = source {
            out.extend(value_source(cx, &name, source, &a, &pt.ty));
            continue;
        }
        match name.as_str() {
            "request_body" => {
                let Some(args) = cx.ok(args(&a)) else { continue };
                for e in &args.positional {
                    cx.error(Spans::of(e), with_help("`#[request_body]` takes only `required = ..`", "write `#[request_body]` or `#[request_body(required = false)]`"));
                }
                for (key, value) in &args.named {
                    if key == "required" {
                        if boolean(cx, value) == Some(false) {
                            if matches!(ty::value_shape(&pt.ty), ty::ValueShape::Optional(_)) {
                                optional_entity = true;
                            } else {
                                cx.error(
                                    Spans::of(value),
                                    with_help(
                                        format!("`required = false` on a body of type `{}`, which has no value when the body is absent", ty::type_string(&pt.ty)),
                                        format!("make the type `Option<{}>`", ty::type_string(&pt.ty)),
                                    ),
                                );
                            }
                        }
                    } else {
                        unknown_key(cx, "request_body", key, "`required`");
                    }
                }
            }
            "model_attribute" => {
                if let Some(args) = cx.ok(args(&a)) {
                    if let Some(e) = args.positional.first().or(args.named.first().map(|(_, e)| e)) {
                        cx.error(
                            Spans::of(e),
                            with_help("`#[model_attribute]` takes no argument", "write `#[model_attribute]` before a parameter whose type derives `BeanParam`"),
                        );
                    }
                }
                out.push(parse_quote_spanned!(span=> #[bean_param]));
            }
            "validated" => out.push(parse_quote_spanned!(span=> #[valid])),
            "request_part" => out.extend(request_part(cx, &a, &pt.ty)),
            n if SPRING.contains(&n) => out_of_place(
                cx,
                &a,
                "a parameter",
                "a parameter takes `#[path_variable]`, `#[request_param]`, `#[request_header]`, `#[cookie_value]`, `#[matrix_variable]`, `#[request_body]`, `#[request_part]`, `#[model_attribute]`, `#[request_attribute]`, `#[context]` or `#[valid]`",
            ),
            _ => out.push(a),
        }
    }
    pt.attrs = out;
    optional_entity
}

/// A Spring attribute `a` where it does not belong (`place`: "a method",
/// "a parameter"); `takes` says what does.
fn out_of_place(cx: &mut Ctxt, a: &Attribute, place: &str, takes: &str) {
    let name = name_of(a).unwrap_or_default();
    cx.error(Spans::of(a), with_help(format!("`#[{name}]` does not belong on {place}"), takes));
}

/// `#[request_param("n")]`, `(name = "n", required = false, default_value = "1")`
/// (and the header, cookie, path and matrix variants) as the JAX-RS source
/// attribute and `#[default_value]`.
fn value_source(cx: &mut Ctxt, name: &str, source: &str, a: &Attribute, param_ty: &Type) -> Vec<Attribute> {
    let span = a.span();
    let Some(args) = cx.ok(args(a)) else { return Vec::new() };
    let mut names: Vec<LitStr> = args.positional.iter().flat_map(|e| strings(cx, e, "the name")).collect();
    let mut required: Option<(bool, Spans)> = None;
    let mut default = None;
    let path = name == "path_variable";
    let keys = if path { "`name` (or `value`)" } else { "`name` (or `value`), `required`, `default_value`" };
    for (key, value) in &args.named {
        match key.to_string().as_str() {
            "name" | "value" => names.extend(strings(cx, value, "the name")),
            "required" if !path => required = boolean(cx, value).map(|b| (b, Spans::of(value))),
            "default_value" if !path => default = strings(cx, value, "the default value").into_iter().next(),
            _ => unknown_key(cx, name, key, keys),
        }
    }
    if let Some((false, at)) = required {
        if default.is_none() && matches!(ty::value_shape(param_ty), ty::ValueShape::Required(_)) {
            let t = ty::type_string(param_ty);
            cx.error(
                at,
                with_help(
                    format!("`required = false` on a parameter of type `{t}`, which has no value when it is absent"),
                    format!("make the type `Option<{t}>`, or give `default_value = \"..\"`"),
                ),
            );
        }
    }
    let source = syn::Ident::new(source, span);
    let mut out: Vec<Attribute> = vec![match names.first() {
        Some(n) => parse_quote_spanned!(span=> #[#source(#n)]),
        None => parse_quote_spanned!(span=> #[#source]),
    }];
    if let Some(d) = default {
        out.push(parse_quote_spanned!(span=> #[default_value(#d)]));
    }
    out
}

/// `#[request_part("file")]`, `(name = "file", required = false)` as the
/// shared `#[request_part("file")]`: the part is optional when the type is
/// `Option<T>`, and `required = false` needs that type.
fn request_part(cx: &mut Ctxt, a: &Attribute, param_ty: &Type) -> Option<Attribute> {
    let span = a.span();
    let args = cx.ok(args(a))?;
    let mut names: Vec<LitStr> = args.positional.iter().flat_map(|e| strings(cx, e, "the name")).collect();
    for (key, value) in &args.named {
        match key.to_string().as_str() {
            "name" | "value" => names.extend(strings(cx, value, "the name")),
            "required" => {
                let optional = matches!(ty::value_shape(param_ty), ty::ValueShape::Optional(_));
                if boolean(cx, value) == Some(false) && !optional {
                    let t = ty::type_string(param_ty);
                    cx.error(
                        Spans::of(value),
                        with_help(
                            format!("`required = false` on a part of type `{t}`, which has no value when the part is absent"),
                            format!("make the type `Option<{t}>`"),
                        ),
                    );
                }
            }
            _ => unknown_key(cx, "request_part", key, "`name` (or `value`) and `required`"),
        }
    }
    Some(match names.first() {
        Some(n) => parse_quote_spanned!(span=> #[request_part(#n)]),
        None => parse_quote_spanned!(span=> #[request_part]),
    })
}

// ---- entry points ------------------------------------------------------------

/// Which attribute started the expansion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `#[restlight::rest_controller]`.
    RestController,
    /// `#[restlight::request_mapping(..)]`, `#[restlight::get_mapping(..)]`, ...
    Mapping(&'static str),
}

/// `#[restlight::rest_controller]` or a mapping on an impl block or a function.
pub(crate) fn entry(which: Entry, args: TokenStream, input: TokenStream) -> TokenStream {
    let mut item = match syn::parse2::<Item>(input.clone()) {
        Ok(item) => item,
        Err(e) => return entry::with_error(input, e),
    };
    match (&mut item, which) {
        (Item::Impl(imp), _) => controller(which, args, imp),
        (Item::Fn(f), Entry::Mapping(name)) => function(name, args, f),
        (other, _) => {
            let name = match which {
                Entry::RestController => "rest_controller",
                Entry::Mapping(n) => n,
            };
            entry::with_error(
                other.to_token_stream(),
                syn::Error::new(
                    Span::call_site(),
                    with_help(
                        format!("`#[restlight::{name}]` goes on an impl block"),
                        "write `#[restlight::rest_controller] #[request_mapping(\"/users\")] impl Users { .. }`",
                    ),
                ),
            )
        }
    }
}

/// The mapping attribute the macro was given as its arguments.
fn as_attr(name: &str, args: TokenStream) -> Attribute {
    let ident = syn::Ident::new(name, Span::call_site());
    if args.is_empty() {
        parse_quote_spanned!(Span::call_site()=> #[#ident])
    } else {
        parse_quote_spanned!(Span::call_site()=> #[#ident(#args)])
    }
}

fn controller(which: Entry, args: TokenStream, imp: &mut syn::ItemImpl) -> TokenStream {
    let mut cx = Ctxt::new();
    let mut class_mapping: Option<Attribute> = None;
    match which {
        Entry::RestController => {
            if !args.is_empty() {
                cx.error(
                    Spans::of(&args),
                    with_help(
                        "`#[restlight::rest_controller]` takes no argument",
                        "give the base path with `#[request_mapping(\"/users\")]` below it",
                    ),
                );
            }
        }
        Entry::Mapping("request_mapping") => class_mapping = Some(as_attr("request_mapping", args)),
        Entry::Mapping(name) => {
            cx.error(
                Span::call_site(),
                with_help(
                    format!("`#[{name}]` goes on a method; the impl block takes `#[request_mapping]`"),
                    "write `#[restlight::rest_controller] #[request_mapping(\"/users\")]` on the impl block",
                ),
            );
        }
    }
    let mut kept = Vec::new();
    for a in std::mem::take(&mut imp.attrs) {
        match name_of(&a).as_deref() {
            Some("rest_controller") if which != Entry::RestController => {}
            Some("request_mapping") if class_mapping.is_none() => class_mapping = Some(a),
            Some("request_mapping") => {
                cx.error(Spans::of(&a), with_help("a second `#[request_mapping]` on the impl block", "keep one"))
            }
            _ => match in_spring(&a) {
                Some(e) => cx.push(e),
                None => kept.push(a),
            },
        }
    }
    let mut class = Class::default();
    let mut base = quote!("/");
    if let Some(a) = &class_mapping {
        let m = mapping(&mut cx, "request_mapping", a, None);
        if let Some(path) = &m.path {
            class.has_path = true;
            class.wildcards = m.wildcards;
            class.catch_all = m.catch_all;
            base = path.to_token_stream();
        }
        class.methods.clone_from(&m.methods);
        class.conditions = m.conditions.clone();
        kept.extend(mapping_attrs(a.span(), &m, false));
    }
    imp.attrs = kept;
    let mut extras: HashMap<String, Extras> = HashMap::new();
    for item in &mut imp.items {
        if let ImplItem::Fn(f) = item {
            let (e, _) = translate_fn(&mut cx, &mut f.attrs, &mut f.sig, &class, None);
            extras.insert(f.sig.ident.to_string(), e);
        }
    }
    let mut model = parse::resource(&mut cx, base, imp);
    let mut more = Vec::new();
    for route in &mut model.routes {
        let Some(e) = extras.get_mut(&route.ident.to_string()) else { continue };
        route.status = e.status.take();
        route.conditions = std::mem::take(&mut e.conditions);
        let last = route.path.as_ref().or(model.base.as_ref());
        route.conditions.exact_slash = !last.is_some_and(|t| ends_with_catch_all(&t.lit.value()));
        route.conditions.spring_wildcards = Some(class.wildcards.saturating_add(e.wildcards));
        for &i in &e.optional_entities {
            if let Some(p) = route.params.get_mut(i) {
                p.optional_entity = true;
            }
        }
        for m in &e.more_methods {
            let mut r = route.clone();
            r.method = m.clone();
            more.push(r);
        }
    }
    model.routes.extend(more);
    for h in &mut model.handlers {
        if let Some(e) = extras.get_mut(&h.ident.to_string()) {
            h.types = std::mem::take(&mut e.handler_types);
        }
    }
    validate::resource(&mut cx, &model);
    match cx.check() {
        Ok(()) => {
            entry::debug(&format!("#[restlight::rest_controller] impl {}", model.name), expand::resource(&model, imp))
        }
        Err(e) => {
            entry::allow_dead_code(&mut imp.attrs);
            entry::with_error(imp.to_token_stream(), e)
        }
    }
}

fn function(name: &'static str, args: TokenStream, f: &mut syn::ItemFn) -> TokenStream {
    let mut cx = Ctxt::new();
    let fixed = mapping_method(name).flatten();
    let attr = as_attr(name, args);
    let m = mapping(&mut cx, name, &attr, fixed);
    let path = m.path.clone();
    let (extras, method) = translate_fn(
        &mut cx,
        &mut f.attrs,
        &mut f.sig,
        &Class::default(),
        Some((name, m, Spans::from(Span::call_site()))),
    );
    let method = method.map_or(HttpMethod::Get, |m| m.value);
    let mut route = parse::free_route(&mut cx, method, path.map(|p| p.to_token_stream()).unwrap_or_default(), f);
    route.status = extras.status;
    route.conditions = extras.conditions;
    route.conditions.exact_slash = !route.path.as_ref().is_some_and(|t| ends_with_catch_all(&t.lit.value()));
    route.conditions.spring_wildcards = Some(extras.wildcards);
    for &i in &extras.optional_entities {
        if let Some(p) = route.params.get_mut(i) {
            p.optional_entity = true;
        }
    }
    validate::route(&mut cx, &route, None);
    match cx.check() {
        Ok(()) => {
            let mut out = expand::free(&route, f);
            for m in extras.more_methods {
                let mut r = route.clone();
                r.method = m;
                out.extend(expand::free(&r, &quote!()));
            }
            entry::debug(&format!("#[restlight::{name}] fn {}", route.ident), out)
        }
        Err(e) => {
            entry::allow_dead_code(&mut f.attrs);
            entry::with_error(f.to_token_stream(), e)
        }
    }
}

/// `#[restlight::rest_controller_advice]` on an impl block: its
/// `#[exception_handler]` methods map the errors of every route, after the
/// application's own mappers.
pub(crate) fn advice(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut imp = match syn::parse2::<syn::ItemImpl>(input.clone()) {
        Ok(item) => item,
        Err(_) => {
            return entry::with_error(
                input,
                syn::Error::new(
                    Span::call_site(),
                    with_help(
                        "`#[restlight::rest_controller_advice]` goes on an impl block",
                        "write it on `impl GlobalErrors { #[exception_handler(MyError)] fn on_my_error(&self, e: &MyError) -> impl IntoResponse { .. } }`",
                    ),
                ),
            )
        }
    };
    let mut cx = Ctxt::new();
    if !args.is_empty() {
        cx.error(
            Spans::of(&args),
            with_help("`#[restlight::rest_controller_advice]` takes no argument", "it applies to every route"),
        );
    }
    let self_ty = (*imp.self_ty).clone();
    let p = quote!(::restlight::__private);
    let mut tries = Vec::new();
    for item in &mut imp.items {
        let ImplItem::Fn(f) = item else { continue };
        let mut types: Option<Vec<Type>> = None;
        f.attrs.retain(|a| {
            if name_of(a).as_deref() != Some("exception_handler") {
                return true;
            }
            types = Some(match &a.meta {
                Meta::List(list) => cx
                    .ok(syn::parse::Parser::parse2(
                        Punctuated::<Type, Token![,]>::parse_terminated,
                        list.tokens.clone(),
                    ))
                    .map(|l| l.into_iter().collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            });
            false
        });
        let Some(mut types) = types else { continue };
        let mut has_self = false;
        let mut params = Vec::new();
        for arg in &f.sig.inputs {
            match arg {
                FnArg::Receiver(_) => has_self = true,
                FnArg::Typed(pt) => params.push(pt),
            }
        }
        const SHAPE: &str = "an exception handler is `fn name(&self, error: &MyError) -> impl IntoResponse`, or lists its types: `#[exception_handler(A, B)]`";
        if f.sig.asyncness.is_some() {
            cx.error(f.sig.fn_token.span, with_help("an exception handler cannot be `async`", SHAPE));
        }
        let by_ref = params.first().and_then(|pt| match &*pt.ty {
            Type::Reference(r) if r.mutability.is_none() => Some((*r.elem).clone()),
            _ => None,
        });
        if params.len() > 1 {
            cx.error(Spans::of(&params[1]), with_help("an exception handler takes one parameter, the error", SHAPE));
        }
        if types.is_empty() {
            match by_ref {
                Some(t) => types.push(t),
                None => {
                    cx.error(Spans::of(&f.sig), with_help(format!("`{}` names no error type", f.sig.ident), SHAPE));
                    continue;
                }
            }
        }
        let ident = &f.sig.ident;
        let receiver = has_self.then(|| quote!(&*__this,));
        let arg = (!params.is_empty()).then(|| quote!(__x));
        let bind = if params.is_empty() { quote!(_) } else { quote!(__x) };
        for t in types {
            let t = ty::replace_self(&t, &self_ty);
            let downcast = quote_spanned!(t.span()=> downcast_ref::<#t>);
            tries.push(quote! {
                if let ::core::option::Option::Some(#bind) = __e.#downcast() {
                    return ::core::option::Option::Some(#p::IntoResponse::into_response(<#self_ty>::#ident(#receiver #arg)));
                }
            });
        }
    }
    let name = ty::type_string(&self_ty);
    let make = quote_spanned!(self_ty.span()=> <#self_ty as ::core::default::Default>::default());
    let out = quote! {
        #imp
        const _: () = {
            fn __rl_make() -> #p::AdviceMapper {
                #[allow(unused_variables)]
                let __this = ::std::sync::Arc::new(#make);
                ::std::boxed::Box::new(move |__e: &(dyn ::std::error::Error + 'static)| {
                    #(#tries)*
                    ::core::option::Option::None
                })
            }
            #p::inventory::submit! {
                #p::AdviceDescriptor { name: #name, make: __rl_make, file: ::core::file!(), line: ::core::line!() }
            }
        };
    };
    match cx.check() {
        Ok(()) => entry::debug(&format!("#[restlight::rest_controller_advice] impl {name}"), out),
        Err(e) => entry::with_error(imp.to_token_stream(), e),
    }
}

/// A Spring helper where no mapping reads it.
pub(crate) fn misplaced(name: &str, input: TokenStream) -> TokenStream {
    entry::with_error(
        input,
        syn::Error::new(
            Span::call_site(),
            with_help(
                format!("`#[{name}]` is read by a Spring mapping, which must come first"),
                format!("write `#[{name}(..)]` below `#[get_mapping(..)]` (or another mapping) on a controller method or a mapped function"),
            ),
        ),
    )
}
