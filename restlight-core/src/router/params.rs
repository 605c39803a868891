//! The values a match extracts from the path: template variables and matrix
//! parameters, both percent-decoded.

use std::fmt;
use std::sync::Arc;

use compact_str::CompactString;
use smallvec::SmallVec;

/// The decoded values of the template variables of the matched route, in
/// template order.
///
/// The values share one buffer and the names are the route's own list,
/// shared whole, so a match allocates once at most and counts one
/// reference, whatever the number of variables. The buffer is kept inline
/// up to 24 bytes: a match on a short path (`/users/7/orders/42`)
/// allocates nothing.
#[derive(Clone, Default)]
pub struct PathParams {
    /// The variables' names, in order: the name of `entries[i]` is the
    /// `i`-th.
    names: Names,
    entries: SmallVec<[Entry; 4]>,
    /// The text the entries' ranges are in: the values one after the
    /// other, or, for a match on a path without escapes, the path itself
    /// (its values are ranges of it).
    values: CompactString,
    /// Whether two variables share a name; a match's variables never do
    /// (the template grammar forbids it), values pushed by hand may.
    repeats: bool,
}

/// The names of [`PathParams`]: the matched route's list, or names pushed
/// by hand.
#[derive(Clone)]
enum Names {
    Shared(Arc<[Arc<str>]>),
    Own(Vec<Arc<str>>),
}

impl Default for Names {
    fn default() -> Self {
        Names::Own(Vec::new())
    }
}

impl Names {
    #[inline]
    fn as_slice(&self) -> &[Arc<str>] {
        match self {
            Names::Shared(names) => names,
            Names::Own(names) => names,
        }
    }

    /// The first `len` names as a list of their own, to push to.
    fn make_own(&mut self, len: usize) -> &mut Vec<Arc<str>> {
        if let Names::Shared(names) = self {
            *self = Names::Own(names.iter().take(len).cloned().collect());
        }
        match self {
            Names::Own(names) => names,
            Names::Shared(_) => unreachable!("made a list of its own above"),
        }
    }
}

/// One variable's value in [`PathParams`].
#[derive(Clone)]
struct Entry {
    /// The byte range of its value in `values` (a path is far shorter than
    /// 4 GiB).
    start: u32,
    end: u32,
    /// The path segments it matched, indices from the first segment after
    /// the leading `/`; `0..0` when not known.
    segments: (u16, u16),
}

impl PathParams {
    /// The variables with their names, in order.
    #[inline]
    fn named(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.names.as_slice().iter().map(|n| &**n).zip(&self.entries)
    }

    /// The value of the variable `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.named().find(|(n, _)| *n == name).map(|(_, e)| self.value(e))
    }

    /// The value of the variable `name`, looked for first at `index`, its
    /// place among the template's variables (known where the template is,
    /// as generated code knows it): one comparison of the name instead of a
    /// search. The answer is [`get`](Self::get)'s whatever `index` is: when
    /// the variable there has another name, or an earlier one has the same
    /// name, the variables are searched by name.
    #[must_use]
    pub fn get_at(&self, index: usize, name: &str) -> Option<&str> {
        if let (Some(e), Some(n)) = (self.entries.get(index), self.names.as_slice().get(index)) {
            // Without repeated names, the name found at `index` is the
            // first of its kind, `get`'s answer.
            if !self.repeats && same_name(n, name) {
                return Some(self.value(e));
            }
        }
        self.get(name)
    }

    /// `(name, value)` pairs in template order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.named().map(|(n, e)| (n, self.value(e)))
    }

    /// The text of `e`'s value.
    fn value(&self, e: &Entry) -> &str {
        &self.values[e.start as usize..e.end as usize]
    }

    /// The path segments the variable `name` matched, indices counted from
    /// the first segment after the leading `/`: one for `{id}`, several for
    /// a variable whose regex spans segments. `None` for an unknown name or
    /// a value pushed by hand.
    #[must_use]
    pub fn segments(&self, name: &str) -> Option<std::ops::Range<usize>> {
        let (start, end) = self.named().find(|(n, _)| *n == name)?.1.segments;
        (start < end).then(|| usize::from(start)..usize::from(end))
    }

    /// The number of variables.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the template had no variables.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds a value (for tests and hand-built requests; the router fills these).
    pub fn push(&mut self, name: impl Into<Arc<str>>, value: impl AsRef<str>) {
        let name = name.into();
        let names = self.names.make_own(self.entries.len());
        self.repeats = self.repeats || names.contains(&name);
        names.push(name);
        self.push_matched(value, 0..0);
    }

    /// Adds the value of the next of the names given to
    /// [`matched`](Self::matched), which matched the path segments
    /// `segments`.
    #[inline]
    pub(crate) fn push_matched(&mut self, value: impl AsRef<str>, segments: std::ops::Range<usize>) {
        let start = self.values.len();
        self.values.push_str(value.as_ref());
        self.push_range(start, self.values.len(), segments);
    }

    /// No values yet for the variables `names` (a route's list, shared) of
    /// a match on the plain path `body` (nothing to decode): every value is
    /// a range of it, so the body is copied once, whole, and each value is
    /// recorded by [`push_range`](Self::push_range) without a copy of its own.
    pub(crate) fn of_body(names: &Arc<[Arc<str>]>, body: &str, repeats: bool) -> Self {
        if names.is_empty() {
            return PathParams::default();
        }
        PathParams {
            names: Names::Shared(Arc::clone(names)),
            entries: SmallVec::new(),
            values: CompactString::new(body),
            repeats,
        }
    }

    /// Adds the value of the next name given to [`of_body`](Self::of_body)
    /// or [`matched`](Self::matched): the bytes `start..end` of the values'
    /// buffer (on character boundaries), which matched the path segments
    /// `segments`.
    #[inline]
    pub(crate) fn push_range(&mut self, start: usize, end: usize, segments: std::ops::Range<usize>) {
        let offset = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        let index = |i: usize| u16::try_from(i).unwrap_or(u16::MAX);
        self.entries.push(Entry {
            start: offset(start),
            end: offset(end),
            segments: (index(segments.start), index(segments.end)),
        });
    }

    /// No values yet for the variables `names` (a route's list, shared),
    /// with room for `bytes` of them, so that pushing them allocates once
    /// (and nothing when `bytes` is 0); `repeats`: some names repeat.
    pub(crate) fn matched(names: &Arc<[Arc<str>]>, bytes: usize, repeats: bool) -> Self {
        // A route without variables shares nothing: no reference counted.
        let names = if names.is_empty() { Names::default() } else { Names::Shared(Arc::clone(names)) };
        PathParams { names, entries: SmallVec::new(), values: CompactString::with_capacity(bytes), repeats }
    }
}

