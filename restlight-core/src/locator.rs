//! Sub-resource locators, flattened at startup.
//!
//! A `#[restlight::sub_resource]` impl block implements [`SubResource`]:
//! a table of its routes, each with a template relative to wherever a
//! locator mounts the type and a factory of a handler that receives the
//! instance the locator returned. A locator (a method with `#[path]` and
//! no method attribute) submits a [`LocatorDescriptor`] whose `routes`
//! joins its own template with each sub-route's and composes the two
//! calls, so every route reachable through locators is an ordinary entry
//! of the compiled router: a request pays the locator's call and the
//! sub-resource method's, no second routing step. A locator inside a
//! sub-resource contributes to that type's table the same way, which is
//! how nested locators flatten.
//!
//! The flattened descriptors are built once per process and kept for its
//! life, as the macros' own descriptors are.

use std::sync::{Arc, OnceLock};

use http::Method;
use restlight_grammar::media::MediaRange;
use restlight_grammar::template::{Piece, Template};

use crate::bind::Bindings;
use crate::descriptor::{RouteDescriptor, SchedulerName};
use crate::error::HttpError;
use crate::handler::{BoxFuture, Handler};
use crate::intercept::registry::OptOut;
use crate::meta::ParamMeta;
use crate::request::RequestContext;
use crate::response::{IntoResponse, Response};
use crate::route::{LocatedFactory, Route};
use crate::startup::StartupError;

/// A route of a sub-resource: the handler takes the instance a locator returned.
pub type SubHandler<T> = Arc<dyn Fn(T, RequestContext) -> BoxFuture<Response> + Send + Sync>;

/// Builds a [`SubHandler`] at startup, binding its `#[context]` beans.
pub type SubFactory<T> = Arc<dyn Fn(&mut Bindings<'_>) -> Result<SubHandler<T>, StartupError> + Send + Sync>;

/// A locator's call: reads its parameters from the request, calls it on
/// the receiver `R` (`()` for a root resource, whose instance the step
/// holds), and hands back the sub-resource or the response that ends the
/// request (a parameter error, `None`, an `Err`), with the request.
pub type Step<R, S> = Arc<dyn Fn(R, RequestContext) -> BoxFuture<(Located<S>, RequestContext)> + Send + Sync>;

/// Builds a locator's [`Step`] at startup.
pub type StepFactory<R, S> = fn(&mut Bindings<'_>) -> Result<Step<R, S>, StartupError>;

/// What a locator's call gave: the sub-resource, or the response that
/// answers the request instead.
#[derive(Debug)]
pub struct Located<S>(pub Result<S, Response>);

impl<S> From<Response> for Located<S> {
    fn from(res: Response) -> Self {
        Self(Err(res))
    }
}

impl<S> Located<S> {
    /// `Some(s)`, or 404 naming the locator when it found nothing.
    #[must_use]
    pub fn from_option(found: Option<S>, locator: &str) -> Self {
        match found {
            Some(s) => Self(Ok(s)),
            None => {
                Self(Err(HttpError::not_found(format!("{locator} found no resource for this path")).into_response()))
            }
        }
    }
}

/// One route of a sub-resource type, relative to where a locator mounts it.
pub struct SubRoute<T> {
    /// The HTTP method.
    pub method: Method,
    /// The template below the locator's: `"/{x}"`, or `""` for the locator's own path.
    pub path: String,
    /// Media types produced (empty: anything).
    pub produces: &'static [MediaRange<'static>],
    /// Media types consumed (empty: anything).
    pub consumes: &'static [MediaRange<'static>],
    /// Spring's `params = ..` conditions (none in a JAX-RS sub-resource).
    pub param_conditions: &'static [&'static str],
    /// Spring's `headers = ..` conditions.
    pub header_conditions: &'static [&'static str],
    /// Whether a request path with one trailing `/` matches (`false` in a
    /// Spring controller).
    pub trailing_slash: bool,
    /// The executor.
    pub scheduler: SchedulerName,
    /// `#[response_serializer]`.
    pub response_serializer: Option<&'static str>,
    /// `#[request_serializer]`.
    pub request_serializer: Option<&'static str>,
    /// `#[compress(false)]` makes it `false`.
    pub compress: bool,
    /// A plain `fn` handler.
    pub blocking: bool,
    /// `#[max_body(..)]`.
    pub max_body: Option<usize>,
    /// `#[timeout(..)]`.
    pub timeout: Option<std::time::Duration>,
    /// The parameters of the method, then those of the locators above it.
    pub params: Vec<ParamMeta>,
    /// `Item::get`, or `Item::part -> Part::get` through a nested locator.
    pub name: String,
    /// `file!()` of the method.
    pub file: &'static str,
    /// `line!()` of the method.
    pub line: u32,
    /// The method's documentation record.
    pub doc: crate::route_doc::DocRef,
    /// Interceptors the method declines.
    pub interceptors: OptOut,
    /// Builds the handler.
    pub factory: SubFactory<T>,
}

