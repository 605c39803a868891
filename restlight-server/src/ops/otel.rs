//! OpenTelemetry export of the request spans (feature `otel`): a
//! `tracing-opentelemetry` layer whose spans go, in batches and off the
//! request path, to an OTLP collector over HTTP/protobuf, sent with
//! hyper's client (no gRPC stack).

use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider};
use opentelemetry_sdk::Resource;
use serde_json::{json, Value};
use tracing::Subscriber;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use crate::config::{ConfigError, FileConfig, OtelSection};

/// The most a collector's answer may hold.
const MAX_ANSWER: usize = 4 * 1024 * 1024;
/// How long one export may take, connection and answer included, when
/// nothing says otherwise (the OTLP default).
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);
/// The prefix of the variables that configure the export.
const ENV_OTEL: &str = "RESTLIGHT_SERVER_OTEL_";
/// What the `config` endpoint shows instead of a header's value.
const MASKED: &str = "******";

/// The settings of the last export [`Otlp::layer`] set up in this process,
/// as the actuator's `config` endpoint shows them; `None` before any.
static IN_EFFECT: Mutex<Option<Value>> = Mutex::new(None);

/// The export's settings for the `config` endpoint: those of the last layer
/// [`Otlp::layer`] made in this process, every source resolved, header
/// values masked; `{"enabled": false}` when none was made (or it was
/// turned off).
pub(crate) fn effective() -> Value {
    IN_EFFECT.lock().unwrap_or_else(PoisonError::into_inner).clone().unwrap_or_else(|| json!({ "enabled": false }))
}

/// OpenTelemetry export of the request spans (feature `otel`), over
/// OTLP HTTP/protobuf.
///
/// [`layer`](Self::layer) gives a `tracing` layer to add to the
/// application's subscriber, next to its own: every span (the server's
/// request spans, named `METHOD /route/template` with the HTTP
/// semantic-convention attributes, and the handlers' own spans nested under
/// them) becomes an OpenTelemetry span, and spans are sent to the
/// collector in batches by a thread of the SDK, off the request path.
/// With [`Restlight::trace_context`](crate::Restlight::trace_context) on, a
/// request's span continues the caller's `traceparent`, and the
/// [`TraceContext`](restlight_core::TraceContext) handlers see (and inject
/// into their calls) carries the exported span's IDs.
///
/// # Sources and precedence
///
/// Each setting comes, key by key, from the first of these that sets it:
///
/// 1. a `RESTLIGHT_SERVER_OTEL_*` variable (`RESTLIGHT_SERVER_OTEL_ENDPOINT`,
///    ..., read by [`layer`](Self::layer) unless [`ignore_env`](Self::ignore_env));
/// 2. the `[otel]` table of the files given to
///    [`config_file`](Self::config_file) (a later file over an earlier one);
/// 3. the setters below, wherever they stand relative to `config_file`;
/// 4. the standard OpenTelemetry variables:
///    `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT`,
///    `OTEL_SERVICE_NAME` (and `OTEL_RESOURCE_ATTRIBUTES`),
///    `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG`,
///    `OTEL_EXPORTER_OTLP_HEADERS` (merged: a header set above wins over
///    one of the same name there), `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` /
///    `OTEL_EXPORTER_OTLP_TIMEOUT`; `OTEL_BSP_*` (the batch: size, delay,
///    queue) has no other source;
/// 5. the defaults stated at each setter.
///
/// That is the server's rule (code < file < environment, see
/// [`Restlight::config_file`](crate::Restlight::config_file)), with the
/// standard variables below the code, as OpenTelemetry's SDKs put them.
/// The same file serves both: the server checks its `[otel]` table (and
/// refuses it, naming the key, when the `otel` feature is off), `Otlp`
/// reads it. Only `http://` endpoints are supported (a collector or agent
/// next to the service).
///
/// | file key | environment variable | setter |
/// |---|---|---|
/// | `otel.enabled` | `RESTLIGHT_SERVER_OTEL_ENABLED` | [`enabled`](Self::enabled) |
/// | `otel.endpoint` | `RESTLIGHT_SERVER_OTEL_ENDPOINT` | [`endpoint`](Self::endpoint) |
/// | `otel.service_name` | `RESTLIGHT_SERVER_OTEL_SERVICE_NAME` | [`service_name`](Self::service_name) |
/// | `otel.sampler_ratio` | `RESTLIGHT_SERVER_OTEL_SAMPLER_RATIO` | [`sampler_ratio`](Self::sampler_ratio) |
/// | `otel.headers` (a table) | `RESTLIGHT_SERVER_OTEL_HEADERS` (`name=value,...`) | [`header`](Self::header) |
/// | `otel.timeout_ms` | `RESTLIGHT_SERVER_OTEL_TIMEOUT_MS` | [`timeout`](Self::timeout) |
///
/// Whether requests get IDs and continue the caller's trace is the
/// server's choice: `server.request_ids` and `server.trace_context`.
///
/// ```no_run
/// use restlight_server::{Otlp, Restlight};
/// use tracing_subscriber::layer::SubscriberExt;
/// use tracing_subscriber::util::SubscriberInitExt;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let (otel, _flush_on_drop) = Otlp::new().service_name("orders").config_file("orders.toml")?.layer()?;
/// tracing_subscriber::registry().with(otel).with(tracing_subscriber::fmt::layer()).init();
/// Restlight::new().request_ids(true).trace_context(true).config_file("orders.toml")?.run()?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Otlp {
    code: OtelSection,
    file: Option<OtelSection>,
    ignore_env: bool,
}

