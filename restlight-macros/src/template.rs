//! Path templates: `/users/{id}`, `/files/{path: .*}`, `/v{major}.{minor}`.
//!
//! The rules mirror the router's (JAX-RS section 3.7.3):
//!
//! - literal text, percent-decoded, in which `;`, `?`, `#`, a lone `}`, NUL
//!   and malformed or NUL escapes are errors;
//! - variables `{name}` or `{name: regex}`, with optional whitespace around
//!   the name, the `:` and the regex;
//! - a name starts with a letter, digit or `_` and goes on with those, `-`
//!   or `.` (JAX-RS `\w[\w.-]*`, Unicode letters included);
//! - a regex may contain balanced braces (`\d{3}`) and escaped ones (`\{`),
//!   must not be empty and must compile with the `regex` crate as
//!   `^(?:regex)$` (checked by `validate`); without one a variable matches
//!   one segment, `[^/]+`;
//! - variables and literals mix freely inside a segment (`/{name}.html`).
//!
//! The full template of a route is the impl block's path joined with the
//! method's ([`join`]): one leading `/`, runs of `/` outside variables
//! collapsed, no trailing `/` except for the root (JAX-RS drops it too), and
//! variables written canonically as `{name}` or `{name: regex}`.

use std::fmt::Write as _;
use std::ops::Range;

use proc_macro2::Span;
use syn::LitStr;

use crate::ctxt::Ctxt;

/// A parsed template with the literal it came from, for error spans.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub(crate) lit: LitStr,
    pub(crate) pieces: Vec<Piece>,
}

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Literal text, matched as is.
    Literal(String),
    /// A variable.
    Var(Var),
}

/// A template variable, with its position in the template's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Var {
    pub(crate) name: String,
    pub(crate) regex: Option<String>,
    /// Characters of the whole `{..}` in the template's value.
    pub(crate) at: Range<usize>,
    /// Characters of the regex, when there is one.
    pub(crate) regex_at: Option<Range<usize>>,
}

/// A syntax error in a template, positioned in characters of its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TemplateError {
    pub(crate) at: Range<usize>,
    pub(crate) message: String,
    pub(crate) help: String,
}

const FORMS: &str = "a variable is written `{name}` or `{name: regex}`";

impl Template {
    /// Parses the template in `lit`, recording every syntax error in `cx`.
    pub(crate) fn parse(cx: &mut Ctxt, lit: &LitStr) -> Option<Self> {
        match parse_str(&lit.value()) {
            Ok(pieces) => Some(Self { lit: lit.clone(), pieces }),
            Err(errors) => {
                for e in errors {
                    cx.push(error_at(lit, e.at, &e.message, &e.help));
                }
                None
            }
        }
    }

    /// The variables, in order.
    pub(crate) fn vars(&self) -> impl Iterator<Item = &Var> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Var(v) => Some(v),
            Piece::Literal(_) => None,
        })
    }
}

