//! Media types, `Accept` parsing and content negotiation.
//!
//! ```
//! use restlight_core::media::{negotiate, MediaType};
//!
//! let json = MediaType::parse("Application/JSON; charset=UTF-8").unwrap();
//! assert_eq!(json.essence(), "application/json");
//! assert_eq!(json.to_string(), "application/json; charset=utf-8");
//!
//! let producible = [MediaType::parse("application/json").unwrap(),
//!                   MediaType::parse("text/plain").unwrap()];
//! let best = negotiate(Some("text/*;q=0.9, application/json;q=0.5"), &producible);
//! assert_eq!(best.map(MediaType::essence), Some("text/plain"));
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use http::HeaderValue;
use restlight_grammar::media::{self as grammar, is_token, MediaError, MediaRange as Parsed};

/// A media type such as `application/json` or `text/plain; charset=utf-8`.
///
/// Type and subtype are case-insensitive and kept lowercase; parameter names
/// are lowercase, values are kept as given except `charset`, which is
/// lowercased. The `q` weight of an `Accept` entry is not part of the type
/// (see [`MediaRange`]): it and everything after it are dropped by [`parse`].
/// Nor is `qs`, the server's quality of a type a route produces (JAX-RS,
/// `#[produces("text/html; qs=0.5")]`, default 1): it is read into
/// [`MediaType::qs`] and ranks the route's types when the client's `q`
/// leaves a tie.
///
/// [`parse`]: MediaType::parse
///
/// Parsed once and shared: a clone is a reference count, so a request can
/// keep the type its route negotiated without copying it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MediaType(Arc<Repr>);

#[derive(PartialEq, Eq, Hash)]
struct Repr {
    canonical: Box<str>,
    slash: usize,
    essence_len: usize,
    params: Vec<(Box<str>, Box<str>)>,
    /// `qs` in thousandths, 1000 when not given.
    qs: u16,
    header: HeaderValue,
    /// Whether the type or the subtype is `*`: asked on every response a
    /// route writes, so decided once here instead of by two comparisons of
    /// slices each time.
    wildcard: bool,
}

impl fmt::Debug for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MediaType").field(&&*self.0.canonical).finish()
    }
}

/// A media type that could not be parsed; its message names the bad value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaTypeError {
    value: String,
    reason: Option<MediaError>,
}

impl MediaTypeError {
    /// The value that is not a media type.
    #[must_use]
    pub fn value(&self) -> &str {
        &self.value
    }

    /// What the grammar found wrong, with the bytes of the fault; `None`
    /// when the value parses but is not a valid header value or its `qs` is
    /// not a number from 0 to 1.
    #[must_use]
    pub fn reason(&self) -> Option<&MediaError> {
        self.reason.as_ref()
    }
}

impl fmt::Display for MediaTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Some(why) => write!(f, "invalid media type `{}`: {why}", self.value),
            None => write!(
                f,
                "invalid media type `{}`: not a valid header value, or a `qs` that is not a number from 0 to 1",
                self.value
            ),
        }
    }
}

impl std::error::Error for MediaTypeError {}

/// One entry of an `Accept` header: a media range and its weight.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaRange {
    /// The range, possibly a wildcard (`*/*`, `text/*`).
    pub media: MediaType,
    /// The weight, `1.0` unless stated, clamped to `0.0..=1.0`.
    pub q: f32,
}

impl MediaType {
    /// Parses `type/subtype` with optional `; name=value` parameters.
    ///
    /// # Errors
    /// When the value is not a media type (no `/`, bad token, bad parameter).
    pub fn parse(s: &str) -> Result<MediaType, MediaTypeError> {
        let error = |reason| MediaTypeError { value: s.to_owned(), reason };
        let parsed = grammar::parse(s).map_err(|why| error(Some(why)))?;
        MediaType::from_parsed(&parsed).ok_or_else(|| error(None))
    }

    /// The media type of a range the grammar parsed (the macros emit them);
    /// `None` when its text cannot be a header value.
    pub(crate) fn from_parsed(e: &Parsed<'_>) -> Option<MediaType> {
        let mut canonical = format!("{}/{}", e.type_, e.subtype).to_ascii_lowercase();
        let essence_len = canonical.len();
        let mut params = Vec::with_capacity(e.params.len());
        let mut qs = 1000;
        for p in e.params.iter() {
            let name = p.name.to_ascii_lowercase();
            if name == "qs" {
                qs = weight(&p.value)?;
                continue;
            }
            let value = if name == "charset" { p.value.to_ascii_lowercase() } else { p.value.to_string() };
            canonical.push_str("; ");
            canonical.push_str(&name);
            canonical.push('=');
            if is_token(&value) {
                canonical.push_str(&value);
            } else {
                canonical.push('"');
                canonical.push_str(&value.replace('\\', "\\\\").replace('"', "\\\""));
                canonical.push('"');
            }
            params.push((name.into_boxed_str(), value.into_boxed_str()));
        }
        let header = HeaderValue::from_str(&canonical).ok()?;
        let wildcard = e.type_ == "*" || e.subtype == "*";
        Some(MediaType(Arc::new(Repr {
            slash: e.type_.len(),
            essence_len,
            canonical: canonical.into(),
            params,
            qs,
            header,
            wildcard,
        })))
    }

