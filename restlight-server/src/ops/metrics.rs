//! Request metrics in the Prometheus text exposition format.
//!
//! Recording is lock-free: each compiled route gets its counters (a slot
//! per status code and a fixed-bucket latency histogram, all atomics) at
//! startup, found by the route's id ([`MatchedRoute`]) in a table published
//! through `arc-swap` rather than by a label lookup. A route added while
//! serving gets its counters on its first request (the only time a
//! request takes a lock here); one removed and added again with the same
//! method and template counts on in its series. A scrape reads the atomics
//! and encodes them with `prometheus-client`.
//!
//! With the trace context on, a sampled request also leaves its trace ID in
//! its latency bucket, as an OpenMetrics exemplar (the latest one per
//! bucket wins; a bucket another request is writing at that moment keeps
//! its previous one, so recording never waits). Requests without a sampled
//! trace do not touch the exemplars.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arc_swap::ArcSwap;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Registry;
use restlight_core::trace::TraceId;
use restlight_core::{App, ExecutorMetrics, MatchedRoute, RouteInfo};

use crate::protect::Counters;
use crate::runtime::IoHandles;

/// Upper bounds of the latency buckets, in seconds (Prometheus' defaults).
const BOUNDS: [f64; 11] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// The same bounds in nanoseconds, for recording without floats.
const BOUNDS_NANOS: [u64; 11] = [
    5_000_000,
    10_000_000,
    25_000_000,
    50_000_000,
    100_000_000,
    250_000_000,
    500_000_000,
    1_000_000_000,
    2_500_000_000,
    5_000_000_000,
    10_000_000_000,
];
/// Status codes 100 to 599 get a slot each; anything else lands in 599's.
const STATUSES: usize = 500;
/// The start of a latency bucket's line in the exposition.
const BUCKET_LINE: &str = "restlight_http_request_duration_seconds_bucket{";

/// The sampled request a latency bucket shows as its exemplar.
#[derive(Debug, Clone, Copy)]
struct Exemplar {
    trace_id: TraceId,
    /// The request's duration.
    nanos: u64,
    /// When it ended.
    at: SystemTime,
}

impl Exemplar {
    /// ` # {trace_id="..."} <seconds> <unix time>`, as OpenMetrics writes
    /// an exemplar after a bucket's count.
    fn write(&self, out: &mut String) {
        let at = self.at.duration_since(UNIX_EPOCH).unwrap_or_default();
        #[allow(clippy::cast_precision_loss)]
        let seconds = self.nanos as f64 / 1e9;
        let _ =
            write!(out, " # {{trace_id=\"{}\"}} {seconds} {}.{:03}", self.trace_id, at.as_secs(), at.subsec_millis());
    }
}

/// The counters of one route (or of the requests no route answered).
#[derive(Debug)]
pub(crate) struct RouteStats {
    method: String,
    template: String,
    statuses: Box<[AtomicU64]>,
    /// Per-bucket counts: `buckets[i]` counts durations in
    /// `(BOUNDS[i-1], BOUNDS[i]]`, the last slot those above every bound.
    buckets: [AtomicU64; BOUNDS.len() + 1],
    sum_nanos: AtomicU64,
    /// The latest sampled request of each bucket.
    exemplars: [Mutex<Option<Exemplar>>; BOUNDS.len() + 1],
}

impl RouteStats {
    fn new(method: &str, template: &str) -> Self {
        Self {
            method: method.to_owned(),
            template: template.to_owned(),
            statuses: (0..STATUSES).map(|_| AtomicU64::new(0)).collect(),
            buckets: Default::default(),
            sum_nanos: AtomicU64::new(0),
            exemplars: Default::default(),
        }
    }

    fn record(&self, status: u16, elapsed: Duration, sampled: Option<TraceId>) {
        let slot = usize::from(status.clamp(100, 599) - 100);
        self.statuses[slot].fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        let bucket = BOUNDS_NANOS.iter().position(|&b| nanos <= b).unwrap_or(BOUNDS.len());
        self.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
        if let Some(trace_id) = sampled {
            // Busy (another request is writing it): keep its exemplar.
            if let Ok(mut slot) = self.exemplars[bucket].try_lock() {
                *slot = Some(Exemplar { trace_id, nanos, at: SystemTime::now() });
            }
        }
    }
}

