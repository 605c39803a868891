//! The access log and the per-request recording of metrics.
//!
//! [`Observe`] is what the hyper service consults for each request when
//! metrics or the access log are on; with both off the service does not
//! build one, and a request pays nothing.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use http::{Method, Uri, Version};
use restlight_core::{MatchedRoute, TraceContext};

use super::metrics::RequestMetrics;
use crate::activity::Activity;
use restlight_core::trace::RequestTags;

use super::trace::{RequestSpan, TraceSettings};

/// The `tracing` target of access-log lines.
pub const ACCESS_TARGET: &str = "restlight::access";

/// Settings of the access log, given to
/// [`Restlight::access_log`](crate::Restlight::access_log): one line per
/// request (time, remote address, method, URI, status, response body
/// bytes, duration, route template, scheduler, and the request ID and
/// trace ID when those are on: see
/// [`Restlight::request_ids`](crate::Restlight::request_ids) and
/// [`Restlight::trace_context`](crate::Restlight::trace_context)), emitted as an `INFO` event
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
    /// day (UTC). A request only copies its line into memory; a thread of
    /// the server's writes the lines gathered every 100 ms (at once past
    /// 64 KiB), one `write` per batch, and what is left at shutdown. When
    /// the disk falls 8 MiB behind, lines are dropped and a warning counts
    /// them, rather than slowing requests. A batch written just after
    /// midnight may carry the last lines of the day before.
    ///
    /// Default: no file.
    #[cfg(feature = "access-log-file")]
    pub fn daily_file(mut self, dir: impl Into<std::path::PathBuf>, prefix: &str) -> Self {
        self.file = Some((dir.into(), prefix.to_owned()));
        self
    }
}

/// The per-server recorder: metrics, access log, request IDs and trace
/// context, whichever are on.
#[derive(Debug)]
pub(crate) struct Observe {
    metrics: Option<Arc<RequestMetrics>>,
    log: bool,
    trace: TraceSettings,
    tls: bool,
    #[cfg(feature = "access-log-file")]
    file: Option<super::log_file::FileSink>,
}

impl Observe {
    /// `None` when there is nothing to record.
    pub(crate) fn new(
        metrics: Option<Arc<RequestMetrics>>,
        log: Option<&AccessLog>,
        trace: &TraceSettings,
        tls: bool,
    ) -> Option<Arc<Self>> {
        if metrics.is_none() && log.is_none() && !trace.any() {
            return None;
        }
        #[cfg(feature = "access-log-file")]
        let file = log.and_then(|l| l.file.as_ref()).map(|(dir, prefix)| super::log_file::FileSink::daily(dir, prefix));
        Some(Arc::new(Self {
            metrics,
            log: log.is_some(),
            trace: trace.clone(),
            tls,
            #[cfg(feature = "access-log-file")]
            file,
        }))
    }

    /// The request metrics, to count received bytes.
    pub(crate) fn metrics(&self) -> Option<&Arc<RequestMetrics>> {
        self.metrics.as_ref()
    }

    /// Starts recording a request, and tags it with its ID and trace
    /// context when those are on.
    pub(crate) fn begin<B>(self: &Arc<Self>, req: &http::Request<B>, remote: SocketAddr) -> Pending {
        let (tags, span) = match self.trace.any() {
            true => {
                let (tags, span) = super::trace::tag(&self.trace, req, remote, self.tls);
                (Some(tags), span)
            }
            false => (None, None),
        };
        let line = self.log.then(|| {
            Box::new(RequestLine {
                method: req.method().clone(),
                uri: req.uri().clone(),
                version: req.version(),
                remote,
                wall: SystemTime::now(),
            })
        });
        // Only the metrics and the access log time the request.
        let started = (self.metrics.is_some() || self.log).then(Instant::now);
        Pending { observe: Arc::clone(self), started, line, tags, span }
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
    /// When the request arrived, for the metrics and the access log.
    started: Option<Instant>,
    /// Boxed: only the access log needs it, and a request's future and
    /// response body (which carry this) are moved several times.
    line: Option<Box<RequestLine>>,
    /// The request ID and trace context, shared with the application.
    tags: Option<Arc<RequestTags>>,
    /// The request's span, when a subscriber records it (boxed for the
    /// same reason as `line`).
    span: Option<Box<RequestSpan>>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(tags) = self.tags.take() {
            super::trace::give_back(tags);
        }
    }
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending").field("started", &self.started).finish_non_exhaustive()
    }
}

impl Pending {
    /// The request's span, when a subscriber records it.
    pub(crate) fn span(&self) -> Option<&tracing::Span> {
        self.span.as_ref().map(|s| &s.span)
    }

