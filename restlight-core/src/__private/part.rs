//! `#[request_part]`: one part of a multipart body, read as bytes, text,
//! a [`MultipartFile`] or a value decoded by the part's Content-Type,
//! chosen by its type.

use super::*;
pub use crate::multipart::Parts;
use crate::multipart::{decode_part, part_text, MultipartFile};

/// Selects how a part of type `T` is read.
#[derive(Debug)]
pub struct PartProbe<T>(PhantomData<T>);

impl<T> PartProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for PartProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Parts read as they are: bytes, text, the whole [`MultipartFile`].
pub trait PartRaw<T> {
    /// Reads the part.
    ///
    /// # Errors
    /// 400 when text is not UTF-8.
    fn __rl_part(&self, ctx: &RequestContext, part: &MultipartFile, meta: &ParamMeta) -> Result<T, HttpError>;
}
impl PartRaw<bytes::Bytes> for &&PartProbe<bytes::Bytes> {
    fn __rl_part(&self, _: &RequestContext, part: &MultipartFile, _: &ParamMeta) -> Result<bytes::Bytes, HttpError> {
        Ok(part.bytes().clone())
    }
}
impl PartRaw<Vec<u8>> for &&PartProbe<Vec<u8>> {
    fn __rl_part(&self, _: &RequestContext, part: &MultipartFile, _: &ParamMeta) -> Result<Vec<u8>, HttpError> {
        Ok(part.bytes().to_vec())
    }
}
impl PartRaw<String> for &&PartProbe<String> {
    fn __rl_part(&self, _: &RequestContext, part: &MultipartFile, meta: &ParamMeta) -> Result<String, HttpError> {
        part_text(part, meta)
    }
}
impl PartRaw<MultipartFile> for &&PartProbe<MultipartFile> {
    fn __rl_part(&self, _: &RequestContext, part: &MultipartFile, _: &ParamMeta) -> Result<MultipartFile, HttpError> {
        Ok(part.clone())
    }
}

/// Parts decoded by the codec of their Content-Type (JSON without one).
pub trait PartDecoded<T> {
    /// Reads the part.
    ///
    /// # Errors
    /// 400 for malformed content, 415 for a Content-Type no codec reads.
    fn __rl_part(&self, ctx: &RequestContext, part: &MultipartFile, meta: &ParamMeta) -> Result<T, HttpError>;
}
impl<T: DeserializeOwned> PartDecoded<T> for &PartProbe<T> {
    fn __rl_part(&self, ctx: &RequestContext, part: &MultipartFile, meta: &ParamMeta) -> Result<T, HttpError> {
        decode_part(ctx, part, meta)
    }
}

/// Never implemented: names the problem when a part's type can be neither
/// taken raw nor decoded.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a multipart part",
    label = "this `#[request_part]` parameter's type",
    note = "take `String`, `Bytes`, `Vec<u8>` or `MultipartFile` (name, file name, Content-Type and content), or a type deriving `serde::Deserialize`, decoded by the part's Content-Type (JSON when it has none); `Option<..>` of one of these when the part may be absent"
)]
pub trait PartType {}

/// Lowest priority: neither raw nor decodable; the bound reports it.
pub trait PartUnsupported<T> {
    /// Never runs.
    ///
    /// # Errors
    /// Never.
    fn __rl_part(&self, ctx: &RequestContext, part: &MultipartFile, meta: &ParamMeta) -> Result<T, HttpError>
    where
        T: PartType;
}
impl<T> PartUnsupported<T> for PartProbe<T> {
    fn __rl_part(&self, _: &RequestContext, _: &MultipartFile, _: &ParamMeta) -> Result<T, HttpError>
    where
        T: PartType,
    {
        unreachable!("PartType is never implemented")
    }
}
