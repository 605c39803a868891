//! JSON through serde_json.

use std::cell::RefCell;
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

/// The largest buffer [`to_bytes`] keeps for the thread's next value; a
/// larger text is handed over in the buffer it was written to.
const KEEP: usize = 64 * 1024;

thread_local! {
    /// The buffer [`to_bytes`] writes into, kept from one value to the next.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// `value` as JSON, in an allocation of its own size: written into the
/// thread's reused buffer (so serde_json's many small writes never grow a
/// fresh `Vec`), then copied once. `serde_json::to_vec` leaves a `Vec`
/// larger than its content (128 bytes at first), which `Bytes` can only
/// take with a second allocation for its shared header. A text over 64 KiB
/// is handed over in the buffer itself, and the thread starts a new one.
pub(crate) fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Bytes, serde_json::Error> {
    BUFFER.with(|cell| {
        // A value whose serialization writes JSON again (on this thread)
        // finds the buffer taken and writes into a `Vec` of its own.
        let Ok(mut buf) = cell.try_borrow_mut() else {
            return serde_json::to_vec(value).map(Bytes::from);
        };
        buf.clear();
        let written = serde_json::to_writer(&mut *buf, value);
        if let Err(e) = written {
            if buf.capacity() > KEEP {
                *buf = Vec::new();
            }
            return Err(e);
        }
        Ok(if buf.len() > KEEP { Bytes::from(std::mem::take(&mut *buf)) } else { Bytes::copy_from_slice(&buf) })
    })
}

#[cfg(test)]
mod tests {
    use super::to_bytes;

    #[test]
    fn small_and_large_values_are_the_json_serde_json_writes() {
        for n in [0, 10, 200, 255, 256, 300, 5000, 70_000, 20] {
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

    #[test]
    fn a_failed_or_nested_write_leaves_the_next_value_whole() {
        use std::collections::BTreeMap;
        // A map with non-string keys cannot be JSON: the error is returned,
        // and what it had written does not reach the next value.
        let bad: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into();
        assert!(to_bytes(&(1, "partial", &bad)).is_err());
        assert_eq!(&to_bytes(&[1, 2]).unwrap()[..], b"[1,2]");

        // A value that writes JSON while it is being written.
        struct Nested;
        impl serde::Serialize for Nested {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let inner = to_bytes(&["in"]).map_err(serde::ser::Error::custom)?;
                s.serialize_str(std::str::from_utf8(&inner).unwrap())
            }
        }
        assert_eq!(&to_bytes(&("out", Nested)).unwrap()[..], br#"["out","[\"in\"]"]"#);
    }
}
