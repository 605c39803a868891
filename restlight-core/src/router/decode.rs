//! Request paths: split on `/` first, strip `;matrix` parameters, then
//! percent-decode each segment (so `%2F` stays inside its segment).

use std::borrow::Cow;

use smallvec::SmallVec;

use super::params::MatrixParams;

/// A request path taken apart once per lookup.
#[derive(Debug)]
pub(crate) struct ParsedPath<'p> {
    /// The raw path without leading and trailing `/`, matrix parameters
    /// removed: what regex variables are matched against.
    pub(crate) raw: Cow<'p, str>,
    /// The segments, in order (inline up to eight: no allocation for most paths).
    pub(crate) segments: SmallVec<[Segment<'p>; 8]>,
    /// The matrix parameters of every segment, decoded.
    pub(crate) matrix: MatrixParams,
}

/// One path segment.
#[derive(Debug)]
pub(crate) struct Segment<'p> {
    /// Byte offset of the segment in [`ParsedPath::raw`].
    pub(crate) start: usize,
    /// Byte offset of its end in [`ParsedPath::raw`].
    pub(crate) end: usize,
    /// The segment, percent-decoded.
    pub(crate) text: Cow<'p, str>,
}

impl ParsedPath<'_> {
    /// The raw text of segment `i` (matrix parameters removed).
    pub(crate) fn raw_segment(&self, i: usize) -> &str {
        let seg = &self.segments[i];
        &self.raw[seg.start..seg.end]
    }

    /// The key of the static table: decoded segments joined with `/`, or
    /// `None` when a decoded segment contains `/` (no static route has one);
    /// with whether the raw path is exactly the key (had no escapes).
    pub(crate) fn static_key(&self) -> Option<(Cow<'_, str>, bool)> {
        if !self.raw.contains('%') {
            return Some((Cow::Borrowed(&self.raw), true));
        }
        if self.segments.iter().any(|s| s.text.contains('/')) {
            return None;
        }
        let texts: Vec<&str> = self.segments.iter().map(|s| &*s.text).collect();
        Some((Cow::Owned(texts.join("/")), false))
    }
}

/// The path without its query or fragment and without one leading and one
/// trailing `/`: what routing looks at. Byte scans: every character that
/// matters is ASCII.
pub(crate) fn route_body(path: &str) -> &str {
    route_body_and_slash(path).0
}

/// [`route_body`], and whether it removed a trailing `/` (`/users/`, not `/`).
pub(crate) fn route_body_and_slash(path: &str) -> (&str, bool) {
    let end = memchr::memchr2(b'?', b'#', path.as_bytes()).unwrap_or(path.len());
    let path = &path[..end];
    let body = path.strip_prefix('/').unwrap_or(path);
    match body.strip_suffix('/') {
        Some(body) => (body, true),
        None => (body, false),
    }
}

/// Whether the path needs decoding or has matrix parameters (or a NUL, which
/// decoding rejects): otherwise it is matched exactly as it is.
pub(crate) fn is_plain(body: &str) -> bool {
    memchr::memchr3(b'%', b';', 0, body.as_bytes()).is_none()
}

/// Splits, strips and decodes a request path. The query, if any, is ignored;
/// one trailing `/` is ignored. Errors name the problem (a 400 for the client).
pub(crate) fn parse_path(path: &str) -> Result<ParsedPath<'_>, String> {
    let body = route_body(path);
    parse_body(body, is_plain(body))
}

/// [`parse_path`] of a path already cut by [`route_body`], with what
/// [`is_plain`] says of it.
pub(crate) fn parse_body(body: &str, plain: bool) -> Result<ParsedPath<'_>, String> {
    let mut parsed =
        ParsedPath { raw: Cow::Borrowed(body), segments: SmallVec::new(), matrix: MatrixParams::default() };
    if body.is_empty() {
        return Ok(parsed);
    }
    if plain {
        // Nothing to decode: each segment is a slice of the path.
        let mut start = 0;
        for i in memchr::memchr_iter(b'/', body.as_bytes()) {
            parsed.segments.push(Segment { start, end: i, text: Cow::Borrowed(&body[start..i]) });
            start = i + 1;
        }
        parsed.segments.push(Segment { start, end: body.len(), text: Cow::Borrowed(&body[start..]) });
        return Ok(parsed);
    }
    if !body.contains(';') {
        let mut start = 0;
        for seg in body.split('/') {
            parsed.segments.push(Segment { start, end: start + seg.len(), text: decode(seg)? });
            start += seg.len() + 1;
        }
        return Ok(parsed);
    }
    let mut raw = String::with_capacity(body.len());
    for (i, seg) in body.split('/').enumerate() {
        let (text, matrix) = seg.split_once(';').unwrap_or((seg, ""));
        if i > 0 {
            raw.push('/');
        }
        parsed.segments.push(Segment { start: raw.len(), end: raw.len() + text.len(), text: decode(text)? });
        raw.push_str(text);
        for pair in matrix.split(';').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = decode(key)?;
            if !key.is_empty() {
                parsed.matrix.push(i, key.into_owned(), decode(value)?.into_owned());
            }
        }
    }
    parsed.raw = Cow::Owned(raw);
    Ok(parsed)
}

/// Percent-decodes one piece of a path. `+` stays `+`. Rejects malformed or
/// truncated escapes, NUL (escaped or not) and invalid UTF-8.
pub(crate) fn decode(s: &str) -> Result<Cow<'_, str>, String> {
    if !s.bytes().any(|b| b == b'%' || b == 0) {
        return Ok(Cow::Borrowed(s));
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let byte = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| Some(hex(h[0])? << 4 | hex(h[1])?))
                    .ok_or_else(|| format!("malformed percent-escape in `{s}`"))?;
                if byte == 0 {
                    return Err(format!("NUL (%00) in the path segment `{s}`"));
                }
                out.push(byte);
                i += 3;
            }
            0 => return Err("NUL in the path".to_owned()),
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map(Cow::Owned).map_err(|_| format!("invalid UTF-8 after percent-decoding `{s}`"))
}

/// The value of one hex digit.
pub(super) fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}
