//! The startup classification of (handler interceptor, route) pairs by
//! pattern intersection, after the Java original's six rules:
//!
//! 1. no includes and no excludes: **always**;
//! 2. an empty include list, or an exclude matching every path (`/**`): **never**;
//! 3. an exclude certainly covers every path of the route: **never**;
//! 4. no exclude can intersect the route, and an include certainly covers
//!    it (no include list counts as `/**`): **always**;
//! 5. an include list none of whose patterns can intersect the route: **never**;
//! 6. otherwise **maybe**: the request path is tested, against only the
//!    includes and excludes that can intersect the route.
//!
//! `None` includes means "every path" and `Some(&[])` means "no path": the
//! original's bug #49 was confusing the two. A route's template is read as
//! a pattern in which each variable is `*` (or `**` when its regex can span
//! segments), so `/users/{id}` can meet `/users/admin`: an include naming a
//! literal that a variable may take is "maybe", never "never".
//!
//! ```
//! use restlight_core::intercept::{affinity, Affinity};
//! assert_eq!(affinity(Some(&["/foo/**"]), &[], "/foo/bar").unwrap(), Affinity::Always);
//! assert_eq!(affinity(Some(&["/foo/bar"]), &[], "/foo/{id}").unwrap(), Affinity::Maybe);
//! assert_eq!(affinity(None, &["/foo/b*"], "/foo/bar").unwrap(), Affinity::Never);
//! ```

use super::ant::{AntPattern, AntPatternError, Seg, Tok};
use crate::router::template::{self, Piece};

/// Whether an interceptor applies to a route, as decided at startup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Affinity {
    /// On every request of the route, without a test.
    Always,
    /// Never on the route: it is not even in the route's chain.
    Never,
    /// Decided per request by testing the path.
    Maybe,
}

/// The per-request test of a "maybe" pair: only the patterns that can meet
/// the route; `includes: None` when an include certainly covers it.
#[derive(Debug, Clone)]
pub(crate) struct PathTest {
    includes: Option<Vec<AntPattern>>,
    excludes: Vec<AntPattern>,
}

impl PathTest {
    /// Whether the interceptor applies to `path`. Does not allocate.
    pub(crate) fn test(&self, path: &str) -> bool {
        self.includes.as_ref().is_none_or(|inc| inc.iter().any(|p| p.matches(path)))
            && !self.excludes.iter().any(|p| p.matches(path))
    }

    /// How many patterns a request tests at most.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.includes.as_ref().map_or(0, Vec::len) + self.excludes.len()
    }
}

/// A decision with its per-request test.
#[derive(Debug, Clone)]
pub(crate) enum Decision {
    Always,
    Never,
    Maybe(PathTest),
}

impl Decision {
    pub(crate) fn affinity(&self) -> Affinity {
        match self {
            Self::Always => Affinity::Always,
            Self::Never => Affinity::Never,
            Self::Maybe(_) => Affinity::Maybe,
        }
    }
}

/// Classifies an interceptor with these includes and excludes against the
/// paths of one route.
pub(crate) fn decide(includes: Option<&[AntPattern]>, excludes: &[AntPattern], route: &[AntPattern]) -> Decision {
    // Rule 1.
    if includes.is_none() && excludes.is_empty() {
        return Decision::Always;
    }
    // Rule 2.
    if includes.is_some_and(<[AntPattern]>::is_empty) || excludes.iter().any(AntPattern::is_match_all) {
        return Decision::Never;
    }
    // Rule 3: one exclude covering every path of the route.
    if excludes.iter().any(|e| route.iter().all(|r| e.covers(r))) {
        return Decision::Never;
    }
    let meets = |p: &AntPattern| route.iter().any(|r| p.intersects(r));
    let excludes: Vec<AntPattern> = excludes.iter().filter(|e| meets(e)).cloned().collect();
    let covered = includes.is_none_or(|inc| route.iter().all(|r| inc.iter().any(|i| i.covers(r))));
    // Rule 4.
    if excludes.is_empty() && covered {
        return Decision::Always;
    }
    let includes = match includes {
        None => None,
        Some(_) if covered => None,
        Some(inc) => {
            let meeting: Vec<AntPattern> = inc.iter().filter(|i| meets(i)).cloned().collect();
            // Rule 5.
            if meeting.is_empty() {
                return Decision::Never;
            }
            Some(meeting)
        }
    };
    // Rule 6.
    Decision::Maybe(PathTest { includes, excludes })
}

