//! The errors a server puts in a request body that stopped arriving or
//! arrived too slowly.

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

/// A request body arrived more slowly than the server's minimum data rate
/// once its grace period had passed: a client trickling a byte now and then
/// would otherwise keep the request (and its connection) forever.
///
/// Answered with 408, like [`BodyTimeout`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTooSlow {
    /// The minimum rate, in bytes per second.
    pub min_bytes_per_second: u64,
    /// The bytes received when the body was cut.
    pub received: u64,
    /// How long the body had been arriving.
    pub elapsed: Duration,
}

impl fmt::Display for BodyTooSlow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the request body arrives too slowly: {} bytes in {} ms, below the minimum of {} bytes per second",
            self.received,
            self.elapsed.as_millis(),
            self.min_bytes_per_second
        )
    }
}

impl std::error::Error for BodyTooSlow {}

/// `true` for the errors a server puts in a request body that stopped or
/// slowed below its minimum rate: both are answered with 408.
pub(crate) fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    error.is::<BodyTimeout>() || error.is::<BodyTooSlow>()
}

/// The 408 answer to a body that stopped arriving (naming the timeout) or
/// arrived too slowly (naming the rate and what had arrived).
pub(crate) fn request_timeout(error: &(dyn std::error::Error + 'static)) -> HttpError {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let problem = HttpError::request_timeout(error.to_string());
    if let Some(slow) = error.downcast_ref::<BodyTooSlow>() {
        return problem
            .with("minBytesPerSecond", slow.min_bytes_per_second)
            .with("receivedBytes", slow.received)
            .with("elapsedMs", ms(slow.elapsed));
    }
    problem.with("timeoutMs", error.downcast_ref::<BodyTimeout>().map_or(0, |t| ms(t.timeout)))
}