impl<T> std::fmt::Debug for SubRoute<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubRoute")
            .field("method", &self.method)
            .field("path", &self.path)
            .field("name", &self.name)
            .finish()
    }
}

/// A type whose impl block is `#[restlight::sub_resource]`: what a
/// sub-resource locator may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a sub-resource, so a locator cannot return it",
    label = "a sub-resource locator must return a type whose impl block is `#[restlight::sub_resource]`",
    note = "a method with `#[path]` and no method attribute is a sub-resource locator: return a type whose impl block is `#[restlight::sub_resource]` (or `Option<T>`, `Result<T, E>` of one), or add `#[get]`, `#[post]`, ... to make the method a route"
)]
pub trait SubResource: Sized + Send + Sync + 'static {
    /// The type's routes, its locators' flattened ones included.
    fn sub_routes() -> Vec<SubRoute<Self>>;
}

/// A locator as the macros describe it.
#[derive(Debug)]
pub struct LocatorInfo {
    /// The locator's template: for a root resource the full one, in a
    /// sub-resource the one relative to that type.
    pub path: &'static str,
    /// The locator's parameters.
    pub params: &'static [ParamMeta],
    /// `Shop::item`.
    pub name: &'static str,
    /// The type owning the locator.
    pub resource: Option<&'static str>,
    /// The owning type's `TypeId` (root resources).
    pub resource_type: Option<fn() -> std::any::TypeId>,
    /// `file!()` of the locator.
    pub file: &'static str,
    /// `line!()` of the locator.
    pub line: u32,
    /// The locator's documentation record (its parameters').
    pub doc: crate::route_doc::DocRef,
}

/// A route reached through a locator of a root resource: its descriptor
/// and the factory of its composed handler.
pub struct FlatRoute {
    descriptor: RouteDescriptor,
    factory: LocatedFactory,
}

impl std::fmt::Debug for FlatRoute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlatRoute").field("descriptor", &self.descriptor).finish_non_exhaustive()
    }
}

/// A locator of a root resource, collected with [`inventory`].
#[derive(Debug)]
pub struct LocatorDescriptor {
    /// The locator.
    pub info: &'static LocatorInfo,
    /// Its flattened routes.
    pub routes: fn() -> Vec<FlatRoute>,
}

inventory::collect!(LocatorDescriptor);

/// Wraps a locator's call.
#[must_use]
pub fn step<R, S, F>(f: F) -> Step<R, S>
where
    F: Fn(R, RequestContext) -> BoxFuture<(Located<S>, RequestContext)> + Send + Sync + 'static,
{
    Arc::new(f)
}

/// Wraps a sub-resource method's handler.
#[must_use]
pub fn sub_handler<T, F>(f: F) -> SubHandler<T>
where
    F: Fn(T, RequestContext) -> BoxFuture<Response> + Send + Sync + 'static,
{
    Arc::new(f)
}

