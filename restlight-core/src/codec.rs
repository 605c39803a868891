//! Codecs: reading entities by Content-Type and writing values by the
//! negotiated media type.
//!
//! JSON (serde_json) is built in; `text/plain` reads and writes strings.
//! Every read and write goes through [`decode`] and [`encode`], which pick
//! the codec by media type: the seam where further formats plug in.

use std::sync::OnceLock;

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_TYPE};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::body::Body;
use crate::descriptor::ParamMeta;
use crate::error::HttpError;
use crate::media::MediaType;
use crate::response::Response;

/// The media type of problem-details bodies.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The codecs that write any `Serialize` value, best first.
pub fn writable() -> &'static [MediaType] {
    static TYPES: OnceLock<Vec<MediaType>> = OnceLock::new();
    TYPES.get_or_init(|| vec![json()])
}

fn json() -> MediaType {
    MediaType::parse("application/json").expect("static media type")
}

fn is_json(media: &MediaType) -> bool {
    media.essence() == "application/json" || media.subtype().ends_with("+json")
}

/// Writes `value` as `media`.
///
/// # Errors
/// 406 when no codec writes `media`; 500 when the value cannot be serialised.
pub fn encode<T: Serialize + ?Sized>(value: &T, media: &MediaType) -> Result<Bytes, HttpError> {
    if is_json(media) || media.is_wildcard() {
        return serde_json::to_vec(value)
            .map(Bytes::from)
            .map_err(|e| HttpError::internal(format!("the response could not be written as JSON: {e}")));
    }
    Err(HttpError::not_acceptable(format!("no codec writes `{media}`"))
        .with("producible", writable().iter().map(ToString::to_string).collect::<Vec<_>>()))
}

/// Reads an entity of type `T` from `body` sent as `media` (`None`: no
/// Content-Type, read as JSON).
///
/// # Errors
/// 400 naming the field path and position for malformed input; 415 when no
/// codec reads `media`.
pub fn decode<T: DeserializeOwned>(body: &[u8], media: Option<&MediaType>, param: &ParamMeta) -> Result<T, HttpError> {
    match media {
        None => decode_json(body, param),
        Some(m) if is_json(m) => decode_json(body, param),
        Some(m) if m.essence() == "text/plain" => {
            let text = std::str::from_utf8(body).map_err(|e| {
                HttpError::bad_request(format!("entity `{}` is not valid UTF-8 text: {e}", param.name))
                    .with("parameter", param.name)
            })?;
            T::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(text)).map_err(|e| {
                HttpError::bad_request(format!(
                    "entity `{}` of type `{}` cannot be read from text: {e}",
                    param.name, param.rust_type
                ))
                .with("parameter", param.name)
            })
        }
        Some(m) => Err(HttpError::unsupported_media_type(format!("no codec reads `{m}` into `{}`", param.rust_type))
            .with("contentType", m.to_string())
            .with("consumable", vec!["application/json", "text/plain"])),
    }
}

fn decode_json<T: DeserializeOwned>(body: &[u8], param: &ParamMeta) -> Result<T, HttpError> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        json_error(param, &path, e.inner())
    })?;
    de.end().map_err(|e| json_error(param, ".", &e))?;
    Ok(value)
}

fn json_error(param: &ParamMeta, path: &str, inner: &serde_json::Error) -> HttpError {
    let at = if path == "." { String::new() } else { format!(" at `{path}`") };
    HttpError::bad_request(format!(
        "malformed JSON entity `{}`{at} (line {}, column {}): {inner}",
        param.name,
        inner.line(),
        inner.column()
    ))
    .with("parameter", param.name)
    .with("path", path)
    .with("line", inner.line())
    .with("column", inner.column())
}

/// The problem-details response of an error: JSON by default; the dispatcher
/// rewrites it as text for a client that accepts only text.
pub(crate) fn problem_response(error: HttpError) -> Response {
    let body = serde_json::to_vec(&error.to_problem()).unwrap_or_default();
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = error.status();
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
    for (name, value) in error.headers() {
        res.headers_mut().append(name.clone(), value.clone());
    }
    res.extensions_mut().insert(error);
    res
}

/// The problem as plain text, for clients that do not accept JSON.
pub(crate) fn problem_text(error: &HttpError) -> Body {
    Body::from(format!(
        "{} {}: {}\n",
        error.status().as_u16(),
        error.status().canonical_reason().unwrap_or("Error"),
        error.detail()
    ))
}
