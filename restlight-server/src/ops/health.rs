//! [`Health`]: what a user's health check reports.

use serde_json::{Map, Value};

/// The outcome of one health check: up or down, with optional details.
///
/// ```
/// use restlight_server::Health;
/// let health = Health::up().detail("connections", 3);
/// assert!(health.is_up());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Health {
    up: bool,
    details: Map<String, Value>,
}

impl Health {
    /// A healthy component.
    #[must_use]
    pub fn up() -> Self {
        Self { up: true, details: Map::new() }
    }

    /// An unhealthy component: `/health` and `/health/readiness` answer 503.
    #[must_use]
    pub fn down() -> Self {
        Self { up: false, details: Map::new() }
    }

    /// Adds a detail shown under `details` in the check's JSON.
    #[must_use]
    pub fn detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details.insert(key.to_owned(), value.into());
        self
    }

    /// Whether the component is up.
    #[must_use]
    pub fn is_up(&self) -> bool {
        self.up
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("status".into(), status(self.up).into());
        if !self.details.is_empty() {
            out.insert("details".into(), Value::Object(self.details.clone()));
        }
        Value::Object(out)
    }
}

/// `"UP"` or `"DOWN"`, as Spring Boot spells them.
pub(crate) fn status(up: bool) -> &'static str {
    if up {
        "UP"
    } else {
        "DOWN"
    }
}
