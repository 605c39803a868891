//! MessagePack through rmp-serde (feature `msgpack`).

use super::json::media;
use super::{Codec, CodecError, Visit};
use crate::media::MediaType;

/// `application/msgpack`: structs as maps with field names (like JSON, so
/// that fields may be added or reordered without breaking clients).
#[derive(Debug, Clone, Copy, Default)]
pub struct MsgPackCodec;

impl Codec for MsgPackCodec {
    fn media_type(&self) -> &MediaType {
        media("application/msgpack")
    }

    fn format(&self) -> &str {
        "msgpack"
    }

    fn handles(&self, media: &MediaType) -> bool {
        matches!(media.essence(), "application/msgpack" | "application/x-msgpack" | "application/vnd.msgpack")
    }

    fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
        let mut out = Vec::new();
        let mut ser = rmp_serde::Serializer::new(&mut out).with_struct_map();
        serde::Serialize::serialize(value, &mut ser).map_err(CodecError::write)?;
        Ok(out)
    }

    fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError> {
        let mut de = rmp_serde::Deserializer::new(std::io::Cursor::new(body));
        visit(&mut <dyn erased_serde::Deserializer>::erase(&mut de)).map_err(CodecError::malformed)?;
        if usize::try_from(de.position()).is_ok_and(|p| p == body.len()) {
            Ok(())
        } else {
            Err(CodecError::malformed(format!("trailing bytes after the value at offset {}", de.position())))
        }
    }
}