/// A route template as a pattern: literal text as is, each variable `*`,
/// a segment holding a variable that can span segments `**`.
pub(crate) fn route_pattern(template_src: &str) -> AntPattern {
    route_pattern_of(template_src, None)
}

/// [`route_pattern`] of a template the macros already parsed (`parsed`),
/// which is then not parsed again.
pub(crate) fn route_pattern_of(
    template_src: &str,
    parsed: Option<&restlight_grammar::template::Template<'_>>,
) -> AntPattern {
    let compiled = match parsed {
        Some(parsed) => Ok(template::compile(parsed)),
        None => template::parse(template_src),
    };
    let Ok(t) = compiled else {
        // A malformed template fails startup anyway; match everything meanwhile.
        return AntPattern::from_segs(template_src.to_owned(), vec![Seg::Any]);
    };
    let mut segs = Vec::with_capacity(t.segments.len());
    for seg in &t.segments {
        if seg.iter().any(|p| matches!(p, Piece::Var(v) if t.vars[*v].multi)) {
            if !matches!(segs.last(), Some(Seg::Any)) {
                segs.push(Seg::Any);
            }
            continue;
        }
        let mut toks = Vec::new();
        for piece in seg {
            match piece {
                Piece::Lit(text) => toks.extend(text.chars().map(Tok::Lit)),
                Piece::Var(_) => {
                    if toks.last() != Some(&Tok::Star) {
                        toks.push(Tok::Star);
                    }
                }
            }
        }
        segs.push(Seg::Glob(toks));
    }
    AntPattern::from_segs(template_src.to_owned(), segs)
}

/// Classifies an interceptor with these includes (`None`: every path) and
/// excludes against a route template, as the application does at startup.
///
/// # Errors
/// A pattern that does not parse.
pub fn affinity(includes: Option<&[&str]>, excludes: &[&str], route: &str) -> Result<Affinity, AntPatternError> {
    let parse = |list: &[&str]| list.iter().map(|p| AntPattern::parse(p)).collect::<Result<Vec<_>, _>>();
    let includes = includes.map(parse).transpose()?;
    let excludes = parse(excludes)?;
    Ok(decide(includes.as_deref(), &excludes, &[route_pattern(route)]).affinity())
}

#[cfg(test)]
mod tests {
    use super::Affinity::{Always, Maybe, Never};
    use super::*;

