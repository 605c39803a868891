//! JAX-RS path templates: `/users/{id}`, `/files/{path: .*}`, `/v{major}.{minor}`.
//!
//! The rules (JAX-RS section 3.7.3):
//!
//! - literal text, kept as written (percent-escapes included), in which `;`,
//!   `?`, `#`, a lone `}`, NUL and malformed, NUL or non-UTF-8 escapes are
//!   errors;
//! - variables `{name}` or `{name: regex}`, with optional whitespace around
//!   the name, the `:` and the regex;
//! - a name starts with a letter, digit or `_` and goes on with those, `-`
//!   or `.` (JAX-RS `\w[\w.-]*`, Unicode letters included); a name appears
//!   once in a template;
//! - a regex may contain balanced braces (`\d{3}`) and escaped ones (`\{`)
//!   and must not be empty; without one a variable matches one segment.
//!   Whether the regex compiles is for its user to check (this crate has no
//!   regex engine): [`Var::regex_at`] says where it is;
//! - variables and literals mix freely inside a segment (`/{name}.html`).
//!
//! The full template of a route is the impl block's path joined with the
//! method's ([`join`]): one leading `/`, runs of `/` outside variables
//! collapsed, no trailing `/` except for the root (JAX-RS drops it too), and
//! variables written canonically as `{name}` or `{name: regex}`. The
//! [`Display`](std::fmt::Display) of a [`Template`] is that canonical form.
//!
//! ```
//! use restlight_grammar::template::{join, Template};
//!
//! let base = Template::parse("/users/").unwrap();
//! let method = Template::parse("{id: \\d+}.json").unwrap();
//! assert_eq!(join([base.pieces(), method.pieces()]), "/users/{id: \\d+}.json");
//!
//! let errors = Template::parse("/a?b/{x}/{x}").unwrap_err();
//! let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
//! assert_eq!(messages, [
//!     "`?` cannot appear in a path template",
//!     "the variable `x` appears twice in the path template",
//! ]);
//! ```
//!
//! Parsed templates can be written as constants:
//!
//! ```
//! use std::borrow::Cow;
//! use restlight_grammar::template::{Literal, Piece, Template, Var};
//!
//! const USER: Template<'static> = Template::from_static(&[
//!     Piece::Literal(Literal { text: Cow::Borrowed("/users/"), at: 0..7 }),
//!     Piece::Var(Var { name: Cow::Borrowed("id"), regex: None, at: 7..11, name_at: 8..10, regex_at: None }),
//! ]);
//! assert_eq!(USER, Template::parse("/users/{id}").unwrap());
//! ```

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// A parsed path template: its pieces, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template<'a> {
    pieces: Cow<'a, [Piece<'a>]>,
}

/// One piece of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Literal text, matched as is (after percent-decoding).
    Literal(Literal<'a>),
    /// A variable.
    Var(Var<'a>),
}

/// Literal text of a template, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal<'a> {
    /// The text, percent-escapes included (see [`Literal::decoded`]).
    pub text: Cow<'a, str>,
    /// Its bytes in the template's source.
    pub at: Range<usize>,
}

/// A template variable: `{name}` or `{name: regex}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var<'a> {
    /// The name, without surrounding whitespace.
    pub name: Cow<'a, str>,
    /// The regex as written, trimmed; `None` for one segment of any text.
    pub regex: Option<Cow<'a, str>>,
    /// The bytes of the whole `{..}` in the template's source.
    pub at: Range<usize>,
    /// The bytes of the name.
    pub name_at: Range<usize>,
    /// The bytes of the regex, when there is one.
    pub regex_at: Option<Range<usize>>,
}

