//! Ant-style path patterns: matching a request path, and the startup
//! questions "can these two patterns match a common path?" (intersection)
//! and "does this pattern match every path that one matches?" (cover).
//!
//! Syntax (Spring's `AntPathMatcher`, parsed by `restlight_grammar::ant`): `?` is one character, `*` zero or
//! more characters within a segment, `**` (a whole segment) zero or more
//! segments, `{name}` one segment's worth of text (as `*`), `{name:regex}`
//! text the regex matches. Paths and patterns are split on `/` and empty
//! segments are ignored, so `/a/` and `/a` are the same path.
//!
//! ```
//! use restlight_core::intercept::AntPattern;
//! let p = AntPattern::parse("/api/**/users/{id:\\d+}").unwrap();
//! assert!(p.matches("/api/v1/users/42"));
//! assert!(p.matches("/api/users/42"));
//! assert!(!p.matches("/api/v1/users/me"));
//! ```
//!
//! The startup questions are answered conservatively: `intersects` may say
//! `true` for patterns that share no path (the pair is then tested per
//! request, which is correct, only slower) and `covers` says `true` only
//! when it is certain.

use std::fmt;

use regex_lite::Regex;
use restlight_grammar::ant::{self as grammar, AntSegment, AntToken};

/// One character position of a segment pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// This character.
    Lit(char),
    /// `?`: any one character.
    One,
    /// `*` or `{name}`: any run of characters, possibly empty.
    Star,
}

/// One segment of a pattern.
#[derive(Debug, Clone)]
pub(crate) enum Seg {
    /// `**`: zero or more segments.
    Any,
    /// Literal characters, `?` and `*`.
    Glob(Vec<Tok>),
    /// A segment with a `{name:regex}` variable: matched by the regex; for
    /// the startup questions its variables count as `*` (`approx` matches
    /// at least what the regex matches).
    Regex { regex: Regex, approx: Vec<Tok> },
}

impl Seg {
    fn toks(&self) -> &[Tok] {
        match self {
            Self::Glob(t) | Self::Regex { approx: t, .. } => t,
            Self::Any => &[],
        }
    }
}

/// A malformed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AntPatternError {
    /// The pattern as written.
    pub pattern: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for AntPatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an Ant-style pattern: {}", self.pattern, self.reason)
    }
}

impl std::error::Error for AntPatternError {}

/// A parsed Ant-style pattern (see the [`intercept`](crate::intercept) module).
#[derive(Debug, Clone)]
pub struct AntPattern {
    raw: String,
    pub(crate) segs: Vec<Seg>,
}

impl fmt::Display for AntPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

impl AntPattern {
    /// Parses a pattern.
    ///
    /// # Errors
    /// An unclosed `{`, an empty variable name or a regex that does not compile.
    pub fn parse(pattern: &str) -> Result<Self, AntPatternError> {
        let fail = |reason: String| AntPatternError { pattern: pattern.to_owned(), reason };
        let parsed = grammar::AntPattern::parse(pattern).map_err(|e| fail(e.to_string()))?;
        let segs = parsed
            .segments()
            .iter()
            .map(|seg| match seg {
                AntSegment::AnyDepth => Ok(Seg::Any),
                AntSegment::Glob(toks) => segment(toks),
            })
            .collect::<Result<_, _>>()
            .map_err(fail)?;
        Ok(Self { raw: pattern.to_owned(), segs })
    }

    pub(crate) fn from_segs(raw: String, segs: Vec<Seg>) -> Self {
        Self { raw, segs }
    }

    /// The pattern as written.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// Whether the pattern matches every path (`/**`).
    #[must_use]
    pub fn is_match_all(&self) -> bool {
        matches!(self.segs.as_slice(), [Seg::Any])
    }

    /// Whether `path` (the raw request path, without query) matches. Does
    /// not allocate.
    #[must_use]
    pub fn matches(&self, path: &str) -> bool {
        // Greedy wildcard matching with one backtrack point, on segments:
        // `**` is the wildcard, any other segment must match one path segment.
        let mut text = path.split('/').filter(|s| !s.is_empty());
        let mut pi = 0;
        let mut star: Option<(usize, _)> = None;
        loop {
            let before = text.clone();
            match text.next() {
                Some(seg) => {
                    match self.segs.get(pi) {
                        Some(Seg::Any) => {
                            star = Some((pi + 1, before));
                            pi += 1;
                            text = star.as_ref().map(|(_, t)| t.clone()).unwrap_or(text);
                            continue;
                        }
                        Some(s) if segment_matches(s, seg) => {
                            pi += 1;
                            continue;
                        }
                        _ => {}
                    }
                    let Some((sp, st)) = star.as_mut() else { return false };
                    st.next();
                    text = st.clone();
                    pi = *sp;
                }
                None => return self.segs[pi.min(self.segs.len())..].iter().all(|s| matches!(s, Seg::Any)),
            }
        }
    }

