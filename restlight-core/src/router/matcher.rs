//! The compiled matcher: a table of static paths and a segment trie for
//! the rest, walked over the request path's segments (read in place for a
//! plain path, see `decode::Segments`). Literal segments are found in a
//! node's open-addressed table of literal children, compared as two words
//! and a length; a segment that is one variable without a regex is taken
//! whole, other variables without a regex are matched by plain string
//! scanning; constrained variables are matched against the raw segment,
//! and multi-segment variables against the raw rest of the path, by a
//! hand-written matcher when their regexes have the common shapes (`\d+`,
//! `[a-z]{2,8}`, `[^/]+`, `.*`, `(json|xml)`: see `fast`), else by one
//! `regex-lite` regex. Every matching template is found and the best group
//! wins; subtrees that cannot beat the best so far are pruned.

use std::borrow::Cow;
use std::fmt::Write as _;

use regex_lite::Regex;
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use super::decode::{parse_path, Segments};
use super::fast::Fast;
use super::inline::InlineVec;
use super::regexes::raw_literal;
use super::template::{write_shape, write_var, Piece, Template};

/// Where a variable's value sits in the parsed path. Offsets are `u32` (a
/// request path is far shorter than 4 GiB), so that the captures a lookup
/// moves around stay small.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cap {
    /// A byte range of a decoded segment.
    Decoded { seg: u32, start: u32, end: u32 },
    /// A byte range of the raw path: decode before use.
    Raw { start: u32, end: u32 },
}

impl Cap {
    /// A capture of `start..end` in decoded segment `seg`.
    fn decoded(seg: usize, start: usize, end: usize) -> Self {
        Self::Decoded { seg: offset(seg), start: offset(start), end: offset(end) }
    }

    /// A capture of `start..end` of the raw path.
    fn raw(start: usize, end: usize) -> Self {
        Self::Raw { start: offset(start), end: offset(end) }
    }

    /// The captured length in bytes (before decoding, for a raw capture).
    pub(crate) fn len(&self) -> usize {
        match *self {
            Self::Decoded { start, end, .. } | Self::Raw { start, end } => (end - start) as usize,
        }
    }
}

/// `i` as a capture offset (paths longer than 4 GiB do not reach the router).
fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The captures of one match, or of the descent so far: in place for up
/// to eight variables, so that a lookup does not allocate.
pub(crate) type Caps = InlineVec<Cap, 8>;

impl Default for Cap {
    /// An empty raw range (fills the unused places of [`Caps`]).
    fn default() -> Self {
        Self::Raw { start: 0, end: 0 }
    }
}

/// The matcher over all template groups; group ids are precedence ranks
/// (0 is the best).
#[derive(Debug, Default)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    /// Decoded segments joined by `/` -> (group, final), for templates
    /// without variables. `final`: no template with variables beats it on the
    /// path written exactly as the key (only one whose variables can all be
    /// empty could), so the trie need not be searched.
    statics: Statics,
    /// Bit `min(len, 63)` set for the length of each key of `statics`: a
    /// path of another length is no static route, and is not looked up.
    static_lens: u64,
}

/// The static table ([`Tree::statics`]): a map while the tree is built;
/// once it is finished, its keys in a [`Literals`] table, as a node's
/// literal children are (a key of up to 16 bytes found by two words and
/// its length, without hashing or comparing its text), over its entries.
#[derive(Debug, Default)]
struct Statics {
    /// The keys and entries until [`Tree::finish`], then empty.
    building: HashMap<Box<str>, (usize, bool)>,
    /// The keys once finished: each one's child is its index in `entries`.
    keys: Literals,
    entries: Box<[(usize, bool)]>,
}

impl Statics {
    /// The entry of `key` (the tree finished). Out of line: the probe
    /// inlined here stays out of the lookups that call it.
    #[inline(never)]
    fn get(&self, key: &str) -> Option<(usize, bool)> {
        self.keys.get(key.as_bytes()).and_then(|i| self.entries.get(i).copied())
    }

    /// Moves the map's keys and entries into the finished table.
    fn finish(&mut self) {
        let building = std::mem::take(&mut self.building);
        let mut keys = Vec::with_capacity(building.len());
        let mut entries = Vec::with_capacity(building.len());
        for (i, (key, entry)) in building.into_iter().enumerate() {
            keys.push(Key::new(&key, i));
            entries.push(entry);
        }
        self.keys = Literals::of(keys);
        self.entries = entries.into_boxed_slice();
    }
}

/// The bit of [`Tree::static_lens`] for a key of `len` bytes.
#[inline]
fn len_bit(len: usize) -> u64 {
    1 << len.min(63)
}

#[derive(Debug, Default)]
struct Node {
    literal: Literals,
    /// Segments with variables: (matcher, child node).
    patterns: Vec<(SegMatcher, usize)>,
    /// Templates whose rest, from this segment on, is one regex: few
    /// nodes have any, so they are boxed and the node stays small.
    tails: Option<Box<Tails>>,
    leaf: Option<usize>,
    /// The best group in this subtree (for pruning).
    best: usize,
    /// One way on from this node, so a walk never comes back to it:
    /// literal children only, or one pattern child and nothing else (no
    /// literal child, no tail). Set by [`Tree::finish`].
    linear: bool,
}

