//! `#[valid]` entities: checked with [`garde`](https://docs.rs/garde) after
//! decoding, answered with 400 and every violation.
//!
//! The problem-details body lists each violation with the field's path and
//! the message:
//!
//! ```json
//! { "status": 400, "detail": "the entity `user` is invalid: 2 violations",
//!   "violations": [ { "field": "name", "message": "length is lower than 1" },
//!                   { "field": "emails[0]", "message": "not a valid email: ..." } ] }
//! ```
//!
//! The entity type derives `garde::Validate` with a `Context` that is
//! `Default` (the usual `()`). Needs the `validation` feature (on by default
//! in the `restlight` facade).

#[cfg(feature = "validation")]
use serde_json::{json, Value};

use crate::error::HttpError;
use crate::meta::ParamMeta;

/// Validates a decoded entity; the 400 lists every violation.
///
/// # Errors
/// 400 with `violations: [{field, message}]` when the value is invalid.
#[cfg(feature = "validation")]
pub fn validate_entity<T>(value: &T, meta: &ParamMeta) -> Result<(), HttpError>
where
    T: garde::Validate,
    T::Context: Default,
{
    let Err(report) = value.validate() else { return Ok(()) };
    let violations: Vec<Value> =
        report.iter().map(|(path, error)| json!({ "field": path.to_string(), "message": error.message() })).collect();
    Err(invalid(meta, violations))
}

/// Without the `validation` feature, `#[valid]` does not compile: the bound
/// names the feature.
#[cfg(not(feature = "validation"))]
pub fn validate_entity<T: ValidationFeature>(_value: &T, _meta: &ParamMeta) -> Result<(), HttpError> {
    Ok(())
}

/// Never implemented: `#[valid]` needs the `validation` feature.
#[cfg(not(feature = "validation"))]
#[diagnostic::on_unimplemented(
    message = "`#[valid]` needs the `validation` feature of restlight",
    note = "enable the `validation` feature of `restlight` (or `restlight-core`) in Cargo.toml"
)]
pub trait ValidationFeature {}

#[cfg(feature = "validation")]
fn invalid(meta: &ParamMeta, violations: Vec<Value>) -> HttpError {
    let n = violations.len();
    let plural = if n == 1 { "" } else { "s" };
    HttpError::bad_request(format!("the entity `{}` is invalid: {n} violation{plural}", meta.name))
        .with("parameter", meta.name)
        .with("violations", violations)
}