impl PartialEq for PathParams {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for PathParams {}

impl fmt::Debug for PathParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The `;name=value` parameters of the path segments (`;name` alone has an
/// empty value), decoded, in path order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatrixParams {
    /// `(segment index, name, value)`.
    entries: Vec<(usize, String, String)>,
    /// The number of segments of the path, when the router parsed it.
    segments: Option<u32>,
}

impl MatrixParams {
    /// The value of `name`: the last path segment carrying it is searched
    /// first, then earlier ones; within a segment the first occurrence wins.
    #[must_use]
    pub fn first(&self, name: &str) -> Option<&str> {
        let mut found: Option<(usize, &str)> = None;
        for (seg, n, v) in &self.entries {
            if n == name && found.is_none_or(|(s, _)| s != *seg) {
                found = Some((*seg, v));
            }
        }
        found.map(|(_, v)| v)
    }

    /// The parameters of the path segment `segment`, in order.
    pub fn of_segment(&self, segment: usize) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().filter(move |(s, ..)| *s == segment).map(|(_, n, v)| (n.as_str(), v.as_str()))
    }

    /// The index of the path's last segment: the one a route's template
    /// matches last, which `#[matrix_param]` reads (as JAX-RS's
    /// `@MatrixParam` does). For parameters pushed by hand, the last segment
    /// that has any.
    #[must_use]
    pub fn last_segment(&self) -> Option<usize> {
        match self.segments {
            Some(n) => (n as usize).checked_sub(1),
            None => self.entries.iter().map(|(s, ..)| *s).max(),
        }
    }

    /// Makes the segment `after` segments before the path's last the one
    /// [`last_segment`](Self::last_segment) names (a sub-resource locator's
    /// own last segment); returns what [`restore_end`](Self::restore_end) needs.
    pub(crate) fn end_before(&mut self, after: usize) -> Option<u32> {
        let saved = self.segments;
        if let Some(n) = self.segments {
            self.segments = Some(n.saturating_sub(u32::try_from(after).unwrap_or(u32::MAX)));
        }
        saved
    }

    /// Undoes [`end_before`](Self::end_before).
    pub(crate) fn restore_end(&mut self, saved: Option<u32>) {
        self.segments = saved;
    }

    /// Records how many segments the path has.
    pub(crate) fn set_segments(&mut self, segments: usize) {
        self.segments = Some(u32::try_from(segments).unwrap_or(u32::MAX));
    }

    /// Every value of `name`, in path order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries.iter().filter(move |(_, n, _)| n == name).map(|(_, _, v)| v.as_str())
    }

    /// `(segment index, name, value)` triples in path order; segment 0 is the
    /// first segment after the leading `/`.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &str, &str)> {
        self.entries.iter().map(|(s, n, v)| (*s, n.as_str(), v.as_str()))
    }

    /// The number of parameters.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the path had no matrix parameters.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds a parameter of segment `segment` (for tests and hand-built
    /// requests; the router fills these).
    pub fn push(&mut self, segment: usize, name: impl Into<String>, value: impl Into<String>) {
        self.entries.push((segment, name.into(), value.into()));
    }
}

/// Whether two variable names are the same, compared byte by byte: a name
/// is a few bytes, for which `str`'s equality calls `memcmp`.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::PathParams;

    #[test]
    fn get_at_answers_as_get_whatever_the_index() {
        let mut params = PathParams::default();
        for (name, value) in [("id", "7"), ("order", "42"), ("id", "8"), ("name", "é/x")] {
            params.push(name, value);
        }
        for name in ["id", "order", "name", "missing", ""] {
            for index in 0..6 {
                assert_eq!(params.get_at(index, name), params.get(name), "{name} at {index}");
            }
        }
        assert_eq!(params.get_at(1, "order"), Some("42"));
        assert_eq!(params.get_at(2, "id"), Some("7"), "the first `id`, as `get` finds it");
        assert_eq!(PathParams::default().get_at(0, "id"), None);
    }
}
