//! Choosing the route inside the best template group: the method (405, HEAD
//! from GET, OPTIONS), then the parameter and header conditions (400, 404),
//! then Content-Type against consumes (415), then Accept against produces
//! (406).

use std::borrow::Cow;
use std::sync::Arc;

use http::{HeaderValue, Method};

use super::condition::{Conditions, Facts};
use super::RouteError;
use crate::media::{best_of, parse_one, score, specificity, Accept, Entry, MediaType, Score};

/// One compiled route.
#[derive(Debug)]
pub(crate) struct Route {
    /// Index into the entries given to `Router::new`.
    pub(crate) index: usize,
    pub(crate) method: Method,
    pub(crate) consumes: Box<[MediaType]>,
    pub(crate) produces: Box<[MediaType]>,
    /// Names of the template variables, in template order; one list shared
    /// by the routes whose templates name the same variables.
    pub(crate) vars: Arc<[Arc<str>]>,
    /// Whether no two variables share a name (as the template grammar
    /// requires of a whole template).
    pub(crate) distinct_vars: bool,
    /// Parameter and header conditions; usually none.
    pub(crate) conditions: Conditions,
}

/// The routes of one group of equivalent templates, by method.
#[derive(Debug)]
pub(crate) struct Group {
    methods: Methods,
    /// The methods the group answers, HEAD and OPTIONS included, in `Allow`
    /// order: a constant for a group of one common method (most groups).
    allowed: Cow<'static, [Method]>,
    allow: HeaderValue,
    /// Whether a route of the group has conditions: only then are they
    /// checked, so that other groups pay nothing for them.
    conditional: bool,
    /// Whether every route of the group refuses a path with a trailing `/`
    /// (Spring controllers' routes).
    refuses_slash: bool,
    /// The group's one route when it declares no media types and no
    /// conditions: a request of its method takes it without negotiation.
    only: Option<usize>,
    /// The [`Verb`] bits of the methods the group serves, HEAD included
    /// when GET is: whether it serves a standard method is one test.
    served: u16,
    /// The [`Verb`] bit of the method of [`only`](Self::only)'s route.
    only_bit: u16,
}

/// A request's method with its bit among the nine standard methods (0 for
/// an extension method), found once a lookup: each group the walk asks
/// whether it serves the method answers with a mask test instead of
/// comparing methods.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Verb<'m> {
    pub(crate) method: &'m Method,
    bit: u16,
}

impl<'m> Verb<'m> {
    pub(crate) fn of(method: &'m Method) -> Self {
        Verb { method, bit: method_bit(method) }
    }
}

/// `m`'s place among the nine standard methods, in `Allow` order (see
/// [`method_rank`]); `None` for an extension method.
fn standard_index(m: &Method) -> Option<u16> {
    Some(match *m {
        Method::GET => 0,
        Method::HEAD => 1,
        Method::POST => 2,
        Method::PUT => 3,
        Method::DELETE => 4,
        Method::PATCH => 5,
        Method::OPTIONS => 6,
        Method::TRACE => 7,
        Method::CONNECT => 8,
        _ => return None,
    })
}

/// `m`'s bit among the standard methods, 0 for an extension method.
fn method_bit(m: &Method) -> u16 {
    standard_index(m).map_or(0, |i| 1 << i)
}

/// How well a route fits the request: how specific its conditions are (as
/// Spring ranks them, before media types), then, in the JAX-RS order, how
/// specifically it consumes the Content-Type and the score of its best type
/// against `Accept` (combined type, `q`, `qs`, exactness). Greater is
/// better; equal ranks go to the route first in the group's order.
type Rank = ((usize, usize, usize, usize), u8, Score);

/// What the group answers for a request.
#[derive(Debug)]
pub(crate) enum Selected<'r> {
    Route { route: &'r Route, produce: Option<&'r MediaType>, head_from_get: bool },
    Options(HeaderValue),
}

/// A group's routes by method, each method's in the group's order.
#[derive(Debug)]
enum Methods {
    /// One route (most groups): nothing allocated.
    One(Method, [usize; 1]),
    Many(Vec<(Method, Vec<usize>)>),
}

