//! Compiling routes: each [`Route`] bound to its handler, executor, codecs
//! and interceptors once, at startup or when it is added while serving.
//! This file also decides which executors an application has.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::Arc;

use super::RouteInfo;
use crate::bind::{Bindings, Registry};
use crate::codec::{Codec, Codecs};
use crate::descriptor::SchedulerName;
use crate::error::HttpError;
use crate::executor::{Exec, ExecutorSpec, NamedExecutor, Scheduler, BIZ, IO};
use crate::handler::Handler;
use crate::intercept::{self, RouteMeta};
use crate::mapper::ErasedMapper;
use crate::media::MediaType;
use crate::route::{Route, Source};
use crate::router::{Conditions, EntryRef, Precedence, RouteEntry};
use crate::startup::StartupError;
use restlight_grammar::condition::Condition;
use restlight_grammar::media as grammar;

type SharedCodec = Arc<dyn Codec>;

/// A route compiled for serving: everything decided at compile time.
pub(crate) struct CompiledRoute {
    /// Identifies the route for the application's life; never reused.
    pub(crate) id: u64,
    /// The handler wrapped in the route's interceptors and exception mappers.
    pub(crate) handler: Handler,
    /// Whether the body is handed over as a stream rather than read in full.
    pub(crate) stream_body: bool,
    /// The limit of a streamed body: the route's own, else none.
    pub(crate) stream_limit: Option<usize>,
    pub(crate) exec: Exec,
    /// `#[serializer]` / `#[response_serializer]`: writes every response.
    pub(crate) response_codec: Option<Arc<dyn Codec>>,
    /// `#[serializer]` / `#[request_serializer]`: reads every entity.
    pub(crate) request_codec: Option<Arc<dyn Codec>>,
    pub(crate) compress: bool,
    /// The resource type of an annotated route of an impl block.
    pub(crate) resource_type: Option<TypeId>,
    /// Also what the route's body limit and time limit are read from.
    pub(crate) info: RouteInfo,
    /// What the router needs besides the listing's strings and conditions,
    /// kept to rebuild the router on a change; its `produces` (parsed) is
    /// also what responses are written against.
    pub(crate) matching: Matching,
    /// The macros' descriptor of an annotated route (for the OpenAPI document).
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    pub(crate) descriptor: Option<&'static crate::descriptor::RouteDescriptor>,
    /// Left out of the OpenAPI document.
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    pub(crate) undocumented: bool,
}

/// What the router reads of a compiled route besides what its listing
/// ([`RouteInfo`]) holds: the method, the template and the media types
/// parsed, and the template's precedence.
pub(crate) struct Matching {
    pub(crate) method: http::Method,
    pub(crate) parsed: Option<restlight_grammar::template::Template<'static>>,
    pub(crate) consumes: Vec<MediaType>,
    pub(crate) produces: Vec<MediaType>,
    pub(crate) precedence: Precedence,
}

impl CompiledRoute {
    /// The route as the router's build reads it: the template, name,
    /// location and conditions are the listing's, not copies.
    pub(crate) fn lend(&self) -> EntryRef<'_> {
        EntryRef {
            method: &self.matching.method,
            template: &self.info.path,
            parsed: self.matching.parsed.as_ref(),
            consumes: &self.matching.consumes,
            produces: &self.matching.produces,
            location: &self.info.location,
            name: &self.info.name,
            conditions: &self.info.conditions,
            precedence: self.matching.precedence,
        }
    }

    /// The handler, when it answers where the request is routed: an
    /// [immediate](crate::Handler::immediate) one (or one that reads
    /// nothing, [`immediate_no_input`](crate::Handler::immediate_no_input))
    /// on the IO executor, without a time limit. A route behind
    /// interceptors has a handler of their pipeline, never an immediate one.
    pub(crate) fn immediate_inline(&self) -> Option<crate::handler::Immediate<'_>> {
        if self.exec.is_inline() && self.info.timeout.is_none() {
            self.handler.as_immediate()
        } else {
            None
        }
    }
}

/// What compiling a route needs, kept after startup so that routes added
/// while serving get the same checks and bindings as those of startup.
pub(crate) struct Compiler {
    /// Resource instances by type: registered, or built with `Default`.
    pub(crate) resources: Registry,
    pub(super) beans: Registry,
    /// The registered resolver factories, in registration order.
    pub(super) resolver_factories: Arc<[Arc<dyn crate::resolve::ResolverFactory>]>,
    pub(super) executors: HashMap<String, Exec>,
    pub(super) default_scheduler: String,
    pub(super) max_body: usize,
    pub(super) prepared: Vec<intercept::Prepared>,
    pub(super) mappers: Arc<[ErasedMapper]>,
    pub(crate) codecs: Arc<Codecs>,
    /// The id of the next compiled route: ids are never reused.
    pub(super) next_id: u64,
    /// JAX-RS method selection to the letter, for every router built.
    pub(super) strict: bool,
}

