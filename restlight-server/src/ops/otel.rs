//! OpenTelemetry export of the request spans (feature `otel`): a
//! `tracing-opentelemetry` layer whose spans go, in batches and off the
//! request path, to an OTLP collector over HTTP/protobuf, sent with
//! hyper's client (no gRPC stack).

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::Resource;
use tracing::Subscriber;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

/// The most a collector's answer may hold.
const MAX_ANSWER: usize = 4 * 1024 * 1024;
/// How long one export may take, connection and answer included.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);

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
/// What the code does not set comes from the standard variables:
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT`
/// (default `http://localhost:4318/v1/traces`),
/// `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`,
/// `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`
/// and `OTEL_TRACES_SAMPLER_ARG` (default: parent-based, always on),
/// `OTEL_BSP_*` (the batch: size, delay, queue). Only `http://` endpoints
/// are supported (a collector or agent next to the service).
///
/// ```no_run
/// use restlight_server::{Otlp, Restlight};
/// use tracing_subscriber::layer::SubscriberExt;
/// use tracing_subscriber::util::SubscriberInitExt;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let (otel, _flush_on_drop) = Otlp::new().service_name("orders").layer()?;
/// tracing_subscriber::registry().with(otel).with(tracing_subscriber::fmt::layer()).init();
/// Restlight::new().request_ids(true).trace_context(true).run()?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Otlp {
    endpoint: Option<String>,
    service_name: Option<String>,
}

impl Otlp {
    /// Export settings from the `OTEL_*` variables and the defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// The full URL spans are posted to, e.g.
    /// `http://collector:4318/v1/traces`.
    ///
    /// Default: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` followed by `/v1/traces`, else
    /// `http://localhost:4318/v1/traces`.
    pub fn endpoint(mut self, url: &str) -> Self {
        self.endpoint = Some(url.to_owned());
        self
    }

    /// The `service.name` resource attribute.
    ///
    /// Default: `OTEL_SERVICE_NAME`, else `unknown_service`.
    pub fn service_name(mut self, name: &str) -> Self {
        self.service_name = Some(name.to_owned());
        self
    }

    /// The layer to add to the application's `tracing` subscriber, and the
    /// guard that sends what is left when it is dropped (keep it until the
    /// server has stopped).
    ///
    /// # Errors
    /// When the exporter cannot be built (an endpoint that is not a URL)
    /// or the export thread cannot start.
    pub fn layer<S>(&self) -> Result<(impl Layer<S> + 'static, OtelGuard), OtlpError>
    where
        S: Subscriber + for<'a> LookupSpan<'a>,
    {
        let client = HyperClient::new().map_err(|e| OtlpError(e.to_string()))?;
        let mut exporter = opentelemetry_otlp::SpanExporter::builder().with_http().with_http_client(client);
        if let Some(endpoint) = &self.endpoint {
            exporter = exporter.with_endpoint(endpoint.clone());
        }
        let exporter = exporter.build().map_err(|e| OtlpError(e.to_string()))?;
        let mut resource = Resource::builder();
        if let Some(name) = &self.service_name {
            resource = resource.with_service_name(name.clone());
        }
        let provider =
            SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource.build()).build();
        let tracer = provider.tracer("restlight");
        let layer = tracing_opentelemetry::layer().with_tracer(tracer);
        Ok((layer, OtelGuard { provider }))
    }
}

/// Sends the spans still waiting when dropped (or at
/// [`flush`](Self::flush)); returned by [`Otlp::layer`].
#[must_use = "dropping the guard shuts the export down"]
pub struct OtelGuard {
    provider: SdkTracerProvider,
}

impl OtelGuard {
    /// Sends the spans ended so far, waiting for the collector's answer.
    ///
    /// # Errors
    /// When the export failed or timed out.
    pub fn flush(&self) -> Result<(), OtlpError> {
        self.provider.force_flush().map_err(|e| OtlpError(e.to_string()))
    }
}

impl Drop for OtelGuard {
    fn drop(&mut self) {
        let _ = self.provider.shutdown();
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
}

impl HyperClient {
    fn new() -> std::io::Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("restlight-otlp")
            .enable_all()
            .build()?;
        let client = Client::builder(TokioExecutor::new()).build_http();
        Ok(Self { client, runtime: Some(runtime) })
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
    async fn send_bytes(&self, request: http::Request<Bytes>) -> Result<http::Response<Bytes>, BoxError> {
        let client = self.client.clone();
        let Some(runtime) = &self.runtime else { return Err("the export is shut down".into()) };
        let task = runtime.spawn(async move {
            let exchange = async {
                let res = client.request(request.map(Full::new)).await?;
                let (parts, body) = res.into_parts();
                let body = Limited::new(body, MAX_ANSWER).collect().await?.to_bytes();
                Ok::<_, BoxError>(http::Response::from_parts(parts, body))
            };
            tokio::time::timeout(EXPORT_TIMEOUT, exchange).await.map_err(|_| BoxError::from("timed out"))?
        });
        task.await?
    }
}
