//! Parameter conversion: from the text of a path variable, query value,
//! header, cookie, matrix or form field to the handler's type.

use std::fmt::Display;
use std::str::FromStr;

use crate::error::HttpError;
use crate::meta::{ParamMeta, ParamSource};
use crate::request::RequestContext;

/// Converts the text of a request parameter into a value.
///
/// Implemented for every `FromStr` type whose error is `Display`: the std
/// numbers, `bool`, `char`, `String`, `IpAddr`, `Uuid`-like types, ... To read
/// your own type, implement `FromStr` for it.
///
/// ```
/// use restlight_core::FromParam;
/// assert_eq!(u16::from_param("8080"), Ok(8080));
/// assert!(u8::from_param("300").is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a request parameter",
    label = "this type cannot be converted from the parameter's text",
    note = "implement `std::str::FromStr` (with an error that implements `Display`) for `{Self}`, or take `String`"
)]
pub trait FromParam: Sized {
    /// Parses the value.
    ///
    /// # Errors
    /// A message saying why the text is not a valid value.
    fn from_param(value: &str) -> Result<Self, String>;

    /// Reads the parameter from the request itself instead of its text
    /// ([`PathSegment`](crate::PathSegment) does, for its matrix
    /// parameters); `Ok(None)` to read the text. Not for users' types.
    #[doc(hidden)]
    fn from_request(_ctx: &RequestContext, _meta: &ParamMeta) -> Result<Option<Self>, HttpError> {
        Ok(None)
    }

    /// As [`from_request`](Self::from_request), for every value of a
    /// repeated parameter; `Ok(None)` to read the texts.
    #[doc(hidden)]
    fn all_from_request(_ctx: &RequestContext, _meta: &ParamMeta) -> Result<Option<Vec<Self>>, HttpError> {
        Ok(None)
    }
}

impl<T> FromParam for T
where
    T: FromStr,
    T::Err: Display,
{
    fn from_param(value: &str) -> Result<Self, String> {
        value.parse().map_err(|e: T::Err| e.to_string())
    }
}

/// 400 for a required parameter the request lacks, with its name and
/// source: the one wording of every missing value ("missing required query
/// parameter \`q\`"; for a multipart part, "missing required part \`avatar\`").
pub(crate) fn missing(meta: &ParamMeta) -> HttpError {
    let what = match meta.source {
        ParamSource::Part => "part".to_owned(),
        source => format!("{source} parameter"),
    };
    HttpError::bad_request(format!("missing required {what} `{}`", meta.name))
        .with("parameter", meta.name)
        .with("source", meta.source.as_str())
}

/// The type a single value converts to: `u8` for `Option<u8>` or `Vec<u8>`.
fn value_type(rust_type: &str) -> &str {
    ["Option<", "Vec<"]
        .iter()
        .find_map(|w| rust_type.strip_prefix(w).and_then(|t| t.strip_suffix('>')))
        .map_or(rust_type, str::trim)
}

fn invalid(meta: &ParamMeta, value: &str, why: &str) -> HttpError {
    HttpError::bad_request(format!(
        "{} parameter `{}`: `{value}` is not a valid `{}`: {why}",
        meta.source,
        meta.name,
        value_type(meta.rust_type)
    ))
    .with("parameter", meta.name)
    .with("source", meta.source.as_str())
    .with("value", value)
}

/// Parses one value; an empty value that does not parse counts as absent.
fn parse<T: FromParam>(meta: &ParamMeta, value: &str) -> Result<Option<T>, HttpError> {
    match T::from_param(value) {
        Ok(v) => Ok(Some(v)),
        Err(_) if value.is_empty() => Ok(None),
        Err(why) => Err(invalid(meta, value, &why)),
    }
}

fn parse_default<T: FromParam>(meta: &ParamMeta) -> Result<Option<T>, HttpError> {
    match meta.default {
        Some(d) => T::from_param(d).map(Some).map_err(|why| {
            HttpError::internal(format!(
                "the default value `{d}` of {} parameter `{}` is not a valid `{}`: {why}",
                meta.source,
                meta.name,
                value_type(meta.rust_type)
            ))
        }),
        None => Ok(None),
    }
}

