//! Protocol Buffers through prost (feature `protobuf`).
//!
//! prost types are not serde types, so they do not go through the codec
//! registry: wrap them in [`Protobuf`], as the entity of an annotated
//! handler, as its return value, or in builder routes.

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
