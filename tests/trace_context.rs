//! W3C Trace Context: `traceparent` continued or a trace started, a span per
//! request named by its route template with the HTTP semantic-convention
//! attributes, handlers' spans nested under it, and the context handed to
//! handlers for their own calls.

mod observe_support;
mod support;

use std::time::Duration;

use observe_support::{access_line, captured, request_span, wait_for};
use restlight::prelude::*;
use restlight::trace::{TRACEPARENT, TRACESTATE};
use restlight::AccessLog;
use serde_json::{json, Value};
use support::{h2c, http1, TestServer};

#[derive(Default)]
struct Traced;

/// What a handler sees, and what it would send to the next service.
fn seen(trace: &TraceContext, marker: &str) -> Value {
    let _lookup = tracing::info_span!("lookup", marker).entered();
    tracing::info!("looking up");
    let mut out = http::Request::get("http://next/").body(()).unwrap();
    trace.inject(&mut out);
    json!({
        "trace": trace.trace_id().to_string(),
        "span": trace.span_id().to_string(),
        "parent": trace.parent_span_id().map(|p| p.to_string()),
        "sampled": trace.is_sampled(),
        "traceparent": out.headers().get(TRACEPARENT).map(|v| v.to_str().unwrap().to_owned()),
        "tracestate": out.headers().get(TRACESTATE).map(|v| v.to_str().unwrap().to_owned()),
    })
}

#[restlight::path("/traced")]
impl Traced {
    #[get]
    #[path("/orders/{id}")]
    async fn order(&self, #[path_param] id: String, #[context] trace: &TraceContext) -> Json<Value> {
        Json(seen(trace, &id))
    }

    #[get]
    #[path("/biz/{id}")]
    #[scheduled(biz)]
    fn on_biz(&self, #[path_param] id: String, #[context] trace: &TraceContext) -> Json<Value> {
        Json(seen(trace, &id))
    }
}

const TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
const CALLER: &str = "b7ad6b7169203331";

async fn call(client: &reqwest::Client, url: String, headers: &[(&str, &str)]) -> Value {
    let mut req = client.get(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

fn server() -> Restlight {
    // A short shutdown: the test's clients keep their connections open.
    Restlight::new().trace_context(true).access_log(AccessLog::new()).shutdown_timeout(Duration::from_millis(200))
}

#[tokio::test]
async fn a_caller_trace_is_continued_in_a_span_named_by_the_route() {
    captured();
    let server = TestServer::start(server());
    let parent = format!("00-{TRACE}-{CALLER}-01");
    let seen = call(
        &http1(),
        server.url("/traced/orders/first"),
        &[("traceparent", &parent), ("tracestate", "congo=t61rcWkgMzE")],
    )
    .await;
    assert_eq!(seen["trace"], TRACE);
    assert_eq!(seen["parent"], CALLER);
    assert_eq!(seen["sampled"], true);
    let span_id = seen["span"].as_str().unwrap().to_owned();
    assert_ne!(span_id, CALLER);
    assert_eq!(seen["traceparent"], format!("00-{TRACE}-{span_id}-01"), "the next call's parent is this span");
    assert_eq!(seen["tracestate"], "congo=t61rcWkgMzE");

    let span = request_span("span_id", &span_id);
    assert_eq!(span.name, "request");
    for (field, value) in [
        ("otel.name", "GET /traced/orders/{id}"),
        ("otel.kind", "server"),
        ("http.request.method", "GET"),
        ("http.route", "/traced/orders/{id}"),
        ("http.response.status_code", "200"),
        ("url.scheme", "http"),
        ("url.path", "/traced/orders/first"),
        ("network.protocol.version", "1.1"),
        ("client.address", "127.0.0.1"),
        ("restlight.executor", "io"),
        ("trace_id", TRACE),
        ("parent_id", CALLER),
    ] {
        assert_eq!(span.field(field), Some(value), "{field} in {span:?}");
    }
    let sent: u64 = span.field("http.response.body.size").unwrap().parse().unwrap();
    assert!(sent > 50, "{span:?}");

    // The handler's own span and event nest under the request's.
    let lookup =
        wait_for(|c| c.spans.iter().find(|s| s.name == "lookup" && s.field("marker") == Some("first")).cloned());
    assert_eq!(lookup.parent.unwrap().get("span_id"), Some(&span_id));
    let event = wait_for(|c| {
        c.events
            .iter()
            .find(|e| e.message() == "looking up" && e.scope.get("marker").is_some_and(|m| m == "first"))
            .cloned()
    });
    assert_eq!(event.scope["trace_id"], TRACE);
    assert!(access_line(&format!("trace={TRACE}")).contains("\"GET /traced/orders/first HTTP/1.1\" 200 "));
}

#[tokio::test]
async fn a_handler_on_a_business_thread_nests_too() {
    captured();
    let server = TestServer::start(server());
    let seen = call(&h2c(), server.url("/traced/biz/second"), &[]).await;
    let span_id = seen["span"].as_str().unwrap().to_owned();
    let span = request_span("span_id", &span_id);
    assert_eq!(span.field("restlight.executor"), Some("biz"));
    assert_eq!(span.field("otel.name"), Some("GET /traced/biz/{id}"));
    assert_eq!(span.field("network.protocol.version"), Some("2"));
    let lookup =
        wait_for(|c| c.spans.iter().find(|s| s.name == "lookup" && s.field("marker") == Some("second")).cloned());
    assert_eq!(lookup.parent.unwrap().get("span_id"), Some(&span_id));
}

#[tokio::test]
async fn malformed_trace_headers_start_a_new_trace() {
    captured();
    let server = TestServer::start(server());
    let client = http1();
    for parent in [
        "garbage",
        "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    ] {
        let seen =
            call(&client, server.url("/traced/orders/third"), &[("traceparent", parent), ("tracestate", "a=b")]).await;
        assert_eq!(seen["parent"], Value::Null, "{parent}");
        assert_ne!(seen["trace"], TRACE);
        assert_eq!(seen["trace"].as_str().unwrap().len(), 32);
        assert_eq!(seen["sampled"], true);
        assert_eq!(seen["tracestate"], Value::Null, "a tracestate without its traceparent is dropped");
    }
}

#[tokio::test]
async fn an_unrouted_request_keeps_the_method_as_its_name() {
    captured();
    let server = TestServer::start(server());
    let parent = format!("00-{TRACE}-1111111111111111-00");
    let res = http1().get(server.url("/nowhere")).header("traceparent", &parent).send().await.unwrap();
    assert_eq!(res.status(), 404);
    let span = request_span("parent_id", "1111111111111111");
    assert_eq!(span.field("otel.name"), Some("GET"));
    assert_eq!(span.field("http.response.status_code"), Some("404"));
    assert_eq!(span.field("http.route"), None);
}

#[test]
fn the_mock_client_and_a_server_without_it_give_an_empty_context() {
    let client = Restlight::new().mock().unwrap();
    let seen: Value = client.get("/traced/orders/x").send_blocking().json();
    assert_eq!(seen["trace"], "00000000000000000000000000000000");
    assert_eq!(seen["traceparent"], Value::Null, "nothing is injected");
}
