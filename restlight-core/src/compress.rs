//! Compression: response bodies by `Accept-Encoding` (gzip, br, zstd) above
//! a size threshold, and compressed request bodies (`Content-Encoding`)
//! decoded within the body limit.
//!
//! Both need the `compression` feature. Without it responses are sent as
//! they are, and a request body with a `Content-Encoding` other than
//! `identity` is refused with 415 rather than handed to the handler
//! undecoded.
//!
//! A request body is decoded incrementally and stops at the application's
//! body limit plus one byte: a small body that inflates past the limit (a
//! "zip bomb") is answered 413 after at most the limit was produced.

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, VARY};
use http::HeaderMap;

use crate::error::HttpError;
use crate::response::Response;

/// The default smallest response body that is compressed: 1 KiB. Smaller
/// bodies gain little and cost a compressor's setup.
pub const DEFAULT_COMPRESSION_THRESHOLD: usize = 1024;

/// Response compression settings of an application.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompressOptions {
    pub(crate) enabled: bool,
    pub(crate) threshold: usize,
}

impl Default for CompressOptions {
    fn default() -> Self {
        Self { enabled: cfg!(feature = "compression"), threshold: DEFAULT_COMPRESSION_THRESHOLD }
    }
}

/// A content coding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Gzip,
    Br,
    Zstd,
}

impl Coding {
    /// Preferred first among equal weights: zstd and br compress better
    /// than gzip at a similar speed at the levels used here.
    const ALL: [Coding; 3] = [Coding::Zstd, Coding::Br, Coding::Gzip];

    fn name(self) -> &'static str {
        match self {
            Self::Gzip => "gzip",
            Self::Br => "br",
            Self::Zstd => "zstd",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "gzip" | "x-gzip" => Some(Self::Gzip),
            "br" => Some(Self::Br),
            "zstd" => Some(Self::Zstd),
            _ => None,
        }
    }
}

/// The best coding the client accepts (`None`: send as is). The highest
/// `q` wins, `q=0` excludes, `*` stands for the codings not named.
fn choose(accept_encoding: &str) -> Option<Coding> {
    let mut weights: Vec<(String, u16)> = Vec::new();
    for part in accept_encoding.split(',') {
        let mut pieces = part.split(';');
        let name = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
        if name.is_empty() {
            continue;
        }
        let mut q = 1000u16;
        for p in pieces {
            if let Some(v) = p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")) {
                let v: f32 = v.trim().parse().unwrap_or(0.0);
                // Clamped first, so the cast neither truncates nor wraps.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let milli = (v.clamp(0.0, 1.0) * 1000.0).round() as u16;
                q = milli;
            }
        }
        weights.push((name, q));
    }
    let star = weights.iter().find(|(n, _)| n == "*").map(|(_, q)| *q);
    let weight =
        |c: Coding| weights.iter().find(|(n, _)| Coding::parse(n) == Some(c)).map(|(_, q)| *q).or(star).unwrap_or(0);
    // `max_by_key` keeps the last of equal maxima: walk the preference backwards.
    Coding::ALL
        .into_iter()
        .rev()
        .map(|c| (weight(c), c))
        .filter(|(q, _)| *q > 0)
        .max_by_key(|(q, _)| *q)
        .map(|(_, c)| c)
}

/// Whether a body of this type is worth compressing.
fn compressible(content_type: Option<&HeaderValue>) -> bool {
    let Some(ct) = content_type.and_then(|v| v.to_str().ok()) else { return true };
    let ct = ct.trim_start().to_ascii_lowercase();
    !(ct.starts_with("image/") && !ct.starts_with("image/svg")
        || ct.starts_with("video/")
        || ct.starts_with("audio/")
        || ct.starts_with("application/zip")
        || ct.starts_with("application/gzip")
        || ct.starts_with("application/zstd"))
}

