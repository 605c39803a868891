//! Requests refused before they reach the application: more than one or an
//! invalid `Host`, an HTTP/2 `host` that is not `:authority`, an
//! expectation other than `100-continue`, CONNECT, the asterisk-form target
//! outside OPTIONS, and paths with `.` or `..` segments (raw or
//! percent-encoded), over raw HTTP/1.1 sockets and a raw HTTP/2 client; and
//! an absolute-form target's authority taking the place of `Host`, the
//! rest of the checks applying to it all the same. Refused requests reach
//! no filter.

mod support;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use restlight_core::filter::{FilterRequest, Next};
use restlight_core::{get, post, RequestContext};
use support::{get_request, json, restlight, Raw, RawResponse};

fn server() -> restlight_server::ServerHandle {
    restlight()
        .route(get("/ping").handle(|_ctx| async { "pong" }))
        .route(post("/ping").handle(|_ctx| async { "posted" }))
        .route(get("/files/{path: .*}").handle(|ctx: RequestContext| async move {
            format!("file {}", ctx.path_param("path").unwrap_or_default())
        }))
        .start()
        .unwrap()
}

fn exchange(addr: SocketAddr, request: &str) -> RawResponse {
    let mut raw = Raw::connect(addr);
    raw.send(request);
    raw.response()
}

/// A 400 answered as problem details, closing the HTTP/1 connection.
fn assert_refused(res: &RawResponse, what: &str) -> serde_json::Value {
    assert_eq!(res.status, 400, "{what}: {}", res.text());
    assert_eq!(res.header("content-type"), Some("application/problem+json"), "{what}");
    assert_eq!(res.header("connection"), Some("close"), "{what}");
    let problem = json(res);
    assert_eq!(problem["status"], 400, "{what}");
    problem
}

#[test]
fn two_host_headers_are_400() {
    let server = server();
    for request in [
        "GET /ping HTTP/1.1\r\nHost: localhost\r\nHost: example.com\r\n\r\n",
        "GET /ping HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n",
        "GET /ping HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\nhost: localhost\r\n\r\n",
        "GET /ping HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
    ] {
        let problem = assert_refused(&exchange(server.local_addr(), request), request);
        assert!(problem["detail"].as_str().unwrap().contains("more than one Host"), "{problem}");
    }
    server.shutdown();
}

