//! `examples/auth.rs`, through the mock client and over a socket: an
//! interceptor stores the principal, a `CurrentUser` resolver reads it
//! (401 when absent), a user response type keeps negotiation.
#![deny(warnings)]

mod support;

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/auth.rs"]
mod auth;

use support::{http1, TestServer};

#[test]
fn mock_client_401_without_credentials_and_the_name_with_them() {
    let client = auth::app().mock().unwrap();

    let res = client.get("/api/me").send_blocking();
    assert_eq!(res.status(), 401);
    assert_eq!(res.header("www-authenticate"), Some("Bearer"));
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    assert!(res.text().contains("sign in"), "{}", res.text());

    let res = client.get("/api/me").header("authorization", "Bearer s3cret").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (200, "ada".to_owned()));

    let res = client.get("/api/me").header("authorization", "Bearer wrong").send_blocking();
    assert_eq!(res.status(), 401);
}

#[test]
fn request_attribute_is_optional_where_the_handler_says_so() {
    let client = auth::app().mock().unwrap();
    assert_eq!(client.get("/api/hello").send_blocking().text(), "hello, stranger");
    let res = client.get("/api/hello").header("authorization", "Bearer hunter2").send_blocking();
    assert_eq!(res.text(), "hello, bob");
}

#[test]
fn a_user_response_type_sets_headers_and_is_negotiated() {
    let client = auth::app().mock().unwrap();
    let res = client.get("/api/profile").header("authorization", "Bearer hunter2").send_blocking();
    assert_eq!(res.status(), 200);
    assert_eq!(res.header("x-role"), Some("user"));
    assert_eq!(res.header("cache-control"), Some("private"));
    assert_eq!(res.header("content-type"), Some("application/json"));
    assert_eq!(res.json::<serde_json::Value>(), serde_json::json!({"name": "bob", "admin": false}));

    // The route produces JSON only: a client that takes only HTML gets 406,
    // so the type's body went through negotiation, not around it.
    let res = client
        .get("/api/profile")
        .header("authorization", "Bearer s3cret")
        .header("accept", "text/html")
        .send_blocking();
    assert_eq!(res.status(), 406);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_a_socket() {
    let server = TestServer::start(auth::app());
    let client = http1();

    let res = client.get(server.url("/api/me")).send().await.unwrap();
    assert_eq!(res.status(), 401);
    assert_eq!(res.headers()["www-authenticate"], "Bearer");

    let res = client.get(server.url("/api/me")).bearer_auth("s3cret").send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "ada");

    let res = client.get(server.url("/api/profile")).bearer_auth("s3cret").send().await.unwrap();
    assert_eq!(res.headers()["x-role"], "admin");
    assert_eq!(res.text().await.unwrap(), r#"{"name":"ada","admin":true}"#);
}