impl Compiler {
    /// Compiles one route, binding its resource from `resources` (which
    /// receives instances built with `Default`). Problems go to `errors`;
    /// a resource type missing an instance is reported once per batch.
    /// The route is taken, not borrowed: its strings move into the route's
    /// listing instead of being copied.
    pub(crate) fn compile(
        &mut self,
        route: Route,
        resources: &mut Registry,
        missing_resources: &mut Vec<&'static str>,
        errors: &mut Vec<StartupError>,
    ) -> CompiledRoute {
        let location = route.location();
        let (matching, conditions, media_errors) = matching_of(&route, &location);
        errors.extend(media_errors);
        let (response_codec, request_codec) = route_codecs(&route, &self.codecs, &location, errors);
        let mut stream_body = route.stream_body;
        let handler = match &route.source {
            Source::Built(h) => Some(h.clone()),
            Source::Descriptor(d) => {
                let label = route_label(&route.name, &location);
                let mut bindings = Bindings::new(resources, &self.beans, &label, &self.resolver_factories);
                let built = match &route.located {
                    Some(located) => (located.0)(&mut bindings),
                    None => (d.factory)(&mut bindings),
                };
                stream_body |= bindings.stream_body;
                match built {
                    Ok(h) => Some(h),
                    Err(StartupError::MissingResource { type_name, .. })
                        if !super::first_seen(missing_resources, type_name) =>
                    {
                        None
                    }
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                }
            }
        };
        // Owned once: it moves into the route's listing below.
        let scheduler = self.scheduler_of(&route).to_owned();
        // `io` is never a registered executor (it is refused): inline,
        // without hashing the name (most routes run there).
        let registered = if scheduler == IO { None } else { self.executors.get(&scheduler) };
        let exec = match registered {
            Some(exec) => exec.clone(),
            None if scheduler == IO => Exec::Inline,
            // A missing default scheduler is reported once, at startup.
            None if scheduler == self.default_scheduler => Exec::Inline,
            None => {
                errors.push(StartupError::MissingScheduler {
                    name: scheduler.clone(),
                    route: route_label(&route.name, &location),
                });
                Exec::Inline
            }
        };
        let max_body = route.max_body.unwrap_or(self.max_body);
        let meta = RouteMeta {
            method: &route.method,
            path: &route.path,
            produces: &route.produces,
            consumes: &route.consumes,
            name: &route.name,
            resource: route.resource(),
        };
        let bound = intercept::bind(&self.prepared, &meta, matching.parsed.as_ref(), route.skip_all, &route.skip);
        let interceptors = bound.iter().map(|b| (b.name, b.affinity)).collect();
        let handler = intercept::Pipeline::wrap(handler.unwrap_or_else(unbound_handler), bound, &self.mappers);
        let id = self.next_id;
        self.next_id += 1;
        let resource_type = route.resource_type();
        let descriptor = match &route.source {
            Source::Descriptor(d) => Some(*d),
            Source::Built(_) => None,
        };
        CompiledRoute {
            id,
            handler,
            exec,
            stream_limit: if stream_body { route.max_body } else { None },
            stream_body,
            response_codec,
            request_codec,
            compress: route.serializers.compress,
            resource_type,
            info: RouteInfo {
                id,
                method: route.method.as_str().to_owned(),
                path: route.path,
                produces: route.produces,
                consumes: route.consumes,
                scheduler,
                max_body,
                timeout: route.timeout,
                name: route.name,
                location,
                interceptors,
                conditions,
            },
            matching,
            undocumented: route.undocumented,
            descriptor,
        }
    }

    /// The executor a route runs on: its own `#[scheduled]`, else the
    /// default; a plain `fn` is moved from IO to `"biz"`.
    fn scheduler_of<'a>(&'a self, route: &'a Route) -> &'a str {
        let name = match (&route.scheduler_name, route.scheduler) {
            (Some(name), _) => name.as_str(),
            (None, SchedulerName::Named(name)) => name,
            (None, SchedulerName::Io) => IO,
            (None, SchedulerName::Biz) => BIZ,
            (None, SchedulerName::Default) => self.default_scheduler.as_str(),
        };
        if name == IO && route.blocking {
            BIZ
        } else {
            name
        }
    }
}

