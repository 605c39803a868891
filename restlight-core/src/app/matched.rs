//! [`MatchedRoute`]: which compiled route answered a request.

use std::fmt;
use std::sync::Arc;

use super::{CompiledRoute, RouteInfo};

/// Set by [`App::dispatch`](crate::App::dispatch) in the extensions of every
/// response a route produced (not of 404, 405, 415, 406 or 400 answers
/// given before a route was chosen), and seen there by the application's
/// filters and tower layers. Servers use it to attribute metrics and
/// access-log lines to the route template without a lookup;
/// `restlight-server` asks for it only when its metrics or access log are
/// on, since inserting an extension allocates.
///
/// It holds the route that served the request: a route removed while
/// serving stays readable here until the response is dropped.
#[derive(Clone)]
pub struct MatchedRoute(pub(crate) Arc<CompiledRoute>);

impl MatchedRoute {
    /// The route's id, unique for the application's life (see
    /// [`RouteInfo::id`]).
    #[must_use]
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// The route as [`App::routes`](crate::App::routes) lists it.
    #[must_use]
    pub fn info(&self) -> &RouteInfo {
        &self.0.info
    }
}

impl fmt::Debug for MatchedRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchedRoute")
            .field("id", &self.0.id)
            .field("method", &self.0.info.method)
            .field("path", &self.0.info.path)
            .finish()
    }
}
