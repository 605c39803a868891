//! `multipart/form-data` request bodies: [`Multipart`], its [`Field`]s as
//! they arrive, [`MultipartLimits`] and uploads spooled to disk
//! ([`SpooledFile`]).
//!
//! An annotated handler takes a `Multipart` entity; its route then streams
//! its body (like a [`BodyStream`](crate::BodyStream) entity), so a file is
//! never held in memory whole unless the handler asks for it:
//!
//! ```ignore
//! #[post("/upload")]
//! async fn upload(&self, mut form: Multipart) -> Result<String, HttpError> {
//!     while let Some(mut field) = form.next_field().await? {
//!         if field.is_file() {
//!             let file = field.spool().await?; // removed on drop unless persisted
//!             file.persist(format!("/srv/uploads/{}", file.size()))?;
//!         } else {
//!             let text = field.text().await?;
//!         }
//!     }
//!     Ok("stored".into())
//! }
//! ```
//!
//! A route built in code reads it with [`Multipart::from_request`]:
//!
//! ```
//! use restlight_core::{post, HttpError, Multipart, RequestContext};
//! let upload = post("/upload").stream_body().handle(|ctx: RequestContext| async move {
//!     let mut form = Multipart::from_request(&ctx)?;
//!     let mut names = Vec::new();
//!     while let Some(field) = form.next_field().await? {
//!         names.push(field.name().to_owned());
//!     }
//!     Ok::<_, HttpError>(names.join(","))
//! });
//! # let _ = upload;
//! ```
//!
//! Errors are answers already: 415 when the Content-Type is not
//! `multipart/form-data` with a boundary, 413 past a limit (the problem
//! details name it in `limitName`, with the `field` it stopped in), 400 for a
//! malformed body.

mod parts;
mod spool;

use std::fmt;
use std::str::FromStr;

use bytes::{Bytes, BytesMut};
use futures_util::stream::{self, BoxStream, StreamExt};

use crate::error::HttpError;
use crate::request::RequestContext;

pub(crate) use parts::{decode as decode_part, text as part_text};
pub use parts::{MultipartFile, Parts};
pub use spool::SpooledFile;

/// How much a [`Multipart`] body may hold. Past a limit the read fails with
/// 413 problem details naming the limit (`limitName`: `perFile`,
/// `perRequest` or `maxFields`), its size (`limit`) and the `field` being
/// read (absent when the body passed `perRequest` before its first field:
/// the parser reads ahead whatever has arrived).
///
/// ```
/// use restlight_core::MultipartLimits;
/// let limits = MultipartLimits::default().per_file(100 << 20).per_request(200 << 20);
/// assert_eq!(limits.max_fields, 100);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultipartLimits {
    /// The largest content of one field, a file or a text field, in bytes.
    /// Default: 16 MiB.
    pub per_file: u64,
    /// The largest whole multipart body (fields, their headers and the
    /// boundaries), in bytes. Default: 64 MiB. The route's own body limit
    /// (`max_body_size` / `#[max_body]`), when set, applies too.
    pub per_request: u64,
    /// The most fields one body may have. Default: 100.
    pub max_fields: usize,
}

impl MultipartLimits {
    /// The default per-file limit: 16 MiB.
    pub const DEFAULT_PER_FILE: u64 = 16 << 20;
    /// The default per-request limit: 64 MiB.
    pub const DEFAULT_PER_REQUEST: u64 = 64 << 20;
    /// The default field count limit: 100.
    pub const DEFAULT_MAX_FIELDS: usize = 100;

    /// Sets the largest content of one field, in bytes. Default: 16 MiB.
    #[must_use]
    pub fn per_file(mut self, bytes: u64) -> Self {
        self.per_file = bytes;
        self
    }

    /// Sets the largest whole body, in bytes. Default: 64 MiB.
    #[must_use]
    pub fn per_request(mut self, bytes: u64) -> Self {
        self.per_request = bytes;
        self
    }

    /// Sets the most fields a body may have. Default: 100.
    #[must_use]
    pub fn max_fields(mut self, fields: usize) -> Self {
        self.max_fields = fields;
        self
    }
}

impl Default for MultipartLimits {
    /// 16 MiB per file, 64 MiB per request, 100 fields.
    fn default() -> Self {
        Self {
            per_file: Self::DEFAULT_PER_FILE,
            per_request: Self::DEFAULT_PER_REQUEST,
            max_fields: Self::DEFAULT_MAX_FIELDS,
        }
    }
}

type Source = BoxStream<'static, Result<Bytes, HttpError>>;

