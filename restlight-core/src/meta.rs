//! What the macros record of each handler parameter: its name, its source
//! and its default, fixed at compile time and read by the parameter readers
//! and their error messages.

/// Where a value of a handler parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParamSource {
    /// A variable of the path template (`#[path_param]`).
    Path,
    /// The query string (`#[query_param]`).
    Query,
    /// A request header (`#[header_param]`).
    Header,
    /// A cookie of the `Cookie` header (`#[cookie_param]`).
    Cookie,
    /// A `;name=value` matrix parameter of a path segment (`#[matrix_param]`).
    Matrix,
    /// A field of an `application/x-www-form-urlencoded` body (`#[form_param]`).
    Form,
    /// The request entity, decoded by Content-Type (the unannotated parameter).
    Entity,
    /// One named part of a `multipart/form-data` body (`#[request_part]`,
    /// Spring's `@RequestPart`).
    Part,
    /// The request or an application bean (`#[context]`).
    Context,
    /// A value of the user's own type, resolved by its
    /// [`FromRequest`](crate::FromRequest) implementation or a registered
    /// [`ResolverFactory`](crate::ResolverFactory) (`#[resolve]`).
    Resolved,
    /// A request attribute: a typed value a filter, interceptor or layer
    /// stored in the request's extensions (`#[request_attribute]`).
    Attribute,
    /// A struct gathered from several sources (`#[bean_param]`, a type
    /// deriving [`BeanParam`](crate::BeanParam)).
    Bean,
}

impl ParamSource {
    /// The source as it is named in error messages: `query`, `header`, ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Path => "path",
            Self::Query => "query",
            Self::Header => "header",
            Self::Cookie => "cookie",
            Self::Matrix => "matrix",
            Self::Form => "form",
            Self::Entity => "entity",
            Self::Part => "part",
            Self::Context => "context",
            Self::Resolved => "resolved",
            Self::Attribute => "attribute",
            Self::Bean => "bean",
        }
    }
}

impl std::fmt::Display for ParamSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Metadata of one handler parameter, fixed at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamMeta {
    /// The name looked up in the source (defaults to the Rust identifier).
    pub name: &'static str,
    /// Where the value comes from.
    pub source: ParamSource,
    /// The `#[default_value("..")]`, used when the value is absent.
    pub default: Option<&'static str>,
    /// The Rust type as written, for error messages and route listings.
    pub rust_type: &'static str,
}
