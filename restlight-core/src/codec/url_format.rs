//! Negotiation by URL: a query parameter (`?format=json`) and a path suffix
//! (`/ping.json`), both off by default as in the Java original.
//!
//! The suffix is stripped once, before routing: one search for the last
//! `.` in the last segment and one hash lookup of what follows, whatever the
//! number of routes. A path whose stripped form has no route is routed
//! again as sent, so `/files/{name}` still serves `/files/report.json`.

use std::collections::HashMap;
use std::sync::Arc;

use http::{HeaderValue, Uri};

use crate::codec::{Codec, Codecs};
use crate::error::HttpError;

/// The URL negotiation settings of an application.
#[derive(Debug, Clone, Default)]
pub(crate) struct UrlFormatOptions {
    /// The query parameter naming the format; `None`: off.
    pub(crate) param: Option<String>,
    /// Whether a known suffix of the last path segment names the format.
    pub(crate) suffix: bool,
}

/// The settings compiled against the codecs.
#[derive(Debug, Clone, Default)]
pub(crate) struct UrlFormat {
    param: Option<String>,
    suffixes: Option<HashMap<String, Arc<dyn Codec>>>,
}

/// What the URL says: the path to route and the codec it names.
#[derive(Debug)]
pub(crate) struct FromUrl {
    /// The length of the path to route (shorter than the path when a
    /// suffix was stripped).
    pub(crate) path_len: usize,
    pub(crate) codec: Option<Arc<dyn Codec>>,
    /// Whether the codec came from a stripped suffix.
    pub(crate) stripped: bool,
}

impl FromUrl {
    /// The `Accept` the URL stands for, if it names a format.
    pub(crate) fn accept(&self) -> Option<HeaderValue> {
        self.codec.as_ref().map(|c| c.media_type().header_value().clone())
    }
}

impl UrlFormat {
    pub(crate) fn new(options: &UrlFormatOptions, codecs: &Codecs) -> Self {
        let suffixes =
            options.suffix.then(|| codecs.iter().map(|c| (c.format().to_ascii_lowercase(), Arc::clone(c))).collect());
        Self { param: options.param.clone(), suffixes }
    }

    /// Reads the format from the URL.
    ///
    /// # Errors
    /// 406 when the format parameter names no codec, listing the formats.
    #[inline]
    pub(crate) fn resolve(&self, uri: &Uri, codecs: &Codecs) -> Result<FromUrl, HttpError> {
        if self.param.is_none() && self.suffixes.is_none() {
            // Off (the default): the path as sent, no codec.
            return Ok(FromUrl { path_len: uri.path().len(), codec: None, stripped: false });
        }
        self.resolve_on(uri, codecs)
    }

    /// [`resolve`](Self::resolve) with a format parameter or suffixes on.
    fn resolve_on(&self, uri: &Uri, codecs: &Codecs) -> Result<FromUrl, HttpError> {
        let path = uri.path();
        let mut out = FromUrl { path_len: path.len(), codec: None, stripped: false };
        if let Some(suffixes) = &self.suffixes {
            let last = path.rfind('/').map_or(0, |i| i + 1);
            if let Some(dot) = path[last..].rfind('.') {
                let dot = last + dot;
                if let Some(codec) = suffixes.get(&path[dot + 1..]) {
                    out = FromUrl { path_len: dot, codec: Some(Arc::clone(codec)), stripped: true };
                }
            }
        }
        if let (Some(name), Some(query)) = (&self.param, uri.query()) {
            if let Some((_, value)) = form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == name.as_str()) {
                let codec = codecs.by_name(&value).ok_or_else(|| {
                    let known = codecs.formats();
                    HttpError::not_acceptable(format!(
                        "the format `{value}` asked for by `?{name}=` is unknown; known formats: {}",
                        known.join(", ")
                    ))
                    .with("format", value.as_ref())
                    .with("formats", known)
                })?;
                out.codec = Some(Arc::clone(codec));
            }
        }
        Ok(out)
    }
}