    /// Whether some path may match both patterns. Conservative: `true`
    /// when unsure.
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        intersect(&self.segs, &other.segs, |a, b| match (a, b) {
            (Seg::Any, _) | (_, Seg::Any) => true,
            _ => toks_intersect(a.toks(), b.toks()),
        })
    }

    /// Whether every path `other` matches is certainly matched by `self`.
    /// Conservative: `false` when unsure.
    #[must_use]
    pub fn covers(&self, other: &Self) -> bool {
        segs_cover(&self.segs, &other.segs)
    }
}

/// One segment of glob tokens; a regex when a variable has one.
fn segment(parsed: &[AntToken<'_>]) -> Result<Seg, String> {
    let mut toks = Vec::new();
    let mut regex = String::from("^");
    let mut has_regex = false;
    let star = |toks: &mut Vec<Tok>| {
        if toks.last() != Some(&Tok::Star) {
            toks.push(Tok::Star);
        }
    };
    for tok in parsed {
        match tok {
            AntToken::One => {
                toks.push(Tok::One);
                regex.push('.');
            }
            AntToken::Star | AntToken::Var { regex: None, .. } => {
                star(&mut toks);
                regex.push_str(".*");
            }
            AntToken::Var { regex: Some(re), .. } => {
                star(&mut toks);
                has_regex = true;
                regex.push_str(&format!("(?:{re})"));
            }
            AntToken::Lit(c) => {
                toks.push(Tok::Lit(*c));
                regex.push_str(&regex_lite::escape(c.encode_utf8(&mut [0; 4])));
            }
        }
    }
    if !has_regex {
        return Ok(Seg::Glob(toks));
    }
    regex.push('$');
    let regex = Regex::new(&regex).map_err(|e| {
        let why = e.to_string();
        format!("invalid regex: {}", why.lines().last().unwrap_or_default().trim())
    })?;
    Ok(Seg::Regex { regex, approx: toks })
}

fn segment_matches(seg: &Seg, text: &str) -> bool {
    match seg {
        Seg::Any => true,
        Seg::Glob(toks) => glob_matches(toks, text),
        Seg::Regex { regex, .. } => regex.is_match(text),
    }
}

/// Greedy glob matching with one backtrack point; no allocation.
fn glob_matches(toks: &[Tok], text: &str) -> bool {
    let mut t = text.chars();
    let mut pi = 0;
    let mut star: Option<(usize, std::str::Chars<'_>)> = None;
    loop {
        let before = t.clone();
        match t.next() {
            Some(c) => {
                match toks.get(pi) {
                    Some(Tok::Star) => {
                        star = Some((pi + 1, before.clone()));
                        pi += 1;
                        t = before;
                        continue;
                    }
                    Some(Tok::One) => {
                        pi += 1;
                        continue;
                    }
                    Some(Tok::Lit(l)) if *l == c => {
                        pi += 1;
                        continue;
                    }
                    _ => {}
                }
                let Some((sp, st)) = star.as_mut() else { return false };
                st.next();
                t = st.clone();
                pi = *sp;
            }
            None => return toks[pi.min(toks.len())..].iter().all(|k| *k == Tok::Star),
        }
    }
}

/// Reachability in the product of two sequences whose elements are either
/// the wildcard (zero or more units) or one unit; `unit` says whether two
/// elements can consume one common unit.
fn intersect<T>(a: &[T], b: &[T], unit: impl Fn(&T, &T) -> bool) -> bool
where
    T: Wild,
{
    let width = b.len() + 1;
    let mut seen = vec![false; (a.len() + 1) * width];
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, j)) = stack.pop() {
        if std::mem::replace(&mut seen[i * width + j], true) {
            continue;
        }
        if i == a.len() && j == b.len() {
            return true;
        }
        let (wa, wb) = (a.get(i).is_some_and(Wild::is_wild), b.get(j).is_some_and(Wild::is_wild));
        if wa {
            stack.push((i + 1, j));
        }
        if wb {
            stack.push((i, j + 1));
        }
        if let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
            if unit(x, y) {
                // A wildcard stays put after consuming a unit.
                stack.push((if wa { i } else { i + 1 }, if wb { j } else { j + 1 }));
            }
        }
    }
    false
}

trait Wild {
    fn is_wild(&self) -> bool;
}

impl Wild for Tok {
    fn is_wild(&self) -> bool {
        *self == Tok::Star
    }
}

impl Wild for Seg {
    fn is_wild(&self) -> bool {
        matches!(self, Seg::Any)
    }
}

fn toks_intersect(a: &[Tok], b: &[Tok]) -> bool {
    intersect(a, b, |x, y| match (x, y) {
        (Tok::Lit(p), Tok::Lit(q)) => p == q,
        _ => true,
    })
}