/// Builds every registered executor, and the default business one
/// unless `"biz"` was registered.
pub(crate) fn build_executors(
    registered: &[NamedExecutor],
    default_scheduler: &str,
    errors: &mut Vec<StartupError>,
) -> HashMap<String, Exec> {
    let mut specs = registered.to_vec();
    if !specs.iter().any(|e| e.name == BIZ) {
        specs.push(NamedExecutor { name: BIZ.to_owned(), spec: ExecutorSpec::Scheduler(Scheduler::default()) });
    }
    let mut built = HashMap::new();
    for spec in specs {
        if spec.name == IO {
            errors.push(StartupError::BadScheduler {
                name: spec.name,
                reason: "`io` is reserved for running inline on the IO threads".to_owned(),
            });
            continue;
        }
        match spec.build() {
            Ok(exec) => {
                built.insert(spec.name, exec);
            }
            Err(e) => errors.push(StartupError::BadScheduler { name: spec.name, reason: e.to_string() }),
        }
    }
    if default_scheduler != IO && !built.contains_key(default_scheduler) {
        errors.push(StartupError::MissingScheduler {
            name: default_scheduler.to_owned(),
            route: "the default scheduler".to_owned(),
        });
    }
    built
}

/// The router's entry for `route`, declared at `location`, with the
/// problems of its media types.
pub(crate) fn entry_of(route: &Route, location: &str) -> (RouteEntry, Vec<StartupError>) {
    let (matching, conditions, errors) = matching_of(route, location);
    let Matching { method, parsed, consumes, produces, precedence } = matching;
    let (template, location, name) = (route.path.clone(), location.to_owned(), route.name.clone());
    (RouteEntry { method, template, parsed, consumes, produces, location, name, conditions, precedence }, errors)
}

/// The [`Matching`] of `route`, its conditions (which its listing keeps),
/// and the problems of its media types.
fn matching_of(route: &Route, location: &str) -> (Matching, Conditions, Vec<StartupError>) {
    let mut errors = Vec::new();
    let mut bad = |value: String| {
        errors.push(StartupError::BadMediaType { value, route: route_label(&route.name, location) });
    };
    let conditions = match &route.source {
        // The macro checked every condition at compile time.
        Source::Descriptor(d) => {
            let parse = |list: &'static [&'static str]| list.iter().filter_map(|c| Condition::parse(c).ok());
            Conditions::new(parse(d.param_conditions), parse(d.header_conditions)).trailing_slash(d.trailing_slash)
        }
        Source::Built(_) => Conditions::default(),
    };
    let (consumes, produces, parsed) = match &route.source {
        // The macro parsed and checked these at compile time: only the
        // conversion to a header value is left, which fails for no type the
        // grammar accepts.
        Source::Descriptor(d) => {
            let mut typed = |list: &[grammar::MediaRange<'static>]| -> Vec<MediaType> {
                list.iter()
                    .filter_map(|m| {
                        let typed = MediaType::from_parsed(m);
                        if typed.is_none() {
                            bad(m.to_string());
                        }
                        typed
                    })
                    .collect()
            };
            (typed(d.consumes), typed(d.produces), Some(d.template.clone()))
        }
        Source::Built(_) => {
            let mut parse = |list: &[String]| -> Vec<MediaType> {
                list.iter().filter_map(|m| MediaType::parse(m).map_err(|_| bad(m.clone())).ok()).collect()
            };
            (parse(&route.consumes), parse(&route.produces), None)
        }
    };
    let matching = Matching {
        method: route.method.clone(),
        parsed,
        consumes,
        produces,
        precedence: match &route.source {
            Source::Descriptor(d) => d.precedence,
            Source::Built(_) => Precedence::JaxRs,
        },
    };
    (matching, conditions, errors)
}

/// The codecs a route declared, looked up by name; an unknown one is a
/// startup error naming the route and the known formats.
fn route_codecs(
    route: &Route,
    codecs: &Codecs,
    location: &str,
    errors: &mut Vec<StartupError>,
) -> (Option<SharedCodec>, Option<SharedCodec>) {
    let mut find = |name: &Option<String>| {
        let name = name.as_deref()?;
        let found = codecs.by_name(name).cloned();
        if found.is_none() {
            errors.push(StartupError::MissingCodec {
                name: name.to_owned(),
                route: route_label(&route.name, location),
                known: codecs.formats().join(", "),
            });
        }
        found
    };
    let response = find(&route.serializers.response);
    let request = find(&route.serializers.request);
    (response, request)
}

/// A route as startup errors and bindings name it: `name (file:line)`,
/// built without `format!` (once per annotated route at startup).
fn route_label(name: &str, location: &str) -> String {
    let mut label = String::with_capacity(name.len() + location.len() + 3);
    label.push_str(name);
    label.push_str(" (");
    label.push_str(location);
    label.push(')');
    label
}

pub(crate) fn collapse(mut errors: Vec<StartupError>) -> StartupError {
    if errors.len() == 1 {
        errors.remove(0)
    } else {
        StartupError::Many(errors)
    }
}

fn unbound_handler() -> Handler {
    Handler::new(|_| Box::pin(async { crate::IntoResponse::into_response(HttpError::internal("route not bound")) }))
}
