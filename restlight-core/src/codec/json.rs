//! JSON through serde_json.

use std::sync::OnceLock;

use super::{Codec, CodecError, Visit};
use crate::media::MediaType;

/// `application/json`, also reading and writing `application/*+json`.
/// Priority 100: the default when the client states no preference.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonCodec;

pub(crate) fn media(essence: &'static str) -> &'static MediaType {
    // A handful of static types, parsed once each.
    static TYPES: OnceLock<Vec<MediaType>> = OnceLock::new();
    let all = TYPES.get_or_init(|| {
        [
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/msgpack",
            "application/cbor",
            "application/x-protobuf",
        ]
        .iter()
        .map(|m| MediaType::parse(m).expect("static media type"))
        .collect()
    });
    all.iter().find(|m| m.essence() == essence).expect("registered static media type")
}

impl Codec for JsonCodec {
    fn media_type(&self) -> &MediaType {
        media("application/json")
    }

    fn format(&self) -> &str {
        "json"
    }

    fn handles(&self, media: &MediaType) -> bool {
        media.essence() == "application/json" || (media.type_() == "application" && media.subtype().ends_with("+json"))
    }

    fn priority(&self) -> i32 {
        100
    }

    fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
        serde_json::to_vec(value).map_err(CodecError::write)
    }

    fn is_builtin_json(&self) -> bool {
        true
    }

    fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError> {
        let mut de = serde_json::Deserializer::from_slice(body);
        visit(&mut <dyn erased_serde::Deserializer>::erase(&mut de)).map_err(CodecError::malformed)?;
        de.end().map_err(CodecError::malformed)
    }
}