/// An optional parameter (`Option<T>`): absent and without default is `None`.
///
/// # Errors
/// 400 naming the parameter, its source and the value when it does not convert.
pub fn optional<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta) -> Result<Option<T>, HttpError> {
    if let Some(value) = T::from_request(ctx, meta)? {
        return Ok(Some(value));
    }
    if let Some(raw) = ctx.first_value(meta.source, meta.name) {
        if let Some(v) = parse(meta, &raw)? {
            return Ok(Some(v));
        }
    }
    parse_default(meta)
}

/// [`optional`] for a path variable (`meta.source` is the path) at
/// `index` among the variables of the route's template, as the macros know
/// it: found by one comparison of its name instead of a search (the same
/// value whatever `index` is; see [`PathParams::get_at`](crate::router::PathParams::get_at)).
///
/// # Errors
/// 400 naming the parameter, its source and the value when it does not convert.
pub fn path_optional<T: FromParam>(
    ctx: &RequestContext,
    meta: &ParamMeta,
    index: usize,
) -> Result<Option<T>, HttpError> {
    if let Some(value) = T::from_request(ctx, meta)? {
        return Ok(Some(value));
    }
    if let Some(raw) = ctx.path_params.get_at(index, meta.name) {
        if let Some(v) = parse(meta, raw)? {
            return Ok(Some(v));
        }
    }
    parse_default(meta)
}

/// [`required`] for a path variable at `index`, as [`path_optional`].
///
/// # Errors
/// 400 when missing or not convertible.
pub fn path_required<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta, index: usize) -> Result<T, HttpError> {
    path_optional(ctx, meta, index)?.ok_or_else(|| missing(meta))
}

/// An optional `#[encoded]` parameter: the value as the request wrote it,
/// without percent-decoding (JAX-RS's `@Encoded`), else the default.
///
/// # Errors
/// 400 when the value does not convert.
pub fn encoded_optional<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta) -> Result<Option<T>, HttpError> {
    if let Some(raw) = ctx.raw_values(meta.source, meta.name).first() {
        if let Some(v) = parse(meta, raw)? {
            return Ok(Some(v));
        }
    }
    parse_default(meta)
}

/// A required `#[encoded]` parameter: absent without default is 400.
///
/// # Errors
/// 400 when missing or not convertible.
pub fn encoded_required<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
    encoded_optional(ctx, meta)?.ok_or_else(|| missing(meta))
}

/// A repeated `#[encoded]` parameter: every value as written.
///
/// # Errors
/// 400 naming the first value that does not convert.
pub fn encoded_repeated<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta) -> Result<Vec<T>, HttpError> {
    let values = ctx.raw_values(meta.source, meta.name);
    let mut out = Vec::with_capacity(values.len());
    for raw in &values {
        if let Some(v) = parse(meta, raw)? {
            out.push(v);
        }
    }
    if out.is_empty() {
        out.extend(parse_default(meta)?);
    }
    Ok(out)
}

/// A required parameter: absent without default is 400.
///
/// # Errors
/// 400 when missing or not convertible.
pub fn required<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
    optional(ctx, meta)?.ok_or_else(|| missing(meta))
}

/// A repeated parameter (`Vec<T>`): every value in request order; none gives
/// the default value alone, or an empty list.
///
/// # Errors
/// 400 naming the first value that does not convert.
pub fn repeated<T: FromParam>(ctx: &RequestContext, meta: &ParamMeta) -> Result<Vec<T>, HttpError> {
    if let Some(values) = T::all_from_request(ctx, meta)? {
        return Ok(values);
    }
    let values = ctx.all_values(meta.source, meta.name);
    let mut out = Vec::with_capacity(values.len());
    for raw in &values {
        if let Some(v) = parse(meta, raw)? {
            out.push(v);
        }
    }
    if out.is_empty() {
        out.extend(parse_default(meta)?);
    }
    Ok(out)
}