/// The routes of `S` under the locator `info` of a root resource.
#[must_use]
pub fn flatten_root<S: SubResource>(info: &'static LocatorInfo, step: StepFactory<(), S>) -> Vec<FlatRoute> {
    S::sub_routes()
        .into_iter()
        .map(|sub| {
            let path: &'static str = leak_str(join(info.path, &sub.path));
            let template = Template::parse_allowing_duplicates(path).unwrap_or_else(|_| Template::from_static(&[]));
            let after = segments(&sub.path);
            let params: &'static [ParamMeta] = Box::leak(params(&sub.params, info.params).into_boxed_slice());
            let name: &'static str = leak_str(format!("{} -> {}", info.name, sub.name));
            let descriptor = RouteDescriptor {
                method: sub.method.clone(),
                path,
                template,
                produces: sub.produces,
                consumes: sub.consumes,
                param_conditions: sub.param_conditions,
                header_conditions: sub.header_conditions,
                trailing_slash: sub.trailing_slash,
                precedence: crate::router::Precedence::JaxRs,
                scheduler: sub.scheduler,
                response_serializer: sub.response_serializer,
                request_serializer: sub.request_serializer,
                compress: sub.compress,
                blocking: sub.blocking,
                max_body: sub.max_body,
                timeout: sub.timeout,
                params,
                name,
                resource: info.resource,
                resource_type: info.resource_type,
                factory: unbound,
                interceptors: sub.interceptors,
                file: sub.file,
                line: sub.line,
                #[cfg(feature = "openapi")]
                doc: merge_docs(sub.doc, info.doc),
                // Without OpenAPI the docs are `()`: nothing to merge.
                #[cfg(not(feature = "openapi"))]
                doc: sub.doc,
            };
            let make = sub.factory;
            let factory: LocatedFactory = Arc::new(move |b: &mut Bindings<'_>| {
                let step = step(b)?;
                let sub = make(b)?;
                let composed = compose(step, sub, after);
                Ok(Handler::new(move |req| composed((), req)))
            });
            FlatRoute { descriptor, factory }
        })
        .collect()
}

/// The routes of `S` under the locator `info` of the sub-resource `P`,
/// as routes of `P`.
#[must_use]
pub fn flatten_nested<P: SubResource, S: SubResource>(
    info: &'static LocatorInfo,
    step: StepFactory<P, S>,
) -> Vec<SubRoute<P>> {
    S::sub_routes()
        .into_iter()
        .map(|sub| {
            let after = segments(&sub.path);
            let make = sub.factory;
            SubRoute {
                method: sub.method,
                path: join(info.path, &sub.path),
                produces: sub.produces,
                consumes: sub.consumes,
                param_conditions: sub.param_conditions,
                header_conditions: sub.header_conditions,
                trailing_slash: sub.trailing_slash,
                scheduler: sub.scheduler,
                response_serializer: sub.response_serializer,
                request_serializer: sub.request_serializer,
                compress: sub.compress,
                blocking: sub.blocking,
                max_body: sub.max_body,
                timeout: sub.timeout,
                params: params(&sub.params, info.params),
                name: format!("{} -> {}", info.name, sub.name),
                file: sub.file,
                line: sub.line,
                #[cfg(feature = "openapi")]
                doc: merge_docs(sub.doc, info.doc),
                #[cfg(not(feature = "openapi"))]
                doc: sub.doc,
                interceptors: sub.interceptors,
                factory: Arc::new(move |b: &mut Bindings<'_>| {
                    let step = step(b)?;
                    let sub = make(b)?;
                    Ok(compose(step, sub, after))
                }),
            }
        })
        .collect()
}

/// The locator's call, then the sub-resource's method. While the locator
/// reads its parameters, its `#[matrix_param]`s see its own last segment:
/// the path's, less the `after` segments of the sub-resource's template.
fn compose<R: Send + 'static, S: Send + 'static>(
    step: Step<R, S>,
    sub: SubHandler<S>,
    after: Option<usize>,
) -> SubHandler<R> {
    Arc::new(move |recv: R, mut req: RequestContext| {
        let (step, sub) = (Arc::clone(&step), Arc::clone(&sub));
        let saved = after.map(|n| req.matrix.end_before(n));
        Box::pin(async move {
            let (located, mut req) = step(recv, req).await;
            if let Some(saved) = saved {
                req.matrix.restore_end(saved);
            }
            match located.0 {
                Ok(s) => sub(s, req).await,
                Err(res) => res,
            }
        })
    })
}