impl Methods {
    /// Routes `ids` (in the group's order) by method.
    fn of(routes: &[Route], ids: &[usize]) -> Methods {
        if let [id] = ids {
            return Methods::One(routes[*id].method.clone(), [*id]);
        }
        // Each vector sized once.
        let distinct = ids
            .iter()
            .enumerate()
            .filter(|&(k, &id)| !ids[..k].iter().any(|&other| routes[other].method == routes[id].method))
            .count();
        let mut methods: Vec<(Method, Vec<usize>)> = Vec::with_capacity(distinct);
        for &id in ids {
            let method = &routes[id].method;
            match methods.iter_mut().find(|(m, _)| m == method) {
                Some((_, list)) => list.push(id),
                None => {
                    let count = ids.iter().filter(|&&other| routes[other].method == *method).count();
                    let mut list = Vec::with_capacity(count);
                    list.push(id);
                    methods.push((method.clone(), list));
                }
            }
        }
        Methods::Many(methods)
    }

    /// The methods, each once.
    fn names(&self) -> impl Iterator<Item = &Method> {
        let (one, many) = match self {
            Methods::One(method, _) => (Some(method), &[][..]),
            Methods::Many(methods) => (None, methods.as_slice()),
        };
        one.into_iter().chain(many.iter().map(|(m, _)| m))
    }

    /// The routes of `method`, in the group's order.
    #[inline]
    fn of_method(&self, method: &Method) -> Option<&[usize]> {
        match self {
            Methods::One(m, ids) => (m == method).then_some(ids.as_slice()),
            Methods::Many(methods) => methods.iter().find(|(m, _)| m == method).map(|(_, ids)| ids.as_slice()),
        }
    }
}

impl Group {
    /// Groups routes `ids` (already in their tie-breaking order).
    pub(crate) fn new(routes: &[Route], ids: &[usize]) -> Group {
        let methods = Methods::of(routes, ids);
        let common = {
            let mut names = methods.names();
            match (names.next(), names.next()) {
                (Some(method), None) => common_allow(method),
                _ => None,
            }
        };
        let (allowed, allow) = match common {
            Some((allowed, allow)) => (Cow::Borrowed(allowed), allow),
            None => {
                let get = methods.names().any(|m| *m == Method::GET);
                let mut allowed: Vec<Method> = Vec::with_capacity(methods.names().count() + 1 + usize::from(get));
                allowed.extend(methods.names().cloned());
                if get {
                    allowed.push(Method::HEAD);
                }
                allowed.push(Method::OPTIONS);
                let allow = allow_header(&mut allowed);
                (Cow::Owned(allowed), allow)
            }
        };
        let conditional = ids.iter().any(|&id| !routes[id].conditions.is_empty());
        let refuses_slash = ids.iter().all(|&id| !routes[id].conditions.matches_trailing_slash());
        let only = match ids {
            [id] if routes[*id].consumes.is_empty() && routes[*id].produces.is_empty() && !conditional => Some(*id),
            _ => None,
        };
        let mut served = methods.names().fold(0, |bits, m| bits | method_bit(m));
        if served & method_bit(&Method::GET) != 0 {
            served |= method_bit(&Method::HEAD);
        }
        let only_bit = only.map_or(0, |id| method_bit(&routes[id].method));
        Group { methods, allowed, allow, conditional, refuses_slash, only, served, only_bit }
    }

    /// Whether a route of the group serves the method (HEAD through GET).
    #[inline]
    pub(crate) fn serves(&self, verb: Verb<'_>) -> bool {
        if verb.bit != 0 {
            self.served & verb.bit != 0
        } else {
            // An extension method: never HEAD.
            self.routes_for(verb.method).is_some()
        }
    }

    /// Whether every route of the group refuses a path with a trailing `/`.
    pub(crate) fn refuses_trailing_slash(&self) -> bool {
        self.refuses_slash
    }

    /// The methods in `Allow`.
    pub(crate) fn allowed(&self) -> &[Method] {
        &self.allowed
    }

    fn routes_for(&self, method: &Method) -> Option<&[usize]> {
        self.methods.of_method(method)
    }