enum State {
    /// Not read yet: the limits can still change.
    Pending {
        source: Source,
        boundary: String,
    },
    Reading(multer::Multipart<'static>),
    Done,
}

/// A `multipart/form-data` body, read field by field as it arrives.
///
/// Take it as the entity of an annotated handler, or build it with
/// [`from_request`](Self::from_request). Limits default to
/// [`MultipartLimits::default`]; change them with
/// [`with_limits`](Self::with_limits) before the first field is read.
pub struct Multipart {
    state: State,
    limits: MultipartLimits,
    fields: usize,
    /// The name of the field last handed out, for error reports.
    current: Option<String>,
}

impl Multipart {
    /// The multipart body of a request: its body stream on a streaming route
    /// (see [`RouteBuilder::stream_body`](crate::RouteBuilder::stream_body)),
    /// else the body read in full before the handler ran.
    ///
    /// # Errors
    /// 415 when the Content-Type is not `multipart/form-data` with a boundary.
    pub fn from_request(ctx: &RequestContext) -> Result<Self, HttpError> {
        let boundary = boundary(ctx)?;
        let source: Source = match ctx.take_body_stream() {
            Some(body) => body.boxed(),
            None => {
                let body = ctx.body().clone();
                stream::once(async move { Ok(body) }).boxed()
            }
        };
        Ok(Self {
            state: State::Pending { source, boundary },
            limits: MultipartLimits::default(),
            fields: 0,
            current: None,
        })
    }

    /// Sets the limits. Call it before the first
    /// [`next_field`](Self::next_field): later, only `max_fields` still
    /// changes. Default: [`MultipartLimits::default`] (16 MiB per file,
    /// 64 MiB per request, 100 fields).
    #[must_use]
    pub fn with_limits(mut self, limits: MultipartLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    #[must_use]
    pub fn limits(&self) -> &MultipartLimits {
        &self.limits
    }

    /// The next field, `None` after the last. Drop the previous field first
    /// (what it did not read is skipped).
    ///
    /// # Errors
    /// 413 past a limit, 400 for a malformed body, 408 when the body stops
    /// arriving, 500 when the previous field is still alive.
    pub async fn next_field(&mut self) -> Result<Option<Field>, HttpError> {
        if let State::Pending { .. } = self.state {
            let State::Pending { source, boundary } = std::mem::replace(&mut self.state, State::Done) else {
                unreachable!("checked above")
            };
            let size = multer::SizeLimit::new().whole_stream(self.limits.per_request).per_field(self.limits.per_file);
            let constraints = multer::Constraints::new().size_limit(size);
            self.state = State::Reading(multer::Multipart::with_constraints(source, boundary, constraints));
        }
        let State::Reading(inner) = &mut self.state else { return Ok(None) };
        let field = match inner.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => {
                self.state = State::Done;
                return Ok(None);
            }
            Err(e) => {
                self.state = State::Done;
                return Err(map_error(e, self.current.as_deref()));
            }
        };
        let name = field.name().unwrap_or("").to_owned();
        self.fields += 1;
        if self.fields > self.limits.max_fields {
            self.state = State::Done;
            let max = self.limits.max_fields;
            return Err(HttpError::payload_too_large(format!(
                "the form has more than the limit of {max} fields (at `{name}`)"
            ))
            .with("limitName", "maxFields")
            .with("limit", max)
            .with("field", name));
        }
        self.current = Some(name);
        Ok(Some(Field { inner: field }))
    }
}

impl fmt::Debug for Multipart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Multipart")
            .field("limits", &self.limits)
            .field("fields", &self.fields)
            .field("current", &self.current)
            .finish_non_exhaustive()
    }
}

/// One field of a [`Multipart`] body: a text field or a file, its content
/// read as it arrives.
pub struct Field {
    inner: multer::Field<'static>,
}

impl Field {
    /// The field's name (`Content-Disposition: form-data; name=".."`), empty when it has none.
    #[must_use]
    pub fn name(&self) -> &str {
        self.inner.name().unwrap_or("")
    }

    /// The client's name for the file (`filename=".."`), for a file field.
    #[must_use]
    pub fn file_name(&self) -> Option<&str> {
        self.inner.file_name()
    }

    /// Whether the field is a file: it has a file name.
    #[must_use]
    pub fn is_file(&self) -> bool {
        self.file_name().is_some()
    }

    /// The field's `Content-Type`, when it declares one.
    #[must_use]
    pub fn content_type(&self) -> Option<&str> {
        self.inner.content_type().map(AsRef::as_ref)
    }

    /// The field's part headers.
    #[must_use]
    pub fn headers(&self) -> &http::HeaderMap {
        self.inner.headers()
    }

    /// The next chunk of the content, `None` at its end.
    ///
    /// # Errors
    /// 413 past a limit, 400 for a malformed body, 408 when the body stops arriving.
    pub async fn chunk(&mut self) -> Option<Result<Bytes, HttpError>> {
        match self.inner.chunk().await {
            Ok(Some(bytes)) => Some(Ok(bytes)),
            Ok(None) => None,
            Err(e) => Some(Err(map_error(e, self.inner.name()))),
        }
    }

