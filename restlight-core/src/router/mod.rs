//! The compiled router: JAX-RS path templates, precedence and negotiation,
//! decided once at startup.
//!
//! # Templates
//!
//! `{name}` matches one non-empty segment; `{name: regex}` is constrained by
//! the regex, which may contain braces (`\d{3}`) and `/`. Variables may share
//! a segment with literal text (`/{name}.html`, `/v{major}.{minor}`). A regex
//! that can match `/` (`{path: .*}`) spans segments; it matches at least one
//! segment (a variable sharing a segment with literal text may match
//! nothing: `/files{rest: (?:/.*)?}` matches `/files` and `/files/a/b`).
//! Regexes compile with [`regex-lite`](https://docs.rs/regex-lite), the
//! regex team's small engine: classes, counted repetition, alternation,
//! groups and flags as in `regex`, but no Unicode classes (`\p{L}`: a
//! startup error, and a compile error in the macros), and `\d`, `\w`, `\s`
//! match ASCII only, which is what a raw, percent-encoded path holds.
//! The common shapes (`\d+`, `[0-9]{4}`, `[A-Za-z0-9_-]+`, `[^/]+`, `.*`,
//! `\w{2,8}`, literal text, `(json|xml)`) are recognised at startup and
//! matched by small hand-written matchers with the regex's exact semantics;
//! the engine runs only for the other regexes.
//! The leading `/` is optional, one trailing `/` is ignored in templates
//! and in requests, unless a route's [`Conditions`] refuse it
//! ([`Conditions::trailing_slash`], as the Spring front end does): a
//! template whose routes all refuse it does not match a path with one, and
//! the next best template is tried. Literal text may not contain `;`, `?`
//! or `#`.
//!
//! ```
//! use http::Method;
//! use restlight_core::router::{Lookup, RouteEntry, Router};
//!
//! let entry = |template: &str, name: &str| RouteEntry {
//!     method: Method::GET,
//!     template: template.into(),
//!     parsed: None,
//!     consumes: vec![],
//!     produces: vec![],
//!     location: "src/main.rs:1".into(),
//!     name: name.into(),
//!     conditions: Default::default(),
//!     precedence: Default::default(),
//! };
//! let (router, warnings) = Router::new(&[
//!     entry("/users/{id: \\d+}", "by_id"),
//!     entry("/users/me", "me"),
//!     entry("/files/{path: .*}", "files"),
//! ]).unwrap();
//! assert!(warnings.is_empty());
//!
//! let Ok(Lookup::Matched(m)) = router.lookup(&Method::GET, "/users/42/", None, None) else { panic!() };
//! assert_eq!((m.index, m.params.get("id")), (0, Some("42")));
//!
//! let Ok(Lookup::Matched(m)) = router.lookup(&Method::GET, "/files/a/b%2Fc.txt", None, None) else { panic!() };
//! assert_eq!(m.params.get("path"), Some("a/b/c.txt"));
//! ```
//!
//! # Precedence
//!
//! All routes compete with their full path in one table (JAX-RS 3.7.2): the
//! template with more literal characters wins, then the one with more
//! variables, then the one with more regex variables; remaining ties between
//! different templates go by the template text, so the order of the entries
//! never matters. Templates equal up to variable names form one group.
//!
//! Routes declared with [`Precedence::Spring`] (the Spring front end's)
//! rank among themselves as Spring's `PathPattern` does: a catch-all last
//! (the longer catch-all first), then the lower score (a variable 1, a `*`
//! 100), then the longer pattern; Spring's ties go by the JAX-RS rule.
//! Each style keeps its own order, and the two are merged by Spring's rule,
//! a JAX-RS template counted as a Spring pattern without wildcards.
//!
//! The best group *that serves the request method* is chosen (HEAD is served
//! by GET), then Content-Type against consumes (415), then Accept against
//! produces (406). When no matching group serves the method the answer is
//! 405 with an `Allow` listing the methods of every matching template, and
//! OPTIONS is answered with that `Allow`. This is where Restlight departs
//! from the letter of JAX-RS, which picks the best template before looking
//! at the method: with `GET /users/{id: \d+}` and `DELETE /users/{id}`,
//! `DELETE /users/1` reaches the DELETE route instead of failing with 405.
//! [`Router::strict`] selects to the letter.
//!
//! Routes of one method and template may differ in what they consume and
//! produce; the request ranks them as JAX-RS does: the most specific match
//! of Content-Type against consumes first (`n/m`, `n/*`, `*/*`; none stated
//! is `*/*`), then of Accept against produces (the combined type's
//! specificity, the client's `q`, the server's `qs`, fewer wildcards).
//!
//! ```
//! use http::Method;
//! use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};
//!
//! let entry = |method: Method, template: &str| RouteEntry {
//!     method,
//!     template: template.into(),
//!     parsed: None,
//!     consumes: vec![],
//!     produces: vec![],
//!     location: "src/main.rs:1".into(),
//!     name: template.into(),
//!     conditions: Default::default(),
//!     precedence: Default::default(),
//! };
//! let (router, _) = Router::new(&[
//!     entry(Method::GET, "/users/{id: \\d+}"),
//!     entry(Method::DELETE, "/users/{id}"),
//! ]).unwrap();
//! let Ok(Lookup::Matched(m)) = router.lookup(&Method::DELETE, "/users/1", None, None) else { panic!() };
//! assert_eq!(m.index, 1);
//! let Err(RouteError::MethodNotAllowed { allow }) = router.lookup(&Method::PUT, "/users/1", None, None) else { panic!() };
//! assert_eq!(allow, "GET, HEAD, DELETE, OPTIONS");
//! ```
//!
//! # Decoding
//!
//! The raw path is split on `/` first, `;matrix` parameters are removed from
//! every segment, then segments are percent-decoded: `%2F` stays inside its
//! segment, `+` is not a space. Literal text and unconstrained variables see
//! the decoded segment; regexes see the raw text (as JAX-RS does) and their
//! captures are decoded afterwards. Bad escapes, `%00` and invalid UTF-8 are
//! [`RouteError::BadPath`].

