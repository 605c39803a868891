//! What the parser understood, with the span of everything a user can get
//! wrong. `parse` builds it (a second occurrence of a single-valued attribute
//! is reported there and dropped), and resolves each route's settings;
//! `validate` judges it, `expand` turns a valid one into code.

use proc_macro2::Span;
use syn::{Attribute, Ident, LitStr, Type};

use crate::ctxt::Spans;
use crate::helpers::Helper;
use crate::settings::Effective;
use crate::slot::Slot;
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
    /// The attribute's name: `get`.
    pub(crate) fn attr_name(self) -> &'static str {
        Helper::Method(self).name()
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
}

/// `#[scheduled(..)]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scheduler {
    Io,
    Biz,
    Named(String),
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
    /// The error types listed in Spring's `#[exception_handler(A, B)]`;
    /// empty: the type of the `&E` parameter.
    pub(crate) types: Vec<Type>,
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
    pub(crate) routes: Vec<Route>,
    pub(crate) handlers: Vec<ExceptionHandler>,
    /// Methods with `#[path]` and no method attribute.
    pub(crate) locators: Vec<Locator>,
    /// `#[restlight::sub_resource]`: mounted only by locators.
    pub(crate) sub: bool,
}

/// A sub-resource locator: a method with `#[path]` and no method
/// attribute. Its `route` has a placeholder method.
#[derive(Debug, Clone)]
pub(crate) struct Locator {
    pub(crate) route: Route,
    /// What the locator returns, as written; `None` without a return type.
    pub(crate) returns: Option<LocatorReturn>,
}

/// The return type of a locator.
#[derive(Debug, Clone)]
pub(crate) struct LocatorReturn {
    /// The sub-resource type: `T` of `T`, `Option<T>` or `Result<T, E>`.
    pub(crate) target: Type,
    pub(crate) shape: LocatorShape,
}

/// How a locator hands over its sub-resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LocatorShape {
    /// `T`.
    Plain,
    /// `Option<T>`: `None` is 404.
    Option,
    /// `Result<T, E>`: `E` is answered as a handler's error is.
    Result,
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
    /// The method attribute.
    pub(crate) method: Spanned<HttpMethod>,
    /// The sub-path, from `#[get("/x")]` or `#[path("/x")]`.
    pub(crate) path: Option<Template>,
    /// A path that did not parse: the route's full template is unknown.
    pub(crate) bad_path: bool,
    /// The settings that apply to the route, its impl block's included.
    pub(crate) settings: Effective,
    /// The function's `#[cfg(..)]` attributes, repeated on the generated
    /// code: rustc does not strip a configured-out method of an impl block
    /// before the attribute macro on the block sees it.
    pub(crate) cfgs: Vec<Attribute>,
    pub(crate) ident: Ident,
    pub(crate) is_async: bool,
    /// Whether the body may wait (holds `await` or a macro call); see
    /// `parse::may_wait`. `true` until the body is read.
    pub(crate) waits: bool,
    /// The span of the `fn` token, for `line!()`.
    pub(crate) fn_span: Span,
    pub(crate) receiver: Receiver,
    /// Type or const parameters (`fn f<T>` or `impl Trait` arguments).
    pub(crate) generics: Option<Spans>,
    pub(crate) params: Vec<Param>,
    /// The return type, `None` for `()`.
    pub(crate) output: Option<Type>,
    /// Spring's `#[response_status(..)]`.
    pub(crate) status: Option<crate::spring::Status>,
    /// Spring's `params = ..` and `headers = ..` of the mappings.
    pub(crate) conditions: crate::spring::Conditions,
    /// `#[encoded]` on the method or its impl block: its path, query,
    /// matrix and form parameters are read without percent-decoding.
    pub(crate) encoded: bool,
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
    /// `#[bean_param]`: a struct deriving `BeanParam`.
    Bean,
    /// `#[resolve]`: the type's own resolver, else a resolver factory's.
    Resolve,
    /// `#[request_attribute]`: a typed value stored on the request.
    Attribute,
    /// `#[request_part]`: one part of a multipart body.
    Part,
}

impl Source {
    /// The attribute's name: `query_param`.
    pub(crate) fn attr_name(self) -> &'static str {
        Helper::Source(self).name()
    }
}

/// One parameter of a handler (the receiver excluded).
#[derive(Debug, Clone)]
pub(crate) struct Param {
    /// Position among the parameters, receiver excluded.
    pub(crate) index: usize,
    /// The Rust identifier, `None` for patterns (`_`, `(a, b)`).
    pub(crate) ident: Option<Ident>,
    /// The source attribute; none is the entity.
    pub(crate) source: Slot<Source>,
    /// The name given in the source attribute: `#[query_param("limit")]`.
    pub(crate) explicit_name: Option<LitStr>,
    /// `#[default_value("..")]`.
    pub(crate) default: Slot<LitStr>,
    /// `#[request_serializer("..")]` (the entity's codec).
    pub(crate) request_serializer: Slot<String>,
    pub(crate) ty: Type,
    /// `#[valid]` (on the entity).
    pub(crate) valid: Slot<()>,
    /// `#[encoded]`: read without percent-decoding.
    pub(crate) encoded: Slot<()>,
    /// Spring's `#[request_body(required = false)]`: an `Option<T>` entity,
    /// `None` without a body.
    pub(crate) optional_entity: bool,
    /// The spans of the whole parameter.
    pub(crate) span: Spans,
}

impl Param {
    /// The source; `None` is the entity.
    pub(crate) fn source(&self) -> Option<Source> {
        self.source.value().copied()
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