/// Parses a template's value. Reports every error it can find; after an
/// unclosed `{` the rest of the template is that variable, so parsing stops.
pub(crate) fn parse_str(template: &str) -> Result<Vec<Piece>, Vec<TemplateError>> {
    let chars: Vec<char> = template.chars().collect();
    let mut pieces = Vec::new();
    let mut errors = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' => {
                let Some(close) = matching_brace(&chars, i) else {
                    errors.push(TemplateError {
                        at: i..i + 1,
                        message: "unclosed `{` in the path template".into(),
                        help: format!("close the variable: {FORMS}"),
                    });
                    break;
                };
                if !literal.is_empty() {
                    pieces.push(Piece::Literal(std::mem::take(&mut literal)));
                }
                match parse_var(&chars, i, close) {
                    Ok(var) => pieces.push(Piece::Var(var)),
                    Err(e) => errors.extend(e),
                }
                i = close + 1;
            }
            '}' => {
                errors.push(TemplateError {
                    at: i..i + 1,
                    message: "unmatched `}` in the path template".into(),
                    help: format!("{FORMS}; a literal `}}` cannot appear in a path template"),
                });
                i += 1;
            }
            c @ ('?' | '#' | ';') => {
                let help = match c {
                    '?' => "a template matches the path only: read query parameters with `#[query_param]`",
                    '#' => "a template matches the path only: the fragment never reaches the server",
                    _ => "matrix parameters (`;name=value`) are not part of the template: read them with `#[matrix_param]`",
                };
                errors.push(TemplateError {
                    at: i..i + 1,
                    message: format!("`{c}` cannot appear in a path template"),
                    help: help.into(),
                });
                i += 1;
            }
            '%' => {
                // A run of escapes, decoded together: a UTF-8 sequence spans several.
                let mut bytes = Vec::new();
                let mut j = i;
                while let Some(b) = escape_at(&chars, j) {
                    bytes.push(b);
                    j += 3;
                }
                let error = if bytes.is_empty() {
                    Some(TemplateError {
                        at: i..(i + 3).min(chars.len()),
                        message: "malformed percent-escape in the path template".into(),
                        help: "a `%` starts an escape of two hex digits, `%20`; write a literal `%` as `%25`".into(),
                    })
                } else if bytes.contains(&0) {
                    Some(TemplateError {
                        at: i..j,
                        message: "`%00` cannot appear in a path template".into(),
                        help: "the router refuses NUL in request paths, so this route could never match".into(),
                    })
                } else if std::str::from_utf8(&bytes).is_err() {
                    Some(TemplateError {
                        at: i..j,
                        message: "these percent-escapes decode to invalid UTF-8".into(),
                        help: "escape whole UTF-8 sequences, e.g. `%C3%A9` for `é`".into(),
                    })
                } else {
                    None
                };
                match error {
                    Some(e) => errors.push(e),
                    None => literal.extend(&chars[i..j]),
                }
                i = j.max(i + 1);
            }
            '\0' => {
                errors.push(TemplateError {
                    at: i..i + 1,
                    message: "NUL cannot appear in a path template".into(),
                    help: "the router refuses NUL in request paths, so this route could never match".into(),
                });
                i += 1;
            }
            c => {
                literal.push(c);
                i += 1;
            }
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Literal(literal));
    }
    if errors.is_empty() {
        Ok(pieces)
    } else {
        Err(errors)
    }
}

/// The byte of the escape `%XX` at `i`, if there is a well-formed one.
fn escape_at(chars: &[char], i: usize) -> Option<u8> {
    match chars.get(i..i + 3)? {
        ['%', h, l] => Some(u8::try_from(h.to_digit(16)? * 16 + l.to_digit(16)?).ok()?),
        _ => None,
    }
}