/// The settings resolved from every source.
#[derive(Debug)]
struct Resolved {
    settings: OtelSection,
    timeout: Duration,
}

impl Otlp {
    /// Export settings from the `OTEL_*` variables and the defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether spans are exported at all: with `false`, [`layer`](Self::layer)
    /// gives a layer that records nothing (for turning the export off from
    /// the configuration without rebuilding).
    ///
    /// Default: `true`.
    pub fn enabled(mut self, on: bool) -> Self {
        self.code.enabled = Some(on);
        self
    }

    /// The full URL spans are posted to, e.g.
    /// `http://collector:4318/v1/traces`.
    ///
    /// Default: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` followed by `/v1/traces`, else
    /// `http://localhost:4318/v1/traces`.
    pub fn endpoint(mut self, url: &str) -> Self {
        self.code.endpoint = Some(url.to_owned());
        self
    }

    /// The `service.name` resource attribute.
    ///
    /// Default: `OTEL_SERVICE_NAME`, else `unknown_service`.
    pub fn service_name(mut self, name: &str) -> Self {
        self.code.service_name = Some(name.to_owned());
        self
    }

    /// The share of new traces sampled, from `0.0` (none) to `1.0` (all),
    /// chosen by trace ID; a request that continues a caller's trace
    /// follows the caller's sampled flag (OpenTelemetry's
    /// `parentbased_traceidratio`). A sampled-out request's span is not
    /// exported and its trace is not an exemplar of the latency metrics.
    ///
    /// Default: `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, else
    /// every trace (`parentbased_always_on`). A ratio outside `0.0..=1.0`
    /// is an error of [`layer`](Self::layer) naming `otel.sampler_ratio`.
    pub fn sampler_ratio(mut self, ratio: f64) -> Self {
        self.code.sampler_ratio = Some(ratio);
        self
    }

