//! JAX-RS path templates, parsed by `restlight_grammar::template` (the
//! grammar the macros check at compile time), compiled here into segments.
//!
//! - `{name}` is one segment of any text; `{name: regex}` is constrained by
//!   the regex, which must compile as `^(?:regex)$`. A regex that may match
//!   `/` makes the variable span segments.
//! - The leading `/` is optional and one trailing `/` is ignored.
//! - Literal text is percent-decoded.

use std::sync::Arc;

use regex::Regex;
use restlight_grammar::template::{self as grammar, TemplateError};

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

/// Why a template cannot be routed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The grammar rejects it.
    Syntax(TemplateError),
    /// A regex that does not compile.
    Regex {
        /// The variable.
        name: String,
        /// Its regex.
        regex: String,
        /// The regex crate's reason, its last line.
        reason: String,
    },
}

/// Parses a template, reporting every mistake found.
pub(crate) fn parse(src: &str) -> Result<Template, Vec<Fault>> {
    let parsed = grammar::Template::parse(src).map_err(|e| e.into_iter().map(Fault::Syntax).collect::<Vec<_>>())?;
    compile(&parsed)
}

/// Compiles a template the grammar parsed (at startup, or in the macros at
/// compile time): splits it into segments and checks its regexes.
pub(crate) fn compile(parsed: &grammar::Template<'_>) -> Result<Template, Vec<Fault>> {
    let rooted = matches!(parsed.pieces().first(), Some(grammar::Piece::Literal(lit)) if lit.text.starts_with('/'));
    let mut segments: Vec<Vec<Piece>> = vec![Vec::new()];
    let mut vars = Vec::new();
    let mut faults = Vec::new();
    for piece in parsed.pieces() {
        match piece {
            grammar::Piece::Literal(lit) => {
                // Split first: an escaped `/` (`%2F`) stays inside its segment.
                for (k, part) in lit.text.split('/').enumerate() {
                    if k > 0 {
                        segments.push(Vec::new());
                    }
                    if !part.is_empty() {
                        push(&mut segments, Piece::Lit(grammar::decode(part).into_owned()));
                    }
                }
            }
            grammar::Piece::Var(var) => {
                let mut multi = false;
                if let Some(re) = var.regex.as_deref() {
                    match Regex::new(&format!("^(?:{re})$")) {
                        Ok(_) => multi = may_match_slash(re),
                        Err(e) => {
                            let why = e.to_string();
                            let reason = why.lines().last().unwrap_or_default().trim().to_owned();
                            faults.push(Fault::Regex { name: var.name.to_string(), regex: re.to_owned(), reason });
                        }
                    }
                }
                let regex = var.regex.as_deref().map(str::to_owned);
                push(&mut segments, Piece::Var(vars.len()));
                vars.push(Var { name: var.name.as_ref().into(), regex, multi });
            }
        }
    }
    if !faults.is_empty() {
        return Err(faults);
    }
    if rooted {
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

fn push(segments: &mut [Vec<Piece>], piece: Piece) {
    if let Some(seg) = segments.last_mut() {
        seg.push(piece);
    }
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