    /// The request ID and trace context, for the application.
    pub(crate) fn tags(&self) -> Option<Arc<RequestTags>> {
        self.tags.clone()
    }

    /// Whether the route that answers is read when the response is
    /// recorded (by the metrics, the access log or the span).
    pub(crate) fn needs_route(&self) -> bool {
        self.observe.metrics.is_some() || self.line.is_some() || self.span.is_some()
    }

    /// The response head is ready: what is left is counting its body,
    /// when something records the response's end (the metrics, the access
    /// log or the request's span); `None` when nothing does (request IDs
    /// and a trace context nobody samples), and the record ends here.
    /// Takes the [`MatchedRoute`] out of the response: the server is the
    /// last to look at its extensions. `version` is the request's;
    /// `connection` its connection's bookkeeping.
    pub(crate) fn respond(
        self,
        res: &mut restlight_core::Response,
        version: Version,
        connection: &Activity,
    ) -> Option<Finish> {
        if let Some(id) = self.tags.as_ref().and_then(|t| t.id.as_ref()) {
            let mut value = id.to_header_value();
            // Over HTTP/2, a value that is new on every response would
            // otherwise enter the connection's HPACK table each time: `h2`
            // compares it with every ID already there, then evicts older
            // entries (the content type among them) to make room. Marked
            // sensitive, it is sent as a literal that is never indexed, its
            // name as the table's index once one unmarked ID has put the
            // name there (`Activity::id_name_due`).
            if version == Version::HTTP_2 && !connection.id_name_due() {
                value.set_sensitive(true);
            }
            res.headers_mut().insert(self.observe.trace.request_id_header.clone(), value);
        }
        // The route is marked only when something reads it, and those are
        // what a `Finish` is for.
        if !self.needs_route() {
            return None;
        }
        let route = res.extensions_mut().remove::<MatchedRoute>();
        Some(Finish { pending: self, status: res.status().as_u16(), route, bytes: 0 })
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
        let info = self.route.as_ref().map(MatchedRoute::info);
        if let Some(span) = &self.pending.span {
            span.finish(info, self.status, self.bytes);
        }
        let Some(started) = self.pending.started else { return };
        let elapsed = started.elapsed();
        let observe = &self.pending.observe;
        if let Some(metrics) = &observe.metrics {
            let sampled = self.pending.tags.as_ref().and_then(|t| t.trace.as_ref()).filter(|t| t.is_sampled());
            metrics.record(self.route.as_ref(), self.status, elapsed, self.bytes, sampled.map(TraceContext::trace_id));
        }
        let tags = self.pending.tags.as_deref();
        let Some(line) = &self.pending.line else { return };
        let (template, scheduler) = info.map_or(("-", "-"), |r| (r.path.as_str(), r.scheduler.as_str()));
        let to_tracing = tracing::enabled!(target: ACCESS_TARGET, tracing::Level::INFO);
        #[cfg(feature = "access-log-file")]
        let to_file = observe.file.is_some();
        #[cfg(not(feature = "access-log-file"))]
        let to_file = false;
        if !to_tracing && !to_file {
            return;
        }
        thread_local! {
            // Reused by every line of the thread: no allocation per line.
            static TEXT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        TEXT.with_borrow_mut(|text| {
            text.clear();
            line.format_into(text, self.status, self.bytes, elapsed, template, scheduler);
            if let Some(tags) = tags {
                push_tags(text, tags);
            }
            if to_tracing {
                tracing::info!(target: ACCESS_TARGET, "{text}");
            }
            #[cfg(feature = "access-log-file")]
            if let Some(file) = &observe.file {
                file.push(text);
            }
        });
    }
}

/// Counts received bytes into the metrics.
pub(crate) fn received(metrics: &RequestMetrics, n: usize) {
    metrics.bytes_in.fetch_add(n as u64, Ordering::Relaxed);
}

impl RequestLine {
    /// The line, without `fmt` machinery: integers through `itoa`, the
    /// date and time of day cached per second per thread.
    fn format_into(
        &self,
        text: &mut String,
        status: u16,
        bytes: u64,
        elapsed: Duration,
        template: &str,
        scheduler: &str,
    ) {
        let mut int = itoa::Buffer::new();
        push_rfc3339(text, self.wall);
        text.push(' ');
        match self.remote {
            SocketAddr::V4(v4) => {
                for (i, octet) in v4.ip().octets().iter().enumerate() {
                    if i > 0 {
                        text.push('.');
                    }
                    text.push_str(int.format(*octet));
                }
                text.push(':');
                text.push_str(int.format(v4.port()));
            }
            SocketAddr::V6(v6) => {
                let _ = write!(text, "{v6}");
            }
        }
        text.push_str(" \"");
        text.push_str(self.method.as_str());
        text.push(' ');
        match (self.uri.scheme(), self.uri.path_and_query()) {
            (None, Some(origin)) => text.push_str(origin.as_str()),
            _ => {
                let _ = write!(text, "{}", self.uri);
            }
        }
        text.push(' ');
        text.push_str(version_str(self.version));
        text.push_str("\" ");
        text.push_str(int.format(status));
        text.push(' ');
        text.push_str(int.format(bytes));
        text.push(' ');
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        text.push_str(int.format(micros / 1000));
        text.push('.');
        push_padded(text, micros % 1000, 3);
        text.push_str("ms route=");
        text.push_str(template);
        text.push_str(" scheduler=");
        text.push_str(scheduler);
    }

