//! The route table an application serves, and changing it while serving.
//!
//! The compiled routes and their router form one immutable [`Table`],
//! published through an [`ArcSwap`](arc_swap::ArcSwap): a request loads
//! the current table once, without a lock, matches on it and keeps the
//! matched route alive until its response is sent, so a request in flight
//! finishes on the route it started with whatever changes meanwhile.
//!
//! A change ([`App::change_routes`](crate::App::change_routes)) compiles the routes it adds with the
//! same bindings and checks as startup (templates, conflicts with both
//! locations, media types, codecs, executors, beans), builds a new table
//! from the kept and added routes, and publishes it at once, or changes
//! nothing and returns every problem. Changes are serialized by a mutex
//! that the request path never takes.

use std::any::TypeId;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use http::Method;

use super::{collapse, CompiledRoute, Compiler, RouteInfo, Routing};
use crate::bind::Registry;
use crate::descriptor::descriptors;
use crate::route::Route;
use crate::router::{Router, RouterError, RouterProblem};
use crate::startup::StartupError;

/// The routes served at one moment and the router over them; never changed
/// once published.
pub(crate) struct Table {
    pub(crate) router: Router,
    /// In the order given to the router: a match's index points here.
    pub(crate) routes: Vec<Arc<CompiledRoute>>,
    /// The router's shadowing warnings, so a change logs only new ones.
    warnings: Vec<RouterProblem>,
}

impl Table {
    /// Builds the router over `routes`; `strict`: JAX-RS method selection
    /// to the letter ([`Router::strict`]).
    pub(crate) fn new(
        routes: Vec<Arc<CompiledRoute>>,
        strict: bool,
    ) -> Result<(Self, Vec<RouterProblem>), RouterError> {
        let (router, warnings) = Router::of_refs(routes.len(), &|i| routes[i].lend())?;
        let router = router.strict(strict);
        Ok((Self { router, routes, warnings: warnings.clone() }, warnings))
    }
}

/// A snapshot of the routes an [`App`](crate::App) serves, from [`App::routes`](crate::App::routes).
#[derive(Clone)]
pub struct Routes(pub(crate) Arc<Table>);

impl Routes {
    /// The routes in their deterministic order: those of startup, then
    /// those added since, in the order they were added.
    pub fn iter(&self) -> RoutesIter<'_> {
        RoutesIter(self.0.routes.iter())
    }

    /// How many routes there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.routes.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.routes.is_empty()
    }

    /// The route declared with this method and path template, as written.
    ///
    /// `Routes` also displays as the route table (`println!("{routes}")`):
    ///
    /// ```
    /// use restlight_core::{get, AppBuilder};
    ///
    /// let app = AppBuilder::new().route(get("/ping").produces("text/plain").handle(|_| async { "pong" })).build().unwrap();
    /// let table = app.routes().to_string();
    /// let mut lines = table.lines();
    /// assert!(lines.next().unwrap().starts_with("METHOD  PATH   PRODUCES    CONSUMES  EXECUTOR  SOURCE"));
    /// assert!(lines.next().unwrap().starts_with("GET     /ping  text/plain  -         io        "));
    /// ```
    #[must_use]
    pub fn get(&self, method: &str, path: &str) -> Option<&RouteInfo> {
        self.iter().find(|r| r.method == method && r.path == path)
    }
}

impl<'a> IntoIterator for &'a Routes {
    type Item = &'a RouteInfo;
    type IntoIter = RoutesIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The routes of a [`Routes`] snapshot, in order.
#[derive(Clone)]
pub struct RoutesIter<'a>(std::slice::Iter<'a, Arc<CompiledRoute>>);

impl<'a> Iterator for RoutesIter<'a> {
    type Item = &'a RouteInfo;

    fn next(&mut self) -> Option<&'a RouteInfo> {
        self.0.next().map(|r| &r.info)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for RoutesIter<'_> {}

impl DoubleEndedIterator for RoutesIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|r| &r.info)
    }
}

impl fmt::Debug for RoutesIter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RoutesIter").field("remaining", &self.0.len()).finish()
    }
}

