//! What a handler factory may ask for at startup: [`Bindings`] over the
//! registered resources and beans ([`Registry`]).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

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
#[derive(Debug)]
pub struct Bindings<'a> {
    pub(crate) resources: &'a mut Registry,
    pub(crate) beans: &'a Registry,
    pub(crate) route: &'a str,
    pub(crate) stream_body: bool,
}

impl<'a> Bindings<'a> {
    pub(crate) fn new(resources: &'a mut Registry, beans: &'a Registry, route: &'a str) -> Self {
        Self { resources, beans, route, stream_body: false }
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