/// The literal children of a node, by segment text, in an open-addressed
/// table keyed by their text read as two words (see [`words`]): a segment
/// of up to 16 bytes is compared in two word comparisons and its length,
/// cheaper than hashing the segment or comparing bytes, whatever the
/// number of children.
#[derive(Debug, Default)]
struct Literals {
    /// The children.
    keys: Box<[Key]>,
    /// The table over `keys`: a power of two of slots, at least twice as
    /// many as children (so some slot is always empty), each 0 when empty
    /// or 1 + the index of a child in `keys`; a key's first slot is
    /// [`slot_of`] its words, then the next ones, wrapping around.
    slots: Slots,
}

/// The slots of [`Literals`]: two bytes each, four for a node with more
/// than 65,534 literal children.
#[derive(Debug)]
enum Slots {
    Narrow(Box<[u16]>),
    Wide(Box<[u32]>),
}

impl Default for Slots {
    fn default() -> Self {
        Slots::Narrow(Box::default())
    }
}

/// One of a node's literal children.
#[derive(Debug)]
struct Key {
    /// [`words`] of the text.
    words: [u64; 2],
    /// The text's length.
    len: u32,
    child: u32,
    /// The text when longer than 16 bytes; up to 16, its words and length
    /// are the text, and nothing else is kept (nor allocated).
    long: Option<Box<str>>,
}

impl Key {
    fn new(text: &str, child: usize) -> Self {
        Key {
            words: words(text.as_bytes()),
            len: u32::try_from(text.len()).unwrap_or(u32::MAX),
            child: u32::try_from(child).unwrap_or(u32::MAX),
            long: (text.len() > 16).then(|| text.into()),
        }
    }

    /// Whether the key's text is `text`, whose words are `words`.
    #[inline]
    fn is(&self, text: &[u8], words: [u64; 2]) -> bool {
        self.len as usize == text.len()
            && self.words == words
            && self.long.as_deref().is_none_or(|long| long.as_bytes() == text)
    }
}

/// The bytes of a segment as two words, which tell apart any two texts of
/// the same length up to 16 bytes: its first and last eight bytes (which
/// overlap below 16), its first and last four below 8, its first, middle and
/// last byte below 4. Above 16 bytes the first word folds in every eight
/// bytes but the last (so texts that share a long prefix still spread over
/// the table) and equal words no longer mean equal texts.
#[inline]
fn words(b: &[u8]) -> [u64; 2] {
    let n = b.len();
    let first = |b: &[u8]| b.first_chunk().map_or(0, |w| u64::from_le_bytes(*w));
    let last = |b: &[u8]| b.last_chunk().map_or(0, |w| u64::from_le_bytes(*w));
    let half = |w: Option<&[u8; 4]>| w.map_or(0, |w| u64::from(u32::from_le_bytes(*w)));
    match n {
        17.. => {
            // Every eight bytes before the last eight, and the eight that
            // end there when they do not fall on a multiple of eight.
            let head = &b[..n - 8];
            let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
            let mut folded = head.chunks_exact(8).fold(0, |h, c| mix(h, first(c)));
            if !head.len().is_multiple_of(8) {
                folded = mix(folded, last(head));
            }
            [folded, last(b)]
        }
        8.. => [first(b), last(b)],
        4.. => [half(b.first_chunk()) | half(b.last_chunk()) << 32, 0],
        1.. => [u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16, 0],
        0 => [0, 0],
    }
}

/// The multiplier of [`slot_of`] and of the fold in [`words`] (the golden
/// ratio in 64 bits, as Fibonacci hashing uses it).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// The first slot of a child whose text of `len` bytes has `words`, in a
/// table of `mask` + 1 slots (a power of two): the bits mixed by a
/// multiplication, as many of the highest kept as the table needs (every
/// bit of the words reaches those, where a lower bit of the product
/// depends only on the bits below it).
#[inline]
fn slot_of(words: [u64; 2], len: usize, mask: usize) -> usize {
    let mixed = words[0] ^ words[1].rotate_left(29) ^ len as u64;
    // `mask` is 2^b - 1, with 64 - b leading zeros: the top b bits are kept.
    let high = mixed.wrapping_mul(K) >> ((mask as u64).leading_zeros() % 64);
    high as usize & mask
}

impl Literals {
    /// The child for segment `text`. Inlined into the walk: a node without
    /// literal children (most nodes below a variable) answers at once, and
    /// a short segment's probe is a few instructions.
    #[inline(always)]
    fn get(&self, text: &[u8]) -> Option<usize> {
        if self.keys.is_empty() {
            return None;
        }
        match &self.slots {
            Slots::Narrow(slots) => self.search(slots, text),
            Slots::Wide(slots) => self.search(slots, text),
        }
    }

