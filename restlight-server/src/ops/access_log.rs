//! The access log and the per-request recording of metrics.
//!
//! [`Observe`] is what the hyper service consults for each request when
//! metrics or the access log are on; with both off the service does not
//! build one, and a request pays nothing.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use http::{Method, Uri, Version};
use restlight_core::MatchedRoute;

use super::metrics::RequestMetrics;

/// The `tracing` target of access-log lines.
pub const ACCESS_TARGET: &str = "restlight::access";

/// Settings of the access log, given to
/// [`Restlight::access_log`](crate::Restlight::access_log): one line per
/// request (time, remote address, method, URI, status, response body
/// bytes, duration, route template, scheduler), emitted as an `INFO` event
/// of target `restlight::access` and, optionally, appended to a file that
/// rolls over daily.
///
/// ```
/// use restlight_server::{AccessLog, Restlight};
/// let server = Restlight::new().access_log(AccessLog::new());
/// # let _ = server;
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct AccessLog {
    #[cfg(feature = "access-log-file")]
    pub(crate) file: Option<(std::path::PathBuf, String)>,
}

impl AccessLog {
    /// Lines through `tracing` only (target `restlight::access`, level
    /// `INFO`); what the subscriber does with them is the subscriber's
    /// business.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also appends each line to `dir/prefix.YYYY-MM-DD`, a new file each
    /// day (UTC), written by a background thread (`tracing-appender`'s
    /// non-blocking writer: lines are dropped rather than slowing requests
    /// when the disk falls behind).
    ///
    /// Default: no file.
    #[cfg(feature = "access-log-file")]
    pub fn daily_file(mut self, dir: impl Into<std::path::PathBuf>, prefix: &str) -> Self {
        self.file = Some((dir.into(), prefix.to_owned()));
        self
    }
}

/// The per-server recorder: metrics, access log, or both.
#[derive(Debug)]
pub(crate) struct Observe {
    metrics: Option<Arc<RequestMetrics>>,
    log: bool,
    #[cfg(feature = "access-log-file")]
    file: Option<FileSink>,
}

#[cfg(feature = "access-log-file")]
struct FileSink {
    writer: std::sync::Mutex<tracing_appender::non_blocking::NonBlocking>,
    _guard: tracing_appender::non_blocking::WorkerGuard,
}

#[cfg(feature = "access-log-file")]
impl std::fmt::Debug for FileSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileSink").finish_non_exhaustive()
    }
}

impl Observe {
    /// `None` when there is nothing to record.
    pub(crate) fn new(metrics: Option<Arc<RequestMetrics>>, log: Option<&AccessLog>) -> Option<Arc<Self>> {
        if metrics.is_none() && log.is_none() {
            return None;
        }
        #[cfg(feature = "access-log-file")]
        let file = log.and_then(|l| l.file.as_ref()).map(|(dir, prefix)| {
            let appender = tracing_appender::rolling::daily(dir, prefix);
            let (writer, guard) = tracing_appender::non_blocking(appender);
            FileSink { writer: std::sync::Mutex::new(writer), _guard: guard }
        });
        Some(Arc::new(Self {
            metrics,
            log: log.is_some(),
            #[cfg(feature = "access-log-file")]
            file,
        }))
    }

    /// The request metrics, to count received bytes.
    pub(crate) fn metrics(&self) -> Option<&Arc<RequestMetrics>> {
        self.metrics.as_ref()
    }

    /// Starts recording a request.
    pub(crate) fn begin<B>(self: &Arc<Self>, req: &http::Request<B>, remote: SocketAddr) -> Pending {
        let line = self.log.then(|| RequestLine {
            method: req.method().clone(),
            uri: req.uri().clone(),
            version: req.version(),
            remote,
            wall: SystemTime::now(),
        });
        Pending { observe: Arc::clone(self), started: Instant::now(), line }
    }
}

struct RequestLine {
    method: Method,
    uri: Uri,
    version: Version,
    remote: SocketAddr,
    wall: SystemTime,
}

/// A request being recorded, until its response head is known.
pub(crate) struct Pending {
    observe: Arc<Observe>,
    started: Instant,
    line: Option<RequestLine>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending").field("started", &self.started).finish_non_exhaustive()
    }
}

impl Pending {
    /// The response head is ready: what is left is counting its body.
    /// Takes the [`MatchedRoute`] out of the response: the server is the
    /// last to look at its extensions.
    pub(crate) fn respond(self, res: &mut restlight_core::Response) -> Finish {
        Finish {
            pending: self,
            status: res.status().as_u16(),
            route: res.extensions_mut().remove::<MatchedRoute>(),
            bytes: 0,
        }
    }
}

/// A response being sent; recorded when its body ends or is dropped.
#[derive(Debug)]
pub(crate) struct Finish {
    pending: Pending,
    status: u16,
    route: Option<MatchedRoute>,
    bytes: u64,
}

impl Finish {
    /// Counts body bytes sent.
    pub(crate) fn sent(&mut self, n: usize) {
        self.bytes += n as u64;
    }
}

impl Drop for Finish {
    fn drop(&mut self) {
        let elapsed = self.pending.started.elapsed();
        let observe = &self.pending.observe;
        if let Some(metrics) = &observe.metrics {
            metrics.record(self.route.as_ref(), self.status, elapsed, self.bytes);
        }
        let Some(line) = &self.pending.line else { return };
        let info = self.route.as_ref().map(MatchedRoute::info);
        let (template, scheduler) = info.map_or(("-", "-"), |r| (r.path.as_str(), r.scheduler.as_str()));
        let to_tracing = tracing::enabled!(target: ACCESS_TARGET, tracing::Level::INFO);
        #[cfg(feature = "access-log-file")]
        let to_file = observe.file.is_some();
        #[cfg(not(feature = "access-log-file"))]
        let to_file = false;
        if !to_tracing && !to_file {
            return;
        }
        let mut text = String::with_capacity(160);
        let _ = write!(
            text,
            "{} {} \"{} {} {:?}\" {} {} {:.3}ms route={} scheduler={}",
            rfc3339(line.wall),
            line.remote,
            line.method,
            line.uri,
            line.version,
            self.status,
            self.bytes,
            elapsed.as_secs_f64() * 1e3,
            template,
            scheduler
        );
        if to_tracing {
            tracing::info!(target: ACCESS_TARGET, "{text}");
        }
        #[cfg(feature = "access-log-file")]
        if let Some(file) = &observe.file {
            use std::io::Write as _;
            text.push('\n');
            if let Ok(mut writer) = file.writer.lock() {
                let _ = writer.write_all(text.as_bytes());
            }
        }
    }
}

/// Counts received bytes into the metrics.
pub(crate) fn received(metrics: &RequestMetrics, n: usize) {
    metrics.bytes_in.fetch_add(n as u64, Ordering::Relaxed);
}

/// `2026-11-30T08:56:09.123Z`.
fn rfc3339(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_formats_utc() {
        let t = UNIX_EPOCH + std::time::Duration::from_millis(1_796_028_969_123);
        assert_eq!(rfc3339(t), "2026-11-30T08:56:09.123Z");
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
    }
}
