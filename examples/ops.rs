//! Hello with the operations features switched by `OPS`, to measure what
//! they cost (see "Operations" in BENCHMARKS.md):
//!
//! ```text
//! cargo run --release --features access-log-file --example ops            # OPS=off
//! OPS=metrics cargo run --release --features access-log-file --example ops
//! OPS=log     ...   # access log to /tmp/restlight-access/access.YYYY-MM-DD
//! OPS=both    ...
//! OPS=ids     ...   # request IDs (x-request-id kept or made, sent back)
//! OPS=header  ...   # no request IDs: the handler writes a fixed x-request-id
//!                     # of a generated ID's length, marked sensitive as the
//!                     # server marks its IDs (every time, so over HTTP/2 its
//!                     # name is written out on every response, which the
//!                     # server's IDs avoid): what writing the header alone costs
//! OPS=trace   ...   # request IDs and trace context; no subscriber wants the span
//! OPS=spans   ...   # the same with a subscriber that records every span
//! OPS=exemplars ... # metrics, request IDs and trace context: every request
//!                     # (a new, sampled trace) leaves its latency bucket's exemplar
//! OPS=otel cargo run --release --features access-log-file,otel --example ops
//!                     # the same with OpenTelemetry export: every span sampled
//!                     # and batch-exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT
//!                     # (default here: a closed port, 127.0.0.1:9)
//! curl localhost:18089/hello
//! curl localhost:18089/actuator/metrics   # with OPS=metrics or both
//! ```

use restlight::http::{HeaderName, HeaderValue};
use restlight::prelude::*;
use restlight::{AccessLog, Actuator, Endpoint};

fn main() -> restlight::Result<()> {
    let ops = std::env::var("OPS").unwrap_or_else(|_| "off".to_owned());
    let hello = if ops == "header" {
        get("/hello").handle(|_ctx| async { with_fixed_id("Hello Restlight!") })
    } else {
        get("/hello").handle(|_ctx| async { "Hello Restlight!" })
    };
    let mut server = Restlight::new().route(hello).bind([127, 0, 0, 1]).port(18089);
    if ops == "metrics" || ops == "both" || ops == "exemplars" {
        server = server.actuator(Actuator::new().expose(&[Endpoint::Health, Endpoint::Metrics]));
    }
    if ops == "log" || ops == "both" {
        server = server.access_log(AccessLog::new().daily_file("/tmp/restlight-access", "access"));
    }
    if ops == "ids" || ops == "trace" || ops == "spans" || ops == "otel" || ops == "exemplars" {
        server = server.request_ids(true);
    }
    if ops == "trace" || ops == "spans" || ops == "otel" || ops == "exemplars" {
        server = server.trace_context(true);
    }
    if ops == "spans" {
        // Every span is built and recorded (the registry keeps its fields'
        // storage), and nothing is printed.
        use tracing_subscriber::layer::SubscriberExt;
        let subscriber = tracing_subscriber::registry().with(tracing_subscriber::filter::LevelFilter::INFO);
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
    }
    #[cfg(feature = "otel")]
    let _flush = if ops == "otel" {
        use tracing_subscriber::layer::SubscriberExt;
        let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
            .map_or_else(|_| "http://127.0.0.1:9/v1/traces".to_owned(), |e| format!("{e}/v1/traces"));
        let (otel, flush) = restlight::Otlp::new().endpoint(&endpoint).service_name("ops").layer().expect("otlp");
        let subscriber = tracing_subscriber::registry().with(tracing_subscriber::filter::LevelFilter::INFO).with(otel);
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
        Some(flush)
    } else {
        None
    };
    server.run()
}

/// `text` with an `x-request-id` of the length of a generated one, the
/// same on every response and marked sensitive as the server marks its IDs,
/// so HTTP/2 sends it as a literal each time: what any such header costs
/// to write, with none of the request-ID code. (The server leaves one ID of
/// each connection unmarked, which puts the name in the connection's table;
/// a handler cannot tell its connection's first response, so this header's
/// name is written out every time.)
fn with_fixed_id(text: &'static str) -> restlight::Response {
    let mut res = text.into_response();
    const NAME: HeaderName = HeaderName::from_static("x-request-id");
    let mut id = HeaderValue::from_static("0123456789abcdef01234567");
    id.set_sensitive(true);
    res.headers_mut().insert(NAME, id);
    res
}
