//! CBOR through ciborium (feature `cbor`).
//!
//! ciborium keeps its streaming deserializer private, so the body is read
//! into a [`ciborium::Value`] first and the entity is deserialized from that.

use ciborium::Value;
use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::json::media;
use super::{Codec, CodecError, Visit};
use crate::media::MediaType;

/// `application/cbor` (RFC 8949).
#[derive(Debug, Clone, Copy, Default)]
pub struct CborCodec;

impl Codec for CborCodec {
    fn media_type(&self) -> &MediaType {
        media("application/cbor")
    }

    fn format(&self) -> &str {
        "cbor"
    }

    fn write(&self, value: &dyn erased_serde::Serialize) -> Result<Vec<u8>, CodecError> {
        let mut out = Vec::new();
        ciborium::into_writer(value, &mut out).map_err(CodecError::write)?;
        Ok(out)
    }

    fn read(&self, body: &[u8], visit: &mut Visit<'_>) -> Result<(), CodecError> {
        let mut reader = body;
        let value: Value = ciborium::from_reader(&mut reader).map_err(CodecError::malformed)?;
        if !reader.is_empty() {
            return Err(CodecError::malformed(format!("{} trailing bytes after the value", reader.len())));
        }
        visit(&mut <dyn erased_serde::Deserializer>::erase(ValueDe(value))).map_err(CodecError::malformed)
    }
}

/// A CBOR value as a serde deserializer.
struct ValueDe(Value);

impl<'de> IntoDeserializer<'de, de::value::Error> for ValueDe {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for ValueDe {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Integer(i) => {
                let i = i128::from(i);
                match (u64::try_from(i), i64::try_from(i)) {
                    (Ok(u), _) => visitor.visit_u64(u),
                    (_, Ok(s)) => visitor.visit_i64(s),
                    _ => visitor.visit_i128(i),
                }
            }
            Value::Bytes(b) => visitor.visit_byte_buf(b),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Text(s) => visitor.visit_string(s),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Null => visitor.visit_unit(),
            Value::Tag(_, inner) => ValueDe(*inner).deserialize_any(visitor),
            Value::Array(items) => visitor.visit_seq(SeqDeserializer::new(items.into_iter().map(ValueDe))),
            Value::Map(entries) => {
                visitor.visit_map(MapDeserializer::new(entries.into_iter().map(|(k, v)| (ValueDe(k), ValueDe(v)))))
            }
            _ => Err(de::Error::custom("unsupported CBOR value")),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(ValueDe(other)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Text(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Map(mut entries) if entries.len() == 1 => {
                let (k, v) = entries.remove(0);
                visitor.visit_enum(de::value::MapAccessDeserializer::new(MapDeserializer::new(std::iter::once((
                    ValueDe(k),
                    ValueDe(v),
                )))))
            }
            _ => Err(de::Error::custom("expected an enum as text or a one-entry map")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}
