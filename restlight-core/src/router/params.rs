//! The values a match extracts from the path: template variables and matrix
//! parameters, both percent-decoded.

use std::fmt;
use std::sync::Arc;

use smallvec::SmallVec;

/// The decoded values of the template variables of the matched route, in
/// template order.
///
/// The values share one buffer and the names are shared with the route, so
/// a match allocates once at most, whatever the number of variables.
#[derive(Clone, Default)]
pub struct PathParams {
    /// Each variable's name and the byte range of its value in `values`.
    entries: SmallVec<[(Arc<str>, usize, usize); 4]>,
    values: String,
}

impl PathParams {
    /// The value of the variable `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// `(name, value)` pairs in template order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(n, start, end)| (&**n, &self.values[*start..*end]))
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
        let start = self.values.len();
        self.values.push_str(value.as_ref());
        self.entries.push((name.into(), start, self.values.len()));
    }

    /// Room for `bytes` of values, so that pushing them allocates once.
    pub(crate) fn reserve(&mut self, bytes: usize) {
        self.values.reserve(bytes);
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
