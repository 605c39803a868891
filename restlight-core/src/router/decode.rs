//! Request paths: split on `/` first, strip `;matrix` parameters, then
//! percent-decode each segment (so `%2F` stays inside its segment).

use std::borrow::Cow;

use smallvec::SmallVec;

use super::inline::InlineVec;
use super::params::MatrixParams;

/// A request path taken apart once per lookup.
#[derive(Debug)]
pub(crate) struct ParsedPath<'p> {
    /// The raw path without leading and trailing `/`, matrix parameters
    /// removed: what regex variables are matched against.
    pub(crate) raw: Cow<'p, str>,
    /// The segments, in order (inline up to eight: no allocation for most paths).
    pub(crate) segments: SmallVec<[Segment<'p>; 8]>,
    /// The decoded text of the segments that had escapes: (segment, text).
    decoded: Vec<(usize, String)>,
    /// The matrix parameters of every segment, decoded.
    pub(crate) matrix: MatrixParams,
}

/// One path segment: its offsets as `u32` (a request path is far shorter
/// than 4 GiB) and its text, so that a parsed path is small to build and
/// to move, and reading a segment's text is one load.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment<'p> {
    /// Byte offset of the segment in [`ParsedPath::raw`].
    pub(crate) start: u32,
    /// Byte offset of its end in [`ParsedPath::raw`].
    pub(crate) end: u32,
    /// Its text, when it needed no decoding (matrix parameters removed);
    /// `None`: the decoded text is kept in [`ParsedPath`].
    text: Option<&'p str>,
}

/// `i` as a path offset (paths longer than 4 GiB do not reach the router).
fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl<'p> ParsedPath<'p> {
    fn new(raw: &'p str) -> Self {
        ParsedPath {
            raw: Cow::Borrowed(raw),
            segments: SmallVec::new(),
            decoded: Vec::new(),
            matrix: MatrixParams::default(),
        }
    }

    /// Adds the segment at `start..end` of the raw path, decoded as `text`.
    fn push(&mut self, start: usize, end: usize, text: Cow<'p, str>) {
        let text = match text {
            Cow::Borrowed(text) => Some(text),
            Cow::Owned(text) => {
                self.decoded.push((self.segments.len(), text));
                None
            }
        };
        self.segments.push(Segment { start: offset(start), end: offset(end), text });
    }

    /// The decoded text of segment `i` (matrix parameters removed).
    #[inline]
    pub(crate) fn text(&self, i: usize) -> &str {
        match self.segments[i].text {
            Some(text) => text,
            None => self.decoded_text(i),
        }
    }

    /// The text of a segment that had escapes.
    #[cold]
    fn decoded_text(&self, i: usize) -> &str {
        self.decoded.iter().find(|(seg, _)| *seg == i).map_or("", |(_, text)| text)
    }
}

/// What the trie walk reads of a request path: its segments by index, their
/// decoded text and where they sit in the raw text regexes see. A plain path
/// ([`PlainPath`]) is read in place; a path with escapes or matrix
/// parameters is taken apart first ([`ParsedPath`]).
pub(crate) trait Segments {
    /// The number of segments.
    fn count(&self) -> usize;
    /// The decoded text of segment `i` (matrix parameters removed).
    fn text(&self, i: usize) -> &str;
    /// [`text`](Self::text) as bytes: for a plain path, without the check
    /// that its ends fall between characters (they are at `/` or the ends).
    #[inline]
    fn bytes(&self, i: usize) -> &[u8] {
        self.text(i).as_bytes()
    }
    /// The raw text without leading and trailing `/` (matrix parameters removed).
    fn raw(&self) -> &str;
    /// The byte range of segment `i` in [`raw`](Self::raw).
    fn range(&self, i: usize) -> (usize, usize);
    /// Whether the raw text may have escapes (`%`): `false` for a plain path.
    fn may_escape(&self) -> bool;
}

