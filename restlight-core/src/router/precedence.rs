//! The order of template groups. JAX-RS 3.7.2 ranks templates by their full
//! path: more literal characters, then more variables, then more variables
//! with a regex. Spring's `PathPattern` ranks them otherwise: a catch-all
//! (`/**`, `/{*rest}`) last, then fewer captured variables and wildcards
//! (a `*` weighs 100 variables), then the longer pattern, each variable
//! counted as one character. Ties between different templates are broken
//! by their shape (variable names removed), so the order of the route table
//! never matters.
//!
//! Each style keeps its own order among its routes; the two orders are
//! merged, a JAX-RS group placed among the Spring groups by Spring's rule
//! (a JAX-RS template has no wildcard and no catch-all).

use std::cmp::{Ordering, Reverse};

use super::template::{Piece, Seg, Var};

/// How a route's template ranks against the others: the rule of the front
/// end that declared it. Default: [`Precedence::JaxRs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precedence {
    /// JAX-RS 3.7.2: more literal characters, then more variables, then
    /// more variables with a regex.
    #[default]
    JaxRs,
    /// Spring's `PathPattern` (as the Spring front end declares its routes):
    /// a catch-all last (among catch-alls the longer first), then the lower
    /// score (a variable 1, a `*` wildcard 100), then the longer pattern
    /// (literal characters and `/`, each variable one).
    Spring {
        /// How many of the template's variables stand for a `*` segment.
        wildcards: u16,
        /// Whether the template's last variable is a catch-all (`**` or
        /// `{*rest}` at the end of the Spring pattern).
        catch_all: bool,
    },
}

/// The JAX-RS precedence key of a template; greater is preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Key {
    /// Characters of literal text, each `/` included (decoded).
    literal_chars: usize,
    /// Template variables.
    vars: usize,
    /// Template variables with a regex.
    regex_vars: usize,
}

impl Key {
    /// The key of a normalised template of `segments` segments, whose
    /// literal text is `literal` characters (decoded, without the `/`), and
    /// `vars` variables, `regex_vars` of them with a regex.
    pub(crate) fn of_counts(literal: usize, segments: usize, vars: usize, regex_vars: usize) -> Key {
        Key { literal_chars: literal + segments.max(1), vars, regex_vars }
    }

    /// The key of a normalised template.
    pub(crate) fn of(segments: &[Seg<'_>], vars: &[Var<'_>]) -> Key {
        let literal: usize = segments
            .iter()
            .flatten()
            .map(|piece| match piece {
                Piece::Lit(text) => text.chars().count(),
                Piece::Var(_) => 0,
            })
            .sum();
        Key {
            literal_chars: literal + segments.len().max(1),
            vars: vars.len(),
            regex_vars: vars.iter().filter(|v| v.regex.is_some()).count(),
        }
    }

    /// Spring's key of the same template declared with `precedence`.
    pub(crate) fn spring(&self, precedence: Precedence) -> SpringKey {
        let (wildcards, catch_all) = match precedence {
            Precedence::JaxRs => (0, false),
            Precedence::Spring { wildcards, catch_all } => (usize::from(wildcards), catch_all),
        };
        let wildcards = wildcards.min(self.vars);
        let captures = self.vars - wildcards - usize::from(catch_all && self.vars > wildcards);
        // `PathPattern`'s normalised length: each `/`, each literal
        // character, each variable or wildcard one.
        let length = self.literal_chars + self.vars;
        SpringKey {
            catch_all,
            catch_all_length: Reverse(if catch_all { length } else { 0 }),
            score: captures + 100 * wildcards,
            length: Reverse(length),
        }
    }
}

/// Spring's `PathPattern.SPECIFICITY_COMPARATOR` as a key; smaller is
/// preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SpringKey {
    catch_all: bool,
    /// Among catch-alls, the longer first.
    catch_all_length: Reverse<usize>,
    /// Captured variables, plus 100 per wildcard.
    score: usize,
    length: Reverse<usize>,
}

/// What a template group is ranked by.
#[derive(Clone, Debug)]
pub(crate) struct Rank<'a> {
    pub(crate) key: Key,
    pub(crate) shape: &'a str,
    /// Spring's key; for a JAX-RS group, the key of its template read as a
    /// Spring pattern (used to place it among Spring groups).
    pub(crate) spring: SpringKey,
    /// Whether the group is ranked the Spring way (all its routes are).
    pub(crate) is_spring: bool,
}

/// The JAX-RS order of template groups, best first: by key (descending),
/// then by shape (ascending, so that at equal keys a literal earlier in the
/// path wins: `/a/{}` before `/{}/b`).
pub(crate) fn order(a: (&Key, &str), b: (&Key, &str)) -> Ordering {
    b.0.cmp(a.0).then_with(|| a.1.cmp(b.1))
}

/// Spring's order, best first; its ties (which Spring reports as ambiguous
/// handler methods) go by the JAX-RS order: `/a/{x:\d+}` before `/a/{y}`.
fn spring_order(a: &Rank<'_>, b: &Rank<'_>) -> Ordering {
    a.spring.cmp(&b.spring).then_with(|| order((&a.key, a.shape), (&b.key, b.shape)))
}

/// The items in precedence order, best first: the JAX-RS groups in the
/// JAX-RS order, the Spring groups in Spring's, merged by Spring's order
/// (so each style's own order is kept, and the result is a total order
/// whatever the mix).
pub(crate) fn rank<'s, T>(items: Vec<T>, rank_of: impl Fn(&T) -> Rank<'s>) -> Vec<T> {
    let (mut spring, mut jaxrs): (Vec<T>, Vec<T>) = items.into_iter().partition(|t| rank_of(t).is_spring);
    // Through the shared index sort (`crate::sort`): a table without a
    // Spring route never ranks this way (the router keeps its JAX-RS order
    // as sorted), and two instances of the slice sort's code for these
    // were 12 KB of every service's binary. Shapes differ between groups,
    // so both orders are total and a stable sort finds the same one.
    crate::sort::sort_by(&mut jaxrs, &|a, b| {
        let (a, b) = (rank_of(a), rank_of(b));
        order((&a.key, a.shape), (&b.key, b.shape))
    });
    crate::sort::sort_by(&mut spring, &|a, b| spring_order(&rank_of(a), &rank_of(b)));
    let mut out = Vec::with_capacity(spring.len() + jaxrs.len());
    let (mut spring, mut jaxrs) = (spring.into_iter().peekable(), jaxrs.into_iter().peekable());
    loop {
        let take_spring = match (spring.peek(), jaxrs.peek()) {
            (Some(s), Some(j)) => spring_order(&rank_of(s), &rank_of(j)) == Ordering::Less,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        out.extend(if take_spring { spring.next() } else { jaxrs.next() });
    }
    out
}
