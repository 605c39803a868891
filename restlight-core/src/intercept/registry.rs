//! What `#[restlight::interceptor]` and the route macros' opt-outs emit:
//! support for generated code, reached through `__private`.

use std::any::TypeId;

use super::Intercept;

/// An interceptor registered with `#[restlight::interceptor]`, collected
/// with [`inventory`] like routes.
#[derive(Debug)]
pub struct InterceptorDescriptor {
    /// The registration, built at startup with the type's `Default`.
    pub make: fn() -> Intercept,
    /// `file!()` of the impl.
    pub file: &'static str,
    /// `line!()` of the impl.
    pub line: u32,
}

inventory::collect!(InterceptorDescriptor);

/// The interceptors registered with the attribute, in a deterministic order.
pub(crate) fn annotated() -> Vec<Intercept> {
    let mut all: Vec<&InterceptorDescriptor> = inventory::iter::<InterceptorDescriptor>.into_iter().collect();
    crate::sort::sort_by(&mut all, &|a, b| (a.file, a.line).cmp(&(b.file, b.line)));
    all.into_iter().map(|d| (d.make)()).collect()
}

/// Which interceptors a route declines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OptOut {
    /// `#[no_interceptors]`: none applies.
    pub all: bool,
    /// `#[skip_interceptor(T)]`: these types do not apply.
    pub types: &'static [fn() -> TypeId],
}

impl OptOut {
    /// No opt-out.
    pub const NONE: Self = Self { all: false, types: &[] };
}
