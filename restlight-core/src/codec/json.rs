//! JSON through serde_json.

use std::io;
use std::sync::OnceLock;

use bytes::Bytes;
use serde::Serialize;

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

/// What [`to_bytes`] writes on the stack before it needs a `Vec`.
const SMALL: usize = 256;

/// `value` as JSON, in an allocation of its own size when it is small (up
/// to 256 bytes): written on the stack, then copied once. `serde_json::to_vec`
/// leaves a `Vec` larger than its content (128 bytes at first), which
/// `Bytes` can only take with a second allocation for its shared header.
pub(crate) fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Bytes, serde_json::Error> {
    let mut out = Small { buf: [0; SMALL], len: 0, spill: None };
    serde_json::to_writer(&mut out, value)?;
    Ok(match out.spill {
        Some(vec) => Bytes::from(vec),
        None => Bytes::copy_from_slice(&out.buf[..out.len]),
    })
}

/// The writer of [`to_bytes`]: the stack buffer, then a `Vec` once it is full.
struct Small {
    buf: [u8; SMALL],
    len: usize,
    spill: Option<Vec<u8>>,
}

impl io::Write for Small {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        if let Some(vec) = &mut self.spill {
            vec.extend_from_slice(data);
        } else if let Some(room) = self.buf.get_mut(self.len..self.len + data.len()) {
            room.copy_from_slice(data);
            self.len += data.len();
        } else {
            let mut vec = Vec::with_capacity((2 * (self.len + data.len())).max(4 * SMALL));
            vec.extend_from_slice(&self.buf[..self.len]);
            vec.extend_from_slice(data);
            self.spill = Some(vec);
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::to_bytes;

    #[test]
    fn small_and_large_values_are_the_json_serde_json_writes() {
        for n in [0, 10, 200, 255, 256, 300, 5000] {
            let value: Vec<String> = (0..n / 10).map(|i| format!("v{i}")).chain(["x".repeat(n % 10)]).collect();
            let bytes = to_bytes(&value).unwrap();
            assert_eq!(&bytes[..], &serde_json::to_vec(&value).unwrap()[..], "{n}");
        }
    }

    #[test]
    fn a_small_value_has_an_allocation_of_its_own_size() {
        let bytes = to_bytes(&serde_json::json!({"message": "Hello, World!"})).unwrap();
        assert_eq!(&bytes[..], br#"{"message":"Hello, World!"}"#);
        // Promoted from an exact `Vec`: turning it back into one gives the
        // same buffer with no spare capacity.
        let vec = Vec::from(bytes);
        assert_eq!(vec.capacity(), vec.len());
    }
}
