//! JAX-RS path templates, parsed by `restlight_grammar::template` (the
//! grammar the macros check at compile time), compiled here into segments.
//!
//! - `{name}` is one segment of any text; `{name: regex}` is constrained by
//!   the regex, which must compile as `^(?:regex)$`. A regex that may match
//!   `/` makes the variable span segments.
//! - The leading `/` is optional and one trailing `/` is ignored.
//! - Literal text is percent-decoded.

use std::borrow::Cow;

use regex_lite::Regex;
use restlight_grammar::template::{self as grammar, TemplateError};
use smallvec::SmallVec;

use super::decode::count_byte;
use super::fast::compiles;
use super::precedence::Key;
use super::regexes::may_match_slash;

/// A piece of a template segment. Text is borrowed from the route entry
/// when it needs no decoding, so that compiling a template allocates only
/// its vectors.
#[derive(Clone, Debug)]
pub(crate) enum Piece<'e> {
    /// Literal text, percent-decoded.
    Lit(Cow<'e, str>),
    /// The variable with this index into [`Template::vars`].
    Var(usize),
}

/// The pieces of one template segment: inline for one (most segments are
/// one literal or one variable), so compiling a template allocates no
/// vector per segment but for a segment like `{id}.json`. Room for two
/// would make every segment 24 bytes larger, in every template at once.
pub(crate) type Seg<'e> = SmallVec<[Piece<'e>; 1]>;

/// The variables of a template: inline for two (most templates have at
/// most two), so that parsing one allocates no vector for them.
pub(crate) type Vars<'e> = SmallVec<[Var<'e>; 2]>;

/// A template variable.
#[derive(Clone, Debug)]
pub(crate) struct Var<'e> {
    /// Borrowed from the entry where it can be: the router shares one
    /// [`Arc`](std::sync::Arc) per distinct name among its routes.
    pub(crate) name: Cow<'e, str>,
    /// The regex as written (trimmed), `None` for the default `[^/]+`.
    pub(crate) regex: Option<Cow<'e, str>>,
    /// Whether the regex may match `/`, so that the variable spans segments.
    pub(crate) multi: bool,
}

/// A parsed, normalised template.
#[derive(Clone, Debug)]
pub(crate) struct Template<'e> {
    /// Segments between `/`; empty for the root.
    pub(crate) segments: Vec<Seg<'e>>,
    pub(crate) vars: Vars<'e>,
    /// The first segment holding a multi-segment variable: from there on the
    /// rest of the path is matched by one regex.
    pub(crate) tail_start: Option<usize>,
    /// Where the template with variable names removed (equal shapes are
    /// equivalent) is in the buffer of shapes it was parsed with (one for
    /// every template of a router's build): see [`Template::shape_in`].
    pub(crate) shape: std::ops::Range<usize>,
    pub(crate) key: Key,
}

impl Template<'_> {
    /// The shape, in `shapes`, the buffer the template was parsed with.
    pub(crate) fn shape_in<'s>(&self, shapes: &'s str) -> &'s str {
        &shapes[self.shape.clone()]
    }
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
        /// The regex engine's (`regex-lite`) reason.
        reason: String,
    },
}

/// Parses a template, reporting every mistake the grammar finds. Its
/// regexes are not compiled here: see [`check_regexes`].
///
/// Most templates (plain literal text and well-formed variables) are read
/// in one pass straight into their segments, variables, shape and key
/// ([`parse_plain`]); any other goes through the grammar's parse, which
/// reports its mistakes, and [`compile`]. The shape is appended to `shapes`.
pub(crate) fn parse_into<'e>(src: &'e str, shapes: &mut String) -> Result<Template<'e>, Vec<Fault>> {
    if let Some(t) = parse_plain(src, shapes) {
        return Ok(t);
    }
    let parsed = grammar::Template::parse(src).map_err(|e| e.into_iter().map(Fault::Syntax).collect::<Vec<_>>())?;
    Ok(compile_into(&parsed, shapes))
}

/// [`parse_into`] for a caller that does not read the shape (it is not kept).
pub(crate) fn parse(src: &str) -> Result<Template<'_>, Vec<Fault>> {
    parse_into(src, &mut String::new())
}

/// [`compile_into`] for a caller that does not read the shape (it is not kept).
pub(crate) fn compile<'x, 'e: 'x>(parsed: &grammar::Template<'e>) -> Template<'x> {
    compile_into(parsed, &mut String::new())
}

