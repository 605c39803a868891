//! The registry of codecs, ordered by priority.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::{Codec, FormCodec, JsonCodec, TextCodec};
use crate::media::MediaType;

/// The codecs of an application, highest [priority](Codec::priority) first
/// (ties: the order of registration).
///
/// [`Codecs::default`] holds the built-in codecs of the enabled features:
/// JSON (priority 100), MessagePack and CBOR (0), form (-5), text (-10).
#[derive(Clone)]
pub struct Codecs {
    list: Vec<Arc<dyn Codec>>,
    writable: Vec<MediaType>,
}

impl Default for Codecs {
    fn default() -> Self {
        let mut codecs = Self::empty();
        codecs.register(JsonCodec);
        #[cfg(feature = "msgpack")]
        codecs.register(super::MsgPackCodec);
        #[cfg(feature = "cbor")]
        codecs.register(super::CborCodec);
        codecs.register(FormCodec);
        codecs.register(TextCodec);
        codecs
    }
}

impl fmt::Debug for Codecs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.list.iter().map(|c| c.media_type().to_string())).finish()
    }
}

impl Codecs {
    /// A registry without codecs.
    #[must_use]
    pub fn empty() -> Self {
        Self { list: Vec::new(), writable: Vec::new() }
    }

    /// The built-in registry, shared.
    pub(crate) fn shared() -> &'static Codecs {
        static SHARED: OnceLock<Codecs> = OnceLock::new();
        SHARED.get_or_init(Codecs::default)
    }

    /// Adds a codec; one already registered for the same media type is
    /// replaced.
    pub fn register(&mut self, codec: impl Codec) -> &mut Self {
        self.register_arc(Arc::new(codec))
    }

    /// Adds a shared codec; see [`register`](Self::register).
    pub fn register_arc(&mut self, codec: Arc<dyn Codec>) -> &mut Self {
        self.list.retain(|c| c.media_type().essence() != codec.media_type().essence());
        self.list.push(codec);
        crate::sort::sort_by(&mut self.list, &|a, b| b.priority().cmp(&a.priority()));
        self.writable = self.list.iter().map(|c| c.media_type().clone()).collect();
        self
    }

    /// The codecs, best first.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn Codec>> {
        self.list.iter()
    }

    /// The number of codecs.
    #[must_use]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there is no codec.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The codec of highest priority.
    ///
    /// # Panics
    /// When the registry is empty.
    #[must_use]
    pub fn first(&self) -> &Arc<dyn Codec> {
        &self.list[0]
    }

    /// The best codec that handles `media`; for a wildcard (`*/*`,
    /// `application/*`) the best one whose type it matches.
    #[must_use]
    pub fn for_media(&self, media: &MediaType) -> Option<&Arc<dyn Codec>> {
        if media.is_wildcard() {
            return self.list.iter().find(|c| media.matches(c.media_type()));
        }
        self.list.iter().find(|c| c.handles(media))
    }

    /// The codec with this [format name](Codec::format) (`json`), ASCII
    /// case-insensitive.
    #[must_use]
    pub fn by_format(&self, format: &str) -> Option<&Arc<dyn Codec>> {
        self.list.iter().find(|c| c.format().eq_ignore_ascii_case(format))
    }

    /// The codec named by a format name (`msgpack`) or a media type
    /// (`application/msgpack`), as the serializer attributes name them.
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<&Arc<dyn Codec>> {
        if name.contains('/') {
            MediaType::parse(name).ok().and_then(|m| self.for_media(&m))
        } else {
            self.by_format(name)
        }
    }

    /// The media types written, best first.
    #[must_use]
    pub fn writable(&self) -> &[MediaType] {
        &self.writable
    }

    /// The format names, best first (`json, msgpack, ...`).
    #[must_use]
    pub fn formats(&self) -> Vec<&str> {
        self.list.iter().map(|c| c.format()).collect()
    }
}
