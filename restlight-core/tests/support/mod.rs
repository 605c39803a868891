//! Helpers shared by the executor and router tests.
#![allow(dead_code)] // each test binary uses a different part of this

use std::time::{Duration, Instant};

use http::Method;
use restlight_core::media::MediaType;
use restlight_core::router::RouteEntry;
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

/// A route of `method` (`"GET"`, or any extension method) for `template`,
/// consuming and producing anything, named `"{method} {template}"`, declared
/// at `src/routes.rs:1`; the [`EntryExt`] methods change the rest.
pub fn route(method: &str, template: &str) -> RouteEntry {
    RouteEntry {
        method: Method::from_bytes(method.as_bytes()).unwrap_or_else(|e| panic!("method {method}: {e}")),
        template: template.to_owned(),
        parsed: None,
        consumes: vec![],
        produces: vec![],
        location: "src/routes.rs:1".to_owned(),
        name: format!("{method} {template}"),
        conditions: Default::default(),
        precedence: Default::default(),
    }
}

/// Builder-style setters for the router tests' [`RouteEntry`]s.
pub trait EntryExt {
    /// The handler's name.
    fn named(self, name: &str) -> Self;
    /// Where the route is declared.
    fn at(self, location: &str) -> Self;
    /// The media types it consumes (each must parse).
    fn consumes(self, types: &[&str]) -> Self;
    /// The media types it produces (each must parse).
    fn produces(self, types: &[&str]) -> Self;
}

fn media(types: &[&str]) -> Vec<MediaType> {
    types.iter().map(|t| MediaType::parse(t).unwrap_or_else(|e| panic!("{e}"))).collect()
}

impl EntryExt for RouteEntry {
    fn named(mut self, name: &str) -> Self {
        name.clone_into(&mut self.name);
        self
    }

    fn at(mut self, location: &str) -> Self {
        location.clone_into(&mut self.location);
        self
    }

    fn consumes(mut self, types: &[&str]) -> Self {
        self.consumes = media(types);
        self
    }

    fn produces(mut self, types: &[&str]) -> Self {
        self.produces = media(types);
        self
    }
}
