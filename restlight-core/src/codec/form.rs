//! `application/x-www-form-urlencoded` through serde_urlencoded.

use super::json::media;
use super::{Codec, CodecError, Visit};
use crate::media::MediaType;

/// `application/x-www-form-urlencoded`: flat structs and maps of scalars.
/// Nested values are [`unsupported`](CodecError::unsupported) when writing.
#[derive(Debug, Clone, Copy, Default)]
pub struct FormCodec;

impl Codec for FormCodec {
    fn media_type(&self) -> &MediaType {
        media("application/x-www-form-urlencoded")
    }

    fn format(&self) -> &str {
        "form"
    }

    fn priority(&self) -> i32 {
        -5
    }

    fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
        serde_urlencoded::to_string(value).map(String::into_bytes).map_err(CodecError::unsupported)
    }

    fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError> {
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(body));
        visit(&mut <dyn erased_serde::Deserializer>::erase(de)).map_err(CodecError::malformed)
    }
}