    /// A header sent with every export request (an API key, a tenant).
    /// Settings from the file or `RESTLIGHT_SERVER_OTEL_HEADERS` replace all
    /// the headers set here.
    ///
    /// Default: none but those of `OTEL_EXPORTER_OTLP_HEADERS`. A name or
    /// value that cannot be a header is an error of [`layer`](Self::layer)
    /// naming `otel.headers`.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.code.headers.get_or_insert_with(Default::default).insert(name.to_owned(), value.to_owned());
        self
    }

    /// How long one export request may take, connecting and the
    /// collector's answer included.
    ///
    /// Default: `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, else
    /// `OTEL_EXPORTER_OTLP_TIMEOUT` (milliseconds), else 10 seconds.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.code.timeout_ms = Some(u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX));
        self
    }

    /// Reads the `[otel]` table of a configuration file (the server's
    /// file: its other tables are checked and otherwise left to
    /// [`Restlight::config_file`](crate::Restlight::config_file)). Its keys
    /// override the setters' key by key, and a later file's an earlier's.
    ///
    /// # Errors
    /// As [`Restlight::config_file`](crate::Restlight::config_file): the
    /// file cannot be read, is not valid TOML for the server settings, or
    /// holds a value that is not acceptable (named in full, as
    /// `otel.sampler_ratio`).
    pub fn config_file(mut self, path: impl AsRef<std::path::Path>) -> Result<Self, ConfigError> {
        let file = FileConfig::read(path.as_ref())?;
        file.check()?;
        if let Some(otel) = file.otel {
            self.file = Some(match self.file.take() {
                Some(earlier) => earlier.overlay(otel),
                None => otel,
            });
        }
        Ok(self)
    }

    /// Ignores the `RESTLIGHT_SERVER_OTEL_*` variables (not the standard
    /// `OTEL_*` ones, which only fill what nothing else sets).
    ///
    /// Default: they are read by [`layer`](Self::layer) and override the
    /// code and the file.
    pub fn ignore_env(mut self) -> Self {
        self.ignore_env = true;
        self
    }

    /// Every source applied in order, checked; `env` is the process's
    /// environment.
    fn resolve(&self, env: &[(String, String)]) -> Result<Resolved, ConfigError> {
        let mut settings = self.code.clone();
        if let Some(file) = &self.file {
            settings = settings.overlay(file.clone());
        }
        if !self.ignore_env {
            let ours = env.iter().filter(|(name, _)| name.starts_with(ENV_OTEL)).cloned();
            if let Some(over) = FileConfig::from_env(ours)?.otel {
                settings = settings.overlay(over);
            }
        }
        settings.check()?;
        let standard = |name: &str| {
            env.iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| v.trim().parse::<u64>().ok())
                .map(Duration::from_millis)
        };
        let timeout = settings
            .timeout_ms
            .map(Duration::from_millis)
            .or_else(|| standard("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"))
            .or_else(|| standard("OTEL_EXPORTER_OTLP_TIMEOUT"))
            .unwrap_or(EXPORT_TIMEOUT);
        Ok(Resolved { settings, timeout })
    }

    /// The layer to add to the application's `tracing` subscriber, and the
    /// guard that sends what is left when it is dropped (keep it until the
    /// server has stopped). With the export turned off
    /// ([`enabled`](Self::enabled)), a layer that records nothing.
    ///
    /// # Errors
    /// When a setting is not acceptable (named as its file key:
    /// `otel.sampler_ratio`, or its variable), the exporter cannot be built
    /// or the export thread cannot start.
    pub fn layer<S>(&self) -> Result<(impl Layer<S> + 'static, OtelGuard), OtlpError>
    where
        S: Subscriber + for<'a> LookupSpan<'a>,
    {
        let env: Vec<(String, String)> = std::env::vars().collect();
        let Resolved { settings, timeout } = self.resolve(&env).map_err(|e| OtlpError(e.to_string()))?;
        *IN_EFFECT.lock().unwrap_or_else(PoisonError::into_inner) = Some(shown(&settings, timeout, &env));
        if settings.enabled == Some(false) {
            return Ok((None, OtelGuard { provider: None }));
        }
        let mut headers = HeaderMap::new();
        for (name, value) in settings.headers.iter().flatten() {
            // Checked by `resolve`.
            if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value)) {
                headers.insert(name, value);
            }
        }
        let client = HyperClient::new(timeout, headers).map_err(|e| OtlpError(e.to_string()))?;
        let mut exporter =
            opentelemetry_otlp::SpanExporter::builder().with_http().with_http_client(client).with_timeout(timeout);
        if let Some(endpoint) = settings.endpoint {
            exporter = exporter.with_endpoint(endpoint);
        }
        let exporter = exporter.build().map_err(|e| OtlpError(e.to_string()))?;
        let mut resource = Resource::builder();
        if let Some(name) = settings.service_name {
            resource = resource.with_service_name(name);
        }
        let mut provider = SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource.build());
        if let Some(ratio) = settings.sampler_ratio {
            provider = provider.with_sampler(Sampler::ParentBased(Box::new(Sampler::TraceIdRatioBased(ratio))));
        }
        let provider = provider.build();
        let tracer = provider.tracer("restlight");
        let layer = tracing_opentelemetry::layer().with_tracer(tracer);
        Ok((Some(layer), OtelGuard { provider: Some(provider) }))
    }
}