    /// Picks the route for this request. Inlined for the group of one
    /// route without media types or conditions requested by its method
    /// (most requests), which takes it at once; the rest is
    /// [`negotiate`](Self::negotiate).
    #[inline]
    pub(crate) fn select<'r>(
        &'r self,
        routes: &'r [Route],
        verb: Verb<'_>,
        content_type: Option<&str>,
        accept: &Accept<'_>,
        facts: &Facts<'_>,
        any: &'r MediaType,
    ) -> Result<Selected<'r>, RouteError> {
        if let Some(id) = self.only {
            let route = &routes[id];
            let same = if verb.bit != 0 { verb.bit == self.only_bit } else { route.method == *verb.method };
            if same {
                return Ok(Selected::Route { route, produce: None, head_from_get: false });
            }
        }
        self.negotiate(routes, verb.method, content_type, accept, facts, any)
    }

    /// [`select`](Self::select) by the method's routes, their conditions
    /// and media types.
    fn negotiate<'r>(
        &'r self,
        routes: &'r [Route],
        method: &Method,
        content_type: Option<&str>,
        accept: &Accept<'_>,
        facts: &Facts<'_>,
        any: &'r MediaType,
    ) -> Result<Selected<'r>, RouteError> {
        let (ids, head_from_get) = match self.routes_for(method) {
            Some(ids) => (ids, false),
            None if *method == Method::HEAD && self.routes_for(&Method::GET).is_some() => {
                (self.routes_for(&Method::GET).unwrap_or_default(), true)
            }
            None if *method == Method::OPTIONS => return Ok(Selected::Options(self.allow.clone())),
            None => return Err(RouteError::MethodNotAllowed { allow: self.allow.clone() }),
        };
        let kept;
        let ids = if self.conditional {
            kept = holding(routes, ids, facts)?;
            kept.as_slice()
        } else {
            ids
        };
        if let [id] = ids {
            if let Some(selected) = quick(&routes[*id], content_type, accept, head_from_get) {
                return Ok(selected);
            }
        }
        // Parse the headers only when a candidate declares media types.
        let declares = |f: fn(&Route) -> bool| ids.iter().any(|&id| f(&routes[id]));
        let content = content_type.filter(|_| declares(|r| !r.consumes.is_empty())).map(parse_one);
        let ranges = if declares(|r| !r.produces.is_empty()) { accept.ranges() } else { &[] };
        let consumers = || ids.iter().map(|&id| &routes[id]).filter(|r| consumes_score(r, content.as_ref()).is_some());
        let mut best: Option<(Rank, &Route, Option<&MediaType>)> = None;
        for &id in ids {
            let route = &routes[id];
            let Some(consumed) = consumes_score(route, content.as_ref()) else { continue };
            let (score, produce) = if route.produces.is_empty() {
                match score(ranges, any) {
                    Some(s) => (s, None),
                    None => continue,
                }
            } else {
                match best_of(ranges, &route.produces) {
                    Some((s, media)) => (s, Some(media)),
                    None => continue,
                }
            };
            let rank = (route.conditions.rank(), consumed, score);
            if best.as_ref().is_none_or(|(b, _, _)| rank > *b) {
                best = Some((rank, route, produce));
            }
        }
        if let Some((_, route, produce)) = best {
            return Ok(Selected::Route { route, produce, head_from_get });
        }
        if consumers().next().is_none() {
            let consumable = union(ids.iter().map(|&id| &*routes[id].consumes));
            let content_type = content_type.unwrap_or_default().to_owned();
            return Err(RouteError::UnsupportedMediaType { content_type, consumable });
        }
        Err(RouteError::NotAcceptable {
            accept: accept.header().unwrap_or_default().to_owned(),
            producible: union(consumers().map(|r| &*r.produces)),
        })
    }
}

/// The routes of `ids` whose conditions hold for the request. None: 400
/// naming every route's parameter conditions when some parameter condition
/// failed (as Spring answers), else 404 (only header conditions failed).
fn holding(routes: &[Route], ids: &[usize], facts: &Facts<'_>) -> Result<Vec<usize>, RouteError> {
    let mut params_failed = false;
    let kept: Vec<usize> = ids
        .iter()
        .copied()
        .filter(|&id| match routes[id].conditions.check(facts) {
            Ok(()) => true,
            Err(params) => {
                params_failed |= params;
                false
            }
        })
        .collect();
    if !kept.is_empty() {
        return Ok(kept);
    }
    if !params_failed {
        return Err(RouteError::NotFound);
    }
    let mut conditions: Vec<String> = Vec::new();
    for &id in ids {
        let text = routes[id].conditions.params().iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        if !text.is_empty() && !conditions.contains(&text) {
            conditions.push(text);
        }
    }
    Err(RouteError::UnsatisfiedParams { conditions })
}