/// Compresses the response body when the client accepts a coding, the body
/// is held in full, at least `threshold` bytes long and not compressed yet.
pub(crate) fn response(mut res: Response, accept_encoding: Option<&HeaderValue>, options: CompressOptions) -> Response {
    if !options.enabled || res.headers().contains_key(CONTENT_ENCODING) {
        return res;
    }
    let Some(body) = res.body().full_bytes().cloned() else { return res };
    if body.len() < options.threshold || !compressible(res.headers().get(CONTENT_TYPE)) {
        return res;
    }
    res.headers_mut().append(VARY, HeaderValue::from_static("accept-encoding"));
    let Some(coding) = accept_encoding.and_then(|v| v.to_str().ok()).and_then(choose) else { return res };
    match encode(coding, &body) {
        Ok(packed) => {
            res.headers_mut().insert(CONTENT_ENCODING, HeaderValue::from_static(coding.name()));
            res.headers_mut().remove(CONTENT_LENGTH);
            *res.body_mut() = crate::body::Body::from(packed);
        }
        Err(e) => tracing::warn!("response not compressed with {}: {e}", coding.name()),
    }
    res
}

/// Decodes a request body sent with `Content-Encoding`, producing at most
/// `limit` bytes.
///
/// # Errors
/// 413 when the decoded body is larger than `limit`; 415 for a coding that
/// is not supported (all of them without the `compression` feature); 400
/// for a corrupt body.
pub(crate) fn request(headers: &HeaderMap, body: Bytes, limit: usize) -> Result<Bytes, HttpError> {
    let Some(value) = headers.get(CONTENT_ENCODING) else { return Ok(body) };
    let text = value.to_str().unwrap_or("").trim();
    if text.is_empty() || text.eq_ignore_ascii_case("identity") {
        return Ok(body);
    }
    let supported =
        if cfg!(feature = "compression") { "gzip, br, zstd" } else { "none (built without the `compression` feature)" };
    let unsupported = || {
        HttpError::unsupported_media_type(format!("Content-Encoding `{text}` is not supported; supported: {supported}"))
            .with("contentEncoding", text)
    };
    let coding = Coding::parse(text).ok_or_else(unsupported)?;
    if !cfg!(feature = "compression") {
        return Err(unsupported());
    }
    let decoded = decode(coding, &body, limit).map_err(|e| {
        HttpError::bad_request(format!("the request body is not valid {}: {e}", coding.name()))
            .with("contentEncoding", coding.name())
    })?;
    if decoded.len() > limit {
        return Err(HttpError::payload_too_large(format!(
            "the request entity decompressed ({}) to more than the limit of {limit} bytes",
            coding.name()
        ))
        .with("limit", limit)
        .with("contentEncoding", coding.name()));
    }
    Ok(Bytes::from(decoded))
}

#[cfg(feature = "compression")]
fn encode(coding: Coding, body: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    match coding {
        Coding::Gzip => {
            let mut enc =
                flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 2), flate2::Compression::default());
            enc.write_all(body)?;
            enc.finish()
        }
        Coding::Br => {
            let mut out = Vec::with_capacity(body.len() / 2);
            {
                // Quality 5 of 11: the usual choice for dynamic content.
                let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
                enc.write_all(body)?;
            }
            Ok(out)
        }
        Coding::Zstd => zstd::bulk::compress(body, 3),
    }
}

#[cfg(not(feature = "compression"))]
fn encode(_: Coding, _: &[u8]) -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::other("built without the `compression` feature"))
}

/// Decodes up to `limit + 1` bytes, so that the caller can tell "too large".
#[cfg(feature = "compression")]
fn decode(coding: Coding, body: &[u8], limit: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut out = Vec::new();
    match coding {
        Coding::Gzip => flate2::read::MultiGzDecoder::new(body).take(cap).read_to_end(&mut out)?,
        Coding::Br => brotli::Decompressor::new(body, 4096).take(cap).read_to_end(&mut out)?,
        Coding::Zstd => zstd::stream::read::Decoder::new(body)?.take(cap).read_to_end(&mut out)?,
    };
    Ok(out)
}

#[cfg(not(feature = "compression"))]
fn decode(_: Coding, _: &[u8], _: usize) -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::other("built without the `compression` feature"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding() {
        assert_eq!(choose("gzip"), Some(Coding::Gzip));
        assert_eq!(choose("gzip, br"), Some(Coding::Br));
        assert_eq!(choose("gzip;q=1, br;q=0.5, zstd;q=0.8"), Some(Coding::Gzip));
        assert_eq!(choose("*"), Some(Coding::Zstd));
        assert_eq!(choose("*, zstd;q=0"), Some(Coding::Br));
        assert_eq!(choose("identity"), None);
        assert_eq!(choose("gzip;q=0"), None);
        assert_eq!(choose(""), None);
    }
}