/// The resolved settings as the `config` endpoint shows them: what the
/// exporter will use, the standard variables and defaults filled in where
/// nothing else set a key; header names with their values masked (they
/// often hold API keys).
fn shown(settings: &OtelSection, timeout: Duration, env: &[(String, String)]) -> Value {
    if settings.enabled == Some(false) {
        return json!({ "enabled": false });
    }
    let var = |name: &str| env.iter().find(|(n, _)| n == name).map(|(_, v)| v.trim()).filter(|v| !v.is_empty());
    let endpoint = settings.endpoint.clone().or_else(|| var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").map(str::to_owned));
    let endpoint = endpoint
        .or_else(|| var("OTEL_EXPORTER_OTLP_ENDPOINT").map(|e| format!("{}/v1/traces", e.trim_end_matches('/'))))
        .unwrap_or_else(|| "http://localhost:4318/v1/traces".to_owned());
    let from_attributes = || {
        var("OTEL_RESOURCE_ATTRIBUTES")?
            .split(',')
            .find_map(|kv| kv.trim().strip_prefix("service.name=").map(|v| v.trim().to_owned()))
    };
    let service = settings
        .service_name
        .clone()
        .or_else(|| var("OTEL_SERVICE_NAME").map(str::to_owned))
        .or_else(from_attributes)
        .unwrap_or_else(|| "unknown_service".to_owned());
    let sampler = match settings.sampler_ratio {
        Some(ratio) => json!({ "name": "parentbased_traceidratio", "ratio": ratio }),
        None => match var("OTEL_TRACES_SAMPLER") {
            Some(name) => json!({ "name": name, "arg": var("OTEL_TRACES_SAMPLER_ARG") }),
            None => json!({ "name": "parentbased_always_on" }),
        },
    };
    let mut headers = serde_json::Map::new();
    for kv in var("OTEL_EXPORTER_OTLP_HEADERS").unwrap_or_default().split(',') {
        if let Some((name, _)) = kv.split_once('=') {
            headers.insert(name.trim().to_ascii_lowercase(), MASKED.into());
        }
    }
    for name in settings.headers.iter().flatten().map(|(name, _)| name) {
        headers.insert(name.to_ascii_lowercase(), MASKED.into());
    }
    json!({
        "enabled": true,
        "endpoint": endpoint,
        "serviceName": service,
        "sampler": sampler,
        "headers": headers,
        "timeoutMs": u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
    })
}

/// Sends the spans still waiting when dropped (or at
/// [`flush`](Self::flush)); returned by [`Otlp::layer`].
#[must_use = "dropping the guard shuts the export down"]
pub struct OtelGuard {
    /// `None` when the export is turned off.
    provider: Option<SdkTracerProvider>,
}

impl OtelGuard {
    /// Sends the spans ended so far, waiting for the collector's answer.
    ///
    /// # Errors
    /// When the export failed or timed out.
    pub fn flush(&self) -> Result<(), OtlpError> {
        match &self.provider {
            Some(provider) => provider.force_flush().map_err(|e| OtlpError(e.to_string())),
            None => Ok(()),
        }
    }
}

impl Drop for OtelGuard {
    fn drop(&mut self) {
        if let Some(provider) = &self.provider {
            let _ = provider.shutdown();
        }
    }
}

impl fmt::Debug for OtelGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OtelGuard").finish_non_exhaustive()
    }
}

/// Why the OpenTelemetry export could not be set up or flushed.
#[derive(Debug, Clone)]
pub struct OtlpError(String);

impl fmt::Display for OtlpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpenTelemetry export: {}", self.0)
    }
}

impl std::error::Error for OtlpError {}

/// hyper's client on a one-thread runtime of its own, so the SDK's export
/// thread (which has no runtime) can await it.
struct HyperClient {
    client: Client<HttpConnector, Full<Bytes>>,
    runtime: Option<tokio::runtime::Runtime>,
    timeout: Duration,
    /// Set on every request, over those of `OTEL_EXPORTER_OTLP_HEADERS`.
    headers: HeaderMap,
}

impl HyperClient {
    fn new(timeout: Duration, headers: HeaderMap) -> std::io::Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("restlight-otlp")
            .enable_all()
            .build()?;
        let client = Client::builder(TokioExecutor::new()).build_http();
        Ok(Self { client, runtime: Some(runtime), timeout, headers })
    }
}

impl fmt::Debug for HyperClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HyperClient").finish_non_exhaustive()
    }
}