/// A mistake in a template, with the bytes of the source it is about.
///
/// The [`Display`](fmt::Display) is one line naming the mistake; [`help`]
/// says how to fix it.
///
/// [`help`]: TemplateError::help
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TemplateError {
    /// A `{` without its `}`: the rest of the template is that variable.
    UnclosedBrace {
        /// The `{`.
        at: Range<usize>,
    },
    /// A `}` that closes nothing.
    UnmatchedBrace {
        /// The `}`.
        at: Range<usize>,
    },
    /// `?`, `#` or `;` in literal text.
    Forbidden {
        /// The character.
        at: Range<usize>,
        /// Which one.
        found: char,
    },
    /// A `%` not followed by two hex digits.
    MalformedEscape {
        /// The `%` and what follows it, up to two characters.
        at: Range<usize>,
    },
    /// A run of escapes containing `%00`.
    NulEscape {
        /// The run of escapes.
        at: Range<usize>,
    },
    /// A run of escapes that does not decode to UTF-8.
    InvalidUtf8 {
        /// The run of escapes.
        at: Range<usize>,
    },
    /// A NUL character.
    Nul {
        /// The character.
        at: Range<usize>,
    },
    /// `{}` or `{ : regex}`.
    EmptyName {
        /// The whole variable.
        at: Range<usize>,
    },
    /// A character a variable name cannot have (there).
    InvalidName {
        /// The character.
        at: Range<usize>,
        /// The name.
        name: String,
        /// The character.
        found: char,
        /// Whether it is the first of the name.
        first: bool,
    },
    /// `{name:}`: a `:` without a regex.
    EmptyRegex {
        /// The `:`.
        at: Range<usize>,
        /// The variable's name.
        name: String,
    },
    /// A variable named twice.
    Duplicate {
        /// The second variable.
        at: Range<usize>,
        /// Its name.
        name: String,
        /// The first one with that name.
        first: Range<usize>,
    },
}

const FORMS: &str = "a variable is written `{name}` or `{name: regex}`";
const NUL_HELP: &str = "the router refuses NUL in request paths, so this route could never match";

impl TemplateError {
    /// The bytes of the template's source the mistake is about.
    #[must_use]
    pub fn at(&self) -> Range<usize> {
        match self {
            Self::UnclosedBrace { at }
            | Self::UnmatchedBrace { at }
            | Self::Forbidden { at, .. }
            | Self::MalformedEscape { at }
            | Self::NulEscape { at }
            | Self::InvalidUtf8 { at }
            | Self::Nul { at }
            | Self::EmptyName { at }
            | Self::InvalidName { at, .. }
            | Self::EmptyRegex { at, .. }
            | Self::Duplicate { at, .. } => at.clone(),
        }
    }

    /// How to fix the mistake.
    #[must_use]
    pub fn help(&self) -> String {
        match self {
            Self::UnclosedBrace { .. } => format!("close the variable: {FORMS}"),
            Self::UnmatchedBrace { .. } => format!("{FORMS}; a literal `}}` cannot appear in a path template"),
            Self::Forbidden { found: '?', .. } => {
                "a template matches the path only: read query parameters with `#[query_param]`".into()
            }
            Self::Forbidden { found: '#', .. } => {
                "a template matches the path only: the fragment never reaches the server".into()
            }
            Self::Forbidden { .. } => {
                "matrix parameters (`;name=value`) are not part of the template: read them with `#[matrix_param]`"
                    .into()
            }
            Self::MalformedEscape { .. } => {
                "a `%` starts an escape of two hex digits, `%20`; write a literal `%` as `%25`".into()
            }
            Self::NulEscape { .. } | Self::Nul { .. } => NUL_HELP.into(),
            Self::InvalidUtf8 { .. } => "escape whole UTF-8 sequences, e.g. `%C3%A9` for `é`".into(),
            Self::EmptyName { .. } => "name the variable: `{id}` or `{id: \\d+}`".into(),
            Self::InvalidName { .. } => {
                format!(
                    "a variable name is letters, digits and `_`, then also `.` and `-`, e.g. `{{user_id}}`; {FORMS}"
                )
            }
            Self::EmptyRegex { name, .. } => {
                format!("write a regex, `{{{name}: \\d+}}`, or drop the `:`, `{{{name}}}`")
            }
            Self::Duplicate { .. } => "rename one of them".into(),
        }
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnclosedBrace { .. } => f.write_str("unclosed `{` in the path template"),
            Self::UnmatchedBrace { .. } => f.write_str("unmatched `}` in the path template"),
            Self::Forbidden { found, .. } => write!(f, "`{found}` cannot appear in a path template"),
            Self::MalformedEscape { .. } => f.write_str("malformed percent-escape in the path template"),
            Self::NulEscape { .. } => f.write_str("`%00` cannot appear in a path template"),
            Self::InvalidUtf8 { .. } => f.write_str("these percent-escapes decode to invalid UTF-8"),
            Self::Nul { .. } => f.write_str("NUL cannot appear in a path template"),
            Self::EmptyName { .. } => f.write_str("empty variable name in the path template"),
            Self::InvalidName { name, found, first, .. } => {
                let first = if *first { " at the start" } else { "" };
                write!(f, "invalid character `{}`{first} of the variable name `{name}`", found.escape_default())
            }
            Self::EmptyRegex { name, .. } => write!(f, "empty regex after `:` in the variable `{name}`"),
            Self::Duplicate { name, .. } => write!(f, "the variable `{name}` appears twice in the path template"),
        }
    }
}

