//! Integers as JSON Schema reads them: a number whose fractional part is
//! zero is an integer, however it is written (`8`, `8.0`, `8e0`).
//!
//! serde reads `8.0` as a float and refuses it where the Rust type is an
//! integer (`invalid type: floating point`), so a client that writes its
//! integers that way (a JavaScript client computing them, a generator
//! following the JSON Schema rules, Schemathesis) gets a 400 its contract
//! does not allow. Jackson accepts it by default (`ACCEPT_FLOAT_AS_INT`),
//! so a service migrated from JAX-RS or Spring may have such clients.
//! Put [`deserialize`] on the field:
//!
//! ```
//! use serde::Deserialize;
//!
//! #[derive(Debug, Deserialize)]
//! struct Order {
//!     #[serde(deserialize_with = "restlight_core::integer::deserialize")]
//!     quantity: i32,
//!     #[serde(default, deserialize_with = "restlight_core::integer::deserialize")]
//!     pet_id: Option<i64>,
//!     #[serde(default, deserialize_with = "restlight_core::integer::deserialize")]
//!     tags: Vec<u64>,
//! }
//!
//! let order: Order = serde_json::from_str(r#"{"quantity": 8.0, "pet_id": 1e3, "tags": [1, 2.0]}"#).unwrap();
//! assert_eq!((order.quantity, order.pet_id, order.tags), (8, Some(1000), vec![1, 2]));
//!
//! // A fraction, or a value the type cannot hold, is still refused, naming the value.
//! let err = serde_json::from_str::<Order>(r#"{"quantity": 8.5}"#).unwrap_err();
//! assert!(err.to_string().starts_with("invalid value: floating point `8.5`, expected an integer (i32)"), "{err}");
//! let err = serde_json::from_str::<Order>(r#"{"quantity": 3e9}"#).unwrap_err();
//! assert!(err.to_string().contains("expected an integer (i32)"), "{err}");
//! ```
//!
//! The field's type is an integer (`i8` to `i64`, `u8` to `u64`), or an
//! `Option`, `Vec` or `BTreeMap<String, _>` of one ([`LenientInteger`]).
//! Write `#[serde(default, ..)]` next to it for an `Option` or `Vec` field
//! that may be absent: `deserialize_with` alone makes serde require the
//! field. The attribute changes nothing else: serialization, and the
//! schema `schemars` derives (`integer`), are the type's.
//!
//! A float beyond 2^53 has lost its last digits when it is read
//! (`9007199254740993.0` is `9007199254740992`); integers written without a
//! fraction are read exactly, as serde reads them.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// Reads an integer, or an `Option`, `Vec` or `BTreeMap<String, _>` of
/// them, accepting a number with a zero fraction: for
/// `#[serde(deserialize_with = "restlight::integer::deserialize")]`.
///
/// # Errors
/// The deserializer's error when the value is not a number, has a
/// fraction, or does not fit the integer type.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: LenientInteger,
{
    T::deserialize_lenient(deserializer)
}

/// The types [`deserialize`] reads: the integers, and `Option`, `Vec` and
/// `BTreeMap<String, _>` of them.
pub trait LenientInteger: Sized {
    /// Reads the value, taking `8.0` for the integer 8.
    ///
    /// # Errors
    /// As [`deserialize`].
    fn deserialize_lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// A value read by [`LenientInteger`], for the containers' elements.
struct Lenient<T>(T);

impl<'de, T: LenientInteger> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize_lenient(deserializer).map(Lenient)
    }
}

struct IntegerVisitor<T>(PhantomData<T>);

impl<T> IntegerVisitor<T>
where
    T: TryFrom<i64> + TryFrom<u64>,
{
    fn name() -> &'static str {
        std::any::type_name::<T>()
    }

    fn out_of_range<E: de::Error>(v: impl fmt::Display) -> E {
        E::custom(format_args!("invalid value: integer `{v}`, expected an integer ({})", Self::name()))
    }
}

