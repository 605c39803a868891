//! OpenTelemetry export (feature `otel`): a request with a `traceparent`
//! gives an OTLP span posted to a collector this test runs itself (a
//! Restlight route that decodes the protobuf export request), named by
//! the route template, with the caller's trace and span as its parent, the
//! HTTP semantic-convention attributes, and the handler's own span as its
//! child; the handler's `TraceContext` carries the exported span's ID.
//! The export and the server are configured by one file: its `[otel]` table
//! (endpoint, service name over the code's, sampler, a header the collector
//! must receive) and its `[server]` switches; the actuator's `config`
//! endpoint shows those export settings, the header's value masked.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use restlight_core::{get, post, TraceContext};
use restlight_server::Otlp;
use support::{restlight, TempFile};
use tracing_subscriber::layer::SubscriberExt;

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER: &str = "00f067aa0ba902b7";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn attr(span: &Span, key: &str) -> Option<String> {
    let kv = span.attributes.iter().find(|kv| kv.key == key)?;
    Some(match kv.value.as_ref()?.value.as_ref()? {
        Value::StringValue(s) => s.clone(),
        Value::IntValue(i) => i.to_string(),
        Value::BoolValue(b) => b.to_string(),
        other => format!("{other:?}"),
    })
}

#[test]
fn request_spans_reach_the_collector_with_the_callers_trace() {
    // The collector: OTLP/HTTP is a protobuf `ExportTraceServiceRequest`
    // posted to /v1/traces.
    let received: Arc<Mutex<Vec<(String, Span)>>> = Arc::default();
    let tenants: Arc<Mutex<Vec<String>>> = Arc::default();
    let (sink, tenant_sink) = (Arc::clone(&received), Arc::clone(&tenants));
    let collector = restlight()
        .route(post("/v1/traces").handle(move |ctx| {
            let (sink, tenant_sink) = (Arc::clone(&sink), Arc::clone(&tenant_sink));
            async move {
                tenant_sink.lock().unwrap().push(ctx.header("x-tenant").unwrap_or("none").to_owned());
                let export = ExportTraceServiceRequest::decode(ctx.body().clone()).expect("an OTLP export request");
                for resource in export.resource_spans {
                    let service = resource
                        .resource
                        .iter()
                        .flat_map(|r| &r.attributes)
                        .find(|kv| kv.key == "service.name")
                        .and_then(|kv| match kv.value.as_ref()?.value.as_ref()? {
                            Value::StringValue(s) => Some(s.clone()),
                            _ => None,
                        })
                        .unwrap_or_default();
                    for scope in resource.scope_spans {
                        for span in scope.spans {
                            sink.lock().unwrap().push((service.clone(), span));
                        }
                    }
                }
                http::Response::builder()
                    .header("content-type", "application/x-protobuf")
                    .body(restlight_core::Body::from(ExportTraceServiceResponse::default().encode_to_vec()))
                    .unwrap()
            }
        }))
        .start()
        .unwrap();

    let config = TempFile::new(
        ".toml",
        &format!(
            "[server]\nrequest_ids = true\ntrace_context = true\n\n[actuator]\nexpose = [\"metrics\", \"config\"]\n\n\
             [otel]\nendpoint = \"http://{}/v1/traces\"\nservice_name = \"orders\"\nsampler_ratio = 1.0\n\
             headers = {{ x-tenant = \"shop-1\" }}\n",
            collector.local_addr()
        ),
    );
    // The file's service name wins over the code's.
    let (layer, guard) =
        Otlp::new().service_name("from-code").config_file(config.path()).unwrap().ignore_env().layer().unwrap();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).unwrap();

    let app = restlight()
        .route(get("/orders/{id}").handle(|ctx| async move {
            let _load = tracing::info_span!("load_order").entered();
            let mut out = http::Request::get("http://next/").body(()).unwrap();
            ctx.attribute::<TraceContext>().expect("trace context on").inject(&mut out);
            out.headers()["traceparent"].to_str().unwrap().to_owned()
        }))
        .config_file(config.path())
        .unwrap()
        .ignore_env()
        .start()
        .unwrap();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (status, injected) = rt.block_on(async {
        let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
        let res = client
            .get(format!("http://{}/orders/7", app.local_addr()))
            .header("traceparent", format!("00-{TRACE}-{CALLER}-01"))
            .header("x-request-id", "otel-1")
            .send()
            .await
            .unwrap();
        (res.status(), res.text().await.unwrap())
    });
    assert_eq!(status, 200);
    guard.flush().unwrap();

    // The exported (sampled) request is its latency bucket's exemplar.
    let exemplar = format!(" # {{trace_id=\"{TRACE}\"}} ");
    let deadline = Instant::now() + Duration::from_secs(10);
    let scrape = loop {
        let scrape = rt.block_on(async {
            reqwest::Client::new()
                .get(format!("http://{}/actuator/metrics", app.local_addr()))
                .header("accept", "application/openmetrics-text; version=1.0.0")
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        });
        if scrape.contains(&exemplar) || Instant::now() > deadline {
            break scrape;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        scrape.lines().any(|l| l.contains("route=\"/orders/{id}\"") && l.contains(&exemplar)),
        "no exemplar for {TRACE} in\n{scrape}"
    );

    // The `config` endpoint shows the export's settings, the header's value masked.
    let config_text = rt.block_on(async {
        let url = format!("http://{}/actuator/config", app.local_addr());
        reqwest::get(url).await.unwrap().text().await.unwrap()
    });
    let shown: serde_json::Value = serde_json::from_str(&config_text).unwrap();
    let otel = &shown["otel"];
    assert_eq!(otel["enabled"], true, "{config_text}");
    assert_eq!(otel["endpoint"], format!("http://{}/v1/traces", collector.local_addr()));
    assert_eq!(otel["serviceName"], "orders");
    assert_eq!(otel["sampler"]["ratio"], 1.0);
    assert_eq!(otel["headers"]["x-tenant"], "******");
    assert!(!config_text.contains("shop-1"), "a header value is shown: {config_text}");

    let deadline = Instant::now() + Duration::from_secs(10);
    let spans = loop {
        let spans = received.lock().unwrap().clone();
        if spans.len() >= 2 || Instant::now() > deadline {
            break spans;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let server =
        spans.iter().map(|(_, s)| s).find(|s| s.name == "GET /orders/{id}").unwrap_or_else(|| {
            panic!("no server span in {:?}", spans.iter().map(|(_, s)| &s.name).collect::<Vec<_>>())
        });
    assert!(spans.iter().all(|(service, _)| service == "orders"), "the file's service name");
    assert!(tenants.lock().unwrap().iter().all(|t| t == "shop-1"), "the file's header: {tenants:?}");
    assert_eq!(server.kind, SpanKind::Server as i32);
    assert_eq!(hex(&server.trace_id), TRACE, "the caller's trace");
    assert_eq!(hex(&server.parent_span_id), CALLER, "the caller's span is the parent");
    for (key, value) in [
        ("http.request.method", "GET"),
        ("http.route", "/orders/{id}"),
        ("http.response.status_code", "200"),
        ("url.scheme", "http"),
        ("url.path", "/orders/7"),
        ("network.protocol.version", "1.1"),
        ("client.address", "127.0.0.1"),
        ("restlight.executor", "io"),
        ("request_id", "otel-1"),
    ] {
        assert_eq!(attr(server, key).as_deref(), Some(value), "{key}");
    }
    let own = hex(&server.span_id);
    assert_eq!(injected, format!("00-{TRACE}-{own}-01"), "calls made by the handler have the exported span as parent");
    let load = spans.iter().map(|(_, s)| s).find(|s| s.name == "load_order").expect("the handler's span");
    assert_eq!(hex(&load.trace_id), TRACE);
    assert_eq!(hex(&load.parent_span_id), own, "the handler's span is a child of the request's");

    app.shutdown();
    drop(guard);
    collector.shutdown();
}
