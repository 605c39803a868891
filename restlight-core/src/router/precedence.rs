//! JAX-RS 3.7.2 precedence over the full path of every route: more literal
//! characters, then more variables, then more variables with a regex. Ties
//! between different templates are broken by their shape (variable names
//! removed), so the order of the route table never matters.

use std::cmp::Ordering;

use super::template::{Piece, Var};

/// The precedence key of a template; greater is preferred.
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
    /// The key of a normalised template.
    pub(crate) fn of(segments: &[Vec<Piece>], vars: &[Var]) -> Key {
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
}

/// The order of template groups, best first: by key (descending), then by
/// shape (ascending, so that at equal keys a literal earlier in the path wins:
/// `/a/{}` before `/{}/b`).
pub(crate) fn order(a: (&Key, &str), b: (&Key, &str)) -> Ordering {
    b.0.cmp(a.0).then_with(|| a.1.cmp(b.1))
}
