//! The {{name}} service: [`app`] assembles it, `main.rs` configures and serves it.

pub mod users;

use std::sync::Arc;

use restlight::{Actuator, Endpoint, Restlight};

use crate::users::{InMemoryUserRepository, Users};

/// Read by `main` from the working directory; `RESTLIGHT_SERVER_*`
/// environment variables override it key by key.
pub const CONFIG_FILE: &str = "restlight.toml";

/// The service with its in-memory repository.
pub fn app() -> Restlight {
    app_with(Arc::new(InMemoryUserRepository::default()))
}

/// The service with the given repository (tests pass their own).
///
/// {{resource_kind}} annotated with `{{resource_attribute}}` are found at link time and
/// need no registration here.
pub fn app_with(users: Users) -> Restlight {
    Restlight::new()
        // A bean: handlers receive it as `#[context] users: &Users`.
        .bean(users)
        // GET /actuator/health, /health/liveness, /health/readiness (503 once
        // a graceful shutdown starts), /info and /metrics (Prometheus).
        .actuator(
            Actuator::new()
                .expose(&[Endpoint::Health, Endpoint::Info, Endpoint::Metrics])
                .info(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
}
