//! Ant-style path patterns (Spring's `AntPathMatcher`), as interceptors'
//! include and exclude lists write them: `?` is one character, `*` zero or
//! more characters within a segment, `**` (a whole segment) zero or more
//! segments, `{name}` one segment's worth of text (as `*`), `{name:regex}`
//! text the regex matches. Patterns are split on `/` and empty segments are
//! ignored, so `/a/` and `/a` are the same pattern; runs of `**` segments are
//! one.
//!
//! Matching is for the user of the pattern, who has a regex engine for the
//! variables with a regex.
//!
//! ```
//! use restlight_grammar::ant::{AntPattern, AntSegment, AntToken};
//!
//! let p = AntPattern::parse("/api/**/**/*.json").unwrap();
//! assert_eq!(p.segments().len(), 3);
//! assert_eq!(p.segments()[1], AntSegment::AnyDepth);
//! let AntSegment::Glob(toks) = &p.segments()[2] else { panic!() };
//! assert_eq!(toks[0], AntToken::Star);
//!
//! assert_eq!(AntPattern::parse("/a/{id").unwrap_err().to_string(), "unclosed '{' in `{id`");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use crate::template::closing_brace;

/// A parsed Ant-style pattern: its segments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AntPattern<'a> {
    segments: Cow<'a, [AntSegment<'a>]>,
}

/// One segment of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AntSegment<'a> {
    /// `**`: zero or more segments.
    AnyDepth,
    /// One segment: literal characters, `?`, `*` and variables.
    Glob(Cow<'a, [AntToken<'a>]>),
}

/// One element of a segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AntToken<'a> {
    /// This character.
    Lit(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters, possibly empty.
    Star,
    /// `{name}` (any run of characters, as `*`) or `{name:regex}`.
    Var {
        /// The name, trimmed.
        name: Cow<'a, str>,
        /// The regex, trimmed; `None` when absent or empty.
        regex: Option<Cow<'a, str>>,
    },
}

/// A malformed pattern, with the bytes of the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AntError {
    /// A `{` without its `}` in a segment.
    UnclosedBrace {
        /// The `{`.
        at: Range<usize>,
        /// The segment.
        segment: String,
    },
    /// `{}` or `{:regex}`.
    EmptyName {
        /// The variable.
        at: Range<usize>,
        /// What is between its braces.
        inner: String,
    },
}

impl AntError {
    /// The bytes of the pattern the fault is about.
    #[must_use]
    pub fn at(&self) -> Range<usize> {
        match self {
            Self::UnclosedBrace { at, .. } | Self::EmptyName { at, .. } => at.clone(),
        }
    }
}

impl fmt::Display for AntError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnclosedBrace { segment, .. } => write!(f, "unclosed '{{' in `{segment}`"),
            Self::EmptyName { inner, .. } => write!(f, "empty variable name in `{{{inner}}}`"),
        }
    }
}

impl std::error::Error for AntError {}

impl<'a> AntPattern<'a> {
    /// Parses a pattern.
    ///
    /// # Errors
    /// The first unclosed `{` or empty variable name.
    pub fn parse(pattern: &'a str) -> Result<Self, AntError> {
        let mut segments = Vec::new();
        let mut offset = 0;
        for part in pattern.split('/') {
            let start = offset;
            offset += part.len() + 1;
            if part.is_empty() {
                continue;
            }
            if part == "**" {
                if segments.last() != Some(&AntSegment::AnyDepth) {
                    segments.push(AntSegment::AnyDepth);
                }
                continue;
            }
            segments.push(AntSegment::Glob(Cow::Owned(segment(part, start)?)));
        }
        Ok(Self { segments: Cow::Owned(segments) })
    }