    /// The child for `text` among `slots`. A text of up to 16 bytes is
    /// equal to a key exactly when its words and length are, so its probe
    /// compares nothing else and calls nothing. A longer one goes to
    /// [`search_long`](Self::search_long).
    #[inline]
    fn search<S: Copy + Into<u32>>(&self, slots: &[S], text: &[u8]) -> Option<usize> {
        if text.len() > 16 {
            return self.search_long(slots, text);
        }
        let words = words(text);
        self.probe(slots, words, text.len(), |key| key.len as usize == text.len() && key.words == words)
    }

    /// [`search`](Self::search) for a text longer than 16 bytes, whose
    /// words do not tell it apart from another of its length: each key
    /// found by them is compared whole. Out of line, so that the common
    /// probe saves no registers for its comparison.
    #[cold]
    #[inline(never)]
    fn search_long<S: Copy + Into<u32>>(&self, slots: &[S], text: &[u8]) -> Option<usize> {
        let words = words(text);
        self.probe(slots, words, text.len(), |key| key.is(text, words))
    }

    /// The child of the first key `is_it` takes, trying the slots from the
    /// first of a text of `len` bytes with `words` on, up to an empty one.
    #[inline(always)]
    fn probe<S: Copy + Into<u32>>(
        &self,
        slots: &[S],
        words: [u64; 2],
        len: usize,
        is_it: impl Fn(&Key) -> bool,
    ) -> Option<usize> {
        let mask = slots.len() - 1;
        let mut at = slot_of(words, len, mask);
        loop {
            let i = usize::try_from((*slots.get(at)?).into()).ok()?.checked_sub(1)?;
            let key = self.keys.get(i)?;
            if is_it(key) {
                return Some(key.child as usize);
            }
            at = (at + 1) & mask;
        }
    }

    /// Whether the node has literal children.
    fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Makes the table of `children` (text and child node), once the tree
    /// is built.
    fn of(children: Vec<Key>) -> Self {
        if children.is_empty() {
            return Literals::default();
        }
        let slots = if children.len() < usize::from(u16::MAX) {
            Slots::Narrow(table(&children))
        } else {
            Slots::Wide(table(&children))
        };
        Literals { keys: children.into_boxed_slice(), slots }
    }
}

/// The slots over `keys` (see [`Literals::slots`]), each an `S`, which
/// holds 1 + the index of any key.
fn table<S: Copy + Default + PartialEq + TryFrom<usize>>(keys: &[Key]) -> Box<[S]> {
    let mask = (keys.len() * 2).next_power_of_two() - 1;
    let mut slots = vec![S::default(); mask + 1];
    for (i, key) in keys.iter().enumerate() {
        let mut at = slot_of(key.words, key.len as usize, mask);
        while slots[at] != S::default() {
            at = (at + 1) & mask;
        }
        slots[at] = S::try_from(i + 1).unwrap_or_default();
    }
    slots.into_boxed_slice()
}

/// What building the tree needs and the tree does not keep: the literal
/// children of every node in one map (borrowing the route entries' text,
/// not the templates', so that the templates can be freed before the tree
/// is finished; a literal decoded from an escape is the map's own copy), and
/// the shapes of pattern segments, which find the child an equivalent
/// segment shares (lookups never read them). Each node's own table is
/// made once, sized, when the tree is finished.
#[derive(Debug, Default)]
pub(crate) struct Build<'e> {
    literals: HashMap<(usize, Cow<'e, str>), usize>,
    /// The segment being added, written as its shape.
    shape: String,
    /// The shapes of all pattern children, one after the other: one
    /// buffer, not a string per child.
    shapes: String,
    /// Where each pattern child's shape is in `shapes`, by child node
    /// (grown as pattern children are made).
    shape_at: Vec<(usize, usize)>,
}

#[derive(Debug)]
enum SegMatcher {
    /// One unconstrained variable and nothing else (`{id}`): the whole
    /// decoded segment, when it is not empty.
    Var,
    /// Literals and unconstrained variables, against the decoded segment.
    Plain(Vec<Plain>),
    /// Constrained variables, against the raw segment. Boxed: a compiled
    /// regex is 80 bytes, and every pattern child (most of them `{id}`)
    /// would be as large.
    Regex(Box<Compiled>),
}

#[derive(Debug)]
enum Plain {
    Lit(Box<str>),
    Var,
}

/// A node's tails.
#[derive(Debug, Default)]
struct Tails {
    tails: Vec<Tail>,
    /// The tails by the literal text the path must end with, so that a
    /// lookup runs only the regexes that can match.
    suffixes: SuffixIndex,
}

#[derive(Debug)]
struct Tail {
    regex: Compiled,
    group: usize,
}

/// Tails indexed by the unreserved literal text that ends their template
/// (`x42` of `/{rest: .*}/{c}x42`). Unreserved characters stand as
/// themselves in a raw path unless the client escaped them, so a path
/// without `%` can only match the tails filed under its own ending.
#[derive(Debug, Default)]
struct SuffixIndex {
    /// (suffix length, suffix -> tails, in group order).
    by_len: Vec<(usize, TailsBySuffix)>,
    /// Tails without such an ending: always tried.
    rest: Vec<usize>,
}

