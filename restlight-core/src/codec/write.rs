//! Writing a deferred entity: which codec, by the rules of the module docs.

use std::sync::Arc;

use bytes::Bytes;

use super::{Codec, CodecError, Codecs};
use crate::error::HttpError;
use crate::media::{score, Accept, MediaType};

/// Writes `value` with the codec that applies: `forced` (declared or from
/// the URL), else the best acceptable among the route's `produces` (or all
/// codecs) that can represent the value.
///
/// # Errors
/// 406 naming the producible types when nothing acceptable can write the
/// value; 500 when the chosen codec fails.
///
/// `json` writes the value as the built-in JSON codec would, without type
/// erasure. `negotiated` is the type the router chose from `produces`, if it did:
/// its codec is tried first, without ranking `Accept` again.
pub(crate) fn write_entity(
    value: &dyn erased_serde::Serialize,
    json: &dyn Fn() -> Result<Bytes, serde_json::Error>,
    codecs: &Codecs,
    produces: &[MediaType],
    forced: Option<&Arc<dyn Codec>>,
    negotiated: Option<&MediaType>,
    accept: &Accept<'_>,
) -> Result<(Bytes, MediaType), HttpError> {
    // The usual case allocates nothing: the first choice writes the value.
    // Only when it cannot does the full ranking below try the others and
    // build the lists that explain a failure.
    if let Some((media, codec)) = first_choice(codecs, produces, forced, negotiated, accept) {
        let written = if codec.is_builtin_json() {
            json().map_err(CodecError::write)
        } else {
            codec.write(value).map(Bytes::from)
        };
        match written {
            Ok(bytes) => return Ok((bytes, media.clone())),
            Err(e) if e.is_unsupported() => {}
            Err(e) => return Err(HttpError::internal(format!("the response could not be written as `{media}`: {e}"))),
        }
    }
    let mut candidates: Vec<(MediaType, &Arc<dyn Codec>)> = Vec::new();
    if let Some(codec) = forced {
        candidates.push((codec.media_type().clone(), codec));
    } else if produces.is_empty() {
        candidates.extend(codecs.iter().map(|c| (c.media_type().clone(), c)));
    } else {
        for p in produces {
            if p.is_wildcard() {
                candidates
                    .extend(codecs.iter().filter(|c| p.matches(c.media_type())).map(|c| (c.media_type().clone(), c)));
            } else if let Some(c) = codecs.for_media(p) {
                candidates.push((p.clone(), c));
            }
        }
    }
    let producible: Vec<String> = candidates.iter().map(|(m, _)| m.to_string()).collect();
    let mut ranked: Vec<(MediaType, &Arc<dyn Codec>)> = if forced.is_some() {
        candidates
    } else {
        let ranges = accept.ranges();
        let mut scored: Vec<_> =
            candidates.into_iter().filter_map(|(m, c)| score(ranges, &m).map(|s| (s, m, c))).collect();
        // Best score first, equal scores in their order.
        crate::sort::insertion_sort_by(&mut scored, |a, b| b.0.cmp(&a.0));
        scored.into_iter().map(|(_, m, c)| (m, c)).collect()
    };
    let mut refused = Vec::new();
    for (media, codec) in ranked.drain(..) {
        match codec.write(value) {
            Ok(bytes) => return Ok((Bytes::from(bytes), media)),
            Err(e) if e.is_unsupported() => refused.push(format!("{media} ({e})")),
            Err(e) => return Err(HttpError::internal(format!("the response could not be written as `{media}`: {e}"))),
        }
    }
    let accept = accept.header().unwrap_or("");
    let detail = if refused.is_empty() {
        format!("nothing acceptable to `{accept}` can be written; producible: {}", producible.join(", "))
    } else {
        format!("the value cannot be written as {}; producible: {}", refused.join(", "), producible.join(", "))
    };
    Err(HttpError::not_acceptable(detail).with("accept", accept).with("producible", producible))
}

/// The codec [`write_entity`] tries first: the forced one, the one of the
/// negotiated type, or the first of the best-scored candidates in the order
/// the full ranking uses (so both agree).
fn first_choice<'c>(
    codecs: &'c Codecs,
    produces: &'c [MediaType],
    forced: Option<&'c Arc<dyn Codec>>,
    negotiated: Option<&'c MediaType>,
    accept: &Accept<'_>,
) -> Option<(&'c MediaType, &'c Arc<dyn Codec>)> {
    if let Some(codec) = forced {
        return Some((codec.media_type(), codec));
    }
    if let Some(media) = negotiated.filter(|m| !m.is_wildcard()) {
        if let Some(codec) = codecs.for_media(media) {
            return Some((media, codec));
        }
    }
    let ranges = accept.ranges();
    let mut best: Option<(_, &MediaType, &Arc<dyn Codec>)> = None;
    let mut consider = |media: &'c MediaType, codec: &'c Arc<dyn Codec>| {
        if let Some(s) = score(ranges, media) {
            if best.as_ref().is_none_or(|(b, _, _)| s > *b) {
                best = Some((s, media, codec));
            }
        }
    };
    if produces.is_empty() {
        codecs.iter().for_each(|c| consider(c.media_type(), c));
    } else {
        for p in produces {
            if p.is_wildcard() {
                codecs.iter().filter(|c| p.matches(c.media_type())).for_each(|c| consider(c.media_type(), c));
            } else if let Some(c) = codecs.for_media(p) {
                consider(p, c);
            }
        }
    }
    best.map(|(_, media, codec)| (media, codec))
}