    /// The whole content, in memory (at most the per-file limit).
    ///
    /// # Errors
    /// As [`chunk`](Self::chunk).
    pub async fn bytes(mut self) -> Result<Bytes, HttpError> {
        let mut all = BytesMut::new();
        while let Some(chunk) = self.chunk().await {
            all.extend_from_slice(&chunk?);
        }
        Ok(all.freeze())
    }

    /// The whole content as UTF-8 text.
    ///
    /// # Errors
    /// As [`chunk`](Self::chunk); 400 when the content is not UTF-8.
    pub async fn text(self) -> Result<String, HttpError> {
        let name = self.name().to_owned();
        let bytes = self.bytes().await?;
        String::from_utf8(bytes.into()).map_err(|e| {
            HttpError::bad_request(format!("form field `{name}` is not valid UTF-8: {e}")).with("field", name)
        })
    }

    /// The content as text, parsed with [`FromStr`] (surrounding white
    /// space is trimmed): `let age: u32 = field.parse().await?;`.
    ///
    /// # Errors
    /// As [`text`](Self::text); 400 naming the field when the text does not parse.
    pub async fn parse<T>(self) -> Result<T, HttpError>
    where
        T: FromStr,
        T::Err: fmt::Display,
    {
        let name = self.name().to_owned();
        let text = self.text().await?;
        text.trim().parse().map_err(|e: T::Err| {
            HttpError::bad_request(format!("form field `{name}` is not valid: {e}"))
                .with("field", name)
                .with("value", text)
        })
    }

    /// Writes the content to a new file in the system's temporary directory,
    /// as it arrives. The file is removed when the [`SpooledFile`] drops
    /// unless it is [persisted](SpooledFile::persist).
    ///
    /// # Errors
    /// As [`chunk`](Self::chunk) (the partial file is removed); 500 when the
    /// file cannot be written.
    pub async fn spool(self) -> Result<SpooledFile, HttpError> {
        self.save_to(std::env::temp_dir()).await
    }

    /// As [`spool`](Self::spool), in the directory `dir` (on the file system
    /// where the file will be persisted, so that persisting is a rename).
    ///
    /// # Errors
    /// As [`spool`](Self::spool).
    pub async fn save_to(self, dir: impl AsRef<std::path::Path>) -> Result<SpooledFile, HttpError> {
        spool::save(self, dir.as_ref()).await
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("name", &self.name())
            .field("file_name", &self.file_name())
            .field("content_type", &self.content_type())
            .finish_non_exhaustive()
    }
}

/// The boundary of a `multipart/form-data` request, or 415.
fn boundary(ctx: &RequestContext) -> Result<String, HttpError> {
    let raw = ctx.header(http::header::CONTENT_TYPE.as_str()).unwrap_or("");
    let unsupported = |why: &str| {
        HttpError::unsupported_media_type(format!("Content-Type `{raw}` {why}; expected `multipart/form-data`"))
            .with("contentType", raw)
            .with("consumable", vec!["multipart/form-data"])
    };
    let media = ctx.content_type()?.ok_or_else(|| unsupported("is missing"))?;
    if media.essence() != "multipart/form-data" {
        return Err(unsupported("is not a form"));
    }
    multer::parse_boundary(raw).map_err(|_| unsupported("has no boundary"))
}

fn map_error(e: multer::Error, field: Option<&str>) -> HttpError {
    let field = field.unwrap_or("");
    match e {
        multer::Error::FieldSizeExceeded { limit, field_name } => {
            let field = field_name.as_deref().unwrap_or(field);
            HttpError::payload_too_large(format!(
                "form field `{field}` is larger than the per-file limit of {limit} bytes"
            ))
            .with("limitName", "perFile")
            .with("limit", limit)
            .with("field", field)
        }
        multer::Error::StreamSizeExceeded { limit } if field.is_empty() => {
            HttpError::payload_too_large(format!("the form is larger than the per-request limit of {limit} bytes"))
                .with("limitName", "perRequest")
                .with("limit", limit)
        }
        multer::Error::StreamSizeExceeded { limit } => HttpError::payload_too_large(format!(
            "the form is larger than the per-request limit of {limit} bytes (in field `{field}`)"
        ))
        .with("limitName", "perRequest")
        .with("limit", limit)
        .with("field", field),
        multer::Error::StreamReadFailed(e) => match e.downcast::<HttpError>() {
            Ok(e) => *e,
            Err(e) => HttpError::bad_request(format!("the request body could not be read: {e}")),
        },
        multer::Error::LockFailure => {
            HttpError::internal("a form field was still in use when the next was asked for: drop it first")
        }
        other => HttpError::bad_request(format!("malformed multipart/form-data body: {other}")),
    }
}