impl Drop for HyperClient {
    fn drop(&mut self) {
        // May be dropped where blocking is not allowed.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

#[async_trait::async_trait]
impl opentelemetry_http::HttpClient for HyperClient {
    async fn send_bytes(&self, mut request: http::Request<Bytes>) -> Result<http::Response<Bytes>, BoxError> {
        for (name, value) in &self.headers {
            request.headers_mut().insert(name, value.clone());
        }
        let (client, timeout) = (self.client.clone(), self.timeout);
        let Some(runtime) = &self.runtime else { return Err("the export is shut down".into()) };
        let task = runtime.spawn(async move {
            let exchange = async {
                let res = client.request(request.map(Full::new)).await?;
                let (parts, body) = res.into_parts();
                let body = Limited::new(body, MAX_ANSWER).collect().await?.to_bytes();
                Ok::<_, BoxError>(http::Response::from_parts(parts, body))
            };
            tokio::time::timeout(timeout, exchange).await.map_err(|_| BoxError::from("timed out"))?
        });
        task.await?
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::Builder::new().prefix("restlight-otel-").tempfile().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f
    }

    #[test]
    fn the_file_table_is_parsed_into_the_settings() {
        let f = file(
            "[server]\ntrace_context = true\n\n[otel]\nendpoint = \"http://collector:4318/v1/traces\"\n\
             service_name = \"orders\"\nsampler_ratio = 0.25\ntimeout_ms = 2500\n\
             headers = { authorization = \"Bearer k\", x-tenant = \"t1\" }\n",
        );
        let r = Otlp::new().config_file(f.path()).unwrap().resolve(&[]).unwrap();
        let s = r.settings;
        assert_eq!(s.endpoint.as_deref(), Some("http://collector:4318/v1/traces"));
        assert_eq!(s.service_name.as_deref(), Some("orders"));
        assert_eq!(s.sampler_ratio, Some(0.25));
        let headers = s.headers.unwrap();
        assert_eq!(headers.get("authorization").map(String::as_str), Some("Bearer k"));
        assert_eq!(headers.get("x-tenant").map(String::as_str), Some("t1"));
        assert_eq!(r.timeout, Duration::from_millis(2500));
    }

    #[test]
    fn standard_variables_then_code_then_file_then_restlight_variables() {
        let f = file("[otel]\nservice_name = \"from-file\"\ntimeout_ms = 3000\n");
        let code = Otlp::new()
            .service_name("from-code")
            .endpoint("http://code:4318/v1/traces")
            .sampler_ratio(0.5)
            .timeout(Duration::from_secs(1));
        let vars = env(&[
            ("RESTLIGHT_SERVER_OTEL_SAMPLER_RATIO", "0.1"),
            ("RESTLIGHT_SERVER_OTEL_HEADERS", "x-tenant=t2, x-key = k"),
            ("OTEL_EXPORTER_OTLP_TIMEOUT", "7000"),
        ]);
        // The file's keys win over the code's wherever `config_file` stands.
        let r = code.config_file(f.path()).unwrap().resolve(&vars).unwrap();
        assert_eq!(r.settings.service_name.as_deref(), Some("from-file"), "file over code");
        assert_eq!(r.settings.endpoint.as_deref(), Some("http://code:4318/v1/traces"), "code, nothing over it");
        assert_eq!(r.settings.sampler_ratio, Some(0.1), "RESTLIGHT_SERVER_OTEL_* over code");
        assert_eq!(r.timeout, Duration::from_secs(3), "file over code and OTEL_*");
        let headers = r.settings.headers.unwrap();
        assert_eq!(headers.get("x-tenant").map(String::as_str), Some("t2"));
        assert_eq!(headers.get("x-key").map(String::as_str), Some("k"));

        // OTEL_* fill in what nothing else sets; the signal's own first.
        let r = Otlp::new().resolve(&vars).unwrap();
        assert_eq!(r.timeout, Duration::from_secs(7));
        let both = env(&[("OTEL_EXPORTER_OTLP_TIMEOUT", "7000"), ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "8000")]);
        assert_eq!(Otlp::new().resolve(&both).unwrap().timeout, Duration::from_secs(8));
        assert_eq!(Otlp::new().resolve(&[]).unwrap().timeout, EXPORT_TIMEOUT, "the default");
        assert_eq!(Otlp::new().timeout(Duration::from_millis(1500)).resolve(&both).unwrap().timeout.as_millis(), 1500);

        // Whole numbers are ratios too, in the file and in a variable.
        let f = file("[otel]\nsampler_ratio = 1\n");
        assert_eq!(Otlp::new().config_file(f.path()).unwrap().resolve(&[]).unwrap().settings.sampler_ratio, Some(1.0));
        let zero = env(&[("RESTLIGHT_SERVER_OTEL_SAMPLER_RATIO", "0")]);
        assert_eq!(Otlp::new().resolve(&zero).unwrap().settings.sampler_ratio, Some(0.0));

        let r = Otlp::new().sampler_ratio(0.5).ignore_env().resolve(&vars).unwrap();
        assert_eq!(r.settings.sampler_ratio, Some(0.5), "ignore_env skips RESTLIGHT_SERVER_OTEL_*");
    }

    #[test]
    fn bad_settings_are_errors_naming_the_key_or_the_variable() {
        let err = Otlp::new().sampler_ratio(2.0).resolve(&[]).unwrap_err();
        assert!(err.to_string().contains("`otel.sampler_ratio`") && err.to_string().contains("`2`"), "{err}");
        let err = Otlp::new().header("x-key", "a\nb").resolve(&[]).unwrap_err();
        assert!(err.to_string().contains("`otel.headers`"), "{err}");
        let err = Otlp::new().resolve(&env(&[("RESTLIGHT_SERVER_OTEL_TIMEOUT_MS", "soon")])).unwrap_err();
        assert!(err.to_string().contains("RESTLIGHT_SERVER_OTEL_TIMEOUT_MS"), "{err}");
        let err = Otlp::new().resolve(&env(&[("RESTLIGHT_SERVER_OTEL_ENDPOINT", "collector:4318")])).unwrap_err();
        assert!(err.to_string().contains("not an http:// URL"), "{err}");
        // Only the export's variables are read here.
        assert!(Otlp::new().resolve(&env(&[("RESTLIGHT_SERVER_PORT", "not a port")])).is_ok());
    }

    #[test]
    fn the_config_endpoint_shows_the_resolved_settings_with_header_values_masked() {
        let f = file("[otel]\nservice_name = \"orders\"\nheaders = { authorization = \"Bearer secret-key\" }\n");
        let vars = env(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "X-Tenant=t1,api-key=other-secret"),
            ("RESTLIGHT_SERVER_OTEL_SAMPLER_RATIO", "0.25"),
        ]);
        let r = Otlp::new().timeout(Duration::from_millis(1500)).config_file(f.path()).unwrap().resolve(&vars).unwrap();
        let v = shown(&r.settings, r.timeout, &vars);
        assert_eq!(v["enabled"], true);
        assert_eq!(v["endpoint"], "http://collector:4318/v1/traces", "the standard variable, with the signal's path");
        assert_eq!(v["serviceName"], "orders");
        assert_eq!(v["sampler"], json!({ "name": "parentbased_traceidratio", "ratio": 0.25 }));
        assert_eq!(v["timeoutMs"], 1500);
        assert_eq!(v["headers"], json!({ "authorization": MASKED, "x-tenant": MASKED, "api-key": MASKED }));
        let text = v.to_string();
        assert!(!text.contains("secret") && !text.contains("t1"), "a header value is shown: {text}");

