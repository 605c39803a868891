//! Media types and media ranges (RFC 9110 sections 8.3.1 and 12.5.1):
//! `type/subtype *( ";" name=value )`, values as tokens or quoted strings,
//! `*/*` and `type/*`, a lone `*` for `*/*`, and the `q` weight of an
//! `Accept` entry (it and everything after it are not parameters).
//!
//! Nothing is lowercased or otherwise normalised here: the parts are slices
//! of the source (a quoted value with escapes is the one copy).
//!
//! ```
//! use restlight_grammar::media::{parse, parse_accept};
//!
//! let m = parse("text/html; charset=\"utf-8\"; q=0.5; ext=1").unwrap();
//! assert_eq!((&*m.type_, &*m.subtype), ("text", "html"));
//! assert_eq!(m.params.len(), 1);
//! assert_eq!((&*m.params[0].name, &*m.params[0].value), ("charset", "utf-8"));
//! assert_eq!(m.q, Some(500));
//!
//! let ranges: Vec<_> = parse_accept("text/*;q=0.9, nonsense, */*").collect();
//! assert_eq!(ranges.len(), 2);
//!
//! assert_eq!(parse("json").unwrap_err().to_string(), "it has no `/`");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// A parsed media type or media range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaRange<'a> {
    /// The type as written: `application`, or `*`.
    pub type_: Cow<'a, str>,
    /// The subtype as written: `json`, or `*`.
    pub subtype: Cow<'a, str>,
    /// The parameters before any `q`, in order.
    pub params: Cow<'a, [Param<'a>]>,
    /// The weight in thousandths (`q=0.5` is `500`), clamped to `0..=1000`;
    /// `None` when not given.
    pub q: Option<u16>,
}

/// One `name=value` parameter of a media type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param<'a> {
    /// The name as written.
    pub name: Cow<'a, str>,
    /// The value, unquoted and unescaped.
    pub value: Cow<'a, str>,
}

/// Why a value is not a media type, with the bytes of the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MediaError {
    /// No `/` between type and subtype.
    NoSlash {
        /// The type and subtype part.
        at: Range<usize>,
    },
    /// The type or the subtype is empty or not a token.
    NotTypeSubtype {
        /// The type and subtype part.
        at: Range<usize>,
        /// Its text.
        essence: String,
    },
    /// A wildcard type with a concrete subtype (`*/json`).
    WildcardType {
        /// The type and subtype part.
        at: Range<usize>,
    },
    /// A parameter that is not `name=value` with a token name and a token
    /// or well-formed quoted value.
    BadParam {
        /// The parameter.
        at: Range<usize>,
        /// Its text.
        param: String,
    },
    /// A `q` that is not a number.
    BadWeight {
        /// The parameter.
        at: Range<usize>,
        /// Its text.
        param: String,
    },
}

impl MediaError {
    /// The bytes of the source the fault is about.
    #[must_use]
    pub fn at(&self) -> Range<usize> {
        match self {
            Self::NoSlash { at }
            | Self::NotTypeSubtype { at, .. }
            | Self::WildcardType { at }
            | Self::BadParam { at, .. }
            | Self::BadWeight { at, .. } => at.clone(),
        }
    }
}

impl fmt::Display for MediaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSlash { .. } => f.write_str("it has no `/`"),
            Self::NotTypeSubtype { essence, .. } => write!(f, "`{essence}` is not `type/subtype`"),
            Self::WildcardType { .. } => f.write_str("only `*/*` may have a wildcard type"),
            Self::BadParam { param, .. } => write!(f, "the parameter `{param}` is not `name=value`"),
            Self::BadWeight { param, .. } => write!(f, "the weight `{param}` is not a number"),
        }
    }
}

impl std::error::Error for MediaError {}

impl MediaRange<'_> {
    /// Whether the type or the subtype is `*`.
    #[must_use]
    pub fn is_wildcard(&self) -> bool {
        self.type_ == "*" || self.subtype == "*"
    }

    /// The same range, owning its text.
    #[must_use]
    pub fn into_owned(self) -> MediaRange<'static> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        MediaRange {
            type_: own(self.type_),
            subtype: own(self.subtype),
            params: Cow::Owned(
                self.params.iter().map(|p| Param { name: own(p.name.clone()), value: own(p.value.clone()) }).collect(),
            ),
            q: self.q,
        }
    }
}

impl fmt::Display for MediaRange<'_> {
    /// `type/subtype`, then `; name=value` for each parameter (the value
    /// quoted when it is not a token) and `; q=0.5` when a weight was given:
    /// text [`parse`] reads back to an equal range.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.type_, self.subtype)?;
        for p in self.params.iter() {
            if is_token(&p.value) {
                write!(f, "; {}={}", p.name, p.value)?;
            } else {
                write!(f, "; {}=\"", p.name)?;
                for c in p.value.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            }
        }
        match self.q {
            None => Ok(()),
            Some(1000) => f.write_str("; q=1"),
            Some(0) => f.write_str("; q=0"),
            Some(q) => write!(f, "; q=0.{}", format!("{q:03}").trim_end_matches('0')),
        }
    }
}

