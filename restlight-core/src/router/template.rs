//! JAX-RS path templates: parse, validate, normalise.
//!
//! Rules (the macro crate checks the same at compile time):
//! - `{name}` is one segment of any text; `{name: regex}` is constrained by
//!   the regex (whitespace around `:` allowed; the regex may contain balanced
//!   braces such as `\d{3}` and `/`). A regex that may match `/` makes the
//!   variable span segments.
//! - Names start with a letter, digit or `_` and go on with those, `-` or `.`;
//!   they are unique within a template.
//! - The leading `/` is optional and one trailing `/` is ignored.
//! - Literal text is percent-decoded; it may not contain `;`, `?` or `#`
//!   (matrix parameters, query and fragment never reach the matcher).

use std::sync::Arc;

use regex::Regex;

use super::decode::decode;
use super::precedence::Key;
use super::regexes::may_match_slash;

/// A piece of a template segment.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    /// Literal text, percent-decoded.
    Lit(String),
    /// The variable with this index into [`Template::vars`].
    Var(usize),
}

/// A template variable.
#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub(crate) name: Arc<str>,
    /// The regex as written (trimmed), `None` for the default `[^/]+`.
    pub(crate) regex: Option<String>,
    /// Whether the regex may match `/`, so that the variable spans segments.
    pub(crate) multi: bool,
}

/// A parsed, normalised template.
#[derive(Clone, Debug)]
pub(crate) struct Template {
    /// Segments between `/`; empty for the root.
    pub(crate) segments: Vec<Vec<Piece>>,
    pub(crate) vars: Vec<Var>,
    /// The first segment holding a multi-segment variable: from there on the
    /// rest of the path is matched by one regex.
    pub(crate) tail_start: Option<usize>,
    /// The template with variable names removed: equal shapes are equivalent.
    pub(crate) shape: String,
    pub(crate) key: Key,
}

/// Parses a template, reporting every mistake found.
pub(crate) fn parse(src: &str) -> Result<Template, Vec<String>> {
    let mut p = Parser { segments: vec![Vec::new()], vars: Vec::new(), errors: Vec::new() };
    let bytes = src.as_bytes();
    let (mut i, mut lit_start) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                p.literal(&src[lit_start..i]);
                let Some(end) = closing_brace(bytes, i) else {
                    p.errors.push(format!("unclosed '{{' at byte {i}"));
                    lit_start = bytes.len();
                    break;
                };
                p.variable(&src[i + 1..end]);
                i = end + 1;
                lit_start = i;
            }
            b'}' => {
                p.literal(&src[lit_start..i]);
                p.errors.push(format!("unmatched '}}' at byte {i}"));
                i += 1;
                lit_start = i;
            }
            _ => i += 1,
        }
    }
    p.literal(&src[lit_start..]);
    if !p.errors.is_empty() {
        return Err(p.errors);
    }
    let Parser { mut segments, vars, .. } = p;
    if src.starts_with('/') {
        segments.remove(0);
    }
    if segments.last().is_some_and(Vec::is_empty) {
        segments.pop();
    }
    let tail_start =
        segments.iter().position(|seg| seg.iter().any(|piece| matches!(piece, Piece::Var(v) if vars[*v].multi)));
    let shape = shape(&segments, &vars, |v| match &v.regex {
        Some(re) => format!("{{:{re}}}"),
        None => "{}".to_owned(),
    });
    let key = Key::of(&segments, &vars);
    Ok(Template { segments, vars, tail_start, shape, key })
}

/// Writes segments as `/lit{}/{:re}`, literals escaped so that the result is
/// unambiguous; `var` renders each variable.
pub(crate) fn shape(segments: &[Vec<Piece>], vars: &[Var], var: impl Fn(&Var) -> String) -> String {
    if segments.is_empty() {
        return "/".to_owned();
    }
    let mut out = String::new();
    for seg in segments {
        out.push('/');
        for piece in seg {
            match piece {
                Piece::Lit(text) => push_escaped(&mut out, text),
                Piece::Var(v) => out.push_str(&var(&vars[*v])),
            }
        }
    }
    out
}

/// Appends literal text with `{`, `}`, `%` and `/` percent-encoded.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '{' => out.push_str("%7B"),
            '}' => out.push_str("%7D"),
            '%' => out.push_str("%25"),
            '/' => out.push_str("%2F"),
            c => out.push(c),
        }
    }
}

struct Parser {
    segments: Vec<Vec<Piece>>,
    vars: Vec<Var>,
    errors: Vec<String>,
}

impl Parser {
    fn literal(&mut self, text: &str) {
        for (k, part) in text.split('/').enumerate() {
            if k > 0 {
                self.segments.push(Vec::new());
            }
            if part.is_empty() {
                continue;
            }
            if let Some(c) = part.chars().find(|c| matches!(c, ';' | '?' | '#')) {
                self.errors.push(format!("'{c}' in the literal `{part}` can never match a path"));
                continue;
            }
            match decode(part) {
                Ok(text) => self.push(Piece::Lit(text.into_owned())),
                Err(e) => self.errors.push(e),
            }
        }
    }

    fn variable(&mut self, content: &str) {
        let (name, regex) = match content.split_once(':') {
            Some((name, re)) => (name.trim(), Some(re.trim())),
            None => (content.trim(), None),
        };
        let start_ok = name.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_');
        if name.is_empty() {
            self.errors.push(format!("empty variable name in `{{{content}}}`"));
        } else if !start_ok || !name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.')) {
            self.errors.push(format!("invalid variable name `{name}` (letters, digits, `_`, `-`, `.`)"));
        } else if self.vars.iter().any(|v| &*v.name == name) {
            self.errors.push(format!("duplicate variable `{name}`"));
        }
        let mut multi = false;
        match regex {
            Some("") => self.errors.push(format!("empty regex for variable `{name}`")),
            Some(re) => match Regex::new(&format!("^(?:{re})$")) {
                Ok(_) => multi = may_match_slash(re),
                Err(e) => {
                    let why = e.to_string();
                    let why = why.lines().last().unwrap_or_default().trim().to_owned();
                    self.errors.push(format!("invalid regex `{re}` for variable `{name}`: {why}"));
                }
            },
            None => {}
        }
        let index = self.vars.len();
        let regex = regex.map(str::to_owned);
        self.vars.push(Var { name: name.into(), regex, multi });
        self.push(Piece::Var(index));
    }

    fn push(&mut self, piece: Piece) {
        if let Some(seg) = self.segments.last_mut() {
            seg.push(piece);
        }
    }
}

/// The index of the `}` closing the `{` at `open`; braces nest, `\` escapes.
pub(crate) fn closing_brace(bytes: &[u8], open: usize) -> Option<usize> {
    let (mut depth, mut i) = (0usize, open);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
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