/// Suffixes of one length -> the tails ending with them.
type TailsBySuffix = HashMap<Box<str>, Vec<usize>>;

impl SuffixIndex {
    fn insert(&mut self, tail: usize, suffix: &str) {
        if suffix.is_empty() {
            self.rest.push(tail);
            return;
        }
        let at = match self.by_len.iter().position(|(len, _)| *len == suffix.len()) {
            Some(at) => at,
            None => {
                self.by_len.push((suffix.len(), HashMap::default()));
                self.by_len.len() - 1
            }
        };
        self.by_len[at].1.entry(suffix.into()).or_default().push(tail);
    }

    /// Pushes the tails that can match `raw` (which has no `%`) on `out`, in
    /// no particular order. One push per tail: collecting a chain of
    /// iterators into the list cost more than the tails' regexes.
    fn candidates(&self, raw: &str, out: &mut SmallVec<[usize; 8]>) {
        for &tail in &self.rest {
            out.push(tail);
        }
        for (len, map) in &self.by_len {
            let Some(start) = raw.len().checked_sub(*len) else { continue };
            if let Some(tails) = raw.get(start..).and_then(|suffix| map.get(suffix)) {
                for &tail in tails {
                    out.push(tail);
                }
            }
        }
    }
}

/// The trailing unreserved literal text of a template's last segment.
fn literal_suffix<'t>(t: &'t Template<'_>) -> &'t str {
    match t.segments.last().and_then(|seg| seg.last()) {
        Some(Piece::Lit(text)) => {
            let keep = text.char_indices().rev().take_while(|(_, c)| c.is_ascii_alphanumeric() || "-._~".contains(*c));
            keep.last().map_or("", |(at, _)| &text[at..])
        }
        _ => "",
    }
}