/// What [`parse_plain`] does at each byte of literal text.
#[derive(Clone, Copy)]
enum Class {
    /// Literal text: a byte that starts a character.
    Text,
    /// Literal text: a UTF-8 continuation byte (not counted as a character).
    More,
    /// `/`: ends a segment.
    Slash,
    /// `{`: opens a variable.
    Open,
    /// Left to the grammar: a `}` closing nothing, the forbidden `?`, `#`,
    /// `;` and NUL, and `%`, whose escapes the grammar decodes and checks.
    Other,
}

/// [`Class`] by byte: one load decides each byte of literal text.
const CLASS: [Class; 256] = {
    let mut table = [Class::Text; 256];
    let mut b = 0x80;
    while b < 0xC0 {
        table[b] = Class::More;
        b += 1;
    }
    table[b'/' as usize] = Class::Slash;
    table[b'{' as usize] = Class::Open;
    let others = *b"}?#;%\0";
    let mut k = 0;
    while k < others.len() {
        table[others[k] as usize] = Class::Other;
        k += 1;
    }
    table
};

/// Whether `b` may be part of a variable name [`parse_plain`] reads: an
/// ASCII letter or digit, `_`, `.` or `-` (the first byte not `.` or `-`);
/// the grammar reads any other name it accepts.
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// The variable whose `{` is at byte `open` of `src`, and the byte of its
/// `}`, when it is one [`parse_plain`] reads: an ASCII name, perhaps between
/// ASCII spaces, then `}`, or `:` and a regex that is not empty and does
/// not end in `\`. `None` for any other: the grammar reads it.
fn plain_var(src: &str, open: usize) -> Option<(Var<'_>, usize)> {
    let bytes = src.as_bytes();
    let skip_spaces = |mut at: usize| {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        at
    };
    let name_start = skip_spaces(open + 1);
    // A letter, digit or `_` first.
    if !bytes.get(name_start).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let mut at = name_start + 1;
    while bytes.get(at).copied().is_some_and(name_byte) {
        at += 1;
    }
    let name = &src[name_start..at];
    at = skip_spaces(at);
    match bytes.get(at)? {
        b'}' => Some((Var { name: Cow::Borrowed(name), regex: None, multi: false }, at)),
        b':' => {
            // Braces nest inside a regex (`\d{3}`): its end is found as the
            // grammar finds it.
            let close = grammar::closing_brace(src, open)?;
            let regex = src[at + 1..close].trim();
            if regex.is_empty() || regex.ends_with('\\') {
                return None;
            }
            let multi = may_match_slash(regex);
            Some((Var { name: Cow::Borrowed(name), regex: Some(Cow::Borrowed(regex)), multi }, close))
        }
        _ => None,
    }
}