impl Segments for ParsedPath<'_> {
    #[inline]
    fn count(&self) -> usize {
        self.segments.len()
    }

    #[inline]
    fn text(&self, i: usize) -> &str {
        ParsedPath::text(self, i)
    }

    #[inline]
    fn raw(&self) -> &str {
        &self.raw
    }

    #[inline]
    fn range(&self, i: usize) -> (usize, usize) {
        let seg = self.segments[i];
        (seg.start as usize, seg.end as usize)
    }

    #[inline]
    fn may_escape(&self) -> bool {
        true
    }
}

/// A plain path (no `%`, `;` or NUL) read where it lies: its body and the
/// bounds of its segments, both from [`Scan`]. Nothing is copied or decoded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlainPath<'s, 'p> {
    body: &'p str,
    /// [`Scan::bounds`].
    bounds: &'s [u32],
}

impl Segments for PlainPath<'_, '_> {
    #[inline]
    fn count(&self) -> usize {
        if self.body.is_empty() {
            0
        } else {
            self.bounds.len() - 1
        }
    }

    #[inline]
    fn text(&self, i: usize) -> &str {
        let (start, end) = self.range(i);
        self.body.get(start..end).unwrap_or_default()
    }

    #[inline]
    fn bytes(&self, i: usize) -> &[u8] {
        let (start, end) = self.range(i);
        self.body.as_bytes().get(start..end).unwrap_or_default()
    }

    #[inline]
    fn raw(&self) -> &str {
        self.body
    }

    #[inline]
    fn range(&self, i: usize) -> (usize, usize) {
        // Two loads, one bounds check: segment `i` runs from after the
        // bound before it (the first's is `u32::MAX`, one before 0) to
        // the next.
        let end = self.bounds[i + 1];
        (self.bounds[i].wrapping_add(1) as usize, end as usize)
    }

    #[inline]
    fn may_escape(&self) -> bool {
        false
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

/// What one pass over a request target finds: the route body (as
/// [`route_body_and_slash`] cuts it), whether it is plain ([`is_plain`]),
/// the query, and where the body's `/` are. One byte loop instead of a
/// `memchr` scan for each question: a request path is some tens of bytes,
/// where each vectorised search pays more to set up than the loop costs.
#[derive(Debug)]
pub(crate) struct Scan<'p> {
    /// The path without query, fragment, one leading and one trailing `/`.
    pub(crate) body: &'p str,
    /// Whether a trailing `/` was removed (`/users/`, not `/`).
    pub(crate) trailing: bool,
    /// Whether the body has no `%`, `;` or NUL: matched exactly as it is.
    pub(crate) plain: bool,
    /// The text after the first `?`, if any.
    pub(crate) query: Option<&'p str>,
    /// Where the body's segments end: `u32::MAX` (one before the first
    /// byte), then the offset of each `/` inside `body`, then the body's
    /// length. Segment `i` runs between bounds `i` and `i + 1`, so
    /// finding it takes no test for the first or the last segment.
    bounds: Bounds,
}

/// [`Scan::bounds`]: in place for up to 16 of them (14 `/`), so that
/// recording one is a store and an increment; in a vector, all of them,
/// for a path with more.
type Bounds = InlineVec<u32, 16>;

/// The bytes [`Scan::of`] stops at: `/ ? # % ;` and NUL.
static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    let special = b"/?#%;\0";
    while i < special.len() {
        table[special[i] as usize] = true;
        i += 1;
    }
    table
};

/// Every byte of a word: the multiplier that repeats a byte eight times.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that equals `byte`, exactly (no
/// carry crosses bytes: the low seven bits plus `0x7f` stay below `0x100`).
#[inline(always)]
fn equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    !(((x & !HIGH) + !HIGH) | x) & HIGH
}

/// How many bytes of `bytes` are `byte`: eight at a time, then the rest
/// one by one.
pub(crate) fn count_byte(bytes: &[u8], byte: u8) -> usize {
    let mut words = bytes.chunks_exact(8);
    let mut count = 0;
    for word in &mut words {
        count += equal(u64::from_le_bytes(word.try_into().unwrap_or_default()), byte).count_ones() as usize;
    }
    count + words.remainder().iter().filter(|&&b| b == byte).count()
}