    #[cfg(test)]
    fn format(&self, status: u16, bytes: u64, elapsed: Duration, template: &str, scheduler: &str) -> String {
        let mut text = String::new();
        self.format_into(&mut text, status, bytes, elapsed, template, scheduler);
        text
    }
}

/// Appends ` id=...` and ` trace=...`, for what is on.
fn push_tags(text: &mut String, tags: &RequestTags) {
    if let Some(id) = &tags.id {
        text.push_str(" id=");
        text.push_str(id.as_str());
    }
    if let Some(trace) = &tags.trace {
        let _ = write!(text, " trace={}", trace.trace_id());
    }
}

fn version_str(v: Version) -> &'static str {
    match v {
        Version::HTTP_09 => "HTTP/0.9",
        Version::HTTP_10 => "HTTP/1.0",
        Version::HTTP_11 => "HTTP/1.1",
        Version::HTTP_2 => "HTTP/2.0",
        Version::HTTP_3 => "HTTP/3.0",
        _ => "HTTP/?",
    }
}

/// Appends `n` with at least `width` digits, zeros in front.
fn push_padded(text: &mut String, n: u64, width: usize) {
    let mut int = itoa::Buffer::new();
    let digits = int.format(n);
    for _ in digits.len()..width {
        text.push('0');
    }
    text.push_str(digits);
}

/// Appends `2026-11-30T08:56:09.123Z`. The part up to the seconds is
/// computed once per second per thread.
fn push_rfc3339(text: &mut String, t: SystemTime) {
    use std::cell::RefCell;
    thread_local! {
        static SECOND: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) };
    }
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    SECOND.with_borrow_mut(|(cached, prefix)| {
        if *cached != secs {
            prefix.clear();
            push_date_time(prefix, secs);
            *cached = secs;
        }
        text.push_str(prefix);
    });
    text.push('.');
    push_padded(text, u64::from(since.subsec_millis()), 3);
    text.push('Z');
}

/// `2026-11-30T08:56:09` for seconds since the epoch, in UTC.
fn push_date_time(text: &mut String, secs: u64) {
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
    let _ = write!(text, "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60);
}

/// `2026-11-30T08:56:09.123Z`.
#[cfg(test)]
fn rfc3339(t: SystemTime) -> String {
    let mut text = String::new();
    push_rfc3339(&mut text, t);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_formats_utc() {
        let t = UNIX_EPOCH + std::time::Duration::from_millis(1_796_028_969_123);
        assert_eq!(rfc3339(t), "2026-11-30T08:56:09.123Z");
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        // The cached date and time of day move on with the second.
        assert_eq!(rfc3339(t + std::time::Duration::from_millis(900)), "2026-11-30T08:56:10.023Z");
    }

    #[test]
    fn lines_name_everything_in_a_fixed_order() {
        let wall = UNIX_EPOCH + Duration::from_millis(1_796_028_969_005);
        let line = |remote: &str, uri: &str, version| RequestLine {
            method: Method::GET,
            uri: uri.parse().unwrap(),
            version,
            remote: remote.parse().unwrap(),
            wall,
        };
        let text = line("10.0.0.7:51234", "/users/7?x=1", Version::HTTP_11).format(
            200,
            1234,
            Duration::from_micros(2_045),
            "/users/{id}",
            "io",
        );
        assert_eq!(
            text,
            "2026-11-30T08:56:09.005Z 10.0.0.7:51234 \"GET /users/7?x=1 HTTP/1.1\" 200 1234 2.045ms \
             route=/users/{id} scheduler=io"
        );
        let text = line("[::1]:8080", "http://example.com/a", Version::HTTP_2).format(
            404,
            0,
            Duration::from_micros(7),
            "-",
            "-",
        );
        assert_eq!(
            text,
            "2026-11-30T08:56:09.005Z [::1]:8080 \"GET http://example.com/a HTTP/2.0\" 404 0 0.007ms route=- scheduler=-"
        );
    }
}