/// One pass over `src` into the template [`compile`] makes of the
/// grammar's parse, for a template of plain literal text (no escape, no
/// mistake) and variables with an ASCII name, each named once, and a regex
/// not ending in `\`. `None` for any other template: the grammar parses it.
///
/// Each byte of literal text is classed by one table load, and the text
/// between two variables goes into the shape as one run, its `/` included
/// (plain literal text holds nothing the shape escapes).
fn parse_plain<'e>(src: &'e str, shapes: &mut String) -> Option<Template<'e>> {
    let bytes = src.as_bytes();
    let rooted = bytes.first() == Some(&b'/');
    // Sized once (a `/` inside a regex counts too: at most a few slots over).
    let slashes = count_byte(bytes, b'/');
    let mut segments: Vec<Seg<'_>> = Vec::with_capacity(slashes + usize::from(!rooted));
    let mut vars: Vars<'_> = SmallVec::new();
    // A variable's shape (`{}`, `{:re}`) is shorter than its source and a
    // literal's is its text: the source and a leading `/` always fit.
    shapes.reserve(src.len() + 1);
    let (start, shape) = (shapes.len(), shapes);
    // A rooted template's first `/` opens its first segment.
    if !rooted {
        segments.push(Seg::new());
        shape.push('/');
    }
    // The segments' literal bytes, and the continuation bytes among them:
    // their characters are the difference.
    let (mut literal_bytes, mut continuations) = (0, 0);
    let (mut regex_vars, mut tail_start) = (0, None);
    // Where the current segment's literal text and the current run of
    // literal text (for the shape) began.
    let (mut part, mut run) = (0, 0);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match CLASS[usize::from(b)] {
            Class::Text => i += 1,
            Class::More => {
                continuations += 1;
                i += 1;
            }
            Class::Slash => {
                literal_bytes += push_part(&mut segments, &src[part..i]);
                segments.push(Seg::new());
                i += 1;
                part = i;
            }
            Class::Open => {
                let found = plain_var(src, i).filter(|(var, _)| !vars.iter().any(|v| v.name == var.name));
                let Some((var, close)) = found else {
                    shape.truncate(start);
                    return None;
                };
                literal_bytes += push_part(&mut segments, &src[part..i]);
                shape.push_str(&src[run..i]);
                if var.multi && tail_start.is_none() {
                    tail_start = Some(segments.len() - 1);
                }
                regex_vars += usize::from(var.regex.is_some());
                push(&mut segments, Piece::Var(vars.len()));
                write_var(shape, &var);
                vars.push(var);
                i = close + 1;
                (part, run) = (i, i);
            }
            Class::Other => {
                shape.truncate(start);
                return None;
            }
        }
    }
    literal_bytes += push_part(&mut segments, &src[part..]);
    shape.push_str(&src[run..]);
    // One trailing `/` is ignored: its empty segment wrote only a `/`.
    if segments.last().is_some_and(|seg| seg.is_empty()) {
        segments.pop();
        shape.pop();
    }
    if segments.is_empty() {
        shape.push('/');
    }
    let key = Key::of_counts(literal_bytes - continuations, segments.len(), vars.len(), regex_vars);
    Some(Template { segments, vars, tail_start, shape: start..shape.len(), key })
}

/// Adds a segment's literal text, if any, to the last segment; its length
/// in bytes.
fn push_part<'e>(segments: &mut [Seg<'e>], text: &'e str) -> usize {
    if !text.is_empty() {
        push(segments, Piece::Lit(Cow::Borrowed(text)));
    }
    text.len()
}

/// The variables whose regex does not compile as `^(?:regex)$`, for a
/// template the macros did not check (built at run time). Compiling a regex
/// only to check it costs startup, so templates the macros checked at
/// compile time, with the same engine, skip this, and so do regexes of the
/// shapes matched by hand (see `fast::compiles`).
pub(crate) fn check_regexes(t: &Template<'_>) -> Result<(), Vec<Fault>> {
    let faults: Vec<Fault> = t
        .vars
        .iter()
        .filter_map(|var| {
            // A regex matched by hand is one `regex-lite` compiles.
            let re = var.regex.as_deref().filter(|re| !compiles(re))?;
            let e = Regex::new(&format!("^(?:{re})$")).err()?;
            let why = e.to_string();
            let reason = why.lines().last().unwrap_or_default().trim().to_owned();
            Some(Fault::Regex { name: var.name.to_string(), regex: re.to_owned(), reason })
        })
        .collect();
    if faults.is_empty() {
        Ok(())
    } else {
        Err(faults)
    }
}

/// Compiles a template the grammar parsed (at startup, or in the macros at
/// compile time) into segments; the shape is appended to `shapes`.
pub(crate) fn compile_into<'x, 'e: 'x>(parsed: &grammar::Template<'e>, shapes: &mut String) -> Template<'x> {
    let rooted = matches!(parsed.pieces().first(), Some(grammar::Piece::Literal(lit)) if lit.text.starts_with('/'));
    // Sized once: a template is compiled for every route at startup.
    let (mut slashes, mut var_count) = (0, 0);
    for piece in parsed.pieces() {
        match piece {
            grammar::Piece::Literal(lit) => slashes += lit.text.bytes().filter(|&b| b == b'/').count(),
            grammar::Piece::Var(_) => var_count += 1,
        }
    }
    // A rooted template's first `/` opens its first segment: there is no
    // empty one before it to make and remove.
    let mut segments: Vec<Seg<'x>> = Vec::with_capacity(slashes + usize::from(!rooted));
    if !rooted {
        segments.push(Seg::new());
    }
    let mut vars: Vars<'_> = SmallVec::with_capacity(var_count);
    for piece in parsed.pieces() {
        match piece {
            // Borrowed from the entry's text where nothing is decoded.
            grammar::Piece::Literal(lit) => match &lit.text {
                Cow::Borrowed(text) => push_literal(&mut segments, text, |part| grammar::decode(part)),
                Cow::Owned(text) => {
                    push_literal(&mut segments, text, |part| Cow::Owned(grammar::decode(part).into_owned()))
                }
            },
            grammar::Piece::Var(var) => {
                let multi = var.regex.as_deref().is_some_and(may_match_slash);
                let regex: Option<Cow<'x, str>> = var.regex.as_ref().map(keep);
                push(&mut segments, Piece::Var(vars.len()));
                vars.push(Var { name: keep(&var.name), regex, multi });
            }
        }
    }
    if segments.last().is_some_and(|seg| seg.is_empty()) {
        segments.pop();
    }
    let tail_start =
        segments.iter().position(|seg| seg.iter().any(|piece| matches!(piece, Piece::Var(v) if vars[*v].multi)));
    let start = shapes.len();
    if segments.is_empty() {
        shapes.push('/');
    } else {
        write_shape(shapes, segments.iter().map(|seg| seg.as_slice()), &vars, write_var);
    }
    let key = Key::of(&segments, &vars);
    Template { segments, vars, tail_start, shape: start..shapes.len(), key }
}