/// The index of the `}` closing the `{` at `open`, counting nested braces and
/// skipping escaped ones.
fn matching_brace(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = open;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

fn is_name_start(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c == '.' || c == '-'
}

/// Parses `{ name [: regex] }` spanning `chars[open..=close]`.
fn parse_var(chars: &[char], open: usize, close: usize) -> Result<Var, Vec<TemplateError>> {
    let at = open..close + 1;
    let colon = (open + 1..close).find(|&k| chars[k] == ':');
    let name_end = colon.unwrap_or(close);
    let (name_start, name_stop) = trim(chars, open + 1, name_end);
    let name: String = chars[name_start..name_stop].iter().collect();
    let mut errors = Vec::new();
    if name.is_empty() {
        errors.push(TemplateError {
            at: at.clone(),
            message: "empty variable name in the path template".into(),
            help: "name the variable: `{id}` or `{id: \\d+}`".into(),
        });
    } else if let Some((k, c)) = (name_start..name_stop).map(|k| (k, chars[k])).find(|&(k, c)| {
        if k == name_start {
            !is_name_start(c)
        } else {
            !is_name_char(c)
        }
    }) {
        let first = if k == name_start { " at the start" } else { "" };
        errors.push(TemplateError {
            at: k..k + 1,
            message: format!("invalid character `{}`{first} of the variable name `{name}`", c.escape_default()),
            help: format!(
                "a variable name is letters, digits and `_`, then also `.` and `-`, e.g. `{{user_id}}`; {FORMS}"
            ),
        });
    }
    let (regex, regex_at) = match colon {
        None => (None, None),
        Some(colon) => {
            let (s, e) = trim(chars, colon + 1, close);
            if s == e {
                errors.push(TemplateError {
                    at: colon..colon + 1,
                    message: format!("empty regex after `:` in the variable `{name}`"),
                    help: format!("write a regex, `{{{name}: \\d+}}`, or drop the `:`, `{{{name}}}`"),
                });
                (None, None)
            } else {
                (Some(chars[s..e].iter().collect()), Some(s..e))
            }
        }
    };
    if errors.is_empty() {
        Ok(Var { name, regex, at, regex_at })
    } else {
        Err(errors)
    }
}

/// `start..end` without the whitespace at either end.
fn trim(chars: &[char], mut start: usize, mut end: usize) -> (usize, usize) {
    while start < end && chars[start].is_whitespace() {
        start += 1;
    }
    while end > start && chars[end - 1].is_whitespace() {
        end -= 1;
    }
    (start, end)
}

/// The full template of a route: `base` (the impl block's path) joined with
/// `sub` (the method's), normalised as the module docs say.
pub(crate) fn join<'a>(parts: impl IntoIterator<Item = &'a [Piece]>) -> String {
    let mut raw: Vec<Piece> = Vec::new();
    for part in parts {
        raw.push(Piece::Literal("/".into()));
        raw.extend(part.iter().cloned());
    }
    let mut out = String::new();
    for piece in &raw {
        match piece {
            Piece::Literal(text) => {
                for c in text.chars() {
                    if !(c == '/' && out.ends_with('/')) {
                        out.push(c);
                    }
                }
            }
            Piece::Var(var) => {
                if out.is_empty() {
                    out.push('/');
                }
                let _ = match &var.regex {
                    Some(re) => write!(out, "{{{}: {re}}}", var.name),
                    None => write!(out, "{{{}}}", var.name),
                };
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

    fn var(name: &str, regex: Option<&str>, at: Range<usize>) -> Piece {
        let regex_at = regex.map(|re| {
            let s = at.end - 1 - re.chars().count();
            s..at.end - 1
        });
        Piece::Var(Var { name: name.into(), regex: regex.map(Into::into), at, regex_at })
    }

    fn lit(s: &str) -> Piece {
        Piece::Literal(s.into())
    }

    fn errors(t: &str) -> Vec<(Range<usize>, String)> {
        parse_str(t).unwrap_err().into_iter().map(|e| (e.at, e.message)).collect()
    }

    fn full(parts: &[&str]) -> String {
        let parsed: Vec<Vec<Piece>> = parts.iter().map(|p| parse_str(p).unwrap()).collect();
        join(parsed.iter().map(Vec::as_slice))
    }

    #[test]
    fn literal_only() {
        assert_eq!(parse_str("/users").unwrap(), vec![lit("/users")]);
        assert_eq!(parse_str("").unwrap(), vec![]);
    }

    #[test]
    fn plain_variable() {
        assert_eq!(parse_str("/users/{id}").unwrap(), vec![lit("/users/"), var("id", None, 7..11)]);
    }

    #[test]
    fn variable_with_regex_and_whitespace() {
        assert_eq!(parse_str("/{id: \\d+}").unwrap(), vec![lit("/"), var("id", Some("\\d+"), 1..10)]);
        assert_eq!(
            parse_str("/{ id :\\d+ }").unwrap(),
            vec![
                lit("/"),
                Piece::Var(Var { name: "id".into(), regex: Some("\\d+".into()), at: 1..12, regex_at: Some(7..10) })
            ]
        );
        assert_eq!(parse_str("/{id:[a-z]+}").unwrap(), vec![lit("/"), var("id", Some("[a-z]+"), 1..12)]);
    }

    #[test]
    fn regex_with_braces() {
        assert_eq!(
            parse_str("/{zip: \\d{3}-\\d{4}}").unwrap(),
            vec![lit("/"), var("zip", Some("\\d{3}-\\d{4}"), 1..19)]
        );
        assert_eq!(parse_str("/{c: \\{x\\}}").unwrap(), vec![lit("/"), var("c", Some("\\{x\\}"), 1..11)]);
    }

    #[test]
    fn mixed_segments() {
        assert_eq!(parse_str("/{name}.html").unwrap(), vec![lit("/"), var("name", None, 1..7), lit(".html")]);
        assert_eq!(
            parse_str("/v{major}.{minor}").unwrap(),
            vec![lit("/v"), var("major", None, 2..9), lit("."), var("minor", None, 10..17)]
        );
    }

    #[test]
    fn multi_segment_variable() {
        assert_eq!(parse_str("/files/{path: .*}").unwrap(), vec![lit("/files/"), var("path", Some(".*"), 7..17)]);
    }

    #[test]
    fn jax_rs_names() {
        assert!(parse_str("/{user.id}/{user-name}/{_x}/{9a}/{名前}").is_ok());
    }

    #[test]
    fn unclosed_brace() {
        assert_eq!(errors("/users/{id"), vec![(7..8, "unclosed `{` in the path template".into())]);
        assert_eq!(errors("/{id: \\d{3}"), vec![(1..2, "unclosed `{` in the path template".into())]);
    }

    #[test]
    fn unmatched_close() {
        assert_eq!(errors("/users}/x"), vec![(6..7, "unmatched `}` in the path template".into())]);
    }

    #[test]
    fn empty_name() {
        assert_eq!(errors("/{}"), vec![(1..3, "empty variable name in the path template".into())]);
        assert_eq!(errors("/{ : x}"), vec![(1..7, "empty variable name in the path template".into())]);
    }

    #[test]
    fn invalid_name() {
        assert_eq!(errors("/{user id}"), vec![(6..7, "invalid character ` ` of the variable name `user id`".into())]);
        assert_eq!(
            errors("/{-x}"),
            vec![(2..3, "invalid character `-` at the start of the variable name `-x`".into())]
        );
    }

    #[test]
    fn empty_regex() {
        assert_eq!(errors("/{id: }"), vec![(4..5, "empty regex after `:` in the variable `id`".into())]);
    }

    #[test]
    fn forbidden_literals() {
        assert_eq!(errors("/a?b=1"), vec![(2..3, "`?` cannot appear in a path template".into())]);
        assert_eq!(errors("/a#x"), vec![(2..3, "`#` cannot appear in a path template".into())]);
        assert_eq!(errors("/a;v=1"), vec![(2..3, "`;` cannot appear in a path template".into())]);
        assert_eq!(parse_str("/a b").unwrap(), vec![lit("/a b")]);
    }

    #[test]
    fn percent_escapes() {
        assert_eq!(parse_str("/a%20b").unwrap(), vec![lit("/a%20b")]);
        assert_eq!(errors("/a%2"), vec![(2..4, "malformed percent-escape in the path template".into())]);
        assert_eq!(errors("/a%zz"), vec![(2..5, "malformed percent-escape in the path template".into())]);
        assert_eq!(errors("/a%00"), vec![(2..5, "`%00` cannot appear in a path template".into())]);
        assert_eq!(parse_str("/%C3%A9").unwrap(), vec![lit("/%C3%A9")]);
        assert_eq!(errors("/%C3x"), vec![(1..4, "these percent-escapes decode to invalid UTF-8".into())]);
    }

    #[test]
    fn every_error_at_once() {
        assert_eq!(errors("/{}/x}/{a b}").len(), 3);
    }

    #[test]
    fn join_normalises() {
        assert_eq!(full(&["/users", ""]), "/users");
        assert_eq!(full(&["/users", "/"]), "/users");
        assert_eq!(full(&["/users/", "/{id}"]), "/users/{id}");
        assert_eq!(full(&["users", "{id}"]), "/users/{id}");
        assert_eq!(full(&["/", ""]), "/");
        assert_eq!(full(&["", ""]), "/");
        assert_eq!(full(&["/a//b/"]), "/a/b");
        assert_eq!(full(&["/users", "/{ id :\\d+ }"]), "/users/{id: \\d+}");
        assert_eq!(full(&["/f", "/{p: a//b}"]), "/f/{p: a//b}");
        assert_eq!(full(&["/v{major}.{minor}", "{name}.html"]), "/v{major}.{minor}/{name}.html");
    }

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
