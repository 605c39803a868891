//! Protocol Buffers through prost (feature `protobuf`).
//!
//! prost types are not serde types, so they do not go through the codec
//! registry: wrap them in [`Protobuf`], as the entity of an annotated
//! handler, as its return value, or in builder routes.

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_TYPE};

use super::read::FromBody;
use crate::body::Body;
use crate::descriptor::ParamMeta;
use crate::error::HttpError;
use crate::request::RequestContext;
use crate::response::{IntoResponse, Response};

/// The media type of Protocol Buffers bodies: `application/x-protobuf`.
pub const PROTOBUF: &str = "application/x-protobuf";

/// A `prost::Message` read from or written as `application/x-protobuf`.
///
/// As an entity it accepts a request without Content-Type or with
/// `application/x-protobuf` (`application/protobuf` too), else 415; a body
/// that does not decode is 400. As a return value it is written with
/// `Content-Type: application/x-protobuf` whatever `Accept` says (as
/// [`Json`](crate::Json) is for JSON), with `X-Protobuf-Message` naming the
/// Rust type of the message.
///
/// ```
/// use restlight_core::codec::Protobuf;
/// use restlight_core::IntoResponse;
///
/// #[derive(Clone, PartialEq, prost::Message)]
/// struct Ping { #[prost(string, tag = "1")] text: String }
///
/// let res = Protobuf(Ping { text: "pong".into() }).into_response();
/// assert_eq!(res.headers()["content-type"], "application/x-protobuf");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Protobuf<T>(pub T);

impl<T: prost::Message + Default> Protobuf<T> {
    /// Reads the message from a request (for builder routes).
    ///
    /// # Errors
    /// 415 for another Content-Type, 400 for a body that does not decode.
    pub fn read(ctx: &RequestContext) -> Result<Self, HttpError> {
        const META: ParamMeta =
            ParamMeta { name: "entity", source: crate::descriptor::ParamSource::Entity, default: None, rust_type: "Protobuf<T>" };
        Self::from_request(ctx, &META)
    }
}

impl<T: prost::Message + Default> FromBody for Protobuf<T> {
    fn from_body(body: &Bytes, meta: &ParamMeta) -> Result<Self, HttpError> {
        T::decode(body.as_ref()).map(Protobuf).map_err(|e| {
            HttpError::bad_request(format!("malformed `{PROTOBUF}` entity `{}`: {e}", meta.name))
                .with("parameter", meta.name)
                .with("contentType", PROTOBUF)
        })
    }

    fn from_request(ctx: &RequestContext, meta: &ParamMeta) -> Result<Self, HttpError> {
        if let Some(media) = ctx.content_type()? {
            if !matches!(media.essence(), PROTOBUF | "application/protobuf") {
                return Err(HttpError::unsupported_media_type(format!(
                    "entity `{}` is read from `{PROTOBUF}` only, not from `{media}`",
                    meta.name
                ))
                .with("contentType", media.to_string())
                .with("consumable", vec![PROTOBUF]));
            }
        }
        Self::from_body(ctx.body(), meta)
    }
}

impl<T: prost::Message> IntoResponse for Protobuf<T> {
    fn into_response(self) -> Response {
        let mut res = Response::new(Body::from(self.0.encode_to_vec()));
        res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(PROTOBUF));
        let name = std::any::type_name::<T>();
        if let Ok(v) = HeaderValue::from_str(name) {
            res.headers_mut().insert("x-protobuf-message", v);
        }
        res
    }
}