    /// The server's quality of this type, `qs` in thousandths (`qs=0.5`
    /// is 500); 1000 when not given.
    #[must_use]
    pub fn qs(&self) -> u16 {
        self.0.qs
    }

    /// `type/subtype`, lowercase, without parameters: `"application/json"`.
    #[must_use]
    pub fn essence(&self) -> &str {
        &self.0.canonical[..self.0.essence_len]
    }

    /// The top-level type: `"application"`, or `"*"`.
    #[must_use]
    pub fn type_(&self) -> &str {
        &self.0.canonical[..self.0.slash]
    }

    /// The subtype: `"json"`, or `"*"`.
    #[must_use]
    pub fn subtype(&self) -> &str {
        &self.0.canonical[self.0.slash + 1..self.0.essence_len]
    }

    /// The value of a parameter; the name is case-insensitive.
    #[must_use]
    pub fn param(&self, name: &str) -> Option<&str> {
        self.0.params.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| &**v)
    }

    /// All parameters in the order given, names lowercase.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.params.iter().map(|(n, v)| (&**n, &**v))
    }

    /// Whether the type or the subtype is `*`.
    #[must_use]
    pub fn is_wildcard(&self) -> bool {
        self.0.wildcard
    }

    /// Wildcard-aware compatibility, in both directions: `*/*` and `text/*`
    /// match `text/plain` and the other way round. Parameters are ignored
    /// except when both sides carry the same one with different values
    /// (`charset` is never compared).
    #[must_use]
    pub fn matches(&self, other: &MediaType) -> bool {
        compatible(self.type_(), self.subtype(), other.type_(), other.subtype())
            && params_agree(self.params(), |n| other.param(n))
    }

    /// The canonical form as a header value, computed once at parse time.
    #[must_use]
    pub fn header_value(&self) -> &HeaderValue {
        &self.0.header
    }
}

impl fmt::Display for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.canonical)
    }
}

impl FromStr for MediaType {
    type Err = MediaTypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MediaType::parse(s)
    }
}

/// Parses an `Accept` header. Tolerant: entries that do not parse are
/// skipped; `q` defaults to 1 and is clamped to `0..=1`; a lone `*` is `*/*`.
#[must_use]
pub fn parse_accept(header: &str) -> Vec<MediaRange> {
    parse_ranges(header)
        .iter()
        .filter_map(|e| {
            let media = MediaType::from_parsed(&e.range)?;
            Some(MediaRange { media, q: f32::from(e.q) / 1000.0 })
        })
        .collect()
}

/// Picks the best of `producible` for this `Accept` header (`None`, an empty
/// header or one where no entry parses means anything is acceptable).
///
/// The highest `q` wins and `q=0` excludes; the `q` of a concrete producible
/// type is that of the most specific range matching it. Among equal `q` the
/// more specific accept range wins (`type/sub;param`, then `type/sub`, then
/// `type/*`, then `*/*`), then the order of `producible`. A wildcard
/// producible (`*/*`, `text/*`) is acceptable when any range with `q > 0`
/// matches it; it is returned itself (the caller picks the concrete type
/// from the header).
#[must_use]
pub fn negotiate<'a>(accept: Option<&str>, producible: &'a [MediaType]) -> Option<&'a MediaType> {
    let ranges = accept.map(parse_ranges).unwrap_or_default();
    best_of(&ranges, producible).map(|(_, media)| media)
}

/// How well one producible type fits an `Accept` header; greater is better.
///
/// The JAX-RS order of combined types (Jakarta REST 3.1, section 3.7.2
/// step 3 and section 3.8): the specificity of the combined type (`n/m`
/// before `n/*` before `*/*`), then the client's `q`, then the server's
/// `qs`, then how exactly the two sides matched (fewer wildcards, then
/// parameters, first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Score {
    /// Specificity of the combined type: the more specific of the range's
    /// and the producible type's, without parameters (0 to 2).
    combined: u8,
    /// The client's weight in thousandths.
    q: u16,
    /// The server's weight in thousandths.
    qs: u16,
    /// The range's and the producible type's specificity, summed.
    exact: u8,
}