impl fmt::Display for Routes {
    /// The route table, one aligned row per route: method, path template,
    /// produces, consumes (`-` when not declared), executor and source
    /// location, under a header row; when a route has parameter or header
    /// conditions (Spring's `params` and `headers`), a `CONDITIONS` column
    /// before the source (`params: version=2; headers: x-api=1`, `-` for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let media = |list: &[String]| if list.is_empty() { "-".to_owned() } else { list.join(", ") };
        let conditional = self.iter().any(|r| !r.conditions.params().is_empty() || !r.conditions.headers().is_empty());
        let mut header = vec!["METHOD", "PATH", "PRODUCES", "CONSUMES", "EXECUTOR"];
        if conditional {
            header.push("CONDITIONS");
        }
        header.push("SOURCE");
        let header: Vec<String> = header.into_iter().map(str::to_owned).collect();
        let rows: Vec<Vec<String>> = self
            .iter()
            .map(|r| {
                let mut row =
                    vec![r.method.clone(), r.path.clone(), media(&r.produces), media(&r.consumes), r.scheduler.clone()];
                if conditional {
                    let text = r.conditions.to_string();
                    row.push(if text.is_empty() { "-".to_owned() } else { text });
                }
                row.push(r.location.clone());
                row
            })
            .collect();
        let mut widths: Vec<usize> = header.iter().map(String::len).collect();
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&header).chain(&rows) {
            let mut line = String::new();
            for (i, (cell, &width)) in row.iter().zip(&widths).enumerate() {
                if i + 1 == row.len() {
                    line.push_str(cell);
                } else {
                    line.push_str(&format!("{cell:width$}  "));
                }
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Routes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(|r| format!("{} {}", r.method, r.path))).finish()
    }
}

type Insert = Box<dyn FnOnce(&mut Registry) + Send>;

/// A resource to add: its type and the instance its routes are bound to.
struct AddResource {
    type_id: TypeId,
    type_name: &'static str,
    insert: Insert,
}

/// Routes and resources to add and remove in one step, from
/// [`App::change_routes`](crate::App::change_routes): [`apply`](Self::apply) publishes all of it at
/// once or nothing.
///
/// Removing a route (or resource) and adding its replacement in one change
/// swaps them with no moment in which the path answers 404:
///
/// ```
/// use http::Method;
/// use restlight_core::{get, AppBuilder};
/// use restlight_core::test::MockClient;
///
/// let app = AppBuilder::new()
///     .annotated_routes(false)
///     .route(get("/version").handle(|_| async { "1" }))
///     .build()
///     .unwrap();
/// let applied = app
///     .change_routes()
///     .remove_route(Method::GET, "/version")
///     .add_route(get("/version").handle(|_| async { "2" }))
///     .apply()
///     .unwrap();
/// assert_eq!((applied.added.len(), applied.removed.len()), (1, 1));
/// assert_eq!(MockClient::new(app).get("/version").send_blocking().text(), "2");
/// ```
#[must_use = "a change does nothing until it is applied"]
pub struct RouteChange<'a> {
    routing: &'a Routing,
    compiler: &'a Mutex<Compiler>,
    add: Vec<Route>,
    add_resources: Vec<AddResource>,
    remove: Vec<(Method, String)>,
    remove_resources: Vec<(TypeId, &'static str)>,
}

impl fmt::Debug for RouteChange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RouteChange")
            .field("add", &self.add.iter().map(|r| format!("{} {}", r.method, r.path)).collect::<Vec<_>>())
            .field("add_resources", &self.add_resources.iter().map(|r| r.type_name).collect::<Vec<_>>())
            .field("remove", &self.remove)
            .field("remove_resources", &self.remove_resources.iter().map(|r| r.1).collect::<Vec<_>>())
            .finish()
    }
}

/// What an applied [`RouteChange`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AppliedChange {
    /// The routes added, as compiled.
    pub added: Vec<RouteInfo>,
    /// The routes removed.
    pub removed: Vec<RouteInfo>,
}

impl<'a> RouteChange<'a> {
    pub(super) fn new(routing: &'a Routing, compiler: &'a Mutex<Compiler>) -> Self {
        Self {
            routing,
            compiler,
            add: Vec::new(),
            add_resources: Vec::new(),
            remove: Vec::new(),
            remove_resources: Vec::new(),
        }
    }

    /// Adds a route built in code (see [`get`](crate::get) and friends).
    pub fn add_route(mut self, route: impl Into<Route>) -> Self {
        self.add.push(route.into());
        self
    }