/// Every request counter of one server, shared by the connections (which
/// record) and the metrics endpoint (which encodes).
#[derive(Debug)]
pub(crate) struct RequestMetrics {
    /// The counters of each route by its id; replaced (never changed in
    /// place) when a route is first seen.
    by_id: ArcSwap<Vec<Option<Arc<RouteStats>>>>,
    /// One series per method and template, in the order first seen; also
    /// serializes the registration of new routes.
    series: Mutex<Vec<Arc<RouteStats>>>,
    /// Requests answered before a route was chosen (404, 405, ...).
    unmatched: RouteStats,
    pub(crate) bytes_in: AtomicU64,
    pub(crate) bytes_out: AtomicU64,
}

impl RequestMetrics {
    /// Pre-registers a series for each route `app` serves now.
    pub(crate) fn new(app: &App) -> Self {
        let metrics = Self {
            by_id: ArcSwap::from_pointee(Vec::new()),
            series: Mutex::new(Vec::new()),
            unmatched: RouteStats::new("", "unmatched"),
            bytes_in: AtomicU64::new(0),
            bytes_out: AtomicU64::new(0),
        };
        for route in &app.routes() {
            metrics.register(route);
        }
        metrics
    }

    /// Records one finished request: a few relaxed atomic additions, and
    /// the exemplar of its latency bucket when its trace is `sampled`.
    pub(crate) fn record(
        &self,
        route: Option<&MatchedRoute>,
        status: u16,
        elapsed: Duration,
        bytes_out: u64,
        sampled: Option<TraceId>,
    ) {
        self.bytes_out.fetch_add(bytes_out, Ordering::Relaxed);
        let Some(route) = route else {
            self.unmatched.record(status, elapsed, sampled);
            return;
        };
        let known = self.by_id.load();
        match usize::try_from(route.id()).ok().and_then(|i| known.get(i)) {
            Some(Some(stats)) => stats.record(status, elapsed, sampled),
            _ => {
                drop(known);
                self.register(route.info()).record(status, elapsed, sampled);
            }
        }
    }

    /// The counters of `route`, created on its first sight: those of its
    /// method and template if it had them before.
    fn register(&self, route: &RouteInfo) -> Arc<RouteStats> {
        let mut series = self.series.lock().unwrap_or_else(PoisonError::into_inner);
        let stats = match series.iter().find(|s| s.method == route.method && s.template == route.path) {
            Some(found) => Arc::clone(found),
            None => {
                let made = Arc::new(RouteStats::new(&route.method, &route.path));
                series.push(Arc::clone(&made));
                made
            }
        };
        let Ok(id) = usize::try_from(route.id) else { return stats };
        // Under the series lock: no registration is lost to another.
        let mut by_id = Vec::clone(&self.by_id.load());
        if by_id.len() <= id {
            by_id.resize(id + 1, None);
        }
        by_id[id] = Some(Arc::clone(&stats));
        self.by_id.store(Arc::new(by_id));
        stats
    }
}

/// What the scrape encodes: the request metrics, the connection counters,
/// the executors' metrics and the IO event loops'.
#[derive(Debug)]
pub(crate) struct Scrape {
    pub(crate) requests: Arc<RequestMetrics>,
    pub(crate) counters: Arc<Counters>,
    pub(crate) app: App,
    pub(crate) io: Option<IoHandles>,
}

impl Scrape {
    /// The whole exposition, in the OpenMetrics text format (Prometheus
    /// text 0.0.4 compatible without exemplars, ending with `# EOF`), with
    /// the latency buckets' exemplars when `exemplars` is set.
    pub(crate) fn encode(self: &Arc<Self>, exemplars: bool) -> String {
        let seen = exemplars.then(Arc::default);
        let pass = Pass { scrape: Arc::clone(self), exemplars: seen.clone() };
        let mut registry = Registry::with_prefix("restlight");
        registry.register_collector(Box::new(pass));
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
        match seen {
            Some(seen) => with_exemplars(&out, &seen.lock().unwrap_or_else(PoisonError::into_inner)),
            None => out,
        }
    }
}