/// The best producible type with its score (first of equal scores).
pub(crate) fn best_of<'a>(ranges: &[Entry<'_>], producible: &'a [MediaType]) -> Option<(Score, &'a MediaType)> {
    let mut best: Option<(Score, &'a MediaType)> = None;
    for media in producible {
        if let Some(score) = score(ranges, media) {
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, media));
            }
        }
    }
    best
}

/// An `Accept` header read once per request: the text, and its ranges,
/// parsed the first time routing or a codec needs them and shared by both.
#[derive(Debug, Default)]
pub(crate) struct Accept<'a> {
    header: Option<&'a str>,
    ranges: std::sync::OnceLock<Vec<Entry<'a>>>,
}

impl<'a> Accept<'a> {
    pub(crate) fn new(header: Option<&'a str>) -> Self {
        Self { header, ranges: std::sync::OnceLock::new() }
    }

    /// The header as sent.
    pub(crate) fn header(&self) -> Option<&'a str> {
        self.header
    }

    /// Its ranges (empty when there is no header or no entry parses),
    /// parsed on the first call.
    pub(crate) fn ranges(&self) -> &[Entry<'a>] {
        self.ranges.get_or_init(|| self.header.map(parse_ranges).unwrap_or_default())
    }
}

/// The score of one producible type, `None` when it is not acceptable.
pub(crate) fn score(ranges: &[Entry<'_>], media: &MediaType) -> Option<Score> {
    let own = specificity(media);
    let of = |range: u8, q: u16| Score { combined: range.max(own).min(2), q, qs: media.qs(), exact: range + own };
    if ranges.is_empty() {
        return Some(of(0, 1000));
    }
    let matching = ranges.iter().filter(|r| r.matches(media));
    if media.is_wildcard() {
        return matching.filter(|r| r.q > 0).map(|r| of(r.specificity(), r.q)).max();
    }
    // The most specific range decides; among equally specific ones the highest q.
    let deciding = matching.max_by_key(|r| (r.specificity(), r.q))?;
    (deciding.q > 0).then(|| of(deciding.specificity(), deciding.q))
}

/// The specificity of a media type used as a consumes entry or a range.
pub(crate) fn specificity(media: &MediaType) -> u8 {
    spec_of(media.type_(), media.subtype(), media.0.params.is_empty())
}

fn spec_of(type_: &str, sub: &str, no_params: bool) -> u8 {
    match (type_, sub) {
        ("*", _) => 0,
        (_, "*") => 1,
        _ if no_params => 2,
        _ => 3,
    }
}

/// A borrowed, not yet normalised media range: one `Accept` entry.
#[derive(Debug)]
pub(crate) struct Entry<'s> {
    range: Parsed<'s>,
    /// Weight in thousandths.
    q: u16,
}

impl<'s> Entry<'s> {
    fn new(range: Parsed<'s>) -> Self {
        let q = range.q.unwrap_or(1000);
        Entry { range, q }
    }

    fn specificity(&self) -> u8 {
        spec_of(&self.range.type_, &self.range.subtype, self.range.params.is_empty())
    }

    /// Compatibility with a media type, as [`MediaType::matches`].
    pub(crate) fn matches(&self, media: &MediaType) -> bool {
        compatible(&self.range.type_, &self.range.subtype, media.type_(), media.subtype())
            && params_agree(self.range.params.iter().map(|p| (&*p.name, &*p.value)), |n| media.param(n))
    }
}

/// A `qs` value (`0` to `1`, at most three decimals are kept) in thousandths.
fn weight(value: &str) -> Option<u16> {
    let w: f32 = value.trim().parse().ok()?;
    // Checked to be within 0..=1 first, so the cast cannot truncate or wrap.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (0.0..=1.0).contains(&w).then(|| (w * 1000.0).round() as u16)
}

/// Parses an `Accept` header into borrowed ranges, skipping bad entries.
pub(crate) fn parse_ranges(header: &str) -> Vec<Entry<'_>> {
    grammar::parse_accept(header).map(Entry::new).collect()
}

/// Parses one media type without allocating (e.g. a Content-Type header).
pub(crate) fn parse_one(s: &str) -> Option<Entry<'_>> {
    grammar::parse(s).ok().map(Entry::new)
}

fn compatible(at: &str, asub: &str, bt: &str, bsub: &str) -> bool {
    (at == "*" || bt == "*" || at.eq_ignore_ascii_case(bt))
        && (asub == "*" || bsub == "*" || asub.eq_ignore_ascii_case(bsub))
}

fn params_agree<'x>(
    mut mine: impl Iterator<Item = (&'x str, &'x str)>,
    theirs: impl Fn(&str) -> Option<&'x str>,
) -> bool {
    mine.all(|(n, v)| n.eq_ignore_ascii_case("charset") || theirs(n).is_none_or(|w| w == v))
}
