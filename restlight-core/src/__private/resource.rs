//! Resources: whether a resource type can be built with `Default`.

use super::*;

/// Selects whether a resource type can be built with `Default`.
#[derive(Debug)]
pub struct DefaultProbe<T>(PhantomData<T>);

impl<T> DefaultProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for DefaultProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Resource types with `Default`.
pub trait WithDefault<T> {
    /// `Some(T::default)`.
    fn __rl_ctor(&self) -> Option<fn() -> T>;
}
impl<T: Default> WithDefault<T> for &&DefaultProbe<T> {
    fn __rl_ctor(&self) -> Option<fn() -> T> {
        Some(T::default)
    }
}

/// Resource types without `Default`.
pub trait WithoutDefault<T> {
    /// `None`.
    fn __rl_ctor(&self) -> Option<fn() -> T>;
}
impl<T> WithoutDefault<T> for &DefaultProbe<T> {
    fn __rl_ctor(&self) -> Option<fn() -> T> {
        None
    }
}