impl Tree {
    /// Adds the template of group `group`.
    ///
    /// # Errors
    /// When the combined regex of the template does not compile.
    /// What is not kept goes to `build`, handed to [`finish`](Self::finish).
    pub(crate) fn insert<'e>(&mut self, t: &Template<'e>, group: usize, build: &mut Build<'e>) -> Result<(), String> {
        if self.nodes.is_empty() {
            self.nodes.push(Node { best: usize::MAX, ..Node::default() });
        }
        let mut node = 0;
        self.nodes[node].best = self.nodes[node].best.min(group);
        let fixed = t.tail_start.unwrap_or(t.segments.len());
        for seg in &t.segments[..fixed] {
            node = match seg.as_slice() {
                [] => self.literal_child(node, Cow::Borrowed(""), build),
                [Piece::Lit(text)] => self.literal_child(node, text.clone(), build),
                _ => self.pattern_child(node, t, seg, build)?,
            };
            self.nodes[node].best = self.nodes[node].best.min(group);
        }
        if let Some(start) = t.tail_start {
            let regex = compile(t, &t.segments[start..])?;
            let n = self.nodes[node].tails.get_or_insert_with(Box::default);
            n.suffixes.insert(n.tails.len(), literal_suffix(t));
            n.tails.push(Tail { regex, group });
        } else {
            self.nodes[node].leaf = Some(group);
            if t.vars.is_empty() && !t.segments.iter().flatten().any(|p| matches!(p, Piece::Lit(l) if l.contains('/')))
            {
                let key: Vec<&str> = t.segments.iter().map(|s| s.first().map_or("", lit)).collect();
                let key = key.join("/");
                self.static_lens |= len_bit(key.len());
                self.statics.building.insert(key.into(), (group, false));
            }
        }
        Ok(())
    }

    /// Decides, once all templates are in, which static routes are final.
    pub(crate) fn finish(&mut self, build: Build<'_>) {
        self.nodes.shrink_to_fit();
        // Each node's children gathered in a list sized once, then made
        // into its table.
        let mut counts = vec![0_usize; self.nodes.len()];
        for &(node, _) in build.literals.keys() {
            counts[node] += 1;
        }
        let mut children: Vec<Vec<Key>> = counts.iter().map(|&n| Vec::with_capacity(n)).collect();
        drop(counts);
        for ((node, text), child) in build.literals {
            children[node].push(Key::new(&text, child));
        }
        for (node, children) in self.nodes.iter_mut().zip(children) {
            node.literal = Literals::of(children);
            let literals = !node.literal.is_empty();
            node.linear = node.tails.is_none() && (node.patterns.is_empty() || (!literals && node.patterns.len() == 1));
        }
        let mut finals = Vec::new();
        for (key, &(group, _)) in &self.statics.building {
            // `Router::exact_static` relies on a final key having none of
            // these, no trailing `/` and no NUL (which `parse_path` refuses).
            if key.contains(['%', ';', '?', '#']) || key.ends_with('/') {
                continue;
            }
            let path = format!("/{key}");
            let Ok(parsed) = parse_path(&path) else { continue };
            let mut caps = Caps::new();
            let mut search = Search::new(&parsed, &|_| true, None, &mut caps);
            search.best = group;
            search.visit(self, 0, 0);
            if search.best == group {
                finals.push(key.clone());
            }
        }
        for key in finals {
            if let Some(entry) = self.statics.building.get_mut(&key) {
                entry.1 = true;
            }
        }
        self.statics.finish();
    }

    fn literal_child<'e>(&mut self, node: usize, text: Cow<'e, str>, build: &mut Build<'e>) -> usize {
        let key = (node, text);
        if let Some(&child) = build.literals.get(&key) {
            return child;
        }
        let child = self.new_node();
        build.literals.insert(key, child);
        child
    }

    fn pattern_child(
        &mut self,
        node: usize,
        t: &Template<'_>,
        seg: &[Piece<'_>],
        build: &mut Build<'_>,
    ) -> Result<usize, String> {
        // One unconstrained variable (most pattern segments): its shape,
        // `/{}`, is no other kind of segment's, so the node's child of that
        // kind is the one, found without writing the shape. None is
        // recorded for it: an empty shape, which no other segment has.
        if let [Piece::Var(v)] = seg {
            if t.vars[*v].regex.is_none() {
                let patterns = &self.nodes[node].patterns;
                if let Some((_, child)) = patterns.iter().find(|(m, _)| matches!(m, SegMatcher::Var)) {
                    return Ok(*child);
                }
                return Ok(self.new_pattern_child(node, SegMatcher::Var));
            }
        }
        // Written into the reused buffer: only a new child's shape is kept,
        // appended to the shapes of the others.
        build.shape.clear();
        write_shape(&mut build.shape, std::iter::once(seg), &t.vars, write_var);
        let same = |&&(_, child): &&(SegMatcher, usize)| {
            let (start, end) = build.shape_at.get(child).copied().unwrap_or_default();
            build.shapes[start..end] == *build.shape
        };
        if let Some((_, child)) = self.nodes[node].patterns.iter().find(same) {
            return Ok(*child);
        }
        let matcher = if seg.iter().any(|p| matches!(p, Piece::Var(v) if t.vars[*v].regex.is_some())) {
            SegMatcher::Regex(Box::new(compile(t, &[seg])?))
        } else {
            SegMatcher::Plain(
                seg.iter()
                    .map(|p| match p {
                        Piece::Lit(text) => Plain::Lit((**text).into()),
                        Piece::Var(_) => Plain::Var,
                    })
                    .collect(),
            )
        };
        let child = self.new_pattern_child(node, matcher);
        if build.shape_at.len() <= child {
            build.shape_at.resize(child + 1, (0, 0));
        }
        build.shape_at[child] = (build.shapes.len(), build.shapes.len() + build.shape.len());
        build.shapes.push_str(&build.shape);
        Ok(child)
    }

    /// A new child of `node` for segments `matcher` matches.
    fn new_pattern_child(&mut self, node: usize, matcher: SegMatcher) -> usize {
        let child = self.new_node();
        let patterns = &mut self.nodes[node].patterns;
        // Most nodes have one pattern child: the first push would make
        // room for four, kept for the router's life.
        if patterns.is_empty() {
            patterns.reserve_exact(1);
        }
        patterns.push((matcher, child));
        child
    }

    fn new_node(&mut self) -> usize {
        self.nodes.push(Node { best: usize::MAX, ..Node::default() });
        self.nodes.len() - 1
    }

    /// The best group matching the path that `accept` takes; the places
    /// of its variables, in template order, are left in `caps`.
    ///
    /// `known` is the static table's entry for a plain path (no escapes, no
    /// matrix parameters), when the caller has looked it up already.
    pub(crate) fn find<S: Segments>(
        &self,
        path: &S,
        accept: &dyn Fn(usize) -> bool,
        known: Option<Option<(usize, bool)>>,
        caps: &mut Caps,
    ) -> Option<usize> {
        let entry = match known {
            Some(entry) => entry.map(|e| (e, true)),
            None => static_key(path).and_then(|(key, exact)| self.statics.get(&key).map(|e| (e, exact))),
        };
        let mut search = Search::new(path, accept, None, caps);
        if let Some(((group, is_final), exact)) = entry {
            if accept(group) {
                if is_final && exact {
                    return Some(group);
                }
                search.best = group;
            }
        }
        if !self.nodes.is_empty() {
            search.visit(self, 0, 0);
        }
        (search.best != usize::MAX).then_some(search.best)
    }

    /// The static table's entry for `key`, a plain path without its leading
    /// and trailing `/`: (group, final). A final one is a static template
    /// that no other template can beat on this exact path, so the lookup
    /// needs no parsing at all.
    #[inline]
    pub(crate) fn static_entry(&self, key: &str) -> Option<(usize, bool)> {
        if self.static_lens & len_bit(key.len()) == 0 {
            return None;
        }
        self.statics.get(key)
    }

    /// Every group matching the path, best first (for `Allow`).
    pub(crate) fn find_all<S: Segments>(&self, path: &S) -> Vec<usize> {
        let mut caps = Caps::new();
        let mut search = Search::new(path, &|_| true, Some(Vec::new()), &mut caps);
        if let Some((key, _)) = static_key(path) {
            if let Some((group, _)) = self.statics.get(&key) {
                search.record(group);
            }
        }
        if !self.nodes.is_empty() {
            search.visit(self, 0, 0);
        }
        let mut all = search.all.unwrap_or_default();
        // A few groups, found nearly in order by the walk: an insertion
        // sort, without an instance of the slice sort's code (3 KB).
        crate::sort::insertion_sort_by(&mut all, Ord::cmp);
        all.dedup();
        all
    }
}