mod condition;
mod conflict;
mod decode;
mod error;
mod fast;
mod inline;
mod matcher;
mod params;
mod precedence;
mod regexes;
pub(crate) mod select;
pub(crate) mod template;

use std::sync::Arc;

use http::{HeaderValue, Method};

use crate::media::{Accept, MediaType};

pub use condition::Conditions;
pub(crate) use condition::Facts;
pub use error::{RouteError, RouterError, RouterProblem};
pub use params::{MatrixParams, PathParams};
pub use precedence::Precedence;

/// The part of a request path routing looks at: without query, fragment and
/// one leading and one trailing `/`; its segments are what
/// [`PathParams::segments`] counts.
pub(crate) fn route_body_of(path: &str) -> &str {
    decode::route_body(path)
}
pub use restlight_grammar::template::TemplateError;

use matcher::{Cap, Caps, Tree};
use precedence::SpringKey;
use select::{Group, Route, Selected, Verb};
use template::Template;

/// One route given to [`Router::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteEntry {
    /// The HTTP method.
    pub method: Method,
    /// The full JAX-RS template, e.g. `"/users/{id: \\d+}"`.
    pub template: String,
    /// `template` already parsed, as the macros emit it (checked at compile
    /// time); `None`: the router parses `template`. When given, it is what
    /// the router compiles, and `template` only names the route in messages.
    pub parsed: Option<restlight_grammar::template::Template<'static>>,
    /// Request types the route consumes; empty means anything.
    pub consumes: Vec<MediaType>,
    /// Response types the route produces; empty means anything.
    pub produces: Vec<MediaType>,
    /// Where the route was declared (`"src/main.rs:42"`), for messages.
    pub location: String,
    /// The handler's name (`"UserResource::get"`), for messages.
    pub name: String,
    /// Conditions on query parameters and headers that must hold (Spring's
    /// `params` and `headers`); default: none.
    pub conditions: Conditions,
    /// How the template ranks against the others (see
    /// [Precedence](self#precedence)); default: [`Precedence::JaxRs`].
    pub precedence: Precedence,
}

