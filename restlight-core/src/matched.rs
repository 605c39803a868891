//! [`MatchedRoute`]: which compiled route answered a request.

/// Set by [`App::dispatch`](crate::App::dispatch) in the extensions of every
/// response a route produced (not of 404, 405, 415, 406 or 400 answers
/// given before a route was chosen): the route's index in
/// [`App::routes`](crate::App::routes). Servers use it to attribute metrics
/// and access-log lines to the route template without a string lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchedRoute(pub usize);
