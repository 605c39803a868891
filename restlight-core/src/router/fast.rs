//! Hand-written matchers for the common shapes of constrained variables,
//! chosen once at startup in place of a `regex-lite` regex.
//!
//! A constrained segment (`f{c: [^/]}o`, `{id: \d+}`) or a multi-segment
//! tail (`{rest: .*}/{c: [^/][^/]}x1`) is matched by one anchored regex over
//! the raw path text (see `matcher::compile`). When every variable's regex is
//! made of the shapes below, the same match is run here instead, as a
//! sequence of elements with the regex's own semantics (leftmost-first,
//! greedy repetitions, alternatives in order), so the captures are exactly
//! the regex's:
//!
//! - a character class repeated `min..=max` times: `\d+`, `[0-9]{4}`,
//!   `[a-z]*`, `[A-Za-z0-9_-]+`, `[^/]+`, `\w{2,8}`, `.*`, `.+`, and plain
//!   characters (`v\.?`);
//! - literal text (`me`, `v1\.0`), and a group of literal alternatives
//!   (`(json|xml)`, `(?:a|b)?`, `json|xml` as the whole regex).
//!
//! Everything else (flags, anchors, lazy repetitions, nested repetitions,
//! POSIX classes, non-ASCII text in the regex, template literals with `%`)
//! keeps `regex-lite`. The recogniser follows `regex-lite`'s parser for the
//! constructs it accepts and gives up on anything it does not know, so a
//! shape is either matched exactly as the regex would, or not taken at all.

use smallvec::SmallVec;

use super::decode::hex;
use super::template::{Piece, Template};

/// A set of characters: the ASCII members by bit, and one answer for every
/// non-ASCII character (the classes taken here contain all or none of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class {
    ascii: u128,
    other: bool,
}

impl Class {
    const NONE: Self = Class { ascii: 0, other: false };

    fn of_ranges(ranges: &[(u8, u8)]) -> Self {
        let mut ascii = 0;
        for &(lo, hi) in ranges {
            for b in lo..=hi {
                ascii |= 1u128 << b;
            }
        }
        Class { ascii, other: false }
    }

    fn byte(b: u8) -> Self {
        Class { ascii: 1u128 << b, other: false }
    }

    fn union(self, o: Self) -> Self {
        Class { ascii: self.ascii | o.ascii, other: self.other | o.other }
    }

    fn negate(self) -> Self {
        Class { ascii: !self.ascii, other: !self.other }
    }

    /// `\d`, `\s`, `\w` (ASCII, as `regex-lite` has them) and their negations.
    fn perl(c: u8) -> Option<Self> {
        let class = match c.to_ascii_lowercase() {
            b'd' => Self::of_ranges(&[(b'0', b'9')]),
            b's' => Self::of_ranges(&[(b'\t', b'\r'), (b' ', b' ')]),
            b'w' => Self::of_ranges(&[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')]),
            _ => return None,
        };
        Some(if c.is_ascii_uppercase() { class.negate() } else { class })
    }

    /// `.`: anything but `\n`.
    fn dot() -> Self {
        Class::byte(b'\n').negate()
    }
}

/// One element of a matcher, matched at a position of the raw text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Elem {
    /// Exactly this text: literal text of a user regex, the `/` between
    /// segments, template literals of unreserved characters only.
    Exact(Box<str>),
    /// Template literal text (percent-decoded, without `%`): a character
    /// outside the unreserved set may also appear percent-encoded (hex digits
    /// of either case), and a `/` only so; see `regexes::raw_literal`.
    Lit(Box<str>),
    /// A class repeated `min..=max` times, greedily (`max` `u32::MAX`: no bound).
    Rep { class: Class, min: u32, max: u32 },
    /// Literal alternatives, tried in order (`""` for an optional group).
    Alt(Box<[Box<str>]>),
}

impl Elem {
    /// Whether the element may match more than one way at a position.
    fn branches(&self) -> bool {
        match self {
            Elem::Exact(_) | Elem::Lit(_) => false,
            Elem::Rep { min, max, .. } => min != max,
            Elem::Alt(alts) => alts.len() > 1,
        }
    }
}

/// A compiled fast matcher for a run of template segments.
#[derive(Debug)]
pub(crate) struct Fast {
    elems: Box<[Elem]>,
    /// Each variable's elements, `start..end` indices into `elems`.
    vars: Box<[(u16, u16)]>,
    /// Whether two or more elements may branch: then the positions already
    /// known to fail are remembered, so that a match stays polynomial.
    memo: bool,
}

/// Unreserved characters stand only as themselves in a raw path.
fn unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~".contains(c)
}