    /// Adds every annotated route of resource `T` (its `#[restlight::path]`
    /// impl blocks), bound to `value`. A resource whose routes are served
    /// already must be removed first, in this change or an earlier one.
    /// Resources meant to be added later are left out at startup with
    /// [`AppBuilder::exclude_resource`](crate::AppBuilder::exclude_resource).
    pub fn add_resource<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.add_resources.push(AddResource {
            type_id: TypeId::of::<T>(),
            type_name: std::any::type_name::<T>(),
            insert: Box::new(move |registry: &mut Registry| registry.insert(Arc::new(value))),
        });
        self
    }

    /// Removes the route declared with this method and path template,
    /// written as it was declared (`"/users/{id}"`). Requests already
    /// routed to it finish.
    pub fn remove_route(mut self, method: Method, path: &str) -> Self {
        self.remove.push((method, path.to_owned()));
        self
    }

    /// Removes every annotated route of resource `T`, and forgets its
    /// instance; requests already routed to them finish.
    pub fn remove_resource<T: 'static>(mut self) -> Self {
        self.remove_resources.push((TypeId::of::<T>(), std::any::type_name::<T>()));
        self
    }

    /// Compiles what is added, checks the resulting table as startup would,
    /// and publishes it: requests that start from now on see the change.
    ///
    /// # Errors
    /// Every problem at once, and nothing changes: conflicting routes (with
    /// both locations), malformed templates, bad media types, missing
    /// beans, executors or codecs; a route or resource to remove that is
    /// not served ([`StartupError::NoSuchRoute`], [`StartupError::NoSuchResource`]);
    /// a resource to add that is served already
    /// ([`StartupError::ResourceServed`]) or has no annotated routes
    /// ([`StartupError::NoAnnotatedRoutes`]).
    pub fn apply(self) -> Result<AppliedChange, StartupError> {
        let mut compiler = self.compiler.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.routing.table();
        let mut errors = Vec::new();

        let mut removed = Vec::new();
        let mut kept = Vec::with_capacity(current.routes.len() + self.add.len());
        let mut found_route = vec![false; self.remove.len()];
        let mut found_resource = vec![false; self.remove_resources.len()];
        for route in &current.routes {
            let info = &route.info;
            let by_route = self.remove.iter().position(|(m, p)| m.as_str() == info.method && *p == info.path);
            let by_resource = route.resource_type.and_then(|t| self.remove_resources.iter().position(|(r, _)| *r == t));
            if by_route.is_none() && by_resource.is_none() {
                kept.push(Arc::clone(route));
                continue;
            }
            if let Some(i) = by_route {
                found_route[i] = true;
            }
            if let Some(i) = by_resource {
                found_resource[i] = true;
            }
            removed.push(info.clone());
        }
        for ((method, path), found) in self.remove.iter().zip(found_route) {
            if !found {
                errors.push(StartupError::NoSuchRoute { method: method.to_string(), path: path.clone() });
            }
        }
        for ((_, type_name), found) in self.remove_resources.iter().zip(found_resource) {
            if !found {
                errors.push(StartupError::NoSuchResource { type_name });
            }
        }

        // Work on a copy: a refused change leaves the instances as they were.
        let mut resources = compiler.resources.clone();
        for (type_id, _) in &self.remove_resources {
            resources.remove(*type_id);
        }
        let mut adding = self.add;
        let mut added_types = Vec::new();
        for resource in self.add_resources {
            let served = kept.iter().any(|r| r.resource_type == Some(resource.type_id));
            if served || !super::first_seen(&mut added_types, resource.type_id) {
                errors.push(StartupError::ResourceServed { type_name: resource.type_name });
                continue;
            }
            (resource.insert)(&mut resources);
            let routes: Vec<Route> = descriptors()
                .into_iter()
                .filter(|d| d.resource_type.map(|t| t()) == Some(resource.type_id))
                .map(Route::from_descriptor)
                .chain(crate::locator::routes().into_iter().filter(|r| r.resource_type() == Some(resource.type_id)))
                .collect();
            if routes.is_empty() {
                errors.push(StartupError::NoAnnotatedRoutes { type_name: resource.type_name });
            }
            adding.extend(routes);
        }

        let mut missing_resources = Vec::new();
        // A vector of its own, not the routes' larger buffer reused.
        let mut added: Vec<Arc<CompiledRoute>> = Vec::with_capacity(adding.len());
        for route in adding {
            added.push(Arc::new(compiler.compile(route, &mut resources, &mut missing_resources, &mut errors)));
        }
        kept.extend(added.iter().cloned());
        match Table::new(kept, compiler.strict) {
            Ok((table, warnings)) if errors.is_empty() => {
                for w in warnings.iter().filter(|w| !current.warnings.contains(w)) {
                    tracing::warn!("{w}");
                }
                self.routing.publish(table);
                compiler.resources = resources;
                let added = added.iter().map(|r| r.info.clone()).collect();
                for r in &removed {
                    tracing::info!(method = %r.method, path = %r.path, location = %r.location, "route removed");
                }
                Ok(AppliedChange { added, removed })
            }
            Ok(_) => Err(collapse(errors)),
            Err(e) => {
                errors.insert(0, StartupError::Routes(e));
                Err(collapse(errors))
            }
        }
    }
}