/// The key of the static table for `path`: decoded segments joined with
/// `/`, or `None` when a decoded segment contains `/` (no static route has
/// one); with whether the raw path is exactly the key (had no escapes).
fn static_key<S: Segments>(path: &S) -> Option<(Cow<'_, str>, bool)> {
    let raw = path.raw();
    if !path.may_escape() || !raw.contains('%') {
        return Some((Cow::Borrowed(raw), true));
    }
    let texts: Vec<&str> = (0..path.count()).map(|i| path.text(i)).collect();
    if texts.iter().any(|text| text.contains('/')) {
        return None;
    }
    Some((Cow::Owned(texts.join("/")), false))
}

fn lit<'p>(piece: &'p Piece<'_>) -> &'p str {
    match piece {
        Piece::Lit(text) => text,
        Piece::Var(_) => "",
    }
}

/// A regex over raw text with the capture index of each of its variables.
/// The matcher of a constrained segment or of a tail: a hand-written one
/// when every variable's regex has one of the common shapes (see
/// `fast`), else one `regex-lite` regex.
#[derive(Debug)]
enum Compiled {
    Fast(Fast),
    Regex { regex: Regex, groups: Vec<usize> },
}

/// Compiles `segments` (joined by `/`), matched against raw text.
fn compile<'e, S: AsRef<[Piece<'e>]>>(t: &Template<'_>, segments: &[S]) -> Result<Compiled, String> {
    if let Some(fast) = Fast::of(t, segments) {
        return Ok(Compiled::Fast(fast));
    }
    let (src, count) = regex_source(t, segments);
    let regex = Regex::new(&src).map_err(|e| {
        let why = e.to_string();
        format!("cannot compile its regex: {}", why.lines().last().unwrap_or_default().trim())
    })?;
    let groups =
        (0..count).map(|i| regex.capture_names().position(|n| n == Some(&*format!("__rl{i}"))).unwrap_or(0)).collect();
    Ok(Compiled::Regex { regex, groups })
}

/// One anchored regex over raw text for `segments` (joined by `/`), and
/// its number of variables, captured as `__rl0`, `__rl1`, ...
/// Our groups are named, so groups inside the user's regexes do not matter.
pub(crate) fn regex_source<'e, S: AsRef<[Piece<'e>]>>(t: &Template<'_>, segments: &[S]) -> (String, usize) {
    let mut src = String::from("^");
    let mut count = 0;
    for (k, seg) in segments.iter().enumerate() {
        if k > 0 {
            src.push('/');
        }
        for piece in seg.as_ref() {
            match piece {
                Piece::Lit(text) => src.push_str(&raw_literal(text)),
                Piece::Var(v) => {
                    let re = t.vars[*v].regex.as_deref().unwrap_or("[^/]+");
                    let _ = write!(src, "(?P<__rl{count}>(?:{re}))");
                    count += 1;
                }
            }
        }
    }
    src.push('$');
    (src, count)
}

struct Search<'a, S> {
    path: &'a S,
    stack: Caps,
    best: usize,
    best_caps: &'a mut Caps,
    /// Which groups count as a match (e.g. those serving the method).
    accept: &'a dyn Fn(usize) -> bool,
    /// When collecting every matching group: no pruning, no best.
    all: Option<Vec<usize>>,
}

impl<'a, S: Segments> Search<'a, S> {
    fn new(path: &'a S, accept: &'a dyn Fn(usize) -> bool, all: Option<Vec<usize>>, best_caps: &'a mut Caps) -> Self {
        best_caps.clear();
        Search { path, stack: Caps::new(), best: usize::MAX, best_caps, accept, all }
    }

    /// A template of `group` matched with the captures on the stack.
    fn record(&mut self, group: usize) {
        if let Some(all) = &mut self.all {
            all.push(group);
        } else if group < self.best && (self.accept)(group) {
            self.best = group;
            self.best_caps.copy_from(&self.stack);
        }
    }