/// A borrowed text kept borrowed (for the entry's lifetime); an owned one copied.
fn keep<'e>(text: &Cow<'e, str>) -> Cow<'e, str> {
    match text {
        Cow::Borrowed(text) => Cow::Borrowed(text),
        Cow::Owned(text) => Cow::Owned(text.clone()),
    }
}

/// Splits literal text on `/` into the segments, each part decoded by
/// `decode`. Split first: an escaped `/` (`%2F`) stays inside its segment.
fn push_literal<'e, 't>(segments: &mut Vec<Seg<'e>>, text: &'t str, decode: impl Fn(&'t str) -> Cow<'e, str>) {
    for (k, part) in text.split('/').enumerate() {
        if k > 0 {
            segments.push(Seg::new());
        }
        if !part.is_empty() {
            push(segments, Piece::Lit(decode(part)));
        }
    }
}

fn push<'e>(segments: &mut [Seg<'e>], piece: Piece<'e>) {
    if let Some(seg) = segments.last_mut() {
        seg.push(piece);
    }
}

/// Writes a variable as the group key does: `{}`, or `{:re}`.
pub(crate) fn write_var(out: &mut String, var: &Var<'_>) {
    match &var.regex {
        Some(re) => {
            out.push_str("{:");
            out.push_str(re);
            out.push('}');
        }
        None => out.push_str("{}"),
    }
}