/// Parses one media type or range; whitespace around it is ignored.
///
/// # Errors
/// When the value is not a media type: no `/`, a type or subtype that is no
/// token, `*/sub`, a parameter without `=` or with a bad name or value, a
/// `q` that is no number.
pub fn parse(s: &str) -> Result<MediaRange<'_>, MediaError> {
    let lead = s.len() - s.trim_start().len();
    parse_at(s.trim(), lead)
}

/// The entries of an `Accept` header that parse, in order; the others are
/// skipped.
pub fn parse_accept(header: &str) -> impl Iterator<Item = MediaRange<'_>> {
    split_unquoted(header, b',').filter(|s| !s.trim().is_empty()).filter_map(|s| parse(s).ok())
}

/// Parses `s` (trimmed), which starts at byte `base` of the source.
fn parse_at(s: &str, base: usize) -> Result<MediaRange<'_>, MediaError> {
    let mut parts = split_unquoted(s, b';');
    let first = parts.next().unwrap_or_default();
    let essence = first.trim();
    let at = base..base + first.trim_end().len();
    let (type_, subtype) = if essence == "*" {
        ("*", "*")
    } else {
        essence.split_once('/').ok_or(MediaError::NoSlash { at: at.clone() })?
    };
    if !is_token(type_) || !is_token(subtype) {
        return Err(MediaError::NotTypeSubtype { at, essence: essence.to_owned() });
    }
    if type_ == "*" && subtype != "*" {
        return Err(MediaError::WildcardType { at });
    }
    let mut range = MediaRange {
        type_: Cow::Borrowed(type_),
        subtype: Cow::Borrowed(subtype),
        params: Cow::Owned(Vec::new()),
        q: None,
    };
    let mut params = Vec::new();
    let mut offset = base + first.len() + 1;
    for part in parts {
        let start = offset + (part.len() - part.trim_start().len());
        offset += part.len() + 1;
        let param = part.trim();
        if param.is_empty() {
            continue;
        }
        let at = start..start + param.len();
        let bad = || MediaError::BadParam { at: at.clone(), param: param.to_owned() };
        let (name, value) = param.split_once('=').ok_or_else(bad)?;
        let (name, value) = (name.trim(), unquote(value.trim()).ok_or_else(bad)?);
        if !is_token(name) {
            return Err(bad());
        }
        if name.eq_ignore_ascii_case("q") {
            let q: f32 = value
                .parse()
                .ok()
                .filter(|q: &f32| !q.is_nan())
                .ok_or_else(|| MediaError::BadWeight { at: at.clone(), param: param.to_owned() })?;
            // Clamped to 0..=1 first, so the cast cannot truncate or wrap.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let milli = (q.clamp(0.0, 1.0) * 1000.0).round() as u16;
            range.q = Some(milli);
            break; // what follows q are accept extensions, not parameters
        }
        params.push(Param { name: Cow::Borrowed(name), value });
    }
    range.params = Cow::Owned(params);
    Ok(range)
}

/// A token value as is, or the content of a well-formed quoted string.
fn unquote(v: &str) -> Option<Cow<'_, str>> {
    let Some(inner) = v.strip_prefix('"') else {
        return is_token(v).then_some(Cow::Borrowed(v));
    };
    let inner = inner.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next()? } else { c });
    }
    Some(Cow::Owned(out))
}