/// A route as the router's build reads it: the fields of a [`RouteEntry`],
/// borrowed, so that the application's compiled routes lend theirs
/// (their listing's strings among them) instead of keeping a copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EntryRef<'e> {
    pub(crate) method: &'e Method,
    pub(crate) template: &'e str,
    pub(crate) parsed: Option<&'e restlight_grammar::template::Template<'static>>,
    pub(crate) consumes: &'e [MediaType],
    pub(crate) produces: &'e [MediaType],
    pub(crate) location: &'e str,
    pub(crate) name: &'e str,
    pub(crate) conditions: &'e Conditions,
    pub(crate) precedence: Precedence,
}

impl EntryRef<'_> {
    /// The route as an entry of its own, for a problem that names it.
    pub(crate) fn to_entry(self) -> RouteEntry {
        RouteEntry {
            method: self.method.clone(),
            template: self.template.to_owned(),
            parsed: self.parsed.cloned(),
            consumes: self.consumes.to_vec(),
            produces: self.produces.to_vec(),
            location: self.location.to_owned(),
            name: self.name.to_owned(),
            conditions: self.conditions.clone(),
            precedence: self.precedence,
        }
    }
}

impl RouteEntry {
    /// The entry as the router's build reads it.
    fn lend(&self) -> EntryRef<'_> {
        EntryRef {
            method: &self.method,
            template: &self.template,
            parsed: self.parsed.as_ref(),
            consumes: &self.consumes,
            produces: &self.produces,
            location: &self.location,
            name: &self.name,
            conditions: &self.conditions,
            precedence: self.precedence,
        }
    }
}

/// The route table, compiled once; lookups do not scan the routes.
#[derive(Debug)]
pub struct Router {
    tree: Tree,
    groups: Vec<Group>,
    routes: Vec<Route>,
    any: MediaType,
    /// JAX-RS method selection to the letter: the best template first.
    strict: bool,
}

/// The outcome of a successful lookup.
#[derive(Debug)]
pub enum Lookup<'r> {
    /// A route was chosen.
    Matched(RouteMatch<'r>),
    /// OPTIONS on a path that has no OPTIONS route: answer with this `Allow`.
    Options {
        /// The methods of every template matching the path.
        allow: HeaderValue,
    },
}

/// The chosen route and what the path gave it.
#[derive(Debug)]
pub struct RouteMatch<'r> {
    /// Index into the entries given to [`Router::new`].
    pub index: usize,
    /// Decoded template variables, named as in this route's template.
    pub params: PathParams,
    /// `;k=v` parameters of the path segments, decoded.
    pub matrix: MatrixParams,
    /// The negotiated response type (`None` if the route produces anything).
    pub produce: Option<&'r MediaType>,
    /// HEAD answered by a GET route: the caller strips the body.
    pub head_from_get: bool,
}

impl Router {
    /// Compiles the table once.
    ///
    /// The warnings name routes that can never be selected: because another
    /// group matches the same paths with higher precedence
    /// ([`RouterProblem::Shadowed`]), or because another route of the same
    /// method and template consumes and produces everything they do and wins
    /// every tie ([`RouterProblem::Outranked`]).
    ///
    /// # Errors
    /// Every problem at once: malformed templates (naming the template, the
    /// route and its location) and conflicting pairs of routes (same method,
    /// equivalent templates, same consumes, same produces), each with
    /// both names and both locations.
    pub fn new(entries: &[RouteEntry]) -> Result<(Router, Vec<RouterProblem>), RouterError> {
        Self::of_refs(entries.len(), &|i| entries[i].lend())
    }