impl<T> Visitor<'_> for IntegerVisitor<T>
where
    T: TryFrom<i64> + TryFrom<u64>,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an integer ({})", Self::name())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        T::try_from(v).map_err(|_| Self::out_of_range(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        T::try_from(v).map_err(|_| Self::out_of_range(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        let invalid = || E::invalid_value(de::Unexpected::Float(v), &self);
        if v.fract() != 0.0 || !v.is_finite() {
            return Err(invalid());
        }
        // Exact: a float with a zero fraction within these bounds is an
        // integer both types hold (2^63 and 2^64 are floats, the casts
        // saturate only outside them).
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let converted = if v < 0.0 {
            (v >= i64::MIN as f64).then(|| T::try_from(v as i64).ok()).flatten()
        } else {
            (v < u64::MAX as f64).then(|| T::try_from(v as u64).ok()).flatten()
        };
        converted.ok_or_else(invalid)
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl LenientInteger for $t {
            fn deserialize_lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any(IntegerVisitor::<$t>(PhantomData))
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, u8, u16, u32, u64);

impl<T: LenientInteger> LenientInteger for Option<T> {
    fn deserialize_lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<Lenient<T>>::deserialize(deserializer)?.map(|v| v.0))
    }
}

impl<T: LenientInteger> LenientInteger for Vec<T> {
    fn deserialize_lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<Lenient<T>>::deserialize(deserializer)?.into_iter().map(|v| v.0).collect())
    }
}

impl<T: LenientInteger> LenientInteger for BTreeMap<String, T> {
    fn deserialize_lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(BTreeMap::<String, Lenient<T>>::deserialize(deserializer)?.into_iter().map(|(k, v)| (k, v.0)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<T: LenientInteger>(json: &str) -> Result<T, String> {
        let mut de = serde_json::Deserializer::from_str(json);
        T::deserialize_lenient(&mut de).map_err(|e| e.to_string())
    }

    #[test]
    fn a_zero_fraction_is_an_integer() {
        assert_eq!(read::<i64>("8.0"), Ok(8));
        assert_eq!(read::<i64>("-8.0"), Ok(-8));
        assert_eq!(read::<u8>("2.55e2"), Ok(255));
        assert_eq!(read::<i64>("-9223372036854775808.0"), Ok(i64::MIN));
        assert_eq!(read::<i64>("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(read::<u64>("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn fractions_and_out_of_range_values_are_refused_naming_the_type() {
        assert_eq!(
            read::<i32>("8.5").unwrap_err(),
            "invalid value: floating point `8.5`, expected an integer (i32) at line 1 column 3"
        );
        assert!(read::<u8>("256").unwrap_err().starts_with("invalid value: integer `256`, expected an integer (u8)"));
        assert!(read::<u32>("-1").unwrap_err().starts_with("invalid value: integer `-1`, expected an integer (u32)"));
        assert!(read::<u32>("-1.0")
            .unwrap_err()
            .starts_with("invalid value: floating point `-1.0`, expected an integer (u32)"));
        // 2^63 as a float: beyond i64, within u64.
        assert!(read::<i64>("9223372036854775808.0").is_err());
        assert_eq!(read::<u64>("9223372036854775808.0"), Ok(1 << 63));
        assert!(read::<u64>("1e20").unwrap_err().contains("expected an integer (u64)"));
        assert!(read::<i64>("\"8\"").unwrap_err().starts_with("invalid type: string \"8\", expected an integer (i64)"));
    }

    #[test]
    fn containers_read_their_elements_the_same_way() {
        assert_eq!(read::<Option<i64>>("null"), Ok(None));
        assert_eq!(read::<Option<i64>>("3.0"), Ok(Some(3)));
        assert_eq!(read::<Vec<Option<u16>>>("[1, 2.0, null]"), Ok(vec![Some(1), Some(2), None]));
        let map = read::<BTreeMap<String, i32>>(r#"{"a": 1.0, "b": -2}"#).unwrap();
        assert_eq!(map.into_iter().collect::<Vec<_>>(), vec![("a".to_owned(), 1), ("b".to_owned(), -2)]);
        assert!(read::<Vec<i8>>("[1, 1.5]").unwrap_err().contains("floating point `1.5`"));
    }
}
