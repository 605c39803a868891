//! A filter or tower layer that answers by itself with an entity to be
//! negotiated (`Entity`) gets it written by the application's codecs, as a
//! route's answer would be.

use restlight_core::filter::Next;
use restlight_core::test::MockClient;
use restlight_core::{get, AppBuilder, Body, Entity, IntoResponse};

fn app_with_filter() -> restlight_core::App {
    AppBuilder::new()
        .annotated_routes(false)
        .route(get("/ping").handle(|_| async { "pong" }))
        .filter(|req: http::Request<Body>, next: Next| async move {
            if req.headers().contains_key("x-deny") {
                return Entity(serde_json::json!({"denied": true})).into_response();
            }
            next.run(req).await
        })
        .build()
        .unwrap()
}

#[test]
fn a_filter_answering_with_an_entity_gets_it_encoded() {
    let client = MockClient::new(app_with_filter());
    let res = client.get("/ping").header("x-deny", "1").header("accept", "application/json").send_blocking();
    assert_eq!(res.status(), 200);
    assert_eq!(res.header("content-type"), Some("application/json"));
    assert_eq!(res.text(), r#"{"denied":true}"#);
    // Requests the filter passes on are routed as before.
    assert_eq!(client.get("/ping").send_blocking().text(), "pong");
}

#[test]
fn a_layer_answering_with_an_entity_gets_it_encoded() {
    let app = AppBuilder::new()
        .annotated_routes(false)
        .route(get("/ping").handle(|_| async { "pong" }))
        .layer(tower::util::MapResponseLayer::new(|res: http::Response<Body>| {
            if res.status() == http::StatusCode::OK {
                Entity(serde_json::json!({"wrapped": true})).into_response()
            } else {
                res
            }
        }))
        .build()
        .unwrap();
    let res = MockClient::new(app).get("/ping").header("accept", "application/json").send_blocking();
    assert_eq!(res.header("content-type"), Some("application/json"));
    assert_eq!(res.text(), r#"{"wrapped":true}"#);
}