impl std::error::Error for TemplateError {}

impl<'a> Template<'a> {
    /// Parses a template, reporting every mistake it can find (after an
    /// unclosed `{` the rest of the template is that variable, so parsing
    /// stops there).
    ///
    /// # Errors
    /// Every mistake, in the order of the source.
    pub fn parse(src: &'a str) -> Result<Self, Vec<TemplateError>> {
        let (pieces, mut errors) = parse_pieces(src);
        // Most templates have no duplicate: that is checked without
        // allocating, and the list built only when there is one.
        if has_duplicate(&pieces) {
            errors.extend(duplicates(&pieces));
        }
        if errors.is_empty() {
            Ok(Self::from_pieces(pieces))
        } else {
            // A few errors: an insertion sort written out (stable), not an
            // instantiation of `slice::sort_by_key` in every service.
            for i in 1..errors.len() {
                let mut j = i;
                while j > 0 && errors[j - 1].at().start > errors[j].at().start {
                    errors.swap(j - 1, j);
                    j -= 1;
                }
            }
            Err(errors)
        }
    }

    /// Parses a template in which a name may appear twice: for the part of a
    /// route's template whose duplicates are checked once it is joined with
    /// the others ([`duplicates`]).
    ///
    /// # Errors
    /// Every mistake but duplicates, in the order of the source.
    pub fn parse_allowing_duplicates(src: &'a str) -> Result<Self, Vec<TemplateError>> {
        let (pieces, errors) = parse_pieces(src);
        if errors.is_empty() {
            Ok(Self::from_pieces(pieces))
        } else {
            Err(errors)
        }
    }

    /// A template of these pieces, for constants.
    #[must_use]
    pub const fn from_static(pieces: &'a [Piece<'a>]) -> Self {
        Self { pieces: Cow::Borrowed(pieces) }
    }

    /// A template of these pieces.
    #[must_use]
    pub fn from_pieces(pieces: Vec<Piece<'a>>) -> Self {
        Self { pieces: Cow::Owned(pieces) }
    }

    /// The pieces, in order.
    #[must_use]
    pub fn pieces(&self) -> &[Piece<'a>] {
        &self.pieces
    }

    /// The variables, in order.
    pub fn vars(&self) -> impl Iterator<Item = &Var<'a>> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Var(v) => Some(v),
            Piece::Literal(_) => None,
        })
    }

    /// The same template, owning its text.
    #[must_use]
    pub fn into_owned(self) -> Template<'static> {
        Template::from_pieces(self.pieces.iter().cloned().map(Piece::into_owned).collect())
    }
}

impl fmt::Display for Template<'_> {
    /// The canonical form (see [`join`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join([self.pieces()]))
    }
}