    /// (includes, excludes, route, expected).
    type Case = (Option<&'static [&'static str]>, &'static [&'static str], &'static str, Affinity);

    const CASES: &[Case] = &[
        // Rule 1.
        (None, &[], "/foo/bar", Always),
        // Rule 2 (and bug #49: `None` is every path, `Some(&[])` none).
        (Some(&[]), &[], "/foo/bar", Never),
        (None, &["/**"], "/foo/bar", Never),
        (Some(&["/foo/**"]), &["/**"], "/foo/bar", Never),
        // The original's cases: includes that cover the route.
        (Some(&["/foo/**"]), &[], "/foo/bar", Always),
        (Some(&["/foo/b?r"]), &[], "/foo/bar", Always),
        (Some(&["/f?o/b*r"]), &[], "/foo/bar", Always),
        (Some(&["/x/**", "/foo/*"]), &[], "/foo/bar", Always),
        // Rule 3: an exclude covering the route.
        (None, &["/foo/b*"], "/foo/bar", Never),
        (Some(&["/foo/**"]), &["/foo/bar"], "/foo/bar", Never),
        (Some(&["/**"]), &["/users/*"], "/users/{id}", Never),
        (None, &["/files/**"], "/files/{path: .*}", Never),
        // Excludes that miss the route do not matter.
        (Some(&["/foo/**"]), &["/baz/**"], "/foo/bar", Always),
        (None, &["/baz/**", "/foo/bar/*"], "/foo/bar", Always),
        // Rule 5: no include can meet the route.
        (Some(&["/baz/**"]), &[], "/foo/bar", Never),
        (Some(&["/foo/b?z"]), &[], "/foo/bar", Never),
        (Some(&["/foo/*"]), &[], "/foo/bar/baz", Never),
        // Rule 6: intersecting without certainty.
        (Some(&["/foo/bar"]), &[], "/foo/{id}", Maybe),
        (Some(&["/foo/b?r"]), &[], "/foo/{id}", Maybe),
        (None, &["/users/admin"], "/users/{id}", Maybe),
        (Some(&["/foo/**"]), &["/foo/*/secret"], "/foo/{a}/{b}", Maybe),
        (Some(&["/api/{v:v\\d+}/**"]), &[], "/api/v1/users", Maybe),
        // A variable spanning segments meets deeper patterns.
        (Some(&["/files/a/b/c"]), &[], "/files/{path: .*}", Maybe),
        // Literal text a variable may take is not "never" (the misjudged include).
        (Some(&["/users/admin"]), &[], "/users/{id}", Maybe),
        (Some(&["/users/admin/**"]), &[], "/users/{id}/orders", Maybe),
    ];

    #[test]
    fn table() {
        for (includes, excludes, route, want) in CASES {
            let got = affinity(*includes, excludes, route).unwrap();
            assert_eq!(got, *want, "includes {includes:?} excludes {excludes:?} route {route}");
        }
    }

    #[test]
    fn maybe_tests_only_the_patterns_that_meet_the_route() {
        let inc: Vec<AntPattern> =
            ["/a/**", "/foo/bar", "/zzz/*"].iter().map(|p| AntPattern::parse(p).unwrap()).collect();
        let exc: Vec<AntPattern> = ["/b/**", "/foo/baz"].iter().map(|p| AntPattern::parse(p).unwrap()).collect();
        let Decision::Maybe(test) = decide(Some(&inc), &exc, &[route_pattern("/foo/{id}")]) else { panic!() };
        assert_eq!(test.len(), 2);
        assert!(test.test("/foo/bar"));
        assert!(!test.test("/foo/baz"));
        assert!(!test.test("/foo/qux"));
    }

    #[test]
    fn maybe_agrees_with_matching() {
        // Whatever the decision, it agrees with testing every pattern.
        let paths = ["/foo/bar", "/foo/baz", "/foo/bar/x", "/users/admin", "/users/7", "/files/a/b/c", "/api/v1/users"];
        for (includes, excludes, route, _) in CASES {
            let inc: Option<Vec<AntPattern>> =
                includes.map(|l| l.iter().map(|p| AntPattern::parse(p).unwrap()).collect());
            let exc: Vec<AntPattern> = excludes.iter().map(|p| AntPattern::parse(p).unwrap()).collect();
            let rp = route_pattern(route);
            let decision = decide(inc.as_deref(), &exc, std::slice::from_ref(&rp));
            for path in paths.iter().filter(|p| rp.matches(p)) {
                let full = inc.as_ref().is_none_or(|i| i.iter().any(|p| p.matches(path)))
                    && !exc.iter().any(|p| p.matches(path));
                let got = match &decision {
                    Decision::Always => true,
                    Decision::Never => false,
                    Decision::Maybe(t) => t.test(path),
                };
                assert_eq!(got, full, "{includes:?} {excludes:?} {route} on {path}");
            }
        }
    }
}
