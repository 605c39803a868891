//! Path templates: `/users/{id}`, `/files/{path: .*}`, `/v{major}.{minor}`.
//!
//! The grammar is `restlight_grammar::template`, the same parser the router
//! runs at startup, so a template accepted here is accepted there. This
//! module keeps what only the macros need: the literal each template came
//! from, and errors pointing a caret at the fault inside it. Duplicate
//! variables are checked by `validate` over the route's full template (the
//! impl block's path and the method's); regexes must compile with the
//! router's engine, `regex-lite`, as `^(?:regex)$` (checked by `validate`).

use std::fmt::Write as _;
use std::ops::Range;

use proc_macro2::Span;
use restlight_grammar::template::{self as grammar, char_range};
use syn::LitStr;

use crate::ctxt::Ctxt;

/// One piece of a template, as the grammar parses it.
pub(crate) type Piece = grammar::Piece<'static>;

/// A parsed template with the literal it came from, for error spans.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub(crate) lit: LitStr,
    pub(crate) pieces: Vec<Piece>,
    vars: Vec<Var>,
}

/// A template variable, with its position in characters of the template's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Var {
    pub(crate) name: String,
    pub(crate) regex: Option<String>,
    /// Characters of the whole `{..}` in the template's value.
    pub(crate) at: Range<usize>,
    /// Characters of the regex, when there is one.
    pub(crate) regex_at: Option<Range<usize>>,
}

impl Template {
    /// Parses the template in `lit`, recording every syntax error in `cx`.
    pub(crate) fn parse(cx: &mut Ctxt, lit: &LitStr) -> Option<Self> {
        let value = lit.value();
        match grammar::Template::parse_allowing_duplicates(&value) {
            Ok(t) => {
                let vars = t
                    .vars()
                    .map(|v| Var {
                        name: v.name.to_string(),
                        regex: v.regex.as_deref().map(str::to_owned),
                        at: char_range(&value, &v.at),
                        regex_at: v.regex_at.as_ref().map(|r| char_range(&value, r)),
                    })
                    .collect();
                let pieces = t.into_owned().pieces().to_vec();
                Some(Self { lit: lit.clone(), pieces, vars })
            }
            Err(errors) => {
                for e in errors {
                    cx.push(error_at(lit, char_range(&value, &e.at()), &e.to_string(), &e.help()));
                }
                None
            }
        }
    }

    /// The variables, in order.
    pub(crate) fn vars(&self) -> impl Iterator<Item = &Var> {
        self.vars.iter()
    }
}

/// The full template of a route: `base` (the impl block's path) joined with
/// `sub` (the method's), normalised as `restlight_grammar::template::join` says.
pub(crate) fn join<'a>(parts: impl IntoIterator<Item = &'a [Piece]>) -> String {
    grammar::join(parts)
}

// ---- errors inside the literal ------------------------------------------------

/// An error about characters `at` of the template's value: spanned at those
/// characters when the compiler can (nightly), else at the literal, and in
/// either case showing the literal with a caret under them.
pub(crate) fn error_at(lit: &LitStr, at: Range<usize>, message: &str, help: &str) -> syn::Error {
    let token = lit.token().to_string();
    let offsets = value_offsets(&token);
    let bytes = offsets.as_ref().and_then(|o| {
        let start = *o.get(at.start)?;
        let end = *o.get(at.end)?;
        Some(start..end.max(start + 1))
    });
    let span: Span = bytes.clone().and_then(|r| lit.token().subspan(r)).unwrap_or_else(|| lit.span());
    let mut text = String::from(message);
    match bytes {
        Some(r) if !token.contains('\n') => {
            let col = token[..r.start].chars().count();
            let width = token[r.clone()].chars().count().max(1);
            let _ = write!(
                text,
                " (character {} of the template)\n  {token}\n  {}{}",
                at.start + 1,
                " ".repeat(col),
                "^".repeat(width)
            );
        }
        _ => {
            let _ = write!(text, " (character {} of the template)", at.start + 1);
        }
    }
    let _ = write!(text, "\n\nhelp: {help}");
    syn::Error::new(span, text)
}

/// For a string literal token, the byte offset in the token of each character
/// of its value, plus one past the last (the closing quote).
fn value_offsets(token: &str) -> Option<Vec<usize>> {
    let bytes = token.as_bytes();
    let mut out = Vec::new();
    if bytes.first() == Some(&b'r') {
        let hashes = token[1..].bytes().take_while(|&b| b == b'#').count();
        let start = 1 + hashes + 1;
        let end = token.rfind('"')?;
        for (k, _) in token[start..end].char_indices() {
            out.push(start + k);
        }
        out.push(end);
        return Some(out);
    }
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                out.push(i);
                return Some(out);
            }
            b'\\' => {
                let next = *bytes.get(i + 1)?;
                match next {
                    b'x' => {
                        out.push(i);
                        i += 4;
                    }
                    b'u' => {
                        out.push(i);
                        i += token[i..].find('}')? + 1;
                    }
                    b'\n' | b'\r' => {
                        i += 1;
                        while i < bytes.len() && (bytes[i] as char).is_ascii_whitespace() {
                            i += 1;
                        }
                    }
                    _ => {
                        out.push(i);
                        i += 2;
                    }
                }
            }
            _ => {
                out.push(i);
                i += token[i..].chars().next()?.len_utf8();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_of_plain_strings() {
        // "/\\d" : chars `/`, `\` (escaped), `d`
        assert_eq!(value_offsets(r#""/\\d""#), Some(vec![1, 2, 4, 5]));
        assert_eq!(value_offsets(r#""a\u{1F600}b""#), Some(vec![1, 2, 11, 12]));
        assert_eq!(value_offsets("\"é{\""), Some(vec![1, 3, 4]));
    }

    #[test]
    fn offsets_of_raw_strings() {
        assert_eq!(value_offsets(r##"r#"/\d"#"##), Some(vec![3, 4, 5, 6]));
        assert_eq!(value_offsets(r#"r"ab""#), Some(vec![2, 3, 4]));
    }
}