/// The common cases of a single route decided without parsing a header:
/// no header, `*/*`, or a header naming exactly one of the route's types.
/// `None` when the full negotiation must decide.
fn quick<'r>(
    route: &'r Route,
    content_type: Option<&str>,
    accept: &Accept<'_>,
    head_from_get: bool,
) -> Option<Selected<'r>> {
    let plain =
        |m: &MediaType, header: &str| m.params().next().is_none() && m.essence().eq_ignore_ascii_case(header.trim());
    let consumed = match content_type {
        None => true,
        Some(_) if route.consumes.is_empty() => true,
        Some(ct) => route.consumes.iter().any(|c| plain(c, ct)),
    };
    if !consumed {
        return None;
    }
    let produce = match (route.produces.first(), accept.header()) {
        (None, _) => None,
        (Some(first), None) => Some(first),
        (Some(first), Some(a)) if a.trim() == "*/*" => Some(first),
        (Some(_), Some(a)) => Some(route.produces.iter().find(|p| plain(p, a))?),
    };
    Some(Selected::Route { route, produce, head_from_get })
}

/// How specifically the route consumes the request's Content-Type (`None`:
/// not at all): `n/m` 3 (4 with parameters), `n/*` 2, `*/*` 1, and a route
/// that states no consumes is a route consuming `*/*`. Without a
/// Content-Type (taken as `*/*`, as JAX-RS does) the route's most specific
/// type counts.
fn consumes_score(route: &Route, content: Option<&Option<Entry<'_>>>) -> Option<u8> {
    match content {
        _ if route.consumes.is_empty() => Some(1),
        None => route.consumes.iter().map(|c| 1 + specificity(c)).max(),
        Some(Some(ct)) => route.consumes.iter().filter(|c| ct.matches(c)).map(|c| 1 + specificity(c)).max(),
        // An unparsable Content-Type is only consumed by `*/*`.
        Some(None) => route.consumes.iter().any(|c| c.type_() == "*").then_some(1),
    }
}

fn union<'a>(lists: impl Iterator<Item = &'a [MediaType]>) -> Vec<MediaType> {
    let mut out: Vec<MediaType> = Vec::new();
    for media in lists.flatten() {
        if !out.contains(media) {
            out.push(media.clone());
        }
    }
    out
}

// The `Allow` of the common sets, as constants: checked at compile time,
// not on every call.
const POST: HeaderValue = HeaderValue::from_static("POST, OPTIONS");
const PUT: HeaderValue = HeaderValue::from_static("PUT, OPTIONS");
const DELETE: HeaderValue = HeaderValue::from_static("DELETE, OPTIONS");
const PATCH: HeaderValue = HeaderValue::from_static("PATCH, OPTIONS");
const GET: HeaderValue = HeaderValue::from_static("GET, HEAD, OPTIONS");

/// The methods a group of routes of this one method answers and its
/// `Allow`, for the common methods: constants, so that most groups
/// allocate no list of their own at startup.
fn common_allow(method: &Method) -> Option<(&'static [Method], HeaderValue)> {
    const GETS: &[Method] = &[Method::GET, Method::HEAD, Method::OPTIONS];
    const POSTS: &[Method] = &[Method::POST, Method::OPTIONS];
    const PUTS: &[Method] = &[Method::PUT, Method::OPTIONS];
    const DELETES: &[Method] = &[Method::DELETE, Method::OPTIONS];
    const PATCHES: &[Method] = &[Method::PATCH, Method::OPTIONS];
    Some(match *method {
        Method::GET => (GETS, GET),
        Method::POST => (POSTS, POST),
        Method::PUT => (PUTS, PUT),
        Method::DELETE => (DELETES, DELETE),
        Method::PATCH => (PATCHES, PATCH),
        _ => return None,
    })
}

/// Sorts and dedups `methods` and writes them as an `Allow` value (the
/// server's `OPTIONS *` answer uses it too).
pub fn allow_header(methods: &mut Vec<Method>) -> HeaderValue {
    crate::sort::insertion_sort_by(methods, |a, b| method_rank(a).cmp(&method_rank(b)));
    methods.dedup();
    // The common sets without building and checking a string (startup
    // computes one per template).
    if let Some((_, value)) = methods.first().and_then(common_allow).filter(|(set, _)| **set == methods[..]) {
        return value;
    }
    let text = methods.iter().map(Method::as_str).collect::<Vec<_>>().join(", ");
    // Method names are tokens, so this is a valid header value.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("OPTIONS"))
}

/// The order of methods in `Allow`: the common ones first, then the others
/// alphabetically.
pub(crate) fn method_rank(m: &Method) -> (usize, &str) {
    (standard_index(m).map_or(9, usize::from), m.as_str())
}