    /// Walks the subtree of `node` from segment `seg`. A node with one way
    /// on ([`Node::linear`]) is left in place, without a call; the
    /// captures of that descent stay on the stack for the caller to drop.
    fn visit(&mut self, tree: &Tree, mut node: usize, mut seg: usize) {
        let path = self.path;
        let count = path.count();
        loop {
            let n = &tree.nodes[node];
            if n.best >= self.best {
                return;
            }
            if seg == count {
                if let Some(group) = n.leaf {
                    self.record(group);
                }
                return;
            }
            if n.linear {
                // Literal children and a plain variable's child compare the
                // segment's bytes: its text is read only for other patterns.
                let next = match n.patterns.first() {
                    None => n.literal.get(path.bytes(seg)),
                    Some((SegMatcher::Var, child)) => self.var(path.bytes(seg).len(), seg).then_some(*child),
                    Some((matcher, child)) => self.segment(matcher, path.text(seg), seg).then_some(*child),
                };
                match next {
                    Some(child) => {
                        node = child;
                        seg += 1;
                        continue;
                    }
                    None => return,
                }
            }
            let text = path.text(seg);
            if let Some(child) = n.literal.get(text.as_bytes()) {
                let mark = self.stack.len();
                self.visit(tree, child, seg + 1);
                self.stack.truncate(mark);
            }
            for (matcher, child) in &n.patterns {
                let mark = self.stack.len();
                if self.segment(matcher, text, seg) {
                    self.visit(tree, *child, seg + 1);
                }
                self.stack.truncate(mark);
            }
            if let Some(tails) = &n.tails {
                self.tails(tails, seg);
            }
            return;
        }
    }

    /// Matches segment `seg` (decoded `text`) with a pattern child's
    /// matcher; pushes its captures on a match.
    #[inline]
    fn segment(&mut self, matcher: &SegMatcher, text: &str, seg: usize) -> bool {
        match matcher {
            SegMatcher::Var => self.var(text.len(), seg),
            SegMatcher::Plain(pieces) => plain(pieces, text, seg, &mut self.stack),
            SegMatcher::Regex(re) => {
                let path = self.path;
                let (start, end) = path.range(seg);
                self.regex(re, &path.raw()[start..end], start)
            }
        }
    }

    /// Matches segment `seg`, of `len` bytes, with a plain variable: any
    /// text but the empty one, captured whole.
    #[inline]
    fn var(&mut self, len: usize, seg: usize) -> bool {
        let matched = len > 0;
        if matched {
            self.stack.push(Cap::decoded(seg, 0, len));
        }
        matched
    }

    /// Tries a node's tails `n` whose regex covers the path from segment `seg`.
    fn tails(&mut self, n: &Tails, seg: usize) {
        let path = self.path;
        let start = path.range(seg).0;
        let rest = &path.raw()[start..];
        let mut candidates: SmallVec<[usize; 8]> = SmallVec::new();
        if path.may_escape() && rest.contains('%') {
            for i in 0..n.tails.len() {
                candidates.push(i);
            }
        } else {
            n.suffixes.candidates(rest, &mut candidates);
        }
        crate::sort::insertion_sort_by(&mut candidates, |&a, &b| n.tails[a].group.cmp(&n.tails[b].group));
        for i in candidates {
            let tail = &n.tails[i];
            if tail.group >= self.best {
                continue;
            }
            // Most tails tried do not match: for a regex, the cheaper test first.
            if let Compiled::Regex { regex, .. } = &tail.regex {
                if !regex.is_match(rest) {
                    continue;
                }
            }
            let mark = self.stack.len();
            if self.regex(&tail.regex, rest, start) {
                self.record(tail.group);
            }
            self.stack.truncate(mark);
        }
    }

    /// Runs a compiled matcher over all of `text`; pushes its captures
    /// (offset by `base`) on a match.
    fn regex(&mut self, re: &Compiled, text: &str, base: usize) -> bool {
        match re {
            Compiled::Fast(fast) => {
                let stack = &mut self.stack;
                fast.captures(text, |start, end| stack.push(Cap::raw(base + start, base + end)))
            }
            Compiled::Regex { regex, groups } => {
                let Some(caps) = regex.captures(text) else { return false };
                for &group in groups {
                    let (start, end) = caps.get(group).map_or((0, 0), |m| (m.start(), m.end()));
                    self.stack.push(Cap::raw(base + start, base + end));
                }
                true
            }
        }
    }
}

/// Matches literals and unconstrained variables against a decoded segment
/// like the regex `^lit(.+)lit(.+)$` would: each variable takes the longest
/// non-empty run that lets the rest match. No backtracking: time is linear
/// in the segment length (times the number of pieces).
fn plain(pieces: &[Plain], text: &str, seg: usize, stack: &mut Caps) -> bool {
    match pieces.iter().filter(|p| matches!(p, Plain::Var)).count() {
        1 => single(pieces, text, seg, stack),
        _ => multi(pieces, text, seg, stack),
    }
}

/// One variable between literal text: the variable is what the literals leave.
fn single(pieces: &[Plain], text: &str, seg: usize, stack: &mut Caps) -> bool {
    let at = pieces.iter().position(|p| matches!(p, Plain::Var)).unwrap_or(0);
    let (mut start, mut end) = (0, text.len());
    for piece in &pieces[..at] {
        if let Plain::Lit(l) = piece {
            if !text[start..].starts_with(&**l) {
                return false;
            }
            start += l.len();
        }
    }
    for piece in pieces[at + 1..].iter().rev() {
        if let Plain::Lit(l) = piece {
            if !text[..end].ends_with(&**l) {
                return false;
            }
            end -= l.len();
        }
    }
    if end <= start {
        return false;
    }
    stack.push(Cap::decoded(seg, start, end));
    true
}