impl Piece<'_> {
    /// The same piece, owning its text.
    #[must_use]
    pub fn into_owned(self) -> Piece<'static> {
        match self {
            Piece::Literal(l) => Piece::Literal(Literal { text: Cow::Owned(l.text.into_owned()), at: l.at }),
            Piece::Var(v) => Piece::Var(v.into_owned()),
        }
    }
}

impl Var<'_> {
    /// The same variable, owning its text.
    #[must_use]
    pub fn into_owned(self) -> Var<'static> {
        Var {
            name: Cow::Owned(self.name.into_owned()),
            regex: self.regex.map(|r| Cow::Owned(r.into_owned())),
            at: self.at,
            name_at: self.name_at,
            regex_at: self.regex_at,
        }
    }
}

impl Literal<'_> {
    /// The text, percent-decoded ([`decode`]).
    #[must_use]
    pub fn decoded(&self) -> Cow<'_, str> {
        decode(&self.text)
    }
}

/// Percent-decodes literal text of a template (`+` stays `+`). Text the
/// grammar accepted always decodes; a malformed escape in text built by hand
/// is kept as written, and invalid UTF-8 replaced.
#[must_use]
pub fn decode(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match escape_byte(&bytes[i..]) {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// The byte of the escape `%XX` at the start of `bytes`, if well-formed.
fn escape_byte(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [b'%', h, l, ..] => Some(hex(*h)? << 4 | hex(*l)?),
        _ => None,
    }
}

fn hex(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// The duplicate variables among `pieces`: each variable whose name an
/// earlier one has.
pub fn duplicates(pieces: &[Piece<'_>]) -> Vec<TemplateError> {
    let vars: Vec<&Var<'_>> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Var(v) => Some(v),
            Piece::Literal(_) => None,
        })
        .collect();
    let mut out = Vec::new();
    for (k, var) in vars.iter().enumerate() {
        if let Some(first) = vars[..k].iter().find(|v| v.name == var.name) {
            out.push(TemplateError::Duplicate {
                at: var.at.clone(),
                name: var.name.to_string(),
                first: first.at.clone(),
            });
        }
    }
    out
}

/// Whether two variables among `pieces` have the same name.
fn has_duplicate(pieces: &[Piece<'_>]) -> bool {
    fn name<'p>(piece: &'p Piece<'_>) -> Option<&'p str> {
        match piece {
            Piece::Var(v) => Some(&v.name),
            Piece::Literal(_) => None,
        }
    }
    pieces.iter().enumerate().any(|(k, p)| name(p).is_some_and(|n| pieces[..k].iter().any(|q| name(q) == Some(n))))
}

/// The characters of `src` that the bytes `bytes` span (for messages that
/// count characters); bytes past the end count as one character each.
#[must_use]
pub fn char_range(src: &str, bytes: &Range<usize>) -> Range<usize> {
    let count = |b: usize| match src.get(..b) {
        Some(s) => s.chars().count(),
        None => src.chars().count() + b.saturating_sub(src.len()),
    };
    count(bytes.start)..count(bytes.end)
}

/// The byte index of the `}` closing the `{` at byte `open`, counting
/// nested braces and skipping escaped ones (`\{`).
#[must_use]
pub fn closing_brace(src: &str, open: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let (mut depth, mut i) = (0usize, open);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The bytes [`parse_pieces`] acts on; every other byte is plain literal text.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    let bytes = *b"{}?#;%\0";
    while k < bytes.len() {
        table[bytes[k] as usize] = true;
        k += 1;
    }
    table
};

/// Parses the pieces of `src`, with every syntax mistake (not duplicates).
fn parse_pieces<'a>(src: &'a str) -> (Vec<Piece<'a>>, Vec<TemplateError>) {
    let bytes = src.as_bytes();
    // Sized once: a variable and the literal after it are two pieces.
    let braces = bytes.iter().filter(|&&b| b == b'{').count();
    let mut pieces = Vec::with_capacity(2 * braces + 1);
    let mut errors = Vec::new();
    let mut lit_start = 0;
    let mut i = 0;
    let flush = |pieces: &mut Vec<Piece<'a>>, from: usize, to: usize| {
        if from < to {
            pieces.push(Piece::Literal(Literal { text: Cow::Borrowed(&src[from..to]), at: from..to }));
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                let Some(close) = closing_brace(src, i) else {
                    errors.push(TemplateError::UnclosedBrace { at: i..i + 1 });
                    lit_start = bytes.len();
                    break;
                };
                flush(&mut pieces, lit_start, i);
                match parse_var(src, i, close) {
                    Ok(var) => pieces.push(Piece::Var(var)),
                    Err(e) => errors.extend(e),
                }
                i = close + 1;
                lit_start = i;
            }
            b'}' => {
                errors.push(TemplateError::UnmatchedBrace { at: i..i + 1 });
                i += 1;
            }
            c @ (b'?' | b'#' | b';') => {
                errors.push(TemplateError::Forbidden { at: i..i + 1, found: char::from(c) });
                i += 1;
            }
            b'%' => {
                // A run of escapes, decoded together: a UTF-8 sequence spans several.
                let mut decoded = Vec::new();
                let mut j = i;
                while let Some(b) = escape_byte(&bytes[j..]) {
                    decoded.push(b);
                    j += 3;
                }
                if decoded.is_empty() {
                    // The `%` and up to two characters after it.
                    let end = src[i..].char_indices().nth(3).map_or(src.len(), |(k, _)| i + k);
                    errors.push(TemplateError::MalformedEscape { at: i..end });
                } else if decoded.contains(&0) {
                    errors.push(TemplateError::NulEscape { at: i..j });
                } else if std::str::from_utf8(&decoded).is_err() {
                    errors.push(TemplateError::InvalidUtf8 { at: i..j });
                }
                i = j.max(i + 1);
            }
            0 => {
                errors.push(TemplateError::Nul { at: i..i + 1 });
                i += 1;
            }
            // Plain text up to the next byte the grammar looks at, in one step.
            _ => i += bytes[i..].iter().position(|&b| SPECIAL[usize::from(b)]).unwrap_or(bytes.len() - i),
        }
    }
    flush(&mut pieces, lit_start, bytes.len().max(lit_start));
    (pieces, errors)
}