#[test]
fn an_invalid_host_value_is_400() {
    let server = server();
    for host in ["user@evil.example", "a/b", "a b", "host:80x", "[::1", "example.com:80:80", "h%zz"] {
        let request = format!("GET /ping HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let problem = assert_refused(&exchange(server.local_addr(), &request), host);
        assert!(problem["detail"].as_str().unwrap().contains("Host"), "{problem}");
    }
    server.shutdown();
}

#[test]
fn valid_hosts_and_http10_without_host_are_served() {
    let server = server();
    for host in ["localhost", "localhost:8080", "127.0.0.1:80", "[::1]:443", "a-b.example.com", ""] {
        let request = format!("GET /ping HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let res = exchange(server.local_addr(), &request);
        assert_eq!((res.status, res.text().as_str()), (200, "pong"), "Host: {host}");
    }
    let res = exchange(server.local_addr(), "GET /ping HTTP/1.0\r\n\r\n");
    assert_eq!(res.status, 200);
    server.shutdown();
}

#[test]
fn each_request_on_a_kept_alive_connection_has_its_host_checked() {
    // The connection remembers the last valid `Host` it sent: the same one
    // again is served, a different valid one too, and an invalid one after
    // valid ones is still refused.
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    for host in ["localhost:8080", "localhost:8080", "example.com", "localhost:8080", "", "localhost:8080"] {
        raw.send(format!("GET /ping HTTP/1.1\r\nHost: {host}\r\n\r\n"));
        let res = raw.response();
        assert_eq!((res.status, res.text().as_str()), (200, "pong"), "Host: {host}");
    }
    for bad in ["localhost:808o", "localhost:8080/", "localhost:80800x", "user@localhost:8080"] {
        let mut raw = Raw::connect(server.local_addr());
        for _ in 0..2 {
            raw.send("GET /ping HTTP/1.1\r\nHost: localhost:8080\r\n\r\n");
            assert_eq!(raw.response().status, 200, "{bad}");
        }
        raw.send(format!("GET /ping HTTP/1.1\r\nHost: {bad}\r\n\r\n"));
        let problem = assert_refused(&raw.response(), bad);
        assert!(problem["detail"].as_str().unwrap().contains("Host"), "{problem}");
    }
    // A second `Host` equal to the remembered one is still two.
    let mut raw = Raw::connect(server.local_addr());
    raw.send("GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!(raw.response().status, 200);
    raw.send("GET /ping HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n");
    let problem = assert_refused(&raw.response(), "two hosts");
    assert!(problem["detail"].as_str().unwrap().contains("more than one Host"), "{problem}");
    // A value too long to be remembered is checked every time.
    let long = format!("{}.example.com", "a".repeat(80));
    let mut raw = Raw::connect(server.local_addr());
    for _ in 0..2 {
        raw.send(format!("GET /ping HTTP/1.1\r\nHost: {long}\r\n\r\n"));
        assert_eq!(raw.response().status, 200);
    }
    raw.send(format!("GET /ping HTTP/1.1\r\nHost: {long}/\r\n\r\n"));
    assert_refused(&raw.response(), "long host");
    server.shutdown();
}

#[test]
fn asterisk_form_is_400_unless_options() {
    let server = server();
    for method in ["GET", "POST", "DELETE", "PUT"] {
        let request = format!("{method} * HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
        let mut raw = Raw::connect(server.local_addr());
        raw.send(&request);
        let res = raw.response();
        assert_eq!(res.status, 400, "{method} *");
        assert_eq!(res.header("connection"), Some("close"), "{method} *");
        assert!(json(&res)["detail"].as_str().unwrap().contains("only for OPTIONS"), "{}", res.text());
    }
    server.shutdown();
}

#[test]
fn options_asterisk_lists_methods_in_the_order_of_a_routes_allow() {
    let server = restlight()
        .route(restlight_core::patch("/items").handle(|_ctx| async { "patched" }))
        .route(restlight_core::delete("/items").handle(|_ctx| async { "deleted" }))
        .route(restlight_core::put("/items").handle(|_ctx| async { "put" }))
        .start()
        .unwrap();
    let asterisk = exchange(server.local_addr(), "OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let route = exchange(server.local_addr(), "OPTIONS /items HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!(asterisk.header("allow"), Some("PUT, DELETE, PATCH, OPTIONS"));
    assert_eq!(asterisk.header("allow"), route.header("allow"));
    server.shutdown();
}

#[test]
fn options_asterisk_is_200_with_the_servers_methods() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let res = raw.response();
    assert_eq!(res.status, 200);
    assert_eq!(res.header("allow"), Some("GET, HEAD, POST, OPTIONS"));
    assert_eq!(res.header("content-length"), Some("0"));
    assert!(res.body.is_empty());
    // The connection stays usable.
    raw.send(get_request("/ping"));
    assert_eq!(raw.response().text(), "pong");
    server.shutdown();
}

/// Paths whose segments include `.` or `..`, raw or encoded.
const DOT_PATHS: &[&str] = &[
    "/files/../../etc/passwd",
    "/files/a/../b",
    "/files/./a",
    "/files/%2e%2e/%2e%2e/etc/passwd",
    "/files/%2E%2E/etc/passwd",
    "/files/.%2e/etc/passwd",
    "/files/%2e./etc/passwd",
    "/files/..%2Fetc%2Fpasswd",
    "/files/a%2F..%2F..%2Fetc",
    "/files/..%5Cwindows",
    "/files/..;v=1/etc",
    "/files/a/..",
    "/files/%2e",
    "/ping/..",
];

/// Paths with dots that are not dot segments: served.
const DOTTED_NAMES: &[(&str, &str)] = &[
    ("/files/a.txt", "a.txt"),
    ("/files/.hidden/x", ".hidden/x"),
    ("/files/.../x", ".../x"),
    ("/files/a..b", "a..b"),
    ("/files/v1.2/..x", "v1.2/..x"),
];

#[test]
fn dot_segments_are_400_over_http1() {
    let server = server();
    for path in DOT_PATHS {
        let res = exchange(server.local_addr(), &get_request(path));
        let problem = assert_refused(&res, path);
        assert_eq!(problem["path"], *path);
        assert!(problem["detail"].as_str().unwrap().contains(path), "{problem}");
    }
    // A raw backslash is refused too (by hyper or by the rule).
    let res = exchange(server.local_addr(), "GET /files/..\\etc HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!(res.status, 400);
    for (path, param) in DOTTED_NAMES {
        let res = exchange(server.local_addr(), &get_request(path));
        assert_eq!((res.status, res.text()), (200, format!("file {param}")), "{path}");
    }
    server.shutdown();
}

/// `GET path` over a fresh h2c connection with the `h2` crate, which sends
/// the path exactly as given: the status and the body.
async fn h2_get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut client, conn) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(conn);
    let request = http::Request::get(format!("http://localhost{path}")).body(()).unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let response = response.await.unwrap();
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.unwrap();
        body.flow_control().release_capacity(chunk.len()).unwrap();
        bytes.extend_from_slice(&chunk);
    }
    (status, bytes)
}

#[tokio::test]
async fn dot_segments_are_400_over_h2c() {
    let server = server();
    for path in DOT_PATHS {
        let (status, body) = h2_get(server.local_addr(), path).await;
        assert_eq!(status, 400, "{path}: {}", String::from_utf8_lossy(&body));
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["path"], *path);
    }
    for (path, param) in DOTTED_NAMES {
        let (status, body) = h2_get(server.local_addr(), path).await;
        assert_eq!((status, String::from_utf8_lossy(&body).into_owned()), (200, format!("file {param}")), "{path}");
    }
    server.shutdown_async().await;
}

#[test]
fn an_expectation_other_than_100_continue_is_417_naming_it() {
    let server = server();
    let res = exchange(server.local_addr(), "GET /ping HTTP/1.1\r\nHost: localhost\r\nExpect: bogus\r\n\r\n");
    assert_eq!(res.status, 417, "{}", res.text());
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    assert_eq!(res.header("connection"), Some("close"));
    let problem = json(&res);
    assert_eq!(problem["expect"], "bogus");
    assert!(problem["detail"].as_str().unwrap().contains("100-continue"), "{problem}");
    // 100-continue is met, in any case; HTTP/1.0 expectations are ignored.
    let mut raw = Raw::connect(server.local_addr());
    raw.send("POST /ping HTTP/1.1\r\nHost: localhost\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\nhi");
    assert_eq!(raw.response().status, 100);
    let res = raw.response();
    assert_eq!((res.status, res.text().as_str()), (200, "posted"));
    let res = exchange(server.local_addr(), "GET /ping HTTP/1.0\r\nExpect: bogus\r\n\r\n");
    assert_eq!((res.status, res.text().as_str()), (200, "pong"));
    server.shutdown();
}

#[test]
fn connect_to_the_origin_server_is_501_and_closes() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    let res = raw.response();
    assert_eq!(res.status, 501, "{}", res.text());
    assert_eq!(res.header("connection"), Some("close"));
    assert_eq!(json(&res)["method"], "CONNECT");
    assert!(raw.closed_within(std::time::Duration::from_secs(5)).is_some(), "no tunnel: the connection ends");
    server.shutdown();
}