        // Nothing set: the defaults the exporter uses.
        let r = Otlp::new().resolve(&[]).unwrap();
        let v = shown(&r.settings, r.timeout, &[]);
        assert_eq!(v["endpoint"], "http://localhost:4318/v1/traces");
        assert_eq!(v["serviceName"], "unknown_service");
        assert_eq!(v["sampler"]["name"], "parentbased_always_on");
        assert_eq!(v["timeoutMs"], 10_000);
        let off = Otlp::new().enabled(false).resolve(&[]).unwrap();
        assert_eq!(shown(&off.settings, off.timeout, &[]), json!({ "enabled": false }));
    }

    /// Whether a span made under `otlp`'s layer gets an OpenTelemetry span.
    fn records(otlp: &Otlp) -> bool {
        use opentelemetry::trace::TraceContextExt;
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        use tracing_subscriber::layer::SubscriberExt;
        let (layer, _guard) = otlp.layer().unwrap();
        tracing::subscriber::with_default(tracing_subscriber::registry().with(layer), || {
            let span = tracing::info_span!("request");
            span.context().span().span_context().is_valid()
        })
    }

    #[test]
    fn turned_off_the_layer_records_nothing() {
        // A closed port: nothing is sent before the guard is dropped.
        let on = Otlp::new().endpoint("http://127.0.0.1:9/v1/traces").ignore_env();
        assert!(records(&on));
        assert!(!records(&on.clone().enabled(false)));
        let f = file("[otel]\nenabled = false\n");
        assert!(!records(&on.config_file(f.path()).unwrap()), "turned off by the file");
    }
}
