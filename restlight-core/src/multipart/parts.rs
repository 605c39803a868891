//! A multipart body read whole into its named parts, for handler
//! parameters that each take one part (`#[request_part("name")]`, Spring's
//! `@RequestPart`): [`MultipartFile`], and the readers the macros call.

use std::fmt;

use bytes::Bytes;
use serde::de::DeserializeOwned;

use super::Multipart;
use crate::error::HttpError;
use crate::media::MediaType;
use crate::meta::ParamMeta;
use crate::request::RequestContext;

/// One part of a `multipart/form-data` body, read in full: its name, the
/// client's file name, its `Content-Type` and its content (Spring's
/// `MultipartFile`).
///
/// A handler takes it with `#[request_part("name")]` (an `Option` when the
/// part may be absent); the route reads the body in full first, within its
/// body limit (`#[max_body]`, 4 MiB by default) and the default
/// [`MultipartLimits`](crate::MultipartLimits).
///
/// ```
/// use restlight_core::MultipartFile;
/// let part = MultipartFile::new("avatar", "png bytes").with_file_name("me.png").with_content_type("image/png");
/// assert_eq!(part.name(), "avatar");
/// assert_eq!(part.file_name(), Some("me.png"));
/// assert_eq!(part.content_type(), Some("image/png"));
/// assert_eq!(part.len(), 9);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct MultipartFile {
    name: String,
    file_name: Option<String>,
    content_type: Option<String>,
    bytes: Bytes,
}

impl MultipartFile {
    /// A part named `name` with `bytes` as its content, no file name and no
    /// `Content-Type` (for tests and builder routes).
    #[must_use]
    pub fn new(name: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        Self { name: name.into(), file_name: None, content_type: None, bytes: bytes.into() }
    }

    /// Sets the client's file name. Default: none.
    #[must_use]
    pub fn with_file_name(mut self, file_name: impl Into<String>) -> Self {
        self.file_name = Some(file_name.into());
        self
    }

    /// Sets the `Content-Type`. Default: none.
    #[must_use]
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }

    /// The part's name (`Content-Disposition: form-data; name=".."`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The client's name for the file (`filename=".."`), if it sent one.
    #[must_use]
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// The part's `Content-Type`, if it declared one.
    #[must_use]
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The content.
    #[must_use]
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The content, taken.
    #[must_use]
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The size of the content in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the content is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl fmt::Debug for MultipartFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultipartFile")
            .field("name", &self.name)
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// Every part of a multipart body, in order. Not public API.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Parts(Vec<MultipartFile>);

impl Parts {
    /// Reads the request's multipart body whole.
    ///
    /// # Errors
    /// 415 when the body is not `multipart/form-data`, 413 past a limit,
    /// 400 for a malformed body.
    pub async fn read(ctx: &RequestContext) -> Result<Self, HttpError> {
        let mut form = Multipart::from_request(ctx)?;
        let mut parts = Vec::new();
        while let Some(field) = form.next_field().await? {
            let name = field.name().to_owned();
            let file_name = field.file_name().map(str::to_owned);
            let content_type = field.content_type().map(str::to_owned);
            let bytes = field.bytes().await?;
            parts.push(MultipartFile { name, file_name, content_type, bytes });
        }
        Ok(Self(parts))
    }

    /// The first part named as `meta` says, if the body has one.
    #[must_use]
    pub fn get(&self, meta: &ParamMeta) -> Option<&MultipartFile> {
        self.0.iter().find(|p| p.name == meta.name)
    }

    /// The part `meta` names; 400 naming it when the body has none.
    ///
    /// # Errors
    /// 400 when the part is missing.
    pub fn required(&self, meta: &ParamMeta) -> Result<&MultipartFile, HttpError> {
        self.get(meta).ok_or_else(|| crate::param::missing(meta))
    }
}

/// Reads a part as text: 400 naming it when it is not UTF-8.
pub(crate) fn text(part: &MultipartFile, meta: &ParamMeta) -> Result<String, HttpError> {
    String::from_utf8(part.bytes.to_vec()).map_err(|e| {
        HttpError::bad_request(format!("part `{}` is not valid UTF-8: {e}", meta.name))
            .with("parameter", meta.name)
            .with("source", meta.source.as_str())
    })
}

/// Decodes a part by its `Content-Type` with the application's codecs
/// (JSON when it declares none).
pub(crate) fn decode<T: DeserializeOwned>(
    ctx: &RequestContext,
    part: &MultipartFile,
    meta: &ParamMeta,
) -> Result<T, HttpError> {
    let media = match part.content_type() {
        None => None,
        Some(text) => Some(MediaType::parse(text).map_err(|e| {
            HttpError::unsupported_media_type(format!(
                "the Content-Type `{text}` of part `{}` is not a media type: {e}",
                meta.name
            ))
            .with("parameter", meta.name)
            .with("contentType", text)
        })?),
    };
    crate::entity::decode_bytes(ctx, media.as_ref(), None, &part.bytes, meta, "part")
}
