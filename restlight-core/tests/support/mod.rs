//! Helpers shared by the executor tests.
#![allow(dead_code)] // each test binary uses a different part of this

use std::time::{Duration, Instant};

use restlight_core::{App, AppBuilder, ExecutorMetrics};

/// A builder without the annotated routes of the test binary.
pub fn builder() -> AppBuilder {
    AppBuilder::new().annotated_routes(false)
}

/// The metrics of the application's executor `name`.
pub fn metrics(app: &App, name: &str) -> ExecutorMetrics {
    app.executors().into_iter().find(|m| m.name == name).unwrap_or_else(|| panic!("no executor {name}"))
}

/// Polls `f` until it holds, for up to three seconds.
pub async fn eventually(what: &str, f: impl Fn() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(3), "timed out waiting for: {what}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}
