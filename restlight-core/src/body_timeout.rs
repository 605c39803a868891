//! The error a server puts in a request body that stopped arriving.

use std::fmt;
use std::time::Duration;

use crate::error::HttpError;

/// A request body stopped arriving: no new piece within the server's body
/// read timeout.
///
/// A server wraps the request body so that it fails with this error; the
/// dispatcher answers it with 408 when it aggregates the body, and a
/// streaming handler sees it as the stream's error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTimeout {
    /// The timeout that passed.
    pub timeout: Duration,
}

impl fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the request body stopped arriving: nothing for {} ms", self.timeout.as_millis())
    }
}

impl std::error::Error for BodyTimeout {}

/// The 408 answer to a body that stopped arriving, naming the timeout.
pub(crate) fn request_timeout(error: &(dyn std::error::Error + 'static)) -> HttpError {
    let timeout_ms =
        error.downcast_ref::<BodyTimeout>().map_or(0, |t| u64::try_from(t.timeout.as_millis()).unwrap_or(u64::MAX));
    HttpError::request_timeout(error.to_string()).with("timeoutMs", timeout_ms)
}