impl Fast {
    /// The matcher of `segments` (joined by `/`) of `t`, or `None` when a
    /// variable's regex or a literal is not one of the shapes handled here.
    pub(crate) fn of<'e, S: AsRef<[Piece<'e>]>>(t: &Template<'_>, segments: &[S]) -> Option<Fast> {
        let mut elems = Vec::new();
        let mut vars = Vec::new();
        for (k, seg) in segments.iter().enumerate() {
            if k > 0 {
                elems.push(Elem::Exact("/".into()));
            }
            for piece in seg.as_ref() {
                match piece {
                    Piece::Lit(text) if text.contains('%') => return None,
                    Piece::Lit(text) if text.chars().all(unreserved) => elems.push(Elem::Exact((**text).into())),
                    Piece::Lit(text) => elems.push(Elem::Lit((**text).into())),
                    Piece::Var(v) => {
                        let re = t.vars[*v].regex.as_deref().unwrap_or("[^/]+");
                        let start = u16::try_from(elems.len()).ok()?;
                        elems.extend(parse(re)?);
                        vars.push((start, u16::try_from(elems.len()).ok()?));
                    }
                }
            }
        }
        let memo = elems.iter().take(elems.len().saturating_sub(1)).filter(|e| e.branches()).count() >= 2;
        Some(Fast { elems: elems.into(), vars: vars.into(), memo })
    }

    /// Matches all of `text`; on a match calls `cap(start, end)` for each
    /// variable in order, with byte offsets into `text`.
    pub(crate) fn captures(&self, text: &str, mut cap: impl FnMut(usize, usize)) -> bool {
        let mut inline = [0; 16];
        let mut heap = Vec::new();
        let ends: &mut [usize] = if self.elems.len() <= inline.len() {
            &mut inline[..self.elems.len()]
        } else {
            heap.resize(self.elems.len(), 0);
            &mut heap
        };
        let mut memo = Memo::new(self.memo, self.elems.len(), text.len() + 1);
        if !self.go(0, 0, text, ends, &mut memo) {
            return false;
        }
        for &(start, end) in &*self.vars {
            let (start, end) = (usize::from(start), usize::from(end));
            let from = if start == 0 { 0 } else { ends[start - 1] };
            cap(from, if end == start { from } else { ends[end - 1] });
        }
        true
    }

    /// Whether elements `i..` match `text[pos..]` exactly, recording in
    /// `ends` where each element of the match ends. Elements that can match
    /// one way only are walked in a loop; at the others the ways are tried
    /// in the regex's order of preference (the longest run first,
    /// alternatives in order), so the first match found is the regex's.
    fn go(&self, mut i: usize, mut pos: usize, text: &str, ends: &mut [usize], memo: &mut Memo) -> bool {
        let bytes = text.as_bytes();
        loop {
            let Some(elem) = self.elems.get(i) else { return pos == bytes.len() };
            let last = i + 1 == self.elems.len();
            match elem {
                Elem::Exact(s) => {
                    if !bytes[pos..].starts_with(s.as_bytes()) {
                        return false;
                    }
                    pos += s.len();
                }
                Elem::Lit(lit) => match lit_at(lit, bytes, pos) {
                    Some(end) => pos = end,
                    None => return false,
                },
                // One way only: a single alternative, or the last element
                // (which must take the rest of the text).
                Elem::Alt(alts) if alts.len() == 1 || last => {
                    let rest = &bytes[pos..];
                    let fits = |a: &&[u8]| if last { rest == *a } else { rest.starts_with(a) };
                    match alts.iter().map(|a| a.as_bytes()).find(fits) {
                        Some(a) => pos += a.len(),
                        None => return false,
                    }
                }
                Elem::Alt(alts) => {
                    if memo.failed(i, pos) {
                        return false;
                    }
                    for a in alts.iter() {
                        if bytes[pos..].starts_with(a.as_bytes()) {
                            ends[i] = pos + a.len();
                            if self.go(i + 1, pos + a.len(), text, ends, memo) {
                                return true;
                            }
                        }
                    }
                    memo.fail(i, pos);
                    return false;
                }
                &Elem::Rep { class, min, max } => {
                    let (mut end, mut n) = class.run(bytes, pos, max);
                    if n < min {
                        return false;
                    }
                    if min != max && !last {
                        if memo.failed(i, pos) {
                            return false;
                        }
                        // Literal text next: only the ends where it follows.
                        let then = match self.elems.get(i + 1) {
                            Some(Elem::Exact(s)) => s.as_bytes(),
                            _ => &[],
                        };
                        loop {
                            if bytes[end..].starts_with(then) {
                                ends[i] = end;
                                if self.go(i + 1, end, text, ends, memo) {
                                    return true;
                                }
                            }
                            if n == min {
                                break;
                            }
                            end -= 1;
                            while !text.is_char_boundary(end) {
                                end -= 1;
                            }
                            n -= 1;
                        }
                        memo.fail(i, pos);
                        return false;
                    }
                    pos = end;
                }
            }
            ends[i] = pos;
            i += 1;
        }
    }
}

