//! The settings an impl block shares with its routes, as written on each
//! item ([`Declared`]) and as they apply to one route ([`Effective`]): the
//! method's value, else the impl block's, else the default.

use crate::ctxt::Spans;
use crate::model::{Scheduler, Spanned};
use crate::slot::{List, Slot};

/// The settings written on one item: the impl block, a method or a route
/// function.
#[derive(Debug, Clone, Default)]
pub(crate) struct Declared {
    pub(crate) produces: Slot<Vec<String>>,
    pub(crate) consumes: Slot<Vec<String>>,
    pub(crate) scheduled: Slot<Scheduler>,
    /// `#[max_body(..)]`, in bytes.
    pub(crate) max_body: Slot<u64>,
    /// `#[timeout(..)]`, in milliseconds.
    pub(crate) timeout: Slot<u64>,
    pub(crate) serializer: Slot<String>,
    pub(crate) request_serializer: Slot<String>,
    pub(crate) response_serializer: Slot<String>,
    pub(crate) compress: Slot<bool>,
    pub(crate) no_interceptors: Slot<()>,
    /// The interceptor types named by `#[skip_interceptor(..)]`.
    pub(crate) skip_interceptor: List<syn::Path>,
    /// The OpenAPI tags named by `#[tag(..)]`.
    pub(crate) tags: List<String>,
}

impl Declared {
    /// Where the first setting was written, if any was.
    pub(crate) fn first_span(&self) -> Option<Spans> {
        [
            self.produces.span(),
            self.consumes.span(),
            self.scheduled.span(),
            self.max_body.span(),
            self.timeout.span(),
            self.no_interceptors.span(),
            self.skip_interceptor.first_span(),
            self.serializer.span(),
            self.request_serializer.span(),
            self.response_serializer.span(),
            self.compress.span(),
            self.tags.first_span(),
        ]
        .into_iter()
        .flatten()
        .next()
    }
}

/// Where an effective setting was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// On the entity parameter (`#[request_serializer]`).
    Entity,
    /// On the route's own function.
    Route,
    /// On the impl block, inherited by its route.
    Impl,
}

/// A setting that applies to a route, and where it was written.
#[derive(Debug, Clone)]
pub(crate) struct Resolved<T> {
    pub(crate) value: T,
    pub(crate) origin: Origin,
    pub(crate) span: Spans,
}

/// The settings that apply to one route. `None` is the framework's default:
/// no `produces` or `consumes` restriction, the default executor, the
/// application's body limit, no timeout, the codec negotiated from the
/// headers, compression on.
#[derive(Debug, Clone)]
pub(crate) struct Effective {
    pub(crate) produces: Option<Resolved<Vec<String>>>,
    pub(crate) consumes: Option<Resolved<Vec<String>>>,
    pub(crate) scheduled: Option<Resolved<Scheduler>>,
    /// In bytes.
    pub(crate) max_body: Option<Resolved<u64>>,
    /// In milliseconds.
    pub(crate) timeout: Option<Resolved<u64>>,
    /// The entity's codec: the entity's `#[request_serializer]`, else the
    /// route's or impl block's `#[request_serializer]`, else their
    /// `#[serializer]`.
    pub(crate) request_serializer: Option<Resolved<String>>,
    /// The response's codec: `#[response_serializer]`, else `#[serializer]`.
    pub(crate) response_serializer: Option<Resolved<String>>,
    pub(crate) compress: Option<Resolved<bool>>,
    /// `#[no_interceptors]` on the route or its impl block.
    pub(crate) no_interceptors: Option<Resolved<()>>,
    /// `#[skip_interceptor(..)]` types: the route's, then its impl block's.
    pub(crate) skip_interceptors: Vec<syn::Path>,
    /// `#[tag(..)]` names: the route's own, else its impl block's (empty:
    /// the document tags the operation with the resource type's name).
    pub(crate) tags: Vec<String>,
}

impl Effective {
    /// The settings of a route declaring `own`, in an impl block declaring
    /// `inherited` (`None` for a route function), whose entity names
    /// `entity_codec`.
    pub(crate) fn resolve(
        own: &Declared,
        inherited: Option<&Declared>,
        entity_codec: Option<&Spanned<String>>,
    ) -> Self {
        let both = inherit(own, inherited, |d| &d.serializer);
        let entity = entity_codec.map(|s| Resolved { value: s.value.clone(), origin: Origin::Entity, span: s.span });
        Self {
            produces: inherit(own, inherited, |d| &d.produces),
            consumes: inherit(own, inherited, |d| &d.consumes),
            scheduled: inherit(own, inherited, |d| &d.scheduled),
            max_body: inherit(own, inherited, |d| &d.max_body),
            timeout: inherit(own, inherited, |d| &d.timeout),
            request_serializer: entity
                .or_else(|| inherit(own, inherited, |d| &d.request_serializer))
                .or_else(|| both.clone()),
            response_serializer: inherit(own, inherited, |d| &d.response_serializer).or(both),
            compress: inherit(own, inherited, |d| &d.compress),
            no_interceptors: inherit(own, inherited, |d| &d.no_interceptors),
            skip_interceptors: own
                .skip_interceptor
                .iter()
                .chain(inherited.into_iter().flat_map(|i| i.skip_interceptor.iter()))
                .map(|p| p.value.clone())
                .collect(),
            tags: match own.tags.first_span() {
                Some(_) => own.tags.iter().map(|t| t.value.clone()).collect(),
                None => inherited.into_iter().flat_map(|i| i.tags.iter()).map(|t| t.value.clone()).collect(),
            },
        }
    }

    /// Whether the route's responses may be compressed (default: yes).
    pub(crate) fn compress(&self) -> bool {
        self.compress.as_ref().is_none_or(|c| c.value)
    }
}

/// The route's own value of a setting, else its impl block's.
fn inherit<T: Clone>(
    own: &Declared,
    inherited: Option<&Declared>,
    slot: fn(&Declared) -> &Slot<T>,
) -> Option<Resolved<T>> {
    let resolved = |s: &Spanned<T>, origin| Resolved { value: s.value.clone(), origin, span: s.span };
    let from_impl = || inherited.and_then(|i| slot(i).get()).map(|s| resolved(s, Origin::Impl));
    slot(own).get().map(|s| resolved(s, Origin::Route)).or_else(from_impl)
}
