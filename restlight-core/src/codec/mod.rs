//! Codecs: reading entities by Content-Type and writing values by the
//! negotiated media type.
//!
//! A [`Codec`] reads an entity from one media type and writes a value to it.
//! The application keeps them in a [`Codecs`] registry ordered by priority;
//! register your own with `AppBuilder::codec` (or `Restlight::codec`).
//!
//! | codec | media type | format name | cargo feature |
//! |---|---|---|---|
//! | [`JsonCodec`] | `application/json` (and `*+json`) | `json` | always |
//! | [`FormCodec`] | `application/x-www-form-urlencoded` | `form` | always |
//! | [`TextCodec`] | `text/plain` (strings, numbers, booleans) | `text` | always |
//! | `MsgPackCodec` | `application/msgpack` | `msgpack` | `msgpack` |
//! | `CborCodec` | `application/cbor` | `cbor` | `cbor` |
//! | `Protobuf<T>` | `application/x-protobuf` | | `protobuf` |
//!
//! Protobuf is not serde: `prost::Message` types are read and written
//! through the `Protobuf<T>` wrapper, as the entity or as the return value.
//!
//! # Which codec writes a response
//!
//! The route's declared serializer (`#[serializer("..")]`,
//! `#[response_serializer("..")]`, `RouteBuilder::serializer`), else the URL
//! format (`?format=json` or `/ping.json`, both off by default), else
//! `Accept` against the route's `produces` (or, without `produces`, against
//! every codec), best `q` first, then the more specific range, then the
//! registry's priority. A codec that cannot represent the value (text for a
//! struct) passes to the next acceptable one; when none is left the answer
//! is 406 listing the producible types.
//!
//! # Which codec reads an entity
//!
//! The declared request serializer (`#[request_serializer("..")]` on the
//! method or the entity parameter), else the URL format, else the one for
//! Content-Type (415 listing the readable types when there is none); without
//! Content-Type, the highest-priority codec (JSON).
//!
//! ```
//! use restlight_core::codec::{Codecs, JsonCodec};
//! use restlight_core::media::MediaType;
//!
//! let codecs = Codecs::default();
//! let json = MediaType::parse("application/vnd.api+json").unwrap();
//! assert_eq!(codecs.for_media(&json).unwrap().format(), "json");
//! assert_eq!(codecs.by_name("json").unwrap().media_type().essence(), "application/json");
//! # let _ = JsonCodec;
//! ```

#[cfg(feature = "cbor")]
mod cbor;
mod error;
mod form;
pub(crate) mod json;
#[cfg(feature = "msgpack")]
mod msgpack;
#[cfg(feature = "protobuf")]
mod protobuf;
pub(crate) mod read;
mod registry;
mod text;
pub(crate) mod url_format;
mod write;

use bytes::Bytes;

use crate::error::HttpError;
use crate::media::MediaType;

#[cfg(feature = "cbor")]
pub use cbor::CborCodec;
pub use error::CodecError;
pub use form::FormCodec;
pub use json::JsonCodec;
#[cfg(feature = "msgpack")]
pub use msgpack::MsgPackCodec;
#[cfg(feature = "protobuf")]
pub use protobuf::{Protobuf, PROTOBUF};
pub(crate) use read::EntityCodecs;
pub use registry::Codecs;
pub use text::TextCodec;
pub(crate) use write::write_entity;

/// The media type of problem-details bodies.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// What the codec hands to the entity reader: a deserializer over the body.
pub type Visit<'v> = dyn FnMut(&mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error> + 'v;

/// Reads entities from one media type and writes values to it.
///
/// Object-safe through [`erased_serde`], so codecs live in the registry as
/// `Arc<dyn Codec>`. A codec for a new format implements [`write`] with the
/// format's serializer over the erased value and [`read`] by handing the
/// format's deserializer over the body to `visit`:
///
/// ```
/// use restlight_core::codec::{Codec, CodecError, Visit};
/// use restlight_core::media::MediaType;
///
/// /// JSON under a vendor type, pretty-printed.
/// struct Pretty(MediaType);
///
/// impl Codec for Pretty {
///     fn media_type(&self) -> &MediaType { &self.0 }
///     fn format(&self) -> &str { "pretty" }
///     fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
///         serde_json::to_vec_pretty(value).map_err(CodecError::write)
///     }
///     fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError> {
///         let mut de = serde_json::Deserializer::from_slice(body);
///         visit(&mut <dyn erased_serde::Deserializer>::erase(&mut de)).map_err(CodecError::malformed)?;
///         de.end().map_err(CodecError::malformed)
///     }
/// }
///
/// let app = restlight_core::AppBuilder::new()
///     .codec(Pretty(MediaType::parse("application/vnd.pretty+json").unwrap()))
///     .build()
///     .unwrap();
/// # let _ = app;
/// ```
///
/// [`write`]: Codec::write
/// [`read`]: Codec::read
pub trait Codec: Send + Sync + 'static {
    /// The media type written (the response's `Content-Type`) and read.
    fn media_type(&self) -> &MediaType;

    /// The short name used by the URL format (`?format=json`, `/x.json`)
    /// and accepted by the serializer attributes besides the media type.
    fn format(&self) -> &str;

    /// Whether the codec reads and writes `media`. Default: the same
    /// `type/subtype` as [`media_type`](Self::media_type), parameters aside.
    fn handles(&self, media: &MediaType) -> bool {
        media.essence() == self.media_type().essence()
    }

    /// Order in the registry: higher first; the first codec is the one used
    /// when the client states no preference. Default: 0 (JSON has 100).
    fn priority(&self) -> i32 {
        0
    }

    /// Writes the value. Return [`CodecError::unsupported`] for a value the
    /// format cannot represent, so that negotiation tries the next codec.
    ///
    /// # Errors
    /// The value cannot be written in this format.
    fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError>;

    /// Whether this is Restlight's own [`JsonCodec`]: values it writes are
    /// then serialized without type erasure. Not for other codecs.
    #[doc(hidden)]
    fn is_builtin_json(&self) -> bool {
        false
    }

    /// Reads the body: calls `visit` with a deserializer over it, then
    /// checks that nothing follows.
    ///
    /// # Errors
    /// Malformed input, or the error `visit` returned.
    fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError>;
}

impl std::fmt::Debug for dyn Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Codec")
            .field("media_type", &self.media_type().to_string())
            .field("format", &self.format())
            .finish()
    }
}

/// The codecs that write any `Serialize` value by default, best first.
#[must_use]
pub fn writable() -> &'static [MediaType] {
    Codecs::shared().writable()
}

/// Writes `value` as `media` with the default registry.
///
/// # Errors
/// 406 when no codec writes `media`; 500 when the value cannot be serialised.
pub fn encode<T: serde::Serialize + ?Sized>(value: &T, media: &MediaType) -> Result<Bytes, HttpError> {
    let codecs = Codecs::shared();
    let media = if media.is_wildcard() { codecs.first().media_type() } else { media };
    let Some(codec) = codecs.for_media(media) else {
        return Err(HttpError::not_acceptable(format!("no codec writes `{media}`"))
            .with("producible", codecs.writable().iter().map(ToString::to_string).collect::<Vec<_>>()));
    };
    let value: &dyn erased_serde::Serialize = &value;
    codec
        .write(value)
        .map(Bytes::from)
        .map_err(|e| HttpError::internal(format!("the response could not be written as `{}`: {e}", codec.media_type())))
}
