//! Writing a deferred entity: which codec, by the rules of the module docs.

use std::sync::Arc;

use bytes::Bytes;

use super::{Codec, Codecs};
use crate::error::HttpError;
use crate::media::{score, Accept, MediaType};

/// Writes `value` with the codec that applies: `forced` (declared or from
/// the URL), else the best acceptable among the route's `produces` (or all
/// codecs) that can represent the value.
///
/// # Errors
/// 406 naming the producible types when nothing acceptable can write the
/// value; 500 when the chosen codec fails.
pub(crate) fn write_entity(
    value: &dyn erased_serde::Serialize,
    codecs: &Codecs,
    produces: &[MediaType],
    forced: Option<&Arc<dyn Codec>>,
    accept: &Accept<'_>,
) -> Result<(Bytes, MediaType), HttpError> {
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
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
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