#[test]
fn an_absolute_form_targets_authority_replaces_the_host() {
    let server = restlight()
        .route(
            get("/host").handle(|ctx: RequestContext| async move { ctx.header("host").unwrap_or_default().to_owned() }),
        )
        .start()
        .unwrap();
    let res = exchange(server.local_addr(), "GET http://other.example:8080/host HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!((res.status, res.text().as_str()), (200, "other.example:8080"));
    // The same authority in another case is left as sent.
    let res = exchange(server.local_addr(), "GET http://LOCALHOST/host HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!((res.status, res.text().as_str()), (200, "localhost"));
    server.shutdown();
}

#[test]
fn an_absolute_form_request_is_checked_with_its_authority_as_host() {
    let server = server();
    // The authority taking the place of `Host` does not spare the rest of
    // the checks: a dot segment, an unmet expectation, two `Host` fields.
    let res = exchange(server.local_addr(), "GET http://other.example/files/../x HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!(assert_refused(&res, "dot segment")["path"], "/files/../x");
    let res = exchange(
        server.local_addr(),
        "GET http://other.example/ping HTTP/1.1\r\nHost: localhost\r\nExpect: bogus\r\n\r\n",
    );
    assert_eq!(res.status, 417, "{}", res.text());
    let res = exchange(
        server.local_addr(),
        "GET http://other.example/ping HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n",
    );
    assert!(assert_refused(&res, "two hosts")["detail"].as_str().unwrap().contains("more than one Host"));
    // CONNECT naming another authority than its `Host` is still no tunnel.
    let res = exchange(server.local_addr(), "CONNECT example.com:443 HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!(res.status, 501, "{}", res.text());
    let res = exchange(server.local_addr(), "GET http://other.example/ping HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert_eq!((res.status, res.text().as_str()), (200, "pong"));
    server.shutdown();
}

#[test]
fn requests_are_refused_before_the_filters_see_them() {
    let seen = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&seen);
    let server = restlight()
        .route(get("/ping").handle(|_ctx| async { "pong" }))
        .filter(move |req: FilterRequest, next: Next| {
            counted.fetch_add(1, Ordering::SeqCst);
            next.run(req)
        })
        .start()
        .unwrap();
    for request in [
        "GET /ping HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /ping HTTP/1.1\r\nHost: a b\r\n\r\n",
        "GET /ping HTTP/1.1\r\nHost: localhost\r\nExpect: bogus\r\n\r\n",
        "GET /a/../ping HTTP/1.1\r\nHost: localhost\r\n\r\n",
    ] {
        let res = exchange(server.local_addr(), request);
        assert!(matches!(res.status, 400 | 417), "{request}: {}", res.text());
    }
    assert_eq!(seen.load(Ordering::SeqCst), 0, "a refused request reached a filter");
    let res = exchange(server.local_addr(), &get_request("/ping"));
    assert_eq!((res.status, res.text().as_str()), (200, "pong"));
    assert_eq!(seen.load(Ordering::SeqCst), 1);
    server.shutdown();
}

#[tokio::test]
async fn an_h2_host_naming_another_authority_is_400() {
    let server = server();
    let tcp = tokio::net::TcpStream::connect(server.local_addr()).await.unwrap();
    let (mut client, conn) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(conn);
    for (host, status) in [("evil.example", 400), ("localhost", 200)] {
        let request = http::Request::get("http://localhost/ping").header("host", host).body(()).unwrap();
        let (response, _) = client.send_request(request, true).unwrap();
        let response = response.await.unwrap();
        assert_eq!(response.status().as_u16(), status, "host: {host}");
        let mut body = response.into_body();
        let mut bytes = Vec::new();
        while let Some(chunk) = body.data().await {
            bytes.extend_from_slice(&chunk.unwrap());
        }
        if status == 400 {
            let problem: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(problem["authority"], "localhost");
        }
    }
    server.shutdown_async().await;
}
