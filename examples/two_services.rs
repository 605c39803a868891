//! Two services, one trace: `checkout` calls `orders`, passing on the
//! W3C trace context and the request ID, so both access-log lines carry the
//! same request ID and trace ID, and the `orders` span is a child of the
//! `checkout` span.
//!
//! ```text
//! cargo run --example two_services
//! curl -i localhost:18090/checkout/7 \
//!   -H 'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' \
//!   -H 'x-request-id: demo-1'
//! ```
//!
//! The access log (target `restlight::access`) then shows two lines like
//!
//! ```text
//! ... "GET /orders/7 HTTP/1.1" 200 ... route=/orders/{id} scheduler=io id=demo-1 trace=4bf92f3577b34da6a3ce929d0e0e4736
//! ... "GET /checkout/7 HTTP/1.1" 200 ... route=/checkout/{id} scheduler=io id=demo-1 trace=4bf92f3577b34da6a3ce929d0e0e4736
//! ```

use restlight::prelude::*;
use restlight::AccessLog;

/// The downstream service: answers `GET /orders/{id}`.
pub fn orders_service() -> Restlight {
    Restlight::new()
        .annotated_routes(false)
        .route(get("/orders/{id}").handle(|ctx| async move {
            let id = ctx.path_param("id").unwrap_or_default().to_owned();
            tracing::info!(order = %id, "looking the order up");
            format!("order {id}: 2 items")
        }))
        .request_ids(true)
        .trace_context(true)
        .access_log(AccessLog::new())
}

/// The calling service: `GET /checkout/{id}` asks `orders` (at
/// `orders_url`) for the order, with the trace context and request ID of
/// the request it serves.
pub fn checkout_service(orders_url: String) -> Restlight {
    let client = reqwest::Client::new();
    Restlight::new()
        .annotated_routes(false)
        .route(get("/checkout/{id}").handle(move |ctx| {
            let (client, orders_url) = (client.clone(), orders_url.clone());
            async move {
                let id = ctx.path_param("id").unwrap_or_default();
                let mut call = http::Request::get(format!("{orders_url}/orders/{id}")).body(()).unwrap();
                // `#[context] trace: &TraceContext` and `#[context] rid: &RequestId`
                // in an annotated handler; attributes in a builder route.
                if let Some(trace) = ctx.attribute::<TraceContext>() {
                    trace.inject(&mut call);
                }
                if let Some(rid) = ctx.attribute::<RequestId>() {
                    rid.inject(&mut call, "x-request-id");
                }
                let call = reqwest::Request::try_from(call.map(|()| reqwest::Body::from(""))).map_err(bad_gateway)?;
                let order = client.execute(call).await.map_err(bad_gateway)?.text().await.map_err(bad_gateway)?;
                Ok::<_, HttpError>(format!("checked out {order}"))
            }
        }))
        .request_ids(true)
        .trace_context(true)
        .access_log(AccessLog::new())
}

fn bad_gateway(e: impl std::fmt::Display) -> HttpError {
    HttpError::new(StatusCode::BAD_GATEWAY, format!("orders: {e}"))
}

#[allow(dead_code)]
fn main() -> restlight::Result<()> {
    tracing_subscriber::fmt().with_max_level(tracing::Level::INFO).init();
    let orders = orders_service().bind([127, 0, 0, 1]).port(18091).start()?;
    let orders_url = format!("http://{}", orders.local_addr());
    checkout_service(orders_url).bind([127, 0, 0, 1]).port(18090).run()?;
    orders.shutdown();
    Ok(())
}
