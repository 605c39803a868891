//! [`EntityCodecs`]: the codecs an entity may be read with, carried by the request.

use std::sync::Arc;

use super::{Codec, Codecs};

/// What the entity reader of one request may use: the application's codecs
/// and the codec forced by the route or the URL format.
#[derive(Debug, Clone)]
pub(crate) struct EntityCodecs {
    pub(crate) registry: Arc<Codecs>,
    pub(crate) forced: Option<Arc<dyn Codec>>,
}
