//! A route's interceptor chain: bound at startup, run around the handler.

use std::any::TypeId;
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;

use super::ant::{AntPattern, AntPatternError};
use super::classify::{decide, route_pattern_of, Decision, PathTest};
use super::{DynInterceptor, Intercept, RequestPredicate, RouteMeta};
use crate::error::HttpError;
use crate::handler::{BoxFuture, Handler};
use crate::mapper::{map_global, ErasedMapper, Failure};
use crate::request::RequestContext;
use crate::response::{IntoResponse, Response};

/// An interceptor bound to one route, with what is left to test per request.
pub(crate) struct Bound {
    interceptor: Arc<dyn DynInterceptor>,
    path: Option<PathTest>,
    request: Option<Arc<RequestPredicate>>,
    pub(crate) name: &'static str,
    pub(crate) affinity: super::Affinity,
}

impl Bound {
    fn applies(&self, ctx: &RequestContext) -> bool {
        self.path.as_ref().is_none_or(|t| t.test(ctx.uri().path())) && self.request.as_ref().is_none_or(|p| p(ctx))
    }
}

/// An interceptor registration with its patterns parsed.
pub(crate) struct Prepared {
    reg: Intercept,
    includes: Option<Vec<AntPattern>>,
    excludes: Vec<AntPattern>,
}

/// Parses the patterns of every registration and sorts them by order
/// (stable: ties keep registration order).
pub(crate) fn prepare(regs: Vec<Intercept>) -> Result<Vec<Prepared>, Vec<(&'static str, AntPatternError)>> {
    let mut errors = Vec::new();
    let mut out = Vec::with_capacity(regs.len());
    for reg in regs {
        let mut parse = |list: &[String]| -> Vec<AntPattern> {
            list.iter().filter_map(|p| AntPattern::parse(p).map_err(|e| errors.push((reg.name, e))).ok()).collect()
        };
        let includes = reg.includes.as_deref().map(&mut parse);
        let excludes = parse(&reg.excludes);
        out.push(Prepared { includes, excludes, reg });
    }
    crate::sort::sort_by(&mut out, &|a, b| a.reg.order.cmp(&b.reg.order));
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The interceptors that apply to a route, in order, with the opt-outs
/// applied: always and maybe pairs; never pairs are left out.
/// `parsed` is the route's template as the macros parsed it, if they did.
pub(crate) fn bind(
    all: &[Prepared],
    route: &RouteMeta<'_>,
    parsed: Option<&restlight_grammar::template::Template<'_>>,
    skip_all: bool,
    skip: &[TypeId],
) -> Vec<Bound> {
    // No interceptor to bind: the route's template is not compiled again.
    if skip_all || all.is_empty() {
        return Vec::new();
    }
    let pattern = [route_pattern_of(route.path, parsed)];
    all.iter()
        .filter(|p| !skip.contains(&p.reg.type_id))
        .filter(|p| p.reg.route.as_ref().is_none_or(|pred| pred(route)))
        .filter_map(|p| {
            let decision = decide(p.includes.as_deref(), &p.excludes, &pattern);
            let affinity = decision.affinity();
            let path = match decision {
                Decision::Never => return None,
                Decision::Always => None,
                Decision::Maybe(test) => Some(test),
            };
            Some(Bound {
                interceptor: Arc::clone(&p.reg.interceptor),
                path,
                request: p.reg.request.clone(),
                name: p.reg.name,
                affinity,
            })
        })
        .collect()
}

/// A handler wrapped in its interceptors and the global exception mappers.
pub(crate) struct Pipeline {
    bound: Box<[Bound]>,
    mappers: Arc<[ErasedMapper]>,
    inner: Handler,
}

impl Pipeline {
    /// The handler itself when there is nothing to wrap it in.
    pub(crate) fn wrap(inner: Handler, bound: Vec<Bound>, mappers: &Arc<[ErasedMapper]>) -> Handler {
        if bound.is_empty() && mappers.is_empty() {
            return inner;
        }
        let pipeline = Arc::new(Self { bound: bound.into_boxed_slice(), mappers: Arc::clone(mappers), inner });
        Handler::new(move |ctx| -> BoxFuture<Response> { Box::pin(Arc::clone(&pipeline).run(ctx)) })
    }

    async fn run(self: Arc<Self>, mut ctx: RequestContext) -> Response {
        // Which interceptors' pre_handle let the request through: a bit set
        // for the first 64, a vector only for longer chains.
        let n = self.bound.len();
        let mut passed: u64 = 0;
        let mut passed_more: Vec<bool> = if n > 64 { vec![false; n] } else { Vec::new() };
        let mut stopped = None;
        for (i, b) in self.bound.iter().enumerate() {
            if !b.applies(&ctx) {
                continue;
            }
            match b.interceptor.pre(&mut ctx).await {
                ControlFlow::Continue(()) if i < 64 => passed |= 1 << i,
                ControlFlow::Continue(()) => passed_more[i] = true,
                ControlFlow::Break(res) => {
                    stopped = Some(res);
                    break;
                }
            }
        }
        let ran = |i: usize| if i < 64 { passed & (1 << i) != 0 } else { passed_more[i] };
        let head = ctx.share_head();
        let (mut res, failure) = match stopped {
            Some(res) => (res, None),
            None => {
                let (res, failure) = match AssertUnwindSafe(self.inner.call(ctx)).catch_unwind().await {
                    Ok(res) => map_global(res, &self.mappers),
                    Err(panic) => {
                        let message = panic
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_owned())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        (HttpError::internal("the handler panicked").into_response(), Some(Failure::panic(&message)))
                    }
                };
                let mut res = res;
                if failure.as_ref().is_none_or(|f| !f.is_panic()) {
                    for i in (0..n).rev().filter(|i| ran(*i)) {
                        self.bound[i].interceptor.post(&head, &mut res).await;
                    }
                }
                (res, failure)
            }
        };
        let failure = failure.or_else(|| res.extensions().get::<HttpError>().cloned().map(Failure::http));
        for i in (0..n).rev().filter(|i| ran(*i)) {
            self.bound[i].interceptor.after(&head, res.status(), failure.as_ref()).await;
        }
        if let Some(f) = &failure {
            if !f.is_panic() && !res.status().is_server_error() {
                res.extensions_mut().remove::<Failure>();
            }
        }
        res
    }
}