/// Writes segments as `/lit{}/{:re}`, literals escaped so that the result is
/// unambiguous; `var` writes each variable.
pub(crate) fn shape<'p, 'e: 'p>(
    segments: impl Iterator<Item = &'p [Piece<'e>]> + Clone,
    vars: &[Var<'_>],
    var: impl Fn(&mut String, &Var<'_>),
) -> String {
    let (mut count, mut size) = (0, 0);
    for seg in segments.clone() {
        count += 1;
        size += 1 + seg.iter().map(|p| if let Piece::Lit(t) = p { t.len() } else { 2 }).sum::<usize>();
    }
    if count == 0 {
        return "/".to_owned();
    }
    let mut out = String::with_capacity(size);
    write_shape(&mut out, segments, vars, var);
    out
}

/// [`shape`] appended to `out` (a buffer reused for many shapes).
pub(crate) fn write_shape<'p, 'e: 'p>(
    out: &mut String,
    segments: impl Iterator<Item = &'p [Piece<'e>]>,
    vars: &[Var<'_>],
    var: impl Fn(&mut String, &Var<'_>),
) {
    for seg in segments {
        out.push('/');
        for piece in seg {
            match piece {
                Piece::Lit(text) => push_escaped(out, text),
                Piece::Var(v) => var(out, &vars[*v]),
            }
        }
    }
}

/// Appends literal text with `{`, `}`, `%` and `/` percent-encoded.
/// The text between two such characters is copied in one piece.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    let mut rest = text;
    // A byte scan: the four characters are ASCII, so no byte of another
    // character is taken for one (cheaper than a search by `char`).
    while let Some(at) = rest.bytes().position(|b| matches!(b, b'{' | b'}' | b'%' | b'/')) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'{' => "%7B",
            b'}' => "%7D",
            b'%' => "%25",
            _ => "%2F",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::{compile_into, parse_into, parse_plain, push_escaped};
    use restlight_grammar::template as grammar;

    /// The one-pass parse makes the template the grammar's parse and
    /// `compile` make (segments, variables, tail, shape and key), and leaves
    /// every other template to the grammar.
    #[test]
    fn one_pass_parse_equals_the_grammar_and_compile() {
        let plain = [
            "",
            "/",
            "//",
            "users",
            "/users/",
            "/users/{id}",
            "users/{id}/",
            "{id}",
            "{id}/x",
            "/users/{ id : \\d+ }/orders{i}/{order}",
            "/v{major}.{minor}",
            "/a//b///c/",
            "/files/{path: .*}",
            "/files/{dir: [^/]+}/{path: .+}/end",
            "/x/{a: \\d{3}}{b}",
            "/é/ü{n}",
            "/{a.b-c}/{_x}",
            "/{a: [a-z]{2,3}}-{b:[/]}",
        ];
        for src in plain {
            let (mut a, mut b, mut c) = (String::from("/x"), String::from("/x"), String::from("/x"));
            let one = parse_plain(src, &mut a).unwrap_or_else(|| panic!("{src} is left to the grammar"));
            let two = compile_into(&grammar::Template::parse(src).unwrap(), &mut b);
            assert_eq!(format!("{one:?}"), format!("{two:?}"), "{src}");
            assert_eq!(a, b, "{src}");
            assert_eq!(format!("{:?}", parse_into(src, &mut c).unwrap()), format!("{two:?}"), "{src}");
            assert_eq!(c, b, "{src}");
        }
        let grammar_only = [
            "/a%20b",
            "/a}",
            "/a?b",
            "/a;b",
            "/a#b",
            "/a\0b",
            "/{x}/{x}",
            "/{}",
            "/{x:}",
            "/{x: a\\ }",
            "/{é}",
            "/{x",
            "/{-x}",
        ];
        for src in grammar_only {
            let mut shapes = String::from("/x");
            assert!(parse_plain(src, &mut shapes).is_none(), "{src}");
            assert_eq!(shapes, "/x", "{src}");
            match grammar::Template::parse(src) {
                Ok(parsed) => assert_eq!(
                    format!("{:?}", parse_into(src, &mut String::new()).unwrap()),
                    format!("{:?}", compile_into(&parsed, &mut String::new()))
                ),
                Err(errors) => assert_eq!(parse_into(src, &mut shapes).unwrap_err().len(), errors.len(), "{src}"),
            }
        }
    }

    /// Random templates of up to 15 pieces drawn from the characters the
    /// parse acts on: those the one-pass parse reads give what the
    /// grammar's parse and `compile` give; the others leave the shapes as
    /// they were.
    #[test]
    fn one_pass_parse_equals_the_grammar_on_random_short_templates() {
        const ALPHABET: [&str; 16] =
            ["/", "a", "é", "{", "}", ":", " ", "x", "\\", "d", ".", "*", "%", "3", ";", "{a}"];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut read = 0;
        for _ in 0..40_000 {
            let mut src = String::new();
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            for k in 0..(state >> 60) as usize {
                let pick = (state >> (4 * (k % 14))) as usize % ALPHABET.len();
                src.push_str(ALPHABET[pick]);
                state = state.rotate_left(7) ^ (k as u64);
            }
            let mut one_shapes = String::from("/x");
            match parse_plain(&src, &mut one_shapes) {
                Some(one) => {
                    read += 1;
                    let parsed = grammar::Template::parse(&src).unwrap_or_else(|e| panic!("{src:?}: {e:?}"));
                    let mut two_shapes = String::from("/x");
                    let two = compile_into(&parsed, &mut two_shapes);
                    assert_eq!(format!("{one:?}"), format!("{two:?}"), "{src:?}");
                    assert_eq!(one_shapes, two_shapes, "{src:?}");
                }
                None => assert_eq!(one_shapes, "/x", "{src:?}"),
            };
        }
        assert!(read > 5_000, "the one-pass parse read {read} of the templates");
    }

    #[test]
    fn escapes_braces_percent_and_slash_between_plain_runs() {
        let mut out = String::from("/");
        push_escaped(&mut out, "a{b}c%d/e");
        assert_eq!(out, "/a%7Bb%7Dc%25d%2Fe");
        let mut plain = String::new();
        push_escaped(&mut plain, "plain-text.é");
        assert_eq!(plain, "plain-text.é");
    }
}
