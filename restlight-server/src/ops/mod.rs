//! Operations: the actuator endpoints, request metrics and the access log.

mod access_log;
mod actuator;
mod counted;
mod health;
#[cfg(feature = "access-log-file")]
mod log_file;
mod metrics;
#[cfg(feature = "otel")]
mod otel;
#[cfg(feature = "otel")]
mod otel_span;
mod trace;

#[cfg(feature = "openapi")]
mod openapi;
pub use access_log::{AccessLog, ACCESS_TARGET};
pub use actuator::{Actuator, Endpoint, UnknownEndpoint, DEFAULT_BASE_PATH};
pub use health::Health;
#[cfg(feature = "openapi")]
pub use openapi::{OpenApiDocs, DEFAULT_JSON_PATH, DEFAULT_UI_PATH, DEFAULT_YAML_PATH};
#[cfg(feature = "otel")]
pub(crate) use otel::effective as otel_effective;
#[cfg(feature = "otel")]
pub use otel::{OtelGuard, Otlp, OtlpError};
pub use trace::REQUEST_TARGET;

pub(crate) use access_log::{Finish, Observe, Pending};
pub(crate) use actuator::OpsShared;
pub(crate) use counted::Counted;
pub(crate) use metrics::{RequestMetrics, Scrape};
pub(crate) use trace::TraceSettings;