/// One scrape's collector: the server's metrics, and what the latency
/// buckets' exemplars were when their counts were read, one entry per
/// bucket line in the order they are written (when asked for).
struct Pass {
    scrape: Arc<Scrape>,
    exemplars: Option<Arc<Mutex<Vec<Option<Exemplar>>>>>,
}

/// `prometheus-client` asks a collector for `Debug`, and nothing prints it:
/// its name alone, so that the derived `Debug` of everything a scrape reads
/// (the request metrics, the application, the IO loops) is not linked into
/// every service for it (24 KB of the load-comparison service's binary).
impl std::fmt::Debug for Pass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pass").finish_non_exhaustive()
    }
}

/// `text` with each latency bucket's exemplar after its count.
///
/// `prometheus-client` writes exemplars only from its own histogram type
/// (its `Exemplar` has no public constructor), and the counts here are the
/// server's atomics: the exemplars are added to the bucket lines it wrote,
/// which come in the order the collector gave them.
fn with_exemplars(text: &str, exemplars: &[Option<Exemplar>]) -> String {
    if exemplars.iter().all(Option::is_none) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 96 * exemplars.len());
    let mut next = exemplars.iter();
    for line in text.split_inclusive('\n') {
        let Some(body) = line.strip_suffix('\n').filter(|l| l.starts_with(BUCKET_LINE)) else {
            out.push_str(line);
            continue;
        };
        out.push_str(body);
        if let Some(Some(exemplar)) = next.next() {
            exemplar.write(&mut out);
        }
        out.push('\n');
    }
    out
}

type Labels<'a> = Vec<(&'static str, &'a str)>;

fn counter(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: u64) -> std::fmt::Result {
    let metric = ConstCounter::new(value);
    metric.encode(encoder.encode_descriptor(name, help, None, metric.metric_type())?)
}

fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: i64) -> std::fmt::Result {
    let metric = ConstGauge::new(value);
    metric.encode(encoder.encode_descriptor(name, help, None, metric.metric_type())?)
}

