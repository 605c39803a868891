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
        // Through the JSON writer the JSON codec instantiates already (a
        // `serde_json::Value` in between would link a second erased
        // serializer): a number or a boolean is its JSON text, a string is
        // unquoted, anything else is refused.
        let mut json = serde_json::to_vec(value).map_err(CodecError::write)?;
        match json.first() {
            // Nothing escaped: the text between the quotes, not parsed again.
            Some(b'"') if !json.contains(&b'\\') => {
                json.pop();
                json.remove(0);
                Ok(json)
            }
            Some(b'"') => serde_json::from_slice::<String>(&json).map(String::into_bytes).map_err(CodecError::write),
            Some(b'-' | b'0'..=b'9' | b't' | b'f') => Ok(json),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn write(value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
        TextCodec.write(value)
    }

    #[test]
    fn strings_numbers_and_booleans_are_written_as_text() {
        assert_eq!(write(&"plain").unwrap(), b"plain");
        assert_eq!(
            write(&"quote \" slash \\ tab \t é \u{1F600}".to_owned()).unwrap(),
            "quote \" slash \\ tab \t é \u{1F600}".as_bytes()
        );
        assert_eq!(write(&'c').unwrap(), b"c");
        assert_eq!(write(&"").unwrap(), b"");
        assert_eq!(write(&42u64).unwrap(), b"42");
        assert_eq!(write(&-7i32).unwrap(), b"-7");
        assert_eq!(write(&1.5f64).unwrap(), b"1.5");
        assert_eq!(write(&true).unwrap(), b"true");
        assert_eq!(write(&false).unwrap(), b"false");
        assert_eq!(write(&Some(3u8)).unwrap(), b"3");
    }

    #[test]
    fn anything_else_is_unsupported() {
        let refused: [&dyn erased_serde::Serialize; 5] =
            [&None::<u8>, &(), &vec![1, 2], &std::collections::BTreeMap::from([("a", 1)]), &f64::NAN];
        for value in refused {
            assert!(write(value).unwrap_err().is_unsupported());
        }
    }
}
