//! Uploads written to disk as they arrive: [`SpooledFile`].

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use tempfile::TempPath;
use tokio::io::AsyncWriteExt;

use super::Field;
use crate::error::HttpError;

/// A field's content written to a temporary file by
/// [`Field::spool`] or [`Field::save_to`]. The file is removed when this
/// value drops, unless [`persist`](Self::persist) or [`keep`](Self::keep)
/// moved it out of the way first.
pub struct SpooledFile {
    path: TempPath,
    size: u64,
    field: String,
    file_name: Option<String>,
    content_type: Option<String>,
}

impl SpooledFile {
    /// Where the file is, until it drops.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its size in bytes.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The name of the form field it came from.
    #[must_use]
    pub fn field_name(&self) -> &str {
        &self.field
    }

    /// The client's name for the file, if it gave one. Never use it as a
    /// path unchecked: it is whatever the client sent.
    #[must_use]
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// The field's `Content-Type`, if it declared one.
    #[must_use]
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// Moves the file to `to` (a rename: `to` should be on the same file
    /// system, see [`Field::save_to`]) and keeps it there.
    ///
    /// # Errors
    /// When the rename fails; the temporary file is removed then.
    pub fn persist(self, to: impl AsRef<Path>) -> io::Result<PathBuf> {
        let to = to.as_ref();
        self.path.persist(to).map_err(|e| e.error)?;
        Ok(to.to_owned())
    }

    /// Keeps the file where it is and returns its path.
    ///
    /// # Errors
    /// Never on the platforms Restlight runs on; the error is `tempfile`'s.
    pub fn keep(self) -> io::Result<PathBuf> {
        self.path.keep().map_err(|e| e.error)
    }
}

impl fmt::Debug for SpooledFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpooledFile")
            .field("path", &self.path())
            .field("size", &self.size)
            .field("field", &self.field)
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .finish()
    }
}

pub(super) async fn save(mut field: Field, dir: &Path) -> Result<SpooledFile, HttpError> {
    let name = field.name().to_owned();
    let failed = |e: io::Error| {
        tracing::error!(field = %name, dir = %dir.display(), "spooling an upload failed: {e}");
        HttpError::internal(format!("form field `{name}` could not be stored")).with("field", name.as_str())
    };
    let (file, path) =
        tempfile::Builder::new().prefix("restlight-upload-").tempfile_in(dir).map_err(failed)?.into_parts();
    let mut file = tokio::fs::File::from_std(file);
    let mut size = 0_u64;
    while let Some(chunk) = field.chunk().await {
        let chunk = chunk?;
        size += chunk.len() as u64;
        file.write_all(&chunk).await.map_err(failed)?;
    }
    file.flush().await.map_err(failed)?;
    drop(file);
    Ok(SpooledFile {
        path,
        size,
        field: field.name().to_owned(),
        file_name: field.file_name().map(str::to_owned),
        content_type: field.content_type().map(str::to_owned),
    })
}