fn to_i64(v: usize) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl Collector for Pass {
    fn encode(&self, mut encoder: DescriptorEncoder) -> std::fmt::Result {
        let this = &*self.scrape;
        let series: Vec<Arc<RouteStats>> = this.requests.series.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let all = || series.iter().map(Arc::as_ref).chain(std::iter::once(&this.requests.unmatched));
        let mut exemplars = self.exemplars.as_ref().map(|e| e.lock().unwrap_or_else(PoisonError::into_inner));

        let mut family = encoder.encode_descriptor(
            "http_requests",
            "HTTP requests answered, by route template and status",
            None,
            MetricType::Counter,
        )?;
        for route in all() {
            for (slot, n) in route.statuses.iter().enumerate() {
                let n = n.load(Ordering::Relaxed);
                if n == 0 {
                    continue;
                }
                let status = (slot + 100).to_string();
                let labels: Labels = vec![("method", &route.method), ("route", &route.template), ("status", &status)];
                family.encode_family(&labels)?.encode_counter::<NoLabelSet, _, u64>(&n, None)?;
            }
        }

        let mut family = encoder.encode_descriptor(
            "http_request_duration_seconds",
            "Time from receiving a request to the end of its response body, by route template",
            None,
            MetricType::Histogram,
        )?;
        for route in all() {
            // Read before the counts: a request is counted before it
            // leaves its exemplar, so each exemplar shown is counted.
            let seen: Option<Vec<Option<Exemplar>>> = exemplars
                .is_some()
                .then(|| route.exemplars.iter().map(|e| *e.lock().unwrap_or_else(PoisonError::into_inner)).collect());
            // The encoder takes per-bucket counts and accumulates them;
            // `f64::MAX` is its `+Inf`.
            let mut count = 0;
            let mut buckets = Vec::with_capacity(BOUNDS.len() + 1);
            for (i, slot) in route.buckets.iter().enumerate() {
                let n = slot.load(Ordering::Relaxed);
                count += n;
                buckets.push((BOUNDS.get(i).copied().unwrap_or(f64::MAX), n));
            }
            if count == 0 {
                continue;
            }
            #[allow(clippy::cast_precision_loss)]
            let sum = route.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
            let labels: Labels = vec![("method", &route.method), ("route", &route.template)];
            family.encode_family(&labels)?.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)?;
            if let (Some(exemplars), Some(seen)) = (exemplars.as_mut(), seen) {
                exemplars.extend(seen);
            }
        }
        drop(exemplars);

        counter(
            &mut encoder,
            "http_received_bytes",
            "Request body bytes received",
            this.requests.bytes_in.load(Ordering::Relaxed),
        )?;
        counter(
            &mut encoder,
            "http_sent_bytes",
            "Response body bytes sent",
            this.requests.bytes_out.load(Ordering::Relaxed),
        )?;

        let stats = this.counters.snapshot();
        gauge(&mut encoder, "connections_open", "Connections open now", to_i64(stats.open_connections))?;
        counter(&mut encoder, "connections_accepted", "Connections accepted", stats.accepted)?;
        let mut family = encoder.encode_descriptor(
            "connections_refused",
            "Connections refused right after accept, by cause",
            None,
            MetricType::Counter,
        )?;
        for cause in [
            crate::Refusal::AllowList,
            crate::Refusal::ConnectionLimit,
            crate::Refusal::RateLimit,
            crate::Refusal::Overload,
        ] {
            let labels: Labels = vec![("cause", cause.as_str())];
            family.encode_family(&labels)?.encode_counter::<NoLabelSet, _, u64>(&stats.refused_by(cause), None)?;
        }

        if let Some(io) = &this.io {
            let m = io.metrics();
            gauge(&mut encoder, "io_workers", "IO threads, each an event loop", to_i64(m.workers))?;
            gauge(&mut encoder, "io_alive_tasks", "Tasks alive on the IO event loops", to_i64(m.alive_tasks))?;
            gauge(
                &mut encoder,
                "io_global_queue_depth",
                "Tasks woken from other threads and waiting to run on the IO event loops",
                to_i64(m.queue_depth),
            )?;
        }

        encode_executors(&mut encoder, &this.app.executors())
    }
}

fn encode_executors(encoder: &mut DescriptorEncoder, executors: &[ExecutorMetrics]) -> std::fmt::Result {
    type Read = fn(&ExecutorMetrics) -> u64;
    let gauges: [(&str, &str, Read); 5] = [
        ("executor_threads", "Worker threads of the executor", |m| m.threads as u64),
        ("executor_max_active", "Handlers the executor runs at once at most", |m| m.max_active as u64),
        ("executor_queue_capacity", "Requests that may wait for a worker", |m| m.queue_capacity as u64),
        ("executor_active", "Handlers running now", |m| m.active as u64),
        ("executor_queued", "Requests waiting for a worker now", |m| m.queued as u64),
    ];
    let counters: [(&str, &str, Read); 5] = [
        ("executor_completed", "Handlers that ran to the end", |m| m.completed),
        ("executor_rejected", "Requests refused with 429 because the queue was full", |m| m.rejected),
        ("executor_fail_fast", "Requests answered 503 after waiting past the fail-fast time", |m| m.fail_fast),
        ("executor_panicked", "Handlers that panicked", |m| m.panicked),
        ("executor_cancelled", "Requests dropped while queued or running", |m| m.cancelled),
    ];
    for (name, help, read) in gauges {
        let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
        for m in executors {
            let labels: Labels = vec![("executor", &m.name)];
            family.encode_family(&labels)?.encode_gauge(&i64::try_from(read(m)).unwrap_or(i64::MAX))?;
        }
    }
    for (name, help, read) in counters {
        let mut family = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
        for m in executors {
            let labels: Labels = vec![("executor", &m.name)];
            family.encode_family(&labels)?.encode_counter::<NoLabelSet, _, u64>(&read(m), None)?;
        }
    }
    Ok(())
}