    /// [`Router::new`] over entries held elsewhere (the application's
    /// compiled routes), so that startup does not copy them.
    /// The entries are read through `entries` (the `i`-th of `count`), not
    /// gathered into a list, which the build's peak of memory would hold.
    pub(crate) fn of_refs<'e>(
        count: usize,
        entries: &dyn Fn(usize) -> EntryRef<'e>,
    ) -> Result<(Router, Vec<RouterProblem>), RouterError> {
        let mut problems: Vec<RouterProblem> = Vec::new();
        // Every template compiled once, with its entry's index: no map and
        // no copy of its shape to find the equivalent ones.
        let mut compiled: Vec<(Template<'e>, usize)> = Vec::with_capacity(count);
        let mut var_names: Vec<Option<Arc<[Arc<str>]>>> = vec![None; count];
        // One `Arc` per distinct variable name, and one per distinct list of
        // names, shared by every route that uses it (most tables use a few
        // names many times, in a few orders).
        let mut names: rustc_hash::FxHashSet<Arc<str>> = rustc_hash::FxHashSet::default();
        let mut lists: rustc_hash::FxHashSet<Arc<[Arc<str>]>> = rustc_hash::FxHashSet::default();
        let mut list: Vec<Arc<str>> = Vec::new();
        let mut last: Option<Arc<[Arc<str>]>> = None;
        // Every template's shape, one after the other in one buffer of the
        // build (a shape is never longer than its template and a `/`).
        let mut shapes = String::with_capacity((0..count).map(|i| entries(i).template.len() + 1).sum());
        for (i, names_of) in var_names.iter_mut().enumerate() {
            let entry = entries(i);
            // A template the macros parsed had its regexes checked at
            // compile time, with the same engine: none is compiled twice.
            let mut template = match entry.parsed {
                Some(parsed) => Ok(template::compile_into(parsed, &mut shapes)),
                None => template::parse_into(entry.template, &mut shapes),
            };
            // Checked where it lies: a template is not moved in and out of
            // the check.
            if let (None, Ok(t)) = (entry.parsed, &template) {
                if let Err(faults) = template::check_regexes(t) {
                    template = Err(faults);
                }
            }
            match template {
                // The same names as the template before (routes of one
                // resource, or a run of routes built alike): its list, found
                // without hashing the names.
                Ok(t) if last.as_ref().is_some_and(|last| same_names(last, &t.vars)) => {
                    *names_of = last.clone();
                    compiled.push((t, i));
                }
                Ok(t) => {
                    list.clear();
                    list.extend(t.vars.iter().map(|v| match names.get(v.name.as_ref()) {
                        Some(name) => Arc::clone(name),
                        None => {
                            let name: Arc<str> = Arc::from(v.name.as_ref());
                            names.insert(Arc::clone(&name));
                            name
                        }
                    }));
                    *names_of = Some(match lists.get(list.as_slice()) {
                        Some(shared) => Arc::clone(shared),
                        None => {
                            let shared: Arc<[Arc<str>]> = Arc::from(list.as_slice());
                            lists.insert(Arc::clone(&shared));
                            shared
                        }
                    });
                    last.clone_from(names_of);
                    compiled.push((t, i));
                }
                Err(faults) => problems.extend(faults.into_iter().map(|fault| match fault {
                    template::Fault::Syntax(error) => RouterProblem::BadTemplate { route: entry.to_entry(), error },
                    template::Fault::Regex { name, regex, reason } => {
                        RouterProblem::BadRegex { route: entry.to_entry(), var: name, regex, reason }
                    }
                })),
            }
        }
        crate::sort::sort_by_cached_key(&mut problems, ToString::to_string);
        // In the JAX-RS order, entries in their order within a shape: equal
        // shapes (which have equal keys) are side by side, and the ranking
        // below finds its JAX-RS groups sorted already.
        // The keys are sorted, not the templates: a key is small to move.
        // The templates stay where they were compiled, and every list
        // below names a group's template by its place in `compiled`.
        let mut sorted: Vec<(precedence::Key, &str, usize, usize)> =
            compiled.iter().enumerate().map(|(at, (t, i))| (t.key, t.shape_in(&shapes), *i, at)).collect();
        // Every template, so the comparisons are inlined (not made through
        // the shared index sort of `crate::sort`, a call each).
        sorted.sort_unstable_by(|a, b| precedence::order((&a.0, a.1), (&b.0, b.1)).then_with(|| a.2.cmp(&b.2)));
        // The members of every group, group after group; each group names
        // the template of its first entry and holds its range in `order`.
        let order: Vec<usize> = sorted.iter().map(|&(_, _, i, _)| i).collect();
        let mut by_shape: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
        for (at, &(_, shape, _, from)) in sorted.iter().enumerate() {
            match by_shape.last_mut() {
                Some((first, members)) if compiled[*first].0.shape_in(&shapes) == shape => members.end = at + 1,
                _ => by_shape.push((from, at..at + 1)),
            }
        }
        drop(sorted);
        let mut any_spring = false;
        let ranked: Vec<(usize, std::ops::Range<usize>, SpringKey, bool)> = by_shape
            .into_iter()
            .map(|(first, members)| {
                let key = compiled[first].0.key;
                // Each member's entry read once.
                let (mut is_spring, mut spring) = (true, None);
                for &i in &order[members.clone()] {
                    let precedence = entries(i).precedence;
                    is_spring &= matches!(precedence, Precedence::Spring { .. });
                    let of = key.spring(precedence);
                    spring = Some(spring.map_or(of, |s: SpringKey| s.min(of)));
                }
                any_spring |= is_spring;
                (first, members, spring.unwrap_or_else(|| key.spring(Precedence::JaxRs)), is_spring)
            })
            .collect();
        // Without Spring's groups the order is the JAX-RS order alone, the
        // order of `sorted`, which the groups are in already.
        let ranked = if any_spring {
            precedence::rank(ranked, |&(first, _, spring, is_spring)| precedence::Rank {
                key: compiled[first].0.key,
                shape: compiled[first].0.shape_in(&shapes),
                spring,
                is_spring,
            })
        } else {
            ranked
        };
        // A vector of its own: collected in place, it would keep the
        // larger buffer of `ranked` through the build.
        let mut groups: Vec<(&Template<'e>, std::ops::Range<usize>)> = Vec::with_capacity(ranked.len());
        groups.extend(ranked.into_iter().map(|(first, m, _, _)| (&compiled[first].0, m)));
        let mut order = order;
        let mut conflicts = Vec::new();
        // A group of one route has no tie to order and no pair to conflict.
        for (_, members) in groups.iter().filter(|(_, members)| members.len() > 1) {
            let members = &mut order[members.clone()];
            let mut tied = members.to_vec();
            crate::sort::sort_by_cached_key(&mut tied, |&i| tie_order(&entries(i), i));
            members.copy_from_slice(&tied);
            let refs: Vec<EntryRef<'_>> = members.iter().map(|&i| entries(i)).collect();
            conflicts.extend(conflict::conflicts(&refs));
        }
        let mut router =
            Router { tree: Tree::default(), groups: Vec::new(), routes: Vec::new(), any: any(), strict: false };
        // The tree's nodes and the build's table of literal children grow
        // as templates go in. Room for every segment of every template (a
        // bound: templates share their prefixes) is about twice what they
        // end at, 32 KB more startup memory for 208 routes, which stays
        // resident; growing costs copies and rehashes instead, about 32,000
        // instructions for as many routes.
        let mut build = matcher::Build::default();
        for (id, (template, members)) in groups.iter().enumerate() {
            if let Err(e) = router.tree.insert(template, id, &mut build) {
                let first = entries(order[members.start]);
                problems.push(RouterProblem::Unroutable { route: first.to_entry(), reason: e });
            }
        }
        if !problems.is_empty() || !conflicts.is_empty() {
            problems.extend(conflicts);
            return Err(RouterError::new(problems));
        }
        let mut warnings = conflict::shadowed(&groups, &shapes, &order, entries);
        for (_, members) in groups.iter().filter(|(_, members)| members.len() > 1) {
            let members: Vec<EntryRef<'_>> = order[members.clone()].iter().map(|&i| entries(i)).collect();
            warnings.extend(conflict::outranked(&members));
        }
        // The templates are done with once they are in the tree and
        // checked: they are freed before the tree is finished and the routes
        // and groups are made, which then take their place in memory
        // instead of pages of their own (every page a start touches is a
        // page fault, and stays resident).
        let members: Vec<std::ops::Range<usize>> = groups.into_iter().map(|(_, members)| members).collect();
        drop(compiled);
        drop(shapes);
        router.tree.finish(build);
        router.groups.reserve_exact(members.len());
        router.routes.reserve_exact(count);
        // The route ids of each group, in a buffer reused for every group.
        let mut ids: Vec<usize> = Vec::new();
        for members in members {
            let members = &order[members];
            ids.clear();
            ids.extend(router.routes.len()..router.routes.len() + members.len());
            for &i in members {
                let e = entries(i);
                let vars = var_names[i].take().unwrap_or_default();
                let distinct_vars = vars.iter().enumerate().all(|(k, v)| !vars[..k].contains(v));
                router.routes.push(Route {
                    index: i,
                    method: e.method.clone(),
                    consumes: e.consumes.into(),
                    produces: e.produces.into(),
                    vars,
                    distinct_vars,
                    conditions: e.conditions.clone(),
                });
            }
            router.groups.push(Group::new(&router.routes, &ids));
        }
        Ok((router, warnings))
    }

    /// Selects methods as the letter of JAX-RS does (`true`): the best
    /// template matching the path is chosen first, whatever its methods,
    /// and a method it lacks is 405 with that template's `Allow`. Default
    /// (`false`): the best template *that serves the method* is chosen (see
    /// [Precedence](self#precedence)).
    ///
    /// ```
    /// # use http::Method;
    /// # use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};
    /// # let entry = |method: Method, template: &str| RouteEntry {
    /// #     method, template: template.into(), parsed: None, consumes: vec![], produces: vec![],
    /// #     location: "src/main.rs:1".into(), name: template.into(), conditions: Default::default(), precedence: Default::default(),
    /// # };
    /// let table = [entry(Method::GET, "/users/{id: \\d+}"), entry(Method::DELETE, "/users/{id}")];
    /// let (router, _) = Router::new(&table).unwrap();
    /// let strict = Router::new(&table).unwrap().0.strict(true);
    /// // Method first: the DELETE route serves DELETE /users/1.
    /// assert!(matches!(router.lookup(&Method::DELETE, "/users/1", None, None), Ok(Lookup::Matched(m)) if m.index == 1));
    /// // To the letter: `/users/{id: \d+}` is the best template, and it has no DELETE.
    /// let Err(RouteError::MethodNotAllowed { allow }) = strict.lookup(&Method::DELETE, "/users/1", None, None) else { panic!() };
    /// assert_eq!(allow, "GET, HEAD, OPTIONS");
    /// ```
    #[must_use]
    pub fn strict(mut self, enabled: bool) -> Self {
        self.strict = enabled;
        self
    }

    /// Finds the route for a request. `raw_path` is the path as sent (still
    /// percent-encoded; a query part is only read by the parameter
    /// conditions of routes); `content_type` and `accept` are the header
    /// values, if any. Header conditions of routes see no headers here.
    ///
    /// # Errors
    /// [`RouteError`]: 404, 405 with `Allow`, 415, 406, or 400 for a malformed path.
    pub fn lookup<'r>(
        &'r self,
        method: &Method,
        raw_path: &str,
        content_type: Option<&str>,
        accept: Option<&str>,
    ) -> Result<Lookup<'r>, RouteError> {
        let accept = Accept::new(accept);
        let verb = Verb::of(method);
        let exact = self.exact_static(raw_path);
        if let Some((group, true)) = exact {
            if self.strict || self.groups[group].serves(verb) {
                return self.static_match(group, verb, content_type, &accept, &Facts::new(None, None));
            }
        }
        let scan = decode::Scan::of(raw_path);
        let facts = Facts::new(scan.query, None);
        let read = read_already(raw_path, &scan, exact);
        self.lookup_scanned(verb, &scan, content_type, &accept, &facts, read)
    }

    /// The static table's entry for a path written byte for byte as a
    /// static key after its leading `/` (`None` for any other path). The
    /// scan of such a path would find the same key: a final key holds no
    /// `%`, `;`, `?`, `#` or NUL and does not end with `/`, so the path has
    /// no escape, matrix parameter, query, fragment or trailing `/`, and its
    /// body is the key itself. A final entry then answers the lookup
    /// without the scan; any other is handed on, so the table is not asked
    /// twice for the same key.
    #[inline]
    fn exact_static(&self, raw_path: &str) -> Option<(usize, bool)> {
        raw_path.strip_prefix('/').and_then(|key| self.tree.static_entry(key))
    }

    /// [`lookup`](Self::lookup) with `Accept` read already, so that the
    /// codec that writes the response reuses its parsed ranges.
    pub(crate) fn lookup_accepting<'r>(
        &'r self,
        method: &Method,
        raw_path: &str,
        content_type: Option<&str>,
        accept: &Accept<'_>,
        facts: &Facts<'_>,
    ) -> Result<Lookup<'r>, RouteError> {
        let verb = Verb::of(method);
        let exact = self.exact_static(raw_path);
        if let Some((group, true)) = exact {
            // No trailing `/`: no group refuses the path.
            if self.strict || self.groups[group].serves(verb) {
                return self.static_match(group, verb, content_type, accept, &facts.at_path(false));
            }
        }
        let scan = decode::Scan::of(raw_path);
        let read = read_already(raw_path, &scan, exact);
        self.lookup_scanned(verb, &scan, content_type, accept, facts, read)
    }

    /// [`lookup_accepting`](Self::lookup_accepting) of a path scanned once.
    fn lookup_scanned<'r>(
        &'r self,
        verb: Verb<'_>,
        scan: &decode::Scan<'_>,
        content_type: Option<&str>,
        accept: &Accept<'_>,
        facts: &Facts<'_>,
        read: Option<Option<(usize, bool)>>,
    ) -> Result<Lookup<'r>, RouteError> {
        let (body, trailing, plain) = (scan.body, scan.trailing, scan.plain);
        let facts = &facts.at_path(trailing);
        // A group whose routes all refuse a trailing `/` (Spring's) is no
        // match for a path with one: the next best template is tried.
        let refused = |group: usize| trailing && self.groups[group].refuses_trailing_slash();
        let serves = |group: usize| !refused(group) && (self.strict || self.groups[group].serves(verb));
        // A plain path is its own key in the static table: looked up once,
        // and a final static route that serves the method needs nothing else.
        let known = plain.then(|| read.unwrap_or_else(|| self.tree.static_entry(body)));
        if let Some(Some((group, true))) = known {
            if serves(group) {
                return self.static_match(group, verb, content_type, accept, facts);
            }
        }
        match scan.plain_path() {
            Some(path) => {
                self.matched(&path, MatrixParams::default(), verb, content_type, accept, facts, known, trailing)
            }
            None => {
                let mut path = scan.parse().map_err(|reason| RouteError::BadPath { reason })?;
                let matrix = std::mem::take(&mut path.matrix);
                self.matched(&path, matrix, verb, content_type, accept, facts, known, trailing)
            }
        }
    }

    /// The rest of [`lookup_scanned`](Self::lookup_scanned): the walk of the
    /// tree over the path's segments, the route of the best group and its
    /// variables' values.
    #[allow(clippy::too_many_arguments)]
    fn matched<'r, S: decode::Segments>(
        &'r self,
        path: &S,
        mut matrix: MatrixParams,
        verb: Verb<'_>,
        content_type: Option<&str>,
        accept: &Accept<'_>,
        facts: &Facts<'_>,
        known: Option<Option<(usize, bool)>>,
        trailing: bool,
    ) -> Result<Lookup<'r>, RouteError> {
        let refused = |group: usize| trailing && self.groups[group].refuses_trailing_slash();
        let serves = |group: usize| !refused(group) && (self.strict || self.groups[group].serves(verb));
        let mut caps = Caps::new();
        let Some(group) = self.tree.find(path, &serves, known, &mut caps) else {
            return self.unserved(path, verb.method, &refused);
        };
        let selected = self.groups[group].select(&self.routes, verb, content_type, accept, facts, &self.any)?;
        let (route, produce, head_from_get) = match selected {
            Selected::Route { route, produce, head_from_get } => (route, produce, head_from_get),
            Selected::Options(allow) => return Ok(Lookup::Options { allow }),
        };
        let caps = caps.as_slice();
        let count = path.count();
        // The segments a raw range covers (it spans whole segments).
        let covered = |start: usize, end: usize| {
            let first = (0..count).position(|i| path.range(i).1 >= start).unwrap_or(0);
            let last = (0..count).rposition(|i| path.range(i).0 <= end).map_or(first, |i| i + 1);
            first..last.max(first + 1)
        };
        // A plain path (known for each kind of path when this is compiled):
        // every value is a range of it, copied with it once. Otherwise each
        // value is decoded into the values' buffer.
        let plain = !path.may_escape();
        let mut params = if plain {
            PathParams::of_body(&route.vars, path.raw(), !route.distinct_vars)
        } else {
            PathParams::matched(&route.vars, caps.iter().map(Cap::len).sum(), !route.distinct_vars)
        };
        for (_, &cap) in route.vars.iter().zip(caps) {
            match cap {
                Cap::Decoded { seg, start, end } => {
                    let (seg, start, end) = (seg as usize, start as usize, end as usize);
                    if plain {
                        let base = path.range(seg).0;
                        params.push_range(base + start, base + end, seg..seg + 1);
                    } else {
                        params.push_matched(&path.text(seg)[start..end], seg..seg + 1);
                    }
                }
                Cap::Raw { start, end } => {
                    let (start, end) = (start as usize, end as usize);
                    if plain {
                        params.push_range(start, end, covered(start, end));
                    } else {
                        let raw = &path.raw()[start..end];
                        let value = decode::decode(raw).map_err(|reason| RouteError::BadPath { reason })?;
                        params.push_matched(value, covered(start, end));
                    }
                }
            }
        }
        matrix.set_segments(count);
        Ok(Lookup::Matched(RouteMatch { index: route.index, params, matrix, produce, head_from_get }))
    }

    /// The match of a static route, chosen without parsing the path.
    fn static_match<'r>(
        &'r self,
        group: usize,
        verb: Verb<'_>,
        content_type: Option<&str>,
        accept: &Accept<'_>,
        facts: &Facts<'_>,
    ) -> Result<Lookup<'r>, RouteError> {
        let selected = self.groups[group].select(&self.routes, verb, content_type, accept, facts, &self.any)?;
        Ok(match selected {
            Selected::Route { route, produce, head_from_get } => Lookup::Matched(RouteMatch {
                index: route.index,
                params: PathParams::default(),
                matrix: MatrixParams::default(),
                produce,
                head_from_get,
            }),
            Selected::Options(allow) => Lookup::Options { allow },
        })
    }

    /// No template matching the path serves the method: 404 when none
    /// matches at all, else OPTIONS or 405 with the methods of them all.
    fn unserved<'r, S: decode::Segments>(
        &'r self,
        path: &S,
        method: &Method,
        refused: &dyn Fn(usize) -> bool,
    ) -> Result<Lookup<'r>, RouteError> {
        let mut groups = self.tree.find_all(path);
        groups.retain(|&g| !refused(g));
        if groups.is_empty() {
            return Err(RouteError::NotFound);
        }
        let mut methods: Vec<Method> = groups.iter().flat_map(|&g| self.groups[g].allowed().iter().cloned()).collect();
        let allow = select::allow_header(&mut methods);
        if *method == Method::OPTIONS {
            Ok(Lookup::Options { allow })
        } else {
            Err(RouteError::MethodNotAllowed { allow })
        }
    }

    /// The number of routes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.routes.len()
    }

    /// Whether the table has no routes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.routes.is_empty()
    }
}