impl Class {
    /// The longest run of members from `pos`, `max` characters at most:
    /// where it ends and its length in characters. `bytes` is UTF-8 and
    /// `pos` on a character boundary.
    fn run(self, bytes: &[u8], pos: usize, max: u32) -> (usize, u32) {
        let (mut end, mut n) = (pos, 0);
        while n < max {
            let Some(&b) = bytes.get(end) else { break };
            if b < 0x80 {
                if self.ascii >> b & 1 == 0 {
                    break;
                }
                end += 1;
            } else {
                if !self.other {
                    break;
                }
                // A lead byte: the character's length.
                end += match b {
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    _ => 4,
                };
            }
            n += 1;
        }
        (end, n)
    }
}

/// Where template literal `lit` ends when it starts at `pos` of the raw
/// text: each character as itself (unless it is `/`) or, outside the
/// unreserved set, percent-encoded byte by byte. At most one way can match
/// (`lit` has no `%`), so there is no choice to remember.
fn lit_at(lit: &str, bytes: &[u8], mut pos: usize) -> Option<usize> {
    for c in lit.chars() {
        let mut buf = [0; 4];
        let enc = c.encode_utf8(&mut buf).as_bytes();
        if c != '/' && bytes[pos..].starts_with(enc) {
            pos += enc.len();
            continue;
        }
        if unreserved(c) {
            return None;
        }
        for &byte in enc {
            match bytes.get(pos..pos + 3) {
                Some([b'%', hi, lo]) if hex(*hi)? == byte >> 4 && hex(*lo)? == byte & 0xF => pos += 3,
                _ => return None,
            }
        }
    }
    Some(pos)
}

/// The (element, position) pairs known not to match, when remembering pays.
struct Memo {
    bits: SmallVec<[u64; 8]>,
    width: usize,
}

impl Memo {
    fn new(on: bool, elems: usize, width: usize) -> Self {
        let bits = if on { SmallVec::from_elem(0, (elems * width).div_ceil(64)) } else { SmallVec::new() };
        Memo { bits, width }
    }