/// Every route reached through a locator of a root resource, in a
/// deterministic order; built once per process.
pub(crate) fn routes() -> Vec<Route> {
    static FLAT: OnceLock<Vec<(&'static RouteDescriptor, LocatedFactory)>> = OnceLock::new();
    let flat = FLAT.get_or_init(|| {
        let mut locators: Vec<&'static LocatorDescriptor> = inventory::iter::<LocatorDescriptor>.into_iter().collect();
        crate::sort::sort_by(&mut locators, &|a, b| {
            (a.info.path, a.info.file, a.info.line, a.info.name).cmp(&(
                b.info.path,
                b.info.file,
                b.info.line,
                b.info.name,
            ))
        });
        locators
            .into_iter()
            .flat_map(|l| (l.routes)())
            .map(|f| (&*Box::leak(Box::new(f.descriptor)), f.factory))
            .collect()
    });
    flat.iter().map(|(d, f)| Route::from_located(d, Arc::clone(f))).collect()
}

/// The descriptor's factory of a flattened route, never called: its
/// handler comes from the composed factory kept beside it.
fn unbound(_: &mut Bindings<'_>) -> Result<Handler, StartupError> {
    Ok(Handler::new(|_| {
        Box::pin(async { HttpError::internal("a sub-resource route without its locator").into_response() })
    }))
}

fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// `base` followed by `sub` (`""` or `"/"`: `base` alone).
fn join(base: &str, sub: &str) -> String {
    let sub = sub.trim_end_matches('/');
    if sub.is_empty() {
        return base.to_owned();
    }
    let base = base.trim_end_matches('/');
    format!("{base}/{}", sub.trim_start_matches('/'))
}

/// The method's parameters, then the locator's.
fn params(sub: &[ParamMeta], locator: &[ParamMeta]) -> Vec<ParamMeta> {
    sub.iter().chain(locator).copied().collect()
}

/// How many path segments `path` matches, when that is fixed (no variable
/// whose regex may match a `/`).
fn segments(path: &str) -> Option<usize> {
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        return Some(0);
    }
    let template = Template::parse_allowing_duplicates(path).ok()?;
    let mut slashes = 0;
    for piece in template.pieces() {
        match piece {
            Piece::Literal(l) => slashes += l.text.matches('/').count(),
            Piece::Var(v) => {
                if let Some(re) = &v.regex {
                    if re.contains(['.', '/']) || re.contains("\\S") || re.contains("\\W") || re.contains("[^") {
                        return None;
                    }
                }
            }
        }
    }
    Some(slashes)
}

#[cfg(feature = "openapi")]
fn merge_docs(sub: crate::route_doc::DocRef, locator: crate::route_doc::DocRef) -> crate::route_doc::DocRef {
    use crate::route_doc::records::{ParamDoc, RouteDoc};
    let params: Vec<ParamDoc> = sub
        .params
        .iter()
        .chain(locator.params)
        .map(|p| ParamDoc { shape: p.shape, schema: p.schema, body: p.body, fields: p.fields })
        .collect();
    Box::leak(Box::new(RouteDoc {
        summary: sub.summary,
        description: sub.description,
        deprecated: sub.deprecated,
        tags: sub.tags,
        params: Box::leak(params.into_boxed_slice()),
        responses: sub.responses,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_counts() {
        assert_eq!(join("/shops/{id}", ""), "/shops/{id}");
        assert_eq!(join("/shops/{id}", "/"), "/shops/{id}");
        assert_eq!(join("/shops/{id}", "/items/{n}"), "/shops/{id}/items/{n}");
        assert_eq!(segments(""), Some(0));
        assert_eq!(segments("/a/{b: \\d+}"), Some(2));
        assert_eq!(segments("/a/{rest: .*}"), None);
    }
}