/// Whether a word of the path may hold a byte other than `/` that
/// [`Scan::of`] stops at: `? # % ;` or NUL (non-zero if so). Three tests
/// instead of five: with bit 2 set in every byte, `;` and `?` both read
/// `?`; with bits 1 and 2 set, `#` and `%` both read `'`, and so do `!`
/// and `'`. Those two (rare in paths) only send their word to the byte
/// loop, which skips them.
#[inline(always)]
fn others(word: u64) -> u64 {
    equal(word | (ONES * 0x04), b'?') | equal(word | (ONES * 0x06), b'\'') | equal(word, 0)
}

impl<'p> Scan<'p> {
    /// Scans `target` (a path, perhaps with a query or fragment) once.
    pub(crate) fn of(target: &'p str) -> Self {
        let bytes = target.as_bytes();
        // The leading `/` is skipped before the loop, so that the offsets
        // found are offsets in the body.
        let start = usize::from(bytes.first() == Some(&b'/'));
        let rest = &bytes[start..];
        let mut bounds = Bounds::new();
        bounds.push(u32::MAX);
        let mut plain = true;
        let mut end = rest.len();
        let mut query = None;
        // Eight bytes at a time while they hold no byte but `/` that the
        // scan stops at (the common case: a plain path without query); the
        // `/` are read off the word's bits. The rest byte by byte.
        let mut from = 0;
        while let Some(chunk) = rest.get(from..from + 8) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            if others(word) != 0 {
                break;
            }
            let mut found = equal(word, b'/');
            while found != 0 {
                bounds.push(offset(from + (found.trailing_zeros() / 8) as usize));
                found &= found - 1;
            }
            from += 8;
        }
        for (i, &b) in rest.iter().enumerate().skip(from) {
            // Most bytes are none of these: one table load decides.
            if !SPECIAL[usize::from(b)] {
                continue;
            }
            match b {
                b'/' => bounds.push(offset(i)),
                b'?' => {
                    end = i;
                    query = Some(&target[start + i + 1..]);
                    break;
                }
                b'#' => {
                    end = i;
                    query = memchr::memchr(b'?', &rest[i..]).map(|at| &target[start + i + at + 1..]);
                    break;
                }
                b'%' | b';' | 0 => plain = false,
                _ => {}
            }
        }
        let mut trailing = false;
        if end > 0 && rest[end - 1] == b'/' {
            end -= 1;
            trailing = true;
            bounds.pop();
        }
        bounds.push(offset(end));
        Scan { body: &target[start..start + end], trailing, plain, query, bounds }
    }

    /// The plain body read in place (`None` unless [`plain`](Self::plain)).
    #[inline]
    pub(crate) fn plain_path(&self) -> Option<PlainPath<'_, 'p>> {
        self.plain.then_some(PlainPath { body: self.body, bounds: self.bounds.as_slice() })
    }

    /// [`parse_body`] of the scanned body, splitting a plain body at the
    /// `/` found by the scan.
    pub(crate) fn parse(&self) -> Result<ParsedPath<'p>, String> {
        if !self.plain || self.body.is_empty() {
            return parse_body(self.body, self.plain);
        }
        let body = self.body;
        let mut parsed = ParsedPath::new(body);
        for pair in self.bounds.as_slice().windows(2) {
            let (start, end) = (pair[0].wrapping_add(1), pair[1]);
            parsed.segments.push(Segment { start, end, text: Some(&body[start as usize..end as usize]) });
        }
        Ok(parsed)
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
    let mut parsed = ParsedPath::new(body);
    if body.is_empty() {
        return Ok(parsed);
    }
    if plain {
        // Nothing to decode: each segment is a slice of the path.
        let mut start = 0;
        for i in memchr::memchr_iter(b'/', body.as_bytes()) {
            parsed.push(start, i, Cow::Borrowed(&body[start..i]));
            start = i + 1;
        }
        parsed.push(start, body.len(), Cow::Borrowed(&body[start..]));
        return Ok(parsed);
    }
    if !body.contains(';') {
        let mut start = 0;
        for seg in body.split('/') {
            parsed.push(start, start + seg.len(), decode(seg)?);
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
        parsed.push(raw.len(), raw.len() + text.len(), decode(text)?);
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

#[cfg(test)]
mod tests {
    use super::{is_plain, parse_body, route_body_and_slash, Scan, Segments};

    /// What [`Scan`] must find in `target`, from the separate scans.
    fn check(target: &str) {
        let scan = Scan::of(target);
        let (body, trailing) = route_body_and_slash(target);
        assert_eq!((scan.body, scan.trailing, scan.plain), (body, trailing, is_plain(body)), "{target:?}");
        let query = target.find('?').map(|at| &target[at + 1..]);
        assert_eq!(scan.query, query, "{target:?}");
        let (ours, theirs) = (scan.parse(), parse_body(body, is_plain(body)));
        match (ours, theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.raw, b.raw, "{target:?}");
                let seg = |p: &super::ParsedPath<'_>| -> Vec<(u32, u32, String)> {
                    p.segments.iter().enumerate().map(|(i, s)| (s.start, s.end, p.text(i).to_owned())).collect()
                };
                assert_eq!(seg(&a), seg(&b), "{target:?}");
                // A plain path read in place has the same segments.
                if let Some(plain) = scan.plain_path() {
                    let segs: Vec<(u32, u32, String)> = (0..plain.count())
                        .map(|i| {
                            let (start, end) = plain.range(i);
                            assert_eq!(plain.text(i).as_bytes(), plain.bytes(i), "{target:?} segment {i}");
                            (start as u32, end as u32, plain.text(i).to_owned())
                        })
                        .collect();
                    assert_eq!(segs, seg(&b), "{target:?}, read in place");
                }
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{target:?}"),
            (a, b) => panic!("{target:?}: {a:?} against {b:?}"),
        }
    }

    /// Long targets, which the scan reads eight bytes at a time: every
    /// special character at every place of paths of up to 40 bytes, and
    /// pseudo-random mixes of them.
    #[test]
    fn scan_agrees_with_the_separate_scans_on_long_targets() {
        // `!` and `'` read as `#` and `%` do in the word test: not
        // special, but they send their word to the byte loop.
        let specials = ['/', '%', ';', '?', '#', '\0', '!', '\''];
        for len in 1..=40 {
            let base: String = (0..len).map(|i| if i % 5 == 0 { '/' } else { 'a' }).collect();
            check(&base);
            check(&format!("/{base}/"));
            for at in 0..len {
                for c in specials {
                    let mut target: Vec<char> = base.chars().collect();
                    target[at] = c;
                    check(&target.iter().collect::<String>());
                }
            }
        }
        let alphabet = ['/', 'a', 'b', '%', '2', 'F', ';', '?', '#', '\0', 'é', '=', '!', '\''];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 48) as usize;
            let target: String = (0..len)
                .map(|k| alphabet[((state >> (k % 16 * 4)) as usize + k) % alphabet.len()])
                .map(|c| if state.is_multiple_of(3) && c != '/' { 'x' } else { c })
                .collect();
            check(&target);
        }
    }

    /// The one-pass scan cuts, classifies and splits every path as the
    /// separate scans do: all targets of up to five characters of an
    /// alphabet holding every character the scan looks at.
    #[test]
    fn scan_agrees_with_the_separate_scans_on_every_short_target() {
        let alphabet = ['/', 'a', '%', '2', 'F', ';', '?', '#', '\0', 'é'];
        let mut targets = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..5 {
            targets = targets.iter().flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}"))).collect();
            all.extend(targets.iter().cloned());
        }
        for target in &all {
            check(target);
        }
    }
}
