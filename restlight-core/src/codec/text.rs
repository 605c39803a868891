//! `text/plain`: strings, and numbers or booleans written as text.

use serde::de::value::StrDeserializer;

use super::json::media;
use super::{Codec, CodecError, Visit};
use crate::media::MediaType;

/// `text/plain`: reads the body as UTF-8 text into a string (or a type that
/// deserializes from one); writes strings as they are and numbers and
/// booleans in their usual form. Anything else is
/// [`unsupported`](CodecError::unsupported), so negotiation moves on.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextCodec;

impl Codec for TextCodec {
    fn media_type(&self) -> &MediaType {
        media("text/plain")
    }

    fn format(&self) -> &str {
        "text"
    }

    fn priority(&self) -> i32 {
        -10
    }

    fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
        match serde_json::to_value(value).map_err(CodecError::write)? {
            serde_json::Value::String(s) => Ok(s.into_bytes()),
            v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_)) => Ok(v.to_string().into_bytes()),
            _ => Err(CodecError::unsupported("only strings, numbers and booleans can be written as text/plain")),
        }
    }

    fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError> {
        let text =
            std::str::from_utf8(body).map_err(|e| CodecError::malformed(format!("not valid UTF-8 text: {e}")))?;
        let de = StrDeserializer::<serde::de::value::Error>::new(text);
        visit(&mut <dyn erased_serde::Deserializer>::erase(de)).map_err(CodecError::malformed)
    }
}
