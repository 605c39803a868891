//! What the macros record of a route for the OpenAPI document: its doc
//! comment, `#[deprecated]`, a schema function per parameter and one per
//! response. Everything here is reached only through
//! [`__rl_route_doc!`](crate::__rl_route_doc), which expands to `()` when
//! the feature is off, so a build without it links none of this.
//!
//! Schemas are chosen by autoref specialisation: a type implementing
//! `schemars::JsonSchema` gets its schema (referenced from
//! `components/schemas`); any other type gets the empty schema (any
//! value), so turning the feature on never breaks a build.

use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::meta::ParamMeta;

/// Writes the schema of one Rust type into a generator.
pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// How a value travels in a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// Decoded or encoded by the negotiated codec (JSON unless declared otherwise).
    Codec,
    /// Text: `text/plain` unless declared otherwise.
    Text,
    /// Raw bytes: `application/octet-stream` unless declared otherwise.
    Binary,
    /// `multipart/form-data`.
    Multipart,
}

/// How a parameter's value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `T`: required unless it has a default.
    Required,
    /// `Option<T>`.
    Optional,
    /// `Vec<T>`: repeated.
    Repeated,
}

/// One parameter of a route, parallel to its [`ParamMeta`].
#[derive(Debug)]
pub struct ParamDoc {
    /// How the value is read.
    pub shape: Shape,
    /// The schema of the value (of `T` in `Option<T>` and `Vec<T>`).
    pub schema: SchemaFn,
    /// The body kind, for the entity.
    pub body: fn() -> BodyKind,
    /// The fields of a `#[bean_param]`.
    pub fields: &'static [ParamMeta],
}

/// One response a route's return type declares.
#[derive(Debug)]
pub enum ResponseDoc {
    /// A status with a body of this schema.
    Typed(u16, SchemaFn, fn() -> BodyKind),
    /// A status without a body.
    Empty(u16),
    /// A status answered with problem details.
    Problem(u16),
    /// The statuses of an error type ([`ErrorStatuses`](crate::route_doc::ErrorStatuses)),
    /// or `None` when it declares none (then any status).
    Errors(fn() -> Option<&'static [http::StatusCode]>),
    /// A status not known at compile time, with a body of any type.
    Any,
}

/// What the macros record of one route.
#[derive(Debug)]
pub struct RouteDoc {
    /// The first paragraph of the doc comment.
    pub summary: &'static str,
    /// The rest of the doc comment.
    pub description: &'static str,
    /// `#[deprecated]` on the handler.
    pub deprecated: bool,
    /// `#[tag(..)]` on the handler or its impl block (empty: the resource
    /// type's name).
    pub tags: &'static [&'static str],
    /// One per parameter, in declaration order.
    pub params: &'static [ParamDoc],
    /// What the return type says.
    pub responses: &'static [ResponseDoc],
}

/// Selects a type's schema or body kind.
#[derive(Debug)]
pub struct DocProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> DocProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T: ?Sized> Default for DocProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Types with a JSON schema.
pub trait SchemaTyped {
    /// The schema, by reference when the type is named.
    fn __rl_schema(&self, g: &mut SchemaGenerator) -> Schema;
}
impl<T: ?Sized + JsonSchema> SchemaTyped for &DocProbe<T> {
    fn __rl_schema(&self, g: &mut SchemaGenerator) -> Schema {
        g.subschema_for::<T>()
    }
}

/// Types without one: any value.
pub trait SchemaAny {
    /// The empty schema.
    fn __rl_schema(&self, g: &mut SchemaGenerator) -> Schema;
}
impl<T: ?Sized> SchemaAny for DocProbe<T> {
    fn __rl_schema(&self, _: &mut SchemaGenerator) -> Schema {
        Schema::default()
    }
}

/// Text, bytes and multipart bodies.
pub trait BodyRaw {
    /// Their kind.
    fn __rl_body(&self) -> BodyKind;
}
macro_rules! raw {
    ($kind:ident: $($t:ty),*) => {
        $(impl BodyRaw for &DocProbe<$t> {
            fn __rl_body(&self) -> BodyKind {
                BodyKind::$kind
            }
        })*
    };
}
raw!(Text: String, &'static str, std::borrow::Cow<'static, str>);
raw!(Binary: bytes::Bytes, Vec<u8>, crate::BodyStream, crate::MultipartFile);
raw!(Multipart: crate::Multipart);