/// Whether the template variables `vars` have the names `list`, in order.
fn same_names(list: &[Arc<str>], vars: &[template::Var<'_>]) -> bool {
    list.len() == vars.len() && list.iter().zip(vars).all(|(name, var)| **name == *var.name)
}

/// The static table's entry for the scanned body when
/// [`Router::exact_static`] asked for that very text already: the body of
/// a path that starts with `/` and is one byte shorter than the path is
/// the rest of the path.
#[inline]
fn read_already(
    raw_path: &str,
    scan: &decode::Scan<'_>,
    exact: Option<(usize, bool)>,
) -> Option<Option<(usize, bool)>> {
    (raw_path.starts_with('/') && scan.body.len() + 1 == raw_path.len()).then_some(exact)
}

/// The order of routes inside a group, which decides ties in negotiation:
/// method, consumes, fewer produces first (anything last), conditions,
/// then names.
fn tie_order(e: &EntryRef<'_>, index: usize) -> impl Ord {
    let texts = |types: &[MediaType]| types.iter().map(ToString::to_string).collect::<Vec<_>>();
    let produces = if e.produces.is_empty() { usize::MAX } else { e.produces.len() };
    let rank = select::method_rank(e.method);
    (
        (rank.0, rank.1.to_owned()),
        texts(e.consumes),
        produces,
        texts(e.produces),
        e.conditions.to_string(),
        (e.name.to_owned(), e.location.to_owned(), index),
    )
}

fn any() -> MediaType {
    MediaType::parse("*/*").unwrap_or_else(|_| unreachable!("`*/*` is a valid media type"))
}
