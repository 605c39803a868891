//! What a handler factory may ask for at startup: [`Bindings`] over the
//! registered resources and beans ([`Registry`]).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::meta::ParamMeta;
use crate::request::RequestContext;
use crate::resolve::{Claimed, ParamDecl, ResolverFactory};
use crate::startup::StartupError;

type Shared = Arc<dyn Any + Send + Sync>;

/// Instances registered with `.resource(..)` and `.bean(..)`, keyed by type.
#[derive(Clone, Default)]
pub(crate) struct Registry {
    entries: HashMap<TypeId, (Shared, &'static str)>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.entries.values().map(|(_, name)| name)).finish()
    }
}

impl Registry {
    /// Registers `value` under its type, replacing an earlier one.
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: Arc<T>) {
        self.entries.insert(TypeId::of::<T>(), (value, std::any::type_name::<T>()));
    }

    /// Forgets the instance of the type `type_id`, if any.
    pub(crate) fn remove(&mut self, type_id: TypeId) {
        self.entries.remove(&type_id);
    }

    /// The instance of type `T`, if registered.
    #[must_use]
    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.entries.get(&TypeId::of::<T>()).and_then(|(v, _)| Arc::clone(v).downcast::<T>().ok())
    }
}

/// What a handler factory may ask for at startup: its resource instance and
/// its `#[context]` beans. Missing ones are startup errors naming the type.
pub struct Bindings<'a> {
    pub(crate) resources: &'a mut Registry,
    pub(crate) beans: &'a Registry,
    pub(crate) route: &'a str,
    pub(crate) stream_body: bool,
    pub(crate) factories: &'a [Arc<dyn ResolverFactory>],
}

impl fmt::Debug for Bindings<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bindings")
            .field("route", &self.route)
            .field("beans", &self.beans)
            .field("resolver_factories", &self.factories.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Bindings<'a> {
    pub(crate) fn new(
        resources: &'a mut Registry,
        beans: &'a Registry,
        route: &'a str,
        factories: &'a [Arc<dyn ResolverFactory>],
    ) -> Self {
        Self { resources, beans, route, stream_body: false, factories }
    }

    /// The route being bound, as startup errors name it:
    /// `UserResource::me (src/users.rs:12)`.
    #[must_use]
    pub fn route(&self) -> &str {
        self.route
    }

    /// The resolver of the `#[resolve]` parameter `param` (of type `T`),
    /// from the first registered [`ResolverFactory`] that claims it.
    ///
    /// # Errors
    /// [`StartupError::UnresolvedParam`] when none claims it, or the one
    /// that does gives a resolver of another type.
    pub fn claim<T: Send + 'static>(&self, param: &'static ParamMeta) -> Result<Claimed<T>, StartupError> {
        let decl = ParamDecl { meta: param, type_id: TypeId::of::<T>(), route: self.route };
        let unresolved = |reason: String| StartupError::UnresolvedParam {
            param: param.name,
            rust_type: param.rust_type,
            route: self.route.to_owned(),
            reason,
        };
        let Some(resolver) = self.factories.iter().find_map(|f| f.claim(&decl)) else {
            let reason = if self.factories.is_empty() {
                "has no resolver and no resolver factory is registered".to_owned()
            } else {
                format!("was claimed by none of the {} registered resolver factories", self.factories.len())
            };
            return Err(unresolved(reason));
        };
        resolver
            .typed::<T>()
            .map_err(|other| unresolved(format!("was claimed by a factory whose resolver gives `{other}` instead")))
    }

    /// Marks the route as reading its body as a stream (generated code
    /// calls it for a [`BodyStream`](crate::BodyStream) entity): the body is
    /// then not read in full before the handler runs.
    pub fn stream_body(&mut self) {
        self.stream_body = true;
    }

    /// The resource instance of type `T`: the one registered with
    /// `.resource(..)`, else one built once with `default` and shared by all
    /// routes of the type.
    ///
    /// # Errors
    /// [`StartupError::MissingResource`] when none is registered and `T` has no `Default`.
    pub fn resource<T: Send + Sync + 'static>(&mut self, default: Option<fn() -> T>) -> Result<Arc<T>, StartupError> {
        if let Some(found) = self.resources.get::<T>() {
            return Ok(found);
        }
        let Some(make) = default else {
            return Err(StartupError::MissingResource {
                type_name: std::any::type_name::<T>(),
                route: self.route.to_owned(),
            });
        };
        let built = Arc::new(make());
        self.resources.insert(Arc::clone(&built));
        Ok(built)
    }

    /// The bean of type `T` registered with `.bean(..)`.
    ///
    /// # Errors
    /// [`StartupError::MissingBean`] when no bean of that type is registered.
    pub fn bean<T: Send + Sync + 'static>(&self) -> Result<Arc<T>, StartupError> {
        self.beans.get::<T>().ok_or_else(|| StartupError::MissingBean {
            type_name: std::any::type_name::<T>(),
            route: self.route.to_owned(),
        })
    }
}

/// Resolves a handler parameter of the implementing type, as
/// [`FromRequest`](crate::FromRequest) does, with a state bound once per
/// route at startup: a bean, a setting, a compiled pattern. Per request
/// the state is shared (one reference count), not rebuilt.
///
/// ```
/// use std::sync::Arc;
/// use restlight_core::{Bindings, FromRequestWith, HttpError, ParamMeta, RequestContext, StartupError};
///
/// pub struct Users { /* a bean */ }
/// impl Users { fn by_token(&self, t: &str) -> Option<String> { (t == "s3cret").then(|| "ada".into()) } }
///
/// struct CurrentUser(String);
///
/// impl FromRequestWith for CurrentUser {
///     type State = Arc<Users>;
///     type Error = HttpError;
///     fn bind(b: &mut Bindings<'_>, _: &'static ParamMeta) -> Result<Arc<Users>, StartupError> {
///         b.bean::<Users>()
///     }
///     async fn from_request(req: &RequestContext, users: &Arc<Users>) -> Result<Self, HttpError> {
///         let token = req.header("authorization").and_then(|h| h.strip_prefix("Bearer "));
///         token.and_then(|t| users.by_token(t)).map(CurrentUser).ok_or_else(|| HttpError::unauthorized("sign in"))
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no argument resolver",
    note = "implement `restlight::FromRequest` or `restlight::FromRequestWith` for `{Self}`"
)]
pub trait FromRequestWith: Sized + Send {
    /// What `bind` keeps for the route.
    type State: Send + Sync + 'static;
    /// Why the value could not be resolved, as for
    /// [`FromRequest::Error`](crate::FromRequest::Error).
    type Error;

    /// Builds the state once per route and parameter, at startup.
    ///
    /// # Errors
    /// A startup error, for example a missing bean.
    fn bind(b: &mut Bindings<'_>, param: &'static ParamMeta) -> Result<Self::State, StartupError>;

    /// Resolves the value for one request.
    ///
    /// # Errors
    /// When the request does not provide the value.
    fn from_request(
        req: &RequestContext,
        state: &Self::State,
    ) -> impl std::future::Future<Output = Result<Self, Self::Error>> + Send;
}