fn is_name_start(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c == '.' || c == '-'
}

/// Parses `{ name [: regex] }` spanning the bytes `open..=close` of `src`.
fn parse_var(src: &str, open: usize, close: usize) -> Result<Var<'_>, Vec<TemplateError>> {
    let at = open..close + 1;
    let colon = src[open + 1..close].find(':').map(|k| open + 1 + k);
    let name_at = trim(src, open + 1..colon.unwrap_or(close));
    let name = &src[name_at.clone()];
    let mut errors = Vec::new();
    if name.is_empty() {
        errors.push(TemplateError::EmptyName { at: at.clone() });
    } else if let Some((k, c)) =
        name.char_indices().find(|&(k, c)| if k == 0 { !is_name_start(c) } else { !is_name_char(c) })
    {
        let start = name_at.start + k;
        errors.push(TemplateError::InvalidName {
            at: start..start + c.len_utf8(),
            name: name.to_owned(),
            found: c,
            first: k == 0,
        });
    }
    let regex_at = match colon {
        None => None,
        Some(colon) => {
            let r = trim_regex(src, colon + 1..close);
            if r.is_empty() {
                errors.push(TemplateError::EmptyRegex { at: colon..colon + 1, name: name.to_owned() });
                None
            } else {
                Some(r)
            }
        }
    };
    if errors.is_empty() {
        let regex = regex_at.clone().map(|r| Cow::Borrowed(&src[r]));
        Ok(Var { name: Cow::Borrowed(name), regex, at, name_at, regex_at })
    } else {
        Err(errors)
    }
}