    fn failed(&self, i: usize, pos: usize) -> bool {
        let at = i * self.width + pos;
        self.bits.get(at / 64).is_some_and(|w| w >> (at % 64) & 1 == 1)
    }

    fn fail(&mut self, i: usize, pos: usize) {
        let at = i * self.width + pos;
        if let Some(w) = self.bits.get_mut(at / 64) {
            *w |= 1 << (at % 64);
        }
    }
}

/// Whether `re` is matched by hand and so certainly compiles with
/// `regex-lite` too, which startup then need not check by compiling it:
/// its shape is recognised and its counted repetitions are small (a large
/// count such as `\d{1000000}` can exceed `regex-lite`'s size limit).
pub(crate) fn compiles(re: &str) -> bool {
    const SMALL: u32 = 1000;
    parse(re).is_some_and(|elems| {
        elems.iter().all(|e| match *e {
            Elem::Rep { min, max, .. } => min <= SMALL && (max <= SMALL || max == u32::MAX),
            _ => true,
        })
    })
}

/// The elements of a variable's regex `re` (matched as `(?:re)`), or `None`
/// when it is not made of the shapes handled here.
fn parse(re: &str) -> Option<Vec<Elem>> {
    if !re.is_ascii() {
        return None;
    }
    let mut p = Parser { b: re.as_bytes(), i: 0 };
    let elems = p.alternation()?;
    (p.i == p.b.len()).then_some(elems)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

/// A parsed atom before its repetition is known.
enum Atom {
    Char(u8),
    Class(Class),
    /// A group: its elements.
    Group(Vec<Elem>),
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    /// Branches separated by `|` up to `)` or the end: one branch is its
    /// elements; several must each be literal text, and make one `Alt`.
    fn alternation(&mut self) -> Option<Vec<Elem>> {
        let mut branches = vec![self.sequence()?];
        while self.peek() == Some(b'|') {
            self.i += 1;
            branches.push(self.sequence()?);
        }
        if branches.len() == 1 {
            return branches.pop();
        }
        let alts: Option<Vec<Box<str>>> = branches.iter().map(|b| literal(b).map(Into::into)).collect();
        Some(vec![Elem::Alt(alts?.into())])
    }

    fn sequence(&mut self) -> Option<Vec<Elem>> {
        let mut out: Vec<Elem> = Vec::new();
        loop {
            let atom = match self.peek() {
                None | Some(b'|' | b')') => break,
                Some(b'(') => Atom::Group(self.group()?),
                Some(b'[') => Atom::Class(self.class()?),
                Some(b'.') => {
                    self.i += 1;
                    Atom::Class(Class::dot())
                }
                Some(b'\\') => {
                    let e = self.peek_at(1)?;
                    self.i += 2;
                    match Class::perl(e) {
                        Some(class) => Atom::Class(class),
                        None if escapable(e) => Atom::Char(e),
                        None => return None,
                    }
                }
                Some(c) if c.is_ascii_graphic() && !b"+*?{}[]^$#".contains(&c) => {
                    self.i += 1;
                    Atom::Char(c)
                }
                Some(_) => return None,
            };
            let (min, max) = self.repetition()?;
            match atom {
                Atom::Char(c) if (min, max) == (1, 1) => push_text(&mut out, &char::from(c).to_string()),
                Atom::Char(c) => out.push(Elem::Rep { class: Class::byte(c), min, max }),
                Atom::Class(class) => out.push(Elem::Rep { class, min, max }),
                Atom::Group(elems) if (min, max) == (1, 1) => {
                    for e in elems {
                        match e {
                            Elem::Exact(s) => push_text(&mut out, &s),
                            e => out.push(e),
                        }
                    }
                }
                // `(lit)?`, `(a|b)?`: the alternatives, then nothing.
                Atom::Group(elems) if (min, max) == (0, 1) => {
                    let mut alts: Vec<Box<str>> = match elems.as_slice() {
                        [Elem::Alt(alts)] => alts.to_vec(),
                        _ => vec![literal(&elems)?.into()],
                    };
                    alts.push("".into());
                    out.push(Elem::Alt(alts.into()));
                }
                Atom::Group(_) => return None,
            }
        }
        Some(out)
    }

    /// `(...)` or `(?:...)`; flags and named groups are not handled.
    fn group(&mut self) -> Option<Vec<Elem>> {
        self.i += 1;
        if self.peek() == Some(b'?') {
            if self.peek_at(1) != Some(b':') {
                return None;
            }
            self.i += 2;
        }
        let elems = self.alternation()?;
        if self.peek() != Some(b')') {
            return None;
        }
        self.i += 1;
        Some(elems)
    }

    /// The greedy repetition after an atom: `(1, 1)` when none. A lazy or
    /// doubled repetition is not handled.
    fn repetition(&mut self) -> Option<(u32, u32)> {
        let rep = match self.peek() {
            Some(b'+') => (1, u32::MAX),
            Some(b'*') => (0, u32::MAX),
            Some(b'?') => (0, 1),
            Some(b'{') => {
                self.i += 1;
                let min = self.decimal()?;
                let max = if self.peek() == Some(b',') {
                    self.i += 1;
                    if self.peek() == Some(b'}') {
                        u32::MAX
                    } else {
                        self.decimal()?
                    }
                } else {
                    min
                };
                if self.peek() != Some(b'}') || min > max {
                    return None;
                }
                (min, max)
            }
            _ => return Some((1, 1)),
        };
        self.i += 1;
        if matches!(self.peek(), Some(b'+' | b'*' | b'?' | b'{')) {
            return None;
        }
        Some(rep)
    }

    fn decimal(&mut self) -> Option<u32> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        // Nine digits at most: a bound stays below `u32::MAX` (no bound).
        if self.i == start || self.i - start > 9 {
            return None;
        }
        std::str::from_utf8(&self.b[start..self.i]).ok()?.parse().ok()
    }

    /// A bracketed class, as `regex-lite` reads one: `^` negates, leading
    /// `-` and a first `]` are literal, `a-z` is a range unless the `-` is
    /// followed by `]` or `-`. Nested and POSIX classes, set operations and
    /// escapes other than `\d \s \w` (and negations) and punctuation are not
    /// handled.
    fn class(&mut self) -> Option<Class> {
        self.i += 1;
        let negated = self.peek() == Some(b'^');
        if negated {
            self.i += 1;
        }
        let mut set = Class::NONE;
        let mut empty = true;
        while self.peek() == Some(b'-') {
            set = set.union(Class::byte(b'-'));
            self.i += 1;
            empty = false;
        }
        if empty && self.peek() == Some(b']') {
            set = set.union(Class::byte(b']'));
            self.i += 1;
        }
        loop {
            match (self.peek()?, self.peek_at(1)) {
                (b'[', _) | (b'&', Some(b'&')) | (b'-', Some(b'-')) | (b'~', Some(b'~')) => return None,
                (b']', _) => {
                    self.i += 1;
                    break;
                }
                _ => {
                    let lo = self.class_item()?;
                    let range = self.peek() == Some(b'-') && !matches!(self.peek_at(1), Some(b']' | b'-') | None);
                    if !range {
                        set = set.union(lo.either(Class::byte, |c| c));
                        continue;
                    }
                    self.i += 1;
                    let (ClassItem::Char(lo), ClassItem::Char(hi)) = (lo, self.class_item()?) else { return None };
                    if lo > hi {
                        return None;
                    }
                    set = set.union(Class::of_ranges(&[(lo, hi)]));
                }
            }
        }
        Some(if negated { set.negate() } else { set })
    }

    fn class_item(&mut self) -> Option<ClassItem> {
        let c = self.peek()?;
        self.i += 1;
        if c != b'\\' {
            return Some(ClassItem::Char(c));
        }
        let e = self.peek()?;
        self.i += 1;
        match Class::perl(e) {
            Some(class) => Some(ClassItem::Set(class)),
            None if escapable(e) => Some(ClassItem::Char(e)),
            None => None,
        }
    }
}

