//! The two-service example (`examples/two_services.rs`): a request with a
//! `traceparent` through `checkout` and `orders` gives two spans of the
//! caller's trace, `orders`' a child of `checkout`'s, each named by its
//! route template, and both access-log lines carry the request ID.

#[path = "../examples/two_services.rs"]
mod example;
mod observe_support;

use observe_support::{access_line, captured, request_span};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER: &str = "00f067aa0ba902b7";

#[tokio::test]
async fn one_trace_across_two_services() {
    captured();
    let orders = example::orders_service().bind([127, 0, 0, 1]).port(0).start().unwrap();
    let checkout = example::checkout_service(format!("http://{}", orders.local_addr()))
        .bind([127, 0, 0, 1])
        .port(0)
        .start()
        .unwrap();
    let res = reqwest::Client::new()
        .get(format!("http://{}/checkout/7", checkout.local_addr()))
        .header("traceparent", format!("00-{TRACE}-{CALLER}-01"))
        .header("x-request-id", "two-services-1")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-request-id"], "two-services-1");
    assert_eq!(res.text().await.unwrap(), "checked out order 7: 2 items");

    let front = request_span("otel.name", "GET /checkout/{id}");
    let back = request_span("otel.name", "GET /orders/{id}");
    assert_eq!(front.field("trace_id"), Some(TRACE));
    assert_eq!(back.field("trace_id"), Some(TRACE));
    assert_eq!(front.field("parent_id"), Some(CALLER));
    assert_eq!(back.field("parent_id"), front.field("span_id"), "orders' span is a child of checkout's");
    assert_eq!(front.field("request_id"), Some("two-services-1"));
    assert_eq!(back.field("request_id"), Some("two-services-1"));

    let front = access_line("\"GET /checkout/7 HTTP/1.1\"");
    let back = access_line("\"GET /orders/7 HTTP/1.1\"");
    for line in [front, back] {
        assert!(line.ends_with(&format!("id=two-services-1 trace={TRACE}")), "{line}");
    }
    checkout.shutdown();
    orders.shutdown();
}
