//! [`PathSegment`]: one segment of the request path with its matrix
//! parameters, as JAX-RS's `PathSegment`.

use crate::error::HttpError;
use crate::meta::ParamMeta;
use crate::param::FromParam;
use crate::request::RequestContext;

/// One segment of the request path, percent-decoded, with its `;name=value`
/// matrix parameters.
///
/// As a `#[path_param]` it is the segment the template variable matched:
/// `seg: PathSegment` for `{seg}` (the whole segment, also when the variable
/// shares it with literal text), `Vec<PathSegment>` for a variable whose
/// regex spans segments (`{path: .+}`).
///
/// In a handler without macros, [`PathSegment::of`] reads them:
///
/// ```
/// use restlight_core::{get, test::MockClient, AppBuilder, PathSegment};
///
/// let app = AppBuilder::new()
///     .route(get("/cars/{make}/{model}").handle(|ctx| async move {
///         let make = PathSegment::of(&ctx, "make").remove(0);
///         format!("{} in {}", make.path(), make.matrix_param("color").unwrap_or("any colour"))
///     }))
///     .build()
///     .unwrap();
/// let client = MockClient::new(app);
/// assert_eq!(client.get("/cars/fiat;color=red/panda").send_blocking().text(), "fiat in red");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathSegment {
    path: String,
    matrix: Vec<(String, String)>,
}

impl PathSegment {
    /// A segment with this (decoded) text and matrix parameters.
    #[must_use]
    pub fn new(path: impl Into<String>, matrix: Vec<(String, String)>) -> Self {
        Self { path: path.into(), matrix }
    }

    /// The segment's text, percent-decoded, without its matrix parameters.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The first value of the matrix parameter `name` of this segment.
    #[must_use]
    pub fn matrix_param(&self, name: &str) -> Option<&str> {
        self.matrix.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The path segments the template variable `name` of the request's
    /// route matched, each with its matrix parameters: one for `{id}`,
    /// several for a variable whose regex spans segments; empty for a name
    /// that is no variable of the route.
    #[must_use]
    pub fn of(ctx: &RequestContext, name: &str) -> Vec<PathSegment> {
        let Some(range) = ctx.path_params.segments(name) else { return Vec::new() };
        let body = crate::router::route_body_of(ctx.uri().path());
        body.split('/')
            .enumerate()
            .skip(range.start)
            .take(range.len())
            .map(|(i, raw)| {
                let text = raw.split_once(';').map_or(raw, |(text, _)| text);
                let text = percent_encoding::percent_decode_str(text).decode_utf8_lossy().into_owned();
                let matrix = ctx.matrix().of_segment(i).map(|(n, v)| (n.to_owned(), v.to_owned())).collect();
                PathSegment::new(text, matrix)
            })
            .collect()
    }

    /// Every matrix parameter of this segment, `(name, value)` in order.
    pub fn matrix_params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.matrix.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

impl FromParam for PathSegment {
    /// A segment of this text without matrix parameters; a handler's
    /// `#[path_param]` is read from the request instead (with them).
    fn from_param(value: &str) -> Result<Self, String> {
        Ok(Self::new(value, Vec::new()))
    }

    fn from_request(ctx: &RequestContext, meta: &ParamMeta) -> Result<Option<Self>, HttpError> {
        Ok(Self::of(ctx, meta.name).into_iter().next())
    }

    fn all_from_request(ctx: &RequestContext, meta: &ParamMeta) -> Result<Option<Vec<Self>>, HttpError> {
        Ok(Some(Self::of(ctx, meta.name)))
    }
}