enum ClassItem {
    Char(u8),
    Set(Class),
}

impl ClassItem {
    fn either(self, char: impl FnOnce(u8) -> Class, set: impl FnOnce(Class) -> Class) -> Class {
        match self {
            ClassItem::Char(c) => char(c),
            ClassItem::Set(s) => set(s),
        }
    }
}

/// ASCII punctuation that `regex-lite` reads escaped as itself (`\<` and
/// `\>` are word boundaries there).
fn escapable(c: u8) -> bool {
    c.is_ascii_punctuation() && c != b'<' && c != b'>'
}

/// Appends literal text, joined to a preceding literal.
fn push_text(out: &mut Vec<Elem>, text: &str) {
    if let Some(Elem::Exact(prev)) = out.last_mut() {
        *prev = format!("{prev}{text}").into();
    } else {
        out.push(Elem::Exact(text.into()));
    }
}

/// The text of elements that are literal text only (`""` for none).
fn literal(elems: &[Elem]) -> Option<&str> {
    match elems {
        [] => Some(""),
        [Elem::Exact(s)] => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use regex_lite::Regex;

    use super::{parse, Elem, Fast};
    use crate::router::matcher::regex_source;
    use crate::router::template;

    /// The captures of the fast matcher on `text`.
    fn fast(f: &Fast, text: &str) -> Option<Vec<(usize, usize)>> {
        let mut caps = Vec::new();
        f.captures(text, |s, e| caps.push((s, e))).then_some(caps)
    }

    /// The captures of the regex the router would compile otherwise.
    fn slow(re: &Regex, count: usize, text: &str) -> Option<Vec<(usize, usize)>> {
        let caps = re.captures(text)?;
        Some((0..count).map(|i| caps.name(&format!("__rl{i}")).map_or((0, 0), |m| (m.start(), m.end()))).collect())
    }

    /// A small deterministic generator (xorshift), so that failures repeat.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Characters the test texts are made of: every kind the recognised
    /// classes tell apart, escapes, separators and non-ASCII text.
    const ALPHABET: &[&str] = &[
        "0", "7", "9", "a", "f", "z", "A", "F", "Z", "_", "-", ".", "~", "/", "%", "2", "x", "q", "\n", " ", "\t", "é",
        "€", "%2F", "%2f", "%40", "@", "%C3%A9", "js", "on", "]", "^", "\\",
    ];

    /// Random and exhaustive short texts, each checked against `regex-lite`.
    fn agree(template_src: &str, extra: &[&str]) {
        let t = template::parse(template_src).unwrap_or_else(|e| panic!("{template_src}: {e:?}"));
        let start = t.tail_start.unwrap_or(0);
        let segments = if t.tail_start.is_some() { &t.segments[start..] } else { &t.segments[t.segments.len() - 1..] };
        let f = Fast::of(&t, segments).unwrap_or_else(|| panic!("{template_src}: not recognised"));
        let (src, count) = regex_source(&t, segments);
        let re = Regex::new(&src).unwrap();
        let mut alphabet: Vec<&str> = ALPHABET.to_vec();
        alphabet.extend_from_slice(extra);
        let check = |text: &str| {
            assert_eq!(fast(&f, text), slow(&re, count, text), "{template_src} on {text:?} (regex {src})");
        };
        // Every text of up to three pieces of the alphabet.
        check("");
        for a in &alphabet {
            check(a);
            for b in &alphabet {
                check(&format!("{a}{b}"));
                for c in &alphabet {
                    check(&format!("{a}{b}{c}"));
                }
            }
        }
        // Longer random texts, and texts built around the literals given.
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..5_000 {
            let len = rng.below(12);
            let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            check(&text);
        }
    }

    #[test]
    fn fast_matchers_agree_with_regex_lite() {
        let cases: &[(&str, &[&str])] = &[
            ("/u/{id: \\d+}", &[]),
            ("/u/{id: [0-9]+}", &[]),
            ("/u/{id: \\d{3}}", &["123", "12"]),
            ("/u/{id: \\d{2,4}}", &["123", "12345"]),
            ("/u/{id: \\d{2,}}", &["123"]),
            ("/u/{name: [a-z]+}", &[]),
            ("/u/{name: [A-Za-z0-9_-]+}", &[]),
            ("/u/{name: [a-z]*}", &[]),
            ("/u/{name: [a-f]{1,3}}", &[]),
            ("/u/{name: [^/]+}", &[]),
            ("/u/{name: [^/]}", &[]),
            ("/u/{name: [-a]+}", &[]),
            ("/u/{name: []a]+}", &[]),
            ("/u/{name: [^]a]+}", &[]),
            ("/u/{name: [a-]+}", &[]),
            ("/u/{name: [\\w.-]+}", &[]),
            ("/u/{name: [\\d\\-]+}", &[]),
            ("/u/{name: [\\D]+}", &[]),
            ("/u/{name: [^\\s]+}", &[]),
            ("/u/{name: \\w+}", &[]),
            ("/u/{name: \\W+}", &[]),
            ("/u/{name: \\S*}", &[]),
            ("/u/{name: \\s?}", &[]),
            ("/u/{name: a+b*}", &["aab"]),
            ("/u/{v: v\\.?\\d+}", &["v1", "v.2"]),
            ("/u/{me: me}", &["me"]),
            ("/u/{f: (json|xml)}", &["json", "xml"]),
            ("/u/{f: (?:json|js)}", &["json", "js"]),
            ("/u/{f: json|js}", &["json", "js"]),
            ("/u/{f: (js|json)}", &["json", "js"]),
            ("/u/{f: (a|)}", &["a"]),
            ("/u/{f: (?:\\.json)?}", &[".json"]),
            ("/u/{f: (?:x|y)?}", &[]),
            ("/u/{f: (\\d+)}", &[]),
            ("/u/{f: x(?:[a-z]+)y}", &[]),
            ("/u/f{c1: [^/]}o", &["fo", "foo"]),
            ("/u/b{c2: [^/]*}r", &["br", "bar", "baar"]),
            ("/u/{a: \\d+}-{b: \\d+}", &["1-2", "12-"]),
            ("/u/{a: [^/]*}{b: [^/]*}", &[]),
            ("/u/{a: [a-z]*}{b}", &[]),
            ("/u/{a: \\d*}{b: [0-9a-f]+}{c: \\w?}", &[]),
            ("/u/{a: \\d+}@{b}", &[]),
            ("/u/{a: \\d+}é{b}", &[]),
            ("/u/{a: \\d+}~{b}", &[]),
            ("/u/{name}.{ext: (json|xml)}", &[".json"]),
            ("/f/{rest: .*}", &[]),
            ("/f/{rest: .+}", &[]),
            ("/f/{rest: .*}/{c3: [^/][^/]}x5", &["x5", "ab", "/ab"]),
            ("/f/{rest: .*}/end", &["end", "/end"]),
            ("/f/{a: .*}/{b: .*}", &[]),
            ("/f/{a: [a-z/]+}/{b}", &[]),
            ("/f/{a: .*}.{ext: (json|xml)}", &["json", "xml", ".json"]),
        ];
        for (template_src, extra) in cases {
            agree(template_src, extra);
        }
    }

    #[test]
    fn recognises_the_common_shapes() {
        let rep = |re: &str| match parse(re).as_deref() {
            Some([Elem::Rep { min, max, .. }]) => Some((*min, *max)),
            _ => None,
        };
        assert_eq!(rep("\\d+"), Some((1, u32::MAX)));
        assert_eq!(rep("[0-9]{4}"), Some((4, 4)));
        assert_eq!(rep("\\d{2,5}"), Some((2, 5)));
        assert_eq!(rep("[A-Za-z0-9_-]*"), Some((0, u32::MAX)));
        assert_eq!(rep("[^/]+"), Some((1, u32::MAX)));
        assert_eq!(rep(".*"), Some((0, u32::MAX)));
        assert_eq!(parse("(a|b|c)"), Some(vec![Elem::Alt(vec!["a".into(), "b".into(), "c".into()].into())]));
        assert_eq!(parse("v1\\.0"), Some(vec![Elem::Exact("v1.0".into())]));
    }

    #[test]
    fn leaves_other_regexes_to_regex_lite() {
        for re in [
            "(?i)abc",
            "\\d+?",
            "\\d++",
            "a{,3}",
            "a{ 2}",
            "[[:alpha:]]+",
            "[a&&b]",
            "[a--b]",
            "\\p{L}",
            "\\x41",
            "[\\x41]",
            "\\n",
            "^a",
            "a$",
            "\\bx",
            "\\<x",
            "é+",
            "(?P<n>a)",
            "(?<n>a)",
            "(a|b)+",
            "(\\d+|x)",
            "(?:/.*)?",
            "(a",
            "a)",
            "[a",
        ] {
            assert!(parse(re).is_none(), "{re} should be left to regex-lite");
        }
    }

    /// Random regexes from the pieces of the syntax: whatever the
    /// recogniser takes must compile with `regex-lite` and match as it does.
    #[test]
    fn random_regexes_taken_by_hand_agree_with_regex_lite() {
        const PIECES: &[&str] = &[
            "a", "b", "0", "-", "/", ".", "\\d", "\\w", "\\S", "\\.", "\\-", "[", "]", "^", "(", ")", "(?:", "|", "+",
            "*", "?", "{2}", "{1,3}", "{2,}", "{,2}", "[a-c]", "[^/]", "[-]", "[]]", "a-z", "%", "&", "~", "$", "{",
        ];
        const TEXT: &[&str] = &["a", "b", "c", "0", "-", "/", ".", "_", "é", "%2F", "]", "^", "x"];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut taken = 0;
        for _ in 0..40_000 {
            let len = 1 + rng.below(7);
            let re: String = (0..len).map(|_| PIECES[rng.below(PIECES.len())]).collect();
            if parse(&re).is_none() {
                continue;
            }
            taken += 1;
            assert!(super::compiles(&re), "{re}: taken by hand, but said not to compile");
            let src = format!("/u/{{v: {re}}}");
            let Ok(t) = template::parse(&src) else { continue };
            let segments = match t.tail_start {
                Some(start) => &t.segments[start..],
                None => &t.segments[t.segments.len() - 1..],
            };
            let f = Fast::of(&t, segments).unwrap_or_else(|| panic!("{src}: not recognised"));
            let (regex_src, count) = regex_source(&t, segments);
            let regex = Regex::new(&regex_src).unwrap_or_else(|e| panic!("{re}: taken by hand, but {e}"));
            for _ in 0..200 {
                let text: String = (0..rng.below(6)).map(|_| TEXT[rng.below(TEXT.len())]).collect();
                assert_eq!(fast(&f, &text), slow(&regex, count, &text), "{src} on {text:?}");
            }
        }
        assert!(taken > 1000, "only {taken} random regexes were taken by hand");
    }

    #[test]
    fn many_branching_elements_stay_polynomial() {
        // Exponential for a plain backtracking search: the failures are remembered.
        let t = template::parse("/u/{a: [^/]*}{b: [^/]*}{c: [^/]*}{d: [^/]*}{e: [^/]*}{f: [^/]*}x").unwrap();
        let f = Fast::of(&t, &t.segments[1..]).unwrap();
        let text = "a".repeat(300);
        assert_eq!(fast(&f, &text), None);
        assert_eq!(fast(&f, &format!("{text}x")).map(|c| c[0]), Some((0, 300)));
    }
}
