//! What the parser understood, with the span of everything a user can get
//! wrong. `parse` builds it faithfully (two method attributes are two entries
//! here), `validate` judges it, `expand` turns a valid one into code.

use proc_macro2::Span;

use crate::ctxt::Spans;
use syn::{Attribute, Ident, LitStr, Type};

use crate::template::Template;

/// A value and the span of the tokens it was read from.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) span: Spans,
}

impl<T> Spanned<T> {
    pub(crate) fn new(value: T, span: impl Into<Spans>) -> Self {
        Self { value, span: span.into() }
    }
}

/// An HTTP method attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HttpMethod {
    Get,
    Post,
    Put,
    Delete,
    Patch,
    Head,
    Options,
}

impl HttpMethod {
    pub(crate) const ALL: [Self; 7] =
        [Self::Get, Self::Post, Self::Put, Self::Delete, Self::Patch, Self::Head, Self::Options];

    /// The attribute's name: `get`.
    pub(crate) fn attr_name(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::Post => "post",
            Self::Put => "put",
            Self::Delete => "delete",
            Self::Patch => "patch",
            Self::Head => "head",
            Self::Options => "options",
        }
    }

    /// The method as sent on the wire: `GET`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Delete => "DELETE",
            Self::Patch => "PATCH",
            Self::Head => "HEAD",
            Self::Options => "OPTIONS",
        }
    }

    pub(crate) fn from_attr_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.attr_name() == name)
    }
}

/// `#[scheduled(..)]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scheduler {
    Io,
    Biz,
    Named(String),
}

/// The helpers shared by the impl block and its methods (method level wins).
#[derive(Debug, Clone, Default)]
pub(crate) struct Settings {
    pub(crate) produces: Vec<Spanned<Vec<String>>>,
    pub(crate) consumes: Vec<Spanned<Vec<String>>>,
    pub(crate) scheduled: Vec<Spanned<Scheduler>>,
    /// `#[max_body(..)]`, in bytes.
    pub(crate) max_body: Vec<Spanned<u64>>,
    /// `#[timeout(..)]`, in milliseconds.
    pub(crate) timeout: Vec<Spanned<u64>>,
    pub(crate) serializer: Vec<Spanned<String>>,
    pub(crate) request_serializer: Vec<Spanned<String>>,
    pub(crate) response_serializer: Vec<Spanned<String>>,
    pub(crate) compress: Vec<Spanned<bool>>,
    pub(crate) interceptors: OptOut,
}

/// `#[no_interceptors]` and `#[skip_interceptor(Type, ..)]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct OptOut {
    /// Where `#[no_interceptors]` was written, if it was.
    pub(crate) none: Option<Spans>,
    /// The interceptor types named by `#[skip_interceptor]`.
    pub(crate) skip: Vec<syn::Path>,
}

/// An `#[exception_handler]` method: `fn on_x(&self, e: &E) -> impl IntoResponse`.
#[derive(Debug, Clone)]
pub(crate) struct ExceptionHandler {
    pub(crate) ident: Ident,
    pub(crate) receiver: Receiver,
    pub(crate) is_async: bool,
    pub(crate) fn_span: Span,
    /// `E` of the parameters that are `&E`, and the spans of all parameters.
    pub(crate) params: Vec<(Option<Type>, Spans)>,
    /// Route attributes found on it too (a mistake).
    pub(crate) route_attrs: Vec<Spans>,
    pub(crate) cfgs: Vec<Attribute>,
}

/// `#[restlight::path("/base")]` on an impl block.
#[derive(Debug, Clone)]
pub(crate) struct Resource {
    /// The impl's self type, as written.
    pub(crate) self_ty: Type,
    /// A readable name of the self type: `UserResource`.
    pub(crate) name: String,
    /// Type or const parameters of the impl, which are not supported.
    pub(crate) generics: Option<Spans>,
    /// The base path; `None` when it did not parse.
    pub(crate) base: Option<Template>,
    pub(crate) settings: Settings,
    pub(crate) routes: Vec<Route>,
    pub(crate) handlers: Vec<ExceptionHandler>,
}

/// Who owns a route's function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// A free function: `#[restlight::get("/x")] fn f()`.
    Free,
    /// A method of a `#[restlight::path]` impl block.
    Resource,
}

/// How a handler takes `self`.
#[derive(Debug, Clone)]
pub(crate) enum Receiver {
    /// No receiver: a free or associated function.
    None,
    /// `&self` (also `&'a self` and `self: &Self`).
    Ref,
    /// Anything else, with the reason it is wrong.
    Invalid { span: Spans, what: String },
}

