//! What the router needs to know about user regexes, and how it writes the
//! regexes it compiles for constrained and multi-segment variables.

use std::fmt::Write as _;

/// Whether `re` may match text containing `/`: such a variable spans
/// segments. Conservative: `true` whenever unsure (a variable wrongly taken
/// for multi-segment still matches correctly, only through a regex over the
/// rest of the path).
pub(crate) fn may_match_slash(re: &str) -> bool {
    if has_verbose_flag(re) {
        return true;
    }
    let b = re.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' | b'.' => return true,
            b'\\' => match b.get(i + 1) {
                Some(c) if harmless_escape(*c) => i += 2,
                _ => return true,
            },
            b'[' => match class_may_match_slash(re, i) {
                Some((false, end)) => i = end,
                _ => return true,
            },
            _ => i += 1,
        }
    }
    false
}

/// `\d \w \s`, anchors and escaped punctuation other than `/` never match `/`.
fn harmless_escape(c: u8) -> bool {
    b"dwsbBAznrtfv".contains(&c) || (c.is_ascii_punctuation() && c != b'/')
}

fn has_verbose_flag(re: &str) -> bool {
    re.match_indices("(?")
        .any(|(i, _)| re[i + 2..].chars().take_while(|c| c.is_ascii_alphabetic() || *c == '-').any(|c| c == 'x'))
}

/// Scans the class opening at `open`: `Some((may match '/', index after ']'))`,
/// `None` when the class is too clever to judge (nested classes, set
/// operations, POSIX or Unicode classes, hex escapes).
fn class_may_match_slash(re: &str, open: usize) -> Option<(bool, usize)> {
    let b = re.as_bytes();
    let mut i = open + 1;
    let negated = b.get(i) == Some(&b'^');
    if negated {
        i += 1;
    }
    let mut has_slash = false;
    let mut first = true;
    loop {
        let c = *b.get(i)?;
        if c == b']' && !first {
            return Some((has_slash != negated, i + 1));
        }
        first = false;
        if c == b'[' || (matches!(c, b'&' | b'-' | b'~') && b.get(i + 1) == Some(&c)) {
            return None;
        }
        let (lo, next) = class_char(re, i)?;
        let Some(lo) = lo else {
            i = next; // \d \w \s
            continue;
        };
        if b.get(next) == Some(&b'-') && b.get(next + 1).is_some_and(|c| *c != b']') {
            let (hi, after) = class_char(re, next + 1)?;
            has_slash |= (lo..=hi?).contains(&'/');
            i = after;
        } else {
            has_slash |= lo == '/';
            i = next;
        }
    }
}

/// One class member at `i`: `Some(char)` for a literal, `None` for `\d \w \s`.
fn class_char(re: &str, i: usize) -> Option<(Option<char>, usize)> {
    let c = re[i..].chars().next()?;
    if c != '\\' {
        return Some((Some(c), i + c.len_utf8()));
    }
    let e = *re.as_bytes().get(i + 1)?;
    match e {
        b'd' | b'w' | b's' => Some((None, i + 2)),
        b'n' | b't' | b'r' | b'f' | b'v' => Some((Some(' '), i + 2)), // not '/'
        _ if e.is_ascii_punctuation() => Some((Some(char::from(e)), i + 2)),
        _ => None,
    }
}

/// The text a regex matches when it is a plain literal (`me`, `v1\.0`).
pub(crate) fn literal_of_regex(re: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = re.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e) if e.is_ascii_punctuation() => out.push(e),
                _ => return None,
            },
            c if c.is_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A regex matching `lit` in raw (not yet decoded) path text: each character
/// outside the unreserved set may appear as itself or percent-encoded; a
/// decoded `/` only as `%2F`.
pub(crate) fn raw_literal(lit: &str) -> String {
    let mut out = String::with_capacity(lit.len());
    for c in lit.chars() {
        if c.is_ascii_alphanumeric() || "-._~".contains(c) {
            out.push_str(&regex_lite::escape(c.encode_utf8(&mut [0; 4])));
            continue;
        }
        out.push_str("(?:");
        if c != '/' {
            out.push_str(&regex_lite::escape(c.encode_utf8(&mut [0; 4])));
            out.push('|');
        }
        for byte in c.encode_utf8(&mut [0; 4]).bytes() {
            out.push('%');
            for digit in [byte >> 4, byte & 0xF] {
                let (upper, lower) = (b"0123456789ABCDEF"[usize::from(digit)], b"0123456789abcdef"[usize::from(digit)]);
                if upper == lower {
                    out.push(char::from(upper));
                } else {
                    let _ = write!(out, "[{}{}]", char::from(upper), char::from(lower));
                }
            }
        }
        out.push(')');
    }
    out
}