    /// A pattern of these segments, for constants.
    #[must_use]
    pub const fn from_static(segments: &'a [AntSegment<'a>]) -> Self {
        Self { segments: Cow::Borrowed(segments) }
    }

    /// A pattern of these segments.
    #[must_use]
    pub fn from_segments(segments: Vec<AntSegment<'a>>) -> Self {
        Self { segments: Cow::Owned(segments) }
    }

    /// The segments, in order.
    #[must_use]
    pub fn segments(&self) -> &[AntSegment<'a>] {
        &self.segments
    }

    /// Whether the pattern matches every path (`/**`).
    #[must_use]
    pub fn is_match_all(&self) -> bool {
        matches!(&*self.segments, [AntSegment::AnyDepth])
    }
}

/// The tokens of one segment `part`, which starts at byte `base`.
fn segment(part: &str, base: usize) -> Result<Vec<AntToken<'_>>, AntError> {
    let mut toks = Vec::new();
    let mut i = 0;
    while let Some(c) = part[i..].chars().next() {
        match c {
            '?' => toks.push(AntToken::One),
            '*' => toks.push(AntToken::Star),
            '{' => {
                let end = closing_brace(part, i)
                    .ok_or_else(|| AntError::UnclosedBrace { at: base + i..base + i + 1, segment: part.to_owned() })?;
                let inner = &part[i + 1..end];
                let (name, regex) = match inner.split_once(':') {
                    Some((n, r)) => (n.trim(), Some(r.trim()).filter(|r| !r.is_empty())),
                    None => (inner.trim(), None),
                };
                if name.is_empty() {
                    return Err(AntError::EmptyName { at: base + i..base + end + 1, inner: inner.to_owned() });
                }
                toks.push(AntToken::Var { name: Cow::Borrowed(name), regex: regex.map(Cow::Borrowed) });
                i = end + 1;
                continue;
            }
            c => toks.push(AntToken::Lit(c)),
        }
        i += c.len_utf8();
    }
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    use AntToken::{Lit, One, Star};

    fn var<'a>(name: &'a str, regex: Option<&'a str>) -> AntToken<'a> {
        AntToken::Var { name: Cow::Borrowed(name), regex: regex.map(Cow::Borrowed) }
    }

    fn glob<'a>(toks: &[AntToken<'a>]) -> AntSegment<'a> {
        AntSegment::Glob(Cow::Owned(toks.to_vec()))
    }

    #[test]
    fn parses() {
        let cases: Vec<(&str, Vec<AntSegment<'_>>)> = vec![
            ("/**", vec![AntSegment::AnyDepth]),
            ("", vec![]),
            ("/a//b/", vec![glob(&[Lit('a')]), glob(&[Lit('b')])]),
            ("/**/**/x", vec![AntSegment::AnyDepth, glob(&[Lit('x')])]),
            ("/f?o/b*r", vec![glob(&[Lit('f'), One, Lit('o')]), glob(&[Lit('b'), Star, Lit('r')])]),
            ("/é*", vec![glob(&[Lit('é'), Star])]),
            ("/users/{id}", vec![glob(&[Lit('u'), Lit('s'), Lit('e'), Lit('r'), Lit('s')]), glob(&[var("id", None)])]),
            ("/{id:\\d{2}}x", vec![glob(&[var("id", Some("\\d{2}")), Lit('x')])]),
            ("/{ id : }", vec![glob(&[var("id", None)])]),
            ("/a**b", vec![glob(&[Lit('a'), Star, Star, Lit('b')])]),
        ];
        for (pattern, want) in cases {
            assert_eq!(AntPattern::parse(pattern).unwrap().segments(), want.as_slice(), "{pattern}");
        }
        assert!(AntPattern::parse("/**").unwrap().is_match_all());
        assert!(!AntPattern::parse("/**/a").unwrap().is_match_all());
    }

    #[test]
    fn rejects() {
        let cases: &[(&str, Range<usize>, &str)] = &[
            ("/a/{id", 3..4, "unclosed '{' in `{id`"),
            ("/a/x{:y}", 4..8, "empty variable name in `{:y}`"),
            ("/a/{}", 3..5, "empty variable name in `{}`"),
        ];
        for (pattern, at, message) in cases {
            let e = AntPattern::parse(pattern).unwrap_err();
            assert_eq!((e.at(), e.to_string()), (at.clone(), (*message).to_owned()), "{pattern}");
        }
    }
}
