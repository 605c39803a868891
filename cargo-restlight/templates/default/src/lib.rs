//! The {{name}} service: [`app`] assembles it, `main.rs` configures and serves it.

pub mod users;

use std::fmt::Write as _;
use std::sync::Arc;

use restlight::{Actuator, App, Endpoint, Restlight};

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
/// Resources annotated with `#[restlight::path]` are found at link time and
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

/// The route table, one route a line: method, path, produces, consumes,
/// executor and where the route is declared.
pub fn route_table(app: &App) -> String {
    let rows: Vec<[String; 6]> = app
        .routes()
        .iter()
        .map(|r| {
            [
                r.method.clone(),
                r.path.clone(),
                media(&r.produces),
                media(&r.consumes),
                r.scheduler.clone(),
                r.location.clone(),
            ]
        })
        .collect();
    let header = [
        "METHOD", "PATH", "PRODUCES", "CONSUMES", "EXECUTOR", "SOURCE",
    ];
    let header = header.map(str::to_owned);
    let mut widths = header.clone().map(|h| h.len());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(widths) {
            let _ = write!(line, "{cell:width$}  ");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn media(types: &[String]) -> String {
    if types.is_empty() {
        "-".to_owned()
    } else {
        types.join(",")
    }
}