/// Several variables: a table of which suffixes of the text each tail of the
/// pieces can match (computed backwards), then a greedy walk forwards.
fn multi(pieces: &[Plain], text: &str, seg: usize, stack: &mut Caps) -> bool {
    let (n, bytes) = (text.len(), text.as_bytes());
    let width = n + 1;
    // feasible[i * width + pos]: pieces[i..] match text[pos..].
    let mut feasible = vec![false; (pieces.len() + 1) * width];
    feasible[pieces.len() * width + n] = true;
    for (i, piece) in pieces.iter().enumerate().rev() {
        let (row, next) = feasible[i * width..].split_at_mut(width);
        match piece {
            // A literal starts on a character boundary whenever it matches.
            Plain::Lit(l) => {
                for pos in 0..=n.saturating_sub(l.len()) {
                    row[pos] = next[pos + l.len()] && bytes[pos..].starts_with(l.as_bytes());
                }
            }
            Plain::Var => {
                let mut later = false; // some end > pos is feasible for the rest
                for pos in (0..=n).rev() {
                    row[pos] = later && text.is_char_boundary(pos);
                    later |= next[pos];
                }
            }
        }
    }
    if !feasible[0] {
        return false;
    }
    let mut pos = 0;
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Plain::Lit(l) => pos += l.len(),
            Plain::Var => {
                let next = &feasible[(i + 1) * width..(i + 2) * width];
                let end = (pos + 1..=n).rev().find(|&e| next[e]).unwrap_or(n);
                stack.push(Cap::decoded(seg, pos, end));
                pos = end;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{slot_of, Key, Literals, Slots};

    fn literals(texts: &[String]) -> Literals {
        Literals::of(texts.iter().enumerate().map(|(child, t)| Key::new(t, child)).collect())
    }

    #[test]
    fn more_children_than_two_bytes_count_take_four_byte_slots() {
        let texts: Vec<String> = (0..70_000).map(|i| format!("n{i}")).collect();
        let table = literals(&texts);
        assert!(matches!(table.slots, Slots::Wide(_)));
        for (child, text) in texts.iter().enumerate().step_by(997) {
            assert_eq!(table.get(text.as_bytes()), Some(child), "{text}");
        }
        assert_eq!(table.get(b"n70000"), None);
        assert_eq!(table.get(b"n"), None);
    }

    #[test]
    fn fewer_take_two_byte_slots() {
        let texts: Vec<String> = (0..1_000).map(|i| format!("n{i}")).collect();
        let table = literals(&texts);
        assert!(matches!(table.slots, Slots::Narrow(_)));
        for (child, text) in texts.iter().enumerate() {
            assert_eq!(table.get(text.as_bytes()), Some(child), "{text}");
        }
        assert_eq!(table.get(b"n1000"), None);
        assert_eq!(literals(&[]).get(b"n1"), None);
    }

    #[test]
    fn every_length_is_found_and_a_text_one_byte_off_is_not() {
        // Up to 16 bytes a key is told apart by its words and length
        // alone; past 16, by the whole text.
        let texts: Vec<String> =
            (0..=40u32).map(|n| (0..n).map(|i| char::from(b'a' + ((i * 7 + n) % 26) as u8)).collect()).collect();
        let table = literals(&texts);
        for (child, text) in texts.iter().enumerate() {
            assert_eq!(table.get(text.as_bytes()), Some(child), "{text}");
            for at in 0..text.len() {
                let mut off = text.clone().into_bytes();
                off[at] = b'_';
                assert_eq!(table.get(&off), None, "{text} with byte {at} changed");
            }
        }
    }

    #[test]
    fn texts_that_differ_in_a_few_bytes_spread_over_the_table() {
        // Each key's distance from its first slot to where it sits: a few
        // slots at most, where a hash blind to some of a text's bytes (the
        // product's middle bits, a fold that skips bytes of a long text)
        // would send most of a family to one run of slots.
        for texts in [
            (0..1_000).map(|i| format!("bar{i}")).collect::<Vec<_>>(),
            (0..1_000).map(|i| format!("orders{i}")).collect(),
            (0..1_000).map(|i| format!("v{i:04}")).collect(),
            (0..1_000).map(|i| format!("a-long-common-prefix-{i}")).collect(),
            (0..1_000).map(|i| format!("a-prefix-{i:04}-and-a-common-suffix")).collect(),
            (0..1_000).map(|i| format!("prefix-{i:04}-and-end")).collect(),
        ] {
            let table = literals(&texts);
            let Slots::Narrow(slots) = &table.slots else { panic!("two-byte slots") };
            let mask = slots.len() - 1;
            let farthest = slots
                .iter()
                .enumerate()
                .filter(|(_, &s)| s != 0)
                .map(|(at, &s)| {
                    let key = &table.keys[usize::from(s) - 1];
                    at.wrapping_sub(slot_of(key.words, key.len as usize, mask)) & mask
                })
                .max();
            assert!(farthest.is_some_and(|d| d < 24), "{}: {farthest:?}", texts[0]);
        }
    }
}