/// Whether the language of `a` certainly contains that of `b`: a
/// simulation in which every element of `b` is absorbed by an element of
/// `a` at least as general. Sound, not complete.
fn covers_by<T: Wild>(a: &[T], b: &[T], unit: impl Fn(&T, &T) -> bool) -> bool {
    fn go<T: Wild>(
        a: &[T],
        b: &[T],
        i: usize,
        j: usize,
        memo: &mut [Option<bool>],
        unit: &dyn Fn(&T, &T) -> bool,
    ) -> bool {
        let key = i * (b.len() + 1) + j;
        if let Some(v) = memo[key] {
            return v;
        }
        let v = match a.get(i) {
            None => j == b.len(),
            Some(x) if x.is_wild() => go(a, b, i + 1, j, memo, unit) || (j < b.len() && go(a, b, i, j + 1, memo, unit)),
            Some(x) => match b.get(j) {
                Some(y) if !y.is_wild() => unit(x, y) && go(a, b, i + 1, j + 1, memo, unit),
                _ => false,
            },
        };
        memo[key] = Some(v);
        v
    }
    let mut memo = vec![None; (a.len() + 1) * (b.len() + 1)];
    go(a, b, 0, 0, &mut memo, &unit)
}

fn segs_cover(a: &[Seg], b: &[Seg]) -> bool {
    covers_by(a, b, |x, y| match x {
        Seg::Glob(ta) => covers_by(ta, y.toks(), |p, q| match (p, q) {
            (Tok::One, Tok::One | Tok::Lit(_)) => true,
            (Tok::Lit(p), Tok::Lit(q)) => p == q,
            _ => false,
        }),
        // A regex constrains more than its approximation: never certain.
        Seg::Regex { .. } | Seg::Any => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> AntPattern {
        AntPattern::parse(s).unwrap()
    }

    #[test]
    fn matching() {
        let cases: &[(&str, &str, bool)] = &[
            ("/**", "/", true),
            ("/**", "/a/b/c", true),
            ("/foo/**", "/foo", true),
            ("/foo/**", "/foo/bar/baz", true),
            ("/foo/**", "/foobar", false),
            ("/foo/*", "/foo/bar", true),
            ("/foo/*", "/foo/bar/baz", false),
            ("/foo/b?r", "/foo/bar", true),
            ("/foo/b?r", "/foo/br", false),
            ("/f?o/b*r", "/foo/bazaar", true),
            ("/f?o/b*r", "/foo/baz", false),
            ("/**/end", "/a/b/end", true),
            ("/**/end", "/end", true),
            ("/**/end", "/a/end/x", false),
            ("/a/**/b/**/c", "/a/x/b/y/z/c", true),
            ("/a/**/b/**/c", "/a/x/c", false),
            ("/users/{id}", "/users/7", true),
            ("/users/{id:\\d+}", "/users/7", true),
            ("/users/{id:\\d+}", "/users/me", false),
            ("/*.html", "/index.html", true),
            ("/*.html", "/index.htm", false),
            ("/a/", "/a", true),
        ];
        for (pattern, path, want) in cases {
            assert_eq!(p(pattern).matches(path), *want, "{pattern} ~ {path}");
        }
    }

    #[test]
    fn intersection() {
        let cases: &[(&str, &str, bool)] = &[
            ("/foo/**", "/foo/bar", true),
            ("/foo/b?r", "/foo/bar", true),
            ("/f?o/b*r", "/foo/bar", true),
            ("/foo/*", "/bar/*", false),
            ("/a/*", "/a/b/c", false),
            ("/a/**", "/b/**", false),
            ("/**/x", "/a/*", true),
            ("/a*", "/*b", true),
            ("/a*", "/b*", false),
            ("/x?", "/xyz", false),
            ("/{id}", "/me", true),
        ];
        for (a, b, want) in cases {
            assert_eq!(p(a).intersects(&p(b)), *want, "{a} ∩ {b}");
            assert_eq!(p(b).intersects(&p(a)), *want, "{b} ∩ {a}");
        }
    }

    #[test]
    fn cover() {
        let cases: &[(&str, &str, bool)] = &[
            ("/**", "/anything/*", true),
            ("/foo/**", "/foo/bar", true),
            ("/foo/**", "/foo", true),
            ("/foo/**", "/foo/**", true),
            ("/foo/*", "/foo/**", false),
            ("/foo/b?r", "/foo/bar", true),
            ("/f?o/b*r", "/foo/bar", true),
            ("/foo/bar", "/foo/*", false),
            ("/foo/*", "/foo/b?r", true),
            ("/a*", "/ab*", true),
            ("/ab*", "/a*", false),
            ("/**/c", "/a/b/c", true),
            ("/x/{id:\\d+}", "/x/1", false),
        ];
        for (a, b, want) in cases {
            assert_eq!(p(a).covers(&p(b)), *want, "{a} ⊇ {b}");
        }
    }

    #[test]
    fn errors() {
        assert!(AntPattern::parse("/a/{id").is_err());
        assert!(AntPattern::parse("/a/{:x}").is_err());
        assert!(AntPattern::parse("/a/{id:(}").is_err());
    }
}
