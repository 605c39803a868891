//! Routing conditions on query parameters and headers (Spring's
//! `params = ..` and `headers = ..`) and the trailing-slash rule of Spring
//! controllers, checked after the method and before Content-Type and
//! Accept.

use std::borrow::Cow;
use std::fmt;

use http::HeaderMap;
use restlight_grammar::condition::Condition;

/// The conditions of a route: every one must hold for the route to match.
/// Empty (the default) for routes without conditions: only template
/// groups that hold a conditional route check them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    /// The conditions on parameters and headers; `None` when there are
    /// none (most routes): the conditions of every route are kept twice
    /// (its listing and the router), 16 bytes each rather than 56.
    lists: Option<Box<Lists>>,
    /// Whether a request path with one trailing `/` matches.
    trailing_slash: bool,
}

/// [`Conditions`] on query parameters and on headers, at least one of
/// them not empty.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lists {
    params: Box<[Condition<'static>]>,
    headers: Box<[Condition<'static>]>,
}

impl Default for Conditions {
    /// No parameter or header condition; a trailing `/` matches.
    fn default() -> Self {
        Self { lists: None, trailing_slash: true }
    }
}

impl Conditions {
    /// Conditions on query parameters and on headers (header names ignore
    /// case), each kept once, in a canonical order.
    #[must_use]
    pub fn new(
        params: impl IntoIterator<Item = Condition<'static>>,
        headers: impl IntoIterator<Item = Condition<'static>>,
    ) -> Self {
        let mut params: Vec<Condition<'static>> = params.into_iter().collect();
        let mut headers: Vec<Condition<'static>> = headers.into_iter().map(Condition::lowercase_name).collect();
        for list in [&mut params, &mut headers] {
            crate::sort::sort_by(list, &Ord::cmp);
            list.dedup();
        }
        let lists = (!params.is_empty() || !headers.is_empty())
            .then(|| Box::new(Lists { params: params.into_boxed_slice(), headers: headers.into_boxed_slice() }));
        Self { lists, trailing_slash: true }
    }

    /// Sets whether a request path with one trailing `/` matches the route
    /// (`/users/` for `/users`). Default: `true`, the JAX-RS rule; the
    /// Spring front end sets `false`, as Spring 6 does: `/users/` is then a
    /// 404 unless another route matches it.
    ///
    /// ```
    /// use restlight_core::router::Conditions;
    /// let spring = Conditions::default().trailing_slash(false);
    /// assert!(!spring.matches_trailing_slash());
    /// assert!(Conditions::default().matches_trailing_slash());
    /// ```
    #[must_use]
    pub fn trailing_slash(mut self, matches: bool) -> Self {
        self.trailing_slash = matches;
        self
    }

    /// Whether a request path with one trailing `/` matches the route.
    #[must_use]
    pub fn matches_trailing_slash(&self) -> bool {
        self.trailing_slash
    }

    /// Whether there are none: no parameter or header condition, and a
    /// trailing `/` matches.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lists.is_none() && self.trailing_slash
    }

    /// Whether both ask the same of the query and the headers (the
    /// trailing-slash rule aside: two routes that differ only there match
    /// the same requests without one).
    pub(crate) fn same_requirements(&self, other: &Self) -> bool {
        self.lists == other.lists
    }

    /// The conditions on query parameters.
    #[must_use]
    pub fn params(&self) -> &[Condition<'static>] {
        self.lists.as_ref().map_or(&[], |lists| &lists.params)
    }

    /// The conditions on headers, names in lower case.
    #[must_use]
    pub fn headers(&self) -> &[Condition<'static>] {
        self.lists.as_ref().map_or(&[], |lists| &lists.headers)
    }

    /// Whether they hold for a request: `Err(true)` when a parameter
    /// condition fails, `Err(false)` when only a header condition (or the
    /// trailing-slash rule) does.
    pub(crate) fn check(&self, facts: &Facts<'_>) -> Result<(), bool> {
        if facts.trailing_slash && !self.trailing_slash {
            return Err(false);
        }
        let param = |name: &str| -> Option<Cow<'_, str>> {
            form_urlencoded::parse(facts.query?.as_bytes()).find(|(n, _)| n == name).map(|(_, v)| v)
        };
        if !self.params().iter().all(|c| c.holds(param(c.name()).as_deref())) {
            return Err(true);
        }
        let header = |name: &str| facts.headers?.get(name).map(|v| v.to_str().unwrap_or("\u{0}"));
        if !self.headers().iter().all(|c| c.holds(header(c.name()))) {
            return Err(false);
        }
        Ok(())
    }

    /// How specific they are, as Spring ranks them: more parameter
    /// conditions first, then more of them with a value, then the same for
    /// headers. Greater is more specific.
    pub(crate) fn rank(&self) -> (usize, usize, usize, usize) {
        let valued = |list: &[Condition<'_>]| list.iter().filter(|c| c.has_value()).count();
        let (params, headers) = (self.params(), self.headers());
        (params.len(), valued(params), headers.len(), valued(headers))
    }
}

impl fmt::Display for Conditions {
    /// `params: version=2, !debug; headers: x-api=1`, leaving out an empty list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |list: &[Condition<'_>]| list.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let (params, headers) = (self.params(), self.headers());
        match (params.is_empty(), headers.is_empty()) {
            (false, false) => write!(f, "params: {}; headers: {}", join(params), join(headers)),
            (false, true) => write!(f, "params: {}", join(params)),
            (true, false) => write!(f, "headers: {}", join(headers)),
            (true, true) => Ok(()),
        }
    }
}

/// What conditions are checked against: the query string and the headers
/// (`None`: no headers known, as for [`Router::lookup`](super::Router::lookup)),
/// given by the caller, and whether the path ends in a `/`, which only the
/// router decides (it is `false` until [`Facts::at_path`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Facts<'a> {
    query: Option<&'a str>,
    headers: Option<&'a HeaderMap>,
    trailing_slash: bool,
}

impl<'a> Facts<'a> {
    /// The facts of a request's query string and headers.
    pub(crate) fn new(query: Option<&'a str>, headers: Option<&'a HeaderMap>) -> Self {
        Self { query, headers, trailing_slash: false }
    }

    /// The same facts for a path that ends in a `/` (`trailing_slash`) or not.
    pub(super) fn at_path(self, trailing_slash: bool) -> Self {
        Self { trailing_slash, ..self }
    }
}