/// The bytes `r` of `src` without the whitespace at either end.
fn trim(src: &str, r: Range<usize>) -> Range<usize> {
    let text = &src[r.clone()];
    let start = r.start + (text.len() - text.trim_start().len());
    let end = r.end - (text.len() - text.trim_end().len());
    start..end.max(start)
}

/// As [`trim`], for a regex: whitespace escaped by a backslash (`\ `) is
/// part of the regex and kept, so that `{name: a\ }` keeps matching `a `
/// and its canonical form stays a closed variable.
fn trim_regex(src: &str, r: Range<usize>) -> Range<usize> {
    let mut t = trim(src, r.clone());
    let escapes = src[t.clone()].bytes().rev().take_while(|&b| b == b'\\').count();
    if escapes % 2 == 1 {
        if let Some(c) = src[t.end..r.end].chars().next() {
            t.end += c.len_utf8();
        }
    }
    t
}

/// The full template of a route: `parts` (the impl block's path, then the
/// method's) joined and written canonically: one leading `/`, runs of `/`
/// outside variables collapsed, no trailing `/` except for the root, and
/// variables as `{name}` or `{name: regex}`.
pub fn join<'p, 'a: 'p>(parts: impl IntoIterator<Item = &'p [Piece<'a>]>) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.ends_with('/') {
            out.push('/');
        }
        for piece in part {
            match piece {
                Piece::Literal(l) => {
                    for c in l.text.chars() {
                        if !(c == '/' && out.ends_with('/')) {
                            out.push(c);
                        }
                    }
                }
                Piece::Var(var) => {
                    out.push('{');
                    out.push_str(&var.name);
                    if let Some(re) = &var.regex {
                        out.push_str(": ");
                        out.push_str(re);
                    }
                    out.push('}');
                }
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    if out.len() > 1 && out.ends_with('/') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str, at: Range<usize>) -> Piece<'_> {
        Piece::Literal(Literal { text: Cow::Borrowed(s), at })
    }

    /// A variable written `{name}` or `{name: regex}` (one space) at `at`.
    fn var<'a>(name: &'a str, regex: Option<&'a str>, at: Range<usize>) -> Piece<'a> {
        let name_at = at.start + 1..at.start + 1 + name.len();
        let regex_at = regex.map(|re| at.end - 1 - re.len()..at.end - 1);
        Piece::Var(Var { name: Cow::Borrowed(name), regex: regex.map(Cow::Borrowed), at, name_at, regex_at })
    }

    fn pieces(t: &str) -> Vec<Piece<'_>> {
        Template::parse(t).unwrap_or_else(|e| panic!("{t}: {e:?}")).pieces().to_vec()
    }

    fn errors(t: &str) -> Vec<(Range<usize>, String)> {
        Template::parse(t).unwrap_err().into_iter().map(|e| (e.at(), e.to_string())).collect()
    }

    /// Found by the `template` fuzz target: trimming the regex dropped a
    /// space escaped by a backslash, so the canonical form ended in `\}`
    /// and no longer parsed.
    #[test]
    fn an_escaped_space_ends_the_regex() {
        let t = Template::parse("/a/{x: b\\ }").unwrap();
        let Piece::Var(v) = &t.pieces()[1] else { panic!("{t:?}") };
        assert_eq!(v.regex.as_deref(), Some("b\\ "));
        let canonical = join([t.pieces()]);
        assert_eq!(canonical, "/a/{x: b\\ }");
        assert_eq!(join([Template::parse(&canonical).unwrap().pieces()]), canonical);
        // An escaped backslash does not escape the space after it.
        let t = Template::parse("/a/{x: b\\\\ }").unwrap();
        let Piece::Var(v) = &t.pieces()[1] else { panic!("{t:?}") };
        assert_eq!(v.regex.as_deref(), Some("b\\\\"));
    }

    fn full(parts: &[&str]) -> String {
        let parsed: Vec<Template<'_>> = parts.iter().map(|p| Template::parse(p).unwrap()).collect();
        join(parsed.iter().map(Template::pieces))
    }

    #[test]
    fn parses() {
        let cases: &[(&str, Vec<Piece<'_>>)] = &[
            ("", vec![]),
            ("/users", vec![lit("/users", 0..6)]),
            ("/users/{id}", vec![lit("/users/", 0..7), var("id", None, 7..11)]),
            ("/{id: \\d+}", vec![lit("/", 0..1), var("id", Some("\\d+"), 1..10)]),
            ("/{id:[a-z]+}", vec![lit("/", 0..1), var("id", Some("[a-z]+"), 1..12)]),
            ("/{zip: \\d{3}-\\d{4}}", vec![lit("/", 0..1), var("zip", Some("\\d{3}-\\d{4}"), 1..19)]),
            ("/{c: \\{x\\}}", vec![lit("/", 0..1), var("c", Some("\\{x\\}"), 1..11)]),
            ("/{name}.html", vec![lit("/", 0..1), var("name", None, 1..7), lit(".html", 7..12)]),
            (
                "/v{major}.{minor}",
                vec![lit("/v", 0..2), var("major", None, 2..9), lit(".", 9..10), var("minor", None, 10..17)],
            ),
            ("/files/{path: .*}", vec![lit("/files/", 0..7), var("path", Some(".*"), 7..17)]),
            ("/a b", vec![lit("/a b", 0..4)]),
            ("/a%20b", vec![lit("/a%20b", 0..6)]),
            ("/%C3%A9", vec![lit("/%C3%A9", 0..7)]),
            ("/é/{x}", vec![lit("/é/", 0..4), var("x", None, 4..7)]),
        ];
        for (t, want) in cases {
            assert_eq!(&pieces(t), want, "{t}");
        }
    }

    #[test]
    fn whitespace_around_name_and_regex() {
        let t = Template::parse("/{ id :\\d+ }").unwrap();
        let v = t.vars().next().unwrap();
        assert_eq!((&*v.name, v.regex.as_deref()), ("id", Some("\\d+")));
        assert_eq!((v.at.clone(), v.name_at.clone(), v.regex_at.clone()), (1..12, 3..5, Some(7..10)));
    }

    #[test]
    fn jax_rs_names() {
        assert!(Template::parse("/{user.id}/{user-name}/{_x}/{9a}/{名前}").is_ok());
    }

    /// A template and its mistakes: where, and the message.
    type Case = (&'static str, &'static [(Range<usize>, &'static str)]);

    #[test]
    fn mistakes() {
        let cases: &[Case] = &[
            ("/users/{id", &[(7..8, "unclosed `{` in the path template")]),
            ("/{id: \\d{3}", &[(1..2, "unclosed `{` in the path template")]),
            ("/users}/x", &[(6..7, "unmatched `}` in the path template")]),
            ("/{}", &[(1..3, "empty variable name in the path template")]),
            ("/{ : x}", &[(1..7, "empty variable name in the path template")]),
            ("/{user id}", &[(6..7, "invalid character ` ` of the variable name `user id`")]),
            ("/{-x}", &[(2..3, "invalid character `-` at the start of the variable name `-x`")]),
            ("/{id: }", &[(4..5, "empty regex after `:` in the variable `id`")]),
            ("/a?b=1", &[(2..3, "`?` cannot appear in a path template")]),
            ("/a#x", &[(2..3, "`#` cannot appear in a path template")]),
            ("/a;v=1", &[(2..3, "`;` cannot appear in a path template")]),
            ("/a%2", &[(2..4, "malformed percent-escape in the path template")]),
            ("/a%zz", &[(2..5, "malformed percent-escape in the path template")]),
            ("/a%00", &[(2..5, "`%00` cannot appear in a path template")]),
            ("/%C3x", &[(1..4, "these percent-escapes decode to invalid UTF-8")]),
            ("/a\0", &[(2..3, "NUL cannot appear in a path template")]),
            ("/{id}/{id}", &[(6..10, "the variable `id` appears twice in the path template")]),
            ("/{id}-{id: \\d+}", &[(6..15, "the variable `id` appears twice in the path template")]),
            // Long plain runs are skipped in one step: what follows them is still seen.
            ("/plain-text-run/more.text/x?y", &[(27..28, "`?` cannot appear in a path template")]),
            (
                "/{a}/long-literal;v/{a}",
                &[
                    (17..18, "`;` cannot appear in a path template"),
                    (20..23, "the variable `a` appears twice in the path template"),
                ],
            ),
            (
                "/{}/x}/{a b}",
                &[
                    (1..3, "empty variable name in the path template"),
                    (5..6, "unmatched `}` in the path template"),
                    (9..10, "invalid character ` ` of the variable name `a b`"),
                ],
            ),
        ];
        for (t, want) in cases {
            let want: Vec<(Range<usize>, String)> = want.iter().map(|(r, m)| (r.clone(), (*m).to_owned())).collect();
            assert_eq!(errors(t), want, "{t}");
        }
    }

    #[test]
    fn duplicates_can_wait_for_the_join() {
        assert!(Template::parse_allowing_duplicates("/{id}/{id}").is_ok());
        let t = Template::parse_allowing_duplicates("/{id}/{id}").unwrap();
        assert_eq!(duplicates(t.pieces()).len(), 1);
    }

    #[test]
    fn every_error_has_help() {
        for t in ["/{", "}", "?", "#", ";", "%", "%00", "%C3", "\0", "{}", "{a b}", "{a:}", "{a}{a}"] {
            for e in Template::parse(t).unwrap_err() {
                assert!(!e.help().is_empty(), "{t}");
            }
        }
    }

    #[test]
    fn join_normalises() {
        let cases: &[(&[&str], &str)] = &[
            (&["/users", ""], "/users"),
            (&["/users", "/"], "/users"),
            (&["/users/", "/{id}"], "/users/{id}"),
            (&["users", "{id}"], "/users/{id}"),
            (&["/", ""], "/"),
            (&["", ""], "/"),
            (&["/a//b/"], "/a/b"),
            (&["/users", "/{ id :\\d+ }"], "/users/{id: \\d+}"),
            (&["/f", "/{p: a//b}"], "/f/{p: a//b}"),
            (&["/v{major}.{minor}", "{name}.html"], "/v{major}.{minor}/{name}.html"),
            (&["{id}"], "/{id}"),
        ];
        for (parts, want) in cases {
            assert_eq!(full(parts), *want, "{parts:?}");
        }
    }

    #[test]
    fn canonical_form_parses_back_to_itself() {
        for t in ["/users/{ id :\\d+ }/", "v{a}.{b}//x", "/f/{p: a//b}", "/{c: \\{x\\}}"] {
            let canonical = Template::parse(t).unwrap().to_string();
            assert_eq!(Template::parse(&canonical).unwrap().to_string(), canonical, "{t}");
        }
    }

    #[test]
    fn decoding_literals() {
        let t = Template::parse("/a%20b/%C3%A9+").unwrap();
        let Piece::Literal(l) = &t.pieces()[0] else { panic!() };
        assert_eq!(l.decoded(), "/a b/é+");
    }

    #[test]
    fn char_ranges() {
        assert_eq!(char_range("/é/{x}", &(4..7)), 3..6);
        assert_eq!(char_range("ab", &(1..3)), 1..3);
    }

    #[test]
    fn owned_equals_borrowed() {
        let src = String::from("/users/{id: \\d+}");
        let t = Template::parse(&src).unwrap();
        let owned: Template<'static> = t.clone().into_owned();
        drop(src);
        assert_eq!(owned.to_string(), "/users/{id: \\d+}");
    }

    #[test]
    fn closing_braces() {
        assert_eq!(closing_brace("{a}", 0), Some(2));
        assert_eq!(closing_brace("{a: \\d{3}}x", 0), Some(9));
        assert_eq!(closing_brace("{a: \\}}", 0), Some(6));
        assert_eq!(closing_brace("{a", 0), None);
    }
}