/// Whether `s` is an RFC 9110 token: one or more of letters, digits and
/// ``!#$%&'*+-.^_`|~``.
#[must_use]
pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Splits `s` on the ASCII byte `sep` outside double quotes (a `\` inside
/// quotes escapes the next character).
pub fn split_unquoted(s: &str, sep: u8) -> SplitUnquoted<'_> {
    SplitUnquoted { s, sep, done: false }
}

/// The iterator of [`split_unquoted`].
#[derive(Debug, Clone)]
pub struct SplitUnquoted<'s> {
    s: &'s str,
    sep: u8,
    done: bool,
}

impl<'s> Iterator for SplitUnquoted<'s> {
    type Item = &'s str;

    fn next(&mut self) -> Option<&'s str> {
        if self.done {
            return None;
        }
        if !self.s.contains('"') {
            if let Some((piece, rest)) = self.s.split_once(char::from(self.sep)) {
                self.s = rest;
                return Some(piece);
            }
            self.done = true;
            return Some(self.s);
        }
        let (mut quoted, mut escaped) = (false, false);
        for (i, &b) in self.s.as_bytes().iter().enumerate() {
            match b {
                _ if escaped => escaped = false,
                b'\\' if quoted => escaped = true,
                b'"' => quoted = !quoted,
                _ if b == self.sep && !quoted => {
                    let (piece, rest) = (&self.s[..i], &self.s[i + 1..]);
                    self.s = rest;
                    return Some(piece);
                }
                _ => {}
            }
        }
        self.done = true;
        Some(self.s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(m: &MediaRange<'_>) -> Vec<(String, String)> {
        m.params.iter().map(|p| (p.name.to_string(), p.value.to_string())).collect()
    }

    /// A source, its type, subtype, parameters and weight.
    type Case = (&'static str, &'static str, &'static str, &'static [(&'static str, &'static str)], Option<u16>);

    #[test]
    fn display_reads_back_to_an_equal_range() {
        for src in [
            "application/json",
            "Text/Plain; charset=UTF-8",
            "*/*",
            "a/b; x=\"a;b\"; y=\"q\\\"z\"",
            "a/b; k=v; q=0.333",
            "a/b; q=0.5",
            "a/b; q=1",
            "a/b; q=0",
        ] {
            let parsed = parse(src).unwrap();
            let written = parsed.to_string();
            assert_eq!(parse(&written).unwrap(), parsed, "{src} written as {written}");
        }
        assert_eq!(parse("text/plain;charset=utf-8;q=0.50").unwrap().to_string(), "text/plain; charset=utf-8; q=0.5");
    }

    #[test]
    fn accepts() {
        let cases: &[Case] = &[
            ("application/json", "application", "json", &[], None),
            ("  Text/Plain ; charset=UTF-8 ", "Text", "Plain", &[("charset", "UTF-8")], None),
            ("*/*", "*", "*", &[], None),
            ("*", "*", "*", &[], None),
            ("text/*", "text", "*", &[], None),
            ("application/vnd.api+json", "application", "vnd.api+json", &[], None),
            ("text/plain;", "text", "plain", &[], None),
            ("a/b; x=\"a;b\"; y=\"q\\\"z\"", "a", "b", &[("x", "a;b"), ("y", "q\"z")], None),
            ("a/b; q=0.5; ext=1", "a", "b", &[], Some(500)),
            ("a/b; Q=2", "a", "b", &[], Some(1000)),
            ("a/b; q=-1", "a", "b", &[], Some(0)),
            ("a/b; k=v; q=0.333", "a", "b", &[("k", "v")], Some(333)),
        ];
        for (s, t, sub, ps, q) in cases {
            let m = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            let ps: Vec<(String, String)> = ps.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect();
            assert_eq!((&*m.type_, &*m.subtype, params(&m), m.q), (*t, *sub, ps, *q), "{s}");
        }
    }

    #[test]
    fn rejects() {
        let cases: &[(&str, Range<usize>, &str)] = &[
            ("json", 0..4, "it has no `/`"),
            (" text/", 1..6, "`text/` is not `type/subtype`"),
            ("application/", 0..12, "`application/` is not `type/subtype`"),
            ("text /plain", 0..11, "`text /plain` is not `type/subtype`"),
            ("*/json", 0..6, "only `*/*` may have a wildcard type"),
            ("text/plain; charset", 12..19, "the parameter `charset` is not `name=value`"),
            ("a/b; k=\"x", 5..9, "the parameter `k=\"x` is not `name=value`"),
            ("a/b; k=a b", 5..10, "the parameter `k=a b` is not `name=value`"),
            ("a/b; k v=1", 5..10, "the parameter `k v=1` is not `name=value`"),
            ("a/b; q=x", 5..8, "the weight `q=x` is not a number"),
            ("a/b; q=NaN", 5..10, "the weight `q=NaN` is not a number"),
        ];
        for (s, at, message) in cases {
            let e = parse(s).unwrap_err();
            assert_eq!((e.at(), e.to_string()), (at.clone(), (*message).to_owned()), "{s}");
        }
    }

    #[test]
    fn accept_headers() {
        let ranges: Vec<MediaRange<'_>> = parse_accept("text/html, a/b;q=0.5, bad, , \"x,y\"/z, */*;q=0").collect();
        let shown: Vec<(String, Option<u16>)> =
            ranges.iter().map(|r| (format!("{}/{}", r.type_, r.subtype), r.q)).collect();
        assert_eq!(shown, [("text/html".to_owned(), None), ("a/b".to_owned(), Some(500)), ("*/*".to_owned(), Some(0))]);
    }

    #[test]
    fn split_respects_quotes() {
        let parts: Vec<&str> = split_unquoted("a;b=\"x;y\\\";z\";c", b';').collect();
        assert_eq!(parts, ["a", "b=\"x;y\\\";z\"", "c"]);
    }

    #[test]
    fn owned_copy() {
        let s = String::from("text/plain; charset=utf-8");
        let m = parse(&s).unwrap().into_owned();
        drop(s);
        assert_eq!(params(&m), [("charset".to_owned(), "utf-8".to_owned())]);
        assert!(!m.is_wildcard());
    }
}
