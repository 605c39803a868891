//! Reading the entity: raw types ([`FromBody`]: bytes and text, whatever
//! the Content-Type) and decoded types (the declared codec, the URL format
//! or the codec of the Content-Type), and the Protocol Buffers wrapper read
//! and written outside the codec registry.

use bytes::Bytes;
use serde::de::DeserializeOwned;

use crate::codec::Codecs;
use crate::error::HttpError;
use crate::meta::ParamMeta;
use crate::request::RequestContext;

/// Reads the entity `T` of the request with the codec that applies.
///
/// # Errors
/// 400 naming the field path for malformed input; 415 listing the readable
/// types when no codec reads the Content-Type.
pub(crate) fn decode_with<T: DeserializeOwned>(ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
    let forced = ctx.codecs.as_ref().and_then(|c| c.forced.as_ref());
    let media = match forced {
        Some(_) => None,
        None => ctx.content_type()?,
    };
    decode_bytes(ctx, media.as_ref(), forced, ctx.body(), meta, "entity")
}

/// Decodes `body` into `T` with `forced`, else the application's codec for
/// `media`, else its first codec (JSON); `what` names the value in errors
/// (`entity`, `part`).
///
/// # Errors
/// 400 naming the field path for malformed input; 415 listing the readable
/// types when no codec reads `media`.
pub(crate) fn decode_bytes<T: DeserializeOwned>(
    ctx: &RequestContext,
    media: Option<&crate::media::MediaType>,
    forced: Option<&std::sync::Arc<dyn crate::codec::Codec>>,
    body: &Bytes,
    meta: &ParamMeta,
    what: &str,
) -> Result<T, HttpError> {
    let shared;
    let registry = match &ctx.codecs {
        Some(c) => &*c.registry,
        None => {
            shared = Codecs::shared();
            shared
        }
    };
    let codec = match forced {
        Some(c) => c,
        None => match media {
            None => registry.first(),
            Some(media) => registry.for_media(media).ok_or_else(|| {
                let readable: Vec<String> = registry.writable().iter().map(ToString::to_string).collect();
                HttpError::unsupported_media_type(format!(
                    "no codec reads `{media}` into {what} `{}` of type `{}`; readable: {}",
                    meta.name,
                    meta.rust_type,
                    readable.join(", ")
                ))
                .with("contentType", media.to_string())
                .with("consumable", readable)
            })?,
        },
    };
    let mut out: Option<T> = None;
    let mut path = String::from(".");
    let read = codec.read(body, &mut |de| match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(v) => {
            out = Some(v);
            Ok(())
        }
        Err(e) => {
            path = e.path().to_string();
            Err(e.into_inner())
        }
    });
    match (read, out) {
        (Ok(()), Some(v)) => Ok(v),
        (result, _) => {
            let why = result.err().map_or_else(|| "no value".to_owned(), |e| e.to_string());
            let at = if path == "." { String::new() } else { format!(" at `{path}`") };
            Err(HttpError::bad_request(format!(
                "malformed `{}` {what} `{}`{at}: {why}",
                codec.media_type().essence(),
                meta.name
            ))
            .with("parameter", meta.name)
            .with("path", path)
            .with("contentType", codec.media_type().essence()))
        }
    }
}

/// Entity types read from the raw body whatever the Content-Type.
pub trait FromBody: Sized {
    /// Reads the value.
    ///
    /// # Errors
    /// 400 when the body is not valid for the type.
    fn from_body(body: &Bytes, meta: &ParamMeta) -> Result<Self, HttpError>;

    /// Reads the value from the request; by default from its body alone.
    ///
    /// # Errors
    /// 400 when the body is not valid for the type, 415 for a Content-Type
    /// the type cannot be read from.
    fn from_request(ctx: &RequestContext, meta: &ParamMeta) -> Result<Self, HttpError> {
        Self::from_body(ctx.body(), meta)
    }
}

impl FromBody for Bytes {
    fn from_body(body: &Bytes, _: &ParamMeta) -> Result<Self, HttpError> {
        Ok(body.clone())
    }
}

impl FromBody for Vec<u8> {
    fn from_body(body: &Bytes, _: &ParamMeta) -> Result<Self, HttpError> {
        Ok(body.to_vec())
    }
}

impl FromBody for String {
    fn from_body(body: &Bytes, meta: &ParamMeta) -> Result<Self, HttpError> {
        String::from_utf8(body.to_vec()).map_err(|e| {
            HttpError::bad_request(format!("entity `{}` is not valid UTF-8: {e}", meta.name))
                .with("parameter", meta.name)
        })
    }
}

#[cfg(feature = "protobuf")]
mod protobuf {
    use bytes::Bytes;
    use http::header::{HeaderValue, CONTENT_TYPE};

    use super::FromBody;
    use crate::body::Body;
    use crate::codec::{Protobuf, PROTOBUF};
    use crate::error::HttpError;
    use crate::meta::{ParamMeta, ParamSource};
    use crate::request::RequestContext;
    use crate::response::{IntoResponse, Response};

    impl<T: prost::Message + Default> Protobuf<T> {
        /// Reads the message from a request (for builder routes).
        ///
        /// # Errors
        /// 415 for another Content-Type, 400 for a body that does not decode.
        pub fn read(ctx: &RequestContext) -> Result<Self, HttpError> {
            const META: ParamMeta =
                ParamMeta { name: "entity", source: ParamSource::Entity, default: None, rust_type: "Protobuf<T>" };
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
}