/// One handler.
#[derive(Debug, Clone)]
pub(crate) struct Route {
    pub(crate) owner: Owner,
    /// The method attributes found (a valid route has exactly one).
    pub(crate) methods: Vec<Spanned<HttpMethod>>,
    /// The sub-paths found, from `#[get("/x")]` and `#[path("/x")]` (at most one).
    pub(crate) paths: Vec<Template>,
    /// Paths that did not parse: the route's full template is unknown.
    pub(crate) bad_path: bool,
    pub(crate) settings: Settings,
    /// The function's `#[cfg(..)]` attributes, repeated on the generated
    /// code: rustc does not strip a configured-out method of an impl block
    /// before the attribute macro on the block sees it.
    pub(crate) cfgs: Vec<Attribute>,
    pub(crate) ident: Ident,
    pub(crate) is_async: bool,
    /// The span of the `fn` token, for `line!()`.
    pub(crate) fn_span: Span,
    pub(crate) receiver: Receiver,
    /// Type or const parameters (`fn f<T>` or `impl Trait` arguments).
    pub(crate) generics: Option<Spans>,
    pub(crate) params: Vec<Param>,
    /// The return type, `None` for `()`.
    pub(crate) output: Option<Type>,
}

/// Where a parameter comes from, as its attribute said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Path,
    Query,
    Header,
    Cookie,
    Matrix,
    Form,
    Context,
    /// `#[bean_param]`: a struct deriving `BeanParam` (not among
    /// [`ALL`](Self::ALL): it takes no name).
    Bean,
}

impl Source {
    pub(crate) const ALL: [Self; 7] =
        [Self::Path, Self::Query, Self::Header, Self::Cookie, Self::Matrix, Self::Form, Self::Context];

    pub(crate) fn attr_name(self) -> &'static str {
        match self {
            Self::Path => "path_param",
            Self::Query => "query_param",
            Self::Header => "header_param",
            Self::Cookie => "cookie_param",
            Self::Matrix => "matrix_param",
            Self::Form => "form_param",
            Self::Context => "context",
            Self::Bean => "bean_param",
        }
    }

    pub(crate) fn from_attr_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.attr_name() == name)
    }
}

/// One parameter of a handler (the receiver excluded).
#[derive(Debug, Clone)]
pub(crate) struct Param {
    /// Position among the parameters, receiver excluded.
    pub(crate) index: usize,
    /// The Rust identifier, `None` for patterns (`_`, `(a, b)`).
    pub(crate) ident: Option<Ident>,
    /// The source attributes found: none is the entity, a valid parameter
    /// has at most one.
    pub(crate) sources: Vec<Spanned<Source>>,
    /// Names given in the source attribute: `#[query_param("limit")]`.
    pub(crate) explicit_name: Option<LitStr>,
    /// `#[default_value("..")]` attributes found (at most one).
    pub(crate) defaults: Vec<LitStr>,
    /// `#[request_serializer("..")]` attributes found (at most one, on the entity).
    pub(crate) request_serializer: Vec<Spanned<String>>,
    pub(crate) ty: Type,
    /// `#[valid]` attributes found (at most one, on the entity).
    pub(crate) valid: Vec<Spans>,
    /// The spans of the whole parameter.
    pub(crate) span: Spans,
}

impl Param {
    /// The source, when exactly one attribute stated it; `None` is the entity.
    pub(crate) fn source(&self) -> Option<Source> {
        self.sources.first().map(|s| s.value)
    }

    /// The name looked up in the source: the explicit one, else the
    /// identifier (without `r#`), for a header with `-` for `_`
    /// (`accept_language` reads `accept-language`).
    pub(crate) fn name(&self) -> Option<String> {
        if let Some(lit) = &self.explicit_name {
            return Some(lit.value());
        }
        self.ident.as_ref().map(|i| default_name(i, self.source()))
    }
}

/// The name a source looks up for an identifier without an explicit one:
/// the identifier without `r#`, for a header with `-` for `_`.
pub(crate) fn default_name(ident: &Ident, source: Option<Source>) -> String {
    let s = ident.to_string();
    let s = s.strip_prefix("r#").map_or_else(|| s.clone(), str::to_owned);
    if source == Some(Source::Header) {
        s.replace('_', "-")
    } else {
        s
    }
}
