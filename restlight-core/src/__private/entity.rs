//! The entity: how the unannotated parameter is read, chosen by its type,
//! and the error for a type that cannot be read.

use super::*;

/// Selects how the entity of type `T` is read.
#[derive(Debug)]
pub struct EntityProbe<T>(PhantomData<T>);

impl<T> EntityProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for EntityProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A type with an argument resolver, written without attribute: the
/// bound reports that it needs `#[resolve]`.
pub trait EntityResolvable<T> {
    /// Never runs.
    ///
    /// # Errors
    /// Never.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>
    where
        T: ResolvedNotEntity;
}
impl<T: crate::resolve::FromRequest> EntityResolvable<T> for &&&EntityProbe<T> {
    fn __rl_read(&self, _: &RequestContext, _: &ParamMeta) -> Result<T, HttpError>
    where
        T: ResolvedNotEntity,
    {
        unreachable!("ResolvedNotEntity is never implemented")
    }
}

/// Never implemented: names the problem when a type with a resolver is
/// written where the entity is expected.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has an argument resolver, but the parameter has no attribute, so it would be the entity",
    label = "mark this parameter `#[resolve]`",
    note = "a parameter without attribute is the request entity, decoded from the body; `#[resolve]` reads it with `FromRequest`"
)]
pub trait ResolvedNotEntity {}

/// Raw entities: bytes and text.
pub trait EntityRaw<T> {
    /// Reads the entity.
    ///
    /// # Errors
    /// 400 when the body does not fit the type.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>;
}
impl<T: FromBody> EntityRaw<T> for &&EntityProbe<T> {
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
        T::from_request(ctx, meta)
    }
}

impl EntityRaw<crate::BodyStream> for &&EntityProbe<crate::BodyStream> {
    fn __rl_read(&self, ctx: &RequestContext, _: &ParamMeta) -> Result<crate::BodyStream, HttpError> {
        Ok(ctx.take_body_stream().unwrap_or_default())
    }
}

impl EntityRaw<crate::Multipart> for &&EntityProbe<crate::Multipart> {
    fn __rl_read(&self, ctx: &RequestContext, _: &ParamMeta) -> Result<crate::Multipart, HttpError> {
        crate::Multipart::from_request(ctx)
    }
}

/// Entity types read as a stream: the route does not aggregate its body.
pub trait StreamsBody {
    /// `true`.
    fn __rl_streams(&self) -> bool {
        true
    }
}
impl StreamsBody for &&EntityProbe<crate::BodyStream> {}
impl StreamsBody for &&EntityProbe<crate::Multipart> {}

/// Every other entity type: the body is read in full first.
pub trait BuffersBody {
    /// `false`.
    fn __rl_streams(&self) -> bool {
        false
    }
}
impl<T> BuffersBody for &EntityProbe<T> {}

/// Entities decoded by the codec matching Content-Type.
pub trait EntityDecoded<T> {
    /// Reads the entity.
    ///
    /// # Errors
    /// 400 for malformed input, 415 for an unreadable Content-Type.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>;
}
impl<T: DeserializeOwned> EntityDecoded<T> for &EntityProbe<T> {
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError> {
        crate::entity::decode_with(ctx, meta)
    }
}

/// Never implemented: names the problem when a type is neither [`FromBody`] nor `DeserializeOwned`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from the request body",
    label = "the parameter without attribute is the entity, decoded from the body",
    note = "derive `serde::Deserialize` for `{Self}`, or take `String`, `Bytes`, `Vec<u8>`, `BodyStream` or `Multipart`; a value read from elsewhere needs its attribute (`#[query_param]`, `#[header_param]`, `#[context]`, ...), one of your own type `#[resolve]` (implementing `FromRequest`), one a filter or interceptor stored `#[request_attribute]`"
)]
pub trait EntityType {}

/// Lowest priority: neither raw nor decodable; the bound reports it.
pub trait EntityUnsupported<T> {
    /// Never runs.
    ///
    /// # Errors
    /// Never.
    fn __rl_read(&self, ctx: &RequestContext, meta: &ParamMeta) -> Result<T, HttpError>
    where
        T: EntityType;
}
impl<T> EntityUnsupported<T> for EntityProbe<T> {
    fn __rl_read(&self, _: &RequestContext, _: &ParamMeta) -> Result<T, HttpError>
    where
        T: EntityType,
    {
        unreachable!("EntityType is never implemented")
    }
}