/// Everything else goes through a codec.
pub trait BodyCodec {
    /// [`BodyKind::Codec`].
    fn __rl_body(&self) -> BodyKind;
}
impl<T: ?Sized> BodyCodec for DocProbe<T> {
    fn __rl_body(&self) -> BodyKind {
        BodyKind::Codec
    }
}

/// Error types that declare their statuses.
pub trait ErrorsDeclared {
    /// The statuses.
    fn __rl_errors(&self) -> Option<&'static [http::StatusCode]>;
}
impl<E: crate::route_doc::ErrorStatuses> ErrorsDeclared for &DocProbe<E> {
    fn __rl_errors(&self) -> Option<&'static [http::StatusCode]> {
        Some(E::STATUSES)
    }
}

/// Error types that do not: any status.
pub trait ErrorsUndeclared {
    /// `None`.
    fn __rl_errors(&self) -> Option<&'static [http::StatusCode]>;
}
impl<E: ?Sized> ErrorsUndeclared for DocProbe<E> {
    fn __rl_errors(&self) -> Option<&'static [http::StatusCode]> {
        None
    }
}

/// The route documentation the macros emit, with the `openapi` feature.
///
/// ```text
/// __rl_route_doc! {
///     summary = "..", description = "..", deprecated = false,
///     tags = ["users"],
///     params = [(Required, u64, &[]), ..],
///     responses = [(typed 201, User), (problem 404), (errors HttpError), (empty 204), (any)],
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __rl_route_doc {
    (
        summary = $summary:expr, description = $description:expr, deprecated = $deprecated:expr,
        tags = [$($tag:literal),* $(,)?],
        params = [$(($shape:ident, $pty:ty, $fields:expr)),* $(,)?],
        responses = [$($resp:tt),* $(,)?] $(,)?
    ) => {
        &$crate::__private::RouteDoc {
            summary: $summary,
            description: $description,
            deprecated: $deprecated,
            tags: &[$($tag),*],
            params: &[$(
                $crate::__private::ParamDoc {
                    shape: $crate::__private::Shape::$shape,
                    schema: $crate::__rl_route_doc!(@schema $pty),
                    body: $crate::__rl_route_doc!(@body $pty),
                    fields: $fields,
                }
            ),*],
            responses: &[$($crate::__rl_route_doc!(@response $resp)),*],
        }
    };
    (@schema $t:ty) => {{
        fn __rl_schema(g: &mut $crate::__private::SchemaGenerator) -> $crate::__private::Schema {
            #[allow(unused_imports)]
            use $crate::__private::{SchemaAny as _, SchemaTyped as _};
            (&&$crate::__private::DocProbe::<$t>::new()).__rl_schema(g)
        }
        __rl_schema as $crate::__private::SchemaFn
    }};
    (@body $t:ty) => {{
        fn __rl_body() -> $crate::__private::BodyKind {
            #[allow(unused_imports)]
            use $crate::__private::{BodyCodec as _, BodyRaw as _};
            (&&$crate::__private::DocProbe::<$t>::new()).__rl_body()
        }
        __rl_body as fn() -> $crate::__private::BodyKind
    }};
    (@response (typed $status:literal, $t:ty)) => {
        $crate::__private::ResponseDoc::Typed(
            $status,
            $crate::__rl_route_doc!(@schema $t),
            $crate::__rl_route_doc!(@body $t),
        )
    };
    (@response (empty $status:literal)) => {
        $crate::__private::ResponseDoc::Empty($status)
    };
    (@response (problem $status:literal)) => {
        $crate::__private::ResponseDoc::Problem($status)
    };
    (@response (any)) => {
        $crate::__private::ResponseDoc::Any
    };
    (@response (errors $e:ty)) => {
        $crate::__private::ResponseDoc::Errors({
            fn __rl_errors() -> ::core::option::Option<&'static [$crate::__private::StatusCode]> {
                #[allow(unused_imports)]
                use $crate::__private::{ErrorsDeclared as _, ErrorsUndeclared as _};
                (&&$crate::__private::DocProbe::<$e>::new()).__rl_errors()
            }
            __rl_errors as fn() -> ::core::option::Option<&'static [$crate::__private::StatusCode]>
        })
    };
}
